"""Round planning: RULES.md section 7's tables and figures, seed 000's 88 players, warnings, prizes by record."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.errors import SheetswissError
from sheetswiss.planning import (
    expected_records,
    integer_records,
    magic_row,
    plan,
    plan_text,
    players_at_most,
    prize_by_record,
    safe_rounds,
    single_winner_rounds,
)

F = Fraction


@pytest.mark.parametrize(("players", "rounds", "cut"), [
    (8, 3, 0), (9, 5, 4), (16, 5, 4), (17, 5, 8), (32, 5, 8), (33, 6, 8), (64, 6, 8), (65, 7, 8), (128, 7, 8),
    (129, 8, 8), (226, 8, 8), (227, 9, 8), (409, 9, 8), (410, 10, 8), (5000, 10, 8),
])
def test_magic_table(players: int, rounds: int, cut: int) -> None:
    row = magic_row(players)
    assert row is not None and (row.rounds, row.top_cut) == (rounds, cut)


def test_magic_table_starts_at_8_and_counts_awarded_byes() -> None:
    assert magic_row(7) is None
    p = plan(62, top_cut=8, awarded_byes=[1, 2])  # MTR Appendix E: 2 and 4 players
    assert p.counted == 66 and p.magic is not None and p.magic.rounds == 7


def test_seed_000_triangle_for_88_players_in_7_rounds() -> None:
    assert expected_records(88, 7) == (F(11, 16), F(77, 16), F(231, 16), F(385, 16), F(385, 16), F(231, 16),
                                       F(77, 16), F(11, 16))
    assert [round(x) for x in expected_records(88, 7)[:3]] == [1, 5, 14]
    assert integer_records(88, 7) == (1, 5, 14, 24, 24, 14, 5, 1)
    assert integer_records(88, 7, floater_wins=False)[:3] == (0, 5, 15)


def test_x1_safe_and_x2_not_for_88_and_a_top_8() -> None:
    assert players_at_most(expected_records(88, 6), 1) == F(77, 8)   # 9.625 > 8
    assert players_at_most(expected_records(88, 7), 1) == F(11, 2)   # 5.5 <= 8
    assert round(float(players_at_most(expected_records(88, 7), 2)), 1) == 19.9
    assert safe_rounds(88, 8) == safe_rounds(88, 8, integer=True) == 7
    p = plan(88, top_cut=8)
    assert (p.rounds, p.safe, p.single_winner, p.warnings) == (7, 7, 7, ())


def largest_safe(rounds: int, *, integer: bool = False, floater_wins: bool = True) -> int:
    def count(n: int) -> Fraction:
        records = integer_records(n, rounds, floater_wins=floater_wins) if integer else expected_records(n, rounds)
        return players_at_most(records, 1)

    return max(n for n in range(2, 1000) if count(n) <= 8)


@pytest.mark.parametrize(("rounds", "limit"), [(5, 42), (6, 73), (7, 128), (8, 227), (9, 409), (10, 744)])
def test_x1_limits_by_expectation(rounds: int, limit: int) -> None:
    assert largest_safe(rounds) == limit


def test_seed_000_799_does_not_recompute() -> None:
    """10 rounds: 744 by expectation, 736 in the integer model, 798 if paired-down players lose; never 799."""
    assert largest_safe(10, integer=True) == 736
    assert largest_safe(10, integer=True, floater_wins=False) == 798


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 3), (16, 4), (17, 5), (32, 5), (88, 7)])
def test_single_winner_rounds(players: int, rounds: int) -> None:
    assert single_winner_rounds(players) == rounds


def test_warnings() -> None:
    (w,) = plan(30, top_cut=8, rounds=4).warnings[1:]
    assert w == "30 players in 4 rounds: 4 rounds suit at most 24 players, preferably 16 or fewer"
    assert plan(30, top_cut=8, rounds=4).warnings[0].startswith("x-1 is not safe in 4 rounds: 9.38 players")
    assert plan(6, top_cut=0, rounds=5).warnings == (
        "5 rounds for 6 players: with N − 1 rounds or more, play a round robin instead",)
    assert plan(88, top_cut=8, rounds=9).warnings[0].startswith("x-2 is safe too in 9 rounds")
    assert plan(24, top_cut=0, rounds=4).warnings == ()


def test_plan_without_cut_uses_single_winner_rounds() -> None:
    p = plan(20, top_cut=0)
    assert (p.rounds, p.safe, p.safe_integer) == (5, None, None)
    assert "no top cut" in plan_text(p)[0]


def test_prize_by_record() -> None:
    rows = prize_by_record(88, 7, {7: F(1000), 5: F(100)})
    assert [r.wins for r in rows] == [7, 6, 5, 4, 3, 2, 1, 0]
    assert rows[0].total == F(1000) * F(11, 16) and rows[2].total == F(100) * F(231, 16)
    pooled = prize_by_record(88, 7, {5: F(700)}, pooled=True)
    assert (pooled[2].players, pooled[2].prize, pooled[2].total) == (14, F(50), F(700))
    p = plan(88, top_cut=8, prizes={5: F(700)}, pooled=True)
    assert p.prize_total == 700 and plan_text(p)[-1] == "Prizes by record: 700 expected in all."
    with pytest.raises(SheetswissError, match="a prize for 8 wins, but 7 rounds give 0 to 7 wins"):
        prize_by_record(88, 7, {8: F(1)})


def test_bad_input() -> None:
    with pytest.raises(SheetswissError, match="at least 2 players"):
        plan(1, top_cut=0)
    with pytest.raises(SheetswissError, match="1, 2 or 3 rounds"):
        plan(40, top_cut=8, awarded_byes=[4])


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 400), st.integers(1, 10), st.booleans())
def test_triangles_count_every_player(players: int, rounds: int, floater_wins: bool) -> None:
    expected = expected_records(players, rounds)
    integer = integer_records(players, rounds, floater_wins=floater_wins)
    assert sum(expected) == players == sum(integer)
    assert expected == expected[::-1]
    assert sum((rounds - losses) * n for losses, n in enumerate(integer)) == rounds * (players // 2 + players % 2)
