"""The workbook opens in LibreOffice Calc: converted headless to PDF, page by page."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sheetswiss import demo

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
