"""Results reported by the players (RULES.md 10.3): a Reports tab, as a form's responses, settled into Results.

Pure: from the event and the Reports rows to the Result cells to fill and the lines the GM reads. A report says
the round, who reports, the result from the reporter's side and, optionally, the opponent. A game's empty Result
cell is filled when its reports agree (both players, or one when ``reports_needed`` is 1); a result the GM typed
is never changed; anything else (a conflict, a round not paired, a reporter not at that table, an unreadable
result) is listed for the GM. A player's later report for the same round replaces an earlier one (a
correction sent through the form again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import final

from .backends.base import Value, column_letter
from .errors import BadWorkbook, Problems, SheetswissError
from .model import Event, Game, PlayerId
from .names import Names
from .registration import header_key
from .results import Outcome, Result, normalize

__all__ = ["Fill", "Reported", "Settlement", "flip", "read_reports", "reported_result", "settle"]

_ROUND = ("round", "round number", "which round")
_REPORTER = ("your name", "name", "player", "reporter", "reported by", "full name")
_RESULT = ("result", "your result", "score", "your score")
_OPPONENT = ("opponent", "opponent's name", "your opponent", "opponent name", "your opponent's name")

_WORDS = {"win": "1-0", "won": "1-0", "w": "1-0", "i won": "1-0", "victory": "1-0",
          "loss": "0-1", "lost": "0-1", "l": "0-1", "lose": "0-1", "i lost": "0-1", "defeat": "0-1",
          "draw": "1/2", "drew": "1/2", "tie": "1/2", "tied": "1/2", "d": "1/2",
          "win by forfeit": "+/-", "loss by forfeit": "-/+", "forfeit win": "+/-", "forfeit loss": "-/+"}
"""How a form's choices say a result from the reporter's side."""


def flip(result: Result) -> Result:
    """The same result from the other player's side.

    >>> flip(Result.parse("2-1")), flip(Result.parse("+/-")), flip(Result.parse("1/2"))
    (Result.parse('1-2'), Result.parse('-/+'), Result.parse('1/2'))
    """
    outcome = {Outcome.A_WINS: Outcome.B_WINS, Outcome.B_WINS: Outcome.A_WINS}.get(result.outcome, result.outcome)
    games = None if result.games is None else (result.games[1], result.games[0], result.games[2])
    return replace(result, outcome=outcome, games=games)


def reported_result(text: str, *, game_based: bool) -> Result:
    """A result as a player reports it, from their own side: ``win``, ``loss``, ``draw`` (or ``1-0`` ...),
    a game score ``2-1``, a forfeit ``+/-``. A bye is not reported. Under a game-based scale a word is not
    enough: the game score decides the points.

    >>> reported_result("Won", game_based=False), reported_result("1 - 2", game_based=True)
    (Result.parse('1-0'), Result.parse('1-2'))
    """
    words = normalize(text)
    if words in _WORDS:
        if game_based and _WORDS[words] in ("1-0", "0-1", "1/2"):
            raise SheetswissError(f"{text.strip()!r} gives no game score; this event scores games, so report "
                                  "them, e.g. 2-1")
        words = _WORDS[words]
    result = Result.parse(words, game_based=game_based)
    if result.is_bye:
        raise SheetswissError(f"{text.strip()!r} is a bye; a bye is not reported")
    return result


@final
@dataclass(frozen=True, slots=True)
class Reported:
    """One row of the Reports tab, as typed, with where each part is."""

    row: int
    round: str
    reporter: str
    result: str
    opponent: str
    refs: dict[str, str] = field(default_factory=dict)
    """``round``, ``reporter``, ``result``, ``opponent`` -> the cell, ``Reports!C5``."""


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_reports(label: str, rows: Sequence[Sequence[Value]]) -> tuple[Reported, ...]:
    """The Reports tab's rows (header first): its columns found by header (Round, Your name or Player, Result,
    Opponent), rows with nothing in them skipped."""
    if not rows:
        return ()
    header = [header_key(_text(h)) for h in rows[0]]
    problems = Problems()  # every missing column, in one run

    def column(names: tuple[str, ...], what: str, required: bool = True) -> int | None:
        found = next((header.index(n) for n in names if n in header), None)
        if found is None and required:
            problems.add(BadWorkbook(f"{label}!1: no column for {what} (headed {', '.join(names[:3])})"))
        return found

    columns = {"round": column(_ROUND, "the round"), "reporter": column(_REPORTER, "who reports"),
               "result": column(_RESULT, "the result"), "opponent": column(_OPPONENT, "the opponent", False)}
    problems.raise_any()
    out = []
    for r, row in enumerate(rows[1:], start=2):
        cells = {k: (_text(row[i]) if i is not None and i < len(row) else "") for k, i in columns.items()}
        if not any(cells.values()):
            continue
        refs = {k: f"{label}!{column_letter(i + 1)}{r}" for k, i in columns.items() if i is not None}
        out.append(Reported(r, cells["round"], cells["reporter"], cells["result"], cells["opponent"], refs))
    return tuple(out)


@final
@dataclass(frozen=True, slots=True)
class Fill:
    """A Result cell to fill: its game and the result from Player A's side."""

    game: Game
    result: Result
    line: str


@final
@dataclass(frozen=True, slots=True)
class Settlement:
    """What the reports settle: cells to fill, and the lines for the GM by kind."""

    fills: tuple[Fill, ...]
    conflicts: tuple[str, ...]
    waiting: tuple[str, ...]
    problems: tuple[str, ...]
    """Reports not applied: round not paired, unknown reporter, not at that table, unreadable, a bye."""
    kept: tuple[str, ...]
    """Typed results a report disagrees with (kept as typed)."""
    replaced: tuple[str, ...]
    """Reports a later report by the same player for the same round replaced."""
    read: int


def _table(game: Game) -> str:
    return f"round {game.round}, table {game.table}" if game.table is not None else f"round {game.round}"


def _agree(x: Result, y: Result) -> Result | None:
    """The result two reports agree on (the one with the game score, when one has it), else ``None``."""
    if x.kind is not y.kind or x.outcome is not y.outcome:
        return None
    if x.games is not None and y.games is not None and x.games != y.games:
        return None
    return x if x.games is not None else y


def settle(event: Event, reports: Sequence[Reported], *, needed: int, game_based: bool) -> Settlement:
    """Settle ``reports`` against ``event``'s paired rounds (RULES.md 10.3)."""
    names = Names(p.name for p in (*event.players, *event.waiting))  # RULES.md 1.6
    problems: list[str] = []
    replaced: list[str] = []
    latest: dict[tuple[int, PlayerId], tuple[Reported, Result, PlayerId]] = {}
    games_of: dict[tuple[int, PlayerId], Game] = {}
    for g in event.games:
        if g.b is not None:
            games_of.setdefault((g.round, g.a), g)
            games_of.setdefault((g.round, g.b), g)
    double = event.settings.sides == "double"
    for rep in reports:
        try:
            round_ = int(rep.round)
            if round_ < 1:
                raise ValueError
        except ValueError:
            problems.append(f"{rep.refs['round']}: cannot read {rep.round!r} as a round number")
            continue
        if round_ > event.paired_rounds:
            problems.append(f"{rep.refs['round']}: round {round_} is not paired yet (the last paired round is "
                            f"{event.paired_rounds})")
            continue
        reporter = names.find(rep.reporter)
        if reporter is None:
            what = names.unknown(rep.reporter, "Players") if rep.reporter else "who reports is missing"
            problems.append(f"{rep.refs['reporter']}: {what}")
            continue
        game = games_of.get((round_, reporter))
        if game is None:
            bye = any(g.a == reporter and g.b is None for g in event.games_in(round_))
            problems.append(f"{rep.refs['reporter']}: {reporter} " + (
                f"had no game in round {round_} (a bye)" if bye else f"is not at any table in round {round_}"))
            continue
        other = game.b if game.a == reporter else game.a
        assert other is not None
        if rep.opponent and names.find(rep.opponent) != other:
            problems.append(f"{rep.refs['opponent']}: {reporter}'s opponent in round {round_} is {other}, not "
                            f"{rep.opponent!r}; the report is left out")
            continue
        if double:
            problems.append(f"{rep.refs['result']}: under sides: double a match is two games; type them in "
                            "Results (reports are not applied)")
            continue
        try:
            mine = reported_result(rep.result, game_based=game_based)
        except SheetswissError as e:
            problems.append(f"{rep.refs['result']}: {e}")
            continue
        key = (round_, reporter)
        if key in latest:
            before = latest[key][0]
            same = "the same result" if before.result.strip().lower() == rep.result.strip().lower() else \
                f"{before.result!r} replaced by {rep.result!r}"
            replaced.append(f"{rep.refs['reporter']}: {reporter} reported round {round_} again (also row "
                            f"{before.row}): {same}; the latest counts")
        latest[key] = (rep, mine if game.a == reporter else flip(mine), reporter)
    fills: list[Fill] = []
    conflicts: list[str] = []
    waiting: list[str] = []
    kept: list[str] = []
    seen: set[int] = set()
    for round_, player in latest:
        game = games_of[round_, player]
        if game.row in seen:
            continue
        seen.add(game.row)
        assert game.b is not None
        sides = [latest.get((round_, game.a)), latest.get((round_, game.b))]
        given = [s for s in sides if s is not None]
        where = f"{game.cell} ({_table(game)}) {game.a} v {game.b}"
        agreed: Result | None = given[0][1]
        for s in given[1:]:
            agreed = None if agreed is None else _agree(agreed, s[1])
        said = "; ".join(f"{s[0].refs['result']} {s[2]} says {s[0].result!r}" for s in given)
        if game.result is not None:
            if agreed is None or _agree(agreed, game.result) is None:
                kept.append(f"{where}: typed {game.result.spelling()} kept; {said}")
            continue
        if agreed is None:
            conflicts.append(f"{where}: the reports disagree ({said})")
        elif len(given) >= needed:
            how = "both reported" if len(given) == 2 else f"reported by {given[0][2]}"
            fills.append(Fill(game, agreed, f"{where}: {agreed.spelling()} ({how})"))
        else:
            missing = game.b if sides[0] is not None else game.a
            waiting.append(f"{where}: {given[0][2]} reported {given[0][0].result!r}; waiting for {missing}")
    return Settlement(tuple(fills), tuple(conflicts), tuple(waiting), tuple(problems), tuple(kept),
                      tuple(replaced), len(reports))
