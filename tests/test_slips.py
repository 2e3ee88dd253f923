"""Result slips: the Slips tab, its page breaks and paper, and how LibreOffice prints it."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.workbook.parse import parse_event

from .helpers import new_workbook, run

NOW = dt.datetime(2026, 7, 30, 9, 0)
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")



def event(tmp_path: Path, players: int = 23, **settings: object) -> Path:
    path = new_workbook(tmp_path, [(f"Player {i:02d}",) for i in range(1, players + 1)],
                        settings={"event_name": "Club Open", **settings})  # type: ignore[arg-type]
    api.pair(str(path), now=NOW)
    return path


def slips_xml(path: Path) -> str:
    """The Slips sheet's XML (its cells are inline text, so the slip's words are in it)."""
    with zipfile.ZipFile(path) as z:
        sheets = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/sheet")]
    return next(xml for xml in sheets if "Signatures:" in xml)


def test_one_slip_per_table_with_page_breaks(tmp_path: Path) -> None:
    path = event(tmp_path)
    code, out, err = run("slips", str(path))
    assert code == 0, err
    assert out.splitlines() == [
        "Round 1: 11 slips on 3 Letter page(s), 5 to a page; print the Slips tab and cut along the dashed lines",
        "Written: Slips, Log"]
    rows = ExcelBackend(path).read().rows("Slips")
    games = [g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.b is not None]
    starts = [i for i, row in enumerate(rows) if row and row[0] == "Round 1"]
    assert len(starts) == len(games) == 11
    for i, g in zip(starts, games, strict=True):
        assert rows[i][1] == f"Table {g.table}" and rows[i][4] == "Club Open"
        assert rows[i + 1] == ("Player A", g.a, None, "Player B", g.b)
        assert rows[i + 2] == ("Result:", f"☐ {g.a} wins", None, "☐ Draw", f"☐ {g.b} wins")
        assert rows[i + 4][0] == "Signatures:" and rows[i + 5] == (None, g.a, None, None, g.b)
        assert str(rows[i + 6][0]).startswith("✂ - - -")
    sheet = slips_xml(path)
    assert '<pageSetup paperSize="1" orientation="portrait"' in sheet
    assert '<brk id="37" max="16383" man="1"/><brk id="72" max="16383" man="1"/>' in sheet  # after 5 and 10 slips
    code, out, err = run("slips", str(path), "--paper", "a4")
    assert code == 0 and "11 slips on 2 A4 page(s), 6 to a page" in out
    sheet = slips_xml(path)
    assert '<pageSetup paperSize="9"' in sheet and '<rowBreaks count="1" manualBreakCount="1"><brk id="44"' in sheet


def test_sides_and_game_scores_on_the_slip(tmp_path: Path) -> None:
    path = event(tmp_path, 4, colours="alternate", points="game12")
    code, _, err = run("slips", str(path))
    assert code == 0, err
    rows = ExcelBackend(path).read().rows("Slips")
    g = next(g for g in parse_event(ExcelBackend(path).read()).games_in(1) if g.table == 1)
    assert (rows[3][0], rows[3][3]) == ("White", "Black")
    assert rows[4] == ("Games won:", f"{g.a}: ____", None, "Drawn: ____", f"{g.b}: ____")


def test_a_round_not_paired_is_refused(tmp_path: Path) -> None:
    path = event(tmp_path, 4)
    before = path.read_bytes()
    code, _, err = run("slips", str(path), "--round", "2")
    assert code == 2 and err == "Error: Results: round 2 is not paired (the last paired round is 1)\n"
    code, out, _ = run("slips", str(path), "--dry-run")
    assert code == 0 and "Dry run, nothing written" in out
    assert path.read_bytes() == before


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_libreoffice_prints_five_slips_a_letter_page_and_six_an_a4(tmp_path: Path) -> None:
    assert SOFFICE is not None
    for paper, pages in (("letter", 3), ("a4", 2)):
        folder = tmp_path / paper
        folder.mkdir()
        path = event(folder)
        api.slips(str(path), paper=paper, now=NOW)
        subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile", "--convert-to",
                        "pdf", "--outdir", str(folder), str(path)], check=True, capture_output=True, timeout=180)
        pdf = folder / "event.pdf"
        if shutil.which("pdftotext") is None:
            assert pdf.read_bytes().startswith(b"%PDF")
            continue
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                              text=True).stdout.split("\f")
        slip_pages = [page for page in text if "Signatures:" in page]
        assert [page.count("Signatures:") for page in slip_pages] == ([5, 5, 1] if pages == 3 else [6, 5])


def test_slips_on_a_google_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession

    from .fake_sheets import FakeSheets

    key = "1FakeSheetKeyForSheetswissTests0123456789"
    with FakeSheets() as fake:
        monkeypatch.setenv("SHEETSWISS_SHEETS_ENDPOINT", fake.url)
        fake.create(key)
        backend = GoogleSheetsBackend(key, session=RewritingSession(fake.url))
        api.new(backend, seed=2, now=NOW)
        fake.type(key, "Players", {f"A{r}": f"Player {r}" for r in range(2, 8)})
        api.pair(backend, now=NOW)
        code, out, err = run("slips", f"gsheet:{key}", "--paper", "a4")
        assert code == 0, err
        assert out.startswith("Round 1: 3 slips on 1 A4 page(s), 6 to a page")
        rows = backend.read().rows("Slips")
        assert sum(1 for row in rows if row and row[0] == "Signatures:") == 3
