"""The tiebreaks: one registry of named, documented functions (RULES.md section 4).

Every tiebreak reads a :class:`Context`, built once per standings from the event's history: each
player's round records, scores and opponents (:mod:`.registry`). Each family of tiebreaks lives in its
own module and registers itself on import, in the order of RULES.md section 9: :mod:`.fide` (Buchholz,
Sonneborn-Berger, SODOS: the sum of defeated opponents' scores, ...), :mod:`.magic` (OMW%: opponents'
match-win percentage, as the MTR, the Magic Tournament Rules, defines it), :mod:`.hearthstone` (the HCT,
Hearthstone Championship Tour, T1-T3), :mod:`.lot`, :mod:`.netrunner` (Cobra's strength of schedule) and
:mod:`.scores` (secondary scores: victory points typed beside each result).

>>> from fractions import Fraction
>>> from sheetswiss.settings import Settings
>>> find_tiebreak(" SOS ")
'buchholz'
>>> TIEBREAKS["omw"].title, TIEBREAKS["omw"].text(Fraction(11, 18))
('OMW%', '61.1111')
>>> chain(Settings(points="chess", tiebreaks=("Med-Buchholz", "sb")))
('median_buchholz', 'sonneborn_berger')
"""

from __future__ import annotations

# isort: off
from . import fide, magic, hearthstone, lot, netrunner, scores  # registered in this order: RULES.md section 9
# isort: on
from .registry import (
    TIEBREAKS,
    Column,
    Context,
    Group,
    Kind,
    Notes,
    Tiebreak,
    chain,
    default_chain,
    event_chain,
    find_tiebreak,
    number_text,
    sortable,
    split_by,
)

__all__ = [
    "TIEBREAKS",
    "Column",
    "Context",
    "Group",
    "Kind",
    "Notes",
    "Tiebreak",
    "chain",
    "default_chain",
    "event_chain",
    "find_tiebreak",
    "number_text",
    "sortable",
    "split_by",
]

_FAMILIES = (fide, magic, hearthstone, lot, netrunner, scores)
"""The family modules, imported for their registrations."""
