"""The Hearthstone family: the HCT (Hearthstone Championship Tour) tiebreakers T1, T2, T3 of seed 000
(RULES.md 4.9): the opponents' wins minus losses, the sum of the opponents' T1, and the timing of losses.

Each is computed for the whole field at once, over the context's arrays (:attr:`Context.table`).
"""

from __future__ import annotations

import numpy as np

from ..model import PlayerId
from .registry import (
    Column,
    Context,
    Kind,
    column_tiebreak,
)


def _floor(ctx: Context) -> int | None:
    return None if ctx.settings.hct_floor == "none" else int(ctx.settings.hct_floor)


def _over_opponents(ctx: Context, values: np.ndarray) -> np.ndarray:
    """Σ over each player's rounds with an opponent of the opponent's value (``values`` by row)."""
    t = ctx.table
    met = t.opponent >= 0
    out: np.ndarray = np.where(met, values[np.where(met, t.opponent, 0)], 0).sum(axis=1)
    return out


def _explain_t1(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    floor = _floor(ctx)
    for r in ctx.records[x]:
        if r.opponent is not None:
            record = ctx.hct_records[r.opponent]
            term = record if floor is None else max(record, floor)
            notes.append(f"  R{r.round} v {r.opponent}: wins - losses {record:+d}"
                         + (f", floored to {term:+d}" if term != record else ""))


@column_tiebreak("hct_t1", "t1", "win/loss sum", title="T1", kind=Kind.INTEGER, explain=_explain_t1,
                 legend="the sum over the opponents of their wins minus losses (each at least hct_floor)")
def hct_t1(ctx: Context) -> Column:
    """HCT T1: Σ over opponents of max(wins - losses, ``hct_floor``) (RULES.md 4.9; seed 000).

    One term per round with an opponent; the opponent's record is through the context's rounds (a
    dropped opponent's at the drop; their byes count as wins, *decision*). Byes add 0. Floor -3 is
    the HCT rule, -2 seed 000's argued fix, ``none`` no floor. Seed 000: Neirea 23, Farm4fame 11.
    """
    floor, records = _floor(ctx), ctx.hct_record_array
    return Column(_over_opponents(ctx, records if floor is None else np.maximum(records, floor)), 1)


def _explain_t2(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    t1 = ctx.column("hct_t1")
    for r in ctx.records[x]:
        if r.opponent is not None:
            notes.append(f"  R{r.round} v {r.opponent}: T1 {int(t1.numerators[ctx.row[r.opponent]])}")


@column_tiebreak("hct_t2", "t2", "first tiebreaker sum", title="T2", kind=Kind.INTEGER, explain=_explain_t2,
                 legend="the sum of the opponents' T1")
def hct_t2(ctx: Context) -> Column:
    """HCT T2: Σ over opponents (one term per round with an opponent) of their :func:`hct_t1` (RULES.md 4.9)."""
    return Column(_over_opponents(ctx, ctx.column("hct_t1").numerators), 1)


def _lost(ctx: Context) -> np.ndarray:
    """Rounds lost against an opponent (forfeit losses included), by row and round."""
    t = ctx.table
    lost: np.ndarray = (t.cls == 0) & (t.opponent >= 0)
    return lost


def _explain_t3(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    lost = (np.flatnonzero(_lost(ctx)[ctx.row[x]]) + 1).tolist()
    notes.append(f"  lost rounds: {', '.join(map(str, lost)) or 'none'}")


@column_tiebreak("hct_t3", "t3", "timing", title="T3", kind=Kind.INTEGER, explain=_explain_t3,
                 legend="the sum of the squares of the numbers of the rounds lost: a later loss ranks higher")
def hct_t3(ctx: Context) -> Column:
    """HCT T3: Σ r² over the rounds r the player lost, forfeit losses included (RULES.md 4.9; seed 000).

    Losing later ranks higher: Neirea lost rounds 6 and 7, 36 + 49 = 85.
    """
    squares = np.arange(1, ctx.rounds + 1, dtype=np.int64) ** 2
    return Column(np.where(_lost(ctx), squares, 0).sum(axis=1), 1)
