"""Seconds to pair one round of a Swiss event after five played rounds, by field size.

Run: python benchmarks/pairing.py [SIZE ...]   (default sizes: 64 128 256)
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from dataclasses import replace

from sheetswiss.model import Event, Game, Player
from sheetswiss.pairing import pair_round
from sheetswiss.results import Result
from sheetswiss.settings import Settings


def state(size: int, rounds: int = 5, seed: int = 1) -> Event:
    """A Swiss event of ``size`` rated players with ``rounds`` rounds of win/loss results."""
    rng = random.Random(seed)
    players = tuple(Player(name=f"P{i:05d}", rating=rng.randrange(1000, 2600), row=i + 2) for i in range(size))
    event = Event(settings=Settings(seed=seed, points="hct"), players=players)
    row = 1
    for _ in range(rounds):
        pairing = pair_round(event)
        games = []
        for t in pairing.tables:
            row += 1
            text = "bye" if t.b is None else rng.choice(["1-0", "0-1"])
            games.append(Game(round=pairing.round, table=t.number, a=t.a, b=t.b, result=Result.parse(text),
                              row=row, cell=f"Results!E{row}"))
        event = replace(event, games=event.games + tuple(games))
    return event


def main(sizes: list[int]) -> None:
    print(f"{'players':>8} {'seconds':>8} {'peak MiB':>9} {'rematches':>9}")
    for size in sizes:
        event = state(size)
        tracemalloc.start()
        start = time.perf_counter()
        pairing = pair_round(event)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        print(f"{size:>8} {seconds:>8.2f} {peak:>9.1f} {len(pairing.rematches):>9}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [64, 128, 256])
