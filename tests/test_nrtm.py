"""Netrunner's results JSON (RULES.md 11.2): the shape Cobra exports and Always Be Running's importer reads."""

from __future__ import annotations

import json
from pathlib import Path

from sheetswiss.backends.excel import ExcelBackend

from .test_cli import one_line_error, run
from .test_netrunner import split, sweep
from .test_trf import games, table, workbook

PLAYER_KEYS = {"id", "name", "rank", "corpFaction", "corpIdentity", "runnerFaction", "runnerIdentity", "matchPoints",
               "strengthOfSchedule", "extendedStrengthOfSchedule"}
"""Cobra's player entry (NrtmJson#data)."""
TOP_KEYS = {"name", "date", "cutToTop", "preliminaryRounds", "tournamentOrganiser", "players", "eliminationPlayers",
            "rounds", "uploadedFrom", "links"}
PAIRING_KEYS = {"table", "player1", "player2", "intentionalDraw", "twoForOne", "eliminationGame"}


def abr_reads(data: dict[str, object]) -> list[tuple[str, int, int, str | None, str | None]]:
    """What Always Be Running's importer takes from the file (processNRTMjson): it refuses a file whose
    players lack the identity keys, then makes one entry per Swiss player with its top-cut rank."""
    players = data["players"]
    assert isinstance(players, list)
    for p in players:
        assert "corpIdentity" in p and "runnerIdentity" in p, "ABR: player has no corp/runner identity"
    assert isinstance(data["cutToTop"], int)
    top = {e["id"]: e["rank"] for e in data.get("eliminationPlayers", [])}  # type: ignore[attr-defined]
    return [(p["name"], p["rank"], top.get(p["id"], 0), p["corpIdentity"], p["runnerIdentity"]) for p in players]


def netrunner_event(tmp_path: Path) -> Path:
    players: list[tuple[object, ...]] = [("Laurie",), ("Dan",), ("Johno",)]
    rows = [*split(1, "Dan", "Johno"), (1, "Laurie", None, "bye"), *sweep(2, "Laurie", "Johno"),
            (2, "Dan", None, "bye")]
    path = workbook(tmp_path, "nr.xlsx", players, rows, {"points": "netrunner", "sides": "double",
                                                         "event_name": "Store Champs", "top_cut": 2})
    ExcelBackend(path).fill_cells("Players", {"G1": "Corp", "H1": "Runner", "G2": "Haas-Bioroid: Precision Design",
                                              "H2": "Zahya Sadeghi", "G3": "Jinteki: Restoring Humanity"})
    return path


def test_double_sided_swiss_and_the_cut(tmp_path: Path) -> None:
    path = netrunner_event(tmp_path)
    assert run("playoffs", str(path))[0] == 0
    ExcelBackend(path).fill_cells("Playoffs", {"E3": "Dan", "F3": "Laurie"})
    assert run("playoffs", str(path))[0] == 0
    out = tmp_path / "nr.json"
    code, text, err = run("export", str(path), str(out), "--format", "nrtm")
    assert code == 0, err
    assert text.startswith(f"Exported 3 players, rounds 1-2, to {out} (Netrunner results JSON)")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data) == TOP_KEYS
    assert (data["name"], data["cutToTop"], data["preliminaryRounds"]) == ("Store Champs", 2, 2)
    assert all(set(p) == PLAYER_KEYS for p in data["players"])
    laurie = data["players"][0]
    assert (laurie["id"], laurie["name"], laurie["rank"], laurie["matchPoints"]) == (1, "Laurie", 1, 12)
    assert (laurie["strengthOfSchedule"], laurie["extendedStrengthOfSchedule"]) == (1.5, 5.25)
    assert abr_reads(data) == [("Laurie", 1, 2, "Haas-Bioroid: Precision Design", "Zahya Sadeghi"),
                               ("Dan", 2, 1, "Jinteki: Restoring Humanity", None), ("Johno", 3, 0, None, None)]
    assert data["eliminationPlayers"] == [{"id": 2, "name": "Dan", "rank": 1, "seed": 2},
                                          {"id": 1, "name": "Laurie", "rank": 2, "seed": 1}]
    round1, round2, final = data["rounds"]
    assert all(set(p) == PAIRING_KEYS for r in data["rounds"] for p in r)
    split1 = next(p for p in round1 if p["player2"]["id"] is not None)
    assert split1["player1"] == {"id": 2, "corpScore": 3, "runnerScore": 0, "combinedScore": 3}
    assert split1["player2"] == {"id": 3, "corpScore": 3, "runnerScore": 0, "combinedScore": 3}
    bye = next(p for p in round1 if p["player2"]["id"] is None)
    assert bye["player1"] == {"id": 1, "corpScore": 3, "runnerScore": 3, "combinedScore": 6}
    sweep2 = next(p for p in round2 if p["player2"]["id"] is not None)
    assert sweep2["player1"]["combinedScore"] == 6 and sweep2["player2"]["combinedScore"] == 0
    assert final == [{"table": 1, "player1": {"id": 1, "role": "corp", "winner": False},
                      "player2": {"id": 2, "role": "runner", "winner": True}, "intentionalDraw": False,
                      "twoForOne": False, "eliminationGame": True}]


def test_single_sided_rounds_carry_the_roles(tmp_path: Path) -> None:
    path = workbook(tmp_path, "ss.xlsx", [("Ana",), ("Bo",), ("Cy",)],
                    [(1, "Ana", "Bo", "1-0"), (1, "Cy", None, "bye")], {"points": "netrunner", "sides": "single"})
    out = tmp_path / "ss.json"
    assert run("export", str(path), str(out))[0] == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    (game, bye), = data["rounds"]
    assert game["player1"] == {"id": 1, "role": "corp", "combinedScore": 3, "corpScore": 3, "runnerScore": None}
    assert game["player2"] == {"id": 2, "role": "runner", "combinedScore": 0, "corpScore": None, "runnerScore": 0}
    assert bye["player1"]["combinedScore"] == 3 and bye["player2"]["id"] is None
    assert data["eliminationPlayers"] == [] and data["cutToTop"] == 0


def test_an_unknown_format_is_one_line(tmp_path: Path) -> None:
    path = netrunner_event(tmp_path)
    err = one_line_error(tmp_path / "x.json", "export", str(path), str(tmp_path / "x.json"), "--format", "xml")
    assert err == "unknown format 'xml'; known: trf, nrtm, csv"


def test_the_json_comes_back_as_the_same_event(tmp_path: Path) -> None:
    path = netrunner_event(tmp_path)
    out = tmp_path / "nr.json"
    assert run("export", str(path), str(out))[0] == 0
    back = tmp_path / "back.xlsx"
    code, text, err = run("import", str(out), str(back))
    assert code == 0, err
    assert text.splitlines() == [f"Created {back} from nr.json: 3 players, 6 Results rows (rounds 1-2)",
                                 "Points, SoS and ESoS agree with the file for all 3 players"]
    assert games(back) == games(path)
    assert table(back) == table(path)


COBRA_LIKE = {
    "name": "Weighted", "date": "2024-01-01", "cutToTop": 0, "preliminaryRounds": 3,
    "players": [
        {"id": 11, "name": "Laurie", "rank": 1, "corpIdentity": None, "runnerIdentity": None, "matchPoints": 12,
         "strengthOfSchedule": 1.5, "extendedStrengthOfSchedule": 5.25},
        {"id": 12, "name": "Dan", "rank": 2, "corpIdentity": None, "runnerIdentity": None, "matchPoints": 9,
         "strengthOfSchedule": 1.5, "extendedStrengthOfSchedule": 5.25},
        {"id": 13, "name": "Johno", "rank": 3, "corpIdentity": None, "runnerIdentity": None, "matchPoints": 3,
         "strengthOfSchedule": 5.25, "extendedStrengthOfSchedule": 1.5},
        {"id": 14, "name": "Late", "rank": 4, "corpIdentity": None, "runnerIdentity": None, "matchPoints": 0,
         "strengthOfSchedule": 0.0, "extendedStrengthOfSchedule": 0.0},
    ],
    "rounds": [
        [{"table": 1, "player1": {"id": 12, "combinedScore": 3}, "player2": {"id": 13, "combinedScore": 3}},
         {"table": 2, "player1": {"id": 11, "combinedScore": 6}, "player2": {"id": None, "combinedScore": 0}}],
        [{"table": 1, "player1": {"id": 11, "runnerScore": 3, "corpScore": 3, "combinedScore": 6},
          "player2": {"id": 13, "runnerScore": 0, "corpScore": 0, "combinedScore": 0}},
         {"table": 2, "player1": {"id": 12, "combinedScore": 6}, "player2": {"id": None, "combinedScore": 0}}],
        [{"table": 1, "player1": {"id": 11, "role": "corp", "winner": True},
          "player2": {"id": 12, "role": "runner", "winner": False}, "eliminationGame": True}],
    ],
}
"""Cobra's three-person test event as its export would carry it: a split and a bye given as combined scores
only, a sweep with the sides' scores, an elimination game; and a fourth player never paired."""


def test_a_cobra_export_is_ranked_as_cobra_ranked_it(tmp_path: Path) -> None:
    src = tmp_path / "cobra.json"
    src.write_text(json.dumps(COBRA_LIKE), encoding="utf-8")
    back = tmp_path / "cobra.xlsx"
    code, text, err = run("import", str(src), str(back))
    assert code == 0, err
    assert text.splitlines() == [f"Created {back} from cobra.json: 4 players, 6 Results rows (rounds 1-2)",
                                 "1 elimination rounds left out: run sheetswiss playoffs and type the winners",
                                 "Points, SoS and ESoS agree with the file for all 4 players"]
    assert games(back) == {1: {("Dan", "Johno", "1-0"), ("Johno", "Dan", "1-0"), ("Laurie", None, "bye")},
                           2: {("Laurie", "Johno", "1-0"), ("Johno", "Laurie", "0-1"), ("Dan", None, "bye")}}
    settings = {row[0]: row[1] for row in ExcelBackend(back).read().rows("Settings")[1:]}
    assert (settings["points"], settings["sides"], settings["rounds"]) == ("netrunner", "double", "3")
    status = {row[0]: (*row, None, None, None)[3] for row in ExcelBackend(back).read().rows("Players")[1:]}
    assert status["Late"] == "dropped"
    players = [dict(p) for p in COBRA_LIKE["players"]]  # type: ignore[attr-defined]
    players[0]["strengthOfSchedule"] = 1.4
    src.write_text(json.dumps(dict(COBRA_LIKE, players=players)), encoding="utf-8")
    code, text, err = run("import", str(src), str(tmp_path / "other.xlsx"))
    assert code == 0, err
    assert text.splitlines()[-1] == ("Points/SoS/ESoS differ from the file's for 1 players: "
                                     "Laurie 12/1.5/5.25 (file 12/1.4/5.25)")


def test_unreadable_json_is_one_line(tmp_path: Path) -> None:
    src = tmp_path / "bad.json"
    src.write_text('{"players": [', encoding="utf-8")
    dest = tmp_path / "bad.xlsx"
    assert one_line_error(dest, "import", str(src), str(dest)).startswith("bad.json:1:14: not readable JSON")
    src.write_text(json.dumps({"players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}],
                               "rounds": [[{"table": 4, "player1": {"id": 1, "combinedScore": 5},
                                            "player2": {"id": 2, "combinedScore": 0}}]]}), encoding="utf-8")
    assert one_line_error(dest, "import", str(src), str(dest)) == (
        "bad.json: round 1, table 4: cannot read the scores as Netrunner games ((5, 0))")
    src.write_text(json.dumps({"players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3}],
                               "rounds": [[{"table": 4, "player1": {"id": 1, "combinedScore": 5},
                                            "player2": {"id": 2, "combinedScore": 0}},
                                           {"table": 5, "player1": {"id": 9}, "player2": {"id": 2}},
                                           {"table": 6, "player1": {"id": 3}, "player2": {"id": 1}}]]}),
                   encoding="utf-8")
    code, _, err = run("import", str(src), str(dest))  # every problem of the file in one run
    assert code == 2 and not dest.exists() and err.splitlines() == [
        "Error: bad.json: players[2] has no id or no name",
        "Error: bad.json: round 1, table 4: cannot read the scores as Netrunner games ((5, 0))",
        "Error: bad.json: round 1, table 5: a player id that is not in players"]
