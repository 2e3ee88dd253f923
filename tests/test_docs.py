"""The documents a GM reads agree with the code."""

from __future__ import annotations

import re
from pathlib import Path

from sheetswiss.settings import SPECS

ROOT = Path(__file__).resolve().parent.parent


def test_the_rules_settings_index_lists_every_setting_and_no_other() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text()
    index = text[text.index("## 9. Settings index"):]
    first_cells = re.findall(r"^\| ([^|]+) \|", index, re.M)
    listed = {key for cell in first_cells for key in re.findall(r"`([a-z0-9_]+)`", cell)}
    assert listed == {spec.key for spec in SPECS}
