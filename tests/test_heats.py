"""WBC heats: RULES.md section 5 examples, the eight goals of seed 003 (RULES.md 5.7), errors, parsing."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.backends.base import Book, Value
from sheetswiss.errors import BadSetting, BadWorkbook, Problems
from sheetswiss.heats import (
    HeatGame,
    HeatSeat,
    PlayerHeats,
    Status,
    check_tables,
    first_heats,
    game_points,
    inversions,
    places,
    player_heats,
    precedence_steps,
    qualify,
)
from sheetswiss.model import Player
from sheetswiss.seating import split_tables
from sheetswiss.settings import Settings, parse_settings
from sheetswiss.workbook.contract import HEADERS, HEATS
from sheetswiss.workbook.parse_heats import parse_heats

F = Fraction
NAMES = tuple("ABCDEFGHIJ")


Score = Fraction | float | None


def game(heat: int, table: int, *rows: tuple[str, Score] | tuple[str, Score, int | None],
         first_row: int = 2) -> HeatGame:
    """A table as the Heats tab would give it, rows numbered from ``first_row``."""
    seats = []
    for r, row in enumerate(rows, start=first_row):
        score = None if row[1] is None else F(row[1])
        place = row[2] if len(row) > 2 else None
        seats.append(HeatSeat(player=row[0], score=score, place=place, row=r,
                              score_cell=f"Heats!D{r}", place_cell=f"Heats!E{r}"))
    return HeatGame(heat=heat, table=table, seats=tuple(seats))


def totals(games: list[HeatGame], s: Settings | None = None) -> dict[str, Fraction]:
    return {r.player: r.points for r in player_heats(games, s or Settings())}


# RULES.md 5.2's worked example
RULES_5_2 = [game(1, 1, ("Rita", 36), ("Sam", 30), ("Tom", 25), ("Uma", 12)),
             game(2, 1, ("Sam", 24), ("Vic", 20), ("Wes", 9), first_row=6)]


def test_rules_5_2_worked_example() -> None:
    t = totals(RULES_5_2)
    assert t == {"Rita": F(7506, 5), "Sam": F(325, 3) + F(5006, 5), "Tom": 0, "Uma": 0, "Vic": F(175, 3), "Wes": 0}
    assert round(float(t["Sam"]), 4) == 1109.5333 and round(float(t["Vic"]), 4) == 58.3333
    assert totals(RULES_5_2, Settings(method="hsw"))["Rita"] == F(25006, 5)  # 5001.2


def test_rules_5_2_qualifiers() -> None:
    q = qualify(RULES_5_2, Settings())
    assert [(r.rank, r.player, r.status_text) for r in q.rows] == [
        (1, "Rita", "qualified"), (2, "Sam", "qualified"), (3, "Vic", "qualified"),
        (4, "Tom", "out"), (4, "Uma", "out"), (4, "Wes", "out")]
    sam = q.rows[1]
    assert (sam.heats_played, sam.wins, sam.first_heat_win, sam.seconds) == (2, 1, False, 1)
    assert q.rows[0].first_heat_win and q.method == "HMW" and q.inversions == () and q.pending == ()


# RULES.md 5.6's inversion examples

def _filler(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def most_wins_example() -> list[HeatGame]:
    """B wins heat 1 30-29 and is second five times, 28 to 30; A loses heat 1 and wins twice 25-24."""
    x = _filler("x", 40)
    games = [game(1, 1, ("B", 30), (x[0], 29), (x[1], 10), (x[2], 5)),
             game(1, 2, (x[3], 40), (x[4], 30), ("A", 10), (x[5], 5))]
    for h in range(2, 7):
        games.append(game(h, 1, (x[6 + h], 30), ("B", 28), (x[20 + h], 1), (x[30 + h], 2)))
    for h in (2, 3):
        games.append(game(h, 2, ("A", 25), (x[10 + h], 24), (x[15 + h], 3)))
    return games


def test_rules_5_6_most_wins_inversion() -> None:
    games = most_wins_example()
    t = totals(games)
    assert round(float(t["B"]), 2) == 2047.70 and round(float(t["A"]), 2) == 2002.08
    q = qualify(games, Settings())
    order = [r.player for r in q.rows]
    assert order.index("B") < order.index("A")
    [inv] = [i for i in q.inversions if {i.above, i.below} == {"A", "B"}]
    assert (inv.above, inv.below, inv.step, inv.values) == ("A", "B", "wins", (2, 1))
    assert inv.text.startswith("A is ahead of B on wins (2 v 1) but has fewer points (2002.0833 v 2047.7011)")
    ranked = [r.player for r in qualify(games, Settings(ranking="precedence")).rows]
    assert ranked.index("A") < ranked.index("B")


def test_rules_5_6_first_heat_win_inversion() -> None:
    """C: second in heat 1, wins heat 2 25-24, second four more times 20 to 25; D wins heat 1 25-24 only."""
    y = _filler("y", 40)
    games = [game(1, 1, ("D", 25), (y[3], 24), (y[0], 3)),
             game(1, 2, (y[4], 25), ("C", 20), (y[5], 3), (y[6], 1)),
             game(2, 1, ("C", 25), (y[1], 24), (y[2], 3))]
    for h in range(3, 7):
        games.append(game(h, 1, (y[6 + h], 25), ("C", 20), (y[12 + h], 3), (y[20 + h], 1)))
    t = totals(games)
    assert round(float(t["C"]), 2) == 1541.04 and round(float(t["D"]), 2) == 1501.04
    [inv] = [i for i in inversions(player_heats(games, Settings()), Settings()) if {i.above, i.below} == {"C", "D"}]
    assert (inv.above, inv.below, inv.step, inv.values) == ("D", "C", "win in first heat entered", (1, 0))


def test_rules_5_6_more_seconds_is_not_precedence() -> None:
    """One 4-player second at s = 1 (110) beats two 3-player seconds at s = 0.4 (2 x 54): no inversion."""
    games = [game(1, 1, ("w1", 10, 1), ("P", 10, 2), ("z1", 1, 3), ("z2", 2, 4)),
             game(1, 2, ("w2", 10), ("Q", 4), ("z3", 1)),
             game(2, 1, ("w3", 10), ("Q", 4), ("z4", 1))]
    t = totals(games)
    assert (t["P"], t["Q"]) == (110, 108)
    assert qualify(games, Settings()).inversions == ()


# RULES.md 5.3 and 5.4: places, ties, zero and negative scores

def test_equal_scores_at_second_name_the_cells() -> None:
    g = game(2, 3, ("Ana", 30), ("Bo", 20), ("Cy", 20), ("Dee", 5), first_row=11)
    with pytest.raises(BadWorkbook, match=r"^Heats!D12, Heats!D13: heat 2 table 3: equal scores \(20\) for "
                                          r"second place; type every player's Place"):
        places(g, Settings())
    g = game(2, 3, ("Ana", 30), ("Bo", 30), ("Cy", 20), first_row=11)
    with pytest.raises(BadWorkbook, match=r"^Heats!D11, Heats!D12: .* for first place"):
        places(g, Settings())


def test_equal_scores_below_second_share_a_place() -> None:
    assert places(game(1, 1, ("A", 9), ("B", 7), ("C", 3), ("D", 3)), Settings()) == (1, 2, 3, 3)


def test_place_overrides_and_gives_ratio_one() -> None:
    g = game(1, 1, ("A", 30, 2), ("B", 30, 1), ("C", 12, 3))
    assert places(g, Settings()) == (2, 1, 3)
    assert game_points(g, Settings(), {"A": 1, "B": 1, "C": 1}) == (60, 1501, 0)


def test_place_must_be_complete_and_unique() -> None:
    with pytest.raises(BadWorkbook, match=r"^Heats!E4: heat 1 table 1: Place is typed for some players"):
        places(game(1, 1, ("A", 30, 1), ("B", 20, 2), ("C", 10, None)), Settings())
    with pytest.raises(BadWorkbook, match=r"^Heats!E2, Heats!E3: heat 1 table 1: places must be 1 to 3, each once"):
        places(game(1, 1, ("A", 30, 1), ("B", 20, 1), ("C", 10, 3)), Settings())
    with pytest.raises(BadWorkbook, match=r"^Heats!E4: .*places must be 1 to 3"):
        places(game(1, 1, ("A", 30, 1), ("B", 20, 2), ("C", 10, 4)), Settings())


def test_missing_score_names_the_cell() -> None:
    with pytest.raises(BadWorkbook, match=r"^Heats!D3: heat 1 table 1: the score is missing"):
        places(game(1, 1, ("A", 30), ("B", None), ("C", 10)), Settings())


def test_low_score_order() -> None:
    g = game(1, 1, ("A", 30), ("B", 20), ("C", 25))
    s = Settings(score_order="low")
    assert places(g, s) == (3, 1, 2)
    assert game_points(g, s, {"A": 1, "B": 2, "C": 1}) == (0, 1000 + F(25, 20), 50 + 10 * F(20, 25))


def test_zero_and_negative_scores() -> None:
    first = dict.fromkeys("ABCD", 1)
    # second on 0: r = ratio_cap; winner on 0 with a lower second: s = 0
    assert game_points(game(1, 1, ("A", 5), ("B", 0), ("C", -1)), Settings(), first)[:2] == (1510, 50)
    assert game_points(game(1, 1, ("A", 0), ("B", -2), ("C", -3)), Settings(), first)[:2] == (1510, 50)
    assert game_points(game(1, 1, ("A", 0), ("B", -2), ("C", -3)), Settings(ratio_cap=F(3)), first)[0] == 1503
    # equal scores decided by Place with both on 0: r = 1 and s = 1
    assert game_points(game(1, 1, ("A", 0, 1), ("B", 0, 2), ("C", -3, 3)), Settings(), first)[:2] == (1501, 60)
    # the cap: 30 to 2 is 15, capped at 10
    assert game_points(game(1, 1, ("A", 30), ("B", 2), ("C", 1)), Settings(), first)[0] == 1510
    assert game_points(game(1, 1, ("A", 30), ("B", 2), ("C", 1)), Settings(ratio_cap=None), first)[0] == 1515
    # score_offset moves every score before the ratios
    g = game(1, 1, ("A", 2), ("B", -2), ("C", -5))
    assert game_points(g, Settings(score_offset=F(6)), first)[:2] == (1500 + F(8, 4), 50 + 10 * F(4, 8))
    with pytest.raises(BadWorkbook, match=r"^Heats!D2, Heats!D3: heat 1 table 1: the second's score is 0 or less"):
        game_points(game(1, 1, ("A", 5), ("B", 0), ("C", -1)), Settings(ratio_cap=None), first)


def test_five_and_two_player_tables() -> None:
    s = Settings(table_sizes=(2, 3, 4, 5), heat_third_5=F(7))
    five = game(1, 1, ("A", 50), ("B", 40), ("C", 30), ("D", 20), ("E", 10))
    assert game_points(five, s, dict.fromkeys("ABCDE", 1)) == (1500 + F(5, 4), 100 + 8, 7, 0, 0)
    two = game(1, 1, ("A", 50), ("B", 40))
    assert game_points(two, s, {"A": 1, "B": 1}) == (1500 + F(5, 4), 0)


def test_first_heat_entered_counts_an_unfinished_table() -> None:
    games = [game(1, 1, ("A", None), ("B", None), ("C", None)), game(2, 1, ("A", 9), ("D", 3), ("E", 1))]
    assert first_heats(games)["A"] == 1
    assert totals(games)["A"] == 1003
    q = qualify(games, Settings())
    assert q.pending == ((1, 1),) and q.rows[0].heats_played == 1


# RULES.md 5.5: qualifiers, alternates, ties at the cut

def _wins(*scores: tuple[str, int]) -> list[HeatGame]:
    """Each player wins one first-heat game by ``score`` to 1 (equal scores give equal points)."""
    return [game(1, i, (name, score), (f"l{i}a", 1), (f"l{i}b", 0)) for i, (name, score) in enumerate(scores, 1)]


def test_qualifiers_alternates_and_zero_points() -> None:
    games = _wins(("A", 9), ("B", 8), ("C", 7), ("D", 6))
    q = qualify(games, Settings(qualifiers=2, alternates=1))
    status = {r.player: r.status_text for r in q.rows}
    assert [status[p] for p in "ABCD"] == ["qualified", "qualified", "alternate 1", "out"]
    assert status["l1a"] == "out"  # a second at a 3-player table scores, but below the alternates
    q = qualify(games, Settings(qualifiers=16))
    assert {r.player for r in q.rows if r.status is Status.QUALIFIED} == set("ABCD") | {f"l{i}a" for i in range(1, 5)}
    assert all(r.status is Status.OUT for r in q.rows if r.points == 0)


def test_ties_at_the_cut_are_shown_not_split() -> None:
    games = _wins(("A", 9), ("B", 8), ("C", 8), ("D", 8), ("E", 5))
    q = qualify(games, Settings(qualifiers=2, alternates=1))
    by = {r.player: r for r in q.rows}
    assert [by[p].rank for p in "ABCDE"] == [1, 2, 2, 2, 5]
    assert all(by[p].status is Status.TIED for p in "BCD")
    assert by["B"].note == "tied with C, D for places 2-4 (qualified / alternate 1 / out); the GM decides"
    assert by["E"].status is Status.OUT and by["A"].note == ""
    # a tie wholly inside the qualifiers is only a shared rank
    q = qualify(games, Settings(qualifiers=4))
    by = {r.player: r for r in q.rows}
    assert all(by[p].note == "" and by[p].status is Status.QUALIFIED for p in "BCD")


def test_dice_decides_only_under_wbc2008_precedence_and_says_so() -> None:
    games = _wins(("A", 9), ("B", 8), ("C", 8))
    s = Settings(qualifiers=2, alternates=0, ranking="precedence", precedence="wbc2008", seed=7)
    q = qualify(games, s)
    by = {r.player: r for r in q.rows}
    assert {by[p].status for p in "BC"} == {Status.QUALIFIED, Status.OUT}
    assert {by["B"].rank, by["C"].rank} == {2, 3}
    assert "until the dice roll (wbc2008 step 8, seed 7), which decided places 2-3" in by["B"].note
    assert qualify(games, s) == q
    seed003 = {r.player: r for r in qualify(games, dataclasses.replace(s, precedence="seed003")).rows}
    assert seed003["B"].status is seed003["C"].status is Status.TIED


# The eight goals of seed 003 (RULES.md 5.7) over random heat histories

@st.composite
def histories(draw: st.DrawFn, max_heats: int = 5, max_score: int = 60) -> list[HeatGame]:
    """Heats 1..H; in each a random group of players at tables of 3 and 4, distinct positive scores."""
    games = []
    for heat in range(1, draw(st.integers(1, max_heats)) + 1):
        present = draw(st.permutations(NAMES))[: draw(st.sampled_from([0, 3, 4, 6, 7, 8, 9, 10]))]
        start = 0
        for table, size in enumerate(split_tables(len(present), (3, 4)) if present else (), start=1):
            scores = draw(st.lists(st.integers(1, max_score), min_size=size, max_size=size, unique=True))
            games.append(game(heat, table, *zip(present[start:start + size], scores)))
            start += size
    return games


def _fast(n: int = 60) -> settings:
    return settings(max_examples=n, deadline=None)


@_fast()
@given(histories(), st.permutations(NAMES), st.lists(st.integers(1, 60), min_size=4, max_size=4, unique=True))
def test_goal_1_a_later_game_never_lowers_anyone(games: list[HeatGame], order: list[str], scores: list[int]) -> None:
    before = totals(games)
    later = 1 + max((g.heat for g in games), default=0)
    after = totals([*games, game(later, 1, *zip(order[:4], scores))])
    assert all(after[p] >= before[p] for p in before)


@_fast()
@given(histories())
def test_goal_2_third_or_lower_adds_nothing(games: list[HeatGame]) -> None:
    for record in player_heats(games, Settings()):
        assert all(f.points == 0 for f in record.finishes if f.place >= 3)
        assert all(f.points > 0 for f in record.finishes if f.place <= 2)


@_fast()
@given(histories(), st.data(), st.fractions(min_value=F(1, 100), max_value=100))
def test_goal_3_scaling_one_game_changes_nobody(games: list[HeatGame], data: st.DataObject, c: Fraction) -> None:
    if not games:
        return
    i = data.draw(st.integers(0, len(games) - 1))
    scaled = dataclasses.replace(games[i], seats=tuple(dataclasses.replace(s, score=(s.score or 0) * c)
                                                       for s in games[i].seats))
    s = Settings(ratio_cap=None)
    assert totals(games, s) == totals([*games[:i], scaled, *games[i + 1:]], s)


def test_goal_4_ratios_not_differences() -> None:
    first = dict.fromkeys("ABC", 1)
    p15 = game_points(game(1, 1, ("A", 15), ("B", 10), ("C", 1)), Settings(), first)[0]
    p20 = game_points(game(1, 1, ("A", 20), ("B", 15), ("C", 1)), Settings(), first)[0]
    assert p15 - 1500 == F(3, 2) and p20 - 1500 == F(4, 3) and p15 > p20


@_fast()
@given(st.lists(st.integers(1, 100), min_size=4, max_size=4, unique=True), st.integers(0, 10**6))
def test_goal_5_third_and_fourth_scores_do_not_matter(scores: list[int], other: int) -> None:
    a, b, c, d = sorted(scores, reverse=True)
    first = dict.fromkeys("ABCD", 1)
    base = game_points(game(1, 1, ("A", a), ("B", b), ("C", c), ("D", d)), Settings(), first)
    low = [F(b * (other % 97 + 1), 200), F(b * (other % 89 + 1), 300)]
    moved = game_points(game(1, 1, ("A", a), ("B", b), ("C", max(low)), ("D", min(low) / 2)), Settings(), first)
    assert base == moved


@_fast()
@given(st.integers(1, 100), st.integers(1, 100))
def test_goal_6_and_7_second_and_winner_slopes_and_table_size(a: int, b: int) -> None:
    w, s = max(a, b) + 1, min(a, b)
    first = dict.fromkeys("ABCD", 1)
    four = game_points(game(1, 1, ("A", w), ("B", s), ("C", 0), ("D", 0)), Settings(), first)
    three = game_points(game(1, 1, ("A", w), ("B", s), ("C", 0)), Settings(), first)
    assert four[1] == 100 + 10 * F(s, w) and three[1] == four[1] - 50  # goals 6, 7
    assert three[0] == four[0] == 1500 + min(F(w, s), F(10))  # goals 6, 7




@_fast(80)
@given(histories(max_heats=7, max_score=1000), st.sampled_from(["seed003", "wbc2008"]),
       st.sampled_from(["hmw", "hsw"]), st.booleans())
def test_goal_8_inversions_are_exactly_the_real_ones(games: list[HeatGame], precedence: str, method: str,
                                                     flat: bool) -> None:
    s = Settings(ratio_cap=None, precedence=precedence, method=method)
    if flat:  # wins worth little next to seconds, so that the totals often contradict the precedence
        s = dataclasses.replace(s, heat_first_win=F(15), heat_hsw_first_win=F(40), heat_win=F(10))
    records = player_heats(games, s)
    steps = precedence_steps(s)

    def key(r: PlayerHeats) -> tuple[int, ...]:
        return tuple(k(r) for _, k in steps)

    real = {(x.player, y.player) for x, y in itertools.permutations(records, 2)
            if key(x) > key(y) and x.points <= y.points}
    reported = {(i.above, i.below) for i in qualify(games, s).inversions}
    assert reported == real


@_fast()
@given(histories(), st.sampled_from(["seed003", "wbc2008"]))
def test_goal_8_precedence_ranks_more_wins_higher(games: list[HeatGame], precedence: str) -> None:
    q = qualify(games, Settings(ranking="precedence", precedence=precedence))
    for x, y in itertools.combinations(q.rows, 2):
        assert x.wins >= y.wins
        if x.wins > y.wins:
            assert x.rank < y.rank


@_fast()
@given(histories(max_heats=5, max_score=1000))
def test_goal_8_no_inversion_with_cap_10_and_five_games(games: list[HeatGame]) -> None:
    assert qualify(games, Settings()).inversions == ()


# Settings

def test_heat_settings_parse() -> None:
    s = parse_settings([(2, "method", "HSW"), (3, "ratio_cap", "none"), (4, "table_sizes", "5, 3,4"),
                        (5, "heat_win", "900")])
    assert (s.method, s.ratio_cap, s.table_sizes, s.heat_win) == ("hsw", None, (3, 4, 5), 900)
    with pytest.raises(BadSetting, match=r"^Settings!B2: table_sizes: '6' is not a table size"):
        parse_settings([(2, "table_sizes", "3,6")])
    with pytest.raises(BadSetting, match=r"^Settings!B2: ratio_cap: '1/2' is below 1"):
        parse_settings([(2, "ratio_cap", "1/2")])


# The Heats tab

PLAYERS = tuple(Player(name=n, row=i) for i, n in enumerate(["Ana", "Bo", "Cy", "Dee", "Eve", "Flo", "Gus"], 2))


def book(*rows: tuple[Value, ...], header: tuple[str, ...] = HEADERS[HEATS]) -> Book:
    return Book({"Heats": (header, *rows)})


def test_parse_heats_reads_tables_in_order() -> None:
    games = parse_heats(book((2, 1, "ana", 30, None), (1, 1, "Bo", 9.5, None), (1, 1, "Cy", "7", None),
                             (1, 1, "Dee", 3, ""), (), (2, 1, "Eve", 20, None), (2, 1, "Flo", 10, None),
                             (3, 1, "Ana", None, None), (3, 1, "Bo", None, None), (3, 1, "Gus", None, None)),
                        Settings(), PLAYERS)
    assert [(g.heat, g.table, [s.player for s in g.seats]) for g in games] == [
        (1, 1, ["Bo", "Cy", "Dee"]), (2, 1, ["Ana", "Eve", "Flo"]), (3, 1, ["Ana", "Bo", "Gus"])]
    assert games[0].seats[0].score == F(19, 2) and games[0].seats[1].score_cell == "Heats!D4"
    assert not games[2].has_results


def test_parse_heats_finds_columns_by_header() -> None:
    header = ("Player", "Notes", "Score", "Heat", "Table")
    games = parse_heats(book(("Ana", "x", 3, 1, 1), ("Bo", "", 2, 1, 1), ("Cy", "", 1, 1, 1), header=header),
                        Settings(), PLAYERS)
    assert games[0].seats[0].score_cell == "Heats!C2" and games[0].seats[0].place_cell == ""


@pytest.mark.parametrize(("rows", "message"), [
    ([(1, 1, "Zed", 3)], "Heats!C2: 'Zed' is not in Players"),
    ([(1, 1, "", 3)], "Heats!C2: the player is missing"),
    ([(1, 1, "Ana", 3), (1, 2, "ana", 4)], "Heats!C3: 'Ana' is in heat 1 twice (also row 2)"),
    ([(None, 1, "Ana", 3)], "Heats!A2: the heat number is missing"),
    ([(1, "x", "Ana", 3)], "Heats!B2: Table must be a whole number from 1, not 'x'"),
    ([(1, 1, "Ana", dt.datetime(2024, 1, 2))], "Heats!D2: the spreadsheet turned the score into a date or time"),
    ([(1, 1, "Ana", "lots")], "Heats!D2: the score 'lots' is not a number"),
    ([(1, 1, "Ana", 3), (1, 1, "Bo", 2)],
     "Heats!B2, Heats!B3: heat 1 table 1 has 2 players; table_sizes allows 3 or 4"),
    ([(1, 1, "Ana", 3), (1, 1, "Bo", None), (1, 1, "Cy", 1)], "Heats!D3: heat 1 table 1: the score is missing"),
    ([(1, 1, "Ana", None, 1), (1, 1, "Bo", None), (1, 1, "Cy", None)], "Heats!D2, Heats!D3, Heats!D4: heat 1 "),
    ([(1, 1, "Ana", 3), (1, 1, "Bo", 3), (1, 1, "Cy", 1)], "Heats!D2, Heats!D3: heat 1 table 1: equal scores (3)"),
    ([(1, 1, "Ana", 3, 0), (1, 1, "Bo", 3), (1, 1, "Cy", 1)], "Heats!E2: Place must be a whole number from 1"),
])
def test_parse_heats_errors(rows: list[tuple[Value, ...]], message: str) -> None:
    """What the parser says of rows, then what the rules say of the tables, in one list of problems."""
    with pytest.raises(BadWorkbook) as e, Problems.into(None) as problems:
        games = parse_heats(book(*rows), Settings(), PLAYERS, problems)
        check_tables(games, (), Settings(), problems)
    assert str(e.value).startswith(message)


def test_parse_heats_missing_tab_or_column() -> None:
    with pytest.raises(BadWorkbook, match=r"^Heats: the tab is missing"):
        parse_heats(Book({}), Settings(), PLAYERS)
    with pytest.raises(BadWorkbook, match=r"^Heats!1: no column headed 'Score'"):
        parse_heats(book(header=("Heat", "Table", "Player")), Settings(), PLAYERS)
