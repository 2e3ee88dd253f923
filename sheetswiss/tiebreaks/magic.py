"""The Magic family: match- and game-win percentages as the MTR (Magic: The Gathering Tournament
Rules, Appendix C) computes them, RULES.md 4.8-4.9.

MW% / GW% are a player's match-win and game-win percentages; OMW% / OGW% (opponents' match-win and
game-win percentages) the means of the opponents' values; OOMW% (opponents' opponents' match-win
percentage) the mean of the opponents' OMW%. A PAB (pairing-allocated bye) counts as the MTR says.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from fractions import Fraction

from ..history import RoundKind, RoundRecord
from ..model import PlayerId
from ..settings import parse_number
from .registry import (
    TIEBREAKS,
    Context,
    Kind,
    Notes,
    tiebreak,
)


def _magic_rounds(ctx: Context, x: PlayerId) -> Iterable[tuple[RoundRecord, str]]:
    """Rounds a Magic percentage counts: games and forfeits, and PABs unless ``magic_byes: exclude``."""
    byes = ctx.settings.magic_byes == "mtr"
    return ((r, c) for r, c in zip(ctx.records[x], ctx.classes[x])
            if r.opponent is not None or (byes and r.kind is RoundKind.PAB))


@functools.lru_cache(maxsize=16)
def _floor(text: str) -> Fraction:
    """``mtr_floor`` as a number, read once per spelling (every player's percentages need it)."""
    return parse_number(text)


def _floored(ctx: Context, earned: int, possible: int, notes: Notes, what: str) -> Fraction:
    floor = _floor(ctx.settings.mtr_floor)
    if not possible:
        if notes is not None:
            notes.append(f"  no {what} yet: 0")
        return Fraction(0)
    ratio = Fraction(earned, possible)
    if notes is not None:
        notes.append(f"  {earned}/{possible} {what} points"
                     + (f", raised to the floor {ctx.settings.mtr_floor}" if ratio < floor else ""))
    return max(ratio, floor)


@tiebreak("mwp", "mw%", "match win percentage", title="MW%", kind=Kind.PERCENT,
          legend="match-win percentage: match points / (3 x rounds played), never below the floor (mtr_floor)")
def mwp(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Match-win percentage: match points / (3 x rounds played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 for a win or bye, 1 a draw; a bye is a round played (``magic_byes: mtr``) or left
    out (``exclude``, seed 002); requested byes and rounds after a drop are not rounds played
    (*decision*). MTR's examples: 3-2-0 with a bye then a drop, 9/15 = 60%; 1-3-0, 25% -> the floor.
    """
    mp = {"W": 3, "D": 1, "L": 0}
    rounds = list(_magic_rounds(ctx, x))
    return _floored(ctx, sum(mp[c] for _, c in rounds), 3 * len(rounds), notes, "match")


def _opponents_mean(ctx: Context, x: PlayerId, notes: Notes, name: str) -> Fraction:
    """Mean of the opponents' ``name`` values, one term per round with an opponent; none -> 0."""
    nums, den = ctx.whole_values(name)
    opponents = [r for r in ctx.records[x] if r.opponent is not None]
    if notes is not None:
        title = TIEBREAKS[name]
        for r in opponents:
            assert r.opponent is not None
            notes.append(f"  R{r.round} v {r.opponent}: {title.title} {title.text(Fraction(nums[r.opponent], den))}")
        if not opponents:
            notes.append("  no opponents yet: 0")
    if not opponents:
        return Fraction(0)
    return Fraction(sum(nums[r.opponent] for r in opponents if r.opponent is not None), den * len(opponents))


@tiebreak("omw", "omw%", "omwp", "opponents match win percentage", title="OMW%", kind=Kind.PERCENT,
          legend="opponents' match-win percentage: the average of the opponents' MW%")
def omw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' match-win percentage: the mean of each opponent's :func:`mwp` (RULES.md 4.8).

    MTR Appendix C: one term per round with an opponent (forfeits included); the player's own byes
    are left out; a dropped opponent counts with the rounds they played. RULES.md 4.8's P: 61.0000%
    with floor 0.33, 61.1111% with 1/3. Seed 000's pooled "Σ opponents' wins / 49" is another
    figure: it agrees only while no opponent dropped or sits under the floor (RULES.md 4.10).
    """
    return _opponents_mean(ctx, x, notes, "mwp")


def _games(rec: RoundRecord, cls: str) -> tuple[int, int, int]:
    """Games won, lost, drawn in one round: as typed, a bye or forfeit as 2-0 (*decision*), else one game."""
    if rec.games is not None:
        return rec.games
    if rec.kind is not RoundKind.GAME:
        return {"W": (2, 0, 0), "L": (0, 2, 0)}.get(cls, (0, 0, 0))
    return {"W": (1, 0, 0), "D": (0, 0, 1), "L": (0, 1, 0)}[cls]


@tiebreak("gwp", "gw%", "game win percentage", title="GW%", kind=Kind.PERCENT,
          legend="game-win percentage: game points / (3 x games played), never below the floor (mtr_floor)")
def gwp(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Game-win percentage: game points / (3 x games played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 a game won, 1 a game drawn. A bye counts as a 2-0 win (MTR "Byes"; left out
    with ``magic_byes: exclude``); a forfeit as 2-0 for the winner (*decision*); a result typed
    without a game score as one game. RULES.md 4.8's P: 21/30 = 70% (62.5% with ``exclude``).
    """
    won = lost = drawn = 0
    for rec, cls in _magic_rounds(ctx, x):
        w, lo, d = _games(rec, cls)
        won, lost, drawn = won + w, lost + lo, drawn + d
    return _floored(ctx, 3 * won + drawn, 3 * (won + lost + drawn), notes, "game")


@tiebreak("ogw", "ogw%", "ogwp", "opponents game win percentage", title="OGW%", kind=Kind.PERCENT,
          legend="opponents' game-win percentage: the average of the opponents' GW%")
def ogw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' game-win percentage: the mean of each opponent's :func:`gwp`, as :func:`omw` (RULES.md 4.8)."""
    return _opponents_mean(ctx, x, notes, "gwp")


@tiebreak("oomw", "oomw%", "oomwp", title="OOMW%", kind=Kind.PERCENT,
          legend="opponents' opponents' match-win percentage: the average of the opponents' OMW%")
def oomw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' opponents' match-win percentage: the mean of each opponent's :func:`omw`.

    RULES.md 4.9: seed 000's recommended second step for Hearthstone (omw, oomw, gwp).
    """
    return _opponents_mean(ctx, x, notes, "omw")
