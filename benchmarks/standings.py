"""Seconds to compute standings with six tiebreaks for a large Swiss event (8,000 players, 15 rounds).

Run: python benchmarks/standings.py [PLAYERS [ROUNDS [REPEATS]]]

The event is generated, not paired: each round shuffles the players still in, pairs neighbours
and types seeded results (about one draw in six, one forfeit in a hundred), with a PAB for an odd
player out and a few drops, so every kind of round (RULES.md 1.2) is present. Only
``compute_standings`` is timed: finding the completed rounds, reading the history, the six
tiebreaks and the ranking, each repeat on a fresh copy of the event (nothing cached); the best of
the repeats is printed, as the least disturbed by other work on the machine.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace

from sheetswiss.model import Event, Game, Player
from sheetswiss.results import Result
from sheetswiss.settings import Settings
from sheetswiss.standings import compute_standings

CHAIN = ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "progress", "wins")
"""The chess default chain (RULES.md 4.1) with Progress: six tiebreaks."""


def event(players: int, rounds: int, seed: int = 1) -> Event:
    """A finished chess event under ``unplayed: fide2023`` with every kind of round."""
    rng = random.Random(seed)
    roster = tuple(Player(name=f"P{i:05d}", rating=rng.randrange(1000, 2600), row=i + 2,
                          dropped_after=rng.randrange(1, rounds) if i % 200 == 0 else None,
                          dropped=i % 200 == 0)
                   for i in range(players))
    texts = {Result.parse(t).spelling(): Result.parse(t) for t in ("1-0", "0-1", "1/2", "+/-", "-/+", "bye")}
    games: list[Game] = []
    for r in range(1, rounds + 1):
        active = [p.name for p in roster if p.plays_in(r)]
        rng.shuffle(active)
        if len(active) % 2:
            games.append(Game(round=r, table=None, a=active.pop(), b=None, result=texts["bye"],
                              row=len(games) + 2))
        for i in range(0, len(active), 2):
            roll = rng.random()
            text = "+/-" if roll < 0.005 else "-/+" if roll < 0.01 else "1/2" if roll < 0.17 else \
                "1-0" if roll < 0.6 else "0-1"
            games.append(Game(round=r, table=i // 2 + 1, a=active[i], b=active[i + 1], result=texts[text],
                              row=len(games) + 2))
    return Event(settings=Settings(points="chess", unplayed="fide2023", tiebreaks=CHAIN), players=roster,
                 games=tuple(games))


def main(players: int, rounds: int, repeats: int) -> None:
    ev = event(players, rounds)
    times = []
    for _ in range(repeats):
        fresh = replace(ev)  # a new Event: its cached round index and completed rounds are computed again
        start = time.perf_counter()
        standings = compute_standings(fresh)
        times.append(time.perf_counter() - start)
    print(f"{players} players, {rounds} rounds, {len(standings.chain)} tiebreaks "
          f"({', '.join(standings.chain)}): {min(times):.2f} s (best of {repeats})")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args + [8000, 15, 3][len(args):]))
