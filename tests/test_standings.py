"""Standings: points, then the chain as FIDE C.07 Art. 4.2 applies it (RULES.md 4.1, 4.6, 4.11)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.errors import UnknownName
from sheetswiss.model import Event, Player
from sheetswiss.standings import Standings, compute_standings, explain, standing_ranks
from sheetswiss.tiebreaks import TIEBREAKS

from .helpers import make_event
from .test_tiebreaks import PER_PLAYER, Row, events, rules_4_2, rules_4_8

F = Fraction


def table(event: Event, *chain: str, de_rule: str = "fide") -> Standings:
    return compute_standings(replace(event, settings=replace(event.settings, tiebreaks=chain, de_rule=de_rule)))


def ranks(standings: Standings) -> list[tuple[str, int, bool]]:
    return [(r.player, r.rank, r.shared) for r in standings.rows]


# RULES.md 4.6: A, B, C tied on 1 point; A beat B, B beat C, A and C never met.
RULES_4_6 = [(1, "A", "B", "1-0"), (1, "C", None, "bye"), (2, "B", "C", "1-0"), (2, "A", None, "zero bye")]


def test_rules_4_6_nobody_is_certain() -> None:
    t = table(make_event("ABC", RULES_4_6, points="chess"), "direct_encounter")
    assert ranks(t) == [("A", 1, True), ("B", 1, True), ("C", 1, True)]
    assert [r.values for r in t.rows] == [(F(1),), (F(1),), (F(0),)]


def test_rules_4_6_then_next_tiebreak_decides() -> None:
    t = table(make_event("ABC", RULES_4_6, points="chess"), "direct_encounter", "wins_otb")
    assert ranks(t)[2] == ("C", 3, False)           # C has no game won; A and B still tied
    assert ranks(t)[:2] == [("A", 1, True), ("B", 1, True)]


# A beat B and C, who never met each other; B and C made their points by forfeit wins.
CERTAIN_FIRST = [(1, "A", "B", "1-0"), (1, "C", "D1", "+/-"), (2, "A", "C", "1-0"), (2, "B", "D1", "+/-"),
                 (3, "A", None, "zero bye"), (3, "B", "D2", "+/-"), (3, "C", "D3", "+/-")]


@pytest.mark.parametrize(("rule", "expected"), [
    ("fide", [("A", 1, False), ("B", 2, True), ("C", 2, True)]),     # 6.3: A is out of reach, B v C never met
    ("all_met", [("A", 1, True), ("B", 1, True), ("C", 1, True)]),
    ("separates", [("A", 1, True), ("B", 1, True), ("C", 1, True)]),
    ("pair", [("A", 1, True), ("B", 1, True), ("C", 1, True)]),
])
def test_direct_encounter_when_not_all_met(rule: str, expected: list[tuple[str, int, bool]]) -> None:
    t = table(make_event(["A", "B", "C", "D1", "D2", "D3"], CERTAIN_FIRST, points="chess"), "direct_encounter",
              de_rule=rule)
    assert ranks(t)[:3] == expected


# All met: A beat B and C, B beat C; byes bring everyone to 2 points.
ROUND_ROBIN: list[Row] = [(1, "A", "B", "1-0"), (2, "A", "C", "1-0"), (3, "B", "C", "1-0"),
                          (1, "C", None, "bye"), (2, "B", None, "bye"), (3, "A", None, "zero bye"),
                          (4, "C", None, "bye"), (4, "A", None, "zero bye"), (4, "B", None, "zero bye")]


@pytest.mark.parametrize(("rule", "order"), [("fide", "ABC"), ("all_met", "ABC"), ("separates", "ABC"), ("pair", "")])
def test_direct_encounter_all_met(rule: str, order: str) -> None:
    t = table(make_event("ABC", ROUND_ROBIN, points="chess"), "direct_encounter", de_rule=rule)
    assert all(r.points == 2 for r in t.rows)
    if order:
        assert ranks(t) == [(p, i, False) for i, p in enumerate(order, start=1)]
    else:
        assert all(r.shared for r in t.rows)


def test_direct_encounter_cycle_stays_tied_and_pair_needs_a_decisive_game() -> None:
    cycle = [(1, "A", "B", "1-0"), (2, "B", "C", "1-0"), (3, "C", "A", "1-0")]
    event = make_event("ABC", cycle, points="chess")
    for rule in ("fide", "separates"):
        assert all(r.shared for r in table(event, "direct_encounter", de_rule=rule).rows)
    two = make_event("AB", [(1, "A", "B", "1/2"), (2, "A", "B", "1-0"), (3, "A", "B", "0-1")], points="chess")
    assert [r.values for r in table(two, "direct_encounter", de_rule="pair").rows] == [(F(1, 2),), (F(1, 2),)]


def test_direct_encounter_subgroup_is_evaluated_again() -> None:
    # All four met. A and B beat C and D; A and B drew, C and D drew: de A 2.5, B 2.5, C 0.5, D 0.5.
    # Each pair is evaluated again on its own, where the draw leaves it tied.
    rows = [(1, "A", "B", "1/2"), (1, "C", "D", "1/2"), (2, "A", "C", "1-0"), (2, "B", "D", "1-0"),
            (3, "A", "D", "1-0"), (3, "B", "C", "1-0")]
    t = table(make_event("ABCD", rows, points="chess"), "direct_encounter")
    assert [r.points for r in t.rows] == [F(5, 2), F(5, 2), F(1, 2), F(1, 2)]
    assert ranks(t) == [("A", 1, True), ("B", 1, True), ("C", 3, True), ("D", 3, True)]


def test_shared_rank_and_tie_order_by_rating_then_name() -> None:
    players = [Player(name="Cy", rating=1500), Player(name="Al"), Player(name="Bo", rating=1600), Player(name="Di")]
    rows: list[Row] = [(1, "Cy", "Al", "1/2"), (1, "Bo", "Di", "1/2")]
    t = table(make_event(players, rows, points="chess"))
    assert ranks(t) == [("Bo", 1, True), ("Cy", 1, True), ("Al", 1, True), ("Di", 1, True)]


def test_random_breaks_every_tie_reproducibly() -> None:
    names = [f"P{i}" for i in range(8)]
    event = make_event(names, [], points="chess", seed=11, tiebreaks=("random",))
    t = compute_standings(event)
    expected = sorted(names)
    random.Random("11:standings:0").shuffle(expected)
    assert [r.player for r in t.rows] == expected
    assert [r.rank for r in t.rows] == list(range(1, 9)) and not any(r.shared for r in t.rows)
    assert compute_standings(event) == t


def test_rows_of_rules_4_2() -> None:
    t = compute_standings(rules_4_2("fide2023"))
    assert t.rounds == 5 and t.chain == ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins")
    assert [e.title for e in t.tiebreaks] == ["BH Cut1", "Buchholz", "SB", "DE", "Wins"]
    p = next(r for r in t.rows if r.player == "P")
    assert (p.points, p.wins, p.draws, p.losses, p.games) == (F(7, 2), 3, 1, 1, 3)
    assert p.values == (F(14), F(16), F(21, 2), F(0), F(3))
    x = next(r for r in t.rows if r.player == "X")
    assert x.dropped and (x.wins, x.losses, x.games) == (1, 1, 1)
    assert [r.player for r in t.rows[:2]] == ["B", "P"]


def test_through_counts_only_the_first_rounds() -> None:
    event = rules_4_2("points")
    t = compute_standings(event, through=1)
    assert t.rounds == 1
    p = next(r for r in t.rows if r.player == "P")
    assert p.points == 1 and p.values[1] == 0      # A had 0 after round 1
    assert compute_standings(event).rounds == event.completed_rounds == 5


def test_pending_round_is_not_counted() -> None:
    event = make_event("AB", [(1, "A", "B", "1-0")], points="chess")
    pending = replace(event, games=(*event.games, replace(event.games[0], round=2, result=None)))
    assert compute_standings(pending) == compute_standings(event)


def test_explain_lists_each_value_opponent_by_opponent() -> None:
    lines = explain(rules_4_2("fide2023"), "P")
    text = "\n".join(lines)
    assert lines[0].startswith("P: 3.5 points after round 5, rank 2")
    assert "Buchholz (buchholz) = 16" in text and "BH Cut1 (buchholz_cut1) = 14" in text
    assert "R2 forfeit win v X: 3.5 (dummy on P's own score (C.07 16.4))" in text
    assert "R3 game v B: 4" in text and "cut: R1 (2)" in text
    magic = "\n".join(explain(rules_4_8(mtr_floor="0.33"), "P"))
    assert "OMW% (omw) = 61.0000" in magic and "R2 v A: MW% 33.0000" in magic
    with pytest.raises(UnknownName):
        explain(rules_4_2("points"), "Nobody")


def test_explain_direct_encounter_names_the_tied_group() -> None:
    event = make_event("ABC", RULES_4_6, points="chess", tiebreaks=("direct_encounter",))
    text = "\n".join(explain(event, "A"))
    assert "DE (direct_encounter) = 1" in text and "tied group: A, B, C" in text and "v B: 1" in text


@given(events(), st.data())
@settings(max_examples=60, deadline=None)
def test_reordering_the_chain_changes_only_the_order(event: Event, data: st.DataObject) -> None:
    names = data.draw(st.lists(st.sampled_from(PER_PLAYER), min_size=1, max_size=6, unique=True))
    shuffled = data.draw(st.permutations(names))
    one, two = table(event, *names), table(event, *shuffled)
    by_player = {r.player: dict(zip(names, r.values)) for r in one.rows}
    assert by_player == {r.player: dict(zip(shuffled, r.values)) for r in two.rows}
    assert {r.player: (r.points, r.wins, r.draws, r.losses, r.games) for r in one.rows} == {
        r.player: (r.points, r.wins, r.draws, r.losses, r.games) for r in two.rows}


@given(events(), st.data())
@settings(max_examples=80, deadline=None)
def test_ranks_without_the_rows_are_the_standings_ranks(event: Event, data: st.DataObject) -> None:
    """standing_ranks computes a tiebreak only for players still tied when the chain reaches it: the ranks are
    those of the whole standings, for any chain (group tiebreaks and the lot included)."""
    names = data.draw(st.lists(st.sampled_from([*PER_PLAYER, "direct_encounter", "random"]), min_size=0,
                               max_size=5, unique=True))
    ranked = replace(event, settings=replace(event.settings, tiebreaks=tuple(names) or None))
    assert standing_ranks(ranked) == {r.player: r.rank for r in compute_standings(ranked).rows}


@given(events(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_standings_are_sorted_and_independent_of_row_order(event: Event, rng: random.Random) -> None:
    t = compute_standings(event)
    games = list(event.games)
    rng.shuffle(games)
    assert compute_standings(replace(event, games=tuple(games))) == t
    assert sorted(r.player for r in t.rows) == sorted(p.name for p in event.players)
    entries = [TIEBREAKS[n] for n in t.chain]
    for above, below in zip(t.rows, t.rows[1:]):
        assert above.points >= below.points
        if above.rank == below.rank:
            assert above.shared and below.shared and above.points == below.points
        else:
            assert below.rank == t.rows.index(below) + 1
        if above.points == below.points and "direct_encounter" not in t.chain and above.rank != below.rank:
            keys = [(v if e.lowest_first else -v) for e, v in zip(entries, above.values)]
            assert keys < [(v if e.lowest_first else -v) for e, v in zip(entries, below.values)]
