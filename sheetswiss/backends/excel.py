"""The offline backend: a local .xlsx workbook through openpyxl, saved atomically.

A save writes a temporary file in the same folder and then replaces the workbook with it, so a crash
or Ctrl-C leaves the old file or the new one, never a broken one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.styles.alignment import Alignment
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from ..errors import WorkbookUnavailable
from .base import Append, Book, Changes, Tab, Value, column_letter

__all__ = ["ExcelBackend"]

_TEXT_ROWS = 1000
"""How far down a Text-formatted column is pre-formatted in a new tab."""


class ExcelBackend:
    """An .xlsx file. ``read`` loads values only; ``write`` loads the whole file, edits, saves atomically."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    @property
    def label(self) -> str:
        return str(self.path)

    def exists(self) -> bool:
        return self.path.exists()

    def _check_usable(self, writing: bool = False) -> None:
        suffix = self.path.suffix.lower()
        if suffix == ".xlsm":
            raise WorkbookUnavailable(
                f"{self.path}: macro workbooks (.xlsm) are not supported; save a copy as .xlsx and use that")
        if suffix != ".xlsx":
            raise WorkbookUnavailable(f"{self.path}: not an .xlsx workbook (sheetswiss reads .xlsx files)")
        if not writing:  # reading a workbook that is open elsewhere is fine; writing it would lose edits
            return
        for lock in (self.path.with_name("~$" + self.path.name),
                     self.path.with_name(f".~lock.{self.path.name}#")):
            if lock.exists():
                raise WorkbookUnavailable(
                    f"{self.path}: the workbook is open in a spreadsheet program ({lock.name} exists); "
                    "close it there and run again (if no program has it open, delete the stale "
                    f"{lock.name})")

    @contextlib.contextmanager
    def _opening(self) -> Iterator[None]:
        try:
            yield
        except FileNotFoundError:
            raise WorkbookUnavailable(
                f"{self.path}: no such file; make one with: sheetswiss new {self.path}") from None
        except PermissionError:
            raise WorkbookUnavailable(f"{self.path}: permission denied (is it locked or read-only?)") from None
        except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError) as e:
            raise WorkbookUnavailable(f"{self.path}: not a readable .xlsx workbook ({e})") from None

    def read(self) -> Book:
        """Every tab's values (formulas as their last computed values)."""
        self._check_usable()
        with self._opening():
            wb = load_workbook(self.path, read_only=True, data_only=True)
            try:
                tabs = {ws.title: _trim(ws.iter_rows(values_only=True)) for ws in wb.worksheets}
            finally:
                wb.close()
        return Book(tabs)

    def write(self, changes: Changes) -> None:
        """Apply ``changes`` to the file, or create it, in one atomic save."""
        self._check_usable(writing=True)
        if self.path.exists():
            with self._opening():
                wb = load_workbook(self.path)
        else:
            wb = Workbook()
            for sheet in wb.worksheets:
                wb.remove(sheet)
        for tab in changes.new_tabs:
            if tab.name not in wb.sheetnames:
                _fill(wb.create_sheet(tab.name), tab)
        for tab in changes.tool_tabs:
            index = wb.sheetnames.index(tab.name) if tab.name in wb.sheetnames else len(wb.sheetnames)
            if tab.name in wb.sheetnames:
                wb.remove(wb[tab.name])
            _fill(wb.create_sheet(tab.name, index), tab)
        for append in changes.appends:
            _append(wb[append.tab], append)
        self._save(wb)

    def _save(self, wb: Workbook) -> None:
        folder = self.path.parent
        fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.stem}.", suffix=".xlsx.tmp", dir=folder)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            wb.save(tmp)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            if self.path.exists():
                os.chmod(tmp, self.path.stat().st_mode & 0o777)
            else:  # a new file gets the usual permissions, not mkstemp's private 0600
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            try:
                os.replace(tmp, self.path)
            except PermissionError:
                raise WorkbookUnavailable(
                    f"{self.path}: cannot replace the file (open in Excel, or read-only?); nothing was written"
                ) from None
        finally:
            tmp.unlink(missing_ok=True)

    def fill_cells(self, tab: str, values: dict[str, Value]) -> None:
        """Type values into cells as a GM would (``{"E14": "1-0"}``); used by ``demo`` and tests."""
        self._check_usable(writing=True)
        with self._opening():
            wb = load_workbook(self.path)
        ws = wb[tab]
        for ref, value in values.items():
            _set(ws[ref], value)
        self._save(wb)


def _trim(rows: Iterator[tuple[Any, ...]]) -> tuple[tuple[Value, ...], ...]:
    out: list[tuple[Value, ...]] = []
    for row in rows:
        cells = list(row)
        while cells and (cells[-1] is None or cells[-1] == ""):
            cells.pop()
        out.append(tuple(cells))
    while out and not out[-1]:
        out.pop()
    return tuple(out)


def _set(cell: Cell | MergedCell, value: Value) -> None:
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"  # text, never a formula: a name like "=IMPORTXML(...)" stays a name


def _fill(ws: Worksheet, tab: Tab) -> None:
    for r, row in enumerate(tab.rows, start=1):
        for c, value in enumerate(row, start=1):
            if value is not None:
                _set(ws.cell(r, c), value)
    fmt = tab.format
    if fmt.freeze_rows:
        ws.freeze_panes = f"A{fmt.freeze_rows + 1}"
    if fmt.landscape:
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    for c, width in enumerate(fmt.widths, start=1):
        ws.column_dimensions[column_letter(c)].width = width
    for c in fmt.text_columns:
        for r in range(fmt.freeze_rows + 1, max(len(tab.rows), fmt.freeze_rows) + _TEXT_ROWS):
            ws.cell(r, c).number_format = "@"
    thin = Side(style="thin", color="444444")
    for band in fmt.bands:
        fill = PatternFill("solid", fgColor=band.fill) if band.fill else None
        font = Font(bold=band.bold, italic=band.italic) if band.bold or band.italic else None
        for r in range(band.first_row, band.last_row + 1):
            for c in range(band.first_col, band.last_col + 1):
                cell = ws.cell(r, c)
                if fill:
                    cell.fill = fill
                if font:
                    cell.font = font
                if band.number_format:
                    cell.number_format = band.number_format
                if band.wrap or band.center:
                    cell.alignment = Alignment(wrap_text=band.wrap, vertical="top" if band.wrap else None,
                                               horizontal="center" if band.center else None)
                if band.border_below and r == band.last_row:
                    cell.border = Border(bottom=thin)


def _append(ws: Worksheet, append: Append) -> None:
    last = append.first_row + len(append.rows) - 1
    for r, row in enumerate(append.rows, start=append.first_row):
        for c, value in enumerate(row, start=1):
            _set(ws.cell(r, c), value)
        for c in append.text_columns:
            ws.cell(r, c).number_format = "@"
    for r in range(last + 1, append.clear_through + 1):
        for c in range(1, ws.max_column + 1):
            ws.cell(r, c).value = None
