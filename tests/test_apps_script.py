"""The Google Sheets menu (templates/apps-script/) and the Python side agree: the same commands, labels and
options, and a request the script writes into the Control tab that ``new`` makes is read back by
``find_control`` as the request the GM asked for. The script runs under Node with the stand-ins of its own
tests (templates/apps-script/test/fakes.js); its behaviour on its own is tested there (node --test)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sheetswiss.backends.base import Book, Value
from sheetswiss.cli import cli
from sheetswiss.workbook.contract import CONTROL, CONTROL_HEADER, CONTROL_LABELS
from sheetswiss.workbook.control_tab import COMMANDS, Request, commands_for, control_tab, find_control

SCRIPT = Path(__file__).resolve().parent.parent / "templates" / "apps-script"
CODE = (SCRIPT / "Code.js").read_text(encoding="utf-8")
NODE = shutil.which("node")

# Loads Code.js with the stand-ins, makes the calls, prints the Control tab and what the script showed.
DRIVER = r"""
const fs = require('fs'), vm = require('vm'), path = require('path');
const dir = process.argv[1];
const {makeWorld} = require(path.join(dir, 'test', 'fakes.js'));
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const world = makeWorld({tabs: {Control: {rows: input.rows, rules: input.rules}}, answers: input.answers});
const context = vm.createContext(Object.assign({}, world.globals));
vm.runInContext(fs.readFileSync(path.join(dir, 'Code.js'), 'utf8'), context);
const results = input.calls.map((call) => context[call.fn].apply(null, call.args || []));
process.stdout.write(JSON.stringify({grid: world.sheet('Control').grid, alerts: world.log.alerts,
  results: results === undefined ? null : results, menus: world.log.menus}));
"""


def _js_list(name: str) -> list[str]:
    """The names in a ``var NAME = [{name: '...'}, ...]`` or ``var NAME = ['...', ...]`` of Code.js."""
    body = re.search(rf"^var {name} = \[(.*?)^\];", CODE, re.S | re.M)
    assert body is not None, f"Code.js has no {name}"
    return re.findall(r"name: '([a-z]+)'", body.group(1)) or re.findall(r"'([^']+)'", body.group(1))


def test_the_script_asks_for_the_commands_the_control_tab_runs() -> None:
    script = _js_list("COMMANDS")
    assert sorted(script) == sorted(commands_for(None))
    for fmt, commands in COMMANDS.items():
        assert set(commands) <= set(script), fmt


def test_the_script_finds_the_labels_and_header_the_control_tab_has() -> None:
    labels = re.search(r"^var LABELS = \{(.*?)^\};", CODE, re.S | re.M)
    assert labels is not None
    assert re.findall(r": '([^']+)'", labels.group(1)) == list(CONTROL_LABELS)
    header = re.search(r"^var CONTROL_HEADER = \[(.*?)\];", CODE, re.M)
    assert header is not None
    assert re.findall(r"'([^']+)'", header.group(1)) == list(CONTROL_HEADER[:2])
    assert re.search(rf"^var CONTROL_TAB = '{CONTROL}';", CODE, re.M)


def test_the_script_offers_each_command_the_options_watch_reads() -> None:
    """For each command, the options the script writes are those :meth:`Request.words` passes on."""
    flags = {"--heat": "heat", "--round": "round", "--explain": "player", "--absent": "player", "--redo": "redo",
             "--check": "check", "--dry-run": "dryRun"}
    body = re.search(r"^var COMMANDS = \[(.*?)^\];", CODE, re.S | re.M)
    assert body is not None
    script = {name: set(re.findall(r"'(\w+)'", options))
              for name, options in re.findall(r"name: '(\w+)'.*?options: \[([^\]]*)\]", body.group(1))}
    for command in commands_for(None):
        everything = Request(command=command, heat=1, round=1, player="Ana", redo=True, dry_run=True, by="", at="",
                             check=True)
        read = {flags[word] for word in everything.words().split() if word in flags}
        assert script[command] == read, command


def test_the_script_names_the_command_that_adds_the_control_tab() -> None:
    assert "sheetswiss control EVENT" in CODE
    result = CliRunner().invoke(cli, ["control", "--help"])
    assert result.exit_code == 0, result.output


def _control_grid(fmt: str) -> tuple[list[list[Any]], dict[str, Any]]:
    """The Control tab as ``new`` makes it, as Google Sheets hands it to a script (empty cells as '')."""
    tab = control_tab(fmt)
    rows = [["" if v is None else v for v in row] for row in tab.rows]
    rules: dict[str, Any] = {}
    for v in tab.format.validations:
        rules[f"{v.row},{v.column}"] = ({"type": "CHECKBOX", "values": []} if v.checkbox else
                                        {"type": "VALUE_IN_LIST", "values": [list(v.choices), True]})
    return rows, rules


def _run(fmt: str, calls: list[dict[str, Any]], answers: list[dict[str, str]] | None = None) -> dict[str, Any]:
    assert NODE is not None
    rows, rules = _control_grid(fmt)
    done = subprocess.run([NODE, "-e", DRIVER, str(SCRIPT)], input=json.dumps(
        {"rows": rows, "rules": rules, "calls": calls, "answers": answers or []}),
        capture_output=True, text=True, timeout=60, check=True)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def _book(grid: list[list[Value]]) -> Book:
    return Book({CONTROL: tuple(tuple(row) for row in grid)})


needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed here")


@needs_node
@pytest.mark.parametrize(("fmt", "form", "expected"), [
    ("swiss", {"command": "pair", "redo": True, "dryRun": True, "heat": "3"},
     Request(command="pair", heat=None, round=None, player="", redo=True, dry_run=True, by="gm@example.org",
             at="")),
    ("swiss", {"command": "pair", "check": True, "player": "Ana Lima"},
     Request(command="pair", heat=None, round=None, player="", redo=False, dry_run=False, by="gm@example.org",
             at="", check=True)),
    ("swiss", {"command": "standings", "check": True},
     Request(command="standings", heat=None, round=None, player="", redo=False, dry_run=False,
             by="gm@example.org", at="")),
    ("swiss", {"command": "slips", "round": "4"},
     Request(command="slips", heat=None, round=4, player="", redo=False, dry_run=False, by="gm@example.org",
             at="")),
    ("swiss", {"command": "standings", "player": "Ana Lima", "dryRun": True},
     Request(command="standings", heat=None, round=None, player="Ana Lima", redo=False, dry_run=True,
             by="gm@example.org", at="")),
    ("heats", {"command": "seat", "heat": "2"},
     Request(command="seat", heat=2, round=None, player="", redo=False, dry_run=False, by="gm@example.org",
             at="")),
    ("heats", {"command": "advance", "player": "Bo Berg, Caro Chen"},
     Request(command="advance", heat=None, round=None, player="Bo Berg, Caro Chen", redo=False, dry_run=False,
             by="gm@example.org", at="")),
])
def test_a_request_the_script_writes_is_read_back_as_asked(fmt: str, form: dict[str, Any],
                                                           expected: Request) -> None:
    before, _ = _control_grid(fmt)
    out = _run(fmt, [{"fn": "sheetswissAsk", "args": [form]}])
    assert out["results"][0]["ok"] is True, out["results"][0]
    cells = find_control(_book(out["grid"]))
    assert cells is not None
    assert cells.ticked
    request = cells.request()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", request.at)
    assert request == replace(expected, at=request.at)
    for label in ("Status", "Started", "Finished", "Output"):
        assert out["grid"][cells.rows[label] - 1][1] == before[cells.rows[label] - 1][1], label


@needs_node
@pytest.mark.parametrize("fmt", ["swiss", "heats"])
def test_the_menu_offers_the_commands_of_the_event_s_format(fmt: str) -> None:
    out = _run(fmt, [{"fn": "onOpen"}])
    items = [item["fn"] for item in out["menus"][0]["items"] if "fn" in item]
    asked = set(re.findall(r"fn: '(\w+)', command: '(\w+)'", CODE))
    offered = {command for fn, command in asked if fn in items}
    assert offered == set(commands_for(fmt))


@needs_node
def test_a_request_watch_has_not_taken_stops_the_next_one() -> None:
    out = _run("swiss", [{"fn": "sheetswissAsk", "args": [{"command": "pair"}]},
                         {"fn": "sheetswissAsk", "args": [{"command": "standings"}]}])
    assert [r["ok"] for r in out["results"]] == [True, False]
    cells = find_control(_book(out["grid"]))
    assert cells is not None
    assert cells.request().command == "pair"
