"""The zip around an .xlsx package: its parts read together with the bytes the zip stores them as, and
written back with every part the write did not change copied as stored.

Inflating a part and deflating it again gives the same part at the cost of compressing it anew; on a big
event the tabs a command leaves alone (Standings, Players) are megabytes of XML. So :func:`read_parts`
keeps each part's stored (compressed) bytes beside its content, and :func:`write_parts` writes a part
whose content is unchanged from those bytes, with its CRC-32 and sizes as read. Changed and new parts are
deflated at zlib's fastest level (*decision*): on the Results tab of 8,000 players (10 MB of XML) it takes
a third of the time of the default level, for a part about a quarter larger (1.5 MB rather than 1.2 MB);
the workbook's contents are the same either way.

The layout is the zip file format's own (PKWARE's APPNOTE.TXT, sections 4.3.7, 4.3.12 and 4.3.16: a local
header before each part's bytes, then the central directory and its end record), with the fields
:mod:`zipfile` writes. :mod:`zipfile` reads every archive; it has no way to write stored bytes as they are.
"""

from __future__ import annotations

import io
import struct
import sys
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, final

from .xmltext import PackageError

__all__ = ["Part", "read_parts", "write_parts"]

_LOCAL = struct.Struct("<4s2B4HL2L2H")
"""A local file header (APPNOTE 4.3.7), as :mod:`zipfile` packs it."""
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
"""A central directory header (APPNOTE 4.3.12)."""
_END = struct.Struct("<4s4H2LH")
"""The end of central directory record (APPNOTE 4.3.16)."""
_VERSION = 20
"""Version 2.0 of the format, what deflate needs; :mod:`zipfile` writes it as both versions."""
_SYSTEM = 0 if sys.platform == "win32" else 3
"""The system the part's attributes come from (0 MS-DOS, 3 Unix), as :mod:`zipfile` says it."""
_UTF8 = 0x800
"""General purpose flag 11: the part's name is UTF-8."""
_LIMIT = 0xFFFFFFFF
"""Sizes and offsets from here on need the zip64 extensions, which no workbook comes near."""


@final
@dataclass(frozen=True, slots=True)
class Part:
    """One part as the zip stores it, for :func:`write_parts`."""

    name: str
    content: bytes
    """The part's bytes, uncompressed."""
    date_time: tuple[int, int, int, int, int, int]
    """Its modification time: year, month, day, hour, minute, second."""
    external_attr: int
    """The file attributes (Unix mode in the high 16 bits)."""
    method: int = zipfile.ZIP_DEFLATED
    """``zipfile.ZIP_STORED`` or ``zipfile.ZIP_DEFLATED``."""
    stored: bytes | None = None
    """The bytes the zip held ``content`` as (compressed by ``method``), written as they are; ``None``:
    compressed here."""
    crc: int = 0
    """The CRC-32 of ``content`` when ``stored`` is given."""


def read_parts(path: Path) -> tuple[dict[str, bytes], dict[str, zipfile.ZipInfo], dict[str, bytes]]:
    """The parts of the zip at ``path`` (folders left out): contents, entries, and the stored bytes of every
    part stored plainly or deflated (what :func:`write_parts` can copy as it is).

    Raises :class:`zipfile.BadZipFile` for a file that is not a zip, as :class:`zipfile.ZipFile` does.
    """
    data = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = [i for i in z.infolist() if not i.is_dir()]
        contents = {i.filename: z.read(i) for i in infos}  # checks each part's CRC-32
    stored = {i.filename: raw for i in infos if (raw := _stored_bytes(data, i)) is not None}
    return contents, {i.filename: i for i in infos}, stored


def _stored_bytes(data: bytes, info: zipfile.ZipInfo) -> bytes | None:
    """The bytes ``info``'s part is stored as in ``data`` (the whole zip), or ``None`` when they cannot be
    copied as they are: encrypted, compressed another way than deflate, or past the plain format's sizes."""
    if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        return None
    if max(info.compress_size, info.file_size, info.header_offset) >= _LIMIT:
        return None
    at = info.header_offset
    if data[at:at + 4] != b"PK\x03\x04":
        return None
    name_length, extra_length = struct.unpack_from("<HH", data, at + 26)
    start = at + _LOCAL.size + name_length + extra_length
    raw = data[start:start + info.compress_size]
    return raw if len(raw) == info.compress_size else None


def write_parts(path: Path, parts: Iterable[Part]) -> None:
    """Write ``parts`` as a zip at ``path``, in the order given."""
    with open(path, "wb") as f:
        _write(f, parts)


def _write(f: BinaryIO, parts: Iterable[Part]) -> None:
    central: list[bytes] = []
    offset = 0
    for part in parts:
        if part.stored is not None:
            method, crc, body = part.method, part.crc, part.stored
        elif part.method == zipfile.ZIP_STORED:
            method, crc, body = part.method, zlib.crc32(part.content), part.content
        else:
            deflate = zlib.compressobj(zlib.Z_BEST_SPEED, zlib.DEFLATED, -15)
            method, crc, body = zipfile.ZIP_DEFLATED, zlib.crc32(part.content), \
                deflate.compress(part.content) + deflate.flush()
        if max(len(body), len(part.content), offset) >= _LIMIT:
            raise PackageError(f"{part.name}: the part is too large for a workbook (4 GB or more)")
        try:
            name, flags = part.name.encode("ascii"), 0
        except UnicodeEncodeError:
            name, flags = part.name.encode("utf-8"), _UTF8
        year, month, day, hour, minute, second = part.date_time
        date = (year - 1980) << 9 | month << 5 | day
        time = hour << 11 | minute << 5 | second // 2
        fields = (method, time, date, crc, len(body), len(part.content), len(name))
        f.write(_LOCAL.pack(b"PK\x03\x04", _VERSION, 0, flags, *fields, 0))
        f.write(name)
        f.write(body)
        central.append(_CENTRAL.pack(b"PK\x01\x02", _VERSION, _SYSTEM, _VERSION, 0, flags, *fields, 0, 0, 0, 0,
                                     part.external_attr, offset) + name)
        offset += _LOCAL.size + len(name) + len(body)
    directory = b"".join(central)
    if len(central) > 0xFFFF or offset + len(directory) >= _LIMIT:
        raise PackageError("the workbook is too large for a zip without its extensions")
    f.write(directory)
    f.write(_END.pack(b"PK\x05\x06", 0, 0, len(central), len(central), len(directory), offset, 0))
