"""Model -> tabs: plain values and a backend-neutral format for each tab the tool writes.

Tool-owned tabs carry a title row saying who wrote them and that edits there are overwritten,
a bold frozen header, fitted column widths and number formats. The Qualifiers tab says how a heat event
ranked: HMW or HSW (Heats: Most Wins, Heats: Single Win, RULES.md 5.8) by Latto points, or a method's own chain.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from fractions import Fraction

from ..backends.base import Append, Band, Book, Tab, TabFormat, Value
from ..elimination import PlaceRow, RoundSeating
from ..errors import Problems
from ..heats import Qualification, Status
from ..model import Event, PlayerId
from ..names import sort_key
from ..pairing import Pairing
from ..playoffs import Bracket
from ..scoring import scale_for
from ..seating import Seating
from ..settings import SPECS
from ..standings import Standings
from ..tiebreaks import Kind, Tiebreak
from .contract import (
    AVOID,
    CONTROL,
    GM_TABS,
    HEADERS,
    HEATS,
    LOG,
    PAIRINGS,
    PLACES,
    PLAN,
    PLAYERS,
    PLAYOFF_A,
    PLAYOFF_B,
    PLAYOFF_BRACKET,
    PLAYOFF_COLUMNS,
    PLAYOFF_CORP,
    PLAYOFF_FIRST_ROW,
    PLAYOFF_MATCH,
    PLAYOFF_NOTE,
    PLAYOFF_ROUND,
    PLAYOFF_SEED,
    PLAYOFF_SEEDED,
    PLAYOFF_WINNER,
    PLAYOFFS,
    QUALIFIERS,
    RESULT_SCORES,
    RESULTS,
    SEATING,
    SETTINGS,
    STANDINGS,
    TOOL_NOTE,
)
from .control_tab import control_tab
from .parse import cell_text, parse_settings_tab

__all__ = [
    "HEADER_FILL",
    "append_rows",
    "copied_tabs",
    "heats_append",
    "log_tab",
    "number",
    "pairings_tab",
    "places_tab",
    "plan_tab",
    "playoffs_tab",
    "qualifiers_tab",
    "results_append",
    "round_append",
    "round_seating_tab",
    "seating_tab",
    "standings_tab",
    "template_tabs",
    "tool_tab",
]

HEADER_FILL = "D9E1F2"
CUT_FILL = "E2EFDA"
NOTE_FILL = "FFF2CC"


def number(value: Fraction) -> int | float:
    """A point value as a spreadsheet number: whole numbers as ints, others as floats."""
    return int(value) if value.denominator == 1 else float(value)


def _widths(rows: Sequence[Sequence[Value]], skip: int = 0, minimum: int = 6, maximum: int = 48) -> tuple[int, ...]:
    count = max((len(r) for r in rows), default=0)
    widths = []
    for c in range(count):
        longest = max((len(cell_text(r[c])) for r in rows[skip:] if c < len(r)), default=0)
        widths.append(min(maximum, max(minimum, longest + 2)))
    return tuple(widths)


def tool_tab(name: str, title: str, header: Sequence[str], body: Sequence[Sequence[Value]],
             bands: Sequence[Band] = (), footer: Sequence[str] = ()) -> Tab:
    """A tool-owned tab: title row (with the overwrite note), bold frozen header, body, footer notes."""
    rows: list[tuple[Value, ...]] = [(f"{title} — {TOOL_NOTE}",), tuple(header)]
    rows.extend(tuple(r) for r in body)
    width = max(len(header), 1)
    widths = _widths(rows, skip=1)
    if footer:
        rows.append(())
        rows.extend((line,) for line in footer)
    fmt = TabFormat(
        freeze_rows=2,
        widths=widths,
        landscape=True,
        bands=(
            Band(1, 1, 1, width, fill=NOTE_FILL, italic=True),
            Band(2, 2, 1, width, fill=HEADER_FILL, bold=True, border_below=True),
            *bands,
        ),
    )
    return Tab(name, tuple(rows), fmt)


def template_tabs(fmt: str, seed: int | None = None) -> tuple[Tab, ...]:
    """The tabs of a new workbook (``sheetswiss new``): the GM's tabs with their headers, Settings
    pre-filled with every setting of the format, its default and a description, and the tool's tabs.
    ``seed`` fills the seed setting (the committed template leaves it empty)."""
    settings_rows: list[tuple[Value, ...]] = [HEADERS[SETTINGS]]
    for spec in SPECS:
        if fmt not in spec.formats:
            continue
        value: Value = spec.default
        if spec.key == "format":
            value = fmt
        elif spec.key == "seed":
            value = seed if seed is not None else ""
        settings_rows.append((spec.key, value, spec.help))
    head = Band(1, 1, 1, 3, fill=HEADER_FILL, bold=True, border_below=True)
    settings = Tab(SETTINGS, tuple(settings_rows), TabFormat(
        freeze_rows=1, widths=(22, 16, 90), landscape=True,
        bands=(head, Band(2, len(settings_rows), 3, 3, italic=True)),
        text_columns=(2,)))
    players_header = HEADERS[PLAYERS]
    players = Tab(PLAYERS, (players_header,), TabFormat(
        freeze_rows=1, widths=(28, 8, 18, 10, 8, 30), landscape=True,
        bands=(Band(1, 1, 1, len(players_header), fill=HEADER_FILL, bold=True, border_below=True),),
        text_columns=(1, 3)))
    if fmt == "heats":
        heats_header = HEADERS[HEATS]
        heats = Tab(HEATS, (heats_header,), TabFormat(
            freeze_rows=1, widths=(7, 7, 28, 9, 7),
            bands=(Band(1, 1, 1, len(heats_header), fill=HEADER_FILL, bold=True, border_below=True),)))
        return (
            settings, players, heats,
            tool_tab(SEATING, "Seating", ("Table", "Seat", "Player"), ()),
            tool_tab(QUALIFIERS, "Qualifiers", ("Rank", "Player", "Heats", "Wins", "Won 1st heat", "Seconds",
                                                "Points", "Status", "Note"), ()),
            control_tab(fmt),
            log_tab(Book({}), None),
        )
    results_header = HEADERS[RESULTS]
    results = Tab(RESULTS, (results_header,), TabFormat(
        freeze_rows=1, widths=(8, 8, 28, 28, 10), landscape=True,
        bands=(Band(1, 1, 1, len(results_header), fill=HEADER_FILL, bold=True, border_below=True),),
        text_columns=(5,)))
    avoid_header = HEADERS[AVOID]
    avoid = Tab(AVOID, (avoid_header,), TabFormat(
        freeze_rows=1, widths=(28, 28, 40), landscape=True,
        bands=(Band(1, 1, 1, len(avoid_header), fill=HEADER_FILL, bold=True, border_below=True),),
        text_columns=(1, 2)))
    return (
        settings, players, results, avoid,
        tool_tab(PAIRINGS, "Pairings", ("Table", "Player A", "Points", "Player B", "Points"), ()),
        tool_tab(STANDINGS, "Standings", ("Rank", "Player", "Points"), ()),
        control_tab(fmt),
        log_tab(Book({}), None),
    )


def _label(event: Event) -> str:
    return event.settings.event_name or "sheetswiss event"


def pairings_tab(event: Event, pairing: Pairing, when: dt.datetime) -> Tab:
    """Pairings: the round by table, and beside it the same list by player name with the table.

    Under ``sides: single`` Player A's column reads "Side 1 (Player A)" and the list by name says each
    player's side; under ``colours: alternate`` "White (Player A)" and each player's colour. Under
    ``sides: double`` each table is listed once: Player A plays side 1 in game 1 and Player B in game 2
    (Results has a row for each game), and the list by name says "1, then 2" or "2, then 1".
    """
    labels = event.side_labels
    table_of: dict[PlayerId, tuple[str, str, Value]] = {}
    side_of: dict[PlayerId, Value] = {}
    body: list[list[Value]] = []
    for t in pairing.tables:
        score_a = number(pairing.scores[t.a])
        if t.b is None:
            body.append(["bye", t.a, score_a, "BYE", None])
            table_of[t.a] = ("bye", "BYE", None)
        else:
            body.append([t.number, t.a, score_a, t.b, number(pairing.scores[t.b])])
            table_of[t.a] = (str(t.number), t.b, number(pairing.scores[t.b]))
            table_of[t.b] = (str(t.number), t.a, score_a)
            if labels is not None:
                side_of[t.a], side_of[t.b] = labels.a_side, labels.b_side
    width = 3 if labels is None else 4
    by_name: list[list[Value]] = []
    for name in sorted(table_of, key=sort_key):
        table, opponent, _ = table_of[name]
        row: list[Value] = [name, int(table) if table.isdigit() else table, opponent]
        by_name.append(row if labels is None else [*row, side_of.get(name)])
    for name, reason in sorted(pairing.not_paired, key=lambda x: sort_key(x[0])):
        by_name.append([name, "—", f"not paired ({reason})"] + [None] * (width - 3))
    rows = max(len(body), len(by_name))
    grid: list[list[Value]] = []
    for i in range(rows):
        left = body[i] if i < len(body) else [None] * 5
        right = by_name[i] if i < len(by_name) else [None] * width
        grid.append([*left, None, *right])
    a_head, b_head = ("Player A", "Player B") if labels is None else (labels.a_header, labels.b_header)
    header = ("Table", a_head, "Points", b_head, "Points", "", "Player", "Table", "Opponent",
              *(() if labels is None else (labels.column,)))
    title = f"{_label(event)}: round {pairing.round} pairings, {when:%Y-%m-%d %H:%M}"
    bands = [Band(3, 2 + rows, c, c, bold=c in (1, 8), center=True) for c in (1, 3, 5, 8)] if rows else []
    footer = list(pairing.notes)
    if event.settings.sides == "double":
        footer.append("Each table plays two games: game 1 with Player A on side 1, game 2 with Player B on side 1; "
                      "type each game's result in its own row of Results")
    return tool_tab(PAIRINGS, title, header, grid, bands, footer)


def standings_tab(event: Event, table: Standings, when: dt.datetime) -> Tab:
    """Standings: rank, player, points, record, games, one column per tiebreak, the top cut shaded.

    Under ``sides: double`` the record counts games and is headed "Games W-D-L"."""
    tiebreaks = table.tiebreaks
    record = "Games W-D-L" if event.settings.sides == "double" else "W-D-L"
    header = ("Rank", "Player", "Points", record, "Played", *(tb.title for tb in tiebreaks), "Status", "Cut")
    cut = table.cut
    qualified = set(table.qualified)
    last_in_cut = max((i + 1 for i, row in enumerate(table.rows) if row.player in qualified), default=0)
    body: list[list[Value]] = []
    for row in table.rows:
        making_it = row.player in qualified
        body.append([
            f"{row.rank}=" if row.shared else row.rank, row.player, number(row.points),
            f"{row.wins}-{row.draws}-{row.losses}", row.games,
            *(number(tb.rounded(v)) for tb, v in zip(tiebreaks, row.values, strict=True)),
            "dropped" if row.dropped else "", f"top {cut}" if making_it else ""])
    first = 3
    centred = (1, 3, 4, 5, len(header) - 1, len(header))  # numbers, and Status and Cut apart from the last number
    bands: list[Band] = [Band(first, first + len(body) - 1, c, c, center=True) for c in centred] if body else []
    for c, tb in enumerate(tiebreaks, start=6):
        whole = all(tb.rounded(r.values[c - 6]).denominator == 1 for r in table.rows)
        fmt = "0.0000" if tb.kind is Kind.PERCENT else "0" if whole else "0.0###"
        bands.append(Band(first, first + len(body) - 1, c, c, number_format=fmt))
    if last_in_cut:
        bands.append(Band(first, first + last_in_cut - 1, 1, len(header), fill=CUT_FILL,
                          border_below=True))
    footer = []
    if any(r.shared for r in table.rows):
        footer.append("Ranks marked = are shared: those players are tied after every tiebreak"
                      + ("" if "random" in table.chain else " (add random to the tiebreaks setting to split them)"))
    if last_in_cut and last_in_cut < len(table.rows):
        edge, below = table.rows[last_in_cut - 1], table.rows[last_in_cut]
        if edge.shared and below.shared and edge.rank == below.rank:
            footer.append(f"The top {cut} cut falls inside a tie at rank {edge.rank}=: decide it before the playoff")
    footer.append("Legend:")
    if tiebreaks:
        footer.append("Tiebreaks in order: " + ", ".join(f"{tb.title} ({tb.name})" for tb in tiebreaks))
    footer.extend(standings_legend(event, tiebreaks))
    rounds = f" of {event.settings.rounds}" if event.settings.rounds else ""
    title = f"{_label(event)}: standings after round {table.rounds}{rounds}, {when:%Y-%m-%d %H:%M}"
    return tool_tab(STANDINGS, title, header, body, bands, footer)


def standings_legend(event: Event, tiebreaks: Sequence[Tiebreak]) -> list[str]:
    """What the Standings columns mean, in words: W-D-L with how byes and forfeits count in it (as
    :func:`~sheetswiss.standings.compute_standings` counts them), Played, and each tiebreak's legend."""
    scale = scale_for(event.settings)
    if scale.bye >= scale.win:
        bye = "a win"
    elif scale.draws_allowed and scale.bye >= scale.draw:
        bye = "a draw"
    else:
        bye = "none of them"
    if event.settings.sides == "double":  # lines no wider than the title, so that the page is not shrunk
        lines = ["Games W-D-L: games won, drawn and lost, two a round; a forfeited game counts as won by one player "
                 "and lost by the other",
                 f"In Games W-D-L the pairing bye counts as {bye} in each game of its round, a half bye as two "
                 "draws, and a zero bye or a missed round in none of them"]
    else:
        lines = ["W-D-L: rounds won, drawn and lost; a forfeit counts as a win for one player and a loss for the "
                 "other (both lose a double forfeit)",
                 f"In W-D-L the pairing bye counts as {bye}, a half bye as a draw, and a zero bye or a missed round "
                 "in none of them"]
    lines.append("Played: games played over the board (forfeits and byes are not games played)")
    lines.extend(f"{tb.title}: {tb.legend}" for tb in tiebreaks)
    return lines


def append_rows(book: Book, tab: str, records: Sequence[dict[str, Value]], *, first_row: int | None = None,
                clear_through: int = 0, text: Sequence[str] = ()) -> Append:
    """Rows for a GM tab, each value placed under its header in that tab (so a GM's own column order
    is kept), from ``first_row`` (default: after the last row) on; ``text`` names Text columns."""
    header = [cell_text(v).lower() for v in book.rows(tab)[0]]
    optional = [name for name in RESULT_SCORES if tab == RESULTS and any(name in r for r in records)]  # when given
    columns = {name: header.index(name.lower()) for name in (*HEADERS[tab], *optional) if name.lower() in header}
    width = max(columns.values()) + 1
    rows: list[tuple[Value, ...]] = []
    for record in records:
        row: list[Value] = [None] * width
        for name, value in record.items():
            if name in columns:
                row[columns[name]] = value
        rows.append(tuple(row))
    start = first_row if first_row is not None else len(book.rows(tab)) + 1
    return Append(tab, start, tuple(rows), clear_through,
                  text_columns=tuple(columns[name] + 1 for name in text if name in columns))


def results_append(book: Book, pairing: Pairing, first_row: int | None = None, clear_through: int = 0, *,
                   games_per_round: int = 1) -> Append:
    """The round's rows for Results: Result cells empty (formatted as Text), the bye row says ``bye``.

    Player A is each table's side 1 (White) under ``sides: single`` or ``colours: alternate``: the pairing
    puts that player first (RULES.md 3, 2.10), so the row records the sides the game is played with.
    With ``games_per_round`` 2 (``sides: double``) a table has two rows, one a game: A v B, then B v A
    (each game's Player A plays side 1 in it); the bye keeps one row.
    """
    records: list[dict[str, Value]] = []
    for t in pairing.tables:
        games = [(t.a, t.b)] if t.b is None or games_per_round == 1 else [(t.a, t.b), (t.b, t.a)]
        records.extend({"Round": pairing.round, "Table": t.number, "Player A": a,
                        "Player B": b if b is not None else "BYE", "Result": None if b is not None else "bye"}
                       for a, b in games)
    return append_rows(book, RESULTS, records, first_row=first_row, clear_through=clear_through, text=("Result",))


def heats_append(book: Book, seating: Seating) -> Append:
    """The heat's rows for Heats, one per player per table, Score and Place empty."""
    return append_rows(book, HEATS, [{"Heat": seating.heat, "Table": t.number, "Player": name}
                                     for t in seating.tables for name in t.players])


def seating_tab(event_name: str, seating: Seating, when: dt.datetime) -> Tab:
    """Seating: the heat by table, and beside it every player by name with their table, to print."""
    by_table: list[list[Value]] = [[t.number, seat, name] for t in seating.tables
                                   for seat, name in enumerate(t.players, 1)]
    table_of = {name: t.number for t in seating.tables for name in t.players}
    by_name: list[list[Value]] = [[name, table_of[name]] for name in sorted(table_of, key=sort_key)]
    grid: list[list[Value]] = [[*a, None, *b] for a, b in zip(by_table, by_name, strict=True)]
    firsts = [i for i, row in enumerate(by_table) if row[1] == 1]
    centred = [Band(3, 2 + len(grid), c, c, center=True) for c in (1, 2, 6)] if grid else []  # numbers apart from names
    bands = centred + [Band(3 + i, 3 + i, 1, 3, border_below=False, bold=True) for i in firsts]
    footer = [f"Table {t.number}: {a} and {b} met in an earlier heat" for t in seating.tables for a, b in t.repeats]
    footer += [f"Table {t.number}: {a} and {b} are of one club" for t in seating.tables for a, b in t.same_club]
    if footer:
        footer.insert(0, "Could not be avoided:")
    title = f"{event_name or 'Heats'}: heat {seating.heat} seating, {when:%Y-%m-%d %H:%M}"
    return tool_tab(SEATING, title, ("Table", "Seat", "Player", "", "Player", "Table"), grid, bands, footer)


def round_append(book: Book, seating: RoundSeating) -> Append:
    """An elimination round's rows for Heats: Heat is the round's name (``semifinal``), one row per player
    per table in seat order, Score and Place empty (RULES.md 5.10)."""
    return append_rows(book, HEATS, [{"Heat": seating.stage, "Table": t.number, "Player": name}
                                     for t in seating.tables for name in t.players])


def round_seating_tab(event_name: str, seating: RoundSeating, when: dt.datetime) -> Tab:
    """Seating for an elimination round: each table with its players' seeds (heat ranking), and beside it
    every player by name with their table; below, who replaced whom."""
    by_table: list[list[Value]] = [[t.number, seat, name, seed] for t in seating.tables
                                   for seat, (name, seed) in enumerate(zip(t.players, t.seeds, strict=True), 1)]
    table_of = {name: t.number for t in seating.tables for name in t.players}
    by_name: list[list[Value]] = [[name, table_of[name]] for name in sorted(table_of, key=sort_key)]
    grid: list[list[Value]] = [[*a, None, *b] for a, b in zip(by_table, by_name, strict=True)]
    firsts = [i for i, row in enumerate(by_table) if row[1] == 1]
    bands = [Band(3 + i, 3 + i, 1, 4, bold=True) for i in firsts]
    if by_table:
        bands.append(Band(3, 2 + len(by_table), 4, 4, center=True))
    footer = [r.text for r in seating.replacements] + list(seating.notes)
    footer.append("Seed: the player's place in the heat ranking (Qualifiers); seeds are spread across the tables")
    title = f"{event_name or 'Heats'}: {seating.stage} seating, {when:%Y-%m-%d %H:%M}"
    return tool_tab(SEATING, title, ("Table", "Seat", "Player", "Seed", "", "Player", "Table"), grid, bands, footer)


def places_tab(event_name: str, rows: Sequence[PlaceRow], report: Sequence[str], when: dt.datetime) -> Tab:
    """Places: the report a GM hands in. Place, player and how the place was decided, ties named; below,
    the event's method, players, heats and rounds (RULES.md 5.11). Prints on one landscape page."""
    body: list[list[Value]] = [
        [f"{r.place}=" if r.tied else r.place, r.player,
         r.how + (f"; tied with {', '.join(r.tied)}: the rules cannot split them" if r.tied else "")]
        for r in rows]
    bands = [Band(3, 2 + len(rows), 1, 1, center=True, bold=True)] if rows else []
    title = f"{event_name or 'Heats'}: final places, {when:%Y-%m-%d %H:%M}"
    tab = tool_tab(PLACES, title, ("Place", "Player", "How"), body, bands, report)
    return Tab(tab.name, tab.rows, TabFormat(freeze_rows=2, widths=(8, 28, 80), bands=tab.format.bands,
                                             landscape=True))


ALTERNATE_FILL = "FCE4D6"
TIED_FILL = "FFF2CC"


_SHOWN = {"wins", "win_1st", "seconds", "latto", "dice"}
"""Chain steps the Qualifiers tab already shows in its own columns (the dice roll is no number to read)."""


def qualifiers_tab(event_name: str, result: Qualification, when: dt.datetime) -> Tab:
    """Qualifiers: rank, player, heats, wins, first-heat win, seconds, Latto points, status, then a column
    for each other step of the method's chain, and the note; qualifiers shaded, alternates in another
    shade, a line under the last qualifier; below, the rules that decided the size, ties and inversions."""
    from ..heat_methods import HEAT_TIEBREAKS

    extra = [(i, s) for i, s in enumerate(result.chain) if s not in _SHOWN]
    header = ("Rank", "Player", "Heats", "Wins", "Won 1st heat", "Seconds", "Points", "Status",
              *(HEAT_TIEBREAKS[s].title for _, s in extra), "Note")
    body: list[list[Value]] = [
        [r.rank, r.player, r.heats_played, r.wins, "yes" if r.first_heat_win else "", r.seconds, number(r.points),
         r.status_text, *(_chain_value(s, r.values[i]) if i < len(r.values) else None for i, s in extra), r.note]
        for r in result.rows]
    fills = {Status.QUALIFIED: CUT_FILL, Status.ALTERNATE: ALTERNATE_FILL, Status.TIED: TIED_FILL}
    bands = [Band(3, 2 + len(body), 7, 7, number_format="0.00##")] if body else []
    if body:  # numbers apart from the names and the points apart from the status: centred
        bands.extend(Band(3, 2 + len(body), c, c, center=True) for c in (1, 3, 4, 5, 6, 8))
    if body and extra:
        bands.append(Band(3, 2 + len(body), 9, 8 + len(extra), number_format="0.##", center=True))
    for i, r in enumerate(result.rows):
        if r.status in fills:
            bands.append(Band(3 + i, 3 + i, 1, 8, fill=fills[r.status]))
    last = max((i for i, r in enumerate(result.rows) if r.status is Status.QUALIFIED), default=None)
    if last is not None:
        bands.append(Band(3 + last, 3 + last, 1, len(header), border_below=True))
    footer = [f"{result.qualifiers} qualify for the {result.round_name}: " + "; ".join(result.size_rules),
              f"Method {result.method}: {result.eligibility} may advance; ranked by "
              + ", ".join(HEAT_TIEBREAKS[s].title.lower() for s in result.chain)]
    if result.inversions:
        footer.append(f"{len(result.inversions)} pair(s) where the points contradict the precedence"
                      + (" (ranking: latto; consider ranking: precedence):" if result.ranking == "latto" else ":"))
        footer.extend(inv.text for inv in result.inversions)
    if result.pending:
        footer.append("Tables with no result yet: " + ", ".join(f"heat {h} table {t}" for h, t in result.pending))
    title = (f"{event_name or 'Heats'}: qualifiers, {result.method}, {_ranking_words(result)}, "
             f"top {result.qualifiers} + {result.alternates} alternates, updated {when:%Y-%m-%d %H:%M}")
    return tool_tab(QUALIFIERS, title, header, body, bands, footer)


def _ranking_words(result: Qualification) -> str:
    """``ranking latto`` or ``ranking precedence`` as set, or the chain's first steps for a method's own list."""
    if result.method in ("HMW", "HSW") and "latto" in result.chain:
        return f"ranking {result.ranking}"
    return "ranked by " + ", ".join(result.chain[:3]) + (" ..." if len(result.chain) > 3 else "")


def _chain_value(step: str, value: Fraction) -> Value:
    """A chain value as the GM reads it: average finish as the average (not its negative), yes/no steps as such."""
    if step == "average_finish":
        return None if value <= -1000 else number(-value)
    if step.startswith("win_"):
        return "yes" if value else ""
    if step == "best_share":
        return float(value)
    return number(value)


LOG_HEADER = ("Time", "Command", "Input checksum", "Written")


def log_tab(book: Book, entry: tuple[str, str, str, str] | None) -> Tab:
    """Log: the earlier rows kept, one row added for this run (time, command, checksum, what was written)."""
    old = [tuple(r) for r in book.rows(LOG)[2:] if any(v is not None for v in r)]
    body = [*old, entry] if entry else old
    return tool_tab(LOG, "Log: one row per run", LOG_HEADER, body)


def copied_tabs(book: Book) -> tuple[Tab, ...]:
    """Every tab of ``book`` that has values, as read, for ``copy``: the GM's tabs with their template
    format (Text columns kept Text), any other tab with a frozen bold header."""
    templates = {t.name: t.format for fmt in ("swiss", "heats") for t in template_tabs(fmt)}
    tabs = []
    for name, rows in book.tabs.items():
        if not rows:
            continue
        fmt = templates.get(name)
        if name == CONTROL:  # shared: its drop-down and checkboxes, the commands of the event's format
            fmt = control_tab(parse_settings_tab(book, Problems()).format).format
        elif fmt is None or name not in GM_TABS:
            width = max((len(r) for r in rows), default=1)
            header = 2 if name in templates else 1
            fmt = TabFormat(freeze_rows=header, widths=_widths(rows, skip=header - 1),
                            bands=(Band(header, header, 1, width, bold=True),))
        tabs.append(Tab(name, rows, fmt))
    return tuple(tabs)


_ONE_PAGE_WIDE = 160
"""Characters of column width that still print readably on one landscape page."""


def playoffs_tab(event_name: str, bracket: Bracket, when: dt.datetime,
                 sides: Mapping[str, str] | None = None) -> Tab:
    """Playoffs: one row per match with a Winner cell for the GM, the seeds, and the bracket drawn to the
    right, rounds as columns, each match two cells with a line under it, winners in bold. ``sides`` (a
    Netrunner cut) fills column F with each game's corp player, by match id."""
    rounds = max(m.round for m in bracket.matches)
    columns: tuple[str, ...] = PLAYOFF_COLUMNS
    if sides is not None:
        columns = (*columns[:PLAYOFF_CORP - 1], "Corp (type if chosen)", *columns[PLAYOFF_CORP:])
    header = (*columns, *(f"Round {r}" for r in range(1, rounds + 1)))
    first = PLAYOFF_FIRST_ROW
    grid: dict[tuple[int, int], Value] = {}
    for i, m in enumerate(bracket.matches):
        row = first + i
        grid[row, PLAYOFF_MATCH], grid[row, PLAYOFF_ROUND] = m.id, m.round
        grid[row, PLAYOFF_A], grid[row, PLAYOFF_B] = m.a.text, m.b.text
        grid[row, PLAYOFF_WINNER] = m.winner if m.typed else None
        if m.walkover and not m.typed:
            grid[row, PLAYOFF_NOTE] = "walkover"
        if sides is not None and m.id in sides:
            grid[row, PLAYOFF_CORP] = sides[m.id]
    for i, seed in enumerate(bracket.seeds):
        grid[first + i, PLAYOFF_SEED], grid[first + i, PLAYOFF_SEEDED] = i + 1, seed
    last_match = first - 1 + len(bracket.matches)
    last_row = first - 1 + max(len(bracket.matches), len(bracket.seeds))
    bands = [Band(first, last_match, PLAYOFF_WINNER, PLAYOFF_WINNER, fill=NOTE_FILL),
             *([Band(first, last_match, PLAYOFF_CORP, PLAYOFF_CORP, fill=NOTE_FILL)] if sides else []),
             Band(first, last_row, PLAYOFF_ROUND, PLAYOFF_ROUND, center=True),
             Band(first, last_row, PLAYOFF_SEED, PLAYOFF_SEED, center=True)]
    depth: dict[int, int] = {}
    for m in bracket.matches:
        column = PLAYOFF_BRACKET + m.round - 1
        top = first + 3 * depth.get(m.round, 0)
        depth[m.round] = depth.get(m.round, 0) + 1
        grid[top, column] = f"{m.id}: {m.a.text}"
        grid[top + 1, column] = f"v {m.b.text}" + (f"  → {m.winner}" if m.winner else "")
        bands.append(Band(top, top + 1, column, column, fill=HEADER_FILL if m.winner else CUT_FILL,
                          border_below=True, bold=m.winner is not None))
    height = max(r for r, _ in grid)
    body = [[grid.get((r, c)) for c in range(1, len(header) + 1)] for r in range(first, height + 1)]
    footer = []
    if bracket.champion:
        footer.append(f"Champion: {bracket.champion}")
    elif bracket.to_play:
        footer.append("To play now: " + ", ".join(f"{m.id} {m.a.text} v {m.b.text}" for m in bracket.to_play))
    if any(m.section for m in bracket.matches):
        footer.append("W: winners' bracket, L: losers' bracket (W1-2: winners' round 1, match 2), GF: grand final")
    footer.append("Type each winner's name in column E and run sheetswiss playoffs again to advance.")
    if sides is not None:
        footer.append("Column F: who plays the corp. Where the higher seed chooses, type the corp player's name there.")
    title = f"{event_name or 'Playoffs'}: {bracket.system} playoff, {when:%Y-%m-%d %H:%M}"
    tab = tool_tab(PLAYOFFS, title, header, body, bands, footer)
    widths = list(tab.format.widths)
    for c in range(PLAYOFF_BRACKET - 1, len(widths)):
        widths[c] = max(widths[c], 16)
    typed = (PLAYOFF_WINNER, PLAYOFF_CORP) if sides is not None else (PLAYOFF_WINNER,)
    return Tab(tab.name, tab.rows, TabFormat(freeze_rows=tab.format.freeze_rows, widths=tuple(widths),
                                             bands=tab.format.bands, landscape=True, text_columns=typed,
                                             pages_wide=1 if sum(widths) <= _ONE_PAGE_WIDE else 2))


def plan_tab(event_name: str, lines: Sequence[str], when: dt.datetime) -> Tab:
    """Plan: the round plan as ``plan`` prints it, its tables split into cells."""
    body: list[list[Value]] = []
    for line in lines:
        if " | " in line:
            cells: list[Value] = [part.strip() for part in line.split(" | ")]
            body.append([float(c) if isinstance(c, str) and _is_number(c) else c for c in cells])
        else:
            body.append([line])
    title = f"{event_name or 'Plan'}: round plan, {when:%Y-%m-%d %H:%M}"
    tab = tool_tab(PLAN, title, ("Plan",), body)
    columns = max((len(r) for r in body), default=1)
    centred = (Band(3, 2 + len(body), 2, columns, center=True),) if columns > 1 else ()
    return Tab(tab.name, tab.rows, TabFormat(freeze_rows=2, widths=(14, *([9] * 20)),
                                             bands=(*tab.format.bands, *centred), landscape=True))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
