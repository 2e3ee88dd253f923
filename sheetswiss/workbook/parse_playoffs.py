"""The Playoffs tab -> what the GM typed there: the seeds, each match's winner, a Netrunner cut's corp players.

The tool writes the tab (:func:`~sheetswiss.workbook.render.playoffs_tab`) and reads it back on the next run,
both from the layout in :mod:`~sheetswiss.workbook.contract` (``PLAYOFF_*``): a match a row from row 3 with
its Winner cell in column E, the seeds numbered in G with their players in H. The bracket itself is
rebuilt from the seeds and the winners (:mod:`sheetswiss.playoffs`), never read from the drawing.
"""

from __future__ import annotations

from ..backends.base import Book, Value, column_letter
from ..model import PlayoffSheet, TypedWinner
from .contract import (
    PLAYOFF_CORP,
    PLAYOFF_FIRST_ROW,
    PLAYOFF_MATCH,
    PLAYOFF_SEED,
    PLAYOFF_SEEDED,
    PLAYOFF_WINNER,
    PLAYOFFS,
)
from .parse import cell_text

__all__ = ["PlayoffSheet", "TypedWinner", "parse_playoffs"]


def _at(row: tuple[Value, ...], column: int) -> str:
    return cell_text(row[column - 1]) if len(row) >= column else ""


def parse_playoffs(book: Book) -> PlayoffSheet:
    """Read the seeds, the typed winners and the corp cells of the Playoffs tab (empty when there is none)."""
    rows = list(enumerate(book.rows(PLAYOFFS)[PLAYOFF_FIRST_ROW - 1:], start=PLAYOFF_FIRST_ROW))
    seeds = tuple(_at(row, PLAYOFF_SEEDED) for _, row in rows
                  if _at(row, PLAYOFF_SEEDED) and _at(row, PLAYOFF_SEED).isdigit())
    winners = tuple(TypedWinner(match=_at(row, PLAYOFF_MATCH), winner=_at(row, PLAYOFF_WINNER),
                                match_cell=f"{PLAYOFFS}!{column_letter(PLAYOFF_MATCH)}{r}",
                                winner_cell=f"{PLAYOFFS}!{column_letter(PLAYOFF_WINNER)}{r}")
                    for r, row in rows if _at(row, PLAYOFF_MATCH) and _at(row, PLAYOFF_WINNER))
    corps = tuple((f"{PLAYOFFS}!{column_letter(PLAYOFF_CORP)}{r}", _at(row, PLAYOFF_MATCH), _at(row, PLAYOFF_CORP))
                  for r, row in rows if _at(row, PLAYOFF_MATCH) and _at(row, PLAYOFF_CORP))
    return PlayoffSheet(seeds=seeds, winners=winners, corps=corps, tab=PLAYOFFS)
