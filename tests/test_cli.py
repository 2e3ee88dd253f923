"""The commands on real .xlsx files: what a GM types, what they see, and that nothing is lost."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.xlsx import Package
from sheetswiss.history import history
from sheetswiss.workbook.parse import parse_event

from .helpers import new_workbook, random_results, run, type_results


def players(n: int) -> list[tuple[object, ...]]:
    return [(f"Player {i:03d}", 2000 - 7 * i, f"Club {i % 9}") for i in range(1, n + 1)]


def one_line_error(path: Path, *args: str) -> str:
    before = path.read_bytes() if path.exists() else None
    code, _, err = run(*args)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert (path.read_bytes() if path.exists() else None) == before
    return err.strip().removeprefix("Error: ")


def test_new_makes_every_tab_and_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "ev.xlsx"
    code, out, _ = run("new", str(path), "--format", "swiss", "--seed", "4")
    assert code == 0 and "Created" in out
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Settings", "Players", "Results", "Avoid", "Pairings", "Standings", "Control", "Log"]
    settings = {row[0]: row[1] for row in wb["Settings"].iter_rows(min_row=2, values_only=True)}
    assert settings["seed"] == 4 and settings["points"] == "armati" and settings["format"] == "swiss"
    assert one_line_error(path, "new", str(path)).endswith("already exists; sheetswiss new never overwrites a workbook")


def test_pair_appends_round_and_writes_pairings(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(9))
    code, out, err = run("pair", str(path))
    assert code == 0, err
    assert out.startswith("Round 1: 4 tables, bye: ")
    wb = openpyxl.load_workbook(path)
    rows = [r for r in wb["Results"].iter_rows(min_row=2, values_only=True) if any(r)]
    assert len(rows) == 5 and all(r[0] == 1 for r in rows)
    assert rows[-1][3] == "BYE" and rows[-1][4] == "bye"
    assert all(r[4] is None for r in rows[:-1])
    assert wb["Results"]["E2"].number_format == "@"
    pairings = wb["Pairings"]
    assert "overwritten" in pairings["A1"].value
    assert [c.value for c in pairings[2]][:5] == ["Table", "Player A", "Points", "Player B", "Points"]
    assert pairings.freeze_panes == "A3"
    log = list(wb["Log"].iter_rows(min_row=3, values_only=True))
    assert [r[1] for r in log] == ["new --format swiss", "pair"]


def test_pair_refuses_while_results_are_missing(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    run("pair", str(path))
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0"})
    message = one_line_error(path, "pair", str(path))
    assert message == ("Results!E3, Results!E4: round 1 has results missing; type them before pairing round 2")


def test_unreadable_result_names_the_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    run("pair", str(path))
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0", "E3": "W", "E4": "0-1"})
    message = one_line_error(path, "standings", str(path))
    assert message.startswith("Results!E3: cannot read 'W' as a result; accepted: 1-0, 0-1")


def test_a_result_excel_turned_into_a_date(tmp_path: Path) -> None:
    import datetime as dt

    path = new_workbook(tmp_path, players(4))
    run("pair", str(path))
    ExcelBackend(path).fill_cells("Results", {"E2": dt.datetime(2026, 1, 2), "E3": "1-0"})
    assert "Results!E2: the spreadsheet turned the result into a date" in one_line_error(path, "pair", str(path))


@pytest.mark.parametrize(("players_rows", "results", "settings", "message"), [
    ([("Ana",), ("ana",)], {}, {}, "Players!A3: 'ana' is the same name as 'Ana' in Players!A2"),
    ([("Ana",), (None, 1500)], {}, {}, "Players!A3: this row has data but no player name"),
    ([("Ana", "high")], {}, {}, "Players!B2: rating 'high' is not a number"),
    ([("Ana",), ("Bo",)], {"A2": 1, "C2": "Ana", "D2": "Zed"}, {}, "Results!D2: 'Zed' is not in Players"),
    ([("Ana",), ("Bo",), ("Cy",)], {"A2": 1, "C2": "Ana", "D2": "Bo", "A3": 1, "C3": "Cy", "D3": "Ana"}, {},
     "Results!D3: 'Ana' is in round 1 twice (also row 2)"),
    ([("Ana",), ("Bo",)], {"A2": 2, "C2": "Ana", "D2": "Bo"}, {},
     "Results!A2: round 2 follows round 0; round 1 has no pairings"),
    ([("Ana",)], {}, {"colour": "red"}, "Settings!A"),
    ([("Ana",)], {}, {"points": "go"}, "Settings!B"),
])
def test_bad_tabs_are_one_line_naming_the_cell(tmp_path: Path, players_rows: list[tuple[object, ...]],
                                               results: dict[str, object], settings: dict[str, object],
                                               message: str) -> None:
    path = new_workbook(tmp_path, players_rows, settings=settings)  # type: ignore[arg-type]
    if results:
        ExcelBackend(path).fill_cells("Results", results)  # type: ignore[arg-type]
    assert one_line_error(path, "pair", str(path)).startswith(message)


def test_unknown_setting_suggests_the_nearest_or_lists_the_formats_keys(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4), settings={"colour": "red"})
    assert "unknown setting 'colour'; did you mean 'colours'?" in one_line_error(path, "pair", str(path))
    path = new_workbook(tmp_path, players(4), name="b.xlsx", settings={"prize pool": "100"})
    message = one_line_error(path, "pair", str(path))
    assert "unknown setting 'prize pool'; the settings of a swiss event: " in message
    assert "avoid_same_club" in message and "qualifiers" not in message  # heats-only keys are not listed


def test_unknown_tiebreak_names_the_cell_and_lists_the_known_ones(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4), settings={"tiebreaks": "buchholz, koya"})
    message = one_line_error(path, "standings", str(path))
    row = [r for r, row in enumerate(ExcelBackend(path).read().rows("Settings"), 1) if row[0] == "tiebreaks"]
    assert message.startswith(f"Settings!B{row[0]}: unknown tiebreak 'koya'; known: buchholz, buchholz_cut1")


def test_files_that_cannot_be_used(tmp_path: Path) -> None:
    assert "no such file" in one_line_error(tmp_path / "none.xlsx", "pair", str(tmp_path / "none.xlsx"))
    text = tmp_path / "ev.csv"
    text.write_text("a,b\n")
    assert "not an .xlsx workbook" in one_line_error(text, "pair", str(text))
    macro = tmp_path / "ev.xlsm"
    macro.write_bytes(b"PK")
    assert ".xlsm" in one_line_error(macro, "pair", str(macro))
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"not a zip")
    assert "not a readable .xlsx workbook" in one_line_error(broken, "pair", str(broken))
    path = new_workbook(tmp_path, players(4))
    (tmp_path / "~$event.xlsx").write_bytes(b"")
    assert "open in a spreadsheet program" in one_line_error(path, "pair", str(path))
    code, out, _ = run("pair", str(path), "--dry-run")  # reading an open workbook is fine
    assert code == 0 and "Dry run, nothing written" in out


def test_pair_explain_prints_every_table_and_the_bye(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(5))
    code, out, err = run("pair", str(path), "--explain", "--dry-run")
    assert code == 0, err
    assert "5 players in 1 score group; cost levels rematch, club r1, score, float height, club" in out
    assert out.count("\nTable ") == 2 and "takes the bye: the lowest-ranked player without a bye" in out


def test_a_mistyped_workbook_name_suggests_the_one_beside_it(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4), name="convention.xlsx")
    missing = tmp_path / "convnetion.xlsx"
    assert one_line_error(missing, "pair", str(missing)) == f"{missing}: no such file; did you mean {path}?"
    wrong = tmp_path / "convention.xslx"
    assert one_line_error(wrong, "standings", str(wrong)).endswith(f"; did you mean {path}?")
    other = tmp_path / "prizes.xlsx"
    assert one_line_error(other, "pair", str(other)).endswith(f"make one with: sheetswiss new {other}")


def test_a_name_left_as_an_uncalculated_formula_is_refused(tmp_path: Path) -> None:
    """A script that sets a cell to "=Zed" with openpyxl writes a formula with no value: the player must
    not vanish from the pairing."""
    path = new_workbook(tmp_path, players(4))
    wb = openpyxl.load_workbook(path)
    wb["Players"]["A6"] = "=Zed Equals"
    wb.save(path)
    assert one_line_error(path, "pair", str(path)) == (
        "Players!A6: the cell holds the formula =Zed Equals, never calculated, not a name; if it is a name, "
        "retype it with an apostrophe first: '=Zed Equals")


def test_formula_like_names_stay_text(tmp_path: Path) -> None:
    names = [('=IMPORTXML("http://x")',), ("+Plus",), ("-Minus",), ("@At",)]
    path = new_workbook(tmp_path, names)
    code, _, err = run("pair", str(path))
    assert code == 0, err
    wb = openpyxl.load_workbook(path)
    cells = [c for row in wb["Results"].iter_rows(min_row=2, max_col=4) for c in row[2:4]]
    cells += [c for row in wb["Pairings"].iter_rows(min_row=3) for c in row]
    typed = [c for c in cells if isinstance(c.value, str) and c.value[0] in "=+-@"]
    assert len(typed) >= 8 and all(c.data_type == "s" for c in typed)


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(8))
    before = path.read_bytes()
    code, out, _ = run("pair", str(path), "--dry-run")
    assert code == 0 and "Dry run, nothing written" in out
    assert path.read_bytes() == before


def test_redo_replaces_only_the_rounds_rows(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(8))
    run("pair", str(path))
    type_results(path, random_results(2))
    run("pair", str(path))
    backend = ExcelBackend(path)
    event = parse_event(backend.read())
    late = len(event.players) + 2
    backend.fill_cells("Players", {f"A{late}": "Late Larry", f"E{late}": 2})
    code, _, err = run("pair", str(path), "--redo")
    assert code == 0, err
    event = parse_event(backend.read())
    assert len(event.games_in(1)) == 4 and all(g.result for g in event.games_in(1))
    assert len(event.games_in(2)) == 5 and event.games[-1].b is None  # nine players now: a bye


def test_redo_refuses_once_a_result_is_in(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(8))
    run("pair", str(path))
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0"})
    assert one_line_error(path, "pair", str(path), "--redo").startswith(
        "Results!E2: round 1 has results entered; --redo only re-pairs")


@pytest.mark.slow
def test_eighty_eight_players_seven_rounds_with_a_drop(tmp_path: Path) -> None:
    """The issue's check: HCT Europe's 88 players, 7 rounds, results typed in, a drop after round 2."""
    path = new_workbook(tmp_path, players(88), settings={"rounds": 7, "points": "hct"})
    result = random_results(88, draws=False)
    for round_ in range(1, 8):
        if round_ == 3:
            ExcelBackend(path).fill_cells("Players", {"D10": 2})
        code, _, err = run("pair", str(path))
        assert code == 0, err
        type_results(path, lambda a, b: "2-1" if result(a, b) == "1-0" else "0-2")
    code, _, err = run("standings", str(path))
    assert code == 0, err
    event = parse_event(ExcelBackend(path).read())
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for round_ in range(1, 8):
        games = event.games_in(round_)
        seen = Counter(n for g in games for n in (g.a, g.b) if n)
        active = {p.name for p in event.players if p.plays_in(round_)}
        assert set(seen) == active and set(seen.values()) == {1}
        met.update(frozenset((g.a, g.b)) for g in games if g.b)
        byes.update(g.a for g in games if g.b is None)
    assert "Player 009" not in {n for g in event.games if g.round > 2 for n in (g.a, g.b)}
    assert max(met.values()) == 1
    assert max(byes.values(), default=0) <= 1
    recs = history(event)
    wb = openpyxl.load_workbook(path)
    shown = {row[1]: row[2] for row in wb["Standings"].iter_rows(min_row=3, values_only=True) if row[1] in recs}
    assert len(shown) == 88
    assert all(shown[name] == sum(r.points for r in rs) for name, rs in recs.items())


def test_same_workbook_and_seed_give_the_same_pairings(tmp_path: Path) -> None:
    results = []
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        path = new_workbook(tmp_path / folder, players(21), seed=77)
        for _ in range(4):
            run("pair", str(path))
            type_results(path, random_results(5))
        results.append(ExcelBackend(path).read().rows("Results"))
    assert results[0] == results[1]


def test_a_crash_while_saving_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_workbook(tmp_path, players(6))
    before = path.read_bytes()

    def crash(self: object, filename: str) -> None:
        Path(filename).write_bytes(b"half a workbook")
        raise KeyboardInterrupt

    monkeypatch.setattr(Package, "save", crash)
    code, _, err = run("pair", str(path))
    assert code == 1 and "left as it was" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.xlsx"]


def test_a_scale_warning_is_shown_and_the_command_goes_on(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4), settings={
        "points": "custom", "win_points": "3", "draw_points": "1", "loss_points": "0", "scale_check": "warn"})
    code, out, err = run("pair", str(path))
    assert code == 0 and out.startswith("Round 1: 2 tables")
    assert err.startswith("Warning: Settings!B") and "rule 3: best draw 1" in err
    code, _, err = run("standings", str(path))  # reads Settings twice: each warning still once
    lines = [line for line in err.splitlines() if line.startswith("Warning: ")]
    assert code == 0 and lines and len(lines) == len(set(lines))


def test_a_missing_results_row_is_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    run("pair", str(path))
    type_results(path, random_results(1))
    ExcelBackend(path).fill_cells("Results", {"A2": None, "B2": None, "C2": None, "D2": None, "E2": None})
    for command in ("standings", "pair"):
        assert one_line_error(path, command, str(path)).startswith(
            "Results: round 1 has no row for Player 001, Player 004 (a deleted or mistyped row?)")
    ExcelBackend(path).fill_cells("Results", {"A2": 1, "C2": "Player 001", "E2": "absent",
                                              "A9": 1, "C9": "Player 004", "E9": "absent"})
    code, out, err = run("pair", str(path))  # a missed round typed as such: paired as usual
    assert code == 0 and out.startswith("Round 2: 3 tables"), err
    type_results(path, random_results(2))
    ExcelBackend(path).fill_cells("Results", {"A3": None, "B3": None, "C3": None, "D3": None, "E3": None,
                                              "A11": None, "B11": None, "C11": None, "D11": None, "E11": None})
    code, _, err = run("standings", str(path))  # rows missing in two rounds: a line each
    assert code == 2 and [line.split(" (")[0] for line in err.splitlines()] == [
        "Error: Results: round 1 has no row for Player 002, Player 005",
        "Error: Results: round 2 has no row for Player 001, Player 002",
    ], err


def test_a_mistyped_round_number_is_refused_naming_the_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(8))
    run("pair", str(path))
    type_results(path, random_results(1))
    ExcelBackend(path).fill_cells("Results", {"A3": 2})
    assert one_line_error(path, "pair", str(path)) == (
        "Results!A3: round 2 between two rows of round 1 (rows 2 and 4); is the round number mistyped?")


def test_new_into_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "ev.xlsx"
    assert "no such folder" in one_line_error(target, "new", str(target))


def test_a_settings_value_without_a_name(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4))
    ExcelBackend(path).fill_cells("Settings", {"B60": "x"})
    assert one_line_error(path, "pair", str(path)) == "Settings!A60: the value 'x' in B60 has no setting name beside it"


def test_a_new_workbook_gets_the_usual_permissions(tmp_path: Path) -> None:
    import os

    umask = os.umask(0o022)
    try:
        path = tmp_path / "perm.xlsx"
        assert run("new", str(path))[0] == 0
        assert path.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(umask)


def test_output_into_a_reader_that_stops_early_ends_quietly(tmp_path: Path) -> None:
    """`sheetswiss demo | head -2`: no traceback and no "unexpected failure" once the reader has gone."""
    proc = subprocess.Popen([sys.executable, "-m", "sheetswiss", "demo", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"Demo event")
    proc.stdout.close()
    error = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert error == ""
    ExcelBackend(tmp_path / "sheetswiss-demo.xlsx").read()  # whatever was saved is a whole workbook


@pytest.mark.parametrize("tab,cell", [("Players", "A3"), ("Results", "C2")])
def test_a_spreadsheet_error_value_is_not_a_name(tmp_path: Path, tab: str, cell: str) -> None:
    """A name typed as =Nia Nord into a cell not formatted as Text becomes #NAME? in the program."""
    path = new_workbook(tmp_path, players(4))
    if tab == "Results":
        run("pair", str(path))
    ExcelBackend(path).fill_cells(tab, {cell: "#NAME?"})
    assert one_line_error(path, "standings", str(path)).startswith(
        f"{tab}!{cell}: the cell shows the spreadsheet error #NAME?, not a name")


def test_standings_explain_writes_nothing_and_a_partial_round_is_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    run("pair", str(path))
    type_results(path, random_results(1))
    run("standings", str(path))
    run("pair", str(path))
    ExcelBackend(path).fill_cells("Results", {"E5": "1-0"})
    (tmp_path / "~$event.xlsx").write_text("open in Excel")
    before = path.read_bytes()
    code, out, err = run("standings", str(path), "--explain", "player 001")
    assert code == 0, err
    assert "round 2 is left out until its results are in: Results!E6, Results!E7 empty" in out
    assert "Player 001" in out and path.read_bytes() == before
