"""An .xlsx package edited part by part, for fast writes that keep everything a GM made.

openpyxl would load every cell of every tab and write them all again; on a big event that is most of
a command's time, and it rewrites what the GM made in Excel (shared strings, styles, parts openpyxl
does not know). :class:`Package` instead keeps every part of the zip as it is and changes only:

- the tool's tabs: their sheet XML written afresh from the :class:`~..base.Tab` (values as inline
  text, numbers, booleans, dates; the formats of :class:`~..base.TabFormat`);
- the GM tabs that get rows or cells (:class:`~..base.Append`, :class:`~..base.Update`): only the rows
  concerned are rewritten, every other row is copied as text;
- ``styles.xml``: the cell formats these need, added after the GM's own (an identical one is reused);
- ``workbook.xml``, its relationships and ``[Content_Types].xml`` when a tab is added; the
  calculation chain, which Excel rebuilds, is dropped because rewritten cells may have held formulas.

A new workbook starts from a minimal package (:meth:`Package.blank`) and takes the same path. Parts
are edited as text, not parsed and serialised again, so the namespace prefixes and extensions Excel
and LibreOffice write survive; XML (Extensible Markup Language) is parsed (ElementTree) only to read
structure.

Reading (:meth:`Package.values`) takes the cells' values from the sheets' XML with regular
expressions instead of openpyxl's element-by-element parse, three to four times faster, and gives
what openpyxl gives with ``data_only`` (the tests compare the two on every shape of cell).

One job per module:

- :mod:`.xmltext`: XML text: namespaces, escaping, attributes, inserting elements;
- :mod:`.cells`: one cell's XML, written from a value or taken apart;
- :mod:`.styles`: the cell formats (``styles.xml``), read and added to;
- :mod:`.reader`: a worksheet's values read from its XML;
- :mod:`.tool_tabs`: the tool's tabs written whole;
- :mod:`.gm_tabs`: the GM's tabs patched row by row;
- :mod:`.package`: the zip's parts, their relationships, :class:`Package` itself;
- :mod:`.archive`: the zip itself, read with each part's stored bytes and written copying the unchanged
  parts as stored.
"""

from __future__ import annotations

from .package import Package
from .xmltext import PackageError, StrictWorkbook

__all__ = ["Package", "PackageError", "StrictWorkbook"]
