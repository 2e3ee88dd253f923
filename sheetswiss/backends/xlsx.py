"""An .xlsx package edited part by part, for fast writes that keep everything a GM made.

openpyxl would load every cell of every tab and write them all again; on a big event that is most of
a command's time, and it rewrites what the GM made in Excel (shared strings, styles, parts openpyxl
does not know). :class:`Package` instead keeps every part of the zip as it is and changes only:

- the tool's tabs: their sheet XML written afresh from the :class:`~.base.Tab` (values as inline
  text, numbers, booleans, dates; the formats of :class:`~.base.TabFormat`);
- the GM tabs that get rows or cells (:class:`~.base.Append`, :class:`~.base.Update`): only the rows
  concerned are rewritten, every other row is copied as text;
- ``styles.xml``: the cell formats these need, added after the GM's own (an identical one is reused);
- ``workbook.xml``, its relationships and ``[Content_Types].xml`` when a tab is added; the
  calculation chain, which Excel rebuilds, is dropped because rewritten cells may have held formulas.

A new workbook starts from a minimal package (:meth:`Package.blank`) and takes the same path. Parts
are edited as text, not parsed and serialised again, so the namespace prefixes and extensions Excel
and LibreOffice write survive; XML is parsed (ElementTree) only to read structure.

Reading (:meth:`Package.values`) takes the cells' values from the sheets' XML with regular
expressions instead of openpyxl's element-by-element parse, three to four times faster, and gives
what openpyxl gives with ``data_only`` (the tests compare the two on every shape of cell).
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import math
import posixpath
import re
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar, NamedTuple

from openpyxl.styles.numbers import BUILTIN_FORMATS, BUILTIN_FORMATS_REVERSE, is_date_format, is_timedelta_format
from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel, from_ISO8601, to_excel
from openpyxl.writer.theme import theme_xml

from ..errors import BadWorkbook
from .base import (
    Append,
    Band,
    Changes,
    Look,
    Tab,
    Uncalculated,
    Update,
    Validation,
    Value,
    column_index,
    column_letter,
)

__all__ = ["Package", "PackageError", "StrictWorkbook"]

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = "[Content_Types].xml"
WORKSHEET_TYPE = DOC_REL + "/worksheet"
WORKSHEET_CONTENT = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
STYLES_TYPE = DOC_REL + "/styles"
STYLES_CONTENT = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

BLANK_STYLES = (
    f'<styleSheet xmlns="{MAIN}">'
    '<fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/>'
    '<scheme val="minor"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>")
"""The cell formats of a new workbook: Calibri 11 and Excel's two required fills."""

TEXT_ROWS = 1000
"""How far down a Text-formatted column is pre-formatted in a tool tab."""

_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_REF = re.compile(r"([A-Za-z]{1,3})(\d+)")
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_DATE_FORMATS: Mapping[type, str] = {dt.datetime: "yyyy-mm-dd h:mm:ss", dt.date: "yyyy-mm-dd", dt.time: "h:mm:ss"}
"""openpyxl's formats for a date or time written into a cell that has no date format."""


class PackageError(Exception):
    """The file is a zip but not a workbook package this module can edit (a part missing or unreadable)."""


class StrictWorkbook(PackageError):
    """The package is in the Strict flavour of Office Open XML (ISO/IEC 29500 Strict: other namespaces,
    ISO dates), which Excel writes only when asked to and this module does not read."""


STRICT = "http://purl.oclc.org/ooxml/"
"""Where the Strict flavour's namespaces and relationship types begin."""


def _escape(text: str) -> str:
    """Text as XML content; a carriage return as a reference, which XML readers keep (a bare one they drop)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _attr(text: str) -> str:
    return _escape(text).replace('"', "&quot;")


def _unescape(text: str) -> str:
    """XML text content as a parser gives it: references resolved, line ends as ``\n``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "&" not in text:
        return text
    return _ENTITY.sub(lambda m: _NAMED.get(m[1]) or chr(int(m[1][2:], 16) if m[1][1] == "x" else int(m[1][1:])),
                       text)


def _content(raw: str) -> str:
    """The text of an element's raw content, CDATA sections included."""
    if "<![CDATA[" in raw:
        raw = re.sub(r"<!\[CDATA\[(.*?)\]\]>", lambda m: _escape(m[1]), raw, flags=re.S)
    return _unescape(raw)


def _attrs(tag: str) -> dict[str, str]:
    """The attributes of a start tag's text, unescaped."""
    return {m[1]: _unescape(m[2] if m[2] is not None else m[3]) for m in _ATTR.finditer(tag)}


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PackageError(f"{name} is not UTF-8") from None


def _parse(data: bytes | str, name: str) -> ET.Element:
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        raise PackageError(f"{name}: {e}") from None


def _prefix(text: str, local: str) -> str:
    """The namespace prefix of the first ``local`` element (``""`` or ``"x:"``): Excel writes none, other
    programs may write one, and whatever is added to the part must use the same."""
    m = re.search(rf"<(\w+:)?{local}\b", text)
    if m is None:
        raise PackageError(f"no <{local}> element")
    return m[1] or ""


def _insert(text: str, prefix: str, parent: str, items: str) -> str:
    """``text`` with ``items`` added as the last children of the first ``parent`` element."""
    m = re.search(rf"<{prefix}{parent}\b[^>]*?(/?)>", text)
    if m is None:
        raise PackageError(f"no <{parent}> element")
    if m[1]:
        opening = m[0][:-2].rstrip() + ">"
        return f"{text[:m.start()]}{opening}{items}</{prefix}{parent}>{text[m.end():]}"
    close = text.index(f"</{prefix}{parent}>", m.end())
    return text[:close] + items + text[close:]


def _number(value: float, where: str) -> str:
    if not math.isfinite(value):
        raise BadWorkbook(f"{where}: {value!r} is not a number a spreadsheet can hold")
    return repr(value)


def _date_format(value: Value) -> str | None:
    """The format openpyxl gives a date or time value, else ``None``."""
    for kind, code in _DATE_FORMATS.items():
        if isinstance(value, kind):
            return code
    return None


def _cell_xml(p: str, ref: str, value: Value, style: int, epoch: dt.datetime, where: str) -> str:
    """A ``<c>`` element: text inline (never a formula, whatever it starts with), numbers, booleans, dates
    as serial numbers; ``""`` for an empty cell without a style."""
    s = f' s="{style}"' if style else ""
    if value is None or value == "":
        return f'<{p}c r="{ref}"{s}/>' if style else ""
    if isinstance(value, str):
        if not value.isprintable() and _ILLEGAL.search(value):
            raise BadWorkbook(f"{where}: {value!r} has a control character that an .xlsx cell cannot hold")
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<{p}c r="{ref}"{s} t="inlineStr"><{p}is><{p}t{space}>{_escape(value)}</{p}t></{p}is></{p}c>'
    if isinstance(value, bool):
        return f'<{p}c r="{ref}"{s} t="b"><{p}v>{int(value)}</{p}v></{p}c>'
    if isinstance(value, int):
        return f'<{p}c r="{ref}"{s}><{p}v>{value}</{p}v></{p}c>'
    if isinstance(value, float):
        return f'<{p}c r="{ref}"{s}><{p}v>{_number(value, where)}</{p}v></{p}c>'
    if getattr(value, "tzinfo", None) is not None:
        raise BadWorkbook(f"{where}: {value!r} has a time zone, which a spreadsheet cell cannot hold")
    serial = float(to_excel(value, epoch))  # type: ignore[no-untyped-call]
    return f'<{p}c r="{ref}"{s}><{p}v>{_number(serial, where)}</{p}v></{p}c>'


# -- cell formats ---------------------------------------------------------------------------------------


_PLAIN = Look()


def _with_band(look: Look, band: Band, last_row: bool) -> Look:
    """How a cell that looked like ``look`` looks under ``band``: each property the band sets replaces the
    earlier one; the band's line goes under its last row only."""
    if band.fill:
        look = replace(look, fill=band.fill)
    if band.bold or band.italic:
        look = replace(look, bold=band.bold, italic=band.italic)
    if band.number_format:
        look = replace(look, number_format=band.number_format)
    if band.wrap or band.center:
        look = replace(look, wrap=band.wrap, center=band.center)
    if band.border_below and last_row:
        look = replace(look, border_below=True)
    return look


_FLAGS = {f"{{{MAIN}}}{flag}" for flag in ("b", "i", "strike", "outline", "shadow", "condense", "extend")}


def _key(el: ET.Element) -> tuple[object, ...]:
    """What makes two style records the same however a program spelt them: attributes and children in
    any order, ``"0"``/``"false"`` attributes as if absent, an ``apply...`` flag that is on as if absent
    (openpyxl leaves them out, and a missing one counts as on), ``<b val="1"/>`` as ``<b/>``: openpyxl,
    Excel and LibreOffice write the same format differently, and a format must not be added again after
    each save."""
    attrs = {k: "0" if k.startswith("apply") else v for k, v in el.attrib.items()
             if (v in ("0", "false")) == k.startswith("apply")}
    if el.tag in _FLAGS and attrs.get("val") in ("1", "true"):
        del attrs["val"]
    return el.tag, tuple(sorted(attrs.items())), (el.text or "").strip(), tuple(sorted(map(_key, el), key=repr))


def _element_xml(el: ET.Element, p: str) -> str:
    """A style record as text with the part's prefix (children of other namespaces, extensions, are left out)."""
    tag = el.tag.removeprefix(f"{{{MAIN}}}")
    attrs = "".join(f' {k}="{_attr(v)}"' for k, v in el.attrib.items() if not k.startswith("{"))
    inner = _escape(el.text.strip()) if el.text and el.text.strip() else ""
    inner += "".join(_element_xml(c, p) for c in el if c.tag.startswith(f"{{{MAIN}}}"))
    return f"<{p}{tag}{attrs}>{inner}</{p}{tag}>" if inner else f"<{p}{tag}{attrs}/>"


def _element(tag: str, children: tuple[ET.Element, ...] = (), /, **attrs: str) -> ET.Element:
    el = ET.Element(f"{{{MAIN}}}{tag}", attrs)
    el.extend(children)
    return el


class _Styles:
    """The workbook's cell formats (``styles.xml``), with those a write needs added after the existing ones.

    A format identical to an existing one is reused, so running a command again adds nothing.
    """

    SECTIONS: ClassVar[tuple[str, ...]] = (
        "numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles",
        "colors", "extLst")
    """The sections of ``styles.xml`` in the order the schema wants them."""
    GROWN: ClassVar[Mapping[str, str]] = {
        "numFmts": "numFmt", "fonts": "font", "fills": "fill", "borders": "border", "cellXfs": "xf"}
    """The sections a write may add to, and their records' element."""

    def __init__(self, data: bytes, name: str) -> None:
        self._text = _text(data, name)
        self._p = _prefix(self._text, "styleSheet")
        root = _parse(data, name)
        self._items: dict[str, list[ET.Element]] = {}
        self._known: dict[str, dict[tuple[object, ...], int]] = {}
        self._added: dict[str, list[str]] = {s: [] for s in self.GROWN}
        for section, item in self.GROWN.items():
            parent = root.find(f"{{{MAIN}}}{section}")
            self._items[section] = [] if parent is None else parent.findall(f"{{{MAIN}}}{item}")
            self._known[section] = {}
            for i, el in enumerate(self._items[section]):
                self._known[section].setdefault(_key(el), i)
        if not self._items["cellXfs"] or not self._items["fonts"]:
            raise PackageError(f"{name}: no cell formats")
        self._codes = {int(el.get("numFmtId", "-1")): el.get("formatCode", "") for el in self._items["numFmts"]}
        self._looks: dict[Look, int] = {_PLAIN: 0}
        self._derived: dict[tuple[int, str], int] = {}
        self._date_kinds: dict[int, int] = {}

    @property
    def changed(self) -> bool:
        return any(self._added.values())

    def _add(self, section: str, el: ET.Element) -> int:
        """The index of a record like ``el`` in ``section``, adding it when there is none."""
        key = _key(el)
        known = self._known[section]
        if key not in known:
            known[key] = len(self._items[section])
            self._items[section].append(el)
            self._added[section].append(_element_xml(el, self._p))
        return known[key]

    def _code(self, number_format_id: int) -> str:
        return self._codes.get(number_format_id) or BUILTIN_FORMATS.get(number_format_id, "General")

    def _number_format_id(self, code: str) -> int:
        for number_format_id, known in self._codes.items():
            if known == code:
                return number_format_id
        if code in BUILTIN_FORMATS_REVERSE:
            return BUILTIN_FORMATS_REVERSE[code]
        number_format_id = max([163, *self._codes]) + 1
        self._codes[number_format_id] = code
        self._add("numFmts", _element("numFmt", numFmtId=str(number_format_id), formatCode=code))
        return number_format_id

    def date_kind(self, xf: int) -> int:
        """How cell format ``xf`` shows numbers: 0 as numbers, 1 as dates or times, 2 as durations."""
        if xf not in self._date_kinds:
            items = self._items["cellXfs"]
            code = self._code(int(items[xf].get("numFmtId", "0"))) if 0 <= xf < len(items) else ""
            self._date_kinds[xf] = 2 if is_timedelta_format(code) else 1 if is_date_format(code) else 0
        return self._date_kinds[xf]

    def look(self, look: Look) -> int:
        """The cell format index for a tool tab's cell that looks like ``look``."""
        if look in self._looks:
            return self._looks[look]
        attrs = {"numFmtId": "0", "fontId": "0", "fillId": "0", "borderId": "0", "xfId": "0"}
        if look.number_format:
            attrs.update(numFmtId=str(self._number_format_id(look.number_format)), applyNumberFormat="1")
        if look.bold or look.italic:
            font = copy.deepcopy(self._items["fonts"][0])
            for child in [c for c in font if c.tag in (f"{{{MAIN}}}b", f"{{{MAIN}}}i")]:
                font.remove(child)
            for flag, on in (("i", look.italic), ("b", look.bold)):
                if on:
                    font.insert(0, _element(flag))
            attrs.update(fontId=str(self._add("fonts", font)), applyFont="1")
        if look.fill:
            solid = _element("patternFill", (_element("fgColor", rgb="FF" + look.fill.upper()),
                                             _element("bgColor", indexed="64")), patternType="solid")
            attrs.update(fillId=str(self._add("fills", _element("fill", (solid,)))), applyFill="1")
        if look.border_below:
            line = _element("bottom", (_element("color", rgb="FF444444"),), style="thin")
            sides = (_element("left"), _element("right"), _element("top"), line, _element("diagonal"))
            attrs.update(borderId=str(self._add("borders", _element("border", sides))), applyBorder="1")
        children: tuple[ET.Element, ...] = ()
        if look.wrap or look.center:
            align = {"horizontal": "center"} if look.center else {}
            if look.wrap:
                align.update(vertical="top", wrapText="1")
            children = (_element("alignment", **align),)
            attrs["applyAlignment"] = "1"
        self._looks[look] = self._add("cellXfs", _element("xf", children, **attrs))
        return self._looks[look]

    def with_number_format(self, xf: int, code: str) -> int:
        """The index of a cell format like ``xf`` (a GM cell's own) but showing numbers as ``code``."""
        if (xf, code) not in self._derived:
            items = self._items["cellXfs"]
            el = copy.deepcopy(items[xf] if 0 <= xf < len(items) else items[0])
            el.set("numFmtId", str(self._number_format_id(code)))
            el.set("applyNumberFormat", "1")
            self._derived[xf, code] = self._add("cellXfs", el)
        return self._derived[xf, code]

    def for_value(self, xf: int, value: Value) -> int:
        """``xf``, or a copy of it with a date format when ``value`` is a date or time it would show as a number."""
        code = _date_format(value)
        if code is None or self.date_kind(xf):
            return xf
        return self.with_number_format(xf, code)

    def xml(self) -> bytes:
        """``styles.xml`` with the added records: each grown section gets them at its end and a new count."""
        text, p = self._text, self._p
        for section, items in self._added.items():
            if not items:
                continue
            count = len(self._items[section])
            m = re.search(rf"<{p}{section}\b([^>]*?)(/?)>", text)
            if m is None:
                later = [s for s in self.SECTIONS[self.SECTIONS.index(section) + 1:]
                         if re.search(rf"<{p}{s}\b", text)]
                at = re.search(rf"<{p}{later[0]}\b", text) if later else None
                end = at.start() if at else text.index(f"</{p}styleSheet>")
                text = f'{text[:end]}<{p}{section} count="{count}">{"".join(items)}</{p}{section}>{text[end:]}'
                continue
            attrs = re.sub(r'\s+count\s*=\s*("[^"]*"|\'[^\']*\')', "", m[1])
            opening = f'<{p}{section}{attrs} count="{count}">'
            if m[2]:
                text = f"{text[:m.start()]}{opening}{''.join(items)}</{p}{section}>{text[m.end():]}"
            else:
                close = text.index(f"</{p}{section}>", m.end())
                text = f"{text[:m.start()]}{opening}{text[m.end():close]}{''.join(items)}{text[close:]}"
        return text.encode("utf-8")


# -- the tool's tabs ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Kept:
    """What a rewritten tool tab keeps of the sheet it replaces: whether it was the selected tab, its colour."""

    selected: bool = False
    tab_color: str = ""


def _kept(old: str) -> _Kept:
    view = re.search(r"<(?:\w+:)?sheetView\b[^>]*>", old)
    colour = re.search(r"<(?:\w+:)?tabColor\b([^>]*?)/?>", old)
    selected = view is not None and _attrs(view[0]).get("tabSelected") in ("1", "true")
    tab_color = ""
    if colour:
        tab_color = "<tabColor" + "".join(f' {k}="{_attr(v)}"' for k, v in _attrs(colour[1]).items()) + "/>"
    return _Kept(selected, tab_color)


def _tab_looks(tab: Tab) -> dict[int, dict[int, Look]]:
    """Row -> column -> look, for the cells that the tab's format touches."""
    fmt = tab.format
    looks: dict[int, dict[int, Look]] = {}
    text = replace(_PLAIN, number_format="@")
    if fmt.text_columns:
        for r in range(fmt.freeze_rows + 1, max(len(tab.rows), fmt.freeze_rows) + TEXT_ROWS):
            looks[r] = dict.fromkeys(fmt.text_columns, text)
    for band in fmt.bands:
        merged: dict[tuple[Look, bool], Look] = {}
        for r in range(band.first_row, band.last_row + 1):
            row = looks.setdefault(r, {})
            last = r == band.last_row
            for c in range(band.first_col, band.last_col + 1):
                before = row.get(c, _PLAIN)
                if (before, last) not in merged:
                    merged[before, last] = _with_band(before, band, last)
                row[c] = merged[before, last]
    return looks


def _sheet_xml(tab: Tab, styles: _Styles, epoch: dt.datetime, kept: _Kept) -> bytes:
    """A tool tab's whole sheet XML: values, cell formats, frozen rows, widths, page setup."""
    fmt = tab.format
    looks = _tab_looks(tab)
    height = max(len(tab.rows), max((r for r, row in looks.items() if row), default=0))
    width = max(max((len(row) for row in tab.rows), default=0),
                max((c for row in looks.values() for c in row), default=0))
    body: list[str] = []
    for r in range(1, height + 1):
        values = tab.rows[r - 1] if r <= len(tab.rows) else ()
        row_looks = looks.get(r, {})
        columns = sorted({c for c, v in enumerate(values, start=1) if v is not None and v != ""} | set(row_looks))
        cells = []
        for c in columns:
            value = values[c - 1] if c <= len(values) else None
            look = row_looks.get(c, _PLAIN)
            if look.number_format is None and (code := _date_format(value)):
                look = replace(look, number_format=code)
            ref = f"{column_letter(c)}{r}"
            cells.append(_cell_xml("", ref, value, styles.look(look), epoch, f"{tab.name}!{ref}"))
        body.append(f'<row r="{r}">{"".join(cells)}</row>' if cells else "")
    extent = f"A1:{column_letter(width)}{height}" if width and height else "A1"
    parts = [DECLARATION, f'<worksheet xmlns="{MAIN}" xmlns:r="{DOC_REL}">']
    if fmt.landscape or fmt.paper or kept.tab_color:
        fit = '<pageSetUpPr fitToPage="1"/>' if fmt.landscape or fmt.paper else ""
        parts.append(f"<sheetPr>{kept.tab_color}{fit}</sheetPr>")
    parts.append(f'<dimension ref="{extent}"/>')
    selected = ' tabSelected="1"' if kept.selected else ""
    if fmt.freeze_rows:
        top = f"A{fmt.freeze_rows + 1}"
        parts.append(f'<sheetViews><sheetView{selected} workbookViewId="0"><pane ySplit="{fmt.freeze_rows}" '
                     f'topLeftCell="{top}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" '
                     f'activeCell="{top}" sqref="{top}"/></sheetView></sheetViews>')
    else:
        parts.append(f'<sheetViews><sheetView{selected} workbookViewId="0"/></sheetViews>')
    parts.append('<sheetFormatPr defaultRowHeight="15"/>')
    if fmt.widths:
        parts.append("<cols>" + "".join(f'<col min="{c}" max="{c}" width="{w}" customWidth="1"/>'
                                        for c, w in enumerate(fmt.widths, start=1)) + "</cols>")
    parts.append("<sheetData>" + "".join(body) + "</sheetData>")
    if fmt.validations:
        parts.append(_validations_xml(fmt.validations))
    parts.append('<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>')
    if fmt.landscape:
        parts.append(f'<pageSetup orientation="landscape" fitToWidth="{fmt.pages_wide}" fitToHeight="0"/>')
    elif fmt.paper:
        size = {"letter": 1, "a4": 9}[fmt.paper]
        parts.append(f'<pageSetup paperSize="{size}" orientation="portrait" fitToWidth="1" fitToHeight="0"/>')
    if fmt.row_breaks:
        breaks = "".join(f'<brk id="{r}" max="16383" man="1"/>' for r in fmt.row_breaks)
        parts.append(f'<rowBreaks count="{len(fmt.row_breaks)}" manualBreakCount="{len(fmt.row_breaks)}">'
                     f"{breaks}</rowBreaks>")
    parts.append("</worksheet>")
    return "".join(parts).encode("utf-8")


def _validations_xml(validations: tuple[Validation, ...]) -> str:
    """The sheet's ``dataValidations``: a drop-down list per cell (a checkbox is a TRUE/FALSE list; Excel and
    LibreOffice enter the chosen word as a boolean)."""
    items = []
    for v in validations:
        words = ("TRUE", "FALSE") if v.checkbox else v.choices
        listed = _escape('"' + ",".join(words) + '"')
        ref = f"{column_letter(v.column)}{v.row}"
        items.append(f'<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1" '
                     f'sqref="{ref}"><formula1>{listed}</formula1></dataValidation>')
    return f'<dataValidations count="{len(items)}">{"".join(items)}</dataValidations>'


# -- the GM's tabs ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Edit:
    """What happens to one cell of a GM tab."""

    value: Value = None
    set_value: bool = False
    """Write ``value`` (``None`` empties the cell); else only the format changes."""
    text: bool = False
    """Format the cell as Text."""
    update: Update | None = None
    """The :class:`Update` this write comes from: the cell must be empty before it."""


@dataclass(slots=True)
class _TabEdits:
    """Every change to one GM tab: cells by row and column, and rows whose values are all emptied."""

    cells: dict[int, dict[int, _Edit]] = field(default_factory=dict)
    cleared: set[int] = field(default_factory=set)

    def cell(self, row: int, column: int) -> _Edit:
        return self.cells.setdefault(row, {}).setdefault(column, _Edit())

    def add_append(self, append: Append) -> None:
        last = append.first_row + len(append.rows) - 1
        for r, row in enumerate(append.rows, start=append.first_row):
            for c, value in enumerate(row, start=1):
                edit = self.cell(r, c)
                edit.value, edit.set_value = value, True
            for c in append.text_columns:
                self.cell(r, c).text = True
        self.cleared.update(range(last + 1, append.clear_through + 1))

    def add_update(self, update: Update) -> None:
        edit = self.cell(update.row, update.column)
        edit.value, edit.set_value, edit.update = update.value, True, update


class _Cell(NamedTuple):
    column: int
    attrs: dict[str, str]
    xml: str
    inner: str


def _cells(p: str, inner: str) -> tuple[list[_Cell], str]:
    """The cells of a row's content, with their columns (a cell without ``r`` follows the one before),
    and whatever follows the last cell (an extension list)."""
    out: list[_Cell] = []
    end = 0
    column = 0
    for m in re.finditer(rf"<{p}c\b([^>]*?)(?:/>|>(.*?)</{p}c>)", inner, re.S):
        attrs = _attrs(m[1])
        ref = _REF.fullmatch(attrs.get("r", ""))
        column = column_index(ref[1]) if ref else column + 1
        out.append(_Cell(column, attrs, m[0], m[2] or ""))
        end = m.end()
    return out, inner[end:]


def _with_style(p: str, cell: _Cell, row: int, style: int) -> str:
    """``cell`` as it was but with cell format ``style``."""
    attrs = {k: v for k, v in cell.attrs.items() if k not in ("r", "s")}
    s = f' s="{style}"' if style else ""
    rest = "".join(f' {k}="{_attr(v)}"' for k, v in attrs.items())
    ref = f"{column_letter(cell.column)}{row}"
    return f'<{p}c r="{ref}"{s}{rest}>{cell.inner}</{p}c>' if cell.inner else f'<{p}c r="{ref}"{s}{rest}/>'


class _Decoder:
    """Cell values from a sheet's XML, as openpyxl reads them with ``data_only``: formulas as their last
    computed value, numbers in a date format as datetimes, shared strings looked up."""

    def __init__(self, styles: _Styles, epoch: dt.datetime, shared_strings: Callable[[], list[str]]) -> None:
        self.styles = styles
        self.epoch = epoch
        self.shared_strings = shared_strings

    def typed(self, kind: str, style: int, text: str) -> Value:
        """The value of a cell of type ``kind`` (``t``) and format ``style`` whose ``<v>`` holds ``text``."""
        if not text:
            return None
        if kind == "n":
            number = float(text) if "." in text or "e" in text or "E" in text else int(text)
            date = self.styles.date_kind(style)
            if not date:
                return number
            try:
                return from_excel(number, self.epoch, timedelta=date == 2)  # type: ignore[no-any-return]
            except (OverflowError, ValueError):
                return "#VALUE!"
        if kind == "s":
            return self.shared_strings()[int(text)] or None
        if kind == "b":
            return bool(int(text))
        if kind == "d":
            return from_ISO8601(text)  # type: ignore[no-untyped-call, no-any-return]
        return text

    def cell(self, p: str, attrs: Mapping[str, str], inner: str) -> Value:
        """The value of a cell given its attributes and raw content (any shape the schema allows)."""
        kind = attrs.get("t", "n")
        if kind == "inlineStr":
            body = re.search(rf"<{p}is(?:\s[^>]*?)?(?<!/)>(.*?)</{p}is>", inner, re.S)
            if body is None:
                return None
            runs = re.sub(rf"<{p}rPh\b.*?</{p}rPh>", "", body[1], flags=re.S)
            return _content("".join(re.findall(rf"<{p}t(?:\s[^>]*?)?(?<!/)>(.*?)</{p}t>", runs, re.S))) or None
        v = re.search(rf"<{p}v(?:\s[^>]*?)?(?<!/)>(.*?)</{p}v>", inner, re.S)
        if not (v and v[1]) and kind != "str":
            formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", inner, re.S)
            if formula:  # never calculated (a string result may be empty; a number never is)
                return Uncalculated("=" + _content(formula[1] or ""))
        return self.typed(kind, int(attrs.get("s") or 0), _content(v[1]) if v else "")


@functools.lru_cache(maxsize=8)
def _cell_pattern(p: str) -> re.Pattern[str]:
    """A sheet's cells: the shapes Excel, LibreOffice, openpyxl and this module write, taken apart by the
    pattern (column, row, style, type, value, inline text); any other cell whole (attributes, content)."""
    return re.compile(
        rf'<{p}c r="([A-Z]{{1,3}})(\d+)"(?: s="(\d+)")?(?: t="(\w+)")?\s*(?:/>|>(?:<{p}v>([^<]*)</{p}v>'
        rf'|<{p}is><{p}t(?: xml:space="preserve")?>([^<]*)</{p}t></{p}is>)</{p}c>)'
        rf"|<{p}c\b([^>]*?)(?:/>|>(.*?)</{p}c>)", re.S)


def _sheet_data(text: str, p: str) -> str:
    """The content of a sheet's ``<sheetData>``."""
    start = re.search(rf"<{p}sheetData\b[^>]*?(/?)>", text)
    if start is None or start[1]:
        return ""
    return text[start.end():text.index(f"</{p}sheetData>", start.end())]


def _sheet_rows(text: str, decoder: _Decoder) -> tuple[tuple[Value, ...], ...]:
    """A worksheet's values, row 1 first: empty cells ``None``, trailing empty cells and rows dropped."""
    p = _prefix(text, "worksheet")
    data = _sheet_data(text, p)
    grid: dict[int, dict[int, Value]] = {}
    columns: dict[str, int] = {}
    value: Value
    for col, row, s, t, v, inline, attrs, inner in _cell_pattern(p).findall(data):
        if col:
            if col not in columns:
                columns[col] = column_index(col)
            r, c = int(row), columns[col]
            if t == "inlineStr":
                value = _unescape(inline) or None
            else:
                value = decoder.typed(t or "n", int(s) if s else 0, _unescape(v))
        else:
            given = _attrs(attrs)
            ref = _REF.fullmatch(given.get("r", ""))
            if ref is None:  # cells placed by order, not by reference: read row by row
                return _rows_in_order(data, p, decoder)
            r, c = int(ref[2]), column_index(ref[1])
            value = decoder.cell(p, given, inner)
        if value is not None:
            grid.setdefault(r, {})[c] = value
    return _table(grid)


def _rows_in_order(data: str, p: str, decoder: _Decoder) -> tuple[tuple[Value, ...], ...]:
    """:func:`_sheet_rows` for sheets whose rows or cells may lack references (each follows the one before)."""
    grid: dict[int, dict[int, Value]] = {}
    r = 0
    for m in re.finditer(rf"<{p}row\b([^>]*?)(?:/>|>(.*?)</{p}row>)", data, re.S):
        given = _attrs(m[1]).get("r", "")
        r = int(given) if given.isdigit() else r + 1
        for cell in _cells(p, m[2] or "")[0]:
            value = decoder.cell(p, cell.attrs, cell.inner)
            if value is not None:
                grid.setdefault(r, {})[cell.column] = value
    return _table(grid)


def _table(grid: Mapping[int, Mapping[int, Value]]) -> tuple[tuple[Value, ...], ...]:
    return tuple(tuple(grid[r].get(c) for c in range(1, max(grid[r]) + 1)) if r in grid else ()
                 for r in range(1, max(grid, default=0) + 1))


class _Sheet:
    """A GM tab's sheet XML, patched row by row; rows no edit touches are copied as text."""

    def __init__(self, name: str, text: str, decoder: _Decoder) -> None:
        self.name = name
        self.text = text
        self.p = _prefix(text, "worksheet")
        self.decoder = decoder
        self.styles = decoder.styles
        self.epoch = decoder.epoch

    def _value(self, cell: _Cell) -> Value:
        """What ``cell`` holds (``None`` when empty; a formula as its text), to tell whether an update may
        write there and to say what is in the way."""
        p = self.p
        formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", cell.inner, re.S)
        if formula:
            return "=" + _content(formula[1]) if formula[1] else "a formula"
        return self.decoder.cell(p, cell.attrs, cell.inner)

    def _row(self, r: int, tag: str, inner: str, edits: Mapping[int, _Edit], cleared: bool) -> str:
        """Row ``r`` with its edits applied; ``tag`` is its start tag (``<row r="5">``), ``inner`` its cells."""
        p = self.p
        cells, tail = _cells(p, inner)
        by_column = {cell.column: cell for cell in cells}
        out: dict[int, str] = {}
        for cell in cells:
            style = int(cell.attrs.get("s", "0"))
            if cleared:
                out[cell.column] = f'<{p}c r="{column_letter(cell.column)}{r}" s="{style}"/>' if style else ""
            else:
                out[cell.column] = cell.xml if "r" in cell.attrs else _with_style(p, cell, r, style)
        for c, edit in edits.items():
            old = by_column.get(c)
            ref = f"{column_letter(c)}{r}"
            if edit.update is not None and old is not None and (held := self._value(old)) is not None:
                raise edit.update.refused(held)
            style = int(old.attrs.get("s", "0")) if old else 0
            if edit.text:
                style = self.styles.with_number_format(style, "@")
            if edit.set_value:
                style = self.styles.for_value(style, edit.value)
                out[c] = _cell_xml(p, ref, edit.value, style, self.epoch, f"{self.name}!{ref}")
            elif old is not None:
                out[c] = _with_style(p, old, r, style)
            else:
                out[c] = _cell_xml(p, ref, None, style, self.epoch, f"{self.name}!{ref}")
        attrs = re.sub(r'\s+spans\s*=\s*("[^"]*"|\'[^\']*\')', "", tag[len(p) + 4:].rstrip("/>"))
        if "r" not in _attrs(attrs):
            attrs = f' r="{r}"{attrs}'
        return f"<{p}row{attrs}>{''.join(out[c] for c in sorted(out))}{tail}</{p}row>"

    def patch(self, edits: _TabEdits) -> bytes:
        """The sheet XML with ``edits`` applied and its dimension widened to cover them."""
        text, p = self.text, self.p
        start = re.search(rf"<{p}sheetData\b[^>]*?(/?)>", text)
        if start is None:
            raise PackageError(f"{self.name}: no sheet data")
        if start[1]:
            head, inner, foot = text[:start.start()] + f"<{p}sheetData>", "", f"</{p}sheetData>" + text[start.end():]
        else:
            close = text.index(f"</{p}sheetData>", start.end())
            head, inner, foot = text[:start.end()], text[start.end():close], text[close:]
        rows = set(edits.cells) | edits.cleared
        pending = sorted(rows)
        out: list[str] = []
        done = 0
        r = 0
        for m in re.finditer(rf"<{p}row\b([^>]*?)(?:/>|>(.*?)</{p}row>)", inner, re.S):
            given = _attrs(m[1]).get("r", "")
            r = int(given) if given.isdigit() else r + 1
            if r not in rows and (not pending or pending[0] > r):
                continue
            out.append(inner[done:m.start()])
            while pending and pending[0] < r:
                out.append(self._row(pending[0], f"<{p}row>", "", edits.cells.get(pending.pop(0), {}),
                                     False))
            if pending and pending[0] == r:
                pending.pop(0)
                tag = m[0][:m.start(2) - m.start()] if m[2] is not None else m[0]
                out.append(self._row(r, tag, m[2] or "", edits.cells.get(r, {}), r in edits.cleared))
            else:
                out.append(m[0])
            done = m.end()
        out.append(inner[done:])
        for r in pending:
            out.append(self._row(r, f"<{p}row>", "", edits.cells.get(r, {}), False))
        return self._widened(head + "".join(out) + foot, edits).encode("utf-8")

    def _widened(self, text: str, edits: _TabEdits) -> str:
        """``text`` with its dimension (which openpyxl's reader trusts) covering the edited cells."""
        p = self.p
        m = re.search(rf"<{p}dimension\b([^>]*?)/?>", text)
        if m is None or not edits.cells:
            return text
        ref = _attrs(m[1]).get("ref", "A1")
        corners = [_REF.fullmatch(part) for part in ref.split(":")]
        if not all(corners):
            return text
        rows = [int(c[2]) for c in corners if c] + list(edits.cells)
        columns = [column_index(c[1]) for c in corners if c] + [col for row in edits.cells.values() for col in row]
        extent = f"{column_letter(min(columns))}{min(rows)}:{column_letter(max(columns))}{max(rows)}"
        return f'{text[:m.start()]}<{p}dimension ref="{extent}"/>{text[m.end():]}'


def _shared_strings(data: bytes, name: str) -> list[str]:
    """The shared strings' texts (rich text runs joined, phonetic guides left out)."""
    root = _parse(data, name)
    out = []
    for item in root.findall(f"{{{MAIN}}}si"):
        texts = [*item.findall(f"{{{MAIN}}}t"), *item.findall(f"{{{MAIN}}}r/{{{MAIN}}}t")]
        out.append("".join(t.text or "" for t in texts))
    return out


# -- the package --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SheetEntry:
    """One tab of the workbook: its name, its relationship and its part."""

    name: str
    rel_id: str
    part: str
    kind: str


def _blank_parts(now: dt.datetime) -> dict[str, bytes]:
    """The parts of a workbook without tabs: what a new file starts from."""
    stamp = f"{now:%Y-%m-%dT%H:%M:%SZ}"
    ct = "application/vnd.openxmlformats-"
    parts = {
        CONTENT_TYPES: (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Default Extension="rels" ContentType="{ct}package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{ct}officedocument.spreadsheetml.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{ct}officedocument.spreadsheetml.styles+xml"/>'
            f'<Override PartName="/xl/theme/theme1.xml" ContentType="{ct}officedocument.theme+xml"/>'
            f'<Override PartName="/docProps/core.xml" ContentType="{ct}package.core-properties+xml"/>'
            f'<Override PartName="/docProps/app.xml" ContentType="{ct}officedocument.extended-properties+xml"/>'
            "</Types>"),
        "_rels/.rels": (
            f'<Relationships xmlns="{PKG_REL}">'
            f'<Relationship Id="rId1" Type="{DOC_REL}/officeDocument" Target="xl/workbook.xml"/>'
            f'<Relationship Id="rId2" Type="{PKG_REL}/metadata/core-properties" Target="docProps/core.xml"/>'
            f'<Relationship Id="rId3" Type="{DOC_REL}/extended-properties" Target="docProps/app.xml"/>'
            "</Relationships>"),
        "docProps/app.xml": (
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
            "<Application>sheetswiss</Application></Properties>"),
        "docProps/core.xml": (
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>sheetswiss</dc:creator>'
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>'),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN}" xmlns:r="{DOC_REL}"><workbookPr/><bookViews><workbookView activeTab="0"/>'
            '</bookViews><sheets/><calcPr calcId="191029" fullCalcOnLoad="1"/></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PKG_REL}">'
            f'<Relationship Id="rId1" Type="{DOC_REL}/styles" Target="styles.xml"/>'
            f'<Relationship Id="rId2" Type="{DOC_REL}/theme" Target="theme/theme1.xml"/>'
            "</Relationships>"),
        "xl/styles.xml": BLANK_STYLES,
    }
    out = {name: (DECLARATION + text).encode("utf-8") for name, text in parts.items()}
    out["xl/theme/theme1.xml"] = theme_xml.encode("utf-8")
    return out


_BEFORE_CALC_PR = ("sheets", "functionGroups", "externalReferences", "definedNames")
"""The elements of ``workbook.xml`` that the schema puts before ``calcPr`` (after ``bookViews``)."""


def _full_calculation_on_load(workbook: str) -> str:
    """``workbook.xml``'s text with ``calcPr``'s ``fullCalcOnLoad="1"``, the element added where the schema
    wants it when there is none."""
    p = _prefix(workbook, "sheets")
    m = re.search(rf"<{p}calcPr\b[^>]*?/?>", workbook)
    if m is not None:
        if re.search(r"\sfullCalcOnLoad\s*=\s*[\"'](?:1|true)[\"']", m[0]):
            return workbook
        tag = re.sub(r"\sfullCalcOnLoad\s*=\s*(?:\"[^\"]*\"|'[^']*')", "", m[0])
        start = len(f"<{p}calcPr")
        tag = f'{tag[:start]} fullCalcOnLoad="1"{tag[start:]}'
        return workbook[:m.start()] + tag + workbook[m.end():]
    last = 0
    for el in _BEFORE_CALC_PR:
        for end in (rf"</{p}{el}>", rf"<{p}{el}\b[^>]*/>"):
            found = [e.end() for e in re.finditer(end, workbook)]
            if found:
                last = max(last, found[-1])
    if not last:
        raise PackageError("no <sheets> element")
    return f'{workbook[:last]}<{p}calcPr fullCalcOnLoad="1"/>{workbook[last:]}'


def _rels_path(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _target(source: str, target: str) -> str:
    """A relationship's target as a part name (relative to ``source``'s folder unless absolute)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


class Package:
    """The parts of an .xlsx file, changed in memory by :meth:`apply` and written by :meth:`save`."""

    def __init__(self, parts: Mapping[str, bytes], infos: Mapping[str, zipfile.ZipInfo] | None = None) -> None:
        self._parts = dict(parts)
        self._infos = dict(infos or {})
        if CONTENT_TYPES not in self._parts:
            raise PackageError(f"no {CONTENT_TYPES}")
        self._changed: set[str] = set()
        self._names = {name.lower(): name for name in self._parts}
        root_rels = self._relationships("_rels/.rels", "")
        workbook = next((t for _, (kind, t) in root_rels.items() if kind.endswith("/officeDocument")), None)
        if any(kind.startswith(STRICT) for kind, _ in root_rels.values()):
            raise StrictWorkbook("a Strict Open XML workbook")
        if workbook is None or workbook.lower() not in self._names:
            raise PackageError("no workbook part")
        self._workbook = self._names[workbook.lower()]
        self._workbook_rels = _rels_path(self._workbook)
        rels = self._relationships(self._workbook_rels, self._workbook)
        root = _parse(self._parts[self._workbook], self._workbook)
        sheets = root.find(f"{{{MAIN}}}sheets")
        if sheets is None:
            raise PackageError(f"{self._workbook}: no sheets")
        self._sheets: list[_SheetEntry] = []
        for el in sheets.findall(f"{{{MAIN}}}sheet"):
            rel_id = el.get(f"{{{DOC_REL}}}id", "")
            kind, part = rels.get(rel_id, ("", ""))
            self._sheets.append(_SheetEntry(el.get("name", ""), rel_id, self._names.get(part.lower(), part), kind))
        self._rels = rels
        self._sheet_ids = [int(el.get("sheetId", "0")) for el in sheets.findall(f"{{{MAIN}}}sheet")]
        pr = root.find(f"{{{MAIN}}}workbookPr")
        self._epoch = MAC_EPOCH if pr is not None and pr.get("date1904") in ("1", "true") else WINDOWS_EPOCH
        styles = next((t for kind, t in rels.values() if kind == STYLES_TYPE), "")
        self._styles_part = self._names.get(styles.lower())
        if self._styles_part is None:  # a workbook without formats: a write adds the blank ones
            self._styles = _Styles((DECLARATION + BLANK_STYLES).encode("utf-8"), "xl/styles.xml")
        else:
            self._styles = _Styles(self._parts[self._styles_part], self._styles_part)
        self._strings: list[str] | None = None
        self._decoder = _Decoder(self._styles, self._epoch, self._shared_strings)

    @classmethod
    def load(cls, path: Path) -> Package:
        """The package of the .xlsx file at ``path``."""
        with zipfile.ZipFile(path) as z:
            infos = [i for i in z.infolist() if not i.is_dir()]
            return cls({i.filename: z.read(i) for i in infos}, {i.filename: i for i in infos})

    @classmethod
    def blank(cls) -> Package:
        """A workbook with no tabs yet (a new file's starting point), created now."""
        return cls(_blank_parts(dt.datetime.now(dt.timezone.utc)))

    def _set(self, name: str, data: bytes) -> None:
        if name.lower() not in self._names:
            self._names[name.lower()] = name
        self._parts[self._names[name.lower()]] = data
        self._changed.add(self._names[name.lower()])

    def _relationships(self, rels_part: str, source: str) -> dict[str, tuple[str, str]]:
        """Id -> (type, target part name; ``""`` for an external target) of a relationships part (empty when
        it does not exist)."""
        name = self._names.get(rels_part.lower())
        if name is None:
            return {}
        root = _parse(self._parts[name], name)
        return {el.get("Id", ""): (el.get("Type", ""), "" if el.get("TargetMode") == "External" else
                                   _target(source, el.get("Target", "")))
                for el in root.findall(f"{{{PKG_REL}}}Relationship")}

    def _shared_strings(self) -> list[str]:
        if self._strings is None:
            part = next((t for kind, t in self._rels.values() if kind.endswith("/sharedStrings")), "")
            name = self._names.get(part.lower())
            self._strings = _shared_strings(self._parts[name], name) if name else []
        return self._strings

    def _entry(self, tab: str) -> _SheetEntry | None:
        """The tab named ``tab``; refuses one whose name differs only in case (Excel would see both as one)."""
        for entry in self._sheets:
            if entry.name == tab:
                return entry
            if entry.name.lower() == tab.lower():
                raise BadWorkbook(f"{entry.name}: sheetswiss needs a tab named {tab!r} and spreadsheet programs "
                                  "do not tell the two apart; rename this tab")
        return None

    def _worksheet(self, tab: str) -> _SheetEntry:
        entry = self._entry(tab)
        if entry is None:
            raise BadWorkbook(f"{tab}: no such tab; nothing was written")
        if entry.kind != WORKSHEET_TYPE or entry.part not in self._parts:
            raise BadWorkbook(f"{tab}: not a worksheet (a chart sheet?); nothing was written")
        return entry

    def _drop(self, name: str) -> None:
        """Remove a part and its content type override."""
        actual = self._names.pop(name.lower(), None)
        if actual is None:
            return
        del self._parts[actual]
        self._changed.discard(actual)
        types = _text(self._parts[CONTENT_TYPES], CONTENT_TYPES)
        pattern = rf'<(\w+:)?Override\b[^>]*PartName="/{re.escape(actual)}"[^>]*/>'
        self._set(CONTENT_TYPES, re.sub(pattern, "", types, flags=re.I).encode("utf-8"))

    def _drop_calculation_chain(self) -> None:
        """Excel's cache of formula cells, which it rebuilds when absent, may name cells a write emptied."""
        chain = [(rel_id, part) for rel_id, (kind, part) in self._rels.items() if kind.endswith("/calcChain")]
        if not chain:
            return
        text = _text(self._parts[self._names[self._workbook_rels.lower()]], self._workbook_rels)
        for rel_id, part in chain:
            text = re.sub(rf'<(\w+:)?Relationship\b[^>]*\bId="{re.escape(rel_id)}"[^>]*/>', "", text)
            self._drop(part)
            del self._rels[rel_id]
        self._set(self._workbook_rels, text.encode("utf-8"))

    def _relate(self, part: str, kind: str, content_type: str) -> str:
        """A relationship from the workbook to a new ``part`` and the part's content type; the new Id."""
        number = len(self._rels) + 1
        while f"rId{number}" in self._rels:
            number += 1
        rel_id = f"rId{number}"
        self._rels[rel_id] = (kind, part)
        rels_name = self._names.get(self._workbook_rels.lower(), self._workbook_rels)
        rels = _text(self._parts[rels_name], rels_name)
        target = posixpath.relpath(part, posixpath.dirname(self._workbook) or ".")
        self._set(rels_name, _insert(rels, _prefix(rels, "Relationships"), "Relationships",
                                     f'<Relationship Id="{rel_id}" Type="{kind}" Target="{target}"/>')
                  .encode("utf-8"))
        types = _text(self._parts[CONTENT_TYPES], CONTENT_TYPES)
        self._set(CONTENT_TYPES, _insert(types, _prefix(types, "Types"), "Types",
                                         f'<Override PartName="/{part}" ContentType="{content_type}"/>')
                  .encode("utf-8"))
        return rel_id

    def _add_sheet(self, tab: str) -> _SheetEntry:
        """A new tab after the others, with its part, relationship and content type."""
        number = 1
        while f"xl/worksheets/sheet{number}.xml" in self._names:
            number += 1
        part = f"xl/worksheets/sheet{number}.xml"
        rel_id = self._relate(part, WORKSHEET_TYPE, WORKSHEET_CONTENT)
        sheet_id = max(self._sheet_ids, default=0) + 1
        self._sheet_ids.append(sheet_id)
        workbook = _text(self._parts[self._workbook], self._workbook)
        p = _prefix(workbook, "sheets")
        bound = re.search(rf'xmlns:(\w+)="{re.escape(DOC_REL)}"', workbook[:workbook.index(f"<{p}sheets")])
        r = bound[1] if bound else "r"
        declare = "" if bound else f' xmlns:r="{DOC_REL}"'
        sheet = f'<{p}sheet{declare} name="{_attr(tab)}" sheetId="{sheet_id}" {r}:id="{rel_id}"/>'
        self._set(self._workbook, _insert(workbook, p, "sheets", sheet).encode("utf-8"))
        entry = _SheetEntry(tab, rel_id, part, WORKSHEET_TYPE)
        self._sheets.append(entry)
        return entry

    def _write_tab(self, tab: Tab, entry: _SheetEntry | None) -> None:
        """Write a tool tab in full, over ``entry`` (keeping its place) or as a new tab."""
        kept = _Kept()
        if entry is None:
            entry = self._add_sheet(tab.name)
        else:
            if entry.kind != WORKSHEET_TYPE:
                raise BadWorkbook(f"{tab.name}: not a worksheet (a chart sheet?); rename it so sheetswiss can "
                                  "make its own tab")
            kept = _kept(_text(self._parts[entry.part], entry.part))
            rels = self._names.get(_rels_path(entry.part).lower())
            if rels is not None:  # comments, drawings, tables of the old tab: nothing of them is kept
                del self._parts[rels]
                del self._names[rels.lower()]
        self._set(entry.part, _sheet_xml(tab, self._styles, self._epoch, kept))
        if tab.format.freeze_rows:
            self._print_titles(entry, tab.format.freeze_rows)

    def _print_titles(self, entry: _SheetEntry, rows: int) -> None:
        """Repeat rows 1 to ``rows`` at the top of each printed page of ``entry``'s tab: the workbook's
        ``_xlnm.Print_Titles`` name for that tab (``localSheetId``, its place among the tabs), replaced
        if the tab had one."""
        workbook = _text(self._parts[self._workbook], self._workbook)
        p = _prefix(workbook, "sheets")
        local = self._sheets.index(entry)
        reference = "'" + entry.name.replace("'", "''") + f"'!$1:${rows}"
        name = f'<{p}definedName name="_xlnm.Print_Titles" localSheetId="{local}">{_escape(reference)}</{p}definedName>'
        old = re.compile(rf'<{p}definedName\b(?=[^>]*\bname="_xlnm\.Print_Titles")(?=[^>]*\blocalSheetId="{local}")'
                         rf"[^>]*>.*?</{p}definedName>", re.S)
        if old.search(workbook):
            workbook = old.sub(lambda _: name, workbook, count=1)
        elif re.search(rf"<{p}definedNames\b", workbook):
            workbook = _insert(workbook, p, "definedNames", name)
        else:  # after the elements the schema puts before definedNames
            last = max(workbook.rindex(f"</{p}{el}>") + len(f"</{p}{el}>")
                       for el in ("sheets", "functionGroups", "externalReferences") if f"</{p}{el}>" in workbook)
            workbook = f"{workbook[:last]}<{p}definedNames>{name}</{p}definedNames>{workbook[last:]}"
        self._set(self._workbook, workbook.encode("utf-8"))

    def apply(self, changes: Changes) -> None:
        """Make ``changes`` in memory: new tabs (when absent), the tool's tabs, appends, then updates.

        Raises :class:`BadWorkbook`, having changed nothing on disk, when an update's cell is not empty or
        a tab is missing.
        """
        edits: dict[str, _TabEdits] = {}
        for append in changes.appends:
            self._worksheet(append.tab)
            edits.setdefault(append.tab, _TabEdits()).add_append(append)
        for update in changes.updates:
            self._worksheet(update.tab)
            edits.setdefault(update.tab, _TabEdits()).add_update(update)
        for put in changes.overwrites:  # the Control tab's status cells: written whatever they hold
            self._worksheet(put.tab)
            edit = edits.setdefault(put.tab, _TabEdits()).cell(put.row, put.column)
            edit.value, edit.set_value = put.value, True
        for tab in changes.new_tabs:
            if self._entry(tab.name) is None:
                self._write_tab(tab, None)
        for tab in changes.tool_tabs:
            self._write_tab(tab, self._entry(tab.name))
        for name, tab_edits in edits.items():
            self._patch(name, tab_edits)
        self._finish()

    def type_cells(self, tab: str, values: Mapping[str, Value]) -> None:
        """Put ``values`` into cells of ``tab`` (``{"E14": "1-0"}``) as a GM types them, whatever the cells
        held: text stays text (never a formula), ``None`` empties a cell. For ``demo`` and tests, never for a
        command, which writes only through :meth:`apply`."""
        edits = _TabEdits()
        for ref, value in values.items():
            m = _REF.fullmatch(ref)
            if m is None:
                raise ValueError(f"{tab}!{ref}: not a cell reference")
            edit = edits.cell(int(m[2]), column_index(m[1]))
            edit.value, edit.set_value = value, True
        self._patch(tab, edits)
        self._finish()

    def _patch(self, tab: str, edits: _TabEdits) -> None:
        entry = self._worksheet(tab)
        sheet = _Sheet(tab, _text(self._parts[entry.part], entry.part), self._decoder)
        self._set(entry.part, sheet.patch(edits))

    def _finish(self) -> None:
        """The styles the edits added, and the flags that make Excel and LibreOffice recalculate."""
        if self._styles.changed:
            if self._styles_part is None:
                self._styles_part = "xl/styles.xml"
                self._relate(self._styles_part, STYLES_TYPE, STYLES_CONTENT)
            self._set(self._styles_part, self._styles.xml())
        self._drop_calculation_chain()
        self._recalculate_on_open()

    def _recalculate_on_open(self) -> None:
        """Have Excel and LibreOffice recalculate the GM's own formulas when they next open the workbook.

        A GM's formula over a tool tab (``=Standings!B3`` on a Dashboard tab) holds the value computed
        when a spreadsheet program last saved the file; the write changed what it reads. Excel recalculates
        on open when ``calcPr`` says ``fullCalcOnLoad="1"`` (it drops the flag on its next save, so it is
        set on every write). LibreOffice ignores that flag: it trusts the cached values of a file whose
        generator (``docProps/app.xml``'s Application) is Microsoft Excel or LibreOffice, and recalculates
        the formulas of any other, whatever its "recalculation on file load" setting; so the generator is
        set to sheetswiss, which is what wrote the file last.
        """
        workbook = _text(self._parts[self._workbook], self._workbook)
        flagged = _full_calculation_on_load(workbook)
        if flagged != workbook:
            self._set(self._workbook, flagged.encode("utf-8"))
        root_rels = self._relationships("_rels/.rels", "")
        app = next((t for kind, t in root_rels.values() if kind.endswith("/extended-properties")), "")
        name = self._names.get(app.lower())
        if name is not None:
            text = _text(self._parts[name], name)
            marked = re.sub(r"<(\w+:|)Application\b[^>]*?(?:/>|>.*?</\1Application>)",
                            lambda m: f"<{m[1]}Application>sheetswiss</{m[1]}Application>", text,
                            count=1, flags=re.S)
            if marked != text:
                self._set(name, marked.encode("utf-8"))

    def values(self) -> dict[str, tuple[tuple[Value, ...], ...]]:
        """Every worksheet's values in tab order (chart sheets have none), as :func:`_sheet_rows` reads them."""
        return {e.name: _sheet_rows(_text(self._parts[e.part], e.part), self._decoder) for e in self._sheets
                if e.kind == WORKSHEET_TYPE and e.part in self._parts}

    def merged(self) -> dict[str, tuple[str, ...]]:
        """Every worksheet's merged ranges (``E3:E4``), for the worksheets that have any."""
        found = {}
        for e in self._sheets:
            if e.kind == WORKSHEET_TYPE and e.part in self._parts:
                text = _text(self._parts[e.part], e.part)
                ranges = tuple(re.findall(r'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]+\d+:[A-Z]+\d+)"', text))
                if ranges:
                    found[e.name] = ranges
        return found

    def formulas(self) -> dict[str, dict[tuple[int, int], str]]:
        """Every worksheet's formula cells, (row, column) -> ``=...`` (``=`` for a shared formula's other
        cells, which keep no text), for the worksheets that have any."""
        found: dict[str, dict[tuple[int, int], str]] = {}
        for e in self._sheets:
            if e.kind != WORKSHEET_TYPE or e.part not in self._parts:
                continue
            text = _text(self._parts[e.part], e.part)
            p = _prefix(text, "worksheet")
            if f"<{p}f" not in text:
                continue
            cells: dict[tuple[int, int], str] = {}
            for attrs, inner in re.findall(rf"<{p}c\b([^>]*?)>(.*?)</{p}c>", _sheet_data(text, p), re.S):
                formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", inner, re.S)
                ref = _REF.fullmatch(_attrs(attrs).get("r", ""))
                if formula and ref:
                    cells[int(ref[2]), column_index(ref[1])] = "=" + _content(formula[1] or "")
            if cells:
                found[e.name] = cells
        return found

    def save(self, path: Path) -> None:
        """Write the package to ``path``: unchanged parts as they were read, changed and new ones compressed."""
        stamp = time.localtime()[:6]
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name in self._order():
                old = self._infos.get(name)
                info = zipfile.ZipInfo(name, old.date_time if old and name not in self._changed else stamp)
                info.compress_type = old.compress_type if old else zipfile.ZIP_DEFLATED
                info.external_attr = old.external_attr if old else 0o644 << 16
                z.writestr(info, self._parts[name])

    def _order(self) -> Iterator[str]:
        """The parts in the order they were read, ``[Content_Types].xml`` first, new parts last."""
        yield CONTENT_TYPES
        yield from (name for name in self._parts if name != CONTENT_TYPES)

