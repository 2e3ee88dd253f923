"""The players' page set: every player findable by name, safe HTML, and a real browser at phone width."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
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


@pytest.mark.slow
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


def test_a_heat_event_publishes_its_semifinal_final_and_places(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["demo", str(tmp_path), "--format", "wbc"]).exit_code == 0
    path = tmp_path / "sheetswiss-wbc-demo.xlsx"
    wb = openpyxl.load_workbook(path)
    places = [row for row in wb["Places"].iter_rows(min_row=3, max_row=8, values_only=True)]
    result = runner.invoke(cli, ["publish", str(path), str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert "Published 3 pages to" in result.output and "index.html, rounds.html, qualifiers.html" in result.output
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<title>Places · sheetswiss demo WBC</title>" in index
    shown = re.findall(r"<tr data-names=\"[^\"]*\"(?: class=cut)?><td class=num>(\d+=?)</td><td>([^<]*)</td>"
                       r"<td>([^<]*)</td></tr>", index)
    assert [(int(p), html.unescape(n), html.unescape(how)) for p, n, how in shown] == [
        (place, player, how) for place, player, how, *_ in places]
    rounds = (tmp_path / "site" / "rounds.html").read_text()
    assert "Semifinal and final" in rounds and rounds.count("<td>Semifinal</td>") == 16
    winner = str(places[0][1])
    assert re.search(rf"class=cut><td>Final</td><td class=num>1</td><td>{re.escape(html.escape(winner))}</td>"
                     r"<td class=num>\d+</td><td class=num>1</td>", rounds)
    assert rounds.count("class=cut><td>Semifinal</td>") == 4  # the table winners

    first_final = next(r for r, row in enumerate(wb["Heats"].iter_rows(values_only=True), start=1)
                       if row[0] == "final")
    wb["Heats"].delete_rows(first_final, 4)  # before the final is seated: the semifinal is the first page
    wb.save(path)
    result = runner.invoke(cli, ["publish", str(path), str(tmp_path / "site")])
    assert result.exit_code == 0 and "index.html, qualifiers.html" in result.output, result.output
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<title>Semifinal · sheetswiss demo WBC</title>" in index and "The semifinal is scored." in index
    assert index.count("<td>Semifinal</td>") == 16 and "<td>Final</td>" not in index


def test_during_the_playoff_the_bracket_is_the_first_page(site: Path) -> None:
    path = site.parent / "event.xlsx"
    type_results(path, random_results(8))
    runner = CliRunner()
    assert runner.invoke(cli, ["playoffs", str(path)]).exit_code == 0
    rows = ExcelBackend(path).read().rows("Playoffs")
    first = rows[2]  # SF1: seed 1 v seed 4 (a top 4 for 12 players)
    ExcelBackend(path).fill_cells("Playoffs", {"E3": str(first[2]).upper()})
    result = runner.invoke(cli, ["publish", str(path), str(site)])
    assert result.exit_code == 0, result.output
    assert "Published 3 pages to" in result.output and "index.html, pairings.html, standings.html" in result.output
    index = (site / "index.html").read_text()
    assert "Playoff (single)" in index and "Shaded: the matches to play now." in index
    sf1 = re.search(r'<tr data-names="[^"]*"( class=cut)?><td>SF1</td>.*?</tr>', index)
    assert sf1 is not None and sf1[1] is None and f"<td>{html.escape(str(first[2]))}</td></tr>" in sf1[0]
    assert index.count("<tr data-names") == 3 and index.count(" class=cut>") == 1  # SF2 to play
    assert "Round 3 pairings" in (site / "pairings.html").read_text()
    assert "<th class=num>W-D-L</th>" in (site / "standings.html").read_text()


@pytest.mark.parametrize(("settings", "header", "sides"), [
    ({"sides": "single"}, "Side", {"1", "2"}),
    ({"sides": "double"}, "Sides", {"1, then 2", "2, then 1"}),
    ({"colours": "alternate"}, "Colour", {"White", "Black"}),
])
def test_the_pairings_page_gives_each_players_side(tmp_path: Path, settings: dict[str, str], header: str,
                                                    sides: set[str]) -> None:
    path = new_workbook(tmp_path, [(f"Player {i}",) for i in range(1, 7)], settings=settings)  # type: ignore[arg-type]
    runner = CliRunner()
    assert runner.invoke(cli, ["pair", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["publish", str(path), str(tmp_path / "site")]).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert f"<th>{header}</th></tr>" in index
    shown = re.findall(r"<td>([^<]*)</td></tr>", index)
    assert len(shown) == 6 and set(shown) == sides
