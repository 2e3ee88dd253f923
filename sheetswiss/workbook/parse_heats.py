"""The Heats tab -> validated :class:`~sheetswiss.model.HeatGame` tables (DESIGN.md section 2, RULES.md 5.3).

Header row 1: Heat | Table | Player | Score | Place (Place optional), found by header; one row per
player per game. Every problem is one line starting with its cells, e.g. ``Heats!D12, Heats!D14: ...``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from fractions import Fraction

from ..backends.base import Book, Value
from ..errors import BadWorkbook, Problems, excerpt
from ..model import HeatGame, HeatSeat, Player
from ..names import Names, name_key
from ..settings import Settings, parse_number
from .contract import HEADERS, HEATS, PLAYERS
from .parse import Columns, cell_text, player_name, whole_number

__all__ = ["STAGE_ORDER", "STAGE_WORDS", "parse_attendance", "parse_heat_tab", "parse_heats"]


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
        raise BadWorkbook(f"{ref}: the score {excerpt(text)} is not a number") from None



STAGE_WORDS = {"quarterfinal": "quarterfinal", "qf": "quarterfinal", "quarter-final": "quarterfinal",
               "quarter final": "quarterfinal", "semifinal": "semifinal", "sf": "semifinal",
               "semi-final": "semifinal", "semi final": "semifinal", "final": "final", "f": "final"}
"""What a GM may type in Heat for an elimination round's row (RULES.md 5.10); the tool writes the full word."""

STAGE_ORDER = ("quarterfinal", "semifinal", "final")


def parse_heats(book: Book, settings: Settings, players: tuple[Player, ...],
                problems: Problems | None = None) -> tuple[HeatGame, ...]:
    """Every heat table of the Heats tab, by heat and table, checked (RULES.md 5.3); the elimination rounds'
    rows are checked too but left out (:func:`parse_heat_tab` gives both)."""
    return parse_heat_tab(book, settings, players, problems)[0]


def parse_heat_tab(book: Book, settings: Settings, players: tuple[Player, ...],
                   problems: Problems | None = None) -> tuple[tuple[HeatGame, ...], tuple[HeatGame, ...]]:
    """The heat tables and the elimination rounds' tables of the Heats tab, as typed (RULES.md 5.3, 5.10).

    A row whose Heat is ``quarterfinal``, ``semifinal`` or ``final`` (or QF, SF, F) belongs to that round.
    Errors: a missing or non-whole Heat or Table, a player not in Players or twice in one heat or round, a
    Score that is not a number (or that the spreadsheet turned into a date), a heat table size outside
    ``table_sizes``, a round's table of one player. A table with such a row is left out. What the scores of
    a table mean (missing scores, ties at first or second, Place typed for some) is the rules' to check:
    :func:`~sheetswiss.heats.check_tables`. Rounds come in the order quarterfinal, semifinal, final.
    Every problem goes to ``problems`` when given, else all of them are raised together.
    """
    with Problems.into(problems) as found:
        return _heat_tab(book, settings, players, found)


def _heat_tab(book: Book, settings: Settings, players: tuple[Player, ...],
              problems: Problems) -> tuple[tuple[HeatGame, ...], tuple[HeatGame, ...]]:
    cols = Columns(book, HEATS, HEADERS[HEATS][:4], HEADERS[HEATS][4:])
    for problem in cols.merged_problems():
        problems.add(problem)
    known = Names(p.name for p in players)
    seen: dict[tuple[int | str, str], int] = {}
    tables: dict[tuple[int | str, int], list[HeatSeat]] = defaultdict(list)
    table_cells: dict[tuple[int | str, int], list[str]] = defaultdict(list)
    unreadable: set[tuple[int | str, int]] = set()
    has_place = "Place" in cols.index
    for r, row in enumerate(cols.rows, start=2):
        if all(cell_text(v) == "" for v in row):
            continue
        before = len(problems)
        stage = STAGE_WORDS.get(" ".join(cell_text(cols.get(row, "Heat")).lower().split()))
        heat: int | str | None = stage if stage is not None else problems.attempt(_number, cols, row, "Heat", r)
        table = problems.attempt(_number, cols, row, "Table", r)
        name = problems.attempt(_player, cols, row, r, known)
        place = problems.attempt(whole_number, cols, row, "Place", r, 1) if has_place else None
        score = problems.attempt(_score, cols, row, r)
        if heat is not None and name is not None and (heat, name) in seen:
            where = f"the {heat}" if isinstance(heat, str) else f"heat {heat}"
            problems.add(BadWorkbook(f"{cols.ref('Player', r)}: {name!r} is in {where} twice "
                                     f"(also row {seen[heat, name]})"))
        if heat is None or table is None:
            continue
        if len(problems) > before:  # the table is neither sized nor scored: a row of it is not read as typed
            unreadable.add((heat, table))
        if name is None or (heat, name) in seen:
            continue
        seen[heat, name] = r
        tables[heat, table].append(HeatSeat(
            player=name, score=score, place=place, row=r, score_cell=cols.ref("Score", r),
            place_cell=cols.ref("Place", r) if has_place else "", player_cell=cols.ref("Player", r)))
        table_cells[heat, table].append(cols.ref("Table", r))
    games = tuple(HeatGame(heat=h, table=t, seats=tuple(seats))
                  for (h, t), seats in sorted(((k[0], k[1]), v) for k, v in tables.items() if isinstance(k[0], int)))
    rounds = tuple(HeatGame(heat=0, table=t, stage=str(h), seats=tuple(seats))
                   for (h, t), seats in sorted(((k, v) for k, v in tables.items() if isinstance(k[0], str)),
                                               key=lambda kv: (STAGE_ORDER.index(str(kv[0][0])), kv[0][1])))
    allowed = " or ".join(map(str, settings.table_sizes))
    for game in games:
        if (game.heat, game.table) in unreadable:
            continue
        if len(game.seats) not in settings.table_sizes:
            unreadable.add((game.heat, game.table))
            problems.add(BadWorkbook(f"{', '.join(table_cells[game.heat, game.table])}: {game.label} has "
                                     f"{len(game.seats)} players; table_sizes allows {allowed}"))
    for game in rounds:
        if (game.stage, game.table) in unreadable:
            continue
        if len(game.seats) < 2:
            unreadable.add((game.stage, game.table))
            problems.add(BadWorkbook(f"{', '.join(table_cells[game.stage, game.table])}: {game.label} has one "
                                     "player; a table needs two at least"))
    # a table with a row not read as typed is left out: its problems are already said, and it is not scored
    games = tuple(g for g in games if (g.heat, g.table) not in unreadable)
    rounds = tuple(g for g in rounds if (g.stage, g.table) not in unreadable)
    return games, rounds


def _number(cols: Columns, row: tuple[Value, ...], column: str, r: int) -> int:
    """The Heat or Table number of a row, which must be there."""
    number = whole_number(cols, row, column, r, 1)
    if number is None:
        raise BadWorkbook(f"{cols.ref(column, r)}: the {column.lower()} number is missing")
    return number


def _player(cols: Columns, row: tuple[Value, ...], r: int, known: Names) -> str:
    """The Player of a row, as Players spells it (RULES.md 1.6)."""
    text = player_name(cols, row, "Player", r)
    name = known.find(text)
    if name is None:
        what = known.unknown(text, "Players") if text else "the player is missing"
        raise BadWorkbook(f"{cols.ref('Player', r)}: {what}")
    return name


def parse_attendance(book: Book, stage: str, players: tuple[Player, ...]) -> set[str] | None:
    """Who is absent for an elimination round, from a column of Players headed with the round's name
    (``Semifinal``): once any player is marked there, the unmarked and those marked ``no`` or ``absent``
    are absent. ``None`` when Players has no such column or no mark in it."""
    header = stage.capitalize()
    cols = Columns(book, PLAYERS, ["Name"], [header])
    if header not in cols.index:
        return None
    marks = {name_key(cell_text(cols.get(row, "Name"))): cell_text(cols.get(row, header)).lower() for row in cols.rows}
    if not any(marks.values()):
        return None
    return {p.name for p in players if marks.get(name_key(p.name), "") in ("", "no", "n", "0", "absent")}
