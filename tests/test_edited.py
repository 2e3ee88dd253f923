"""Edited pairings (RULES.md 2.14): ``pair --check`` on a round whose players the GM swapped in Results."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.edited import edited_round, written_pairings
from sheetswiss.errors import SheetswissError
from sheetswiss.model import AvoidPair, Game, Player
from sheetswiss.pairing import pair_round, round_state
from sheetswiss.results import Result
from sheetswiss.workbook.parse import parse_event

from .helpers import add_round, make_event, new_workbook, random_results, refused, run, type_results

ELEVEN = [(f"Player {i:02d}", 2000 - 10 * i) for i in range(1, 12)]


def paired(tmp_path: Path) -> tuple[Path, ExcelBackend]:
    """Eleven rated players, round 1 paired: 01 v 06, 02 v 07, 03 v 08, 04 v 09, 05 v 10, 11 has the bye."""
    path = new_workbook(tmp_path, ELEVEN)
    assert run("pair", str(path))[0] == 0
    return path, ExcelBackend(path)


def test_a_swap_is_accepted_logged_and_shown_in_pairings(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"D2": "Player 07", "D3": "player 06"})  # Player 06 and 07 swap tables
    code, out, err = run("pair", str(path), "--check")
    assert code == 0, err
    assert out.splitlines() == [
        "Round 1 as edited in Results: 5 tables, bye: Player 11; a valid round",
        "Changed: table 1: Player 01 v Player 07 (was Player 01 v Player 06)",
        "Changed: table 2: Player 02 v Player 06 (was Player 02 v Player 07)",
        "Written: Pairings, Log"]
    book = ExcelBackend(path).read()
    assert [row[:5] for row in book.rows("Pairings")[2:4]] == [
        (1, "Player 01", 0, "Player 07", 0), (2, "Player 02", 0, "Player 06", 0)]
    log = book.rows("Log")[-1]
    assert log[1] == "pair --check" and "table 1: Player 01 v Player 07 (was Player 01 v Player 06)" in str(log[3])
    assert any("as edited in Results" in str(row[0]) for row in book.rows("Pairings") if row)


def test_an_unchanged_round_checks_clean(tmp_path: Path) -> None:
    path, _ = paired(tmp_path)
    code, out, _ = run("pair", str(path), "--check", "--dry-run")
    assert code == 0
    assert out.splitlines()[1] == "Changed: nothing (the rows are as the round was paired)"


def test_a_swap_that_leaves_a_player_out_is_refused_naming_the_cell_and_who_is_left_out(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"D3": "Player 06"})  # Player 06 twice, Player 07 in no row
    assert refused(path, "pair", str(path), "--check") == (
        "Results!D3: 'Player 06' is in round 1 twice (also row 2); round 1 leaves out 'Player 07'")


def test_a_name_typed_over_player_a_names_that_cell(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"C4": "Player 02"})  # Player 02 twice, Player 03 in no row
    assert refused(path, "pair", str(path), "--check") == (
        "Results!C4: 'Player 02' is in round 1 twice (also row 3); round 1 leaves out 'Player 03'")


def test_without_check_the_cell_typed_over_is_named(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"D3": "Player 06"})
    assert refused(path, "pair", str(path)) == "Results!D3: 'Player 06' is in round 1 twice (also row 2)"


def test_every_problem_of_the_edited_round_in_one_run(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [*ELEVEN, ("Player 12", 1000, "", "dropped")])
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"D3": "Player 06", "C7": "Player 12"})
    before = path.read_bytes()
    lines = CliRunner().invoke(cli, ["pair", str(path), "--check"]).stderr.splitlines()
    assert path.read_bytes() == before
    assert lines == [
        "Error: Results!C7: 'Player 12' is not to play in round 1 (dropped); put a player who is due to play here",
        "Error: Results!D3: 'Player 06' is in round 1 twice (also row 2); round 1 leaves out 'Player 07', "
        "'Player 11'"]


def test_a_player_twice_in_an_earlier_round_is_refused_as_before(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    type_results(path, lambda a, b: "1-0")
    assert run("pair", str(path))[0] == 0
    backend.fill_cells("Results", {"D3": "Player 06"})
    assert refused(path, "pair", str(path), "--check") == "Results!D3: 'Player 06' is in round 1 twice (also row 2)"


def test_a_cleared_player_is_refused_naming_the_row(tmp_path: Path) -> None:
    path, _ = paired(tmp_path)
    wb = openpyxl.load_workbook(path)
    wb["Results"]["D3"] = None
    wb.save(path)
    assert refused(path, "pair", str(path), "--check") == (
        "Results!D3: 'Player 02' has no opponent in this row and it is not the bye row (Result bye); round 1 "
        "leaves out 'Player 07'; type the opponent here")


def test_a_player_who_is_not_to_play_is_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [*ELEVEN, ("Player 12", 1000, "", "dropped")])
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"C7": "Player 12"})  # the bye row (Player 11) given to Player 12
    lines = CliRunner().invoke(cli, ["pair", str(path), "--check"]).stderr.splitlines()
    assert lines == [
        "Error: Results!C7: 'Player 12' is not to play in round 1 (dropped); put a player who is due to play here",
        "Error: Results!A2:E7: round 1 leaves out 'Player 11', due to play; each player due to play is in exactly "
        "one row of the round (Player A or B, or the bye row)"]


def test_a_round_with_results_is_not_checked(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"E2": "1-0"})
    assert refused(path, "pair", str(path), "--check").startswith(
        "Results!E2: round 1 has results entered; the pairings of a round are edited")


def test_rematches_and_fixed_tables_are_warned_not_refused() -> None:
    players = [Player(name=n, row=i + 2, table=2 if n == "A" else None) for i, n in enumerate("ABCD")]
    event = make_event(players, [(1, "A", "C", "1-0"), (1, "B", "D", "0-1")])
    event = replace(event, games=tuple(replace(g, table=i + 1) for i, g in enumerate(event.games)))
    games = (Game(round=2, table=1, a="A", b="C", result=None, row=4, cell="Results!E4"),
             Game(round=2, table=2, a="D", b="B", result=None, row=5, cell="Results!E5"))
    checked = edited_round(replace(event, games=event.games + games))
    assert checked.warnings == (
        "Results!C4: A and C met in round 1 (a rematch); kept as edited",
        "Results!B4: A sits at table 2 (Players.Table) but plays at table 1 as edited; kept as edited",
        "Results!C5: D and B met in round 1 (a rematch); kept as edited")
    assert checked.pairing.rematches == (("A", "C"), ("D", "B"))


def test_a_warning_goes_with_a_clean_exit(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    type_results(path, lambda a, b: "1-0")
    assert run("pair", str(path))[0] == 0
    event = parse_event(ExcelBackend(path).read())
    row = next(g for g in event.games_in(2) if g.a == "Player 01" or g.b == "Player 01")
    other = next(g for g in event.games_in(2) if "Player 06" in (g.a, g.b))
    opponent = row.b if row.a == "Player 01" else row.a
    cells = {f"{'C' if row.a == 'Player 01' else 'D'}{row.row}": "Player 01",
             f"{'D' if row.a == 'Player 01' else 'C'}{row.row}": "Player 06",
             f"{'C' if other.a == 'Player 06' else 'D'}{other.row}": opponent}
    backend.fill_cells("Results", cells)
    code, out, err = run("pair", str(path), "--check")
    assert code == 0, err
    assert [line for line in out.splitlines() if line.startswith("Warning: ")] == [
        f"Warning: Results!C{row.row}: {row.a if row.a == 'Player 01' else 'Player 06'} and "
        f"{'Player 06' if row.a == 'Player 01' else 'Player 01'} met in round 1 (a rematch); kept as edited"]


def test_the_next_round_treats_the_edited_round_as_played(tmp_path: Path) -> None:
    path, backend = paired(tmp_path)
    backend.fill_cells("Results", {"D2": "Player 07", "D3": "Player 06"})
    assert run("pair", str(path), "--check")[0] == 0
    type_results(path, random_results(3))
    for _ in range(3):
        assert run("pair", str(path))[0] == 0
        type_results(path, random_results(4))
    event = parse_event(ExcelBackend(path).read())
    met = [frozenset((g.a, g.b)) for g in event.games if g.b is not None]
    assert frozenset(("Player 01", "Player 07")) in met
    assert len(met) == len(set(met))  # the edited pairs never again


def _valid(event_rows: list[tuple[str, str | None]], due: set[str]) -> bool:
    names = [x for a, b in event_rows for x in (a, b) if x is not None]
    byes = sum(1 for _, b in event_rows if b is None)
    return sorted(names) == sorted(due) and byes <= 1 and all(a != b for a, b in event_rows)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 999), data=st.data())
def test_an_edited_round_validates_exactly_when_it_is_a_valid_round(n: int, seed: int, data: st.DataObject) -> None:
    """Swaps, a name typed over another (a player twice, one left out, or one who is not to play) and an
    extra bye row: the check accepts exactly the rows where each player due to play is in one row and
    there is at most one bye."""
    players = [Player(name=f"P{i}", rating=2000 - i, row=i + 2) for i in range(n)]
    players.append(Player(name="Gone", row=n + 2, dropped=True))
    event = make_event(players, seed=seed)
    event = add_round(event, pair_round(event), random_results(seed))
    pairing = pair_round(event)
    rows = [[t.a, t.b] for t in pairing.tables]
    slots = [(i, k) for i, row in enumerate(rows) for k in (0, 1) if row[k] is not None]
    order = data.draw(st.permutations([rows[i][k] for i, k in slots]))
    for (i, k), name in zip(slots, order):
        rows[i][k] = name
    everyone = [p.name for p in players]
    for _ in range(data.draw(st.integers(0, 2))):
        i, k = data.draw(st.sampled_from(slots))
        rows[i][k] = data.draw(st.sampled_from(everyone))
    if data.draw(st.booleans()):
        rows.append([data.draw(st.sampled_from(everyone)), None])
    start = max(g.row for g in event.games) + 1
    games = tuple(Game(round=2, table=i + 1 if b is not None else None, a=a, b=b,
                       result=None if b is not None else Result.parse("bye"), row=start + i,
                       cell=f"Results!E{start + i}") for i, (a, b) in enumerate(rows))
    edited = replace(event, games=event.games + games)
    due = set(round_state(edited, 2).order)
    pairs = [(a, b) for a, b in rows]
    valid = _valid(pairs, due)
    try:
        checked = edited_round(edited)
    except SheetswissError:
        assert not valid
    else:
        assert valid
        assert sorted((t.a, t.b or "") for t in checked.pairing.tables) == sorted((a, b or "") for a, b in pairs)


def test_written_pairings_reads_the_tab_of_its_round_only() -> None:
    rows = [("Club: round 2 pairings, 2026-01-01 10:00 — written by sheetswiss",),
            ("Table", "Player A", "Points", "Player B", "Points"),
            (1, "Ana", 1, "Bo", 1), ("bye", "Cy", 0, "BYE", None), (None, None, None, None, None)]
    assert written_pairings(rows, 2) == [(1, "Ana", "Bo"), (None, "Cy", None)]
    assert written_pairings(rows, 3) is None and written_pairings([], 1) is None


def test_an_avoided_pair_in_memory_is_warned() -> None:
    event = make_event("ABCD")
    pairing = pair_round(event)
    games = tuple(Game(round=1, table=t.number, a=t.a, b=t.b, result=None, row=i + 2, cell=f"Results!E{i + 2}")
                  for i, t in enumerate(pairing.tables))
    a, b = games[0].a, games[0].b
    assert b is not None
    edited = replace(event, games=games, avoid=(AvoidPair(a=a, b=b, why="twins", row=2),))
    checked = edited_round(edited)
    assert checked.warnings == (f"Results!C2: {a} v {b} is a pair of the Avoid tab (Avoid row 2: twins); kept as "
                                "edited",)
    assert checked.pairing.avoided == ((a, b),)


def test_nothing_paired_yet(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, ELEVEN)
    assert refused(path, "pair", str(path), "--check").startswith("Results: no round is paired yet")


@pytest.mark.parametrize("flag", ["--redo", "--explain"])
def test_check_takes_no_other_flag(tmp_path: Path, flag: str) -> None:
    path, _ = paired(tmp_path)
    code, _, err = run("pair", str(path), "--check", flag)
    assert code == 2 and "--check" in err


def test_the_readme_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's club event (as in test_avoid and test_fixed_tables), round 1 paired, then a swap."""
    from .test_avoid import add_avoid, new_club_event
    from .test_fixed_tables import fix_tables
    from .test_readme import check

    monkeypatch.chdir(tmp_path)
    new_club_event(Path("club.xlsx"))
    add_avoid(Path("club.xlsx"), [("Caro Haas", "Lea Haas", "sisters"), ("milo fox", "Ivo Fox", "brothers")])
    fix_tables(Path("club.xlsx"), {"Omar Lima": 1})
    assert run("pair", "club.xlsx")[0] == 0
    backend = ExcelBackend(Path("club.xlsx"))
    assert backend.read().rows("Results")[2:4] == ((1, 2, "Lea Diaz", "Hana Joshi"), (1, 3, "Milo Fox", "Milo Joshi"))
    Path("twice.xlsx").write_bytes(Path("club.xlsx").read_bytes())
    backend.fill_cells("Results", {"D3": "Milo Joshi", "D4": "Hana Joshi"})
    check("sheetswiss pair club.xlsx --check")
    ExcelBackend(Path("club.xlsx")).fill_cells("Results", {"D2": "Omar Grant", "D5": "Lea Haas"})
    out = run("pair", "club.xlsx", "--check", "--dry-run")[1]
    assert ("Warning: Results!C5: Caro Haas v Lea Haas is a pair of the Avoid tab (Avoid row 2: sisters); kept as "
            "edited") in out.splitlines()
    ExcelBackend(Path("twice.xlsx")).fill_cells("Results", {"D4": "Hana Joshi"})
    assert refused(Path("twice.xlsx"), "pair", "twice.xlsx", "--check") == (
        "Results!D4: 'Hana Joshi' is in round 1 twice (also row 3); round 1 leaves out 'Milo Joshi'")


def test_a_double_sided_round_checks_clean_and_takes_a_swap(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"Player {i}",) for i in range(1, 7)], settings={"sides": "double"})
    assert run("pair", str(path))[0] == 0
    code, out, err = run("pair", str(path), "--check", "--dry-run")
    assert code == 0, err
    assert out.splitlines()[1] == "Changed: nothing (the rows are as the round was paired)"
    backend = ExcelBackend(path)
    rows = backend.read().rows("Results")
    b, d = rows[1][3], rows[3][3]  # each match is two rows, the sides swapped: swap both games' players
    backend.fill_cells("Results", {"D2": d, "C3": d, "D4": b, "C5": b})
    code, out, err = run("pair", str(path), "--check")
    assert code == 0, err
    assert f"Changed: table 1: {rows[1][2]} v {d} (was {rows[1][2]} v {b})" in out.splitlines()
