"""``export`` and ``import``: an event to and from the files other tools read (RULES.md section 11): FIDE's
TRF (Tournament Report File) and Netrunner's results JSON, whose SoS and ESoS (strength of schedule and its
extended form) are compared with the event's own.

Same pipeline as every command: the backend reads the workbook, the parser builds the event, the
standings are computed, a format module (:mod:`sheetswiss.formats`) turns them into text, and the
file is written at once (a temporary file replaced into place). Importing runs the other way: the
format module turns text into workbook rows, the rows are parsed as a workbook would be (so nothing
is written that the commands would refuse), and the backend writes them in one go.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from .api import Report, _now, checksum, open_backend
from .backends.base import Append, Backend, Book, Changes, Tab, Value
from .backends.excel import ExcelBackend
from .errors import SheetswissError, WorkbookUnavailable
from .formats import csv, nrtm, trf
from .model import Event
from .names import Names
from .settings import SPECS
from .standings import compute_standings
from .tiebreaks import number_text
from .workbook.contract import HEADERS, LOG, PLAYERS, RESULT_SCORES, RESULTS, SETTINGS
from .workbook.parse import Columns, cell_text, parse_event
from .workbook.render import append_rows, log_tab, template_tabs

__all__ = ["FORMATS", "export", "import_file"]

FORMATS = ("trf", "nrtm", "csv")
"""What ``export --format`` accepts; without it the file's extension decides (.trf/.txt, .json, .csv)."""

_BY_EXTENSION = {".trf": "trf", ".txt": "trf", ".json": "nrtm", ".csv": "csv"}
_DEFAULTS = {spec.key: spec.default for spec in SPECS}


def _format_of(path: Path, given: str | None) -> str:
    if given is not None:
        if given not in FORMATS:
            raise SheetswissError(f"unknown format {given!r}; known: {', '.join(FORMATS)}")
        return given
    found = _BY_EXTENSION.get(path.suffix.lower())
    if found is None:
        raise SheetswissError(f"{path.name}: cannot tell the format from the name; end it in .trf, .json or .csv, "
                              "or say --format trf, nrtm or csv")
    return found


def settings_text(book: Book) -> list[tuple[str, str]]:
    """The Settings values typed, as text, where they differ from the defaults (for the files' own records)."""
    cols = Columns(book, SETTINGS, ["Setting", "Value"], [])
    out = []
    for row in cols.rows:
        key = cell_text(cols.get(row, "Setting")).lower().replace(" ", "_")
        value = cell_text(cols.get(row, "Value"))
        if key and value and key in _DEFAULTS and value != _DEFAULTS[key]:
            out.append((key, value))
    return out


_ROUND = re.compile(r"\(round (\d+)\)")


def round_dates(book: Book) -> dict[int, dt.date]:
    """The day each round was paired, from the Log's ``pair`` rows (the last one for a round wins)."""
    out: dict[int, dt.date] = {}
    for row in book.rows(LOG)[2:]:
        if len(row) < 4 or not cell_text(row[1]).startswith("pair"):
            continue
        m = _ROUND.search(cell_text(row[3]))
        when = row[0]
        if isinstance(when, str):
            try:
                when = dt.datetime.strptime(when.strip()[:10], "%Y-%m-%d")
            except ValueError:
                continue
        if m and isinstance(when, (dt.datetime, dt.date)):
            out[int(m[1])] = when.date() if isinstance(when, dt.datetime) else when
    return out


IDENTITY_COLUMNS = ("Corp", "Runner", "Corp faction", "Runner faction")
"""Optional Players columns with each player's Netrunner decks, for the results JSON (RULES.md 11.2)."""


def identities(book: Book) -> dict[str, nrtm.Identities]:
    """Each player's identities and factions from the Players tab's optional columns, where typed."""
    cols = Columns(book, PLAYERS, ["Name"], IDENTITY_COLUMNS)
    out = {}
    for row in cols.rows:
        name = cell_text(cols.get(row, "Name"))
        if name:
            values = [cell_text(cols.get(row, c)) or None for c in IDENTITY_COLUMNS]
            out[name] = nrtm.Identities(*values)
    return out


def _cut(book: Book, event: Event) -> nrtm.Cut | None:
    """The top cut as the Playoffs tab has it, with its sides in a Netrunner event; ``None`` before one."""
    from .cut_sides import typed_cut
    from .workbook.parse_playoffs import parse_playoffs

    sheet = parse_playoffs(book)
    if not sheet.seeds:
        return None
    bracket, _, sides = typed_cut(event, sheet)
    return nrtm.Cut(bracket=bracket, sides=sides or {})


def _write_text(path: Path, text: str) -> None:
    """``text`` to ``path`` in UTF-8, all at once: a temporary file in the same folder replaced into place."""
    if not path.parent.is_dir():
        raise WorkbookUnavailable(f"{path.parent}: no such folder; create it first or pick another path")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def export(source: str | Backend, out: str | Path, *, format: str | None = None, tab: str = "standings") -> Report:
    """Write the event to ``out`` as a TRF, Netrunner results JSON or CSV (RULES.md section 11).

    The workbook is only read. Rounds still missing results are left out and the report says so;
    a CSV holds one tab, ``tab`` (``players``, ``results`` or ``standings``), and Results whole.
    """
    path = Path(out)
    fmt = _format_of(path, format)
    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    table = compute_standings(event)
    lines = []
    if fmt == "trf":
        text = trf.write(event, table, settings_text=settings_text(book), round_dates=round_dates(book))
        what = "TRF"
    elif fmt == "nrtm":
        text = nrtm.write(event, table, date=round_dates(book).get(1, _now(None).date()),
                          identities=identities(book), cut=_cut(book, event))
        what = "Netrunner results JSON"
    else:
        text = "\ufeff" + csv.tab_csv(tab, event, table)  # the byte-order mark makes Excel read UTF-8
        what = f"CSV of {tab.capitalize()}"
    _write_text(path, text)
    lines.append(f"Exported {len(event.players)} players, rounds 1-{table.rounds}, to {path} ({what})")
    if event.paired_rounds > table.rounds and not (fmt == "csv" and tab != "standings"):
        lines.append(f"Round {table.rounds + 1} is not finished: its pairings are not in the file")
    return Report(tuple(lines), text)


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise WorkbookUnavailable(f"{path}: no such file")
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older TRFs are Latin-1


def _new_tabs(imported: trf.Imported, seed: int) -> tuple[Tab, ...]:
    """A new workbook's tabs: the template, its Settings values set, Players and Results filled."""
    tabs = list(template_tabs("swiss", seed))
    given = dict(imported.settings)
    for i, tab in enumerate(tabs):
        if tab.name == SETTINGS:
            rows = [row if row[0] not in given else (row[0], given.pop(str(row[0])), *row[2:]) for row in tab.rows]
            rows += [(key, value, "") for key, value in given.items()]
            tabs[i] = Tab(tab.name, tuple(rows), tab.format)
        elif tab.name == PLAYERS:
            rows_p: list[tuple[Value, ...]] = [HEADERS[PLAYERS]]
            rows_p += [(n, r, c or None, s or None, j) for n, r, c, s, j in imported.players]
            tabs[i] = Tab(tab.name, tuple(rows_p), tab.format)
        elif tab.name == RESULTS:
            tabs[i] = Tab(tab.name, (HEADERS[RESULTS], *imported.results), tab.format)
    return tuple(tabs)


def _with_appends(book: Book, appends: Sequence[Append]) -> Book:
    """``book`` as it will be once ``appends`` are written (to parse before writing anything)."""
    tabs = {name: list(rows) for name, rows in book.tabs.items()}
    for a in appends:
        rows = tabs.setdefault(a.tab, [])
        while len(rows) < a.first_row - 1:
            rows.append(())
        rows[a.first_row - 1:a.first_row - 1 + len(a.rows)] = list(a.rows)
    return Book({name: tuple(rows) for name, rows in tabs.items()})


def _points_notes(book: Book, parsed: trf.TrfFile) -> list[str]:
    """Players whose points here differ from the file's points column (another scoring, accelerations)."""
    event = parse_event(book)
    table = compute_standings(event, through=event.paired_rounds)
    ours = {row.player: row.points for row in table.rows}
    differ = [f"{p.name} {number_text(ours[p.name])} (file {number_text(p.points)})" for p in parsed.players
              if p.points is not None and p.name in ours and ours[p.name] != p.points]
    if not differ:
        return []
    return [f"Points differ from the file's for {len(differ)} players: " + ", ".join(differ[:5])
            + (" ..." if len(differ) > 5 else "") + "; check the scoring settings"]


def import_file(infile: str | Path, destination: str | Backend, *, dry_run: bool = False, seed: int = 0,
                now: dt.datetime | None = None) -> Report:
    """Bring a TRF or Netrunner results JSON into a workbook: a new one made from it, or an existing one's rounds
    carried on (a CSV goes to :func:`_import_csv`).

    Into an existing workbook: players not yet in Players (names compared ignoring case) are appended,
    and the rounds after the last one in Results are appended; rounds already there are left alone and
    the report says so. Settings are the GM's and are not touched. Nothing is written unless the result
    reads as a valid event.
    """
    path = Path(infile)
    if path.suffix.lower() == ".csv":
        return _import_csv(path, open_backend(destination), dry_run=dry_run, when=_now(now))
    published: Mapping[str, nrtm.Published] | None = None
    parsed: trf.TrfFile | None = None
    if path.suffix.lower() == ".json":
        imported, published = nrtm.read(_read_text(path), path.name)
    elif path.suffix.lower() in (".trf", ".txt"):
        parsed = trf.read(_read_text(path), path.name)
        imported = trf.workbook_rows(parsed)
    else:
        raise SheetswissError(f"{path.name}: import reads a TRF (.trf or .txt), Netrunner results JSON (.json) or a "
                              "CSV of players or results (.csv)")
    backend = open_backend(destination)
    when = _now(now)
    lines: list[str] = []
    if isinstance(backend, ExcelBackend) and not backend.exists():
        tabs = _new_tabs(imported, seed)
        book = Book({t.name: t.rows for t in tabs})
        parse_event(book)  # refuse before writing, naming the cell
        log = log_tab(Book({}), (f"{when:%Y-%m-%d %H:%M:%S}", f"import {path.name}", checksum(book),
                                 "Settings, Players, Results"))
        changes = Changes(new_tabs=tabs[:-1], tool_tabs=(log,))
        rounds = max((r[0] for r in imported.results), default=0)
        lines.append(f"{'Would create' if dry_run else 'Created'} {backend.label} from {path.name}: "
                     f"{len(imported.players)} players, {len(imported.results)} Results rows (rounds 1-{rounds})")
    else:
        before = book = backend.read()
        event = parse_event(book)
        names = Names(p.name for p in event.players)  # RULES.md 1.6
        new_players = [row for row in imported.players if names.find(row[0]) is None]
        start = event.paired_rounds + 1
        rows = [(r, t, names.find(a) or a, names.find(b) or b, res)
                for r, t, a, b, res in imported.results if r >= start]
        skipped = sorted({r for r, *_ in imported.results if r < start})
        appends = []
        if new_players:
            appends.append(append_rows(book, PLAYERS, [
                {"Name": n, "Rating": rt, "Club": c or None, "Status": s or None, "Joined": j}
                for n, rt, c, s, j in new_players]))
        if rows:
            appends.append(append_rows(book, RESULTS, [
                {"Round": r, "Table": t, "Player A": a, "Player B": b, "Result": res} for r, t, a, b, res in rows],
                text=("Result",)))
        book = _with_appends(book, appends)
        parse_event(book)
        log = log_tab(before, (f"{when:%Y-%m-%d %H:%M:%S}", f"import {path.name}", checksum(book),
                                       ", ".join(a.tab for a in appends) or "nothing"))
        changes = Changes(appends=tuple(appends), tool_tabs=(log,))
        lines.append(f"{'Would add' if dry_run else 'Added'} {len(new_players)} players and {len(rows)} Results rows "
                     f"from {path.name} to {backend.label}")
        if skipped:
            lines.append(f"Rounds {', '.join(map(str, skipped))} are in Results already and were left as they are")
    lines += list(imported.notes)
    lines += _points_notes(book, parsed) if parsed is not None else _compare(book, published or {})
    if not dry_run:
        backend.write(changes)
    return Report(tuple(lines), imported)


def _import_csv(path: Path, backend: Backend, *, dry_run: bool, when: dt.datetime) -> Report:
    """A players CSV appended to Players by ``register`` (RULES.md 10.1: names already in Players and names
    repeated in the file are listed and not added), or a results CSV (Round, Player A ...) to Results: the
    rounds after the last one there. The CSV is only read.
    """
    if not backend.exists():
        raise WorkbookUnavailable(f"{backend.label}: no such workbook; make one with: sheetswiss new {backend.label}")
    rows = csv.rows_of(_read_text(path), path.name)
    book = backend.read()
    event = parse_event(book)
    header = {h.strip().lower() for h in rows[0]}
    lines: list[str] = []
    if "player a" in header:
        records = [r for r in csv.results_in(rows, path.name, event.players)
                   if isinstance(r["Round"], int) and r["Round"] > event.paired_rounds]
        _check_score_columns(book, records, path.name)
        appends = [append_rows(book, RESULTS, records, text=("Result",))] if records else []
        lines.append(f"{'Would add' if dry_run else 'Added'} {len(records)} Results rows from {path.name}")
        skipped = len(rows) - 1 - len(records)
        if skipped:
            lines.append(f"{skipped} rows of rounds already in Results were left out")
    else:  # players: the registration import's own path (RULES.md 10.1)
        from .api import register

        return register(backend, from_=str(path), dry_run=dry_run, now=when)
    after = _with_appends(book, appends)
    parse_event(after)
    log = log_tab(book, (f"{when:%Y-%m-%d %H:%M:%S}", f"import {path.name}", checksum(after),
                         ", ".join(a.tab for a in appends) or "nothing"))
    if not dry_run:
        backend.write(Changes(appends=tuple(appends), tool_tabs=(log,)))
    return Report(tuple(lines), None)


def _check_score_columns(book: Book, records: Sequence[Mapping[str, Value]], source: str) -> None:
    """Scores in a results CSV need Results columns to go to (RULES.md 4.13): refuse rather than drop them."""
    header = {cell_text(v).lower() for v in (book.rows(RESULTS) or [()])[0]}
    missing = [name for name in RESULT_SCORES
               if name.lower() not in header and any(r.get(name) is not None for r in records)]
    if missing:
        raise SheetswissError(f"{source}: the file has game scores ({', '.join(missing)}) but Results has no column "
                              f"headed {' or '.join(repr(m) for m in missing)}; add them to Results' row 1 and "
                              "import again")


def _compare(book: Book, published: Mapping[str, nrtm.Published]) -> list[str]:
    """Each player's points, SoS and ESoS here against the file's (4 decimals, as Cobra shows them)."""
    from .tiebreaks import Context

    event = parse_event(book)
    table = compute_standings(event, through=event.paired_rounds)
    ctx = Context.of(event, through=event.paired_rounds)
    sos, esos = ctx.values("cobra_sos"), ctx.values("cobra_esos")
    ours = {row.player: row.points for row in table.rows}
    differ = []
    for name, p in published.items():
        if name not in ours:
            continue
        mine = (number_text(ours[name]), number_text(sos[name]), number_text(esos[name]))
        theirs = (number_text(p.points) if p.points is not None else mine[0],
                  number_text(Fraction(p.sos).limit_denominator(10**6)) if p.sos is not None else mine[1],
                  number_text(Fraction(p.esos).limit_denominator(10**6)) if p.esos is not None else mine[2])
        if mine != theirs:
            differ.append(f"{name} {'/'.join(mine)} (file {'/'.join(theirs)})")
    if not differ:
        return [f"Points, SoS and ESoS agree with the file for all {len(published)} players"]
    return [f"Points/SoS/ESoS differ from the file's for {len(differ)} players: " + ", ".join(differ[:5])
            + (" ..." if len(differ) > 5 else "")]
