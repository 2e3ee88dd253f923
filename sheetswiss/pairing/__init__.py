"""Swiss pairing: who plays whom in the next round (RULES.md sections 2 and 3)."""

from .swiss import LEVELS, Pairing, Table, check_pairing, pair_round

__all__ = ["LEVELS", "Pairing", "Table", "check_pairing", "pair_round"]
