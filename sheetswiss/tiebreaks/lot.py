"""The last resort: a drawing of lots from the event's seed (RULES.md 4.11; seed 004's step 6)."""

from __future__ import annotations

from fractions import Fraction

from ..model import PlayerId
from .registry import (
    Context,
    Kind,
    Notes,
    tiebreak,
)


@tiebreak("random", "lot", title="Lot", kind=Kind.INTEGER, lowest_first=True,
          legend="drawing of lots from the event's seed: the lower number ranks first")
def random_lot(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Last resort: the position in a seeded shuffle of the sorted names, first ranked first (RULES.md 4.11).

    Seed 004's step 6 ("pick at random"); ``random.Random(f"{seed}:standings:0")`` with the Settings
    seed, so the same workbook always draws the same order.
    """
    if notes is not None:
        notes.append(f"  position {ctx.lot[x]} of {len(ctx.lot)} in the draw with seed {ctx.settings.seed}")
    return Fraction(ctx.lot[x])
