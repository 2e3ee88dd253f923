"""Elimination rounds and places (RULES.md 5.10, 5.11): seating from the qualifiers present, alternates,
the next round from the winners, places from the final and the semifinal runners-up, and bad rows."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import openpyxl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.elimination import (
    check_rounds,
    final_places,
    round_names,
    seat_first_round,
    seat_next_round,
    spread,
)
from sheetswiss.errors import BadWorkbook, SheetswissError
from sheetswiss.heats import HeatGame, qualify
from sheetswiss.settings import Settings
from tests.helpers import refused_lines
from tests.test_heat_methods import SECTION_11, histories
from tests.test_heats import game
from tests.test_heats_cli import heat_workbook, run

Row = tuple[str, float] | tuple[str, float, int]


def stage(name: str, table: int, *rows: Row, first_row: int = 50) -> HeatGame:
    """An elimination round's table as the Heats tab would give it."""
    g = game(1, table, *rows, first_row=first_row)
    seats = tuple(dataclasses.replace(s, player_cell=f"Heats!C{s.row}") for s in g.seats)
    return dataclasses.replace(g, heat=0, stage=name, seats=seats)


# Seating

def test_seeds_snake_across_tables() -> None:
    assert spread(list("ABCDEFGHIJKL"), (4, 4, 4)) == [list("AFGL"), list("BEHK"), list("CDIJ")]
    assert spread(list("ABCDEFGHIJ"), (4, 3, 3)) == [list("AFGJ"), list("BEH"), list("CDI")]


def test_round_names_from_the_field() -> None:
    s = Settings()
    assert round_names(64, s) == ("quarterfinal", "semifinal", "final")
    assert round_names(16, s) == ("semifinal", "final") and round_names(3, s) == ("final",)
    with pytest.raises(SheetswissError, match="at most a quarterfinal, a semifinal and a final"):
        round_names(256, s)


def _twenty() -> list[HeatGame]:
    """20 players, 5 tables of 4 in heat 1 (winners W1..W5), 5 again in heat 2 (winners V1..V5)."""
    games = []
    for t in range(1, 6):
        games.append(game(1, t, (f"W{t}", 40), (f"S{t}", 30), (f"T{t}", 20), (f"U{t}", 10)))
        games.append(game(2, t, (f"V{t}", 40), (f"X{t}", 30), (f"Y{t}", 20), (f"Z{t}", 10)))
    return games


def test_absent_qualifiers_go_to_the_alternates_in_order() -> None:
    q = qualify(_twenty(), Settings(method="hmw-p", semifinal=8, alternates=3, seed=2))
    assert q.round_name == "semifinal" and len(q.qualified) == 8
    first, second, third = q.alternate_order
    gone = {q.qualified[0], q.qualified[5], first}
    r = seat_first_round(q, Settings(semifinal=8), gone)
    assert [(x.absent, x.by, x.why) for x in r.replacements] == [
        (q.qualified[0], second, "alternate 2"), (q.qualified[5], third, "alternate 3")]
    assert r.notes == (f"Alternate 1 {first} is absent too, so passed over",)
    assert sorted(r.players) == sorted({*q.qualified, second, third} - gone)
    assert r.replacements[0].text == f"{q.qualified[0]} is absent; {second} takes the seat (alternate 2)"
    assert [len(t.players) for t in r.tables] == [4, 4]


def test_a_tie_across_the_cut_is_refused_until_decided() -> None:
    games = [game(1, i, (name, score), (f"l{i}a", 1), (f"l{i}b", 0)) for i, (name, score) in
             enumerate((("A", 9), ("B", 8), ("C", 8)), start=1)]
    q = qualify(games, Settings(qualifiers=2))
    with pytest.raises(SheetswissError, match=r"^Qualifiers: B, C, l2a, l3a are tied across the cut; decide it first"):
        seat_first_round(q, Settings(), set())
    q = qualify(games, Settings(qualifiers=2, gm_tiebreak=("latto", "dice")))  # the dice decide it
    assert seat_first_round(q, Settings(), set()).stage == "final"


SEMIS = [stage("semifinal", 1, ("A", 30), ("B", 20), ("C", 10), ("D", 5)),
         stage("semifinal", 2, ("E", 19.5), ("F", 15), ("G", 3), ("H", 1), first_row=54),
         stage("semifinal", 3, ("I", 15), ("J", 10.5), ("K", 2), ("L", 1), first_row=58)]


def test_the_next_round_from_the_winners_and_the_closest_runner_up() -> None:
    q = qualify(SECTION_11, Settings())
    s = Settings()
    r = seat_next_round(q, SEMIS, s, set())
    assert r.stage == "final" and sorted(r.players) == ["A", "E", "I"] and r.replacements == ()
    r = seat_next_round(q, SEMIS, dataclasses.replace(s, final_fill="full"), set())
    assert sorted(r.players) == ["A", "E", "F", "I"]
    assert r.notes == ("F fills the final as the closest semifinal runner-up (final_fill: full)",)
    r = seat_next_round(q, SEMIS, s, {"E"})
    assert sorted(r.players) == ["A", "F", "I"]  # F 15/19.5 = 76.9% beats J 10.5/15 = 70% and B 20/30 = 66.7%
    assert r.replacements[0].text == "E is absent; F takes the seat (the closest semifinal runner-up)"
    r = seat_next_round(q, SEMIS, dataclasses.replace(s, absent_winner="none", final_fill="none"), {"E"})
    assert sorted(r.players) == ["A", "I"] and "absent_winner: none" in r.replacements[0].text


def test_the_final_waits_for_every_semifinal_score() -> None:
    unscored = [*SEMIS[:2], stage("semifinal", 3, ("I", None), ("J", None), ("K", None), ("L", None),
                                  first_row=58)]
    with pytest.raises(BadWorkbook, match=r"^Heats!D58, Heats!D59, Heats!D60, Heats!D61: the semifinal is not "
                                          r"scored yet"):
        seat_next_round(qualify(SECTION_11, Settings()), unscored, Settings(), set())


# Places (RULES.md 5.11)

FINAL = stage("final", 1, ("A", 40), ("E", 35), ("I", 30), first_row=70)


def test_thurn_and_taxis_2022_places() -> None:
    """15/19.5 = 76.9% beat 10.5/15 = 70.0%: 5th and 6th ([TT22]); B's 20/30 = 66.7% is 7th, past the plaques."""
    rows = final_places([*SEMIS, FINAL], Settings(plaques=6))
    assert [(r.place, r.player) for r in rows] == [(1, "A"), (2, "E"), (3, "I"), (4, "F"), (5, "J"), (6, "B")]
    assert rows[3].how == "semifinal table 2, 2nd: 15 to the winner's 19.5 (76.9%)"
    assert [r.player for r in final_places([*SEMIS, FINAL], Settings(plaques=4))] == ["A", "E", "I", "F"]


def test_titan_equal_shares_go_to_the_higher_raw_score_and_true_ties_are_named() -> None:
    semis = [stage("semifinal", 1, ("A", 20), ("B", 10), ("C", 1)),
             stage("semifinal", 2, ("E", 40), ("F", 20), ("G", 1), first_row=53),
             stage("semifinal", 3, ("I", 40), ("J", 20), ("K", 1), first_row=56)]
    final = stage("final", 1, ("A", 9), ("E", 8), ("I", 7), first_row=60)
    rows = final_places([*semis, final], Settings(plaques=6))
    assert [(r.place, r.player, r.tied) for r in rows][3:] == [(4, "F", ("J",)), (4, "J", ("F",)), (6, "B", ())]


def test_places_need_a_scored_final() -> None:
    with pytest.raises(SheetswissError, match="the final is not seated yet"):
        final_places(SEMIS, Settings())


# check_rounds: rows the heats do not allow

def test_a_semifinal_row_for_a_non_qualifier_names_the_cell() -> None:
    q = qualify(_twenty(), Settings(method="hmw-p", semifinal=8, alternates=1))
    outsider = next(r.player for r in q.rows if r.status.value == "out")
    rows = [stage("semifinal", 1, (q.qualified[0], 3), (q.qualified[1], 2), (outsider, 1), (q.qualified[2], 0))]
    with pytest.raises(BadWorkbook, match=rf"^Heats!C52: '{outsider}' is in the semifinal but is neither a "
                                          r"qualifier nor an alternate"):
        check_rounds(q, rows, Settings(semifinal=8))


def test_a_final_seated_before_the_semifinal_is_scored() -> None:
    q = qualify(_twenty(), Settings(method="hmw-p", semifinal=8))
    a, b, c, d, e, f, g, h = q.qualified
    semis = [stage("semifinal", 1, (a, 9), (d, 8), (e, 7), (h, 6)),
             stage("semifinal", 2, (b, None), (c, None), (f, None), (g, None), first_row=54)]
    final = stage("final", 1, (a, None), (b, None), first_row=60)
    with pytest.raises(BadWorkbook, match=r"^Heats!D54, .*: the semifinal is not scored yet; the final \(rows from "
                                          r"Heats!C60\) cannot be seated before it is; type the semifinal scores, or "
                                          r"delete the final's rows$"):
        check_rounds(q, [*semis, final], Settings(semifinal=8))


# Properties (RULES.md 5.12)

@settings(max_examples=60, deadline=None)
@given(histories(), st.sets(st.sampled_from("ABCDEFGHIJKLMN")), st.sampled_from(["hmw-p", "hmw", "hmw-t"]))
def test_alternates_replace_absentees_in_order(games: list[HeatGame], gone: set[str], method: str) -> None:
    s = Settings(method=method, seed=3, table_sizes=(2, 3, 4), alternates=6)
    q = qualify(games, s)
    if not q.qualified or any(r.status.value == "tied" for r in q.rows):
        return
    present_alternates = [p for p in q.alternate_order if p not in gone]
    if set(q.qualified) <= gone and not present_alternates:
        with pytest.raises(SheetswissError, match="nobody can be seated"):
            seat_first_round(q, s, gone)
        return
    r = seat_first_round(q, s, gone)
    used = [x.by for x in r.replacements if x.by is not None]
    assert used == present_alternates[:len(used)]
    assert [x.absent for x in r.replacements] == [p for p in q.qualified if p in gone]
    assert not set(r.players) & gone


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.data())
def test_every_semifinal_winner_present_reaches_the_final(tables: int, data: st.DataObject) -> None:
    names = [f"P{i}" for i in range(4 * tables)]
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    semis = []
    for t in range(tables):
        scores = rng.sample(range(1, 100), 4)
        semis.append(stage("semifinal", t + 1, *zip(names[4 * t:4 * t + 4], scores), first_row=50 + 4 * t))
    heat = [game(1, t + 1, *((p, 10 - i) for i, p in enumerate(names[4 * t:4 * t + 4]))) for t in range(tables)]
    q = qualify(heat, Settings(qualifiers=4 * tables))
    gone = set(data.draw(st.sets(st.sampled_from(names))))
    winners = {g.seats[max(range(4), key=lambda i: g.seats[i].score or 0)].player for g in semis}
    fill = data.draw(st.sampled_from(["allowed", "full", "none"]))
    if set(names) <= gone:
        with pytest.raises(SheetswissError, match="nobody can be seated"):
            seat_next_round(q, semis, Settings(final_fill=fill), gone)
        return
    r = seat_next_round(q, semis, Settings(final_fill=fill), gone)
    assert r.stage == "final" and winners - gone <= set(r.players) and not set(r.players) & gone


# The whole flow on a real workbook

def _score(path: Path, heat: object, rng: random.Random) -> None:
    backend = ExcelBackend(path)
    tables: dict[object, list[int]] = {}
    for r, row in enumerate(backend.read().rows("Heats")[1:], start=2):
        if row[0] == heat and (len(row) < 4 or row[3] is None):
            tables.setdefault(row[1], []).append(r)
    backend.fill_cells("Heats", {f"D{r}": s for rows in tables.values()
                                 for r, s in zip(rows, rng.sample(range(10, 60), len(rows)), strict=True)})


@pytest.fixture
def qualified(tmp_path: Path) -> Path:
    """24 players (all in heat 1, 16 in heats 2 and 3) under HMW-P, scored and ranked: a 12-seat semifinal."""
    names = [f"P{i:02d}" for i in range(24)]
    path = heat_workbook(tmp_path, names, method="HMW-P", semifinal="12", alternates="3")
    rng = random.Random(4)
    for heat in (1, 2, 3):
        who = names if heat == 1 else rng.sample(names, 16)
        assert run("seat", str(path), "--heat", str(heat), "--players", ", ".join(who))[0] == 0
        _score(path, heat, rng)
    assert run("qualify", str(path))[0] == 0
    return path


def _qualifiers(path: Path) -> tuple[list[str], list[str]]:
    rows = list(openpyxl.load_workbook(path)["Qualifiers"].iter_rows(min_row=3, values_only=True))
    return ([str(r[1]) for r in rows if r[7] == "qualified"],
            [str(r[1]) for r in sorted((r for r in rows if str(r[7]).startswith("alternate")), key=lambda r: r[7])])


def test_semifinal_final_and_places_on_a_workbook(qualified: Path) -> None:
    path = qualified
    seeded, alternates = _qualifiers(path)
    assert len(seeded) == 12
    code, out, err = run("advance", str(path), "--absent", seeded[2])
    assert code == 0, err
    assert out.startswith("Semifinal: 12 players at 3 tables (4+4+4), seeds spread across the tables\n"
                          f"  {seeded[2]} is absent; {alternates[0]} takes the seat (alternate 1)\n")
    heats = ExcelBackend(path).read().rows("Heats")
    semis = [r for r in heats if r[0] == "semifinal"]
    assert len(semis) == 12 and {r[2] for r in semis} == (set(seeded) - {seeded[2]}) | {alternates[0]}
    seating = openpyxl.load_workbook(path)["Seating"]
    assert "semifinal seating" in str(seating["A1"].value)
    assert seating["D3"].value == 1  # seed 1 sits first at table 1
    # the final cannot be seated before every semifinal score is in
    before = path.read_bytes()
    code, _, err = run("advance", str(path))
    assert code == 2 and err.count("\n") == 1 and "the semifinal is not scored yet" in err
    assert err.startswith(f"Error: Heats!D{len(heats) - 11}")
    assert path.read_bytes() == before
    _score(path, "semifinal", random.Random(5))
    code, out, err = run("advance", str(path))
    assert code == 0 and out.startswith("Final: 3 players at 1 table (3)"), err
    assert sum(r[0] == "final" for r in ExcelBackend(path).read().rows("Heats")) == 3
    _score(path, "final", random.Random(6))
    code, out, err = run("advance", str(path))
    assert code == 0 and out.startswith("Final places"), err
    tab = list(openpyxl.load_workbook(path)["Places"].iter_rows(values_only=True))
    assert tab[1][:3] == ("Place", "Player", "How")
    assert [r[0] for r in tab[2:8]] == [1, 2, 3, 4, 5, 6]
    assert tab[2][2] == "final, 1st" and str(tab[5][2]).startswith("semifinal table ")
    footer = [str(r[0]) for r in tab[8:] if r[0]]
    assert footer[0] == "Event: My event" and footer[1].startswith("Method: HMW-P")
    assert "Players: 24; heats: 3; tables: 14" in footer


def test_semifinal_rows_for_non_qualifiers_are_a_line_each_and_nothing_changes(qualified: Path) -> None:
    seeded, alternates = _qualifiers(qualified)
    everyone = {str(r[2]) for r in ExcelBackend(qualified).read().rows("Heats")[1:]}
    outsider = sorted(everyone - set(seeded) - set(alternates))[0]
    assert run("advance", str(qualified))[0] == 0
    rows = ExcelBackend(qualified).read().rows("Heats")
    last = len(rows)
    ExcelBackend(qualified).fill_cells("Heats", {f"C{last}": outsider})
    before = qualified.read_bytes()
    code, _, err = run("advance", str(qualified))
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"Error: Heats!C{last}: '{outsider}' is in the semifinal but is neither a qualifier nor an "
                          "alternate (see Qualifiers)")
    assert qualified.read_bytes() == before
    code, _, err = run("qualify", str(qualified))  # the heats alone are still fine
    assert code == 0, err
    ExcelBackend(qualified).fill_cells("Heats", {f"C{last - 1}": sorted(everyone - set(seeded) - set(alternates))[1]})
    lines = refused_lines(qualified, "advance", str(qualified))  # two such rows: two lines
    assert [line.split(": ")[0] for line in lines] == [f"Heats!C{last - 1}", f"Heats!C{last}"], lines


def test_a_round_the_event_does_not_have_names_the_cell(qualified: Path) -> None:
    seeded, _ = _qualifiers(qualified)
    rows = len(ExcelBackend(qualified).read().rows("Heats"))
    ExcelBackend(qualified).fill_cells("Heats", {f"A{rows + 1}": "QF", f"B{rows + 1}": 1, f"C{rows + 1}": seeded[0],
                                                 f"A{rows + 2}": "QF", f"B{rows + 2}": 1, f"C{rows + 2}": seeded[1]})
    before = qualified.read_bytes()
    code, _, err = run("advance", str(qualified))
    assert code == 2 and err == (f"Error: Heats!C{rows + 1}: this event has no quarterfinal; the qualifiers play the "
                                 "semifinal (see Qualifiers)\n")
    assert qualified.read_bytes() == before


def test_two_places_typed_for_one_seat_in_the_final(qualified: Path) -> None:
    path = qualified
    assert run("advance", str(path))[0] == 0
    _score(path, "semifinal", random.Random(5))
    assert run("advance", str(path))[0] == 0
    rows = ExcelBackend(path).read().rows("Heats")
    final = [r for r, row in enumerate(rows[1:], start=2) if row[0] == "final"]
    cells: dict[str, object] = {f"D{r}": 30 for r in final}
    cells.update({f"E{final[0]}": 1, f"E{final[1]}": 1, f"E{final[2]}": 2})
    ExcelBackend(path).fill_cells("Heats", cells)  # type: ignore[arg-type]
    before = path.read_bytes()
    code, _, err = run("advance", str(path))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"Error: Heats!E{final[0]}, Heats!E{final[1]}: final table 1: places must be 1 to 3, "
                          "each once"), err
    assert path.read_bytes() == before
    ExcelBackend(path).fill_cells("Heats", {})
    wb = openpyxl.load_workbook(path)
    wb["Heats"][f"E{final[2]}"] = "1, 2"
    wb.save(path)
    before = path.read_bytes()
    code, _, err = run("advance", str(path))
    assert code == 2 and err.startswith(f"Error: Heats!E{final[2]}: Place must be a whole number from 1, not '1, 2'")
    assert path.read_bytes() == before


def test_a_players_column_marks_who_showed_up(qualified: Path) -> None:
    seeded, alternates = _qualifiers(qualified)
    backend = ExcelBackend(qualified)
    players = backend.read().rows("Players")
    row_of = {str(r[0]): i for i, r in enumerate(players, start=1)}
    here = [p for p in seeded if p != seeded[0]] + alternates[:1]
    backend.fill_cells("Players", {"H1": "Semifinal", **{f"H{row_of[p]}": "x" for p in here}})
    code, out, err = run("advance", str(qualified), "--dry-run")
    assert code == 0, err
    assert f"  {seeded[0]} is absent; {alternates[0]} takes the seat (alternate 1)" in out.splitlines()
    assert "Dry run, nothing written" in out


def test_a_place_says_how_it_was_decided() -> None:
    rows = final_places([*SEMIS, FINAL], Settings())
    assert rows[0].how == "final, 1st" and rows[4].how == "semifinal table 3, 2nd: 10.5 to the winner's 15 (70.0%)"


def test_the_wbc_demo_plays_from_the_first_heat_to_the_plaques(tmp_path: Path) -> None:
    code, out, err = run("demo", str(tmp_path), "--format", "wbc")
    assert code == 0, err
    assert out.startswith("Demo WBC event: 60 players, 3 heats, HMW-P")
    assert "16 qualify for the semifinal: optimum for 4-player tables: 16" in out
    assert "takes the seat (alternate 1)" in out and "Final: 4 players at 1 table (4)" in out
    wb = openpyxl.load_workbook(tmp_path / "sheetswiss-wbc-demo.xlsx")
    places = [r for r in wb["Places"].iter_rows(min_row=3, max_row=8, values_only=True)]
    assert [r[0] for r in places] == [1, 2, 3, 4, 5, 6] and places[0][2] == "final, 1st"
    heats = [r[0] for r in wb["Heats"].iter_rows(min_row=2, values_only=True)]
    assert heats.count("semifinal") == 16 and heats.count("final") == 4 and {1, 2, 3} <= set(heats)


def _field(players: int, heats: int, seed: int) -> list[HeatGame]:
    """``players`` players in every one of ``heats`` heats at tables of 4, random distinct scores."""
    rng = random.Random(seed)
    names = [f"P{i:03d}" for i in range(players)]
    games = []
    for h in range(1, heats + 1):
        rng.shuffle(names)
        for t in range(players // 4):
            seats = names[4 * t:4 * t + 4]
            games.append(game(h, t + 1, *zip(seats, rng.sample(range(1, 99), 4))))
    return games


def _play(seating_tables: tuple[tuple[str, ...], ...], name: str, rng: random.Random) -> list[HeatGame]:
    return [stage(name, t, *zip(players, rng.sample(range(1, 99), len(players))), first_row=100 + 10 * t)
            for t, players in enumerate(seating_tables, start=1)]


def test_a_quarterfinal_then_a_semifinal_then_the_final() -> None:
    s = Settings(method="hmw-p", quarterfinal=48)
    q = qualify(_field(120, 3, 1), s)
    assert q.qualifiers == 48 and q.round_name == "quarterfinal" and q.size_rules[0] == "quarterfinal setting: 48"
    rng = random.Random(2)
    qf = seat_first_round(q, s, set())
    assert qf.stage == "quarterfinal" and [len(t.players) for t in qf.tables] == [4] * 12
    assert sorted(t.seeds[0] for t in qf.tables) == list(range(1, 13))  # the 12 best seeds head the 12 tables
    rounds = _play(tuple(t.players for t in qf.tables), "quarterfinal", rng)
    sf = seat_next_round(q, rounds, s, set())
    assert sf.stage == "semifinal" and [len(t.players) for t in sf.tables] == [4, 4, 4]
    rounds += _play(tuple(t.players for t in sf.tables), "semifinal", rng)
    check_rounds(q, rounds, s)
    final = seat_next_round(q, rounds, s, set())
    assert final.stage == "final" and len(final.players) == 3
    rounds += _play(tuple(t.players for t in final.tables), "final", rng)
    places_ = final_places(rounds, s)
    assert [r.place for r in places_] == [1, 2, 3, 4, 5, 6]
    assert all(r.how.startswith("semifinal table") for r in places_[3:])


def test_hwo_seats_every_winner_at_allowed_tables() -> None:
    s = Settings(method="hwo")
    q = qualify(_field(40, 1, 3), s)  # 10 tables: 10 winners, cap 20
    assert q.qualifiers == 10 and not q.final
    r = seat_first_round(q, s, set())
    assert r.stage == "semifinal" and [len(t.players) for t in r.tables] == [4, 3, 3]
    assert set(r.players) == {row.player for row in q.rows if row.wins}


def test_final_rows_typed_before_the_semifinal_is_scored(qualified: Path) -> None:
    assert run("advance", str(qualified))[0] == 0
    backend = ExcelBackend(qualified)
    rows = backend.read().rows("Heats")
    semis = [(r, row) for r, row in enumerate(rows[1:], start=2) if row[0] == "semifinal"]
    n = len(rows)
    backend.fill_cells("Heats", {f"D{r}": 10 + i for i, (r, _) in enumerate(semis[:8])})  # two tables scored
    backend.fill_cells("Heats", {**{f"A{n + i}": "Final" for i in (1, 2, 3)}, **{f"B{n + i}": 1 for i in (1, 2, 3)},
                                 **{f"C{n + i}": semis[4 * (i - 1)][1][2] for i in (1, 2, 3)}})
    before = qualified.read_bytes()
    code, _, err = run("advance", str(qualified))
    third = [r for r, _ in semis[8:]]
    assert code == 2 and err == (f"Error: {', '.join(f'Heats!D{r}' for r in third)}: the semifinal is not scored "
                                 f"yet; the final (rows from Heats!C{n + 1}) cannot be seated before it is; type the "
                                 "semifinal scores, or delete the final's rows\n")
    assert qualified.read_bytes() == before


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 60), st.sampled_from(["hmw-p", "hmw-t", "hwo", "hmw"]), st.integers(0, 10**6),
       st.sampled_from([None, 24, 36]))
@example(8, "hwo", 1795, None)  # both heat winners absent under HWO: nobody to seat
def test_any_event_runs_from_the_heats_to_the_places(players: int, method: str, seed: int,
                                                    quarterfinal: int | None) -> None:
    """Random heats, random absences at every round: the chain ends in a final and places without a gap."""
    rng = random.Random(seed)
    players -= players % 4
    s = Settings(method=method, quarterfinal=quarterfinal, seed=seed, gm_tiebreak=("dice",) if method == "hmw"
                 else None, final_fill=rng.choice(["allowed", "full", "none"]))
    q = qualify(_field(players, rng.randint(1, 3), seed), s)
    gone = {row.player for row in q.rows if rng.random() < 0.1}
    rounds: list[HeatGame] = []
    try:
        seated = seat_first_round(q, s, gone)
    except SheetswissError as e:  # absences left a field no allowed tables seat, or nobody: the GM must say who plays
        assert "cannot be seated at tables of 3 or 4 (table_sizes)" in str(e) or "nobody can be seated" in str(e)
        assert gone
        return
    while True:
        assert seated.players and not set(seated.players) & gone
        if seated.stage == "final":
            assert len(seated.tables) == 1
        rounds += _play(tuple(t.players for t in seated.tables), seated.stage, rng)
        check_rounds(q, rounds, s)
        if seated.stage == "final":
            break
        gone = {p for p in seated.players if rng.random() < 0.1}
        try:
            seated = seat_next_round(q, rounds, s, gone)
        except SheetswissError as e:  # every winner absent and no runner-up to take a seat
            assert "nobody can be seated" in str(e) and gone
            return
    rows = final_places(rounds, s)
    assert len({r.player for r in rows}) == len(rows) and rows[0].place == 1
    assert all(b.place >= a.place for a, b in itertools.pairwise(rows))
