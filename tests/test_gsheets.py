"""Every command on a Google Sheet: real gspread calls against the local fake of the Sheets v4 API."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetswiss import api
from sheetswiss.backends.base import Append, Changes, Tab, Update
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GUARD_TAB, GoogleSheetsBackend, RewritingSession
from sheetswiss.cli import cli
from sheetswiss.errors import BadWorkbook, SheetswissError
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import random_results

KEY = "1FakeSheetKeyForSheetswissTests0123456789"
NOW = dt.datetime(2026, 7, 30, 9, 0)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


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
    assert titles[1:] == ["Settings", "Players", "Results", "Pairings", "Standings", "Log", GUARD_TAB]
    assert fake.sheet(KEY, GUARD_TAB).hidden
    code, out, err = run("new", f"gsheet:{KEY}")
    assert code == 0, err
    assert "Kept as they were: Settings, Players, Results, Pairings, Standings" in out


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
    api.pair(backend(fake, sleep=slept.append, notify=said.append))
    assert slept == [1, 2]
    assert said[0].startswith("Google Sheets answered 429 to 'read the sheet's tabs'; retrying in 1 s")
    assert len(parse_event(backend(fake).read()).games_in(1)) == 4


def test_retries_stop_at_the_cap(fake: FakeSheets) -> None:
    setup_event(fake, names(8))
    fake.fail_next(*[500] * 5)
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
    assert out.startswith("Copied 6 tabs (") and out.strip().endswith("Pairings, Standings, Log")
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


def test_updates_fill_empty_cells_in_the_one_batch_and_a_filled_cell_stops_the_write(fake: FakeSheets) -> None:
    setup_event(fake, names(4))
    fake.type(KEY, "Players", {"B2": 1500})
    before = len(fake.log)
    backend(fake).write(Changes(updates=(Update("Players", 3, 2, 1650), Update("Players", 1200, 30, "=far"))))
    assert fake.requests()[before:] == [
        f"GET /v4/spreadsheets/{KEY}",
        f"GET /v4/spreadsheets/{KEY}/values:batchGet",
        f"POST /v4/spreadsheets/{KEY}:batchUpdate",
    ]
    assert fake.log[-2][2]["ranges"] == ["'Players'!B3", "'Players'!AD1200"]
    players = fake.sheet(KEY, "Players")
    assert players.cells[2, 1]["userEnteredValue"] == {"numberValue": 1650}
    assert players.cells[1199, 29]["userEnteredValue"] == {"stringValue": "=far"}
    assert (players.rows, players.columns) == (1200, 30)
    rows = backend(fake).read().rows("Players")
    assert rows[1][:2] == ("Player 001", 1500) and rows[2][:2] == ("Player 002", 1650)
    snapshot = {s.title: dict(s.cells) for s in fake.books[KEY].sheets}
    before = len(fake.log)
    with pytest.raises(BadWorkbook, match=r"^Players!B2: this cell is not empty \(it holds 1500\); .*nothing was"):
        backend(fake).write(Changes(tool_tabs=(Tab("Log", (("x",),)),),
                                    updates=(Update("Players", 4, 2, 1), Update("Players", 2, 2, 1700))))
    assert [r.split()[0] for r in fake.requests()[before:]] == ["GET", "GET"]  # no batchUpdate
    assert {s.title: dict(s.cells) for s in fake.books[KEY].sheets} == snapshot
    with pytest.raises(BadWorkbook, match=r"^Ratings: no such tab; nothing was written$"):
        backend(fake).write(Changes(updates=(Update("Ratings", 2, 2, 1),)))


def test_appends_and_updates_grow_the_grid_once(fake: FakeSheets) -> None:
    setup_event(fake, names(4))
    rows = tuple((9, t, "A", "B", None) for t in range(1, 4))
    backend(fake).write(Changes(appends=(Append("Results", 999, rows, text_columns=(5,)),),
                                updates=(Update("Results", 1005, 2, 7),)))
    results = fake.sheet(KEY, "Results")
    assert results.rows == 1005
    assert results.cells[1000, 4]["userEnteredFormat"] == {"numberFormat": {"type": "TEXT"}}
    assert backend(fake).read().rows("Results")[-1] == (None, 7)


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
