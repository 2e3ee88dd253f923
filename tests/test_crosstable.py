"""A real event's published tiebreaks, recomputed from its crosstable (tests/data/README.md).

Hamilton Chess Club Championship 2018 (New Zealand): 27 players, 6 rounds, with requested half
byes, pairing-allocated byes and two players absent from the last round. The club published the
tiebreaks of the two players tied for first; sheetswiss reproduces all ten figures exactly under
``unplayed: fide2009`` (an opponent's unplayed rounds count as draws), and only under it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sheetswiss.model import Event, Game, Player
from sheetswiss.results import Result
from sheetswiss.settings import Settings
from sheetswiss.standings import compute_standings

DATA = Path(__file__).resolve().parent / "data" / "hamilton_club_champs_2018.txt"
COLUMNS = {"DirE": "direct_encounter", "Cmlt": "progress", "BucT": "buchholz", "S-B": "sonneborn_berger",
           "Buc1": "buchholz_cut1"}
"""The published columns, in the NZCF order the club applied, and their sheetswiss names."""
_RESULT = {"+": "1-0", "=": "1/2", "-": "0-1"}
_BYE = {"+": "bye", "=": "half bye"}


def crosstable() -> tuple[list[tuple[str, Fraction, list[str]]], dict[str, dict[str, Fraction]]]:
    """The crosstable rows (name, published points, one entry per round) and the published tiebreaks."""
    rows: list[tuple[str, Fraction, list[str]]] = []
    published: dict[str, dict[str, Fraction]] = {}
    header: list[str] = []
    for line in DATA.read_text().splitlines():
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        if fields[0] == "Pos":
            header = fields[2:]
        elif header:
            published[fields[1]] = {h: Fraction(v) for h, v in zip(header, fields[2:])}
        else:
            rows.append((fields[1], Fraction(fields[2]), fields[3:]))
    return rows, published


def event(unplayed: str) -> Event:
    """The event as a GM would type it: each game once, from White's side; byes as bye rows.

    The two players with five entries (Hilton Bennett, Ian Kennedy) have no row in round 6: every
    other entry pairs up round by round only when their missing round is the last.
    """
    rows, _ = crosstable()
    names = [name for name, _, _ in rows]
    games = []
    for name, _, entries in rows:
        for r, entry in enumerate(entries, start=1):
            result, colour, opponent = entry[0], entry[1], entry[2:]
            if opponent == "YE":  # "+BYE" / "=BYE"
                games.append((r, name, None, _BYE[result]))
            elif colour == "W":
                games.append((r, name, names[int(opponent) - 1], _RESULT[result]))
    games.sort(key=lambda g: g[0])
    return Event(
        settings=Settings(points="chess", unplayed=unplayed, tiebreaks=tuple(COLUMNS.values())),
        players=tuple(Player(name=n, row=i + 2) for i, n in enumerate(names)),
        games=tuple(Game(round=r, table=None, a=a, b=b, result=Result.parse(res), row=i + 2, cell=f"Results!E{i + 2}")
                    for i, (r, a, b, res) in enumerate(games)))


def values(unplayed: str) -> dict[str, dict[str, Fraction]]:
    """Each player's points and tiebreaks, by published column."""
    standings = compute_standings(event(unplayed))
    return {row.player: {"Pts": row.points, **dict(zip(COLUMNS, row.values))} for row in standings.rows}


def test_every_published_score_recomputes() -> None:
    rows, _ = crosstable()
    ours = values("fide2009")
    assert {name: ours[name]["Pts"] for name, _, _ in rows} == {name: pts for name, pts, _ in rows}


@pytest.mark.parametrize(("player", "column"), [(p, c) for p in ("Richard_Dare", "Graham_Nolan") for c in COLUMNS])
def test_published_tiebreak_recomputes_exactly_under_fide2009(player: str, column: str) -> None:
    """All ten figures, exactly (the club prints them in full: 19.75, 17.25), under the FIDE 2009 rule
    in force in 2018: an opponent's unplayed rounds count as draws (RULES.md 4.2, ``fide2009``)."""
    _, published = crosstable()
    assert values("fide2009")[player][column] == published[player][column]


def test_why_fide2009_and_not_another_rule() -> None:
    """Graham Nolan met Maureen Murphy (1 point, all of it a round-5 PAB) and Hilton Bennett (3.5, absent
    in round 6). Counting their unplayed rounds as draws makes them 0.5 and 4.0: Buchholz
    0.5 + 3 + 4 + 5.5 + 3.5 + 3.5 = 20, Cut-1 19.5, as published. With actual scores (``points``)
    Buchholz is also 20 but Cut-1 removes 1, not 0.5 (19); under C.07 Art. 16 (``fide2023``,
    ``fide2026``) the PAB counts in full and only Bennett's last round is a draw: Buchholz 20.5
    and Sonneborn-Berger 17.75 instead of 17.25. Richard Dare's figures agree under every rule.
    """
    _, published = crosstable()
    differ = {rule: {(p, c) for p in published for c in COLUMNS if values(rule)[p][c] != published[p][c]}
              for rule in ("points", "fide2009", "fide2023", "fide2026")}
    assert differ == {"points": {("Graham_Nolan", "Buc1")}, "fide2009": set(),
                      "fide2023": {("Graham_Nolan", "BucT"), ("Graham_Nolan", "S-B")},
                      "fide2026": {("Graham_Nolan", "BucT"), ("Graham_Nolan", "S-B")}}
    assert values("points")["Graham_Nolan"]["Buc1"] == 19
    assert values("fide2023")["Graham_Nolan"]["BucT"] == Fraction(41, 2)


def test_richard_dare_wins_on_the_third_tiebreak() -> None:
    """The post: "Richard takes it on the third tie break" (Total Buchholz, after DE and Cumulative)."""
    top = compute_standings(event("fide2009")).rows[:2]
    assert [(r.rank, r.player) for r in top] == [(1, "Richard_Dare"), (2, "Graham_Nolan")]
    assert [r.values[:2] for r in top] == [(Fraction(1, 2), Fraction(39, 2))] * 2  # DE and Cumulative tie
    assert top[0].values[2] > top[1].values[2]
