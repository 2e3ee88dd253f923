"""Fixed tables (RULES.md 2.13): Players.Table, kept by every Swiss round and every heat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.fixed_tables import number_tables, reserved_tables
from sheetswiss.model import Player
from sheetswiss.pairing import check_pairing, pair_round
from sheetswiss.seating import seat_heat
from sheetswiss.settings import Settings
from sheetswiss.workbook.parse import parse_event

from .helpers import add_round, make_event, new_workbook, random_results, run, type_results


def fix_tables(path: Path, tables: dict[str, int], header: str = "Table") -> None:
    """Add a Table column to Players (after the template's columns) and type each player's table."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    column = ws.max_column + 1
    ws.cell(1, column, header)
    for r in range(2, ws.max_row + 1):
        name = ws.cell(r, 1).value
        if name in tables:
            ws.cell(r, column, tables[name])
    wb.save(path)


TWENTY = [(f"Player {i:02d}", 2200 - 10 * i) for i in range(1, 21)]


def test_the_table_column_is_read(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, TWENTY)
    fix_tables(path, {"Player 07": 1, "Player 12": 4})
    event = parse_event(ExcelBackend(path).read())
    assert {p.name: p.table for p in event.players if p.table} == {"Player 07": 1, "Player 12": 4}


def test_two_players_fixed_to_one_table_is_one_line_naming_both_cells(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, TWENTY)
    fix_tables(path, {"Player 07": 1, "Player 12": 1})
    before = path.read_bytes()
    code, _, err = run("pair", str(path))
    assert code == 2 and path.read_bytes() == before
    assert err == ("Error: Players!G8, Players!G13: 'Player 07' and 'Player 12' are both fixed to table 1; one "
                   "table seats one fixed player: change or clear one\n")


def test_a_table_that_is_not_a_number_is_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, TWENTY)
    fix_tables(path, {"Player 07": "stream"})  # type: ignore[dict-item]
    code, _, err = run("pair", str(path))
    assert code == 2 and err == "Error: Players!G8: Table must be a whole number from 1, not 'stream'\n"


def test_a_player_fixed_to_table_one_sits_there_every_round(tmp_path: Path) -> None:
    """The issue's check, through the command on a real workbook: 20 players, 6 rounds, Player 14 at table 1."""
    path = new_workbook(tmp_path, TWENTY, settings={"rounds": 6})
    fix_tables(path, {"Player 14": 1})
    for r in range(1, 7):
        code, _, err = run("pair", str(path))
        assert code == 0, err
        type_results(path, random_results(r))
    event = parse_event(ExcelBackend(path).read())
    rows = [g for g in event.games if "Player 14" in (g.a, g.b)]
    assert [g.round for g in rows] == [1, 2, 3, 4, 5, 6]
    assert all(g.table == 1 for g in rows)
    for r in range(1, 7):  # every other table numbered around it: 2..10
        assert sorted(g.table for g in event.games_in(r) if g.table is not None) == list(range(1, 11))


def test_pairings_list_the_fixed_table_first(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, TWENTY)
    fix_tables(path, {"Player 20": 1})
    assert run("pair", str(path))[0] == 0
    pairings = ExcelBackend(path).read().rows("Pairings")
    assert pairings[2][0] == 1 and "Player 20" in (pairings[2][1], pairings[2][3])
    assert [row[0] for row in pairings[2:12]] == list(range(1, 11))


def test_a_fixed_player_with_the_bye_leaves_the_table_empty() -> None:
    players = [Player(name=f"P{i}", rating=2000 - i, row=i + 2, table=3 if i == 4 else None) for i in range(5)]
    pairing = pair_round(make_event(players))
    assert pairing.bye == "P4"
    assert [t.number for t in pairing.tables] == [1, 2, None]
    assert pairing.remarks == ("Table 3 stays empty: P4, who sits there, does not play this round",)


def test_a_dropped_player_frees_the_table() -> None:
    gone = Player(name="Ana", table=1, dropped=True, dropped_after=2)
    assert reserved_tables([gone], 2) == {1: "Ana"} and reserved_tables([gone], 3) == {}
    assert reserved_tables([replace(gone, dropped_after=None)], 1) == {}
    assert reserved_tables([Player(name="Bo", table=2, joined=4)], 1) == {2: "Bo"}  # not joined yet: kept


def test_two_fixed_players_paired_together_play_at_the_lower_table() -> None:
    players = [Player(name="Ana", table=4), Player(name="Bo", table=2), Player(name="Cy"), Player(name="Di")]
    n = number_tables([("Ana", "Bo"), ("Cy", "Di")], players, 1)
    assert n.numbers == (2, 1)
    assert n.remarks == ("Ana sits at table 4 but plays Bo at table 2; table 4 stays empty",)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 14), seed=st.integers(0, 9999), rounds=st.integers(0, 3),
       fixed=st.dictionaries(st.integers(0, 13), st.integers(1, 12), max_size=5),
       absent=st.sets(st.integers(0, 13), max_size=3))
def test_fixed_players_sit_at_their_tables(n: int, seed: int, rounds: int, fixed: dict[int, int],
                                           absent: set[int]) -> None:
    """Every fixed player who plays sits at their table, unless paired with a player fixed to a lower
    one; no other table takes a fixed number while its player is in the event; numbers are distinct."""
    numbers: dict[int, int] = {}
    for i, t in fixed.items():
        if i < n and t not in numbers.values():
            numbers[i] = t
    players = [Player(name=f"P{i:02d}", rating=2000 - i, row=i + 2, table=numbers.get(i)) for i in range(n)]
    event = make_event(players, seed=seed)
    for _ in range(rounds):
        event = add_round(event, pair_round(event), random_results(seed))
    out = {f"P{i:02d}" for i in absent if i < n}
    if len(out) >= n - 1:
        return
    event = replace(event, players=tuple(replace(p, dropped=p.name in out, dropped_after=event.paired_rounds + 1
                                                 if p.name in out and p.table is not None else None)
                                         for p in event.players))
    pairing = pair_round(event)
    assert check_pairing(event, pairing) == []
    games = [t for t in pairing.tables if t.b is not None]
    used = [t.number for t in games]
    assert len(set(used)) == len(used) and all(u is not None and u >= 1 for u in used)
    table_of = {p.name: p.table for p in players}
    reserved = set(reserved_tables(event.players, pairing.round))
    for t in games:
        own = sorted(x for x in (table_of[t.a], table_of[t.b]) if x is not None)
        if own:
            assert t.number == own[0]
        else:
            assert t.number not in reserved
    assert [t.number for t in games] == sorted(used)  # Pairings in table order


def _heat_players(tables: dict[str, int]) -> list[Player]:
    return [Player(name=f"H{i:02d}", row=i + 2, table=tables.get(f"H{i:02d}")) for i in range(13)]


def test_heat_seating_keeps_fixed_tables() -> None:
    players = _heat_players({"H03": 1, "H07": 2, "H11": 5})
    for heat in (1, 2, 3):
        seating = seat_heat(players, [], Settings(format="heats", seed=heat), heat=heat)
        at = {name: t.number for t in seating.tables for name in t.players}
        assert (at["H03"], at["H07"], at["H11"]) == (1, 2, 5)
        assert [len(t.players) for t in seating.tables] == [4, 3, 3, 3] or sorted(
            len(t.players) for t in seating.tables) == [3, 3, 3, 4]  # 13 players
        assert [t.number for t in seating.tables] == [1, 2, 3, 5]  # four tables: 5 is fixed, 4 is nobody's


def test_an_absent_fixed_player_leaves_the_heat_table_empty() -> None:
    everyone = _heat_players({"H03": 1})
    present = [p for p in everyone if p.name != "H03"]
    seating = seat_heat(present, [], Settings(format="heats", seed=1), heat=1, everyone=everyone)
    assert [t.number for t in seating.tables] == [2, 3, 4]  # 12 present: 4+4+4
    assert seating.remarks == ("Table 1 stays empty: H03, who sits there, does not play this heat",)


@pytest.mark.parametrize("count", [7, 12])
def test_seat_through_the_command_keeps_a_fixed_table(tmp_path: Path, count: int) -> None:
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats", "--seed", "3")[0] == 0
    ExcelBackend(path).fill_cells("Players", {f"A{r}": f"Seat {r - 1:02d}" for r in range(2, count + 2)})
    fix_tables(path, {"Seat 05": 2})
    code, _, err = run("seat", str(path), "--heat", "1")
    assert code == 0, err
    heats = ExcelBackend(path).read().rows("Heats")
    assert next(row[1] for row in heats[1:] if row[2] == "Seat 05") == 2


def test_the_readme_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's club event (as in test_avoid), with Omar Lima fixed to table 1."""
    from .test_avoid import add_avoid, new_club_event
    from .test_readme import check

    monkeypatch.chdir(tmp_path)
    new_club_event(Path("club.xlsx"))
    add_avoid(Path("club.xlsx"), [("Caro Haas", "Lea Haas", "sisters"), ("milo fox", "Ivo Fox", "brothers")])
    fix_tables(Path("club.xlsx"), {"Omar Lima": 1})
    check("sheetswiss pair club.xlsx --dry-run")
