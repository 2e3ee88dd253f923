"""Files a command cannot use, and what it says: a read-only workbook, a folder it cannot write, a full
disk, a save that was killed, an encrypted or Strict Open XML workbook, an error log it cannot write.

Tests run as an ordinary user or as root; root writes through ``chmod`` modes, so where root is
needed to make a folder read-only or a disk full, a small memory disk is mounted for the test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.cli import error_log

from .helpers import new_workbook, refused, run

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0



def players(n: int) -> list[tuple[object, ...]]:
    return [(f"Player {i:03d}",) for i in range(1, n + 1)]



@contextlib.contextmanager
def memory_disk(folder: Path, size: str) -> Iterator[Path]:
    """``folder`` as a mounted memory disk of ``size`` (root only; skipped, saying why, where mounting fails)."""
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a memory disk here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def test_a_read_only_workbook_is_refused_not_replaced(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # chmod 444
    for command in (("pair", str(path)), ("standings", str(path))):
        line = refused(path, *command)
        assert line == (f"{path}: the file is read-only; sheetswiss does not replace it. Make it writable "
                        "(clear its read-only flag) and run again")
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.xlsx"]
    code, out, _ = run("pair", str(path), "--dry-run")  # looking is fine
    assert code == 0 and "Round 1" in out
    path.chmod(0o644)
    assert run("pair", str(path))[0] == 0


@pytest.mark.skipif(ROOT and sys.platform != "linux", reason="root writes into a chmod 555 folder")
def test_a_folder_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    if ROOT:  # root writes through modes: the folder is a memory disk mounted read-only
        context: contextlib.AbstractContextManager[Path] = memory_disk(tmp_path / "event", "4m")
    else:
        context = contextlib.nullcontext(tmp_path / "event")
        (tmp_path / "event").mkdir()
    with context as folder:
        path = new_workbook(folder, players(6))
        if ROOT:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            folder.chmod(0o555)
        try:
            line = refused(path, "pair", str(path))
        finally:
            if not ROOT:
                folder.chmod(0o755)
        reason = "the disk is read-only" if ROOT else "permission denied"
        assert line == f"{path}: cannot save in {folder} ({reason}); nothing was written"
        assert sorted(p.name for p in folder.iterdir()) == ["event.xlsx"]


@pytest.mark.skipif(not ROOT or sys.platform != "linux", reason="filling a disk needs a memory disk: root on Linux")
def test_a_full_disk_is_one_line_and_leaves_the_workbook(tmp_path: Path) -> None:
    with memory_disk(tmp_path / "event", "1m") as folder:
        path = new_workbook(folder, players(40))
        filler = folder / "filler.bin"
        with contextlib.suppress(OSError), open(filler, "wb") as f:
            while True:
                f.write(b"\0" * 4096)
        line = refused(path, "pair", str(path))
        assert line == f"{path}: cannot save (the disk is full); nothing was written"
        assert sorted(p.name for p in folder.iterdir()) == ["event.xlsx", "filler.bin"]
        filler.unlink()
        assert run("pair", str(path))[0] == 0


def test_a_temporary_file_left_by_a_killed_save_is_removed_by_the_next_run(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(6))
    before = path.read_bytes()
    killed = ("import os, sys\n"
              "from sheetswiss.backends.xlsx import Package\n"
              "def save(self, target):\n"
              "    target.write_bytes(b'half a workbook')\n"
              "    os._exit(9)  # killed mid-save: no cleanup runs\n"
              "Package.save = save\n"
              "from sheetswiss.cli import cli\n"
              "cli(sys.argv[1:])\n")
    done = subprocess.run([sys.executable, "-c", killed, "pair", str(path)], capture_output=True, text=True)
    assert done.returncode == 9 and path.read_bytes() == before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "event.xlsx"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".event.") and leftovers[0].endswith(".xlsx.tmp")
    others = [".event.notours.xlsx.tmp", ".event.abcdefgh.xlsx", ".other.abcdefgh.xlsx.tmp", "event.xlsx.tmp",
              ".event.ABCDEFGH.xlsx.tmp"]  # not names a save of event.xlsx makes: kept
    for name in others:
        (tmp_path / name).write_text("the GM's")
    code, _, err = run("pair", str(path))
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["event.xlsx", *others])


def test_the_error_log_is_the_users_own_and_failing_to_write_it_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_workbook(tmp_path, players(6))

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "standings", broken)
    home = tmp_path / "home"
    places = {"HOME": str(home), "USERPROFILE": str(home), "XDG_STATE_HOME": str(home / "state"),
              "LOCALAPPDATA": str(home / "AppData" / "Local")}
    for name, value in places.items():
        monkeypatch.setenv(name, value)
    code, _, err = run("standings", str(path))
    log = error_log()
    assert code == 1 and err == (f"Error: unexpected failure (RuntimeError: a bug); the workbook was left as it "
                                 f"was. Details: {log}\n")
    assert log.is_relative_to(home) and "RuntimeError: a bug" in log.read_text()
    blocked = tmp_path / "a file"  # where the log folder should be: it cannot be made, as any user
    blocked.write_text("")
    for name in places:
        monkeypatch.setenv(name, str(blocked))
    code, _, err = run("standings", str(path))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("Error: unexpected failure (RuntimeError: a bug); the workbook was left as it was. "
                          "the details could not be written to a log (")


def _compound_file(path: Path, streams: dict[str, bytes]) -> None:
    """An OLE compound file (MS-CFB version 3) holding ``streams``, each padded to at least 4,096 bytes so
    that it lives in ordinary sectors: the container Excel writes a password-protected workbook into."""
    sector = 512
    data = [s.ljust(4096, b"\0") for s in streams.values()]
    sizes = [-(-len(d) // sector) for d in data]
    fat = [0xFFFFFFFD, 0xFFFFFFFE]  # sector 0: this table; sector 1: the directory
    starts = []
    for n in sizes:
        starts.append(len(fat))
        fat.extend(range(len(fat) + 1, len(fat) + n))
        fat.append(0xFFFFFFFE)
    fat.extend([0xFFFFFFFF] * (sector // 4 - len(fat)))

    def entry(name: str, kind: int, child: int, right: int, start: int, size: int) -> bytes:
        encoded = (name + "\0").encode("utf-16-le")
        return (encoded.ljust(64, b"\0") + struct.pack("<HBBIII", len(encoded), kind, 1, 0xFFFFFFFF, right, child)
                + b"\0" * 36 + struct.pack("<IQ", start, size))

    names = list(streams)  # sorted by length then name, each the next one's left sibling's parent: a chain
    order = sorted(range(len(names)), key=lambda i: (len(names[i]), names[i].upper()))
    entries = [entry("Root Entry", 5, order[0] + 1, 0xFFFFFFFF, 0xFFFFFFFE, 0)]
    for i, name in enumerate(names):
        after = order.index(i) + 1
        right = order[after] + 1 if after < len(order) else 0xFFFFFFFF
        entries.append(entry(name, 2, 0xFFFFFFFF, right, starts[i], len(streams[name])))
    directory = b"".join(entries).ljust(sector, b"\0")
    header = (bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 16 + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + b"\0" * 6 + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
              + struct.pack("<I", 0) + b"\xff" * 4 * 108)
    path.write_bytes(header + struct.pack(f"<{len(fat)}I", *fat) + directory + b"".join(
        d.ljust(n * sector, b"\0") for d, n in zip(data, sizes)))


def test_a_password_protected_workbook_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "locked.xlsx"
    _compound_file(path, {"EncryptionInfo": b"\x04\x00\x04\x00\x40\x00\x00\x00<encryption/>",
                          "EncryptedPackage": os.urandom(6000)})
    line = refused(path, "standings", str(path))
    assert line == (f"{path}: the workbook is password-protected (encrypted), which sheetswiss cannot read; "
                    "remove the password (File > Info > Protect Workbook) or save it as a normal .xlsx workbook "
                    "(Excel Workbook) and use that")


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_an_old_xls_workbook_named_xlsx_is_named_as_such(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, players(4))
    assert SOFFICE is not None
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                    "--convert-to", "xls", "--outdir", str(tmp_path / "xls"), str(path)],
                   check=True, capture_output=True, timeout=180)
    renamed = tmp_path / "old.xlsx"
    (tmp_path / "xls" / "event.xls").rename(renamed)
    assert refused(renamed, "pair", str(renamed)) == (
        f"{renamed}: an old-style .xls workbook (or another Office file) named .xlsx; save it as a normal .xlsx "
        "workbook (Excel Workbook) and use that")


def test_a_strict_open_xml_workbook_is_named_as_such(tmp_path: Path) -> None:
    """Strict Open XML is the same package under other namespaces (ISO/IEC 29500-1 Strict), as Excel
    writes it for "Strict Open XML Spreadsheet"."""
    path = new_workbook(tmp_path, players(4))
    strict = tmp_path / "strict.xlsx"
    renames = {b"http://schemas.openxmlformats.org/spreadsheetml/2006/main": b"http://purl.oclc.org/ooxml/"
               b"spreadsheetml/main",
               b"http://schemas.openxmlformats.org/officeDocument/2006/relationships": b"http://purl.oclc.org/"
               b"ooxml/officeDocument/relationships"}
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(strict, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            data = source.read(name)
            for old, new in renames.items():
                data = data.replace(old, new)
            target.writestr(name, data)
    for command in ("standings", "pair"):
        assert refused(strict, command, str(strict)) == (
            f"{strict}: a Strict Open XML workbook, which sheetswiss does not read; save it as a normal .xlsx "
            "workbook (Excel Workbook) and use that")
    with pytest.raises(Exception, match="Strict Open XML"):
        ExcelBackend(strict).read()
