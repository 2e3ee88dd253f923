"""The README's samples are what the commands print: each ``$ sheetswiss ...`` line of a console block is
run on a workbook built as the README describes it, and its output compared line by line.

In a sample, a line ``...`` stands for any number of lines, and a line ending in ``...`` for any line
that begins with the text before it.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.demo import FIRST, LAST, _players
from sheetswiss.demo import run as run_demo
from sheetswiss.demo import run_heats as run_heats_demo

README = Path(__file__).resolve().parent.parent / "README.md"


def samples() -> dict[str, list[list[str]]]:
    """Every ``$ sheetswiss ...`` command of the README's console blocks, with the lines printed under it
    (one list per time the command is shown)."""
    found: dict[str, list[list[str]]] = {}
    text = README.read_text()
    for block in re.findall(r"^( *)```console\n(.*?)^\1```", text, re.S | re.M):
        indent, body = block
        current: list[str] | None = None
        for line in body.splitlines():
            line = line.removeprefix(indent)
            if line.startswith("$ "):
                command = re.sub(r"\s+#.*$", "", line[2:]).strip()
                current = None
                if command.startswith("sheetswiss "):
                    current = []
                    found.setdefault(command, []).append(current)
            elif current is not None:
                current.append(line)
    return found


def matches(sample: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` reads as ``sample``, ``...`` lines standing for any lines skipped."""
    if not sample:
        return not actual
    head, rest = sample[0], sample[1:]
    if head.strip() == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    if head.endswith("...") and head.strip() != "...":
        same = actual[0].startswith(head[:-3].rstrip()) and len(actual[0]) > len(head[:-3].rstrip())
    else:
        same = actual[0].rstrip() == head.rstrip()
    return same and matches(rest, actual[1:])


def check(command: str, *, code: int = 0) -> None:
    """Run the README's ``command`` in the current folder: its output is one of the README's samples of it."""
    listed = samples()
    assert command in listed, f"the README has no sample of: {command}"
    args = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', command)][1:]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == code, result.output
    actual = result.stdout.splitlines()
    shown = listed[command]
    assert any(matches(sample, actual) for sample in shown), "\n".join(
        ["README:", *(line for sample in shown for line in [*sample, "--"]), "", "printed:", *actual])


def diagonal(count: int) -> list[str]:
    """The README's players: Ana Lima, Bo Berg, Caro Chen, ... (first names in order, surnames in turn)."""
    return [f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}" for i in range(count)]


def fill(path: Path, tab: str, column_values: dict[str, Sequence[object]], settings: dict[str, object]) -> None:
    backend = ExcelBackend(path)
    if settings:
        rows = backend.read().rows("Settings")
        where = {row[0]: r for r, row in enumerate(rows, start=1) if row}
        backend.fill_cells("Settings", {f"B{where[k]}": v for k, v in settings.items()})  # type: ignore[misc]
    backend.fill_cells(tab, {f"{c}{r}": v for c, values in column_values.items()
                             for r, v in enumerate(values, start=2)})  # type: ignore[misc]


def test_the_readme_has_samples_and_the_matcher_reads_them() -> None:
    assert len(samples()) >= 12
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "..."], ["a"])
    assert matches(["Playoff of 8: 1. Lea, ..."], ["Playoff of 8: 1. Lea, 2. Bo"])
    assert not matches(["a", "d"], ["a", "b", "d"]) and not matches(["a"], ["a", "b"])


@pytest.mark.slow  # the demo events played through
def test_the_swiss_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    check("sheetswiss demo demo-event")
    check("sheetswiss new convention.xlsx --format swiss")
    players = _players(2026, 88)
    fill(Path("convention.xlsx"), "Players", {"A": [p[0] for p in players], "B": [p[1] for p in players],
                                              "C": [p[2] for p in players]}, {"seed": 2026})
    check("sheetswiss pair convention.xlsx")
    check("sheetswiss plan --players 88")

    shutil.copy(tmp_path / "demo-event" / "sheetswiss-demo.xlsx", "convention.xlsx")  # six rounds played
    check("sheetswiss publish convention.xlsx site/")
    check("sheetswiss playoffs convention.xlsx")

    Path("random.xlsx").unlink(missing_ok=True)
    assert CliRunner().invoke(cli, ["new", "random.xlsx", "--seed", "912943"]).exit_code == 0
    fill(Path("random.xlsx"), "Players", {"A": [f"Player {i:03d}" for i in range(1, 121)]}, {})
    check("sheetswiss pair random.xlsx")


@pytest.mark.slow  # the demo events played through
def test_the_explain_sample_is_round_4_of_the_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pair --explain`` on the demo event after round 3 (its rounds 4 to 6 taken out of Results)."""
    monkeypatch.chdir(tmp_path)
    run_demo("demo-event", progress=lambda line: None)
    wb = openpyxl.load_workbook("demo-event/sheetswiss-demo.xlsx")
    results = wb["Results"]
    first = next(r for r in range(2, results.max_row + 1) if results.cell(r, 1).value == 4)
    results.delete_rows(first, results.max_row - first + 1)
    wb.save("convention.xlsx")
    check("sheetswiss pair convention.xlsx --explain --dry-run")


def test_the_double_sided_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "netrunner.xlsx", "--seed", "7"]).exit_code == 0
    fill(Path("netrunner.xlsx"), "Players", {"A": diagonal(7)}, {"sides": "double", "points": "magic"})
    check("sheetswiss pair netrunner.xlsx")


@pytest.mark.slow  # the demo events played through
def test_the_heat_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    check("sheetswiss new puerto-rico.xlsx --format heats")
    fill(Path("puerto-rico.xlsx"), "Players", {"A": diagonal(13)}, {"seed": 2026})
    check("sheetswiss seat puerto-rico.xlsx --heat 1")
    backend = ExcelBackend(Path("puerto-rico.xlsx"))
    rng = random.Random(5)
    rows = backend.read().rows("Heats")
    backend.fill_cells("Heats", {f"D{r}": s for r, s in zip(range(2, len(rows) + 1), rng.sample(range(20, 61),
                                                                                                 len(rows) - 1))})
    check("sheetswiss qualify puerto-rico.xlsx")

    run_heats_demo("demo", progress=lambda line: None)
    shutil.copy("demo/sheetswiss-heats-demo.xlsx", "wbc.xlsx")
    fill(Path("wbc.xlsx"), "Players", {}, {"method": "HMW-P", "gm_tiebreak": "margin"})
    check("sheetswiss qualify wbc.xlsx")


@pytest.mark.slow  # two demo events played through
def test_the_rating_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spring and Summer are demo events (seeds 2026 and 2027); Winter lists 35 of their players, four with
    a Rating typed, and two newcomers."""
    monkeypatch.chdir(tmp_path)
    for name, seed in (("spring", 2026), ("summer", 2027)):
        run_demo(name, seed=seed, progress=lambda line: None)
        shutil.copy(f"{name}/sheetswiss-demo.xlsx", f"{name}.xlsx")
        fill(Path(f"{name}.xlsx"), "Players", {}, {"event_name": f"{name.title()} Open"})
    assert CliRunner().invoke(cli, ["new", "winter.xlsx", "--seed", "1"]).exit_code == 0
    returning = [p[0] for p in _players(2026)][:35]
    fill(Path("winter.xlsx"), "Players", {"A": [*returning, "Newcomer One", "Newcomer Two"],
                                          "B": [1500, 1600, 1700, 1800]}, {})
    check("sheetswiss rating spring.xlsx summer.xlsx --into winter.xlsx")


def test_the_explained_standing_of_the_hamilton_championship(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The Hamilton Chess Club Championship 2018 (tests/data) typed into a workbook as a GM would."""
    from .test_crosstable import COLUMNS, event

    monkeypatch.chdir(tmp_path)
    hamilton = event("fide2009")
    assert CliRunner().invoke(cli, ["new", "hamilton.xlsx", "--seed", "1"]).exit_code == 0
    fill(Path("hamilton.xlsx"), "Players", {"A": [p.name for p in hamilton.players]},
         {"points": "chess", "unplayed": "fide2009", "tiebreaks": ", ".join(COLUMNS.values())})
    rows = [(g.round, g.a, g.b, g.result.spelling() if g.result is not None else None) for g in hamilton.games]
    rows += [(6, name, None, "absent") for name in ("Hilton_Bennett", "Ian_Kennedy")]  # no round-6 entry
    fill(Path("hamilton.xlsx"), "Results", {c: [r[i] for r in rows] for i, c in enumerate("ACDE")}, {})
    check("sheetswiss standings hamilton.xlsx --explain Graham_Nolan")
