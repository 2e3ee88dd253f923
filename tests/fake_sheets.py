"""A local fake of the Google Sheets v4 HTTP API, for tests: a stdlib HTTP server on 127.0.0.1.

It keeps spreadsheets in memory, answers the calls sheetswiss makes (spreadsheets.get, with grid
data for ``ranges`` when ``includeGridData=true``; values.batchGet; spreadsheets.batchUpdate with the
request kinds below and ``includeSpreadsheetInResponse``/``responseRanges``), is strict about request
shapes and Google's limits (50,000 characters a cell, 10 million cells a spreadsheet, 18,278 columns),
answers errors as Google does (``{"error": {"code", "message", "status"}}``), applies a batchUpdate
atomically (all requests or none), and logs every request.

Faults a test can inject (each for the next matching request): an error status (429 with a
``Retry-After`` header, 5xx), an answer dropped after the request was applied (the connection closes
unanswered), an answer delayed (or never sent, before or after applying), and a hook run between a
command's read and its write (another GM typing, or another GM's command).
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import parse_qs, unquote, urlsplit

from sheetswiss.backends.base import column_index

CELL_VALUE_KINDS = {"stringValue", "numberValue", "boolValue", "formulaValue"}
CELL_FIELDS = {"userEnteredValue", "userEnteredFormat", "note", "dataValidation"}
CONDITION_TYPES = {"ONE_OF_LIST", "BOOLEAN"}
"""The data validation conditions this fake knows (a drop-down list, a checkbox)."""
MAX_CELL_CHARACTERS = 50_000
MAX_CELLS = 10_000_000
MAX_COLUMNS = 18_278
PASTE_TYPES = {"PASTE_NORMAL", "PASTE_VALUES", "PASTE_FORMAT"}
BATCH_UPDATE_FIELDS = {"requests", "includeSpreadsheetInResponse", "responseRanges", "responseIncludeGridData"}
RANGE = re.compile(r"(?:'((?:[^']|'')+)'|([^'!]+))(?:!([A-Z]+)(\d+)(?::([A-Z]+)(\d*))?)?")


class _Dropped(Exception):
    """The answer is not sent."""


class ApiError(Exception):
    def __init__(self, code: int, status: str, message: str) -> None:
        super().__init__(message)
        self.code, self.status, self.message = code, status, message


def bad(message: str) -> ApiError:
    return ApiError(400, "INVALID_ARGUMENT", message)


def _trimmed(row: list[Any]) -> list[Any]:
    """A row as Google answers it: trailing empty cells omitted."""
    while row and row[-1] == "":
        row.pop()
    return row


@dataclass
class Sheet:
    sheet_id: int
    title: str
    index: int
    rows: int = 1000
    columns: int = 26
    frozen: int = 0
    hidden: bool = False
    cells: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    widths: dict[int, int] = field(default_factory=dict)
    merges: list[dict[str, int]] = field(default_factory=list)
    """Merged ranges as GridRanges (0-based, ends exclusive), as the API lists them in ``sheets.merges``."""

    def properties(self) -> dict[str, Any]:
        grid: dict[str, Any] = {"rowCount": self.rows, "columnCount": self.columns}
        if self.frozen:
            grid["frozenRowCount"] = self.frozen
        props: dict[str, Any] = {"sheetId": self.sheet_id, "title": self.title, "index": self.index,
                                 "sheetType": "GRID", "gridProperties": grid}
        if self.hidden:
            props["hidden"] = True
        return props

    def value(self, r: int, c: int) -> Any:
        entered = self.cells.get((r, c), {}).get("userEnteredValue")
        if not entered:
            return ""
        (kind, value), = entered.items()
        return value if kind != "formulaValue" else "#FORMULA"

    def cell_data(self, r: int, c: int) -> dict[str, Any]:
        """A cell as GridData answers it: what was entered, its effective value, its format."""
        if not self.cells.get((r, c)):
            return {}
        cell = copy.deepcopy(self.cells[r, c])
        entered = cell.get("userEnteredValue")
        if entered:
            (kind, value), = entered.items()
            cell["effectiveValue"] = {kind: value} if kind != "formulaValue" else {"stringValue": "#FORMULA"}
        return {k: v for k, v in cell.items() if v}

    def grid_data(self, r1: int, r2: int, c1: int, c2: int) -> dict[str, Any]:
        """The block's GridData (0-based, ends exclusive): trailing empty rows and cells omitted."""
        rows = []
        for r in range(r1, min(r2, self.rows)):
            values = [self.cell_data(r, c) for c in range(c1, min(c2, self.columns))]
            while values and not values[-1]:
                values.pop()
            rows.append({"values": values} if values else {})
        while rows and not rows[-1]:
            rows.pop()
        data: dict[str, Any] = {"startRow": r1, "startColumn": c1}
        if rows:
            data["rowData"] = rows
        return data

    def last_row_with_values(self) -> int:
        """0-based index of the last row holding a value (formats alone do not count), -1 when none."""
        return max((r for (r, _), cell in self.cells.items() if cell.get("userEnteredValue")), default=-1)

    def values(self) -> list[list[Any]]:
        """As values.batchGet answers: trailing empty rows and cells omitted, inner empties as ""."""
        filled = [(r, c) for (r, c), cell in self.cells.items() if cell.get("userEnteredValue")]
        if not filled:
            return []
        last = max(r for r, _ in filled)
        return [_trimmed([self.value(r, c) for c in range(self.columns)]) for r in range(last + 1)]


@dataclass
class Spreadsheet:
    key: str
    title: str
    sheets: list[Sheet]
    shared: bool = True

    def by_id(self, sheet_id: Any, where: str) -> Sheet:
        for sheet in self.sheets:
            if sheet.sheet_id == sheet_id:
                return sheet
        raise bad(f"Invalid {where}: No grid with id: {sheet_id}")

    def cell_count(self) -> int:
        return sum(s.rows * s.columns for s in self.sheets)

    def block(self, text: str) -> tuple[Sheet, int, int, int, int]:
        """An A1 range (``'Tab'``, ``'Tab'!C5``, ``'Tab'!C5:D9``, ``'Tab'!A5:F``) as its sheet and 0-based
        rows and columns, ends exclusive."""
        m = RANGE.fullmatch(text)
        if not m:
            raise bad(f"Unable to parse range: {text}")
        title = (m[1] or "").replace("''", "'") or m[2]
        sheet = next((s for s in self.sheets if s.title == title), None)
        if sheet is None:
            raise bad(f"Unable to parse range: {text}")
        if not m[3]:
            return sheet, 0, sheet.rows, 0, sheet.columns
        r1, c1 = int(m[4]) - 1, column_index(m[3]) - 1
        if m[5] is None:
            r2, c2 = r1 + 1, c1 + 1
        else:
            r2, c2 = (int(m[6]) if m[6] else sheet.rows), column_index(m[5])
        if r2 > sheet.rows or c2 > sheet.columns:
            raise bad(f"Range ({text}) exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.columns}")
        return sheet, r1, r2, c1, c2


@dataclass
class Fault:
    """What the fake does to the next request of ``to`` (``any`` or a method: ``get``, ``batchGet``,
    ``batchUpdate``)."""

    to: str
    action: Literal["status", "drop", "hang"]
    code: int = 0
    retry_after: int | None = None
    seconds: float = 0.0
    apply_first: bool = True
    """For ``drop`` and ``hang``: the request is applied before the answer is lost or delayed."""


def _fields(spec: str, where: str) -> list[str]:
    if not spec:
        raise bad(f"Invalid {where}: At least one field must be specified in 'fields'.")
    parts = [p.strip() for p in spec.split(",")]
    if parts == ["*"]:
        return sorted(CELL_FIELDS)
    for p in parts:
        if p.split(".")[0] not in CELL_FIELDS:
            raise bad(f"Invalid {where}: Invalid field mask path: {p}")
    return parts


def _check_cell(cell: Any, where: str) -> None:
    if not isinstance(cell, dict) or set(cell) - CELL_FIELDS:
        raise bad(f"Invalid {where}: Unknown name in CellData: {sorted(set(cell) - CELL_FIELDS)}")
    value = cell.get("userEnteredValue")
    if value is not None and (not isinstance(value, dict) or len(value) != 1 or set(value) - CELL_VALUE_KINDS):
        raise bad(f"Invalid {where}: userEnteredValue needs exactly one of {sorted(CELL_VALUE_KINDS)}")
    text = (value or {}).get("stringValue", (value or {}).get("formulaValue"))
    if isinstance(text, str) and len(text) > MAX_CELL_CHARACTERS:
        raise bad(f"Invalid {where}: Your input contains more than the maximum of {MAX_CELL_CHARACTERS} "
                  "characters in a single cell.")


def _apply_fields(target: dict[str, Any], source: dict[str, Any], fields: list[str]) -> None:
    for path in fields:
        head, _, rest = path.partition(".")
        if not rest:
            if head in source:
                target[head] = copy.deepcopy(source[head])
            else:
                target.pop(head, None)
            continue
        sub_source = source.get(head, {})
        sub_target = target.setdefault(head, {})
        if rest in sub_source:
            sub_target[rest] = copy.deepcopy(sub_source[rest])
        else:
            sub_target.pop(rest, None)
        if not sub_target:
            target.pop(head)


class FakeSheets:
    """The in-memory service plus its HTTP server: ``with FakeSheets() as fake: fake.url ...``."""

    def __init__(self) -> None:
        self.books: dict[str, Spreadsheet] = {}
        self.log: list[tuple[str, str, dict[str, list[str]], Any]] = []
        self.faults: list[Fault] = []
        self.before_batch_update: Callable[[], None] | None = None
        self.lock = threading.RLock()
        self.closing = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as Google answers
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                fake._handle(self, "GET")

            def do_POST(self) -> None:
                fake._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)

    def __enter__(self) -> FakeSheets:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()  # delayed answers give up
        self.server.shutdown()
        self.server.server_close()

    # -- what tests set up and look at -------------------------------------------------------------------

    def create(self, key: str, title: str = "Event", tabs: tuple[str, ...] = ("Sheet1",), shared: bool = True) -> None:
        self.books[key] = Spreadsheet(key, title, [Sheet(i, t, i) for i, t in enumerate(tabs)], shared)

    def sheet(self, key: str, title: str) -> Sheet:
        return next(s for s in self.books[key].sheets if s.title == title)

    def type(self, key: str, title: str, cells: dict[str, Any]) -> None:
        """Type values into cells (``{"E14": "1-0"}``) as a GM in the browser would."""
        with self.lock:
            sheet = self.sheet(key, title)
            for ref, value in cells.items():
                m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
                assert m, ref
                c = column_index(m[1])
                kind = ("boolValue" if isinstance(value, bool) else  # a checkbox ticked or cleared
                        "numberValue" if isinstance(value, (int, float)) else "stringValue")
                cell = sheet.cells.setdefault((int(m[2]) - 1, c - 1), {})
                if value is None:
                    cell.pop("userEnteredValue", None)
                else:
                    cell["userEnteredValue"] = {kind: value}

    def merge(self, key: str, title: str, cells: str) -> None:
        """Merge a range of cells (``"E3:E4"``) as a GM would with Format > Merge cells."""
        first, last = (re.fullmatch(r"([A-Z]+)(\d+)", end) for end in cells.split(":"))
        assert first and last, cells
        with self.lock:
            sheet = self.sheet(key, title)
            sheet.merges.append({"sheetId": sheet.sheet_id, "startRowIndex": int(first[2]) - 1,
                                 "endRowIndex": int(last[2]), "startColumnIndex": column_index(first[1]) - 1,
                                 "endColumnIndex": column_index(last[1])})

    def fail_next(self, *codes: int, retry_after: int | None = None) -> None:
        """Answer the next requests with these statuses (429 with ``Retry-After: retry_after`` if given)."""
        self.faults.extend(Fault("any", "status", code, retry_after) for code in codes)

    def drop_answer(self, to: str = "batchUpdate", *, apply_first: bool = True) -> None:
        """Apply the next ``to`` request (unless ``apply_first`` is false), then close the connection
        without answering, as a connection lost on the way back does."""
        self.faults.append(Fault(to, "drop", apply_first=apply_first))

    def delay_answer(self, seconds: float, to: str = "any", *, apply_first: bool = True) -> None:
        """Answer the next ``to`` request only after ``seconds`` (a half-open connection when longer
        than the client waits); the request is applied first unless ``apply_first`` is false."""
        self.faults.append(Fault(to, "hang", seconds=seconds, apply_first=apply_first))

    def requests(self) -> list[str]:
        """``METHOD path`` of every request so far."""
        return [f"{method} {path}" for method, path, _, _ in self.log]

    # -- HTTP ------------------------------------------------------------------------------------------

    @staticmethod
    def _kind(method: str, path: str) -> str:
        if path.endswith(":batchUpdate"):
            return "batchUpdate"
        if path.endswith("/values:batchGet"):
            return "batchGet"
        return method.lower()

    def _fault(self, method: str, path: str) -> Fault | None:
        kind = self._kind(method, path)
        for i, fault in enumerate(self.faults):
            if fault.to in ("any", kind):
                return self.faults.pop(i)
        return None

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(handler.path)
        query = parse_qs(parts.query)
        path = unquote(parts.path)
        body: Any = None
        length = int(handler.headers.get("Content-Length") or 0)
        headers: dict[str, str] = {}
        try:
            raw = handler.rfile.read(length) if length else b""
            with self.lock:
                self.log.append((method, path, query, None))
                fault = self._fault(method, path)
            if fault is not None and fault.action == "status":
                status = "RESOURCE_EXHAUSTED" if fault.code == 429 else "UNAVAILABLE" if fault.code == 503 \
                    else "INTERNAL"
                if fault.retry_after is not None:
                    headers["Retry-After"] = str(fault.retry_after)
                raise ApiError(fault.code, status, "Quota exceeded for quota metric 'Write requests' and limit "
                               "'Write requests per minute per user'" if fault.code == 429 else "Internal error")
            if fault is not None and not fault.apply_first:
                self._lose(handler, fault)  # a delayed request goes on to be applied late
                fault = None
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    raise bad("Invalid JSON payload received.") from None
                with self.lock:
                    self.log[-1] = (method, path, query, body)
            answer = self._route(method, path, query, body)
            if fault is not None:
                self._lose(handler, fault)
                if fault.action == "drop":
                    return
            self._send(handler, 200, answer)
        except _Dropped:
            return
        except ApiError as e:
            self._send(handler, e.code, {"error": {"code": e.code, "message": e.message, "status": e.status}},
                       headers)

    def _lose(self, handler: BaseHTTPRequestHandler, fault: Fault) -> None:
        """Drop the connection unanswered, or wait before answering (giving up when the fake closes)."""
        if fault.action == "hang":
            self.closing.wait(fault.seconds)
            if not self.closing.is_set():
                return
        handler.close_connection = True
        with contextlib.suppress(OSError):
            handler.connection.shutdown(socket.SHUT_RDWR)
        raise _Dropped

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            handler.send_response(code)
            handler.send_header("Content-Type", "application/json; charset=UTF-8")
            handler.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except OSError:  # the client gave up waiting
            handler.close_connection = True

    def _book(self, key: str) -> Spreadsheet:
        book = self.books.get(key)
        if book is None:
            raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
        if not book.shared:
            raise ApiError(403, "PERMISSION_DENIED", "The caller does not have permission")
        return book

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> Any:
        m = re.fullmatch(r"/v4/spreadsheets/([^/:]+)(/values:batchGet|:batchUpdate)?", path)
        if not m:
            raise ApiError(404, "NOT_FOUND", f"Method not found: {path}")
        key, action = m[1], m[2]
        if action is None and method == "GET":
            unknown = set(query) - {"includeGridData", "ranges", "fields"}
            if unknown:
                raise bad(f"Invalid JSON payload received. Unknown name {sorted(unknown)[0]!r}")
            grid = query.get("includeGridData", ["false"])
            if grid not in (["false"], ["true"]):
                raise bad(f"Invalid value at 'include_grid_data' (TYPE_BOOL), {grid[0]!r}")
            with self.lock:
                return self._spreadsheet(self._book(key), query.get("ranges", []), grid == ["true"])
        if action == "/values:batchGet" and method == "GET":
            return self._batch_get(key, query)
        if action == ":batchUpdate" and method == "POST":
            if self.before_batch_update is not None:
                hook, self.before_batch_update = self.before_batch_update, None
                hook()
            return self._batch_update(key, body)
        raise ApiError(404, "NOT_FOUND", f"Method not found: {method} {path}")

    @staticmethod
    def _spreadsheet(book: Spreadsheet, ranges: list[str], grid: bool) -> Any:
        """A Spreadsheet resource: every sheet's properties, and with ``grid`` the data of ``ranges``."""
        data: dict[int, list[dict[str, Any]]] = {}
        for text in ranges:
            sheet, r1, r2, c1, c2 = book.block(text)
            if grid:
                data.setdefault(sheet.sheet_id, []).append(sheet.grid_data(r1, r2, c1, c2))
        sheets = []
        for s in book.sheets:
            entry: dict[str, Any] = {"properties": s.properties()}
            if s.merges:
                entry["merges"] = copy.deepcopy(s.merges)
            if s.sheet_id in data:
                entry["data"] = data[s.sheet_id]
            sheets.append(entry)
        return {"spreadsheetId": book.key, "properties": {"title": book.title}, "sheets": sheets}

    def _batch_get(self, key: str, query: dict[str, list[str]]) -> Any:
        unknown = set(query) - {"ranges", "valueRenderOption", "dateTimeRenderOption", "majorDimension"}
        if unknown:
            raise bad(f"Invalid JSON payload received. Unknown name {sorted(unknown)[0]!r}")
        if query.get("valueRenderOption", ["FORMATTED_VALUE"]) != ["UNFORMATTED_VALUE"]:
            raise bad("this fake answers only valueRenderOption=UNFORMATTED_VALUE")
        with self.lock:
            book = self._book(key)
            out = []
            for text in query.get("ranges", []):
                sheet, r1, r2, c1, c2 = book.block(text)
                if "!" in text:  # a cell or a block of cells: 'Players'!C5 or 'Players'!C5:D9
                    values = [_trimmed([sheet.value(r, c) for c in range(c1, c2)]) for r in range(r1, r2)]
                    while values and not values[-1]:
                        values.pop()
                    block: dict[str, Any] = {"range": f"'{sheet.title}'!{text.rsplit('!', 1)[1]}",
                                             "majorDimension": "ROWS"}
                else:
                    values = sheet.values()
                    block = {"range": f"'{sheet.title}'!A1:Z{sheet.rows}", "majorDimension": "ROWS"}
                if values:
                    block["values"] = values
                out.append(block)
            return {"spreadsheetId": key, "valueRanges": out}

    def _batch_update(self, key: str, body: Any) -> Any:
        if not isinstance(body, dict) or set(body) - BATCH_UPDATE_FIELDS:
            unknown = sorted(set(body) - BATCH_UPDATE_FIELDS) if isinstance(body, dict) else body
            raise bad(f"Invalid JSON payload received. Unknown name {unknown!r} in BatchUpdateSpreadsheetRequest")
        requests = body.get("requests")
        if not isinstance(requests, list) or not requests:
            raise bad("Invalid JSON payload: requests must be a non-empty list")
        ranges = body.get("responseRanges", [])
        if ranges and not body.get("includeSpreadsheetInResponse"):
            raise bad("responseRanges is set but includeSpreadsheetInResponse is not")
        with self.lock:
            book = self._book(key)
            work = copy.deepcopy(book)  # all requests or none
            replies = []
            for i, request in enumerate(requests):
                if not isinstance(request, dict) or len(request) != 1:
                    raise bad(f"Invalid requests[{i}]: exactly one kind of request per entry")
                (kind, args), = request.items()
                apply = getattr(self, f"_r_{kind}", None)
                if apply is None:
                    raise bad(f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]'")
                replies.append(apply(work, args, f"requests[{i}].{kind}") or {})
                if work.cell_count() > MAX_CELLS:
                    raise bad(f"Invalid requests[{i}].{kind}: This action would increase the number of cells in "
                              f"the workbook above the limit of {MAX_CELLS} cells.")
            answer: dict[str, Any] = {"spreadsheetId": key, "replies": replies}
            if body.get("includeSpreadsheetInResponse"):
                answer["updatedSpreadsheet"] = self._spreadsheet(work, ranges,
                                                                 bool(body.get("responseIncludeGridData")))
            self.books[key] = work
            return answer

    # -- batchUpdate requests ------------------------------------------------------------------------------

    def _r_addSheet(self, book: Spreadsheet, args: Any, where: str) -> Any:
        props = dict(args.get("properties", {}))
        title = props.get("title")
        if not title:
            raise bad(f"Invalid {where}: a title is required")
        if any(s.title.lower() == str(title).lower() for s in book.sheets):
            raise bad(f'Invalid {where}: A sheet with the name "{title}" already exists. '
                      "Please enter another name.")
        sheet_id = props.get("sheetId", max((s.sheet_id for s in book.sheets), default=0) + 1)
        if any(s.sheet_id == sheet_id for s in book.sheets):
            raise bad(f"Invalid {where}: Sheet with id {sheet_id} already exists.")
        index = props.get("index", len(book.sheets))
        grid = props.get("gridProperties", {})
        sheet = Sheet(sheet_id, title, index, grid.get("rowCount", 1000), grid.get("columnCount", 26),
                      grid.get("frozenRowCount", 0), bool(props.get("hidden", False)))
        book.sheets.insert(min(index, len(book.sheets)), sheet)
        for i, s in enumerate(book.sheets):
            s.index = i
        return {"addSheet": {"properties": sheet.properties()}}

    def _r_deleteSheet(self, book: Spreadsheet, args: Any, where: str) -> None:
        sheet_id = args.get("sheetId")
        sheet = next((s for s in book.sheets if s.sheet_id == sheet_id), None)
        if sheet is None:
            raise bad(f"Invalid {where}: No sheet with id: {sheet_id}")
        if len([s for s in book.sheets if not s.hidden and s is not sheet]) == 0:
            raise bad(f"Invalid {where}: You can't remove all the visible sheets in a document.")
        book.sheets.remove(sheet)
        for i, s in enumerate(book.sheets):
            s.index = i

    def _r_updateSheetProperties(self, book: Spreadsheet, args: Any, where: str) -> None:
        props, fields = args.get("properties", {}), args.get("fields", "")
        if not fields:
            raise bad(f"Invalid {where}: 'fields' is required")
        sheet = book.by_id(props.get("sheetId"), where)
        for path in fields.split(","):
            value: Any = props
            for part in path.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            name = path.split(".")[-1]
            target = {"rowCount": "rows", "columnCount": "columns", "frozenRowCount": "frozen",
                      "title": "title", "hidden": "hidden"}.get(name)
            if target is None:
                raise bad(f"Invalid {where}: unsupported field {path}")
            if value is None:
                value = 0 if target == "frozen" else getattr(sheet, target)
            setattr(sheet, target, value)

    def _r_appendDimension(self, book: Spreadsheet, args: Any, where: str) -> None:
        sheet = book.by_id(args.get("sheetId"), where)
        length = args.get("length")
        if not isinstance(length, int) or length < 1:
            raise bad(f"Invalid {where}: length must be positive")
        if args.get("dimension") == "ROWS":
            sheet.rows += length
        elif args.get("dimension") == "COLUMNS":
            sheet.columns += length
            if sheet.columns > MAX_COLUMNS:
                raise bad(f"Invalid {where}: This action would increase the number of columns in the sheet "
                          f"above the limit of {MAX_COLUMNS}.")
        else:
            raise bad(f"Invalid {where}: dimension must be ROWS or COLUMNS")

    def _r_updateDimensionProperties(self, book: Spreadsheet, args: Any, where: str) -> None:
        rng = args.get("range", {})
        sheet = book.by_id(rng.get("sheetId"), where)
        if rng.get("dimension") != "COLUMNS" or args.get("fields") != "pixelSize":
            raise bad(f"Invalid {where}: this fake sets column pixelSize only")
        for c in range(rng["startIndex"], rng["endIndex"]):
            sheet.widths[c] = args["properties"]["pixelSize"]

    @staticmethod
    def _grid_range(sheet: Sheet, rng: dict[str, Any]) -> tuple[int, int, int, int]:
        return (rng.get("startRowIndex", 0), rng.get("endRowIndex", sheet.rows),
                rng.get("startColumnIndex", 0), rng.get("endColumnIndex", sheet.columns))

    def _r_updateCells(self, book: Spreadsheet, args: Any, where: str) -> None:
        if ("start" in args) == ("range" in args):
            raise bad(f"Invalid {where}: exactly one of start and range must be set")
        fields = _fields(args.get("fields", ""), where)
        rows = args.get("rows", [])
        if "start" in args:
            sheet = book.by_id(args["start"].get("sheetId"), where)
            r0, c0 = args["start"].get("rowIndex", 0), args["start"].get("columnIndex", 0)
            area = None
        else:
            sheet = book.by_id(args["range"].get("sheetId"), where)
            area = self._grid_range(sheet, args["range"])
            r0, c0 = area[0], area[2]
        for dr, row in enumerate(rows):
            values = row.get("values", []) if isinstance(row, dict) else None
            if values is None:
                raise bad(f"Invalid {where}: each row needs values")
            for dc, cell in enumerate(values):
                r, c = r0 + dr, c0 + dc
                if r >= sheet.rows or c >= sheet.columns:
                    raise bad(f"Invalid {where}: Range ('{sheet.title}'!R{r + 1}C{c + 1}) exceeds grid limits. "
                              f"Max rows: {sheet.rows}, max columns: {sheet.columns}")
                _check_cell(cell, where)
                target = sheet.cells.setdefault((r, c), {})
                _apply_fields(target, cell, fields)
        if area is not None:  # cells of the range that rows did not cover are cleared
            covered = {(r0 + dr, c0 + dc) for dr, row in enumerate(rows) for dc in range(len(row.get("values", [])))}
            for (r, c), target in list(sheet.cells.items()):
                if area[0] <= r < area[1] and area[2] <= c < area[3] and (r, c) not in covered:
                    _apply_fields(target, {}, fields)
            if "userEnteredValue" in fields and area == (0, sheet.rows, 0, sheet.columns):
                sheet.widths.clear()

    def _r_repeatCell(self, book: Spreadsheet, args: Any, where: str) -> None:
        rng = args.get("range", {})
        sheet = book.by_id(rng.get("sheetId"), where)
        fields = _fields(args.get("fields", ""), where)
        cell = args.get("cell", {})
        _check_cell(cell, where)
        r1, r2, c1, c2 = self._grid_range(sheet, rng)
        if r2 > sheet.rows or c2 > sheet.columns:
            raise bad(f"Invalid {where}: range exceeds grid limits. Max rows: {sheet.rows}")
        for r in range(r1, r2):
            for c in range(c1, c2):
                _apply_fields(sheet.cells.setdefault((r, c), {}), cell, fields)

    def _r_appendCells(self, book: Spreadsheet, args: Any, where: str) -> None:
        """Rows after the last row holding a value at the time the batch applies (rows inserted when
        the grid is too short; a row wider than the grid is refused)."""
        if set(args) - {"sheetId", "rows", "fields"}:
            raise bad(f"Invalid {where}: Unknown name {sorted(set(args) - {'sheetId', 'rows', 'fields'})}")
        sheet = book.by_id(args.get("sheetId"), where)
        fields = _fields(args.get("fields", ""), where)
        rows = args.get("rows")
        if not isinstance(rows, list) or not rows:
            raise bad(f"Invalid {where}: rows must be set")
        start = sheet.last_row_with_values() + 1
        if start + len(rows) > sheet.rows:
            sheet.rows = start + len(rows)
        for dr, row in enumerate(rows):
            values = row.get("values", []) if isinstance(row, dict) else None
            if values is None:
                raise bad(f"Invalid {where}: each row needs values")
            if len(values) > sheet.columns:
                raise bad(f"Invalid {where}: Range ('{sheet.title}'!R{start + dr + 1}C{len(values)}) exceeds grid "
                          f"limits. Max rows: {sheet.rows}, max columns: {sheet.columns}")
            for c, cell in enumerate(values):
                _check_cell(cell, where)
                _apply_fields(sheet.cells.setdefault((start + dr, c), {}), cell, fields)

    def _r_setDataValidation(self, book: Spreadsheet, args: Any, where: str) -> None:
        """A drop-down list or a checkbox on every cell of the range (no rule: the validation removed)."""
        if set(args) - {"range", "rule", "filteredRowsIncluded"}:
            raise bad(f"Invalid {where}: Unknown name in SetDataValidationRequest")
        rng = args.get("range", {})
        sheet = book.by_id(rng.get("sheetId"), where)
        rule = args.get("rule")
        if rule is not None:
            if not isinstance(rule, dict) or set(rule) - {"condition", "inputMessage", "strict", "showCustomUi"}:
                raise bad(f"Invalid {where}: Unknown name in DataValidationRule")
            condition = rule.get("condition", {})
            kind, values = condition.get("type"), condition.get("values", [])
            if kind not in CONDITION_TYPES:
                raise bad(f"Invalid {where}: this fake knows the conditions {sorted(CONDITION_TYPES)}")
            if kind == "ONE_OF_LIST" and (not values or any(set(v) != {"userEnteredValue"} for v in values)):
                raise bad(f"Invalid {where}: ONE_OF_LIST needs values, each a userEnteredValue")
            if kind == "BOOLEAN" and len(values) not in (0, 1, 2):
                raise bad(f"Invalid {where}: BOOLEAN takes at most two values")
        r1, r2, c1, c2 = self._grid_range(sheet, rng)
        if r2 > sheet.rows or c2 > sheet.columns:
            raise bad(f"Invalid {where}: range exceeds grid limits. Max rows: {sheet.rows}")
        for r in range(r1, r2):
            for c in range(c1, c2):
                cell = sheet.cells.setdefault((r, c), {})
                if rule is None:
                    cell.pop("dataValidation", None)
                else:
                    cell["dataValidation"] = copy.deepcopy(rule)

    def _r_copyPaste(self, book: Spreadsheet, args: Any, where: str) -> None:
        """The source block pasted at the destination's top-left (whole, even past a smaller destination);
        PASTE_VALUES pastes the values shown, PASTE_FORMAT the formats, PASTE_NORMAL both and formulas."""
        if set(args) - {"source", "destination", "pasteType", "pasteOrientation"}:
            raise bad(f"Invalid {where}: Unknown name in CopyPasteRequest")
        paste = args.get("pasteType", "PASTE_NORMAL")
        if paste not in PASTE_TYPES or args.get("pasteOrientation", "NORMAL") != "NORMAL":
            raise bad(f"Invalid {where}: this fake pastes {sorted(PASTE_TYPES)} in NORMAL orientation")
        source = book.by_id(args.get("source", {}).get("sheetId"), where)
        target = book.by_id(args.get("destination", {}).get("sheetId"), where)
        r1, r2, c1, c2 = self._grid_range(source, args["source"])
        t1, _, d1, _ = self._grid_range(target, args["destination"])
        if r2 > source.rows or c2 > source.columns or t1 + r2 - r1 > target.rows or d1 + c2 - c1 > target.columns:
            raise bad(f"Invalid {where}: Range exceeds grid limits. Max rows: {target.rows}, "
                      f"max columns: {target.columns}")
        block = {(r - r1, c - c1): source.cell_data(r, c) for r in range(r1, r2) for c in range(c1, c2)}
        for (dr, dc), cell in block.items():
            if not cell and (t1 + dr, d1 + dc) not in target.cells:
                continue  # empty onto empty
            out = target.cells.setdefault((t1 + dr, d1 + dc), {})
            if paste in ("PASTE_NORMAL", "PASTE_VALUES"):
                entered = cell.get("effectiveValue" if paste == "PASTE_VALUES" else "userEnteredValue")
                if entered:
                    out["userEnteredValue"] = entered
                else:
                    out.pop("userEnteredValue", None)
            if paste in ("PASTE_NORMAL", "PASTE_FORMAT"):
                if cell.get("userEnteredFormat"):
                    out["userEnteredFormat"] = cell["userEnteredFormat"]
                else:
                    out.pop("userEnteredFormat", None)
