"""Each player's rounds, one record a round, as RULES.md 1.2 classifies them.

Every later computation (scores, pairing, tiebreaks) reads these records, never the raw Results rows.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .model import Event, PlayerId
from .results import Outcome, ResultKind
from .scoring import Scale, pairing_scale_for, scale_for

__all__ = ["History", "RoundKind", "RoundRecord", "history", "total"]


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
    """1 if the player was Player A, 2 if Player B (games and forfeits)."""
    games: tuple[int, int, int] | None = None
    """Games won, lost, drawn by the player, when a game score was typed."""


History = Mapping[PlayerId, tuple[RoundRecord, ...]]
"""Every player's records for rounds 1..n, in round order."""


def _classes(outcome: Outcome) -> tuple[str, str]:
    return {
        Outcome.A_WINS: ("W", "L"),
        Outcome.B_WINS: ("L", "W"),
        Outcome.DRAW: ("D", "D"),
        Outcome.BOTH_LOSE: ("L", "L"),
    }[outcome]


def _points(scale: Scale, kind: RoundKind, cls: str, games: tuple[int, int, int] | None,
            late_draw: bool) -> Fraction:
    if kind is RoundKind.GAME:
        return scale.points(cls, games)
    if kind is RoundKind.FORFEIT_WIN:
        return scale.win
    if kind is RoundKind.FORFEIT_LOSS:
        return scale.loss
    if kind is RoundKind.PAB:
        return scale.bye
    if kind is RoundKind.HALF_BYE or (kind is RoundKind.LATE and late_draw):
        return scale.draw
    return Fraction(0)


def history(event: Event, through: int | None = None) -> dict[PlayerId, tuple[RoundRecord, ...]]:
    """Every player's rounds 1..``through`` (default: the completed rounds).

    A round with a pending result is skipped for both players of that game.
    """
    n = event.completed_rounds if through is None else through
    ranking, pairing = scale_for(event.settings), pairing_scale_for(event.settings)
    late_draw = event.settings.late_entry_points == "draw"
    rows: dict[tuple[PlayerId, int], RoundRecord] = {}

    def record(player: PlayerId, r: int, kind: RoundKind, cls: str, opponent: PlayerId | None = None,
               side: int | None = None, games: tuple[int, int, int] | None = None) -> None:
        rows[player, r] = RoundRecord(
            r, kind, cls, _points(ranking, kind, cls, games, late_draw),
            _points(pairing, kind, cls, games, late_draw), opponent, side, games)

    for g in event.games:
        if g.round > n or g.result is None:
            continue
        res = g.result
        if g.b is None:
            kind = {ResultKind.PAB: RoundKind.PAB, ResultKind.HALF_BYE: RoundKind.HALF_BYE}.get(
                res.kind, RoundKind.ZERO_BYE)
            record(g.a, g.round, kind, {RoundKind.PAB: "W", RoundKind.HALF_BYE: "D"}.get(kind, "L"))
            continue
        ca, cb = _classes(res.outcome)
        if res.kind is ResultKind.FORFEIT:
            ka = RoundKind.FORFEIT_WIN if ca == "W" else RoundKind.FORFEIT_LOSS
            kb = RoundKind.FORFEIT_WIN if cb == "W" else RoundKind.FORFEIT_LOSS
            record(g.a, g.round, ka, ca, g.b, 1)
            record(g.b, g.round, kb, cb, g.a, 2)
        else:
            ga = res.games
            gb = (ga[1], ga[0], ga[2]) if ga else None
            record(g.a, g.round, RoundKind.GAME, ca, g.b, 1, ga)
            record(g.b, g.round, RoundKind.GAME, cb, g.a, 2, gb)
    out: dict[PlayerId, tuple[RoundRecord, ...]] = {}
    for p in event.players:
        recs = []
        for r in range(1, n + 1):
            if (p.name, r) not in rows:
                late = r < p.joined
                record(p.name, r, RoundKind.LATE if late else RoundKind.ABSENT,
                       "D" if late and late_draw else "L")
            recs.append(rows[p.name, r])
        out[p.name] = tuple(recs)
    return out


def total(records: tuple[RoundRecord, ...], *, pairing: bool = False) -> Fraction:
    """A player's points over the records (ranking scale, or the pairing scale)."""
    return sum((r.pairing_points if pairing else r.points for r in records), Fraction(0))
