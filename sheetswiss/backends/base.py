"""The small interface every backend offers: read every tab at once, write once.

A backend knows cells, rows and formats, never tournament rules. What it reads is a :class:`Book`
of plain values; what it writes is one :class:`Changes`: the tool's own tabs in full, rows appended
to GM tabs, values written into empty cells of GM tabs, and (for ``new``) tabs created when absent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeAlias, final

from ..errors import BadWorkbook

__all__ = [
    "Append",
    "Backend",
    "Band",
    "Book",
    "Changes",
    "Look",
    "Overwrite",
    "Tab",
    "TabFormat",
    "Uncalculated",
    "Update",
    "Validation",
    "Value",
    "column_index",
    "column_letter",
]

Value: TypeAlias = "str | int | float | bool | dt.datetime | dt.date | dt.time | None"
"""A cell's value as read: text, a number, a boolean, a date or time Excel made, or ``None`` (empty)."""

Row: TypeAlias = "tuple[Value, ...]"


def column_letter(index: int) -> str:
    """1 -> ``A``, 28 -> ``AB``.

    >>> column_letter(1), column_letter(26), column_letter(28)
    ('A', 'Z', 'AB')
    """
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """``A`` -> 1, ``AB`` -> 28: the inverse of :func:`column_letter`.

    >>> column_index("A"), column_index("Z"), column_index("ab")
    (1, 26, 28)
    """
    index = 0
    for ch in letters.upper():
        index = index * 26 + ord(ch) - 64
    return index


@final
class Uncalculated(str):
    """A formula cell without a calculated value, as a file written by a script and never opened in a
    spreadsheet program has them: the formula, ``=...``. Read as that text (so a setting, rating or result
    holding one is refused as not what it should be), and refused where a name belongs, naming the cell:
    it may be a name typed as ``=Name`` that a program would show as an error."""

    __slots__ = ()


@final
@dataclass(frozen=True, slots=True)
class Book:
    """Every tab's values, row 1 first, in tab order; trailing empty rows dropped."""

    tabs: Mapping[str, tuple[Row, ...]]
    merged: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each tab's merged ranges (``E3:E4``), as far as the backend knows them (only the first cell of a
    range holds a value; the others read as empty)."""
    formulas: Mapping[str, Mapping[tuple[int, int], str]] = field(default_factory=dict)
    """Each tab's formula cells, ``(row, column)`` counted from 1 -> the formula (``=+/-``; ``=`` alone when
    the file keeps only a reference to a shared formula), as far as the backend knows them. The values in
    :attr:`tabs` are what the formulas showed."""

    def rows(self, tab: str) -> tuple[Row, ...]:
        """The rows of ``tab`` (empty when the tab is absent)."""
        return self.tabs.get(tab, ())


@dataclass(frozen=True, slots=True, kw_only=True)
class Look:
    """How a cell looks, in terms every backend can apply."""

    fill: str | None = None
    """Background colour as ``RRGGBB``."""
    bold: bool = False
    italic: bool = False
    border_below: bool = False
    """A line under the cell (under a band's last row)."""
    number_format: str | None = None
    """An Excel number format such as ``0.00`` or ``0.00%``."""
    wrap: bool = False
    center: bool = False
    """Centre the cells' contents (numbers beside names read apart on paper)."""


@final
@dataclass(frozen=True, slots=True)
class Band(Look):
    """A rectangle of cells (1-based, inclusive) and how it looks: ``Band(3, 10, 1, 4, bold=True)``."""

    first_row: int
    last_row: int
    first_col: int
    last_col: int


@final
@dataclass(frozen=True, slots=True)
class Validation:
    """What a cell accepts, as a spreadsheet program offers it: a drop-down of ``choices``, or a checkbox
    (``checkbox=True``: a tick box on Google Sheets, a TRUE/FALSE drop-down in an .xlsx file)."""

    row: int
    """1-based."""
    column: int
    """1-based: 1 is column A."""
    choices: tuple[str, ...] = ()
    checkbox: bool = False


@final
@dataclass(frozen=True, slots=True)
class TabFormat:
    """How a tab looks, in terms every backend can apply."""

    freeze_rows: int = 0
    """Rows kept in view when scrolling (the header and anything above it); an .xlsx file also prints them
    at the top of every page (the tab's print titles)."""
    widths: tuple[int, ...] = ()
    """Column widths in characters, column A first."""
    bands: tuple[Band, ...] = ()
    text_columns: tuple[int, ...] = ()
    """Columns formatted as Text so that what a GM types there stays as typed (``1-0`` never a date)."""
    landscape: bool = False
    """Print across the page, all columns fitted to ``pages_wide`` pages' width."""
    pages_wide: int = 1
    """With ``landscape``: how many pages wide the print is scaled to (2 for a tab too wide to read on one)."""
    paper: str = ""
    """``letter`` or ``a4``: the paper the tab is laid out for, printed upright and fitted to the page's width
    (an .xlsx file's page setup; Google Sheets leaves paper to its print dialog)."""
    row_breaks: tuple[int, ...] = ()
    """Rows after which a new printed page starts (an .xlsx file's manual page breaks)."""
    validations: tuple[Validation, ...] = ()
    """Cells that offer a drop-down or a checkbox (the Control tab's Command and Run)."""


@final
@dataclass(frozen=True, slots=True)
class Tab:
    """A whole tab: its values, row 1 first, and its format."""

    name: str
    rows: tuple[Row, ...]
    format: TabFormat = field(default_factory=TabFormat)


@final
@dataclass(frozen=True, slots=True)
class Append:
    """Rows written into a GM tab from ``first_row`` on (with :class:`Update`, the contract's only writes to a GM tab).

    ``clear_through`` empties the rows after the new ones up to that row, for ``pair --redo``
    replacing the rows the tool appended for the round it re-pairs.
    """

    tab: str
    first_row: int
    rows: tuple[Row, ...]
    clear_through: int = 0
    text_columns: tuple[int, ...] = ()
    """Columns whose new cells are formatted as Text (Results' Result column)."""


@final
@dataclass(frozen=True, slots=True)
class Update:
    """A value written into one empty cell of a GM tab (the contract's only other write to a GM tab).

    For filling in what the GM asked the tool to fill (a rating where Players.Rating is empty), never
    for changing what the GM typed: the backend refuses the whole write, naming the cell, when the cell
    is not empty at the time of writing.
    """

    tab: str
    row: int
    """1-based."""
    column: int
    """1-based: 1 is column A."""
    value: Value

    def __post_init__(self) -> None:
        if self.row < 1 or self.column < 1:
            raise ValueError(f"cell ({self.row}, {self.column}) of {self.tab}: rows and columns count from 1")

    @property
    def cell(self) -> str:
        """How messages name the cell: ``Players!C5``.

        >>> Update("Players", 5, 3, 1850).cell
        'Players!C5'
        """
        return f"{self.tab}!{column_letter(self.column)}{self.row}"

    def refused(self, held: object) -> BadWorkbook:
        """The error that fails the whole write when the cell holds ``held`` instead of being empty."""
        return BadWorkbook(f"{self.cell}: this cell is not empty (it holds {held!r}); sheetswiss writes here "
                           "only into empty cells, so nothing was written")


@final
@dataclass(frozen=True, slots=True)
class Overwrite:
    """A value written into one cell of the shared Control tab whatever the cell holds: the tool's status
    cells, and the Run checkbox the tool unticks when it takes a request. Never used for a GM tab."""

    tab: str
    row: int
    """1-based."""
    column: int
    """1-based: 1 is column A."""
    value: Value


@final
@dataclass(frozen=True, slots=True)
class Changes:
    """Everything one command writes, applied at once."""

    tool_tabs: tuple[Tab, ...] = ()
    """Rewritten in full, created when absent."""
    appends: tuple[Append, ...] = ()
    new_tabs: tuple[Tab, ...] = ()
    """Created only when absent (``new``); an existing tab of that name is left as it is."""
    updates: tuple[Update, ...] = ()
    """Values for empty cells of GM tabs; a cell that is not empty when written fails the whole write."""
    overwrites: tuple[Overwrite, ...] = ()
    """Values for the Control tab's status cells (and its Run cell), whatever they hold."""


class Backend(Protocol):
    """Where an event lives: an .xlsx file or a Google Sheet."""

    @property
    def label(self) -> str:
        """How messages name it: the file's path or the sheet's key."""
        ...

    @property
    def remote(self) -> bool:
        """Read over the network, within a quota of requests (a Google Sheet), rather than a local file."""
        ...

    def exists(self) -> bool:
        """Whether there is a workbook to read."""
        ...

    def stamp(self) -> tuple[int, int] | None:
        """What changes when the workbook may have changed, without reading it (a file's modification time and
        size); ``None`` where only a read tells (a Google Sheet)."""
        ...

    def lock_file(self) -> Path | None:
        """The lock file of a program that holds the workbook open (sheetswiss never writes then); ``None``
        when there is none, and always for a Google Sheet."""
        ...

    def refresh(self) -> None:
        """Forget what was read, so that the next read sees what changed since (``watch`` reads one workbook
        again and again)."""
        ...

    def read(self) -> Book:
        """Every tab's values in one read."""
        ...

    def start_new(self, refusal: str) -> Book:
        """Before ``new`` or ``copy`` lays a whole workbook here: what is there already, which it keeps. A
        file must not exist yet, and its folder must (:class:`~sheetswiss.errors.WorkbookUnavailable`,
        ``"<file>: already exists; <refusal>"``); a Google Sheet exists before it has tabs, so its tabs
        are read."""
        ...

    def write(self, changes: Changes) -> None:
        """Apply ``changes`` all at once or not at all (:class:`~sheetswiss.errors.BadWorkbook` when an
        update's cell is not empty)."""
        ...
