"""Swiss pairing: who plays whom in the next round (RULES.md sections 2 and 3).

``state`` builds the round state, ``costs`` prices a pair level by level, ``solver`` finds the cheapest
pairing and proves it optimal (with ``blossom``, the matching algorithm), and ``swiss`` turns it into tables.
"""

from .solver import Proof
from .state import RoundState, round_state
from .swiss import LEVELS, Pairing, Table, check_pairing, pair_round

__all__ = ["LEVELS", "Pairing", "Proof", "RoundState", "Table", "check_pairing", "pair_round", "round_state"]
