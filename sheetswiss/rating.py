"""Ratings across events: seed 002's additive W × V, and Elo for round-1 seeding (RULES.md section 8).

W × V: each event a player earns W (match wins, draws at a fraction, +1 for staying to the end) times V (the
value of the final place in a bracket of the event's size), scaled by the event's K/8.

Inputs are plain data a caller reads from past workbooks: per event, each player's final place,
match wins and draws and whether they stayed to the end (:class:`Finish`); per game, the two
players and the score (:class:`RatedGame`). W × V is exact (``Fraction``). Elo is not: its expected
score is a power of 10, so it uses floats, and a caller rounds the result for Players.Rating.

>>> event = RatedEvent(name="FNM", finishes=(Finish(player="Ana", place=1, wins=4),
...                                          *(Finish(player=f"P{i}", place=2, wins=0) for i in range(15))))
>>> awards(event)[0]                    # seed 002: a 4-0 Swiss winner of 16 gets W 5, V 6
Award(event='FNM', player='Ana', w=Fraction(5, 1), v=Fraction(6, 1), factor=Fraction(1, 1))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .errors import SheetswissError
from .history import RoundKind, history
from .model import Event, PlayerId
from .names import sort_key
from .results import Outcome, ResultKind
from .standings import Standings

__all__ = [
    "Award",
    "Finish",
    "RatedEvent",
    "RatedGame",
    "additive_ratings",
    "awards",
    "elo_ratings",
    "expected_score",
    "final_places",
    "match_records",
    "place_value",
    "rated_games",
    "rating_bracket",
    "rating_difference",
]


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Finish:
    """One player's result in one past event."""

    player: PlayerId
    place: int
    """Final place from 1; tied players share the best place of the tie (``1, 2, 2, 4``, as Standings ranks)."""
    wins: int
    """Matches won, byes not counted (seed 002: "a bye is not a win")."""
    draws: int = 0
    stayed: bool = True
    """Played to their natural end, not dropped: with ``rating_drop_bonus``, only they get W's +1."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RatedEvent:
    """One past event: every player's finish and the event's K-value."""

    name: str
    finishes: tuple[Finish, ...]
    k: Fraction = Fraction(8)
    """The event's K (``rating_k``); points are multiplied by K/8."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Award:
    """What one player earns in one event: ``factor · w · v`` points."""

    event: str
    player: PlayerId
    w: Fraction
    v: Fraction
    factor: Fraction
    """K/8."""

    @property
    def points(self) -> Fraction:
        """(K/8) · W · V."""
        return self.factor * self.w * self.v


def rating_bracket(players: int) -> tuple[int, int]:
    """``(k, bottom)``: the event's 2^k bracket and its bottom V (seed 002; RULES.md 8.1).

    N between 2^(k−1) and 2^k is lower-bounded, bottom V 1, if closer to 2^(k−1)
    (N − 2^(k−1) < 2^k − N); otherwise upper-bounded, bottom V 2 (exactly between counts as
    upper, and a power of two is its own bracket, upper-bounded).

    >>> rating_bracket(11), rating_bracket(12), rating_bracket(16), rating_bracket(20), rating_bracket(400)
    ((4, 1), (4, 2), (4, 2), (5, 1), (9, 2))
    """
    if players < 1:
        raise SheetswissError("an event needs at least one player")
    k = (players - 1).bit_length()
    lower = 4 * players < 3 * 2**k  # N − 2^(k−1) < 2^k − N, times 2
    return k, 1 if lower else 2


def place_value(place: int, players: int) -> int:
    """V for a final place: bottom + k − ⌈log2 place⌉ (seed 002's elimination chart; RULES.md 8.1).

    The winner gets bottom + k, the finalist one less, 3rd–4th two less, 5th–8th three less, ...
    Swiss events use the same chart by final standing.

    >>> [place_value(p, 16) for p in (1, 2, 3, 4, 5, 8, 9, 16)]
    [6, 5, 4, 4, 3, 3, 2, 2]
    """
    if not 1 <= place <= players:
        raise SheetswissError(f"place {place} is not between 1 and {players}")
    k, bottom = rating_bracket(players)
    return bottom + k - (place - 1).bit_length()


def awards(event: RatedEvent, *, draw: Fraction = Fraction(1, 3), drop_bonus: bool = True) -> tuple[Award, ...]:
    """Each player's W × V award for ``event``, in the order of its finishes (seed 002; RULES.md 8.1).

    W = wins + ``draw`` · draws + 1; with ``drop_bonus`` (``rating_drop_bonus``, the seed's incentive
    to stay) the +1 only if the player stayed to the end. ``draw`` is ``rating_draw``: 1/3 (default, the DCI
    standings value, *decision*), 1/2 or 0 (the seed is "ambivalent"). V is :func:`place_value`; players
    tied on a place share the places the tie covers and average their V ("we average the V those
    finishes would receive"). The factor is K/8. A bye is not a win: count it nowhere.

    Checked against both tables of seed 002 (16 and 20 players), its 16-player Swiss example, and
    its 400-player Grand Prix, which does not recompute (RULES.md 8.2: the rules give 953 1/3 and
    962 1/2, not the seed's 980 and 990; see the tests). Raises if the places are not 1, 2, 3, ...
    with ties sharing the best place.
    """
    players = len(event.finishes)
    tied = Counter(f.place for f in event.finishes)
    better = 0
    for place in sorted(tied):
        if place != better + 1:
            raise SheetswissError(f"{event.name}: place {place} follows {better} players ahead; places go 1, 2, "
                                  f"3, ... and tied players share the best place of the tie (1, 2, 2, 4)")
        better += tied[place]
    factor = Fraction(event.k) / 8
    return tuple(
        Award(event=event.name, player=f.player,
              w=Fraction(f.wins) + draw * f.draws + (1 if f.stayed or not drop_bonus else 0),
              v=Fraction(sum(place_value(p, players) for p in range(f.place, f.place + tied[f.place])),
                         tied[f.place]),
              factor=factor)
        for f in event.finishes)


def match_records(event: Event, *, through: int) -> tuple[dict[PlayerId, int], dict[PlayerId, int]]:
    """Each player's matches won and drawn in rounds 1..``through`` (RULES.md 8.1): a match counts, not its
    games; a forfeit win is a win, a bye is not (seed 002: "a bye is not a win")."""
    records = history(event, through=through)
    wins = {name: sum(r.outcome == "W" and r.kind in (RoundKind.GAME, RoundKind.FORFEIT_WIN) for r in rs)
            for name, rs in records.items()}
    draws = {name: sum(r.outcome == "D" and r.kind is RoundKind.GAME for r in rs) for name, rs in records.items()}
    return wins, draws


_SCORE_OF_A = {Outcome.A_WINS: Fraction(1), Outcome.B_WINS: Fraction(0)}
"""Player A's Elo score by the game's outcome; any other outcome scores a half each (RULES.md 8.3)."""


def rated_games(event: Event, *, through: int) -> list[RatedGame]:
    """The games played over the board in rounds 1..``through`` with their results, for Elo (RULES.md 8.3):
    byes and forfeits are not games."""
    return [RatedGame(a=g.a, b=g.b, score=_SCORE_OF_A.get(g.result.outcome, Fraction(1, 2)))
            for g in event.games
            if g.round <= through and g.b is not None and g.result is not None and g.result.kind is ResultKind.GAME]


def final_places(table: Standings, playoff: Mapping[PlayerId, tuple[int, int]]) -> dict[PlayerId, int]:
    """Final places with a finished playoff (RULES.md 8.1): the playoff's places for its players (a shared
    place at its best), then everyone else in Swiss order, tied players sharing the best place."""
    places = {player: best for player, (best, _) in playoff.items()}
    rest = [row for row in table.rows if row.player not in places]
    for row in rest:
        places[row.player] = len(playoff) + 1 + sum(other.rank < row.rank for other in rest)
    return places


def additive_ratings(events: Iterable[RatedEvent], *, draw: Fraction = Fraction(1, 3),
                     drop_bonus: bool = True) -> dict[PlayerId, Fraction]:
    """Each player's total of :func:`awards` over ``events``, highest first (then by name).

    Additive: a player starts at 0 and never loses points (seed 002).
    """
    totals: dict[PlayerId, Fraction] = {}
    for event in events:
        for award in awards(event, draw=draw, drop_bonus=drop_bonus):
            totals[award.player] = totals.get(award.player, Fraction(0)) + award.points
    return dict(sorted(totals.items(), key=lambda item: (-item[1], sort_key(item[0]))))


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RatedGame:
    """One past game for Elo: ``a`` scored ``score`` against ``b``."""

    a: PlayerId
    b: PlayerId
    score: Fraction
    """a's score: 1 a win, 1/2 a draw, 0 a loss."""


def expected_score(rating: float, opponent: float) -> float:
    """E = 1 / (1 + 10^((R_opponent − R)/400)) (Elo; RULES.md 8.3).

    >>> round(expected_score(1800, 1600), 2), round(expected_score(2000, 1600), 2)   # seed 002: 76%, 91%
    (0.76, 0.91)
    """
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def rating_difference(expected: float) -> float:
    """The rating lead that gives an expected score: the inverse of :func:`expected_score`.

    >>> round(rating_difference(0.7))       # seed 002: 70% against 1600 is 1747
    147
    """
    if not 0 < expected < 1:
        raise ValueError(f"an expected score is strictly between 0 and 1, not {expected}")
    return 400 * math.log10(expected / (1 - expected))


def elo_ratings(games: Iterable[RatedGame], *, k: float = 20, start: float = 1500,
                initial: Mapping[PlayerId, float] | None = None) -> dict[PlayerId, float]:
    """Elo ratings after ``games``, in order: R' = R + K (S − E) for both players after each game (RULES.md 8.3).

    A player not in ``initial`` starts at ``start`` (``elo_start``, default 1500); ``k`` is ``elo_k``
    (default 20; both *decisions*). Used only where the GM asks, to fill Players.Rating for round 1.

    >>> r = elo_ratings([RatedGame(a="Ana", b="Bo", score=Fraction(1))])
    >>> r["Ana"], r["Bo"]
    (1510.0, 1490.0)
    """
    ratings = dict(initial or {})
    for game in games:
        if not 0 <= game.score <= 1:
            raise SheetswissError(f"{game.a} v {game.b}: a game's score is 0, 1/2 or 1, not {game.score}")
        ra, rb = ratings.get(game.a, start), ratings.get(game.b, start)
        change = k * (float(game.score) - expected_score(ra, rb))
        ratings[game.a], ratings[game.b] = ra + change, rb - change
    return ratings
