"""Results reported by the players: the Reports tab settled into Results, on .xlsx and on the Sheets fake."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession
from sheetswiss.reports import flip, reported_result
from sheetswiss.results import Result
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook, run

NOW = dt.datetime(2026, 7, 30, 9, 0)
KEY = "1FakeSheetKeyForSheetswissTests0123456789"
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
HEADER = ("Timestamp", "Round", "Your name", "Your result", "Opponent")



def tables(path: Path) -> dict[int, tuple[str, str, str]]:
    """Round 1's games by table: (Player A, Player B, Result cell)."""
    event = parse_event(ExcelBackend(path).read())
    return {g.table: (g.a, g.b, g.cell) for g in event.games_in(1) if g.b is not None and g.table is not None}


def add_reports(path: Path, rows: list[tuple[object, ...]]) -> None:
    wb = load_workbook(path)
    if "Reports" in wb.sheetnames:
        ws = wb["Reports"]
    else:
        ws = wb.create_sheet("Reports")
        ws.append(HEADER)
    for row in rows:
        ws.append(row)
    wb.save(path)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = new_workbook(tmp_path, [(n, 2000 - 10 * i) for i, n in enumerate(NAMES)])
    api.pair(str(path), now=NOW)
    return path


def test_agreeing_reports_fill_exactly_their_tables(event: Path) -> None:
    t = tables(event)
    (a1, b1, c1), (a2, b2, c2), (a3, b3, c3), (a4, b4, c4) = t[1], t[2], t[3], t[4]
    ExcelBackend(event).fill_cells("Results", {c4.split("!")[1]: "0-1"})  # the GM typed table 4
    add_reports(event, [
        ("t", 1, a1, "Win", b1), ("t", 1, b1.upper(), "loss", ""),       # agree: 1-0
        ("t", 1, a2, "Draw", ""), ("t", 1, b2, "Win", a2),               # disagree
        ("t", 1, a3, "Loss", ""),                                         # one report: waiting
        ("t", 1, a4, "Win", ""), ("t", 1, b4, "Loss", ""),               # agree, but the GM typed 0-1
        ("t", 2, a1, "Win", ""),                                          # round 2 is not paired
        ("t", 1, "Nobody Known", "Win", ""),                              # unknown reporter
        ("t", 1, a1, "Win", b2),                                          # not at that table
        ("t", 1, a1, "Win", ""),                                          # duplicate report
    ])
    reports_before = ExcelBackend(event).read().rows("Reports")
    code, out, err = run("reports", str(event))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("Reported results in Reports: 11 read; 1 result(s) filled, 1 conflict(s), 1 waiting "
                        "for the other player, 3 not applied")
    assert f"  {c1} (round 1, table 1) {a1} v {b1}: 1-0 (both reported)" in lines
    assert f"  {c2} (round 1, table 2) {a2} v {b2}: the reports disagree (Reports!D4 {a2} says 'Draw'; " \
        f"Reports!D5 {b2} says 'Win')" in lines
    assert f"  {c3} (round 1, table 3) {a3} v {b3}: {a3} reported 'Loss'; waiting for {b3}" in lines
    assert f"  {c4} (round 1, table 4) {a4} v {b4}: typed 0-1 kept; Reports!D7 {a4} says 'Win'; " \
        f"Reports!D8 {b4} says 'Loss'" in lines
    assert "  Reports!B9: round 2 is not paired yet (the last paired round is 1)" in lines
    assert "  Reports!C10: 'Nobody Known' is not in Players" in lines
    assert f"  Reports!E11: {a1}'s opponent in round 1 is {b1}, not '{b2}'; the report is left out" in lines
    assert f"  Reports!C12: {a1} reported round 1 again (also row 2): the same result; the latest counts" in lines
    book = ExcelBackend(event).read()
    results = {g.cell: g.result for g in parse_event(book).games_in(1)}
    assert results[c1] == Result.parse("1-0") and results[c2] is None and results[c3] is None
    assert results[c4] == Result.parse("0-1")  # never overwritten
    assert book.rows("Reports") == reports_before
    assert book.rows("Log")[-1][1:] == ("reports", book.rows("Log")[-1][2], "1 Result cell(s) in Results")
    before = event.read_bytes()
    code, out, err = run("reports", str(event))  # nothing new: nothing written
    assert code == 0 and out.rstrip().endswith("Nothing to fill; nothing written")
    assert event.read_bytes() == before


def test_one_report_is_enough_when_reports_needed_is_1(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n, 2000 - 10 * i) for i, n in enumerate(NAMES)], settings={"reports_needed": 1})
    api.pair(str(path), now=NOW)
    a, b, cell = tables(path)[2]
    add_reports(path, [("t", 1, b, "2-1", "")])  # from B's side: B won two games to one
    before = path.read_bytes()
    code, out, err = run("reports", str(path), "--dry-run")
    assert code == 0 and f"  {cell} (round 1, table 2) {a} v {b}: 1-2 (reported by {b})" in out
    assert path.read_bytes() == before
    code, out, err = run("reports", str(path))
    assert code == 0, err
    assert {g.cell: g.result for g in parse_event(ExcelBackend(path).read()).games_in(1)}[cell] == Result.parse("1-2")


def test_a_later_report_corrects_an_earlier_one(event: Path) -> None:
    a, b, cell = tables(event)[1]
    add_reports(event, [("t", 1, a, "Loss", ""), ("t", 1, b, "Loss", ""), ("t", 1, a, "Win", "")])
    code, out, err = run("reports", str(event))
    assert code == 0, err
    assert f"  Reports!C4: {a} reported round 1 again (also row 2): 'Loss' replaced by 'Win'; the latest counts" in out
    assert f"{cell} (round 1, table 1) {a} v {b}: 1-0 (both reported)" in out


def test_unreadable_reports_and_a_missing_tab(event: Path, tmp_path: Path) -> None:
    before = event.read_bytes()
    code, _, err = run("reports", str(event))
    assert code == 2 and err.startswith("Error: Settings: reports: no tab named 'Reports'; the workbook's tabs:")
    assert event.read_bytes() == before
    a, _, _ = tables(event)[1]
    add_reports(event, [("t", "one", a, "Win", ""), ("t", 1, a, "won?", ""), ("t", 1, "", "Win", "")])
    code, out, err = run("reports", str(event))
    assert code == 0, err
    assert "  Reports!B2: cannot read 'one' as a round number" in out
    assert "  Reports!D3: cannot read 'won?' as a result" in out
    assert "  Reports!C4: who reports is missing" in out
    bad = new_workbook(tmp_path, [(n,) for n in NAMES], name="bad.xlsx")
    wb = load_workbook(bad)
    wb.create_sheet("Reports").append(("Timestamp", "Name", "Result"))
    wb.save(bad)
    code, _, err = run("reports", str(bad))
    assert code == 2 and err == "Error: Reports!1: no column for the round (headed round, round number, which round)\n"
    wb = load_workbook(bad)
    wb["Reports"]["C1"] = "Outcome"  # every missing column is a line
    wb.save(bad)
    code, _, err = run("reports", str(bad))
    assert code == 2 and err.splitlines() == [
        "Error: Reports!1: no column for the round (headed round, round number, which round)",
        "Error: Reports!1: no column for the result (headed result, your result, score)"]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY, tabs=("Reports",))
        yield server


def test_reports_on_a_google_sheet(fake: FakeSheets) -> None:
    backend = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url))
    api.new(backend, seed=2, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": n for r, n in enumerate(NAMES[:4], start=2)})
    api.pair(backend, now=NOW)
    games = [g for g in parse_event(backend.read()).games_in(1) if g.b is not None]
    fake.type(KEY, "Reports", {"A1": "Timestamp", "B1": "Round", "C1": "Your name", "D1": "Your result",
                               "B2": 1, "C2": games[0].a, "D2": "Draw", "B3": 1, "C3": games[0].b, "D3": "draw",
                               "B4": 1, "C4": games[1].a, "D4": "Win"})
    code, out, err = run("reports", f"gsheet:{KEY}")
    assert code == 0, err
    assert "1 result(s) filled, 0 conflict(s), 1 waiting" in out
    after = {g.cell: g.result for g in parse_event(backend.read()).games_in(1)}
    assert after[games[0].cell] == Result.parse("1/2") and after[games[1].cell] is None


def test_the_players_page_links_to_the_report_form(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in NAMES[:4]], settings={"report_form": "https://forms.gle/abc123"})
    api.pair(str(path), now=NOW)
    api.publish(str(path), tmp_path / "site", now=NOW)
    assert '<a href="https://forms.gle/abc123">Report your result</a>' in (tmp_path / "site" / "index.html").read_text()
    bad = new_workbook(tmp_path, [("Ana",)], name="bad.xlsx", settings={"report_form": "javascript:alert(1)"})
    code, _, err = run("pair", str(bad))
    assert code == 2 and "report_form: 'javascript:alert(1)' is not a web address starting with https://" in err


@given(st.sampled_from(["1-0", "0-1", "1/2", "2-1", "0-2", "1-1", "2-1-1", "+/-", "-/+", "--"]))
def test_flip_is_its_own_inverse_and_swaps_the_winner(text: str) -> None:
    result = Result.parse(text)
    assert flip(flip(result)) == result
    assert flip(result).outcome.name == {"A_WINS": "B_WINS", "B_WINS": "A_WINS"}.get(result.outcome.name,
                                                                                      result.outcome.name)
    assert reported_result(text, game_based=False) == result
