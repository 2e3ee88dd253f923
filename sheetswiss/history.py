"""Each player's rounds, one record a round, as RULES.md 1.2 classifies them: a game, a forfeit, a PAB
(pairing-allocated bye), a requested half or zero bye, a round before a late entry, an absence.

Every later computation (scores, pairing, tiebreaks) reads these records, never the raw Results rows.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias, cast, final

from .errors import SheetswissError
from .model import Event, PlayerId
from .results import Outcome, ResultKind
from .scoring import Scale, pairing_scale_for, per_round, scale_for

__all__ = ["History", "RoundKind", "RoundRecord", "history", "side_bias", "sides_played", "total"]


class RoundKind(enum.Enum):
    """What one round was for one player (RULES.md 1.2)."""

    GAME = "game"
    """Played over the board."""
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"
    """Includes both sides of a double forfeit."""
    PAB = "bye"
    """Pairing-allocated bye."""
    HALF_BYE = "half bye"
    """Requested bye worth a draw."""
    ZERO_BYE = "zero bye"
    """Requested bye worth nothing."""
    LATE = "late entry"
    """A round before the player's first (requested bye, ``late_entry_points``)."""
    ABSENT = "absent"
    """No row in a paired round: after a drop, or not paired (requested zero bye)."""

    __hash__ = object.__hash__
    """Members are singletons compared by identity, so the identity hash is valid; ``Enum``'s own hashes
    the name in Python code, the hot spot of large standings (a kind is looked up per player and round)."""

    @property
    def has_opponent(self) -> bool:
        """A game or a forfeit: someone was paired against the player."""
        return self in (RoundKind.GAME, RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS)

    @property
    def is_requested_bye(self) -> bool:
        """FIDE C.07 Art. 16.1's requested bye: half or zero byes, absences, late entry, after a drop."""
        return self in (RoundKind.HALF_BYE, RoundKind.ZERO_BYE, RoundKind.LATE, RoundKind.ABSENT)


@final
@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of one player."""

    round: int
    kind: RoundKind
    outcome: str
    """``"W"``, ``"D"`` or ``"L"``: the class of points the round earned."""
    points: Fraction
    """On the ranking scale."""
    pairing_points: Fraction
    """On the pairing scale (RULES.md 1.5)."""
    opponent: PlayerId | None = None
    side: int | None = None
    """1 if the player was Player A, 2 if Player B (games and forfeits); ``None`` for a double-sided match."""
    games: tuple[int, int, int] | None = None
    """Games won, lost, drawn by the player, when a game score was typed, and always for a double-sided match."""
    scored: Fraction | None = None
    """The player's game score (Results.Score A or B: victory points, control points), when typed (RULES.md 4.13)."""
    conceded: Fraction | None = None
    """The opponent's game score in the same game, when typed."""


_FIELDS = tuple(getattr(RoundRecord, f.name).__set__ for f in dataclasses.fields(RoundRecord))
"""Each field's slot setter, in field order."""


def _record(r: int, kind: RoundKind, outcome: str, points: Fraction, pairing_points: Fraction,
            opponent: PlayerId | None = None, side: int | None = None, games: tuple[int, int, int] | None = None,
            scored: Fraction | None = None, conceded: Fraction | None = None) -> RoundRecord:
    """``RoundRecord(r, kind, ...)``, the same record in half the time: each slot is set directly, where the
    frozen class's own ``__init__`` goes through ``object.__setattr__`` field by field. A big event makes one
    record per player and round (88,000 for 8,000 players after 11 rounds), the bulk of :func:`history`."""
    rec: RoundRecord = object.__new__(RoundRecord)
    s_round, s_kind, s_outcome, s_points, s_pairing, s_opponent, s_side, s_games, s_scored, s_conceded = _FIELDS
    s_round(rec, r)
    s_kind(rec, kind)
    s_outcome(rec, outcome)
    s_points(rec, points)
    s_pairing(rec, pairing_points)
    s_opponent(rec, opponent)
    s_side(rec, side)
    s_games(rec, games)
    s_scored(rec, scored)
    s_conceded(rec, conceded)
    return rec


History = Mapping[PlayerId, tuple[RoundRecord, ...]]
"""Every player's records for rounds 1..n, in round order."""


_CLASSES = {
    Outcome.A_WINS: ("W", "L"),
    Outcome.B_WINS: ("L", "W"),
    Outcome.DRAW: ("D", "D"),
    Outcome.BOTH_LOSE: ("L", "L"),
}
"""The point classes of Player A and Player B for each outcome."""


def _plain(scale: Scale, late_draw: bool) -> dict[tuple[RoundKind, str], Fraction]:
    """Points of every (kind, class) on ``scale`` when no game score or typed points refine them (RULES.md 1.2)."""
    by_class = {"W": scale.win, "D": scale.draw, "L": scale.loss}
    out = {(RoundKind.GAME, c): v for c, v in by_class.items()}
    out[RoundKind.FORFEIT_WIN, "W"] = scale.win
    out[RoundKind.FORFEIT_LOSS, "L"] = scale.loss
    out[RoundKind.PAB, "W"] = scale.bye
    out[RoundKind.HALF_BYE, "D"] = scale.draw
    out[RoundKind.ZERO_BYE, "L"] = out[RoundKind.ABSENT, "L"] = out[RoundKind.LATE, "L"] = Fraction(0)
    out[RoundKind.LATE, "D"] = scale.draw if late_draw else Fraction(0)
    return out


_BYE_KINDS = {ResultKind.PAB: (RoundKind.PAB, "W"), ResultKind.HALF_BYE: (RoundKind.HALF_BYE, "D"),
              ResultKind.ZERO_BYE: (RoundKind.ZERO_BYE, "L")}


def history(event: Event, through: int | None = None) -> dict[PlayerId, tuple[RoundRecord, ...]]:
    """Every player's rounds 1..``through`` (default: the completed rounds).

    A round with a pending result is skipped for both players of that game. On a custom range
    scale a result typed as two numbers is the two sides' points and the scale's ranges decide
    who won (:class:`~sheetswiss.scoring.Scale`); points that fit no pair of ranges raise
    :class:`~sheetswiss.errors.SheetswissError` naming the Result cell. On a margin scale
    (``margin_points``, RULES.md 1.7) a game with Score A and Score B typed scores by their margin.

    Under ``sides: double`` (RULES.md 3) each Results row with an opponent is one game, scored on
    its own, and a round's two games against one opponent are one record (:func:`_match`); rounds
    without an opponent (byes, absences, late entry) stand for both games
    (:func:`~sheetswiss.scoring.per_round`). A match with a game still pending is skipped.

    Cost: one pass over the Results rows and one over the players' rounds; points come from a
    per-scale table unless a game score or typed points refine them.
    """
    n = event.completed_rounds if through is None else through
    ranking, pairing = scale_for(event.settings), pairing_scale_for(event.settings)
    late_draw = event.settings.late_entry_points == "draw"
    per = event.settings.games_per_round
    plain_ranking, plain_pairing = _plain(ranking, late_draw), _plain(pairing, late_draw)
    alone_ranking = _plain(per_round(ranking, per), late_draw)  # rounds without an opponent
    alone_pairing = _plain(per_round(pairing, per), late_draw)
    rows: dict[PlayerId, list[RoundRecord | None]] = {p.name: [None] * n for p in event.players}
    matches: dict[tuple[PlayerId, int], list[_Game]] = {}  # sides double: a round's games, for _match

    typed: dict[tuple[str, tuple[int, int, int]], tuple[Fraction, Fraction]] = {}
    classes: dict[tuple[int, int, int], tuple[str, str] | None] = {}

    def typed_points(cls: str, games: tuple[int, int, int]) -> tuple[Fraction, Fraction]:
        """The ranking and pairing points of a game typed with a game score, worked out once per distinct
        score (a large event types the same few scores over and over)."""
        key = (cls, games)
        if key not in typed:
            typed[key] = ranking.points(cls, games), pairing.points(cls, games)
        return typed[key]

    def typed_classes(games: tuple[int, int, int]) -> tuple[str, str] | None:
        """:meth:`~sheetswiss.scoring.Scale.typed_classes`, once per distinct score."""
        if games not in classes:
            classes[games] = ranking.typed_classes(games)
        return classes[games]

    def record(player: PlayerId, r: int, kind: RoundKind, cls: str, opponent: PlayerId | None = None,
               side: int | None = None, games: tuple[int, int, int] | None = None,
               scores: tuple[Fraction, Fraction] | None = None) -> None:
        if kind is RoundKind.GAME and scores is not None and (ranking.bands or pairing.bands):  # RULES.md 1.7
            margin = scores[0] - scores[1]
            points = ranking.margin_points(margin) if ranking.bands else plain_ranking[kind, cls]
            pairing_points = pairing.margin_points(margin) if pairing.bands else plain_pairing[kind, cls]
        elif games is not None:
            points, pairing_points = typed_points(cls, games)
        elif opponent is None:
            points, pairing_points = alone_ranking[kind, cls], alone_pairing[kind, cls]
        else:
            points, pairing_points = plain_ranking[kind, cls], plain_pairing[kind, cls]
        scored, conceded = scores if scores is not None else (None, None)
        if per > 1 and opponent is not None:
            matches.setdefault((player, r), []).append((kind, cls, points, pairing_points, opponent, scored, conceded))
        else:
            rows[player][r - 1] = _record(r, kind, cls, points, pairing_points, opponent, side, games, scored,
                                          conceded)

    game, forfeit = RoundKind.GAME, ResultKind.FORFEIT
    # a game's points by class: what record() gives a row without a game score or typed points
    plain = {c: (plain_ranking[game, c], plain_pairing[game, c]) for c in "WDL"}
    for g in event.games:
        if g.round > n or g.result is None:
            continue
        res = g.result
        if g.b is None:
            record(g.a, g.round, *_BYE_KINDS[res.kind])
            continue
        ca, cb = _CLASSES[res.outcome]
        if res.games is None and g.scores is None and res.kind is not forfeit:  # most rows: a plain game
            r = g.round
            (pa, qa), (pb, qb) = plain[ca], plain[cb]
            if per == 1:
                rows[g.a][r - 1] = _record(r, game, ca, pa, qa, g.b, 1)
                rows[g.b][r - 1] = _record(r, game, cb, pb, qb, g.a, 2)
            else:
                matches.setdefault((g.a, r), []).append((game, ca, pa, qa, g.b, None, None))
                matches.setdefault((g.b, r), []).append((game, cb, pb, qb, g.a, None, None))
            continue
        sa, sb = (g.scores, (g.scores[1], g.scores[0])) if g.scores is not None else (None, None)
        if res.kind is ResultKind.FORFEIT:
            record(g.a, g.round, RoundKind.FORFEIT_WIN if ca == "W" else RoundKind.FORFEIT_LOSS, ca, g.b, 1, None, sa)
            record(g.b, g.round, RoundKind.FORFEIT_WIN if cb == "W" else RoundKind.FORFEIT_LOSS, cb, g.a, 2, None, sb)
            continue
        ga = res.games
        gb = None
        if ranking.bands and g.scores is not None:  # a margin scale: the scores' margin decides (RULES.md 1.7)
            ca = ranking.margin_class(g.scores[0] - g.scores[1])
            cb = {"W": "L", "L": "W", "D": "D"}[ca]
            ga = None  # points typed in Result as well are the parser's to refuse
        elif ga is not None:
            gb = (ga[1], ga[0], ga[2])
            try:
                ca, cb = typed_classes(ga) or (ca, cb)
            except SheetswissError as e:
                raise SheetswissError(f"{g.cell}: {e}") from None
        record(g.a, g.round, RoundKind.GAME, ca, g.b, 1, ga, sa)
        record(g.b, g.round, RoundKind.GAME, cb, g.a, 2, gb, sb)
    added = _Sums()
    plain_matches: dict[tuple[object, ...], tuple[str, Fraction, Fraction, tuple[int, int, int]]] = {}
    for (player, r), games in matches.items():
        if len(games) == per or (len(games) < per and event.settings.round_weight(r) < 1):  # a half round
            rows[player][r - 1] = _match(r, games, added, plain_matches)
    out: dict[PlayerId, tuple[RoundRecord, ...]] = {}
    for p in event.players:
        recs = rows[p.name]
        for i, rec in enumerate(recs):
            if rec is None:
                late = i + 1 < p.joined
                record(p.name, i + 1, RoundKind.LATE if late else RoundKind.ABSENT, "D" if late and late_draw else "L")
        out[p.name] = cast(tuple[RoundRecord, ...], tuple(recs))  # every round filled in by now
    return out


_Game: TypeAlias = tuple[RoundKind, str, Fraction, Fraction, PlayerId, Fraction | None, Fraction | None]
"""One game of a double-sided match, before :func:`_match` makes the round's record of it: kind, class,
points, pairing points, opponent, the player's and the opponent's game scores."""


class _Sums:
    """Sums of a few points, each worked out once: a round's games mostly score the same few values (the
    scale's win, draw and loss), so the sums repeat. A sum is found by the identity of its terms, which it
    keeps alive (so no other object can take their identity while the cache lives)."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[tuple[int, ...], tuple[Fraction, tuple[Fraction, ...]]] = {}

    def __call__(self, *terms: Fraction) -> Fraction:
        key = tuple(map(id, terms))
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = (sum(terms, Fraction(0)), terms)
        return known[0]

    def two(self, a: Fraction, b: Fraction) -> Fraction:
        """``self(a, b)``, the usual case, without building its arguments."""
        known = self._known.get((id(a), id(b)))
        if known is None:
            return self(a, b)
        return known[0]


def _match(round_: int, games: list[_Game], added: _Sums,
           plain: dict[tuple[object, ...], tuple[str, Fraction, Fraction, tuple[int, int, int]]]) -> RoundRecord:
    """A double-sided match (RULES.md 3) as one round: each game scored on its own and the points added;
    the games counted (won, lost, drawn); the match decided by game wins, as a typed game score is
    (RULES.md 1.1: more game wins wins, equal is a drawn match). Its kind is a game if either game was
    played over the board, else a forfeit win or loss by the match's outcome. Its game scores (RULES.md
    4.13) are the sum of the games' typed scores; ``None`` when neither game has one.

    ``plain``: what two games over the board without typed scores made, by their classes and points (told
    apart by identity, which ``added`` keeps): a big event's matches are a few such pairs over and over.
    """
    game = RoundKind.GAME
    key: tuple[object, ...] | None = None
    if len(games) == 2:
        (kind1, cls1, p1, q1, _, s1, t1), (kind2, cls2, p2, q2, _, s2, t2) = games
        if kind1 is game and kind2 is game and s1 is None and t1 is None and s2 is None and t2 is None:
            key = (cls1, cls2, id(p1), id(p2), id(q1), id(q2))
            known = plain.get(key)
            if known is not None:
                outcome, points, pairing_points, counts = known
                return _record(round_, game, outcome, points, pairing_points, games[0][4], None, counts)
    won = lost = 0
    over_the_board = typed = False
    for kind, cls, _, _, _, scored, conceded in games:
        if cls == "W":
            won += 1
        elif cls == "L":
            lost += 1
        if kind is game:
            over_the_board = True
        if scored is not None and conceded is not None:
            typed = True
    outcome = "W" if won > lost else "L" if lost > won else "D"
    kind = game if over_the_board else RoundKind.FORFEIT_WIN if outcome == "W" else RoundKind.FORFEIT_LOSS
    scored = conceded = None
    if typed:
        scored = sum((g[5] for g in games if g[5] is not None and g[6] is not None), Fraction(0))
        conceded = sum((g[6] for g in games if g[5] is not None and g[6] is not None), Fraction(0))
    if len(games) == 2:
        first, second = games
        points, pairing_points = added.two(first[2], second[2]), added.two(first[3], second[3])
    else:
        points, pairing_points = added(*(g[2] for g in games)), added(*(g[3] for g in games))
    counts = (won, lost, len(games) - won - lost)
    if key is not None:
        plain[key] = outcome, points, pairing_points, counts
    return _record(round_, kind, outcome, points, pairing_points, games[0][4], None, counts, scored, conceded)


def total(records: tuple[RoundRecord, ...], *, pairing: bool = False) -> Fraction:
    """A player's points over the records (ranking scale, or the pairing scale)."""
    return sum((r.pairing_points if pairing else r.points for r in records), Fraction(0))


def sides_played(records: tuple[RoundRecord, ...]) -> tuple[int, ...]:
    """The side (1 or 2; White or Black) of each game over the board, in round order.

    Byes and forfeits are left out (RULES.md 2.10 and 3: colours and side bias count games only).
    """
    return tuple(r.side for r in records if r.kind is RoundKind.GAME and r.side is not None)


def side_bias(records: tuple[RoundRecord, ...]) -> int:
    """Games as side 1 less games as side 2 (RULES.md 3's b(x); 2.10's c(x) with White as side 1)."""
    sides = sides_played(records)
    return sides.count(1) - sides.count(2)
