"""Pairs to avoid (RULES.md 2.12): the Avoid tab read like every GM tab, and kept apart like a rematch."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import SheetswissError
from sheetswiss.model import AvoidPair, Event
from sheetswiss.pairing import check_pairing, pair_round
from sheetswiss.workbook.parse import parse_event

from .helpers import add_round, make_event, new_workbook, random_results, refused, run, type_results


def add_avoid(path: Path, rows: Sequence[tuple[object, ...]], header: tuple[str, ...] = ("Player", "Player", "Why")
              ) -> None:
    """Add an Avoid tab to the workbook as a GM does in a spreadsheet program."""
    wb = openpyxl.load_workbook(path)
    if "Avoid" in wb.sheetnames:  # the template's, header only
        del wb["Avoid"]
    ws = wb.create_sheet("Avoid")
    ws.append(header)
    for row in rows:
        ws.append(row)
    wb.save(path)




def new_club_event(path: Path) -> None:
    """The README's club event: a new workbook of seed 18 with the demo's 40 players and 8 rounds."""
    from sheetswiss.demo import _players

    from .test_readme import fill

    assert run("new", str(path), "--seed", "18")[0] == 0
    players = _players(2026, 40)
    fill(path, "Players", {"A": [p[0] for p in players], "B": [p[1] for p in players],
                           "C": [p[2] for p in players]}, {"rounds": 8})


FORTY = [(f"Player {i:02d}", 2400 - 10 * i) for i in range(1, 41)]
SIBLINGS = [("Player 01", "Player 21", "siblings"), ("Player 02", "Player 22", "siblings"),
            ("Player 05", "Player 06", "teammates"), ("Player 30", "Player 31", "")]


def test_avoid_tab_is_read_with_names_matched_as_everywhere(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("José Álvarez", 1800), ("Grace O'Malley", 1700), ("Ana Berg", 1600)])
    add_avoid(path, [("jose alvarez", "GRACE O’MALLEY", "siblings"), (None, None, None),
                     ("Ana Berg", "José Álvarez", None), ("Grace O'Malley", "jose alvarez", "again")])
    event = parse_event(ExcelBackend(path).read())
    assert event.avoid == (AvoidPair(a="José Álvarez", b="Grace O'Malley", why="siblings", row=2),
                           AvoidPair(a="Ana Berg", b="José Álvarez", why="", row=4))
    assert event.avoid[0].reason == "Avoid row 2: siblings"
    assert event.avoid[1].reason == "Avoid row 4"


def test_no_avoid_tab_means_no_pairs(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("Ana", 1800), ("Bo", 1700)])
    assert parse_event(ExcelBackend(path).read()).avoid == ()


def test_an_unknown_name_in_avoid_is_one_line_naming_the_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, FORTY)
    add_avoid(path, [("Player 01", "Player 21", "siblings"), ("Player 03", "Plaayer 04", "club")])
    assert refused(path, "pair", str(path)) == (
        "Avoid!B3: 'Plaayer 04' is not in Players; did you mean 'Player 04', 'Player 40' or 'Player 34'?")


def test_bad_avoid_rows_are_each_named(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, FORTY)
    add_avoid(path, [("Player 01", None, "siblings"), ("Player 03", "player 03", None)])
    before = path.read_bytes()
    code, _, err = run("pair", str(path))
    assert code == 2 and path.read_bytes() == before
    assert err.splitlines() == [
        "Error: Avoid!B2: the player is missing; a row of Avoid names two players",
        "Error: Avoid!B3: 'Player 03' is on both sides of this row; name two different players"]


def test_an_avoid_tab_without_two_player_columns_is_refused(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, FORTY)
    add_avoid(path, [("Player 01", "Player 21")], header=("Name", "Other"))
    assert refused(path, "pair", str(path)).startswith("Avoid!1: row 1 needs two columns headed Player")


def test_siblings_never_meet_over_eight_rounds_of_forty(tmp_path: Path) -> None:
    """The issue's check: siblings listed in Avoid never meet over 8 rounds of a 40-player event."""
    path = new_workbook(tmp_path, FORTY, settings={"points": "chess", "rounds": 8})
    add_avoid(path, SIBLINGS)
    kept_apart = {frozenset(row[:2]) for row in SIBLINGS}
    for r in range(1, 9):
        code, _, err = run("pair", str(path))
        assert code == 0, err
        type_results(path, random_results(r))
    event = parse_event(ExcelBackend(path).read())
    assert event.paired_rounds == 8
    met = {frozenset((g.a, g.b)) for g in event.games if g.b is not None}
    assert not met & kept_apart


def test_explain_shows_the_pairs_kept_apart(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, FORTY)
    add_avoid(path, SIBLINGS)
    code, out, err = run("pair", str(path), "--explain", "--dry-run")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("Avoid: ")]
    assert len(lines) == 4
    assert lines[0].startswith("Avoid: Player 01 (table ")
    assert "kept apart (Avoid row 2: siblings)" in lines[0]


def test_in_round_one_the_avoided_pair_moves_the_pairing() -> None:
    """Rated A-D: round 1 pairs A v C and B v D (top half v bottom half); with A and C kept apart the
    pairing left with the least pattern cost (one step off each, RULES.md 2.5) is drawn."""
    from sheetswiss.model import Player

    players = [Player(name=n, rating=2000 - 100 * i, row=i + 2) for i, n in enumerate("ABCD")]
    event = make_event(players)
    assert {(t.a, t.b) for t in pair_round(event).tables} == {("A", "C"), ("B", "D")}
    kept = replace(event, avoid=(AvoidPair(a="C", b="A", why="siblings", row=2),))
    pairing = pair_round(kept)
    assert {frozenset((t.a, t.b)) for t in pairing.tables} in (
        {frozenset("AD"), frozenset("BC")}, {frozenset("AB"), frozenset("CD")})
    assert check_pairing(kept, pairing) == []
    assert check_pairing(kept, pair_round(event)) == ["A and C are to be kept apart (Avoid row 2: siblings)"]


def _family(fallback: str = "error") -> Event:
    event = make_event("ABCD", avoid_fallback=fallback)
    return replace(event, avoid=tuple(AvoidPair(a="A", b=x, why="family", row=i + 2) for i, x in enumerate("BCD")))


def test_a_pairing_that_needs_an_avoided_pair_is_refused_naming_it() -> None:
    with pytest.raises(SheetswissError) as e:
        pair_round(_family())
    assert str(e.value) == (
        "Avoid: round 1 cannot be paired without A v B (Avoid row 2: family), kept apart by the Avoid tab "
        "(avoid_fallback is error); set avoid_fallback to fewest to allow the fewest such pairs, or delete the row")


def test_avoid_fallback_fewest_pairs_the_fewest_and_says_so() -> None:
    event = _family("fewest")
    pairing = pair_round(event)
    assert len(pairing.avoided) == 1 and pairing.rematches == ()
    a, b = pairing.avoided[0]
    assert pairing.notes == (f"1 pair(s) of the Avoid tab could not be kept apart: {a} v {b} "
                             f"(Avoid row {'BCD'.index(b if a == 'A' else a) + 2}: family)",)
    assert check_pairing(event, pairing) == []


def test_rematch_fallback_error_still_allows_relaxing_avoid_alone() -> None:
    """A-B met in round 1 and A-C, A-D are to be avoided: round 2 must pair A with someone. Under
    ``rematch_fallback: error`` and ``avoid_fallback: fewest`` A meets C or D, never B again."""
    event = make_event("ABCD", [(1, "A", "B", "1-0"), (1, "C", "D", "1-0")], rematch_fallback="error",
                       avoid_fallback="fewest")
    event = replace(event, avoid=(AvoidPair(a="A", b="C", row=2), AvoidPair(a="A", b="D", row=3)))
    pairing = pair_round(event)
    opponent = next(t.b if t.a == "A" else t.a for t in pairing.tables if "A" in (t.a, t.b))
    assert opponent in ("C", "D") and pairing.rematches == ()
    with pytest.raises(SheetswissError, match=r"^Avoid: round 2 cannot be paired without A v "):
        pair_round(replace(event, avoid=(*event.avoid, AvoidPair(a="A", b="B", row=4)),
                           settings=replace(event.settings, avoid_fallback="error")))


def _perfect(names: Sequence[str], banned: set[frozenset[str]]) -> bool:
    """Whether ``names`` (one may sit out, for the bye) can be paired without a banned pair."""
    if len(names) % 2:
        return any(_perfect([n for n in names if n != out], banned) for out in names)
    if not names:
        return True
    first, rest = names[0], names[1:]
    return any(_perfect([n for n in rest if n != x], banned) for x in rest if frozenset((first, x)) not in banned)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 8), seed=st.integers(0, 10_000), rounds=st.integers(0, 3),
       avoid=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=10))
def test_an_avoided_pair_never_meets_where_the_pairing_can_avoid_it(n: int, seed: int, rounds: int,
                                                                    avoid: list[tuple[int, int]]) -> None:
    """Under ``avoid_fallback: error`` the pairing succeeds exactly when some pairing keeps every Avoid
    pair apart (checked by trying them all), and then no Avoid pair meets; under ``fewest`` it always
    pairs, with as few Avoid pairs as any pairing that allows them."""
    names = [chr(ord("A") + i) for i in range(n)]
    event = make_event(names, seed=seed)
    for _ in range(rounds):
        event = add_round(event, pair_round(event), random_results(seed))
    pairs = tuple(AvoidPair(a=names[i], b=names[j], row=k + 2)
                  for k, (i, j) in enumerate(avoid) if i < n and j < n and i != j)
    event = replace(event, avoid=pairs)
    banned = {frozenset((x.a, x.b)) for x in pairs}
    possible = _perfect(names, banned)
    try:
        pairing = pair_round(event)
    except SheetswissError as e:
        assert not possible and str(e).startswith("Avoid: "), e
    else:
        assert possible
        assert not banned & {frozenset((t.a, t.b)) for t in pairing.tables if t.b is not None}
        assert check_pairing(event, pairing) == []
    relaxed = pair_round(replace(event, settings=replace(event.settings, avoid_fallback="fewest")))
    met = banned | {frozenset((g.a, g.b)) for g in event.games if g.b is not None}
    fewest = min(sum(frozenset(p) in met for p in m) for m in _matchings(names))
    assert len(relaxed.avoided) + len(relaxed.rematches) == fewest


def _matchings(names: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every pairing of ``names`` (the bye left out of the pairs)."""
    if len(names) % 2:
        return [m for out in names for m in _matchings([n for n in names if n != out])]
    if not names:
        return [[]]
    first, rest = names[0], names[1:]
    return [[(first, x), *m] for x in rest for m in _matchings([n for n in rest if n != x])]


def test_matchings_helper_counts() -> None:
    assert len(_matchings("ABCD")) == 3 and len(_matchings("ABCDE")) == 15
    assert list(itertools.chain.from_iterable(_matchings("AB"))) == [("A", "B")]


def test_the_readme_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's club event: 40 players of the demo's list, the sisters' and brothers' Avoid rows."""
    from .test_readme import check

    monkeypatch.chdir(tmp_path)
    new_club_event(Path("club.xlsx"))
    assert "    3  Caro Haas  v  Lea Haas" in run("pair", "club.xlsx", "--dry-run")[1].splitlines()
    add_avoid(Path("club.xlsx"), [("Caro Haas", "Lea Haas", "sisters"), ("milo fox", "Ivo Fox", "brothers")])
    check("sheetswiss pair club.xlsx --explain --dry-run")


def test_the_log_checksum_reads_the_avoid_tab(tmp_path: Path) -> None:
    from sheetswiss.api import checksum

    path = new_workbook(tmp_path, FORTY)
    before = checksum(ExcelBackend(path).read())
    add_avoid(path, SIBLINGS)
    assert checksum(ExcelBackend(path).read()) != before


def test_the_avoid_tab_on_a_google_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rows typed into a Google Sheet (real gspread calls against the local fake of the API): the
    pairs are kept apart, and an unknown name is one line naming the cell with nothing written."""
    from sheetswiss import api
    from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession

    from .fake_sheets import FakeSheets

    key = "1FakeSheetKeyForTheAvoidTab0123456789abcdef"
    with FakeSheets() as fake:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", fake.url)
        fake.create(key)
        api.new(GoogleSheetsBackend(key, session=RewritingSession(fake.url)), seed=5)  # type: ignore[arg-type]
        fake.type(key, "Players", {f"A{r}": name for r, (name, _) in enumerate(FORTY, start=2)})
        fake.type(key, "Avoid", {"A2": "Player 01", "B2": "Player 02", "C2": "siblings",
                                 "A3": "player 03", "B3": "Player 04"})
        code, out, err = run("pair", key, "--explain")
        assert code == 0, err
        assert "Avoid: Player 03 (table " in out
        event = parse_event(GoogleSheetsBackend(key, session=RewritingSession(fake.url)).read())  # type: ignore[arg-type]
        assert [(x.a, x.b) for x in event.avoid] == [("Player 01", "Player 02"), ("Player 03", "Player 04")]
        met = {frozenset((g.a, g.b)) for g in event.games if g.b is not None}
        assert not met & {frozenset(("Player 01", "Player 02")), frozenset(("Player 03", "Player 04"))}
        fake.type(key, "Avoid", {"B3": "Player 4"})
        before = {s.title: dict(s.cells) for s in fake.books[key].sheets}
        code, _, err = run("pair", key)
        assert code == 2 and err.startswith("Error: Avoid!B3: 'Player 4' is not in Players"), err
        assert {s.title: dict(s.cells) for s in fake.books[key].sheets} == before
