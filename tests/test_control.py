"""The Control tab: a request typed into the sheet (a command chosen, Run ticked) is run by ``watch``, which
writes the status and the output beside it; on real .xlsx files and on the Sheets fake through gspread."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import openpyxl
import pytest
import requests
from click.testing import CliRunner
from requests import PreparedRequest

from sheetswiss import api
from sheetswiss.backends.base import Book, Value, column_letter
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GUARD_TAB, GoogleSheetsBackend, RewritingSession
from sheetswiss.cli import cli
from sheetswiss.control import Requests
from sheetswiss.errors import SheetswissError
from sheetswiss.workbook.contract import CONTROL, CONTROL_LABELS
from sheetswiss.workbook.control_tab import COMMANDS, HELP, find_control
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook, type_results

NOW = dt.datetime(2026, 7, 30, 9, 0)
KEY = "1FakeSheetKeyForSheetswissControl0123456789"
PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")


def clock() -> Callable[[], dt.datetime]:
    ticks = iter(NOW + dt.timedelta(seconds=i) for i in range(1000))
    return lambda: next(ticks)


def steps(*actions: Callable[[], None]) -> Callable[[float], None]:
    """A ``sleep`` that does the next action instead of waiting, then stops the loop as Ctrl-C would."""
    queue = list(actions)

    def sleep(seconds: float) -> None:
        if not queue:
            raise KeyboardInterrupt
        queue.pop(0)()

    return sleep


def control(book: Book) -> dict[str, Value]:
    """The Control tab's values by label."""
    return {str(row[0]): (row[1] if len(row) > 1 else None) for row in book.rows(CONTROL)[1:] if row}


def cells_for(book: Book, **values: Value) -> dict[str, Value]:
    """``{"B2": "pair", ...}`` for the labels given (``dry_run`` is Dry run), found by label as the tool does."""
    rows = {str(row[0]): r for r, row in enumerate(book.rows(CONTROL), start=1) if row}
    return {f"B{rows[label.replace('_', ' ').capitalize()]}": value for label, value in values.items()}


def without_control(book: Book) -> dict[str, Any]:
    return {name: rows for name, rows in book.tabs.items() if name != CONTROL}


# -- the tab -------------------------------------------------------------------------------------------------


def test_new_makes_the_control_tab_with_its_drop_down_and_checkboxes(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    rows = ExcelBackend(path).read().rows(CONTROL)
    assert rows[0] == ("Control", "Value", "Help")
    assert [r[0] for r in rows[1:]] == list(CONTROL_LABELS)
    assert all(r[2] == HELP[r[0]] for r in rows[1:])
    ws = openpyxl.load_workbook(path)[CONTROL]
    lists = {str(v.sqref): v.formula1 for v in ws.data_validations.dataValidation}
    assert lists == {"B2": '"' + ",".join(COMMANDS["swiss"]) + '"', "B6": '"TRUE,FALSE"', "B7": '"TRUE,FALSE"',
                     "B8": '"TRUE,FALSE"', "B9": '"TRUE,FALSE"'}


BOOLEAN = '"TRUE";"TRUE";"FALSE"'
"""LibreOffice's own format for a boolean: with it an unticked checkbox shows FALSE there, not 0."""


def test_the_checkboxes_are_booleans_that_libreoffice_shows_as_true_or_false(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ws = openpyxl.load_workbook(path)[CONTROL]
    rows = {str(ws.cell(r, 1).value): r for r in range(2, ws.max_row + 1)}
    for label in ("Redo", "Check", "Dry run", "Run"):
        cell = ws.cell(rows[label], 2)
        assert (cell.value, cell.data_type, cell.number_format) == (False, "b", BOOLEAN), label
    assert ws.cell(rows["Command"], 2).number_format == "General"
    ask(path, command="pair", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    run = openpyxl.load_workbook(path)[CONTROL].cell(rows["Run"], 2)
    assert (run.value, run.data_type, run.number_format) == (False, "b", BOOLEAN)  # unticked, still a checkbox


@pytest.mark.parametrize("tab", [CONTROL, "Avoid"])
def test_the_control_and_avoid_tabs_print_one_page_wide_like_players(tmp_path: Path, tab: str) -> None:
    wb = openpyxl.load_workbook(new_workbook(tmp_path))
    for name in (tab, "Players"):
        ws = wb[name]
        assert ws.sheet_properties.pageSetUpPr is not None and ws.sheet_properties.pageSetUpPr.fitToPage, name
        assert (ws.page_setup.orientation, ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (
            "landscape", 1, 0), name


def test_the_control_command_adds_the_tab_to_an_older_event(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    wb = openpyxl.load_workbook(path)
    del wb[CONTROL]
    wb.save(path)
    result = CliRunner().invoke(cli, ["control", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"Added the Control tab to {path}: choose a command (pair, standings, playoffs, slips, reports, register, "
        "plan, publish), tick Run, and sheetswiss watch runs it", f"Next: sheetswiss watch {path}"]
    book = ExcelBackend(path).read()
    assert find_control(book) is not None and book.rows("Log")[-1][1] == "control"
    before = path.read_bytes()
    again = CliRunner().invoke(cli, ["control", str(path)])
    assert again.output == f"{path} has a Control tab already; nothing was written\n"
    assert path.read_bytes() == before


def test_a_heat_event_offers_the_heat_commands(tmp_path: Path) -> None:
    path = tmp_path / "heats.xlsx"
    api.new(str(path), format="heats", seed=1)
    ws = openpyxl.load_workbook(path)[CONTROL]
    lists = {str(v.sqref): v.formula1 for v in ws.data_validations.dataValidation}
    assert lists["B2"] == '"seat,qualify,advance,publish"'


# -- on an .xlsx file ----------------------------------------------------------------------------------------


def ask(path: Path, **values: Value) -> None:
    """Type a request into the Control tab and save, as a GM in Excel would."""
    backend = ExcelBackend(path)
    backend.fill_cells(CONTROL, cells_for(backend.read(), **values))


def test_pair_chosen_and_run_ticked_pairs_the_round_and_says_done(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", run=True)
    lines: list[str] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps(lambda: None))
    book = ExcelBackend(path).read()
    event = parse_event(book)
    assert event.paired_rounds == 1 and len(event.games_in(1)) == 3
    status = control(book)
    assert status["Status"] == "done" and status["Run"] is False
    assert status["Started"] == "2026-07-30 09:00:00" and status["Finished"] == "2026-07-30 09:00:01"
    output = str(status["Output"]).splitlines()
    assert output[0] == "Round 1: 3 tables; no rematches"
    assert output[-1] == "Written: Results rows 2-4 (round 1), Pairings, Log"
    assert [row[1] for row in book.rows("Log")[2:]] == ["new --format swiss", "pair"]
    assert lines[1] == "09:00:00 Control: pair: done: Round 1: 3 tables; no rematches"
    assert lines[-1] == "Stopped."
    assert sum(line.startswith("09:") for line in lines) == 1  # run once, not again on the next look


def test_redo_holds_for_one_request_so_the_next_pair_pairs_the_next_round(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    ask(path, command="pair", redo=True, run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    status = control(ExcelBackend(path).read())
    assert status["Status"] == "done" and status["Run"] is False and status["Redo"] is False
    assert str(status["Output"]).startswith("Round 1")
    type_results(path, lambda a, b: "1-0")
    ask(path, command="pair", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    assert control(book)["Status"] == "done" and parse_event(book).paired_rounds == 2


def test_a_bad_result_cell_is_refused_in_the_control_tab_and_nothing_else_is_written(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    game = next(g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.b is not None)
    ExcelBackend(path).fill_cells("Results", {game.cell.split("!")[1]: "W"})
    ask(path, command="standings", run=True)
    before = ExcelBackend(path).read()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    status = control(after)
    assert status["Status"] == "refused" and status["Run"] is False
    assert str(status["Output"]).startswith(f"{game.cell}: cannot read 'W' as a result")


def test_a_command_not_listed_is_refused_naming_the_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="copy", run=True)
    before = ExcelBackend(path).read()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    assert control(after)["Status"] == "refused"
    assert control(after)["Output"] == ("Control!B2: 'copy' is not a command the Control tab runs; choose one of: "
                                        "pair, standings, playoffs, slips, reports, register, plan, publish")


def test_a_heat_command_in_a_swiss_event_and_a_bad_number_are_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="seat", heat=2, run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert str(control(ExcelBackend(path).read())["Output"]).startswith(
        "Control!B2: seat is for heat events and this one is a Swiss; choose one of: pair, ")
    ask(path, command="slips", round="two", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert control(ExcelBackend(path).read())["Output"] == "Control!B4: 'two' is not a round number (1, 2, 3 ...)"


def test_a_bad_heat_and_a_bad_round_are_both_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="slips", heat="first", round=0, run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert str(control(ExcelBackend(path).read())["Output"]).splitlines() == [
        "Control!B3: 'first' is not a heat number (1, 2, 3 ...)",
        "Control!B4: '0' is not a round number (1, 2, 3 ...)"]


def test_a_request_saved_while_the_workbook_is_open_runs_once_it_is_closed(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", run=True)
    lock = path.with_name(f".~lock.{path.name}#")  # LibreOffice has the file open
    lock.write_text("GM,laptop,2026-07-30")
    saved = path.read_bytes()
    lines: list[str] = []
    seen: list[bytes] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps(
        lambda: seen.append(path.read_bytes()),  # a look with the lock there: nothing written
        lambda: None,                            # still open
        lock.unlink))                            # closed
    assert seen == [saved]
    assert lines[1] == ("09:00:00 Control: a request waits until the workbook is closed (.~lock.event.xlsx# is "
                        "there; sheetswiss never writes into an open workbook; if no program has it open, delete "
                        "that stale file)")
    assert lines[2].startswith("09:00:03 Control: pair: done: Round 1: 3 tables")
    assert parse_event(ExcelBackend(path).read()).paired_rounds == 1


def test_excel_lock_file_is_recognised(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", run=True)
    lock = path.with_name(f"~${path.name}")
    lock.write_bytes(b"GM")
    before = path.read_bytes()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps(lambda: None))
    assert path.read_bytes() == before


def test_a_renamed_tab_or_a_moved_header_is_refused_naming_the_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", run=True)
    wb = openpyxl.load_workbook(path)
    wb[CONTROL].title = "Requests"
    wb.save(path)
    before = path.read_bytes()
    lines: list[str] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps(lambda: None))
    assert lines[1] == ("09:00:00 Control: requests refused: Requests!A9: this tab looks like the Control tab "
                        "renamed; requests are taken only from a tab named Control: name it Control again")
    assert len(lines) == 3  # said once
    assert path.read_bytes() == before
    wb = openpyxl.load_workbook(path)
    wb["Requests"].title = CONTROL
    wb[CONTROL].insert_rows(1)
    wb.save(path)
    lines.clear()
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps())
    assert lines[1] == ("09:00:00 Control: requests refused: Control!A1: the Control tab's header (Control | Value) "
                        "should be in row 1, which holds nothing; it is in Control!A2 (a row inserted above it?); "
                        "requests are refused until it is back in A1:B1")
    assert parse_event(ExcelBackend(path).read()).paired_rounds == 0


def test_a_label_outside_column_a_is_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    wb = openpyxl.load_workbook(path)
    wb[CONTROL].insert_cols(1)
    wb[CONTROL]["A1"] = "Control"
    wb[CONTROL]["B1"] = "Value"
    wb.save(path)
    with pytest.raises(SheetswissError, match=r"^Control!B2, Control!B3, Control!B4 and 11 more: the labels "
                                              r"'Command', 'Heat', .*, 'Output' should be in column A, with their "
                                              r"values in B \(a column inserted\?\)"):
        find_control(ExcelBackend(path).read())
    rows = [("Control", "Value"), *((label, None) if label != "Run" else (None, None, "Run")
                                    for label in CONTROL_LABELS)]
    with pytest.raises(SheetswissError, match=r"^Control!C9: the label 'Run' should be in column A, with its value "
                                              r"in B \(a column inserted\?\); requests are refused until"):
        find_control(Book({CONTROL: tuple(rows)}))


# -- on a Google Sheet (the fake, through gspread) -----------------------------------------------------------


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server


def sheet(fake: FakeSheets) -> GoogleSheetsBackend:
    return GoogleSheetsBackend(KEY, session=RewritingSession(fake.url), sleep=lambda s: None)


def started(fake: FakeSheets) -> GoogleSheetsBackend:
    backend = sheet(fake)
    api.new(backend, seed=2, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": n for r, n in enumerate(PLAYERS, start=2)})
    return backend


def type_request(fake: FakeSheets, backend: GoogleSheetsBackend, **values: Value) -> None:
    """Choose and tick in the browser: the drop-down's text, the checkbox's TRUE."""
    fake.type(KEY, CONTROL, cells_for(backend.read(), **values))


def test_new_on_a_sheet_makes_a_drop_down_and_checkboxes(fake: FakeSheets) -> None:
    started(fake)
    tab = fake.sheet(KEY, CONTROL)
    command = tab.cells[1, 1]["dataValidation"]["condition"]
    assert command == {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": c} for c in COMMANDS["swiss"]]}
    assert [tab.cells[r, 1]["dataValidation"]["condition"]["type"] for r in (5, 6, 7, 8)] == ["BOOLEAN"] * 4


def test_on_a_sheet_pair_asked_from_the_browser_is_answered(fake: FakeSheets) -> None:
    backend = started(fake)
    type_request(fake, backend, command="pair", run=True, requested_by="gm@example.org",
                 requested_at="2026-07-30 08:59:58")
    lines: list[str] = []
    api.watch(backend, every=5, echo=lines.append, now=clock(), sleep=steps(lambda: None))
    book = sheet(fake).read()
    assert parse_event(book).paired_rounds == 1
    status = control(book)
    assert status["Status"] == "done" and status["Run"] is False
    assert str(status["Output"]).startswith("Round 1: 3 tables; no rematches\n")
    assert lines[0] == (f"Watching gsheet:{KEY}; running the Control tab's requests (reads the sheet every 5 s, "
                        "2 requests a read: 24 a minute, within Google's read quota of 60 a minute; Ctrl-C stops)")
    assert lines[1] == ("09:00:00 Control: pair asked by gm@example.org at 2026-07-30 08:59:58: done: Round 1: "
                        "3 tables; no rematches")
    assert [row[1] for row in book.rows("Log")[2:]] == ["new --format swiss", "pair"]


def test_on_a_sheet_a_bad_result_cell_is_refused_and_nothing_else_is_written(fake: FakeSheets) -> None:
    backend = started(fake)
    api.pair(backend, now=NOW)
    game = next(g for g in parse_event(backend.read()).games_in(1) if g.b is not None)
    fake.type(KEY, "Results", {game.cell.split("!")[1]: "W"})
    type_request(fake, backend, command="pair", run=True)
    before = {s.title: dict(s.cells) for s in fake.books[KEY].sheets if s.title not in (CONTROL, GUARD_TAB)}
    api.watch(backend, echo=lambda line: None, now=clock(), sleep=steps())
    after = {s.title: dict(s.cells) for s in fake.books[KEY].sheets if s.title not in (CONTROL, GUARD_TAB)}
    assert after == before
    status = control(sheet(fake).read())
    assert status["Status"] == "refused" and status["Run"] is False
    assert str(status["Output"]).startswith(f"{game.cell}: cannot read 'W' as a result")


def test_two_requests_at_once_make_one_run(fake: FakeSheets) -> None:
    """Two watchers read the same ticked request; the revision guard lets one take it."""
    backend = started(fake)
    type_request(fake, backend, command="pair", run=True)
    first, second = sheet(fake), sheet(fake)
    book_1, book_2 = first.read(), second.read()
    one = Requests(first, None, clock())(book_1, NOW)
    two = Requests(second, None, clock())(book_2, NOW)
    assert one[0].startswith("09:00:00 Control: pair: done")
    assert two == [f"09:00:00 Control: pair: not taken yet (gsheet:{KEY}: the sheet changed while this command ran "
                   "(another GM's command?); nothing was written; run it again); looking again"]
    book = sheet(fake).read()
    assert parse_event(book).paired_rounds == 1 and control(book)["Status"] == "done"
    assert [row[1] for row in book.rows("Log")[2:]] == ["new --format swiss", "pair"]
    assert Requests(second, None, clock())(book, NOW) == []  # the next look: nothing to take


def test_a_request_made_while_one_runs_waits_and_runs_next(fake: FakeSheets) -> None:
    backend = started(fake)
    type_request(fake, backend, command="pair", run=True)
    rows = cells_for(backend.read(), command="standings", run=True)

    def ask_while_pair_runs() -> None:  # the browser writes a new request just before pair's own write
        fake.type(KEY, CONTROL, rows)

    def on_take() -> None:  # the first write takes the pair request; pair writes next
        fake.before_batch_update = ask_while_pair_runs

    lines: list[str] = []
    fake.before_batch_update = on_take
    api.watch(backend, echo=lines.append, now=clock(), sleep=steps(lambda: None))
    runs = [line for line in lines if " Control: " in line]
    assert [line.split(": ")[1:3] for line in runs] == [["pair", "done"], ["standings", "done"]]
    status = control(sheet(fake).read())
    assert status["Status"] == "done" and str(status["Output"]).startswith("Standings after round 0")


def test_a_network_failure_is_reported_in_the_control_tab(fake: FakeSheets) -> None:
    backend = started(fake)
    type_request(fake, backend, command="pair", run=True)
    lines: list[str] = []
    calls: list[int] = []

    def fail_the_commands_read() -> None:
        calls.append(1)
        if len(calls) == 1:  # the take went in; pair's read is answered 503 until the retries give up
            fake.fail_next(*[503] * 6)

    fake.before_batch_update = fail_the_commands_read
    api.watch(backend, echo=lines.append, now=clock(), sleep=steps(lambda: None))
    book = sheet(fake).read()
    status = control(book)
    assert status["Status"] == "refused"
    assert str(status["Output"]).startswith(f"gsheet:{KEY}: Google Sheets refused to read")
    assert parse_event(book).paired_rounds == 0


def test_the_demo_shows_a_request_answered(capsys: pytest.CaptureFixture[str]) -> None:
    from .control_demo import main

    shown = main(pace=0.02)
    assert shown["Status"] == "done" and shown["Run"] is False
    assert str(shown["Output"]).startswith("Round 1: 3 tables; no rematches")
    out = capsys.readouterr().out
    assert "Control: pair asked by gm@example.org at " in out
    assert out.index("(in the browser") < out.index("Control: pair")


def test_a_run_left_running_by_a_stopped_watch_is_closed_at_the_first_look(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", status="running", started="2026-07-30 08:58:00")
    lines: list[str] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps(lambda: None))
    note = ("watch stopped while this ran (started 2026-07-30 08:58:00); the Log tab's last row says whether it "
            "wrote anything; ask again if not")
    assert lines[1:] == [f"09:00:00 Control: the last request had no answer: {note}", "Stopped."]
    status = control(ExcelBackend(path).read())
    assert status["Status"] == "refused" and status["Output"] == note
    assert parse_event(ExcelBackend(path).read()).paired_rounds == 0


def test_register_from_the_control_tab_never_reads_a_file(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS], settings={"registrations": "signups.csv"})
    (tmp_path / "signups.csv").write_text("Name\nZed\n")
    ask(path, command="register", run=True)
    before = ExcelBackend(path).read()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    row = next(r for r, cells in enumerate(after.rows("Settings"), start=1) if cells and cells[0] == "registrations")
    assert control(after)["Output"] == (f"Settings!B{row}: register from the Control tab reads a tab only, never a "
                                        "file; name the form's responses tab here, or run sheetswiss register EVENT "
                                        "--from FILE.csv in a terminal")


class CtrlCAtTheWrite(RewritingSession):
    """A session on which Ctrl-C is pressed while the command's own write is on its way: the second write
    (the first takes the request). With ``went_in`` the write is sent, applied and answered, and Ctrl-C comes
    before the answer is read; without, it comes before the write is sent.

    Python turns Ctrl-C into KeyboardInterrupt in the main thread; raising it here puts it at that point
    whatever the machine's load, and also when the tests run with Ctrl-C ignored (a job started in the
    background by a script), where a signal would never arrive."""

    def __init__(self, endpoint: str, *, went_in: bool) -> None:
        super().__init__(endpoint)
        self.went_in = went_in
        self.writes = 0

    def send(self, request: PreparedRequest, **kwargs: Any) -> requests.Response:
        if request.method == "POST" and urlsplit(request.url or "").path.endswith(":batchUpdate"):
            self.writes += 1
            if self.writes == 2:
                if self.went_in:
                    super().send(request, **kwargs)
                raise KeyboardInterrupt
        return super().send(request, **kwargs)


@pytest.mark.parametrize("went_in", [True, False], ids=["after-the-write-went-in", "before-the-write-was-sent"])
def test_ctrl_c_while_a_request_runs_stops_cleanly_and_says_so(fake: FakeSheets, went_in: bool) -> None:
    type_request(fake, started(fake), command="pair", run=True)
    session = CtrlCAtTheWrite(fake.url, went_in=went_in)
    lines: list[str] = []
    api.watch(GoogleSheetsBackend(KEY, session=session, sleep=lambda s: None), echo=lines.append, now=clock(),
              sleep=steps(lambda: None))
    # the take, pair's write (Ctrl-C), the status; after a write that went in, the status is refused by the
    # revision guard (this watch had not read its answer) and written again once the sheet is read afresh
    assert session.writes == (4 if went_in else 3)
    assert lines[-1] == "Stopped." and not any(" Control: pair" in line for line in lines)
    book = sheet(fake).read()
    status = control(book)
    assert status["Status"] == "refused" and status["Run"] is False
    assert status["Output"] == ("watch was stopped (Ctrl-C) while this ran; the Log tab's last row says whether it "
                                "wrote anything; ask again if not")
    assert parse_event(book).paired_rounds == (1 if went_in else 0)  # the sheet is whole: pair's write or none
    assert book.rows("Log")[-1][1] == ("pair" if went_in else "new --format swiss")  # as the Output says
    assert [s.title for s in fake.books[KEY].sheets].count(GUARD_TAB) == 1


def test_copy_to_a_sheet_keeps_the_control_tab_drop_down_and_checkboxes(fake: FakeSheets, tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.copy(str(path), sheet(fake))
    tab = fake.sheet(KEY, CONTROL)
    assert tab.cells[1, 1]["dataValidation"]["condition"]["type"] == "ONE_OF_LIST"
    assert tab.cells[8, 1]["dataValidation"]["condition"] == {"type": "BOOLEAN"}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed here")
def test_a_request_saved_by_libreoffice_is_run(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="pair", run=True)
    soffice = shutil.which("soffice")
    assert soffice is not None
    subprocess.run([soffice, "--headless", f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                    "--convert-to", "xlsx", "--outdir", str(tmp_path / "saved"), str(path)],
                   check=True, capture_output=True, timeout=180)
    shutil.copy(tmp_path / "saved" / path.name, path)  # the workbook as LibreOffice saves it
    ws = openpyxl.load_workbook(path)[CONTROL]
    assert {str(v.sqref) for v in ws.data_validations.dataValidation} >= {"B2", "B9"}
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    assert control(book)["Status"] == "done" and parse_event(book).paired_rounds == 1


def test_a_missing_label_or_a_label_twice_is_refused() -> None:
    rows = [("Control", "Value", "Help"), *((label, None) for label in CONTROL_LABELS if label != "Output")]
    with pytest.raises(SheetswissError, match=r"^Control!A:A: no row labelled 'Output'; the Control tab needs a row "
                                              r"for each of: Command, .*delete this tab, then run sheetswiss "
                                              r"control EVENT\)$"):
        find_control(Book({CONTROL: tuple(rows)}))
    rows += [("Output", None), ("run", True)]
    with pytest.raises(SheetswissError, match=r"^Control!A16: a second row labelled 'Run' \(the first is row 9\)"):
        find_control(Book({CONTROL: tuple(rows)}))
    rows += [("command", None)]  # every label twice is a line of its own, in the tab's order
    with pytest.raises(SheetswissError) as e:
        find_control(Book({CONTROL: tuple(rows)}))
    assert str(e.value).splitlines() == [
        "Control!A16: a second row labelled 'Run' (the first is row 9); keep one",
        "Control!A17: a second row labelled 'Command' (the first is row 2); keep one"]


def test_seat_a_heat_from_the_control_tab(tmp_path: Path) -> None:
    path = tmp_path / "heats.xlsx"
    api.new(str(path), format="heats", seed=3, now=NOW)
    ExcelBackend(path).fill_cells("Players", {f"A{r}": f"P{r:02d}" for r in range(2, 14)})
    ask(path, command="seat", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert control(ExcelBackend(path).read())["Output"] == "Control!B3: seat needs the heat's number here"
    ask(path, command="seat", heat=1, run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    assert control(book)["Status"] == "done"
    assert {row[0] for row in book.rows("Heats")[1:]} == {1} and len(book.rows("Heats")) == 13
    assert str(book.rows("Log")[-1][1]).startswith("seat")


def test_publish_writes_into_the_folder_watch_was_given_and_only_there(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="publish", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert control(ExcelBackend(path).read())["Output"] == (
        "Control!B2: publish writes the players' pages into the folder named when watch starts, and none was: "
        "start it as sheetswiss watch EVENT SITE_DIR")
    site = tmp_path / "site"
    ask(path, command="publish", run=True)
    lines: list[str] = []
    api.watch(str(path), site, echo=lines.append, now=clock(), sleep=steps())
    assert control(ExcelBackend(path).read())["Status"] == "done"
    assert (site / "index.html").exists() and "Control: publish: done: Published 2 pages" in "\n".join(lines)


def test_two_browsers_asking_at_once_make_one_run(fake: FakeSheets) -> None:
    backend = started(fake)
    type_request(fake, backend, command="pair", run=True)  # the GM at the table
    type_request(fake, backend, command="pair", run=True, requested_by="helper@example.org")  # a helper, too
    lines: list[str] = []
    api.watch(backend, echo=lines.append, now=clock(), sleep=steps(lambda: None, lambda: None))
    book = sheet(fake).read()
    assert [row[1] for row in book.rows("Log")[2:]] == ["new --format swiss", "pair"]
    assert parse_event(book).paired_rounds == 1 and control(book)["Status"] == "done"
    assert len([line for line in lines if " Control: " in line]) == 1


def test_a_player_not_in_players_is_refused_naming_the_player_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    ask(path, command="standings", player="Zed", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    assert str(control(ExcelBackend(path).read())["Output"]).startswith("Control!B5: 'Zed' is not in Players")


# -- pair --check: the round as the GM edited it in Results --------------------------------------------------


def swap_two_opponents(path: Path) -> tuple[str, str]:
    """After round 1 is paired: the Player B of the round's first two tables swapped in Results, as a GM
    types them over each other; the two names, as they now stand at table 1 and table 2."""
    backend = ExcelBackend(path)
    rows = backend.read().rows("Results")
    b = rows[0].index("Player B")
    one, two = str(rows[1][b]), str(rows[2][b])
    backend.fill_cells("Results", {f"{column_letter(b + 1)}2": two, f"{column_letter(b + 1)}3": one})
    return two, one


def test_check_ticked_with_pair_checks_the_edited_round_rewrites_pairings_and_logs_it(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    at_one, at_two = swap_two_opponents(path)
    ask(path, command="pair", check=True, run=True)
    results = ExcelBackend(path).read().rows("Results")
    lines: list[str] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    status = control(book)
    assert status["Status"] == "done" and status["Run"] is False and status["Check"] is False  # one request
    output = str(status["Output"]).splitlines()
    assert output[0] == "Round 1 as edited in Results: 3 tables; a valid round"
    assert [line.split(" v ")[1].split(" (was")[0] for line in output[1:3]] == [at_one, at_two]
    assert all(line.startswith(f"Changed: table {t}: ") for t, line in zip((1, 2), output[1:3], strict=True))
    assert output[-1] == "Written: Pairings, Log"
    assert lines[1] == f"09:00:00 Control: pair --check: done: {output[0]}"
    assert book.rows("Results") == results  # the GM's rows stay as typed
    assert [row[3] for row in book.rows("Pairings")[2:4]] == [at_one, at_two]
    log = book.rows("Log")[-1]
    assert log[1] == "pair --check" and f"table 1: {book.rows('Pairings')[2][1]} v {at_one}" in str(log[3])


def test_check_with_dry_run_writes_nothing_but_the_control_tab(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    ask(path, command="pair", check=True, dry_run=True, run=True)
    before = ExcelBackend(path).read()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    assert str(control(after)["Output"]).splitlines() == [
        "Round 1 as edited in Results: 3 tables; a valid round",
        "Changed: nothing (the rows are as the round was paired)",
        "Dry run, nothing written; would write: Pairings, Log"]


def test_an_edited_round_that_leaves_a_player_out_is_refused_in_the_control_tab(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    backend = ExcelBackend(path)
    rows = backend.read().rows("Results")
    b = rows[0].index("Player B")
    twice, left = str(rows[1][b]), str(rows[2][b])
    backend.fill_cells("Results", {f"{column_letter(b + 1)}3": twice})  # one player twice, another in no row
    ask(path, command="pair", check=True, run=True)
    before = ExcelBackend(path).read()
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    status = control(after)
    assert status["Status"] == "refused"
    assert status["Output"] == f"Results!D3: {twice!r} is in round 1 twice (also row 2); round 1 leaves out {left!r}"


def test_check_and_redo_ticked_together_are_refused_naming_the_check_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    api.pair(str(path), now=NOW)
    ask(path, command="pair", check=True, redo=True, run=True)
    before = ExcelBackend(path).read()
    lines: list[str] = []
    api.watch(str(path), echo=lines.append, now=clock(), sleep=steps())
    after = ExcelBackend(path).read()
    assert without_control(after) == without_control(before)
    assert control(after)["Output"] == ("Control!B7: Check checks the round in Results as it is, and Redo "
                                        "(Control!B6) pairs it again; tick one of them")
    assert lines[1].startswith("09:00:00 Control: pair --redo --check: refused: Control!B7: ")


def test_a_control_tab_made_before_check_existed_still_takes_requests(tmp_path: Path) -> None:
    """An older Control tab has no Check row: its requests run as before, and a Check row the GM inserts
    (anywhere: rows are found by label) is read."""
    path = new_workbook(tmp_path, [(n,) for n in PLAYERS])
    wb = openpyxl.load_workbook(path)
    ws = wb[CONTROL]
    check_row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Check")
    ws.delete_rows(check_row)
    wb.save(path)
    book = ExcelBackend(path).read()
    assert "Check" not in [row[0] for row in book.rows(CONTROL) if row]
    cells = find_control(book)
    assert cells is not None and "Check" not in cells.rows and cells.request().check is False
    ask(path, command="pair", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    assert control(book)["Status"] == "done" and parse_event(book).paired_rounds == 1
    swap_two_opponents(path)
    last = len(book.rows(CONTROL)) + 2
    ExcelBackend(path).fill_cells(CONTROL, {f"A{last}": "Check", f"B{last}": True})
    ask(path, command="pair", run=True)
    api.watch(str(path), echo=lambda line: None, now=clock(), sleep=steps())
    book = ExcelBackend(path).read()
    assert control(book)["Status"] == "done", control(book)["Output"]
    assert book.rows("Log")[-1][1] == "pair --check" and parse_event(book).paired_rounds == 1


def test_check_from_the_control_tab_of_a_google_sheet(fake: FakeSheets) -> None:
    backend = started(fake)
    api.pair(backend, now=NOW)
    type_request(fake, backend, command="pair", check=True, run=True)
    api.watch(backend, echo=lambda line: None, now=clock(), sleep=steps(lambda: None))
    book = sheet(fake).read()
    assert control(book)["Status"] == "done", control(book)["Output"]
    assert str(control(book)["Output"]).startswith("Round 1 as edited in Results: 3 tables; a valid round")
    assert book.rows("Log")[-1][1] == "pair --check"
