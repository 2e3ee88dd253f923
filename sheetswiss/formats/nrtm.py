"""Netrunner's results JSON, as Cobra exports it and Always Be Running imports it (RULES.md 11.2).

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
from ..model import Event, Game, PlayerId
from ..playoffs import Bracket
from ..results import Outcome, ResultKind
from ..scoring import per_round, scale_for
from ..standings import Standings
from ..tiebreaks import Context

__all__ = ["Identities", "write"]


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
