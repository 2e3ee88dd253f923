"""The Avoid tab -> the pairs the pairing keeps apart (RULES.md 2.12).

The tab is optional and the GM's: row 1 has two columns headed ``Player`` and optionally one headed
``Why``; each row below names two players, matched to Players as every name is (RULES.md 1.6).
"""

from __future__ import annotations

from ..backends.base import Book, Uncalculated, Value, column_letter
from ..errors import BadWorkbook, Problems, excerpt
from ..model import AvoidPair, Player
from ..names import Names
from .contract import AVOID, PLAYERS
from .parse import SPREADSHEET_ERRORS, cell_text

__all__ = ["parse_avoid"]

_PLAYER_HEADERS = ("player", "player a", "player b", "player 1", "player 2")
"""How a GM may head the two name columns."""


def parse_avoid(book: Book, players: tuple[Player, ...], problems: Problems | None = None) -> tuple[AvoidPair, ...]:
    """The Avoid tab's pairs in row order, each pair once; ``()`` when the workbook has no Avoid tab.

    A name not in Players, a missing name or a player named twice in one row is a problem naming the
    cell (to ``problems`` when given, else raised with every other one).
    """
    if AVOID not in book.tabs:
        return ()
    with Problems.into(problems) as found:
        rows = book.rows(AVOID)
        header = [cell_text(v).lower() for v in rows[0]] if rows else []
        columns = [i for i, text in enumerate(header) if text in _PLAYER_HEADERS]
        why = next((i for i, text in enumerate(header) if text in ("why", "reason", "note")), None)
        if len(columns) != 2:
            found.add(BadWorkbook(f"{AVOID}!1: row 1 needs two columns headed Player (the two players to keep "
                                  f"apart) and one headed Why; found {len(columns)} headed Player"))
            return ()
        known = Names(p.name for p in players)
        pairs: list[AvoidPair] = []
        seen: set[frozenset[str]] = set()
        for r, row in enumerate(rows[1:], start=2):
            if all(cell_text(v) == "" for v in row):
                continue
            names = [_name(found, known, row, i, r) for i in columns]
            a, b = names
            if a is None or b is None:
                continue
            if a == b:
                found.add(BadWorkbook(f"{_ref(columns[1], r)}: {excerpt(a)} is on both sides of this row; name "
                                      "two different players"))
                continue
            if frozenset((a, b)) in seen:
                continue
            seen.add(frozenset((a, b)))
            pairs.append(AvoidPair(a=a, b=b, why=cell_text(_get(row, why)) if why is not None else "", row=r))
        return tuple(pairs)


def _get(row: tuple[Value, ...], i: int) -> Value:
    return row[i] if i < len(row) else None


def _ref(i: int, r: int) -> str:
    return f"{AVOID}!{column_letter(i + 1)}{r}"


def _name(found: Problems, known: Names, row: tuple[Value, ...], i: int, r: int) -> str | None:
    """The Players spelling of the name in column ``i`` of row ``r``, or ``None`` with the problem kept."""
    value = _get(row, i)
    text = cell_text(value)
    if isinstance(value, Uncalculated) or text.upper() in SPREADSHEET_ERRORS:
        found.add(BadWorkbook(f"{_ref(i, r)}: the cell holds a formula or a spreadsheet error ({excerpt(text)}), "
                              "not a name; retype the name with an apostrophe first"))
        return None
    if not text:
        found.add(BadWorkbook(f"{_ref(i, r)}: the player is missing; a row of {AVOID} names two players"))
        return None
    name = known.find(text)
    if name is None:
        found.add(BadWorkbook(f"{_ref(i, r)}: {known.unknown(text, PLAYERS)}"))
    return name
