"""The committed templates are exactly what the code produces."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from sheetswiss.templates import FORMATS, build

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def parts(path: Path) -> dict[str, bytes]:
    """Every part of the .xlsx package except the creation/modification timestamps."""
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist() if name != "docProps/core.xml"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_committed_template_is_what_the_code_produces(tmp_path: Path, fmt: str) -> None:
    (fresh,) = [p for p in build(tmp_path) if p.stem == fmt]
    assert parts(TEMPLATES / f"{fmt}.xlsx") == parts(fresh), (
        f"templates/{fmt}.xlsx is stale: run python -m sheetswiss.templates templates")
