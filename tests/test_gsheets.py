"""Every command on a Google Sheet: real gspread calls against the local fake of the Sheets v4 API."""

from __future__ import annotations

import copy
import datetime as dt
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss import api
from sheetswiss.backends.base import Append, Changes, Tab, Update, column_index, column_letter
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GUARD_TAB, GoogleSheetsBackend, RewritingSession
from sheetswiss.errors import BadWorkbook, SheetswissError
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets, Fault
from .helpers import random_results, run

KEY = "1FakeSheetKeyForSheetswissTests0123456789"
NOW = dt.datetime(2026, 7, 30, 9, 0)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server



def backend(fake: FakeSheets, **kwargs: object) -> GoogleSheetsBackend:
    return GoogleSheetsBackend(KEY, session=RewritingSession(fake.url), **kwargs)  # type: ignore[arg-type]


def names(n: int) -> list[str]:
    return [f"Player {i:03d}" for i in range(1, n + 1)]


def setup_event(fake: FakeSheets, players: list[str], seed: int = 5) -> None:
    api.new(backend(fake), seed=seed, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": name for r, name in enumerate(players, start=2)})


def type_results(fake: FakeSheets, result: object) -> None:
    event = parse_event(backend(fake).read())
    fake.type(KEY, "Results", {g.cell.split("!")[1]: result(g.a, g.b)  # type: ignore[operator]
                               for g in event.games_in(event.paired_rounds) if g.b and g.result is None})


def test_new_lays_the_tabs_into_the_existing_sheet(fake: FakeSheets) -> None:
    code, out, err = run("new", f"https://docs.google.com/spreadsheets/d/{KEY}/edit#gid=0", "--seed", "3")
    assert code == 0, err
    titles = [s.title for s in fake.books[KEY].sheets]
    assert titles[0] == "Sheet1"  # never deleted or renamed
    assert titles[1:] == ["Settings", "Players", "Results", "Avoid", "Pairings", "Standings", "Control", "Log",
                          GUARD_TAB]
    assert fake.sheet(KEY, GUARD_TAB).hidden
    code, out, err = run("new", f"gsheet:{KEY}")
    assert code == 0, err
    assert "Kept as they were: Settings, Players, Results, Avoid, Pairings, Standings" in out


def test_a_pair_on_500_players_costs_three_requests(fake: FakeSheets) -> None:
    setup_event(fake, [*names(499), '=IMPORTXML("http://x")'])
    before = len(fake.log)
    code, _, err = run("pair", KEY)
    assert code == 0, err
    assert fake.requests()[before:] == [
        f"GET /v4/spreadsheets/{KEY}",
        f"GET /v4/spreadsheets/{KEY}/values:batchGet",
        f"POST /v4/spreadsheets/{KEY}:batchUpdate",
    ]
    results = fake.sheet(KEY, "Results")
    typed = [cell["userEnteredValue"] for cell in results.cells.values()
             if "IMPORTXML" in str(cell.get("userEnteredValue"))]
    assert typed == [{"stringValue": '=IMPORTXML("http://x")'}]
    type_results(fake, random_results(1))
    before = len(fake.log)
    assert run("standings", KEY)[0] == 0
    assert len(fake.log) - before == 3


def test_a_rate_limit_is_retried_without_waiting(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    slept: list[float] = []
    said: list[str] = []
    fake.fail_next(429, 503)
    api.pair(backend(fake, sleep=slept.append, notify=said.append, jitter=lambda: 0.5))
    assert slept == [2 * 1.05, 4 * 1.05]  # the backoff, lengthened by the jitter
    assert said[0] == ("Google Sheets answered 429 (too many requests) to 'read the sheet's tabs'; waiting 2 s "
                       "before trying again (try 2 of 6; Google's per-minute quota refills within about 70 s)")
    assert len(parse_event(backend(fake).read()).games_in(1)) == 4


def test_backoff_honours_retry_after_and_lasts_past_a_quota_minute(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    slept: list[float] = []
    fake.fail_next(429, retry_after=30)
    api.pair(backend(fake, sleep=slept.append, jitter=lambda: 0.0))
    assert slept == [30]  # Google asked for 30 s: longer than the 2 s step
    fake.fail_next(*[429] * 5)
    slept.clear()
    spread: list[float] = []
    api.standings(backend(fake, sleep=slept.append, jitter=lambda: 1.0))
    assert len(slept) == 5 and 70 <= sum(slept) / 1.1 <= 71  # a minute's quota refills before the last try
    fake.fail_next(*[429] * 5)
    api.standings(backend(fake, sleep=spread.append))  # real jitter: waits differ from the bare steps
    assert all(step <= w <= step * 1.1 for step, w in zip((2, 4, 8, 16, 40), spread, strict=True))


def test_retries_stop_at_the_cap(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.fail_next(*[500] * 6)
    with pytest.raises(SheetswissError, match="Google Sheets refused to read the sheet's tabs"):
        api.pair(backend(fake, sleep=lambda s: None))


def test_a_concurrent_command_is_refused_and_the_sheet_left_as_it_was(fake: FakeSheets) -> None:
    setup_event(fake, names(10))
    snapshot: dict[str, object] = {}

    def other_gm_pairs_first() -> None:
        api.pair(backend(fake))
        snapshot["after"] = {s.title: dict(s.cells) for s in fake.books[KEY].sheets}

    fake.before_batch_update = other_gm_pairs_first
    with pytest.raises(SheetswissError, match="the sheet changed while this command ran"):
        api.pair(backend(fake))
    assert {s.title: dict(s.cells) for s in fake.books[KEY].sheets} == snapshot["after"]
    assert parse_event(backend(fake).read()).paired_rounds == 1


def test_the_same_event_gives_identical_tabs_on_excel_and_on_a_sheet(fake: FakeSheets, tmp_path: Path) -> None:
    players = names(11)
    setup_event(fake, players, seed=9)
    path = tmp_path / "same.xlsx"
    api.new(str(path), seed=9, now=NOW)
    ExcelBackend(path).fill_cells("Players", {f"A{r}": name for r, name in enumerate(players, start=2)})
    for round_ in range(1, 4):
        for target in (backend(fake), ExcelBackend(path)):
            api.pair(target, now=NOW)
        result = random_results(round_)
        typed = {g.cell.split("!")[1]: result(g.a, g.b)
                 for g in parse_event(ExcelBackend(path).read()).games_in(round_) if g.b}
        fake.type(KEY, "Results", typed)
        ExcelBackend(path).fill_cells("Results", typed)  # type: ignore[arg-type]
    for target in (backend(fake), ExcelBackend(path)):
        api.standings(target, now=NOW)
    sheet, excel = backend(fake).read().tabs, ExcelBackend(path).read().tabs
    assert set(sheet) - {"Sheet1"} == set(excel)
    for tab in excel:
        assert sheet[tab] == excel[tab], tab


def test_missteps_are_one_clear_line(fake: FakeSheets, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake.create("1NotSharedWithTheServiceAccount000000", shared=False)
    code, _, err = run("pair", "gsheet:1NotSharedWithTheServiceAccount000000")
    assert code == 2 and "permission denied; share the sheet (as Editor) with" in err
    code, _, err = run("pair", "gsheet:1NoSuchSpreadsheetKeyAnywhere00000000")
    assert code == 2 and "no spreadsheet with this key" in err
    monkeypatch.delenv("SHEETSWISS_SHEETS_ENDPOINT")
    monkeypatch.delenv("SHEETSWISS_CREDENTIALS", raising=False)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    code, _, err = run("pair", f"gsheet:{KEY}")
    assert code == 2 and err.startswith("Error: no Google credentials: pass --credentials FILE")
    bad = tmp_path / "key.json"
    bad.write_text("{not json")
    code, _, err = run("pair", f"gsheet:{KEY}", "--credentials", str(bad))
    assert code == 2 and "not a readable credentials JSON file" in err
    bad.write_text('{"installed": {"client_id": "x"}}')
    code, _, err = run("pair", f"gsheet:{KEY}", "--credentials", str(bad))
    assert code == 2 and "this is an OAuth client file" in err


def test_the_rewriting_session_refuses_other_hosts(fake: FakeSheets) -> None:
    session = RewritingSession(fake.url)
    with pytest.raises(SheetswissError, match=r"refusing a request to www\.googleapis\.com"):
        session.get("https://www.googleapis.com/drive/v3/files")


def test_excel_commands_never_import_google_libraries(tmp_path: Path) -> None:
    path = tmp_path / "ev.xlsx"
    code = (f"import sys; from sheetswiss import api; api.new({str(path)!r}, seed=1); "
            "assert not any(m.startswith(('gspread', 'google', 'requests')) for m in sys.modules), "
            "[m for m in sys.modules if m.startswith(('gspread', 'google', 'requests'))]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_copy_round_trips_between_excel_and_a_sheet(fake: FakeSheets, tmp_path: Path) -> None:
    from .helpers import new_workbook
    from .helpers import type_results as type_into_excel

    path = new_workbook(tmp_path, [(n, 1500 + i, "Club") for i, n in enumerate(names(9))], name="ev.xlsx")
    api.pair(str(path))
    type_into_excel(path, random_results(3))
    api.standings(str(path))
    code, out, err = run("copy", str(path), f"gsheet:{KEY}")
    assert code == 0, err
    assert out.startswith("Copied 8 tabs (") and out.strip().endswith("Avoid, Pairings, Standings, Control, Log")
    back = tmp_path / "back.xlsx"
    code, _, err = run("copy", f"gsheet:{KEY}", str(back))
    assert code == 0, err
    original, returned = ExcelBackend(path).read().tabs, ExcelBackend(back).read().tabs
    assert {k: v for k, v in returned.items() if k != "Sheet1"} == original
    assert "already has tabs Settings, Players" in run("copy", str(path), f"gsheet:{KEY}")[2]
    assert "already exists" in run("copy", f"gsheet:{KEY}", str(back))[2]
    code, out, err = run("pair", str(back))  # the event goes on from the copy
    assert code == 0 and out.startswith("Round 2: 4 tables, bye: "), err


def test_a_date_google_made_of_a_result_names_the_cell(fake: FakeSheets) -> None:
    setup_event(fake, names(4))
    api.pair(backend(fake))
    fake.type(KEY, "Results", {"E2": "1/2/2026"})
    code, _, err = run("standings", KEY)
    assert code == 2 and "Results!E2: the spreadsheet turned the result into a date" in err


def test_seat_and_qualify_on_a_sheet_in_three_requests_each(fake: FakeSheets) -> None:
    api.new(backend(fake), format="heats", seed=2, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": name for r, name in enumerate(names(13), start=2)})
    before = len(fake.log)
    code, out, err = run("seat", KEY, "--heat", "1")
    assert code == 0 and "(4+3+3+3)" in out, err
    assert len(fake.log) - before == 3
    rows = backend(fake).read().rows("Heats")
    fake.type(KEY, "Heats", {f"D{r}": 10 + r for r in range(2, len(rows) + 1)})
    before = len(fake.log)
    code, out, err = run("qualify", KEY)
    assert code == 0 and "qualified" in out, err
    assert len(fake.log) - before == 3


def test_advance_on_a_sheet_in_three_requests_to_the_places(fake: FakeSheets) -> None:
    api.new(backend(fake), format="heats", seed=2, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": name for r, name in enumerate(names(8), start=2)})
    assert run("seat", KEY, "--heat", "1")[0] == 0
    fake.type(KEY, "Heats", {f"D{r}": 10 + r for r in range(2, 10)})
    for expected in ("Final: 4 players at 1 table (4)", "Final places"):
        before = len(fake.log)
        code, out, err = run("advance", KEY)
        assert code == 0 and out.startswith(expected), err
        assert len(fake.log) - before == 3
        fake.type(KEY, "Heats", {f"D{r}": 50 - r for r in range(10, 14)})
    rows = backend(fake).read().rows("Places")
    assert [r[0] for r in rows[2:6]] == [1, 2, 3, 4]


def service_account_key(path: Path, token_uri: str) -> Path:
    """A well-formed service-account key (a fresh RSA key) whose token endpoint is ``token_uri``."""
    import json

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    path.write_text(json.dumps({
        "type": "service_account", "project_id": "p", "private_key_id": "k", "private_key": pem,
        "client_email": "gm-bot@p.iam.gserviceaccount.com", "client_id": "1", "token_uri": token_uri}))
    return path


def test_sign_in_failures_are_one_clear_line(fake: FakeSheets, monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.delenv("SHEETSWISS_SHEETS_ENDPOINT")
    refused = service_account_key(tmp_path / "refused.json", f"{fake.url}/token")
    code, _, err = run("pair", f"gsheet:{KEY}", "--credentials", str(refused))
    assert code == 2 and err.startswith(f"Error: gsheet:{KEY}: Google refused the credentials"), err
    unreachable = service_account_key(tmp_path / "offline.json", "http://127.0.0.1:9/token")
    code, _, err = run("pair", f"gsheet:{KEY}", "--credentials", str(unreachable))
    assert code == 2 and "cannot reach Google to sign in" in err, err


def tabs_but_the_guard(fake: FakeSheets) -> dict[str, object]:
    """Every tab but the revision guard: its size, frozen rows and cells (with a value or a format)."""
    return {s.title: (s.rows, s.columns, s.frozen, {rc: copy.deepcopy(cell) for rc, cell in s.cells.items() if cell})
            for s in fake.books[KEY].sheets if s.title != GUARD_TAB}


def test_updates_fill_empty_cells_in_the_one_batch_and_a_filled_cell_stops_the_write(fake: FakeSheets) -> None:
    setup_event(fake, names(4))
    fake.type(KEY, "Players", {"B2": 1500})
    before = len(fake.log)
    backend(fake).write(Changes(updates=(Update("Players", 3, 2, 1650), Update("Players", 1200, 30, "=far"))))
    assert fake.requests()[before:] == [f"GET /v4/spreadsheets/{KEY}", f"POST /v4/spreadsheets/{KEY}:batchUpdate"]
    players = fake.sheet(KEY, "Players")
    assert players.cells[2, 1]["userEnteredValue"] == {"numberValue": 1650}
    assert players.cells[1199, 29]["userEnteredValue"] == {"stringValue": "=far"}
    assert (players.rows, players.columns) == (1200, 30)
    rows = backend(fake).read().rows("Players")
    assert rows[1][:2] == ("Player 001", 1500) and rows[2][:2] == ("Player 002", 1650)
    snapshot = tabs_but_the_guard(fake)
    before = len(fake.log)
    with pytest.raises(BadWorkbook, match=r"^Players!B2: this cell is not empty \(it holds 1500\); .*nothing was"):
        backend(fake).write(Changes(tool_tabs=(Tab("Log", (("x",),)),),
                                    updates=(Update("Players", 4, 2, 1), Update("Players", 2, 2, 1700))))
    assert [r.split()[0] for r in fake.requests()[before:]] == ["GET", "POST", "POST"]  # the write, put back
    copies = [r["copyPaste"] for r in fake.log[-2][3]["requests"] if "copyPaste" in r]
    assert [(c["source"]["startRowIndex"], c["source"]["endRowIndex"], c["pasteType"]) for c in copies] == [
        (1, 4, "PASTE_NORMAL"), (1, 4, "PASTE_VALUES"), (0, 1000, "PASTE_NORMAL")]  # Players B2:B4 once, the Log
    assert tabs_but_the_guard(fake) == snapshot
    with pytest.raises(BadWorkbook, match=r"^Ratings: no such tab; nothing was written$"):
        backend(fake).write(Changes(updates=(Update("Ratings", 2, 2, 1),)))


def test_appended_rows_follow_the_last_filled_row_and_updates_grow_the_grid(fake: FakeSheets) -> None:
    setup_event(fake, names(4))
    rows = tuple((9, t, "A", "B", None, None, None, None, None, None, None, None, None, None, None, None, None,
                  None, None, None, None, None, None, None, None, None, None, "wide") for t in range(1, 4))
    said: list[str] = []
    backend(fake, notify=said.append).write(Changes(appends=(Append("Results", 3, rows, text_columns=(5,)),),
                                                    updates=(Update("Results", 1005, 2, 7),)))
    results = fake.sheet(KEY, "Results")
    assert (results.rows, results.columns) == (1005, 28)  # grown once for the update and the wide rows
    assert backend(fake).read().rows("Results")[1:4] == rows  # right after the header, not at row 3
    assert results.cells[1, 4]["userEnteredFormat"] == {"numberFormat": {"type": "TEXT"}}
    assert backend(fake).read().rows("Results")[-1] == (None, 7)
    assert said == ["Results: the new rows are 2-4, not 3-5 as planned (and as the Log tab says): rows were "
                    "deleted there meanwhile"]


def test_rating_into_a_sheet_fills_its_empty_rating_cells(fake: FakeSheets, tmp_path: Path) -> None:
    from .helpers import new_workbook
    from .helpers import type_results as type_into_excel

    past = new_workbook(tmp_path, [(n,) for n in names(6)], name="past.xlsx")
    for seed in (1, 2):
        api.pair(str(past))
        type_into_excel(past, random_results(seed))
    setup_event(fake, ["Player 001", "player 002", "Someone New"])
    fake.type(KEY, "Players", {"B2": 1400})
    code, out, err = run("rating", str(past), "--into", f"gsheet:{KEY}")
    assert code == 0, err
    assert "Players.Rating filled for 1 player(s)" in out and "left empty (no past games): Someone New" in out
    rows = backend(fake).read().rows("Players")
    assert rows[1][:2] == ("Player 001", 1400) and rows[3][:1] == ("Someone New",) and len(rows[3]) < 2
    elo = next(line.split()[-1] for line in run("rating", str(past), "--elo")[1].splitlines()
               if line.strip().startswith("Player 002 "))
    assert rows[2][1] == int(elo)  # the Elo line of `rating --elo`, written as a number
    assert backend(fake).read().rows("Log")[-1][1] == "rating --into"


def test_a_row_a_gm_types_while_pair_runs_is_kept_and_the_round_follows_it(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    api.pair(backend(fake))
    type_results(fake, random_results(1))
    said: list[str] = []
    fake.before_batch_update = lambda: fake.type(KEY, "Results", {"A6": 1, "B6": 9, "C6": "Player 009",
                                                                  "D6": "BYE", "E6": "half bye"})
    report = api.pair(backend(fake, notify=said.append))
    assert "Written: Results rows 6-9 (round 2)" in report.text()
    assert said == ["Results: the new rows are 7-10, not 6-9 as planned (and as the Log tab says): the rows typed "
                    "there meanwhile are kept and come first"]
    rows = backend(fake).read().rows("Results")
    assert rows[5] == (1, 9, "Player 009", "BYE", "half bye")  # the GM's row, untouched
    assert [r[0] for r in rows[6:]] == [2, 2, 2, 2]
    assert {r[2] for r in rows[6:]} | {r[3] for r in rows[6:]} == set(names(8))
    assert fake.sheet(KEY, "Results").cells[6, 4]["userEnteredFormat"] == {"numberFormat": {"type": "TEXT"}}


def test_pair_appends_with_append_cells_and_stays_three_requests(fake: FakeSheets) -> None:
    setup_event(fake, names(6))
    said: list[str] = []
    before = len(fake.log)
    api.pair(backend(fake, notify=said.append))
    assert len(fake.log) - before == 3 and said == []
    body = fake.log[-1][3]
    kinds = [next(iter(r)) for r in body["requests"]]
    assert kinds.count("appendCells") == 1 and "copyPaste" not in kinds  # no copies when nothing is replaced
    assert body["responseRanges"] == ["'Results'!A1:Z"]  # where the appended rows went


def test_redo_refuses_whole_when_a_result_was_typed_meanwhile(fake: FakeSheets) -> None:
    setup_event(fake, names(10))
    api.pair(backend(fake))
    typed: dict[str, object] = {}

    def gm_types_a_result() -> None:
        fake.type(KEY, "Results", {"E3": "1-0"})
        typed["sheet"] = tabs_but_the_guard(fake)

    fake.before_batch_update = gm_types_a_result
    code, _, err = run("pair", KEY, "--redo")
    assert code == 2
    assert err == ("Error: Results!E3: this cell changed while this command ran (it held nothing when read, '1-0' "
                   "when written); nothing was written; run the command again\n")
    assert tabs_but_the_guard(fake) == typed["sheet"]  # the result is there, Pairings and Log as they were
    assert [s.title for s in fake.books[KEY].sheets].count(GUARD_TAB) == 1
    code, out, err = run("pair", KEY, "--redo")  # run again: refused for the typed result, as it should be
    assert code == 2 and "Results!E3: round 1 has results entered" in err
    fake.type(KEY, "Results", {"E3": None})
    code, out, err = run("pair", KEY, "--redo")
    assert code == 0 and "Written: Results rows 2-6 (round 1)" in out, err


def test_two_gms_pairing_at_once_is_still_refused_with_copies_in_the_batch(fake: FakeSheets) -> None:
    setup_event(fake, names(10))
    api.pair(backend(fake))
    fake.before_batch_update = lambda: api.pair(backend(fake), redo=True)
    with pytest.raises(SheetswissError, match="the sheet changed while this command ran"):
        api.pair(backend(fake), redo=True)


def test_a_write_whose_answer_is_dropped_is_reported_as_written(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.drop_answer("batchUpdate")
    before = len(fake.log)
    code, out, err = run("pair", KEY)
    assert code == 0, err
    assert err == "Google Sheets' answer to 'write' was lost; the sheet shows it went in\n"
    assert "Written: Results rows 2-5 (round 1)" in out
    assert fake.requests()[before:] == [f"GET /v4/spreadsheets/{KEY}", f"GET /v4/spreadsheets/{KEY}/values:batchGet",
                                        f"POST /v4/spreadsheets/{KEY}:batchUpdate", f"GET /v4/spreadsheets/{KEY}"]
    assert parse_event(backend(fake).read()).paired_rounds == 1  # written once


def test_a_write_lost_before_google_applied_it_is_sent_again_once(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.drop_answer("batchUpdate", apply_first=False)
    said: list[str] = []
    api.pair(backend(fake, notify=said.append, sleep=lambda s: None))
    assert said[0] == "Google Sheets' answer to 'write' was lost; the sheet shows it did not go in"
    assert said[1].startswith("Google Sheets dropped the connection (RemoteDisconnected) to 'write'; waiting 2 s")
    assert [r.split()[0] for r in fake.requests()[-3:]] == ["POST", "GET", "POST"]
    assert parse_event(backend(fake).read()).paired_rounds == 1


@pytest.mark.slow  # waits out a real five-second timeout
def test_a_write_answered_after_the_timeout_is_checked_not_blamed_on_another_gm(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.delay_answer(20, "batchUpdate")
    said: list[str] = []
    api.pair(backend(fake, notify=said.append, timeout=5))  # the other requests answer well within it, even busy
    assert said == ["Google Sheets' answer to 'write' was lost; the sheet shows it went in"]
    assert parse_event(backend(fake).read()).paired_rounds == 1


def test_a_lost_answer_that_cannot_be_checked_says_so(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.drop_answer("batchUpdate")
    fake.before_batch_update = lambda: [fake.drop_answer("get", apply_first=False) for _ in range(2)] and None
    with pytest.raises(SheetswissError) as caught:
        api.pair(backend(fake, sleep=lambda s: None))
    message = str(caught.value)
    assert "whether it went in is not known" in message and "look at the Log tab" in message
    assert "nothing was written" not in message


def test_a_hung_connection_times_out_with_a_clear_line(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.delay_answer(30, "get")
    fake.delay_answer(30, "get")
    said: list[str] = []
    with pytest.raises(SheetswissError) as caught:
        api.pair(backend(fake, notify=said.append, sleep=lambda s: None, timeout=0.2))
    assert str(caught.value) == (f"gsheet:{KEY}: Google Sheets did not answer within 0.2 s (to 'read the sheet's "
                                 "tabs'); check the network and run again; nothing was written")
    assert said[0].startswith("Google Sheets did not answer within 0.2 s to 'read the sheet's tabs'; waiting 2 s")


def test_every_request_has_a_timeout(fake: FakeSheets) -> None:
    sheet = backend(fake)
    sheet.exists()
    assert sheet._http().timeout == (10.0, 60.0)


def test_the_wait_is_one_line_on_stderr(fake: FakeSheets, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    setup_event(fake, names(8))
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    fake.fail_next(429, retry_after=20)
    code, _, err = run("pair", KEY)
    assert code == 0 and len(slept) == 1 and 20 <= slept[0] <= 22
    assert err.count("\n") == 1 and err.startswith("Google Sheets answered 429 (too many requests) to 'read the "
                                                   f"sheet's tabs'; waiting {slept[0]:.0f} s before trying again")


def test_typing_over_the_write_before_it_is_put_back_is_named(fake: FakeSheets) -> None:
    setup_event(fake, names(10))
    api.pair(backend(fake))

    def gm_types_twice() -> None:
        fake.type(KEY, "Results", {"E3": "1-0"})  # before the write: the write is put back
        fake.before_batch_update = lambda: fake.type(KEY, "Results", {"E4": "0-1"})  # before it is put back

    fake.before_batch_update = gm_types_twice
    with pytest.raises(BadWorkbook) as caught:
        api.pair(backend(fake), redo=True)
    assert str(caught.value).startswith("Results!E3: this cell changed while this command ran")
    assert str(caught.value).endswith("; typed meanwhile and lost, type again: Results!E4 ('0-1')")
    rows = backend(fake).read().rows("Results")
    assert rows[2][4] == "1-0" and len(rows[3]) == 4  # E3 kept; E4 as it was when the write went in


def test_a_server_error_on_the_write_is_checked_with_one_read_then_sent_again(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.faults.append(Fault("batchUpdate", "status", 500))
    said: list[str] = []
    before = len(fake.log)
    api.pair(backend(fake, notify=said.append, sleep=lambda s: None, jitter=lambda: 0.0))
    assert fake.requests()[before + 2:] == [f"POST /v4/spreadsheets/{KEY}:batchUpdate", f"GET /v4/spreadsheets/{KEY}",
                                            f"POST /v4/spreadsheets/{KEY}:batchUpdate"]
    assert said == ["Google Sheets answered 500 to 'write'; waiting 2 s before trying again (try 2 of 6)"]
    assert parse_event(backend(fake).read()).paired_rounds == 1


typed_cells = st.dictionaries(st.tuples(st.integers(-1, 8), st.integers(1, 6)),
                              st.sampled_from(["1-0", "0-1", "half bye", 7]), min_size=1, max_size=4)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(players=st.integers(5, 9), redo=st.booleans(), typed=typed_cells)
def test_nothing_a_gm_types_while_pair_runs_is_lost(players: int, redo: bool,
                                                    typed: dict[tuple[int, int], object]) -> None:
    with FakeSheets() as fake:
        fake.create(KEY)
        setup_event(fake, names(players))
        api.pair(backend(fake))
        if not redo:
            type_results(fake, random_results(1))
        first = len(backend(fake).read().rows("Results")) + 1 if not redo else 2
        cells = {f"{column_letter(c)}{first + dr}": v for (dr, c), v in typed.items()}
        before: dict[str, object] = {}
        fake.before_batch_update = lambda: (fake.type(KEY, "Results", cells), before.update(tabs_but_the_guard(fake)))
        try:
            api.pair(backend(fake), redo=redo)
            refused = False
        except BadWorkbook:
            refused = True
        results = fake.sheet(KEY, "Results")
        for ref, value in cells.items():  # every typed cell holds what was typed, whatever the outcome
            m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
            assert m
            assert results.value(int(m[2]) - 1, column_index(m[1]) - 1) == value, ref
        if refused:
            assert redo and tabs_but_the_guard(fake) == before  # refused whole
        else:  # the round's rows are in, after anything typed at the end
            rows = backend(fake).read().rows("Results")
            ours = [i for i, row in enumerate(rows) if row[:1] == (1 if redo else 2,) and len(row) > 3
                    and row[2] in names(players)]
            assert len(ours) >= players // 2


def test_a_lost_answer_to_putting_back_is_checked_too(fake: FakeSheets) -> None:
    setup_event(fake, names(10))
    api.pair(backend(fake))
    typed: dict[str, object] = {}

    def gm_types_and_the_network_drops() -> None:
        fake.type(KEY, "Results", {"E3": "1-0"})
        typed["sheet"] = tabs_but_the_guard(fake)
        fake.drop_answer("batchUpdate")  # the answer to the second batch, which puts the sheet back

    fake.before_batch_update = gm_types_and_the_network_drops
    said: list[str] = []
    with pytest.raises(BadWorkbook, match=r"^Results!E3: this cell changed while this command ran .*nothing was wr"):
        api.pair(backend(fake, notify=said.append), redo=True)
    assert said == ["Google Sheets' answer to 'put back what was replaced' was lost; the sheet shows it went in"]
    assert tabs_but_the_guard(fake) == typed["sheet"]
