"""The errors a GM can fix, and only those: each message names the cell first.

Anything else is a bug in sheetswiss; the command line logs it and exits 1.
"""

from __future__ import annotations

__all__ = ["BadSetting", "BadWorkbook", "SheetswissError", "UnknownName", "WorkbookUnavailable"]


class SheetswissError(ValueError):
    """Bad input the GM can fix: ``"Results!E14: cannot read 'W' as a result; accepted: ..."``."""


class BadWorkbook(SheetswissError):
    """A tab does not follow the workbook contract (DESIGN.md section 2)."""


class BadSetting(SheetswissError):
    """A Settings value is not one the setting accepts."""


class UnknownName(SheetswissError):
    """A name (tiebreak, setting, preset) that sheetswiss does not know; the message lists the known ones."""


class WorkbookUnavailable(SheetswissError):
    """The file cannot be used: missing, locked, open in Excel, not an .xlsx."""
