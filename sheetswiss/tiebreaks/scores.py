"""Secondary scores: tiebreaks on each side's game score, victory points or control points (RULES.md 4.13).

The GM types each side's game score in the Results columns Score A and Score B; a player's *scored*
points are their own side's, *conceded* the opponent's. VP means victory points, the usual wargame
game score. Only rows with both scores typed count: a bye has none, a forfeit counts the scores the
GM typed on its row (the event's pack decides what a forfeit is worth), else none; an absence none.
Under ``sides: double`` a round's two games are summed.
"""

from __future__ import annotations

from fractions import Fraction

from ..history import RoundRecord
from ..model import PlayerId
from .registry import Context, Notes, number_text, tiebreak


def _typed(ctx: Context, x: PlayerId) -> list[tuple[RoundRecord, Fraction, Fraction]]:
    """``x``'s rounds with both game scores typed: (record, scored, conceded)."""
    return [(r, r.scored, r.conceded) for r in ctx.records[x] if r.scored is not None and r.conceded is not None]


def _round_line(r: RoundRecord, scored: Fraction, conceded: Fraction) -> str:
    who = f" v {r.opponent}" if r.opponent is not None else ""
    return f"  R{r.round}{who}: {number_text(scored)}-{number_text(conceded)}"


def _capped(ctx: Context, scored: Fraction, conceded: Fraction) -> Fraction:
    """One game's margin, limited to ``margin_cap`` either way."""
    cap = ctx.settings.margin_cap
    margin = scored - conceded
    return margin if cap is None else max(-cap, min(cap, margin))


def _signed(value: Fraction) -> str:
    return ("+" if value > 0 else "") + number_text(value)


@tiebreak("total_score", "score", "total vp", "victory points", "vp", title="Score",
          legend="total score: the player's own game scores (Score A or B) added up")
def total_score(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """The sum of the player's own game scores over the rounds with scores typed (RULES.md 4.13).

    The HGBTS rules (Heavy Gear) break ties on the total of Objective Points; wargame score sheets
    record control points or army points destroyed for the same use. Games 15-7 and 9-12 give 24.
    """
    rows = _typed(ctx, x)
    if notes is not None:
        notes.extend(_round_line(*row) for row in rows)
        if not rows:
            notes.append("  no game scores typed: 0")
    return sum((scored for _, scored, _ in rows), Fraction(0))


def _margins(ctx: Context, x: PlayerId, notes: Notes) -> list[Fraction]:
    """Each typed round's margin (scored - conceded, capped by ``margin_cap``), explained to ``notes``."""
    out = []
    for r, scored, conceded in _typed(ctx, x):
        margin = _capped(ctx, scored, conceded)
        out.append(margin)
        if notes is not None:
            raw = scored - conceded
            capped = f", capped to {_signed(margin)} (margin_cap {number_text(ctx.settings.margin_cap or Fraction(0))})"
            line = f"{_round_line(r, scored, conceded)}, margin {_signed(raw)}"
            notes.append(line + (capped if margin != raw else ""))
    if notes is not None and not out:
        notes.append("  no game scores typed: 0")
    return out


@tiebreak("margin", "score difference", "difference", "vp difference", "differential", title="Margin",
          legend="score difference: own game scores minus the opponents', each game capped at margin_cap when set")
def margin(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Σ over the rounds with scores typed of (scored - conceded), each limited to ±``margin_cap`` (RULES.md 4.13).

    Kendo Tournament Manager offers a "Point Differential" Swiss tiebreak; T³ events score games on
    victory-point differences. The cap (*decision*, off by default) keeps one crushing game from
    outweighing several close ones. Games 15-7 and 9-12 give +8 - 3 = 5; with ``margin_cap: 5``, 5 - 3 = 2.
    """
    return sum(_margins(ctx, x, notes), Fraction(0))


@tiebreak("average_margin", "avg margin", "mean margin", title="Avg margin",
          legend="average margin: the score difference divided by the games with scores typed")
def average_margin(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """:func:`margin` divided by the number of rounds with scores typed; 0 with none (RULES.md 4.13).

    Games 15-7 and 9-12 give 5 / 2 = 2.5. It evens out a bye or a forfeit without scores, which adds
    nothing to the sum but does not count here either.
    """
    margins = _margins(ctx, x, notes)
    if notes is not None and margins:
        notes.append(f"  {number_text(sum(margins, Fraction(0)))} / {len(margins)} games")
    return sum(margins, Fraction(0)) / len(margins) if margins else Fraction(0)


@tiebreak("opponents_score", "opp score", "opponents total score", "opponents vp", title="Opp score",
          legend="opponents' total score: the sum of each opponent's own total score (one term per round with "
                 "an opponent)")
def opponents_score(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Σ over the rounds with an opponent (games and forfeits) of the opponent's :func:`total_score` (RULES.md 4.13).

    The HGBTS rules' last tiebreak, the Objective Points of the player's opponents: a Buchholz of game
    scores. Byes add nothing. Opponents on 30 and 18 give 48.
    """
    totals = ctx.values("total_score")
    terms = [(r, totals[r.opponent]) for r in ctx.records[x] if r.opponent is not None]
    if notes is not None:
        notes.extend(f"  R{r.round} v {r.opponent}: score {number_text(v)}" for r, v in terms)
        if not terms:
            notes.append("  no opponents yet: 0")
    return sum((v for _, v in terms), Fraction(0))


@tiebreak("goal_average", "goal avg", "ga", "ratio", "score ratio", title="Goal avg",
          legend="goal average: the points scored divided by the points conceded (at least 1)")
def goal_average(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Points scored / points conceded over the rounds with scores typed (RULES.md 4.13; seed 004's step 5).

    Seed 004's fifth step ("any goal average system"); a T³ event's rules rank ties on the ratio of
    victory points scored to conceded. A total conceded below 1 counts as 1 (*decision*: a ratio needs a
    divisor, and the football rule it comes from never said what nothing conceded gives): 24 scored,
    19 conceded give 24/19 = 1.2632; 10 scored, none conceded, 10.
    """
    rows = _typed(ctx, x)
    scored = sum((s for _, s, _ in rows), Fraction(0))
    conceded = sum((c for _, _, c in rows), Fraction(0))
    divisor = max(conceded, Fraction(1))
    if notes is not None:
        notes.extend(_round_line(*row) for row in rows)
        notes.append(f"  {number_text(scored)} scored / {number_text(conceded)} conceded"
                     + (" (counted as 1)" if divisor != conceded else ""))
    return scored / divisor


SCORE_TIEBREAKS = frozenset({"total_score", "margin", "average_margin", "opponents_score", "goal_average"})
"""The tiebreaks of this module: those that read Results' Score A and Score B."""
