"""The small interface every backend offers: read every tab at once, write once.

A backend knows cells, rows and formats, never tournament rules. What it reads is a :class:`Book`
of plain values; what it writes is one :class:`Changes`: the tool's own tabs in full, rows appended
to GM tabs, and (for ``new``) tabs created when absent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias, final

__all__ = [
    "Append",
    "Backend",
    "Band",
    "Book",
    "Changes",
    "Tab",
    "TabFormat",
    "Value",
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


@final
@dataclass(frozen=True, slots=True)
class Book:
    """Every tab's values, row 1 first, in tab order; trailing empty rows dropped."""

    tabs: Mapping[str, tuple[Row, ...]]

    def rows(self, tab: str) -> tuple[Row, ...]:
        """The rows of ``tab`` (empty when the tab is absent)."""
        return self.tabs.get(tab, ())


@final
@dataclass(frozen=True, slots=True)
class Band:
    """A rectangle of cells (1-based, inclusive) and how it looks."""

    first_row: int
    last_row: int
    first_col: int
    last_col: int
    fill: str | None = None
    """Background colour as ``RRGGBB``."""
    bold: bool = False
    italic: bool = False
    border_below: bool = False
    """A line under the band's last row."""
    number_format: str | None = None
    """An Excel number format such as ``0.00`` or ``0.00%``."""
    wrap: bool = False
    center: bool = False
    """Centre the cells' contents (numbers beside names read apart on paper)."""


@final
@dataclass(frozen=True, slots=True)
class TabFormat:
    """How a tab looks, in terms every backend can apply."""

    freeze_rows: int = 0
    """Rows kept in view when scrolling (the header and anything above it)."""
    widths: tuple[int, ...] = ()
    """Column widths in characters, column A first."""
    bands: tuple[Band, ...] = ()
    text_columns: tuple[int, ...] = ()
    """Columns formatted as Text so that what a GM types there stays as typed (``1-0`` never a date)."""
    landscape: bool = False
    """Print across the page, all columns fitted to one page's width."""


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
    """Rows written into a GM tab from ``first_row`` on (the contract's only write to a GM tab).

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
class Changes:
    """Everything one command writes, applied at once."""

    tool_tabs: tuple[Tab, ...] = ()
    """Rewritten in full, created when absent."""
    appends: tuple[Append, ...] = ()
    new_tabs: tuple[Tab, ...] = ()
    """Created only when absent (``new``); an existing tab of that name is left as it is."""


class Backend(Protocol):
    """Where an event lives: an .xlsx file or a Google Sheet."""

    @property
    def label(self) -> str:
        """How messages name it: the file's path or the sheet's key."""
        ...

    def exists(self) -> bool:
        """Whether there is a workbook to read."""
        ...

    def read(self) -> Book:
        """Every tab's values in one read."""
        ...

    def write(self, changes: Changes) -> None:
        """Apply ``changes`` all at once or not at all."""
        ...
