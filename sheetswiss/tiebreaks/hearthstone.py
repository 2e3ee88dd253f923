"""The Hearthstone family: the HCT (Hearthstone Championship Tour) tiebreakers T1, T2, T3 of seed 000
(RULES.md 4.9): the opponents' wins minus losses, the sum of the opponents' T1, and the timing of losses.
"""

from __future__ import annotations

from fractions import Fraction

from ..model import PlayerId
from .registry import (
    Context,
    Kind,
    Notes,
    tiebreak,
)


@tiebreak("hct_t1", "t1", "win/loss sum", title="T1", kind=Kind.INTEGER,
          legend="the sum over the opponents of their wins minus losses (each at least hct_floor)")
def hct_t1(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T1: Σ over opponents of max(wins - losses, ``hct_floor``) (RULES.md 4.9; seed 000).

    One term per round with an opponent; the opponent's record is through the context's rounds (a
    dropped opponent's at the drop; their byes count as wins, *decision*). Byes add 0. Floor -3 is
    the HCT rule, -2 seed 000's argued fix, ``none`` no floor. Seed 000: Neirea 23, Farm4fame 11.
    """
    floor = None if ctx.settings.hct_floor == "none" else int(ctx.settings.hct_floor)
    total = 0
    for r in ctx.records[x]:
        if r.opponent is not None:
            record = ctx.hct_records[r.opponent]
            term = record if floor is None else max(record, floor)
            total += term
            if notes is not None:
                notes.append(f"  R{r.round} v {r.opponent}: wins - losses {record:+d}"
                             + (f", floored to {term:+d}" if term != record else ""))
    return Fraction(total)


@tiebreak("hct_t2", "t2", "first tiebreaker sum", title="T2", kind=Kind.INTEGER, legend="the sum of the opponents' T1")
def hct_t2(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T2: Σ over opponents (one term per round with an opponent) of their :func:`hct_t1` (RULES.md 4.9)."""
    t1, _ = ctx.whole_values("hct_t1")
    total = 0
    for r in ctx.records[x]:
        if r.opponent is not None:
            total += t1[r.opponent]
            if notes is not None:
                notes.append(f"  R{r.round} v {r.opponent}: T1 {t1[r.opponent]}")
    return Fraction(total)


@tiebreak("hct_t3", "t3", "timing", title="T3", kind=Kind.INTEGER,
          legend="the sum of the squares of the numbers of the rounds lost: a later loss ranks higher")
def hct_t3(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T3: Σ r² over the rounds r the player lost, forfeit losses included (RULES.md 4.9; seed 000).

    Losing later ranks higher: Neirea lost rounds 6 and 7, 36 + 49 = 85.
    """
    lost = [r.round for r, c in zip(ctx.records[x], ctx.classes[x]) if c == "L" and r.opponent is not None]
    if notes is not None:
        notes.append(f"  lost rounds: {', '.join(map(str, lost)) or 'none'}")
    return Fraction(sum(r * r for r in lost))
