"""Swiss pairing (RULES.md section 2): worked examples, options, and invariants on random events."""

from __future__ import annotations

import gc
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.errors import SheetswissError
from sheetswiss.history import RoundKind, history, total
from sheetswiss.model import Event, Player
from sheetswiss.pairing import Pairing, check_pairing, pair_round
from sheetswiss.pairing.costs import Costs
from sheetswiss.pairing.gcpause import without_cycle_collection
from sheetswiss.pairing.levels import BALANCE, HEIGHT, RANDOM, SCORE
from sheetswiss.pairing.state import RoundState, round_state
from sheetswiss.pairing.swiss import _passed_over, _solve
from sheetswiss.settings import Settings
from sheetswiss.standings import compute_standings
from sheetswiss.tiebreaks import event_chain

from .helpers import add_round, make_event, play, random_results
from .reference_levels import oracle_levels


def test_rules_2_5_worked_example() -> None:
    """RULES.md 2.5: A-C, B-D, E-F, G-H; score cost 2, float height 3, float cost 6."""
    names = "ABCDEFGH"
    scores = dict(zip(names, map(Fraction, (4, 4, 4, 3, 3, 2, 2, 2))))
    group = dict(zip(names, (0, 0, 0, 1, 1, 2, 2, 2)))
    state = RoundState(round=3, order=tuple(names), scores=scores, group=group,
                       group_members={0: ("A", "B", "C"), 1: ("D", "E"), 2: ("F", "G", "H")}, balance={"B": 1},
                       met=frozenset({frozenset("AB")}), bye_eligible=frozenset(names), clubs=dict.fromkeys(names, ""))
    event = make_event(names)
    solved = _solve(event, state, frozenset(names), rematches=False)
    assert solved is not None
    matching, levels = solved.matching, solved.levels
    assert [names[i] + names[j] for i, j in matching] == ["AC", "BD", "EF", "GH"]
    assert sum(levels[e][SCORE] for e in matching) == 2
    assert sum(levels[e][HEIGHT] for e in matching) == 3
    assert sum(levels[e][BALANCE] for e in matching) == 6


def test_the_leaders_meet_when_they_may() -> None:
    """RULES.md 2.5's second example, from a played event: A and B alone on 2 wins and not met, C and D on
    1 win have met. "A-B, C and D float down" and "A and B float down to C and D" both cost 2 at the score
    level; the float height (level 4) keeps the floats low: A-B, C-F, D-E."""
    played = [(1, "A", "E", "1-0"), (1, "B", "F", "1-0"), (1, "C", "D", "1-0"),
              (2, "A", "C", "1-0"), (2, "B", "E", "1-0"), (2, "D", "F", "1-0")]
    event = make_event("ABCDEF", played)
    pairing = pair_round(event)
    assert [(t.a, t.b) for t in pairing.tables] == [("A", "B"), ("C", "F"), ("D", "E")]
    assert [t.cost[SCORE] for t in pairing.tables] == [0, 1, 1]
    assert [t.cost[HEIGHT] for t in pairing.tables] == [0, 1, 1]
    state = round_state(event, 3)
    leaders_float = [oracle_levels(event, state, 0, 3, False), oracle_levels(event, state, 1, 2, False)]
    assert [lv[SCORE] for lv in leaders_float] == [1, 1]  # the same score cost as C-F and D-E
    assert [lv[HEIGHT] for lv in leaders_float] == [2, 2]  # but each float crosses the top boundary
    assert pairing.proof is not None and pairing.proof.proven


def test_the_float_goes_to_the_balance_nearest_zero() -> None:
    """RULES.md 2.5: A must float down; B (+2, top of its group) has floated up twice, C (0) never, so C
    floats up although B ranks higher; among down-floaters the highest balance goes first."""
    names = "ABCD"
    state = RoundState(round=3, order=tuple(names), scores=dict(zip(names, map(Fraction, (4, 2, 2, 2)))),
                       group=dict(zip(names, (0, 1, 1, 1))), group_members={0: ("A",), 1: ("B", "C", "D")},
                       balance={"B": 2}, met=frozenset(), bye_eligible=frozenset(names), clubs=dict.fromkeys(names, ""))
    solved = _solve(make_event(names), state, frozenset(names), rematches=False)
    assert solved is not None
    assert sorted(names[i] + names[j] for i, j in solved.matching) == ["AC", "BD"]
    levels = [oracle_levels(make_event(names), state, 0, j, False)[BALANCE] for j in (1, 2, 3)]
    # balances run 0..+2: A down costs 1 + 2(2 - 0), B up 1 + 2(2 - 0), C and D up 1 each
    assert levels == [10, 6, 6]  # B costs 4 more than C; C and D tie and position decides


def _five(balance: dict[str, int], met: frozenset[frozenset[str]] = frozenset()) -> tuple[Event, RoundState]:
    """A, B, C on 1 point, D, E on 0 (E ranked last), everyone without a bye."""
    names = "ABCDE"
    state = RoundState(round=4, order=tuple(names), scores=dict(zip(names, map(Fraction, (1, 1, 1, 0, 0)))),
                       group=dict(zip(names, (0, 0, 0, 1, 1))), group_members={0: ("A", "B", "C"), 1: ("D", "E")},
                       balance=balance, met=met, bye_eligible=frozenset(names), clubs=dict.fromkeys(names, ""))
    return make_event(names), state


@pytest.mark.parametrize(("balance", "met", "why"), [
    ({"D": 1}, frozenset(), "E, ranked lower, was passed over: with the bye on E the round costs more at level 7 "
                            "(float balance), 6 against 4"),
    ({}, frozenset(map(frozenset, ("AD", "BD", "CD"))),
     "E, ranked lower, could not take it: no pairing of the others is possible then"),
])
def test_a_bye_that_passes_the_lowest_ranked_player_over_says_why(
        balance: dict[str, int], met: frozenset[frozenset[str]], why: str) -> None:
    """RULES.md 2.4: the lowest-ranked eligible player takes the bye only at level 8, so a bye that goes
    higher says what giving it to them would have cost."""
    event, state = _five(balance, met)
    solved = _solve(event, state, frozenset("ABCDE"), rematches=False)
    assert solved is not None
    matching, levels = solved.matching, solved.levels
    assert [i for i, j in matching if j == 5] == [3]  # D has the bye
    assert _passed_over(event, state, matching, levels, frozenset("ABCDE"), False) == why


def test_a_bye_to_the_lowest_ranked_player_passes_nobody_over() -> None:
    event, state = _five({})
    solved = _solve(event, state, frozenset("ABCDE"), rematches=False)
    assert solved is not None
    assert [i for i, j in solved.matching if j == 5] == [4]  # E
    assert _passed_over(event, state, solved.matching, solved.levels, frozenset("ABCDE"), False) == ""


def rated(n: int, clubs: str = "") -> list[Player]:
    return [Player(name=f"P{i + 1:02d}", rating=2400 - 10 * i, club=clubs[i] if clubs else "", row=i + 2)
            for i in range(n)]


def pairs(event: Event) -> list[tuple[str, str | None]]:
    return [(t.a, t.b) for t in pair_round(event).tables]


def test_round_one_by_rating_is_top_half_against_bottom_half() -> None:
    assert pairs(make_event(rated(8))) == [("P01", "P05"), ("P02", "P06"), ("P03", "P07"), ("P04", "P08")]


def test_round_one_odd_field_gives_the_bye_to_the_last_position() -> None:
    result = pairs(make_event(rated(9)))
    assert result[-1] == ("P09", None)
    assert result[:4] == [("P01", "P05"), ("P02", "P06"), ("P03", "P07"), ("P04", "P08")]


def test_round_one_random_is_seeded() -> None:
    names = [f"N{i}" for i in range(12)]
    one = pairs(make_event(names, seed=5))
    assert one == pairs(make_event(names, seed=5))
    assert one != pairs(make_event(names, seed=6))


def test_a_random_round_one_is_said_with_its_reason() -> None:
    unrated = pair_round(make_event([*rated(5), "Newcomer"], seed=7))
    assert unrated.remarks == ("Round 1 is drawn at random from seed 7 (1 of 6 players have no Rating; with a "
                               "Rating for everyone, or first_round: rating, the top half meets the bottom half)",)
    chosen = pair_round(make_event(rated(6), seed=7, first_round="random"))
    assert chosen.remarks == ("Round 1 is drawn at random from seed 7 (first_round: random)",)
    assert pair_round(make_event(rated(6), seed=7)).remarks == ()
    assert unrated.notes == () and chosen.notes == ()


def test_same_club_is_kept_apart_in_round_one() -> None:
    players = rated(8, clubs="xyzwxyzw")  # slide would pair P01-P05 (both x), P02-P06 (both y) ...
    result = pairs(make_event(players, avoid_same_club="first_round"))
    club = {p.name: p.club for p in players}
    assert all(club[a] != club[b] for a, b in result if b)
    assert any(club[a] == club[b] for a, b in pairs(make_event(players)) if b)


def test_accelerated_pairs_first_quarter_against_second() -> None:
    result = pairs(make_event(rated(16), accelerated=True))
    assert result[:4] == [("P01", "P05"), ("P02", "P06"), ("P03", "P07"), ("P04", "P08")]
    assert result[4:] == [("P09", "P13"), ("P10", "P14"), ("P11", "P15"), ("P12", "P16")]


def test_accelerated_needs_ratings() -> None:
    with pytest.raises(SheetswissError, match=r"Players!B\d+: accelerated pairing needs a rating"):
        pair_round(make_event(["a", "b", "c", "d"], accelerated=True))


def test_rematches_only_when_unavoidable_and_reported() -> None:
    event, _ = play(make_event(rated(4)), 3, random_results(1, draws=False))
    pairing = pair_round(event)  # everyone has met everyone
    assert len(pairing.rematches) == 2
    assert any("rematch" in note for note in pairing.notes)
    with pytest.raises(SheetswissError, match="cannot be paired without a rematch"):
        pair_round(replace(event, settings=replace(event.settings, rematch_fallback="error")))


def test_same_seed_same_pairings() -> None:
    names = [f"N{i}" for i in range(15)]
    a, _ = play(make_event(names, seed=3), 4, random_results(9))
    b, _ = play(make_event(names, seed=3), 4, random_results(9))
    assert a.games == b.games


def test_late_entry_and_drop() -> None:
    players = rated(7)
    players[6] = replace(players[6], joined=3)
    players[0] = replace(players[0], dropped=True, dropped_after=2)
    _, pairings = play(make_event(players, late_entry_points="draw"), 4, random_results(4))
    in_round = [{n for t in p.tables for n in (t.a, t.b) if n} for p in pairings]
    assert "P07" not in in_round[0] | in_round[1] and "P07" in in_round[2]
    assert "P01" in in_round[1] and "P01" not in in_round[2] | in_round[3]
    assert ("P07", "joins in round 3") in pairings[0].not_paired


# -- properties on random events ---------------------------------------------------------------------------

@st.composite
def events(draw: st.DrawFn, max_players: int = 11) -> tuple[Event, int]:
    n = draw(st.integers(2, max_players))
    rounds = draw(st.integers(1, min(5, n)))
    players = []
    for i in range(n):
        joined = draw(st.sampled_from([1, 1, 1, 2, 3]))
        drop = draw(st.sampled_from([None, None, None, 1, 2, 3]))
        rating = draw(st.one_of(st.none(), st.integers(1000, 2500)))
        players.append(Player(name=f"p{i}", rating=rating, joined=joined, row=i + 2,
                              dropped=drop is not None, dropped_after=drop,
                              club=draw(st.sampled_from(["", "a", "b"]))))
    settings_ = Settings(seed=draw(st.integers(0, 50)), points=draw(st.sampled_from(["armati", "chess"])),
                         avoid_same_club=draw(st.sampled_from(["no", "first_round", "always"])),
                         within_group=draw(st.sampled_from(["slide", "fold", "random"])))
    return Event(settings=settings_, players=tuple(players)), rounds


def _play_checked(event: Event, rounds: int, seed: int) -> list[tuple[Event, Pairing]]:
    states = []
    result = random_results(seed)
    for _ in range(rounds):
        if not any(p.plays_in(event.paired_rounds + 1) for p in event.players):
            break
        pairing = pair_round(event)
        states.append((event, pairing))
        assert check_pairing(event, pairing) == []
        event = add_round(event, pairing, result)
    return states


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 1000))
def test_the_round_state_is_what_the_records_say(case: tuple[Event, int], seed: int) -> None:
    """The round state, read in one pass into arrays, agrees with each player's records read one by one
    (RULES.md 2): pairing scores are the records' pairing points, score groups go down by score, a float
    is up or down by the scores before its round (2.5), the met pairs are the records' opponents (2.3), the
    bye goes to those without one (2.4), and the order is score, then the standings' rank without the lot,
    then rating and name (2.1)."""
    event, rounds = case
    for before, pairing in _play_checked(event, rounds, seed):
        state = round_state(before, pairing.round)
        recs = history(before, through=pairing.round - 1)
        scores = {x: total(rs, pairing=True) for x, rs in recs.items()}
        assert state.scores == {x: scores[x] for x in state.order}
        distinct = sorted({scores[x] for x in state.order}, reverse=True)
        assert state.group == {x: distinct.index(scores[x]) for x in state.order}
        assert state.met == {frozenset((x, r.opponent)) for x, rs in recs.items() for r in rs
                             if r.opponent is not None}
        balance: Counter[str] = Counter()
        for x, rs in recs.items():
            for k, r in enumerate(rs):
                if r.opponent is not None:
                    mine, theirs = total(rs[:k], pairing=True), total(recs[r.opponent][:k], pairing=True)
                    balance[x] += (theirs > mine) - (theirs < mine)
        assert state.balance == {x: b for x, b in balance.items() if b}
        byes = {RoundKind.PAB, RoundKind.FORFEIT_WIN} if before.settings.points == "chess" else {RoundKind.PAB}
        assert state.bye_eligible == {x for x in state.order if all(r.kind not in byes for r in recs[x])}
        chain = tuple(name for name in event_chain(before) if name != "random")
        ranked = replace(before, settings=replace(before.settings, tiebreaks=chain))
        rank = {r.player: r.rank for r in compute_standings(ranked, through=pairing.round - 1).rows}
        rating = {p.name: p.rating or 0 for p in before.players}
        if pairing.round > 1:
            assert state.order == tuple(sorted(state.order, key=lambda x: (-scores[x], rank[x], -rating[x], x)))


def _positions(pairs: frozenset[frozenset[str]], at: dict[str, int]) -> set[tuple[int, int]]:
    """The pairs of players both in ``at``, by their positions there, the lower first."""
    return {(min(at[a], at[b]), max(at[a], at[b])) for a, b in map(tuple, pairs) if a in at and b in at}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 1000))
def test_the_costs_know_the_round_states_pairs_by_position(case: tuple[Event, int], seed: int) -> None:
    """The pairs that have met (RULES.md 2.3), those kept out even in the rematch fallback (2.12) and the side
    assignments played (3), turned from names into positions over arrays, are the round state's, pair by
    pair; pairs with a player not paired this round (dropped, not yet joined) are left out."""
    event, rounds = case
    for before, pairing in _play_checked(event, rounds, seed):
        state = round_state(before, pairing.round)
        state = replace(state, forbidden=frozenset(sorted(state.met, key=sorted)[::2]))  # any pairs of met
        costs = Costs(before, state, state.order, rematches=True)
        at = {x: i for i, x in enumerate(state.order)}
        everyone = [(i, j) for i in range(len(at)) for j in range(i + 1, costs.nodes)]
        assert {(i, j) for i, j in everyone if costs.have_met(i, j)} == _positions(state.met, at)
        both = np.array(everyone, dtype=np.int64).reshape(-1, 2)
        allowed = costs.allowed_many(both[:, 0], both[:, 1]).tolist()
        assert {pair for pair, ok in zip(everyone, allowed) if not ok} == _positions(state.forbidden, at)
        assert set(costs._side_one.tolist()) == {at[a] * costs.nodes + at[b] for a, b in state.played
                                                 if a in at and b in at}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 1000))
def test_each_weight_is_its_levels_times_their_multipliers(case: tuple[Event, int], seed: int) -> None:
    """RULES.md 2.1's weight of every pair, summed in 64-bit runs of levels, is the sum of each level times its
    multiplier in Python integers; so is that of a row beyond the levels' bounds (summed the plain way)."""
    event, rounds = case
    for before, pairing in _play_checked(event, rounds, seed):
        state = round_state(before, pairing.round)
        costs = Costs(before, state, state.order, rematches=True)
        both = np.array([(i, j) for i in range(costs.nodes) for j in range(i + 1, costs.nodes)],
                        dtype=np.int64).reshape(-1, 2)
        table = costs.level_table(both[:, 0], both[:, 1])
        beyond = np.vstack([table, np.full((1, table.shape[1]), 1 << 40, dtype=np.int64)])
        for rows in (table, beyond):
            assert costs.weights_of(rows) == [sum(int(x) * m for x, m in zip(row, costs.multipliers))
                                              for row in rows.tolist()]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.integers(0, 1000))
def test_everyone_paired_once_no_avoidable_rematch_at_most_one_bye(case: tuple[Event, int], seed: int) -> None:
    event, rounds = case
    byes: Counter[str] = Counter()
    for before, pairing in _play_checked(event, rounds, seed):
        state = round_state(before, pairing.round)
        paired = Counter(n for t in pairing.tables for n in (t.a, t.b) if n)
        assert set(paired) == set(state.order) and set(paired.values()) == {1}
        if pairing.rematches:
            assert _min_matching(before, state, rematches=False, anyone_bye=True) is None
        if pairing.bye:
            byes[pairing.bye] += 1
            if byes[pairing.bye] > 1:
                assert pairing.notes


def _matchings(nodes: list[int], edges: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    if not nodes:
        return [[]]
    first, rest = nodes[0], nodes[1:]
    out = []
    for k, other in enumerate(rest):
        if (first, other) in edges:
            for m in _matchings(rest[:k] + rest[k + 1:], edges):
                out.append([(first, other), *m])
    return out


def _min_matching(event: Event, state: RoundState, rematches: bool, anyone_bye: bool = False
                  ) -> tuple[Fraction, ...] | None:
    """The lexicographically least total level vector over every perfect matching, by brute force."""
    n = len(state.order)
    pool = frozenset(state.order) if anyone_bye or not state.bye_eligible else state.bye_eligible
    levels = {}
    for i in range(n):
        for j in range(i + 1, n):
            met = frozenset((state.order[i], state.order[j])) in state.met
            if not met or rematches:
                levels[i, j] = oracle_levels(event, state, i, j, met)
        if n % 2 and state.order[i] in pool:
            levels[i, n] = oracle_levels(event, state, i, n, False)
    totals = [tuple(sum(col) for col in zip(*(levels[e] for e in m)))
              for m in _matchings(list(range(n + n % 2)), set(levels))]
    return min(totals) if totals else None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(max_players=9), st.integers(0, 1000))
def test_matching_cost_equals_brute_force(case: tuple[Event, int], seed: int) -> None:
    event, rounds = case
    for before, pairing in _play_checked(event, rounds, seed):
        state = round_state(before, pairing.round)
        if pairing.notes:
            continue  # a relaxed round: covered by the invariant test
        got = tuple(sum(col) for col in zip(*(t.cost for t in pairing.tables)))
        best = _min_matching(before, state, rematches=False)
        assert best is not None
        assert got[:RANDOM] == best[:RANDOM]  # level 11, the seeded random, is drawn by the solver itself


def test_pairing_leaves_the_cycle_collector_as_it_found_it() -> None:
    """The collector is off while a round is paired, and back as it was after, also when pairing fails."""
    seen: list[bool] = []
    without_cycle_collection(lambda: seen.append(gc.isenabled()))()
    assert seen == [False] and gc.isenabled()
    pair_round(make_event(rated(8)))
    assert gc.isenabled()
    with pytest.raises(SheetswissError, match="nobody is left to pair"):
        pair_round(make_event([]))
    assert gc.isenabled()
    gc.disable()
    try:
        pair_round(make_event(rated(8)))
        assert not gc.isenabled()
    finally:
        gc.enable()
