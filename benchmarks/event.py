"""A whole event on .xlsx through the commands, as a GM runs it: new, players typed in, then each round
pair, results typed into Results, standings. Prints the seconds of each command (load and save
included) and of typing, and the peak memory of the slowest command.

Run: python benchmarks/event.py [PLAYERS [ROUNDS]]   (default: 2000 players, 10 rounds)
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from sheetswiss import api
from sheetswiss.backends.base import Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.workbook.parse import parse_event


def _timed(label: str, fn: object, *args: object, **kwargs: object) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)  # type: ignore[operator]
    seconds = time.perf_counter() - start
    print(f"  {label:<28} {seconds:>7.2f} s", flush=True)
    return seconds


def main(players: int, rounds: int) -> None:
    rng = random.Random(1)
    folder = Path(tempfile.mkdtemp())
    path = folder / "event.xlsx"
    _timed("new", api.new, str(path), seed=1)
    typed: dict[str, Value] = {}
    for r in range(2, players + 2):
        typed[f"A{r}"] = f"Player {r - 1:05d}"
        typed[f"B{r}"] = rng.randrange(1000, 2600)
    _timed("type players", ExcelBackend(path).fill_cells, "Players", typed)
    worst: dict[str, float] = {}
    for round_ in range(1, rounds + 1):
        print(f"round {round_}", flush=True)
        worst["pair"] = max(worst.get("pair", 0), _timed("pair", api.pair, str(path)))
        backend = ExcelBackend(path)
        start = time.perf_counter()
        event = parse_event(backend.read())
        cells = {g.cell.split("!")[1]: rng.choice(["1-0", "0-1", "1/2"])
                 for g in event.games_in(event.paired_rounds) if g.b is not None and g.result is None}
        read = time.perf_counter() - start
        seconds = _timed("type results", backend.fill_cells, "Results", cells)
        print(f"  {'(reading the cells to type)':<28} {read:>7.2f} s")
        worst["type"] = max(worst.get("type", 0), seconds)
        worst["standings"] = max(worst.get("standings", 0), _timed("standings", api.standings, str(path)))
    tracemalloc.start()
    api.pair(str(path), dry_run=True)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"slowest: pair {worst['pair']:.2f} s, standings {worst['standings']:.2f} s, "
          f"typing results {worst['type']:.2f} s; peak memory of a pair {peak:.0f} MiB; "
          f"workbook {path.stat().st_size / 2**20:.1f} MiB")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(args[0] if args else 2000, args[1] if len(args) > 1 else 10)
