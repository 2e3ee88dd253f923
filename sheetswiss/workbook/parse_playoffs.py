"""The Playoffs tab -> what the GM typed there: the seeds, each match's winner, a Netrunner cut's corp players.

The tool writes the tab (:func:`~sheetswiss.workbook.render.playoffs_tab`) and reads it back on the next run,
both from the layout in :mod:`~sheetswiss.workbook.contract` (``PLAYOFF_*``): a match a row from row 3 with
its Winner cell in column E, the seeds numbered in G with their players in H. The bracket itself is
rebuilt from the seeds and the winners (:mod:`sheetswiss.playoffs`), never read from the drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import final

from ..backends.base import Book, Value
from ..model import CellRef, PlayerId
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


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class TypedWinner:
    """A Winner cell the GM filled: the match's id and the name as typed (matched to a seed later)."""

    match: str
    winner: str
    row: int

    @property
    def match_cell(self) -> CellRef:
        """Where the match's id stands, e.g. ``Playoffs!A5``."""
        return f"{PLAYOFFS}!{_letter(PLAYOFF_MATCH)}{self.row}"

    @property
    def winner_cell(self) -> CellRef:
        """Where the winner was typed, e.g. ``Playoffs!E5``."""
        return f"{PLAYOFFS}!{_letter(PLAYOFF_WINNER)}{self.row}"


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayoffSheet:
    """The Playoffs tab as read: empty (no seeds) before a playoff is drawn."""

    seeds: tuple[PlayerId, ...]
    """The seeded players in column H, best first, where column G numbers them."""
    winners: tuple[TypedWinner, ...]
    """Every row with both a match id and a typed winner, top to bottom."""
    corps: tuple[tuple[CellRef, str, str], ...]
    """``(cell, match id, text)`` of every filled corp cell (column F) beside a match id."""


def _letter(column: int) -> str:
    return chr(ord("A") + column - 1)


def _at(row: tuple[Value, ...], column: int) -> str:
    return cell_text(row[column - 1]) if len(row) >= column else ""


def parse_playoffs(book: Book) -> PlayoffSheet:
    """Read the seeds, the typed winners and the corp cells of the Playoffs tab (empty when there is none)."""
    rows = list(enumerate(book.rows(PLAYOFFS)[PLAYOFF_FIRST_ROW - 1:], start=PLAYOFF_FIRST_ROW))
    seeds = tuple(_at(row, PLAYOFF_SEEDED) for _, row in rows
                  if _at(row, PLAYOFF_SEEDED) and _at(row, PLAYOFF_SEED).isdigit())
    winners = tuple(TypedWinner(match=_at(row, PLAYOFF_MATCH), winner=_at(row, PLAYOFF_WINNER), row=r)
                    for r, row in rows if _at(row, PLAYOFF_MATCH) and _at(row, PLAYOFF_WINNER))
    corps = tuple((f"{PLAYOFFS}!{_letter(PLAYOFF_CORP)}{r}", _at(row, PLAYOFF_MATCH), _at(row, PLAYOFF_CORP))
                  for r, row in rows if _at(row, PLAYOFF_MATCH) and _at(row, PLAYOFF_CORP))
    return PlayoffSheet(seeds=seeds, winners=winners, corps=corps)
