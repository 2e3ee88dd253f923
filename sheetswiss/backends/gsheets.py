"""The shared backend: a Google Sheet through gspread and google-auth, in a constant number of requests.

Every command costs one metadata read, one batch read of every tab and, when it writes, one
``spreadsheets.batchUpdate`` carrying the tool's tabs (typed values and formats), the rows appended
to GM tabs, the values written into empty GM cells and a revision guard; a write with such values
first reads those cells once more (one batch read), to refuse the write if one is no longer empty.
Google applies a batchUpdate atomically, so an interrupted command leaves the sheet as it was, and
the guard makes a second GM's concurrent write fail instead of pairing the same round twice.

The revision guard is a hidden tab the tool owns whose sheet id is the revision number: each write
deletes the tab with the id it read and adds it back with the next id, as the batch's first two
requests. If another write came in between, the id it read no longer exists, Google rejects the
whole batch, and nothing is written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter, HTTPAdapter
from requests.models import PreparedRequest

from ..errors import BadWorkbook, SheetswissError, WorkbookUnavailable
from .base import Append, Band, Book, Changes, Tab, Update, Value, column_letter

__all__ = [
    "ENDPOINT_VARIABLE",
    "GUARD_TAB",
    "SCOPES",
    "ConcurrentChange",
    "GoogleSheetsBackend",
    "RewritingSession",
    "credentials_path",
    "login",
]

SCOPES = ("https://www.googleapis.com/auth/spreadsheets",)
"""Only the spreadsheets scope (gspread's default would also ask for all of Drive)."""

GOOGLE = "https://sheets.googleapis.com"
ENDPOINT_VARIABLE = "SHEETSWISS_SHEETS_ENDPOINT"
"""An http URL of another Sheets v4 endpoint (a local fake or emulator); no credentials are needed then."""
CREDENTIALS_VARIABLE = "SHEETSWISS_CREDENTIALS"
GUARD_TAB = "sheetswiss revision"
FIRST_REVISION = 1_000_000
RETRIES = 5



class ConcurrentChange(SheetswissError):
    """The sheet changed between this command's read and its write (another GM's command)."""


def credentials_path(explicit: str | None = None) -> Path | None:
    """Where the credentials are: ``--credentials``, then ``SHEETSWISS_CREDENTIALS``, then
    ``GOOGLE_APPLICATION_CREDENTIALS``, then ``credentials.json`` in the user's config folder."""
    for candidate in (explicit, os.environ.get(CREDENTIALS_VARIABLE),
                      os.environ.get("GOOGLE_APPLICATION_CREDENTIALS")):
        if candidate:
            return Path(candidate).expanduser()
    config = _config_file()
    return config if config.exists() else None


class _Refuse(BaseAdapter):
    """Refuses every request it is mounted for."""

    def send(self, request: PreparedRequest, stream: bool = False,
             timeout: float | tuple[float, float] | tuple[float, None] | None = None,
             verify: bool | str = True, cert: bytes | str | tuple[bytes | str, bytes | str] | None = None,
             proxies: Mapping[str, str] | None = None) -> requests.Response:
        raise SheetswissError(f"refusing a request to {urlsplit(request.url or '').netloc}: "
                              "only the Sheets API is used")

    def close(self) -> None:
        pass


class _Redirect(HTTPAdapter):
    """Sends Google's Sheets URLs to another endpoint."""

    def __init__(self, endpoint: str) -> None:
        super().__init__()
        self.endpoint = endpoint

    def send(self, request: PreparedRequest, stream: bool = False,
             timeout: float | tuple[float, float] | tuple[float, None] | None = None,
             verify: bool | str = True, cert: bytes | str | tuple[bytes | str, bytes | str] | None = None,
             proxies: Mapping[str, str] | None = None) -> requests.Response:
        request.url = self.endpoint + (request.url or "")[len(GOOGLE):]
        return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)


class RewritingSession(requests.Session):
    """A requests session that sends Google's Sheets URLs to ``endpoint`` and refuses any other host."""

    def __init__(self, endpoint: str) -> None:
        super().__init__()
        parts = urlsplit(endpoint)
        if parts.scheme != "http" or not parts.netloc:
            raise SheetswissError(f"{ENDPOINT_VARIABLE}: {endpoint!r} is not an http URL such as http://127.0.0.1:8080")
        self.mount("http://", _Refuse())
        self.mount("https://", _Refuse())
        self.mount(GOOGLE + "/", _Redirect(endpoint.rstrip("/")))


def _session(credentials: str | None) -> tuple[requests.Session, str]:
    """A session for Google (authorised with the credentials) or for the endpoint override, and
    who the sheet must be shared with, for messages."""
    endpoint = os.environ.get(ENDPOINT_VARIABLE)
    if endpoint:
        return RewritingSession(endpoint), "this endpoint"
    import json

    from google.auth.transport.requests import AuthorizedSession

    path = credentials_path(credentials)
    if path is None:
        raise WorkbookUnavailable(
            "no Google credentials: pass --credentials FILE (a service-account key), or set "
            f"{CREDENTIALS_VARIABLE}; the README's Google Sheets section shows how to make one")
    try:
        info = json.loads(path.read_text())
    except FileNotFoundError:
        raise WorkbookUnavailable(f"{path}: no such credentials file") from None
    except (OSError, ValueError) as e:
        raise WorkbookUnavailable(f"{path}: not a readable credentials JSON file ({e})") from None
    kind = info.get("type") if isinstance(info, dict) else None
    try:
        if kind == "service_account":
            from google.oauth2 import service_account

            creds: Any = service_account.Credentials.from_service_account_info(  # type: ignore[no-untyped-call]
                info, scopes=list(SCOPES))
            return AuthorizedSession(creds), info.get("client_email", "the service account")  # type: ignore[no-untyped-call]
        if kind == "authorized_user":
            from google.oauth2.credentials import Credentials

            creds = Credentials.from_authorized_user_info(info, scopes=list(SCOPES))  # type: ignore[no-untyped-call]
            return AuthorizedSession(creds), "your Google account"  # type: ignore[no-untyped-call]
    except (ValueError, KeyError) as e:
        raise WorkbookUnavailable(f"{path}: the credentials are incomplete ({e}); download a new key") from None
    if isinstance(info, dict) and ("installed" in info or "web" in info):
        raise WorkbookUnavailable(f"{path}: this is an OAuth client file; run: sheetswiss login {path}")
    raise WorkbookUnavailable(f"{path}: not a service-account key or an authorised-user file (type {kind!r})")


def _config_file() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "sheetswiss" / "credentials.json"


def login(client_secret: str) -> Path:
    """Run Google's sign-in for a GM's own account (a browser opens) with the OAuth client file
    ``client_secret``; save the authorised-user credentials (spreadsheets scope only) to the config file."""
    path = Path(client_secret).expanduser()
    if not path.exists():
        raise WorkbookUnavailable(f"{path}: no such OAuth client file (download it from the Google Cloud "
                                  "console: APIs & Services, Credentials, OAuth client ID, Desktop app)")
    from google_auth_oauthlib.flow import InstalledAppFlow

    try:
        flow = InstalledAppFlow.from_client_secrets_file(str(path), scopes=list(SCOPES))
    except ValueError as e:
        raise WorkbookUnavailable(f"{path}: not an OAuth client file ({e})") from None
    creds = flow.run_local_server(port=0)
    target = _config_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(creds.to_json())
    target.chmod(0o600)
    return target


def _rgb(hex_colour: str) -> dict[str, float]:
    return {name: int(hex_colour[i:i + 2], 16) / 255 for name, i in (("red", 0), ("green", 2), ("blue", 4))}


def _cell_value(value: Value) -> dict[str, Any]:
    """A typed cell value: text is always a string value, never parsed as a formula."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    return {"stringValue": str(value)}


def _band_format(band: Band) -> dict[str, Any]:
    fmt: dict[str, Any] = {}
    if band.fill:
        fmt["backgroundColor"] = _rgb(band.fill)
    if band.bold or band.italic:
        fmt["textFormat"] = {"bold": band.bold, "italic": band.italic}
    if band.number_format:
        fmt["numberFormat"] = {"type": "NUMBER", "pattern": band.number_format}
    if band.wrap:
        fmt["wrapStrategy"] = "WRAP"
    if band.center:
        fmt["horizontalAlignment"] = "CENTER"
    return fmt


def _formats(tab: Tab) -> dict[tuple[int, int], dict[str, Any]]:
    """Each formatted cell's userEnteredFormat, 0-based (row, column)."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for band in tab.format.bands:
        fmt = _band_format(band)
        for r in range(band.first_row - 1, band.last_row):
            for c in range(band.first_col - 1, band.last_col):
                cell = out.setdefault((r, c), {})
                cell.update(fmt)
                if band.border_below and r == band.last_row - 1:
                    cell["borders"] = {"bottom": {"style": "SOLID"}}
    return out


def _rows_data(rows: tuple[tuple[Value, ...], ...], formats: Mapping[tuple[int, int], dict[str, Any]],
               width: int, first: int = 0) -> list[dict[str, Any]]:
    data = []
    for r, row in enumerate(rows, start=first):
        cells = []
        for c in range(width):
            value = row[c] if c < len(row) else None
            cell: dict[str, Any] = {}
            if value is not None:
                cell["userEnteredValue"] = _cell_value(value)
            if (r, c) in formats:
                cell["userEnteredFormat"] = formats[r, c]
            cells.append(cell)
        data.append({"values": cells})
    return data


class GoogleSheetsBackend:
    """A Google Sheet, read and written through gspread's HTTP client."""

    def __init__(self, key: str, *, credentials: str | None = None, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep, notify: Callable[[str], None] | None = None) -> None:
        self.key = key
        self._credentials = credentials
        self._session = session
        self._shared_with = "this endpoint"
        self._sleep = sleep
        self._notify = notify or (lambda message: None)
        self._meta: dict[str, Any] | None = None
        self._client: Any = None

    @property
    def label(self) -> str:
        return f"gsheet:{self.key}"

    def _http(self) -> Any:
        if self._client is None:
            import gspread

            if self._session is None:
                self._session, self._shared_with = _session(self._credentials)
            self._client = gspread.Client(auth=None, session=self._session).http_client  # type: ignore[arg-type]
        return self._client

    @contextmanager
    def _google(self, what: str) -> Iterator[None]:
        """Turn Google's answers into one clear line."""
        from gspread.exceptions import APIError

        try:
            yield
        except APIError as e:
            code, message = e.code, str(e.error.get("message", ""))
            if what == "write" and code == 400 and "requests[0]" in message:
                raise ConcurrentChange(
                    f"{self.label}: the sheet changed while this command ran (another GM's command?); "
                    "nothing was written; run it again") from None
            if code == 403:
                raise WorkbookUnavailable(
                    f"{self.label}: permission denied; share the sheet (as Editor) with {self._shared_with} "
                    "and run again") from None
            if code == 404:
                raise WorkbookUnavailable(f"{self.label}: no spreadsheet with this key; copy the URL from the "
                                          "browser's address bar") from None
            if code == 401:
                raise WorkbookUnavailable(f"{self.label}: Google refused the credentials ({message})") from None
            raise WorkbookUnavailable(f"{self.label}: Google Sheets refused to {what}: {message}") from None
        except requests.ConnectionError as e:
            raise WorkbookUnavailable(f"{self.label}: cannot reach Google Sheets ({type(e).__name__}); "
                                      "check the network and run again; nothing was written") from None
        except Exception as e:
            from google.auth.exceptions import RefreshError, TransportError

            if isinstance(e, RefreshError):
                raise WorkbookUnavailable(
                    f"{self.label}: Google refused the credentials ({_first_line(e)}); check that the key is "
                    "current (make a new one in the Google Cloud console if it was deleted)") from None
            if isinstance(e, TransportError):
                raise WorkbookUnavailable(
                    f"{self.label}: cannot reach Google to sign in ({type(e).__name__}); check the network "
                    "and run again; nothing was written") from None
            raise

    def _call(self, what: str, fn: Callable[[], Any]) -> Any:
        """``fn()``, retried with exponential backoff on 429 and 5xx answers (at most RETRIES tries),
        each retry announced through ``notify``."""
        from gspread.exceptions import APIError

        with self._google(what):
            for attempt in range(1, RETRIES + 1):
                try:
                    return fn()
                except APIError as e:
                    if (e.code != 429 and e.code < 500) or attempt == RETRIES:
                        raise
                    wait = 2 ** (attempt - 1)
                    self._notify(f"Google Sheets answered {e.code} to '{what}'; retrying in {wait} s "
                                 f"(attempt {attempt + 1} of {RETRIES})")
                    self._sleep(wait)
        raise AssertionError("unreachable")

    def _metadata(self) -> dict[str, Any]:
        if self._meta is None:
            fields = ("properties.title,sheets.properties(sheetId,title,index,hidden,"
                      "gridProperties(rowCount,columnCount))")
            http = self._http()
            self._meta = self._call("read the sheet's tabs", lambda: http.fetch_sheet_metadata(
                self.key, params={"includeGridData": "false", "fields": fields}))
        return self._meta

    def _sheets(self) -> dict[str, dict[str, Any]]:
        return {s["properties"]["title"]: s["properties"] for s in self._metadata().get("sheets", [])}

    def exists(self) -> bool:
        self._metadata()
        return True

    def read(self) -> Book:
        """Every tab's values in one batch read (after the one metadata read)."""
        titles = [t for t in self._sheets() if t != GUARD_TAB]
        if not titles:
            return Book({})
        http = self._http()
        ranges = ["'" + t.replace("'", "''") + "'" for t in titles]
        answer = self._call("read the tabs", lambda: http.values_batch_get(self.key, ranges, params={
            "valueRenderOption": "UNFORMATTED_VALUE", "dateTimeRenderOption": "FORMATTED_STRING",
            "majorDimension": "ROWS"}))
        tabs: dict[str, tuple[tuple[Value, ...], ...]] = {}
        for title, block in zip(titles, answer.get("valueRanges", []), strict=True):
            rows = [tuple(None if v == "" else v for v in row) for row in block.get("values", [])]
            while rows and not any(v is not None for v in rows[-1]):
                rows.pop()
            tabs[title] = tuple(tuple(_trim(row)) for row in rows)
        return Book(tabs)

    def write(self, changes: Changes) -> None:
        """One batchUpdate: the revision guard, new tabs, the tool's tabs, appends, updates.

        Updates' cells are read first (one batch read) and the write is refused, nothing sent, when one
        is not empty.
        """
        sheets = self._sheets()
        for name in {a.tab for a in changes.appends} | {u.tab for u in changes.updates}:
            if name not in sheets:
                raise BadWorkbook(f"{name}: no such tab; nothing was written")
        if changes.updates:
            self._check_empty(changes.updates)
        used = {p["sheetId"] for p in sheets.values()}
        requests_: list[dict[str, Any]] = []
        guard = sheets.get(GUARD_TAB)
        revision = FIRST_REVISION if guard is None else guard["sheetId"] + 1
        while revision in used:
            revision += 1
        if guard is not None:
            requests_.append({"deleteSheet": {"sheetId": guard["sheetId"]}})
        requests_.append({"addSheet": {"properties": {
            "sheetId": revision, "title": GUARD_TAB, "hidden": True,
            "gridProperties": {"rowCount": 1, "columnCount": 1}}}})
        used.add(revision)
        next_id = max(used, default=0) + 1
        order = len(sheets)
        for tab in (*changes.new_tabs, *changes.tool_tabs):
            if tab.name in sheets and tab in changes.new_tabs:
                continue
            if tab.name in sheets:
                sheet_id = sheets[tab.name]["sheetId"]
                requests_.append({"updateCells": {"range": {"sheetId": sheet_id}, "fields": "*"}})
                grid = sheets[tab.name]["gridProperties"]
            else:
                sheet_id, next_id = next_id, next_id + 1
                requests_.append({"addSheet": {"properties": {"sheetId": sheet_id, "title": tab.name, "index": order}}})
                order += 1
                grid = {"rowCount": 1000, "columnCount": 26}
            requests_.extend(_tab_requests(sheet_id, tab, grid))
        requests_.extend(_grow_requests(sheets, changes.appends, changes.updates))
        for append in changes.appends:
            requests_.extend(_append_requests(sheets[append.tab], append))
        for update in changes.updates:
            requests_.append({"updateCells": {
                "start": {"sheetId": sheets[update.tab]["sheetId"], "rowIndex": update.row - 1,
                          "columnIndex": update.column - 1},
                "rows": _rows_data(((update.value,),), {}, 1), "fields": "userEnteredValue"}})
        http = self._http()
        body = {"requests": requests_}
        self._call("write", lambda: http.batch_update(self.key, body))
        self._meta = None

    def _check_empty(self, updates: tuple[Update, ...]) -> None:
        """Refuse the write when a cell that an update fills holds something now (one batch read)."""
        http = self._http()
        ranges = ["'" + u.tab.replace("'", "''") + f"'!{column_letter(u.column)}{u.row}" for u in updates]
        answer = self._call("read the cells to fill", lambda: http.values_batch_get(self.key, ranges, params={
            "valueRenderOption": "UNFORMATTED_VALUE", "majorDimension": "ROWS"}))
        for update, block in zip(updates, answer.get("valueRanges", []), strict=True):
            held = next((v for row in block.get("values", []) for v in row if v != ""), None)
            if held is not None:
                raise update.refused(held)


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _trim(row: tuple[Value, ...]) -> list[Value]:
    out = list(row)
    while out and out[-1] is None:
        out.pop()
    return out


def _tab_requests(sheet_id: int, tab: Tab, grid: Mapping[str, int]) -> list[dict[str, Any]]:
    fmt = tab.format
    width = max((len(r) for r in tab.rows), default=1)
    width = max(width, len(fmt.widths), 1)
    height = max(len(tab.rows), 1)
    text_rows = height + 1000 if fmt.text_columns else height
    out: list[dict[str, Any]] = [{"updateSheetProperties": {
        "properties": {"sheetId": sheet_id, "gridProperties": {
            "rowCount": max(grid["rowCount"], text_rows), "columnCount": max(grid["columnCount"], width),
            "frozenRowCount": fmt.freeze_rows}},
        "fields": "gridProperties.rowCount,gridProperties.columnCount,gridProperties.frozenRowCount"}}]
    out.append({"updateCells": {
        "start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 0},
        "rows": _rows_data(tab.rows, _formats(tab), width),
        "fields": "userEnteredValue,userEnteredFormat"}})
    for c in fmt.text_columns:
        out.append({"repeatCell": {
            "range": {"sheetId": sheet_id, "startRowIndex": fmt.freeze_rows, "endRowIndex": text_rows,
                      "startColumnIndex": c - 1, "endColumnIndex": c},
            "cell": {"userEnteredFormat": {"numberFormat": {"type": "TEXT"}}},
            "fields": "userEnteredFormat.numberFormat"}})
    for c, chars in enumerate(fmt.widths):
        out.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": c, "endIndex": c + 1},
            "properties": {"pixelSize": 7 * chars + 5}, "fields": "pixelSize"}})
    return out


def _grow_requests(sheets: Mapping[str, Mapping[str, Any]], appends: tuple[Append, ...],
                   updates: tuple[Update, ...]) -> list[dict[str, Any]]:
    """Rows and columns added to GM tabs whose grid is smaller than the cells appends and updates write."""
    needed: dict[str, list[int]] = {}
    for append in appends:
        size = needed.setdefault(append.tab, [0, 0])
        size[0] = max(size[0], append.first_row + len(append.rows) - 1)
        size[1] = max([size[1], *(len(r) for r in append.rows), *append.text_columns])
    for update in updates:
        size = needed.setdefault(update.tab, [0, 0])
        size[0], size[1] = max(size[0], update.row), max(size[1], update.column)
    out: list[dict[str, Any]] = []
    for tab, (rows, columns) in needed.items():
        grid = sheets[tab]["gridProperties"]
        for dimension, want, have in (("ROWS", rows, grid["rowCount"]), ("COLUMNS", columns, grid["columnCount"])):
            if want > have:
                out.append({"appendDimension": {"sheetId": sheets[tab]["sheetId"], "dimension": dimension,
                                                "length": want - have}})
    return out


def _append_requests(sheet: Mapping[str, Any], append: Append) -> list[dict[str, Any]]:
    sheet_id = sheet["sheetId"]
    last = append.first_row + len(append.rows) - 1
    out: list[dict[str, Any]] = []
    width = max((len(r) for r in append.rows), default=0)
    text = {(r, c - 1): {"numberFormat": {"type": "TEXT"}}
            for r in range(append.first_row - 1, last) for c in append.text_columns}
    out.append({"updateCells": {
        "start": {"sheetId": sheet_id, "rowIndex": append.first_row - 1, "columnIndex": 0},
        "rows": _rows_data(append.rows, text, width, first=append.first_row - 1),
        "fields": "userEnteredValue" + (",userEnteredFormat.numberFormat" if text else "")}})
    if append.clear_through > last:
        out.append({"updateCells": {
            "range": {"sheetId": sheet_id, "startRowIndex": last, "endRowIndex": append.clear_through},
            "fields": "userEnteredValue"}})
    return out
