"""Building events and workbooks for tests: in memory, or as real .xlsx files typed in like a GM."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from click.testing import CliRunner

from sheetswiss import api
from sheetswiss.backends.base import Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.model import Event, Game, Player
from sheetswiss.pairing import Pairing, pair_round
from sheetswiss.results import Result
from sheetswiss.settings import Settings
from sheetswiss.workbook.parse import parse_event


def benchmark(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py`` (not a package), loaded once: its builders make test states too."""
    key = f"benchmark_{name}"
    if key not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def make_event(players: Iterable[str | Player], games: Iterable[tuple[int, str, str | None, str | None]] = (),
               **settings: object) -> Event:
    """An event from names (or Players) and ``(round, a, b, result)`` rows (``b`` None for a bye)."""
    ps = tuple(p if isinstance(p, Player) else Player(name=p, row=i + 2) for i, p in enumerate(players))
    gs = tuple(
        Game(round=r, table=None, a=a, b=b, result=Result.parse(res) if res else None, row=i + 2,
             cell=f"Results!E{i + 2}")
        for i, (r, a, b, res) in enumerate(games))
    return Event(settings=Settings(**settings), players=ps, games=gs)  # type: ignore[arg-type]


def add_round(event: Event, pairing: Pairing, result: Callable[[str, str], str]) -> Event:
    """``event`` with ``pairing``'s games appended, each with ``result(a, b)``."""
    row = max((g.row for g in event.games), default=1)
    new = []
    for t in pairing.tables:
        row += 1
        text = "bye" if t.b is None else result(t.a, t.b)
        new.append(Game(round=pairing.round, table=t.number, a=t.a, b=t.b, result=Result.parse(text), row=row,
                        cell=f"Results!E{row}"))
    return replace(event, games=event.games + tuple(new))


def random_results(seed: int, draws: bool = True) -> Callable[[str, str], str]:
    """Seeded random results; about one draw in six when ``draws``."""
    rng = random.Random(seed)

    def result(a: str, b: str) -> str:
        roll = rng.random()
        if draws and roll < 0.16:
            return "1/2"
        return "1-0" if roll < 0.58 else "0-1"

    return result


def play(event: Event, rounds: int, result: Callable[[str, str], str],
         before_round: Callable[[Event, int], Event] | None = None) -> tuple[Event, list[Pairing]]:
    """Pair and play ``rounds`` rounds in memory."""
    pairings = []
    for r in range(event.paired_rounds + 1, event.paired_rounds + rounds + 1):
        if before_round is not None:
            event = before_round(event, r)
        pairing = pair_round(event)
        pairings.append(pairing)
        event = add_round(event, pairing, result)
    return event, pairings


def new_workbook(folder: Path, players: Sequence[tuple[Value, ...]] = (), name: str = "event.xlsx",
                 settings: dict[str, Value] | None = None, seed: int = 1) -> Path:
    """A workbook made by ``sheetswiss new``, with Players rows and Settings values typed in."""
    path = folder / name
    api.new(str(path), seed=seed)
    backend = ExcelBackend(path)
    if settings:
        rows = backend.read().rows("Settings")
        where = {str(row[0]): r for r, row in enumerate(rows, start=1) if row}
        cells: dict[str, Value] = {}
        extra = len(rows)
        for key, value in settings.items():
            if key not in where:  # a key the template lacks (or an unknown one, for error tests)
                extra += 1
                where[key] = extra
                cells[f"A{extra}"] = key
            cells[f"B{where[key]}"] = value
        backend.fill_cells("Settings", cells)
    typed: dict[str, Value] = {}
    for r, row in enumerate(players, start=2):
        for c, value in enumerate(row):
            typed[f"{'ABCDEF'[c]}{r}"] = value
    if typed:
        backend.fill_cells("Players", typed)
    return path


def type_results(path: Path, result: Callable[[str, str], str]) -> None:
    """Type a result into every empty Result cell of the last paired round, as a GM would."""
    backend = ExcelBackend(path)
    event = parse_event(backend.read())
    backend.fill_cells("Results", {
        g.cell.split("!")[1]: result(g.a, g.b)
        for g in event.games_in(event.paired_rounds) if g.b is not None and g.result is None})


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The exit code, standard output and standard error of ``sheetswiss ARGS``, run in this process."""
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def refused_lines(path: Path, *args: str) -> list[str]:
    """The error lines of a refused command (each without "Error: "), one a problem: exit 2, no traceback, and
    the workbook at ``path`` byte-identical."""
    before = path.read_bytes()
    code, _, err = run(*args)
    assert code == 2, err
    assert path.read_bytes() == before
    lines = err.splitlines()
    assert lines and all(line.startswith("Error: ") for line in lines) and "Traceback" not in err, err
    return [line.removeprefix("Error: ") for line in lines]


def refused(path: Path, *args: str) -> str:
    """The one error line of a refused command (without "Error: "): exit 2, no traceback, and the workbook
    at ``path`` byte-identical."""
    before = path.read_bytes()
    code, _, err = run(*args)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("Error: ") and "Traceback" not in err, err
    assert path.read_bytes() == before
    return err.strip().removeprefix("Error: ")
