"""One cell's XML (``<c>``): writing a value into it, and taking a row's cells apart.

A value is written as an inline string (``t="inlineStr"``, never a formula, whatever it starts with), a
number, a boolean or a date as a serial number (days since the workbook's epoch, 1900 or 1904), as openpyxl
would write it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from typing import NamedTuple

from ...errors import BadWorkbook
from ..base import Value, column_index
from .xmltext import CELL_REF, escape, tag_attributes

__all__ = ["Cell", "cell_xml", "date_format", "row_cells"]


_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

_DATE_FORMATS: Mapping[type, str] = {dt.datetime: "yyyy-mm-dd h:mm:ss", dt.date: "yyyy-mm-dd", dt.time: "h:mm:ss"}
"""openpyxl's formats for a date or time written into a cell that has no date format."""

_NOT_DATES = frozenset({str, int, float, bool, type(None)})
"""The types of most values, which are never dates: :func:`date_format` answers them at once."""


def _number(value: float, tab: str, ref: str) -> str:
    if not math.isfinite(value):
        raise BadWorkbook(f"{tab}!{ref}: {value!r} is not a number a spreadsheet can hold")
    return repr(value)


def date_format(value: Value) -> str | None:
    """The format openpyxl gives a date or time value, else ``None``."""
    if type(value) in _NOT_DATES:
        return None
    for kind, code in _DATE_FORMATS.items():
        if isinstance(value, kind):
            return code
    return None


def cell_xml(p: str, ref: str, value: Value, style: int, epoch: dt.datetime, tab: str) -> str:
    """A ``<c>`` element: text inline (never a formula, whatever it starts with), numbers, booleans, dates
    as serial numbers; ``""`` for an empty cell without a style. ``tab`` names the cell in an error."""
    s = f' s="{style}"' if style else ""
    if value is None or value == "":
        return f'<{p}c r="{ref}"{s}/>' if style else ""
    if isinstance(value, str):
        if not value.isprintable() and _ILLEGAL.search(value):
            raise BadWorkbook(f"{tab}!{ref}: {value!r} has a control character that an .xlsx cell cannot hold")
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<{p}c r="{ref}"{s} t="inlineStr"><{p}is><{p}t{space}>{escape(value)}</{p}t></{p}is></{p}c>'
    if isinstance(value, bool):
        return f'<{p}c r="{ref}"{s} t="b"><{p}v>{int(value)}</{p}v></{p}c>'
    if isinstance(value, int):
        return f'<{p}c r="{ref}"{s}><{p}v>{value}</{p}v></{p}c>'
    if isinstance(value, float):
        return f'<{p}c r="{ref}"{s}><{p}v>{_number(value, tab, ref)}</{p}v></{p}c>'
    if getattr(value, "tzinfo", None) is not None:
        raise BadWorkbook(f"{tab}!{ref}: {value!r} has a time zone, which a spreadsheet cell cannot hold")
    from openpyxl.utils.datetime import to_excel  # here, not on top: only dates need it, and it takes a while

    serial = float(to_excel(value, epoch))  # type: ignore[no-untyped-call]
    return f'<{p}c r="{ref}"{s}><{p}v>{_number(serial, tab, ref)}</{p}v></{p}c>'


class Cell(NamedTuple):
    column: int
    attrs: dict[str, str]
    xml: str
    inner: str


def row_cells(p: str, inner: str) -> tuple[list[Cell], str]:
    """The cells of a row's content, with their columns (a cell without ``r`` follows the one before),
    and whatever follows the last cell (an extension list)."""
    if not inner:  # a new row: nothing to take apart
        return [], ""
    out: list[Cell] = []
    end = 0
    column = 0
    for m in re.finditer(rf"<{p}c\b([^>]*?)(?:/>|>(.*?)</{p}c>)", inner, re.S):
        attrs = tag_attributes(m[1])
        ref = CELL_REF.fullmatch(attrs.get("r", ""))
        column = column_index(ref[1]) if ref else column + 1
        out.append(Cell(column, attrs, m[0], m[2] or ""))
        end = m.end()
    return out, inner[end:]


