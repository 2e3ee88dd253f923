"""Netrunner's results JSON, as Cobra exports it and Always Be Running imports it (RULES.md 11.2).

Called NRTM after NetRunner Tournament Manager, the app that first wrote it. SoS is the strength of schedule
and ESoS the extended strength of schedule, Netrunner's tiebreaks as Cobra computes them (RULES.md 4.12); a
PAB is a pairing-allocated bye.

The shape (Cobra's ``NrtmJson``): ``name``, ``date``, ``cutToTop``, ``preliminaryRounds``,
``tournamentOrganiser``, ``players`` (``id``, ``name``, ``rank``, ``corpFaction``, ``corpIdentity``,
``runnerFaction``, ``runnerIdentity``, ``matchPoints``, ``strengthOfSchedule``,
``extendedStrengthOfSchedule``), ``eliminationPlayers`` (``id``, ``name``, ``rank``, ``seed``), ``rounds``
(a list per round of pairings: ``table``, ``player1``, ``player2``, ``intentionalDraw``, ``twoForOne``,
``eliminationGame``), ``uploadedFrom`` and ``links``. Always Be Running's importer needs every player
to carry the keys ``corpIdentity`` and ``runnerIdentity`` (their values may be ``null``) and reads
``rank``, ``name``, ``id``, ``cutToTop`` and each elimination player's ``id`` and ``rank``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, final

from ..cut_sides import CutSide
from ..errors import Problems, SheetswissError
from ..model import Event, Game, PlayerId
from ..playoffs import Bracket
from ..results import Outcome, ResultKind
from ..scoring import per_round, scale_for
from ..standings import Standings
from ..tiebreaks import Context
from .trf import Imported

__all__ = ["Identities", "Published", "read", "write"]


@final
@dataclass(frozen=True, slots=True)
class Identities:
    """A player's decks, from the Players tab's optional Corp, Runner, Corp faction and Runner faction columns."""

    corp: str | None = None
    runner: str | None = None
    corp_faction: str | None = None
    runner_faction: str | None = None


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Cut:
    """The top cut as the Playoffs tab has it."""

    bracket: Bracket
    sides: Mapping[str, CutSide] = field(default_factory=dict)


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


_CLASSES = {Outcome.A_WINS: ("W", "L"), Outcome.B_WINS: ("L", "W"), Outcome.DRAW: ("D", "D"),
            Outcome.BOTH_LOSE: ("L", "L")}


def _game_points(event: Event, g: Game) -> tuple[Fraction, Fraction]:
    """Player A's and Player B's points for one Results row with an opponent (one game)."""
    assert g.result is not None
    scale = scale_for(event.settings)
    ca, cb = _CLASSES[g.result.outcome]
    return scale.points(ca, g.result.games), scale.points(cb, g.result.games)


def _side(player: int | None, role: str | None, score: Fraction | None) -> dict[str, Any]:
    """A single-sided pairing's player: the role, and the score on that side (Cobra's ``score_for_pairing``)."""
    entry: dict[str, Any] = {"id": player, "role": role}
    points = None if score is None else _number(score)
    entry["combinedScore"] = points
    entry["corpScore"] = points if role == "corp" else None
    entry["runnerScore"] = points if role == "runner" else None
    return entry


def _swiss_rounds(event: Event, rounds: int, ids: Mapping[PlayerId, int]) -> list[list[dict[str, Any]]]:
    double = event.settings.sides == "double"
    single = event.settings.sides == "single"
    bye_points = per_round(scale_for(event.settings), event.settings.games_per_round).bye
    out: list[list[dict[str, Any]]] = []
    for r in range(1, rounds + 1):
        pairings: list[dict[str, Any]] = []
        matches: dict[frozenset[str], dict[str, Any]] = {}
        for g in event.games_in(r):
            if g.result is None:
                continue
            table = g.table if g.table is not None else len(pairings) + 1
            if g.b is None:
                points = bye_points if g.result.kind is ResultKind.PAB else {
                    ResultKind.HALF_BYE: per_round(scale_for(event.settings), event.settings.games_per_round).draw
                }.get(g.result.kind, Fraction(0))
                half = _number(points / 2) if double else None
                p1 = ({"id": ids[g.a], "runnerScore": half, "corpScore": half, "combinedScore": _number(points)}
                      if double else _side(ids[g.a], None, points))
                p2 = ({"id": None, "runnerScore": 0, "corpScore": 0, "combinedScore": 0} if double
                      else {"id": None, "role": None, "combinedScore": 0, "corpScore": None, "runnerScore": None})
                pairings.append({"table": table, "player1": p1, "player2": p2, "intentionalDraw": False,
                                 "twoForOne": False, "eliminationGame": False})
                continue
            pa, pb = _game_points(event, g)
            if not double:
                roles = ("corp", "runner") if single else (None, None)
                pairings.append({"table": table, "player1": _side(ids[g.a], roles[0], pa),
                                 "player2": _side(ids[g.b], roles[1], pb), "intentionalDraw": False,
                                 "twoForOne": False, "eliminationGame": False})
                continue
            key = frozenset((g.a, g.b))
            match = matches.get(key)
            if match is None:  # the first game: its Player A is player1, the corp in it
                match = {"table": table,
                         "player1": {"id": ids[g.a], "runnerScore": 0, "corpScore": _number(pa), "combinedScore": 0},
                         "player2": {"id": ids[g.b], "runnerScore": _number(pb), "corpScore": 0, "combinedScore": 0},
                         "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}
                matches[key] = match
                pairings.append(match)
            else:  # the second game: player1 is the runner
                match["player1"]["runnerScore"] = _number(pb)
                match["player2"]["corpScore"] = _number(pa)
            for side in ("player1", "player2"):
                match[side]["combinedScore"] = match[side]["runnerScore"] + match[side]["corpScore"]
        out.append(pairings)
    return out


def _cut_rounds(cut: Cut, ids: Mapping[PlayerId, int]) -> list[list[dict[str, Any]]]:
    by_round: dict[int, list[dict[str, Any]]] = {}
    for table, m in enumerate((m for m in cut.bracket.matches if m.winner and not m.walkover), start=1):
        a, b = m.a.player, m.b.player
        assert a is not None and b is not None
        side = cut.sides.get(m.id)
        corp = side.corp if side is not None else None
        by_round.setdefault(m.round, []).append({
            "table": table,
            "player1": {"id": ids.get(a), "role": None if corp is None else "corp" if corp == a else "runner",
                        "winner": m.winner == a},
            "player2": {"id": ids.get(b), "role": None if corp is None else "corp" if corp == b else "runner",
                        "winner": m.winner == b},
            "intentionalDraw": False, "twoForOne": False, "eliminationGame": True})
    return [by_round[r] for r in sorted(by_round)]


def write(event: Event, table: Standings, *, date: dt.date, identities: Mapping[PlayerId, Identities],
          cut: Cut | None = None) -> str:
    """The event as Netrunner results JSON (RULES.md 11.2): ids are Players rows in order (1, 2, ...).

    SoS and ESoS are Cobra's (:func:`~sheetswiss.tiebreaks.cobra_sos`) whatever the tiebreak chain; the
    Swiss rounds are the completed ones; the elimination rounds are the Playoffs tab's decided games,
    with each game's sides where they are known.
    """
    ids = {p.name: i for i, p in enumerate(event.players, start=1)}
    ctx = Context.of(event, through=table.rounds)
    sos, esos = ctx.values("cobra_sos"), ctx.values("cobra_esos")
    players = []
    for row in table.rows:
        ident = identities.get(row.player, Identities())
        players.append({
            "id": ids[row.player], "name": row.player, "rank": row.rank,
            "corpFaction": ident.corp_faction, "corpIdentity": ident.corp,
            "runnerFaction": ident.runner_faction, "runnerIdentity": ident.runner,
            "matchPoints": _number(row.points),
            "strengthOfSchedule": float(sos[row.player]), "extendedStrengthOfSchedule": float(esos[row.player])})
    elimination = []
    if cut is not None:
        seed = {p: i for i, p in enumerate(cut.bracket.seeds, start=1)}
        places = cut.bracket.places() if cut.bracket.champion else {}
        order = sorted(cut.bracket.seeds, key=lambda p: (places.get(p, (seed[p], seed[p]))[0], seed[p]))
        elimination = [{"id": ids.get(p), "name": p, "rank": i, "seed": seed[p]} for i, p in enumerate(order, start=1)]
    data = {
        "name": event.settings.event_name,
        "date": f"{date:%Y-%m-%d}",
        "cutToTop": len(cut.bracket.seeds) if cut is not None else 0,
        "preliminaryRounds": table.rounds,
        "tournamentOrganiser": {"nrdbId": None, "nrdbUsername": None},
        "players": players,
        "eliminationPlayers": elimination,
        "rounds": _swiss_rounds(event, table.rounds, ids) + (_cut_rounds(cut, ids) if cut is not None else []),
        "uploadedFrom": "sheetswiss",
        "links": [],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --- Reading -------------------------------------------------------------------------------------------

_GAME = {(3, 0): "1-0", (0, 3): "0-1", (1, 1): "1/2", (0, 0): "--"}
"""One game's points (corp, runner) as a Results spelling, the corp being Player A."""
_MATCH = {(6, 0): ("1-0", "0-1"), (0, 6): ("0-1", "1-0"), (3, 3): ("1-0", "1-0"), (4, 1): ("1-0", "1/2"),
          (1, 4): ("1/2", "1-0"), (2, 2): ("1/2", "1/2"), (3, 0): ("1-0", "--"), (0, 3): ("--", "1-0"),
          (1, 0): ("1/2", "--"), (0, 1): ("--", "1/2"), (0, 0): ("--", "--")}
"""A double-sided round's combined points (player1, player2) as its two games, when the sides' points are
not given: player1 is the corp in the first (a split is read as each winning as the corp, *decision*)."""


def _score(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise ValueError(f"{value!r} is not a whole number of points")
    return int(value)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Published:
    """A player's points, SoS and ESoS as the file states them (to compare with sheetswiss's)."""

    points: Fraction | None
    sos: float | None
    esos: float | None


def read(text: str, source: str) -> tuple[Imported, dict[str, Published]]:
    """Workbook rows from Netrunner results JSON (Cobra's or NRTM's export; RULES.md 11.2), and what the
    file says of each player's points, SoS and ESoS.

    Swiss rounds only (the elimination games are the Playoffs tab's, which the tool draws). A
    double-sided round becomes two Results rows (player1 is the corp in the first); a single-sided one a
    row with the corp as Player A. A player first paired after round 1 gets Joined, one whose pairings
    stop early Status (the round of their last pairing). Problems are one line naming the round and table (a
    player, its index in players), every one of the file in one run.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SheetswissError(f"{source}:{e.lineno}:{e.colno}: not readable JSON ({e.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise SheetswissError(f"{source}: no players list; is this a Netrunner results file (Cobra, NRTM)?")
    names: dict[object, str] = {}
    published: dict[str, Published] = {}
    problems = Problems()
    unnamed: set[str] = set()
    for i, p in enumerate(data["players"], start=1):
        if not isinstance(p, dict) or "id" not in p or not str(p.get("name") or "").strip():
            problems.add(SheetswissError(f"{source}: players[{i - 1}] has no id or no name"))
            if isinstance(p, dict) and "id" in p:
                unnamed.add(str(p["id"]))  # its pairings are not named again
            continue
        name = str(p["name"]).strip()
        if name in names.values():
            name = f"{name} ({p['id']})"
        names[p["id"]] = name
        pts = p.get("matchPoints")
        published[name] = Published(points=Fraction(pts) if isinstance(pts, (int, float)) else None,
                                    sos=p.get("strengthOfSchedule"), esos=p.get("extendedStrengthOfSchedule"))
    swiss = [r for r in data.get("rounds") or [] if isinstance(r, list)
             and not any(isinstance(m, dict) and m.get("eliminationGame") for m in r)]
    single = any(isinstance(m, dict) and isinstance(m.get("player1"), dict) and "role" in m["player1"]
                 and m["player1"].get("role") for r in swiss for m in r)
    results: list[tuple[int, int | None, str, str, str]] = []
    seen: dict[str, list[int]] = {name: [] for name in names.values()}
    for r, pairings in enumerate(swiss, start=1):
        for m in pairings:
            where = f"{source}: round {r}, table {m.get('table', '?')}"
            p1, p2 = m.get("player1") or {}, m.get("player2") or {}
            a, b = names.get(p1.get("id")), names.get(p2.get("id"))
            if (p1.get("id") is not None and a is None) or (p2.get("id") is not None and b is None):
                if not {str(p1.get("id")), str(p2.get("id"))} & unnamed:
                    problems.add(SheetswissError(f"{where}: a player id that is not in players"))
                continue
            table = m.get("table") if isinstance(m.get("table"), int) else None
            try:
                if a is None or b is None:
                    alone = a or b
                    if alone is not None:
                        results.append((r, table, alone, "BYE", "bye"))
                        seen[alone].append(r)
                    continue
                seen[a].append(r)
                seen[b].append(r)
                if single:
                    corp, runner = (p1, p2) if p1.get("role") != "runner" else (p2, p1)
                    game = (_score(corp.get("combinedScore")) or 0, _score(runner.get("combinedScore")) or 0)
                    results.append((r, table, names[corp["id"]], names[runner["id"]], _GAME[game]))
                    continue
                c1, r1, c2, r2 = (_score(p1.get("corpScore")), _score(p1.get("runnerScore")),
                                  _score(p2.get("corpScore")), _score(p2.get("runnerScore")))
                if None not in (c1, r1, c2, r2):
                    first, second = _GAME[(c1 or 0, r2 or 0)], _GAME[(c2 or 0, r1 or 0)]
                else:
                    first, second = _MATCH[(_score(p1.get("combinedScore")) or 0,
                                            _score(p2.get("combinedScore")) or 0)]
                results += [(r, table, a, b, first), (r, table, b, a, second)]
            except (KeyError, ValueError) as e:
                problems.add(SheetswissError(f"{where}: cannot read the scores as Netrunner games ({e})"))
    problems.raise_any()
    rounds = len(swiss)
    players = []
    for name, played in seen.items():
        results += [(r, None, name, "BYE", "absent") for r in range(min(played, default=1), max(played, default=0))
                    if r not in played]  # a round missed between two played: no Cobra pairing, an absent row
        joined = min(played) if played and min(played) > 1 else None
        status: str | int = ""
        if played and max(played) < rounds:
            status = max(played)
        elif not played and rounds:
            status = "dropped"
        players.append((name, None, "", status, joined))
    results.sort(key=lambda row: (row[0], row[1] is None, row[1] or 0))  # by round, then table; byes last
    settings = [("event_name", str(data.get("name") or "")), ("points", "netrunner"),
                ("sides", "single" if single else "double")]
    prelim = data.get("preliminaryRounds")
    if isinstance(prelim, int) and prelim > 0:
        settings.append(("rounds", str(prelim)))
    cut = data.get("cutToTop")
    if isinstance(cut, int):
        settings.append(("top_cut", str(cut)))
    notes = []
    if len(swiss) < len(data.get("rounds") or []):
        notes.append(f"{len(data['rounds']) - len(swiss)} elimination rounds left out: run sheetswiss playoffs and "
                     "type the winners")
    return Imported(settings=tuple((k, v) for k, v in settings if v), players=tuple(players),
                    results=tuple(results), notes=tuple(notes)), published
