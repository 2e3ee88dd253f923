"""A local fake of the Google Sheets v4 HTTP API, for tests: a stdlib HTTP server on 127.0.0.1.

It keeps spreadsheets in memory, answers the calls sheetswiss makes (spreadsheets.get,
values.batchGet, spreadsheets.batchUpdate with the request kinds below), is strict about request
shapes, answers errors as Google does (``{"error": {"code", "message", "status"}}``), applies a
batchUpdate atomically (all requests or none), and logs every request. Tests can make it fail the
next requests (429, 500), refuse a sheet (403) or run a hook before a batchUpdate (another GM).
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from sheetswiss.backends.base import column_index

CELL_VALUE_KINDS = {"stringValue", "numberValue", "boolValue", "formulaValue"}
CELL_FIELDS = {"userEnteredValue", "userEnteredFormat", "note"}


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
        self.failures: list[int] = []
        self.before_batch_update: Callable[[], None] | None = None
        self.lock = threading.RLock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                fake._handle(self, "GET")

            def do_POST(self) -> None:
                fake._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeSheets:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- what tests set up and look at -------------------------------------------------------------------

    def create(self, key: str, title: str = "Event", tabs: tuple[str, ...] = ("Sheet1",), shared: bool = True) -> None:
        self.books[key] = Spreadsheet(key, title, [Sheet(i, t, i) for i, t in enumerate(tabs)], shared)

    def sheet(self, key: str, title: str) -> Sheet:
        return next(s for s in self.books[key].sheets if s.title == title)

    def type(self, key: str, title: str, cells: dict[str, Any]) -> None:
        """Type values into cells (``{"E14": "1-0"}``) as a GM in the browser would."""
        sheet = self.sheet(key, title)
        for ref, value in cells.items():
            m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
            assert m, ref
            c = column_index(m[1])
            kind = "numberValue" if isinstance(value, (int, float)) else "stringValue"
            cell = sheet.cells.setdefault((int(m[2]) - 1, c - 1), {})
            if value is None:
                cell.pop("userEnteredValue", None)
            else:
                cell["userEnteredValue"] = {kind: value}

    def fail_next(self, *codes: int) -> None:
        self.failures.extend(codes)

    def requests(self) -> list[str]:
        """``METHOD path`` of every request so far."""
        return [f"{method} {path}" for method, path, _, _ in self.log]

    # -- HTTP ------------------------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(handler.path)
        query = parse_qs(parts.query)
        body: Any = None
        length = int(handler.headers.get("Content-Length") or 0)
        try:
            if length:
                try:
                    body = json.loads(handler.rfile.read(length))
                except ValueError:
                    raise bad("Invalid JSON payload received.") from None
            with self.lock:
                self.log.append((method, unquote(parts.path), query, body))
                if self.failures:
                    code = self.failures.pop(0)
                    status = "RESOURCE_EXHAUSTED" if code == 429 else "INTERNAL"
                    raise ApiError(code, status, "Quota exceeded" if code == 429 else "Internal error")
            answer = self._route(method, unquote(parts.path), query, body)
            self._send(handler, 200, answer)
        except ApiError as e:
            self._send(handler, e.code, {"error": {"code": e.code, "message": e.message, "status": e.status}})

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, code: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        handler.send_response(code)
        handler.send_header("Content-Type", "application/json; charset=UTF-8")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

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
            if query.get("includeGridData", ["false"]) != ["false"]:
                raise bad("includeGridData is not supported by this fake")
            with self.lock:
                book = self._book(key)
                return {"spreadsheetId": key, "properties": {"title": book.title},
                        "sheets": [{"properties": s.properties()} for s in book.sheets]}
        if action == "/values:batchGet" and method == "GET":
            return self._batch_get(key, query)
        if action == ":batchUpdate" and method == "POST":
            if self.before_batch_update is not None:
                hook, self.before_batch_update = self.before_batch_update, None
                hook()
            return self._batch_update(key, body)
        raise ApiError(404, "NOT_FOUND", f"Method not found: {method} {path}")

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
                m = re.fullmatch(r"(?:'((?:[^']|'')+)'|([^'!]+))(?:!([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?)?", text)
                if not m:
                    raise bad(f"Unable to parse range: {text}")
                title = (m[1] or "").replace("''", "'") or m[2]
                sheet = next((s for s in book.sheets if s.title == title), None)
                if sheet is None:
                    raise bad(f"Unable to parse range: {text}")
                if m[3]:  # a cell or a block of cells: 'Players'!C5 or 'Players'!C5:D9
                    r1, c1 = int(m[4]) - 1, column_index(m[3]) - 1
                    r2, c2 = (int(m[6]) - 1, column_index(m[5]) - 1) if m[5] else (r1, c1)
                    values = [_trimmed([sheet.value(r, c) for c in range(c1, c2 + 1)]) for r in range(r1, r2 + 1)]
                    while values and not values[-1]:
                        values.pop()
                    block: dict[str, Any] = {"range": f"'{title}'!{text.rsplit('!', 1)[1]}", "majorDimension": "ROWS"}
                else:
                    values = sheet.values()
                    block = {"range": f"'{title}'!A1:Z{sheet.rows}", "majorDimension": "ROWS"}
                if values:
                    block["values"] = values
                out.append(block)
            return {"spreadsheetId": key, "valueRanges": out}

    def _batch_update(self, key: str, body: Any) -> Any:
        if not isinstance(body, dict) or set(body) - {"requests", "includeSpreadsheetInResponse"}:
            raise bad("Invalid JSON payload received. Unknown name in BatchUpdateSpreadsheetRequest")
        requests = body.get("requests")
        if not isinstance(requests, list) or not requests:
            raise bad("Invalid JSON payload: requests must be a non-empty list")
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
            self.books[key] = work
            return {"spreadsheetId": key, "replies": replies}

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
