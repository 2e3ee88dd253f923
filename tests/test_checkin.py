"""Check-in: with check_in: yes only the players marked Present are paired for the first time."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession
from sheetswiss.standings import compute_standings
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook, random_results, run, type_results

NOW = dt.datetime(2026, 7, 30, 9, 0)
KEY = "1FakeSheetKeyForSheetswissTests0123456789"
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]



def paired(path: Path, round_: int) -> set[str]:
    event = parse_event(ExcelBackend(path).read())
    return {n for g in event.games_in(round_) for n in (g.a, g.b) if n}


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = new_workbook(tmp_path, [(n, 1900 - 10 * i) for i, n in enumerate(NAMES)], settings={"check_in": "yes"})
    marks = ["yes", "x", "✓", "Y", True, "1", "", "no"]
    ExcelBackend(path).fill_cells("Players", {"G1": "Present", **{f"G{r}": m for r, m in enumerate(marks, start=2)
                                                                  if m != ""}})
    return path


def test_only_present_players_are_paired_and_the_rest_are_listed(event: Path) -> None:
    code, out, err = run("pair", str(event))
    assert code == 0, err
    assert out.splitlines()[0] == "Round 1: 3 tables; no rematches"
    assert "Not checked in, not paired (2): Gus, Hal" in out
    assert paired(event, 1) == set(NAMES[:6])
    assert {r.player for r in compute_standings(parse_event(ExcelBackend(event).read())).rows} == set(NAMES[:6])


def test_a_late_arrival_marked_before_round_two_joins_as_a_late_entry(event: Path) -> None:
    api.pair(str(event), now=NOW)
    type_results(event, random_results(2))
    ExcelBackend(event).fill_cells("Players", {"G8": "yes"})  # Gus arrives
    code, out, err = run("pair", str(event))
    assert code == 0, err
    assert "Not checked in, not paired (1): Hal" in out
    assert paired(event, 2) == set(NAMES[:7]) and "Gus" not in paired(event, 1)
    ev = parse_event(ExcelBackend(event).read())
    assert ev.by_name["Gus"].joined == 2
    # Hal turns up before round 2 starts: pair --redo takes him in
    ExcelBackend(event).fill_cells("Players", {"G9": "yes"})
    code, out, err = run("pair", str(event), "--redo")
    assert code == 0, err
    assert "Not checked in" not in out
    assert paired(event, 2) == set(NAMES)
    type_results(event, random_results(3))
    table = compute_standings(parse_event(ExcelBackend(event).read()))
    assert len(table.rows) == 8


def test_check_in_needs_a_present_column_and_someone_in_it(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in NAMES], settings={"check_in": "yes"})
    before = path.read_bytes()
    code, _, err = run("pair", str(path))
    assert code == 2 and err == ("Error: Players!1: check_in is yes, so Players needs a column headed Present; "
                                 "mark each player who has arrived (yes), or set check_in to no\n")
    ExcelBackend(path).fill_cells("Players", {"B3": "strong"})  # named together with the other problems
    code, _, err = run("pair", str(path))
    assert code == 2 and err.splitlines()[0].startswith("Error: Players!B3: ") and err.splitlines()[1:] == [
        "Error: Players!1: check_in is yes, so Players needs a column headed Present; mark each player who has "
        "arrived (yes), or set check_in to no"]
    ExcelBackend(path).fill_cells("Players", {"G1": "Present", "B3": None})
    before = path.read_bytes()
    code, _, err = run("pair", str(path))
    assert code == 2 and "no player is marked in the Present column" in err
    assert path.read_bytes() == before


def test_without_check_in_the_present_column_is_ignored(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in NAMES])
    ExcelBackend(path).fill_cells("Players", {"G1": "Present", "G2": "yes"})
    api.pair(str(path), now=NOW)
    assert paired(path, 1) == set(NAMES)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server


def test_check_in_on_a_google_sheet(fake: FakeSheets) -> None:
    backend = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url))
    api.new(backend, seed=2, now=NOW)
    row = len(backend.read().rows("Settings")) + 1
    fake.type(KEY, "Settings", {f"A{row}": "check_in", f"B{row}": "yes"})
    fake.type(KEY, "Players", {"A1": "Name", "G1": "Present", **{f"A{r}": n for r, n in enumerate(NAMES, start=2)},
                               "G2": "yes", "G3": "yes", "G4": "yes", "G5": "yes"})
    code, out, err = run("pair", f"gsheet:{KEY}")
    assert code == 0, err
    assert "Round 1: 2 tables" in out and "Not checked in, not paired (4): Ed, Flo, Gus, Hal" in out
