"""The heat workflow on real workbooks: new --format heats, seat, qualify, and bad Heats rows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend

from .helpers import run

NAMES = ["Rita", "Sam", "Tom", "Uma", "Vic", "Wes"]



def heat_workbook(tmp_path: Path, names: list[str], **settings: object) -> Path:
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats", "--seed", "3")[0] == 0
    backend = ExcelBackend(path)
    rows = backend.read().rows("Settings")
    where = {row[0]: r for r, row in enumerate(rows, start=1) if row}
    backend.fill_cells("Settings", {f"B{where[k]}": v for k, v in settings.items()})  # type: ignore[misc]
    backend.fill_cells("Players", {f"A{r}": n for r, n in enumerate(names, start=2)})
    return path


def test_new_heats_has_its_tabs_and_settings(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path, [])
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Settings", "Players", "Heats", "Seating", "Qualifiers", "Control", "Log"]
    keys = {row[0] for row in wb["Settings"].iter_rows(min_row=2, values_only=True)}
    assert {"method", "qualifiers", "alternates", "heat_first_win", "heat_win", "heat_second_4", "heat_second_3",
            "table_sizes", "ranking", "ratio_cap", "score_offset"} <= keys
    assert [c.value for c in wb["Heats"][1]] == ["Heat", "Table", "Player", "Score", "Place"]


def test_rules_5_2_example_through_the_commands(tmp_path: Path) -> None:
    """RULES.md 5.2: Rita 1501.2, Sam 1109.5333, Vic 58.3333 (HSW: Rita 5001.2)."""
    path = heat_workbook(tmp_path, NAMES, qualifiers=2, alternates=1)
    code, out, err = run("seat", str(path), "--heat", "1", "--players", "Rita, Sam, Tom, Uma")
    assert code == 0, err
    assert out.startswith("Heat 1: 4 players at 1 tables (4); no repeat meetings")
    backend = ExcelBackend(path)
    rows = backend.read().rows("Heats")
    score = {"Rita": 36, "Sam": 30, "Tom": 25, "Uma": 12}
    backend.fill_cells("Heats", {f"D{r}": score[str(row[2])] for r, row in enumerate(rows[1:], start=2)})
    assert run("seat", str(path), "--heat", "2", "--players", "Sam, Vic, Wes")[0] == 0
    rows = backend.read().rows("Heats")
    score = {"Sam": 24, "Vic": 20, "Wes": 9}
    backend.fill_cells("Heats", {f"D{r}": score[str(row[2])] for r, row in enumerate(rows[1:], start=2)
                                 if row[0] == 2})
    code, out, err = run("qualify", str(path))
    assert code == 0, err
    wb = openpyxl.load_workbook(path)
    table = {row[1]: row for row in wb["Qualifiers"].iter_rows(min_row=3, values_only=True) if row[1] in NAMES}
    assert round(table["Rita"][6], 4) == 1501.2 and table["Rita"][7] == "qualified"
    assert round(table["Sam"][6], 4) == 1109.5333 and table["Sam"][7] == "qualified"
    assert round(table["Vic"][6], 4) == 58.3333 and table["Vic"][7] == "alternate 1"
    assert table["Tom"][7] == "out" and table["Sam"][3] == 1 and table["Sam"][5] == 1
    assert "HMW, ranking latto" in wb["Qualifiers"]["A1"].value


@pytest.mark.parametrize(("count", "sizes"), [(13, "4+3+3+3"), (14, "4+4+3+3"), (17, "4+4+3+3+3"),
                                              (22, "4+4+4+4+3+3")])
def test_seating_sizes(tmp_path: Path, count: int, sizes: str) -> None:
    path = heat_workbook(tmp_path, [f"P{i:02d}" for i in range(count)])
    code, out, err = run("seat", str(path), "--heat", "1")
    assert code == 0, err
    assert f"({sizes})" in out
    heats = ExcelBackend(path).read().rows("Heats")[1:]
    assert len(heats) == count and Counter(r[0] for r in heats) == {1: count}


def test_seating_from_a_signup_column(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path, NAMES)
    backend = ExcelBackend(path)
    backend.fill_cells("Players", {"G1": "Heat 1", "G2": "x", "G3": "x", "G5": "yes", "G6": "no", "G7": "x"})
    code, out, _ = run("seat", str(path), "--heat", "1")
    assert code == 0 and out.startswith("Heat 1: 4 players")
    assert {r[2] for r in backend.read().rows("Heats")[1:]} == {"Rita", "Sam", "Uma", "Wes"}


def test_later_heats_avoid_earlier_meetings(tmp_path: Path) -> None:
    names = [f"P{i:02d}" for i in range(16)]  # 4 tables of 4: a second heat can meet nobody again
    path = heat_workbook(tmp_path, names)
    for heat in (1, 2):
        code, out, err = run("seat", str(path), "--heat", str(heat))
        assert code == 0 and "no repeat meetings" in out, err
    assert "is seated already" in run("seat", str(path), "--heat", "2")[2]


@pytest.mark.parametrize(("cells", "message"), [
    ({"D2": 30, "D3": 30, "D4": 20}, "Heats!D2, Heats!D3: "),
    ({"D2": 30, "D3": "lots", "D4": 20}, "Heats!D3: the score 'lots' is not a number"),
    ({"D2": 30, "D4": 20}, "Heats!D3"),
    ({"C4": "Rita"}, "Heats!C4: 'Rita' is in heat 1 twice (also row 2)"),
    ({"C4": "Zed"}, "Heats!C4: 'Zed' is not in Players"),
])
def test_bad_heat_rows_are_one_line_and_nothing_changes(tmp_path: Path, cells: dict[str, object],
                                                        message: str) -> None:
    path = heat_workbook(tmp_path, NAMES)
    assert run("seat", str(path), "--heat", "1", "--players", "Rita, Sam, Tom")[0] == 0
    ExcelBackend(path).fill_cells("Heats", cells)  # type: ignore[arg-type]
    before = path.read_bytes()
    code, _, err = run("qualify", str(path))
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"Error: {message}"), err
    assert path.read_bytes() == before


def test_a_table_size_settings_do_not_allow(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path, NAMES)
    ExcelBackend(path).fill_cells("Heats", {"A2": 1, "B2": 1, "C2": "Rita", "A3": 1, "B3": 1, "C3": "Sam"})
    message = run("qualify", str(path))[2]
    assert "heat 1 table 1 has 2 players; table_sizes allows 3 or 4" in message


def test_swiss_commands_refuse_a_heat_workbook_and_back(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path, NAMES)
    assert "Results: the tab is missing" in run("pair", str(path))[2]
    swiss = tmp_path / "swiss.xlsx"
    api.new(str(swiss))
    assert "seat and qualify are for heat events" in run("seat", str(swiss), "--heat", "1")[2]


def test_heats_demo(tmp_path: Path) -> None:
    code, out, err = run("demo", str(tmp_path), "--format", "heats")
    assert code == 0, err
    assert "Demo heat event: 60 players, 4 heats" in out and "qualified" in out
    wb = openpyxl.load_workbook(tmp_path / "sheetswiss-heats-demo.xlsx")
    statuses = Counter(row[7] for row in wb["Qualifiers"].iter_rows(min_row=3, values_only=True) if row[1])
    assert statuses["qualified"] == 16 and statuses["alternate 1"] == 1
