"""Seconds, peak memory and cost of pairing one round after five played rounds, by field size,
beside the swisspair package (a C++ heuristic) on the same states, its pairs costed with our cost.

Run: python benchmarks/pairing.py [SIZE ...]   (default sizes: 64 256 1000 2000 8000)

Columns: ``cost`` is the pairing's RULES.md 2.1 level totals that differ in practice (score / float
height / float balance / who floats / pattern), ``gap`` the proven distance to the optimum (0: proven optimal, ``?``:
no bound), ``rem`` the rematches; ``sp`` columns are swisspair's, ``x`` its time over ours.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from dataclasses import replace

from sheetswiss.model import Event, Game, Player
from sheetswiss.pairing import pair_round
from sheetswiss.pairing.engine import Costs
from sheetswiss.pairing.levels import BALANCE, HEIGHT, LEVELS, PATTERN, REMATCH, SCORE, WHO_FLOATS
from sheetswiss.pairing.swiss import _state
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


def totals(event: Event, pairs: list[tuple[str, str | None]]) -> tuple[int, ...]:
    """The level totals of ``pairs`` under RULES.md 2.1 (level 3 scaled to integers)."""
    st = _state(event, event.paired_rounds + 1)
    costs = Costs(event, st, st.order, rematches=True)
    position = {name: i for i, name in enumerate(st.order)}
    out = [0] * len(LEVELS)
    for a, b in pairs:
        i, j = position[a], (costs.bye if b is None else position[b])
        for k, v in enumerate(costs.levels(min(i, j), max(i, j))):
            out[k] += v
    return tuple(out)


def swisspair_pairs(event: Event) -> tuple[list[tuple[str, str | None]], float] | None:
    """swisspair's pairing of the next round and its seconds, or ``None`` when it is not installed."""
    try:
        import swisspair  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    st = _state(event, event.paired_rounds + 1)
    met: dict[str, set[str]] = {name: set() for name in st.order}
    for pair in st.met:
        a, b = tuple(pair)
        if a in met and b in met:
            met[a].add(b)
            met[b].add(a)
    players = [swisspair.Player(id=name, points=int(2 * st.scores[name]), rank=i + 1,
                                can_get_bye=name in st.bye_eligible, cannot_be_paired_against_ids=met[name])
               for i, name in enumerate(st.order)]
    start = time.perf_counter()
    matches = swisspair.create_matches(players)
    seconds = time.perf_counter() - start
    return [(m.p1.id, None if m.p2 is None else m.p2.id) for m in matches], seconds


def _cost(levels: tuple[int, ...]) -> str:
    return "/".join(str(levels[k]) for k in (SCORE, HEIGHT, BALANCE, WHO_FLOATS, PATTERN))


def main(sizes: list[int]) -> None:
    print(f"{'players':>8} {'seconds':>8} {'peak MiB':>9} {'cost':>20} {'gap':>4} {'rem':>4} "
          f"{'sp sec':>7} {'sp cost':>20} {'sp rem':>6} {'x':>6}")
    for size in sizes:
        event = state(size)
        start = time.perf_counter()
        pairing = pair_round(event)
        seconds = time.perf_counter() - start
        tracemalloc.start()  # a second run for memory: tracing slows Python down
        pair_round(event)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        ours = totals(event, [(t.a, t.b) for t in pairing.tables])
        proof = pairing.proof
        gap = "?" if proof is None or proof.gap < 0 else ("0" if proof.proven else "+")
        line = (f"{size:>8} {seconds:>8.2f} {peak:>9.1f} {_cost(ours):>20} {gap:>4} "
                f"{len(pairing.rematches):>4}")
        theirs = swisspair_pairs(event)
        if theirs is None:
            line += f" {'not installed':>43}"
        else:
            pairs, sp_seconds = theirs
            levels = totals(event, pairs)
            verdict = "<=" if ours <= levels else ">"
            line += (f" {sp_seconds:>7.2f} {_cost(levels):>20} {levels[REMATCH]:>6} {seconds / sp_seconds:>6.1f}"
                     f"  ours {verdict} theirs")
        print(line, flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [64, 256, 1000, 2000, 8000])
