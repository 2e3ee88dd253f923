"""Netrunner as Cobra ranks it (RULES.md 4.12): ``points: netrunner``, SoS and ESoS, half rounds, byes,
drops and late entries; Cobra's own test cases (spec/services/sos_calculator_spec.rb) recomputed."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import BadSetting
from sheetswiss.model import Event, Player
from sheetswiss.scoring import per_round, scale_for
from sheetswiss.settings import Settings, parse_settings
from sheetswiss.standings import compute_standings
from sheetswiss.tiebreaks import TIEBREAKS, Context, chain, find_tiebreak

from .helpers import make_event, new_workbook
from .test_cli import run

F = Fraction


def sweep(r: int, a: str, b: str) -> list[tuple[int, str, str | None, str]]:
    """A double-sided round ``a`` wins 6-0: two Results rows, one game on each side."""
    return [(r, a, b, "1-0"), (r, b, a, "0-1")]


def split(r: int, a: str, b: str) -> list[tuple[int, str, str | None, str]]:
    """A double-sided round split 3-3: each player wins as side 1 (corp)."""
    return [(r, a, b, "1-0"), (r, b, a, "1-0")]


def cobra(event: Event) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """Points, SoS and ESoS of every player, as the Standings table holds them."""
    table = compute_standings(event)
    assert table.chain == ("cobra_sos", "cobra_esos")
    return {row.player: (row.points, row.values[0], row.values[1]) for row in table.rows}


def test_the_preset_and_its_chain() -> None:
    s = Settings(points="netrunner")
    scale = scale_for(s)
    assert (scale.win, scale.draw, scale.loss, scale.bye) == (3, 1, 0, 3)
    double = per_round(scale, Settings(points="netrunner", sides="double").games_per_round)
    assert (double.win, double.draw, double.loss, double.bye) == (6, 2, 0, 6)
    assert chain(s) == ("cobra_sos", "cobra_esos")
    assert (TIEBREAKS["cobra_sos"].title, TIEBREAKS["cobra_esos"].title) == ("SoS", "ESoS")
    assert find_tiebreak("sos") == "buchholz"  # the plain word keeps its chess meaning
    assert find_tiebreak("SoS ") == "buchholz"
    assert find_tiebreak("cobra_sos") == "cobra_sos" and find_tiebreak("Extended SoS") == "cobra_esos"


def test_cobra_with_opponents() -> None:
    """Cobra's 'with opponents': snap 6-0 crackle, pop 6-0 other, snap 6-0 pop, crackle 3-3 other."""
    event = make_event(["snap", "crackle", "pop", "other"],
                       [*sweep(1, "snap", "crackle"), *sweep(1, "pop", "other"),
                        *sweep(2, "snap", "pop"), *split(2, "crackle", "other")],
                       points="netrunner", sides="double")
    assert cobra(event)["snap"] == (12, F(9, 4), F(15, 4))  # Cobra: 2.25 and 3.75


def test_cobra_three_person_tourney() -> None:
    """Cobra's 'three person tourney example': byes count as played rounds for the opponent's average."""
    event = make_event(["laurie", "dan", "johno"],
                       [*split(1, "dan", "johno"), (1, "laurie", None, "bye"),
                        *sweep(2, "laurie", "johno"), (2, "dan", None, "bye")],
                       points="netrunner", sides="double")
    values = cobra(event)
    assert values == {"laurie": (12, F(3, 2), F(21, 4)), "dan": (9, F(3, 2), F(21, 4)),
                      "johno": (3, F(21, 4), F(3, 2))}
    assert [r.player for r in compute_standings(event).rows] == ["laurie", "dan", "johno"]


def test_cobra_player_with_only_byes() -> None:
    event = make_event(["snap", "crackle"], [(1, "snap", None, "bye")], points="netrunner", sides="double")
    # crackle has no Results row in round 1: absent, not counted as a round played
    assert cobra(event)["snap"] == (6, 0, 0)


def test_cobra_weighted_round_example() -> None:
    """Cobra's 'weighted round example': round 2 weighs 0.5 and is played as one game a table."""
    rows = [*sweep(1, "alpha", "beta"), *split(1, "gamma", "delta"),
            (2, "alpha", "gamma", "1-0"), (2, "beta", "delta", "0-1")]
    event = make_event(["alpha", "beta", "gamma", "delta"], rows, points="netrunner", sides="double",
                       round_weights=((2, F(1, 2)),))
    values = cobra(event)
    shown = {x: (p, TIEBREAKS["cobra_sos"].text(s), TIEBREAKS["cobra_esos"].text(e)) for x, (p, s, e) in values.items()}
    assert shown == {"alpha": (9, "0.6667", "5.1111"), "delta": (6, "1.3333", "4.8889"),
                     "gamma": (3, "4.6667", "1.1111"), "beta": (0, "5.3333", "0.8889")}
    assert [r.player for r in compute_standings(event).rows] == ["alpha", "delta", "gamma", "beta"]


def test_single_sided_bye_is_three_and_drops_and_late_entries_count_rounds_played() -> None:
    """Worked example (single-sided, 3 a win, 1 a tie, 3 a bye), computed by hand from Cobra's rules.

    R1: A beat B, C tied D, E bye. R2: A beat C, D beat E, B dropped after round 1 (no row).
    R3: F joins; A beat D, F beat E, C bye.
    Points / rounds played: A 9/3, B 0/1, C (1 + 0 + 3)/3, D (1 + 3 + 0)/3, E (3 + 0 + 0)/3, F 3/1.
    """
    players = ["A", Player(name="B", dropped=True, dropped_after=1), "C", "D", "E", Player(name="F", joined=3)]
    rows = [(1, "A", "B", "1-0"), (1, "C", "D", "1/2"), (1, "E", None, "bye"),
            (2, "A", "C", "1-0"), (2, "D", "E", "1-0"),
            (3, "A", "D", "1-0"), (3, "F", "E", "1-0"), (3, "C", None, "bye")]
    values = cobra(make_event(players, rows, points="netrunner"))
    per = {"A": F(3), "B": F(0), "C": F(4, 3), "D": F(4, 3), "E": F(1), "F": F(3)}
    assert {x: v[0] for x, v in values.items()} == {"A": 9, "B": 0, "C": 4, "D": 4, "E": 3, "F": 3}
    sos = {"A": (per["B"] + per["C"] + per["D"]) / 3, "B": per["A"], "C": (per["D"] + per["A"]) / 2,
           "D": (per["C"] + per["E"] + per["A"]) / 3, "E": (per["D"] + per["F"]) / 2, "F": per["E"]}
    assert {x: v[1] for x, v in values.items()} == sos
    assert values["A"][1] == F(8, 9)
    esos = {"A": (sos["B"] + sos["C"] + sos["D"]) / 3, "F": sos["E"], "E": (sos["D"] + sos["F"]) / 2}
    assert {x: values[x][2] for x in esos} == esos


def test_a_round_missed_is_not_a_round_played() -> None:
    """C is absent in round 1 (no Cobra pairing), then beats A: C's points per round are 3/1, not 3/2."""
    rows = [(1, "A", "B", "1-0"), (1, "C", None, "absent"), (2, "C", "A", "1-0"), (2, "B", None, "bye")]
    values = cobra(make_event(["A", "B", "C"], rows, points="netrunner"))
    assert values["A"][1] == (F(3, 2) + F(3, 1)) / 2  # B: 0 + 3 over 2 rounds; C: 3 over 1


def test_round_weights_setting() -> None:
    assert parse_settings([(2, "round_weights", "6: 1/2, 7=0.5")]).round_weight(6) == F(1, 2)
    assert Settings().round_weight(3) == 1
    with pytest.raises(BadSetting, match=r"Settings!B2: round_weights: '6: 2': a round's weight is above 0"):
        parse_settings([(2, "round_weights", "6: 2")])
    with pytest.raises(BadSetting, match=r"Settings!B2: round_weights: 'six' is not a round and its weight"):
        parse_settings([(2, "round_weights", "six")])


def test_explain_shows_each_opponent() -> None:
    from sheetswiss.standings import explain

    event = make_event(["laurie", "dan", "johno"],
                       [*split(1, "dan", "johno"), (1, "laurie", None, "bye"),
                        *sweep(2, "laurie", "johno"), (2, "dan", None, "bye")],
                       points="netrunner", sides="double")
    lines = explain(event, "johno")
    assert "SoS (cobra_sos) = 5.25" in lines
    assert "  R1 v dan: 9 points / 2 rounds = 4.5" in lines
    assert "ESoS (cobra_esos) = 1.5" in lines


def test_standings_command_ranks_a_netrunner_workbook(tmp_path: Path) -> None:
    """Through the command, on a real file typed as a GM would: the columns SoS and ESoS."""
    path = new_workbook(tmp_path, [("laurie",), ("dan",), ("johno",)], settings={"points": "netrunner",
                                                                                 "sides": "double"})
    rows = [*split(1, "dan", "johno"), (1, "laurie", None, "bye"), *sweep(2, "laurie", "johno"),
            (2, "dan", None, "bye")]
    ExcelBackend(path).fill_cells("Results", {
        f"{col}{i}": v for i, (r, a, b, res) in enumerate(rows, start=2)
        for col, v in zip("ABCDE", (r, 1, a, b, res)) if v is not None})
    code, _, err = run("standings", str(path))
    assert code == 0, err
    table = ExcelBackend(path).read().rows("Standings")
    header = next(row for row in table if row and "SoS" in row)
    sos, esos = header.index("SoS"), header.index("ESoS")
    body = {row[1]: (row[sos], row[esos]) for row in table[table.index(header) + 1:] if len(row) > 1 and row[1] in
            ("laurie", "dan", "johno")}
    assert body == {"laurie": (1.5, 5.25), "dan": (1.5, 5.25), "johno": (5.25, 1.5)}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["1-0", "0-1", "1/2"])),
                min_size=1, max_size=20))
def test_sos_is_a_mean_of_points_per_round(games: list[tuple[int, int, str]]) -> None:
    """Every SoS lies between the least and the greatest points per round (3) of anyone; ESoS likewise."""
    names = [f"p{i}" for i in range(6)]
    rows = []
    for r, (i, j, res) in enumerate(games, start=1):
        if i != j:
            rows.append((r, names[i], names[j], res))
    event = make_event(names, rows, points="netrunner")
    ctx = Context.of(event, through=len(games))
    for x in names:
        for name in ("cobra_sos", "cobra_esos"):
            assert 0 <= ctx.values(name)[x] <= 3
