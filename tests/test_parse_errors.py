"""Reading the GM's tabs: columns by header, every problem of a run at once, messages naming the real cause."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from click.testing import CliRunner

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.workbook.parse import parse_event

from .helpers import new_workbook


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def errors(path: Path, *args: str) -> list[str]:
    """The error lines of a refused command, checking exit 2 and that the workbook is byte-identical."""
    before = path.read_bytes()
    code, _, err = run(*args)
    assert code == 2, err
    assert path.read_bytes() == before
    lines = err.splitlines()
    assert lines and all(line.startswith("Error: ") for line in lines), err
    return [line.removeprefix("Error: ") for line in lines]


def insert_column(path: Path, tab: str, index: int, header: str, values: dict[int, object] | None = None) -> None:
    """Insert a column before column ``index`` (1 = A) of ``tab`` as a GM does in a spreadsheet program."""
    wb = openpyxl.load_workbook(path)
    ws = wb[tab]
    ws.insert_cols(index)
    ws.cell(1, index, header)
    for row, value in (values or {}).items():
        ws.cell(row, index, value)
    wb.save(path)


PLAYERS = [(f"Player {i}", 2000 - 10 * i) for i in range(1, 9)]


def test_a_column_inserted_into_settings_keeps_every_setting(tmp_path: Path) -> None:
    typed = {"points": "chess", "rounds": 3, "seed": 77, "first_round": "random"}
    plain = new_workbook(tmp_path, PLAYERS, name="plain.xlsx", settings=typed)
    notes = new_workbook(tmp_path, PLAYERS, name="notes.xlsx", settings=typed)
    insert_column(notes, "Settings", 2, "Notes", {3: "ask the TD", 5: "3 rounds on Saturday"})
    settings = parse_event(ExcelBackend(notes).read()).settings
    assert (settings.points, settings.rounds, settings.seed, settings.first_round) == ("chess", 3, 77, "random")
    assert settings == parse_event(ExcelBackend(plain).read()).settings
    code_plain, out_plain, _ = run("pair", str(plain))
    code_notes, out_notes, err = run("pair", str(notes))
    assert code_plain == code_notes == 0, err
    assert out_notes.replace("notes.xlsx", "plain.xlsx") == out_plain  # the same seed gives the same pairings


def test_settings_columns_in_any_order_and_messages_name_the_moved_cells(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, PLAYERS, settings={"points": "chezz"})
    insert_column(path, "Settings", 1, "Notes")
    row = next(r for r, row in enumerate(ExcelBackend(path).read().rows("Settings"), 1) if row[1] == "points")
    assert errors(path, "pair", str(path)) == [
        f"Settings!C{row}: points: 'chezz' is not one of: armati, chess, magic, hct, game12, netrunner, custom"]


def test_settings_without_a_value_header_is_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, PLAYERS)
    ExcelBackend(path).fill_cells("Settings", {"B1": "What"})
    assert errors(path, "pair", str(path)) == ["Settings!1: no column headed 'Value' in row 1"]


def test_two_columns_with_the_same_header_name_both_cells(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, PLAYERS)
    ExcelBackend(path).fill_cells("Players", {"G1": "name", "G2": "Someone else"})
    assert errors(path, "pair", str(path)) == [
        "Players!A1, Players!G1: 2 columns headed 'Name'; sheetswiss cannot tell which one to read: "
        "rename or delete all but one"]
    other = new_workbook(tmp_path, PLAYERS, name="other.xlsx")
    ExcelBackend(other).fill_cells("Settings", {"D1": "Value"})
    assert errors(other, "standings", str(other))[0].startswith("Settings!B1, Settings!D1: 2 columns headed 'Value'")


def paired(tmp_path: Path, name: str = "event.xlsx", **settings: object) -> Path:
    """A workbook of PLAYERS with round 1 paired (rows 2-5 of Results, results empty)."""
    path = new_workbook(tmp_path, PLAYERS, name=name, settings=dict(settings) or None)  # type: ignore[arg-type]
    assert run("pair", str(path))[0] == 0
    return path


def test_three_bad_results_are_three_lines_in_one_run(tmp_path: Path) -> None:
    path = paired(tmp_path)
    ExcelBackend(path).fill_cells("Results", {"E2": "W", "D3": "Zed", "E4": "1-0", "E5": "0:0"})
    assert errors(path, "standings", str(path)) == [
        "Results!E2: cannot read 'W' as a result; accepted: 1-0, 0-1, 1/2 (or =, D, draw), game scores such as "
        "2-1 or 2-0-1, forfeits +/- -/+ --, bye, half bye (H), zero bye (Z)",
        "Results!D3: 'Zed' is not in Players",
        "Results!E5: cannot read '0:0' as a result: it records no game; type -- for a double forfeit (both "
        "lose) or 1/2 for a draw"]


def test_problems_of_settings_players_and_results_come_together(tmp_path: Path) -> None:
    path = paired(tmp_path)
    backend = ExcelBackend(path)
    row = next(r for r, row in enumerate(backend.read().rows("Settings"), 1) if row[0] == "tiebreaks")
    backend.fill_cells("Settings", {f"B{row}": "buchholz, koya"})
    backend.fill_cells("Players", {"B3": "strong", "D4": "maybe"})
    backend.fill_cells("Results", {"E2": "W"})
    lines = errors(path, "pair", str(path))
    assert [line.split(":")[0] for line in lines] == [f"Settings!B{row}", "Players!B3", "Players!D4", "Results!E2"]


def test_results_wait_for_the_settings_they_are_read_with(tmp_path: Path) -> None:
    path = paired(tmp_path)
    backend = ExcelBackend(path)
    row = next(r for r, row in enumerate(backend.read().rows("Settings"), 1) if row[0] == "sides")
    backend.fill_cells("Settings", {f"B{row}": "dubble"})
    backend.fill_cells("Results", {"E2": "W"})
    assert errors(path, "standings", str(path)) == [
        f"Settings!B{row}: sides: 'dubble' is not one of: none, single, double"]


def test_many_problems_are_capped_with_and_n_more(tmp_path: Path) -> None:
    names = [(f"Player {i}", f"r{i}") for i in range(1, 31)]
    path = new_workbook(tmp_path, names)
    lines = errors(path, "pair", str(path))
    assert len(lines) == 21
    assert lines[0] == "Players!B2: rating 'r1' is not a number"
    assert lines[19] == "Players!B21: rating 'r20' is not a number"
    assert lines[20] == "and 10 more (30 problems in all)"


def test_a_huge_bad_cell_is_quoted_as_a_short_excerpt(tmp_path: Path) -> None:
    path = paired(tmp_path)
    ExcelBackend(path).fill_cells("Results", {"E2": "x" * 30_000, "C3": "y" * 30_000})
    lines = errors(path, "standings", str(path))
    assert len(lines) == 2 and all(len(line) < 250 for line in lines), lines
    assert lines[0].startswith(f"Results!E2: cannot read '{'x' * 40}…' (30,000 characters) as a result")
    assert lines[1] == f"Results!C3: '{'y' * 40}…' (30,000 characters) is not in Players"


def test_every_bad_heats_cell_in_one_run(tmp_path: Path) -> None:
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats")[0] == 0
    backend = ExcelBackend(path)
    backend.fill_cells("Players", {f"A{r}": n for r, n in enumerate(["Rita", "Sam", "Tom", "Uma"], start=2)})
    assert run("seat", str(path), "--heat", "1", "--players", "Rita, Sam, Tom")[0] == 0
    rows = backend.read().rows("Heats")
    assert [row[2] for row in rows[1:4]] and len(rows) == 4
    backend.fill_cells("Heats", {"D2": "lots", "C3": "Zed", "A4": "one"})
    assert errors(path, "qualify", str(path)) == [
        "Heats!D2: the score 'lots' is not a number",
        "Heats!C3: 'Zed' is not in Players",
        "Heats!A4: Heat must be a whole number from 1, not 'one'"]
