"""Double-sided Swiss (RULES.md 3, ``sides: double``; seed 001's Netrunner format): two games a round, one
on each side, each scored on its own; pairing as ordinary Swiss on the match totals."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss import api
from sheetswiss.backends.base import Book, Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import BadSetting
from sheetswiss.history import RoundKind, history, total
from sheetswiss.model import Event
from sheetswiss.pairing import check_pairing, pair_round
from sheetswiss.publish import pairings_page
from sheetswiss.settings import Settings, parse_settings
from sheetswiss.standings import compute_standings
from sheetswiss.tiebreaks import Context
from sheetswiss.workbook.contract import HEADERS, PLAYERS, RESULTS, SETTINGS
from sheetswiss.workbook.parse import parse_event
from sheetswiss.workbook.render import pairings_tab, results_append, standings_tab

from .helpers import make_event, new_workbook
from .test_cli import one_line_error, players, run

MAGIC = {"W": Fraction(3), "D": Fraction(1), "L": Fraction(0)}
"""Points of one game under ``points: magic`` (3/1/0, RULES.md 1.3); a PAB is 3 a game, 6 a round."""


def game_points(result: str) -> tuple[Fraction, Fraction]:
    """Player A's and Player B's points for one game row, computed apart from the library."""
    return {"1-0": (MAGIC["W"], MAGIC["L"]), "0-1": (MAGIC["L"], MAGIC["W"]), "1/2": (MAGIC["D"], MAGIC["D"]),
            "+/-": (MAGIC["W"], MAGIC["L"]), "-/+": (MAGIC["L"], MAGIC["W"]), "--": (MAGIC["L"], MAGIC["L"])}[result]


def test_the_setting_accepts_double() -> None:
    settings_ = parse_settings([(2, "sides", "double")])
    assert settings_.sides == "double" and settings_.games_per_round == 2
    assert Settings(sides="single").games_per_round == 1
    with pytest.raises(BadSetting, match="Settings!B2: sides: 'both' is not one of: none, single, double"):
        parse_settings([(2, "sides", "both")])


def rules_event() -> Event:
    """Five players, two rounds, magic points (3/1/0 a game), every kind of round a double event has."""
    return make_event("abcde", [
        (1, "a", "b", "1-0"), (1, "b", "a", "1-0"),      # a split: 3 each, a drawn match
        (1, "c", "d", "1-0"), (1, "d", "c", "1/2"),      # c a win and a draw: 4, d 1
        (1, "e", None, "bye"),                           # a bye stands for two game wins: 6
        (2, "a", "c", "--"), (2, "c", "a", "--"),        # double forfeits in both games: 0 each
        (2, "b", "e", "1-0"), (2, "e", "b", "0-1"),      # b wins 2-0: 6
        (2, "d", None, "half bye"),                      # two draws: 2
    ], sides="double", points="magic", tiebreaks=("buchholz", "sonneborn_berger", "gwp"))


def test_a_match_is_one_round_of_two_games_each_scored_on_its_own() -> None:
    recs = history(rules_event())
    a1, c1, d1, e1 = recs["a"][0], recs["c"][0], recs["d"][0], recs["e"][0]
    assert (a1.kind, a1.outcome, a1.points, a1.games, a1.opponent, a1.side) == (
        RoundKind.GAME, "D", 3, (1, 1, 0), "b", None)
    assert (c1.outcome, c1.points, c1.games) == ("W", 4, (1, 0, 1))
    assert (d1.outcome, d1.points, d1.games) == ("L", 1, (0, 1, 1))
    assert (e1.kind, e1.points) == (RoundKind.PAB, 6)
    a2, b2, d2 = recs["a"][1], recs["b"][1], recs["d"][1]
    assert (a2.kind, a2.outcome, a2.points, a2.games) == (RoundKind.FORFEIT_LOSS, "L", 0, (0, 2, 0))
    assert (b2.kind, b2.outcome, b2.points, b2.games) == (RoundKind.GAME, "W", 6, (2, 0, 0))
    assert (d2.kind, d2.points) == (RoundKind.HALF_BYE, 2)
    assert {x: total(rs) for x, rs in recs.items()} == {"a": 3, "b": 9, "c": 4, "d": 3, "e": 6}


def test_a_match_with_a_game_pending_is_not_counted() -> None:
    event = make_event("ab", [(1, "a", "b", "1-0"), (1, "b", "a", None)], sides="double")
    assert event.completed_rounds == 0
    assert [r.kind for r in history(event, through=1)["a"]] == [RoundKind.ABSENT]


def test_standings_count_games_and_tiebreaks_count_matches() -> None:
    """W-D-L counts games (a bye two wins, a half bye two draws); Buchholz and SB take one term per match,
    SB's share by the match result (more game wins); GW% counts each game."""
    event = rules_event()
    rows = {r.player: r for r in compute_standings(event).rows}
    assert [(rows[x].wins, rows[x].draws, rows[x].losses, rows[x].games) for x in "bde"] == [
        (3, 0, 1, 4), (0, 3, 1, 2), (2, 0, 2, 2)]
    ctx = Context.of(event)
    bh, sb, gwp = (ctx.values(name) for name in ("buchholz", "sonneborn_berger", "gwp"))
    assert bh["a"] == 9 + 4          # b's total for the match, c's for the forfeited one
    assert sb["b"] == Fraction(3, 2) + 6   # drew the match with a (3 points), beat e (6)
    assert gwp["b"] == Fraction(9, 12) and gwp["e"] == Fraction(6, 12)   # the bye as two games won
    tab = standings_tab(event, compute_standings(event), dt.datetime(2026, 1, 1))
    assert tab.rows[1][3] == "Games W-D-L"


def test_pairings_list_each_table_once_and_results_get_two_rows() -> None:
    event = make_event([f"p{i}" for i in range(5)], sides="double", seed=4)
    pairing = pair_round(event)
    tab = pairings_tab(event, pairing, dt.datetime(2026, 1, 1))
    assert tab.rows[1][:5] == ("Table", "Player A (side 1 in game 1)", "Points", "Player B (side 1 in game 2)",
                               "Points")
    assert tab.rows[1][-1] == "Sides"
    body = [row for row in tab.rows[2:] if len(row) > 1]
    assert [row[0] for row in body if row[0] is not None] == [1, 2, "bye"]
    assert sorted(row[9] for row in body if row[9]) == ["1, then 2", "1, then 2", "2, then 1", "2, then 1"]
    assert any(row and "Each table plays two games" in str(row[0]) for row in tab.rows)
    book = Book({RESULTS: (HEADERS[RESULTS],)})
    rows = results_append(book, pairing, games_per_round=2).rows
    t1 = pairing.tables[0]
    assert rows[0] == (1, 1, t1.a, t1.b, None) and rows[1] == (1, 1, t1.b, t1.a, None)
    assert len(rows) == 5 and rows[-1][3:] == ("BYE", "bye")
    played = make_event(event.players, [(1, str(a), None if b == "BYE" else str(b), "bye" if b == "BYE" else None)
                                         for _, _, a, b, _ in rows], sides="double")
    page = pairings_page(played, [("index.html", "Pairings")], dt.datetime(2026, 1, 1))
    assert all(page.html.count(f'data-names="p{i}"') == 1 for i in range(5))     # each player once


# -- the workbook: forty players, eight rounds, through the commands' library calls ------------------------------

def double_workbook(folder: Path, count: int, **extra: Value) -> Path:
    return new_workbook(folder, players(count), settings={"sides": "double", "points": "magic", **extra})


def type_games(path: Path, rng: random.Random) -> None:
    """Type a result into every empty game row of the last round, one game at a time, as a GM would."""
    backend = ExcelBackend(path)
    event = parse_event(backend.read())
    backend.fill_cells(RESULTS, {g.cell.split("!")[1]: rng.choice(["1-0", "1-0", "0-1", "0-1", "1/2", "+/-"])
                                 for g in event.games_in(event.paired_rounds) if g.b is not None and g.result is None})


def test_forty_players_eight_rounds(tmp_path: Path) -> None:
    """A late entry (round 2) and a drop (after round 4) make the field odd in rounds 1 and 5-8."""
    path = double_workbook(tmp_path, 40, rounds=8)
    backend = ExcelBackend(path)
    backend.fill_cells(PLAYERS, {"E41": 2, "D20": 4})     # Player 040 joins in round 2, Player 019 plays to 4
    rng = random.Random(40)
    for _ in range(8):
        api.pair(str(path))
        type_games(path, rng)
    report = api.standings(str(path))
    event = parse_event(backend.read())
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    points: defaultdict[str, Fraction] = defaultdict(Fraction)
    for round_ in range(1, 9):
        rows = event.games_in(round_)
        active = {p.name for p in event.players if p.plays_in(round_)}
        assert len(active) % 2 == (1 if round_ in (1, 5, 6, 7, 8) else 0)
        games = [g for g in rows if g.b is not None]
        tables = Counter(g.table for g in games)
        assert set(tables.values()) == {2}                           # two rows a table ...
        for t in tables:
            first, second = (g for g in games if g.table == t)
            assert (second.a, second.b) == (first.b, first.a)        # ... the second with the sides swapped
            assert second.row == first.row + 1
            met[frozenset((first.a, str(first.b)))] += 1
        bye = {g.a for g in rows if g.b is None}
        assert len(bye) == len(active) % 2
        byes.update(bye)
        rows_of = Counter(n for g in rows for n in (g.a, g.b) if n)
        assert set(rows_of) == active                                # everyone paired once a round:
        assert all(rows_of[n] == (1 if n in bye else 2) for n in active)   # a match's two rows, or the bye
        for g in games:
            assert g.result is not None and g.b is not None
            pa, pb = game_points(g.result.spelling())
            points[g.a] += pa
            points[g.b] += pb
        for player in bye:
            points[player] += 6
    assert max(met.values()) == 1                                    # no rematch
    assert max(byes.values()) == 1 and len(byes) == 5                # at most one bye each
    assert "Player 019" not in {n for g in event.games if g.round > 4 for n in (g.a, g.b)}
    wb = openpyxl.load_workbook(path)
    header = [c.value for c in wb["Standings"][2]]
    assert header[3] == "Games W-D-L"
    shown = {row[1]: row for row in wb["Standings"].iter_rows(min_row=3, values_only=True) if row[1] is not None}
    assert len(shown) == 40
    assert all(shown[name][2] == points[str(name)] for name in shown)   # points = the sum of the game points
    recs = history(event)
    for name, row in shown.items():
        won, drawn, lost = (int(x) for x in str(row[3]).split("-"))
        bye_games = 2 * sum(r.kind is RoundKind.PAB for r in recs[str(name)])
        matches = sum(r.opponent is not None for r in recs[str(name)])
        assert won + drawn + lost == 2 * matches + bye_games
    assert report.lines[0] == "Standings after round 8 (40 players)"
    pairings = [row for row in wb["Pairings"].iter_rows(min_row=3, values_only=True) if row[0] is not None]
    assert len([r for r in pairings if isinstance(r[0], int)]) == 19 and pairings[19][0] == "bye"


def test_redo_replaces_both_rows_of_every_match(tmp_path: Path) -> None:
    path = double_workbook(tmp_path, 7)
    api.pair(str(path))
    type_games(path, random.Random(1))
    api.pair(str(path))
    backend = ExcelBackend(path)
    assert len(parse_event(backend.read()).games_in(2)) == 7        # rows 9-15: three matches and a bye
    backend.fill_cells(PLAYERS, {"D2": 1})                          # Player 001 leaves after round 1
    code, _, err = run("pair", str(path), "--redo")
    assert code == 0, err
    event = parse_event(backend.read())
    again = event.games_in(2)
    assert [g.row for g in again] == list(range(9, 15)) and all(g.b is not None for g in again)
    assert "Player 001" not in {n for g in again for n in (g.a, g.b)}
    assert len(parse_event(backend.read()).games) == 13             # row 15 cleared


@pytest.mark.parametrize("cells,message", [
    ({"A3": None, "B3": None, "C3": None, "D3": None},
     "Results!A2: round 1 has one game of {a} v {b}; under sides: double a match is two rows, {a} v {b} "
     "and {b} v {a}"),
    ({"A8": 1, "B8": 1, "C8": "{a}", "D8": "{b}"},
     "Results!A8: a third row for {a} v {b} in round 1 (rows 2 and 3 are the match's two games); delete one"),
    ({"C3": "{a}", "D3": "{b}"},
     "Results!C3: '{a}' plays side 1 against '{b}' in round 1 twice (also row 2); the second game swaps the "
     "sides: {b} as Player A"),
    ({"D5": "{a}"}, "Results!C5: '{c}' is in round 1 twice (also row 4); a double-sided match is two rows with "
                    "the same two players"),
    ({"B3": 2}, "Results!B3: table 2, but the first game of {a} v {b} (row 2) is at table 1; both games of a "
                "match share a table"),
    ({"E2": "2-0"}, "Results!E2: '2-0' is a score of several games; under sides: double each row is one game: "
                    "type 1-0, 0-1 or 1/2"),
])
def test_bad_results_rows_are_one_line_naming_the_cell(tmp_path: Path, cells: dict[str, Value],
                                                        message: str) -> None:
    path = double_workbook(tmp_path, 6)
    api.pair(str(path))
    backend = ExcelBackend(path)
    games = parse_event(backend.read()).games
    names = {"a": games[0].a, "b": games[0].b, "c": games[2].b}
    backend.fill_cells(RESULTS, {ref: value.format(**names) if isinstance(value, str) else value
                                 for ref, value in cells.items()})
    assert one_line_error(path, "standings", str(path)) == message.format(**names)


# -- a property: random double-sided events, parsed from the tabs as a GM would type them ------------------------

@st.composite
def double_events(draw: st.DrawFn) -> tuple[int, int, list[int | None], int]:
    n = draw(st.integers(2, 12))
    drops = [draw(st.sampled_from([None, None, None, 1, 2])) for _ in range(n)]
    return n, draw(st.integers(1, 5)), drops, draw(st.integers(0, 1000))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(double_events())
def test_random_double_events_keep_the_rules(case: tuple[int, int, list[int | None], int]) -> None:
    """Every round: everyone to pair is in exactly one match (two rows, sides swapped) or has the bye; a
    rematch or a second bye only when the pairing declares it; points are the sum of the game points."""
    n, rounds, drops, seed = case
    rng = random.Random(seed)
    settings_rows = [HEADERS[SETTINGS], ("sides", "double"), ("points", "magic"), ("seed", seed)]
    player_rows = [HEADERS[PLAYERS], *((f"p{i}", None, None, d) for i, d in enumerate(drops))]
    results: list[tuple[Value, ...]] = [HEADERS[RESULTS]]
    expected: defaultdict[str, Fraction] = defaultdict(Fraction)
    for _ in range(rounds):
        book = Book({SETTINGS: tuple(settings_rows), PLAYERS: tuple(player_rows), RESULTS: tuple(results)})
        event = parse_event(book)
        if not any(p.plays_in(event.paired_rounds + 1) for p in event.players):
            break
        pairing = pair_round(event)
        assert check_pairing(event, pairing) == []
        declared = bool(pairing.notes)
        for t in pairing.tables:
            assert t.b is not None or declared or t.a not in {g.a for g in event.games if g.b is None}
            if t.b is not None and frozenset((t.a, t.b)) in {frozenset((g.a, g.b)) for g in event.games}:
                assert (t.a, t.b) in pairing.rematches
        for row in results_append(book, pairing, games_per_round=2).rows:
            typed = row[4] if row[3] == "BYE" else rng.choice(["1-0", "0-1", "1/2", "+/-", "-/+", "--"])
            results.append((*row[:4], typed))
            if row[3] == "BYE":
                expected[str(row[2])] += 6
            else:
                pa, pb = game_points(str(typed))
                expected[str(row[2])] += pa
                expected[str(row[3])] += pb
    event = parse_event(Book({SETTINGS: tuple(settings_rows), PLAYERS: tuple(player_rows), RESULTS: tuple(results)}))
    for round_ in range(1, event.paired_rounds + 1):
        rows = Counter(x for g in event.games_in(round_) for x in (g.a, g.b) if x)
        byes = {g.a for g in event.games_in(round_) if g.b is None}
        assert all(rows[x] == (1 if x in byes else 2) for x in rows)
    assert {x: total(rs) for x, rs in history(event).items()} == {f"p{i}": expected[f"p{i}"] for i in range(n)}
    assert all(row.points == expected[row.player] for row in compute_standings(event).rows)


def test_colours_setting_is_ignored_under_double_sides() -> None:
    """Both sides are played every round, so there are no colours to choose: the engine's sparse solve
    applies, not the complete-graph solve of two-edge pairs (RULES.md 3, 2.10)."""
    from sheetswiss.pairing.costs import Costs
    from sheetswiss.pairing.state import round_state

    from .helpers import make_event

    event = make_event([f"p{i}" for i in range(10)], sides="double", colours="alternate")
    state = round_state(event, 1)
    assert Costs(event, state, state.order, rematches=False).mode == ""
    proof = pair_round(event).proof
    assert proof is not None and proof.method != "complete graph"
