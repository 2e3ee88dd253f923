"""Secondary scores (RULES.md 4.13): each side's game score in Results.Score A and Score B, and the
tiebreaks built on them: total score, margin (capped), average margin, opponents' total score, goal average."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.backends.base import Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.history import history
from sheetswiss.model import Event, Game, Player
from sheetswiss.results import Result
from sheetswiss.scoring import scale_problems
from sheetswiss.settings import Settings, parse_settings
from sheetswiss.standings import compute_standings, explain
from sheetswiss.tiebreaks import Context, event_chain
from sheetswiss.workbook.parse import cell_text, parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook
from .test_cli import one_line_error, run
from .test_gsheets import KEY, setup_event
from .test_gsheets import backend as gsheet_backend
from .test_readme import README, check, diagonal, fill

CHAIN = "margin, total_score, opponents_score, goal_average, average_margin"


def scored_event(rows: list[tuple[int, str, str | None, str, tuple[int, int] | None]], **options: object) -> Event:
    """An event in memory from ``(round, a, b, result, (score a, score b) or None)`` rows."""
    names = sorted({n for _, a, b, _, _ in rows for n in (a, b) if n is not None})
    games = tuple(Game(round=r, table=None, a=a, b=b, result=Result.parse(res), row=i + 2, cell=f"Results!E{i + 2}",
                       scores=None if s is None else (Fraction(s[0]), Fraction(s[1])))
                  for i, (r, a, b, res, s) in enumerate(rows))
    return Event(settings=Settings(**options), players=tuple(Player(name=n) for n in names),  # type: ignore[arg-type]
                 games=games)


def values(event: Event, name: str) -> dict[str, Fraction]:
    return Context.of(event).values(name)


def test_the_docstring_figures() -> None:
    """Ana: 15-7 against Bo, 9-12 against Cy; Bo and Cy met in round 1 too (RULES.md 4.13's example)."""
    ev = scored_event([(1, "Ana", "Bo", "1-0", (15, 7)), (1, "Cy", "Di", "1-0", (11, 3)),
                       (2, "Ana", "Cy", "0-1", (9, 12)), (2, "Bo", "Di", "1/2", (10, 10))],
                      tiebreaks=("total_score",))
    assert values(ev, "total_score") == {"Ana": 24, "Bo": 17, "Cy": 23, "Di": 13}
    assert values(ev, "margin") == {"Ana": 5, "Bo": -8, "Cy": 11, "Di": -8}
    assert values(ev, "average_margin")["Ana"] == Fraction(5, 2)
    assert values(ev, "opponents_score") == {"Ana": 17 + 23, "Bo": 24 + 13, "Cy": 13 + 24, "Di": 23 + 17}
    assert values(ev, "goal_average")["Ana"] == Fraction(24, 19)
    capped = scored_event([(1, "Ana", "Bo", "1-0", (15, 7)), (2, "Ana", "Bo", "0-1", (9, 12))], margin_cap=Fraction(5))
    assert values(capped, "margin")["Ana"] == 5 - 3


def test_byes_forfeits_and_absences_count_no_score_unless_typed() -> None:
    ev = scored_event([(1, "Ana", "Bo", "1-0", (12, 4)), (1, "Cy", None, "bye", None),
                       (2, "Ana", "Cy", "+/-", None), (2, "Bo", None, "zero bye", None),
                       (3, "Bo", "Cy", "-/+", (0, 20))])
    assert values(ev, "total_score") == {"Ana": 12, "Bo": 4, "Cy": 20}
    assert values(ev, "average_margin") == {"Ana": 8, "Bo": Fraction(-8 - 20, 2), "Cy": 20}
    # a forfeit is still an opponent: Ana's opponents Bo (4) and Cy (20); Cy's bye adds nothing
    assert values(ev, "opponents_score") == {"Ana": 24, "Bo": 12 + 20, "Cy": 12 + 4}
    assert values(ev, "goal_average") == {"Ana": 3, "Bo": Fraction(4, 32), "Cy": 20}  # Cy conceded 0: divided by 1


def test_nothing_conceded_and_nothing_scored() -> None:
    ev = scored_event([(1, "Ana", "Bo", "1-0", (10, 0)), (1, "Cy", "Di", "1/2", (0, 0))])
    assert values(ev, "goal_average") == {"Ana": 10, "Bo": 0, "Cy": 0, "Di": 0}


def test_double_sided_matches_sum_both_games() -> None:
    ev = scored_event([(1, "Ana", "Bo", "1-0", (7, 2)), (1, "Bo", "Ana", "1-0", (5, 4))], sides="double",
                      points="netrunner")
    a = history(ev)["Ana"][0]
    assert (a.scored, a.conceded) == (11, 7)
    assert values(ev, "total_score") == {"Ana": 11, "Bo": 7}
    assert values(ev, "margin") == {"Ana": 4, "Bo": -4}


def test_explain_shows_the_arithmetic() -> None:
    ev = scored_event([(1, "Ana", "Bo", "1-0", (15, 7)), (2, "Ana", "Bo", "0-1", (9, 12))],
                      tiebreaks=("margin", "goal_average", "average_margin"), margin_cap=Fraction(5))
    lines = explain(ev, "Ana")
    assert lines[1:] == [
        "Margin (margin) = 2",
        "  R1 v Bo: 15-7, margin +8, capped to +5 (margin_cap 5)",
        "  R2 v Bo: 9-12, margin -3",
        "Goal avg (goal_average) = 1.2632",
        "  R1 v Bo: 15-7",
        "  R2 v Bo: 9-12",
        "  24 scored / 19 conceded",
        "Avg margin (average_margin) = 1",
        "  R1 v Bo: 15-7, margin +8, capped to +5 (margin_cap 5)",
        "  R2 v Bo: 9-12, margin -3",
        "  2 / 2 games"]


def test_the_armati_chain_gets_its_goal_average_once_scores_are_typed() -> None:
    plain = scored_event([(1, "Ana", "Bo", "1-0", None)])
    assert event_chain(plain) == ("sodos", "median_buchholz", "buchholz", "random")
    scored = scored_event([(1, "Ana", "Bo", "1-0", (3, 1))])
    assert event_chain(scored) == ("sodos", "median_buchholz", "buchholz", "goal_average", "random")
    chosen = scored_event([(1, "Ana", "Bo", "1-0", (3, 1))], tiebreaks=("buchholz",))
    assert event_chain(chosen) == ("buchholz",)
    assert compute_standings(scored).chain[3] == "goal_average"


def test_margin_cap_setting() -> None:
    assert parse_settings([(2, "margin_cap", "10")]).margin_cap == 10
    assert parse_settings([(2, "margin_cap", "none")]).margin_cap is None
    with pytest.raises(Exception, match=r"Settings!B2: margin_cap: '0' is not above 0"):
        parse_settings([(2, "margin_cap", "0")])


@st.composite
def scored_rounds(draw: st.DrawFn) -> Event:
    """A few rounds of 2-8 players, each round a random perfect pairing, scores 0-30 on most tables."""
    n = 2 * draw(st.integers(1, 4))
    names = [f"P{i}" for i in range(n)]
    rows: list[tuple[int, str, str | None, str, tuple[int, int] | None]] = []
    for r in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(names))
        for a, b in zip(order[::2], order[1::2]):
            s = draw(st.one_of(st.none(), st.tuples(st.integers(0, 30), st.integers(0, 30))))
            res = "1/2" if s is None or s[0] == s[1] else "1-0" if s[0] > s[1] else "0-1"
            rows.append((r, a, b, res, s))
    cap = draw(st.one_of(st.none(), st.integers(1, 12)))
    return scored_event(rows, margin_cap=None if cap is None else Fraction(cap))


@given(scored_rounds())
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_margins_sum_to_zero_and_totals_are_the_sum_of_own_scores(event: Event) -> None:
    margin, total = values(event, "margin"), values(event, "total_score")
    assert sum(margin.values()) == 0  # every game's capped margin is one player's gain and the other's loss
    for p in event.players:
        own = [g.scores[0] if g.a == p.name else g.scores[1] for g in event.games
               if g.scores is not None and p.name in (g.a, g.b)]
        assert total[p.name] == sum(own, Fraction(0))
    opp = values(event, "opponents_score")
    met = defaultdict(list)
    for g in event.games:
        if g.b is not None:
            met[g.a].append(g.b)
            met[g.b].append(g.a)
    assert all(opp[x] == sum((total[y] for y in met[x]), Fraction(0)) for x in total)


# --- the workbook: Score A and Score B typed beside the results -----------------------------------------


def scored_workbook(tmp_path: Path, n: int, **settings_: Value) -> Path:
    path = new_workbook(tmp_path, [(f"General {i:02d}", 1500 + 10 * i) for i in range(1, n + 1)],
                        settings={"rounds": 5, **settings_})
    ExcelBackend(path).fill_cells("Results", {"F1": "Score A", "G1": "Score B"})
    return path


def test_a_score_typed_as_text_is_one_line_naming_the_cell(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 4)
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0", "F2": "twelve", "G2": 3, "E3": "0-1", "F3": 1, "G3": 9})
    assert one_line_error(path, "standings", str(path)) == (
        "Results!F2: cannot read 'twelve' as a score; type a number from 0 (victory points, control points), "
        "or leave the cell empty")


def test_one_score_without_the_other_and_a_score_on_a_bye(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 5)
    assert run("pair", str(path))[0] == 0
    rows = openpyxl.load_workbook(path)["Results"]
    bye = next(r for r in range(2, 5) if rows[f"D{r}"].value == "BYE")
    game = next(r for r in range(2, 5) if r != bye)
    ExcelBackend(path).fill_cells("Results", {f"F{game}": 7})
    assert one_line_error(path, "standings", str(path)) == (
        f"Results!G{game}: Score B is empty but Score A (Results!F{game}) is typed; type both sides' scores, "
        "or neither")
    ExcelBackend(path).fill_cells("Results", {f"F{game}": None, f"F{bye}": 5})
    assert one_line_error(path, "standings", str(path)) == (
        f"Results!F{bye}: a row without an opponent has no game score; clear the cell")


def test_a_24_player_wargame_event_ranks_as_computed_by_hand(tmp_path: Path) -> None:
    """Five rounds of victory points 0-20 a side, one forfeit typed without scores; the ranking below is
    worked out from the Results cells alone, the rules of RULES.md 4.13 applied by hand."""
    path = scored_workbook(tmp_path, 24, tiebreaks=CHAIN, margin_cap=8)
    rng = random.Random(18)
    for r in range(1, 6):
        assert run("pair", str(path))[0] == 0
        sheet = openpyxl.load_workbook(path)["Results"]
        cells: dict[str, Value] = {}
        for row in range(2, sheet.max_row + 1):
            if sheet[f"A{row}"].value != r:
                continue
            if r == 3 and not cells:  # the round's first table: a forfeit, no scores
                cells[f"E{row}"] = "+/-"
                continue
            a, b = rng.randint(0, 20), rng.randint(0, 20)
            cells.update({f"E{row}": "1-0" if a > b else "0-1" if b > a else "1/2", f"F{row}": a, f"G{row}": b})
        ExcelBackend(path).fill_cells("Results", cells)
    assert run("standings", str(path))[0] == 0
    book = openpyxl.load_workbook(path)

    points: dict[str, int] = defaultdict(int)
    scored: dict[str, int] = defaultdict(int)
    conceded: dict[str, int] = defaultdict(int)
    margins: dict[str, list[int]] = defaultdict(list)
    opponents: dict[str, list[str]] = defaultdict(list)
    rating = {row[0].value: row[1].value for row in book["Players"].iter_rows(min_row=2) if row[0].value}
    for rnd, _, a, b, res, sa, sb in book["Results"].iter_rows(min_row=2, max_col=7, values_only=True):
        if rnd is None:
            continue
        pa, pb = {"1-0": (2, 0), "0-1": (0, 2), "1/2": (1, 1), "+/-": (2, 0)}[res]
        points[a] += pa
        points[b] += pb
        opponents[a].append(b)
        opponents[b].append(a)
        if sa is not None:
            scored[a] += sa
            scored[b] += sb
            conceded[a] += sb
            conceded[b] += sa
            margins[a].append(max(-8, min(8, sa - sb)))
            margins[b].append(max(-8, min(8, sb - sa)))
    expected = {}
    for x in rating:
        margin = sum(margins[x])
        expected[x] = (points[x], margin, scored[x], sum(scored[y] for y in opponents[x]),
                       Fraction(scored[x], max(conceded[x], 1)), Fraction(margin, len(margins[x])))
    order = sorted(rating, key=lambda x: (tuple(-v for v in expected[x]), -rating[x]))
    rank = {x: 1 + sum(1 for y in rating if expected[y] > expected[x]) for x in rating}

    table = [row for row in book["Standings"].iter_rows(min_row=3, max_col=11, values_only=True) if row[1] in rating]
    assert [row[1] for row in table] == order
    for shown_rank, player, shown_points, _, _, margin, total, opp, ga, avg in (row[:10] for row in table):
        tied = sum(1 for y in rating if expected[y] == expected[player]) > 1
        assert shown_rank == (f"{rank[player]}=" if tied else rank[player])
        want = expected[player]
        assert (shown_points, margin, total, opp) == want[:4]
        assert ga == pytest.approx(round(float(want[4]), 4)) and avg == pytest.approx(round(float(want[5]), 4))
    assert book["Standings"]["F2"].value == "Margin" and book["Standings"]["I2"].value == "Goal avg"
    assert len({expected[x][:2] for x in rating}) < len(rating)  # points and margin alone leave ties to break

    code, out, _ = run("standings", str(path), "--explain", order[0])
    assert code == 0 and f"Margin (margin) = {expected[order[0]][1]}" in out


def test_scores_reach_the_model_from_the_workbook(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 4)
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0", "F2": 12.5, "G2": "3", "E3": "1/2"})
    event = parse_event(ExcelBackend(path).read())
    assert [g.scores for g in event.games] == [(Fraction(25, 2), Fraction(3)), None]


def readme_table(header: str) -> list[list[str]]:
    """The README's markdown table whose header row starts with ``header``: its body rows' cells."""
    lines = README.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    body = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        body.append([cell.strip() for cell in line.strip("|").split("|")])
    return body


def test_the_readme_walkthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's warband event: its pairings, the scores typed, its Standings and its --explain sample."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "warband.xlsx", "--seed", "3")[0] == 0
    path = Path("warband.xlsx")
    fill(path, "Players", {"A": diagonal(8)},
         {"tiebreaks": "margin, total_score, opponents_score, goal_average", "rounds": 3})
    rows = len(ExcelBackend(path).read().rows("Settings"))
    ExcelBackend(path).fill_cells("Settings", {f"A{rows + 1}": "margin_cap", f"B{rows + 1}": 10})
    ExcelBackend(path).fill_cells("Results", {"F1": "Score A", "G1": "Score B"})
    typed = readme_table("| Round | Table | Player A |")
    for r in range(1, 4):
        assert run("pair", str(path))[0] == 0
        sheet = openpyxl.load_workbook(path)["Results"]
        cells: dict[str, Value] = {}
        for row in range(2, 14):
            if sheet[f"A{row}"].value != r:
                continue
            want = typed[row - 2]
            assert [str(sheet[f"{c}{row}"].value) for c in "ABCD"] == want[:4]
            cells.update({f"E{row}": want[4], f"F{row}": int(want[5]), f"G{row}": int(want[6])})
        ExcelBackend(path).fill_cells("Results", cells)
    assert run("standings", str(path))[0] == 0
    shown = [[cell_text(v) for v in row[:9]]
             for row in openpyxl.load_workbook(path)["Standings"].iter_rows(min_row=3, max_row=10, values_only=True)]
    assert shown == readme_table("| Rank | Player | Points | W-D-L | Played | Margin |")
    check('sheetswiss standings warband.xlsx --explain "Fay Fox"')

    typo = Path("warband-typo.xlsx")
    typo.write_bytes(path.read_bytes())
    ExcelBackend(typo).fill_cells("Results", {"F3": "twelve"})
    error = one_line_error(typo, "standings", str(typo))
    assert f"$ sheetswiss standings warband-typo.xlsx\nError: {error}\n" in README.read_text()


# --- a margin scale: match points from the scores' margin (RULES.md 1.7) --------------------------------

GTC = "0: 10, 6: 11, 11: 12, 16: 13, 21: 14, 26: 15, 31: 16, 36: 17, 41: 18, 46: 19, 51: 20"
"""A 20-0 scale by victory-point margin, as a published 40k event framework lists it (0-5: 10-10, ... 51+: 20-0)."""


def gtc_points(margin: int) -> int:
    """The winner's points of :data:`GTC` worked out from its bands: 10, then one more every 5 VP from 6, 20 from 51."""
    return 20 if margin >= 51 else 10 + max(0, (margin - 1) // 5)


def gtc_bands() -> tuple[tuple[Fraction, Fraction], ...]:
    return parse_settings([(2, "points", "custom"), (3, "margin_points", GTC)]).margin_points


def test_margin_points_are_read_and_checked() -> None:
    bands = parse_settings([(2, "points", "custom"), (3, "margin_points", GTC), (4, "scale_check", "off")])
    assert bands.margin_points[:3] == ((0, 10), (6, 11), (11, 12))
    for text, message in [("6: 11, 11: 12", "list the bands from margin 0"),
                          ("0: 10", "list the bands from margin 0"),
                          ("0: 10, 6: 11, 5: 12", "'5: 12': each band needs a larger margin and more points"),
                          ("0: 10, 6: 10", "'6: 10': each band needs a larger margin and more points"),
                          ("0: 10, 6: 21", "21 for the winner leaves the loser below 0 of the 20 a game shares"),
                          ("0: 10, six: 11", "'six' is not a number")]:
        with pytest.raises(Exception, match=re.escape("Settings!B3: margin_points: ") + ".*" + re.escape(message)):
            parse_settings([(2, "points", "custom"), (3, "margin_points", text)])
    with pytest.raises(Exception, match=r"Settings!B3: margin_points makes the points come from the margin, so set "
                                        r"points to custom$"):
        parse_settings([(2, "points", "armati"), (3, "margin_points", GTC)])
    with pytest.raises(Exception, match=r"so set points to custom and clear win_points$"):
        parse_settings([(2, "points", "custom"), (3, "margin_points", GTC), (4, "win_points", "3")])


def test_a_margin_scale_is_validated_like_the_range_scales() -> None:
    """Seed 004's rules (RULES.md 1.4) on the 20-0 scale's ranges W 11..20, D 10, L 0..9: rules 2 and 3 fail,
    and so does their purpose; each problem names the margin_points cell."""
    gtc = Settings(points="custom", margin_points=gtc_bands(), rounds=5)
    problems = scale_problems(gtc)
    assert [p.text for p in problems] == [
        "rule 2: worst win − best loss = 2 < 4 x (20 − 11) = 36",
        "rule 3: best draw 10 < (best win 20 + best loss 9)/2 = 29/2",
        "purpose: 5 x worst win 11 = 55 <= 4 x best win 20 + best draw 10 = 90; a lone player who wins all 5 rounds "
        "could finish behind 4 wins and a draw"]
    assert all(p.keys[0] == "margin_points" for p in problems)
    steep = Settings(points="custom", margin_points=((Fraction(0), Fraction(15)), (Fraction(1), Fraction(30))),
                     rounds=5)
    assert scale_problems(steep) == []  # one win value: W 30, D 15, L 0 passes every rule


@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), min_size=1, max_size=6))
@settings(max_examples=60)
def test_a_margin_scale_shares_twenty_points_by_the_bands(games: list[tuple[int, int]]) -> None:
    def result(a: int, b: int) -> Result:  # what the parser reads from the scores alone, worked out from GTC
        decided = gtc_points(abs(a - b)) > 10
        return Result.parse("1-0" if decided and a > b else "0-1" if decided else "1/2")

    event = Event(settings=Settings(points="custom", margin_points=gtc_bands()),
                  players=tuple(Player(name=f"{side}{i}") for i in range(len(games)) for side in "AB"),
                  games=tuple(Game(round=1, table=None, a=f"A{i}", b=f"B{i}", result=result(a, b), row=i + 2,
                                   scores=(Fraction(a), Fraction(b))) for i, (a, b) in enumerate(games)))
    recs = history(event)
    for i, (a, b) in enumerate(games):
        ra, rb = recs[f"A{i}"][0], recs[f"B{i}"][0]
        want = gtc_points(abs(a - b))
        assert (ra.points, rb.points) == ((want, 20 - want) if a >= b else (20 - want, want))
        assert ra.outcome == ("W" if ra.points > 10 else "L" if ra.points < 10 else "D")
        assert rb.pairing_points == {"W": 2, "D": 1, "L": 0}[rb.outcome]  # pairing on 2/1/0 by class (1.5)


def test_the_scores_decide_a_game_on_a_margin_scale(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 6, points="custom", scale_check="warn", margin_points=GTC)
    code, _, err = run("pair", str(path))
    assert code == 0 and "Warning: Settings!B" in err and ": rule 2: worst win − best loss = 2 < 4 x (20 − 11)" in err
    # an empty Result reads as the scores' result; a forfeit keeps its own points (a win's best, 20-0)
    ExcelBackend(path).fill_cells("Results", {"F2": 72, "G2": 40, "F3": 30, "G3": 33, "E4": "+/-"})
    with pytest.warns(UserWarning):
        event = parse_event(ExcelBackend(path).read())
    assert [g.result.spelling() if g.result else None for g in event.games] == ["1-0", "1/2", "+/-"]
    code, _, err = run("standings", str(path))  # reads Settings more than once: each warning said once
    warned = [line for line in err.splitlines() if line.startswith("Warning: ")]
    assert code == 0 and warned and len(warned) == len(set(warned))
    points = {x: r[0].points for x, r in history(event).items()}
    assert [(points[g.a], points[g.b or ""]) for g in event.games] == [(16, 4), (10, 10), (20, 0)]
    ExcelBackend(path).fill_cells("Results", {"E2": "0-1"})
    assert one_line_error(path, "standings", str(path)) == (
            "Results!E2: '0-1', but the scores 72-40 give 16-4 on margin_points (1-0); leave the Result empty (the "
            "scores decide) or correct it")


def test_the_readme_margin_scale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's 20-0 example: refused as seed 004's rules say (the lines shown), then played with warn."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "gtc.xlsx", "--seed", "5")[0] == 0
    path = Path("gtc.xlsx")
    fill(path, "Players", {"A": diagonal(6)}, {"points": "custom", "rounds": 3})
    rows = len(ExcelBackend(path).read().rows("Settings"))
    ExcelBackend(path).fill_cells("Settings", {f"A{rows + 1}": "margin_points", f"B{rows + 1}": GTC})
    before = path.read_bytes()
    code, _, err = run("pair", str(path))
    assert code == 2 and path.read_bytes() == before
    assert f"```text\n{err}```\n" in README.read_text()
    fill(path, "Players", {}, {"scale_check": "warn"})
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"F1": "Score A", "G1": "Score B", "F2": 72, "G2": 40, "F3": 30,
                                              "G3": 33, "F4": 50, "G4": 45})
    check("sheetswiss standings gtc.xlsx")


def test_a_double_sided_event_sums_both_games_scores_from_the_workbook(tmp_path: Path) -> None:
    """Under sides: double each row is one game with its own scores; the round's match adds both games up,
    and on a margin scale each game scores by its own margin before the two are added (RULES.md 1.7, 4.13)."""
    path = scored_workbook(tmp_path, 4, sides="double", points="custom", scale_check="off", margin_points=GTC,
                           tiebreaks="total_score, margin")
    assert run("pair", str(path))[0] == 0
    sheet = openpyxl.load_workbook(path)["Results"]
    rows = [(r, sheet[f"C{r}"].value, sheet[f"D{r}"].value) for r in range(2, 6)]
    first = rows[0][1]
    scores = {2: (60, 0), 3: (10, 12), 4: (20, 20), 5: (31, 0)}  # rows 2-3 one match, rows 4-5 the other
    ExcelBackend(path).fill_cells("Results", {f"{c}{r}": v for r, (a, b) in scores.items()
                                              for c, v in (("F", a), ("G", b))})
    event = parse_event(ExcelBackend(path).read())
    recs = history(event)
    match = recs[first][0]
    # game 1: first scored 60-0, 20-0; game 2 (sides swapped): the other side scored 10, first 12, a 10-10 draw
    assert (match.scored, match.conceded, match.points) == (72, 10, 30)
    assert values(event, "margin")[first] == 62
    # the other match: a 20-20 draw (10-10), then row 5's Player A wins by 31 (16-4)
    table = compute_standings(event)
    assert [(r.player, r.points) for r in table.rows] == [(first, 30), (rows[2][2], 26), (rows[2][1], 14),
                                                          (rows[0][2], 10)]


def test_scores_go_out_and_back_in_through_a_results_csv(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 4, tiebreaks=CHAIN)
    assert run("pair", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Results", {"E2": "1-0", "F2": 12.5, "G2": 3, "E3": "1/2"})
    out = tmp_path / "r.csv"
    assert run("export", str(path), str(out), "--tab", "results")[0] == 0
    rows = [line.split(",") for line in out.read_text(encoding="utf-8-sig").splitlines()]
    assert rows[0] == ["Round", "Table", "Player A", "Player B", "Result", "Score A", "Score B"]
    assert [r[5:] for r in rows[1:]] == [["12.5", "3"], ["", ""]]

    back = new_workbook(tmp_path, [(f"General {i:02d}", 1500 + 10 * i) for i in range(1, 5)], name="back.xlsx",
                        settings={"rounds": 5, "tiebreaks": CHAIN})
    assert one_line_error(back, "import", str(out), str(back)) == (
        "r.csv: the file has game scores (Score A, Score B) but Results has no column headed 'Score A' or "
        "'Score B'; add them to Results' row 1 and import again")
    ExcelBackend(back).fill_cells("Results", {"F1": "Score A", "G1": "Score B"})
    assert run("import", str(out), str(back))[0] == 0
    mine, theirs = (compute_standings(parse_event(ExcelBackend(p).read())) for p in (path, back))
    assert mine == theirs and mine.rows[0].values[1] == Fraction(25, 2)

    out.write_text(out.read_text(encoding="utf-8-sig").replace("12.5", "lots"), encoding="utf-8")
    other = new_workbook(tmp_path, [(f"General {i:02d}",) for i in range(1, 5)], name="other.xlsx")
    assert one_line_error(other, "import", str(out), str(other)) == (
        "r.csv:2:6: cannot read 'lots' as a score; a score is a number from 0")


@pytest.fixture
def sheet(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    """A Google Sheet on the local fake of the Sheets v4 API, reached through real gspread calls."""
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server


def test_scores_on_a_google_sheet(sheet: FakeSheets) -> None:
    setup_event(sheet, [f"General {i}" for i in range(1, 5)])
    row = next(r for r, cells in enumerate(gsheet_backend(sheet).read().rows("Settings"), start=1)
               if cells and cells[0] == "tiebreaks")
    sheet.type(KEY, "Settings", {f"B{row}": "margin, goal_average"})
    assert run("pair", KEY)[0] == 0
    sheet.type(KEY, "Results", {"F1": "Score A", "G1": "Score B", "E2": "1-0", "F2": 9, "G2": "four", "E3": "0-1",
                                "F3": 2, "G3": 6})
    before = gsheet_backend(sheet).read().rows("Standings")
    code, _, err = run("standings", KEY)
    assert code == 2 and err.strip() == ("Error: Results!G2: cannot read 'four' as a score; type a number from 0 "
                                         "(victory points, control points), or leave the cell empty")
    assert gsheet_backend(sheet).read().rows("Standings") == before
    sheet.type(KEY, "Results", {"G2": 4})
    assert run("standings", KEY)[0] == 0
    rows = gsheet_backend(sheet).read().rows("Standings")
    assert rows[1][5:7] == ("Margin", "Goal avg")
    results = gsheet_backend(sheet).read().rows("Results")
    (a1, b1), (a2, b2) = ((row[2], row[3]) for row in results[1:3])
    # 9-4: margin +5, goal average 9/4; 2-6: the winner B +4 and 6/2, the loser A -4 and 2/6; the loser B -5, 4/9
    assert [tuple(r[1:2] + r[5:7]) for r in rows[2:6]] == [(a1, 5, 2.25), (b2, 4, 3), (a2, -4, 0.3333),
                                                           (b1, -5, 0.4444)]


def test_slips_have_a_line_for_the_scores_when_the_event_keeps_them(tmp_path: Path) -> None:
    path = scored_workbook(tmp_path, 4, tiebreaks="margin")
    assert run("pair", str(path))[0] == 0
    assert run("slips", str(path))[0] == 0
    rows = ExcelBackend(path).read().rows("Slips")
    g = next(g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.table == 1)
    first = next(i for i, row in enumerate(rows) if row and row[0] == "Round 1")
    assert rows[first + 2][0] == "Result:" and rows[first + 3] == ("Scores:", f"{g.a}: ____", None, None,
                                                                   f"{g.b}: ____")
    plain = new_workbook(tmp_path, [(f"P{i}",) for i in range(4)], name="plain.xlsx")
    assert run("pair", str(plain))[0] == 0 and run("slips", str(plain))[0] == 0
    assert not any(row and row[0] == "Scores:" for row in ExcelBackend(plain).read().rows("Slips"))


def test_the_score_tiebreaks_are_the_family_module_s() -> None:
    from sheetswiss.tiebreaks import TIEBREAKS
    from sheetswiss.tiebreaks.scores import SCORE_TIEBREAKS

    family = {name for name, tb in TIEBREAKS.items() if tb.value is not None
              and tb.value.__module__ == "sheetswiss.tiebreaks.scores"}
    assert family == SCORE_TIEBREAKS
