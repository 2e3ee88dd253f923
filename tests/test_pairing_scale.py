"""The pairing engine at scale: the same minimum as networkx on the complete graph, and a proof that
never passes a pairing the complete graph improves on (not timed; see benchmarks/pairing.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.model import Event, Player
from sheetswiss.pairing import pair_round
from sheetswiss.pairing.engine import Costs, edge_draws
from sheetswiss.pairing.matching import min_cost_perfect_matching, min_cost_perfect_matching_fast
from sheetswiss.pairing.swiss import _edge_levels, _solve, _state
from sheetswiss.settings import Settings

from .helpers import add_round, random_results


def test_level_10_draws_are_the_rules_stream() -> None:
    """RULES.md 2.11: one randrange(65536) per pair in canonical order, from the seeded stream."""
    rng = random.Random("12:edges:4")
    assert edge_draws(12, 4, 3000).tolist() == [rng.randrange(65536) for _ in range(3000)]


def test_fast_matching_equals_networkx() -> None:
    rng = random.Random(5)
    for _ in range(30):
        n = rng.choice([4, 6, 8, 12])
        costs = {(i, j): rng.randrange(1, 10**25) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.6}
        slow = min_cost_perfect_matching(list(range(n)), costs)
        fast = min_cost_perfect_matching_fast(list(range(n)), costs)
        assert (slow is None) == (fast is None)
        if slow is not None and fast is not None:
            assert sum(costs[e] for e in slow) == sum(costs[e] for e in fast)


def _event(n: int, seed: int, drops: bool) -> Event:
    rng = random.Random(seed)
    players = []
    for i in range(n):
        drop = rng.choice([None] * 6 + [2, 3]) if drops else None
        players.append(Player(name=f"p{i:03d}", rating=rng.randrange(1000, 2500), row=i + 2,
                              joined=rng.choice([1] * 8 + [2]) if drops else 1,
                              dropped=drop is not None, dropped_after=drop, club=rng.choice(["", "a", "b"])))
    return Event(settings=Settings(seed=seed, points=rng.choice(["chess", "hct", "armati"]),
                                   within_group=rng.choice(["slide", "slide", "fold"]),
                                   avoid_same_club=rng.choice(["no", "no", "always"])), players=tuple(players))


def _reference_cost(event: Event, pool: frozenset[str], rematches: bool) -> int | None:
    """networkx's exact minimum on the complete graph, with RULES.md 2.1's encoding."""
    state = _state(event, event.paired_rounds + 1)
    costs = Costs(event, state, pool, rematches)
    edges = {(i, j): costs.encode(i, j) for i in range(costs.n) for j in range(i + 1, costs.nodes)
             if costs.allowed(i, j)}
    found = min_cost_perfect_matching(list(range(costs.nodes)), edges)
    return None if found is None else sum(edges[e] for e in found)


def _check_round(event: Event) -> None:
    state = _state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    for rematches in (False, True):
        solved = _solve(event, state, pool, rematches)
        best = _reference_cost(event, pool, rematches)
        assert (solved is None) == (best is None)
        if solved is None or best is None:
            continue
        matching, _, proof = solved
        costs = Costs(event, state, pool, rematches)
        got = sum(costs.encode(i, j) for i, j in matching)
        assert got == best  # the engine's pairing is a minimum of the complete graph
        if proof.proven:
            assert proof.gap == 0
        if proof.gap >= 0:
            assert got - proof.gap <= best  # the proven bound never exceeds the true minimum
        if not rematches:
            return


@pytest.mark.parametrize("n,rounds,seed", [(40, 4, 1), (81, 5, 2), (150, 6, 3), (301, 5, 4), (64, 9, 5)])
def test_engine_equals_networkx_on_the_complete_graph(n: int, rounds: int, seed: int) -> None:
    event = _event(n, seed, drops=True)
    result = random_results(seed)
    for _ in range(rounds):
        if event.paired_rounds >= 2:
            _check_round(event)
        event = add_round(event, pair_round(event), result)


def test_rematch_dense_late_rounds() -> None:
    """A small field deep into the event: rematches and second byes become necessary."""
    event = _event(13, 7, drops=False)
    result = random_results(7)
    for _ in range(10):
        _check_round(event)
        event = add_round(event, pair_round(event), result)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(10, 90), st.integers(1, 6), st.integers(0, 10**6))
def test_fast_levels_equal_the_reference_levels(n: int, rounds: int, seed: int) -> None:
    event = _event(n, seed, drops=True)
    result = random_results(seed)
    for _ in range(rounds):
        event = add_round(event, pair_round(event), result)
    state = _state(event, event.paired_rounds + 1)
    if not state.order:
        return
    costs = Costs(event, state, state.order, rematches=True)
    rng = random.Random(seed)
    for _ in range(200):
        i = rng.randrange(costs.n)
        j = rng.randrange(costs.nodes)
        if i == j:
            continue
        i, j = min(i, j), max(i, j)
        expected = _edge_levels(event, state, i, j, j != costs.bye and j in costs.met[i])
        got = costs.levels(i, j)
        assert [v * (costs.scale3 if k == 2 else 1) for k, v in enumerate(expected[:9])] == got[:9]


def test_pairing_reports_its_proof() -> None:
    event = _event(50, 3, drops=False)
    event, result = replace(event, settings=replace(event.settings, within_group="slide")), random_results(3)
    for _ in range(3):
        event = add_round(event, pair_round(event), result)
    proof = pair_round(event).proof
    assert proof is not None and (proof.proven or proof.gap != 0)
