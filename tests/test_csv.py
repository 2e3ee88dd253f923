"""CSV out and in (RULES.md 11.3): Players, Results and Standings written safely, players and results read
back, names matched ignoring case and accents, the round trip."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.formats.csv import unsafe
from sheetswiss.results import Result

from .helpers import new_workbook, refused_lines
from .test_cli import one_line_error, run
from .test_trf import EVERY_KIND, every_kind, games, table


def read_csv(path: Path) -> list[list[str]]:
    data = path.read_bytes()
    assert data.startswith("\ufeff".encode())  # UTF-8 with a byte-order mark, as Excel wants it
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_the_three_tabs(tmp_path: Path) -> None:
    path = every_kind(tmp_path, points="chess")
    for tab in ("players", "results", "standings"):
        code, out, err = run("export", str(path), str(tmp_path / f"{tab}.csv"), "--tab", tab)
        assert code == 0, err
        assert f"(CSV of {tab.capitalize()})" in out.splitlines()[0]
    players = read_csv(tmp_path / "players.csv")
    assert players[0] == ["Name", "Rating", "Club", "Status", "Joined"]
    assert players[1] == ["Ana", "1900", "North", "", ""] and players[4] == ["Di", "", "", "2", ""]
    results = read_csv(tmp_path / "results.csv")
    assert results[0] == ["Round", "Table", "Player A", "Player B", "Result"]
    assert [[a, b, unsafe(res)] for *_, a, b, res in results[1:]] == [
        [a, b or "BYE", Result.parse(res).spelling()] for _, a, b, res in EVERY_KIND]
    assert results[2][4] == "'+/-"  # a forfeit, which a spreadsheet would read as a formula
    standings = read_csv(tmp_path / "standings.csv")
    assert standings[0] == ["Rank", "Player", "Points", "Wins", "Draws", "Losses", "BH Cut1", "Buchholz", "SB",
                            "DE", "Wins"]
    assert len(standings) == 8


def test_names_a_spreadsheet_would_run_are_made_safe(tmp_path: Path) -> None:
    names = ["=HYPERLINK(\"x\")", "+Plus", "-Minus", "@At", "Plain"]
    path = new_workbook(tmp_path, [(n,) for n in names])
    assert run("export", str(path), str(tmp_path / "p.csv"), "--tab", "players")[0] == 0
    rows = read_csv(tmp_path / "p.csv")
    assert [r[0] for r in rows[1:]] == ["'=HYPERLINK(\"x\")", "'+Plus", "'-Minus", "'@At", "Plain"]
    other = new_workbook(tmp_path, [], name="other.xlsx")
    code, _, err = run("import", str(tmp_path / "p.csv"), str(other))
    assert code == 0, err
    assert [row[0] for row in ExcelBackend(other).read().rows("Players")[1:]] == names  # the guard comes off


def test_round_trip_through_players_and_results(tmp_path: Path) -> None:
    path = every_kind(tmp_path, points="armati")
    assert run("export", str(path), str(tmp_path / "p.csv"), "--tab", "players")[0] == 0
    assert run("export", str(path), str(tmp_path / "r.csv"), "--tab", "results")[0] == 0
    back = tmp_path / "back.xlsx"
    api.new(str(back), seed=1)
    settings = {row[0]: r for r, row in enumerate(ExcelBackend(back).read().rows("Settings"), start=1) if row}
    ExcelBackend(back).fill_cells("Settings", {f"B{settings['rounds']}": 5, f"B{settings['points']}": "armati"})
    code, out, err = run("import", str(tmp_path / "p.csv"), str(back))
    assert code == 0, err
    assert out.splitlines()[0] == "Registrations in p.csv: 7 read, 7 new; added to Players rows 2-8"
    # Players columns a players CSV does not bring back: Status and Joined (typed by the GM)
    ExcelBackend(back).fill_cells("Players", {"D5": "2", "E8": 2})
    code, out, err = run("import", str(tmp_path / "r.csv"), str(back))
    assert code == 0, err
    assert out.splitlines()[0] == f"Added {len(EVERY_KIND)} Results rows from r.csv"
    assert games(back) == games(path)
    assert table(back) == table(path)


def test_players_come_in_by_the_registration_path(tmp_path: Path) -> None:
    """``import players.csv`` is ``register --from players.csv``: names matched ignoring case and accents,
    duplicates listed and never added twice, the file only read."""
    path = new_workbook(tmp_path, [("Ana Lima",), ("Zoë Ávila", 1700)])
    src = tmp_path / "registrations.csv"
    src.write_text("name;rating;club\nana lima;;\nZOE AVILA;1800;\nNew One;1500;Town\nBo Berg;;\n  new one ;;\n",
                   encoding="utf-8")
    before = src.read_bytes()
    code, out, err = run("import", str(src), str(path))
    assert code == 0, err
    assert out.splitlines()[0] == ("Registrations in registrations.csv: 5 read, 2 new, 3 duplicate(s) not added; "
                                   "added to Players rows 4-5")
    assert "  registrations.csv!A6: 'new one' registered twice (first in row 4)" in out.splitlines()
    rows = ExcelBackend(path).read().rows("Players")[1:]
    assert [r[0] for r in rows] == ["Ana Lima", "Zoë Ávila", "New One", "Bo Berg"]
    assert src.read_bytes() == before  # the registrations are only read
    code, out, _ = run("import", str(src), str(path))  # again: nothing new
    assert out.splitlines()[0].startswith("Registrations in registrations.csv: 5 read, 0 new")


def test_bad_csv_cells_name_line_and_column(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("Ana",)])
    src = tmp_path / "p.csv"
    src.write_text("Round,Table,Player A,Player B,Result\n1,1,Ana,Nobody,1-0\n", encoding="utf-8")
    assert one_line_error(path, "import", str(src), str(path)) == "p.csv:2:4: 'Nobody' is not in Players"
    src.write_text("Round,Player A\nx,Ana\n", encoding="utf-8")
    assert one_line_error(path, "import", str(src), str(path)) == "p.csv:2:1: cannot read 'x' as a round number"
    src.write_text("Round,Table,Player A,Player B,Result\nx,1,Ana,Nobody,1-0\n1,t,Zed,,1-0\n", encoding="utf-8")
    assert refused_lines(path, "import", str(src), str(path)) == [  # every bad cell of the file, in its order
        "p.csv:2:1: cannot read 'x' as a round number", "p.csv:2:4: 'Nobody' is not in Players",
        "p.csv:3:2: cannot read 't' as a table number", "p.csv:3:3: 'Zed' is not in Players"]
