"""Point scales: the presets, custom range scales, their checks (RULES.md 1.3-1.5) and how they score."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import BadSetting, ManyProblems, SheetswissError
from sheetswiss.history import RoundKind, history
from sheetswiss.scoring import PRESETS, ScaleWarning, pairing_scale_for, scale_for, scale_problems
from sheetswiss.settings import Settings, parse_range
from sheetswiss.workbook.parse import parse_settings_tab

from .helpers import make_event, new_workbook

F = Fraction


def custom(win: str, draw: str, loss: str, **more: object) -> Settings:
    return Settings(points="custom", win_points=parse_range(win), draw_points=parse_range(draw),
                    loss_points=parse_range(loss), **more)  # type: ignore[arg-type]


def texts(settings: Settings) -> list[str]:
    return [p.text for p in scale_problems(settings)]


@pytest.mark.parametrize(("name", "w", "d", "l", "bye"), [
    ("chess", F(1), F(1, 2), F(0), F(1)),
    ("magic", F(3), F(1), F(0), F(3)),
    ("armati", F(2), F(1), F(0), F(2)),
    ("hct", F(1), F(0), F(0), F(1)),
    ("game12", F(12), F(6), F(0), F(12)),
])
def test_rules_1_3_presets(name: str, w: Fraction, d: Fraction, l: Fraction, bye: Fraction) -> None:  # noqa: E741
    s = scale_for(Settings(points=name))
    assert (s.win, s.draw, s.loss, s.bye) == (w, d, l, bye)
    assert scale_for(Settings(points=name, bye_points=F(1, 2))).bye == F(1, 2)
    assert scale_problems(Settings(points=name)) == []  # presets are not checked
    assert not PRESETS["hct"].draws_allowed


@pytest.mark.parametrize(("text", "low", "high"), [
    ("28..30", 28, 30), ("28-30", 28, 30), (" 28 – 30 ", 28, 30), ("30..28", 28, 30), ("17", 17, 17),
    ("-1", -1, -1), ("-3..-1", -3, -1), ("1/2", F(1, 2), F(1, 2)), ("0.5-1", F(1, 2), 1),
])
def test_a_custom_value_is_a_number_or_a_range(text: str, low: Fraction, high: Fraction) -> None:
    assert parse_range(text) == (low, high)


def test_rules_1_4_passing_example() -> None:
    assert texts(custom("28..30", "14..17", "0..2", rounds=5)) == []


def test_rules_1_4_failing_example_game12_as_custom() -> None:
    assert texts(custom("8..12", "6", "0..4", rounds=5)) == [
        "rule 2: worst win − best loss = 4 < 4 x (12 − 8) = 16",
        "rule 3: best draw 6 < (best win 12 + best loss 4)/2 = 8",
        "purpose: 5 x worst win 8 = 40 <= 4 x best win 12 + best draw 6 = 54; a lone player who wins all 5 "
        "rounds could finish behind 4 wins and a draw",
    ]


@pytest.mark.parametrize(("w", "d", "l", "ok"), [("2", "1", "0", True), ("1", "1/2", "0", True),
                                                  ("3", "1", "0", False)])
def test_rule_3_reference_scales(w: str, d: str, l: str, ok: bool) -> None:  # noqa: E741
    assert (texts(custom(w, d, l)) == []) is ok  # 2/1/0 and 1/½/0 with equality; Magic's 1 < 1.5


def test_rule_1_order() -> None:
    assert texts(custom("10", "10", "0"))[0] == "rule 1: worst win 10 <= best draw 10; a win must always pay more " \
        "than a draw"
    assert texts(custom("10", "5", "5"))[0].startswith("rule 1: worst draw 5 <= best loss 5")


def test_rule_2_k_is_rounds_from_six() -> None:
    assert texts(custom("95..105", "54", "0", rounds=5)) == []
    assert texts(custom("95..105", "54", "0", rounds=10))[0] == (
        "rule 2: worst win − best loss = 95 < 10 x (105 − 95) = 100")


def test_purpose_is_checked_apart_from_rule_2() -> None:
    problems = texts(custom("10..11", "6", "0", rounds=5))  # rule 2: 10 >= 4; the all-winner ties 4 wins + a draw
    assert [p.split(":")[0] for p in problems] == ["purpose"]
    assert "5 x worst win 10 = 50 <= 4 x best win 11 + best draw 6 = 50" in problems[0]


def test_pairing_scale_defaults_rules_1_5() -> None:
    assert pairing_scale_for(Settings(points="game12")).name == "armati"
    assert pairing_scale_for(custom("28..30", "14..17", "0..2")).name == "armati"
    assert pairing_scale_for(custom("3", "1", "0")).name == "custom"  # one value each: pairs on itself
    assert pairing_scale_for(Settings(points="chess", bye_points=F(1, 2))).bye == F(1, 2)
    assert pairing_scale_for(Settings(points="chess", pairing_points="armati")).bye == 2


@pytest.mark.parametrize("rounds", [5, 9, 15])
def test_game12_and_wide_scales_agree_with_their_2_1_0_pairing(rounds: int) -> None:
    assert scale_problems(Settings(points="game12", rounds=rounds)) == []
    wide = scale_problems(custom("28..30", "14..17", "0..2", rounds=rounds))  # its own rules fail from 9 rounds
    assert "pairing_points" not in [p.keys[0] for p in wide]


def test_pairing_scale_ordering_records_oppositely_is_reported() -> None:
    assert texts(Settings(points="magic", pairing_points="armati", rounds=4)) == []
    (problem,) = scale_problems(Settings(points="magic", pairing_points="armati", rounds=5))
    assert problem.keys[0] == "pairing_points"
    assert problem.text == ("the pairing scale armati puts 0 wins, 5 draws, 0 losses (5) above 2 wins, 0 draws, "
                            "3 losses (4), which the ranking scale magic ranks below it (5 < 6)")


def test_a_custom_pairing_scale_must_pass_rule_1() -> None:
    settings = Settings(points="chess", pairing_points="custom", win_points=parse_range("1"),
                        draw_points=parse_range("1"), loss_points=parse_range("0"))
    assert scale_problems(settings)[0].keys[0] == "pairing_points"
    assert scale_problems(settings)[0].text.startswith("rule 1: worst win 1 <= best draw 1")


def _settings_row(path: Path, key: str) -> int:
    rows = ExcelBackend(path).read().rows("Settings")
    return next(r for r, row in enumerate(rows, start=1) if row and row[0] == key)


def test_a_broken_custom_scale_names_its_settings_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, settings={"points": "custom", "win_points": "8..12", "draw_points": "6",
                                            "loss_points": "0-4", "rounds": 5})
    with pytest.raises(ManyProblems) as e:  # every broken rule, each naming its cell
        parse_settings_tab(ExcelBackend(path).read())
    lines = str(e.value).splitlines()
    assert lines[0] == (f"Settings!B{_settings_row(path, 'win_points')}: "
                        "rule 2: worst win − best loss = 4 < 4 x (12 − 8) = 16")
    assert lines[1].startswith(f"Settings!B{_settings_row(path, 'draw_points')}: rule 3: best draw 6")
    assert len(lines) == 3


def test_scale_check_warn_and_off(tmp_path: Path) -> None:
    values = {"points": "custom", "win_points": "3", "draw_points": "1", "loss_points": "0"}
    warn = new_workbook(tmp_path, settings={**values, "scale_check": "warn"}, name="warn.xlsx")
    with pytest.warns(ScaleWarning, match=rf"^Settings!B{_settings_row(warn, 'draw_points')}: rule 3: best draw 1"):
        assert parse_settings_tab(ExcelBackend(warn).read()).win_points == (3, 3)
    off = new_workbook(tmp_path, settings={**values, "scale_check": "off"}, name="off.xlsx")
    assert parse_settings_tab(ExcelBackend(off).read()).scale_check == "off"


def test_a_pairing_scale_problem_names_pairing_points(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, settings={"points": "magic", "pairing_points": "armati", "rounds": 7})
    with pytest.raises(BadSetting, match=rf"^Settings!B{_settings_row(path, 'pairing_points')}: the pairing scale"):
        parse_settings_tab(ExcelBackend(path).read())


def test_custom_pairing_needs_the_custom_values(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, settings={"pairing_points": "custom"})
    with pytest.raises(BadSetting, match="pairing_points is custom, so set win_points, draw_points, loss_points"):
        parse_settings_tab(ExcelBackend(path).read())


WIDE = {"points": "custom", "win_points": parse_range("28..30"), "draw_points": parse_range("14..17"),
        "loss_points": parse_range("0..2")}


def test_range_scale_scores_typed_points_and_plain_results() -> None:
    ev = make_event(["A", "B", "C", "D", "E"], [
        (1, "A", "B", "29-1"), (1, "C", "D", "16-14"), (1, "E", None, "half bye"),
        (2, "A", "C", "1-0"), (2, "B", "E", "+/-"), (2, "D", None, "bye"),
    ], **WIDE)
    recs = history(ev)
    points = {x: [r.points for r in rs] for x, rs in recs.items()}
    assert points == {"A": [29, 30], "B": [1, 30], "C": [16, 0], "D": [14, 30], "E": [15, 0]}
    classes = {x: "".join(r.outcome for r in rs) for x, rs in recs.items()}
    assert classes == {"A": "WW", "B": "LW", "C": "DL", "D": "DW", "E": "DL"}  # 16-14 is a draw by the ranges
    assert [r.pairing_points for r in recs["C"]] == [1, 0]  # pairs on 2/1/0 by class
    assert recs["B"][1].kind is RoundKind.FORFEIT_WIN


@pytest.mark.parametrize("typed", ["20-20", "29-14", "31-0", "1-1-1"])
def test_range_scale_points_fitting_no_ranges_name_the_result_cell(typed: str) -> None:
    ev = make_event(["A", "B"], [(1, "A", "B", typed)], **WIDE)
    with pytest.raises(SheetswissError, match=r"^Results!E2: .* does not fit the custom scale \(a win 28\.\.30, "
                                              r"a draw 14\.\.17, a loss 0\.\.2\); type both sides' points"):
        history(ev)


def test_game12_still_splits_by_game_score() -> None:
    ev = make_event(["A", "B"], [(1, "A", "B", "2-1")], points="game12")
    assert [r.points for r in history(ev)["A"]] == [10]
    assert [r.pairing_points for r in history(ev)["A"]] == [2]
