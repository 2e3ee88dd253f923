"""The offline backend: a local .xlsx workbook, saved atomically.

Reading and writing go through the file's package (:mod:`.xlsx`): a read takes the values from the
sheets' XML directly, a write changes only what the command writes (the tool's tabs, appended rows,
filled cells) and copies every other part as it is. Both are several times faster than loading the
workbook into openpyxl, which matters on big events; openpyxl only types cells in for ``demo`` and
tests (:meth:`ExcelBackend.fill_cells`). A save writes a temporary file in the same folder and then
replaces the workbook with it, so a crash or Ctrl-C leaves the old file or the new one, never a
broken one; a temporary file that a killed save left behind is removed by the next save.

A file that cannot be used is named for what it is: a read-only workbook is refused rather than
replaced, a password-protected (encrypted) or Strict Open XML workbook is named as such, and a folder
that cannot be written or a full disk is one line, the workbook left as it was.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import os
import re
import stat
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import WorkbookUnavailable
from .base import Book, Changes, Value
from .xlsx import Package, PackageError, StrictWorkbook

__all__ = ["ExcelBackend"]

_OLE = bytes.fromhex("D0CF11E0A1B11AE1")
"""The first bytes of an OLE compound file: an encrypted workbook, or an old .xls under another name."""
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")
"""The name of the stream that holds an encrypted workbook's package (MS-OFFCRYPTO 2.3.4)."""
SAVE_AGAIN = "save it as a normal .xlsx workbook (Excel Workbook) and use that"


def _temporary_prefix(path: Path) -> str:
    return f".{path.stem}."


_TEMPORARY_SUFFIX = ".xlsx.tmp"


def _is_read_only(path: Path) -> bool:
    """Whether the file says it must not be changed: no write permission for anyone in its mode (``chmod
    444``, or the read-only flag on Windows). Its mode, not whether this user could write it: an
    administrator can write any file, and the file still says read-only."""
    return not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)


def _why(e: OSError) -> str:
    """An operating system error in a GM's words."""
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "the disk is full"
    if e.errno == errno.EROFS:
        return "the disk is read-only"
    if isinstance(e, PermissionError):
        return "permission denied"
    return e.strerror or type(e).__name__


_OTHER_FORMATS = {
    ".ods": "an OpenDocument spreadsheet (.ods, LibreOffice's own format: File > Save As, Excel 2007-365)",
    ".xls": "an Excel 97-2003 workbook (.xls: File > Save As, Excel Workbook)",
    ".numbers": "a Numbers spreadsheet (File > Export To > Excel)",
}
"""Spreadsheet files sheetswiss does not read, and how their program saves them as .xlsx."""


class ExcelBackend:
    """An .xlsx file. ``read`` takes values only; ``write`` edits the package's parts and saves atomically."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    @property
    def label(self) -> str:
        return str(self.path)

    @property
    def remote(self) -> bool:
        return False

    def exists(self) -> bool:
        return self.path.exists()

    def start_new(self, refusal: str) -> Book:
        if self.exists():
            raise WorkbookUnavailable(f"{self.label}: already exists; {refusal}")
        if not self.path.parent.is_dir():
            raise WorkbookUnavailable(f"{self.path.parent}: no such folder; create it first or pick another path")
        return Book({})

    def _check_usable(self, writing: bool = False) -> None:
        suffix = self.path.suffix.lower()
        if suffix == ".xlsm":
            raise WorkbookUnavailable(
                f"{self.path}: macro workbooks (.xlsm) are not supported; save a copy as .xlsx and use that")
        if suffix in _OTHER_FORMATS:
            raise WorkbookUnavailable(f"{self.path}: {_OTHER_FORMATS[suffix]}; sheetswiss reads .xlsx workbooks: "
                                      "save it as .xlsx and use that")
        if suffix != ".xlsx":
            near = _nearest(self.path)
            raise WorkbookUnavailable(f"{self.path}: not an .xlsx workbook (sheetswiss reads .xlsx files)"
                                      + (f"; did you mean {near}?" if near else ""))
        if not writing:  # reading a workbook that is open elsewhere is fine; writing it would lose edits
            return
        if self.path.exists() and _is_read_only(self.path):
            raise WorkbookUnavailable(f"{self.path}: the file is read-only; sheetswiss does not replace it. "
                                      "Make it writable (clear its read-only flag) and run again")
        lock = self.lock_file()
        if lock is not None:
            raise WorkbookUnavailable(
                f"{self.path}: the workbook is open in a spreadsheet program ({lock.name} exists); "
                "close it there and run again (if no program has it open, delete the stale "
                f"{lock.name})")

    def stamp(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return (-1, -1)
        return info.st_mtime_ns, info.st_size

    def refresh(self) -> None:
        """Nothing to forget: every read opens the file again."""

    def lock_file(self) -> Path | None:
        """The lock file a spreadsheet program keeps beside the workbook while it is open (Excel's
        ``~$NAME.xlsx``, LibreOffice's ``.~lock.NAME.xlsx#``), if there is one: sheetswiss never writes then."""
        for lock in (self.path.with_name("~$" + self.path.name), self.path.with_name(f".~lock.{self.path.name}#")):
            if lock.exists():
                return lock
        return None

    @contextlib.contextmanager
    def _opening(self) -> Iterator[None]:
        try:
            yield
        except FileNotFoundError:
            near = _nearest(self.path)
            raise WorkbookUnavailable(f"{self.path}: no such file; " + (
                f"did you mean {near}?" if near else f"make one with: sheetswiss new {self.path}")) from None
        except PermissionError:
            raise WorkbookUnavailable(f"{self.path}: permission denied (is it locked or read-only?)") from None
        except StrictWorkbook:
            raise WorkbookUnavailable(f"{self.path}: a Strict Open XML workbook, which sheetswiss does not read; "
                                      + SAVE_AGAIN) from None
        except zipfile.BadZipFile as e:
            raise WorkbookUnavailable(self._not_a_zip(e)) from None
        except (PackageError, KeyError, OSError) as e:
            raise WorkbookUnavailable(f"{self.path}: not a readable .xlsx workbook ({e})") from None

    def _not_a_zip(self, error: zipfile.BadZipFile) -> str:
        """Why a file named .xlsx is not a zip package: encrypted, an old .xls, or something else."""
        try:
            with open(self.path, "rb") as f:
                data = f.read(1 << 20)
        except OSError:
            data = b""
        if data.startswith(_OLE):
            if _ENCRYPTED in data:
                return (f"{self.path}: the workbook is password-protected (encrypted), which sheetswiss cannot "
                        f"read; remove the password (File > Info > Protect Workbook) or {SAVE_AGAIN}")
            return f"{self.path}: an old-style .xls workbook (or another Office file) named .xlsx; {SAVE_AGAIN}"
        return f"{self.path}: not a readable .xlsx workbook ({error})"

    def read(self) -> Book:
        """Every tab's values as openpyxl reads them (formulas as their last computed values, dates as
        datetimes), empty cells ``None``."""
        self._check_usable()
        with self._opening():
            package = Package.load(self.path)
            return Book(package.values(), merged=package.merged(), formulas=package.formulas())

    def write(self, changes: Changes) -> None:
        """Apply ``changes`` to the file, or create it, in one atomic save.

        Raises :class:`~sheetswiss.errors.BadWorkbook`, writing nothing, when an update's cell is not empty.
        """
        self._check_usable(writing=True)
        with self._opening():
            package = Package.load(self.path) if self.path.exists() else Package.blank()
            package.apply(changes)
        self._save(package.save)

    def _save(self, write: Callable[[Path], None]) -> None:
        """``write`` the workbook to a temporary file beside it, then put that file in its place.

        The temporary file is named after the workbook (``.event.k3j9x0_a.xlsx.tmp``); such files left by
        a save that was killed are removed first. An operating system error (a folder that cannot be
        written, a full disk) is one line; the workbook is left as it was.
        """
        folder = self.path.parent
        self._remove_temporaries()
        try:
            fd, tmp_name = tempfile.mkstemp(prefix=_temporary_prefix(self.path), suffix=_TEMPORARY_SUFFIX,
                                            dir=folder)
        except OSError as e:
            raise WorkbookUnavailable(f"{self.path}: cannot save in {folder} ({_why(e)}); nothing was written"
                                      ) from None
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            write(tmp)
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
        except OSError as e:
            raise WorkbookUnavailable(f"{self.path}: cannot save ({_why(e)}); nothing was written") from None
        finally:
            tmp.unlink(missing_ok=True)

    def _remove_temporaries(self) -> None:
        """Remove this workbook's temporary files that a killed save left in its folder: only files named
        as :meth:`_save` names them, never anything else."""
        prefix = _temporary_prefix(self.path)
        own = re.compile(re.escape(prefix) + r"[a-z0-9_]{8}" + re.escape(_TEMPORARY_SUFFIX))
        try:
            names = [p for p in self.path.parent.iterdir() if p.name.startswith(prefix) and own.fullmatch(p.name)]
        except OSError:
            return
        for leftover in names:
            with contextlib.suppress(OSError):
                if leftover.is_file() and not leftover.is_symlink():
                    leftover.unlink()

    def fill_cells(self, tab: str, values: dict[str, Value]) -> None:
        """Type values into cells as a GM would (``{"E14": "1-0"}``), whatever they held; used by ``demo``
        and tests. Text stays text: a name like "=IMPORTXML(...)" is typed as a name, not a formula."""
        self._check_usable(writing=True)
        with self._opening():
            package = Package.load(self.path)
            package.type_cells(tab, values)
        self._save(package.save)


def _nearest(path: Path) -> Path | None:
    """The workbook beside ``path`` whose name is closest to its name (a typo's likely target), if any."""
    try:
        stems = {p.stem: p.name for p in path.parent.iterdir() if p.suffix.lower() == ".xlsx" and p.is_file()}
    except OSError:
        return None
    near = difflib.get_close_matches(path.stem, list(stems), n=1, cutoff=0.6)
    return path.with_name(stems[near[0]]) if near else None
