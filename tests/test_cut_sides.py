"""Sides in a Netrunner top cut (RULES.md 6.8): Cobra's side determiner, the higher seed's choice, the
Playoffs tab's Corp column through the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cut_sides import cut_sides
from sheetswiss.errors import SheetswissError
from sheetswiss.playoffs import advance, new_bracket

from .helpers import new_workbook, refused_lines
from .test_cli import one_line_error, run


def test_first_games_are_the_higher_seeds_choice() -> None:
    b = new_bracket("single", ["A", "B", "C", "D"])
    sides = cut_sides(b, {})
    assert {k: (v.corp, v.chooser) for k, v in sides.items()} == {"SF1": (None, "A"), "SF2": (None, "B")}
    assert sides["SF1"].text == "A chooses"
    assert "F" not in sides  # its players are not known yet


def test_later_games_go_to_the_player_with_fewer_corp_games() -> None:
    """Cobra's differential: corp games less runner games; the lower plays the corp."""
    b = advance(new_bracket("single", ["A", "B", "C", "D"]), {"SF1": "A", "SF2": "C"})
    # A chose the runner (D corp); B chose the corp. Final A (runner once) v C (runner once): equal, A chooses
    sides = cut_sides(b, {"SF1": "D", "SF2": "B"})
    assert sides["F"].corp is None and sides["F"].chooser == "A"
    # A chose the corp instead: A +1, C -1, so C plays the corp in the final
    sides = cut_sides(b, {"SF1": "A", "SF2": "B"})
    assert (sides["F"].corp, sides["F"].chooser, sides["F"].text) == ("C", None, "C corp")


def test_an_unrecorded_choice_leaves_later_sides_unknown() -> None:
    b = advance(new_bracket("single", ["A", "B", "C", "D"]), {"SF1": "A", "SF2": "C"})
    sides = cut_sides(b, {"SF2": "B"})
    assert sides["F"].corp is None and sides["F"].text == "unknown until the corp of SF1 is typed"


def test_double_elimination_counts_every_earlier_game() -> None:
    b = new_bracket("double", ["A", "B", "C", "D"])
    b = advance(b, {"W1-1": "A", "W1-2": "B", "W2-1": "A", "L1-1": "C"})
    sides = cut_sides(b, {"W1-1": "A", "W1-2": "C"})
    # W1: A corp (A +1, D -1); C corp (C +1, B -1). W2-1 A(+1) v B(-1): B corp -> A 0, B 0.
    assert sides["W2-1"].corp == "B"
    # L1-1 D(-1) v C(+1): D corp -> D 0, C 0. L2-1 C(0) v B(0): equal, the higher seed B chooses.
    assert sides["L1-1"].corp == "D"
    assert sides["L2-1"].chooser == "B" and sides["L2-1"].corp is None
    typed = cut_sides(b, {"W1-1": "A", "W1-2": "C", "L2-1": "C", "W2-1": "A"})
    assert typed["W2-1"].corp == "B"  # a name typed where the rules decide is not read
    assert typed["L2-1"].text == "C corp (chosen by B)"


def test_a_walkover_has_no_game_and_no_side() -> None:
    b = new_bracket("single", ["A", "B", "C"])
    assert "SF1" not in cut_sides(b, {}) and cut_sides(b, {})["SF2"].chooser == "B"


def netrunner_cut(tmp_path: Path) -> Path:
    path = new_workbook(tmp_path, [(name,) for name in ("Ana", "Bo", "Cy", "Di")],
                        settings={"points": "netrunner", "top_cut": 4, "playoff": "single"})
    rows = [(1, 1, "Ana", "Di", "1-0"), (1, 2, "Bo", "Cy", "1-0"), (2, 1, "Ana", "Bo", "1-0"),
            (2, 2, "Cy", "Di", "1-0")]
    ExcelBackend(path).fill_cells("Results", {f"{c}{i}": v for i, row in enumerate(rows, start=2)
                                              for c, v in zip("ABCDE", row)})
    return path


def test_the_playoffs_tab_says_who_plays_the_corp(tmp_path: Path) -> None:
    path = netrunner_cut(tmp_path)
    code, out, err = run("playoffs", str(path))
    assert code == 0, err
    assert "  to play: SF1 (Semifinal 1) Ana v Di: Ana chooses" in out
    backend = ExcelBackend(path)
    rows = backend.read().rows("Playoffs")
    assert rows[1][5] == "Corp (type if chosen)" and rows[2][5] == "Ana chooses"
    # Ana chose the runner, Bo the corp; Ana and Cy win: both have played the runner once, so Ana chooses
    backend.fill_cells("Playoffs", {"F3": "Di", "F4": "Bo", "E3": "Ana", "E4": "Cy"})
    code, out, err = run("playoffs", str(path))
    assert code == 0, err
    rows = backend.read().rows("Playoffs")
    assert rows[2][5] == "Di corp (chosen by Ana)" and rows[3][5] == "Bo corp (chosen by Bo)"
    assert "  to play: F (Final) Ana v Cy: Ana chooses" in out
    code, out, err = run("playoffs", str(path))  # the tool's own words read back the same
    assert code == 0 and "Ana v Cy: Ana chooses" in out


def test_a_corp_not_in_the_match_names_the_cell(tmp_path: Path) -> None:
    path = netrunner_cut(tmp_path)
    assert run("playoffs", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Playoffs", {"F3": "Zed"})
    message = one_line_error(path, "playoffs", str(path))
    assert message == "Playoffs!F3: 'Zed' is not a player of SF1; type the corp player, Ana or Di"


def test_every_bad_corp_cell_is_a_line(tmp_path: Path) -> None:
    path = netrunner_cut(tmp_path)
    assert run("playoffs", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Playoffs", {"F3": "Zed", "F4": "Ana", "A12": "QF9", "F12": "Bo"})
    assert refused_lines(path, "playoffs", str(path)) == [
        "Playoffs!F3: 'Zed' is not a player of SF1; type the corp player, Ana or Di",
        "Playoffs!F4: 'Ana' is not a player of SF2; type the corp player, Bo or Cy",
        "Playoffs!F12: no match 'QF9' in this bracket; matches: SF1, SF2, F"]


def test_bad_winner_and_corp_cells_are_named_together(tmp_path: Path) -> None:
    path = netrunner_cut(tmp_path)
    assert run("playoffs", str(path))[0] == 0
    # E3: Bo is not in SF1; F4: Ana is not in SF2; F5: the final waits on SF1, so its corp cell waits too
    ExcelBackend(path).fill_cells("Playoffs", {"E3": "Bo", "F4": "Ana", "E4": "Cy", "F5": "Zed"})
    assert refused_lines(path, "playoffs", str(path)) == [
        "Playoffs!E3: SF1 (Semifinal 1, Ana v Di): 'Bo' is not in this match; type Ana or Di",
        "Playoffs!F4: 'Ana' is not a player of SF2; type the corp player, Bo or Cy"]


def test_other_events_have_no_corp_column(tmp_path: Path) -> None:
    path = netrunner_cut(tmp_path)
    rows = ExcelBackend(path).read().rows("Settings")
    row = next(r for r, values in enumerate(rows, start=1) if values and values[0] == "points")
    ExcelBackend(path).fill_cells("Settings", {f"B{row}": "magic"})
    assert run("playoffs", str(path))[0] == 0
    assert ExcelBackend(path).read().rows("Playoffs")[1][5] in (None, "")


def test_chosen_corps_refuses_a_stranger() -> None:
    from sheetswiss.cut_sides import chosen_corps

    with pytest.raises(SheetswissError, match="Playoffs!F3: 'Zed' is not a player of F"):
        chosen_corps([("Playoffs!F3", "F", "Zed")], new_bracket("single", ["Ana", "Bo"]))
