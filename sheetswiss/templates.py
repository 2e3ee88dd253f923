"""The blank workbooks in ``templates/``, produced by the same code as ``sheetswiss new``.

Regenerate them with ``python -m sheetswiss.templates templates``; a test proves the committed files
are what this code produces.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .backends.base import Changes
from .backends.excel import ExcelBackend
from .workbook.render import template_tabs

__all__ = ["FORMATS", "build"]

FORMATS = ("swiss", "heats")


def build(folder: str | Path) -> list[Path]:
    """Write ``FORMAT.xlsx`` for every format into ``folder`` (the seed setting left empty)."""
    out = []
    for fmt in FORMATS:
        path = Path(folder) / f"{fmt}.xlsx"
        path.unlink(missing_ok=True)
        ExcelBackend(path).write(Changes(new_tabs=template_tabs(fmt)))
        out.append(path)
    return out


if __name__ == "__main__":
    for written in build(sys.argv[1] if len(sys.argv) > 1 else "templates"):
        print(written)
