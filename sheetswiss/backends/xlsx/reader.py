"""Reading a worksheet's values from its XML, as openpyxl gives them with ``data_only``.

A regular expression takes the cells apart instead of openpyxl's element-by-element parse (three to four
times faster): formulas read as their last computed value, numbers in a date format as datetimes, shared
strings (``sharedStrings.xml``, the text Excel stores once for the whole workbook) looked up. The tests
compare the two readers on every shape of cell.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterator, Mapping

from ..base import Uncalculated, Value, column_index
from .cells import row_cells
from .styles import Styles
from .xmltext import CELL_REF, MAIN, parse_xml, prefix_of, raw_text, tag_attributes, unescape

__all__ = ["Decoder", "SheetValues", "read_shared_strings", "sheet_data", "sheet_rows"]


class Decoder:
    """Cell values from a sheet's XML, as openpyxl reads them with ``data_only``: formulas as their last
    computed value, numbers in a date format as datetimes, shared strings looked up."""

    def __init__(self, styles: Styles, epoch: dt.datetime, shared_strings: Callable[[], list[str]]) -> None:
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
            from openpyxl.utils.datetime import from_excel  # only dates need openpyxl, which takes a while to import

            try:
                return from_excel(number, self.epoch, timedelta=date == 2)  # type: ignore[no-any-return]
            except (OverflowError, ValueError):
                return "#VALUE!"
        if kind == "s":
            return self.shared_strings()[int(text)] or None
        if kind == "b":
            return bool(int(text))
        if kind == "d":
            from openpyxl.utils.datetime import from_ISO8601

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
            return raw_text("".join(re.findall(rf"<{p}t(?:\s[^>]*?)?(?<!/)>(.*?)</{p}t>", runs, re.S))) or None
        v = re.search(rf"<{p}v(?:\s[^>]*?)?(?<!/)>(.*?)</{p}v>", inner, re.S)
        if not (v and v[1]) and kind != "str":
            formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", inner, re.S)
            if formula:  # never calculated (a string result may be empty; a number never is)
                return Uncalculated("=" + raw_text(formula[1] or ""))
        return self.typed(kind, int(attrs.get("s") or 0), raw_text(v[1]) if v else "")


@functools.lru_cache(maxsize=8)
def _cell_pattern(p: str) -> re.Pattern[str]:
    """A sheet's cells: the shapes Excel, LibreOffice, openpyxl and this module write, taken apart by the
    pattern (column, row, style, type, value, inline text); any other cell whole (attributes, content)."""
    return re.compile(
        rf'<{p}c r="([A-Z]{{1,3}})(\d+)"(?: s="(\d+)")?(?: t="(\w+)")?\s*(?:/>|>(?:<{p}v>([^<]*)</{p}v>'
        rf'|<{p}is><{p}t(?: xml:space="preserve")?>([^<]*)</{p}t></{p}is>)</{p}c>)'
        rf"|<{p}c\b([^>]*?)(?:/>|>(.*?)</{p}c>)", re.S)


def sheet_data(text: str, p: str) -> str:
    """The content of a sheet's ``<sheetData>``."""
    start = re.search(rf"<{p}sheetData\b[^>]*?(/?)>", text)
    if start is None or start[1]:
        return ""
    return text[start.end():text.index(f"</{p}sheetData>", start.end())]


def sheet_rows(text: str, decoder: Decoder) -> tuple[tuple[Value, ...], ...]:
    """A worksheet's values, row 1 first: empty cells ``None``, trailing empty cells and rows dropped."""
    p = prefix_of(text, "worksheet")
    data = sheet_data(text, p)
    grid: dict[int, dict[int, Value]] = {}
    columns: dict[str, int] = {}
    plain: dict[str, bool] = {}  # a cell format's ``s`` -> whether it shows numbers as numbers (not dates)
    value: Value
    cells: dict[int, Value] = {}
    row_text, r, last = "", 0, 0  # the row being read (as written, and its number), its last column so far
    ordered = True  # every cell after the one before it (rows and columns ascending), as programs write them
    for col, row, s, t, v, inline, attrs, inner in _cell_pattern(p).findall(data):
        if col:
            if col not in columns:
                columns[col] = column_index(col)
            c = columns[col]
            if row != row_text:
                row_text, previous, r, last = row, r, int(row), 0
                ordered = ordered and r > previous
                cells = grid.setdefault(r, {})
            if t == "inlineStr":
                value = (unescape(inline) if "&" in inline or "\r" in inline else inline) or None
            elif not t and v.isdecimal():  # a whole number, most numbers: as typed() reads it
                if s not in plain:
                    plain[s] = not decoder.styles.date_kind(int(s) if s else 0)
                value = int(v) if plain[s] else decoder.typed("n", int(s) if s else 0, v)
            else:
                value = decoder.typed(t or "n", int(s) if s else 0, unescape(v))
        else:
            given = tag_attributes(attrs)
            ref = CELL_REF.fullmatch(given.get("r", ""))
            if ref is None:  # cells placed by order, not by reference: read row by row
                return _rows_in_order(data, p, decoder)
            row_text, previous, r, c = ref[2], r, int(ref[2]), column_index(ref[1])
            if r != previous:
                ordered, last = ordered and r > previous, 0
                cells = grid.setdefault(r, {})
            value = decoder.cell(p, given, inner)
        ordered = ordered and c > last
        last = c
        if value is not None:
            cells[c] = value
    return _table(grid, ordered)


class SheetValues(Mapping[str, tuple[tuple[Value, ...], ...]]):
    """Worksheets' values by tab name, in tab order, each sheet's XML read by :func:`sheet_rows` when its tab
    is first looked up, then kept: the same mapping as reading every sheet at once, without the cost of
    the tabs nobody looks at. A part that is not a worksheet (no ``<worksheet>`` element) is refused at
    once, as reading it would."""

    def __init__(self, texts: Mapping[str, str], decoder: Decoder) -> None:
        for text in texts.values():
            prefix_of(text, "worksheet")
        self._texts = dict(texts)
        self._decoder = decoder
        self._rows: dict[str, tuple[tuple[Value, ...], ...]] = {}

    def __getitem__(self, tab: str) -> tuple[tuple[Value, ...], ...]:
        if tab not in self._rows:
            self._rows[tab] = sheet_rows(self._texts[tab], self._decoder)
        return self._rows[tab]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __contains__(self, tab: object) -> bool:
        return tab in self._texts

    def __repr__(self) -> str:
        return repr(dict(self))


def _rows_in_order(data: str, p: str, decoder: Decoder) -> tuple[tuple[Value, ...], ...]:
    """:func:`sheet_rows` for sheets whose rows or cells may lack references (each follows the one before)."""
    grid: dict[int, dict[int, Value]] = {}
    r = 0
    for m in re.finditer(rf"<{p}row\b([^>]*?)(?:/>|>(.*?)</{p}row>)", data, re.S):
        given = tag_attributes(m[1]).get("r", "")
        r = int(given) if given.isdigit() else r + 1
        for cell in row_cells(p, m[2] or "")[0]:
            value = decoder.cell(p, cell.attrs, cell.inner)
            if value is not None:
                grid.setdefault(r, {})[cell.column] = value
    return _table(grid)


def _table(grid: Mapping[int, Mapping[int, Value]], ordered: bool = False) -> tuple[tuple[Value, ...], ...]:
    """The rows of ``grid`` (row -> column -> value) as tuples, from row 1. ``ordered``: each row's columns
    went in ascending, so a row with every column up to its last filled is its values as they stand."""
    height = max((r for r, row in grid.items() if row), default=0)
    return tuple(() if not (row := grid.get(r)) else
                 tuple(row.values()) if ordered and len(row) == next(reversed(row)) else
                 tuple(row.get(c) for c in range(1, max(row) + 1))
                 for r in range(1, height + 1))



def read_shared_strings(data: bytes, name: str) -> list[str]:
    """The shared strings' texts (rich text runs joined, phonetic guides left out)."""
    root = parse_xml(data, name)
    out = []
    for item in root.findall(f"{{{MAIN}}}si"):
        texts = [*item.findall(f"{{{MAIN}}}t"), *item.findall(f"{{{MAIN}}}r/{{{MAIN}}}t")]
        out.append("".join(t.text or "" for t in texts))
    return out

