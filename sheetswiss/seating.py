"""Seating one heat: tables of the allowed sizes, fewest repeat meetings, then fewest same-club tables.

The sizes: as many tables of the largest size in ``table_sizes`` as leave a remainder the smaller
sizes can seat, then the same for the next size (13 players at 3,4 -> 4+3+3+3; 22 -> 4+4+4+4+3+3).
The players: a seeded shuffle (``random.Random(f"{seed}:seat:{heat}")``, RULES.md 2.11) improved by
swapping two players of different tables, or moving one to a table one seat smaller, while that lowers
the cost, restarted alternately from the best seating with a few random swaps and from a fresh shuffle.
The cost is, most significant first, the pairs at one table who already sat together in an earlier heat,
then the pairs of one club (DESIGN.md: pairing options).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import final

from .errors import BadSetting
from .fixed_tables import number_tables
from .model import HeatGame, Player, PlayerId
from .names import sort_key
from .settings import Settings

__all__ = ["SeatedTable", "Seating", "meetings", "seat_heat", "split_tables"]

_RESTARTS = 60
"""Restarts, alternately from the best seating so far with a few random swaps and from a fresh shuffle;
each ends in a seating no single swap improves."""


def split_tables(n: int, sizes: Sequence[int]) -> tuple[int, ...]:
    """Table sizes for ``n`` players, largest first: as many of each size, largest first, as still
    leave a remainder the smaller sizes can seat.

    Raises :class:`~sheetswiss.errors.BadSetting` when no split exists (5 players at 3,4).

    >>> split_tables(13, (3, 4)), split_tables(17, (3, 4)), split_tables(22, (3, 4))
    ((4, 3, 3, 3), (4, 4, 3, 3, 3), (4, 4, 4, 4, 3, 3))
    """
    ordered = tuple(sorted(set(sizes), reverse=True))

    @cache
    def split(rest: int, i: int) -> tuple[int, ...] | None:
        if rest == 0:
            return ()
        if i == len(ordered):
            return None
        for count in range(rest // ordered[i], -1, -1):
            tail = split(rest - count * ordered[i], i + 1)
            if tail is not None:
                return (ordered[i],) * count + tail
        return None

    result = split(n, 0) if n > 0 else None
    if result is None:
        allowed = " or ".join(map(str, sorted(ordered)))
        raise BadSetting(f"{n} players cannot be seated at tables of {allowed} (Settings table_sizes); "
                         "change table_sizes or who plays this heat")
    return result


def meetings(games: Iterable[HeatGame], before: int) -> set[frozenset[PlayerId]]:
    """The pairs who sat at one table in a heat before ``before`` (finished or not)."""
    met: set[frozenset[PlayerId]] = set()
    for game in games:
        if game.heat < before:
            names = [s.player for s in game.seats]
            met.update(frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1:])
    return met


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatedTable:
    """One table of a new heat."""

    number: int
    players: tuple[PlayerId, ...]
    """By name."""
    repeats: tuple[tuple[PlayerId, PlayerId], ...]
    """Pairs here who already met in an earlier heat."""
    same_club: tuple[tuple[PlayerId, PlayerId], ...]
    """Pairs here of one club."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Seating:
    """A heat's tables, largest first, with the meetings the search could not avoid."""

    heat: int
    tables: tuple[SeatedTable, ...]
    remarks: tuple[str, ...] = ()
    """A fixed table left empty, two fixed players at one table (RULES.md 2.13)."""

    @property
    def repeats(self) -> int:
        """Pairs seated together again."""
        return sum(len(t.repeats) for t in self.tables)

    @property
    def same_club(self) -> int:
        """Pairs of one club seated together."""
        return sum(len(t.same_club) for t in self.tables)


class _Search:
    """Tables of player indices under an integer pair cost, improved by swaps."""

    def __init__(self, weight: list[list[int]], tables: list[list[int]], rng: random.Random) -> None:
        self.weight = weight
        self.tables = tables
        self.rng = rng
        self.table_of = {p: t for t, members in enumerate(tables) for p in members}

    def pull(self, p: int, t: int, skip: int = -1) -> int:
        """The cost between ``p`` and table ``t``'s players other than ``p`` and ``skip``."""
        row = self.weight[p]
        return sum(row[q] for q in self.tables[t] if q != p and q != skip)

    def cost(self) -> int:
        return sum(self.pull(p, t) for t, members in enumerate(self.tables) for p in members) // 2

    def swap(self, p: int, q: int) -> None:
        a, b = self.table_of[p], self.table_of[q]
        self.tables[a][self.tables[a].index(p)] = q
        self.tables[b][self.tables[b].index(q)] = p
        self.table_of[p], self.table_of[q] = b, a

    def move(self, p: int, b: int) -> None:
        """Seat ``p`` at table ``b`` instead (one larger than ``b``, so the sizes stay the same multiset)."""
        self.tables[self.table_of[p]].remove(p)
        self.tables[b].append(p)
        self.table_of[p] = b

    def descend(self) -> None:
        """Swap two players, or move one from a table to a table one smaller (4, 3 -> 3, 4: the same
        sizes), while that lowers the cost; only a player with a cost at their table can gain."""
        players = sorted(self.table_of)
        improved = True
        while improved:
            improved = False
            self.rng.shuffle(players)
            for p in players:
                a = self.table_of[p]
                here_p = self.pull(p, a)
                if here_p == 0:
                    continue
                smaller = [b for b, members in enumerate(self.tables) if len(members) + 1 == len(self.tables[a])]
                best = min(smaller, key=lambda b: (self.pull(p, b), b), default=None)
                if best is not None and self.pull(p, best) < here_p:
                    self.move(p, best)
                    improved = True
                    continue
                for q in players:
                    b = self.table_of[q]
                    if a == b:
                        continue
                    gain = here_p + self.pull(q, b) - self.pull(p, b, skip=q) - self.pull(q, a, skip=p)
                    if gain > 0:
                        self.swap(p, q)
                        improved = True
                        break


def seat_heat(players: Sequence[Player], games: Sequence[HeatGame], settings: Settings, *, heat: int,
              everyone: Sequence[Player] | None = None) -> Seating:
    """Seat ``players`` (those present for ``heat``) at tables of ``table_sizes`` (module docstring).

    ``games`` are the Heats tab's tables; only heats before ``heat`` count as meetings. The same
    players, history and ``seed`` give the same seating. A repeat meeting remains only when the search
    finds no seating without it; the result lists each one so that the command can report them.
    Takes well under a second for 200 players.

    Fixed tables (Players.Table, RULES.md 2.13): two players with a fixed table are kept at different
    tables before anything else, and each table with one takes its number; the other tables are
    numbered around them, largest first. ``everyone`` (default ``players``) are all the event's
    players: the fixed table of one not present stays empty.
    """
    names = sorted(p.name for p in players)
    if len(set(names)) != len(names):
        raise ValueError("a player is listed twice")
    sizes = split_tables(len(names), settings.table_sizes)
    met = meetings(games, heat)
    club = {p.name: p.club.strip().lower() for p in players}
    repeat_weight = len(names) ** 2 + 1  # more than every same-club pair together
    fixed = {p.name for p in players if p.table is not None}
    fixed_weight = repeat_weight * (len(names) ** 2 + 1)  # more than every repeat together
    weight = [[(fixed_weight * (a in fixed and b in fixed) + repeat_weight * (frozenset((a, b)) in met)
                + (club[a] != "" and club[a] == club[b])) if a != b else 0
               for b in names] for a in names]
    rng = random.Random(f"{settings.seed}:seat:{heat}")
    order = list(range(len(names)))
    rng.shuffle(order)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    search = _Search(weight, [order[s:s + size] for s, size in zip(starts, sizes)], rng)
    search.descend()
    best, best_cost = [list(t) for t in search.tables], search.cost()
    for restart in range(_RESTARTS if len(sizes) > 1 else 0):
        if best_cost == 0:
            break
        if restart % 2:  # a fresh shuffle now and then: a local optimum a few swaps cannot leave
            rng.shuffle(order)
            search = _Search(weight, [order[s:s + size] for s, size in zip(starts, sizes)], rng)
        else:
            search = _Search(weight, [list(t) for t in best], rng)
            for _ in range(rng.randint(1, 3)):
                p, q = rng.sample(range(len(names)), 2)
                if search.table_of[p] != search.table_of[q]:
                    search.swap(p, q)
        search.descend()
        if search.cost() <= best_cost:
            best, best_cost = [list(t) for t in search.tables], search.cost()
    tables = []
    largest_first = [sorted((names[i] for i in members), key=sort_key)
                     for members in sorted(best, key=len, reverse=True)]
    numbering = number_tables(largest_first, everyone if everyone is not None else players, heat, "heat")
    for number, seated in zip(numbering.numbers, largest_first):
        pairs = [(a, b) for i, a in enumerate(seated) for b in seated[i + 1:]]
        tables.append(SeatedTable(
            number=number, players=tuple(seated),
            repeats=tuple(pr for pr in pairs if frozenset(pr) in met),
            same_club=tuple((a, b) for a, b in pairs if club[a] and club[a] == club[b])))
    tables.sort(key=lambda t: t.number)
    return Seating(heat=heat, tables=tuple(tables), remarks=numbering.remarks)
