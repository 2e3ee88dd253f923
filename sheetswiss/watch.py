"""``sheetswiss watch``: keep the players' pages current while the GM types (RULES.md 10.6).

The loop only reads. An .xlsx file is read again when its modification time or size changes; a Google Sheet
is read every ``every`` seconds (two requests a read, well inside Google's per-user read quota of 60 a minute).
The pages are republished only when a tab's values changed, with a line saying which tabs. A bad cell typed
mid-round does not stop it: the error is printed and every page keeps its last good state with a notice
naming the cell, until the next good read republishes them.

Each good read is also handed to the ``handlers`` (functions of the fresh :class:`~sheetswiss.backends.base.Book`
returning lines to print), so another feature (commands the GM requests from a tab) runs in the same loop
without a second reader: the Control tab's requests (:mod:`sheetswiss.control`) run there, even while a bad cell
keeps the pages from being republished. A handler with a true ``waiting`` attribute (a request seen that could
not be taken yet) is called again at the next look even when nothing changed. On an .xlsx file, a spreadsheet
program's lock file appearing or going away counts as a change, so a request saved in Excel is taken as soon
as the workbook is closed. Without a folder (``out`` ``None``) nothing is published: only the handlers run.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .backends.base import Backend, Book
from .errors import SheetswissError

__all__ = ["Handler", "Watcher", "changed_tabs", "mark_stale"]

Handler = Callable[[Book, dt.datetime], Sequence[str]]
"""Run on every good read that changed something, with the time of the read: returns the lines to print (may
be none)."""

NOTICE = re.compile(r"<!--sheetswiss-notice-->.*?<!--/sheetswiss-notice-->\n?", re.S)


def changed_tabs(before: Book | None, after: Book) -> list[str]:
    """The tabs whose values differ between two reads (all of them after the first read).

    >>> changed_tabs(Book({"A": ((1,),), "B": ()}), Book({"A": ((2,),), "B": ()}))
    ['A']
    """
    if before is None:
        return list(after.tabs)
    names = list(after.tabs) + [t for t in before.tabs if t not in after.tabs]
    return [t for t in names if before.rows(t) != after.rows(t) or (t in before.tabs) != (t in after.tabs)]


def mark_stale(folder: Path, message: str, when: dt.datetime) -> int:
    """Put a notice at the top of every page in ``folder`` (replacing an earlier one): the page shows its last
    good state while the workbook has ``message`` wrong. Returns the number of pages marked."""
    notice = (f'<!--sheetswiss-notice--><p role="alert" style="background:#fff3cd;color:#5c4400;padding:10px;'
              f'border-radius:8px">Not updated since the last good state: at {when:%H:%M} the workbook had an '
              f"error the organiser is fixing ({html.escape(message)}).</p><!--/sheetswiss-notice-->\n")
    count = 0
    for page in sorted(folder.glob("*.html")):
        text = NOTICE.sub("", page.read_text(encoding="utf-8"))
        text = text.replace("<body>", "<body>" + notice, 1)
        tmp = page.with_name(f".{page.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, page)
        count += 1
    return count


@dataclass
class Watcher:
    """The watch loop over one event. ``publish(book, now)`` republishes from a read and returns its report
    lines; ``now`` and ``sleep`` are passed in so a test runs the loop without waiting."""

    backend: Backend
    out: Path | None
    publish: Callable[[Book, dt.datetime], Sequence[str]]
    every: float
    echo: Callable[[str], None]
    now: Callable[[], dt.datetime] = field(default=lambda: dt.datetime.now().replace(microsecond=0))
    sleep: Callable[[float], None] = time.sleep
    handlers: list[Handler] = field(default_factory=list)
    last: Book | None = None
    stamp: tuple[int, int, bool] | None = None
    failing: str | None = None
    every_words: str = ""
    """How often it looks, in a GM's words, for the first line (default: ``every N s``)."""

    def _file_stamp(self) -> tuple[int, int, bool] | None:
        stamp = self.backend.stamp()
        return None if stamp is None else (*stamp, self.backend.lock_file() is not None)

    def _waiting(self) -> bool:
        return any(getattr(handler, "waiting", False) for handler in self.handlers)

    def poll(self) -> bool:
        """One look at the workbook: read it when it may have changed, republish when it did, and hand the read
        to the handlers. Returns whether the pages were republished."""
        stamp = self._file_stamp()
        if stamp is not None and stamp == self.stamp and self.failing is None and not self._waiting():
            return False
        when = self.now()
        self.backend.refresh()  # a Google Sheet: see tabs renamed or written since the last look
        try:
            book = self.backend.read()
        except SheetswissError as e:  # a file being saved, a sheet not reachable: try again next time
            self._fail(str(e), when)
            return False
        self.stamp = stamp
        tabs = changed_tabs(self.last, book)
        if not tabs and self.failing is None and not self._waiting():
            return False
        published = False
        if tabs or self.failing is not None:
            try:
                lines = list(self.publish(book, when))
            except SheetswissError as e:
                self.last = book
                self._fail(str(e), when)
            else:
                what = ("first read" if self.last is None else "changed: " + ", ".join(tabs) if tabs
                        else "error fixed")
                self.last, self.failing, published = book, None, True
                if self.out is not None:
                    self.echo(f"{when:%H:%M:%S} {what}; " + (lines[0] if lines else "published"))
        for handler in self.handlers:
            for line in handler(book, when):
                self.echo(line)
        return published

    def _fail(self, message: str, when: dt.datetime) -> None:
        if message != self.failing:
            pages = mark_stale(self.out, message, when) if self.out is not None and self.out.is_dir() else 0
            kept = (f"; the {pages} page(s) keep their last good state, with a notice" if pages
                    else "; nothing published yet")
            self.echo(f"{when:%H:%M:%S} Error: {message}" + ("" if self.out is None else kept))
        self.failing = message

    def run(self, polls: int | None = None) -> None:
        """Poll until Ctrl-C (or ``polls`` times), sleeping ``every`` seconds between looks."""
        doing = [f"publishing to {self.out}"] if self.out is not None else []
        if self.handlers:
            doing.append("running the Control tab's requests")
        self.echo(f"Watching {self.backend.label}; {'; '.join(doing) or 'reading only'} "
                  f"({self.every_words or f'every {self.every:g} s'}; Ctrl-C stops)")
        count = 0
        try:
            while polls is None or count < polls:
                self.poll()
                count += 1
                if polls is None or count < polls:
                    self.sleep(self.every)
        except KeyboardInterrupt:
            self.echo("Stopped; the pages stay as last published." if self.out is not None else "Stopped.")
