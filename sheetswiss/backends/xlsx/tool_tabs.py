"""The tool's tabs (Pairings, Standings, Log ...): each sheet's XML written afresh from a :class:`~..base.Tab`.

Values, cell formats (through :class:`~.styles.Styles`), frozen header rows, column widths, drop-down lists
(data validations) and page setup;
of the sheet it replaces only whether it was the selected tab and its colour are kept.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from ..base import Band, Look, Tab, Validation, column_letter
from .cells import cell_xml, date_format
from .styles import PLAIN, Styles
from .xmltext import DECLARATION, DOC_REL, MAIN, escape, escape_attr, tag_attributes

__all__ = ["TEXT_ROWS", "Kept", "kept_from", "sheet_xml"]


TEXT_ROWS = 1000
"""How far down a Text-formatted column is pre-formatted in a tool tab."""

BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"'
"""The number format of a checkbox cell: the one LibreOffice gives its booleans, so that it shows an unticked
box as FALSE rather than 0 (Excel shows a boolean as TRUE/FALSE whatever its format)."""


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



# -- the tool's tabs ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kept:
    """What a rewritten tool tab keeps of the sheet it replaces: whether it was the selected tab, its colour."""

    selected: bool = False
    tab_color: str = ""


def kept_from(old: str) -> Kept:
    """What the old sheet ``old`` says of its tab. Both elements come before the cells (``sheetPr`` and
    ``sheetViews`` precede ``sheetData`` in the schema), so only the text before the cells is searched."""
    data = re.search(r"<(?:\w+:)?sheetData\b", old)
    old = old[:data.start()] if data else old
    view = re.search(r"<(?:\w+:)?sheetView\b[^>]*>", old)
    colour = re.search(r"<(?:\w+:)?tabColor\b([^>]*?)/?>", old)
    selected = view is not None and tag_attributes(view[0]).get("tabSelected") in ("1", "true")
    tab_color = ""
    if colour:
        attrs = "".join(f' {k}="{escape_attr(v)}"' for k, v in tag_attributes(colour[1]).items())
        tab_color = f"<tabColor{attrs}/>"
    return Kept(selected, tab_color)


def _tab_looks(tab: Tab) -> dict[int, dict[int, Look]]:
    """Row -> column -> look, for the cells that the tab's format touches."""
    fmt = tab.format
    looks: dict[int, dict[int, Look]] = {}
    text = replace(PLAIN, number_format="@")
    if fmt.text_columns:
        for r in range(fmt.freeze_rows + 1, max(len(tab.rows), fmt.freeze_rows) + TEXT_ROWS):
            looks[r] = dict.fromkeys(fmt.text_columns, text)
    for band in fmt.bands:
        # A cell's look under the band, worked out once per look it had (told apart by identity, as the cells
        # share a few looks: hashing a look per cell is the slow part on a big tab) and row kind; each entry
        # holds the look it came from, so that no other look takes its identity meanwhile.
        merged: dict[tuple[int, bool], tuple[Look, Look]] = {}
        for r in range(band.first_row, band.last_row + 1):
            row = looks.setdefault(r, {})
            last = r == band.last_row
            for c in range(band.first_col, band.last_col + 1):
                before = row.get(c, PLAIN)
                known = merged.get((id(before), last))
                if known is None:
                    known = merged[id(before), last] = (before, _with_band(before, band, last))
                row[c] = known[1]
    for check in fmt.validations:
        if check.checkbox:
            row = looks.setdefault(check.row, {})
            row[check.column] = replace(row.get(check.column, PLAIN), number_format=BOOLEAN_FORMAT)
    return looks


def sheet_xml(tab: Tab, styles: Styles, epoch: dt.datetime, kept: Kept) -> bytes:
    """A tool tab's whole sheet XML: values, cell formats, frozen rows, widths, page setup."""
    fmt = tab.format
    looks = _tab_looks(tab)
    height = max(len(tab.rows), max((r for r, row in looks.items() if row), default=0))
    width = max(max((len(row) for row in tab.rows), default=0),
                max((c for row in looks.values() for c in row), default=0))
    letters = ["", *(column_letter(c) for c in range(1, width + 1))]
    style_of: dict[int, int] = {}  # id of a look in ``looks`` (alive until the end) -> its cell format
    body: list[str] = []
    for r in range(1, height + 1):
        values = tab.rows[r - 1] if r <= len(tab.rows) else ()
        row_looks = looks.get(r, {})
        columns = sorted({c for c, v in enumerate(values, start=1) if v is not None and v != ""} | set(row_looks))
        cells = []
        for c in columns:
            value = values[c - 1] if c <= len(values) else None
            look = row_looks.get(c, PLAIN)
            if look.number_format is None and (code := date_format(value)):
                style = styles.look(replace(look, number_format=code))
            elif (style := style_of.get(id(look), -1)) < 0:
                style = style_of[id(look)] = styles.look(look)
            cells.append(cell_xml("", f"{letters[c]}{r}", value, style, epoch, tab.name))
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
        listed = escape('"' + ",".join(words) + '"')
        ref = f"{column_letter(v.column)}{v.row}"
        items.append(f'<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1" '
                     f'sqref="{ref}"><formula1>{listed}</formula1></dataValidation>')
    return f'<dataValidations count="{len(items)}">{"".join(items)}</dataValidations>'


