"""The whole ``sheetswiss pair`` command on a big late-round .xlsx, its time split by phase.

The workbook is what a GM's file looks like before round 12 of a 13-round chess event: Players, 11 rounds
of results in Results (about 15% draws, a bye each round when the field is odd), the Pairings of round 11,
the Standings after it and the Log, written once by :func:`write_workbook` from the ``late`` state of
``benchmarks/pairing.py`` (paired there by a plain greedy pairer, not by the engine). The command is then
run once in this process, as ``sheetswiss pair`` runs it, each phase timed where the command calls it:

* read: the file unzipped and its tabs found (a tab's cells are read when first looked at, so the cells of
  Settings, Players and Results count under parse);
* parse: Settings, Players and Results to the event;
* pair: the pairing engine (round state, costs, matching and its proof);
* check pairing: the pairing checked against the round state it was paired from, before anything is written;
* render: the Results rows, the Pairings tab and the Log tab; checksum: the Log's fingerprint of the input;
* write: the package edited (appended rows, tool tabs, styles, recalculation flags) and saved atomically;
* other: the rest of ``api.pair`` (the event's own checks, the report).

Then the same command runs as its own process (``python -m sheetswiss pair``), start to exit. Times are
process CPU seconds (``time.process_time``: another program busy on the same cores inflates it far less
than wall time) beside wall seconds; the last column is each phase's share of the CPU time.

Run: python benchmarks/command.py [PLAYERS] [--keep FILE] [--state STATE] [--seed N]   (default: 8,000
     players; FILE keeps the workbook, built once and reused when it exists; STATE one of ``late``,
     ``colours``, ``single``, ``double``, ``drawn`` of ``benchmarks/pairing.py``, with their settings: round 12
     under ``colours: alternate``, round 10 under ``sides: single`` or ``sides: double``, round 12 under
     ``within_group: random``)
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from sheetswiss import api
from sheetswiss.backends.base import Changes, Tab, Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import GC_THRESHOLDS
from sheetswiss.history import history
from sheetswiss.model import Event
from sheetswiss.pairing import Pairing, Table
from sheetswiss.workbook.contract import PLAYERS, RESULTS, SETTINGS
from sheetswiss.workbook.render import pairings_tab, template_tabs

sys.path.insert(0, str(Path(__file__).parent))
from pairing import SHAPES, build

T = TypeVar("T")

WHEN = dt.datetime(2026, 7, 4, 18, 0)
"""The time the workbook says its earlier commands ran."""


def write_workbook(path: Path, players: int, seed: int = 1, state: str = "late") -> Event:
    """Write the workbook of ``players`` players before the round ``state`` pairs (a state of
    ``benchmarks/pairing.py``, the late round by default) to ``path`` (a new file); the event it holds.

    As a GM's file stands then: Settings, Players, Results through the last round played, the Pairings of
    that round, the Standings after it, and the Log."""
    shape = SHAPES[state]
    event = build(players, shape, seed)
    settings: dict[str, Value] = {**shape.settings, "rounds": shape.rounds + 2, "seed": seed}
    tabs: list[Tab] = []
    for tab in template_tabs("swiss", seed):
        rows = list(tab.rows)
        if tab.name == SETTINGS:
            rows = [(r[0], settings.get(str(r[0]), r[1]), *r[2:]) for r in rows]
        elif tab.name == PLAYERS:
            rows += [(p.name, p.rating, p.club or None) for p in event.players]
        elif tab.name == RESULTS:
            games: list[tuple[Value, ...]] = []
            for g in event.games:
                text = g.result.spelling() if g.result is not None else None
                games.append((g.round, g.table, g.a, g.b if g.b is not None else "BYE", text))
            rows += games
        tabs.append(Tab(tab.name, tuple(rows), tab.format))
    ExcelBackend(path).write(Changes(new_tabs=tuple(tabs)))
    last = event.paired_rounds
    before = replace(event, games=tuple(g for g in event.games if g.round < last))
    records = history(before, through=last - 1)
    scores = {p.name: sum((r.pairing_points for r in records[p.name]), Fraction(0)) for p in before.players}
    tables: list[Table] = []
    numbers: set[int] = set()  # under sides: double a table's first game names it
    for g in event.games:
        if g.round == last and g.table not in numbers:
            tables.append(Table(number=g.table, a=g.a, b=g.b, cost=()))
            numbers.update(() if g.table is None else (g.table,))
    played = Pairing(round=last, scores=scores, tables=tuple(tables))
    ExcelBackend(path).write(Changes(tool_tabs=(pairings_tab(before, played, WHEN),)))
    api.standings(str(path), now=WHEN)
    return event


PHASES: tuple[tuple[str, str, str], ...] = (
    ("read", "sheetswiss.backends.excel", "ExcelBackend.read"),
    ("parse", "sheetswiss.workbook.parse", "parse_event"),
    ("pair", "sheetswiss.pairing", "round_state"),
    ("pair", "sheetswiss.pairing", "pair_round"),
    ("check pairing", "sheetswiss.pairing", "check_pairing"),
    ("render", "sheetswiss.workbook.render", "results_append"),
    ("render", "sheetswiss.workbook.render", "pairings_tab"),
    ("render", "sheetswiss.workbook.render", "log_tab"),
    ("checksum", "sheetswiss.api", "checksum"),
    ("write", "sheetswiss.backends.excel", "ExcelBackend.write"),
)
"""Phase, module and function: each function is timed wherever the command calls it from (every module that
imported it), and only when no other timed function is running, so no second is counted twice."""


class Clock:
    """CPU and wall seconds per phase, over the calls of the timed functions."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}
        self.depth = 0

    def timed(self, phase: str, fn: Callable[..., T]) -> Callable[..., T]:
        def run(*args: object, **kwargs: object) -> T:
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu[phase] = self.cpu.get(phase, 0.0) + time.process_time() - cpu
                self.wall[phase] = self.wall.get(phase, 0.0) + time.perf_counter() - wall
                self.depth -= 1
        return run

    def install(self) -> None:
        """Put the timed functions in place of the real ones, in every module of the package that holds them."""
        for phase, module, name in PHASES:
            owner: object = importlib.import_module(module)
            *path, attr = name.split(".")
            for part in path:
                owner = getattr(owner, part)
            real = getattr(owner, attr)
            wrapped = self.timed(phase, real)
            if path:  # a method: replaced on its class
                setattr(owner, attr, wrapped)
                continue
            for loaded in list(sys.modules.values()):
                if (getattr(loaded, "__name__", "").startswith("sheetswiss")
                        and getattr(loaded, attr, None) is real):
                    setattr(loaded, attr, wrapped)


def import_seconds() -> float:
    """CPU seconds of importing the command line's module in a fresh Python (what every command pays first)."""
    code = "import time; t = time.process_time(); import sheetswiss.cli; print(time.process_time() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def whole_command(path: Path) -> tuple[float, float]:
    """CPU and wall seconds of ``sheetswiss pair PATH`` run as its own process, start to exit (CPU time is the
    child's user and system time where the system reports it)."""
    before, wall = os.times(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "sheetswiss", "pair", str(path)], capture_output=True, check=True)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("players", nargs="?", type=int, default=8000)
    parser.add_argument("--state", choices=("late", "colours", "single", "double", "drawn"), default="late",
                        help="the state of benchmarks/pairing.py the workbook holds (default: late)")
    parser.add_argument("--seed", type=int, default=1, help="the seed the state is built with")
    parser.add_argument("--keep", type=Path, help="keep the workbook here (reused when it exists)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp())
    try:
        source = args.keep or folder / "event.xlsx"
        if not source.exists():
            cpu = time.process_time()
            written = write_workbook(source, args.players, args.seed, args.state)
            print(f"workbook: {args.players} players, {written.paired_rounds} rounds of results, built in "
                  f"{time.process_time() - cpu:.1f} s CPU", flush=True)
        size = source.stat().st_size / 2**20
        print(f"{source} ({size:.1f} MiB); sheetswiss pair, process CPU seconds and wall seconds\n", flush=True)
        work = folder / "pair.xlsx"
        shutil.copyfile(source, work)
        clock = Clock()
        clock.install()
        gc.set_threshold(*GC_THRESHOLDS)  # as the command's process runs
        cpu, wall = time.process_time(), time.perf_counter()
        report = api.pair(str(work))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        phases = list(dict.fromkeys(p for p, _, _ in PHASES))
        clock.cpu["other"] = cpu - sum(clock.cpu.values())
        clock.wall["other"] = wall - sum(clock.wall.values())
        print(f"  {'phase':<16} {'CPU s':>7} {'wall s':>7} {'share':>6}")
        for phase in [*phases, "other"]:
            c, w = clock.cpu.get(phase, 0.0), clock.wall.get(phase, 0.0)
            print(f"  {phase:<16} {c:>7.2f} {w:>7.2f} {c / cpu:>6.0%}")
        print(f"  {'api.pair':<16} {cpu:>7.2f} {wall:>7.2f}")
        print(f"  {'(import)':<16} {import_seconds():>7.2f}")
        shutil.copyfile(source, work)
        cpu, wall = whole_command(work)
        print(f"  {'whole command':<16} {cpu:>7.2f} {wall:>7.2f}   (sheetswiss pair as its own process)")
        print(f"\n{report.lines[0]}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
