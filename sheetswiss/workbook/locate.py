"""Where in the workbook a command reads or writes, beyond the model: a GM tab's column found by its header,
a tab named by a setting or an option, and the Log's time of the last pairing.

The parsers (:mod:`.parse`) build the model; these small readers answer the questions a command has when it
fills empty cells (Players.Rating, Results.Result), appends rows under the GM's own headers (Players), or
reads a tab a setting names (registrations, reports).
"""

from __future__ import annotations

import datetime as dt

from ..backends.base import Book
from ..errors import SheetswissError
from .contract import LOG
from .parse import Columns, cell_text

__all__ = ["find_column", "find_tab", "last_paired", "require_column"]


def find_column(book: Book, tab: str, header: str) -> int | None:
    """The index (0 for column A) of ``tab``'s column headed ``header`` in row 1, any case; ``None`` when
    there is none. Two columns with that header are an error naming both."""
    return Columns(book, tab, [], [header]).index.get(header)


def require_column(book: Book, tab: str, header: str) -> int:
    """:func:`find_column` for a column the command needs: its absence is an error naming row 1."""
    return Columns(book, tab, [header], []).index[header]


def find_tab(book: Book, name: str, where: str) -> str:
    """The tab named ``name`` (case and surrounding spaces ignored), else an error listing the tabs; ``where``
    (a setting or an option) starts the message."""
    if name in book.tabs:
        return name
    near = [t for t in book.tabs if t.strip().casefold() == name.strip().casefold()]
    if near:
        return near[0]
    raise SheetswissError(f"{where}: no tab named {name!r}; the workbook's tabs: {', '.join(book.tabs)}")


def last_paired(book: Book) -> dt.datetime | None:
    """When the last round was paired: the time of the Log's last ``pair`` row (RULES.md 10.5); ``None``
    when there is none, or when its time is not one the tool wrote."""
    paired = [cell_text(r[0]) for r in book.rows(LOG)[2:] if len(r) > 1 and cell_text(r[1]).startswith("pair")]
    if not paired:
        return None
    try:
        return dt.datetime.strptime(paired[-1], "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None
