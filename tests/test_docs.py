"""The documents a GM reads agree with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetswiss.cli import cli
from sheetswiss.settings import SPECS

ROOT = Path(__file__).resolve().parent.parent


def test_the_rules_settings_index_lists_every_setting_and_no_other() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text()
    index = text[text.index("## 9. Settings index"):]
    first_cells = re.findall(r"^\| ([^|]+) \|", index, re.M)
    listed = {key for cell in first_cells for key in re.findall(r"`([a-z0-9_]+)`", cell)}
    assert listed == {spec.key for spec in SPECS}


def _commands() -> list[str]:
    return sorted(cli.commands)


@pytest.mark.parametrize("name", _commands())
def test_every_command_has_help_with_an_example(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, f"`sheetswiss {name} --help` gives no example"


@pytest.mark.parametrize("name", _commands())
def test_every_command_is_shown_in_the_readme(name: str) -> None:
    readme = (ROOT / "README.md").read_text()
    shown = re.search(rf"(^\s*\$ sheetswiss {name}\b)|(`sheetswiss {name}\b)", readme, re.M)
    assert shown, f"README.md shows no `sheetswiss {name}` command"
