"""The Heats tab -> validated :class:`~sheetswiss.heats.HeatGame` tables (DESIGN.md section 2, RULES.md 5.3).

Header row 1: Heat | Table | Player | Score | Place (Place optional), found by header; one row per
player per game. Every problem is one line starting with its cells, e.g. ``Heats!D12, Heats!D14: ...``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from fractions import Fraction

from ..backends.base import Book, Value
from ..errors import BadWorkbook
from ..heats import HeatGame, HeatSeat, first_heats, game_points
from ..model import Player
from ..settings import Settings, parse_number
from .contract import HEADERS, HEATS
from .parse import Columns, cell_text, player_name, whole_number

__all__ = ["parse_heats"]


def _score(cols: Columns, row: tuple[Value, ...], r: int) -> Fraction | None:
    value = cols.get(row, "Score")
    ref = cols.ref("Score", r)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        raise BadWorkbook(f"{ref}: the spreadsheet turned the score into a date or time ({value}); "
                          "format the Score column as Number or Text and type it again")
    text = cell_text(value)
    if not text:
        return None
    try:
        if isinstance(value, bool):
            raise ValueError
        return parse_number(text)
    except ValueError:
        raise BadWorkbook(f"{ref}: the score {text!r} is not a number") from None



def parse_heats(book: Book, settings: Settings, players: tuple[Player, ...]) -> tuple[HeatGame, ...]:
    """Every table of the Heats tab, by heat and table, checked (RULES.md 5.3).

    Errors: a missing or non-whole Heat or Table, a player not in Players or twice in one heat, a
    Score that is not a number (or that the spreadsheet turned into a date), a table size outside
    ``table_sizes``, and for a table with any Score or Place typed every error of
    :func:`~sheetswiss.heats.game_points` (missing scores, Place typed for some, ties at first or
    second, a second's score of 0 with no ``ratio_cap``). A table with no Score and no Place is not
    played yet and is accepted as it is.
    """
    cols = Columns(book, HEATS, HEADERS[HEATS][:4], HEADERS[HEATS][4:])
    known = {p.name.lower(): p.name for p in players}
    seen: dict[tuple[int, str], int] = {}
    tables: dict[tuple[int, int], list[HeatSeat]] = defaultdict(list)
    table_cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for r, row in enumerate(cols.rows, start=2):
        if all(cell_text(v) == "" for v in row):
            continue
        numbers = []
        for column in ("Heat", "Table"):
            number = whole_number(cols, row, column, r, 1)
            if number is None:
                raise BadWorkbook(f"{cols.ref(column, r)}: the {column.lower()} number is missing")
            numbers.append(number)
        heat, table = numbers
        text = player_name(cols, row, "Player", r)
        if text.lower() not in known:
            what = f"{text!r} is not in Players" if text else "the player is missing"
            raise BadWorkbook(f"{cols.ref('Player', r)}: {what}")
        name = known[text.lower()]
        if (heat, name) in seen:
            raise BadWorkbook(f"{cols.ref('Player', r)}: {name!r} is in heat {heat} twice "
                              f"(also row {seen[heat, name]})")
        seen[heat, name] = r
        has_place = "Place" in cols.index
        place = whole_number(cols, row, "Place", r, 1) if has_place else None
        tables[heat, table].append(HeatSeat(
            player=name, score=_score(cols, row, r), place=place, row=r, score_cell=cols.ref("Score", r),
            place_cell=cols.ref("Place", r) if has_place else ""))
        table_cells[heat, table].append(cols.ref("Table", r))
    games = tuple(HeatGame(heat=h, table=t, seats=tuple(seats)) for (h, t), seats in sorted(tables.items()))
    allowed = " or ".join(map(str, settings.table_sizes))
    for game in games:
        if len(game.seats) not in settings.table_sizes:
            raise BadWorkbook(f"{', '.join(table_cells[game.heat, game.table])}: {game.label} has "
                              f"{len(game.seats)} players; table_sizes allows {allowed}")
    first = first_heats(games)
    for game in games:
        if game.has_results:
            game_points(game, settings, first)  # raises the table's first problem, naming its cells
    return games
