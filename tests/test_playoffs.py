"""Playoff brackets: RULES.md section 6 draws, McIntyre's example, the exact 6.5 chances, errors, properties."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.errors import SheetswissError, UnknownName
from sheetswiss.playoffs import (
    SYSTEMS,
    BadWinner,
    Bracket,
    advance,
    bracket_order,
    new_bracket,
    outcomes,
)
from sheetswiss.settings import SPECS

F = Fraction
EIGHT = tuple(str(s) for s in range(1, 9))
"""Players named by their seed, so that assertions read as RULES.md writes them."""


def first_round(b: Bracket) -> list[str]:
    return [f"{m.a.text}-{m.b.text}" for m in b.matches if m.round == 1]


def play_favourites(b: Bracket) -> Bracket:
    """Let the better seed win every match, one at a time."""
    while b.to_play:
        m = b.to_play[0]
        assert m.a.player is not None and m.b.player is not None
        best = min((m.a.player, m.b.player), key=b.seeds.index)
        b = advance(b, {m.id: best})
    return b


def chances(system: str, players: int, top: int = 1) -> list[Fraction]:
    """Each seed's chance to finish in the top ``top`` places, every game a coin toss."""
    seeds = tuple(str(s) for s in range(1, players + 1))
    got = dict.fromkeys(seeds, Fraction(0))
    total = Fraction(0)
    for chance, done in outcomes(new_bracket(system, seeds)):
        total += chance
        for player, (_, worst) in done.places().items():
            if worst <= top:
                got[player] += chance
    assert total == 1
    return list(got.values())


# --- RULES.md 6.1 -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("size", "expected"), [
    (4, "1-4, 2-3"),
    (8, "1-8, 4-5, 2-7, 3-6"),
    (16, "1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11"),
    (32, "1-32, 16-17, 8-25, 9-24, 4-29, 13-20, 5-28, 12-21, 2-31, 15-18, 7-26, 10-23, 3-30, 14-19, 6-27, 11-22"),
])
def test_fold_draws_are_rules_6_1_table(size: int, expected: str) -> None:
    seeds = tuple(str(s) for s in range(1, size + 1))
    assert ", ".join(first_round(new_bracket("single", seeds))) == expected


def test_ncaa_draw_puts_two_at_the_bottom() -> None:
    seeds = tuple(str(s) for s in range(1, 17))
    assert ", ".join(first_round(new_bracket("single", seeds, order="ncaa"))) == (
        "1-16, 8-9, 5-12, 4-13, 6-11, 3-14, 7-10, 2-15")


@pytest.mark.parametrize("order", ["fold", "ncaa"])
@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_favourites_reach_each_round_in_seed_order(order: str, size: int) -> None:
    """If the better seed always wins, round k is played by seeds 1..size/2^(k-1); 1 and 2 meet in the final."""
    seeds = tuple(str(s) for s in range(1, size + 1))
    done = play_favourites(new_bracket("single", seeds, order=order))
    for k in range(1, size.bit_length()):
        playing = {p for m in done.matches if m.round == k for p in (m.a.player, m.b.player)}
        assert playing == set(seeds[: size >> (k - 1)])
    final = done.matches[-1]
    assert (final.a.player, final.b.player, done.champion) == ("1", "2", "1")
    assert sorted(bracket_order(size, order)) == list(range(1, size + 1))


def test_single_elimination_advances_round_by_round() -> None:
    b = new_bracket("single", EIGHT)
    assert [m.id for m in b.to_play] == ["QF1", "QF2", "QF3", "QF4"]
    assert b.match("SF1").a.text == "winner of QF1" and b.champion is None
    b = advance(b, {"QF1": "8", "QF2": "4", "QF3": "2", "QF4": "6"})
    assert [(m.id, m.a.text, m.b.text) for m in b.to_play] == [("SF1", "8", "4"), ("SF2", "2", "6")]
    b = advance(b, {"SF1": "4", "SF2": "6"})
    b = advance(b, {"F": "6"})
    assert b.champion == "6" and not b.to_play
    assert b.places() == {"6": (1, 1), "4": (2, 2), "8": (3, 4), "2": (3, 4),
                          "1": (5, 8), "5": (5, 8), "7": (5, 8), "3": (5, 8)}


def test_a_cut_that_is_not_a_power_of_two_gives_the_top_seeds_byes() -> None:
    b = new_bracket("single", EIGHT[:6])
    assert first_round(b) == ["1-bye", "4-5", "2-bye", "3-6"]
    assert [m.id for m in b.to_play] == ["QF2", "QF4"]
    assert b.match("QF1").walkover and b.match("QF1").winner == "1" and b.match("QF1").loser is None
    assert b.match("SF1").a.player == "1" and b.match("SF1").b.text == "winner of QF2"
    done = play_favourites(b)
    assert done.places()["5"] == (5, 6) and done.places()["6"] == (5, 6)


def test_the_winner_of_a_bye_may_be_typed_but_nobody_else() -> None:
    b = new_bracket("single", EIGHT[:3])
    assert advance(b, {"SF1": "1"}).match("SF1").winner == "1"
    with pytest.raises(BadWinner, match=r"SF1 \(Semifinal 1, 1 v bye\): no game is played here"):
        advance(b, {"SF1": "2"})


# --- RULES.md 6.2 to 6.4 ----------------------------------------------------------------------------

def test_magic_top2_layout() -> None:
    b = new_bracket("magic_top2", EIGHT)
    assert [(m.id, m.round, m.a.text, m.b.text) for m in b.matches] == [
        ("R1-1", 1, "5", "8"), ("R1-2", 1, "6", "7"),
        ("QF1", 2, "4", "winner of R1-1"), ("QF2", 2, "3", "winner of R1-2"),
        ("SF1", 3, "1", "winner of QF1"), ("SF2", 3, "2", "winner of QF2"),
        ("F", 4, "winner of SF1", "winner of SF2")]
    b = advance(b, {"R1-1": "8", "R1-2": "6", "QF1": "8", "QF2": "3", "SF1": "8", "SF2": "2", "F": "8"})
    assert b.champion == "8"
    assert b.places() == {"8": (1, 1), "2": (2, 2), "1": (3, 4), "3": (3, 4), "4": (5, 6), "6": (5, 6),
                          "5": (7, 8), "7": (7, 8)}


def test_mcintyre8_rules_6_3_example() -> None:
    """Seeds 1, 4, 6 and 7 win round 1: 1 and 4 wait, 5 and 8 are out; 7 v 3 and 6 v 2; 1 and 4 meet those winners."""
    b = new_bracket("mcintyre8", EIGHT)
    assert [(m.id, m.a.text, m.b.text) for m in b.matches[:4]] == [
        ("QF1", "4", "5"), ("QF2", "3", "6"), ("QF3", "2", "7"), ("QF4", "1", "8")]
    assert (b.match("SF1").a.text, b.match("SF1").b.text) == ("4th-ranked winner of round 1",
                                                              "2nd-ranked loser of round 1")
    assert b.match("PF1").a.text == "highest-ranked winner of round 1"
    partial = advance(b, {"QF1": "4", "QF2": "6", "QF3": "7"})
    assert partial.match("SF1").a.player is None and [m.id for m in partial.to_play] == ["QF4"]
    b = advance(partial, {"QF4": "1"})
    assert [(m.id, m.a.text, m.b.text) for m in b.to_play] == [("SF1", "7", "3"), ("SF2", "6", "2")]
    assert (b.match("PF1").a.text, b.match("PF2").a.text) == ("1", "4")
    b = advance(b, {"SF1": "3", "SF2": "6", "PF1": "3", "PF2": "4", "F": "4"})
    assert [(m.id, m.a.text, m.b.text) for m in b.matches[6:]] == [
        ("PF1", "1", "3"), ("PF2", "4", "6"), ("F", "3", "4")]
    assert b.places() == {"4": (1, 1), "3": (2, 2), "1": (3, 4), "6": (3, 4), "7": (5, 6), "2": (5, 6),
                          "5": (7, 8), "8": (7, 8)}


def test_mcintyre4_layout() -> None:
    b = new_bracket("mcintyre4", EIGHT[:4])
    b = advance(b, {"SF1": "2", "SF2": "3"})
    assert [(m.id, m.a.text, m.b.text) for m in b.matches[2:]] == [("PF", "1", "3"), ("F", "2", "winner of PF")]
    b = advance(b, {"PF": "1", "F": "1"})
    assert b.places() == {"1": (1, 1), "2": (2, 2), "3": (3, 3), "4": (4, 4)}


# --- RULES.md 6.5: exact enumeration ----------------------------------------------------------------

def percent(*values: float) -> list[Fraction]:
    return [F(v).limit_denominator(1000) / 100 for v in values]


def test_mcintyre8_win_and_top4_chances() -> None:
    assert len(list(outcomes(new_bracket("mcintyre8", EIGHT)))) == 2**9
    assert chances("mcintyre8", 8) == percent(18.75, 18.75, 15.625, 12.5, 12.5, 9.375, 6.25, 6.25)
    assert chances("mcintyre8", 8, top=4) == percent(75, 75, 62.5, 50, 50, 37.5, 25, 25)


def test_magic_top2_chances() -> None:
    assert chances("magic_top2", 8) == percent(25, 25, 12.5, 12.5, 6.25, 6.25, 6.25, 6.25)
    assert chances("magic_top2", 8, top=4) == percent(100, 100, 50, 50, 25, 25, 25, 25)


def test_single_and_mcintyre4_chances() -> None:
    assert chances("single", 8) == [F(1, 8)] * 8
    assert chances("mcintyre4", 4) == percent(37.5, 37.5, 12.5, 12.5)


def test_mcintyre8_finals_and_no_early_rematch() -> None:
    """26 of the 28 pairs can meet in the final (not 1 v 7, not 2 v 8); nobody meets twice before it."""
    finals = set()
    for _, done in outcomes(new_bracket("mcintyre8", EIGHT)):
        met = [frozenset((m.a.player, m.b.player)) for m in done.matches]
        assert len(set(met[:-1])) == len(met) - 1
        finals.add(met[-1])
    impossible = {frozenset(pair) for pair in itertools.combinations(EIGHT, 2)} - finals
    assert len(finals) == 26 and impossible == {frozenset("17"), frozenset("28")}


# --- RULES.md 6.6 -----------------------------------------------------------------------------------

def test_double_elimination_layout_for_eight() -> None:
    b = new_bracket("double", EIGHT)
    layout = [(m.id, m.round, m.section, m.a.text, m.b.text) for m in b.matches]
    assert layout[7:] == [
        ("L1-1", 2, "losers", "loser of W1-1", "loser of W1-2"),
        ("L1-2", 2, "losers", "loser of W1-3", "loser of W1-4"),
        ("L2-1", 3, "losers", "winner of L1-1", "loser of W2-2"),
        ("L2-2", 3, "losers", "winner of L1-2", "loser of W2-1"),
        ("L3-1", 4, "losers", "winner of L2-1", "winner of L2-2"),
        ("L4-1", 5, "losers", "winner of L3-1", "loser of W3-1"),
        ("GF", 6, "final", "winner of W3-1", "winner of L4-1"),
        ("GF2", 7, "final", "winner of GF", "loser of GF, if the losers' bracket side won it")]
    assert b.match("L4-1").label == "Losers' final" and b.match("W3-1").label == "Winners' final"


def test_bracket_reset_only_when_the_losers_champion_wins() -> None:
    b = advance(new_bracket("double", EIGHT[:4]), {"W1-1": "1", "W1-2": "2", "W2-1": "1", "L1-1": "3",
                                                    "L2-1": "2"})
    assert (b.match("GF").a.player, b.match("GF").b.player) == ("1", "2")
    held = advance(b, {"GF": "1"})
    assert held.champion == "1" and held.match("GF2").walkover and not held.to_play
    assert held.places() == {"1": (1, 1), "2": (2, 2), "3": (3, 3), "4": (4, 4)}
    reset = advance(b, {"GF": "2"})
    assert (reset.match("GF2").a.player, reset.match("GF2").b.player) == ("2", "1") and reset.champion is None
    assert advance(reset, {"GF2": "1"}).champion == "1"
    no_reset = advance(new_bracket("double", EIGHT[:4], reset=False), b.winners)
    assert advance(no_reset, {"GF": "2"}).champion == "2"


def test_double_elimination_everyone_but_the_champion_loses_twice() -> None:
    for chance, done in outcomes(new_bracket("double", EIGHT[:4])):
        losses = Counter(m.loser for m in done.matches if m.loser is not None)
        champion = done.champion
        assert champion is not None and losses[champion] <= 1 and chance >= F(1, 2**7)
        assert all(losses[p] == 2 for p in EIGHT[:4] if p != champion)


# --- errors -----------------------------------------------------------------------------------------

def test_a_typed_winner_not_in_the_match_is_one_clear_error() -> None:
    b = new_bracket("single", EIGHT)
    with pytest.raises(BadWinner, match=r"^QF1 \(Quarterfinal 1, 1 v 8\): '5' is not in this match; type 1 or 8$") as e:
        advance(b, {"QF1": "5"})
    assert e.value.match == "QF1" and isinstance(e.value, SheetswissError)


def test_a_winner_typed_before_the_players_are_known_is_an_error() -> None:
    with pytest.raises(BadWinner, match=r"^SF1 \(Semifinal 1, winner of QF1 v 4\): '1' is typed as the winner, "
                                        r"but the players are not known yet$"):
        advance(new_bracket("single", EIGHT), {"QF2": "4", "SF1": "1"})


def test_a_correction_upstream_invalidates_a_later_winner() -> None:
    b = advance(new_bracket("single", EIGHT[:4]), {"SF1": "1", "SF2": "2", "F": "2"})
    with pytest.raises(BadWinner, match=r"^F \(Final, 1 v 3\): '2' is not in this match; type 1 or 3$"):
        advance(b, {"SF2": "3"})
    assert advance(b, {"SF2": "3", "F": "3"}).champion == "3"


def test_every_bad_winner_is_collected_and_left_out() -> None:
    found: list[BadWinner] = []
    b = advance(new_bracket("single", EIGHT), {"QF1": "5", "QF2": "4", "QF3": "2", "QF4": "9", "SF1": "4",
                                               "SF2": "7", "F": "4"}, rejected=found)
    assert [(e.match, str(e).partition(": ")[2]) for e in found] == [
        ("QF1", "'5' is not in this match; type 1 or 8"),
        ("QF4", "'9' is not in this match; type 3 or 6"),
        # SF1 (winner of QF1 v 4) and SF2 (2 v winner of QF4) wait on a bad cell: not judged; F waits on them
    ]
    assert b.winners == {"QF2": "4", "QF3": "2"} and [m.id for m in b.to_play] == ["QF1", "QF4"]  # open again
    found.clear()
    advance(new_bracket("single", EIGHT), {"QF1": "5", "QF2": "4", "QF3": "2", "QF4": "3", "SF1": "4", "SF2": "2",
                                           "F": "Zed"}, rejected=found)
    assert [str(e) for e in found][1:] == [  # SF1 is not judged; Zed is wrong whoever wins it
        "F (Final, winner of SF1 v 2): 'Zed' is not a player of this playoff"]


def test_a_winner_typed_early_is_reported_even_beside_a_bad_cell() -> None:
    found: list[BadWinner] = []  # SF1 waits on QF1 (bad) and on QF2 (not typed): wrong whatever QF1 says
    advance(new_bracket("single", EIGHT), {"QF1": "5", "SF1": "1"}, rejected=found)
    assert [e.match for e in found] == ["QF1", "SF1"] and "players are not known yet" in str(found[1])


def test_a_ranked_side_waits_on_a_bad_cell_only_when_the_rest_of_its_round_is_decided() -> None:
    found: list[BadWinner] = []  # McIntyre: the semifinals' players are ranked among all round 1's results
    decided = {"QF1": "4", "QF2": "3", "QF3": "2"}
    advance(new_bracket("mcintyre8", EIGHT), {**decided, "QF4": "2", "SF1": "4"}, rejected=found)
    assert [e.match for e in found] == ["QF4"]
    found.clear()
    advance(new_bracket("mcintyre8", EIGHT), {"QF1": "4", "QF2": "3", "QF4": "2", "SF1": "4"}, rejected=found)
    assert [e.match for e in found] == ["QF4", "SF1"]  # QF3 is open: SF1 was typed too early anyway


def test_unknown_match_system_order_and_wrong_sizes() -> None:
    with pytest.raises(UnknownName, match=r"no match 'QF9' in this bracket; matches: SF1, SF2, F"):
        advance(new_bracket("single", EIGHT[:4]), {"QF9": "1"})
    with pytest.raises(UnknownName, match="unknown playoff 'swiss'; known: single, magic_top2, mcintyre8"):
        new_bracket("swiss", EIGHT)
    with pytest.raises(UnknownName, match="unknown bracket order 'snake'"):
        new_bracket("single", EIGHT, order="snake")
    with pytest.raises(SheetswissError, match="playoff mcintyre8 takes exactly 8 players; the top cut has 6"):
        new_bracket("mcintyre8", EIGHT[:6])
    with pytest.raises(SheetswissError, match="takes 2 to 8 players"):
        new_bracket("magic_top2", (*EIGHT, "9"))
    with pytest.raises(SheetswissError, match="name a player twice"):
        new_bracket("single", ("Ana", "Bo", "Ana"))


def test_playoff_setting_lists_every_system() -> None:
    (spec,) = [s for s in SPECS if s.key == "playoff"]
    assert spec.parse("McIntyre8") == "mcintyre8"
    assert all(spec.parse(name) == name for name in SYSTEMS)
    with pytest.raises(ValueError, match="is not one of: " + ", ".join(SYSTEMS)):
        spec.parse("swiss")


# --- properties -------------------------------------------------------------------------------------

def systems_and_sizes() -> st.SearchStrategy[tuple[str, int]]:
    return st.sampled_from(list(SYSTEMS)).flatmap(
        lambda name: st.tuples(st.just(name), st.integers(SYSTEMS[name].fewest, SYSTEMS[name].most or 12)))


@settings(max_examples=60, deadline=None)
@given(systems_and_sizes(), st.sampled_from(["fold", "ncaa"]), st.booleans(), st.randoms(use_true_random=False))
def test_random_playthroughs(case: tuple[str, int], order: str, reset: bool, rnd: random.Random) -> None:
    """Any sequence of winners finishes the bracket; places cover 1..n; the same winners typed at once agree."""
    system, n = case
    seeds = tuple(f"P{i}" for i in range(1, n + 1))
    start = new_bracket(system, seeds, order=order, reset=reset)
    b = start
    while b.to_play:
        m = rnd.choice(b.to_play)
        assert m.a.player is not None and m.b.player is not None
        b = advance(b, {m.id: rnd.choice([m.a.player, m.b.player])})
    assert b.champion in seeds
    places = b.places()
    assert sorted(places) == sorted(seeds)
    assert sorted(best for best, _ in places.values())[0] == 1
    assert max(worst for _, worst in places.values()) == n
    for r in {m.round for m in b.matches}:
        playing = [p for m in b.matches if m.round == r for p in (m.a.player, m.b.player) if p is not None]
        assert len(playing) == len(set(playing))
    assert advance(start, dict(reversed(list(b.winners.items())))) == b


# --- single elimination with a mulligan round (RULES.md 6.7) ---------------------------------------

def test_mulligan_layout_for_eight() -> None:
    b = new_bracket("mulligan", [f"S{i}" for i in range(1, 9)])
    assert [(m.id, m.round, m.a.text, m.b.text) for m in b.matches][:6] == [
        ("M1", 1, "S1", "S8"), ("M2", 1, "S4", "S5"), ("M3", 1, "S2", "S7"), ("M4", 1, "S3", "S6"),
        ("R1-1", 2, "highest-ranked loser of the mulligan", "4th-ranked loser of the mulligan"),
        ("R1-2", 2, "2nd-ranked loser of the mulligan", "3rd-ranked loser of the mulligan")]
    assert [(m.id, m.a.text, m.b.text) for m in b.matches][6:8] == [
        ("QF1", "highest-ranked winner of the mulligan", "bye"),
        ("QF2", "4th-ranked winner of the mulligan", "highest-ranked winner of round 1")]
    assert [m.id for m in b.matches][-3:] == ["SF1", "SF2", "F"]


def test_mulligan_winners_skip_round_1_and_losers_start_again() -> None:
    b = new_bracket("mulligan", [f"S{i}" for i in range(1, 9)])
    b = advance(b, {"M1": "S8", "M2": "S4", "M3": "S2", "M4": "S6"})
    round1 = {p for m in b.matches if m.round == 2 for p in (m.a.player, m.b.player)}
    assert round1 == {"S1", "S5", "S7", "S3"}  # the mulligan losers, and nobody else
    assert (b.match("R1-1").a.player, b.match("R1-1").b.player) == ("S1", "S7")
    assert b.match("QF1").a.player == "S2" and b.match("QF1").winner == "S2"  # the best mulligan winner's bye


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 16), st.randoms(use_true_random=False))
def test_after_the_mulligan_one_loss_is_out(n: int, rnd: random.Random) -> None:
    b = new_bracket("mulligan", [f"P{i}" for i in range(1, n + 1)])
    while b.to_play:
        m = rnd.choice(b.to_play)
        assert m.a.player is not None and m.b.player is not None
        b = advance(b, {m.id: rnd.choice([m.a.player, m.b.player])})
    for p in (f"P{i}" for i in range(1, n + 1)):
        lost = [m for m in b.matches if m.loser == p]
        assert len([m for m in lost if m.round > 1]) == (0 if p == b.champion else 1)
        won_mulligan = any(m.round == 1 and m.winner == p for m in b.matches)
        assert not (won_mulligan and any(m.round == 2 and p in (m.a.player, m.b.player) for m in b.matches))
