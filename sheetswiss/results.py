"""What a GM (game master) types in a Result cell, read from Player A's side (RULES.md 1.1): a game, a forfeit,
or a bye: a PAB (pairing-allocated bye), a half bye or a zero bye.

>>> Result.parse(" ½ ")
Result.parse('1/2')
>>> Result.parse("2-1").outcome
<Outcome.A_WINS: 'A wins'>
>>> Result.parse("+/-").kind
<ResultKind.FORFEIT: 'forfeit'>
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import final

from .errors import SheetswissError, excerpt

__all__ = ["ACCEPTED", "Outcome", "Result", "ResultKind"]

ACCEPTED = (
    "1-0, 0-1, 1/2 (or =, D, draw), game scores such as 2-1 or 2-0-1, "
    "forfeits +/- -/+ --, bye, half bye (H), zero bye (Z)"
)
"""The accepted spellings, quoted by every error about a Result cell."""


class Outcome(enum.Enum):
    """Who won the match, seen from Player A."""

    A_WINS = "A wins"
    B_WINS = "B wins"
    DRAW = "draw"
    BOTH_LOSE = "both lose"
    """A double forfeit: both score a loss (RULES.md 1.1)."""

    __hash__ = object.__hash__
    """Members are singletons compared by identity, so the identity hash is valid; ``Enum``'s own hashes
    the name in Python code, once per Results row when the rounds are read (:mod:`sheetswiss.history`)."""


class ResultKind(enum.Enum):
    """How a Results row ended (RULES.md 1.2)."""

    GAME = "game"
    """Played over the board; may carry a game score."""
    FORFEIT = "forfeit"
    """Not played; one side (or neither) is awarded the win. Still a meeting for rematches (2.3)."""
    PAB = "bye"
    """Pairing-allocated bye for Player A, worth ``bye_points``."""
    HALF_BYE = "half bye"
    """A bye Player A asked for, worth a draw."""
    ZERO_BYE = "zero bye"
    """A round Player A sat out, worth nothing."""

    __hash__ = object.__hash__
    """Identity hash, as :class:`Outcome`'s."""


_DRAWS = {"1/2", "1/2-1/2", "0.5-0.5", "=", "=-=", "d", "draw"}
_A_WINS = {"1-0", "1:0"}
_B_WINS = {"0-1", "0:1"}
_FORFEITS = {
    "+-": Outcome.A_WINS, "+/-": Outcome.A_WINS, "1f-0f": Outcome.A_WINS,
    "-+": Outcome.B_WINS, "-/+": Outcome.B_WINS, "0f-1f": Outcome.B_WINS,
    "--": Outcome.BOTH_LOSE, "-/-": Outcome.BOTH_LOSE, "0f-0f": Outcome.BOTH_LOSE,
}
_BYES = {
    "bye": ResultKind.PAB,
    "half bye": ResultKind.HALF_BYE, "h": ResultKind.HALF_BYE,
    "zero bye": ResultKind.ZERO_BYE, "z": ResultKind.ZERO_BYE, "absent": ResultKind.ZERO_BYE,
}
_FORFEIT_SPELLING = {Outcome.A_WINS: "+/-", Outcome.B_WINS: "-/+", Outcome.BOTH_LOSE: "-/-", Outcome.DRAW: "-/-"}
_GAME_SPELLING = {Outcome.A_WINS: "1-0", Outcome.B_WINS: "0-1", Outcome.DRAW: "1/2", Outcome.BOTH_LOSE: "1/2"}
_GAME_SCORE = re.compile(r"(\d+)-(\d+)(?:-(\d+))?")


def normalize(text: str) -> str:
    """Trim, lower-case, unify dashes and halves, drop spaces around ``-`` (RULES.md 1.1).

    >>> normalize(" 1 – 0 ")
    '1-0'
    """
    out = text.strip().lower()
    for dash in ("–", "—", "−"):
        out = out.replace(dash, "-")
    out = out.replace("½", "1/2")
    out = re.sub(r"\s*-\s*", "-", out)
    return re.sub(r"\s+", " ", out)


@final
@dataclass(frozen=True, slots=True)
class Result:
    """One Result cell: its kind, the match outcome and, when typed, the game score."""

    kind: ResultKind
    outcome: Outcome
    """For byes: ``A_WINS`` for a PAB, ``DRAW`` for a half bye, ``BOTH_LOSE`` for a zero bye."""
    games: tuple[int, int, int] | None = None
    """Games won by A, won by B, drawn; ``None`` when no game score was typed."""

    @classmethod
    def parse(cls, text: str, *, game_based: bool = False) -> Result:
        """Read a Result cell. ``game_based`` reads ``1-0`` as a game score of one game to none.

        Raises :class:`SheetswissError` (without a cell; the parser adds it) for anything else.

        >>> Result.parse("0-0-3").outcome
        <Outcome.DRAW: 'draw'>
        >>> Result.parse("1-0", game_based=True).games
        (1, 0, 0)
        """
        s = normalize(text)
        if s in _BYES:
            kind = _BYES[s]
            outcome = {ResultKind.PAB: Outcome.A_WINS, ResultKind.HALF_BYE: Outcome.DRAW}.get(
                kind, Outcome.BOTH_LOSE
            )
            return cls(kind, outcome)
        if s in _FORFEITS:
            return cls(ResultKind.FORFEIT, _FORFEITS[s])
        if s in _DRAWS:
            return cls(ResultKind.GAME, Outcome.DRAW)
        if not game_based and s in _A_WINS:
            return cls(ResultKind.GAME, Outcome.A_WINS)
        if not game_based and s in _B_WINS:
            return cls(ResultKind.GAME, Outcome.B_WINS)
        m = _GAME_SCORE.fullmatch(s.replace(":", "-"))
        if m:
            g, h, k = int(m[1]), int(m[2]), int(m[3] or 0)
            if g + h + k == 0:
                raise SheetswissError(f"cannot read {excerpt(text)} as a result: it records no game; type -- for a "
                                      "double forfeit (both lose) or 1/2 for a draw")
            outcome = Outcome.A_WINS if g > h else Outcome.B_WINS if h > g else Outcome.DRAW
            return cls(ResultKind.GAME, outcome, (g, h, k))
        raise SheetswissError(f"cannot read {excerpt(text)} as a result; accepted: {ACCEPTED}")

    def spelling(self) -> str:
        """The canonical text of this result, which :meth:`parse` reads back."""
        if self.kind is ResultKind.FORFEIT:
            return _FORFEIT_SPELLING[self.outcome]
        if self.kind is not ResultKind.GAME:
            return str(self.kind.value)
        if self.games is not None:
            g, h, k = self.games
            return f"{g}-{h}-{k}" if k else f"{g}-{h}"
        return _GAME_SPELLING[self.outcome]

    @property
    def is_bye(self) -> bool:
        """A bye of any kind: the row has no opponent."""
        return self.kind in (ResultKind.PAB, ResultKind.HALF_BYE, ResultKind.ZERO_BYE)

    def __repr__(self) -> str:
        return f"Result.parse({self.spelling()!r})"
