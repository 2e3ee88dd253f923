"""Registration into Players from a form's responses tab or a CSV file, on .xlsx and on the Sheets fake."""

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
from sheetswiss.names import name_key
from sheetswiss.workbook.parse import parse_players

from .fake_sheets import FakeSheets
from .helpers import new_workbook, random_results, refused_lines, run, type_results

KEY = "1FakeSheetKeyForSheetswissTests0123456789"
NOW = dt.datetime(2026, 7, 30, 9, 0)
FORM = "Form Responses 1"
FORM_HEADER = ("Timestamp", "Email Address", "Your name", "Club", "Rating (FIDE)", "Dietary needs")


def form_rows() -> list[tuple[object, ...]]:
    """40 registrations, two of them again: one exactly, one with its accents typed differently."""
    rows: list[tuple[object, ...]] = [
        (f"7/{1 + i // 10}/2026 10:{i:02d}:00", f"p{i}@club.org", f"Player {i:02d}", f"Club {i % 5}",
         str(1400 + 10 * i), "") for i in range(1, 39)]
    rows.insert(5, ("7/1/2026 11:00:00", "jose@club.org", "José Álvarez", "Rooks", "1650", "vegetarian"))
    rows.insert(9, ("7/1/2026 11:05:00", "grace@club.org", "Grace O’Malley", "", "", ""))
    rows.append(("7/2/2026 09:00:00", "jose2@club.org", "jose alvarez", "Rooks", "1650", ""))
    rows.append(("7/2/2026 09:10:00", "p07@club.org", "Player 07", "Club 2", "1470", ""))
    return rows



def xlsx_event(tmp_path: Path, rows: list[tuple[object, ...]] | None = None) -> Path:
    path = new_workbook(tmp_path)
    wb = load_workbook(path)
    wb["Players"]["G1"] = "Email"
    ws = wb.create_sheet(FORM)
    ws.append(FORM_HEADER)
    for row in form_rows() if rows is None else rows:
        ws.append(row)
    wb.save(path)
    return path


def test_forty_registrations_come_in_once_with_duplicates_listed(tmp_path: Path) -> None:
    path = xlsx_event(tmp_path)
    form_before = ExcelBackend(path).read().rows(FORM)
    code, out, err = run("register", str(path))
    assert code == 0, err
    assert out.splitlines()[0] == f"Registrations in {FORM}: 42 read, 40 new, 2 duplicate(s) not added; " \
        "added to Players rows 2-41"
    assert "  columns: Name, Rating, Club, Email" in out
    assert f"  {FORM}!C42: 'jose alvarez' registered twice (first in row 7)" in out
    assert f"  {FORM}!C43: 'Player 07' registered twice (first in row 9)" in out
    assert "Not brought in (no Players column headed the same; add one to Players to bring it in): " \
        "'Dietary needs'" in out
    book = ExcelBackend(path).read()
    players = parse_players(book)
    assert len(players) == 40
    jose = next(p for p in players if p.name == "José Álvarez")
    assert (jose.rating, jose.club) == (1650, "Rooks")
    assert book.rows("Players")[jose.row - 1][6] == "jose@club.org"
    assert book.rows(FORM) == form_before  # the source is only read
    assert book.rows("Log")[-1][1] == "register"
    # a second run finds everyone in Players already and writes nothing
    before = path.read_bytes()
    code, out, err = run("register", str(path))
    assert code == 0, err
    assert out.splitlines()[0] == f"Registrations in {FORM}: 42 read, 0 new, 41 already in Players, " \
        "1 duplicate(s) not added"
    assert f"  {FORM}!C42: 'jose alvarez' is already in Players (row 7, 'José Álvarez')" in out
    assert out.rstrip().endswith("Nothing to add; nothing written")
    assert path.read_bytes() == before


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    path = xlsx_event(tmp_path)
    before = path.read_bytes()
    code, out, err = run("register", str(path), "--dry-run")
    assert code == 0, err
    assert "would add to Players rows 2-41" in out and "Dry run, nothing written" in out
    assert path.read_bytes() == before


def test_a_rating_that_is_not_a_number_is_left_empty_and_said(tmp_path: Path) -> None:
    path = xlsx_event(tmp_path, [("t", "", "Ana Berg", "", "about 1500", ""), ("t", "", "", "Rooks", "", "")])
    code, out, err = run("register", str(path))
    assert code == 0, err
    assert f"{FORM}!E2: rating 'about 1500' is not a number; Rating left empty" in out
    assert f"{FORM}!C3: this registration has no name; skipped" in out
    assert [(p.name, p.rating) for p in parse_players(ExcelBackend(path).read())] == [("Ana Berg", None)]


def test_bad_sources_are_one_line_and_exit_2(tmp_path: Path) -> None:
    path = xlsx_event(tmp_path, [("t", "", "Ana Berg", "", "", "")])
    before = path.read_bytes()
    code, _, err = run("register", str(path), "--from", "Sign-ups")
    assert code == 2 and err.startswith("Error: --from: no tab named 'Sign-ups'; the workbook's tabs: Settings")
    assert err.count("\n") == 1
    code, _, err = run("register", str(path), "--from", str(tmp_path / "missing.csv"))
    assert code == 2 and err == f"Error: {tmp_path / 'missing.csv'}: no such file\n"
    code, _, err = run("register", str(path), "--from", "Players")
    assert code == 2 and "Players is one of the event's own tabs" in err
    (tmp_path / "nameless.csv").write_text("Club,Rating\nRooks,1500\n")
    code, _, err = run("register", str(path), "--from", str(tmp_path / "nameless.csv"))
    assert code == 2 and err.startswith("Error: nameless.csv!1: no name column (headed Name, Full name, Player")
    assert path.read_bytes() == before


def test_both_missing_name_columns_are_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("Zoë Ng", 1700)], settings={"registration_name": "First name + Last name"})
    (tmp_path / "list.csv").write_text("Given,Family,Club\nBo,Chen,Pawns\n")
    assert refused_lines(path, "register", str(path), "--from", str(tmp_path / "list.csv")) == [
        "list.csv!1: no column headed 'first name' (setting registration_name); headers: 'Given', 'Family', 'Club'",
        "list.csv!1: no column headed 'last name' (setting registration_name); headers: 'Given', 'Family', 'Club'"]


def test_a_csv_in_excel_s_own_flavour(tmp_path: Path) -> None:
    """Semicolons, a byte-order mark, first and last names in two columns (setting registration_name)."""
    path = new_workbook(tmp_path, [("Zoë Ng", 1700)], settings={"registration_name": "First name + Last name"})
    csv = tmp_path / "club list.csv"
    csv.write_bytes("\ufeffFirst name;Last name;Club;Rating\nZOE;NG;Rooks;1700\nBo;Chen;Pawns;1500\n"
                    "Bo;Chen;Pawns;1500\n".encode())
    code, out, err = run("register", str(path), "--from", str(csv))
    assert code == 0, err
    assert out.splitlines()[0] == ("Registrations in club list.csv: 3 read, 1 new, 2 duplicate(s) not added; "
                                   "added to Players row 3")
    assert "  club list.csv!A2: 'ZOE NG' is already in Players (row 2, 'Zoë Ng')" in out
    assert [(p.name, p.club, p.rating) for p in parse_players(ExcelBackend(path).read())] == [
        ("Zoë Ng", "", 1700), ("Bo Chen", "Pawns", 1500)]


def test_after_round_one_a_registration_is_a_late_entry(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"P{i}",) for i in range(1, 7)])
    api.pair(str(path), now=NOW)
    type_results(path, random_results(1))
    (tmp_path / "late.csv").write_text("Name\nLate Comer\n")
    code, out, err = run("register", str(path), "--from", str(tmp_path / "late.csv"))
    assert code == 0, err
    assert "  round 1 is paired: the new players join from round 2 (Players.Joined)" in out
    late = parse_players(ExcelBackend(path).read())[-1]
    assert (late.name, late.joined) == ("Late Comer", 2)
    report = api.pair(str(path), now=NOW)
    assert "Late Comer" in {n for t in report.data.tables for n in (t.a, t.b)}  # type: ignore[attr-defined]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY, tabs=(FORM,))
        yield server


def test_forty_registrations_on_a_google_sheet(fake: FakeSheets, tmp_path: Path) -> None:
    api.new(GoogleSheetsBackend(KEY, session=RewritingSession(fake.url)), seed=3, now=NOW)
    cells: dict[str, object] = {f"{'ABCDEF'[c]}1": h for c, h in enumerate(FORM_HEADER)}
    for r, row in enumerate(form_rows(), start=2):
        cells.update({f"{'ABCDEF'[c]}{r}": v for c, v in enumerate(row) if v != ""})
    fake.type(KEY, FORM, cells)
    fake.type(KEY, "Players", {"G1": "Email"})
    form_before = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url)).read().rows(FORM)
    code, out, err = run("register", f"gsheet:{KEY}")
    assert code == 0, err
    assert out.splitlines()[0] == f"Registrations in {FORM}: 42 read, 40 new, 2 duplicate(s) not added; " \
        "added to Players rows 2-41"
    book = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url)).read()
    assert book.rows(FORM) == form_before
    players = parse_players(book)
    assert len(players) == 40 and players[5].name == "José Álvarez" and players[5].rating == 1650
    # a CSV works the same on a sheet
    (tmp_path / "more.csv").write_text("Name,Club\njosé álvarez,Rooks\nNew One,Pawns\n")
    code, out, err = run("register", f"gsheet:{KEY}", "--from", str(tmp_path / "more.csv"))
    assert code == 0, err
    assert "  more.csv!A2: 'josé álvarez' is already in Players (row 7, 'José Álvarez')" in out
    assert parse_players(GoogleSheetsBackend(KEY, session=RewritingSession(fake.url)).read())[-1].name == "New One"


@given(st.text(max_size=20))
def test_the_name_key_ignores_case_and_is_idempotent(name: str) -> None:
    assert name_key(name_key(name)) == name_key(name)
    assert name_key(name.upper()) == name_key(name.lower()) or not name.isascii()
