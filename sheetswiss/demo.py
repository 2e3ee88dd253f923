"""Sample events played through the same library calls the commands use.

``sheetswiss demo`` creates a 40-player Swiss workbook (ratings and clubs, one late entry, one drop), then round by
round pairs, types simulated results into Results as a GM would, and finally writes the standings. ``sheetswiss demo
--format heats`` seats a 60-player WBC-style (World Boardgaming Championships) event over four heats, types
simulated scores into Heats, and ranks the qualifiers. ``sheetswiss demo --format wbc`` plays a 60-player, 3-heat
HMW-P (Heats: Most Wins, then place points, RULES.md 5.8) event from the first heat to the plaques: heats,
qualifiers, the semifinal (one qualifier absent, so the first alternate plays), the final and the places.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from . import api
from .backends.base import Value
from .backends.excel import ExcelBackend
from .heats import Qualification
from .workbook.parse import parse_event

__all__ = ["run", "run_heats", "run_wbc"]

FIRST = ("Ana", "Bo", "Caro", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Milo", "Nia",
         "Omar", "Pia", "Quinn", "Rosa", "Sam", "Tove")
LAST = ("Lima", "Berg", "Chen", "Diaz", "Ekdahl", "Fox", "Grant", "Haas", "Ito", "Joshi")
CLUBS = ("Ashford", "Bexley", "Cromer", "Dunmore", "Elstree", "Falkirk", "Glenroy", "Harlow")
ROUNDS = 6


def _players(seed: int, count: int = 40) -> list[tuple[str, int, str]]:
    rng = random.Random(f"{seed}:demo:players")
    names = [f"{f} {last}" for last in LAST for f in FIRST]
    rng.shuffle(names)
    return [(name, rng.randrange(1200, 2200, 5), rng.choice(CLUBS)) for name in sorted(names[:count])]


def _result(rng: random.Random, rating_a: int, rating_b: int) -> str:
    expected = 1 / (1 + 10 ** ((rating_b - rating_a) / 400))
    roll = rng.random()
    if abs(roll - expected) < 0.05:
        return "1/2"
    return "1-0" if roll < expected else "0-1"


def _start(directory: str | Path, name: str, event_format: str, seed: int,
           settings: dict[str, Value]) -> tuple[Path, ExcelBackend]:
    """A new workbook ``directory/name`` (any old one removed) as ``sheetswiss new`` makes it, with
    ``settings`` typed into Settings as a GM would."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.unlink(missing_ok=True)
    api.new(str(path), format=event_format, seed=seed)
    backend = ExcelBackend(path)
    backend.fill_cells("Settings", {f"B{r}": settings[str(row[0])]
                                    for r, row in enumerate(backend.read().rows("Settings")[1:], start=2)
                                    if row and str(row[0]) in settings})
    return path, backend


def _type_players(backend: ExcelBackend, players: list[tuple[str, int, str]], *, ratings: bool,
                  late: str | None = None) -> None:
    """Type the players' names and clubs (and ``ratings``) into Players; ``late`` joins in round 2."""
    typed: dict[str, Value] = {}
    for r, (name, rating, club) in enumerate(players, start=2):
        typed[f"A{r}"] = name
        if ratings:
            typed[f"B{r}"] = rating
        typed[f"C{r}"] = club
        if name == late:
            typed[f"E{r}"] = 2
    backend.fill_cells("Players", typed)


def run(directory: str | Path, *, seed: int = 2026, progress: Callable[[str], None] = print) -> api.Report:
    """Create ``directory/sheetswiss-demo.xlsx`` and play it through; return the final standings report."""
    path, backend = _start(directory, "sheetswiss-demo.xlsx", "swiss", seed,
                           {"event_name": "sheetswiss demo open", "rounds": ROUNDS, "top_cut": 8,
                            "avoid_same_club": "first_round"})
    source = str(path)
    players = _players(seed)
    late, leaving = players[5][0], players[11][0]
    _type_players(backend, players, ratings=True, late=late)
    ratings = {name: rating for name, rating, _ in players}
    progress(f"Demo event: {len(players)} players, {ROUNDS} rounds, in {path}")
    for round_ in range(1, ROUNDS + 1):
        if round_ == 4:
            event = parse_event(backend.read())
            row = event.by_name[leaving].row
            backend.fill_cells("Players", {f"D{row}": 3})
            progress(f"  {leaving} drops after round 3")
        report = api.pair(source)
        progress(f"  round {round_}: " + report.lines[0].split(": ", 1)[1])
        event = parse_event(backend.read())
        rng = random.Random(f"{seed}:demo:results:{round_}")
        typed: dict[str, Value] = {g.cell.split("!")[1]: _result(rng, ratings[g.a], ratings[g.b])
                 for g in event.games_in(round_) if g.b is not None and g.result is None}
        backend.fill_cells("Results", typed)
    final = api.standings(source)
    progress(f"Finished: {path}")
    return final


HEATS = 4


def run_heats(directory: str | Path, *, seed: int = 2026, progress: Callable[[str], None] = print) -> api.Report:
    """Create ``directory/sheetswiss-heats-demo.xlsx`` (60 players, 4 heats) and play it through;
    return the qualifiers report."""
    path, backend = _start(directory, "sheetswiss-heats-demo.xlsx", "heats", seed,
                           {"event_name": "sheetswiss demo heats"})
    source = str(path)
    players = _players(seed, 60)
    _type_players(backend, players, ratings=False)
    progress(f"Demo heat event: {len(players)} players, {HEATS} heats, in {path}")
    rng = random.Random(f"{seed}:demo:heats")
    for heat in range(1, HEATS + 1):
        present = sorted(rng.sample([name for name, _, _ in players], rng.randrange(24, 41)))
        report = api.seat(source, heat=heat, players=present)
        progress(f"  {report.lines[0]}")
        _type_scores(backend, heat, rng)
    final = api.qualify(source)
    progress(f"Finished: {path}")
    return final


WBC_HEATS = 3


def _type_scores(backend: ExcelBackend, heat: Value, rng: random.Random) -> None:
    """Type distinct scores for every table of ``heat`` (a number, or a round's name) with no score yet."""
    tables: dict[Value, list[int]] = {}
    for r, row in enumerate(backend.read().rows("Heats")[1:], start=2):
        if row[0] == heat and (len(row) < 4 or row[3] is None):
            tables.setdefault(row[1], []).append(r)
    scores: dict[str, Value] = {}
    for rows in tables.values():  # distinct scores at a table, so places need no GM tiebreak
        drawn = rng.sample(range(20, 61), len(rows))
        scores.update({f"D{r}": points for r, points in zip(rows, drawn, strict=True)})
    backend.fill_cells("Heats", scores)


def run_wbc(directory: str | Path, *, seed: int = 2026, progress: Callable[[str], None] = print) -> api.Report:
    """Create ``directory/sheetswiss-wbc-demo.xlsx`` (60 players, 3 heats, HMW-P) and play it from the first
    heat to the plaques; return the places report."""
    path, backend = _start(directory, "sheetswiss-wbc-demo.xlsx", "heats", seed,
                           {"event_name": "sheetswiss demo WBC", "method": "HMW-P", "gm_tiebreak": "margin"})
    source = str(path)
    players = _players(seed, 60)
    _type_players(backend, players, ratings=False)
    progress(f"Demo WBC event: {len(players)} players, {WBC_HEATS} heats, HMW-P, in {path}")
    rng = random.Random(f"{seed}:demo:wbc")
    for heat in range(1, WBC_HEATS + 1):
        present = sorted(rng.sample([name for name, _, _ in players], rng.randrange(28, 41)))
        progress(f"$ sheetswiss seat {path.name} --heat {heat} --players ...")
        progress(api.seat(source, heat=heat, players=present).lines[0])
        _type_scores(backend, heat, rng)
    progress(f"$ sheetswiss qualify {path.name}")
    qualified = api.qualify(source)
    progress(qualified.text())
    assert isinstance(qualified.data, Qualification)
    absent = qualified.data.qualified[0]  # the top seed does not show up: the first alternate plays
    progress(f'$ sheetswiss advance {path.name} --absent "{absent}"')
    progress(api.advance(source, absent=[absent]).text())
    _type_scores(backend, "semifinal", rng)
    progress(f"$ sheetswiss advance {path.name}")
    progress(api.advance(source).text())
    _type_scores(backend, "final", rng)
    progress(f"$ sheetswiss advance {path.name}")
    final = api.advance(source)
    progress(f"Finished: {path}")
    return final
