"""The Netrunner family: SoS (strength of schedule) and ESoS (extended strength of schedule) as the
Cobra tournament manager computes them (RULES.md 4.12). A PAB is the pairing-allocated bye.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ..model import PlayerId
from .registry import (
    Context,
    Notes,
    number_text,
    tiebreak,
)


def _cobra_terms(ctx: Context, x: PlayerId) -> list[tuple[PlayerId, Fraction]]:
    """``x``'s opponents, one per round with an opponent, with the round's weight (byes left out)."""
    weights = dict(ctx.settings.round_weights)
    return [(r.opponent, weights.get(r.round, _ONE)) for r in ctx.records[x] if r.opponent is not None]


_ONE = Fraction(1)


def _weighted_mean(ctx: Context, terms: list[tuple[PlayerId, Fraction]], value: Mapping[PlayerId, Fraction],
                   whole: tuple[Mapping[PlayerId, int], int]) -> Fraction:
    """The mean of the opponents' ``value``, each term weighted by its round; ``whole``: the same values as
    numerators over one denominator, which give the mean of equal weights exactly (the usual case, no
    ``round_weights``) with whole-number sums."""
    if not ctx.settings.round_weights:
        nums, den = whole
        return Fraction(sum(nums[o] for o, _ in terms), den * len(terms)) if terms else Fraction(0)
    weight = sum((w for _, w in terms), Fraction(0))
    return sum((w * value[o] for o, w in terms), Fraction(0)) / weight if weight else Fraction(0)


@tiebreak("cobra_sos", "strength of schedule", "netrunner sos", title="SoS",
          legend="strength of schedule: the average over the opponents of their points per round played")
def cobra_sos(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
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
    terms = _cobra_terms(ctx, x)
    per_round = ctx.cobra_points_per_round
    if notes is not None:
        for (o, w), r in zip(terms, (r for r in ctx.records[x] if r.opponent is not None)):
            played = ctx.cobra_played[o]
            notes.append(f"  R{r.round} v {o}: {number_text(ctx.points(ctx.cobra_points[o]))} points / "
                         f"{number_text(played)} rounds = {number_text(per_round[o])}"
                         + (f", weight {number_text(w)}" if w != 1 else ""))
        if not terms:
            notes.append("  no opponents yet: 0")
    return _weighted_mean(ctx, terms, per_round, ctx.cobra_whole_per_round)


@tiebreak("cobra_esos", "extended sos", "extended strength of schedule", title="ESoS",
          legend="extended strength of schedule: the average of the opponents' SoS")
def cobra_esos(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Extended Strength of Schedule: the mean of the opponents' :func:`cobra_sos`, weighted as it.

    RULES.md 4.12; Cobra's ``SosCalculator``. Cobra's test: laurie's only opponent johno has SoS
    5.25, so laurie's ESoS is 5.25.
    """
    terms = _cobra_terms(ctx, x)
    sos = ctx.values("cobra_sos")
    if notes is not None:
        for o, w in terms:
            notes.append(f"  v {o}: SoS {number_text(sos[o])}" + (f", weight {number_text(w)}" if w != 1 else ""))
        if not terms:
            notes.append("  no opponents yet: 0")
    return _weighted_mean(ctx, terms, sos, ctx.whole_values("cobra_sos"))
