"""``event.json``: the live feed a stream overlay or a bot reads (RULES.md 10.6), written by ``publish``.

Pure: the event and what was computed from it, as plain JSON values. The layout is fixed by the JSON Schema
shipped beside this module (``event.schema.json``); :data:`VERSION` changes whenever a field changes meaning or
goes away (a new optional field keeps it).
"""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from .model import Event
from .playoffs import Bracket
from .standings import Standings

__all__ = ["SCHEMA_PATH", "VERSION", "event_feed", "feed_json"]

VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("event.schema.json")


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def event_feed(event: Event, table: Standings, *, bracket: Bracket | None, ends: dt.datetime | None,
               when: dt.datetime) -> dict[str, Any]:
    """The feed of a Swiss event: players, every paired round's games and results, the standings with their
    tiebreaks, the playoff when drawn, and the round clock when set."""
    cut = set(table.qualified)
    return {
        "schema": "sheetswiss-event",
        "version": VERSION,
        "generated": when.isoformat(timespec="seconds"),
        "event": {"name": event.settings.event_name, "format": event.settings.format,
                  "points": event.settings.points, "rounds_planned": event.settings.rounds,
                  "paired_rounds": event.paired_rounds, "sides": event.settings.sides},
        "players": [{"name": p.name, "rating": p.rating, "club": p.club or None,
                     "status": "dropped" if p.dropped else "active", "joined": p.joined,
                     "last_round": p.dropped_after} for p in event.players],
        "not_checked_in": [p.name for p in event.waiting],
        "rounds": [{"round": r, "games": [
            {"table": g.table, "a": g.a, "b": g.b, "result": g.result.spelling() if g.result is not None else None}
            for g in event.games_in(r)]} for r in range(1, event.paired_rounds + 1)],
        "standings": {
            "after_round": table.rounds,
            "tiebreaks": [{"name": tb.name, "title": tb.title} for tb in table.tiebreaks],
            "rows": [{"rank": row.rank, "shared": row.shared, "player": row.player, "points": _number(row.points),
                      "wins": row.wins, "draws": row.draws, "losses": row.losses, "dropped": row.dropped,
                      "top_cut": row.player in cut, "tiebreaks": [_number(v) for v in row.values]}
                     for row in table.rows]},
        "playoff": None if bracket is None else {
            "system": bracket.system, "seeds": list(bracket.seeds), "champion": bracket.champion,
            "matches": [{"id": m.id, "label": m.label, "a": m.a.player, "b": m.b.player, "winner": m.winner}
                        for m in bracket.matches]},
        "clock": None if ends is None else {"round": event.paired_rounds,
                                            "ends": ends.isoformat(timespec="seconds")},
    }


def feed_json(feed: dict[str, Any]) -> str:
    """The feed as written: UTF-8 JSON, keys in a stable order, indented for a person reading it."""
    return json.dumps(feed, ensure_ascii=False, indent=1) + "\n"
