"""WBC (World Boardgaming Championships) heat qualification: places, Latto points, totals, ranking, inversions,
qualifiers (RULES.md section 5).

Seed 003 (Andy Latto's Thurn & Taxis rules): each game finished first or second scores a bonus plus a score ratio;
the total over all heats ranks the players; the top ``qualifiers`` go to the semifinal. HMW (Heats: Most Wins) and
HSW (Heats: Single Win) are the methods named here; every method's rules are in :mod:`sheetswiss.heat_methods`.
Every constant is a setting (RULES.md section 9) and all arithmetic is exact (``Fraction``).

A table is *finished* once any Score or Place of it is typed; then every Score must be. A table with
nothing typed is simply not played yet: it counts for nobody's points, but its players have *entered*
that heat, so a later win is not their first heat's win (RULES.md 5.1). That keeps goal 1: typing the
scores of an earlier table never takes the first-heat bonus away from a later game.
"""

from __future__ import annotations

import enum
import itertools
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .errors import BadWorkbook, Problems, SheetswissError
from .model import HeatGame, HeatSeat, PlayerId
from .settings import HeatRanking, Precedence, Settings

__all__ = [
    "HeatFinish",
    "HeatGame",
    "HeatSeat",
    "HeatsWarning",
    "Inversion",
    "PlayerHeats",
    "Qualification",
    "QualifierRow",
    "Status",
    "check_tables",
    "first_heats",
    "game_points",
    "inversions",
    "negative_scores",
    "place_contradiction",
    "places",
    "player_heats",
    "precedence_steps",
    "qualify",
    "score_share",
]


def _cells(seats: Iterable[HeatSeat], column: str) -> str:
    """``Heats!D12, Heats!D14`` for the ``score`` or ``place`` cells of ``seats`` (player names if unknown)."""
    return ", ".join(getattr(s, f"{column}_cell") or s.player for s in seats)


def places(game: HeatGame, settings: Settings) -> tuple[int, ...]:
    """Each seat's place at a finished table, 1 the winner (RULES.md 5.3).

    Places come from the scores (higher first, or lower first with ``score_order: low``); equal scores
    share a place (3, 3 for two thirds). A typed Place overrides the scores; it must then be typed for
    every player of the table, as 1..n without repeats. Errors, naming the cells: a missing score, a
    partial or repeated Place, and equal scores at first or second with no Place to decide them.

    >>> rows = [("Ana", 9), ("Bo", 12), ("Cy", 5), ("Dee", 5)]
    >>> game = HeatGame(heat=1, table=1, seats=tuple(HeatSeat(player=p, score=Fraction(s)) for p, s in rows))
    >>> places(game, Settings())
    (2, 1, 3, 3)
    """
    missing = [s for s in game.seats if s.score is None]
    if missing:
        raise BadWorkbook(f"{_cells(missing, 'score')}: {game.label}: the score is missing; type every "
                          "score of a table (a table with no scores yet is not counted)")
    typed = [s for s in game.seats if s.place is not None]
    n = len(game.seats)
    if typed:
        if len(typed) < n:
            untyped = [s for s in game.seats if s.place is None]
            raise BadWorkbook(f"{_cells(untyped, 'place')}: {game.label}: Place is typed for some players of "
                              "this table, so type it for all of them")
        given = [s.place for s in game.seats]
        repeated = [s for s in game.seats if given.count(s.place) > 1 or not 1 <= (s.place or 0) <= n]
        if repeated:
            raise BadWorkbook(f"{_cells(repeated, 'place')}: {game.label}: places must be 1 to {n}, "
                              "each once")
        return tuple(s.place or 0 for s in game.seats)
    sign = 1 if settings.score_order == "high" else -1
    keys = [sign * (s.score or 0) for s in game.seats]
    result = tuple(1 + sum(k > own for k in keys) for own in keys)
    for place, what in ((1, "first"), (2, "second")):
        tied = [s for s, p in zip(game.seats, result) if p == place]
        if len(tied) > 1:
            raise BadWorkbook(f"{_cells(tied, 'score')}: {game.label}: equal scores ({tied[0].score}) for {what} "
                              "place; type every player's Place at this table to say who is ahead")
    return result


class HeatsWarning(UserWarning):
    """Something in Heats that is accepted as typed but is likely a slip; the command goes on and says it."""


def place_contradiction(game: HeatGame, settings: Settings) -> str | None:
    """A line when the typed Place of a finished table puts a player ahead of one with a better score
    (RULES.md 5.3: the Place counts, so this is a warning, not an error), naming both Place cells.

    >>> seats = (HeatSeat(player="Ana", score=Fraction(30), place=2, place_cell="Heats!E2"),
    ...          HeatSeat(player="Bo", score=Fraction(20), place=1, place_cell="Heats!E3"))
    >>> print(place_contradiction(HeatGame(heat=1, table=1, seats=seats), Settings()))  # doctest: +NORMALIZE_WHITESPACE
    Heats!E3, Heats!E2: heat 1 table 1: Place puts Bo (1) ahead of Ana (2), whose score is better (30 to 20);
    the Place counts: check it
    """
    seats = game.seats
    if any(s.place is None or s.score is None for s in seats):
        return None
    sign = 1 if settings.score_order == "high" else -1
    for ahead, behind in itertools.permutations(seats, 2):
        assert ahead.place is not None and behind.place is not None and ahead.score is not None
        assert behind.score is not None
        if ahead.place < behind.place and sign * ahead.score < sign * behind.score:
            return (f"{_cells((ahead, behind), 'place')}: {game.label}: Place puts {ahead.player} ({ahead.place}) "
                    f"ahead of {behind.player} ({behind.place}), whose score is better ({behind.score} to "
                    f"{ahead.score}); the Place counts: check it")
    return None


def negative_scores(games: Iterable[HeatGame], settings: Settings) -> str | None:
    """A hint when finished tables have scores below 0 and ``score_offset`` is 0: a ratio of negative
    scores means nothing (RULES.md 5.4), so the offset should lift every score above 0.

    >>> seats = (HeatSeat(player="Ana", score=Fraction(12), score_cell="Heats!D2"),
    ...          HeatSeat(player="Bo", score=Fraction(-4), score_cell="Heats!D3"))
    >>> print(negative_scores([HeatGame(heat=1, table=1, seats=seats)], Settings()))  # doctest: +NORMALIZE_WHITESPACE
    Heats!D3: a score below 0 (-4) and score_offset is 0, so score ratios mean little (RULES.md 5.4);
    set score_offset to 5 or more to lift every score above 0
    """
    if settings.score_offset != 0:
        return None
    below = [s for g in games for s in g.seats if s.score is not None and s.score < 0]
    if not below:
        return None
    lowest = min(s.score for s in below if s.score is not None)
    more = f" (and {len(below) - 1} more)" if len(below) > 1 else ""
    return (f"{below[0].score_cell or below[0].player}{more}: a score below 0 ({below[0].score}) and score_offset "
            f"is 0, so score ratios mean little (RULES.md 5.4); set score_offset to {1 - lowest} or more to lift "
            "every score above 0")


def _ratio(own: Fraction, other: Fraction, settings: Settings, *, lower: Fraction,
           upper: Fraction | None) -> Fraction | None:
    """own/other (other/own with ``score_order: low``), both offset, clipped to [lower, upper] (RULES.md 5.4).

    A denominator of 0 or less gives 1 for equal scores, ``upper`` when ``own`` is the better score and
    ``lower`` when it is the worse. ``None`` means "no upper bound" was needed and there is none.
    """
    own, other = own + settings.score_offset, other + settings.score_offset
    num, den = (other, own) if settings.score_order == "low" else (own, other)
    if den <= 0:
        return Fraction(1) if num == den else (upper if num > den else lower)
    value = max(num / den, lower)
    return value if upper is None else min(value, upper)


def score_share(own: Fraction, winner: Fraction, settings: Settings) -> Fraction:
    """``own`` as a share of the table winner's score, clipped to [0, 1], with ``score_offset`` and
    ``score_order`` (RULES.md 5.4's s; 5.11 ranks semifinal runners-up by it).

    >>> score_share(Fraction(15), Fraction(39, 2), Settings())
    Fraction(10, 13)
    """
    share = _ratio(own, winner, settings, lower=Fraction(0), upper=Fraction(1))
    assert share is not None  # the upper bound is 1
    return share


def game_points(game: HeatGame, settings: Settings, first_heat: Mapping[PlayerId, int]) -> tuple[Fraction, ...]:
    """Latto points of each seat of a finished table (seed 003; RULES.md 5.2, 5.4).

    Winner: ``heat_first_win`` (``heat_hsw_first_win`` under HSW) when this is the player's first heat
    entered (``first_heat``), else ``heat_win``; plus r = own/second's score clipped to [1, ``ratio_cap``].
    Second: ``heat_second_4``, ``heat_second_3`` or ``heat_second_5`` by table size, plus
    ``heat_second_factor`` times s = own/winner's score clipped to [0, 1]; nothing at a 2-player table.
    Third at a 5-player table: ``heat_third_5``. Anyone else: 0. A win scores the same at every size.
    Raises the errors of :func:`places`, and one when ``ratio_cap`` is ``none`` and the second's score is
    0 or less below a higher winner (seed 003's ratio has no value then).

    RULES.md 5.2's heat 1: Rita 1500 + 36/30 = 1501.2, Sam 100 + 10 * 30/36 = 108.33.

    >>> rows = [("Rita", 36), ("Sam", 30), ("Tom", 25), ("Uma", 12)]
    >>> game = HeatGame(heat=1, table=1, seats=tuple(HeatSeat(player=p, score=Fraction(s)) for p, s in rows))
    >>> [str(p) for p in game_points(game, Settings(), dict.fromkeys(("Rita", "Sam", "Tom", "Uma"), 1))]
    ['7506/5', '325/3', '0', '0']
    """
    place = places(game, settings)
    size = len(game.seats)
    winner = game.seats[place.index(1)]
    second = game.seats[place.index(2)]
    assert winner.score is not None and second.score is not None  # places() checked every score
    first_win = settings.heat_hsw_first_win if settings.method == "hsw" else settings.heat_first_win
    second_base = {3: settings.heat_second_3, 4: settings.heat_second_4, 5: settings.heat_second_5}
    points: list[Fraction] = []
    for seat, p in zip(game.seats, place):
        if p == 1:
            r = _ratio(winner.score, second.score, settings, lower=Fraction(1), upper=settings.ratio_cap)
            if r is None:
                raise BadWorkbook(f"{_cells((winner, second), 'score')}: {game.label}: the second's score is 0 or "
                                  "less, so the winner's score ratio has no value; set ratio_cap or score_offset")
            base = first_win if first_heat[seat.player] == game.heat else settings.heat_win
            points.append(base + r)
        elif p == 2 and size in second_base:
            s = _ratio(second.score, winner.score, settings, lower=Fraction(0), upper=Fraction(1))
            assert s is not None  # the upper bound is 1
            points.append(second_base[size] + settings.heat_second_factor * s)
        elif p == 3 and size == 5:
            points.append(settings.heat_third_5)
        else:
            points.append(Fraction(0))
    return tuple(points)


def check_tables(games: Sequence[HeatGame], rounds: Sequence[HeatGame], settings: Settings,
                 problems: Problems) -> None:
    """Every error of every finished table, into ``problems``: for a heat table those of :func:`game_points`
    (missing scores, Place typed for some, ties at first or second, a second's score of 0 with no
    ``ratio_cap``), for an elimination round's table those of :func:`places` (RULES.md 5.3, 5.10). A table
    with no Score and no Place is not played yet and is accepted as it is. Slips that are accepted as typed
    (a Place against the scores, scores below 0 with no offset) are warned about (:class:`HeatsWarning`)."""
    first = first_heats(games)
    for game in games:
        if game.has_results:
            with problems.collect():
                game_points(game, settings, first)  # raises the table's first problem, naming its cells
    for game in rounds:
        if game.has_results:
            with problems.collect():
                places(game, settings)
    played = [g for g in (*games, *rounds) if g.has_results]
    hints = [*(place_contradiction(g, settings) for g in played), negative_scores(played, settings)]
    for hint in hints:
        if hint is not None:
            warnings.warn(hint, HeatsWarning, stacklevel=2)


def first_heats(games: Iterable[HeatGame]) -> dict[PlayerId, int]:
    """Each player's first heat entered: the lowest heat with a row for them, finished or not (RULES.md 5.1)."""
    first: dict[PlayerId, int] = {}
    for game in games:
        for seat in game.seats:
            first[seat.player] = min(first.get(seat.player, game.heat), game.heat)
    return first


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class HeatFinish:
    """One finished game of one player."""

    heat: int
    table: int
    size: int
    """Players at the table."""
    place: int
    points: Fraction
    share: Fraction = Fraction(0)
    """Own score as a share of the table winner's, clipped to [0, 1] (1 for the winner; RULES.md 5.4's s)."""
    margin: Fraction = Fraction(0)
    """For a win: own score less the second's (the reverse under ``score_order: low``); else 0."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerHeats:
    """A player's heats: those entered, and the finished games with their places and points."""

    player: PlayerId
    entered: tuple[int, ...]
    """Every heat with a row for the player, in order (finished or not)."""
    finishes: tuple[HeatFinish, ...]
    """The finished games, in heat order."""

    @property
    def heats_played(self) -> int:
        """Finished games."""
        return len(self.finishes)

    @property
    def wins(self) -> int:
        return sum(f.place == 1 for f in self.finishes)

    @property
    def seconds(self) -> int:
        return sum(f.place == 2 for f in self.finishes)

    @property
    def points(self) -> Fraction:
        """The Latto total: the sum over the player's games (RULES.md 5.2)."""
        return sum((f.points for f in self.finishes), Fraction(0))

    def won_entry(self, k: int) -> bool:
        """Whether the player won the ``k``-th heat they entered (1 = first heat entered, RULES.md 5.1)."""
        if k > len(self.entered):
            return False
        return any(f.heat == self.entered[k - 1] and f.place == 1 for f in self.finishes)

    @property
    def first_heat_win(self) -> bool:
        return self.won_entry(1)

    @property
    def average_finish(self) -> Fraction | None:
        """Mean place over finished games (WBC 2008 step 7; lower is better); ``None`` without games."""
        if not self.finishes:
            return None
        return Fraction(sum(f.place for f in self.finishes), len(self.finishes))


def player_heats(games: Sequence[HeatGame], settings: Settings) -> tuple[PlayerHeats, ...]:
    """Every player with a row in Heats, by name, with their finished games scored by :func:`game_points`."""
    first = first_heats(games)
    entered: dict[PlayerId, list[int]] = {p: [] for p in first}
    finishes: dict[PlayerId, list[HeatFinish]] = {p: [] for p in first}
    for game in sorted(games, key=lambda g: (g.heat, g.table)):
        for seat in game.seats:
            entered[seat.player].append(game.heat)
        if game.has_results:
            place = places(game, settings)
            winner = game.seats[place.index(1)].score or Fraction(0)
            second = game.seats[place.index(2)].score or Fraction(0) if len(game.seats) > 1 else winner
            sign = 1 if settings.score_order == "high" else -1
            for seat, p, pts in zip(game.seats, place, game_points(game, settings, first)):
                own = seat.score or Fraction(0)
                share = _ratio(own, winner, settings, lower=Fraction(0), upper=Fraction(1)) or Fraction(0)
                finishes[seat.player].append(HeatFinish(
                    heat=game.heat, table=game.table, size=len(game.seats), place=p, points=pts,
                    share=Fraction(1) if p == 1 else share, margin=sign * (own - second) if p == 1 else Fraction(0)))
    return tuple(PlayerHeats(player=p, entered=tuple(entered[p]), finishes=tuple(finishes[p]))
                 for p in sorted(first))


PrecedenceStep = tuple[str, Callable[[PlayerHeats], int]]


def precedence_steps(settings: Settings) -> tuple[PrecedenceStep, ...]:
    """The precedence before the GM tiebreak, as (name, key) steps, higher first (RULES.md 5.1, 5.6).

    ``seed003``: most wins, then a win in the first heat entered (HSW: those two swapped, seed 003's
    "a win in the first heat entered outranks two wins"). ``wbc2008``: the WBC 2008 HMW steps 1-5
    (most wins; win in the first, second, third, fourth heat entered); under HSW the first two swap.
    Steps 6-8 (total, average finish, dice) follow in :func:`qualify`.

    >>> [name for name, _ in precedence_steps(Settings(method="hsw"))]
    ['win in first heat entered', 'wins']
    """
    steps: list[PrecedenceStep] = [("wins", lambda p: p.wins),
                                   ("win in first heat entered", _won_entry(1))]
    if settings.method == "hsw":
        steps.reverse()
    if settings.precedence == "wbc2008":
        steps += [(f"win in {nth} heat entered", _won_entry(k)) for k, nth in ((2, "second"), (3, "third"),
                                                                                (4, "fourth"))]
    return tuple(steps)


def _won_entry(k: int) -> Callable[[PlayerHeats], int]:
    return lambda p: int(p.won_entry(k))


def _precedence_key(record: PlayerHeats, steps: Sequence[PrecedenceStep]) -> tuple[int, ...]:
    return tuple(key(record) for _, key in steps)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Inversion:
    """A pair the precedence orders one way and the Latto totals the other (or tie): total(above) <= total(below)."""

    above: PlayerId
    below: PlayerId
    step: str
    """The precedence step that puts ``above`` first, e.g. ``wins``."""
    values: tuple[int, int]
    """That step's values for ``above`` and ``below`` (a yes/no step counts 1/0)."""
    points: tuple[Fraction, Fraction]
    """The totals of ``above`` and ``below``."""

    @property
    def text(self) -> str:
        """One line for the command line and the Qualifiers tab."""
        a, b = (f"{float(p):.4f}" for p in self.points)
        more = "the same" if self.points[0] == self.points[1] else "fewer"
        return (f"{self.above} is ahead of {self.below} on {self.step} ({self.values[0]} v {self.values[1]}) "
                f"but has {more} points ({a} v {b})")


def inversions(records: Sequence[PlayerHeats], settings: Settings) -> tuple[Inversion, ...]:
    """Every pair (x, y) the precedence puts x above y while total(x) <= total(y) (RULES.md 5.6).

    With ``ratio_cap`` 10 and at most 5 games a player there are none (RULES.md 5.6). Pairs come in
    precedence order of x, then of y (equal precedence: more points first, then by name).
    """
    steps = precedence_steps(settings)
    keyed = sorted(((_precedence_key(r, steps), r) for r in records),
                   key=lambda kr: (tuple(-v for v in kr[0]), -kr[1].points, kr[1].player))
    found: list[Inversion] = []
    for kx, x in keyed:
        for ky, y in keyed:
            if kx > ky and x.points <= y.points:
                i = next(i for i, (a, b) in enumerate(zip(kx, ky)) if a != b)
                found.append(Inversion(above=x.player, below=y.player, step=steps[i][0], values=(kx[i], ky[i]),
                                       points=(x.points, y.points)))
    return tuple(found)


class Status(enum.Enum):
    """Where a player stands for the semifinal (RULES.md 5.5)."""

    QUALIFIED = "qualified"
    ALTERNATE = "alternate"
    """In order: :attr:`QualifierRow.alternate` is 1 for the first."""
    TIED = "tied"
    """Exactly equal with players across a cut (qualifier / alternate k / out); the GM decides."""
    OUT = "out"
    """Below the alternates, or no points at all (no first or second)."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class QualifierRow:
    """One line of the Qualifiers tab."""

    rank: int
    """Shared by players exactly equal (1, 2, 2, 4)."""
    player: PlayerId
    heats_played: int
    wins: int
    first_heat_win: bool
    seconds: int
    points: Fraction
    status: Status
    alternate: int | None = None
    """k for alternate k, else ``None``."""
    note: str = ""
    """How a tie at a cut stands, naming the others; why a player may not advance; else empty."""
    values: tuple[Fraction, ...] = ()
    """The player's value for each step of :attr:`Qualification.chain`."""
    eligible: bool = True
    """Whether the method lets the player advance at all (RULES.md 5.8)."""

    @property
    def status_text(self) -> str:
        """``qualified``, ``alternate 2``, ``tied`` or ``out``."""
        return _status_name(self.status, self.alternate)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Qualification:
    """Everything the Qualifiers tab and the ``qualify`` command show."""

    method: str
    """``HMW``, ``HSW``, ``HMW-P``, ``HMW-T`` or ``HWO``."""
    ranking: HeatRanking
    precedence: Precedence
    qualifiers: int
    """Seats in the first elimination round."""
    alternates: int
    rows: tuple[QualifierRow, ...]
    """In ranking order; equal players by name."""
    inversions: tuple[Inversion, ...]
    """Every pair where the precedence and the totals disagree (RULES.md 5.6); under ``ranking: latto``
    these are the GM's to look at, under ``precedence`` they only say where the totals differ."""
    pending: tuple[tuple[int, int], ...]
    """(heat, table) of the tables with no result typed yet."""
    chain: tuple[str, ...] = ()
    """The heat tiebreaks ranked by, in order (RULES.md 5.8)."""
    eligibility: str = ""
    """Who may advance, in words."""
    final: bool = False
    """The qualifiers play the final directly (the semifinal becomes the final)."""
    size_rules: tuple[str, ...] = ()
    """The rules that decided :attr:`qualifiers`, one line each (RULES.md 5.9)."""
    players: int = 0
    """Players with a row in Heats."""
    round_name: str = "semifinal"
    """The round the qualifiers play: ``quarterfinal``, ``semifinal`` or ``final`` (RULES.md 5.10)."""


    @property
    def qualified(self) -> tuple[PlayerId, ...]:
        """The qualifiers in ranking order."""
        return tuple(r.player for r in self.rows if r.status is Status.QUALIFIED)

    @property
    def alternate_order(self) -> tuple[PlayerId, ...]:
        """The alternates, first alternate first."""
        alts = sorted((r for r in self.rows if r.status is Status.ALTERNATE), key=lambda r: r.alternate or 0)
        return tuple(r.player for r in alts)


def _status_name(status: Status, alternate: int | None) -> str:
    return f"alternate {alternate}" if status is Status.ALTERNATE else str(status.value)


def qualify(games: Sequence[HeatGame], settings: Settings) -> Qualification:
    """Rank every player with a row in Heats and mark qualifiers, alternates and ties (RULES.md 5.5-5.9).

    Players are ranked by the method's chain of heat tiebreaks (:func:`~sheetswiss.heat_methods.chain`;
    ``ranking: latto`` is the Latto total alone, ``precedence`` the precedence then the total, ``wbc2008``
    adding average finish and the seeded dice roll). Only players the method makes eligible advance; the
    first :func:`~sheetswiss.heat_methods.advancement` seats qualify and the next ``alternates`` eligible
    players are alternates in order. Players exactly equal on the chain are never split: when a cut runs
    through them, each is ``TIED`` and the note names the others; when the dice roll decided across a
    cut, the note says so.
    """
    from .elimination import round_names
    from .heat_methods import (
        ELIGIBILITY_TEXT,
        advancement,
        chain,
        chain_key,
        eligibility,
        eligible,
        method_of,
    )

    records = player_heats(games, settings)
    steps = chain(settings)
    rule = eligibility(settings)
    dice = "dice" in steps
    keyed = {r.player: chain_key(r, steps, settings) for r in records}
    ok = {r.player: eligible(r, rule) for r in records}

    def key(r: PlayerHeats) -> tuple[Fraction, ...]:
        return tuple(v for s, v in zip(steps, keyed[r.player]) if s != "dice")

    ordered = sorted(records, key=lambda r: r.player)
    ordered.sort(key=lambda r: keyed[r.player], reverse=True)
    fit = advancement(len(records), sum(ok.values()), settings)
    positional: list[tuple[Status, int | None]] = []
    position = 0
    for r in ordered:
        if not ok[r.player]:
            positional.append((Status.OUT, None))
            continue
        position += 1
        if position <= fit.seats:
            positional.append((Status.QUALIFIED, None))
        elif position <= fit.seats + settings.alternates:
            positional.append((Status.ALTERNATE, position - fit.seats))
        else:
            positional.append((Status.OUT, None))
    try:
        first_round = "final" if fit.final else round_names(fit.seats, settings)[0]
    except SheetswissError:
        first_round = "semifinal"
    step8 = "wbc2008 step 8" if settings.method in ("hmw", "hsw") and settings.precedence == "wbc2008" else "dice"
    rows: list[QualifierRow] = []
    end = 0
    for _, equal in itertools.groupby(ordered, key=key):
        group = list(equal)
        start, end = end, end + len(group)
        split = len({positional[i] for i in range(start, end)}) > 1
        names = [r.player for r in group]
        where = f"places {start + 1}-{end}"
        for i, r in enumerate(group, start=start):
            others = ", ".join(n for n in names if n != r.player)
            status, alternate = positional[i]
            note = ""
            if split and dice:
                note = (f"equal with {others} until the dice roll ({step8}, seed {settings.seed}), "
                        f"which decided {where}")
            elif split:
                status, alternate = Status.TIED, None
                cuts = " / ".join(dict.fromkeys(_status_name(*positional[j]) for j in range(start, end)))
                note = f"tied with {others} for {where} ({cuts}); the GM decides"
            if not ok[r.player] and r.finishes and rule != "scored":
                note = f"not eligible: {ELIGIBILITY_TEXT[rule]} may advance"
            rank = start + 1 if not dice else i + 1
            rows.append(QualifierRow(rank=rank, player=r.player, heats_played=r.heats_played, wins=r.wins,
                                     first_heat_win=r.first_heat_win, seconds=r.seconds, points=r.points,
                                     status=status, alternate=alternate, note=note, values=keyed[r.player],
                                     eligible=ok[r.player]))
    return Qualification(method=method_of(settings).name, ranking=settings.ranking, precedence=settings.precedence,
                         qualifiers=fit.seats, alternates=settings.alternates, rows=tuple(rows),
                         inversions=inversions(records, settings) if settings.method in ("hmw", "hsw") else (),
                         pending=tuple(sorted((g.heat, g.table) for g in games if not g.has_results)),
                         chain=steps, eligibility=ELIGIBILITY_TEXT[rule], final=fit.final, size_rules=fit.rules,
                         players=len(records), round_name=first_round)
