"""The round clock on the players' page: the end time as text, a countdown in plain JavaScript."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetswiss import api
from sheetswiss.cli import cli

from .helpers import new_workbook

NOW = dt.datetime(2026, 7, 30, 9, 0)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def event(tmp_path: Path, **settings: object) -> Path:
    path = new_workbook(tmp_path, [(n,) for n in ("Ana", "Bo", "Cy", "Di")], settings=settings)  # type: ignore[arg-type]
    api.pair(str(path), now=NOW)
    return path


def test_round_minutes_end_the_round_that_long_after_it_was_paired(tmp_path: Path) -> None:
    path = event(tmp_path, round_minutes=50)
    api.publish(str(path), tmp_path / "site", now=NOW + dt.timedelta(minutes=5))
    page = (tmp_path / "site" / "index.html").read_text()
    assert '<p class="clock" data-ends="2026-07-30T09:50:00">Round 1 ends at <strong>09:50</strong>' in page
    assert "document.querySelectorAll('[data-ends]')" in page  # the countdown, no network, no library
    assert "src=" not in page


def test_an_end_time_on_the_command_line_and_no_clock_without_either(tmp_path: Path) -> None:
    path = event(tmp_path)
    result = CliRunner().invoke(cli, ["publish", str(path), str(tmp_path / "site"), "--ends", "14:30"])
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "site" / "index.html").read_text()
    assert 'T14:30:00">Round 1 ends at <strong>14:30</strong>' in page
    api.publish(str(path), tmp_path / "plain", now=NOW)
    assert 'class="clock"' not in (tmp_path / "plain" / "index.html").read_text()
    result = CliRunner().invoke(cli, ["publish", str(path), str(tmp_path / "site"), "--ends", "half past two"])
    assert result.exit_code == 2 and "'half past two' does not match the formats" in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed here")
def test_the_countdown_runs_in_a_browser(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    path = event(tmp_path)
    api.publish(str(path), tmp_path / "site", now=NOW, ends=dt.datetime.now() + dt.timedelta(hours=2))
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                          (tmp_path / "site" / "index.html").as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    assert '<span class="left">(1:59:' in dom or '<span class="left">(2:00:' in dom
