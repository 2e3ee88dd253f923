"""event.json: the feed publish writes, validated against the JSON Schema shipped with sheetswiss."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sheetswiss import api
from sheetswiss.feed import SCHEMA_PATH, VERSION

from .helpers import new_workbook, random_results, type_results

jsonschema = pytest.importorskip("jsonschema", reason="pip install -e '.[test]' installs jsonschema")

NOW = dt.datetime(2026, 7, 30, 9, 0)


def validate(feed: object) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(feed)


def test_the_feed_of_a_swiss_with_its_playoff_validates(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(f"Player {i}", 1500 + i) for i in range(1, 10)],
                        settings={"rounds": 3, "top_cut": 4, "round_minutes": 45})
    for r in range(3):
        api.pair(str(path), now=NOW + dt.timedelta(hours=r))
        type_results(path, random_results(r))
    api.publish(str(path), tmp_path / "site", now=NOW)
    feed = json.loads((tmp_path / "site" / "event.json").read_text(encoding="utf-8"))
    validate(feed)
    assert feed["version"] == VERSION == 1 and feed["event"]["paired_rounds"] == 3
    assert [len(r["games"]) for r in feed["rounds"]] == [5, 5, 5]  # four games and a bye each round
    assert sum(g["b"] is None for r in feed["rounds"] for g in r["games"]) == 3
    rows = feed["standings"]["rows"]
    assert len(rows) == 9 and rows[0]["rank"] == 1 and len(rows[0]["tiebreaks"]) == len(feed["standings"]["tiebreaks"])
    assert sum(row["top_cut"] for row in rows) == 4
    assert feed["playoff"] is None and feed["clock"] == {"round": 3, "ends": "2026-07-30T11:45:00"}
    api.playoffs(str(path), now=NOW)
    report = api.publish(str(path), tmp_path / "site", now=NOW)
    assert report.lines[0].endswith(", and the feed event.json")
    feed = json.loads((tmp_path / "site" / "event.json").read_text(encoding="utf-8"))
    validate(feed)
    assert feed["playoff"]["seeds"] == [row["player"] for row in rows[:4]]
    assert feed["playoff"]["champion"] is None and len(feed["playoff"]["matches"]) == 3


def test_the_schema_refuses_a_feed_that_breaks_it(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("Ana",), ("Bo",)])
    api.pair(str(path), now=NOW)
    api.publish(str(path), tmp_path / "site", now=NOW)
    feed = json.loads((tmp_path / "site" / "event.json").read_text(encoding="utf-8"))
    validate(feed)
    assert feed["rounds"][0]["games"][0]["result"] is None
    for broken in ({**feed, "version": 2}, {**feed, "players": [{"name": "Ana"}]},
                   {k: v for k, v in feed.items() if k != "standings"}):
        with pytest.raises(jsonschema.ValidationError):
            validate(broken)
