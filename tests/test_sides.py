"""Sides and colours: single-sided Swiss (RULES.md 3) and alternating colours (RULES.md 2.10)."""

from __future__ import annotations

import datetime as dt
import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.history import history, side_bias, sides_played
from sheetswiss.model import Event
from sheetswiss.pairing import check_pairing, pair_round
from sheetswiss.pairing.costs import Costs
from sheetswiss.pairing.levels import CLUB, COLOUR_HARD, RANDOM, SCORE, colour_ok, side_cost
from sheetswiss.pairing.matching import min_cost_perfect_matching
from sheetswiss.pairing.state import RoundState, round_state
from sheetswiss.pairing.swiss import Pairing, _orient, _solve
from sheetswiss.settings import Settings, parse_settings
from sheetswiss.workbook.parse import parse_event
from sheetswiss.workbook.render import pairings_tab

from .helpers import add_round, make_event, new_workbook, random_results, type_results
from .reference_levels import complete_graph_cost, oracle_levels

SINGLE = Settings(sides="single")


@pytest.mark.parametrize("bx,by,x_first,y_first,linear", [
    (1, 1, 64, 64, 16),   # A(+1) v B(+1): pre 1, post 2
    (1, -1, 64, 0, 0),    # A(+1) v C(-1): C takes side 1 for free
    (0, 0, 8, 8, 8),      # A(0) v B(0)
    (2, 0, 512, 0, 0),    # A(+2) v B(0): B side 1, post 1 < 2
])
def test_rules_3_worked_example_table(bx: int, by: int, x_first: int, y_first: int, linear: int) -> None:
    assert side_cost(SINGLE, bx, by) == x_first
    assert side_cost(SINGLE, by, bx) == y_first
    assert min(side_cost(SINGLE, bx, by), side_cost(SINGLE, by, bx)) == min(x_first, y_first)  # edge kept
    lin = Settings(sides="single", side_cost="linear")
    assert min(side_cost(lin, bx, by), side_cost(lin, by, bx)) == linear


def test_side_cost_sum_measure_and_base() -> None:
    summed = Settings(sides="single", side_bias_measure="sum")
    assert side_cost(summed, 1, 1) == 8 ** 2      # |2| + |0| = 2, not below 2
    assert side_cost(summed, 1, 0) == 8 ** 3      # |2| + |-1| = 3 >= 1
    assert side_cost(summed, -1, 1) == 0          # 0 + 0 < 2
    assert side_cost(Settings(sides="single", side_cost_base=Fraction(3)), 0, 0) == 3
    assert side_cost(Settings(sides="single", side_cost_base=Fraction(5, 2)), 1, 1) == Fraction(25, 4)


def four_players(played: frozenset[tuple[str, str]] = frozenset()) -> tuple[Event, RoundState]:
    """RULES.md 3: A (2 wins, +1), B (2, +1), C (1, -1), D (1, -1), pairing round 4."""
    names = "ABCD"
    sides: dict[str, tuple[int, ...]] = {"A": (1, 2, 1), "B": (1, 2, 1), "C": (2, 1, 2), "D": (2, 1, 2)}
    state = RoundState(round=4, order=tuple(names), scores=dict(zip(names, map(Fraction, (2, 2, 1, 1)))),
                       group=dict(zip(names, (0, 0, 1, 1))), group_members={0: ("A", "B"), 1: ("C", "D")}, balance={},
                       met=frozenset(), bye_eligible=frozenset(names), clubs=dict.fromkeys(names, ""), sides=sides,
                       played=played)
    return make_event(names, sides="single", points="hct"), state


def test_rules_3_four_player_example() -> None:
    event, state = four_players()
    level3 = {x + y: oracle_levels(event, state, "ABCD".index(x), "ABCD".index(y), False)[SCORE]
              for x, y in ("AB", "CD", "AC", "BD")}
    assert level3["AB"] + level3["CD"] == 128
    assert level3["AC"] + level3["BD"] == 2
    solved = _solve(event, state, frozenset("ABCD"), rematches=False)
    assert solved is not None
    matching, levels, proof, costs = solved.matching, solved.levels, solved.proof, solved.costs
    assert ["ABCD"[i] + "ABCD"[j] for i, j in matching] == ["AC", "BD"]
    assert sum(levels[e][SCORE] for e in matching) == 2 and proof.proven
    assert _orient(event, state, costs, 0, 2, 1)[:2] == ("C", "A")   # C and D take side 1
    assert _orient(event, state, costs, 1, 3, 2)[:2] == ("D", "B")


def test_a_played_assignment_is_gone() -> None:
    """RULES.md 3: A already played side 2 against C, so "C side 1" is gone and A-C costs 1 + 64."""
    event, state = four_players(frozenset({("C", "A")}))
    assert oracle_levels(event, state, 0, 2, False)[SCORE] == 65
    costs = Costs(event, state, "ABCD", rematches=False)
    assert _orient(event, state, costs, 0, 2, 1)[0] == "A"
    assert "the only side assignment left" in _orient(event, state, costs, 0, 2, 1)[2]
    assert costs.levels(0, 2)[SCORE] == 65 * costs.score_scale


def test_engine_costs_agree_on_the_examples() -> None:
    for played in (frozenset(), frozenset({("C", "A")}), frozenset({("C", "A"), ("A", "C")})):
        event, state = four_players(played)
        if len(played) == 2:  # A and C have met both ways: the pair is spent, a rematch in the fallback
            state = replace(state, met=frozenset({frozenset("AC")}))
        costs = Costs(event, state, "ABCD", rematches=True)
        for i in range(4):
            for j in range(i + 1, 4):
                expected = oracle_levels(event, state, i, j, frozenset((state.order[i], state.order[j])) in state.met)
                scaled = [v * (costs.score_scale if k == SCORE else 1) for k, v in enumerate(expected[:RANDOM])]
                assert scaled == costs.levels(i, j)[:RANDOM]


def _reference_cost(event: Event, rematches: bool) -> int | None:
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or state.order, rematches)
    return complete_graph_cost(costs)


def _agree(event: Event, rng: random.Random) -> None:
    """The engine's levels equal the reference's, and its pairing is networkx's minimum."""
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    costs = Costs(event, state, pool, rematches=True)
    for _ in range(150):
        i, j = sorted(rng.sample(range(costs.nodes), 2))
        met = j != costs.bye and frozenset((state.order[i], state.order[j])) in state.met
        expected = oracle_levels(event, state, i, j, met)
        scaled = [v * (costs.score_scale if k == SCORE else 1) for k, v in enumerate(expected[:RANDOM])]
        assert scaled == costs.levels(i, j)[:RANDOM]
    solved = _solve(event, state, pool, False)
    best = _reference_cost(event, False)
    assert (solved is None) == (best is None)
    if solved is not None:
        fresh = Costs(event, state, pool, rematches=False)
        assert sum(fresh.encode(i, j) for i, j in solved.matching) == best


def test_single_sided_forty_players_eight_rounds() -> None:
    names = [f"p{i:02d}" for i in range(40)]
    event = make_event(names, seed=11, sides="single", points="hct")
    result, rng = random_results(11, draws=False), random.Random(11)
    for r in range(1, 9):
        if r > 1:
            _agree(event, rng)
        pairing = pair_round(event)
        assert check_pairing(event, pairing) == []
        assert not pairing.rematches
        event = add_round(event, pairing, result)
        biases = [side_bias(recs) for recs in history(event).values()]
        assert max(map(abs, biases)) == r % 2    # within 1 after every round, level after even rounds
    assignments = Counter((g.a, g.b) for g in event.games)
    assert max(assignments.values()) == 1       # no side assignment twice
    meetings = Counter(frozenset((g.a, g.b)) for g in event.games)
    assert max(meetings.values()) <= 2
    for pair, count in meetings.items():        # a second meeting has the sides reversed
        if count == 2:
            a, b = tuple(pair)
            assert (a, b) in assignments and (b, a) in assignments


def _second_meetings_said(event: Event, pairing: Pairing) -> int:
    """The command's remark names exactly the tables whose two players met before with the other sides
    (RULES.md 3: allowed, and said, as a GM would otherwise read "no rematches" as "never met")."""
    before = {(g.a, g.b) for g in event.games if g.b is not None}
    again = [(t.a, t.b) for t in pairing.tables
             if t.b is not None and (t.b, t.a) in before and (t.a, t.b) not in before]
    said = [r for r in pairing.remarks if "second meeting" in r]
    if not again:
        assert said == []
        return 0
    assert len(said) == 1 and said[0].startswith(f"{len(again)} second meeting(s) with sides reversed")
    assert all(f"{a} v {b}" in said[0] for a, b in again[:5])
    return len(again)


def test_single_sided_small_field_meets_twice_and_then_rematches() -> None:
    """Four players, eight rounds: six pairs x two assignments = 12 games, exactly enough for six rounds;
    after that the pairs repeat as declared rematches."""
    event = make_event(["a", "b", "c", "d"], seed=2, sides="single", points="hct")
    result = random_results(2, draws=False)
    seconds = 0
    for r in range(1, 9):
        pairing = pair_round(event)
        assert check_pairing(event, pairing) == []
        assert bool(pairing.rematches) == (r > 6)
        seconds += _second_meetings_said(event, pairing)
        event = add_round(event, pairing, result)
    assert seconds == 6  # each of the six pairs once more, the other way round, before the rematches
    first_six = Counter((g.a, g.b) for g in event.games if g.round <= 6)
    assert len(first_six) == 12 and max(first_six.values()) == 1


def test_side_balance_with_a_bye_and_forfeits() -> None:
    """Byes and forfeits do not count towards the side bias."""
    event = make_event(["a", "b", "c"], [(1, "a", "b", "+-"), (1, "c", None, "bye"), (2, "c", "a", "1-0"),
                                          (2, "b", None, "bye")], sides="single")
    recs = history(event)
    assert [side_bias(recs[x]) for x in "abc"] == [-1, 0, 1]
    assert sides_played(recs["a"]) == (2,)


def test_single_sided_is_deterministic_for_a_seed() -> None:
    names = [f"n{i}" for i in range(14)]

    def run(seed: int) -> list[tuple[str, str | None]]:
        event = make_event(names, seed=seed, sides="single")
        out: list[tuple[str, str | None]] = []
        for _ in range(4):
            pairing = pair_round(event)
            out.extend((t.a, t.b) for t in pairing.tables)
            event = add_round(event, pairing, random_results(1))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def _best_above_colour(event: Event, hard_colour_allowed: bool) -> int | None:
    """The least cost of levels 1-5 (rematch, club, score, float height, club) over the round's pairings,
    with or without pairs that break a hard colour limit."""
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or state.order, rematches=False)
    i, j = np.triu_indices(costs.nodes, 1)
    table = costs.level_table(i, j)
    keep = costs.allowed_many(i, j) & (hard_colour_allowed | (table[:, COLOUR_HARD] == 0))
    edges = {e: w // costs.multipliers[CLUB]
             for e, w in zip(zip(i[keep].tolist(), j[keep].tolist()), costs.weights_of(table[keep]))}
    found = min_cost_perfect_matching(list(range(costs.nodes)), edges)
    return None if found is None else sum(edges[e] for e in found)


def test_colours_keep_the_hard_limits_unless_score_groups_forbid() -> None:
    """RULES.md 2.10: the hard limits are level 6, below score (level 3): a pair breaks them only when
    every pairing that keeps them costs more above level 6."""
    breaks = 0
    for n, seed in ((20, 1), (31, 2), (64, 3)):
        names = [f"p{i:02d}" for i in range(n)]
        event = make_event(names, seed=seed, colours="alternate", points="chess")
        result = random_results(seed)
        for _ in range(9):
            recs = history(event)
            pairing = pair_round(event)
            assert check_pairing(event, pairing) == []
            broken = [t for t in pairing.tables if t.b is not None and t.cost[COLOUR_HARD]]
            for t in pairing.tables:
                if t.b is not None and t not in broken:
                    assert colour_ok(sides_played(recs[t.a]), 1) and colour_ok(sides_played(recs[t.b]), 2)
            if broken:
                breaks += len(broken)
                allowed = _best_above_colour(event, hard_colour_allowed=True)
                kept = _best_above_colour(event, hard_colour_allowed=False)
                assert allowed is not None  # the round was paired, so some pairing exists
                assert (math.inf if kept is None else kept) > allowed  # none keeping the limits, or all cost more
            event = add_round(event, pairing, result)
        within = [seq for seq in map(sides_played, history(event).values())
                  if abs(seq.count(1) - seq.count(2)) <= 2 and all(len(set(seq[k:k + 3])) > 1
                                                                  for k in range(len(seq) - 2))]
        assert len(within) >= n - 2 * breaks
    assert breaks <= 2


def test_colours_engine_agrees_with_the_reference() -> None:
    names = [f"q{i:02d}" for i in range(23)]
    event = make_event(names, seed=4, colours="alternate", within_group="fold")
    result, rng = random_results(4), random.Random(4)
    for _ in range(6):
        event = add_round(event, pair_round(event), result)
        _agree(event, rng)


def test_round_one_colours_alternate_by_table() -> None:
    names = [f"r{i}" for i in range(8)]
    event = make_event(names, seed=3, colours="alternate", first_round="random")
    state = round_state(event, 1)
    pairing = pair_round(event)
    higher_white = [state.order.index(t.a) < state.order.index(t.b) for t in pairing.tables]
    assert higher_white in ([True, False, True, False], [False, True, False, True])


def test_due_colour_goes_to_the_larger_imbalance() -> None:
    """RULES.md 2.10: both due White, neither choice breaks a limit; x has c = 0 (last Black), y has c = -1:
    y gets White; equal claims: the higher-ranked x."""
    names = ("x", "y")
    state = RoundState(round=3, order=names, scores={"x": Fraction(1), "y": Fraction(1)}, group={"x": 0, "y": 0},
                       group_members={0: names}, balance={}, met=frozenset(), bye_eligible=frozenset(names),
                       clubs={"x": "", "y": ""}, sides={"x": (1, 2), "y": (2,)})
    event = make_event(names, colours="alternate")
    a, b, note = _orient(event, state, Costs(event, state, names, rematches=False), 0, 1, 1)
    assert (a, b) == ("y", "x") and "y gets the due colour" in note
    same = replace(state, sides={"x": (2,), "y": (2,)})
    assert _orient(event, same, Costs(event, same, names, rematches=False), 0, 1, 1)[:2] == ("x", "y")


def test_pairings_tab_shows_sides() -> None:
    when = dt.datetime(2026, 1, 1)
    event = make_event(["a", "b", "c"], sides="single")
    tab = pairings_tab(event, pair_round(event), when)
    assert tab.rows[1][:5] == ("Table", "Side 1 (Player A)", "Points", "Side 2 (Player B)", "Points")
    assert tab.rows[1][-1] == "Side"
    sides = {row[6]: row[9] for row in tab.rows[2:] if len(row) > 9}
    assert sorted(v for v in sides.values() if v) == ["1", "2"]
    event = make_event(["a", "b"], colours="alternate")
    tab = pairings_tab(event, pair_round(event), when)
    assert tab.rows[1][1] == "White (Player A)" and tab.rows[1][-1] == "Colour"


def test_side_settings_parse() -> None:
    """Double-sided events are tested in test_double_sided.py."""
    assert parse_settings([(2, "sides", "single"), (3, "side_cost", "linear")]).side_cost == "linear"


def test_workbook_single_sided_event(tmp_path: Path) -> None:
    """Through the commands: Results rows are written side 1 first, Pairings names the sides, and the
    second round balances every side bias."""
    players = [(f"Runner {i}",) for i in range(1, 7)]
    path = new_workbook(tmp_path, players, settings={"sides": "single", "points": "hct"})
    for _ in range(2):
        api.pair(str(path))
        type_results(path, lambda a, b: "1-0")
    wb = openpyxl.load_workbook(path)
    header = [c.value for c in wb["Pairings"][2]]
    assert header[1] == "Side 1 (Player A)" and header[-1] == "Side"
    rows = [[c.value for c in row] for row in wb["Results"].iter_rows(min_row=2) if row[0].value]
    assert len(rows) == 6
    bias: Counter[str] = Counter()
    for _, _, a, b, _ in rows:
        bias[str(a)] += 1
        bias[str(b)] -= 1
    assert set(bias.values()) == {0}
    event = parse_event(ExcelBackend(path).read())
    assert [side_bias(recs) for recs in history(event).values()] == [0] * 6
