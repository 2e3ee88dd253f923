"""Reading the GM's tabs: columns by header, every problem of a run at once, messages naming the real cause."""

from __future__ import annotations

import copy
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession
from sheetswiss.results import ACCEPTED
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook, random_results, run, type_results
from .helpers import refused_lines as errors


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


def test_every_missing_or_doubled_header_of_a_tab_is_a_line(tmp_path: Path) -> None:
    path = paired(tmp_path)
    ExcelBackend(path).fill_cells("Results", {"C1": "White", "E1": "Outcome", "H1": "table"})
    assert errors(path, "standings", str(path)) == [
        "Results!1: no column headed 'Player A' in row 1",
        "Results!1: no column headed 'Result' in row 1",
        "Results!B1, Results!H1: 2 columns headed 'Table'; sheetswiss cannot tell which one to read: "
        "rename or delete all but one"]


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


def played(tmp_path: Path, rounds: int = 2) -> Path:
    """A workbook of PLAYERS with ``rounds`` rounds paired and every result typed."""
    path = new_workbook(tmp_path, PLAYERS)
    for _ in range(rounds):
        assert run("pair", str(path))[0] == 0
        type_results(path, random_results(5, draws=False))
    return path


def test_results_sorted_by_player_say_so(tmp_path: Path) -> None:
    path = played(tmp_path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Results"]
    rows = sorted((list(r) for r in ws.iter_rows(min_row=2, values_only=True) if any(r)), key=lambda r: str(r[2]))
    for r, values in enumerate(rows, start=2):
        for c, value in enumerate(values, start=1):
            ws.cell(r, c, value)
    wb.save(path)
    [line] = errors(path, "standings", str(path))
    assert line == ("Results!A4: the rows are out of order: round 1 in row 4 comes after round 2 in row 3 (a round "
                    "number goes back in 2 places); sort Results by Round, then Table, and run again")


def test_a_merged_result_cell_is_named(tmp_path: Path) -> None:
    path = played(tmp_path, rounds=1)
    wb = openpyxl.load_workbook(path)
    wb["Results"].merge_cells("E3:E4")
    wb.save(path)
    assert errors(path, "standings", str(path)) == [
        "Results!E3:E4: these cells are merged; each row needs its own Result cell: unmerge them (only the "
        "first cell of merged cells holds a value)"]


def _cached(path: Path, cell: str, formula: str, shows: str) -> None:
    """Make ``cell`` of Results hold ``formula`` with the value ``shows``, as a spreadsheet program saves it."""
    wb = openpyxl.load_workbook(path)
    wb["Results"][cell] = "=" + formula
    wb.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    sheet = next(n for n in parts if n.startswith("xl/worksheets/") and f'r="{cell}"'.encode() in parts[n]
                 and f"<f>{formula}</f>".encode() in parts[n])
    parts[sheet] = re.sub(rf'<c r="{cell}"([^>]*)><f>{re.escape(formula)}</f><v\s*/?>(</v>)?'.encode(),
                          f'<c r="{cell}"\\1 t="str"><f>{formula}</f><v>{shows}</v>'.encode(), parts[sheet])
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_a_formula_in_a_result_cell_is_named(tmp_path: Path) -> None:
    path = played(tmp_path, rounds=1)
    wb = openpyxl.load_workbook(path)
    wb["Results"]["E3"] = "=1-0"  # typed as a formula and never calculated
    wb.save(path)
    _cached(path, "E2", "0-1", "-1")
    assert errors(path, "standings", str(path)) == [
        "Results!E2: the cell holds the formula '=0-1', which shows '-1', not a result; type the result itself, "
        "with an apostrophe first when it starts with + - or = ('+/-)",
        "Results!E3: the cell holds the formula '=1-0', not a result; type the result itself, with an apostrophe "
        "first when it starts with + - or = ('+/-)"]


def test_a_spreadsheet_error_in_a_result_cell_is_named(tmp_path: Path) -> None:
    path = played(tmp_path, rounds=1)
    ExcelBackend(path).fill_cells("Results", {"E2": "#ERROR!"})  # what Google Sheets shows for +/- typed bare
    assert errors(path, "standings", str(path)) == [
        "Results!E2: the cell shows the spreadsheet error #ERROR!, not a result (a result typed starting with + - "
        "or = is read as a formula); type the result itself, with an apostrophe first when it starts with + - or = "
        "('+/-)"]


def test_a_tab_renamed_with_a_trailing_space_is_suggested(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, PLAYERS)
    wb = openpyxl.load_workbook(path)
    wb["Players"].title = "Players "
    wb.save(path)
    assert errors(path, "pair", str(path)) == [
        "Players: the tab is missing, but there is a tab 'Players ' (spaces around its name); rename it 'Players'"]
    wb["Players "].title = "Player"
    wb.save(path)
    assert errors(path, "pair", str(path)) == ["Players: the tab is missing; is it the tab 'Player'? rename it "
                                               "'Players'"]


def test_an_ods_file_is_asked_to_be_saved_as_xlsx(tmp_path: Path) -> None:
    path = tmp_path / "event.ods"
    path.write_bytes(b"PK\x03\x04 an OpenDocument spreadsheet")
    [line] = errors(path, "standings", str(path))
    assert line == (f"{path}: an OpenDocument spreadsheet (.ods, LibreOffice's own format: File > Save As, Excel "
                    "2007-365); sheetswiss reads .xlsx workbooks: save it as .xlsx and use that")


def test_an_empty_players_tab_is_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path)
    assert errors(path, "pair", str(path)) == [
        "Players: the tab lists no players yet; type one name a row under Name, from row 2, then run again"]


def heat_table(tmp_path: Path, scores: dict[str, object], **settings: object) -> Path:
    """A heat event with heat 1 seated at one table of Rita, Sam, Tom (Heats rows 2-4) and ``scores`` typed."""
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats")[0] == 0
    backend = ExcelBackend(path)
    where = {row[0]: r for r, row in enumerate(backend.read().rows("Settings"), start=1) if row}
    if settings:
        backend.fill_cells("Settings", {f"B{where[k]}": v for k, v in settings.items()})  # type: ignore[misc]
    backend.fill_cells("Players", {f"A{r}": n for r, n in enumerate(["Rita", "Sam", "Tom", "Uma"], start=2)})
    assert run("seat", str(path), "--heat", "1", "--players", "Rita, Sam, Tom")[0] == 0
    backend.fill_cells("Heats", scores)  # type: ignore[arg-type]
    return path


def test_a_place_that_contradicts_the_scores_is_a_warning_in_qualify(tmp_path: Path) -> None:
    path = heat_table(tmp_path, {"D2": 30, "D3": 20, "D4": 10, "E2": 2, "E3": 1, "E4": 3})
    rows = {row[2]: r for r, row in enumerate(ExcelBackend(path).read().rows("Heats"), start=1)}
    code, out, err = run("qualify", str(path))
    assert code == 0, err
    ahead, behind = ("Sam", "Rita")
    assert err == (f"Warning: Heats!E{rows[ahead]}, Heats!E{rows[behind]}: heat 1 table 1: Place puts {ahead} (1) "
                   f"ahead of {behind} (2), whose score is better (30 to 20); the Place counts: check it\n")
    assert out.startswith("Qualifiers")


def test_negative_scores_without_an_offset_get_a_hint(tmp_path: Path) -> None:
    path = heat_table(tmp_path, {"D2": 12, "D3": -4, "D4": -9})
    code, _, err = run("qualify", str(path))
    assert code == 0, err
    assert err == ("Warning: Heats!D3 (and 1 more): a score below 0 (-4) and score_offset is 0, so score ratios mean "
                   "little (RULES.md 5.4); set score_offset to 10 or more to lift every score above 0\n")
    (tmp_path / "offset").mkdir()
    offset = heat_table(tmp_path / "offset", {"D2": 12, "D3": -4, "D4": -9}, score_offset=10)
    code, _, err = run("qualify", str(offset))
    assert code == 0 and err == "", err


GSHEET = "1FakeSheetKeyForParseErrorTests0123456789"


def test_a_google_sheet_gets_the_same_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeSheets() as fake:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", fake.url)
        fake.create(GSHEET)
        backend = GoogleSheetsBackend(GSHEET, session=RewritingSession(fake.url))
        api.new(backend, seed=3)
        fake.type(GSHEET, "Players", {f"A{r}": name for r, (name, _) in enumerate(PLAYERS, start=2)})
        assert run("pair", GSHEET)[0] == 0
        fake.type(GSHEET, "Results", {"E2": "W", "D3": "Zed", "E4": "#ERROR!"})
        fake.merge(GSHEET, "Results", "E5:E6")
        before = copy.deepcopy(fake.books[GSHEET])
        code, _, err = run("standings", GSHEET)
        assert code == 2 and fake.books[GSHEET] == before
        assert err.splitlines() == [
            "Error: Results!E5:E6: these cells are merged; each row needs its own Result cell: unmerge them (only "
            "the first cell of merged cells holds a value)",
            f"Error: Results!E2: cannot read 'W' as a result; accepted: {ACCEPTED}",
            "Error: Results!D3: 'Zed' is not in Players",
            "Error: Results!E4: the cell shows the spreadsheet error #ERROR!, not a result (a result typed starting "
            "with + - or = is read as a formula); type the result itself, with an apostrophe first when it starts "
            "with + - or = ('+/-)"]


def test_publish_lists_every_problem_too(tmp_path: Path) -> None:
    path = paired(tmp_path)
    backend = ExcelBackend(path)
    row = next(r for r, row in enumerate(backend.read().rows("Settings"), 1) if row[0] == "tiebreaks")
    backend.fill_cells("Settings", {f"B{row}": "koya"})
    backend.fill_cells("Results", {"E2": "W"})
    lines = errors(path, "publish", str(path), str(tmp_path / "site"))
    assert [line.split(":")[0] for line in lines] == [f"Settings!B{row}", "Results!E2"]
    assert not (tmp_path / "site").exists()


def test_a_text_read_once_reads_the_same_in_every_row_and_odd_cells_are_still_named(tmp_path: Path) -> None:
    """Results repeats the same few texts: a name or result read in one row reads the same in the next, whatever
    way it is spelt there, while the cells beside them that are not plain text are still read in full and named:
    a formula where a name belongs, a spreadsheet error, a number, a name missing from Players."""
    path = new_workbook(tmp_path, [("Ana Berg", 1500), ("Bo", 1400), ("Cy", 1300), ("Di", 1200)])
    wb = openpyxl.load_workbook(path)
    ws = wb["Results"]
    rows = [(1, 1, "Ana Berg", "Bo", "1-0"), (1, 2, " cy", "DI ", " 1-0 "), (2, 1, "ana berg", " Cy", "1-0"),
            (2, 2, "Bo", "Di", "½-½"), (3, 1, "Ana Berg", "Di", "1-0"), (3, 2, "Bo", "#N/A", "1-0"),
            (3, 3, 7, "Cy", "0-1"), (4, 1, "Ana Berg", "Eve", "1-0"), (4, 2, "=Bo", "Cy", "1-0")]
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    wb.save(path)
    assert errors(path, "standings", str(path)) == [
        "Results!D7: the cell shows the spreadsheet error #N/A, not a name (a name starting with = + - @ was read as "
        "a formula); retype it with an apostrophe first: '=Name",
        "Results!C8: '7' is not in Players",
        "Results!D9: 'Eve' is not in Players",
        "Results!C10: the cell holds the formula =Bo, never calculated, not a name; if it is a name, retype it with "
        "an apostrophe first: '=Bo"]
    wb = openpyxl.load_workbook(path)
    for row in range(7, 11):  # the rows refused above, emptied
        for column in "ABCDE":
            wb["Results"][f"{column}{row}"] = None
    wb.save(path)
    event = parse_event(ExcelBackend(path).read())
    assert [(g.round, g.a, g.b, g.result.spelling() if g.result else None) for g in event.games] == [
        (1, "Ana Berg", "Bo", "1-0"), (1, "Cy", "Di", "1-0"), (2, "Ana Berg", "Cy", "1-0"), (2, "Bo", "Di", "1/2"),
        (3, "Ana Berg", "Di", "1-0")]
