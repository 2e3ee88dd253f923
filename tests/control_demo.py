"""A short demo of ``sheetswiss watch`` answering a request typed into a Google Sheet's Control tab, against
the local fake of the Sheets API (no account, no network). From a checkout::

    python -m tests.control_demo

It makes an event in a fake spreadsheet, starts ``watch`` on it, then writes into the Control tab what a GM's
browser writes (``pair`` chosen in the drop-down, the Run checkbox ticked), waits for the answer and shows the
Control tab as ``watch`` left it. ``pace`` is how long ``watch`` waits between looks (the tests make it short).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

from sheetswiss import api
from sheetswiss.backends.gsheets import GoogleSheetsBackend, RewritingSession
from sheetswiss.workbook.contract import CONTROL

from .fake_sheets import FakeSheets

KEY = "1DemoSheetKeyForTheControlTab0123456789"
PLAYERS = ("Ana Lima", "Bo Berg", "Caro Chen", "Dev Diaz", "Eli Eng", "Fay Fox")


def main(pace: float = 5.0, say: Callable[[str], None] = print, timeout: float = 60.0) -> dict[str, object]:
    """Run the demo; the Control tab's status cells as ``watch`` left them (label -> value)."""
    with FakeSheets() as fake:
        fake.create(KEY, title="Convention Swiss")
        backend = GoogleSheetsBackend(KEY, session=RewritingSession(fake.url))
        say(f"$ sheetswiss new gsheet:{KEY}")
        say(api.new(backend, seed=7).text())
        fake.type(KEY, "Players", {f"A{r}": name for r, name in enumerate(PLAYERS, start=2)})
        say(f"(the GM lists {len(PLAYERS)} players in Players)")
        looked, answered, stop = threading.Event(), threading.Event(), threading.Event()

        def sleep(seconds: float) -> None:  # watch sleeps after each look
            looked.set()
            if stop.wait(pace):
                raise KeyboardInterrupt  # what Ctrl-C does in a terminal

        def watch_says(line: str) -> None:  # watch says how a request went once its status is written
            say(line)
            if " Control: " in line:
                answered.set()

        say(f"$ sheetswiss watch gsheet:{KEY}")
        watcher = threading.Thread(target=api.watch, args=(backend,), kwargs={"echo": watch_says, "sleep": sleep})
        watcher.start()
        looked.wait(timeout)  # its first look
        rows = {str(row[0]): r for r, row in enumerate(fake.sheet(KEY, CONTROL).values(), start=1) if row}
        asked = f"{dt.datetime.now():%Y-%m-%d %H:%M:%S}"
        say("(in the browser: Command pair, Run ticked, Requested by gm@example.org)")
        fake.type(KEY, CONTROL, {f"B{rows['Command']}": "pair", f"B{rows['Run']}": True,
                                 f"B{rows['Requested by']}": "gm@example.org", f"B{rows['Requested at']}": asked})
        answered.wait(timeout)
        stop.set()
        watcher.join()
        tab = fake.sheet(KEY, CONTROL)
        shown = {label: tab.value(rows[label] - 1, 1) for label in ("Run", "Status", "Started", "Finished", "Output")}
        say("The Control tab now says:")
        for label, value in shown.items():
            lines = str(value).splitlines() or [""]
            say(f"  {label:<9}{lines[0]}")
            for line in lines[1:]:
                say(f"  {'':<9}{line}")
        return shown


if __name__ == "__main__":
    main()
