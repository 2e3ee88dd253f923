"""The workbook opens in LibreOffice Calc: converted headless to PDF, page by page."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from sheetswiss import api, demo
from sheetswiss.backends.excel import ExcelBackend

from .helpers import new_workbook, type_results

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_libreoffice_opens_the_finished_demo(tmp_path: Path) -> None:
    demo.run(tmp_path, progress=lambda line: None)
    workbook = tmp_path / "sheetswiss-demo.xlsx"
    assert SOFFICE is not None
    subprocess.run(
        [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile", "--convert-to", "pdf",
         "--outdir", str(tmp_path), str(workbook)],
        check=True, capture_output=True, timeout=180)
    pdf = tmp_path / "sheetswiss-demo.pdf"
    assert pdf.exists() and pdf.read_bytes().startswith(b"%PDF")
    assert pdf.stat().st_size > 10_000


def _soffice(profile: Path, *args: str) -> None:
    assert SOFFICE is not None
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation={profile.as_uri()}", *args],
                   check=True, capture_output=True, timeout=180)


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_a_gm_formula_over_standings_shows_the_new_leader_in_libreoffice(tmp_path: Path) -> None:
    """A Dashboard formula ``=Standings!B3`` in a workbook LibreOffice saved last (its cached value the
    old leader) shows the new leader when LibreOffice opens the workbook after ``standings``, even with
    LibreOffice's "recalculation on file load" set to never."""
    path = new_workbook(tmp_path, [(f"P{i:02d}",) for i in range(1, 9)])
    api.pair(str(path))
    type_results(path, lambda a, b: "1-0")
    api.standings(str(path))
    old_leader = ExcelBackend(path).read().rows("Standings")[2][1]
    api.pair(str(path))
    type_results(path, lambda a, b: "0-1" if a == old_leader else "1-0")  # the old leader loses
    wb = openpyxl.load_workbook(path)
    wb.create_sheet("Dashboard")["A1"] = "=Standings!B3"
    wb.save(path)
    profile = tmp_path / "profile"
    _soffice(profile, "--convert-to", "xlsx", "--outdir", str(tmp_path / "saved"), str(path))
    shutil.copy(tmp_path / "saved" / path.name, path)
    assert openpyxl.load_workbook(path, data_only=True)["Dashboard"]["A1"].value == old_leader
    settings = profile / "user" / "registrymodifications.xcu"  # the GM's LibreOffice never recalculates on load
    settings.write_text(settings.read_text().replace("</oor:items>", (
        '<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" '
        'oor:op="fuse"><value>1</value></prop></item></oor:items>')))

    api.standings(str(path))

    new_leader = ExcelBackend(path).read().rows("Standings")[2][1]
    assert new_leader != old_leader
    every_tab = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    _soffice(profile, "--convert-to", every_tab, "--outdir", str(tmp_path / "csv"), str(path))
    assert (tmp_path / "csv" / "event-Dashboard.csv").read_text().strip() == new_leader


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_a_new_workbook_prints_a_page_a_tab_with_its_checkboxes_shown_false(tmp_path: Path) -> None:
    """``new``'s workbook in LibreOffice: each tab prints on one page (the Control tab's Label, Value and Help
    together), and the Control tab's unticked checkboxes show FALSE, not 0."""
    path = tmp_path / "ev.xlsx"
    api.new(str(path), seed=1)
    tabs = ExcelBackend(path).read().tabs
    profile = tmp_path / "profile"
    _soffice(profile, "--convert-to", "pdf", "--outdir", str(tmp_path), str(path))
    pages = re.findall(rb"/Type\s*/Page\b(?!s)", (tmp_path / "ev.pdf").read_bytes())
    assert len(pages) == len(tabs)
    sheet = list(tabs).index("Control") + 1
    options = f"44,34,76,1,,0,false,true,true,false,false,{sheet}"  # the Control sheet, cells as shown
    _soffice(profile, "--convert-to", f"csv:Text - txt - csv (StarCalc):{options}", "--outdir", str(tmp_path / "csv"),
             str(path))
    text = (tmp_path / "csv" / "ev-Control.csv").read_text(encoding="utf-8")
    shown = {row[0]: row[1] for row in csv.reader(text.splitlines())}
    assert [shown[label] for label in ("Redo", "Check", "Dry run", "Run")] == ["FALSE"] * 4
