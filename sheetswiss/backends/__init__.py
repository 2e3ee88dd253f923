"""Where an event lives: an .xlsx file (:mod:`.excel`) or a Google Sheet (:mod:`.gsheets`), behind the
small interface of :mod:`.base`."""

from __future__ import annotations

import re

__all__ = ["sheet_key"]

_KEY = re.compile(r"[A-Za-z0-9_-]{25,}")
_URL = re.compile(r"https?://docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)")


def sheet_key(source: str) -> str | None:
    """The spreadsheet key in ``source`` (a Sheets URL, ``gsheet:KEY`` or a bare key), else ``None``.

    >>> sheet_key("https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123/edit#gid=0")
    '1AbCdEfGhIjKlMnOpQrStUvWxYz0123'
    >>> sheet_key("gsheet:1AbCdEfGhIjKlMnOpQrStUvWxYz0123"), sheet_key("event.xlsx")
    ('1AbCdEfGhIjKlMnOpQrStUvWxYz0123', None)
    """
    text = source.strip()
    match = _URL.match(text)
    if match:
        return match[1]
    if text.startswith("gsheet:"):
        return text.removeprefix("gsheet:")
    if _KEY.fullmatch(text) and not text.lower().endswith((".xlsx", ".xlsm")):
        return text
    return None
