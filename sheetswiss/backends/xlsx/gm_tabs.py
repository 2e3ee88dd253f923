"""The GM's tabs (Results, Players ...): rows appended and empty cells filled, the rest copied as text.

Only the rows an :class:`~..base.Append` or :class:`~..base.Update` touches are rewritten; every other row
is copied as it was, so what the GM made there (formulas, formats, comments' anchors) stays. An update
whose cell is not empty is refused, naming what is in the way.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..base import Append, Update, Value, column_index, column_letter
from .cells import Cell, cell_xml, row_cells
from .reader import Decoder
from .xmltext import CELL_REF, PackageError, escape_attr, prefix_of, raw_text, tag_attributes

__all__ = ["GMSheet", "TabEdits"]


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
class TabEdits:
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



def _with_style(p: str, cell: Cell, row: int, style: int) -> str:
    """``cell`` as it was but with cell format ``style``."""
    attrs = {k: v for k, v in cell.attrs.items() if k not in ("r", "s")}
    s = f' s="{style}"' if style else ""
    rest = "".join(f' {k}="{escape_attr(v)}"' for k, v in attrs.items())
    ref = f"{column_letter(cell.column)}{row}"
    return f'<{p}c r="{ref}"{s}{rest}>{cell.inner}</{p}c>' if cell.inner else f'<{p}c r="{ref}"{s}{rest}/>'



_letter = functools.lru_cache(maxsize=None)(column_letter)
""":func:`column_letter`, remembered: an append writes the same few columns on every row."""


@functools.lru_cache(maxsize=8)
def _row_pattern(p: str) -> re.Pattern[str]:
    """A sheet's rows: the start tag's attributes, the cells (``None`` for an empty ``<row/>``)."""
    return re.compile(rf"<{p}row\b([^>]*?)(?:/>|>(.*?)</{p}row>)", re.S)


def _first_row_from(inner: str, p: str, first: int) -> int:
    """Where in a sheet's rows (``inner``) the rows numbered ``first`` or more start: every row before is
    left as it is. Found by the rows' numbers when each row's start tag begins with its number, in
    ascending order (as Excel, LibreOffice, openpyxl and sheetswiss write them); else ``0``, the start,
    and the rows are read one by one."""
    starts = list(re.finditer(rf'<{p}row r="(\d+)"', inner))
    if len(starts) != len(re.findall(rf"<{p}row\b", inner)):
        return 0
    numbers = [int(m[1]) for m in starts]
    if any(a >= b for a, b in itertools.pairwise(numbers)):
        return 0
    at = bisect.bisect_left(numbers, first)
    return starts[at].start() if at < len(starts) else len(inner)


class GMSheet:
    """A GM tab's sheet XML, patched row by row; rows no edit touches are copied as text."""

    def __init__(self, name: str, text: str, decoder: Decoder) -> None:
        self.name = name
        self.text = text
        self.p = prefix_of(text, "worksheet")
        self.decoder = decoder
        self.styles = decoder.styles
        self.epoch = decoder.epoch

    def _value(self, cell: Cell) -> Value:
        """What ``cell`` holds (``None`` when empty; a formula as its text), to tell whether an update may
        write there and to say what is in the way."""
        p = self.p
        formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", cell.inner, re.S)
        if formula:
            return "=" + raw_text(formula[1]) if formula[1] else "a formula"
        return self.decoder.cell(p, cell.attrs, cell.inner)

    def _row(self, r: int, tag: str, inner: str, edits: Mapping[int, _Edit], cleared: bool) -> str:
        """Row ``r`` with its edits applied; ``tag`` is its start tag (``<row r="5">``), ``inner`` its cells."""
        p = self.p
        cells, tail = row_cells(p, inner)
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
            ref = f"{_letter(c)}{r}"
            if edit.update is not None and old is not None and (held := self._value(old)) is not None:
                raise edit.update.refused(held)
            style = int(old.attrs.get("s", "0")) if old else 0
            if edit.text:
                style = self.styles.with_number_format(style, "@")
            if edit.set_value:
                style = self.styles.for_value(style, edit.value)
                out[c] = cell_xml(p, ref, edit.value, style, self.epoch, self.name)
            elif old is not None:
                out[c] = _with_style(p, old, r, style)
            else:
                out[c] = cell_xml(p, ref, None, style, self.epoch, self.name)
        attrs = tag[len(p) + 4:].rstrip("/>")
        if "spans" in attrs:
            attrs = re.sub(r'\s+spans\s*=\s*("[^"]*"|\'[^\']*\')', "", attrs)
        if not attrs or "r" not in tag_attributes(attrs):
            attrs = f' r="{r}"{attrs}'
        return f"<{p}row{attrs}>{''.join(out[c] for c in sorted(out))}{tail}</{p}row>"

    def patch(self, edits: TabEdits) -> bytes:
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
        done = _first_row_from(inner, p, pending[0]) if pending else len(inner)
        out: list[str] = [inner[:done]]
        r = 0
        for m in _row_pattern(p).finditer(inner, done):
            if not pending:  # nothing left to edit: the rest is copied as it is
                break
            given = tag_attributes(m[1]).get("r", "")
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

    def _widened(self, text: str, edits: TabEdits) -> str:
        """``text`` with its dimension (which openpyxl's reader trusts) covering the edited cells."""
        p = self.p
        m = re.search(rf"<{p}dimension\b([^>]*?)/?>", text)
        if m is None or not edits.cells:
            return text
        ref = tag_attributes(m[1]).get("ref", "A1")
        corners = [CELL_REF.fullmatch(part) for part in ref.split(":")]
        if not all(corners):
            return text
        rows = [int(c[2]) for c in corners if c] + list(edits.cells)
        columns = [column_index(c[1]) for c in corners if c] + [col for row in edits.cells.values() for col in row]
        extent = f"{column_letter(min(columns))}{min(rows)}:{column_letter(max(columns))}{max(rows)}"
        return f'{text[:m.start()]}<{p}dimension ref="{extent}"/>{text[m.end():]}'


