"""RULES.md 1.1: every accepted spelling of a Result cell, and the error for anything else."""

from __future__ import annotations

import pytest

from sheetswiss.errors import SheetswissError
from sheetswiss.results import Outcome, Result, ResultKind

SPELLINGS = [
    ("1-0", ResultKind.GAME, Outcome.A_WINS, None),
    ("1:0", ResultKind.GAME, Outcome.A_WINS, None),
    (" 1 – 0 ", ResultKind.GAME, Outcome.A_WINS, None),
    ("0-1", ResultKind.GAME, Outcome.B_WINS, None),
    ("0:1", ResultKind.GAME, Outcome.B_WINS, None),
    ("1/2", ResultKind.GAME, Outcome.DRAW, None),
    ("½", ResultKind.GAME, Outcome.DRAW, None),
    ("½-½", ResultKind.GAME, Outcome.DRAW, None),
    ("0.5-0.5", ResultKind.GAME, Outcome.DRAW, None),
    ("=", ResultKind.GAME, Outcome.DRAW, None),
    ("=-=", ResultKind.GAME, Outcome.DRAW, None),
    ("D", ResultKind.GAME, Outcome.DRAW, None),
    ("Draw", ResultKind.GAME, Outcome.DRAW, None),
    ("2-1", ResultKind.GAME, Outcome.A_WINS, (2, 1, 0)),
    ("1-2", ResultKind.GAME, Outcome.B_WINS, (1, 2, 0)),
    ("2-0-1", ResultKind.GAME, Outcome.A_WINS, (2, 0, 1)),
    ("1-1", ResultKind.GAME, Outcome.DRAW, (1, 1, 0)),
    ("0-0-3", ResultKind.GAME, Outcome.DRAW, (0, 0, 3)),
    ("+-", ResultKind.FORFEIT, Outcome.A_WINS, None),
    ("+/-", ResultKind.FORFEIT, Outcome.A_WINS, None),
    ("1F-0F", ResultKind.FORFEIT, Outcome.A_WINS, None),
    ("-+", ResultKind.FORFEIT, Outcome.B_WINS, None),
    ("-/+", ResultKind.FORFEIT, Outcome.B_WINS, None),
    ("0f-1f", ResultKind.FORFEIT, Outcome.B_WINS, None),
    ("--", ResultKind.FORFEIT, Outcome.BOTH_LOSE, None),
    ("-/-", ResultKind.FORFEIT, Outcome.BOTH_LOSE, None),
    ("0F-0F", ResultKind.FORFEIT, Outcome.BOTH_LOSE, None),
    ("bye", ResultKind.PAB, Outcome.A_WINS, None),
    ("BYE", ResultKind.PAB, Outcome.A_WINS, None),
    ("half bye", ResultKind.HALF_BYE, Outcome.DRAW, None),
    ("H", ResultKind.HALF_BYE, Outcome.DRAW, None),
    ("zero bye", ResultKind.ZERO_BYE, Outcome.BOTH_LOSE, None),
    ("Z", ResultKind.ZERO_BYE, Outcome.BOTH_LOSE, None),
    ("absent", ResultKind.ZERO_BYE, Outcome.BOTH_LOSE, None),
]


@pytest.mark.parametrize(("text", "kind", "outcome", "games"), SPELLINGS)
def test_accepted_spellings(text: str, kind: ResultKind, outcome: Outcome, games: tuple[int, ...] | None) -> None:
    result = Result.parse(text)
    assert (result.kind, result.outcome, result.games) == (kind, outcome, games)


@pytest.mark.parametrize(("text", "kind", "outcome", "games"), SPELLINGS)
def test_spelling_reads_back(text: str, kind: ResultKind, outcome: Outcome, games: object) -> None:
    result = Result.parse(text)
    assert Result.parse(result.spelling()) == result
    assert repr(result) == f"Result.parse({result.spelling()!r})"


def test_game_based_scales_read_one_nil_as_a_game_score() -> None:
    assert Result.parse("1-0", game_based=True).games == (1, 0, 0)
    assert Result.parse("1-0").games is None


@pytest.mark.parametrize("text", ["W", "2", "1-0-0-0", "a-b", "won", "+", "1/3", "-1-0"])
def test_anything_else_is_an_error_listing_the_accepted_spellings(text: str) -> None:
    with pytest.raises(SheetswissError, match=r"cannot read .* as a result; accepted: 1-0, 0-1"):
        Result.parse(text)


@pytest.mark.parametrize("text", ["0-0", "0:0", " 0 - 0 ", "0-0-0"])
def test_a_score_of_no_games_is_refused_with_what_to_type(text: str) -> None:
    """RULES.md 1.1: 0-0 means a double forfeit to some and a draw to others; the GM says which."""
    with pytest.raises(SheetswissError, match=r"it records no game; type -- for a double forfeit .* or 1/2"):
        Result.parse(text, game_based=True)
    assert Result.parse("0-0-2").outcome is Outcome.DRAW
