"""The tiebreak registry against RULES.md section 4's worked examples, seed 000's published figures,
and properties that hold for every event."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.errors import UnknownName
from sheetswiss.model import Event, Player
from sheetswiss.results import Result
from sheetswiss.settings import Settings
from sheetswiss.standings import compute_standings, standing_ranks
from sheetswiss.tiebreaks import TIEBREAKS, Context, Kind, chain, default_chain, find_tiebreak, split_by

from .helpers import make_event

F = Fraction
Row = tuple[int, str, str | None, str]


def fillers(player: str, results: dict[int, str]) -> list[Row]:
    """``player``'s games against one-game fillers named after the player and round."""
    return [(r, player, f"{player}~{r}", res) for r, res in results.items()]


def names_in(rows: Sequence[Row], *special: Player) -> list[str | Player]:
    taken = {p.name for p in special}
    found = sorted({n for _, a, b, _ in rows for n in (a, b) if n is not None and n not in taken})
    return [*found, *special]


def value(event: Event, name: str, player: str) -> Fraction:
    fn = TIEBREAKS[name].value
    assert fn is not None
    return fn(Context.of(event), player, None)


# RULES.md 4.2: P beat A, forfeit win over X, lost to B, PAB, drew C. A, B, C end on 2, 4, 3;
# X won round 1, lost round 2 by forfeit, then withdrew.
RULES_4_2 = [
    (1, "P", "A", "1-0"), (2, "P", "X", "+/-"), (3, "P", "B", "0-1"), (4, "P", None, "bye"), (5, "P", "C", "1/2"),
    *fillers("A", {2: "1-0", 3: "1-0", 4: "0-1", 5: "0-1"}),
    *fillers("B", {1: "1-0", 2: "1-0", 4: "1-0", 5: "0-1"}),
    *fillers("C", {1: "1-0", 2: "1-0", 3: "1/2", 4: "0-1"}),
    *fillers("X", {1: "1-0"}),
]
X_WITHDRAWN = Player(name="X", dropped=True, dropped_after=2)


def rules_4_2(unplayed: str, **options: object) -> Event:
    return make_event(names_in(RULES_4_2, X_WITHDRAWN), RULES_4_2, points="chess", unplayed=unplayed, **options)


@pytest.mark.parametrize(("unplayed", "bh", "cut1", "sb"), [
    ("points", 10, 9, F(9, 2)),
    ("fide2009", 14, 12, F(17, 2)),
    ("fide2023", 16, 14, F(21, 2)),
    ("fide2026", 14, 12, F(17, 2)),
])
def test_rules_4_2_table(unplayed: str, bh: int, cut1: int, sb: Fraction) -> None:
    event = rules_4_2(unplayed)
    assert value(event, "buchholz", "P") == bh
    assert value(event, "buchholz_cut1", "P") == cut1
    assert value(event, "sonneborn_berger", "P") == sb


@pytest.mark.parametrize(("unplayed", "x_as_opponent"), [
    ("points", 1), ("fide2009", 3), ("fide2023", F(5, 2)), ("fide2026", F(5, 2))])
def test_rules_4_2_withdrawn_opponent_scores(unplayed: str, x_as_opponent: Fraction) -> None:
    ctx = Context.of(rules_4_2(unplayed))
    assert ctx.points(ctx.score["X"]) == 1
    assert ctx.points(ctx.opponent_score["X"]) == x_as_opponent     # S, S09, S23


def test_fide2009_virtual_opponent_examples() -> None:
    # FIDE's 2009 example in RULES.md 4.2: 9 rounds, forfeit win in round 3 on 2 points -> 2 + 0 + 0.5 x 6 = 5;
    # absent in round 7 on 4 points -> 4 + 1 + 0.5 x 2 = 6.
    rows = [*fillers("V", {1: "1-0", 2: "1-0", 4: "1-0", 5: "0-1", 6: "0-1", 8: "0-1", 9: "0-1"}),
            (3, "V", "W", "+/-"), (7, "V", None, "zero bye")]
    ctx = Context.of(make_event(names_in(rows), rows, points="chess", unplayed="fide2009"))
    unplayed = {c.record.round: ctx.points(c.value) for c in ctx.contributions["V"]
                if c.record.kind.name != "GAME"}
    assert unplayed == {3: 5, 7: 6}


# RULES.md 4.2's Q: a requested half bye in round 1 (followed by games), then opponents on 1.5, 2, 3, 3.5.
RULES_4_2_Q = [
    (1, "Q", None, "half bye"), (2, "Q", "O1", "1-0"), (3, "Q", "O2", "0-1"), (4, "Q", "O3", "1/2"),
    (5, "Q", "O4", "1/2"),
    *fillers("O1", {1: "1-0", 3: "1/2", 4: "0-1", 5: "0-1"}),
    *fillers("O2", {1: "1-0", 2: "0-1", 4: "0-1", 5: "0-1"}),
    *fillers("O3", {1: "1-0", 2: "1-0", 3: "1/2", 5: "0-1"}),
    *fillers("O4", {1: "1-0", 2: "1-0", 3: "1-0", 4: "0-1"}),
]


@pytest.mark.parametrize(("unplayed", "bh", "cut1"), [
    ("fide2023", F(25, 2), 10),         # the VUR (the half bye's dummy, 2.5) is cut first
    ("fide2026", F(25, 2), 10),         # dummy min(2.5, 0.5 x 5) = 2.5, cut first
    ("fide2009", F(25, 2), 11),         # virtual opponent 0 + 0.5 + 0.5 x 4 = 2.5; no VUR rule: 1.5 is cut
    ("points", 10, F(17, 2)),           # the bye contributes nothing
])
def test_rules_4_2_vur_cut(unplayed: str, bh: Fraction, cut1: Fraction) -> None:
    event = make_event(names_in(RULES_4_2_Q), RULES_4_2_Q, points="chess", unplayed=unplayed)
    assert Context.of(event).points(Context.of(event).score["Q"]) == F(5, 2)
    assert value(event, "buchholz", "Q") == bh
    assert value(event, "buchholz_cut1", "Q") == cut1


def cut(values: Sequence[int], lowest: int = 0, highest: int = 0, vur: Sequence[bool] = ()) -> list[int]:
    """Positions a cut removes from one player's contributions, as RULES.md states it: the reference the Buchholz
    family's cuts over the whole field (:func:`sheetswiss.tiebreaks.fide._cut_order`) are checked against. The
    ``lowest`` least values, then the ``highest`` greatest.

    RULES.md 4.3 and 4.2 (FIDE C.07 Art. 14 and 16.5): while the player has VURs (``vur``: one flag
    per value, or none), a low cut removes the least VUR value instead; high cuts are unaffected.
    Fewer values than cuts removes them all (the value is 0). Ties go to the earlier round.
    """
    if lowest == 1 and not highest and not any(vur):  # Cut-1, the usual case: the first least value
        return [values.index(min(values))] if values else []
    order = sorted(range(len(values)), key=values.__getitem__)  # stable: equal values keep round order
    vurs = [i for i in order if vur[i]] if any(vur) else []  # the VURs, least value first
    removed: list[int] = []
    for _ in range(min(lowest, len(order))):
        pick = vurs.pop(0) if vurs else order[0]
        order.remove(pick)
        removed.append(pick)
    for _ in range(min(highest, len(order))):
        removed.append(order.pop())
    return removed


def kept(values: list[int], lowest: int = 0, highest: int = 0) -> int:
    """The sum a cut leaves."""
    return sum(v for i, v in enumerate(values) if i not in cut(values, lowest, highest))


def test_cut_rules_4_3_example() -> None:
    halves = [6, 5, 2]                                   # contributions 3, 2.5, 1
    assert (kept(halves), kept(halves, 1), kept(halves, 2), kept(halves, 1, 1)) == (13, 11, 6, 5)  # 6.5 5.5 3 2.5
    assert cut([4], lowest=1, highest=1) == [0]          # fewer contributions than cuts: value 0
    assert cut([], lowest=2) == []


def test_cut_examples() -> None:
    assert cut([3, 5, 1], lowest=1, highest=1) == [2, 1]  # Median-Buchholz of 3, 2.5, 1 (in halves)
    assert cut([3, 4, 6, 7, 5], lowest=1, vur=[False, False, False, False, True]) == [4]  # RULES.md 4.2's Q


def test_vur_cut_removes_lowest_vur_each_time() -> None:
    assert cut([1, 9, 8, 2], lowest=2, vur=[False, True, True, False]) == [2, 1]
    assert cut([1, 9, 8, 2], lowest=2, vur=[False, True, False, False]) == [1, 0]


@given(st.lists(st.integers(0, 40), max_size=11), st.integers(0, 3), st.integers(0, 2))
@settings(max_examples=80)
def test_cuts_never_raise_the_sum(values: list[int], low: int, high: int) -> None:
    assert kept(values, low + 1, high) <= kept(values, low, high) >= kept(values, low, high + 1)
    assert len(cut(values, low, high)) == min(len(values), low + high)


def test_rules_4_4_sodos() -> None:
    # Armati 2/1/0: S beats opponents who end on 4 and 3, draws one on 5, loses to one on 6.
    rows = [(1, "S", "O1", "1-0"), (2, "S", "O2", "1-0"), (3, "S", "O3", "1/2"), (4, "S", "O4", "0-1"),
            *fillers("O1", {2: "1-0", 3: "1-0", 4: "0-1"}), *fillers("O2", {1: "1-0", 3: "1/2", 4: "0-1"}),
            *fillers("O3", {1: "1-0", 2: "1-0", 4: "0-1"}), *fillers("O4", {1: "1-0", 2: "1-0", 3: "0-1"})]
    event = make_event(names_in(rows), rows)
    assert [Context.of(event).points(Context.of(event).score[o]) for o in ("O1", "O2", "O3", "O4")] == [4, 3, 5, 6]
    assert value(event, "sodos", "S") == 7
    assert value(replace(event, settings=replace(event.settings, sodos_draws="half")), "sodos", "S") == F(19, 2)


def test_sodos_ignores_forfeit_wins() -> None:
    assert value(rules_4_2("points"), "sodos", "P") == 2        # only the game won over A (2 points)


def test_rules_4_5_progress() -> None:
    assert value(rules_4_2("points"), "progress", "P") == F(23, 2)      # 1 + 2 + 2 + 3 + 3.5
    # X: 1, then a forfeit loss and three rounds after the drop: the frozen total is added, or not
    assert value(rules_4_2("points"), "progress", "X") == 5
    assert value(rules_4_2("points", progress_after_drop="stop"), "progress", "X") == 2


def test_own_record_counts() -> None:
    event = rules_4_2("points")
    assert value(event, "wins", "P") == 3            # game, forfeit win, PAB
    assert value(event, "wins_otb", "P") == 1
    assert value(event, "black_games", "A") == 1      # A was Player B against P
    assert value(event, "black_wins", "P") == 0
    half_pab = rules_4_2("points", bye_points=F(1, 2))
    assert value(half_pab, "wins", "P") == 2          # a PAB worth a draw is not a win
    assert value(half_pab, "sonneborn_berger", "P") == F(9, 2)


# RULES.md 4.8: P has a bye, beats A 2-0, loses to B 1-2, beats C 2-1. A ends 1-3 and drops,
# B 4-0, C 2-2 with a bye.
RULES_4_8 = [
    (1, "P", None, "bye"), (2, "P", "A", "2-0"), (3, "P", "B", "1-2"), (4, "P", "C", "2-1"),
    *fillers("A", {1: "2-0", 3: "0-2", 4: "0-2"}),
    *fillers("B", {1: "2-0", 2: "2-0", 4: "2-0"}),
    (1, "C", None, "bye"), *fillers("C", {2: "2-0", 3: "0-2"}),
]


def rules_4_8(**options: object) -> Event:
    return make_event(names_in(RULES_4_8, Player(name="A", dropped=True, dropped_after=4)), RULES_4_8, points="magic",
                 **options)


@pytest.mark.parametrize(("options", "omw", "gwp"), [
    ({"mtr_floor": "0.33"}, "61.0000", "70.0000"),
    ({"mtr_floor": "1/3"}, "61.1111", "70.0000"),
    ({"mtr_floor": "0.33", "magic_byes": "exclude"}, "55.4444", "62.5000"),
])
def test_rules_4_8_magic(options: dict[str, str], omw: str, gwp: str) -> None:
    event = rules_4_8(**options)
    assert TIEBREAKS["omw"].text(value(event, "omw", "P")) == omw
    assert TIEBREAKS["gwp"].text(value(event, "gwp", "P")) == gwp


def test_mtr_match_win_examples() -> None:
    # MTR: 3-2-0 including a first-round bye, then withdraws: 9/15; 1-3-0: 1/4, raised to the floor.
    rows = [(1, "M", None, "bye"), *fillers("M", {2: "2-0", 3: "2-0", 4: "0-2", 5: "0-2"}),
            *fillers("N", {1: "2-0", 2: "0-2", 3: "0-2", 4: "0-2"})]
    event = make_event(names_in(rows), rows, points="magic")
    assert value(event, "mwp", "M") == F(3, 5)
    assert value(event, "mwp", "N") == F(1, 3)


@pytest.mark.parametrize(("byes", "before", "after"), [("exclude", F(3, 4), F(13, 16)), ("mtr", F(11, 14), F(13, 16))])
def test_seed_002_game_win_example(byes: str, before: Fraction, after: Fraction) -> None:
    # Seed 002: bye, three 2-0 wins, a 1-2 loss, a 2-1 win: 27/36 = 75% leaving the bye out (the seed),
    # 33/42 under the MTR; two more sweeps (exclude) or one (mtr) reach 39/48 = 81.25%.
    played = {2: "2-0", 3: "2-0", 4: "2-0", 5: "1-2", 6: "2-1"}
    more = {7: "2-0", 8: "2-0"} if byes == "exclude" else {7: "2-0"}
    for results, expected in ((played, before), ({**played, **more}, after)):
        rows = [(1, "G", None, "bye"), *fillers("G", results)]
        assert value(make_event(names_in(rows), rows, points="magic", magic_byes=byes), "gwp", "G") == expected


# Seed 000, HCT Europe Winter 2017: each 5-2 player's opponents, listed last round first (RULES.md 4.10),
# with the player's game score and the opponent's final record. The seed spells Anakth "Anatkh" once.
SEED_000: dict[str, list[tuple[str, str, tuple[int, int]]]] = {
    "Neirea": [("sjow", "2-3", (6, 1)), ("Shtanudachi", "1-3", (6, 1)), ("GreenSheep", "3-2", (5, 2)),
               ("Anakth", "3-0", (6, 1)), ("Grayj", "3-2", (4, 3)), ("Juristis", "3-2", (4, 3)),
               ("BoarControl", "3-1", (5, 2))],
    "GreenSheep": [("SomiTequila", "3-0", (4, 3)), ("Anakth", "2-3", (6, 1)), ("Neirea", "2-3", (5, 2)),
                   ("Farm4fame", "3-0", (5, 2)), ("noSalvati0n", "3-2", (4, 3)), ("Kalàxz", "3-0", (4, 3)),
                   ("Dizdemon", "3-2", (5, 2))],
    "Twink": [("Pavel", "2-3", (6, 1)), ("Kycoo", "3-1", (4, 3)), ("CelticGuard", "3-1", (3, 4)),
              ("Shtanudachi", "1-3", (6, 1)), ("Weghuz", "3-2", (5, 2)), ("tholwmenos", "3-1", (5, 2)),
              ("TonyBanger", "3-2", (4, 3))],
    "M1SA": [("Tyler", "3-1", (4, 3)), ("Juristis", "3-1", (4, 3)), ("sjow", "1-3", (6, 1)),
             ("pokrovac", "2-3", (7, 0)), ("erikbeck", "3-1", (3, 4)), ("FibEli3", "3-0", (4, 3)),
             ("Bunnyhoppor", "3-2", (4, 3))],
    "Farm4fame": [("Anakth", "2-3", (6, 1)), ("Powder", "3-1", (4, 3)), ("Lifecoach", "3-2", (5, 2)),
                  ("GreenSheep", "0-3", (5, 2)), ("ikealyou", "3-0", (5, 2)), ("Un33D", "3-2", (1, 3)),
                  ("Xzirez", "3-0", (1, 3))],
}
FIVE = list(SEED_000)


def seed_000_event(**options: object) -> Event:
    """The five players' seven rounds; every other player's remaining rounds against one-game fillers."""
    rows: list[Row] = []
    fixed: dict[str, dict[int, str]] = {}
    records: dict[str, tuple[int, int]] = {}
    for player, lines in SEED_000.items():
        for i, (opponent, score, record) in enumerate(lines):
            r = 7 - i
            g, h = map(int, score.split("-"))
            if opponent in SEED_000:
                if opponent not in {a for rr, a, _, _ in rows if rr == r}:
                    rows.append((r, player, opponent, score))
                continue
            fixed.setdefault(opponent, {})[r] = "L" if g > h else "W"
            records[opponent] = record
            rows.append((r, player, opponent, score))
    dropped = []
    for opponent, (wins, losses) in records.items():
        free = [r for r in range(1, wins + losses + 1) if r not in fixed[opponent]]
        outcomes = ["2-0"] * (wins - list(fixed[opponent].values()).count("W")) + ["0-2"] * (
            losses - list(fixed[opponent].values()).count("L"))
        assert len(outcomes) == len(free), opponent
        rows += fillers(opponent, dict(zip(free, outcomes)))
        if wins + losses < 7:
            dropped.append(Player(name=opponent, dropped=True, dropped_after=wins + losses))
    return make_event(names_in(rows, *dropped), rows, points="hct", **options)


@pytest.mark.parametrize("floor", ["-3", "-2", "none"])
def test_seed_000_t1_and_t3(floor: str) -> None:
    event = seed_000_event(hct_floor=floor)
    ctx = Context.of(event)
    assert [ctx.hct_records[p] for p in FIVE] == [3] * 5                              # all five are 5-2
    assert [ctx.values("hct_t1")[p] for p in FIVE] == [23, 17, 17, 15, 11]          # published T1
    assert [ctx.values("hct_t3")[p] for p in FIVE] == [85, 61, 65, 41, 65]          # published T3


def test_seed_000_percentages() -> None:
    event = seed_000_event()
    ctx = Context.of(event)
    # The seed's "opponents' match-win percentage" is pooled: opponents' wins over 7 x 7 rounds, no floor.
    pooled = [F(sum(SEED_000[p][i][2][0] for i in range(7)), 49) for p in FIVE]
    assert [round(float(v) * 100, 1) for v in pooled] == [73.5, 67.3, 67.3, 65.3, 55.1]
    gw = [round(float(ctx.values("gwp")[p]) * 100, 1) for p in FIVE]
    assert gw == [58.1, 65.5, 58.1, 62.1, 60.7]                                       # published GW%
    # The MTR mean of floored per-opponent percentages agrees except for Farm4fame, whose two
    # opponents stopped at 1-3 (1/4 -> the floor): 60.4490% (0.33) or 60.5442% (1/3), not 55.1%.
    omw_033 = [TIEBREAKS["omw"].text(v) for v in
               map(Context.of(seed_000_event(mtr_floor="0.33")).values("omw").__getitem__, FIVE)]
    assert omw_033 == ["73.4694", "67.3469", "67.3469", "65.3061", "60.4490"]
    assert TIEBREAKS["omw"].text(ctx.values("omw")["Farm4fame"]) == "60.5442"


def test_seed_000_magic_chain_puts_greensheep_above_twink() -> None:
    rows = compute_standings(seed_000_event(tiebreaks=("omw", "gwp", "ogw"))).rows
    order = [r.player for r in rows if r.player in FIVE]
    assert order.index("GreenSheep") < order.index("Twink")
    assert order[0] == "Neirea"


def test_registry_order_is_rules_section_9() -> None:
    assert list(TIEBREAKS) == [
        "buchholz", "buchholz_cut1", "buchholz_cut2", "median_buchholz", "sonneborn_berger", "sodos", "progress",
        "direct_encounter", "wins", "wins_otb", "black_games", "black_wins", "mwp", "omw", "gwp", "ogw", "oomw",
        "hct_t1", "hct_t2", "hct_t3", "random", "cobra_sos", "cobra_esos", "total_score", "margin", "average_margin",
        "opponents_score", "goal_average"]


@pytest.mark.parametrize(("spelling", "name"), [
    ("SOS", "buchholz"), (" bh ", "buchholz"), ("Buchholz Cut 1", "buchholz_cut1"), ("Med-Buchholz", "median_buchholz"),
    ("Sonneborn-Berger", "sonneborn_berger"), ("SB", "sonneborn_berger"), ("OMW%", "omw"), ("T1", "hct_t1"),
    ("head-to-head", "direct_encounter"), ("RANDOM", "random")])
def test_find_tiebreak_spellings(spelling: str, name: str) -> None:
    assert find_tiebreak(spelling) == name


def test_unknown_tiebreak_lists_the_known_ones() -> None:
    with pytest.raises(UnknownName) as err:
        find_tiebreak("koya")
    message = str(err.value)
    assert message.startswith("unknown tiebreak 'koya'; known: buchholz, ")
    assert all(name in message for name in TIEBREAKS)
    with pytest.raises(UnknownName):
        chain(Settings(tiebreaks=("omw", "koya")))


def test_default_chains_rules_4_1() -> None:
    assert default_chain(Settings(points="chess")) == (
        "buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins")
    assert default_chain(Settings(points="armati")) == ("sodos", "median_buchholz", "buchholz", "random")
    assert default_chain(Settings(points="hct")) == ("hct_t1", "hct_t2", "hct_t3")
    assert default_chain(Settings(points="game12")) == ("omw", "ogw")
    assert chain(Settings(points="magic")) == ("omw", "gwp", "ogw")
    assert chain(Settings(points="magic", tiebreaks=("SB", "sonneborn-berger", "wins"))) == (
        "sonneborn_berger", "wins")


def test_display() -> None:
    assert TIEBREAKS["omw"].text(F(1, 3)) == "33.3333" and TIEBREAKS["omw"].text(F(1)) == "100.0000"
    assert TIEBREAKS["gwp"].text(F(1, 8)) == "12.5000"
    assert TIEBREAKS["omw"].rounded(F(123456785, 10**9)) == F(123457, 10000)     # 12.3456785 -> half-up
    assert TIEBREAKS["buchholz"].text(F(33, 2)) == "16.5" and TIEBREAKS["hct_t1"].text(F(-3)) == "-3"
    assert TIEBREAKS["median_buchholz"].title == "Med-Buchholz" and TIEBREAKS["hct_t1"].kind is Kind.INTEGER


# Random events: 2-9 players, 1-5 rounds, byes of every kind, forfeits, a withdrawal.
GAME_RESULTS = ["1-0", "0-1", "1/2", "2-1", "0-2", "1-1", "+/-", "-/+", "--"]
BYES = ["bye", "half bye", "zero bye"]


@st.composite
def events(draw: st.DrawFn, points: Sequence[str] = ("chess", "armati", "magic", "hct", "game12")) -> Event:
    preset = draw(st.sampled_from(points))
    names = [f"P{i}" for i in range(draw(st.integers(2, 9)))]
    rounds = draw(st.integers(1, 5))
    drop = draw(st.none() | st.integers(1, rounds))
    results = [r for r in GAME_RESULTS if preset != "hct" or r not in ("1/2", "1-1")]
    rows: list[Row] = []
    for r in range(1, rounds + 1):
        present = [n for n in draw(st.permutations(names)) if not (n == "P0" and drop is not None and r > drop)]
        if len(present) % 2 or draw(st.booleans()):
            rows.append((r, present.pop(), None, draw(st.sampled_from(BYES))))
        rows += [(r, a, b, draw(st.sampled_from(results))) for a, b in zip(present[::2], present[1::2])]
    players = [Player(name=n, rating=draw(st.none() | st.integers(1000, 2000)), dropped=n == "P0" and drop is not None,
                      dropped_after=drop if n == "P0" else None) for n in names]
    return make_event(players, rows, points=preset, seed=draw(st.integers(0, 99)),
                 unplayed=draw(st.sampled_from(["points", "fide2009", "fide2023", "fide2026"])),
                 mtr_floor=draw(st.sampled_from(["1/3", "0.33"])), magic_byes=draw(st.sampled_from(["mtr", "exclude"])),
                 hct_floor=draw(st.sampled_from(["-3", "-2", "none"])))


PER_PLAYER = [name for name, entry in TIEBREAKS.items() if entry.value is not None]


@pytest.mark.parametrize("name", list(TIEBREAKS))
def test_every_tiebreak_is_documented_and_finite(name: str) -> None:
    entry = TIEBREAKS[name]
    assert "RULES.md 4." in entry.doc and entry.title
    # every title names its tiebreak, except Cobra's "SoS": the plain word stays Buchholz (RULES.md 4.12)
    assert find_tiebreak(entry.title) == ("buchholz" if name == "cobra_sos" else name)
    for preset in ("chess", "magic", "hct"):
        event = rules_4_2("fide2023") if preset == "chess" else rules_4_8() if preset == "magic" else seed_000_event()
        table = compute_standings(replace(event, settings=replace(event.settings, tiebreaks=(name,))))
        for row in table.rows:
            (v,) = row.values
            assert isinstance(v, Fraction) and math.isfinite(v)
            assert entry.text(v)


def _values(event: Event) -> dict[str, dict[str, Fraction]]:
    ctx = Context.of(event)
    return {name: ctx.values(name) for name in PER_PLAYER if name != "random"}


@given(events(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_values_do_not_depend_on_row_order_or_names(event: Event, rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    games = list(event.games)
    rng.shuffle(games)
    assert _values(replace(event, games=tuple(games))) == _values(event)
    rename = {p.name: f"Z{i}-{p.name}" for i, p in enumerate(reversed(event.players))}
    renamed = replace(event, players=tuple(replace(p, name=rename[p.name]) for p in event.players),
                      games=tuple(replace(g, a=rename[g.a], b=rename[g.b] if g.b else None) for g in event.games))
    after = _values(renamed)
    assert {n: {rename[p]: v for p, v in vs.items()} for n, vs in _values(event).items()} == after


@given(events())
@settings(max_examples=80, deadline=None)
def test_median_buchholz_at_most_buchholz_and_t1_floor(event: Event) -> None:
    ctx = Context.of(event)
    floor = {"-3": -3, "-2": -2, "none": None}[event.settings.hct_floor]
    for x in ctx.players:
        assert ctx.values("median_buchholz")[x] <= ctx.values("buchholz")[x]
        assert ctx.values("buchholz_cut2")[x] <= ctx.values("buchholz_cut1")[x] <= ctx.values("buchholz")[x]
        if floor is not None:
            met = sum(1 for r in ctx.records[x] if r.opponent is not None)
            assert ctx.values("hct_t1")[x] >= met * floor


@given(events(points=("magic", "game12")), st.data())
@settings(max_examples=80, deadline=None)
def test_a_bye_never_changes_omw(event: Event, data: st.DataObject) -> None:
    """Turning a round a player sat out (zero bye) into a PAB: their own OMW never moves (MTR: a player's
    byes are ignored), and with ``magic_byes: exclude`` nobody's does."""
    sat_out = [g for g in event.games if g.b is None and g.result is not None and g.result.kind.name == "ZERO_BYE"]
    if not sat_out:
        return
    target = data.draw(st.sampled_from(sat_out))
    with_bye = replace(event, games=tuple(replace(g, result=Result.parse("bye")) if g is target else g
                                          for g in event.games))
    before, after = Context.of(event).values("omw"), Context.of(with_bye).values("omw")
    assert before[target.a] == after[target.a]
    if event.settings.magic_byes == "exclude":
        assert before == after


BUCHHOLZ_FAMILY = [("buchholz", 0, 0, False), ("buchholz_cut1", 1, 0, False), ("buchholz_cut2", 2, 0, False),
                   ("median_buchholz", 1, 1, False), ("sonneborn_berger", 0, 0, True)]


def _contribution_by_the_rule(ctx: Context, x: str, r: int) -> int | None:
    """c_r(x) read off RULES.md 4.2 record by record, in ``1/unit``; ``None`` when the round adds nothing."""
    rec, n, d = ctx.records[x][r], ctx.rounds, ctx.whole(ctx.scale.draw)

    def as_opponent(y: str) -> int:  # S, S09 or S23
        ps = ctx.round_points[y]
        if ctx.rule == "points":
            return sum(ps)
        if ctx.rule == "fide2009":
            return sum(p if q.kind.name == "GAME" else d for q, p in zip(ctx.records[y], ps))
        last = max((q.round for q in ctx.records[y] if q.opponent is not None or q.kind.name == "PAB"), default=0)
        return sum(ps[:last]) + d * (n - last)

    own = sum(ctx.round_points[x])
    if rec.kind.name == "GAME" and rec.opponent is not None:
        return as_opponent(rec.opponent)
    if ctx.rule == "points":
        return sum(ctx.round_points[rec.opponent]) if rec.opponent is not None else None
    if ctx.rule == "fide2009":
        s = ctx.scale
        w, loss = ctx.whole(s.win), ctx.whole(s.loss)
        p, cls = ctx.round_points[x][r], ctx.classes[x][r]
        mirror = w + loss - p if 2 * d == w + loss else {"W": loss, "D": d, "L": w}[cls]
        return sum(ctx.round_points[x][:r]) + mirror + d * (n - rec.round)
    if ctx.rule == "fide2023":
        return own
    return min(own, as_opponent(rec.opponent) if rec.opponent is not None else d * n)


@given(events())
@settings(max_examples=120, deadline=None)
def test_buchholz_family_over_the_field_is_each_players_cut_sum(event: Event) -> None:
    """The Buchholz family is computed for the whole field at once; player by player it is the sum of the
    contributions RULES.md 4.2 gives round by round, less what :func:`cut` removes (4.3; the VUR rule of
    C.07 16.5 under ``fide2023``/``fide2026``), and the explanation names the rounds cut, in order."""
    ctx = Context.of(event)
    for x in ctx.players:
        expected = [(rec, _contribution_by_the_rule(ctx, x, r)) for r, rec in enumerate(ctx.records[x])]
        cs = ctx.contributions[x]
        assert [(c.record, c.value) for c in cs] == [(rec, v) for rec, v in expected if v is not None]
        for name, lowest, highest, weighted in BUCHHOLZ_FAMILY:
            values = [c.value * c.scored if weighted else c.value for c in cs]
            fide_cut = lowest and ctx.rule in ("fide2023", "fide2026")
            removed = cut(values, lowest, highest, [c.vur for c in cs] if fide_cut else ())
            per = 2 if weighted else 1
            assert ctx.values(name)[x] == F(sum(values) - sum(values[i] for i in removed), ctx.unit * per)
            notes: list[str] = []
            fn = TIEBREAKS[name].value
            assert fn is not None and fn(ctx, x, notes) == ctx.values(name)[x]
            assert [line for line in notes if line.startswith("  cut: ")] == [
                f"  cut: R{cs[i].record.round} ({TIEBREAKS[name].text(F(values[i], ctx.unit * per))})"
                for i in removed]


def _ranks_group_by_group(event: Event) -> dict[str, int]:
    """C.07 Art. 4.2 applied one tied group at a time: by points, then each tiebreak of the chain on each group
    still tied (a group tiebreak splits the group itself); the rank of each player."""
    ctx = Context.of(event)
    groups: list[tuple[str, ...]] = []
    by_points: dict[int, list[str]] = {}
    for x in ctx.players:
        by_points.setdefault(ctx.score[x], []).append(x)
    pending = [(tuple(by_points[s]), 0) for s in sorted(by_points)]  # a stack: best group on top
    names = compute_standings(event).chain
    while pending:
        group, i = pending.pop()
        if len(group) == 1 or i == len(names):
            groups.append(group)
            continue
        entry = TIEBREAKS[names[i]]
        if entry.split is not None:
            parts = entry.split(ctx, group)[0]
        else:
            parts = split_by(group, ctx.values(entry.name), entry.lowest_first)
        pending.extend((part, i + 1) for part in reversed(parts))
    ranks: dict[str, int] = {}
    for group in groups:
        ranks.update(dict.fromkeys(group, len(ranks) + 1))
    return ranks


@given(events(), st.sampled_from([None, ("median_buchholz", "sonneborn_berger", "direct_encounter", "progress"),
                                  ("buchholz_cut2", "wins", "random"), ("direct_encounter", "buchholz")]))
@settings(max_examples=120, deadline=None)
def test_the_field_is_ranked_as_group_by_group(event: Event, chain_: tuple[str, ...] | None) -> None:
    """Standings split every tied group at once, tiebreak by tiebreak; the ranks are those of splitting one
    group at a time, and the pairing's ranks (standing_ranks) are the same."""
    if chain_ is not None:
        event = replace(event, settings=replace(event.settings, tiebreaks=chain_))
    expected = _ranks_group_by_group(event)
    assert {r.player: r.rank for r in compute_standings(event).rows} == expected
    assert standing_ranks(event) == expected


def _magic_by_the_rule(ctx: Context) -> dict[str, dict[str, Fraction]]:
    """MW%, GW% and the opponents' means read off RULES.md 4.8 player by player, with fractions."""
    floor = Fraction(ctx.settings.mtr_floor)
    byes = ctx.settings.magic_byes == "mtr"
    mw: dict[str, Fraction] = {}
    gw: dict[str, Fraction] = {}
    for x, rs in ctx.records.items():
        rounds = [(r, c) for r, c in zip(rs, ctx.classes[x])
                  if r.opponent is not None or (byes and r.kind.name == "PAB")]
        match = sum({"W": 3, "D": 1, "L": 0}[c] for _, c in rounds)
        mw[x] = max(Fraction(match, 3 * len(rounds)), floor) if rounds else Fraction(0)
        won = lost = drawn = 0
        for r, c in rounds:
            w, lo, d = r.games if r.games is not None else (
                {"W": (1, 0, 0), "D": (0, 0, 1), "L": (0, 1, 0)}[c] if r.kind.name == "GAME"
                else {"W": (2, 0, 0), "L": (0, 2, 0)}.get(c, (0, 0, 0)))
            won, lost, drawn = won + w, lost + lo, drawn + d
        gw[x] = max(Fraction(3 * won + drawn, 3 * (won + lost + drawn)), floor) if won + lost + drawn else Fraction(0)

    def mean(of: dict[str, Fraction]) -> dict[str, Fraction]:
        out = {}
        for x, rs in ctx.records.items():
            terms = [of[r.opponent] for r in rs if r.opponent is not None]
            out[x] = sum(terms, Fraction(0)) / len(terms) if terms else Fraction(0)
        return out

    om = mean(mw)
    return {"mwp": mw, "gwp": gw, "omw": om, "ogw": mean(gw), "oomw": mean(om)}


@given(events(points=("magic", "game12", "chess")))
@settings(max_examples=100, deadline=None)
def test_magic_percentages_over_the_field_are_each_players(event: Event) -> None:
    """The Magic family is computed for the whole field at once: the values are those of RULES.md 4.8 read
    player by player, and the explanation of each is the rounds it counted."""
    ctx = Context.of(event)
    expected = _magic_by_the_rule(ctx)
    for name, values in expected.items():
        assert ctx.values(name) == values
        fn = TIEBREAKS[name].value
        for x in ctx.players:
            notes: list[str] = []
            assert fn is not None and fn(ctx, x, notes) == values[x] and notes


@given(events())
@settings(max_examples=60, deadline=None)
def test_counts_over_the_field_are_each_players(event: Event) -> None:
    """Wins, wins over the board, Black games and Black wins (RULES.md 4.7) are counted for the whole field at
    once; player by player they are the rounds of the records that qualify, and the explanation lists them."""
    ctx = Context.of(event)
    tests = {"wins": lambda r, c: c == "W", "wins_otb": lambda r, c: r.kind.name == "GAME" and c == "W",
             "black_games": lambda r, c: r.kind.name == "GAME" and r.side == 2,
             "black_wins": lambda r, c: r.kind.name == "GAME" and r.side == 2 and c == "W"}
    for name, test in tests.items():
        fn = TIEBREAKS[name].value
        for x in ctx.players:
            rounds = [r.round for r, c in zip(ctx.records[x], ctx.classes[x]) if test(r, c)]
            notes: list[str] = []
            assert fn is not None and fn(ctx, x, notes) == len(rounds) == ctx.values(name)[x]
            assert notes == [f"  rounds: {', '.join(map(str, rounds)) or 'none'}"]


@given(events(points=("armati", "chess")), st.sampled_from(["none", "half"]), st.sampled_from(["continue", "stop"]))
@settings(max_examples=80, deadline=None)
def test_sodos_and_progress_over_the_field_are_each_players(event: Event, draws: str, after_drop: str) -> None:
    """SODOS (RULES.md 4.4) and the progressive score (4.5) are computed for the whole field at once; player by
    player they are the sums their rules give over the records, and each explanation is written."""
    event = replace(event, settings=replace(event.settings, sodos_draws=draws, progress_after_drop=after_drop))
    ctx = Context.of(event)
    share = {"W": 2, "D": 1 if draws == "half" else 0, "L": 0}
    for x, rs in ctx.records.items():
        beaten = sum(share[c] * ctx.opponent_score[r.opponent] for r, c in zip(rs, ctx.classes[x])
                     if r.kind.name == "GAME" and r.opponent is not None)
        player = ctx.player[x]
        last = ctx.rounds
        if after_drop == "stop" and (player.dropped_after is not None or player.dropped):
            drop = player.dropped_after if player.dropped_after is not None else max(
                (r.round for r in rs if r.kind.name != "ABSENT"), default=0)
            last = min(last, drop)
        running = [sum(ctx.round_points[x][:r]) for r in range(1, last + 1)]
        for name, expected in (("sodos", F(beaten, 2 * ctx.unit)), ("progress", F(sum(running), ctx.unit))):
            notes: list[str] = []
            fn = TIEBREAKS[name].value
            assert fn is not None and fn(ctx, x, notes) == expected == ctx.values(name)[x]
            assert name == "sodos" or notes


@given(events())
@settings(max_examples=60, deadline=None)
def test_values_past_64_bits_are_the_same(event: Event) -> None:
    """Where sums of points could outgrow 64 bits (an exotic scale's denominators), the arrays hold Python
    integers instead: every value and rank is the same as with 64-bit integers."""
    wide = Context.of(event)
    wide.__dict__["wide"] = True  # as a scale with a huge common denominator would make it
    narrow = Context.of(event)
    assert wide.table.points.dtype == object and narrow.table.points.dtype != object
    for name in PER_PLAYER:
        assert wide.values(name) == narrow.values(name)
    assert standing_ranks(event, context=wide) == standing_ranks(event, context=narrow) == standing_ranks(event)


@given(events(points=("netrunner", "magic", "chess")),
       st.lists(st.sampled_from([F(1, 2), F(1, 3), F(1), F(2, 3)]), min_size=5, max_size=5), st.booleans())
@settings(max_examples=80, deadline=None)
def test_cobra_sos_over_the_field_is_each_players(event: Event, weights: list[Fraction], weighted: bool) -> None:
    """SoS and ESoS (RULES.md 4.12) are computed for the whole field at once; player by player they are the
    weighted means Cobra takes, in fractions, and each explanation is written."""
    if weighted:
        event = replace(event, settings=replace(event.settings, round_weights=tuple(enumerate(weights, start=1))))
    ctx = Context.of(event)
    weight = ctx.settings.round_weight
    unpaired = ("LATE", "ABSENT", "ZERO_BYE")
    per_round = {}
    for x, rs in ctx.records.items():
        played = sum((weight(r.round) for r in rs if r.kind.name not in unpaired), F(0))
        points = sum((r.points for r in rs if r.kind.name not in unpaired), F(0))
        per_round[x] = points / played if played else F(0)

    def mean(of: dict[str, Fraction]) -> dict[str, Fraction]:
        out = {}
        for x, rs in ctx.records.items():
            terms = [(weight(r.round), of[r.opponent]) for r in rs if r.opponent is not None]
            total = sum((w for w, _ in terms), F(0))
            out[x] = sum((w * v for w, v in terms), F(0)) / total if total else F(0)
        return out

    sos = mean(per_round)
    for name, expected in (("cobra_sos", sos), ("cobra_esos", mean(sos))):
        assert ctx.values(name) == expected
        fn = TIEBREAKS[name].value
        for x in ctx.players:
            notes: list[str] = []
            assert fn is not None and fn(ctx, x, notes) == expected[x] and notes


@given(events(points=("hct", "magic", "chess")))
@settings(max_examples=80, deadline=None)
def test_hct_over_the_field_is_each_players(event: Event) -> None:
    """T1, T2 and T3 (RULES.md 4.9) are computed for the whole field at once; player by player they are the
    sums seed 000 describes over the records, and each explanation is written."""
    ctx = Context.of(event)
    floor = {"-3": -3, "-2": -2, "none": None}[ctx.settings.hct_floor]
    record = {}
    for x, rs in ctx.records.items():
        won = sum(1 for r, c in zip(rs, ctx.classes[x])
                  if c == "W" and (r.opponent is not None or r.kind.name == "PAB"))
        lost = sum(1 for r, c in zip(rs, ctx.classes[x]) if c == "L" and r.opponent is not None)
        record[x] = won - lost
    t1 = {x: sum(record[r.opponent] if floor is None else max(record[r.opponent], floor)
                 for r in rs if r.opponent is not None) for x, rs in ctx.records.items()}
    t2 = {x: sum(t1[r.opponent] for r in rs if r.opponent is not None) for x, rs in ctx.records.items()}
    t3 = {x: sum(r.round ** 2 for r, c in zip(rs, ctx.classes[x]) if c == "L" and r.opponent is not None)
          for x, rs in ctx.records.items()}
    assert ctx.hct_records == record
    for name, expected in (("hct_t1", t1), ("hct_t2", t2), ("hct_t3", t3)):
        assert ctx.values(name) == {x: F(v) for x, v in expected.items()}
        fn = TIEBREAKS[name].value
        for x in ctx.players:
            notes: list[str] = []
            assert fn is not None and fn(ctx, x, notes) == expected[x]
            assert notes or not any(r.opponent for r in ctx.records[x])
