"""The Netrunner family: SoS (strength of schedule) and ESoS (extended strength of schedule) as the
Cobra tournament manager computes them (RULES.md 4.12). A PAB is the pairing-allocated bye.

Both are computed for the whole field at once, over the context's arrays, as exact whole numbers over one
denominator (:meth:`~sheetswiss.tiebreaks.Context.opponents_mean`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..history import RoundRecord
from ..model import PlayerId
from .registry import (
    Column,
    Context,
    column_tiebreak,
    number_text,
)


def _explain_terms(ctx: Context, x: PlayerId, notes: list[str], term: Callable[[RoundRecord], str]) -> None:
    """One line for each of the player's opponents, ``term`` of that round, and its round weight where it is
    not 1; a player without opponents gets 0."""
    opponents = [r for r in ctx.records[x] if r.opponent is not None]
    for r in opponents:
        w = ctx.settings.round_weight(r.round)
        notes.append(f"  {term(r)}" + (f", weight {number_text(w)}" if w != 1 else ""))
    if not opponents:
        notes.append("  no opponents yet: 0")


def _explain_sos(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    per_round = ctx.cobra_points_per_round

    def term(r: RoundRecord) -> str:
        o = r.opponent
        assert o is not None
        return (f"R{r.round} v {o}: {number_text(ctx.points(ctx.cobra_points[o]))} points / "
                f"{number_text(ctx.cobra_played[o])} rounds = {number_text(per_round.at(ctx.row[o]))}")

    _explain_terms(ctx, x, notes, term)


@column_tiebreak("cobra_sos", "strength of schedule", "netrunner sos", title="SoS", explain=_explain_sos,
                 legend="strength of schedule: the average over the opponents of their points per round played")
def cobra_sos(ctx: Context) -> Column:
    """Strength of Schedule as Cobra computes it (RULES.md 4.12; Cobra's ``SosCalculator``).

    Each opponent's points divided by the rounds that opponent played, averaged over the player's
    opponents, each term weighted by its round's weight (``round_weights``, 1 unless set). An
    opponent's rounds played are the weights of their rounds with a game, a forfeit, a bye or a half bye:
    rounds before a late entry, after a drop or missed (``absent``) do not count; their points are those
    rounds' points. The
    player's own byes are left out; no opponent gives 0. Under ``sides: double`` a round's two games
    are one term worth 0-6. Cobra's test: laurie (bye, beat johno 6-0) v dan (3-3 with johno, bye):
    SoS of laurie 3/2 = 1.5, of johno (6 + 9/2) / 2 = 5.25.
    """
    return ctx.opponents_mean(ctx.cobra_points_per_round, ctx.cobra_weights[0])


def _explain_esos(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    sos = ctx.column("cobra_sos")

    def term(r: RoundRecord) -> str:
        assert r.opponent is not None
        return f"v {r.opponent}: SoS {number_text(sos.at(ctx.row[r.opponent]))}"

    _explain_terms(ctx, x, notes, term)


@column_tiebreak("cobra_esos", "extended sos", "extended strength of schedule", title="ESoS", explain=_explain_esos,
                 legend="extended strength of schedule: the average of the opponents' SoS")
def cobra_esos(ctx: Context) -> Column:
    """Extended Strength of Schedule: the mean of the opponents' :func:`cobra_sos`, weighted as it.

    RULES.md 4.12; Cobra's ``SosCalculator``. Cobra's test: laurie's only opponent johno has SoS
    5.25, so laurie's ESoS is 5.25.
    """
    return ctx.opponents_mean(ctx.column("cobra_sos"), ctx.cobra_weights[0])
