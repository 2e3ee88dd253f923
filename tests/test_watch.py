"""watch: the pages follow the workbook, survive a bad cell, and stop cleanly; on .xlsx and on the Sheets fake."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession
from sheetswiss.errors import SheetswissError
from sheetswiss.workbook.parse import parse_event

from .fake_sheets import FakeSheets
from .helpers import new_workbook

NOW = dt.datetime(2026, 7, 30, 9, 0)
KEY = "1FakeSheetKeyForSheetswissTests0123456789"


def steps(*actions: Callable[[], None]) -> Callable[[float], None]:
    """A ``sleep`` that does the next action instead of waiting, then stops the loop as Ctrl-C would."""
    queue = list(actions)

    def sleep(seconds: float) -> None:
        if not queue:
            raise KeyboardInterrupt
        queue.pop(0)()

    return sleep


def clock() -> Callable[[], dt.datetime]:
    ticks = iter(NOW + dt.timedelta(minutes=i) for i in range(100))
    return lambda: next(ticks)


def test_watch_republishes_on_change_and_survives_a_bad_cell(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in ("Ana", "Bo", "Cy", "Di")])
    api.pair(str(path), now=NOW)
    games = [g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.b is not None]
    cell = games[0].cell.split("!")[1]
    site = tmp_path / "site"
    before = path.read_bytes()
    lines: list[str] = []

    def type_into(value: str) -> Callable[[], None]:
        return lambda: ExcelBackend(path).fill_cells("Results", {cell: value})

    api.watch(str(path), site, echo=lines.append, now=clock(), sleep=steps(
        lambda: None,              # nothing changed: nothing republished
        type_into("1-0"),          # a result typed
        type_into("W"),            # a bad cell
        lambda: None,              # still bad: said once
        type_into("0-1"),          # fixed
    ))
    assert lines[0] == (f"Watching {path}; publishing to {site}; running the Control tab's requests (looks every "
                        "2 s; acts on a request once the workbook is saved and closed; Ctrl-C stops)")
    assert lines[1].startswith("09:00:00 first read; Published 2 pages to")
    assert lines[2].startswith("09:01:00 changed: Results; Published 2 pages")
    assert lines[3].startswith(f"09:02:00 Error: Results!{cell}: cannot read 'W' as a result")
    assert lines[3].endswith("; the 2 page(s) keep their last good state, with a notice")
    assert lines[4].startswith("09:04:00 changed: Results; Published 2 pages")
    assert lines[5] == "Stopped; the pages stay as last published."
    assert len(lines) == 6
    assert "Not updated since the last good state" not in (site / "index.html").read_text()  # notice gone
    assert [row[1] for row in ExcelBackend(path).read().rows("Log")[2:]] == ["new --format swiss", "pair"]
    assert path.read_bytes() != before  # the GM's saves, not watch's: it writes nothing


def test_a_bad_cell_leaves_the_pages_with_a_notice(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [(n,) for n in ("Ana", "Bo", "Cy", "Di")])
    api.pair(str(path), now=NOW)
    g = next(g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.b is not None)
    site = tmp_path / "site"
    lines: list[str] = []
    api.watch(str(path), site, echo=lines.append, now=clock(), sleep=steps(
        lambda: ExcelBackend(path).fill_cells("Results", {g.cell.split("!")[1]: "W"})))
    page = (site / "index.html").read_text()
    assert page.count("Not updated since the last good state: at 09:01") == 1
    assert "cannot read &#x27;W&#x27; as a result" in page
    assert g.a in page  # the last good pairings are still there
    log = ExcelBackend(path).read().rows("Log")
    assert [row[1] for row in log[2:]] == ["new --format swiss", "pair"]  # watch writes nothing to the workbook


def test_watch_refuses_a_poll_too_often_for_google(tmp_path: Path) -> None:
    with pytest.raises(SheetswissError, match="at least 5 s on a Google Sheet"):
        api.watch(f"gsheet:{KEY}", tmp_path, every=1, polls=1)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSheets]:
    with FakeSheets() as server:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", server.url)
        server.create(KEY)
        yield server


def test_watch_polls_a_google_sheet(fake: FakeSheets, tmp_path: Path) -> None:
    backend = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url))
    api.new(backend, seed=2, now=NOW)
    fake.type(KEY, "Players", {f"A{r}": n for r, n in enumerate(("Ana", "Bo", "Cy", "Di"), start=2)})
    api.pair(backend, now=NOW)
    g = next(g for g in parse_event(backend.read()).games_in(1) if g.b is not None)
    lines: list[str] = []
    before = len(fake.log)
    api.watch(backend, tmp_path / "site", every=15, echo=lines.append, now=clock(), sleep=steps(
        lambda: None, lambda: fake.type(KEY, "Results", {g.cell.split("!")[1]: "1/2"})))
    assert [line[:30] for line in lines[1:]] == ["09:00:00 first read; Published", "09:02:00 changed: Results; Pub",
                                                  "Stopped; the pages stay as las"]
    assert all(method == "GET" for method, *_ in fake.log[before:])  # reads only
    reads = [r for r in fake.requests()[before:] if r.endswith("values:batchGet")]
    assert len(reads) == 3 and len(fake.log) - before <= 6  # three polls, at most two requests each
