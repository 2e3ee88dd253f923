"""CPU seconds to seat a WBC heat (tables of 3 and 4) after earlier heats, for growing fields.

Run: python benchmarks/seating.py [PLAYERS ...]   (default: 200 500 1000)

Each field has players in six clubs (one of them no club) and six earlier heats seated at random, so many pairs
have met already; ``seat_heat`` seats heat 7 (fewest repeat meetings, then fewest club-mates at a table). For
each field it prints the CPU seconds (the best of three, the least disturbed by other work), the repeats and
the club-mates left.
"""

from __future__ import annotations

import random
import sys
import time

from sheetswiss.heats import HeatGame, HeatSeat
from sheetswiss.model import Player
from sheetswiss.seating import seat_heat, split_tables
from sheetswiss.settings import Settings


def random_history(names: list[str], heats: int, rng: random.Random) -> list[HeatGame]:
    """``heats`` heats in which everybody plays, at random tables of 3 and 4."""
    games = []
    for heat in range(1, heats + 1):
        order = names[:]
        rng.shuffle(order)
        start = 0
        for table, size in enumerate(split_tables(len(order), (3, 4)), start=1):
            games.append(HeatGame(heat=heat, table=table,
                                  seats=tuple(HeatSeat(player=p) for p in order[start:start + size])))
            start += size
    return games


def field(players: int, heats: int = 6, seed: int = 3) -> tuple[list[Player], list[HeatGame]]:
    """``players`` players in six clubs and ``heats`` heats in which everybody played at random tables."""
    clubs = ("", "A", "B", "C", "D", "E")
    people = [Player(name=f"P{i:04}", club=clubs[i % len(clubs)]) for i in range(players)]
    return people, random_history([p.name for p in people], heats, random.Random(seed))


def main(sizes: list[int]) -> None:
    print(f"{'players':>8} {'cpu s':>7} {'repeats':>8} {'club-mates':>11}")
    for n in sizes:
        people, games = field(n)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            seating = seat_heat(people, games, Settings(), heat=7)
            best = min(best, time.process_time() - start)
        print(f"{n:>8} {best:>7.2f} {seating.repeats:>8} {seating.same_club:>11}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [200, 500, 1000])
