"""playoffs, plan and rating through the commands, on real workbooks."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from sheetswiss import demo
from sheetswiss.backends.excel import ExcelBackend

from .helpers import refused_lines, run


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    demo.run(folder, progress=lambda line: None)
    return folder / "sheetswiss-demo.xlsx"


def playoff_event(finished: Path, tmp_path: Path, system: str) -> Path:
    path = tmp_path / f"{system}.xlsx"
    path.write_bytes(finished.read_bytes())
    backend = ExcelBackend(path)
    rows = backend.read().rows("Settings")
    row = next(r for r, values in enumerate(rows, start=1) if values and values[0] == "playoff")
    backend.fill_cells("Settings", {f"B{row}": system})
    return path


@pytest.mark.parametrize("system", ["single", "magic_top2", "mcintyre8", "double"])
def test_every_bracket_advances_to_a_champion_as_winners_are_typed(finished: Path, tmp_path: Path,
                                                                  system: str) -> None:
    path = playoff_event(finished, tmp_path, system)
    backend = ExcelBackend(path)
    for _ in range(20):
        code, out, err = run("playoffs", str(path))
        assert code == 0, err
        if "Champion: " in out:
            break
        rows = backend.read().rows("Playoffs")
        typed = {f"E{r}": row[2] for r, row in enumerate(rows[2:], start=3)
                 if row and isinstance(row[0], str) and f"{row[0]} (" in out and len(row) > 3}
        assert typed, out
        backend.fill_cells("Playoffs", typed)  # Player A wins every match
    else:
        pytest.fail("no champion")
    seeds = [row[7] for row in backend.read().rows("Playoffs")[2:] if len(row) > 7 and row[7]]
    assert len(seeds) == 8
    runs = [row for row in backend.read().rows("Log")[2:] if row[1] == "playoffs"]
    assert len({row[2] for row in runs}) == len(runs)  # each run read other winners: another input checksum
    wb = openpyxl.load_workbook(path)
    assert wb["Playoffs"]["J2"].value == "Round 1"


def test_a_winner_not_in_the_match_names_the_cell(finished: Path, tmp_path: Path) -> None:
    path = playoff_event(finished, tmp_path, "single")
    assert run("playoffs", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Playoffs", {"E3": "Nobody"})
    before = path.read_bytes()
    code, _, err = run("playoffs", str(path))
    assert code == 2 and err.startswith("Error: Playoffs!E3: QF1 (Quarterfinal 1, ") and "'Nobody' is not in" in err
    assert path.read_bytes() == before


def test_every_bad_winner_cell_of_a_run_is_reported(finished: Path, tmp_path: Path) -> None:
    path = playoff_event(finished, tmp_path, "single")
    assert run("playoffs", str(path))[0] == 0
    rows = ExcelBackend(path).read().rows("Playoffs")
    a = {row[0]: row[2] for row in rows[2:9]}  # match id -> Player A, QF1 to QF4 in rows 3 to 6
    b = {row[0]: row[3] for row in rows[2:6]}
    ExcelBackend(path).fill_cells("Playoffs", {
        "E3": "Nobody",  # round 1: bad
        "E4": b["QF2"], "E5": a["QF3"], "E6": a["QF4"],
        "E7": b["QF2"],  # SF1 waits on QF1: cannot be judged, and not reported
        "E8": a["QF1"],  # round 2: not in SF2
        "E9": "Zed",  # the final waits on SF1 and SF2, but Zed is nobody in this playoff
    })
    assert refused_lines(path, "playoffs", str(path)) == [
        f"Playoffs!E3: QF1 (Quarterfinal 1, {a['QF1']} v {b['QF1']}): 'Nobody' is not in this match; "
        f"type {a['QF1']} or {b['QF1']}",
        f"Playoffs!E8: SF2 (Semifinal 2, {a['QF3']} v {a['QF4']}): {a['QF1']!r} is not in this match; "
        f"type {a['QF3']} or {a['QF4']}",
        "Playoffs!E9: F (Final, winner of SF1 v winner of SF2): 'Zed' is not a player of this playoff",
    ]
    ExcelBackend(path).fill_cells("Playoffs", {"A12": "QF9", "E12": "Nobody"})  # an unknown match: its own line
    lines = refused_lines(path, "playoffs", str(path))
    assert [line.split(": ")[0] for line in lines] == ["Playoffs!E3", "Playoffs!E8", "Playoffs!E9", "Playoffs!A12"]
    assert lines[3].startswith("Playoffs!A12: no match 'QF9' in this bracket; matches: QF1, ")


def test_plan_for_88_players(tmp_path: Path) -> None:
    code, out, err = run("plan", "--players", "88")
    assert code == 0, err
    assert "Planned: 7 rounds." in out
    assert "integer  | 1    | 5    | 14    | 24" in out
    code, out, _ = run("plan", "--players", "88", "--prizes", "500,200")
    assert "prize    | 500  | 200  | 0" in out


def test_plan_into_a_workbook(finished: Path, tmp_path: Path) -> None:
    path = tmp_path / "plan.xlsx"
    path.write_bytes(finished.read_bytes())
    code, out, err = run("plan", str(path))
    assert code == 0 and out.startswith("40 players, top 8.") and out.strip().endswith("Written: Plan, Log"), err
    rows = ExcelBackend(path).read().rows("Plan")
    assert any(row and row[0] == "integer" for row in rows)


def test_rating_over_two_events(finished: Path, tmp_path: Path) -> None:
    other = tmp_path / "second.xlsx"
    demo.run(tmp_path, seed=7, progress=lambda line: None)
    (tmp_path / "sheetswiss-demo.xlsx").rename(other)
    code, out, err = run("rating", str(finished), str(other), "--elo")
    assert code == 0, err
    assert out.startswith("W x V rating over 2 event(s)")
    assert "Elo from " in out


def test_rating_takes_final_places_and_wins_from_a_finished_playoff(finished: Path, tmp_path: Path) -> None:
    """RULES.md 8.1: the playoff decides its players' final places and its matches count as match wins."""
    from sheetswiss import api
    from sheetswiss.history import RoundKind, history
    from sheetswiss.workbook.parse import parse_event

    path = playoff_event(finished, tmp_path, "single")
    backend = ExcelBackend(path)
    run("playoffs", str(path))
    assert "the playoff is not finished" in run("rating", str(path))[1]
    for _ in range(3):  # Player B wins every match: the 8th seed is champion
        rows = backend.read().rows("Playoffs")
        backend.fill_cells("Playoffs", {f"E{r}": row[3] for r, row in enumerate(rows[2:], start=3)
                                        if len(row) > 3 and row[3] and not str(row[3]).startswith("winner")
                                        and not (len(row) > 4 and row[4])})
        run("playoffs", str(path))
    rows = backend.read().rows("Playoffs")
    champion, losing_finalist = str(rows[8][3]), str(rows[8][2])  # F is the 7th match
    assert "Champion: " + champion in run("playoffs", str(path))[1]
    event = parse_event(backend.read())
    wins = {name: sum(r.outcome == "W" and r.kind in (RoundKind.GAME, RoundKind.FORFEIT_WIN) for r in rs)
            for name, rs in history(event).items()}
    draws = {name: sum(r.outcome == "D" and r.kind is RoundKind.GAME for r in rs)
             for name, rs in history(event).items()}
    points = api.rating([str(path)]).data
    assert isinstance(points, dict)
    # 40 players: a 64 bracket, lower-bounded (bottom 1), so V runs 7 (1st), 6 (2nd), 5 (3rd-4th) ...;
    # a draw counts 1/3 (rating_draw's default)
    assert points[champion] == (wins[champion] + Fraction(draws[champion], 3) + 3 + 1) * 7
    assert points[losing_finalist] == (wins[losing_finalist] + Fraction(draws[losing_finalist], 3) + 2 + 1) * 6
    assert next(iter(points)) == champion


def test_rating_into_fills_only_the_empty_rating_cells(finished: Path, tmp_path: Path) -> None:
    from sheetswiss import api
    from sheetswiss.rating import RatedGame, elo_ratings
    from sheetswiss.workbook.parse import parse_event

    past = parse_event(ExcelBackend(finished).read())
    names = sorted(p.name for p in past.players)
    score = {"A_WINS": Fraction(1), "B_WINS": Fraction(0)}
    games = [RatedGame(a=g.a, b=g.b, score=score.get(g.result.outcome.name, Fraction(1, 2)))
             for g in past.games if g.b is not None and g.result is not None and g.result.kind.name == "GAME"]
    elo = elo_ratings(games, k=float(past.settings.elo_k), start=float(past.settings.elo_start))
    target = tmp_path / "next.xlsx"
    api.new(str(target), seed=3)
    ExcelBackend(target).fill_cells("Players", {
        "A2": names[0], "B2": 1234,      # typed by the GM: kept
        "A3": names[1].upper(),          # same player, other case: filled
        "A4": "Newcomer",                # no past games: left empty
        "A5": names[2]})
    before = ExcelBackend(target).read().rows("Players")
    code, out, err = run("rating", str(finished), "--into", str(target))
    assert code == 0, err
    assert "Players.Rating filled for 2 player(s)" in out and "left empty (no past games): Newcomer" in out
    rows = ExcelBackend(target).read().rows("Players")
    assert rows[0] == before[0] and rows[1] == before[1] and rows[3][:2] == ("Newcomer",)
    assert rows[2][1] == round(elo[names[1]]) and rows[4][1] == round(elo[names[2]])
    sheet = openpyxl.load_workbook(target)["Players"]
    assert sheet["B3"].data_type == "n" and sheet["A3"].value == names[1].upper()
    log = ExcelBackend(target).read().rows("Log")
    assert log[-1][1] == "rating --into" and "2 player(s)" in str(log[-1][3])
    # again: nothing left to fill, nothing written
    code, out, err = run("rating", str(finished), "--into", str(target))
    assert code == 0 and "filled for 0 player(s)" in out and "kept as typed: 3 player(s)" in out
    assert ExcelBackend(target).read().rows("Log") == log


def test_rating_into_dry_run_and_a_players_tab_without_rating(finished: Path, tmp_path: Path) -> None:
    from sheetswiss import api

    target = tmp_path / "next.xlsx"
    api.new(str(target), seed=3)
    ExcelBackend(target).fill_cells("Players", {"A2": "Somebody"})
    name = next(iter(r[0] for r in ExcelBackend(finished).read().rows("Players")[1:]))
    ExcelBackend(target).fill_cells("Players", {"A3": name})
    data = target.read_bytes()
    code, out, _ = run("rating", str(finished), "--into", str(target), "--dry-run")
    assert code == 0 and "would fill for 1 player(s)" in out and target.read_bytes() == data
    ExcelBackend(target).fill_cells("Players", {"B1": "Elo"})
    data = target.read_bytes()
    code, _, err = run("rating", str(finished), "--into", str(target))
    assert code == 2 and "Players!1: no column headed 'Rating'" in err and target.read_bytes() == data
