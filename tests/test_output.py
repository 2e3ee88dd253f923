"""What a GM reads: the pairing's proof in words, unavoidable repeat meetings named, the Standings legend,
numbers set apart from names in the printed tabs, and ``--dry-run`` wherever a workbook is written."""

from __future__ import annotations

import re
from pathlib import Path

import click
import openpyxl

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.tiebreaks import TIEBREAKS

from .helpers import new_workbook, run, type_results

README = Path(__file__).resolve().parent.parent / "README.md"



def heat_workbook(tmp_path: Path, names: list[str]) -> Path:
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats", "--seed", "3")[0] == 0
    ExcelBackend(path).fill_cells("Players", {f"A{r}": n for r, n in enumerate(names, start=2)})
    return path


def test_pair_says_in_words_that_the_pairing_is_the_best_possible(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"P{i:02d}", 2000 - i) for i in range(1, 11)])
    code, out, err = run("pair", str(path), "--dry-run")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == ("Best possible pairing, checked: no other pairing of these players follows the pairing "
                        "rules better")
    assert not any(line.startswith("Optimal:") or "candidate edges" in line for line in lines)
    code, out, err = run("pair", str(path), "--dry-run", "--explain")
    assert code == 0, err
    technical = [line for line in out.splitlines() if line.startswith("Optimal: no pairing of the whole field")]
    assert len(technical) == 1 and "candidate edges" in technical[0]


def test_seat_names_each_repeat_meeting_it_could_not_avoid(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path, ["Rita", "Sam", "Tom", "Uma"])
    assert run("seat", str(path), "--heat", "1")[0] == 0
    code, out, err = run("seat", str(path), "--heat", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Heat 2: 4 players at 1 tables (4); 6 repeat meeting(s) could not be avoided"
    named = {line for line in lines if line.endswith("met in an earlier heat (could not be avoided)")}
    assert named == {f"  table 1: {a} and {b} met in an earlier heat (could not be avoided)"
                     for a, b in (("Rita", "Sam"), ("Rita", "Tom"), ("Rita", "Uma"), ("Sam", "Tom"), ("Sam", "Uma"),
                                  ("Tom", "Uma"))}
    seating = [row[0] for row in openpyxl.load_workbook(path)["Seating"].iter_rows(values_only=True)]
    assert "Could not be avoided:" in seating


def test_the_standings_legend_names_every_column_in_words(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"P{i:02d}", 2000 - i) for i in range(1, 8)],
                        settings={"tiebreaks": "sodos, median_buchholz, buchholz, random"})
    run("pair", str(path))
    type_results(path, lambda a, b: "1-0")
    assert run("standings", str(path))[0] == 0
    column_a = [row[0] for row in openpyxl.load_workbook(path)["Standings"].iter_rows(values_only=True) if row]
    legend = column_a[column_a.index("Legend:") + 1:]
    assert legend[1:3] == [
        "W-D-L: rounds won, drawn and lost; a forfeit counts as a win for one player and a loss for the other (both "
        "lose a double forfeit)",
        "In W-D-L the pairing bye counts as a win, a half bye as a draw, and a zero bye or a missed round in none of "
        "them"]
    assert legend[3].startswith("Played: games played over the board")
    assert legend[4:] == [
        "SODOS: sum of defeated opponents' scores: the scores of the opponents beaten over the board (forfeit wins "
        "and byes add nothing)",
        "Med-Buchholz: median Buchholz: Buchholz without the highest and the lowest opponent's score",
        "Buchholz: the sum of the opponents' scores (a round without an opponent counts as the unplayed setting "
        "says)",
        "Lot: drawing of lots from the event's seed: the lower number ranks first"]


def test_a_half_point_bye_is_said_to_count_as_a_draw(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"P{i:02d}",) for i in range(1, 6)],
                        settings={"points": "chess", "bye_points": "1/2"})
    run("pair", str(path))
    type_results(path, lambda a, b: "1-0")
    assert run("standings", str(path))[0] == 0
    column_a = [row[0] for row in openpyxl.load_workbook(path)["Standings"].iter_rows(values_only=True) if row]
    assert "In W-D-L the pairing bye counts as a draw, a half bye as a draw, and a zero bye or a missed round in " \
        "none of them" in column_a


def test_every_tiebreak_has_a_legend_in_words() -> None:
    for tb in TIEBREAKS.values():
        assert tb.legend and tb.legend == tb.legend.strip() and not tb.legend.endswith("."), tb.name
        assert "RULES" not in tb.legend and "``" not in tb.legend, tb.name


def test_numbers_stand_apart_from_names_in_seating_and_qualifiers(tmp_path: Path) -> None:
    """Seat, table and rank numbers, counts and the status are centred: a right-aligned number would run
    into the left-aligned name beside it when printed."""
    path = heat_workbook(tmp_path, [f"Player {i:02d}" for i in range(1, 9)])
    assert run("seat", str(path), "--heat", "1")[0] == 0
    backend = ExcelBackend(path)
    rows = backend.read().rows("Heats")
    backend.fill_cells("Heats", {f"D{r}": 10 + r for r in range(2, len(rows) + 1)})
    assert run("qualify", str(path))[0] == 0
    wb = openpyxl.load_workbook(path)
    for tab, centred, left in (("Seating", ("A", "B", "F"), ("C", "E")), ("Qualifiers", ("A", "C", "D", "F", "H"),
                                                                            ("B",))):
        ws = wb[tab]
        assert [ws[f"{c}3"].alignment.horizontal for c in centred] == ["center"] * len(centred), tab
        assert [ws[f"{c}3"].alignment.horizontal for c in left] == [None] * len(left), tab


def test_every_command_that_writes_a_workbook_has_dry_run_and_the_readme_says_which() -> None:
    writes_no_workbook = {"publish", "export", "watch", "demo", "login"}
    commands = {name: command for name, command in cli.commands.items()}
    with_dry_run = {name for name, command in commands.items()
                    if any(isinstance(p, click.Option) and "--dry-run" in p.opts for p in command.params)}
    assert with_dry_run == set(commands) - writes_no_workbook
    text = " ".join(README.read_text().split())
    sentence = re.search(r"`--dry-run` \(print what would change, write nothing\) is on every command that writes "
                         r"a workbook: (.*?)\. `publish`", text)
    assert sentence is not None
    no_workbook = re.search(r"\. (`publish`.*?) write no workbook", text)
    assert set(re.findall(r"`([a-z]+)`", sentence[1])) == with_dry_run, "list the command in the README's sentence"
    assert no_workbook is not None and set(re.findall(r"`([a-z]+)`", no_workbook[1])) == writes_no_workbook
