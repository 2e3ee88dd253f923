"""The shared backend: a Google Sheet through gspread and google-auth, in a constant number of requests.

Every command costs one metadata read, one batch read of every tab and, when it writes, one
``spreadsheets.batchUpdate`` carrying the tool's tabs (typed values and formats), the rows appended
to GM tabs, the values written into GM cells and a revision guard. Google applies a batchUpdate
atomically, so an interrupted command leaves the sheet as it was.

The revision guard is a hidden tab the tool owns whose sheet id changes with every write: each write
deletes the tab with the id it read and adds it back with a new random id, as the batch's first two
requests. If another write came in between, the id it read no longer exists, Google rejects the whole
batch, and nothing is written. The new id also tells, with one read, whether a write whose answer was
lost went in.

Nothing a GM typed while a command ran is overwritten (Google has no conditional write, so):

- Rows appended to a GM tab go in with ``appendCells``, which Google places after the last row holding
  a value *when the batch applies*; a row a GM typed meanwhile stays, and the new rows follow it. The
  batch's answer shows where they went; when that is not where the command planned, a line says so.
- Cells the write replaces (``pair --redo``'s rows, a rating filled into an empty cell) are copied into
  the revision tab by the same batch, just before they are replaced: Google's answer carries that copy,
  taken at the instant of the write. When it differs from what the command read, a GM typed there
  meanwhile, and a second batch puts back those cells and the tool's tabs (also copied) as they were;
  the command then refuses, naming the cell. Only commands that replace cells pay for the copies.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
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
TIMEOUT = (10.0, 60.0)
"""Seconds to connect, and to wait for an answer once connected: a half-open connection gives up then."""
BACKOFF = (2.0, 4.0, 8.0, 16.0, 40.0)
"""Waits before the 2nd to 6th try after 429 or 5xx: 70 s in all, Google's per-minute quota refilled."""
JITTER = 0.1
"""Each wait is lengthened by up to this fraction, so that GMs retrying together spread out."""
NETWORK_TRIES = 2
"""Tries of a request that got no answer (a timeout or a dropped connection)."""
SEARCH_BACK = 20
"""Rows above the planned first row searched for appended rows (rows a GM deleted meanwhile)."""


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
            return (AuthorizedSession(creds, refresh_timeout=TIMEOUT[1]),  # type: ignore[no-untyped-call]
                    info.get("client_email", "the service account"))
        if kind == "authorized_user":
            from google.oauth2.credentials import Credentials

            creds = Credentials.from_authorized_user_info(info, scopes=list(SCOPES))  # type: ignore[no-untyped-call]
            return (AuthorizedSession(creds, refresh_timeout=TIMEOUT[1]),  # type: ignore[no-untyped-call]
                    "your Google account")
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


@dataclass(frozen=True, slots=True)
class _Copy:
    """A block of a tab that the write's batch copies into the revision tab just before replacing it."""

    tab: str
    sheet_id: int
    rows: int
    columns: int
    at: int
    """0-based column of the revision tab where the copy starts (a GM block's values-only copy follows it)."""
    first_row: int = 0
    """0-based row of the tab where the block starts (its first column is always A)."""
    expect: Mapping[tuple[int, int], Value] | None = None
    """For a GM tab: each replaced cell (0-based in the tab) and what the command read there;
    ``None`` for a tool tab, copied only to be put back."""

    @property
    def width(self) -> int:
        """Columns it takes in the revision tab."""
        return self.columns * (1 if self.expect is None else 2)

    def source(self) -> dict[str, int]:
        return {"sheetId": self.sheet_id, "startRowIndex": self.first_row, "endRowIndex": self.first_row + self.rows,
                "startColumnIndex": 0, "endColumnIndex": self.columns}

    def copy(self, revision: int, values: bool = False) -> dict[str, int]:
        at = self.at + (self.columns if values else 0)
        return {"sheetId": revision, "startRowIndex": 0, "endRowIndex": self.rows,
                "startColumnIndex": at, "endColumnIndex": at + self.columns}

    def held(self, grid: Mapping[tuple[int, int], Value], r: int, c: int) -> Value:
        """What the values-only copy in ``grid`` (the revision tab's cells) shows for the tab's cell (r, c)."""
        return grid.get((r - self.first_row, self.at + self.columns + c))


@dataclass
class _Plan:
    """One write: the batch, and what is needed to check it and to take it back."""

    revision: int
    previous: int | None
    requests: list[dict[str, Any]]
    copies: list[_Copy]
    appends: list[tuple[Append, int]]
    """Rows appended with appendCells, with the sheet id of their tab."""
    written: dict[tuple[str, int, int], Value]
    """What the batch leaves in each replaced GM cell (0-based), to see later whether a GM typed over it."""
    created: list[int]
    """Sheet ids of tool tabs the batch creates."""
    grids: dict[str, Mapping[str, Any]]
    """Grid properties of the existing tool tabs the batch rewrites, as they were."""
    ranges: list[str]
    """Ranges Google's answer carries: the GM copies, and where appended rows may have gone."""
    updates: tuple[Update, ...] = ()


class GoogleSheetsBackend:
    """A Google Sheet, read and written through gspread's HTTP client."""

    def __init__(self, key: str, *, credentials: str | None = None, session: requests.Session | None = None,
                 sleep: Callable[[float], None] | None = None, notify: Callable[[str], None] | None = None,
                 timeout: float | tuple[float, float] = TIMEOUT, jitter: Callable[[], float] = random.random) -> None:
        self.key = key
        self._credentials = credentials
        self._session = session
        self._shared_with = "this endpoint"
        self._sleep = sleep or time.sleep
        self._notify = notify or (lambda message: None)
        self._timeout = timeout
        self._jitter = jitter
        self._meta: dict[str, Any] | None = None
        self._book: Book | None = None
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
            self._client.set_timeout(self._timeout)
        return self._client

    def _waited(self) -> str:
        read = self._timeout[1] if isinstance(self._timeout, tuple) else self._timeout
        return f"{read:g} s"

    @contextmanager
    def _google(self, what: str) -> Iterator[None]:
        """Turn Google's answers into one clear line."""
        from gspread.exceptions import APIError

        written = "nothing was written" if what != "write" else "the sheet shows nothing written"
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
        except requests.Timeout:
            raise WorkbookUnavailable(f"{self.label}: Google Sheets did not answer within {self._waited()} "
                                      f"(to '{what}'); check the network and run again; {written}") from None
        except requests.ConnectionError as e:
            raise WorkbookUnavailable(f"{self.label}: cannot reach Google Sheets ({_reason(e)}); "
                                      f"check the network and run again; {written}") from None
        except Exception as e:
            from google.auth.exceptions import RefreshError, TransportError

            if isinstance(e, RefreshError):
                raise WorkbookUnavailable(
                    f"{self.label}: Google refused the credentials ({_first_line(e)}); check that the key is "
                    "current (make a new one in the Google Cloud console if it was deleted)") from None
            if isinstance(e, TransportError):
                raise WorkbookUnavailable(
                    f"{self.label}: cannot reach Google to sign in ({type(e).__name__}); check the network "
                    f"and run again; {written}") from None
            raise

    def _wait(self, attempt: int, asked: float | None, why: str, what: str, tries: int) -> None:
        """Sleep before try ``attempt + 1``: the backoff step or Google's ``Retry-After``, whichever is
        longer, plus jitter; one line says so."""
        wait = max(BACKOFF[min(attempt, len(BACKOFF)) - 1], asked or 0.0)
        wait *= 1 + JITTER * self._jitter()
        quota = "; Google's per-minute quota refills within about 70 s" if why.startswith("answered 429") else ""
        self._notify(f"Google Sheets {why} to '{what}'; waiting {wait:.0f} s before trying again "
                     f"(try {attempt + 1} of {tries}{quota})")
        self._sleep(wait)

    def _call(self, what: str, fn: Callable[[], Any], landed: Callable[[], Any] | None = None) -> Any:
        """``fn()``, tried again after 429 and 5xx answers (waiting as :data:`BACKOFF` says, about 70 s in
        all) and once after a timeout or a dropped connection.

        For a write, ``landed`` is one read that tells whether a write whose answer was lost (or was a
        5xx) went in: it returns the write's answer if so, ``None`` if not (then the write is tried
        again: the revision guard makes that safe), or raises when it cannot tell.
        """
        from gspread.exceptions import APIError

        tries = len(BACKOFF) + 1
        with self._google(what):
            for attempt in range(1, tries + 1):
                try:
                    return fn()
                except APIError as e:
                    message = str(e.error.get("message", ""))
                    if landed is not None and attempt > 1 and e.code == 400 and "requests[0]" in message:
                        found = landed()  # the guard refused a retry: did an earlier try go in after all?
                        if found is not None:
                            return found
                    if (e.code != 429 and e.code < 500) or attempt == tries:
                        raise
                    if landed is not None and e.code != 429:
                        found = landed()
                        if found is not None:
                            return found
                    why = f"answered {e.code}" + (" (too many requests)" if e.code == 429 else "")
                    self._wait(attempt, _retry_after(e.response), why, what, tries)
                except (requests.Timeout, requests.ConnectionError) as e:
                    if landed is not None and _may_have_sent(e):
                        found = landed()
                        if found is not None:
                            self._notify(f"Google Sheets' answer to '{what}' was lost; the sheet shows it went in")
                            return found
                        self._notify(f"Google Sheets' answer to '{what}' was lost; the sheet shows it did not go in")
                    if attempt >= NETWORK_TRIES:
                        raise
                    why = (f"did not answer within {self._waited()}" if isinstance(e, requests.Timeout)
                           else f"dropped the connection ({_reason(e)})")
                    self._wait(attempt, None, why, what, NETWORK_TRIES)
        raise AssertionError("unreachable")

    def _metadata(self) -> dict[str, Any]:
        if self._meta is None:
            fields = ("properties.title,sheets.properties(sheetId,title,index,hidden,"
                      "gridProperties(rowCount,columnCount,frozenRowCount)),sheets.merges")
            http = self._http()
            self._meta = self._call("read the sheet's tabs", lambda: http.fetch_sheet_metadata(
                self.key, params={"includeGridData": "false", "fields": fields}))
        return self._meta

    def _merged(self) -> dict[str, tuple[str, ...]]:
        """Each tab's merged ranges (``E3:E4``), from the metadata read."""
        found: dict[str, tuple[str, ...]] = {}
        for sheet in self._metadata().get("sheets", []):
            ranges = tuple(f"{column_letter(m.get('startColumnIndex', 0) + 1)}{m.get('startRowIndex', 0) + 1}:"
                           f"{column_letter(m['endColumnIndex'])}{m['endRowIndex']}"
                           for m in sheet.get("merges", []) if "endColumnIndex" in m and "endRowIndex" in m)
            if ranges:
                found[sheet["properties"]["title"]] = ranges
        return found

    def _sheets(self) -> dict[str, dict[str, Any]]:
        return {s["properties"]["title"]: s["properties"] for s in self._metadata().get("sheets", [])}

    @property
    def remote(self) -> bool:
        return True

    def exists(self) -> bool:
        self._metadata()
        return True

    def stamp(self) -> tuple[int, int] | None:
        return None

    def lock_file(self) -> Path | None:
        return None

    def refresh(self) -> None:
        """Forget the tabs as last read, so that the next read sees what changed since (``watch`` reads one
        sheet again and again: a tab renamed or added, another command's write)."""
        self._meta = None
        self._book = None

    def start_new(self, refusal: str) -> Book:
        return self.read()

    def read(self) -> Book:
        """Every tab's values in one batch read (after the one metadata read)."""
        titles = [t for t in self._sheets() if t != GUARD_TAB]
        if not titles:
            self._book = Book({})
            return self._book
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
        self._book = Book(tabs, merged=self._merged())
        return self._book

    def write(self, changes: Changes) -> None:
        """One batchUpdate: the revision guard, copies of what it replaces, the tool's tabs, appends, updates.

        Refused whole (:class:`~sheetswiss.errors.BadWorkbook`, naming the cell) when a cell it replaces
        no longer holds what the command read: an update's cell is not empty, or a GM typed into
        ``pair --redo``'s rows meanwhile.
        """
        sheets = self._sheets()
        for name in {a.tab for a in changes.appends} | {u.tab for u in changes.updates} | \
                {o.tab for o in changes.overwrites}:
            if name not in sheets:
                raise BadWorkbook(f"{name}: no such tab; nothing was written")
        if self._book is None and any(a.clear_through for a in changes.appends):
            self.read()
        plan = self._plan(changes, sheets)
        body: dict[str, Any] = {"requests": plan.requests}
        if plan.ranges:
            body.update(includeSpreadsheetInResponse=True, responseRanges=plan.ranges, responseIncludeGridData=True)
        http = self._http()
        answer = self._call("write", lambda: http.batch_update(self.key, body),
                            lambda: self._landed(plan.revision, plan.previous, plan.ranges))
        self._meta = None
        self._book = None
        grids = _grids(answer.get("updatedSpreadsheet", {}))
        changed = [(copy, r, c, read, copy.held(grids.get(GUARD_TAB, {}), r, c))
                   for copy in plan.copies if copy.expect is not None for (r, c), read in copy.expect.items()]
        changed = [entry for entry in changed if not _same(entry[3], entry[4])]
        if changed:
            self._undo(plan, changed, grids, sheets)
        for append, _ in plan.appends:
            self._say_where(append, grids.get(append.tab, {}))

    def _plan(self, changes: Changes, sheets: Mapping[str, Mapping[str, Any]]) -> _Plan:
        used = {p["sheetId"] for p in sheets.values()}
        guard = sheets.get(GUARD_TAB)
        revision = _new_id(used)
        used.add(revision)
        copies = self._copies(changes, sheets)
        plan = _Plan(revision, None if guard is None else guard["sheetId"], [], copies, [], {}, [], {}, [],
                     changes.updates)
        requests_ = plan.requests
        if guard is not None:
            requests_.append({"deleteSheet": {"sheetId": guard["sheetId"]}})
        requests_.append({"addSheet": {"properties": {
            "sheetId": revision, "title": GUARD_TAB, "hidden": True, "gridProperties": {
                "rowCount": max((c.rows for c in copies), default=1),
                "columnCount": max(sum(c.width for c in copies), 1)}}}})
        for copy in copies:
            requests_.append({"copyPaste": {"source": copy.source(), "destination": copy.copy(revision),
                                            "pasteType": "PASTE_NORMAL"}})
            if copy.expect is not None:
                requests_.append({"copyPaste": {"source": copy.source(), "destination": copy.copy(revision, True),
                                                "pasteType": "PASTE_VALUES"}})
                plan.ranges.append(_a1(GUARD_TAB, 1, copy.at + copy.columns + 1, copy.rows, copy.at + copy.width))
        next_id = max(used, default=0) + 1
        order = len(sheets)
        for tab in (*changes.new_tabs, *changes.tool_tabs):
            if tab.name in sheets and tab in changes.new_tabs:
                continue
            if tab.name in sheets:
                sheet_id = sheets[tab.name]["sheetId"]
                requests_.append({"updateCells": {"range": {"sheetId": sheet_id}, "fields": "*"}})
                grid = sheets[tab.name]["gridProperties"]
                plan.grids[tab.name] = grid
            else:
                sheet_id, next_id = next_id, next_id + 1
                requests_.append({"addSheet": {"properties": {"sheetId": sheet_id, "title": tab.name, "index": order}}})
                plan.created.append(sheet_id)
                order += 1
                grid = {"rowCount": 1000, "columnCount": 26}
            requests_.extend(_tab_requests(sheet_id, tab, grid))
        requests_.extend(_grow_requests(sheets, changes.appends, changes.updates))
        for append in changes.appends:
            sheet = sheets[append.tab]
            if append.clear_through:
                requests_.extend(_replace_requests(sheet, append))
                for dr, row in enumerate(append.rows):
                    for c in range(max((len(r) for r in append.rows), default=0)):
                        plan.written[append.tab, append.first_row - 1 + dr, c] = row[c] if c < len(row) else None
            else:
                requests_.append(_append_cells(sheet, append))
                plan.appends.append((append, sheet["sheetId"]))
                width = max(sheet["gridProperties"]["columnCount"], *(len(r) for r in append.rows))
                plan.ranges.append(_a1(append.tab, max(1, append.first_row - SEARCH_BACK), 1, None, width))
        for update in changes.updates:
            requests_.append({"updateCells": {
                "start": {"sheetId": sheets[update.tab]["sheetId"], "rowIndex": update.row - 1,
                          "columnIndex": update.column - 1},
                "rows": _rows_data(((update.value,),), {}, 1), "fields": "userEnteredValue"}})
            plan.written[update.tab, update.row - 1, update.column - 1] = update.value
        for put in changes.overwrites:  # the Control tab's status cells, whatever they hold
            requests_.append({"updateCells": {
                "start": {"sheetId": sheets[put.tab]["sheetId"], "rowIndex": put.row - 1,
                          "columnIndex": put.column - 1},
                "rows": _rows_data(((put.value,),), {}, 1), "fields": "userEnteredValue"}})
        return plan

    def _copies(self, changes: Changes, sheets: Mapping[str, Mapping[str, Any]]) -> list[_Copy]:
        """What the batch copies into the revision tab: the GM cells it replaces (with what was read there)
        and, when there are any, the existing tool tabs it rewrites, so that all can be put back."""
        gm: list[tuple[str, int, int, dict[tuple[int, int], Value]]] = []
        for append in changes.appends:
            if not append.clear_through:
                continue
            rows = self._book.rows(append.tab) if self._book is not None else ()
            grid = sheets[append.tab]["gridProperties"]
            width = max((len(r) for r in append.rows), default=0)
            last = append.first_row - 1 + len(append.rows)
            expect: dict[tuple[int, int], Value] = {}
            for r in range(append.first_row - 1, min(max(last, append.clear_through), grid["rowCount"])):
                for c in range(grid["columnCount"] if r >= last else min(width, grid["columnCount"])):
                    row = rows[r] if r < len(rows) else ()
                    expect[r, c] = row[c] if c < len(row) else None
            if expect:
                gm.append((append.tab, append.first_row - 1, max(r for r, _ in expect) + 1, expect))
        filled: dict[str, dict[tuple[int, int], Value]] = {}
        for update in changes.updates:  # one block a tab, however many cells are filled
            grid = sheets[update.tab]["gridProperties"]
            if update.row <= grid["rowCount"] and update.column <= grid["columnCount"]:
                filled.setdefault(update.tab, {})[update.row - 1, update.column - 1] = None
        for tab, expect in filled.items():
            gm.append((tab, min(r for r, _ in expect), max(r for r, _ in expect) + 1, expect))
        copies: list[_Copy] = []
        at = 0
        for tab, first, end, expect in gm:
            columns = max(c for _, c in expect) + 1
            copies.append(_Copy(tab, sheets[tab]["sheetId"], end - first, columns, at, first, expect))
            at += copies[-1].width
        if copies:
            for tool in changes.tool_tabs:
                if tool.name in sheets:
                    size = sheets[tool.name]["gridProperties"]
                    copies.append(_Copy(tool.name, sheets[tool.name]["sheetId"], size["rowCount"],
                                        size["columnCount"], at))
                    at += copies[-1].width
        return copies

    def _landed(self, revision: int, previous: int | None, ranges: list[str]) -> dict[str, Any] | None:
        """One read after a write's answer was lost: the write's answer (with ``ranges``' data) if it went
        in (the revision tab has the id it gave), ``None`` if not (the id it replaces)."""
        http = self._http()
        params: dict[str, Any] = {"includeGridData": "true" if ranges else "false"}
        if ranges:
            params["ranges"] = ranges
        try:
            meta = self._call("check whether the write went in",
                              lambda: http.fetch_sheet_metadata(self.key, params=params))
        except WorkbookUnavailable as e:
            reason = str(e).removeprefix(f"{self.label}: ").split(";")[0]
            raise WorkbookUnavailable(
                f"{self.label}: Google's answer to the write was lost and the sheet cannot be read now ({reason}), "
                "so whether it went in is not known; when the network is back, look at the Log tab: its last "
                "line is this command's if it did") from None
        guard = next((s["properties"]["sheetId"] for s in meta.get("sheets", [])
                      if s["properties"]["title"] == GUARD_TAB), None)
        if guard == revision:
            return {"spreadsheetId": self.key, "replies": [], "updatedSpreadsheet": meta}
        if guard == previous:
            return None
        raise ConcurrentChange(
            f"{self.label}: Google's answer to the write was lost, and another GM's command has written since, so "
            "whether this one went in cannot be told: the Log tab's last lines say which commands did")

    def _say_where(self, append: Append, grid: Mapping[tuple[int, int], Value]) -> None:
        """One line when appended rows did not go where the command planned (a GM typed rows meanwhile)."""
        landed = _find_rows(grid, append.rows)
        n = len(append.rows)
        if landed is None or landed == append.first_row - 1:
            return
        first = landed + 1
        kept = ("the rows typed there meanwhile are kept and come first" if first > append.first_row
                else "rows were deleted there meanwhile")
        self._notify(f"{append.tab}: the new rows are {first}-{first + n - 1}, not {append.first_row}-"
                     f"{append.first_row + n - 1} as planned (and as the Log tab says): {kept}")

    def _undo(self, plan: _Plan, changed: Sequence[tuple[_Copy, int, int, Value, Value]],
              grids: Mapping[str, Mapping[tuple[int, int], Value]], sheets: Mapping[str, Mapping[str, Any]]) -> None:
        """Put back, in one batch, what the write replaced and the tool's tabs, then refuse naming the cell."""
        first, r, c, read, held = changed[0]
        temporary = GUARD_TAB + " (undo)"
        used = {p["sheetId"] for p in sheets.values()} | {plan.revision, *plan.created}
        revision = _new_id(used)
        gm = [copy for copy in plan.copies if copy.expect is not None]
        reqs: list[dict[str, Any]] = [{"addSheet": {"properties": {
            "sheetId": revision, "title": temporary, "hidden": True, "gridProperties": {
                "rowCount": max((c.rows for c in gm), default=1), "columnCount": max(sum(c.columns for c in gm), 1)}}}}]
        at = 0
        ranges = []
        for copy in gm:  # what the cells hold now, to see whether a GM typed over this write meanwhile
            reqs.append({"copyPaste": {"source": copy.source(), "pasteType": "PASTE_VALUES", "destination": {
                "sheetId": revision, "startRowIndex": 0, "endRowIndex": copy.rows, "startColumnIndex": at,
                "endColumnIndex": at + copy.columns}}})
            ranges.append(_a1(GUARD_TAB, 1, at + 1, copy.rows, at + copy.columns))  # its name once renamed
            at += copy.columns
        for sheet_id in plan.created:
            reqs.append({"deleteSheet": {"sheetId": sheet_id}})
        for copy in plan.copies:
            back = copy.source()
            if copy.expect is None:
                grid = plan.grids[copy.tab]
                reqs.append({"updateCells": {"range": {"sheetId": copy.sheet_id}, "fields": "*"}})
                reqs.append({"updateSheetProperties": {"properties": {"sheetId": copy.sheet_id, "gridProperties": {
                    "rowCount": grid["rowCount"], "columnCount": grid["columnCount"],
                    "frozenRowCount": grid.get("frozenRowCount", 0)}},
                    "fields": "gridProperties.rowCount,gridProperties.columnCount,gridProperties.frozenRowCount"}})
            reqs.append({"copyPaste": {"source": copy.copy(plan.revision), "destination": back,
                                       "pasteType": "PASTE_NORMAL"}})
        for append, sheet_id in plan.appends:
            landed = _find_rows(grids.get(append.tab, {}), append.rows)
            if landed is not None:
                reqs.append({"updateCells": {"range": {"sheetId": sheet_id, "startRowIndex": landed,
                                                       "endRowIndex": landed + len(append.rows)},
                                             "fields": "userEnteredValue"}})
        reqs.append({"deleteSheet": {"sheetId": plan.revision}})
        reqs.append({"updateSheetProperties": {"properties": {"sheetId": revision, "title": GUARD_TAB},
                                               "fields": "title"}})
        http = self._http()
        body = {"requests": reqs, "includeSpreadsheetInResponse": True, "responseRanges": ranges,
                "responseIncludeGridData": True}
        cell = f"{first.tab}!{column_letter(c + 1)}{r + 1}"
        update = next((u for u in plan.updates if (u.tab, u.row - 1, u.column - 1) == (first.tab, r, c)), None)
        refusal = (update.refused(held).args[0] if update is not None else
                   f"{cell}: this cell changed while this command ran (it held {_shown(read)} when read, "
                   f"{_shown(held)} when written); nothing was written; run the command again")
        try:
            answer = self._call("put back what was replaced", lambda: http.batch_update(self.key, body),
                                lambda: self._landed(revision, plan.revision, ranges))
        except SheetswissError:
            raise BadWorkbook(
                f"{cell}: this cell changed while this command ran (it held {_shown(read)} when read, "
                f"{_shown(held)} when written), and putting the sheet back as it was failed: type "
                f"{_shown(held)} into {cell} again and check the Log tab") from None
        now = _grids(answer.get("updatedSpreadsheet", {})).get(GUARD_TAB, {})
        lost = []
        at = 0
        for copy in gm:
            for rr, cc in copy.expect or {}:
                if (copy.tab, rr, cc) in plan.written:
                    shown = now.get((rr - copy.first_row, at + cc))
                    if not _same(shown, plan.written[copy.tab, rr, cc]):
                        lost.append(f"{copy.tab}!{column_letter(cc + 1)}{rr + 1} ({_shown(shown)})")
            at += copy.columns
        if lost:
            refusal += "; typed meanwhile and lost, type again: " + ", ".join(lost)
        raise BadWorkbook(refusal)


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
    for v in fmt.validations:
        condition: dict[str, Any] = {"type": "BOOLEAN"} if v.checkbox else {
            "type": "ONE_OF_LIST", "values": [{"userEnteredValue": choice} for choice in v.choices]}
        out.append({"setDataValidation": {
            "range": {"sheetId": sheet_id, "startRowIndex": v.row - 1, "endRowIndex": v.row,
                      "startColumnIndex": v.column - 1, "endColumnIndex": v.column},
            "rule": {"condition": condition, "strict": True, "showCustomUi": True}}})
    for c, chars in enumerate(fmt.widths):
        out.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": c, "endIndex": c + 1},
            "properties": {"pixelSize": 7 * chars + 5}, "fields": "pixelSize"}})
    return out


def _grow_requests(sheets: Mapping[str, Mapping[str, Any]], appends: tuple[Append, ...],
                   updates: tuple[Update, ...]) -> list[dict[str, Any]]:
    """Rows and columns added to GM tabs whose grid is smaller than the cells appends and updates write
    (rows for ``pair --redo``'s rows and updates only: appendCells adds the rows it needs)."""
    needed: dict[str, list[int]] = {}
    for append in appends:
        size = needed.setdefault(append.tab, [0, 0])
        if append.clear_through:
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


def _replace_requests(sheet: Mapping[str, Any], append: Append) -> list[dict[str, Any]]:
    """``pair --redo``: the new rows written over the round's old rows, and old rows past them emptied."""
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


def _append_cells(sheet: Mapping[str, Any], append: Append) -> dict[str, Any]:
    """The rows after the last row holding a value when the batch applies (Google's appendCells)."""
    width = max((len(r) for r in append.rows), default=0)
    text = {(r, c - 1): {"numberFormat": {"type": "TEXT"}}
            for r in range(len(append.rows)) for c in append.text_columns}
    return {"appendCells": {"sheetId": sheet["sheetId"], "rows": _rows_data(append.rows, text, width),
                            "fields": "userEnteredValue" + (",userEnteredFormat.numberFormat" if text else "")}}


def _new_id(used: set[int]) -> int:
    """A fresh sheet id for the revision tab, unlike any a concurrent command would pick."""
    while True:
        candidate = random.SystemRandom().randrange(1_000_000, 2**31 - 1)
        if candidate not in used:
            return candidate


def _a1(tab: str, row: int, column: int, last_row: int | None, last_column: int) -> str:
    """``'Tab'!B3:F9``, 1-based and inclusive; ``last_row`` ``None`` runs to the end of the tab."""
    end = f"{column_letter(last_column)}{'' if last_row is None else last_row}"
    return "'" + tab.replace("'", "''") + f"'!{column_letter(column)}{row}:{end}"


def _entered(cell: Mapping[str, Any]) -> Value:
    """A CellData's value as entered: text, number or boolean (a formula as its text); ``None`` if empty."""
    entered = cell.get("userEnteredValue") or {}
    for kind in ("stringValue", "numberValue", "boolValue", "formulaValue"):
        if kind in entered:
            value: Value = entered[kind]
            return value
    return None


def _grids(spreadsheet: Mapping[str, Any]) -> dict[str, dict[tuple[int, int], Value]]:
    """The non-empty cells (0-based) of each tab's grid data in a Spreadsheet resource."""
    out: dict[str, dict[tuple[int, int], Value]] = {}
    for sheet in spreadsheet.get("sheets", []):
        cells = out.setdefault(sheet["properties"]["title"], {})
        for data in sheet.get("data", []):
            r0, c0 = data.get("startRow", 0), data.get("startColumn", 0)
            for dr, row in enumerate(data.get("rowData", [])):
                for dc, cell in enumerate(row.get("values", [])):
                    value = _entered(cell)
                    if value is not None and value != "":
                        cells[r0 + dr, c0 + dc] = value
    return out


def _plain(value: Value) -> object:
    """A value as the sheet stores it, for comparing what was read or sent with what Google shows."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return str(value)


def _same(a: Value, b: Value) -> bool:
    return _plain(a) == _plain(b)


def _shown(value: Value) -> str:
    return "nothing" if _plain(value) is None else repr(value if not isinstance(value, str) else value[:40])


def _find_rows(grid: Mapping[tuple[int, int], Value], rows: Sequence[Sequence[Value]]) -> int | None:
    """The 0-based row where ``rows`` stand in ``grid`` (the last place, as appendCells puts them last)."""
    if not grid or not rows:
        return None
    top = max(r for r, _ in grid)
    for start in range(top - len(rows) + 1, min(r for r, _ in grid) - 1, -1):
        if all(_same(grid.get((start + i, c)), v) for i, row in enumerate(rows) for c, v in enumerate(row)):
            return start
    return None


def _retry_after(response: Any) -> float | None:
    """Google's ``Retry-After`` header in seconds, if it sent one (HTTP dates are not used by Google)."""
    try:
        return float(response.headers.get("Retry-After"))
    except (AttributeError, TypeError, ValueError):
        return None


def _may_have_sent(error: Exception) -> bool:
    """Whether a failed request may have reached Google: not when the connection was never made."""
    return not isinstance(error, requests.ConnectTimeout) and "NewConnectionError" not in repr(error) \
        and "NameResolutionError" not in repr(error)


def _reason(error: Exception) -> str:
    text = repr(error)
    for known in ("RemoteDisconnected", "ConnectionResetError", "ConnectionRefusedError", "NameResolutionError",
                  "NewConnectionError", "BrokenPipeError"):
        if known in text:
            return known
    return type(error).__name__
