"""A CSV file read as one tab's rows: registrations exported from a form, a club's list, another program.

Read only: sheetswiss never writes into a CSV file it imports. The file may be UTF-8 (with or without the
byte-order mark Excel writes) or, failing that, Windows-1252; the delimiter is a comma, a semicolon (what
Excel writes where the decimal mark is a comma) or a tab, taken from the header line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ..errors import WorkbookUnavailable
from .base import Value

__all__ = ["is_csv", "read_csv"]


def is_csv(name: str) -> bool:
    """Whether ``name`` names a CSV file (by its extension).

    >>> is_csv("players.CSV"), is_csv("Form Responses 1")
    (True, False)
    """
    return name.strip().lower().endswith((".csv", ".tsv"))


def read_csv(path: str | Path) -> tuple[tuple[Value, ...], ...]:
    """The file's rows as text cells (empty cells ``None``), trailing empty rows dropped."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise WorkbookUnavailable(f"{path}: no such file") from None
    except OSError as e:
        raise WorkbookUnavailable(f"{path}: cannot be read ({e.strerror or e})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count) if any(d in first for d in ",;\t") else ","
    try:
        rows = [tuple(cell.strip() or None for cell in row)
                for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error as e:
        raise WorkbookUnavailable(f"{path}: not a readable CSV file ({e})") from None
    while rows and not any(rows[-1]):
        rows.pop()
    return tuple(tuple(_unguarded(cell) for cell in row) for row in rows)


def _unguarded(cell: Value) -> Value:
    """A cell without the apostrophe that keeps a spreadsheet from running ``=``, ``+``, ``-`` or ``@`` text as a
    formula (sheetswiss's own CSV export writes it, RULES.md 11.3).

    >>> _unguarded("'=SUM(A1)"), _unguarded("'Tis"), _unguarded(None)
    ('=SUM(A1)', "'Tis", None)
    """
    if isinstance(cell, str) and cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@"):
        return cell[1:]
    return cell
