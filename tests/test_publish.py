"""The players' page set: every player findable by name, safe HTML, and a real browser at phone width."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import cli
from sheetswiss.workbook.parse import parse_event

from .helpers import new_workbook, random_results, type_results

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    players = [(f"Player {i:02d}", 1500 + i) for i in range(1, 12)] + [("<b>Bold</b> & Co",)]
    path = new_workbook(tmp_path, players)
    runner = CliRunner()
    for _ in range(2):
        assert runner.invoke(cli, ["pair", str(path)]).exit_code == 0
        type_results(path, random_results(7))
    assert runner.invoke(cli, ["pair", str(path)]).exit_code == 0
    result = runner.invoke(cli, ["publish", str(path), str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert "Published 2 pages" in result.output
    return tmp_path / "site"


def test_every_player_is_on_both_pages(site: Path) -> None:
    event = parse_event(ExcelBackend(site.parent / "event.xlsx").read())
    for page in ("index.html", "standings.html"):
        text = (site / page).read_text()
        for p in event.players:
            assert f'data-names="{html.escape(p.name.lower())}"' in text
        assert "<b>Bold</b>" not in text and "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in text
    index = (site / "index.html").read_text()
    assert "Round 3 pairings" in index and 'name="viewport"' in index


def dump(url: str, tmp: Path) -> str:
    assert CHROMIUM is not None
    run = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp}", "--window-size=390,844",
                          "--virtual-time-budget=2000", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120, check=True)
    return run.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here")
def test_phone_width_screenshot_and_find_by_name(site: Path, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    shot = tmp_path / "phone.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--window-size=390,844",
                    f"--screenshot={shot}", (site / "index.html").as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5_000
    event = parse_event(ExcelBackend(site.parent / "event.xlsx").read())
    for player in event.players[:3]:
        dom = dump((site / "index.html").as_uri() + "#find=" + player.name.replace(" ", "%20"),
                   tmp_path / "profile")
        visible = re.findall(r'<tr data-names="([^"]*)">', dom)
        assert visible and all(player.name.lower() in names for names in visible)


def test_a_heat_event_publishes_seating_and_qualifiers(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["demo", str(tmp_path), "--format", "heats"]).exit_code == 0
    result = runner.invoke(cli, ["publish", str(tmp_path / "sheetswiss-heats-demo.xlsx"), str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    index = (tmp_path / "site" / "index.html").read_text()
    qualifiers = (tmp_path / "site" / "qualifiers.html").read_text()
    assert "Heat 4 seating" in index and "At the table" in index
    assert qualifiers.count("class=cut") == 16 and "alternate 1" in qualifiers
