"""Seating a heat: table sizes, repeat meetings only where unavoidable, clubs, determinism, speed."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.errors import BadSetting
from sheetswiss.heats import HeatGame
from sheetswiss.model import Player
from sheetswiss.seating import Seating, meetings, seat_heat, split_tables
from sheetswiss.settings import Settings

from .helpers import benchmark


@pytest.mark.parametrize(("n", "sizes", "expected"), [
    (13, (3, 4), (4, 3, 3, 3)),
    (14, (3, 4), (4, 4, 3, 3)),
    (17, (3, 4), (4, 4, 3, 3, 3)),
    (22, (3, 4), (4, 4, 4, 4, 3, 3)),
    (12, (3, 4), (4, 4, 4)),
    (3, (3, 4), (3,)),
    (13, (3, 4, 5), (5, 5, 3)),
    (7, (2, 3, 4, 5), (5, 2)),
    (9, (4, 5), (5, 4)),
    (6, (2,), (2, 2, 2)),
])
def test_split_tables(n: int, sizes: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert split_tables(n, sizes) == expected


@pytest.mark.parametrize(("n", "sizes"), [(5, (3, 4)), (2, (3, 4)), (0, (3, 4)), (7, (4,)), (11, (4, 5))])
def test_no_split_is_one_clear_error(n: int, sizes: tuple[int, ...]) -> None:
    with pytest.raises(BadSetting, match=rf"^{n} players cannot be seated at tables of .*table_sizes"):
        split_tables(n, sizes)


@given(st.integers(6, 300))
def test_every_count_from_6_splits_into_3s_and_4s(n: int) -> None:
    sizes = split_tables(n, (3, 4))
    assert sum(sizes) == n and set(sizes) <= {3, 4} and list(sizes) == sorted(sizes, reverse=True)
    assert sizes.count(4) == max(a for a in range(n // 4 + 1) if (n - 4 * a) % 3 == 0)


def players(n: int, clubs: Sequence[str] = ("",)) -> list[Player]:
    return [Player(name=f"P{i:03}", club=clubs[i % len(clubs)]) for i in range(n)]


random_history = benchmark("seating").random_history
"""``heats`` heats in which everybody plays, at random tables of 3 and 4 (the seating benchmark's history)."""


def check(seating: Seating, people: Sequence[Player], games: Sequence[HeatGame], sizes: tuple[int, ...]) -> None:
    """Everyone once, the split's sizes, and the reported repeats and clubs are the real ones."""
    seated = [p for t in seating.tables for p in t.players]
    assert sorted(seated) == sorted(p.name for p in people)
    assert tuple(len(t.players) for t in seating.tables) == split_tables(len(people), sizes)
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    met = meetings(games, seating.heat)
    club = {p.name: p.club for p in people}
    for t in seating.tables:
        pairs = list(itertools.combinations(t.players, 2))
        assert t.repeats == tuple(pr for pr in pairs if frozenset(pr) in met)
        assert t.same_club == tuple(pr for pr in pairs if club[pr[0]] and club[pr[0]] == club[pr[1]])


@pytest.mark.parametrize("n", [13, 14, 17, 22])
def test_seating_sizes_and_no_avoidable_repeat(n: int) -> None:
    people = players(n, clubs=("", "Red", "Blue"))
    games = random_history([p.name for p in people], 2, random.Random(n))
    seating = seat_heat(people, games, Settings(seed=5), heat=3)
    check(seating, people, games, (3, 4))
    assert seating.repeats == 0  # after two heats a seating without repeats exists at these sizes


def test_first_heat_has_no_repeats_and_keeps_clubs_apart() -> None:
    people = players(12, clubs=("A", "B", "C", "D"))
    seating = seat_heat(people, [], Settings(), heat=1)
    assert seating.repeats == 0 and seating.same_club == 0


def test_same_seed_same_seating_other_seed_other_seating() -> None:
    people = players(22)
    games = random_history([p.name for p in people], 3, random.Random(1))
    a = seat_heat(people, games, Settings(seed=11), heat=4)
    assert a == seat_heat(list(reversed(people)), games, Settings(seed=11), heat=4)
    assert any(seat_heat(people, games, Settings(seed=s), heat=4).tables != a.tables for s in range(12, 16))


def test_later_heats_rows_are_not_meetings() -> None:
    people = players(6)
    games = random_history([p.name for p in people], 3, random.Random(2))
    assert meetings(games, 1) == set()
    assert len(meetings(games, 2)) == 6  # two tables of three
    seat_heat(people, games, Settings(), heat=2)  # heat 2 and 3 rows are ignored


def test_too_few_players_is_one_clear_error() -> None:
    with pytest.raises(BadSetting, match=r"^5 players cannot be seated at tables of 3 or 4"):
        seat_heat(players(5), [], Settings(), heat=1)


def _partitions(items: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way to seat ``items`` at tables of ``sizes`` (tables of one size unordered)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, size in enumerate(sizes):
        if size in sizes[:i]:
            continue
        for mates in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for tail in _partitions(left, sizes[:i] + sizes[i + 1:]):
                yield [[first, *mates], *tail]


def _optimum(people: list[Player], games: list[HeatGame], heat: int) -> tuple[int, int]:
    met = meetings(games, heat)
    club = {p.name: p.club for p in people}
    return min((sum(frozenset(pr) in met for t in part for pr in itertools.combinations(t, 2)),
                sum(bool(club[a]) and club[a] == club[b] for t in part for a, b in itertools.combinations(t, 2)))
               for part in _partitions([p.name for p in people], list(split_tables(len(people), (3, 4)))))


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 11), st.integers(1, 7), st.integers(0, 10**6),
       st.lists(st.sampled_from(["", "A", "B"]), min_size=11, max_size=11))
def test_seating_matches_brute_force_optimum(n: int, heats: int, seed: int, clubs: list[str]) -> None:
    people = [Player(name=f"P{i}", club=clubs[i]) for i in range(n)]
    games = random_history([p.name for p in people], heats - 1, random.Random(seed))
    seating = seat_heat(people, games, Settings(seed=seed), heat=heats)
    check(seating, people, games, (3, 4))
    assert (seating.repeats, seating.same_club) == _optimum(people, games, heats)


def test_two_hundred_players_are_seated_without_a_repeat() -> None:
    """Two hundred players in six clubs after six random heats: a valid seating with no repeat meeting (how long
    it takes is measured by ``benchmarks/seating.py``, not here)."""
    people = players(200, clubs=("", "A", "B", "C", "D", "E"))
    games = random_history([p.name for p in people], 6, random.Random(3))
    seating = seat_heat(people, games, Settings(), heat=7)
    check(seating, people, games, (3, 4))
    assert seating.repeats == 0


@pytest.mark.parametrize("clubs,best", [
    ("A--A---A---", (6, 1)),
    ("A--A-A--BB-", (6, 2)),
])
def test_seating_leaves_a_local_optimum_that_swaps_cannot(clubs: str, best: tuple[int, int]) -> None:
    """Six repeats forced and club-mates together: no single swap separates them without a new repeat;
    moving a player to the table one seat smaller, or a fresh restart, reaches the optimum."""
    people = [Player(name=f"P{i}", club=c.strip("-")) for i, c in enumerate(clubs)]
    games = random_history([p.name for p in people], 4, random.Random(10688))
    seating = seat_heat(people, games, Settings(seed=10688), heat=5)
    assert (seating.repeats, seating.same_club) == _optimum(people, games, 5) == best
