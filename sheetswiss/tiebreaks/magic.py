"""The Magic family: match- and game-win percentages as the MTR (Magic: The Gathering Tournament
Rules, Appendix C) computes them, RULES.md 4.8-4.9.

MW% / GW% are a player's match-win and game-win percentages; OMW% / OGW% (opponents' match-win and
game-win percentages) the means of the opponents' values; OOMW% (opponents' opponents' match-win
percentage) the mean of the opponents' OMW%. A PAB (pairing-allocated bye) counts as the MTR says.

Each is computed for the whole field at once, over the context's arrays (:attr:`Context.table`), with
exact whole numbers over one denominator (Python integers when they outgrow 64 bits).
"""

from __future__ import annotations

import functools
import math
import operator
from fractions import Fraction

import numpy as np

from ..history import RoundKind
from ..model import PlayerId
from ..settings import parse_number
from .registry import (
    TIEBREAKS,
    Column,
    Context,
    Kind,
    column_tiebreak,
)

_PAB = list(RoundKind).index(RoundKind.PAB)
_GAME = list(RoundKind).index(RoundKind.GAME)


def _magic_rounds(ctx: Context) -> np.ndarray:
    """Rounds a Magic percentage counts, by row and round: games and forfeits, and PABs unless
    ``magic_byes: exclude``."""
    t = ctx.table
    counted: np.ndarray = t.opponent >= 0
    if ctx.settings.magic_byes == "mtr":
        counted = counted | (t.kind == _PAB)
    return counted


@functools.lru_cache(maxsize=16)
def _floor(text: str) -> Fraction:
    """``mtr_floor`` as a number, read once per spelling (every player's percentages need it)."""
    return parse_number(text)


def _array(numbers: list[int]) -> np.ndarray:
    """Whole numbers as ``int64``, or as Python integers (``object``) when some would not fit."""
    return np.array(numbers, dtype=object if any(abs(v) >= 2**62 for v in numbers) else np.int64)


def _floored(ctx: Context, earned: np.ndarray, possible: np.ndarray) -> Column:
    """``earned / possible`` for every player, at least ``mtr_floor``; 0 where nothing is possible. The
    column's detail keeps (earned, possible) for the explanation."""
    floor = _floor(ctx.settings.mtr_floor)
    possible_list = possible.tolist()
    den = math.lcm(floor.denominator, *{p for p in possible_list if p})
    lowest = floor.numerator * (den // floor.denominator)
    nums = [max(e * (den // p), lowest) if p else 0 for e, p in zip(earned.tolist(), possible_list)]
    return Column(_array(nums), den, np.stack([earned, possible], axis=1))


def _explain_floored(ctx: Context, x: PlayerId, column: Column, notes: list[str], what: str) -> None:
    assert column.detail is not None
    earned, possible = column.detail[ctx.row[x]].tolist()
    if not possible:
        notes.append(f"  no {what} yet: 0")
        return
    raised = Fraction(earned, possible) < _floor(ctx.settings.mtr_floor)
    notes.append(f"  {earned}/{possible} {what} points"
                 + (f", raised to the floor {ctx.settings.mtr_floor}" if raised else ""))


_explain_match = functools.partial(_explain_floored, what="match")
_explain_game = functools.partial(_explain_floored, what="game")


@column_tiebreak("mwp", "mw%", "match win percentage", title="MW%", kind=Kind.PERCENT, explain=_explain_match,
                 legend="match-win percentage: match points / (3 x rounds played), never below the floor "
                        "(mtr_floor)")
def mwp(ctx: Context) -> Column:
    """Match-win percentage: match points / (3 x rounds played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 for a win or bye, 1 a draw; a bye is a round played (``magic_byes: mtr``) or left
    out (``exclude``, seed 002); requested byes and rounds after a drop are not rounds played
    (*decision*). MTR's examples: 3-2-0 with a bye then a drop, 9/15 = 60%; 1-3-0, 25% -> the floor.
    """
    counted, cls = _magic_rounds(ctx), ctx.table.cls
    match_points = np.where(cls == 2, 3, np.where(cls == 1, 1, 0))
    return _floored(ctx, np.where(counted, match_points, 0).sum(axis=1), 3 * counted.sum(axis=1))


def _opponents_mean(ctx: Context, name: str) -> Column:
    """Mean of the opponents' ``name`` values, one term per round with an opponent; none -> 0."""
    return ctx.opponents_mean(ctx.column(name))


def _explain_opponents(ctx: Context, x: PlayerId, notes: list[str], name: str) -> None:
    title, values = TIEBREAKS[name], ctx.column(name)
    opponents = [r for r in ctx.records[x] if r.opponent is not None]
    for r in opponents:
        assert r.opponent is not None
        notes.append(f"  R{r.round} v {r.opponent}: {title.title} {title.text(values.at(ctx.row[r.opponent]))}")
    if not opponents:
        notes.append("  no opponents yet: 0")


@column_tiebreak("omw", "omw%", "omwp", "opponents match win percentage", title="OMW%", kind=Kind.PERCENT,
                 explain=lambda ctx, x, _, notes: _explain_opponents(ctx, x, notes, "mwp"),
                 legend="opponents' match-win percentage: the average of the opponents' MW%")
def omw(ctx: Context) -> Column:
    """Opponents' match-win percentage: the mean of each opponent's :func:`mwp` (RULES.md 4.8).

    MTR Appendix C: one term per round with an opponent (forfeits included); the player's own byes
    are left out; a dropped opponent counts with the rounds they played. RULES.md 4.8's P: 61.0000%
    with floor 0.33, 61.1111% with 1/3. Seed 000's pooled "Σ opponents' wins / 49" is another
    figure: it agrees only while no opponent dropped or sits under the floor (RULES.md 4.10).
    """
    return _opponents_mean(ctx, "mwp")


_GAMES = operator.attrgetter("games")


def _games(ctx: Context) -> np.ndarray:
    """Games won, lost, drawn in each round, by row, round and (won, lost, drawn): as typed, a bye or
    forfeit as 2-0 (*decision*), else one game."""
    t = ctx.table
    win, draw, loss = t.cls == 2, t.cls == 1, t.cls == 0
    game = t.kind == _GAME
    out = np.stack([np.where(game, win, 2 * win), np.where(game, loss, 2 * loss), game & draw], axis=-1)
    typed = np.array([g or _UNTYPED for g in map(_GAMES, ctx.flat)], dtype=np.int64).reshape(out.shape)
    return np.where(typed[..., :1] >= 0, typed, out.astype(np.int64))


_UNTYPED = (-1, -1, -1)
"""A round without games typed, among the typed ones."""


@column_tiebreak("gwp", "gw%", "game win percentage", title="GW%", kind=Kind.PERCENT, explain=_explain_game,
                 legend="game-win percentage: game points / (3 x games played), never below the floor "
                        "(mtr_floor)")
def gwp(ctx: Context) -> Column:
    """Game-win percentage: game points / (3 x games played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 a game won, 1 a game drawn. A bye counts as a 2-0 win (MTR "Byes"; left out
    with ``magic_byes: exclude``); a forfeit as 2-0 for the winner (*decision*); a result typed
    without a game score as one game. RULES.md 4.8's P: 21/30 = 70% (62.5% with ``exclude``).
    """
    games = np.where(_magic_rounds(ctx)[:, :, None], _games(ctx), 0).sum(axis=1)
    won, lost, drawn = games[:, 0], games[:, 1], games[:, 2]
    return _floored(ctx, 3 * won + drawn, 3 * (won + lost + drawn))


@column_tiebreak("ogw", "ogw%", "ogwp", "opponents game win percentage", title="OGW%", kind=Kind.PERCENT,
                 explain=lambda ctx, x, _, notes: _explain_opponents(ctx, x, notes, "gwp"),
                 legend="opponents' game-win percentage: the average of the opponents' GW%")
def ogw(ctx: Context) -> Column:
    """Opponents' game-win percentage: the mean of each opponent's :func:`gwp`, as :func:`omw` (RULES.md 4.8)."""
    return _opponents_mean(ctx, "gwp")


@column_tiebreak("oomw", "oomw%", "oomwp", title="OOMW%", kind=Kind.PERCENT,
                 explain=lambda ctx, x, _, notes: _explain_opponents(ctx, x, notes, "omw"),
                 legend="opponents' opponents' match-win percentage: the average of the opponents' OMW%")
def oomw(ctx: Context) -> Column:
    """Opponents' opponents' match-win percentage: the mean of each opponent's :func:`omw`.

    RULES.md 4.9: seed 000's recommended second step for Hearthstone (omw, oomw, gwp).
    """
    return _opponents_mean(ctx, "omw")
