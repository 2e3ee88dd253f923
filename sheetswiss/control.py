"""Requests from the Control tab: ``sheetswiss watch`` runs the command a GM (or the sheetswiss menu) asks for.

A request is the Control tab's Command, its options, and Run ticked (RULES.md 10.7). :class:`Requests` is a
handler of the watch loop (:class:`~sheetswiss.watch.Watcher`): on each read it looks at the Control tab and,
when Run is ticked,

1. takes the request: one write unticks Run and sets Status ``running`` (on a Google Sheet the write carries the
   revision guard, so two ``watch`` on one sheet, or a request taken twice, make one run);
2. runs the command through :mod:`sheetswiss.api`, as the command line would (it reads, writes once, adds its
   Log row; a refusal writes nothing);
3. writes Status ``done`` or ``refused``, the time and the command's output (refusals included) into the tab.

Only the commands of :data:`~sheetswiss.workbook.control_tab.COMMANDS` run; a request carries no path (publish
writes to the folder given on the ``watch`` command line). On an .xlsx file nothing is written while the
workbook is open in a spreadsheet program (its lock file is there): the request waits until it is closed.
A status that cannot be written (the file opened again, the network down) is written at the next look.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .backends.base import Backend, Book, Changes, Overwrite, Value, column_letter
from .backends.csvfile import is_csv
from .errors import Problems, SheetswissError
from .workbook.contract import SETTINGS
from .workbook.control_tab import ONCE, ControlCells, Request, commands_for, find_control
from .workbook.parse import Columns, cell_text, parse_settings_tab

__all__ = ["LONGEST", "Requests", "run_request"]

LONGEST = 30_000
"""The most characters written into the Output cell (an Excel cell holds 32,767, a Google Sheets cell 50,000)."""

Failure = Callable[[BaseException], str]
"""Records an unexpected failure (a bug) with its details; returns where they went, for the Output."""


def _format(book: Book) -> str | None:
    """The event's format, ``None`` when Settings cannot say (the command then names the bad cell)."""
    try:
        return parse_settings_tab(book, Problems()).format
    except SheetswissError:
        return None


def _refuse_a_file(book: Book) -> None:
    """Refuse ``register`` from a CSV file named in Settings: a request reads the event's tabs only (anyone who
    can edit the sheet could otherwise have a file of the ``watch`` computer read into Players)."""
    if not is_csv(parse_settings_tab(book, Problems()).registrations):
        return
    cols = Columns(book, SETTINGS, ["Setting", "Value"], [])
    key, value = cols.index["Setting"], cols.index["Value"]
    row = next(r for r, cells in enumerate(book.rows(SETTINGS), start=1)
               if len(cells) > key and cell_text(cells[key]).lower() == "registrations")
    raise SheetswissError(f"{SETTINGS}!{column_letter(value + 1)}{row}: register from the Control tab reads a tab "
                          "only, never a file; name the form's responses tab here, or run sheetswiss register "
                          "EVENT --from FILE.csv in a terminal")


def run_request(backend: Backend, request: Request, cells: ControlCells, *, fmt: str | None,
                site: Path | None, now: dt.datetime, book: Book) -> tuple[str, ...]:
    """Run ``request`` on ``backend`` as its command would from the command line; its printed lines.

    Refused (:class:`SheetswissError`, naming the cell) when the command is not one the Control tab runs
    for the event's format, or an option it needs is missing."""
    from . import api

    allowed = commands_for(fmt)
    if not request.command:
        raise SheetswissError(f"{cells.cell('Command')}: no command chosen; choose one of: {', '.join(allowed)}")
    if request.command not in allowed:
        kinds = {"swiss": "a Swiss", "heats": "a heat event"}
        other = [f for f in kinds if request.command in commands_for(f)]
        why = (f"{request.command} is for {kinds[other[0]].removeprefix('a ')}s and this one is {kinds[fmt]}"
               if other and fmt in kinds else f"{request.command!r} is not a command the Control tab runs")
        raise SheetswissError(f"{cells.cell('Command')}: {why}; choose one of: {', '.join(allowed)}")
    c, dry = request.command, request.dry_run
    if c == "pair" and request.check:
        if request.redo:
            raise SheetswissError(f"{cells.cell('Check')}: Check checks the round in Results as it is, and Redo "
                                  f"({cells.cell('Redo')}) pairs it again; tick one of them")
        return api.check_pairings(backend, dry_run=dry, now=now).lines
    if c == "pair":
        return api.pair(backend, redo=request.redo, dry_run=dry, now=now).lines
    if c == "standings":
        return api.standings(backend, explain=request.player or None, dry_run=dry, now=now).lines
    if c == "playoffs":
        return api.playoffs(backend, dry_run=dry, now=now).lines
    if c == "slips":
        return api.slips(backend, round_=request.round, dry_run=dry, now=now).lines
    if c == "reports":
        return api.reports(backend, dry_run=dry, now=now).lines
    if c == "register":
        _refuse_a_file(book)
        return api.register(backend, dry_run=dry, now=now).lines
    if c == "plan":
        return api.plan(backend, dry_run=dry, now=now).lines
    if c == "seat":
        if request.heat is None:
            raise SheetswissError(f"{cells.cell('Heat')}: seat needs the heat's number here")
        return api.seat(backend, heat=request.heat, dry_run=dry, now=now).lines
    if c == "qualify":
        return api.qualify(backend, dry_run=dry, now=now).lines
    if c == "advance":
        absent = [n.strip() for n in request.player.split(",") if n.strip()]
        return api.advance(backend, absent=absent, dry_run=dry, now=now).lines
    if c == "publish":
        if site is None:
            raise SheetswissError(f"{cells.cell('Command')}: publish writes the players' pages into the folder "
                                  "named when watch starts, and none was: start it as sheetswiss watch EVENT "
                                  "SITE_DIR")
        return api.publish(backend, site, now=now).lines
    raise AssertionError(f"command {c} is listed but not run")  # COMMANDS and this function go together


OPTION_CELLS = {"--explain": "Player", "--absent": "Player"}
"""A command-line option a refusal names, and the Control tab's label whose cell gave its value."""


def _in_cells(message: str, cells: ControlCells) -> str:
    """A refusal naming a command-line option (``--explain: 'Zed' is not in Players``) names the Control tab's
    cell instead (``Control!B5: ...``): the GM typed it there."""
    for option, label in OPTION_CELLS.items():
        if message.startswith(option + ": "):
            return cells.cell(label) + message[len(option):]
    return message


def _clip(text: str) -> str:
    if len(text) <= LONGEST:
        return text
    return text[:LONGEST] + f"\n… ({len(text) - LONGEST:,} more characters; the whole output is in watch's window)"


@dataclass
class Requests:
    """The watch loop's handler for the Control tab (see the module's docstring)."""

    backend: Backend
    site: Path | None
    now: Callable[[], dt.datetime]
    failure: Failure = field(default=lambda e: "")
    waiting: bool = False
    """A request was seen that could not be taken yet (the workbook open in a program, a write that failed):
    the watch loop looks again even when nothing changed."""
    unsent: tuple[Overwrite, ...] = ()
    """A finished request's status that could not be written yet."""
    said: str | None = None
    """The last problem printed about the tab itself (printed once, not on every look)."""
    untaken: str | None = None
    """Why the last request could not be taken (printed once while it lasts)."""
    first: bool = True
    """No look at the Control tab yet: a Status left at ``running`` then is a run a stopped ``watch`` left."""

    def _lock(self) -> Path | None:
        return self.backend.lock_file()

    def _say_once(self, line: str | None) -> list[str]:
        if line == self.said:
            return []
        self.said = line
        return [] if line is None else [line]

    def __call__(self, book: Book, when: dt.datetime) -> Sequence[str]:
        """Look at the Control tab as ``book`` has it (read at ``when``): take and run a request, or say why not."""
        lines: list[str] = []
        if self.unsent:
            lock = self._lock()
            if lock is not None:
                self.waiting = True
                return self._say_once(f"{when:%H:%M:%S} Control: the last status is written once the workbook is "
                                      f"closed ({lock.name} is there)")
            try:
                self.backend.write(Changes(overwrites=self.unsent))
            except SheetswissError as e:
                self.waiting = True
                return self._say_once(f"{when:%H:%M:%S} Control: the last status is not written yet ({e}); "
                                      "trying again at the next look")
            self.unsent = ()
            lines.append(f"{when:%H:%M:%S} Control: the last status is written now")
            return lines  # the next look sees the tab as now written
        try:
            cells = find_control(book)
        except SheetswissError as e:
            self.waiting = False
            return lines + self._say_once(f"{when:%H:%M:%S} Control: requests refused: {e}")
        if cells is None:
            self.waiting = False
            return lines + self._say_once(f"{when:%H:%M:%S} No Control tab, so no requests from the sheet; "
                                          "add one with: sheetswiss control EVENT")
        lines += self._say_once(None)
        if self.first and self._lock() is None:  # (an open workbook: looked at once it is closed)
            self.first = False
            if cells.status == "running":
                lines += self._stale(cells, when)
        if not cells.ticked:
            self.waiting = False
            return lines
        lock = self._lock()
        if lock is not None:
            first = not self.waiting
            self.waiting = True
            if first:
                lines.append(f"{when:%H:%M:%S} Control: a request waits until the workbook is closed "
                             f"({lock.name} is there; sheetswiss never writes into an open workbook; "
                             "if no program has it open, delete that stale file)")
            return lines
        self.waiting = False
        return lines + self._take(book, cells, when)

    def _stale(self, cells: ControlCells, when: dt.datetime) -> list[str]:
        """Close a run that an earlier ``watch`` started and never finished (stopped, or its computer off)."""
        started = cells.values.get("Started") or "?"
        note = (f"watch stopped while this ran (started {started}); the Log tab's last row says whether it wrote "
                "anything; ask again if not")
        self._write_or_keep(self._status(cells, {"Status": "refused", "Finished": f"{when:%Y-%m-%d %H:%M:%S}",
                                                 "Output": note}))
        return [f"{when:%H:%M:%S} Control: the last request had no answer: {note}"]

    def _status(self, cells: ControlCells, values: dict[str, Value]) -> tuple[Overwrite, ...]:
        return tuple(Overwrite(cells.tab, cells.rows[label], 2, value) for label, value in values.items())

    def _take(self, book: Book, cells: ControlCells, when: dt.datetime) -> list[str]:
        stamp = f"{when:%Y-%m-%d %H:%M:%S}"
        try:
            request: Request | None = cells.request()
        except SheetswissError as e:
            request, bad = None, str(e)
        words = request.words() if request is not None else cells.values.get("Command") or "(no command)"
        asked = ((f" asked by {request.by}" if request and request.by else "")
                 + (f" at {request.at}" if request and request.at else ""))
        if request is None:  # a bad option: refused in the same write that takes it
            self._write_or_keep(self._status(cells, {"Run": False, "Status": "refused", "Started": stamp,
                                                     "Finished": stamp, "Output": bad}))
            return [f"{when:%H:%M:%S} Control: {words}{asked}: refused: {bad}"]
        once = {label: False for label in ONCE if label in cells.rows}
        try:
            self.backend.write(Changes(overwrites=self._status(cells, {
                "Run": False, **once, "Status": "running", "Started": stamp, "Finished": None,
                "Output": f"sheetswiss {words}: running since {when:%H:%M:%S}"})))
        except SheetswissError as e:  # taken meanwhile by another watch, the file opened, the network down
            self.waiting = True
            line = f"Control: {words}{asked}: not taken yet ({e}); looking again"
            said, self.untaken = self.untaken, line
            return [] if said == line else [f"{when:%H:%M:%S} {line}"]
        self.untaken = None
        status, output = "done", ""
        try:
            output = "\n".join(run_request(self.backend, request, cells, fmt=_format(book), site=self.site,
                                           now=when, book=book))
        except SheetswissError as e:
            status, output = "refused", _in_cells(str(e), cells)
        except KeyboardInterrupt:
            self._write_or_keep(self._status(cells, {
                "Status": "refused", "Finished": f"{self.now():%Y-%m-%d %H:%M:%S}",
                "Output": "watch was stopped (Ctrl-C) while this ran; the Log tab's last row says whether it "
                          "wrote anything; ask again if not"}))
            raise
        except Exception as e:  # a bug: recorded, reported, and watch goes on
            status = "refused"
            where = self.failure(e)
            output = (f"unexpected failure ({type(e).__name__}: {e}); the workbook was left as it was"
                      + (f". {where}" if where else ""))
        done = self.now()
        self._write_or_keep(self._status(cells, {"Status": status, "Finished": f"{done:%Y-%m-%d %H:%M:%S}",
                                                 "Output": _clip(output)}))
        first, *rest = output.splitlines() or [""]
        return [f"{when:%H:%M:%S} Control: {words}{asked}: {status}" + (f": {first}" if first else ""),
                *(f"  {line}" for line in rest)]

    def _write_or_keep(self, status: tuple[Overwrite, ...]) -> None:
        """Write a status now, or keep it for the next look when that fails (the file opened meanwhile)."""
        try:
            self.backend.write(Changes(overwrites=status))
        except SheetswissError:
            try:
                if not self.backend.remote:
                    raise
                self.backend.refresh()  # a Google Sheet read before a write that went in (Ctrl-C in between)
                self.backend.write(Changes(overwrites=status))
            except SheetswissError:
                self.unsent, self.waiting = status, True
