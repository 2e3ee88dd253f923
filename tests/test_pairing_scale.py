"""The pairing engine at scale: the same minimum as networkx on the complete graph, and a proof that
never passes a pairing the complete graph improves on (not timed; see benchmarks/pairing.py).

Most tests turn off the engine's complete-graph fallback for small fields (``sparse_only``), so that what
they check is the sparse solve and its certificate, not the fallback."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.model import Event, Game, Player
from sheetswiss.pairing import blossom, pair_round, solver, transport
from sheetswiss.pairing.blossom import Matcher, Nesting, Saved
from sheetswiss.pairing.costs import Costs, best_colours, colour_assignment, pair_draw, player_keys
from sheetswiss.pairing.levels import BALANCE, COLOUR_HARD, HEIGHT, PATTERN, RANDOM, SCORE, WHO_FLOATS
from sheetswiss.pairing.matching import min_cost_perfect_matching, min_cost_perfect_matching_fast
from sheetswiss.pairing.simplex import NoFlow
from sheetswiss.pairing.solver import _SHORTLIST, Solver
from sheetswiss.pairing.state import round_state
from sheetswiss.pairing.swiss import _solve
from sheetswiss.pairing.transport import block_duals, pairing_duals
from sheetswiss.results import Result
from sheetswiss.settings import Settings

from .helpers import add_round, benchmark, random_results
from .reference_levels import complete_graph_cost, oracle_levels


def _murmur_final(k: int) -> int:
    """MurmurHash3's fmix64, written out from its published constants."""
    mask = 2**64 - 1
    k ^= k >> 33
    k = k * 0xFF51AFD7ED558CCD % 2**64
    k ^= k >> 33
    k = k * 0xC4CEB9FE1A85EC53 % 2**64
    return (k ^ (k >> 33)) & mask


def test_level_11_draws_are_the_rules_hash() -> None:
    """RULES.md 2.11: a pair's draw is the top 16 bits of fmix64(lo ^ fmix64(hi)), lo and hi the two players'
    BLAKE2b keys of "{seed}:edges:{round}:{name}": the same for both orders, from arrays or one pair."""
    names = [f"player {i}" for i in range(300)]
    keys = player_keys(12, 4, names)
    assert keys[0] == int.from_bytes(hashlib.blake2b(b"12:edges:4:player 0", digest_size=8).digest(), "little")
    rng = random.Random(3)
    pairs = [(rng.randrange(300), rng.randrange(300)) for _ in range(2000)]
    expected = [_murmur_final(min(keys[a], keys[b]) ^ _murmur_final(max(keys[a], keys[b]))) >> 48 for a, b in pairs]
    array = np.array(keys, dtype=np.uint64)
    first, second = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    assert pair_draw(array[first], array[second]).tolist() == expected
    assert pair_draw(array[second], array[first]).tolist() == expected
    assert [pair_draw(keys[a], keys[b]) for a, b in pairs] == expected
    assert len(set(expected)) > 1900  # spread over the 65,536 values


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
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, pool, rematches)
    return complete_graph_cost(costs)


def _first_solve(n: int, seed: int, rounds: int, **settings: str) -> tuple[Costs, Solver, Matcher]:
    """A field of ``n`` players (:func:`_event`, no drops) under ``settings`` after ``rounds`` rounds paired by the
    engine: the next round's costs, its solver and the matcher after the first solve on the candidate graph."""
    event = _event(n, seed, drops=False)
    event = replace(event, settings=replace(event.settings, **settings))  # type: ignore[arg-type]
    result = random_results(seed)
    for _ in range(rounds):
        event = add_round(event, pair_round(event), result)
    return _first_solve_of(event)


def _first_solve_of(event: Event) -> tuple[Costs, Solver, Matcher]:
    """The next round's costs of ``event``, its solver and the matcher after the first solve on the candidate
    graph."""
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    solver_ = Solver(costs)
    m = solver_._matcher()
    assert not m.run()
    return costs, solver_, m


def _failing_pairs(costs: Costs, m: Matcher, margin: int = 0) -> set[tuple[int, int]]:
    """The pairs of the complete graph whose dual constraint the matcher's duals fail (or hold by less than
    ``margin``), found pair by pair: what the certificate's check must list."""
    nest = Nesting(m)
    i, j = np.triu_indices(costs.nodes, 1)
    keep = costs.allowed_many(i, j)
    return {(u, v) for u, v, w in zip(i[keep].tolist(), j[keep].tolist(), costs.reduced_many(i[keep], j[keep]))
            if 2 * w - m.p[u] - m.p[v] + nest(u, v) < margin}


def _check_round(event: Event) -> None:
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    for rematches in (False, True):
        solved = _solve(event, state, pool, rematches)
        best = _reference_cost(event, pool, rematches)
        assert (solved is None) == (best is None)
        if solved is None or best is None:
            continue
        matching, proof = solved.matching, solved.proof
        costs = Costs(event, state, pool, rematches)
        got = sum(costs.encode(i, j) for i, j in matching)
        assert got == best  # the engine's pairing is a minimum of the complete graph
        if proof.proven:
            assert proof.gap == 0
        if proof.gap >= 0:
            assert got - proof.gap <= best  # the proven bound never exceeds the true minimum
        if not rematches:
            return


@pytest.mark.parametrize("n,rounds,seed", [(40, 4, 1), (81, 5, 2), (64, 9, 5),
                                           pytest.param(150, 6, 3, marks=pytest.mark.slow),
                                           pytest.param(301, 5, 4, marks=pytest.mark.slow)])
def test_engine_equals_networkx_on_the_complete_graph(n: int, rounds: int, seed: int) -> None:
    event = _event(n, seed, drops=True)
    result = random_results(seed)
    for _ in range(rounds):
        if event.paired_rounds >= 2:
            _check_round(event)
        event = add_round(event, pair_round(event), result)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed", [(120, 4, 21), (95, 7, 22), pytest.param(260, 6, 23, marks=pytest.mark.slow)])
def test_within_group_random_is_exact(n: int, rounds: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``within_group: random`` every pair of a group ties at the pattern level and the seeded draw decides
    (RULES.md 2.5): G' holds each player's partners of lowest draw (:meth:`Solver._lowest_draws`), and the
    pairing costs networkx's minimum on the complete graph, proven, round after round (with drops and late
    entries, clubs and rematches crowding the groups). The check keeps each group's pairs of low draw and bounds
    its players chunk by chunk (:meth:`Solver._check_drawn`), here with chunks and kept pairs small enough for
    groups of these sizes."""
    drawn: list[int] = []
    checked: list[int] = []
    lowest, check = Solver._lowest_draws, Solver._check_drawn

    def counted(self: Solver, g: int, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        drawn.append(len(nodes))
        return lowest(self, g, nodes)

    def chunked(self: Solver, g: int, *args: object) -> None:
        checked.append(g)
        check(self, g, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Solver, "_lowest_draws", counted)
    monkeypatch.setattr(Solver, "_check_drawn", chunked)
    monkeypatch.setattr(solver, "_BELOW", 4)
    monkeypatch.setattr(solver, "_CHUNK", 6)
    event = _event(n, seed, drops=True)
    event = replace(event, settings=replace(event.settings, within_group="random", avoid_same_club="no"))
    result = random_results(seed)
    for _ in range(rounds):
        if event.paired_rounds >= 1:
            _check_round(event)
        event = add_round(event, pair_round(event), result)
    assert drawn and checked  # groups large enough to take only their lowest draws, and checked by their chunks


def _lowest_partners_held(settings: Settings, seed: int,
                          keys: Callable[[Costs, int, np.ndarray, np.ndarray, np.ndarray], list[np.ndarray]]
                          ) -> set[int]:
    """After a history with Player A by a coin (:func:`_coin_swiss`) under ``settings``, asserts that G' holds each
    player v of a large group with its partners of least ``keys(c, v, others, lo, hi)[k]`` (``_DRAWN`` of them for
    the first key, ``_SPARING`` for each other; ties aside), and returns the keys ``k`` for which some such pair
    was checked."""
    event = _coin_swiss(160, 10, seed, settings)
    state = round_state(event, event.paired_rounds + 1)
    solver_ = Solver(Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False))
    c = solver_.c
    checked: set[int] = set()
    for mem in c.members:
        if len(mem) <= 2 * solver._WINDOW + 8:
            continue
        nodes = np.array(mem, dtype=np.int64)
        for v in mem:
            others = nodes[nodes != v]
            lo, hi = np.minimum(others, v), np.maximum(others, v)
            for k, key in enumerate(keys(c, v, others, lo, hi)):
                key = np.where(c.allowed_many(lo, hi), key, 1 << 20)
                kth = np.sort(key)[(solver._SPARING if k else solver._DRAWN) - 1]  # all below it, ties aside
                for x in others[key < kth].tolist():
                    assert (min(v, x), max(v, x)) in solver_.edges
                    checked.add(k)
    return checked


def test_under_colours_the_seeded_draw_takes_partners_that_spare_the_colours() -> None:
    """Under ``within_group: random`` with ``colours: alternate``, after a history with Player A by a coin (a
    quarter of a group may take neither colour, RULES.md 2.10), G' holds each player of a large group with its
    partners of lowest draw, with those of lowest colour levels, then draw, and a player who may take neither colour
    with those who may take neither, then of lowest colour preference, then draw (:meth:`Solver._lowest_draws`;
    ``_DRAWN`` and ``_SPARING`` of each)."""

    def keys(c: Costs, v: int, others: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[np.ndarray]:
        neither = ~c._white_ok & ~c._black_ok
        draws = pair_draw(c.key_array[lo], c.key_array[hi])
        levels = best_colours(c, lo, hi)
        found = [draws, levels * (1 << 16) + draws]
        if neither[v]:
            found.append((2 * ~neither[others] + levels % 2) * (1 << 16) + draws)
        return found

    assert _lowest_partners_held(Settings(colours="alternate", within_group="random", points="chess"), 7,
                                 keys) == {0, 1, 2}


def test_under_sides_the_seeded_draw_takes_partners_met_at_no_side_cost() -> None:
    """Under ``within_group: random`` with ``sides: single``, after a history with Player A by a coin (side biases
    spread, RULES.md 3), G' holds each player of a large group with its partners of lowest draw, and with those it
    meets at no side cost first, then by draw (:meth:`Solver._lowest_draws`; ``_DRAWN`` and ``_SPARING`` of each)."""

    def keys(c: Costs, v: int, others: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[np.ndarray]:
        draws = pair_draw(c.key_array[lo], c.key_array[hi])
        floors = c.side_floors(np.full(len(others), c.bias[v]), c._bias[others])
        return [draws, (floors > 0) * (1 << 16) + draws]

    assert _lowest_partners_held(Settings(sides="single", within_group="random"), 8, keys) == {0, 1}


def test_the_cheapest_start_keeps_every_edge_feasible() -> None:
    """Under ``within_group: random`` the start gives each player half its cheapest pair's weight, even, then its
    least slack in turn (:meth:`Solver._cheapest_start`): every edge of G' keeps slack >= 0, every player has a tight
    one, the pairs matched are tight, and some are."""
    event = _event(200, 5, drops=True)
    event = replace(event, settings=replace(event.settings, within_group="random"))
    result = random_results(5)
    for _ in range(6):
        event = add_round(event, pair_round(event), result)
    state = round_state(event, event.paired_rounds + 1)
    m = Solver(Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False))._matcher()
    assert all(x % 2 == 0 for x in m.p)
    assert all(w >= m.p[u] + m.p[v] for u in range(m.n) for v, w in m.adj[u].items())
    assert all(any(w == m.p[u] + m.p[v] for v, w in m.adj[u].items()) for u in range(m.n) if m.adj[u])
    matched = [(u, v) for u, v in enumerate(m.mate) if u < v]
    assert matched and all(m.adj[u][v] == m.p[u] + m.p[v] for u, v in matched)


@pytest.mark.parametrize("n,rounds,seed,below,chunk", [(200, 7, 32, 16, 8), (240, 9, 33, 8, 8), (300, 10, 35, 8, 4)])
def test_the_check_lists_every_failing_pair_under_random(n: int, rounds: int, seed: int, below: int, chunk: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The certificate's check under ``within_group: random`` (:meth:`Solver._check_drawn`), after a first solve on
    the candidate graph: exactly the pairs of the complete graph whose dual constraint fails, found here pair by
    pair. Some pairs of chunks are cleared by their bound, their pairs of low draw checked alone, and some are
    scanned whole."""
    monkeypatch.setattr(solver, "_BELOW", below)
    monkeypatch.setattr(solver, "_CHUNK", chunk)
    scans = [0]
    """Pairs of chunks that the check scanned whole."""
    depth = [-1]
    """-1 outside the chunks' check, else how deep in its scans."""
    scan, check = Solver._scan, Solver._check_drawn

    def counted(self: Solver, *args: object, **kwargs: object) -> None:
        scans[0] += depth[0] == 0
        depth[0] += depth[0] >= 0
        scan(self, *args, **kwargs)  # type: ignore[arg-type]
        depth[0] -= depth[0] > 0

    def chunked(self: Solver, *args: object) -> None:
        depth[0] = 0
        check(self, *args)  # type: ignore[arg-type]
        depth[0] = -1

    costs, solver_, m = _first_solve(n, seed, rounds, within_group="random")
    monkeypatch.setattr(Solver, "_scan", counted)
    monkeypatch.setattr(Solver, "_check_drawn", chunked)
    listed = {(i, j) for _, i, j in solver_._check(m, m.p)}
    monkeypatch.undo()
    pairs = sum(-(-len(costs.members[g]) // chunk) * (-(-len(costs.members[g]) // chunk) + 1) // 2
                for g in solver_._low_draws)
    assert 0 < scans[0] < pairs  # some pairs of chunks scanned whole, some cleared by their bound
    failing = _failing_pairs(costs, m)
    assert failing  # the first candidate graph misses pairs
    assert listed == failing


@pytest.mark.parametrize("within", ["slide", "fold"])
def test_pairs_beyond_the_split_are_scanned_blossom_by_blossom(within: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the potentials of two groups lie beyond the check's two 64-bit halves once the blossoms holding all
    their players are taken off (a blossom of z beyond the split holds all of them but a few), the players of
    each large blossom are scanned apart (:func:`solver._by_blossom`), each part with the blossoms holding it
    whole, and the few far ones pair by pair: with the split narrowed to the float balance level, the check lists
    exactly the pairs of the complete graph whose dual constraint fails, found here pair by pair (300 players after
    10 rounds, where a first solve leaves such blossoms)."""
    costs, solver_, m = _first_solve(300, 44, 10, within_group=within, avoid_same_club="no")
    parted: list[int] = []
    by_blossom = solver._by_blossom

    def counted(m: Matcher, nodes: Sequence[int]) -> list[list[int]]:
        parts = by_blossom(m, nodes)
        parted.append(len(parts))
        return parts

    monkeypatch.setattr(solver, "_WIDE", costs.multipliers[BALANCE])
    monkeypatch.setattr(solver, "_by_blossom", counted)
    listed = {(i, j) for _, i, j in solver_._check(m, m.p)}
    monkeypatch.undo()
    assert parted  # the case occurred
    failing = _failing_pairs(costs, m)
    assert listed == failing


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
    state = round_state(event, event.paired_rounds + 1)
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
        met = j != costs.bye and frozenset((state.order[i], state.order[j])) in state.met
        expected = oracle_levels(event, state, i, j, met)
        got = costs.levels(i, j)
        assert [v * (costs.score_scale if k == SCORE else 1) for k, v in enumerate(expected[:RANDOM])] == got[:RANDOM]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(30, 120), st.integers(2, 10), st.integers(0, 10**6),
       st.sampled_from([{}, {"colours": "alternate", "points": "chess"}, {"sides": "single"},
                        {"avoid_same_club": "always"}]))
def test_a_clean_pair_pays_nothing_above_the_pattern(n: int, rounds: int, seed: int, mode: dict[str, str]) -> None:
    """:meth:`Costs.clean` prices a pair inside one group by the levels such a pair can pay only: it agrees with
    every level above the pattern, for pairs inside groups (after a history with sides and colours by a coin,
    so that those levels vary) and for pairs across groups or with the bye."""
    event = _coin_swiss(n, rounds, seed, Settings(seed=seed, **mode))  # type: ignore[arg-type]
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=True)
    rng = random.Random(seed)
    inside = [(rng.choice(mem), rng.choice(mem)) for mem in costs.members for _ in range(20) if len(mem) > 1]
    inside = [(a, b) for a, b in inside if a != b]
    anywhere = [(rng.randrange(costs.n), rng.randrange(costs.nodes)) for _ in range(50)]
    for pairs in (inside, [(a, b) for a, b in anywhere if a != b]):
        i, j = np.array([a for a, _ in pairs], dtype=np.int64), np.array([b for _, b in pairs], dtype=np.int64)
        every = costs.level_table(i, j)[:, :PATTERN].sum(axis=1) == 0
        assert costs.clean(i, j).tolist() == every.tolist()
    assert inside


@pytest.mark.parametrize("seed", [1, 2])
def test_the_better_colour_choice_is_the_lesser_assignment(seed: int) -> None:
    """:func:`best_colours` looks the better colour choice up by the two players' colour kinds: it equals the lesser
    of :func:`colour_assignment` both ways (RULES.md 2.10) for every pair, after a history with colours by a coin
    (players of eight kinds: may or may not take White, Black, each due White or Black)."""
    event = _coin_swiss(160, 11, seed, Settings(seed=seed, points="chess", colours="alternate"))
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    i, j = np.triu_indices(costs.nodes, 1)
    both = np.minimum(colour_assignment(costs, i, j), colour_assignment(costs, j, i))
    assert best_colours(costs, i, j).tolist() == both.tolist()
    assert len(set(costs._colour_kind.tolist())) >= 6


def test_pairing_reports_its_proof() -> None:
    event = _event(50, 3, drops=False)
    event, result = replace(event, settings=replace(event.settings, within_group="slide")), random_results(3)
    for _ in range(3):
        event = add_round(event, pair_round(event), result)
    proof = pair_round(event).proof
    assert proof is not None and (proof.proven or proof.gap != 0)


@pytest.fixture
def sparse_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No complete-graph fallback: every field goes through the sparse solve and its certificate."""
    monkeypatch.setattr(solver, "_COMPLETE", 0)


def _shared_z(m: Matcher, u: int, v: int) -> int:
    """Z_uv by walking up the blossoms above ``u`` and ``v`` (the definition :class:`Nesting` speeds up)."""
    above = set()
    x = u
    while m.parent[x] != -1:
        x = m.parent[x]
        above.add(x)
    total = 0
    x = v
    while m.parent[x] != -1:
        x = m.parent[x]
        if x in above:
            total += m.z[x]
    return total


def _run_in_two_parts(m: Matcher, rng: random.Random, top: int, density: float, all_first: bool,
                      most: int | None = None) -> dict[tuple[int, int], int]:
    """Random even weights below ``2 * top`` on about ``density`` of the pairs of ``m``'s vertices (a perfect
    matching always among them); ``m`` runs from arbitrary feasible potentials on the edges of a random first
    part (all of them with ``all_first``), then again with the others added and repaired, and must end with a
    perfect matching; with ``most``, the free vertices bid before each run (:meth:`Matcher.bid`), which must
    keep every edge feasible, the matched ones tight and the blossoms as they were, and not lower the dual
    objective. Returns the weights."""
    n = m.n
    weights = {(i, j): 2 * rng.randrange(top) for i in range(n) for j in range(i + 1, n) if rng.random() < density}
    for i in range(0, n, 2):
        weights.setdefault((i, i + 1), 2 * rng.randrange(top))
    edges = list(weights)
    rng.shuffle(edges)
    start = len(edges) if all_first else rng.randrange(len(edges))
    for u, v in edges[:start]:
        m.add_edge(u, v, weights[u, v])
    m.p = [-2 * top - rng.randrange(3) for _ in range(n)]

    def run() -> list[int]:
        if most is not None:
            before, blossoms = m.dual(), [list(c) for c in m.childs]
            m.bid(most)
            assert m.dual() >= before and [list(c) for c in m.childs] == blossoms
            for u, v in weights:
                if v in m.adj[u]:
                    slack = m.adj[u][v] - m.p[u] - m.p[v] + _shared_z(m, u, v)
                    assert slack >= 0 and (m.mate[u] != v or slack == 0)
        return m.run()

    run()
    for u, v in edges[start:]:
        m.add_edge(u, v, weights[u, v])
        m.repair(u, v)
    assert run() == []
    return weights


def test_a_repair_keeps_the_pair_where_the_partner_has_room() -> None:
    """An added edge that the duals fail lowers one end; its partner rises by as much where every other edge of
    the partner allows it (the pair stays matched, the dual objective stays), else both are freed."""
    m = Matcher(4)
    for u, v, w in [(0, 1, 10), (2, 3, 10), (1, 2, 20)]:
        m.add_edge(u, v, w)
    m.p, m.mate = [5, 5, 5, 5], [1, 0, 3, 2]
    before = m.dual()
    m.add_edge(0, 2, 4)
    m.repair(0, 2)
    assert (m.p, m.mate, m.dual()) == ([5, 5, -1, 11], [1, 0, 3, 2], before)
    m.add_edge(1, 3, 10)  # slack 10 - 5 - 11 < 0: 3's partner 2 has no room (its edge to 0 is tight)
    m.repair(1, 3)
    assert (m.p, m.mate) == ([5, 5, -1, 5], [1, 0, -1, -1])


@pytest.mark.parametrize("bids", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_matcher_is_exact_and_its_duals_prove_it(seed: int, bids: bool) -> None:
    """Edmonds' solver started from arbitrary feasible potentials, with edges added (and repaired) between
    runs, and with or without the free vertices' bids before each run (their rises capped at a random
    bound): networkx's minimum, and duals that certify it (every edge's slack >= 0, matched edges tight, the
    dual objective equal to the cost)."""
    rng = random.Random(seed)
    n = rng.choice([4, 8, 14, 24, 40, 60])
    m = Matcher(n)
    top = rng.choice([3, 50, 10**22])
    most = 2 * rng.randrange(1, 4 * top) if bids else None
    weights = _run_in_two_parts(m, rng, top, 0.5, all_first=False, most=most)
    best = min_cost_perfect_matching(list(range(n)), weights)
    assert best is not None
    nest = Nesting(m)
    cost = 0
    for (u, v), w in weights.items():
        z = _shared_z(m, u, v)
        assert nest(u, v) == z
        assert w - m.p[u] - m.p[v] + z >= 0
        if m.mate[u] == v:
            assert w - m.p[u] - m.p[v] + z == 0
            cost += w
    assert cost == sum(weights[e] for e in best) == m.dual()
    if nest.small:
        pairs = np.array(list(weights))
        assert nest.many(pairs[:, 0], pairs[:, 1]).tolist() == [_shared_z(m, u, v) for u, v in weights]
    for u, v in weights:  # Z less the z of the blossoms holding u, v and a third vertex, in two halves
        base = nest.common([u, v, rng.randrange(n)])
        high, low = nest.split(np.array([u]), np.array([v]), base)
        assert int(high[0]) * 2**blossom.SPLIT + int(low[0]) == _shared_z(m, u, v) - base


def _random_matcher(rng: random.Random, n: int, top: int, density: float, kind: type[Matcher] = Matcher
                    ) -> tuple[Matcher, dict[tuple[int, int], int]]:
    """A matcher (of class ``kind``) on random even weights below ``2 * top`` on about ``density`` of the pairs of
    ``n`` vertices (a perfect matching always among them), every edge added, from arbitrary feasible potentials; and
    the weights."""
    weights = {(i, j): 2 * rng.randrange(top) for i in range(n) for j in range(i + 1, n) if rng.random() < density}
    for i in range(0, n, 2):
        weights.setdefault((i, i + 1), 2 * rng.randrange(top))
    m = kind(n)
    for (u, v), w in weights.items():
        m.add_edge(u, v, w)
    m.p = [-2 * top - rng.randrange(3) for _ in range(n)]
    return m, weights


@pytest.mark.parametrize("seed", range(30))
def test_a_capped_run_stops_with_feasible_duals_and_the_next_one_is_exact(seed: int) -> None:
    """:meth:`Matcher.run` with a cap: a search whose duals would change by more stops, its root left free, and
    every edge keeps slack >= 0, every matched edge slack 0, every blossom z >= 0, with the dual objective no
    lower than before; run again without the cap, the matching is networkx's minimum and the duals prove it."""
    rng = random.Random(seed)
    n = rng.choice([8, 14, 24, 40])
    top = rng.choice([50, 10**6])
    m, weights = _random_matcher(rng, n, top, 0.4)
    before = m.dual()
    assert m.run(cap=rng.randrange(1, top)) == []
    assert m.dual() >= before and all(z >= 0 for z in m.z)
    for (u, v), w in weights.items():
        slack = w - m.p[u] - m.p[v] + _shared_z(m, u, v)
        assert slack >= 0 and (m.mate[u] != v or slack == 0)
    assert m.run() == [] and -1 not in m.mate
    best = min_cost_perfect_matching(list(range(n)), weights)
    assert best is not None
    cost = sum(w for (u, v), w in weights.items() if m.mate[u] == v)
    assert cost == sum(weights[e] for e in best) == m.dual()


def test_a_flattened_matcher_keeps_its_duals_feasible_without_blossoms() -> None:
    """:meth:`Matcher.flatten` dissolves every blossom: each edge keeps slack >= 0 with Z = 0, each matched edge left
    stays tight, and only the bases of blossoms with z > 0 lose their mates."""
    flattened = 0
    for seed in range(40):
        rng = random.Random(seed)
        m, weights = _random_matcher(rng, rng.choice([14, 24, 40]), 10**6, 0.3)
        assert m.run() == []
        if not m.nested():
            continue
        flattened += 1
        held = sum(1 for b in range(m.n, 2 * m.n) if m.childs[b] and m.z[b] > 0)
        m.flatten()
        assert all(m.parent[v] == -1 for v in range(m.n)) and not m.nested()
        for (u, v), w in weights.items():
            assert w - m.p[u] - m.p[v] >= 0 and (m.mate[u] != v or w == m.p[u] + m.p[v])
        assert 0 < m.mate.count(-1) <= 2 * held
    assert flattened > 5


@pytest.mark.parametrize("seed", range(30))
def test_a_restored_matcher_goes_back_to_its_saved_duals_and_carries_on_exact(seed: int) -> None:
    """:meth:`Matcher.saved` after a capped run (blossoms, free vertices), then a run to the end, then edges added that
    the saved duals keep feasible: :meth:`Matcher.restore` gives back the saved potentials, mates and blossoms (twice
    from the same save), and the run from there is networkx's minimum over every edge, proven by its duals. Where
    :meth:`Matcher.weighted` reads a node the same before and after a run, its Z_uv with every such node stays."""
    rng = random.Random(seed)
    n = rng.choice([14, 24, 40])
    top = rng.choice([50, 10**6])
    m, weights = _random_matcher(rng, n, top, 0.5)
    later = dict(rng.sample(sorted(weights.items()), len(weights) // 3))
    for u, v in later:
        del m.adj[u][v], m.adj[v][u]
    assert m.run(cap=rng.randrange(1, top)) == []
    saved = m.saved()
    ids: dict[tuple[int, int, int], int] = {}
    state = (m.p[:], m.mate[:], [list(c) for c in m.childs], m.z[:], m.weighted(ids))
    shared = {(u, v): _shared_z(m, u, v) for u in range(n) for v in range(u + 1, n)}
    for _ in range(2):
        assert m.run() == []
        now, then = m.weighted(ids), state[4]  # a node held by the same blossoms keeps Z_uv with each such node
        assert all(_shared_z(m, u, v) == z for (u, v), z in shared.items() if now[u] == then[u] and now[v] == then[v])
        for (u, v), w in later.items():
            if w >= m.p[u] + m.p[v] - _shared_z(m, u, v) or rng.random() < 0.5:
                m.add_edge(u, v, w)
        m.restore(saved)
        assert (m.p, m.mate, [list(c) for c in m.childs], m.z, m.weighted(ids)) == state
    kept = {(u, v): w for (u, v), w in weights.items() if v in m.adj[u]}
    for (u, v), w in kept.items():  # the saved duals were feasible on every edge, added ones too
        if w < m.p[u] + m.p[v] - _shared_z(m, u, v):
            m.repair(u, v)
    assert m.run() == [] and -1 not in m.mate
    best = min_cost_perfect_matching(list(range(n)), kept)
    assert best is not None
    cost = sum(w for (u, v), w in kept.items() if m.mate[u] == v)
    assert cost == sum(kept[e] for e in best) == m.dual()


class _EveryEdge(Matcher):
    """A matcher whose searches scan every edge of each vertex, with a cap too."""

    def _edges(self, v: int) -> Iterable[tuple[int, int]]:
        return self.adj[v].items()


@pytest.mark.parametrize("seed", range(30))
def test_a_capped_run_that_leaves_out_slack_edges_ends_as_one_that_scans_them(seed: int) -> None:
    """A run with a cap scans only the edges within 64 caps of tight (:attr:`Matcher._near`), as the potentials
    drift from stage to stage: run after run, with caps from a thousandth of the weights to all of them and then
    none, the matching, potentials and blossoms are those of a matcher that scans every edge."""
    rng = random.Random(seed)
    n = rng.choice([14, 24, 40, 80])
    top = 10**6
    m, weights = _random_matcher(rng, n, top, 0.4)
    m.p = [min(m.adj[v].values(), default=0) // 2 for v in range(n)]
    full = _EveryEdge(n)
    for (u, v), w in weights.items():
        full.add_edge(u, v, w)
    full.p = list(m.p)
    for cap in [top // 1000, top // 100, top // 10, top, None]:
        assert m.run(cap) == full.run(cap)
        assert (m.mate, m.p, m.z, m.parent) == (full.mate, full.p, full.z, full.parent)
    assert -1 not in m.mate


class _CheckedTops(Matcher):
    """A matcher that checks each :meth:`Matcher.outermost` against the walk up the parents from the vertex itself,
    counting the look-ups whose first step jumps past a parent (:attr:`Matcher._jump`) and those whose noted
    blossom has opened since (:attr:`Matcher._opened`); that no vertex notes an opened blossom once they are made
    spare again (:meth:`Matcher._reuse`); and each child that :meth:`Matcher._entered` finds, against the walk up
    the parents, counting those it took from the blossoms listed before."""

    jumped = 0
    opened = 0
    listed = 0
    reused = 0

    def outermost(self, v: int) -> int:
        t = v
        while self.parent[t] != -1:
            t = self.parent[t]
        cached = self.top[v]
        j = self._jump[cached]
        _CheckedTops.jumped += (self.parent[cached] not in (-1, j) and j != cached and bool(self.childs[j])
                                and self._born[j] == self._stamp[cached])
        _CheckedTops.opened += self.parent[cached] == cached
        found = super().outermost(v)
        assert found == t
        return found

    def _reuse(self) -> None:
        super()._reuse()
        _CheckedTops.reused += 1
        assert all(self.parent[self.top[v]] != self.top[v] for v in range(self.n))

    def _entered(self, v: int, b: int) -> int:
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        last, above = self._above
        _CheckedTops.listed += last == v and len(above) > 1 and above[-1][0] == b
        found = super()._entered(v, b)
        assert found == t
        return found


def test_the_outermost_blossom_is_found_through_jumps_as_through_parents() -> None:
    """Small weights make blossoms nest deep, tree after tree: every look-up of a vertex's top-level blossom that
    jumps over the levels it compressed before, or starts again from the vertex where the blossom it noted has
    opened (such blossoms reused once every vertex was looked up anew), finds the blossom the parents lead to,
    through expansions and a restore (the blossoms closed since the save opened, the saved ones closed again);
    each expansion finds the child holding the vertex it was entered by, from the blossoms listed at an expansion
    before where it can; and the runs end in networkx's minimum."""
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.choice([14, 24, 40, 80])
        m, weights = _random_matcher(rng, n, rng.choice([3, 6]), 0.4, _CheckedTops)
        assert m.run(cap=rng.randrange(1, 4)) == []
        saved = m.saved()
        assert m.run() == []
        m.restore(saved)
        assert m.run() == [] and -1 not in m.mate
        best = min_cost_perfect_matching(list(range(n)), weights)
        assert best is not None
        cost = sum(w for (u, v), w in weights.items() if m.mate[u] == v)
        assert cost == sum(weights[e] for e in best) == m.dual()
    assert _CheckedTops.jumped > 100
    assert _CheckedTops.opened > 100
    assert _CheckedTops.listed > 10
    assert _CheckedTops.reused > 10


class _CheckedExpansions(Matcher):
    """A matcher that checks, at each expansion of an inner blossom, that every vertex leaving the tree has
    its earliest edge from an outer vertex queued (:meth:`Matcher._expand_inner` takes it from the slacks noted
    while the blossom was inner instead of rescanning the vertex's edges), and that a large blossom outer again
    queues the least-slack edge to each vertex outside it, and that each stage augments by the earliest time
    queued for an edge to a free blossom."""

    leaving = 0
    listed = 0
    augments = 0

    def _expand_inner(self, b: int) -> None:
        held = list(self._leaves(b))
        super()._expand_inner(b)
        for v in held:
            if self._label[self.outermost(v)]:
                continue
            _CheckedExpansions.leaving += 1
            due = [self._delta + w - self._pot(u) - self.p[v] for u, w in self.adj[v].items()
                   if self._label[self.outermost(u)] == blossom._OUTER]
            if due and min(due) < self._limit:
                assert self._best.get(v) == min(due)
            else:  # due after the stage ends (:attr:`Matcher._limit`), if at all: not needed
                assert self._best.get(v, self._limit) >= self._limit

    def _outer(self, b: int, via: tuple[int, int] | None) -> None:
        """A large blossom scanned before queues, for each vertex outside it, the first of its edges of least
        slack now (:meth:`Matcher._list_outside`), as rescanning every edge of every vertex would."""
        listed = self._outside.get(b)
        if listed is not None:
            _CheckedExpansions.listed += 1
            inside = set(self._leaves(b))
            least: dict[int, tuple[int, int, int]] = {}
            for v in self._leaves(b):
                for u, w in self.adj[v].items():
                    if u not in inside and (u not in least or w - self._pot(v) < least[u][0]):
                        least[u] = (w - self._pot(v), v, w)
            assert {u: (v, w) for v, out in listed for u, w in out} == {u: (v, w) for u, (_, v, w) in least.items()}
        super()._outer(b, via)

    def _augment(self, a: int, b: int) -> None:
        """A stage ends no later than the earliest edge queued to a free blossom (:attr:`Matcher._limit`): the
        events that would come after it are not queued at all."""
        _CheckedExpansions.augments += 1
        assert self._delta <= self._limit
        super()._augment(a, b)


def test_vertices_leaving_an_expanded_blossom_keep_their_earliest_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small weights make many ties, blossoms and expansions: at each expansion every vertex that leaves the
    tree has the earliest of its edges from the tree queued, found without rescanning its edges; a blossom of
    four or more vertices (16 or more in use) queues one edge to each vertex outside it; and every run still
    ends in networkx's minimum with duals that prove it."""
    monkeypatch.setattr(blossom, "_LISTED", 4)
    for seed in range(70):
        rng = random.Random(seed)
        n = rng.choice([8, 14, 24, 40]) if seed < 60 else 80  # the larger ones: blossoms met by tree after tree
        m = _CheckedExpansions(n)
        weights = _run_in_two_parts(m, rng, rng.choice([3, 6, 50]), 0.4, all_first=seed >= 60)
        best = min_cost_perfect_matching(list(range(n)), weights)
        assert best is not None
        cost = sum(w for (u, v), w in weights.items() if m.mate[u] == v)
        assert cost == sum(weights[e] for e in best) == m.dual()
    assert _CheckedExpansions.leaving and _CheckedExpansions.listed and _CheckedExpansions.augments  # they occurred


def test_bids_match_free_vertices_and_leave_the_searches_less() -> None:
    """On a random assignment (even random weights on every pair of 60 vertices, each vertex at its least
    slack), the bids match most free vertices, keep every edge feasible and the matched ones tight, and the
    searches then reach networkx's minimum."""
    rng = random.Random(7)
    n = 60
    weights = {(i, j): 2 * rng.randrange(1000) for i in range(n) for j in range(i + 1, n)}
    m = Matcher(n)
    for (u, v), w in weights.items():
        m.add_edge(u, v, w)
    m.p = [min(m.adj[v].values()) // 2 & ~1 for v in range(n)]
    m.bid(2000)
    assert m.mate.count(-1) <= n // 4
    for (u, v), w in weights.items():
        assert w - m.p[u] - m.p[v] >= 0 and (m.mate[u] != v or w == m.p[u] + m.p[v])
    assert m.run() == []
    best = min_cost_perfect_matching(list(range(n)), weights)
    assert best is not None
    assert sum(w for (u, v), w in weights.items() if m.mate[u] == v) == sum(weights[e] for e in best) == m.dual()


@pytest.mark.parametrize("seed", range(30))
def test_matcher_carries_on_after_edges_get_dearer(seed: int) -> None:
    """Edges made dearer after a run (as a boundary whose z_k goes to 0 makes its crossing pairs,
    :meth:`Solver.solve`), then a run that carries on from there: networkx's minimum for the new weights, with
    duals that prove it."""
    rng = random.Random(seed)
    n = rng.choice([8, 14, 24, 40])
    top = rng.choice([3, 6, 50])
    m, weights = _random_matcher(rng, n, top, 0.5)
    assert m.run() == []
    matched = [(u, v) for (u, v) in weights if m.mate[u] == v]
    dearer = rng.sample(matched, max(1, len(matched) // 3)) + rng.sample(list(weights), len(weights) // 4)
    for u, v in dearer:
        weights[u, v] += 2 * rng.randrange(1, top + 1)
        m.raise_edge(u, v, weights[u, v])
    assert m.run() == []
    best = min_cost_perfect_matching(list(range(n)), weights)
    assert best is not None
    cost = 0
    for (u, v), w in weights.items():
        slack = w - m.p[u] - m.p[v] + _shared_z(m, u, v)
        assert slack >= 0
        if m.mate[u] == v:
            assert slack == 0
            cost += w
    assert cost == sum(weights[e] for e in best) == m.dual()
    with pytest.raises(ValueError, match="dearer"):
        m.raise_edge(*dearer[0], weights[dearer[0]] - 2)


def test_matcher_reports_a_tree_without_augmenting_path() -> None:
    """A star has no perfect matching: the search from its centre's side gets stuck."""
    m = Matcher(4)
    for leaf in (1, 2, 3):
        m.add_edge(0, leaf, 2)
    assert m.run()


def _varied_event(n: int, seed: int) -> Event:
    """A field with drops, late entries, clubs, and settings drawn from the options that change the cost."""
    rng = random.Random(seed)
    players = []
    for i in range(n):
        drop = rng.choice([None] * 5 + [2, 3, 5])
        players.append(Player(name=f"p{i:03d}", rating=rng.randrange(1000, 2500), row=i + 2,
                              joined=rng.choice([1] * 8 + [2, 3]), dropped=drop is not None, dropped_after=drop,
                              club=rng.choice(["", "a", "b", "c"])))
    return Event(settings=Settings(
        seed=seed, points=rng.choice(["chess", "hct", "armati"]),
        within_group=rng.choice(["slide", "slide", "fold"] + (["random"] if n <= 60 else [])),
        avoid_same_club=rng.choice(["no", "first_round", "always"]),
        bye_choice=rng.choice(["lowest_ranked", "random_lowest_group"]),
        score_distance=rng.choice(["groups", "wins", "points"]), accelerated=rng.random() < 0.2),
        players=tuple(players))


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed", [(17, 8, 11), (30, 7, 12), (45, 6, 13), (60, 8, 14),
                                           pytest.param(99, 5, 15, marks=pytest.mark.slow),
                                           pytest.param(120, 4, 16, marks=pytest.mark.slow),
                                           pytest.param(160, 3, 17, marks=pytest.mark.slow),
                                           pytest.param(251, 2, 18, marks=pytest.mark.slow)])
def test_sparse_solve_is_exact_on_varied_events(n: int, rounds: int, seed: int) -> None:
    """Drops, late entries, byes, odd groups, clubs, every pattern and score distance: the sparse solve's
    pairing costs networkx's minimum on the complete graph, and a proven pairing is that minimum."""
    event = _varied_event(n, seed)
    result = random_results(seed)
    for _ in range(rounds):
        _check_round(event)
        event = add_round(event, pair_round(event), result)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed,rounds", [(20, 0, 3), (20, 1, 4), (20, 2, 5), (20, 1, 7), (30, 1, 4),
                                           (30, 2, 7), (30, 3, 6)])
def test_a_boundary_crossed_three_times_is_solved_again_without_its_dual(n: int, seed: int, rounds: int) -> None:
    """Varied float balances, rounds 3-8: on the reduced costs the cheapest pairing crosses an odd score
    boundary three times (each extra float is discounted by that boundary's z_k, which holds balance and
    position costs), so its bound falls short. The engine sets those z_k to 0 and solves again: the pairing
    is then proven, and it is networkx's minimum on the complete graph."""
    event = _event(n, seed, drops=True)
    result = random_results(seed)
    for _ in range(rounds):
        event = add_round(event, pair_round(event), result)
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    costs = Costs(event, state, pool, rematches=False)
    solver = Solver(costs)
    before = list(costs.boundary_dual)
    solved = solver.solve()
    assert solved is not None
    mate, proof = solved
    assert any(b > 0 and a == 0 for b, a in zip(before, costs.boundary_dual))  # the case occurred
    got = sum(costs.encode(u, v) for u, v in mate.items() if u < v)
    assert proof.proven and got == _reference_cost(event, pool, rematches=False)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed", [(9, 21), (12, 22), (14, 23), (15, 24)])
def test_rematch_dense_rounds_without_the_fallback(n: int, seed: int) -> None:
    """Small fields played past n - 1 rounds: second byes and rematches become necessary. The sparse solve
    decides exactly when no pairing exists (a Tutte barrier once the stuck players have all their pairs)
    and otherwise finds and proves the minimum."""
    event = _event(n, seed, drops=False)
    result = random_results(seed)
    for _ in range(n + 2):
        _check_round(event)
        event = add_round(event, pair_round(event), result)


def test_a_large_field_with_club_constraints_is_proven() -> None:
    """Round 1 of 700 players with clubs kept apart (level 2, above the score): about a fifth of the ideal
    pairs share a club, so the slide shifts all over the group; still proven optimal."""
    event = _varied_event(700, 2)
    event = replace(event, settings=replace(event.settings, avoid_same_club="always", within_group="slide"))
    proof = pair_round(event).proof
    assert proof is not None and proof.proven and proof.method == "sparse graph, LP duals"


@pytest.mark.slow
@pytest.mark.parametrize("complete", [0, 10_000])
def test_fallback_when_the_widening_does_not_settle(monkeypatch: pytest.MonkeyPatch, complete: int) -> None:
    """With a single round of widening, fields that need more fall back: small ones to the complete graph
    (exact by construction), large ones to the pairing optimal on G' with the gap that the repaired duals
    still prove, which never claims more than the true minimum allows."""
    monkeypatch.setattr(solver, "_ROUNDS", 1)
    monkeypatch.setattr(solver, "_COMPLETE", complete)
    fell_back = 0
    for seed in (31, 32, 33):
        event = _event(90, seed, drops=True)
        result = random_results(seed)
        for _ in range(5):
            state = round_state(event, event.paired_rounds + 1)
            pool = state.bye_eligible or frozenset(state.order)
            solved = _solve(event, state, pool, False)
            best = _reference_cost(event, pool, rematches=False)
            if solved is not None and best is not None:
                matching, proof = solved.matching, solved.proof
                got = sum(Costs(event, state, pool, False).encode(i, j) for i, j in matching)
                fell_back += proof.widenings == 1
                assert not proof.proven or proof.gap == 0
                if complete or proof.proven:
                    assert got == best
                elif proof.gap >= 0:
                    assert got - proof.gap <= best
            event = add_round(event, pair_round(event), result)
    assert fell_back


def _play_round(event: Event, result: Callable[[str, str], str]) -> Event:
    """``event`` with its next round paired and played; under ``sides: double`` each match is two rows, one
    per side (RULES.md 3)."""
    pairing = pair_round(event)
    if event.settings.sides != "double":
        return add_round(event, pairing, result)
    row = max((g.row for g in event.games), default=1)
    games = []
    for t in pairing.tables:
        for a, b in ((t.a, t.b), (t.b, t.a)) if t.b is not None else ((t.a, None),):
            row += 1
            text = "bye" if b is None else result(a, b)
            games.append(Game(round=pairing.round, table=t.number, a=a, b=b, result=Result.parse(text), row=row,
                              cell=f"Results!E{row}"))
    return replace(event, games=event.games + tuple(games))


def _mode_event(mode: str, n: int, seed: int) -> Event:
    """A field with drops and late entries under one pairing mode: colours, sides (single, double), huge clubs
    kept apart always, acceleration, or the seeded draw inside each score group (alone or with colours)."""
    event = _varied_event(n, seed)
    extra: dict[str, object] = {
        "colours": {"colours": "alternate", "points": "chess"},
        "single": {"sides": "single", "points": "magic"},
        "double": {"sides": "double", "points": "magic"},
        "clubs": {"avoid_same_club": "always", "points": "chess"},
        "accelerated": {"accelerated": True, "points": "chess"},
        "drawn": {"within_group": "random", "points": "chess"},
        "colours drawn": {"colours": "alternate", "within_group": "random", "points": "chess"},
        "colours fold": {"colours": "alternate", "within_group": "fold", "points": "chess"},
        "single fold": {"sides": "single", "within_group": "fold", "points": "magic"},
        "single drawn": {"sides": "single", "within_group": "random", "points": "magic"},
    }[mode]
    players = event.players
    if mode == "clubs":
        players = tuple(replace(p, club=("north", "south")[i % 2]) for i, p in enumerate(players))
    return replace(event, players=players, settings=replace(event.settings, **extra))  # type: ignore[arg-type]


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("mode,n,rounds,seed", [
    ("colours", 30, 9, 51), ("colours", 61, 7, 52), ("single", 24, 8, 53), ("double", 41, 6, 54),
    ("clubs", 50, 6, 55), ("accelerated", 44, 4, 56), ("single", 33, 11, 57), ("single", 12, 16, 58),
    ("single", 47, 7, 59), ("double", 90, 8, 60), ("drawn", 56, 8, 202), ("colours drawn", 48, 8, 203),
    ("colours fold", 70, 8, 204), ("single fold", 64, 9, 205), ("single drawn", 58, 8, 208),
])
def test_every_mode_is_exact(mode: str, n: int, rounds: int, seed: int) -> None:
    """Colours, sides single and double, huge clubs kept apart, acceleration, the seeded draw inside each score group
    (with colours or sides too), colours and sides single under ``within_group: fold`` (whose groups start from their
    rings as under ``slide``), each with drops and late entries, late into the event: the engine's pairing costs
    networkx's minimum on the complete graph, and a proven pairing is that minimum (the proof never passes a pairing the
    complete graph improves on). Under ``sides: single`` odd fields take byes, side biases reach 3 late in the event,
    and 12 players over 16 rounds meet both ways, so the rematch fallback comes in."""
    event = _mode_event(mode, n, seed)
    result = random_results(seed)
    for _ in range(rounds):
        _check_round(event)
        event = _play_round(event, result)


class _BothChecks(Solver):
    """A solver whose every check of the pairs with a changed end (:meth:`Solver._check` with ``changed``) is
    compared with the check of every pair, and counted: the same failing pairs, and with a margin, of the pairs
    that hold by less, some of those only (those with a changed end)."""

    partial = 0

    def _check(self, m: Matcher, d: Sequence[int], changed: np.ndarray | None = None, margin: int = 0
               ) -> list[tuple[int, int, int]]:
        found = super()._check(m, d, changed, margin)
        if changed is not None:
            _BothChecks.partial += 1
            whole = super()._check(m, d, None, margin)
            assert {(min(i, j), max(i, j)) for slack, i, j in found if slack < 0} == \
                {(min(i, j), max(i, j)) for slack, i, j in whole if slack < 0}
            assert set(found) <= set(whole)
        return found


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("mode,n,rounds,seed", [
    ("single", 120, 8, 101), ("colours", 150, 9, 102), ("double", 200, 9, 106), ("clubs", 140, 6, 104),
    ("single", 200, 11, 105), ("drawn", 240, 9, 107),
])
def test_a_check_of_the_changed_ends_finds_what_a_whole_check_finds(mode: str, n: int, rounds: int, seed: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """After a check that listed every failing pair, the next one looks only at the pairs with an end whose
    potential or blossoms changed (:meth:`_Checked.changed`): round after round, it lists the same pairs as a
    check of every pair would, and the pairing is proven. Under the seeded draw the groups' pairs of low draw are
    kept and their players bounded in chunks (:meth:`Solver._check_drawn`), small enough for these groups."""
    monkeypatch.setattr(solver, "_BELOW", 16)
    monkeypatch.setattr(solver, "_CHUNK", 8)
    event = _mode_event(mode, n, seed)
    result = random_results(seed)
    _BothChecks.partial = 0
    for _ in range(rounds):
        state = round_state(event, event.paired_rounds + 1)
        pool = state.bye_eligible or frozenset(state.order)
        solved = _BothChecks(Costs(event, state, pool, False)).solve()
        assert solved is not None and solved[1].proven
        event = _play_round(event, result)
    assert _BothChecks.partial > 0


@pytest.mark.slow
@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("mode,n,rounds,seed", [
    ("colours", 180, 11, 61), ("double", 160, 9, 62), ("clubs", 200, 7, 63), ("accelerated", 150, 3, 64),
    ("single", 150, 10, 65), ("colours", 240, 13, 66), ("single", 201, 12, 67), ("single", 96, 15, 68),
    ("single", 300, 4, 69), ("colours fold", 200, 11, 70), ("single fold", 220, 10, 71),
])
def test_every_mode_is_exact_on_larger_fields(mode: str, n: int, rounds: int, seed: int) -> None:
    """The same as :func:`test_every_mode_is_exact` on a few hundred players, in the last rounds only."""
    event = _mode_event(mode, n, seed)
    result = random_results(seed)
    for r in range(rounds):
        if r >= rounds - 2:
            _check_round(event)
        event = _play_round(event, result)


def _lopsided_sides(n: int, rounds: int, seed: int) -> Event:
    """``sides: single`` after ``rounds`` rounds paired at random with the higher-listed player always on side 1,
    so that side biases spread to +-3 and beyond (a spread the engine itself never lets happen)."""
    rng = random.Random(seed)
    players = tuple(Player(name=f"p{i:03d}", rating=rng.randrange(1000, 2500), row=i + 2) for i in range(n))
    event = Event(settings=Settings(seed=seed, points="magic", sides="single"), players=players)
    result = random_results(seed)
    games: list[Game] = []
    for round_ in range(1, rounds + 1):
        names = [p.name for p in players]
        rng.shuffle(names)
        for k in range(0, n - 1, 2):
            a, b = sorted(names[k:k + 2])
            row = len(games) + 2
            games.append(Game(round=round_, table=k // 2 + 1, a=a, b=b, result=Result.parse(result(a, b)), row=row,
                              cell=f"Results!E{row}"))
        if n % 2:
            row = len(games) + 2
            games.append(Game(round=round_, table=None, a=names[-1], b=None, result=Result.parse("bye"), row=row,
                              cell=f"Results!E{row}"))
    return replace(event, games=tuple(games))


def _coin_swiss(n: int, rounds: int, seed: int, settings: Settings) -> Event:
    """An event under ``settings`` after ``rounds`` rounds paired as a plain Swiss would, by score with no regard
    to sides or colours (the next player not met, from the top), Player A drawn by a coin. Under ``sides: single``
    whole blocks of one bias end up floating to several groups at once; under ``colours: alternate`` a fifth of
    the players may take neither colour by round 10 (RULES.md 2.10)."""
    rng = random.Random(seed)
    players = tuple(Player(name=f"p{i:03d}", rating=rng.randrange(1000, 2500), row=i + 2) for i in range(n))
    event = Event(settings=settings, players=players)
    result = random_results(seed)
    games: list[Game] = []
    score = dict.fromkeys((p.name for p in players), 0.0)
    met: dict[str, set[str]] = {p.name: set() for p in players}
    rating = {p.name: p.rating or 0 for p in players}
    for round_ in range(1, rounds + 1):
        free = sorted(score, key=lambda x: (-score[x], -rating[x]))
        if n % 2:
            bye = free.pop()
            row = len(games) + 2
            games.append(Game(round=round_, table=None, a=bye, b=None, result=Result.parse("bye"), row=row,
                              cell=f"Results!E{row}"))
            score[bye] += 1
        table = 0
        while free:
            x = free.pop(0)
            y = free.pop(next((k for k, y in enumerate(free) if y not in met[x]), 0))
            a, b = (x, y) if rng.random() < 0.5 else (y, x)
            met[a].add(b)
            met[b].add(a)
            table += 1
            row = len(games) + 2
            text = result(a, b)
            games.append(Game(round=round_, table=table, a=a, b=b, result=Result.parse(text), row=row,
                              cell=f"Results!E{row}"))
            score[a] += {"1-0": 1, "0-1": 0}.get(text, 0.5)
            score[b] += {"1-0": 0, "0-1": 1}.get(text, 0.5)
    return replace(event, games=tuple(games))


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed", [(40, 7, 71), (31, 6, 72), pytest.param(150, 9, 73, marks=pytest.mark.slow)])
def test_sides_single_with_wide_biases_is_exact(n: int, rounds: int, seed: int) -> None:
    """``sides: single`` with side biases up to +-3 and more, odd fields with a bye: the sparse solve's pairing
    costs networkx's minimum on the complete graph, and a proven pairing is that minimum."""
    event = _lopsided_sides(n, rounds, seed)
    state = round_state(event, event.paired_rounds + 1)
    biases = {seq.count(1) - seq.count(2) for seq in state.sides.values()}
    assert max(map(abs, biases)) >= 3
    _check_round(event)


def _sides_history(n: int, rounds: int, seed: int, history: str) -> Event:
    """A ``sides: single`` event after ``rounds`` rounds: lopsided, a plain Swiss's with sides by a coin, or the
    engine's own."""
    if history == "lopsided":
        return _lopsided_sides(n, rounds, seed)
    if history == "swiss":
        return _coin_swiss(n, rounds, seed, Settings(seed=seed, points="magic", sides="single"))
    event = _mode_event("single", n, seed)
    result = random_results(seed)
    for _ in range(rounds):
        event = _play_round(event, result)
    return event


def _assert_sides_exact(event: Event, solver_class: type[Solver] = Solver) -> None:
    """The engine's pairing of the next round costs networkx's minimum on the complete graph and is proven."""
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    costs = Costs(event, state, pool, False)
    solved = solver_class(costs).solve()
    assert solved is not None
    mate, proof = solved
    assert proof.proven and proof.gap == 0
    pairs = {(min(u, v), max(u, v)) for u, v in mate.items()}
    assert sum(costs.encode(i, j) for i, j in pairs) == _reference_cost(event, pool, False)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed,history", [
    (40, 7, 71, "lopsided"), (31, 6, 72, "lopsided"), (44, 9, 76, "engine"), (27, 12, 77, "engine"),
    (60, 8, 78, "swiss"), (45, 10, 79, "swiss"), pytest.param(160, 9, 80, "swiss", marks=pytest.mark.slow)])
def test_sides_single_after_any_history_is_exact(n: int, rounds: int, seed: int, history: str) -> None:
    """Under ``sides: single`` the solve starts from the blocks of (group, bias) and their roles
    (:meth:`Solver._block_start`): after a lopsided history, a plain Swiss's with sides by a coin, or the engine's
    own, the pairing costs networkx's minimum on the complete graph and is proven."""
    _assert_sides_exact(_sides_history(n, rounds, seed, history))


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed,breach,within", [
    (90, 8, 90, False, "slide"), (140, 11, 91, False, "fold"), (120, 10, 92, False, "random"),
    pytest.param(300, 6, 96, True, "slide", marks=pytest.mark.slow),
    pytest.param(400, 10, 94, True, "slide", marks=pytest.mark.slow),
    pytest.param(400, 12, 95, True, "fold", marks=pytest.mark.slow)])
def test_colours_after_a_coin_history_is_exact(n: int, rounds: int, seed: int, breach: bool, within: str) -> None:
    """Under ``colours: alternate`` after a plain Swiss's rounds with colours by a coin, many players may take
    neither colour (RULES.md 2.10) and meet each other at one breach a pair, across groups too (one left over in
    a group floats to one below, :meth:`Solver._colour_floats`): under ``slide`` or ``fold`` in the larger fields
    they have a ring of their own (:meth:`Solver._colour_rings`), under ``random`` their partners of lowest draw among
    themselves (:meth:`Solver._lowest_draws`). The pairing costs networkx's minimum on the complete graph and is
    proven."""
    event = _coin_swiss(n, rounds, seed, Settings(seed=seed, points="chess", colours="alternate",
                                                  within_group=within))
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    costs = Costs(event, state, pool, False)
    solver = Solver(costs)
    solved = solver.solve()
    assert solved is not None
    mate, proof = solved
    assert proof.proven and proof.gap == 0
    pairs = {(min(u, v), max(u, v)) for u, v in mate.items()}
    assert sum(costs.encode(i, j) for i, j in pairs) == _reference_cost(event, pool, False)
    neither = [not costs._white_ok[v] and not costs._black_ok[v] for v in range(costs.n)]
    assert any(all(neither[v] for pair in ring for v in pair) for ring, _ in solver._rings) == breach


def test_a_solve_goes_back_to_its_last_clean_duals_rather_than_repair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``sides: single``, where the repairs of the pairs a solve's duals fail would leave more than twice as many
    players free as the last clean duals did (the start, or a check that found none failing while players were
    still free), those pairs stay in G' and the searches start again from those duals (:meth:`Matcher.restore`).
    On an event where that happens, the pairing is still networkx's minimum on the complete graph, proven."""
    restores: list[int] = []
    restore = Matcher.restore

    def counted(self: Matcher, saved: Saved) -> None:
        restores.append(self.n)
        restore(self, saved)

    monkeypatch.setattr(Matcher, "restore", counted)
    _assert_sides_exact(_sides_history(200, 9, 88, "swiss"))
    assert restores


class _Tame(Solver):
    """A solver whose stayers' rings keep every player in its camp (none wild)."""

    def _wild(self, nodes: np.ndarray, first: np.ndarray) -> np.ndarray:
        return np.zeros(len(nodes), dtype=bool)


def _ring_totals(event: Event) -> tuple[tuple[int, int], tuple[int, int], int]:
    """The stayers' rings of the next round (:meth:`Solver._side_ring`) with wild players and without
    (:class:`_Tame`): their pairs that pay a side cost, and their pattern cost (RULES.md 2.5), over every group whose
    ring with them exchanges them (not more than a quarter wild: those start at the slide's own potentials); and how
    many groups do."""
    state = round_state(event, event.paired_rounds + 1)
    c = Costs(event, state, state.bye_eligible or frozenset(state.order), False)
    wild, tame = Solver(c), _Tame(c)
    totals = []
    for s in (wild, tame):
        pairs = [(g, *sorted((c.place_of[u], c.place_of[v])), s._side_floor(c.bias[u], c.bias[v]))
                 for g, ring in enumerate(s._stayers) if g not in wild._slid and ring for u, v in ring]
        totals.append((sum(1 for *_, side in pairs if side),
                       sum(int(c.pattern_cost(g, np.array([p]), np.array([q]))[0]) for g, p, q, _ in pairs)))
    return totals[0], totals[1], sum(1 for g, ring in enumerate(wild._stayers) if ring and g not in wild._slid)


@pytest.mark.parametrize("n,rounds,seed,history", [(240, 3, 1, "swiss"), (240, 4, 2, "swiss"), (240, 4, 6, "swiss"),
                                                   (240, 5, 6, "lopsided")])
def test_wild_players_shorten_the_stayers_rings(n: int, rounds: int, seed: int, history: str) -> None:
    """Players who may meet their own camp's most common bias at no side cost (:meth:`Solver._wild`, a 3 among the
    1s) take either end of a ring pair: after histories that spread the biases, the rings pay the side cost in
    fewer pairs and cost less at the pattern level than rings that keep them in their camps, and the round's
    pairing is networkx's minimum, proven. (Later in such histories most rings are more than a quarter wild and
    start at the slide's own potentials: see ``test_stayers_started_from_their_own_pairing_stay_exact``.)"""
    event = _sides_history(n, rounds, seed, history)
    wild, tame, groups = _ring_totals(event)
    assert groups and wild[0] <= tame[0] and wild[1] < tame[1]
    _assert_sides_exact(event)


class _CheckedStayers(Solver):
    """A solver that checks the stayers' own pairing (:meth:`Solver._ring_solve`): feasible and tight on the
    stayers' pairs, and where it pairs a whole group (no blossom was dissolved there) networkx's minimum on the
    same pairs; it counts the stayers started and the groups paired whole."""

    started = 0
    whole = 0
    priced = 0
    slid = 0
    """Rings of many wild players, started at the slide's own potentials (0 at the pattern level)."""

    def _ring_potentials(self, g: int, members: Sequence[int], ring: Sequence[tuple[int, int]]) -> list[int]:
        """Checks that every pair of stayers but two of the sinks' camp (:meth:`Solver._side_camps`) keeps its
        pattern level's constraint, and each ring pair of opposite camps is tight at it; where more than a
        quarter of the ring is wild, that the potentials are 0."""
        out = super()._ring_potentials(g, members, ring)
        c, at = self.c, dict(zip(members, out))
        first = np.array([self._camps[g][c.bias[v]] for v in members], dtype=bool)
        if solver._WILD * int(self._wild(np.array(members, dtype=np.int64), first).sum()) > len(members):
            assert not any(out)
            _CheckedStayers.slid += 1
            return out
        if any(out):
            _CheckedStayers.priced += 1
        twice = 2 * c.multipliers[PATTERN]
        camp = {v: self._camps[g][c.bias[v]] for v in members}
        sources = camp[ring[0][0]]
        for u, v in itertools.combinations(members, 2):
            if camp[u] != sources and camp[v] != sources:
                continue
            lo, hi = sorted((c.place_of[u], c.place_of[v]))
            cost = twice * int(c.pattern_cost(g, np.array([lo]), np.array([hi]))[0])
            assert at[u] + at[v] <= cost
            if ((u, v) in ring or (v, u) in ring) and camp[u] != camp[v]:
                assert at[u] + at[v] == cost
        return out

    def _ring_solve(self, m: Matcher, cap: int) -> dict[int, tuple[int, int]]:
        out = super()._ring_solve(m, cap)
        _CheckedStayers.started += len(out)
        weights = {(v, x): w - m.p[v] - m.p[x] for v in out for x, w in m.adj[v].items()
                   if v < x and x in out and 0 <= w - m.p[v] - m.p[x] < cap}
        for (v, x), w in weights.items():  # feasible on those pairs, tight on its own
            assert w - out[v][0] - out[x][0] >= 0
            assert (out[v][1] == x) <= (w == out[v][0] + out[x][0])
        groups = {self.c.group_of[v] for v in out}
        for g in groups:
            held = [v for v in out if self.c.group_of[v] == g]
            mine = {e: w for e, w in weights.items() if self.c.group_of[e[0]] == g}
            best = min_cost_perfect_matching(held, mine)
            assert best is not None
            if all(out[v][1] != -1 for v in held):
                _CheckedStayers.whole += 1
                assert sum(mine[v, out[v][1]] for v in held if out[v][1] > v) == sum(mine[e] for e in best)
        return out


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed,history,started,slid", [
    (100, 3, 112, "swiss", True, False), (70, 2, 113, "lopsided", True, False), (140, 3, 124, "swiss", True, False),
    (90, 3, 125, "lopsided", True, True), (120, 2, 117, "lopsided", False, False),
    (160, 8, 126, "swiss", True, True),
    pytest.param(200, 3, 116, "swiss", True, True, marks=pytest.mark.slow)])
def test_stayers_started_from_their_own_pairing_stay_exact(monkeypatch: pytest.MonkeyPatch, n: int, rounds: int,
                                                           seed: int, history: str, started: bool,
                                                           slid: bool) -> None:
    """With every ring of stayers started from its own exact pairing (:meth:`Solver._ring_solve`, from rings of
    4 pairs here instead of ``_PRESOLVE``), that pairing is networkx's minimum on the stayers' pairs, and the round's
    pairing still costs networkx's minimum on the complete graph and is proven. After two lopsided rounds (seed
    117) the stayers' pairs that tie at the top levels hold no perfect matching: those rings are left to the
    searches, and the pairing is as exact. After eight rounds of a plain Swiss with sides by a coin, whose biases
    spread, some rings are more than a quarter wild and start at the slide's own potentials (seed 126), as exact."""
    monkeypatch.setattr(solver, "_PRESOLVE", 4)
    _CheckedStayers.started = _CheckedStayers.whole = _CheckedStayers.priced = _CheckedStayers.slid = 0
    _assert_sides_exact(_sides_history(n, rounds, seed, history), _CheckedStayers)
    assert (_CheckedStayers.started > 0) == (_CheckedStayers.whole > 0) == started
    assert _CheckedStayers.priced > 0 or _CheckedStayers.slid > 0
    assert (_CheckedStayers.slid > 0) == slid


@pytest.mark.usefixtures("sparse_only")
def test_a_ring_whose_larger_camp_is_all_of_the_tied_class_still_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``sides: single`` a group's stayers must be even: where they are odd, one more player floats, the
    likeliest to float up of the more numerous camp (:meth:`Solver._side_ring`); where that camp is all of the class
    tied with the group's last down-floater (whose floaters the ring picks), one more of that class floats down,
    and the ring stands (before, the group had none: at 8,000 players after a swisspair history, a group of 230
    stayers). After the engine's own rounds (120 players, seed 15) this happens in two groups, and the pairing
    costs networkx's minimum on the complete graph, proven."""
    more: list[int] = []
    ring = Solver._side_ring

    def counted(self: Solver, g: int, nodes: Sequence[int], optional: Sequence[int], away: int
                ) -> tuple[list[tuple[int, int]], list[int]] | None:
        found = ring(self, g, nodes, optional, away)
        if found is not None and len(found[1]) > away:
            more.append(g)
        return found

    monkeypatch.setattr(Solver, "_side_ring", counted)
    _assert_sides_exact(_sides_history(120, 6, 15, "engine"))
    assert len(more) == 2


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("mode,n,rounds,seed", [("colours fold", 160, 3, 206), ("single fold", 160, 3, 207)])
def test_fold_groups_start_from_their_rings(mode: str, n: int, rounds: int, seed: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``within_group: fold`` the pattern is a distance on a circle as under ``slide`` (:func:`solver._circle`),
    so large groups start from their rings laid out on fold's circle (before, none did: ``sides: single`` at 8,000
    players took 23 to 32 CPU seconds), and the pairing costs networkx's minimum on the complete graph, proven."""
    event = _mode_event(mode, n, seed)
    result = random_results(seed)
    for _ in range(rounds):
        event = _play_round(event, result)
    laid: list[str] = []
    circle = solver._circle

    def counted(pattern: str, size: int, half: int, places: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
        laid.append(pattern)
        return circle(pattern, size, half, places)

    monkeypatch.setattr(solver, "_circle", counted)
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    costs = Costs(event, state, pool, False)
    solved = Solver(costs).solve()
    assert solved is not None and solved[1].proven and solved[1].gap == 0
    pairs = {(min(u, v), max(u, v)) for u, v in solved[0].items()}
    assert sum(costs.encode(i, j) for i, j in pairs) == _reference_cost(event, pool, False)
    assert "fold" in laid and set(laid) == {"fold"}


@given(st.sampled_from(["slide", "fold"]), st.integers(2, 60))
@settings(max_examples=60, deadline=None)
def test_the_pattern_is_a_distance_on_its_circle(pattern: str, size: int) -> None:
    """:func:`solver._circle`: for every two places p < q of a group, the distance on the circle from one's source
    place to the other's sink place, either way round, is RULES.md 2.5's pattern cost: ``slide`` |q - p - half|
    (half the group rounded up), ``fold`` |p + q - (size - 1)|; the places go to ``size``, where an odd field's
    lowest player stands (the bye's candidate, outside the players its group pairs among themselves)."""
    half = (size + 1) // 2
    length, sink, source = solver._circle(pattern, size, half, np.arange(size + 1, dtype=np.int64))
    assert ((sink >= 0) & (sink < length) & (source >= 0) & (source < length)).all()
    for p, q in itertools.combinations(range(size + 1), 2):
        rule = abs(q - p - half) if pattern == "slide" else abs(p + q - (size - 1))
        for one, two in ((p, q), (q, p)):
            gap = abs(int(source[one]) - int(sink[two]))
            assert min(gap, length - gap) == rule


@given(st.integers(4, 40), st.booleans(), st.randoms(use_true_random=False))
@settings(max_examples=80, deadline=None)
def test_ring_swap_never_lengthens_the_ring(half: int, sources: bool, rng: random.Random) -> None:
    """:meth:`Solver._ring_swap` on a random ring of ``2 * half`` places: some optional players (all sources or
    all sinks) are in it, more are out; it keeps as many in, and the ring's cheapest transport (the sum of
    |flow - median| round the circle, :meth:`Solver._ring_phi`) never gets dearer."""
    length = 2 * half
    pairs = rng.randrange(2, half + 1)
    inside = rng.randrange(1, pairs + 1)
    spare = rng.randrange(1, half + 1)
    fixed = [rng.randrange(length) for _ in range(pairs)]
    rest = [rng.randrange(length) for _ in range(pairs - inside)]
    optional_at = [rng.randrange(length) for _ in range(inside + spare)]
    count = pairs + len(rest) + len(optional_at)
    anti = np.full(count, -1, dtype=np.int64)
    pos = np.full(count, -1, dtype=np.int64)
    mine, theirs = (anti, pos) if sources else (pos, anti)
    theirs[:pairs] = fixed
    mine[pairs:pairs + len(rest)] = rest
    mine[pairs + len(rest):] = optional_at
    optional = np.arange(count) >= pairs + len(rest)
    member = ~optional | (np.arange(count) < pairs + len(rest) + inside)

    def cost() -> int:
        ring = Solver._ring_phi(length, anti[member & (anti >= 0)], pos[member & (pos >= 0)])
        assert ring is not None
        return ring[2]

    before = cost()
    Solver._ring_swap(length, anti, pos, member, optional, mine, sources)
    assert int((member & optional).sum()) == inside
    assert cost() <= before


def _exchange_on_a_random_ring(half: int, rng: random.Random, majors_over: int) -> int:
    """:meth:`Solver._ring_exchange` on a random ring of ``2 * half`` places under ``colours: alternate``: players due
    the more frequent colour (``majors_over`` or more beyond the others), some of them movable, and the surplus
    turned into sinks by :meth:`Solver._ring_turn`; the exchanges keep every fixed player's role and as many sources,
    and the ring's cheapest transport (:meth:`Solver._ring_phi`) never gets dearer. Returns the movable sources
    times the movable sinks before the exchanges (0 when the ring could not be turned)."""
    length = 2 * half
    minors = rng.randrange(1, half + 1)
    majors = rng.randrange(minors + majors_over, minors + majors_over + half + 1)
    if (majors + minors) % 2:
        majors += 1
    place = np.array([rng.randrange(length) for _ in range(majors + minors)], dtype=np.int64)
    pos, anti = place % length, (place + half) % length
    major = np.arange(majors + minors) < majors
    movable = major & np.array([rng.random() < 0.7 for _ in range(majors + minors)], dtype=bool)
    source = major.copy()
    surplus = majors - (majors + minors) // 2
    if not Solver._ring_turn(length, anti, pos, source, movable, surplus):
        return 0
    ring = Solver._ring_phi(length, anti[source], pos[~source])
    assert ring is not None
    before = source.copy()
    Solver._ring_exchange(length, anti, pos, source, movable)
    assert int(source.sum()) == int(before.sum())
    assert (source[~movable] == before[~movable]).all()
    after = Solver._ring_phi(length, anti[source], pos[~source])
    assert after is not None and after[2] <= ring[2]
    return int((before & movable).sum()) * int((~before & movable).sum())


@given(st.integers(4, 40), st.randoms(use_true_random=False))
@settings(max_examples=80, deadline=None)
def test_ring_exchange_never_lengthens_the_ring(half: int, rng: random.Random) -> None:
    """Small rings, where every exchange is priced (:func:`_exchange_on_a_random_ring`)."""
    _exchange_on_a_random_ring(half, rng, 0)


@given(st.integers(200, 300), st.randoms(use_true_random=False))
@settings(max_examples=10, deadline=None)
def test_ring_exchange_from_shortlists_never_lengthens_the_ring(half: int, rng: random.Random) -> None:
    """Rings with more movable sources and sinks than the shortlists hold (:meth:`Solver._shortlist`)."""
    pairs = _exchange_on_a_random_ring(half, rng, 300)
    assert pairs == 0 or pairs > _SHORTLIST ** 2


def _cover_cost(counts: list[int], costs: np.ndarray, role: Callable[[int, int], tuple[int, int]] | None = None,
                spread: list[list[tuple[int, int]]] | None = None) -> int:
    """The cheapest transport of the blocks' double cover by networkx: at ``costs``, or (``role``, ``spread``)
    at ``big * costs`` plus each player's role cost on both sides, ``spread[A]`` each player's (up, down) costs
    and ``role(A, B)`` the roles (0 up, 1 down, 2 stay) of a player of A and one of B in their pair."""
    k = len(counts)
    big = 10**6
    graph = nx.DiGraph()
    for a in range(k):
        graph.add_node(("s", a), demand=-counts[a])
        graph.add_node(("t", a), demand=counts[a])
        for i, costs_of in enumerate(spread[a] if spread else []):
            graph.add_node(("p", a, i), demand=0)
            graph.add_node(("q", a, i), demand=0)
            graph.add_edge(("s", a), ("p", a, i), capacity=1, weight=0)
            graph.add_edge(("q", a, i), ("t", a), capacity=1, weight=0)
            for r, cost in enumerate([*costs_of, 0]):
                graph.add_node(("pr", a, i, r), demand=0)
                graph.add_node(("qr", a, i, r), demand=0)
                graph.add_edge(("p", a, i), ("pr", a, i, r), weight=cost)
                graph.add_edge(("qr", a, i, r), ("q", a, i), weight=cost)
    for a in range(k):
        for b in range(k):
            if costs[a, b] < 0 or (a == b and counts[a] < 2):
                continue
            if role is None or spread is None:
                graph.add_edge(("s", a), ("t", b), weight=int(costs[a, b]))
                continue
            ra, rb = role(a, b)
            graph.add_node(("x", a, b, ra), demand=0)
            graph.add_node(("y", a, b, rb), demand=0)
            graph.add_edge(("x", a, b, ra), ("y", a, b, rb), weight=big * int(costs[a, b]))
            for i in range(counts[a]):
                graph.add_edge(("pr", a, i, ra), ("x", a, b, ra), weight=0)
            for j in range(counts[b]):
                graph.add_edge(("y", a, b, rb), ("qr", b, j, rb), weight=0)
    return int(nx.min_cost_flow_cost(graph))


def _assert_block_duals_optimal(counts: list[int], costs: np.ndarray, rank: list[int | None],
                                spread: list[list[tuple[int, int]]]) -> None:
    """:func:`.transport.block_duals` of blocks of ``counts`` players, ``spread[A]`` each player's (up, down) costs:
    every two blocks that may meet keep ``s_A + s_B <= 2 C_AB`` and the duals' total is the cheapest transport of
    the double cover; with ``big * C`` and the roles' costs below it, every two players whose blocks may meet keep
    their dual constraint and the duals add up to the cheapest transport where each player takes the cheaper of
    its roles in each pair (networkx's min-cost flow over every player)."""
    k = len(counts)
    up = [[u for u, _ in players] for players in spread]
    down = [[d for _, d in players] for players in spread]
    duals = block_duals(counts, costs, rank, up, down)
    for a in range(k):
        for b in range(k):
            if costs[a, b] >= 0 and (a != b or counts[a] > 1):
                assert duals.s[a] + duals.s[b] <= 2 * costs[a, b]
    assert sum(c * d for c, d in zip(counts, duals.s)) == _cover_cost(counts, costs)
    pairs = duals.pairs
    assert (pairs == pairs.T).all()
    assert all(pairs[a].sum() + pairs[a, a] <= counts[a] for a in range(k))

    def role(a: int, b: int) -> tuple[int, int]:
        ra, rb = rank[a], rank[b]
        if ra is None or rb is None or ra == rb:
            return 2, 2
        return (1, 0) if ra < rb else (0, 1)

    big = 10**6
    potential = [[big * duals.s[a] + duals.potential(a, u, d) for u, d in spread[a]] for a in range(k)]
    for a in range(k):
        for b in range(k):
            if costs[a, b] < 0 or (a == b and counts[a] < 2):
                continue
            ra, rb = role(a, b)
            for i, x in enumerate(spread[a]):
                for j, y in enumerate(spread[b]):
                    if (a, i) != (b, j):
                        cost = big * int(costs[a, b]) + [*x, 0][ra] + [*y, 0][rb]
                        assert potential[a][i] + potential[b][j] <= 2 * cost
    optimum = _cover_cost(counts, costs, role, spread)
    assert sum(map(sum, potential)) == optimum


@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 5)), min_size=1, max_size=6),
       st.randoms(use_true_random=False), st.sampled_from([None, 0, 1]))
@settings(max_examples=80, deadline=None)
def test_block_duals_are_feasible_and_optimal(blocks: list[tuple[int, int]], rng: random.Random,
                                              room: int | None) -> None:
    """:func:`.transport.block_duals` on random blocks (players and score group; some pairs of blocks barred), each
    player with a float balance and a place, up cost ``8 * balance + place`` and down cost ``8 * (3 - balance)``
    (one falls as the other rises, as RULES.md 2.5's float balance prices them):

    * every two blocks that may meet keep ``s_A + s_B <= 2 C_AB``, and the duals' total is the double cover's
      cheapest transport (strong duality, so the duals are optimal); where no fractional pairing exists, it says
      so; the whole pairs it reports fit in the blocks (the top flow is found first on the blocks at most two
      groups apart, here ranks 0 to 5, and widened by the pairs its duals fail);
    * with ``big * C`` and the roles' costs below it, every two players whose blocks may meet keep their dual
      constraint, and the duals add up to the cheapest transport where each player takes the cheaper of its roles
      in each pair (networkx's min-cost flow over every player): optimal down to who floats;
    * with fewer players of a role on their own arcs (``room``: the rest share one at the next cost), the same:
      where a role takes more players than that at costs of their own, the block gets more room and the roles'
      transport is solved again."""
    counts = [n for n, _ in blocks]
    rank: list[int | None] = [g for _, g in blocks]
    k = len(counts)
    costs = np.full((k, k), -1, dtype=np.int64)
    for a in range(k):
        for b in range(a, k):
            if rng.random() < 0.8 or a + 1 == b:
                costs[a, b] = costs[b, a] = rng.randrange(0, 60)
    if sum(counts) % 2:
        counts[0] += 1
    costs[0, 0] = max(costs[0, 0], 0)
    spread = []
    for a in range(k):
        balance = [rng.randrange(4) for _ in range(counts[a])]
        places = rng.sample(range(8), counts[a])
        spread.append([(8 * b + p, 8 * (3 - b)) for b, p in zip(balance, places)])
    try:
        _cover_cost(counts, costs)
    except nx.NetworkXUnfeasible:
        with pytest.raises(NoFlow):
            block_duals(counts, costs, rank, [[u for u, _ in x] for x in spread], [[d for _, d in x] for x in spread])
        return
    with pytest.MonkeyPatch.context() as patch:
        if room is not None:
            patch.setattr(transport, "_ROOM", room)
        _assert_block_duals_optimal(counts, costs, rank, spread)


def test_a_role_that_takes_more_players_than_its_room_gets_more_and_the_roles_flow_stays_optimal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One block of group 0 whose 6 players must float down (they may not meet each other), and three blocks of
    group 1 that may meet each other or them, all at one top-level cost: the top levels' flow is one of many, while
    at who floats the 6 up-floaters are those of group 1's second block (the cheapest places). The top flow sends
    none of them, so that role takes more players than its room (no room but the top flow's, ``_ROOM`` 0), the
    transport is solved again with more, and the duals are optimal down to who floats all the same."""
    monkeypatch.setattr(transport, "_ROOM", 0)
    counts = [6, 6, 6, 6]
    costs = np.zeros((4, 4), dtype=np.int64)
    costs[np.diag_indices(4)] = -1
    rank: list[int | None] = [0, 1, 1, 1]
    spread = [[(0, 8 + p) for p in range(6)], [(20 + p, 0) for p in range(6)], [(p, 0) for p in range(6)],
              [(20 + p, 0) for p in range(6)]]
    calls: list[dict[int, int]] = []
    solve_roles = transport._roles

    def recorded(*args: object) -> object:
        out = solve_roles(*args)  # type: ignore[arg-type]
        calls.append(out[2])
        return out

    monkeypatch.setattr(transport, "_roles", recorded)
    _assert_block_duals_optimal(counts, costs, rank, spread)
    assert calls[0] and not calls[-1]  # the case occurred: short of room once, then exact


@given(st.lists(st.integers(1, 40), min_size=1, max_size=8), st.randoms(use_true_random=False))
@settings(max_examples=80, deadline=None)
def test_pairing_duals_are_feasible_and_optimal(counts: list[int], rng: random.Random) -> None:
    """:func:`.transport.pairing_duals` on random classes whose pairs cost a hard and a preference level as
    ``colours: alternate`` prices them (multipliers beyond 64 bits, :meth:`.Solver._class_lifts`): every two
    classes that may meet keep ``s_A + s_B <= 2 C_AB``, and the duals' total is the double cover's cheapest
    transport by networkx (strong duality: the duals are optimal)."""
    if sum(counts) % 2:
        counts[0] += 1
    k = len(counts)
    hard, pref = 2**105, 2**51
    costs = np.zeros((k, k), dtype=object)
    for a in range(k):
        for b in range(a, k):
            costs[a, b] = costs[b, a] = rng.randrange(3) * hard + rng.randrange(2) * pref
    duals = pairing_duals(counts, costs.tolist())
    for a in range(k):
        for b in range(k):
            if a != b or counts[a] > 1:
                assert duals[a] + duals[b] <= 2 * costs[a, b]
    assert sum(c * d for c, d in zip(counts, duals)) == _cover_cost(counts, costs)


@pytest.mark.usefixtures("sparse_only")
def test_sides_single_after_every_pair_met_both_ways() -> None:
    """Eight players over 16 rounds of ``sides: single``: each pair meets at most twice, once each way, so from
    round 15 a pair that met both ways must meet again (the rematch fallback, RULES.md 2.3 and 3); the engine
    still finds networkx's minimum on the complete graph."""
    event = _mode_event("single", 8, 74)
    event = replace(event, players=tuple(replace(p, joined=1, dropped=False, dropped_after=None)
                                         for p in event.players))
    result = random_results(74)
    fallback = 0
    for _ in range(16):
        _check_round(event)
        pairing = pair_round(event)
        fallback += bool(pairing.rematches)
        event = _play_round(event, result)
    assert fallback


def _careless_colours(n: int, rounds: int, seed: int, pattern: str) -> Event:
    """A ``colours: alternate`` field of ``n`` players (no drops) after ``rounds`` rounds in which each table's
    colours were given by a coin, not by the rules: many players are due the same colour, and many have
    reached a hard limit (two games running in one colour, or a colour difference of 2)."""
    rng = random.Random(seed)
    players = tuple(Player(name=f"c{i:03d}", rating=rng.randrange(1000, 2500), row=i + 2) for i in range(n))
    event = Event(settings=Settings(seed=seed, points="chess", colours="alternate", within_group=pattern),
                  players=players)
    result = random_results(seed)
    for _ in range(rounds):
        pairing = pair_round(event)
        row = max((g.row for g in event.games), default=1)
        games = []
        for t in pairing.tables:
            row += 1
            a, b = (t.a, t.b) if t.b is None or rng.random() < 0.5 else (t.b, t.a)
            text = "bye" if b is None else result(a, b)
            games.append(Game(round=pairing.round, table=t.number, a=a, b=b, result=Result.parse(text), row=row,
                              cell=f"Results!E{row}"))
        event = replace(event, games=event.games + tuple(games))
    return event


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,rounds,seed,pattern", [
    (41, 7, 81, "fold"), (52, 8, 82, "slide"), (33, 9, 83, "slide"), (96, 2, 88, "slide"), (90, 3, 89, "fold"),
    pytest.param(151, 9, 84, "fold", marks=pytest.mark.slow),
    pytest.param(260, 11, 85, "slide", marks=pytest.mark.slow),
])
def test_colours_with_hard_limits_are_exact(n: int, rounds: int, seed: int, pattern: str) -> None:
    """``colours: alternate`` after rounds whose colours a coin gave: odd and even fields, ``fold`` and ``slide``,
    hard limits reached by many players (RULES.md 2.10). The sparse solve's pairing costs networkx's minimum on
    the complete graph, and a proven pairing is that minimum: the check's colour bounds (a pair due the same
    colour, a pair that breaks a limit) never clear a pair that the complete graph would use."""
    event = _careless_colours(n, rounds, seed, pattern)
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    assert not all(costs._white_ok) and not all(costs._black_ok)  # the case occurred
    for _ in range(2):
        _check_round(event)
        event = add_round(event, pair_round(event), random_results(seed))


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed", [(12, 86), (15, 87)])
def test_colours_in_rematch_dense_rounds_are_exact(n: int, seed: int) -> None:
    """A small ``colours: alternate`` field played past n - 1 rounds: rematches become necessary (RULES.md 2.3)
    while colours still count; the sparse solve finds networkx's minimum every round, or says that no pairing
    exists when networkx finds none."""
    event = _careless_colours(n, 0, seed, "slide")
    result = random_results(seed)
    for _ in range(n + 1):
        _check_round(event)
        event = add_round(event, pair_round(event), result)


@pytest.mark.parametrize("n,rounds,seed,pattern", [(120, 4, 91, "fold"), (150, 4, 91, "slide"),
                                                   (120, 6, 94, "slide"), (200, 4, 93, "slide"),
                                                   (160, 5, 95, "random")])
def test_the_check_lists_every_failing_pair_under_colours(n: int, rounds: int, seed: int, pattern: str) -> None:
    """The certificate's check (:meth:`Solver._check`), after a first solve on the candidate graph under
    ``colours: alternate``, lists exactly the pairs of the complete graph whose dual constraint fails, found
    here pair by pair: its bounds (pattern, colour levels, blossoms, the draw, taken first under
    ``within_group: random``) clear only pairs that hold."""
    costs, solver_, m = _first_solve_of(_careless_colours(n, rounds, seed, pattern))
    listed = {(i, j) for _, i, j in solver_._check(m, m.p)}
    failing = _failing_pairs(costs, m)
    assert failing  # the case occurred: the first candidate graph misses pairs
    assert listed == failing


@pytest.mark.parametrize("n,rounds,seed", [(200, 10, 1), (240, 12, 9), (300, 9, 3)])
@pytest.mark.parametrize("narrow", [False, True])
@pytest.mark.parametrize("whole", [False, True])
def test_the_check_lists_every_failing_pair_under_sides(n: int, rounds: int, seed: int, narrow: bool, whole: bool,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The certificate's check under ``sides: single`` after a history with Player A by a coin (side biases of
    eight values in a group), after a first solve on the candidate graph: exactly the pairs of the complete graph
    whose dual constraint fails, found here pair by pair. A group is scanned whole, each pair lifted by its side
    floor (``whole``, as at these sizes), or each side bias's players against their group's players below them,
    each column less its side floor (:meth:`Solver._check_side_group`); groups and blocks are cleared with the
    blossoms holding them whole. With the check's split narrowed to the score level (``narrow``), blossoms whose
    z lies beyond it hold whole scans, whose pairs' Z then comes less that z (:meth:`Nesting.split` at a base):
    the list is the same."""
    costs, solver_, m = _first_solve_of(_coin_swiss(n, rounds, seed, Settings(sides="single")))
    assert max(len(solver_._side_parts(g)) for g in range(costs.groups)) >= 8
    bases: list[int] = []
    if not whole:
        monkeypatch.setattr(solver, "_WHOLE", 0)
    if narrow:
        monkeypatch.setattr(solver, "_WIDE", costs.multipliers[SCORE])
        split = Nesting.split

        def recorded(nest: Nesting, u: np.ndarray, v: np.ndarray, base: int = 0) -> tuple[np.ndarray, np.ndarray]:
            bases.append(base)
            return split(nest, u, v, base)

        monkeypatch.setattr(Nesting, "split", recorded)
    listed = {(i, j) for _, i, j in solver_._check(m, m.p)}
    monkeypatch.undo()
    assert any(bases) == narrow  # the case occurred
    failing = _failing_pairs(costs, m)
    assert failing  # the first candidate graph misses pairs
    assert listed == failing


@pytest.mark.parametrize("n,rounds,seed", [(200, 10, 1), (240, 12, 2)])
def test_the_check_with_a_margin_lists_every_pair_holding_by_less(n: int, rounds: int, seed: int) -> None:
    """With a margin (:meth:`Solver._check`), the check lists exactly the pairs of the complete graph outside G'
    whose slack is below it, each with its slack: those that fail, and those that hold by less, as under
    ``sides: single`` after the searches without the cap (:meth:`Solver._check_near`). The margin here is a unit
    of the pattern, so that some pairs outside G' hold by less at these sizes."""
    costs, solver_, m = _first_solve_of(_coin_swiss(n, rounds, seed, Settings(sides="single")))
    nest = Nesting(m)
    margin = 2 * costs.multipliers[PATTERN]
    listed = solver_._check(m, m.p, margin=margin)
    for slack, i, j in listed:
        assert slack == 2 * costs.reduced(min(i, j), max(i, j)) - m.p[i] - m.p[j] + nest(i, j)
    assert any(slack >= 0 for slack, _, _ in listed)  # the case occurred: pairs outside G' hold by less
    assert {(min(i, j), max(i, j)) for _, i, j in listed} == _failing_pairs(costs, m, margin) - set(solver_.edges)
    assert {(min(i, j), max(i, j)) for slack, i, j in listed if slack < 0} == _failing_pairs(costs, m)


def test_once_the_near_pairs_fill_their_list_the_check_still_lists_every_failing_pair(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a margin, the pairs that hold by less stop at ``_NEAR_MOST`` (2 here), and the rest of the check looks
    for failing pairs only (:meth:`Solver._check`), its scans between groups reading the potentials again: it still
    lists every pair of the complete graph that fails, and the 2 others listed each hold by less than the margin,
    outside G'. The pairs are priced as they come (``_NEAR_BATCH`` 1), so that the list fills amid the scans."""
    monkeypatch.setattr(solver, "_NEAR_MOST", 2)
    monkeypatch.setattr(solver, "_NEAR_BATCH", 1)
    costs, solver_, m = _first_solve_of(_coin_swiss(200, 10, 1, Settings(sides="single")))
    margin = 2 * costs.multipliers[PATTERN]
    listed = solver_._check(m, m.p, margin=margin)
    assert solver_._dropped == 1
    near = {(min(i, j), max(i, j)) for slack, i, j in listed if slack >= 0}
    failing = _failing_pairs(costs, m)
    assert failing and len(_failing_pairs(costs, m, margin) - failing - set(solver_.edges)) > 2  # the case occurred
    assert len(near) == 2 and not near & set(solver_.edges)
    assert near <= _failing_pairs(costs, m, margin) - failing
    assert {(min(i, j), max(i, j)) for slack, i, j in listed if slack < 0} == failing


class _NearJoined(Solver):
    """A solver that checks, at each check of :meth:`Solver._settle`, the pairs that joined G' without failing."""

    joined = 0

    def _check_near(self, m: Matcher, changed: np.ndarray | None, uncapped: bool) -> list[tuple[int, int, int]]:
        before = set(self.edges)
        bad = super()._check_near(m, changed, uncapped)
        added = set(self.edges) - before
        nest = Nesting(m)
        for i, j in added:
            assert uncapped and bad  # only where a check after the searches without the cap fails
            assert m.adj[i][j] == m.adj[j][i] == 2 * self.edges[i, j]
            assert 0 <= m.adj[i][j] - m.p[i] - m.p[j] + nest(i, j) < solver._NEAR  # they hold: no repair
        _NearJoined.joined += len(added)
        return bad


def test_pairs_that_hold_by_little_join_after_a_failing_check_without_the_cap() -> None:
    """Under ``sides: single``, where the check after the searches without the cap fails, the pairs of G outside
    G' that hold by less than ``_NEAR`` join G' and the matcher at once, as they are (:meth:`Solver._check_near`),
    and the pairing is proven all the same (500 players in round 12, where it happens)."""
    event = _coin_swiss(500, 11, 4, Settings(sides="single"))
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    _NearJoined.joined = 0
    solved = _NearJoined(costs).solve()
    assert solved is not None and solved[1].proven
    assert _NearJoined.joined > 0  # the case occurred


def test_a_player_far_above_the_rest_leaves_the_others_to_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Players whose every pair breaks a colour hard limit (RULES.md 2.10) get potentials about that level above
    the rest of their group; from 8,000 players that level is beyond the check's two 64-bit halves (``_WIDE``),
    lowered here so that it is at 200. The check still lists exactly the failing pairs of the complete graph,
    and at most those players' own rows are priced exactly: each band of potentials is scanned in numpy about its
    own median (:func:`solver._bands`), where taking the potentials relative to the largest sent whole blocks
    pair by pair."""
    costs, solver_, m = _first_solve_of(_careless_colours(200, 7, 6, "slide"))
    wide = costs.multipliers[COLOUR_HARD] // 4
    monkeypatch.setattr(solver, "_WIDE", wide)
    far = 0  # the check takes potentials relative to each block's median: each group's, here
    for mem in costs.members:
        middle = sorted(m.p[v] for v in mem)[len(mem) // 2]
        far += sum(1 for v in mem if abs(m.p[v] - middle) >= wide)
    assert 0 < far < costs.nodes // 4  # the case occurred
    handed = [0]
    reduced = costs.reduced_many

    def counted(i: np.ndarray, j: np.ndarray) -> list[int]:
        handed[0] += len(i)
        return reduced(i, j)

    monkeypatch.setattr(costs, "reduced_many", counted)
    listed = {(i, j) for _, i, j in solver_._check(m, m.p)}
    monkeypatch.undo()
    assert handed[0] <= far * costs.nodes
    failing = _failing_pairs(costs, m)
    assert failing
    assert listed == failing


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed", [(97, 8), (160, 5), pytest.param(260, 6, marks=pytest.mark.slow)])
def test_colours_from_each_groups_ring_are_exact(n: int, seed: int) -> None:
    """``colours: alternate`` with ``slide`` after rounds whose colours followed each player's balance: about as
    many players are due White as Black in each group, some have reached a hard limit, and the start pairs
    each large group round its ring (:meth:`Solver._colour_ring`). The sparse solve costs networkx's minimum on
    the complete graph, proven, and the ring's pairs keep the circle's order: each one's pattern cost is the
    circular distance between the source's antipode and the sink."""
    bench = benchmark("pairing")
    event = bench.build(n, bench.SHAPES["colours"], seed)
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    solver_ = Solver(costs)
    assert solver_._rings  # the case occurred
    for pairs, _ in solver_._rings:
        for u, v in pairs:
            g = costs.group_of[u]
            half, p, q = costs.half[g], costs.place_of[u], costs.place_of[v]
            gap = abs((p + half) % (2 * half) - q % (2 * half))
            low, high = min(p, q), max(p, q)
            assert costs.pattern_cost(g, np.array([low]), np.array([high]))[0] == min(gap, 2 * half - gap)
    _check_round(event)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed", [(120, 2), (120, 5)])
def test_expected_floats_may_meet(n: int, seed: int) -> None:
    """``colours: alternate`` late in an event: at some odd boundaries the cheapest player to float up has met the
    upper group's player of the lowest down share. The float the start expects there (:meth:`Solver._floaters`)
    is then the next cheapest pair that may meet, never a rematch, and the round is networkx's minimum."""
    bench = benchmark("pairing")
    event = bench.build(n, bench.SHAPES["colours"], seed)
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    solver_ = Solver(costs)
    met = 0
    for k in solver_.odd[:-1] if costs.bye >= 0 else solver_.odd:
        lower = min(costs.members[k + 1], key=lambda v: (costs.up[v], costs.place_of[v]))
        low = min(costs.down[i] for i in costs.members[k])
        cheapest = [i for i in costs.members[k] if costs.down[i] == low]
        upper = ([i for i in cheapest if costs.due[i] != costs.due[lower]] or cheapest)[-1]
        ends = np.array([min(upper, lower)]), np.array([max(upper, lower)])
        met += not costs.allowed_many(*ends)[0]
    assert met  # the case occurred
    assert solver_._floats
    for i, j in solver_._floats:
        assert costs.allowed_many(np.array([min(i, j)]), np.array([max(i, j)]))[0]
    _check_round(event)


@pytest.mark.parametrize("n,seed", [(40, 31), (41, 32)])
def test_every_player_has_partners_in_the_candidate_graph(n: int, seed: int) -> None:
    """Late in a small event the groups at the bottom hold one or two players who have met everyone near
    them: each player still starts with ``2 * _WINDOW + 1`` partners in G' (or every allowed one), so no
    search has to grow over the whole field, and the round is the complete graph's minimum."""
    event = _event(n, seed, drops=False)
    result = random_results(seed)
    want = 2 * solver._WINDOW + 1
    for _ in range(n // 3):
        state = round_state(event, event.paired_rounds + 1)
        pool = state.bye_eligible or frozenset(state.order)
        costs = Costs(event, state, pool, False)
        graph = Solver(costs)
        everyone = np.arange(costs.nodes, dtype=np.int64)
        for v in range(costs.n):
            others = everyone[everyone != v]
            allowed = int(costs.allowed_many(np.minimum(others, v), np.maximum(others, v)).sum())
            partners = sum(1 for pair in graph.edges if v in pair)
            assert partners >= min(want, allowed)
        _check_round(event)
        event = add_round(event, pair_round(event), result)



@pytest.mark.usefixtures("sparse_only")
def test_a_group_short_of_colours_keeps_its_floats_dear(monkeypatch: pytest.MonkeyPatch) -> None:
    """``colours: alternate`` in round 15 after 14 rounds of random pairs with 35% draws: some groups cannot pair
    inside themselves without breaking a colour hard limit (RULES.md 2.10), and the odd boundaries next to them
    keep one hard level of each float in the reduced costs (:meth:`Solver._colour_short`). Then the first solve
    crosses every odd boundary once, where with the whole float taken off it floated players out of the short
    groups and had to solve again without a boundary's dual; the pairing is networkx's minimum either way."""
    bench = benchmark("pairing")
    event = bench.build(200, bench.SHAPES["colours"], 5, history_by="random", draws=0.35, round_=15)
    state = round_state(event, event.paired_rounds + 1)
    pool = state.bye_eligible or frozenset(state.order)
    crossed: list[int] = []
    counted = Solver._crossings

    def crossings(self: Solver, mate: list[int], k: int) -> int:
        crossed.append(counted(self, mate, k))
        return crossed[-1]

    with monkeypatch.context() as patch:
        patch.setattr(Solver, "_crossings", crossings)
        costs = Costs(event, state, pool, rematches=False)
        kept = Solver(costs)
        short = [k for k in kept.odd
                 if k + 1 < costs.groups and (kept._colour_short(k) or kept._colour_short(k + 1))]
        assert short  # the case occurred
        mult = costs.multipliers
        for k in short:  # one hard level below the cheapest single float
            single = mult[SCORE] * costs.score_table[k][k + 1] + mult[HEIGHT] * (costs.height[k + 1] - costs.height[k])
            low = min(costs.down[i] for i in costs.members[k])
            cheapest = min(single + mult[BALANCE] * (low + costs.up[j]) + mult[WHO_FLOATS] * costs.place_of[j]
                           for j in costs.members[k + 1])
            assert costs.boundary_dual[k] == cheapest - mult[COLOUR_HARD]
        solved = kept.solve()
        assert solved is not None and solved[1].proven
        assert crossed == []  # proven at once: no boundary crossed more than once lost its dual
        patch.setattr(Solver, "_colour_short", lambda self, g: False)
        whole = Solver(Costs(event, state, pool, rematches=False)).solve()
        assert whole is not None and whole[1].proven and any(count > 1 for count in crossed)
        assert whole[0] == solved[0]
    _check_round(event)


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed,round_", [(160, 1, 6), pytest.param(200, 1, 8, marks=pytest.mark.slow)])
def test_colours_piled_in_whole_groups_start_from_their_slide(n: int, seed: int, round_: int) -> None:
    """``colours: alternate`` after rounds of random pairs: most players of each group are due one colour, so many
    slide pairs meet two players due it, each at the preference level (RULES.md 2.10), and the rings give way to
    the ideal pairs. Those pairs start matched and tight: the lifts of their two players (:meth:`Solver._colour_lifts`)
    pay the preference, where before they started free and each cost a search. G' still holds the rings' pairs
    (where a hard limit keeps many players of the piled colour apart, the ring's transport says whom they meet).
    The round is networkx's minimum."""
    bench = benchmark("pairing")
    event = bench.build(n, bench.SHAPES["colours"], seed, history_by="random", round_=round_)
    state = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
    solver_ = Solver(costs)
    m = solver_._matcher()
    assert not solver_._rings
    same = [(u, v) for u, v in enumerate(m.mate) if u < v < costs.n and costs.due[u] == costs.due[v]]
    assert len(same) > n // 8  # the case occurred: pairs due one colour start matched
    for u, v in same:
        assert solver_._colour_major(costs.group_of[u]) == costs.due[u]
        assert m.adj[u][v] == m.p[u] + m.p[v]  # tight
    assert m.mate.count(-1) < n // 3
    for (i, j), w in solver_.edges.items():
        assert 2 * w >= m.p[i] + m.p[j]  # feasible
    away = {v for pair in solver_._floats for v in pair}
    rings = [solver_._colour_ring(g, [v for v in mem if v not in away]) for g, mem in enumerate(costs.members)]
    held = [(min(u, v), max(u, v)) for ring in rings if ring is not None for u, v in ring[0]]
    assert held  # G' keeps the rings' pairs, although the start does not go by them
    ends = np.array(held, dtype=np.int64)
    allowed = costs.allowed_many(ends[:, 0], ends[:, 1]).tolist()
    assert all(pair in solver_.edges for pair, ok in zip(held, allowed) if ok)
    _check_round(event)


def _whites_win(seed: int) -> Callable[[str, str], str]:
    """Results where White (the first player) wins nine games in ten that are not drawn: the leaders have had
    White round after round, so whole score groups may take only Black (RULES.md 2.10's hard limits)."""
    rng = random.Random(seed)
    return lambda a, b: "1/2" if rng.random() < 0.1 else ("1-0" if rng.random() < 0.9 else "0-1")


@pytest.mark.usefixtures("sparse_only")
@pytest.mark.parametrize("n,seed,rounds", [(60, 1, 7), (90, 2, 7), pytest.param(120, 3, 7, marks=pytest.mark.slow)])
def test_groups_short_of_one_colour_start_from_hard_lifts(n: int, seed: int, rounds: int) -> None:
    """``colours: alternate`` where White wins: in some groups the players who may take only Black outnumber those
    who may take White, so some of them must meet each other, each pair breaking a hard limit (RULES.md 2.10).
    :meth:`Solver._colour_signs` lifts that class (and anyone who may take neither colour) and lowers the rest;
    the start matches pairs of two lifted players, tight at the hard level and feasible on G', where before they
    started free and each cost a search over the group. Every round is networkx's minimum."""
    event = _mode_event("colours", n, seed)
    result = _whites_win(seed)
    lifted_pairs = 0
    for _ in range(rounds):
        state = round_state(event, event.paired_rounds + 1)
        costs = Costs(event, state, state.bye_eligible or frozenset(state.order), rematches=False)
        solver_ = Solver(costs)
        signs = solver_._colour_signs()
        for mem in costs.members:
            nodes = np.array(mem, dtype=np.int64)
            white, black = costs._white_ok[nodes], costs._black_ok[nodes]
            only_white, only_black = int((white & ~black).sum()), int((black & ~white).sum())
            short = abs(only_black - only_white) > int((white & black).sum())
            limited = only_black > only_white
            for v, w, b in zip(mem, white.tolist(), black.tolist()):
                if short:  # the class in surplus and those who may take neither colour are lifted, the rest lowered
                    assert signs[v][0] == (1 if (b and not w if limited else w and not b) or not (w or b) else -1)
                else:  # only those who may take neither colour are lifted
                    assert signs.get(v, (0, 0))[0] == (0 if w or b else 1)
        m = solver_._matcher()
        for u, v in enumerate(m.mate):
            if u < v < costs.n and signs.get(u, (0, 0))[0] == signs.get(v, (0, 0))[0] == 1:
                assert costs.levels(u, v)[COLOUR_HARD] == 1  # a breach the lifts pay
                assert m.adj[u][v] == m.p[u] + m.p[v]  # tight
                lifted_pairs += 1
        for (i, j), w in solver_.edges.items():
            assert 2 * w >= m.p[i] + m.p[j]  # feasible
        _check_round(event)
        event = _play_round(event, result)
    assert lifted_pairs  # the case occurred


@given(st.lists(st.integers(-(1 << 110), 1 << 110), max_size=40), st.integers(0, 1 << 100))
def test_bands_split_potentials_into_narrow_runs(values: list[int], spread: int) -> None:
    """The check's bands (:func:`solver._bands`): every index once, each band in index order and spanning less
    than half of ``_WIDE``, the bands in order of value, and one band when the values are that close."""
    for vals in (values, [v % (spread + 1) for v in values]):
        bands = solver._bands(vals)
        if not vals:
            assert bands == [[]]
            continue
        assert sorted(i for band in bands for i in band) == list(range(len(vals)))
        for band in bands:
            assert band == sorted(band)
            assert max(vals[i] for i in band) - min(vals[i] for i in band) < solver._WIDE // 2
        for low, high in itertools.pairwise(bands):
            assert max(vals[i] for i in low) < min(vals[i] for i in high)
        if vals and max(vals) - min(vals) < solver._WIDE // 2:
            assert len(bands) == 1
