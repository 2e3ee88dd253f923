"""Heat methods (RULES.md 5.8-5.9): the heat tiebreak registry, every method's chain and eligibility,
advancement (cap, whole tables, too few, HWO), and WBC_FORMATS.md section 11's worked examples."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import BadSetting
from sheetswiss.heat_methods import (
    HEAT_TIEBREAKS,
    METHODS,
    advancement,
    chain,
    chain_key,
    eligibility,
    find_heat_tiebreak,
)
from sheetswiss.heats import HeatGame, Status, player_heats, qualify
from sheetswiss.seating import split_tables
from sheetswiss.settings import Settings, parse_settings
from tests.test_heats import game
from tests.test_heats_cli import heat_workbook, run

F = Fraction

# WBC_FORMATS.md section 11: twelve players, two heats, four 4-player tables, scores from 11.5.
SECTION_11 = [
    game(1, 1, ("A", 20), ("B", 16), ("C", 10), ("D", 5)),
    game(1, 2, ("E", 25), ("F", 20), ("G", 10), ("H", 5), first_row=6),
    game(2, 3, ("I", 22), ("A", 18), ("C", 10), ("J", 5), first_row=10),
    game(2, 4, ("F", 22), ("K", 18), ("B", 10), ("L", 5), first_row=14),
]


def order(settings_: Settings) -> list[str]:
    return [r.player for r in qualify(SECTION_11, settings_).rows]


def blocks(names: list[str], *groups: str) -> bool:
    """Whether ``names`` is the groups in order, each group's members in any order."""
    i = 0
    for g in groups:
        if set(names[i:i + len(g)]) != set(g):
            return False
        i += len(g)
    return i == len(names)


def test_11_1_legacy_hmw_2008_list_without_a_gm_step() -> None:
    s = Settings(method="hmw", gm_tiebreak=())
    q = qualify(SECTION_11, s)
    names = [r.player for r in q.rows]
    assert blocks(names, "EI", "A", "F", "K", "B", "CG", "DHJL")
    assert q.final and q.qualifiers == 4 and set(q.qualified) == set("AEFI")
    assert q.alternate_order[:2] == ("K", "B")
    assert q.size_rules == ("optimum for 4-player tables: 16", "cap: no more than half of the 12 heat players (6)",
                            "whole tables of 4: one table, so the semifinal is the final")
    by = {r.player: r for r in q.rows}
    assert {by["E"].rank, by["I"].rank} == {1, 2} and by["E"].note == by["I"].note == ""  # split inside the cut


def test_11_2_hmw_p() -> None:
    q = qualify(SECTION_11, Settings(method="hmw-p"))
    names = [r.player for r in q.rows]
    assert blocks(names, "AF", "EI", "B", "K", "C", "G", "DHJL")
    values = {r.player: r.values for r in q.rows}
    assert [values[p][1] for p in "AFEIBKCGD"] == [1100, 1100, 1000, 1000, 110, 100, 20, 10, 1]
    assert q.final and set(q.qualified) == set("AEFI") and q.alternate_order[:2] == ("B", "K")


def test_11_3_hmw_t() -> None:
    q = qualify(SECTION_11, Settings(method="hmw-t"))
    assert q.eligibility == "players who won or finished 2nd at least once"
    assert {r.player for r in q.rows if r.eligible} == set("AEFIBK")
    assert q.final and q.qualifiers == 4 and set(q.qualified) == set("AEFI")
    assert blocks(list(q.qualified), "EI", "A", "F")
    assert q.alternate_order == ("K", "B")  # the two runners-up left out
    assert all(r.status is Status.OUT for r in q.rows if not r.eligible)


def test_11_4_hwo() -> None:
    q = qualify(SECTION_11, Settings(method="hwo"))
    assert set(q.qualified) == set("AEFI") and q.final and q.alternate_order == ()
    assert q.size_rules == ("HWO: every winner and only winners (4)",
                            "4 winners, no more than a final table of 4: straight to the final")
    assert all(r.status is Status.OUT for r in q.rows if r.player in "BK")


def test_11_5_latto_points() -> None:
    q = qualify(SECTION_11, Settings())
    assert [r.player for r in q.rows][:6] == list("AEIFKB")
    pts = {r.player: round(float(r.points), 2) for r in q.rows}
    assert (pts["E"], pts["I"], pts["A"], pts["F"], pts["B"], pts["K"]) == (1501.25, 1501.22, 1609.43, 1109.22,
                                                                            108.0, 108.18)


# The registry

def test_every_registered_tiebreak_has_a_sourced_docstring() -> None:
    assert list(HEAT_TIEBREAKS) == ["wins", "win_1st", "win_2nd", "win_3rd", "win_4th", "place_points",
                                    "average_finish", "seconds", "best_share", "margin", "latto", "dice"]
    for tb in HEAT_TIEBREAKS.values():
        assert tb.fn.__doc__ and ("RULES.md" in tb.fn.__doc__ or "seed 003" in tb.fn.__doc__), tb.name


def test_tiebreak_values_on_section_11() -> None:
    rec = {r.player: r for r in player_heats(SECTION_11, Settings())}
    s = Settings()

    def v(name: str, p: str) -> Fraction:
        return HEAT_TIEBREAKS[name].fn(rec[p], s)

    assert (v("wins", "A"), v("win_1st", "F"), v("win_2nd", "F"), v("win_1st", "I")) == (1, 0, 1, 1)
    assert v("average_finish", "B") == F(-5, 2) and v("seconds", "A") == 1
    assert v("best_share", "A") == F(18, 22) and v("best_share", "E") == 0
    assert v("margin", "E") == 5 and v("margin", "A") == 4 and v("margin", "B") == 0
    assert v("place_points", "A") == 1100 and v("dice", "A") == HEAT_TIEBREAKS["dice"].fn(rec["A"], s)


def test_spellings_and_unknown_names() -> None:
    assert find_heat_tiebreak("Win in second heat entered") == "win_2nd"
    assert find_heat_tiebreak(" Margin of victory ") == "margin"
    with pytest.raises(BadSetting, match=r"^Settings!B2: gm_tiebreak: unknown heat tiebreak 'blowout'; known: wins"):
        parse_settings([(2, "gm_tiebreak", "margin, blowout")])
    s = parse_settings([(2, "method", "HMW-P"), (3, "gm_tiebreak", "margin, best_share"), (4, "semifinal", "12")])
    assert (s.method, s.gm_tiebreak, s.semifinal) == ("hmw-p", ("margin", "best_share"), 12)
    assert parse_settings([(2, "gm_tiebreak", "None")]).gm_tiebreak == ()


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({}, ("latto",)),
    ({"ranking": "precedence"}, ("wins", "win_1st", "latto")),
    ({"ranking": "precedence", "method": "hsw"}, ("win_1st", "wins", "latto")),
    ({"ranking": "precedence", "precedence": "wbc2008"},
     ("wins", "win_1st", "win_2nd", "win_3rd", "win_4th", "latto", "average_finish", "dice")),
    ({"gm_tiebreak": ()}, ("wins", "win_1st", "win_2nd", "win_3rd", "win_4th", "average_finish", "dice")),
    ({"method": "hmw-p"}, ("wins", "place_points", "dice")),
    ({"method": "hmw-p", "gm_tiebreak": ("margin", "seconds")}, ("wins", "place_points", "margin", "seconds",
                                                                 "dice")),
    ({"method": "hmw-t", "gm_tiebreak": ("wins", "best_share")},
     ("wins", "win_1st", "win_2nd", "win_3rd", "win_4th", "best_share", "average_finish", "dice")),
])
def test_chains(kwargs: dict[str, object], expected: tuple[str, ...]) -> None:
    assert chain(Settings(**kwargs)) == expected  # type: ignore[arg-type]


def test_eligibility_follows_the_method() -> None:
    assert eligibility(Settings()) == "scored" and eligibility(Settings(gm_tiebreak=())) == "any"
    assert eligibility(Settings(method="hmw-p", gm_tiebreak=("latto",))) == "any"
    assert eligibility(Settings(method="hmw-t", gm_tiebreak=("latto",))) == "placed"
    assert eligibility(Settings(method="hwo")) == "winners"


def test_every_method_has_a_source_and_known_steps() -> None:
    for m in METHODS.values():
        assert m.source and all(s == "gm" or s in HEAT_TIEBREAKS for s in m.steps)


# Advancement (RULES.md 5.9)

@pytest.mark.parametrize(("players", "eligible", "kwargs", "seats", "final", "last_rule"), [
    (17, 17, {}, 8, False, "whole tables of 4: 8 seats, 2 tables"),  # the 17-player event that qualified 12
    (60, 40, {}, 16, False, "whole tables of 4: 16 seats, 4 tables"),
    (60, 40, {"table_sizes": (3, 4, 5)}, 25, False, "whole tables of 5: 25 seats, 5 tables"),
    (60, 40, {"semifinal": 12}, 12, False, "whole tables of 4: 12 seats, 3 tables"),
    (40, 14, {"method": "hmw-t"}, 12, False, "whole tables of 4: 12 seats, 3 tables"),  # ET25: 9 + 5 -> 12
    (6, 3, {}, 3, True, "too few for a table of 4: the final is played by 3"),
    (10, 10, {}, 4, True, "whole tables of 4: one table, so the semifinal is the final"),
    (20, 12, {"method": "hwo"}, 10, False, "cap: no more than half of the 20 heat players (10)"),
    (60, 5, {"method": "hwo", "final_size": 6}, 5, True,
     "5 winners, no more than a final table of 6: straight to the final"),
    (20, 5, {"method": "hwo"}, 4, True, "4 winners, no more than a final table of 4: straight to the final"),
    (17, 17, {"qualifiers": 12}, 12, False, "note: the BPA allows no more than half of the 17 heat players (8); "
     "clear qualifiers to apply semifinal and the cap"),
])
def test_advancement(players: int, eligible: int, kwargs: dict[str, object], seats: int, final: bool,
                     last_rule: str) -> None:
    a = advancement(players, eligible, Settings(**kwargs))  # type: ignore[arg-type]
    assert (a.seats, a.final, a.rules[-1]) == (seats, final, last_rule)


def test_seventeen_players_qualify_eight_and_the_output_says_why() -> None:
    names = [f"P{i:02d}" for i in range(17)]
    games, start = [], 0
    for t, size in enumerate(split_tables(17, (3, 4)), start=1):
        seats = names[start:start + size]
        games.append(game(1, t, *((p, 50 - i) for i, p in enumerate(seats))))
        start += size
    for t, size in enumerate(split_tables(17, (3, 4)), start=1):  # a second heat, rotated
        seats = (names[5:] + names[:5])[sum(split_tables(17, (3, 4))[:t - 1]):][:size]
        games.append(game(2, t, *((p, 40 - i) for i, p in enumerate(seats))))
    q = qualify(games, Settings())
    assert q.qualifiers == 8 and len(q.qualified) <= 8 and not q.final
    assert "cap: no more than half of the 17 heat players (8)" in q.size_rules


# Property tests (RULES.md 5.12)

NAMES = tuple("ABCDEFGHIJKLMN")


@st.composite
def histories(draw: st.DrawFn, max_heats: int = 4) -> list[HeatGame]:
    """Heats 1..H; in each a random group at tables of 3 and 4 with distinct scores."""
    games = []
    for heat in range(1, draw(st.integers(1, max_heats)) + 1):
        present = draw(st.permutations(NAMES))[: draw(st.sampled_from([3, 4, 6, 7, 8, 9, 10, 11, 12, 14]))]
        start = 0
        for table, size in enumerate(split_tables(len(present), (3, 4)), start=1):
            scores = draw(st.lists(st.integers(1, 60), min_size=size, max_size=size, unique=True))
            games.append(game(heat, table, *zip(present[start:start + size], scores)))
            start += size
    return games


METHOD_SETTINGS = [Settings(), Settings(method="hmw", gm_tiebreak=()), Settings(method="hmw-p"),
                   Settings(method="hmw-t"), Settings(method="hwo"), Settings(method="hsw", gm_tiebreak=("margin",)),
                   Settings(method="hmw-p", semifinal=8), Settings(method="hmw-t", final_size=3, table_sizes=(3, 4))]


@settings(max_examples=60, deadline=None)
@given(histories(), st.sampled_from(METHOD_SETTINGS))
def test_the_cap_is_never_exceeded(games: list[HeatGame], s: Settings) -> None:
    q = qualify(games, s)
    assert len(q.qualified) <= q.qualifiers <= q.players // 2
    assert all(r.eligible for r in q.rows if r.status is not Status.OUT)


@settings(max_examples=60, deadline=None)
@given(histories())
def test_under_hwo_only_winners_advance(games: list[HeatGame]) -> None:
    q = qualify(games, Settings(method="hwo"))
    winners = {r.player for r in q.rows if r.wins}
    assert set(q.qualified) | set(q.alternate_order) <= winners
    if len(winners) <= q.players // 2:  # every winner advances, or (a field no tables seat) waits as alternate
        advancing = {r.player for r in q.rows if r.status in (Status.QUALIFIED, Status.TIED, Status.ALTERNATE)}
        assert advancing == winners
        if len(winners) != 5:  # tables of 3 and 4 seat any other number of winners
            assert {r.player for r in q.rows if r.status in (Status.QUALIFIED, Status.TIED)} == winners


@settings(max_examples=60, deadline=None)
@given(histories(max_heats=3), st.permutations(NAMES), st.lists(st.integers(1, 60), min_size=4, max_size=4,
                                                                 unique=True))
def test_a_later_game_never_lowers_a_rank_under_hmw_p(games: list[HeatGame], seated: list[str],
                                                     scores: list[int]) -> None:
    """Adding a game in a later heat never lowers the player's own values, so nobody who sat out that game
    and was below the player passes them."""
    s = Settings(method="hmw-p")
    steps = chain(s)
    table = seated[:4]
    later = game(1 + max(g.heat for g in games), 1, *zip(table, scores))
    before = {r.player: chain_key(r, steps, s) for r in player_heats(games, s)}
    after = {r.player: chain_key(r, steps, s) for r in player_heats([*games, later], s)}
    for x in table:
        if x not in before:
            continue
        assert after[x][:-1] >= before[x][:-1]
        for y in before:
            if y not in table and before[x] > before[y]:
                assert after[x] > after[y]


def test_qualify_is_deterministic_and_the_dice_across_a_cut_is_named() -> None:
    s = Settings(method="hmw-p", seed=11, semifinal=2, final_size=2, table_sizes=(2, 3, 4))
    q = qualify(SECTION_11, s)
    assert q == qualify(SECTION_11, dataclasses.replace(s))
    by = {r.player: r for r in q.rows}
    assert by["A"].status is by["F"].status is Status.QUALIFIED and q.final
    assert {by["E"].status_text, by["I"].status_text} == {"alternate 1", "alternate 2"}
    assert "until the dice roll (dice, seed 11), which decided places 3-4" in by["E"].note
    assert [r.rank for r in q.rows] == list(range(1, 13))


def test_a_17_player_workbook_qualifies_8_and_the_tab_says_why(tmp_path: Path) -> None:
    names = [f"P{i:02d}" for i in range(17)]
    path = heat_workbook(tmp_path, names, method="HMW-P")
    backend = ExcelBackend(path)
    for heat in (1, 2):
        assert run("seat", str(path), "--heat", str(heat))[0] == 0
        rows = backend.read().rows("Heats")
        backend.fill_cells("Heats", {f"D{r}": 10 + r for r, row in enumerate(rows[1:], start=2) if row[0] == heat})
    code, out, err = run("qualify", str(path))
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "Qualifiers (HMW-P, ranked by wins, place_points, dice) from 10 finished games",
        "8 qualify for the semifinal: optimum for 4-player tables: 16; cap: no more than half of the 17 heat "
        "players (8); whole tables of 4: 8 seats, 2 tables"]
    wb = openpyxl.load_workbook(path)
    tab = [row for row in wb["Qualifiers"].iter_rows(values_only=True)]
    assert tab[1][:10] == ("Rank", "Player", "Heats", "Wins", "Won 1st heat", "Seconds", "Points", "Status",
                           "Place points", "Note")
    assert sum(row[7] == "qualified" for row in tab[2:]) == 8
    assert ("8 qualify for the semifinal: optimum for 4-player tables: 16; cap: no more than half of the 17 heat "
            "players (8); whole tables of 4: 8 seats, 2 tables") in [row[0] for row in tab]
    assert "HMW-P, ranked by wins, place_points, dice" in str(tab[0][0])
