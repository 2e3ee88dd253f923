"""The library API: one function per command, each read -> parse -> compute -> render -> write once.

Words used below: GM, the game master who runs the event and owns the workbook; W x V, seed 002's additive
rating (a player's wins W times the value V of their final place, RULES.md 8.1); HMW and HSW (Heats: Most
Wins, Heats: Single Win), the WBC (World Boardgaming Championships) heat methods (RULES.md 5.8).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "club.xlsx"
>>> print(new(str(path), seed=7).text())            # doctest: +ELLIPSIS
Created .../club.xlsx (swiss): Settings, Players, Results, Avoid, Pairings, Standings, Control, Log
Next: list the players in Players, then run: sheetswiss pair .../club.xlsx
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from .backends import sheet_key
from .backends.base import Append, Backend, Book, Changes, Tab, Update, Value
from .backends.excel import ExcelBackend
from .cut_sides import typed_cut
from .elimination import RoundSeating
from .errors import Problems, SheetswissError, WorkbookUnavailable, first_few
from .heats import Qualification, check_tables
from .heats import qualify as heat_qualify
from .model import Event, HeatGame, Player, PlayerId
from .names import Names, name_key, sort_key
from .pairing import Pairing, check_pairing, pair_round, round_state
from .pairing.solver import Proof
from .playoffs import Bracket, typed_bracket
from .seating import seat_heat
from .settings import Settings
from .standings import compute_standings, top_cut
from .standings import explain as explain_standing
from .tiebreaks import number_text
from .workbook.contract import GM_TABS, PLAYERS, RESULTS
from .workbook.locate import find_column, find_tab, last_paired, require_column
from .workbook.parse import (
    parse_event,
    parse_players,
    parse_settings_tab,
    parse_signups,
    require_players,
)
from .workbook.parse_heats import parse_attendance, parse_heat_tab
from .workbook.parse_playoffs import parse_playoffs
from .workbook.render import (
    copied_tabs,
    heats_append,
    log_tab,
    pairings_tab,
    places_tab,
    plan_tab,
    playoffs_tab,
    qualifiers_tab,
    results_append,
    round_append,
    round_seating_tab,
    seating_tab,
    standings_tab,
    template_tabs,
)

__all__ = [
    "Report",
    "advance",
    "check_pairings",
    "control",
    "copy",
    "login",
    "new",
    "open_backend",
    "pair",
    "plan",
    "playoffs",
    "publish",
    "publish_book",
    "qualify",
    "rating",
    "register",
    "reports",
    "seat",
    "slips",
    "standings",
    "watch",
]


@dataclass(frozen=True, slots=True)
class Report:
    """What a command did, as lines a person reads; ``data`` carries the computed object for callers."""

    lines: tuple[str, ...]
    data: object = None

    def text(self) -> str:
        """The report as printed by the command."""
        return "\n".join(self.lines)


def open_backend(source: str | Backend, *, credentials: str | None = None,
                 notify: Callable[[str], None] | None = None) -> Backend:
    """The backend for ``source``: a Google Sheet (its URL, ``gsheet:KEY`` or a bare key), else a path
    to an .xlsx workbook. Google's libraries are imported only when a sheet is used."""
    if not isinstance(source, str):
        return source
    key = sheet_key(source)
    if key is not None and not Path(source).exists():
        from .backends.gsheets import GoogleSheetsBackend

        return GoogleSheetsBackend(key, credentials=credentials, notify=notify)
    return ExcelBackend(source)


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or dt.datetime.now().replace(microsecond=0)


def checksum(book: Book, typed: Mapping[str, str] | None = None) -> str:
    """A short fingerprint of the GM's tabs as read (the command's input), and of what the GM ``typed``
    elsewhere that the command reads too (the winners in Playoffs), for the Log."""
    blob = json.dumps({"tabs": {k: book.rows(k) for k in GM_TABS}, "typed": typed or {}},
                      default=str, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _finish(backend: Backend, book: Book, *, when: dt.datetime, command: str, written: str, dry_run: bool,
            tabs: Sequence[Tab] = (), appends: Sequence[Append] = (), updates: Sequence[Update] = (),
            new_tabs: Sequence[Tab] = (), typed: Mapping[str, str] | None = None) -> str:
    """A command's ending: its Log row (time, command, the input's checksum, what was written) after its own
    ``tabs``, one write unless ``dry_run``, and the line that says what was (or would be) written."""
    log = log_tab(book, (f"{when:%Y-%m-%d %H:%M:%S}", command, checksum(book, typed), written))
    if not dry_run:
        backend.write(Changes(tool_tabs=(*tabs, log), appends=tuple(appends), new_tabs=tuple(new_tabs),
                              updates=tuple(updates)))
    return ("Dry run, nothing written; would write: " if dry_run else "Written: ") + written + ", Log"


def new(source: str | Backend, *, format: str = "swiss", seed: int | None = None, now: dt.datetime | None = None,
        dry_run: bool = False) -> Report:
    """Create a ready workbook: Settings with defaults and descriptions, Players, Results, the tool's tabs.

    Refuses to overwrite an existing workbook.
    """
    if format not in ("swiss", "heats"):
        raise SheetswissError(f"unknown format {format!r}; known: swiss, heats")
    backend = open_backend(source)
    existing = backend.start_new("sheetswiss new never overwrites a workbook")  # a Google Sheet's tabs are kept
    seed = secrets.randbelow(10**6) if seed is None else seed
    tabs = template_tabs(format, seed)
    kept = [t.name for t in tabs if t.name in existing.tabs]
    entry = (f"{_now(now):%Y-%m-%d %H:%M:%S}", f"new --format {format}", checksum(existing),
             ", ".join(t.name for t in tabs if t.name not in kept))
    tabs = (*tabs[:-1], log_tab(existing, entry))
    if not dry_run:
        backend.write(Changes(new_tabs=tabs[:-1], tool_tabs=tabs[-1:]))
    names = ", ".join(t.name for t in tabs if t.name not in kept)
    if names:
        lines = [f"{'Would create' if dry_run else 'Created'} {backend.label} ({format}): {names}"]
    else:
        lines = [f"{backend.label} has every tab already; nothing was created (the Log has a row for this run)"]
    if kept:
        lines.append(f"Kept as they were: {', '.join(kept)}")
    command = f"pair {backend.label}" if format == "swiss" else f"seat {backend.label} --heat 1"
    lines.append(f"Next: list the players in Players, then run: sheetswiss {command}")
    return Report(tuple(lines))


def pair(source: str | Backend, *, redo: bool = False, explain: bool = False, dry_run: bool = False,
         now: dt.datetime | None = None, progress: Callable[[str], None] | None = None) -> Report:
    """Pair the next round (or, with ``redo``, the last one again while none of its results is in).

    Appends the round's rows to Results and rewrites Pairings; refuses, naming the cells, while
    results of the previous round are missing.
    """
    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    first_row: int | None = None
    clear_through = 0
    if redo:
        event, first_row, clear_through = _undo_last_round(book, event)
        if event.settings.check_in:  # who is present now decides again, the round's rows set aside
            from .checkin import apply_check_in
            from .workbook.parse import parse_present

            event = apply_check_in(replace(event, players=parse_players(book), waiting=()), parse_present(book))
    missing = event.missing_results
    if missing:
        raise SheetswissError(f"{first_few(missing)}: round {event.paired_rounds} has results missing; "
                              f"type them before pairing round {event.paired_rounds + 1}")
    limit = event.settings.rounds
    if limit is not None and event.paired_rounds >= limit:
        raise SheetswissError(f"Settings: all {limit} rounds are paired (setting rounds); raise it to pair more")
    event.check_listed()
    if event.settings.check_in and not any(p.plays_in(event.paired_rounds + 1) for p in event.players):
        raise SheetswissError("Players: check_in is yes and no player is marked in the Present column; mark those "
                              "who have arrived (yes) and run again")
    require_players(event.players)
    state = round_state(event, event.paired_rounds + 1)
    pairing = pair_round(event, state=state, progress=progress)
    problems = check_pairing(event, pairing, state=state)
    if problems:  # a bug, not bad input: never write a broken pairing
        raise RuntimeError("pairing failed its own check: " + "; ".join(problems))
    when = _now(now)
    append = results_append(book, pairing, first_row, clear_through,
                            games_per_round=event.settings.games_per_round)
    last = append.first_row + len(append.rows) - 1
    written = f"Results rows {append.first_row}-{last} (round {pairing.round}), Pairings"
    ending = _finish(backend, book, when=when, command="pair --redo" if redo else "pair", written=written,
                     dry_run=dry_run, tabs=(pairings_tab(event, pairing, when),), appends=(append,))
    lines = _pair_lines(pairing, ending, explain)
    if event.waiting:
        lines = (*lines[:-1], f"Not checked in, not paired ({len(event.waiting)}): "
                 + ", ".join(p.name for p in event.waiting), lines[-1])
    return Report(lines, pairing)


def check_pairings(source: str | Backend, *, dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """``pair --check``: validate the last paired round as the GM edited it in Results (RULES.md 2.14),
    warn about what the pairing rules would have avoided, rewrite Pairings from the rows and log the edit."""
    from .backends.base import column_letter
    from .edited import edited_round, written_pairings

    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book, edited=True)
    columns = {name: column_letter(index + 1) for name in ("Table", "Player A", "Player B", "Result")
               if (index := find_column(book, RESULTS, name)) is not None}
    edited = edited_round(event, written_pairings(book.rows("Pairings"), event.paired_rounds), columns)
    pairing = edited.pairing
    when = _now(now)
    what = (f"{len(edited.changes)} table(s) changed: " + "; ".join(edited.changes)) if edited.changes else \
        "no table changed"
    written = f"Pairings (round {pairing.round} as edited in Results, {what})"
    _finish(backend, book, when=when, command="pair --check", written=written, dry_run=dry_run,
            tabs=(pairings_tab(event, pairing, when),))
    games = [t for t in pairing.tables if t.b is not None]
    lines = [f"Round {pairing.round} as edited in Results: {len(games)} tables"
             + (f", bye: {pairing.bye}" if pairing.bye else "") + "; a valid round"]
    lines.extend(f"Changed: {c}" for c in edited.changes)
    if not edited.changes:
        lines.append("Changed: nothing (the rows are as the round was paired)")
    lines.extend(f"Warning: {w}" for w in edited.warnings)
    lines.append(("Dry run, nothing written; would write: " if dry_run else "Written: ") + "Pairings, Log")
    return Report(tuple(lines), edited)


def _pair_lines(pairing: Pairing, ending: str, explain: bool) -> tuple[str, ...]:
    games = [t for t in pairing.tables if t.b is not None]
    lines = [f"Round {pairing.round}: {len(games)} tables"
             + (f", bye: {pairing.bye}" if pairing.bye else "")
             + ("; no rematches" if not pairing.rematches else "")]
    lines.extend(pairing.notes)
    lines.extend(pairing.remarks)
    if pairing.proof is not None:
        lines.append(_proof_words(pairing.proof))
    lines.extend(f"  {t.number:>3}  {t.a}  v  {t.b}" for t in games[:10])
    if len(games) > 10:
        lines.append(f"  ... {len(games) - 10} more tables in Pairings")
    if explain:
        if pairing.proof is not None:
            lines.append(pairing.proof.text())
        lines.extend(pairing.explanation)
    lines.append(ending)
    return tuple(lines)


def _proof_words(proof: Proof) -> str:
    """The pairing's proof in a GM's words; ``--explain`` adds :meth:`Proof.text`'s technical line."""
    if proof.proven:
        return "Best possible pairing, checked: no other pairing of these players follows the pairing rules better"
    return ("A good pairing, but not checked to be the best possible (pair --explain shows how far from the best "
            "it can be)")


def _undo_last_round(book: Book, event: Event) -> tuple[Event, int, int]:
    """The event without the rows the tool appended for its last round, and where they stood."""
    last = event.paired_rounds
    if last == 0:
        raise SheetswissError("Results: no round is paired yet, so there is nothing to redo")
    rows = [g for g in event.games if g.round == last and g.is_pairing]
    entered = [g.cell for g in rows if g.b is not None and g.result is not None]
    if entered:
        raise SheetswissError(f"{first_few(entered)}: round {last} has results entered; --redo only re-pairs a "
                              "round none of whose results is in")
    first = min(g.row for g in rows)
    after = [g for g in event.games if g.row > first and not (g.round == last and g.is_pairing)]
    if after:
        raise SheetswissError(f"Results!A{after[0].row}: this row follows round {last}'s pairings; --redo "
                              f"replaces only the rows at the end of {RESULTS}, so move it above row {first}")
    kept = tuple(g for g in event.games if not (g.round == last and g.is_pairing))
    return replace(event, games=kept), first, len(book.rows(RESULTS))


def standings(source: str | Backend, *, explain: str | None = None, dry_run: bool = False,
              now: dt.datetime | None = None) -> Report:
    """Rewrite Standings: rank, points, record and the Settings' tiebreaks; print the top.

    With ``explain`` (a player's name) print how that player's tiebreaks were computed and write
    nothing, so it works while the workbook is open elsewhere."""
    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    event.check_listed()
    table = compute_standings(event)
    when = _now(now)
    head = f"Standings after round {table.rounds} ({len(table.rows)} players)"
    partial = [f"  round {table.rounds + 1} is left out until its results are in: "
               f"{first_few(event.missing_results, 4)} empty"] if event.paired_rounds > table.rounds else []
    if explain:
        known = Names(p.name for p in event.players)
        player = known.find(explain)
        if player is None:
            raise SheetswissError(f"--explain: {known.unknown(explain.strip(), 'Players')}")
        return Report((head, *partial, *explain_standing(event, player), "Nothing written (--explain)"), table)
    lines = [head]
    for row in table.rows[:10]:
        rank = f"{row.rank}{'=' if row.shared else ''}"
        lines.append(f"  {rank:>4}  {row.player:<28} {number_text(row.points)}")
    if len(table.rows) > 10:
        lines.append(f"  ... {len(table.rows) - 10} more in the Standings tab")
    lines.extend(partial)
    lines.append(_finish(backend, book, when=when, command="standings", written="Standings", dry_run=dry_run,
                         tabs=(standings_tab(event, table, when),)))
    return Report(tuple(lines), table)




def copy(source: str | Backend, destination: str | Backend, *, dry_run: bool = False) -> Report:
    """Copy every tab's values from one backend to another (an .xlsx to a Google Sheet or back).

    The destination is a new .xlsx file, or a Google Sheet without non-empty tabs of the same names;
    a copy there and back gives the same values. The GM's tabs get their template formats, the tool's
    tabs a header; the next command rewrites the tool's tabs with their full formats anyway.
    """
    origin, target = open_backend(source), open_backend(destination)
    book = origin.read()
    there = target.start_new("copy writes a new workbook")
    clash = [name for name in book.tabs if there.rows(name)]
    if clash:
        raise WorkbookUnavailable(f"{target.label}: already has tabs {', '.join(clash)} with data; "
                                  "copy into an empty sheet or remove them there first")
    tabs = copied_tabs(book)
    if not dry_run:
        target.write(Changes(tool_tabs=tabs))
    rows = sum(len(t.rows) for t in tabs)
    return Report((f"{'Would copy' if dry_run else 'Copied'} {len(tabs)} tabs ({rows} rows) "
                   f"from {origin.label} to {target.label}: {', '.join(t.name for t in tabs)}",))


def login(client_secret: str) -> Report:
    """Sign in with a GM's own Google account (OAuth, spreadsheets scope only) and keep the
    authorised-user credentials in the user's config folder, where every command finds them."""
    from .backends.gsheets import login as google_login

    return Report((f"Signed in; credentials saved to {google_login(client_secret)}",))


def publish(source: str | Backend, out: str | Path, *, now: dt.datetime | None = None,
            ends: dt.time | dt.datetime | None = None) -> Report:
    """Write the phone-friendly page set for players into the folder ``out``: pairings by name with
    table numbers (index.html) and the standings, or for a heat event the latest heat's seating and
    the qualifiers (after the heats: the elimination rounds' tables, and the places once the final is
    scored, RULES.md 5.10-5.11). Each file is replaced atomically.

    The round clock (RULES.md 10.5): ``ends`` (a time today, or a date and time), else the time the round
    was paired (the Log) plus ``round_minutes``, is shown on the pairings page with a countdown."""
    backend = open_backend(source)
    return publish_book(backend.read(), out, now=_now(now), ends=ends)


def round_end(book: Book, round_minutes: int | None, ends: dt.time | dt.datetime | None,
              now: dt.datetime) -> dt.datetime | None:
    """When the current round ends (RULES.md 10.5): ``ends`` (a bare time is today's), else the time of the
    Log's last ``pair`` row plus ``round_minutes``, else ``None`` (no clock)."""
    if isinstance(ends, dt.datetime):
        return ends
    if isinstance(ends, dt.time):
        return dt.datetime.combine(now.date(), ends)
    if round_minutes is None:
        return None
    start = last_paired(book)
    return None if start is None else start + dt.timedelta(minutes=round_minutes)


def publish_book(book: Book, out: str | Path, *, now: dt.datetime, ends: dt.time | dt.datetime | None = None) -> Report:
    """:func:`publish` from a workbook already read (``watch`` reads once and publishes when it changed)."""
    from . import publish as pages_for
    from .feed import event_feed, feed_json

    when = now
    feed: str | None = None
    if parse_settings_tab(book, Problems()).format == "heats":  # problems: read again with the other tabs
        settings, _, games, rounds = _heat_event_rounds(book)
        # after the heats the elimination rounds come first, and the places once the final is scored
        if rounds and rounds[-1].stage == "final" and all(g.has_results for g in rounds if g.stage == "final"):
            from .elimination import final_places

            nav = [("index.html", "Places"), ("rounds.html", pages_for.rounds_title(rounds)),
                   ("qualifiers.html", "Qualifiers")]
            pages = [pages_for.places_page(settings.event_name, final_places(rounds, settings), nav, when),
                     pages_for.rounds_page(settings.event_name, rounds, settings, nav, when, name="rounds.html")]
        elif rounds:
            nav = [("index.html", pages_for.rounds_title(rounds)), ("qualifiers.html", "Qualifiers")]
            pages = [pages_for.rounds_page(settings.event_name, rounds, settings, nav, when)]
        else:
            nav = [("index.html", "Seating"), ("qualifiers.html", "Qualifiers")]
            pages = [pages_for.seating_page(settings.event_name, games, nav, when)]
        pages.append(pages_for.qualifiers_page(settings.event_name, heat_qualify(games, settings), nav, when))
    else:
        event = parse_event(book)
        table = compute_standings(event)
        end = round_end(book, event.settings.round_minutes, ends, when)
        bracket: Bracket | None = None
        sheet = parse_playoffs(book)
        if sheet.seeds:  # the playoff is what players look for now: it becomes the first page
            bracket, _ = typed_bracket(event, sheet)
            nav = [("index.html", "Playoff"), ("pairings.html", "Pairings"), ("standings.html", "Standings")]
            pages = [pages_for.playoffs_page(event.settings.event_name, bracket, nav, when),
                     pages_for.pairings_page(event, nav, when, name="pairings.html")]
        else:
            nav = [("index.html", "Pairings"), ("standings.html", "Standings")]
            pages = [pages_for.pairings_page(event, nav, when, ends=end)]
        pages.append(pages_for.standings_page(event, table, nav, when))
        feed = feed_json(event_feed(event, table, bracket=bracket, ends=end, when=when))
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files = [(page.name, page.html) for page in pages] + ([("event.json", feed)] if feed is not None else [])
    for name, text in files:
        tmp = folder / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(folder / name)
    return Report((f"Published {len(pages)} pages to {folder}: " + ", ".join(p.name for p in pages)
                   + (", and the feed event.json" if feed is not None else ""),
                   f"Open {folder / 'index.html'} or put the folder on any web host."))


def _heat_event(book: Book) -> tuple[Settings, tuple[Player, ...], tuple[HeatGame, ...]]:
    """Settings, Players and Heats, every problem of the three raised at once."""
    settings, players, games, _ = _heat_event_rounds(book, rounds_checked=False)
    return settings, players, games


def _heat_event_rounds(book: Book, *, rounds_checked: bool = True) -> tuple[
        Settings, tuple[Player, ...], tuple[HeatGame, ...], tuple[HeatGame, ...]]:
    """Settings, Players, the heat tables and the elimination rounds' tables, every problem raised at once; the
    rounds' scored tables are checked as heat tables are unless ``rounds_checked`` is false."""
    problems = Problems()
    settings = parse_settings_tab(book, problems)
    if settings.format != "heats" and not problems:
        raise SheetswissError("Settings: format is swiss; seat and qualify are for heat events "
                              "(make one with: sheetswiss new EVENT.xlsx --format heats)")
    players = parse_players(book, problems)
    games: tuple[HeatGame, ...] = ()
    rounds: tuple[HeatGame, ...] = ()
    if settings.format == "heats":
        with problems.collect():
            games, rounds = parse_heat_tab(book, settings, players, problems)
            check_tables(games, rounds if rounds_checked else (), settings, problems)
    problems.raise_any()
    return settings, players, games, rounds


def seat(source: str | Backend, *, heat: int, players: Sequence[str] | None = None, dry_run: bool = False,
         now: dt.datetime | None = None) -> Report:
    """Seat heat ``heat``: split the players present into tables of the allowed sizes, avoiding earlier
    meetings and club-mates where possible; append the rows to Heats and rewrite Seating.

    Who is present: ``players`` when given (names as in Players), else those marked in a ``Heat N``
    column of Players, else every active player.
    """
    backend = open_backend(source)
    book = backend.read()
    settings, everyone, games = _heat_event(book)
    require_players(everyone)
    if any(g.heat == heat for g in games):
        raise SheetswissError(f"Heats: heat {heat} is seated already; delete its rows in Heats to seat it again")
    if players:
        known = Names(p.name for p in everyone)
        unknown = [name.strip() for name in players if known.find(name) is None]
        if unknown:
            raise SheetswissError("--players: " + "; ".join(known.unknown(name, "Players") for name in unknown))
        by_key = {name_key(p.name): p for p in everyone}
        present = tuple(by_key[name_key(name)] for name in players)
    else:
        present = parse_signups(book, heat, everyone) or tuple(p for p in everyone if p.plays_in(heat))
    seating = seat_heat(present, games, settings, heat=heat, everyone=everyone)
    when = _now(now)
    append = heats_append(book, seating)
    written = f"Heats rows {append.first_row}-{append.first_row + len(append.rows) - 1} (heat {heat}), Seating"
    ending = _finish(backend, book, when=when, command=f"seat --heat {heat}", written=written, dry_run=dry_run,
                     tabs=(seating_tab(settings.event_name, seating, when),), appends=(append,))
    sizes = "+".join(str(len(t.players)) for t in seating.tables)
    lines = [f"Heat {heat}: {len(present)} players at {len(seating.tables)} tables ({sizes})"
             + ("; no repeat meetings" if not seating.repeats else f"; {seating.repeats} repeat meeting(s) "
                "could not be avoided")]
    lines.extend(seating.remarks)
    for t in seating.tables:  # what could not be avoided, named where the GM is looking
        lines.extend(f"  table {t.number}: {a} and {b} met in an earlier heat (could not be avoided)"
                     for a, b in t.repeats)
        lines.extend(f"  table {t.number}: {a} and {b} are of one club (could not be avoided)" for a, b in t.same_club)
    lines.extend(f"  table {t.number}: {', '.join(t.players)}" for t in seating.tables)
    lines.append(ending)
    return Report(tuple(lines), seating)


def qualify(source: str | Backend, *, dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """Rank every player from the finished heat games (Latto points, RULES.md 5) and rewrite Qualifiers."""
    backend = open_backend(source)
    book = backend.read()
    settings, _, games = _heat_event(book)
    result = heat_qualify(games, settings)
    when = _now(now)
    ending = _finish(backend, book, when=when, command="qualify", written="Qualifiers", dry_run=dry_run,
                     tabs=(qualifiers_tab(settings.event_name, result, when),))
    finished = len({(g.heat, g.table) for g in games}) - len(result.pending)
    ranking = (f"ranking {result.ranking}" if result.method in ("HMW", "HSW") and "latto" in result.chain
               else "ranked by " + ", ".join(result.chain))
    lines = [f"Qualifiers ({result.method}, {ranking}) from {finished} finished games",
             f"{result.qualifiers} qualify for the {result.round_name}: " + "; ".join(result.size_rules)]
    if result.chain == ("latto",):
        lines.extend(f"  {r.rank:>3}  {r.player:<28} {float(r.points):>10.4f}  {r.status_text}"
                     + (f"  ({r.note})" if r.note else "")
                     for r in result.rows if r.status.value != "out")
    else:
        from .heat_methods import step_text

        for r in result.rows:
            if r.status.value != "out":
                said = ", ".join(t for t in (step_text(s, v) for s, v in zip(result.chain, r.values)) if t)
                lines.append(f"  {r.rank:>3}  {r.player:<28} {said:<44} {r.status_text}"
                             + (f"  ({r.note})" if r.note else ""))
    if result.inversions:
        lines.append(f"{len(result.inversions)} pair(s) where the points contradict the precedence:")
        lines.extend(f"  {inv.text}" for inv in result.inversions)
    lines.append(ending)
    return Report(tuple(lines), result)


def advance(source: str | Backend, *, absent: Sequence[str] = (), dry_run: bool = False,
            now: dt.datetime | None = None) -> Report:
    """Seat the next elimination round of a heat event, or write the places once the final is scored
    (RULES.md 5.10, 5.11).

    The first round is seated from the qualifiers present; each next one from the winners of the round
    before, once every table of it is scored. Who is absent: ``absent`` (names as in Players), and the
    players not marked in a Players column headed with the round's name (``Semifinal``) when it has marks.
    The rows go to Heats with the round's name in Heat; Seating shows the tables.
    """
    from .elimination import check_rounds, final_places, seat_first_round, seat_next_round

    backend = open_backend(source)
    book = backend.read()
    problems = Problems()
    settings = parse_settings_tab(book, problems)
    if settings.format != "heats" and not problems:
        raise SheetswissError("Settings: format is swiss; advance is for heat events")
    everyone = parse_players(book, problems)
    heats: tuple[HeatGame, ...] = ()
    rounds: tuple[HeatGame, ...] = ()
    if settings.format == "heats":
        with problems.collect():
            heats, rounds = parse_heat_tab(book, settings, everyone, problems)
            check_tables(heats, rounds, settings, problems)
    problems.raise_any()
    result = heat_qualify(heats, settings)
    check_rounds(result, rounds, settings)
    known = Names(p.name for p in everyone)
    unknown = [name.strip() for name in absent if known.find(name) is None]
    if unknown:
        raise SheetswissError("--absent: " + "; ".join(known.unknown(name, "Players") for name in unknown))
    away = {found for found in map(known.find, absent) if found is not None}
    when = _now(now)
    if rounds and rounds[-1].stage == "final":
        rows = final_places(rounds, settings)
        report = _places_report(settings, result, heats, rounds)
        ending = _finish(backend, book, when=when, command="advance", written="Places", dry_run=dry_run,
                         tabs=(places_tab(settings.event_name, rows, report, when),))
        lines = ["Final places (" + settings.event_name + ")"]
        lines.extend(f"  {str(r.place) + ('=' if r.tied else ''):>3}  {r.player:<28} {r.how}" for r in rows)
        lines.extend(f"  tied: {r.player} with {', '.join(r.tied)}; the rules cannot split them"
                     for r in rows if r.tied)
        lines.append(ending)
        return Report(tuple(lines), rows)

    def seat(gone: set[str]) -> RoundSeating:
        return seat_next_round(result, rounds, settings, gone) if rounds else seat_first_round(result, settings, gone)

    seating = seat(away)
    marked = parse_attendance(book, seating.stage, everyone)
    if marked is not None:
        seating = seat(away | marked)
    append = round_append(book, seating)
    last = append.first_row + len(append.rows) - 1
    written = f"Heats rows {append.first_row}-{last} ({seating.stage}), Seating"
    ending = _finish(backend, book, when=when, command=f"advance ({seating.stage})", written=written,
                     dry_run=dry_run, tabs=(round_seating_tab(settings.event_name, seating, when),),
                     appends=(append,))
    sizes = "+".join(str(len(t.players)) for t in seating.tables)
    lines = [f"{seating.stage.capitalize()}: {len(seating.players)} players at {len(seating.tables)} "
             f"table{'s' if len(seating.tables) != 1 else ''} ({sizes}), seeds spread across the tables"]
    lines.extend(f"  {r.text}" for r in seating.replacements)
    lines.extend(f"  {note}" for note in seating.notes)
    lines.extend(f"  table {t.number}: " + ", ".join(f"{p} ({s})" for p, s in zip(t.players, t.seeds))
                 for t in seating.tables)
    lines.append(ending)
    after = "the places" if seating.stage == "final" else "the next round"
    lines.append(f"Next: type the {seating.stage} scores in Heats, then run: sheetswiss advance {backend.label} "
                 f"for {after}")
    return Report(tuple(lines), seating)


def _places_report(settings: Settings, result: Qualification, heats: Sequence[HeatGame],
                   rounds: Sequence[HeatGame]) -> list[str]:
    """The lines of the report under the places: event, method, players, heats and the rounds played."""
    played = []
    for stage in dict.fromkeys(g.stage for g in rounds):
        tables = [g for g in rounds if g.stage == stage]
        played.append(f"{stage} {sum(len(g.seats) for g in tables)} at {len(tables)} "
                      f"table{'s' if len(tables) != 1 else ''}")
    return [f"Event: {settings.event_name}",
            f"Method: {result.method} ({result.eligibility} may advance; ranked by {', '.join(result.chain)})",
            f"Players: {result.players}; heats: {len({g.heat for g in heats})}; tables: {len(heats)}",
            f"Advancement: {result.qualifiers} to the {result.round_name} ({'; '.join(result.size_rules)})",
            "Rounds: " + ", ".join(played),
            f"Places: 1 to {settings.plaques} (plaques); after the final's order, the runners-up of the round "
            "before by score as a share of their table winner's, then raw score"]


def playoffs(source: str | Backend, *, dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """Draw or advance the playoff (``playoff`` setting) in the Playoffs tab: the first run seeds the top
    cut from the standings; the GM types each winner in column E and runs it again to advance."""
    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    sheet = parse_playoffs(book)
    bracket, notes, sides = typed_cut(event, sheet)  # every bad Winner and Corp cell in one run
    when = _now(now)
    ending = _finish(backend, book, when=when, command="playoffs", written="Playoffs", dry_run=dry_run,
                     tabs=(playoffs_tab(event.settings.event_name, bracket, when,
                                        None if sides is None else {k: v.text for k, v in sides.items()}),),
                     typed=bracket.winners)
    lines = [f"Playoff ({bracket.system}) of {len(bracket.seeds)}: " + ", ".join(
        f"{i}. {name}" for i, name in enumerate(bracket.seeds, start=1))]
    lines.extend(notes)
    if bracket.champion:
        lines.append(f"Champion: {bracket.champion}")
    else:
        lines.extend(f"  to play: {m.id} ({m.label}) {m.a.text} v {m.b.text}"
                     + (f": {sides[m.id].text}" if sides is not None and m.id in sides else "")
                     for m in bracket.to_play)
    lines.append(ending)
    return Report(tuple(lines), bracket)


def plan(source: str | Backend | None = None, *, players: int | None = None, cut: int | None = None,
         rounds: int | None = None, prizes: Sequence[Fraction] = (), dry_run: bool = False,
         now: dt.datetime | None = None) -> Report:
    """The round plan (RULES.md 7): Magic's table, x-1 safe, the Swiss triangle, prizes by record.

    With ``source`` the players, cut and rounds default to the workbook's, and the plan is written
    to its Plan tab. ``prizes`` are the amounts for x-0, x-1, x-2 ... records.
    """
    from .planning import plan as make_plan
    from .planning import plan_text

    backend = book = event = None
    if source is not None:
        backend = open_backend(source)
        book = backend.read()
        event = parse_event(book)
        players = players or len(event.players)
        cut = top_cut(event) if cut is None else cut
        rounds = rounds or event.settings.rounds
    if players is None:
        raise SheetswissError("plan needs --players N, or an event workbook to count them in")
    planned_rounds = rounds
    if prizes:
        probe = make_plan(players, top_cut=cut if cut is not None else 8, rounds=rounds)
        planned_rounds = probe.rounds
    prize_map = {(planned_rounds or 0) - losses: amount for losses, amount in enumerate(prizes)} if prizes else None
    result = make_plan(players, top_cut=cut if cut is not None else 8, rounds=rounds, prizes=prize_map)
    lines = plan_text(result)
    if backend is not None and book is not None and event is not None:
        when = _now(now)
        lines = [*lines, _finish(backend, book, when=when, command="plan", written="Plan", dry_run=dry_run,
                                 tabs=(plan_tab(event.settings.event_name, lines, when),))]
    return Report(tuple(lines), result)


def rating(sources: Sequence[str | Backend], *, elo: bool = False, into: str | Backend | None = None,
           dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """Ratings across past events: the additive W x V rating of seed 002 (RULES.md 8.1), and with
    ``elo`` an Elo rating from every game (RULES.md 8.3), in the order the events are given.

    ``into`` (an event, implies ``elo``) writes each player's Elo, rounded, into that event's
    Players.Rating where the cell is empty, for round-1 seeding (RULES.md 2.6, 8.3): a rating the GM
    typed is kept, and players without past games are left empty and listed.
    """
    from .rating import Finish, RatedEvent, additive_ratings, elo_ratings, final_places, match_records, rated_games

    events = []
    games = []
    notes: list[str] = []
    first: Settings | None = None
    spelling: dict[str, PlayerId] = {}  # one player across events, in the latest event's spelling (RULES.md 1.6)
    for source in sources:
        backend = open_backend(source)
        book = backend.read()
        event = parse_event(book)
        first = first or event.settings
        spelling.update((name_key(p.name), p.name) for p in event.players)
        table = compute_standings(event)
        match_wins, match_draws = match_records(event, through=table.rounds)
        places = {row.player: row.rank for row in table.rows}
        name = event.settings.event_name or backend.label
        sheet = parse_playoffs(book)
        if sheet.seeds:
            bracket, _ = typed_bracket(event, sheet)
            if bracket.champion is None:
                notes.append(f"{name}: the playoff is not finished, so its places come from the Swiss standings")
            else:
                places = final_places(table, bracket.places())
                for m in bracket.matches:
                    if m.typed and m.winner is not None and m.a.player and m.b.player:
                        match_wins[m.winner] += 1
        finishes = tuple(Finish(player=row.player, place=places[row.player], wins=match_wins[row.player],
                                draws=match_draws[row.player], stayed=not row.dropped) for row in table.rows)
        events.append(RatedEvent(name=name, k=event.settings.rating_k, finishes=finishes))
        games.extend(rated_games(event, through=table.rounds))
    if first is None:
        raise SheetswissError("rating needs at least one event workbook")
    events = [replace(e, finishes=tuple(replace(f, player=spelling[name_key(f.player)]) for f in e.finishes))
              for e in events]
    games = [replace(g, a=spelling[name_key(g.a)], b=spelling[name_key(g.b)]) for g in games]
    points = additive_ratings(events, draw=Fraction(first.rating_draw), drop_bonus=first.rating_drop_bonus)
    lines = [f"W x V rating over {len(events)} event(s): " + ", ".join(e.name for e in events), *notes]
    lines.extend(f"  {i:>4}  {name:<28} {number_text(value, 2):>8}" for i, (name, value) in
                 enumerate(points.items(), start=1))
    if elo or into is not None:
        ratings = elo_ratings(games, k=float(first.elo_k), start=float(first.elo_start))
        lines.append(f"Elo from {len(games)} games (K {number_text(first.elo_k)}, "
                     f"start {number_text(first.elo_start)}):")
        lines.extend(f"  {name:<28} {value:7.0f}" for name, value in
                     sorted(ratings.items(), key=lambda kv: (-kv[1], sort_key(kv[0]))))
        if into is not None:
            lines.extend(_fill_ratings(open_backend(into), ratings, dry_run, _now(now)))
    return Report(tuple(lines), points)


def _fill_ratings(target: Backend, ratings: dict[str, float], dry_run: bool, when: dt.datetime) -> list[str]:
    """Write ``ratings`` into the empty Players.Rating cells of ``target`` (names matched as RULES.md 1.6)."""
    book = target.read()
    players = parse_players(book)
    column = require_column(book, PLAYERS, "Rating") + 1
    by_name = {name_key(name): value for name, value in ratings.items()}
    filled = [(p, round(by_name[name_key(p.name)])) for p in players
              if p.rating is None and name_key(p.name) in by_name]
    kept = [p.name for p in players if p.rating is not None]
    unknown = [p.name for p in players if p.rating is None and name_key(p.name) not in by_name]
    updates = tuple(Update(PLAYERS, p.row, column, value) for p, value in filled)
    verb = "would fill" if dry_run else "filled"
    lines = [f"{target.label}: Players.Rating {verb} for {len(filled)} player(s)"]
    lines.extend(f"  {p.name}: {value}" for p, value in filled)
    if kept:
        lines.append(f"  kept as typed: {len(kept)} player(s) already rated")
    if unknown:
        lines.append(f"  left empty (no past games): {', '.join(unknown)}")
    if updates:
        _finish(target, book, when=when, command="rating --into", written=f"Players.Rating for {len(updates)} "
                "player(s)", dry_run=dry_run, updates=updates)
    return lines


def register(source: str | Backend, *, from_: str | None = None, dry_run: bool = False,
             now: dt.datetime | None = None) -> Report:
    """Bring new registrations into Players (RULES.md 10.1): from the tab the ``registrations`` setting
    names (a Google Form's "Form Responses 1"), another tab, or a CSV file (``from_``).

    Names are matched ignoring case, accents, apostrophes and spaces; a name registered twice, or one
    already in Players, is listed and not added. Answers go under the Players column with the same header;
    the rest are listed. The source is only read. After round 1 is paired, new players get Joined = the
    next round (a late entry, RULES.md 2.9).
    """
    from .backends.csvfile import is_csv, read_csv
    from .registration import Source, plan_registrations

    backend = open_backend(source)
    book = backend.read()
    settings = parse_settings_tab(book)
    wanted = from_ if from_ is not None else settings.registrations
    if is_csv(wanted):
        registrations = Source(Path(wanted).name, read_csv(wanted))
    else:
        tab = find_tab(book, wanted, "--from" if from_ is not None else "Settings: registrations")
        if tab in GM_TABS:
            raise SheetswissError(f"--from: {tab} is one of the event's own tabs; name the form's responses tab "
                                  "or a CSV file")
        registrations = Source(tab, book.rows(tab))
    players = parse_players(book)
    header = book.rows(PLAYERS)[0]
    plan = plan_registrations(registrations, players_header=header, players=[(p.name, p.row) for p in players],
                              name_column=settings.registration_name)
    joined: int | None = None
    if settings.format == "swiss" and plan.added:
        paired = parse_event(book).paired_rounds
        if paired:
            joined = paired + 1
            if find_column(book, PLAYERS, "Joined") is None:
                raise SheetswissError(f"Players!1: round {paired} is paired, so new players are late entries and "
                                      "need a column headed Joined (their first round); add it and run again")
    joined_column = find_column(book, PLAYERS, "Joined")
    name_column = require_column(book, PLAYERS, "Name")
    rows: list[tuple[Value, ...]] = []
    for new_player in plan.added:
        values = dict(new_player.values)
        if joined is not None and joined_column is not None:
            values[joined_column] = joined
        width = max(values) + 1
        rows.append(tuple(values.get(c) for c in range(width)))
    first = len(book.rows(PLAYERS)) + 1
    where = "" if not rows else f"Players row {first}" if len(rows) == 1 else \
        f"Players rows {first}-{first + len(rows) - 1}"
    verb = "would add" if dry_run else "added"
    before = sum(d.same_spelling for d in plan.duplicates)
    listed = [d for d in plan.duplicates if not d.same_spelling]
    lines = [f"Registrations in {registrations.label}: {plan.rows} read, {len(plan.added)} new"
             + (f", {before} already in Players" if before else "")
             + (f", {len(listed)} duplicate(s) not added" if listed else "")
             + (f"; {verb} to {where}" if rows else "")]
    lines.append("  columns: " + ", ".join(plan.mapped))
    lines.extend(f"  new: {p.name}" + (f" ({', '.join(p.answers)})" if p.answers else "") for p in plan.added[:10])
    if len(plan.added) > 10:
        lines.append(f"  ... {len(plan.added) - 10} more new players")
    if joined is not None:
        lines.append(f"  round {joined - 1} is paired: the new players join from round {joined} (Players.Joined)")
    if listed:
        lines.append("Duplicates, not added:")
        lines.extend(f"  {d.text}" for d in listed)
    lines.extend(plan.notes)
    if not rows:
        lines.append("Nothing to add; nothing written")
        return Report(tuple(lines), plan)
    command = "register" + (f" --from {from_}" if from_ is not None else "")
    lines.append(_finish(backend, book, when=_now(now), command=command, written=where, dry_run=dry_run,
                         appends=(Append(PLAYERS, first, tuple(rows), text_columns=(name_column + 1,)),)))
    return Report(tuple(lines), plan)


def reports(source: str | Backend, *, dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """Fill empty Result cells from the results players reported in the Reports tab (RULES.md 10.3): when
    both players' reports agree, or one report under ``reports_needed: 1``. A result the GM typed is never
    changed; conflicts, rounds not paired, reporters not at that table and unreadable reports are listed."""
    from .reports import read_reports, settle
    from .scoring import scale_for

    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    tab = find_tab(book, event.settings.reports, "Settings: reports")
    rows = read_reports(tab, book.rows(tab))
    result = settle(event, rows, needed=int(event.settings.reports_needed),
                    game_based=scale_for(event.settings).game_based)
    column = require_column(book, RESULTS, "Result") + 1
    updates = tuple(Update(RESULTS, f.game.row, column, f.result.spelling()) for f in result.fills)
    verb = "would fill" if dry_run else "filled"
    lines = [f"Reported results in {tab}: {result.read} read; {len(result.fills)} result(s) {verb}, "
             f"{len(result.conflicts)} conflict(s), {len(result.waiting)} waiting for the other player, "
             f"{len(result.problems)} not applied"]
    for title, items in (("Filled" if not dry_run else "Would fill", [f.line for f in result.fills]),
                         ("Conflicts, for the GM", result.conflicts),
                         ("Typed results kept, a report disagrees", result.kept),
                         ("Waiting for the other player's report", result.waiting),
                         ("Not applied", result.problems),
                         ("Reported again", result.replaced)):
        if items:
            lines.append(f"{title}:")
            lines.extend(f"  {item}" for item in items)
    if not updates:
        lines.append("Nothing to fill; nothing written")
        return Report(tuple(lines), result)
    lines.append(_finish(backend, book, when=_now(now), command="reports",
                         written=f"{len(updates)} Result cell(s) in {RESULTS}", dry_run=dry_run, updates=updates))
    return Report(tuple(lines), result)


def slips(source: str | Backend, *, round_: int | None = None, paper: str | None = None, dry_run: bool = False,
          now: dt.datetime | None = None) -> Report:
    """Rewrite the Slips tab: one result slip per table of the current round (or ``round_``), several to a
    printed page with cut lines, for Letter or A4 paper (``paper``, else the setting; RULES.md 10.4)."""
    from typing import cast

    from .workbook.contract import SLIPS
    from .workbook.slips import PER_PAGE, Paper, slips_tab

    backend = open_backend(source)
    book = backend.read()
    event = parse_event(book)
    which = round_ or event.paired_rounds
    if which < 1 or which > event.paired_rounds:
        raise SheetswissError(f"Results: round {which} is not paired" + (
            f" (the last paired round is {event.paired_rounds})" if event.paired_rounds else
            "; pair round 1 first"))
    size = (paper or event.settings.paper).lower()
    if size not in PER_PAGE:
        raise SheetswissError(f"--paper: {paper!r} is not letter or a4")
    when = _now(now)
    tab = slips_tab(event, which, cast(Paper, size), when)
    count = sum(1 for row in tab.rows if row and row[0] == f"Round {which}")
    pages = max(1, -(-count // PER_PAGE[size]))
    ending = _finish(backend, book, when=when, command=f"slips --round {which}", written=SLIPS, dry_run=dry_run,
                     tabs=(tab,))
    lines = [f"Round {which}: {count} slips on {pages} {'A4' if size == 'a4' else 'Letter'} page(s), "
             f"{PER_PAGE[size]} to a page; print the {SLIPS} tab and cut along the dashed lines",
             ending]
    return Report(tuple(lines), tab)


def watch(source: str | Backend, out: str | Path | None = None, *, every: float | None = None,
          ends: dt.time | dt.datetime | None = None, echo: Callable[[str], None] = print,
          polls: int | None = None, sleep: Callable[[float], None] | None = None,
          now: Callable[[], dt.datetime] | None = None,
          failure: Callable[[BaseException], str] | None = None) -> Report:
    """Keep the pages of :func:`publish` current (RULES.md 10.6) and run what the Control tab asks (RULES.md
    10.7): an .xlsx is read again when its modification time changes or a program's lock file comes or goes
    (checked every ``every`` seconds, default 2), a Google Sheet every ``every`` seconds (default 5, at least 5:
    two read requests a look, within Google's read quota); the pages are republished only when a tab changed,
    and a line says which. A bad cell leaves the pages as they were, with a notice, until it is fixed. Without
    ``out`` nothing is published and only requests run. ``failure`` records an unexpected failure of a
    requested command and says where. Stops on Ctrl-C (or after ``polls``)."""
    import time

    from .control import Requests
    from .watch import Watcher

    backend = open_backend(source)
    sheet = backend.remote
    if every is None:
        every = 5.0 if sheet else 2.0
    if every < (5 if sheet else 0.2):
        least = "5 s on a Google Sheet (its read quota is 60 reads a minute)" if sheet else "0.2 s"
        raise SheetswissError(f"--every: {every:g} s is too often; at least {least}")
    if not sheet and not backend.exists():
        backend.read()  # the usual one-line error for a missing or mistyped file
    folder = Path(out) if out is not None else None

    def pages(book: Book, when: dt.datetime) -> Sequence[str]:
        return () if folder is None else publish_book(book, folder, now=when, ends=ends).lines

    clock = now or (lambda: dt.datetime.now().replace(microsecond=0))
    requests = Requests(backend, folder, clock) if failure is None else Requests(backend, folder, clock, failure)
    if sheet:
        how_often = (f"reads the sheet every {every:g} s, 2 requests a read: {120 / every:.0f} a minute, "
                     "within Google's read quota of 60 a minute")
    else:
        how_often = f"looks every {every:g} s; acts on a request once the workbook is saved and closed"
    watcher = Watcher(backend, folder, pages, every, echo, sleep=sleep or time.sleep, handlers=[requests],
                      every_words=how_often)
    watcher.now = clock
    watcher.run(polls)
    return Report(())


def control(source: str | Backend, *, dry_run: bool = False, now: dt.datetime | None = None) -> Report:
    """Add the Control tab to an existing event (``new`` makes it with the other tabs): the request cells, the
    Command drop-down of the commands of the event's format, and the status cells ``watch`` writes."""
    from .workbook.contract import CONTROL
    from .workbook.control_tab import COMMANDS, control_tab, find_control

    backend = open_backend(source)
    book = backend.read()
    if CONTROL in book.tabs:
        find_control(book)  # a tab in the way that is not a Control tab is named
        return Report((f"{backend.label} has a {CONTROL} tab already; nothing was written",))
    find_control(book)  # refuses when another tab looks like the Control tab renamed
    fmt = parse_settings_tab(book).format
    when = _now(now)
    tab = control_tab(fmt)
    lines = [f"{'Would add' if dry_run else 'Added'} the {CONTROL} tab to {backend.label}: choose a command "
             f"({', '.join(COMMANDS[fmt])}), tick Run, and sheetswiss watch runs it"]
    _finish(backend, book, when=when, command="control", written=CONTROL, dry_run=dry_run, new_tabs=(tab,))
    lines.append(f"Next: sheetswiss watch {backend.label}")
    return Report(tuple(lines))
