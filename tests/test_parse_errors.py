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
        f"Settings!C{row}: points: 'chezz' is not one of: armati, chess, magic, hct, game12, custom"]


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
