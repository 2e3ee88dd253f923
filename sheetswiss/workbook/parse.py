"""Tabs -> a validated, immutable :class:`~sheetswiss.model.Event`.

Every problem is reported as one line that starts with its cell, e.g. ``Results!E14: ...``.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import re
import warnings
from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise

from ..backends.base import Book, Uncalculated, Value, column_index, column_letter
from ..checkin import apply_check_in, is_present
from ..errors import BadSetting, BadWorkbook, Problems, SheetswissError, excerpt
from ..model import Event, Game, Player
from ..names import Names, name_key
from ..results import ACCEPTED, Outcome, Result, ResultKind
from ..scoring import Scale, ScaleWarning, scale_for, scale_problems
from ..settings import Settings, parse_number, read_settings
from ..tiebreaks import chain
from .contract import PLAYERS, RESULT_SCORES, RESULTS, SETTINGS

__all__ = [
    "Columns",
    "cell_text",
    "is_blank",
    "missing_tab",
    "parse_event",
    "parse_players",
    "parse_settings_tab",
    "parse_signups",
    "player_name",
    "require_players",
    "whole_number",
]


def is_blank(row: tuple[Value, ...]) -> bool:
    """Whether every cell of ``row`` reads as ``""`` (:func:`cell_text`): empty, or text of spaces only."""
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in row)


def cell_text(value: Value) -> str:
    """A cell's value as the text a GM sees: ``2`` for 2.0, ``yes`` for TRUE, ``""`` for empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


class Columns:
    """Finds a tab's columns by their header (row 1), case-insensitively."""

    def __init__(self, book: Book, tab: str, required: Sequence[str], optional: Sequence[str]) -> None:
        self.tab = tab
        self.book = book
        rows = book.rows(tab)
        if tab not in book.tabs:
            raise missing_tab(book, tab)
        header = [cell_text(v).lower() for v in rows[0]] if rows else []
        self.index: dict[str, int] = {}
        problems = Problems()  # every header missing or doubled, in one run
        for name in (*required, *optional):
            found = [i for i, text in enumerate(header) if text == name.lower()]
            if len(found) > 1:
                cells = ", ".join(f"{tab}!{column_letter(i + 1)}1" for i in found)
                problems.add(BadWorkbook(f"{cells}: {len(found)} columns headed {name!r}; sheetswiss cannot tell "
                                         "which one to read: rename or delete all but one"))
            elif found:
                self.index[name] = found[0]
            elif name in required:
                problems.add(BadWorkbook(f"{tab}!1: no column headed {name!r} in row 1"))
        problems.raise_any()
        self.rows = rows[1:]

    def formula(self, name: str, row: int) -> str | None:
        """The formula in column ``name`` of row ``row``, when the backend says the cell holds one."""
        return self.book.formulas.get(self.tab, {}).get((row, self.index[name] + 1))

    def merged_problems(self) -> list[BadWorkbook]:
        """A problem for each merged range below the header that covers a column read here: only its
        first cell holds a value, so the rows under it would read as empty."""
        read = {i + 1: name for name, i in self.index.items()}
        found = []
        for cells in self.book.merged.get(self.tab, ()):
            first, last = (_REF.fullmatch(end) for end in cells.split(":"))
            if first is None or last is None or int(last[2]) < 2:
                continue
            columns = [read[c] for c in range(column_index(first[1]), column_index(last[1]) + 1) if c in read]
            if columns:
                found.append(BadWorkbook(
                    f"{self.tab}!{cells}: these cells are merged; each row needs its own {' and '.join(columns)} "
                    "cell: unmerge them (only the first cell of merged cells holds a value)"))
        return found

    def ref(self, name: str, row: int) -> str:
        return f"{self.tab}!{self._letters[name]}{row}"

    @functools.cached_property
    def _letters(self) -> dict[str, str]:
        return {name: column_letter(i + 1) for name, i in self.index.items()}

    def get(self, row: tuple[Value, ...], name: str) -> Value:
        i = self.index.get(name)
        return row[i] if i is not None and i < len(row) else None


def missing_tab(book: Book, tab: str) -> BadWorkbook:
    """The error for a tab the workbook lacks, naming the tab that is most likely it: the same name with
    spaces around it or in another case (``'Players '``), else a close spelling (``Player``)."""
    near = [name for name in book.tabs if " ".join(name.split()).lower() == tab.lower()]
    if near:
        what = "spaces around its name" if near[0].strip() != near[0] else "its name in other capitals"
        return BadWorkbook(f"{tab}: the tab is missing, but there is a tab {near[0]!r} ({what}); rename it "
                           f"{tab!r}")
    close = difflib.get_close_matches(tab.lower(), [name.lower() for name in book.tabs], n=1, cutoff=0.75)
    if close:
        name = next(n for n in book.tabs if n.lower() == close[0])
        return BadWorkbook(f"{tab}: the tab is missing; is it the tab {name!r}? rename it {tab!r}")
    return BadWorkbook(f"{tab}: the tab is missing; sheetswiss new makes a workbook with every tab")


_REF = re.compile(r"([A-Z]{1,3})(\d+)")

SPREADSHEET_ERRORS = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
                                "#GETTING_DATA", "#SPILL!", "#CALC!", "#ERROR!"})
"""What Excel, LibreOffice and Google Sheets show when a formula fails, e.g. a name typed as ``=Nia Nord``."""


def player_name(cols: Columns, row: tuple[Value, ...], column: str, r: int) -> str:
    """The player name in ``column`` of ``row`` (row number ``r``); a spreadsheet error value is refused,
    naming the cell, since it is what a name starting with = + - @ becomes when the program read it as
    a formula."""
    value = cols.get(row, column)
    text = cell_text(value)
    if isinstance(value, Uncalculated):
        raise BadWorkbook(f"{cols.ref(column, r)}: the cell holds the formula {text}, never calculated, not a name; "
                          f"if it is a name, retype it with an apostrophe first: '{text}")
    if text.upper() in SPREADSHEET_ERRORS:
        raise BadWorkbook(f"{cols.ref(column, r)}: the cell shows the spreadsheet error {text}, not a name (a name "
                          "starting with = + - @ was read as a formula); retype it with an apostrophe first: '=Name")
    return text


def whole_number(cols: Columns, row: tuple[Value, ...], name: str, r: int, minimum: int) -> int | None:
    value = cols.get(row, name)
    if type(value) is int and value >= minimum:  # most cells: read as the text below would read them
        return value
    text = cell_text(value)
    if not text:
        return None
    try:
        number = Fraction(text)
    except ValueError:
        number = Fraction(-1)
    if number.denominator != 1 or number < minimum:
        raise BadWorkbook(f"{cols.ref(name, r)}: {name} must be a whole number from {minimum}, not {excerpt(text)}")
    return int(number)


def parse_settings_tab(book: Book, problems: Problems | None = None) -> Settings:
    """The Settings tab: the Setting and Value columns, found by their header in row 1 like every GM tab's
    columns, so a column the GM inserts (Notes) moves nothing.

    The scales are checked here, where each setting's row is known (RULES.md 1.4-1.5): under
    ``scale_check: error`` a broken rule is a :class:`BadSetting` naming the cell of the setting
    most to blame, under ``warn`` the same line is a :class:`~sheetswiss.scoring.ScaleWarning`.
    Every problem goes to ``problems`` when given (the setting keeps its default), else all are raised.
    """
    with Problems.into(problems) as found:
        return _settings_tab(book, found)[0]


RESULT_SETTINGS = frozenset({"format", "points", "win_points", "draw_points", "loss_points", "sides", "Settings"})
"""The settings how a Result cell reads depends on: while one of them is not read as typed, Results is not
read (its problems would be those of the wrong settings)."""


def _settings_tab(book: Book, problems: Problems) -> tuple[Settings, frozenset[str]]:
    """:func:`parse_settings_tab` and the keys not read as typed (``Settings`` when the tab itself is unreadable)."""
    try:
        cols = Columns(book, SETTINGS, ["Setting", "Value"], [])
    except SheetswissError as e:
        problems.add(e)
        return Settings(), frozenset({SETTINGS})
    key_column, value_column = (column_letter(cols.index[c] + 1) for c in ("Setting", "Value"))
    triples = []
    for r, row in enumerate(cols.rows, start=2):
        key = cell_text(cols.get(row, "Setting"))
        value = cell_text(cols.get(row, "Value"))
        if not key and value:
            problems.add(BadSetting(f"{cols.ref('Setting', r)}: the value {excerpt(value)} in {value_column}{r} "
                                    "has no setting name beside it"))
        if key and not key.startswith("#"):
            triples.append((r, key, value))
    settings, bad = read_settings(triples, SETTINGS, key_column=key_column, value_column=value_column,
                                  problems=problems)
    for r, key, _ in triples:
        if key.strip().lower() == "tiebreaks":
            try:
                chain(settings)
            except SheetswissError as e:
                problems.add(BadSetting(f"{cols.ref('Value', r)}: {e}"))
                bad |= {"tiebreaks"}
    if settings.scale_check != "off":
        rows = {key.strip().lower().replace(" ", "_"): r for r, key, _ in triples}
        for problem in scale_problems(settings):
            cell = next((cols.ref("Value", rows[k]) for k in problem.keys if k in rows), SETTINGS)
            if settings.scale_check == "error":
                problems.add(BadSetting(f"{cell}: {problem.text}"))
            else:
                warnings.warn(f"{cell}: {problem.text}", ScaleWarning, stacklevel=3)
    return settings, bad


def parse_players(book: Book, problems: Problems | None = None) -> tuple[Player, ...]:
    """The Players tab, one :class:`Player` a row with a name. A bad Rating, Status or Joined cell is a
    problem (to ``problems`` when given, else raised with every other) and the player is kept without it,
    so that Results still knows the name."""
    with Problems.into(problems) as found:
        cols = Columns(book, PLAYERS, ["Name"], ["Rating", "Club", "Status", "Joined", "Table"])
        for problem in cols.merged_problems():
            found.add(problem)
        players: list[Player] = []
        seen: dict[str, tuple[str, int]] = {}  # name_key -> the spelling and row first seen (RULES.md 1.6)
        seated: dict[int, tuple[str, int]] = {}  # fixed table -> the player and row (RULES.md 2.13)
        for r, row in enumerate(cols.rows, start=2):
            if is_blank(row):
                continue
            name = found.attempt(player_name, cols, row, "Name", r)
            if name is None:
                continue
            if not name:
                found.add(BadWorkbook(f"{cols.ref('Name', r)}: this row has data but no player name"))
                continue
            if name_key(name) in seen:
                first, first_row = seen[name_key(name)]
                also = cols.ref("Name", first_row)
                found.add(BadWorkbook(
                    f"{cols.ref('Name', r)}: {excerpt(name)} is listed twice (also {also})" if first == name else
                    f"{cols.ref('Name', r)}: {excerpt(name)} is the same name as {excerpt(first)} in {also} (names "
                    "match ignoring case, accents and apostrophes); list each player once"))
                continue
            seen[name_key(name)] = name, r
            rating_text = cell_text(cols.get(row, "Rating"))
            rating: int | None = None
            if rating_text:
                try:
                    rating = round(float(rating_text))
                except (ValueError, OverflowError):
                    found.add(BadWorkbook(f"{cols.ref('Rating', r)}: rating {excerpt(rating_text)} is not a number"))
            status = cell_text(cols.get(row, "Status")).lower()
            dropped_after: int | None = None
            dropped = False
            if status in ("", "active"):
                pass
            elif status in ("dropped", "drop", "withdrawn"):
                dropped = True
            else:
                after = found.attempt(whole_number, cols, row, "Status", r, 0) if status.isdigit() else None
                if after is None:
                    if not status.isdigit():
                        found.add(BadWorkbook(f"{cols.ref('Status', r)}: status {excerpt(status)} is not active, "
                                              "dropped, or the last round the player plays"))
                else:
                    dropped, dropped_after = True, after
            joined = found.attempt(whole_number, cols, row, "Joined", r, 1) or 1
            table = found.attempt(whole_number, cols, row, "Table", r, 1) if "Table" in cols.index else None
            if table is not None and table in seated:
                other, other_row = seated[table]
                found.add(BadWorkbook(
                    f"{cols.ref('Table', other_row)}, {cols.ref('Table', r)}: {excerpt(other)} and {excerpt(name)} "
                    f"are both fixed to table {table}; one table seats one fixed player: change or clear one"))
                table = None
            elif table is not None:
                seated[table] = name, r
            players.append(Player(name=name, rating=rating, club=cell_text(cols.get(row, "Club")),
                                  dropped=dropped, dropped_after=dropped_after, joined=joined, row=r, table=table))
        return tuple(players)


def _results(book: Book, players: tuple[Player, ...], settings: Settings, problems: Problems,
             edited: bool = False) -> tuple[Game, ...]:
    """The Results rows: each player at most once a round, but under ``sides: double`` (RULES.md 3) a
    match is two rows, one a game, the second with the sides swapped (A v B, then B v A) at the same
    table; a lone game, a third row, or the same sides twice is an error naming the row's cell.

    Each bad cell goes to ``problems`` and reading goes on; a row with a bad Round or player is left out
    of the checks across rows (a bad Result is not: the row still says who played when)."""
    cols = Columns(book, RESULTS, ["Round", "Player A", "Player B", "Result"], ["Table", *SCORE_COLUMNS])
    for problem in cols.merged_problems():
        problems.add(problem)
    known = Names(p.name for p in players)
    scale = scale_for(settings)
    game_based, draws_allowed = scale.game_based, scale.draws_allowed
    typed_points = scale.is_range and not game_based  # a custom range scale's results are the sides' points
    double = settings.sides == "double"
    scored = any(name in cols.index for name in SCORE_COLUMNS)  # else _scores reads None on every row
    games: list[Game] = []
    seen: dict[tuple[int, str], int] = {}
    matches: dict[tuple[int, frozenset[str]], list[Game]] = {}
    faulty: set[tuple[int, str | None]] = set()  # players in a round whose row is reported already
    repeated: list[tuple[Game, BadWorkbook]] = []  # rows naming a player already in their round
    # Most cells read the plain way (a whole number, a name, a result typed before): each is taken at once
    # below, and any other goes through the full reading, which reports it (a row's problems in cell order).
    at = {name: cols.index.get(name, _ABSENT) for name in ("Round", "Table", "Player A", "Player B", "Result")}
    at_round, at_table, at_a, at_b, at_result = at.values()
    has_table = "Table" in cols.index
    read_results: dict[str, Result] = {}  # a Result cell's text -> what it read as, for texts read without fault
    read_names: dict[str, str] = {}  # a player cell's text -> the player, for texts read the plain way
    for r, row in enumerate(cols.rows, start=2):
        width = len(row)
        if not width or (type(row[0]) is not int and is_blank(row)):  # an int cell is never blank
            continue
        value = row[at_round] if at_round < width else None
        round_ = value if type(value) is int and value >= 1 else problems.attempt(_round_number, cols, row, r)
        table = None
        if has_table:
            value = row[at_table] if at_table < width else None
            table = value if value is None or (type(value) is int and value >= 1) else \
                problems.attempt(whole_number, cols, row, "Table", r, 1)
        value = row[at_a] if at_a < width else None
        a = _plain_name(known, value, read_names)
        if a is None:
            a = problems.attempt(_player, cols, known, row, "Player A", r)
        b_read = True
        value = row[at_b] if at_b < width else None
        b = _plain_name(known, value, read_names)
        if b is None and value is not None:
            try:
                b = _player(cols, known, row, "Player B", r)
            except SheetswissError as e:
                problems.add(e)
                b_read = False
        if b is not None and b == a:
            problems.add(BadWorkbook(f"{cols.ref('Player B', r)}: {a!r} cannot play themselves"))
        value = row[at_result] if at_result < width else None
        result = read_results.get(value) if type(value) is str else None
        if result is None and value is not None:
            result = problems.attempt(_result, cols, row, r, game_based)
            if result is not None and type(value) is str:
                read_results[value] = result
        if result is not None:
            bye = result.is_bye
            if b is None and b_read and not bye:
                problems.add(BadWorkbook(
                    f"{cols.ref('Result', r)}: {result.spelling()!r} needs an opponent in {cols.ref('Player B', r)}; "
                    "a row without one takes bye, half bye or zero bye"))
            if b is not None and bye:
                problems.add(BadWorkbook(f"{cols.ref('Result', r)}: {result.spelling()!r} is for a row without an "
                                         "opponent; clear Player B or type the game's result"))
            if not draws_allowed and result.outcome.name == "DRAW" and not bye:
                problems.add(BadWorkbook(f"{cols.ref('Result', r)}: the {settings.points} scale has no draws"))
            if double and result.games is not None and sum(result.games) > 1 and not typed_points:
                problems.add(BadWorkbook(
                    f"{cols.ref('Result', r)}: {result.spelling()!r} is a score of several games; under "
                    "sides: double each row is one game: type 1-0, 0-1 or 1/2"))
        scores = problems.attempt(_scores, cols, row, r, b is None and b_read) if scored else None
        if scale.bands and scores is not None and b is not None:
            result = problems.attempt(_margin_result, cols.ref("Result", r), result, scale, scores)
        if round_ is None or a is None or not b_read or a == b:  # who played when is unknown: no checks across rows
            continue
        game = Game(round=round_, table=table, a=a, b=b, result=result, row=r, cell=cols.ref("Result", r),
                    scores=scores)
        second = False
        if double and b is not None:
            match = matches.setdefault((round_, frozenset((a, b))), [])
            try:
                _check_second_game(cols, game, match)
            except SheetswissError as e:
                problems.add(e)
                faulty.update({(round_, a), (round_, b)})
                continue
            match.append(game)
            second = len(match) == 2
        twice = [name for name in (a, b) if name is not None and (round_, name) in seen and not second]
        for name in twice[:1]:  # one line for the cell where the name was typed again
            repeated.append((game, BadWorkbook(
                f"{cols.ref('Player A' if name == a else 'Player B', r)}: {name!r} is in round {round_} twice "
                f"(also row {seen[round_, name]})"
                + ("; a double-sided match is two rows with the same two players" if double else ""))))
        if twice:
            faulty.update({(round_, a), (round_, b)})
            continue
        for someone in (a, b):
            if someone is not None:
                seen.setdefault((round_, someone), r)
        games.append(game)
    if repeated:  # else the rows are in their order already
        last = max((g.round for g in (*games, *(g for g, _ in repeated)) if g.is_pairing), default=0)
        for game, problem in repeated:
            if edited and game.round == last and not double:
                games.append(game)  # pair --check names the row and who is left out (edited.edited_round)
            else:
                problems.add(problem)
        games.sort(key=lambda g: g.row)
    for (round_, pair), match in matches.items():
        if len(match) == 1 and not any((round_, name) in faulty for name in pair):
            lone = match[0]
            problems.add(BadWorkbook(
                f"{cols.ref('Round', lone.row)}: round {lone.round} has one game of {lone.a} v {lone.b}; under "
                f"sides: double a match is two rows, {lone.a} v {lone.b} and {lone.b} v {lone.a}"))
    written = [g for g in games if g.is_pairing]  # the GM's own bye rows for later rounds may stand anywhere
    descents = [(earlier, g) for earlier, g in pairwise(written) if g.round < earlier.round]
    if len(descents) > 1:  # not one mistyped round number but rows sorted another way (by player, say)
        earlier, game = descents[0]
        problems.add(BadWorkbook(
            f"{cols.ref('Round', game.row)}: the rows are out of order: round {game.round} in row {game.row} comes "
            f"after round {earlier.round} in row {earlier.row} (a round number goes back in {len(descents)} places); "
            "sort Results by Round, then Table, and run again"))
    for before_game, game, after in zip(games, games[1:], games[2:]):  # the tool writes a round's rows together
        if len(descents) > 1:
            break
        if before_game.round == after.round != game.round:
            problems.add(BadWorkbook(
                f"{cols.ref('Round', game.row)}: round {game.round} between two rows of round {before_game.round} "
                f"(rows {before_game.row} and {after.row}); is the round number mistyped?"))
    paired = sorted({g.round for g in written})
    for expected, got in enumerate(paired, start=1):
        if got != expected:
            first = next(g for g in games if g.round == got and g.is_pairing)
            problems.add(BadWorkbook(f"{cols.ref('Round', first.row)}: round {got} follows round {expected - 1}; "
                                     f"round {expected} has no pairings"))
            break
    return tuple(games)


_ABSENT = 1 << 30
"""The place of a column the tab lacks: past the end of every row, so it reads as empty."""


def _round_number(cols: Columns, row: tuple[Value, ...], r: int) -> int:
    """The Round cell of row ``r``: a whole number from 1."""
    number = whole_number(cols, row, "Round", r, 1)
    if number is None:
        raise BadWorkbook(f"{cols.ref('Round', r)}: the round number is missing")
    return number


def _plain_name(known: Names, value: Value, read: dict[str, str]) -> str | None:
    """The player a cell names when it holds plain text naming one, as :func:`_player` reads it; else
    ``None``, and :func:`_player` reads the cell (a bye, an empty cell, a spreadsheet error, a typo).
    ``read``: the texts read so far and their players, taken from there and added to."""
    if type(value) is not str:
        return None
    name = read.get(value)
    if name is None:
        text = value.strip()
        if text[:1] == "#" or text.lower() == "bye" or (name := known.find(text)) is None:
            return None
        read[value] = name
    return name


def _player(cols: Columns, known: Names, row: tuple[Value, ...], col: str, r: int) -> str | None:
    """The player in ``col`` (Player A or Player B) of row ``r``, as Players spells the name; an empty Player B,
    or ``bye``, is ``None``."""
    text = player_name(cols, row, col, r)
    if col == "Player B" and text.lower() in ("", "bye"):
        return None
    name = known.find(text)
    if name is None:
        what = known.unknown(text, "Players") if text else "the player is missing"
        raise BadWorkbook(f"{cols.ref(col, r)}: {what}")
    return name


def _check_second_game(cols: Columns, game: Game, match: list[Game]) -> None:
    """Under ``sides: double``: ``game`` may join ``match`` (the rows of its pair in its round so far) only
    as the second game, with the sides swapped and at the same table (RULES.md 3)."""
    if len(match) >= 2:
        raise BadWorkbook(f"{cols.ref('Round', game.row)}: a third row for {game.a} v {game.b} in round "
                          f"{game.round} (rows {match[0].row} and {match[1].row} are the match's two games); "
                          "delete one")
    if match and match[0].a == game.a:
        raise BadWorkbook(f"{cols.ref('Player A', game.row)}: {game.a!r} plays side 1 against {game.b!r} in round "
                          f"{game.round} twice (also row {match[0].row}); the second game swaps the sides: "
                          f"{game.b} as Player A")
    if match and match[0].table != game.table:
        raise BadWorkbook(f"{cols.ref('Table', game.row)}: table {game.table}, but the first game of "
                          f"{game.b} v {game.a} (row {match[0].row}) is at table {match[0].table}; both games of "
                          "a match share a table")


SCORE_COLUMNS = RESULT_SCORES
"""Optional Results columns: each side's game score, victory points or control points (RULES.md 4.13)."""


def _score(cols: Columns, row: tuple[Value, ...], name: str, r: int) -> Fraction | None:
    """One Score cell: a number from 0, or empty; anything else is one line naming the cell."""
    value = cols.get(row, name)
    text = cell_text(value)
    if not text:
        return None
    number: Fraction | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = Fraction(value).limit_denominator(10**6) if isinstance(value, float) else Fraction(value)
    elif isinstance(value, str):
        try:
            number = parse_number(text)
        except ValueError:
            number = None
    if number is None or number < 0:
        what = "the formula " + excerpt(text) if isinstance(value, Uncalculated) else excerpt(text)
        raise BadWorkbook(f"{cols.ref(name, r)}: cannot read {what} as a score; type a number from 0 (victory "
                          "points, control points), or leave the cell empty")
    return number


def _scores(cols: Columns, row: tuple[Value, ...], r: int, bye: bool) -> tuple[Fraction, Fraction] | None:
    """Score A and Score B of row ``r`` (RULES.md 4.13): both or neither, and none on a bye row."""
    if not any(name in cols.index for name in SCORE_COLUMNS):
        return None
    a, b = (_score(cols, row, name, r) if name in cols.index else None for name in SCORE_COLUMNS)
    if a is None and b is None:
        return None
    typed, empty = ("Score A", "Score B") if a is not None else ("Score B", "Score A")
    if bye:
        raise BadWorkbook(f"{cols.ref(typed, r)}: a row without an opponent has no game score; clear the cell")
    if a is None or b is None:
        if empty not in cols.index:
            raise BadWorkbook(f"{cols.ref(typed, r)}: there is no column headed {empty!r} for the other side's "
                              "score; add one beside it")
        raise BadWorkbook(f"{cols.ref(empty, r)}: {empty} is empty but {typed} ({cols.ref(typed, r)}) is typed; "
                          "type both sides' scores, or neither")
    return a, b


_OUTCOMES = {"W": Outcome.A_WINS, "D": Outcome.DRAW, "L": Outcome.B_WINS}


def _margin_result(ref: str, result: Result | None, scale: Scale, scores: tuple[Fraction, Fraction]) -> Result:
    """On a margin scale (RULES.md 1.7) the scores decide the game: an empty Result reads as the result they
    give; a typed one must agree with them (a forfeit stays a forfeit, scored by its result)."""
    margin = scores[0] - scores[1]
    cls = scale.margin_class(margin)
    given = Result(ResultKind.GAME, _OUTCOMES[cls])
    if result is None:
        return given
    if result.kind is not ResultKind.GAME:
        return result
    if result.games is not None or result.outcome is not given.outcome:
        a, b = scale.margin_points(margin), scale.margin_points(-margin)
        raise BadWorkbook(f"{ref}: {result.spelling()!r}, but the scores {_number(scores[0])}-{_number(scores[1])} "
                          f"give {_number(a)}-{_number(b)} on margin_points ({given.spelling()}); leave the Result "
                          "empty (the scores decide) or correct it")
    return result


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


_DATE_TEXT = re.compile(r"\d{1,4}/\d{1,2}/\d{1,4}|\d{1,2}:\d{2}:\d{2}( [AP]M)?|\d{4}-\d{2}-\d{2}( .*)?")
"""How Google Sheets shows a cell it made a date or time (1/2/2026, 1:00:00 AM, 2026-01-02)."""


def _result(cols: Columns, row: tuple[Value, ...], r: int, game_based: bool) -> Result | None:
    """The Result cell of row ``r``. One that does not read as a result is named for what it is: a formula
    (what ``+/-`` typed without an apostrophe becomes), a spreadsheet error, a date, or unknown text."""
    try:
        return _result_value(cols, row, r, game_based)
    except SheetswissError:
        value = cols.get(row, "Result")
        formula = str(value) if isinstance(value, Uncalculated) else cols.formula("Result", r)
        shown = cell_text(value)
        ref = cols.ref("Result", r)
        retype = "type the result itself, with an apostrophe first when it starts with + - or = ('+/-)"
        if formula:
            showing = "" if isinstance(value, Uncalculated) else f", which shows {excerpt(shown)}"
            raise BadWorkbook(f"{ref}: the cell holds the formula {excerpt(formula)}{showing}, not a result; "
                              f"{retype}") from None
        if shown.upper() in SPREADSHEET_ERRORS:
            raise BadWorkbook(f"{ref}: the cell shows the spreadsheet error {shown}, not a result (a result typed "
                              f"starting with + - or = is read as a formula); {retype}") from None
        raise


def _result_value(cols: Columns, row: tuple[Value, ...], r: int, game_based: bool) -> Result | None:
    value = cols.get(row, "Result")
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        raise BadWorkbook(f"{cols.ref('Result', r)}: the spreadsheet turned the result into a date or time "
                          f"({value}); format the Result column as Text and type it again")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise BadWorkbook(f"{cols.ref('Result', r)}: cannot read {cell_text(value)!r} as a result; accepted: "
                          f"{ACCEPTED}")
    text = cell_text(value)
    if not text:
        return None
    if _DATE_TEXT.fullmatch(text):
        raise BadWorkbook(f"{cols.ref('Result', r)}: the spreadsheet turned the result into a date or time "
                          f"({text}); format the Result column as Text and type it again")
    try:
        return _parsed_result(text, game_based)
    except SheetswissError as e:
        raise BadWorkbook(f"{cols.ref('Result', r)}: {e}") from None


@functools.lru_cache(maxsize=1024)
def _parsed_result(text: str, game_based: bool) -> Result:
    """:meth:`Result.parse`, remembered: a Results tab repeats a few spellings thousands of times (a
    :class:`Result` is immutable, so the rows share one)."""
    return Result.parse(text, game_based=game_based)


def require_players(players: tuple[Player, ...]) -> None:
    """Refuse to pair or seat an event whose Players tab lists nobody, saying so (not "nobody is left")."""
    if not players:
        raise BadWorkbook(f"{PLAYERS}: the tab lists no players yet; type one name a row under Name, "
                          "from row 2, then run again")


def parse_signups(book: Book, heat: int, players: tuple[Player, ...]) -> tuple[Player, ...] | None:
    """The players marked in a ``Heat N`` column of Players (any mark but ``no``), or ``None``
    when Players has no such column."""
    cols = Columns(book, PLAYERS, ["Name"], [f"Heat {heat}"])
    if f"Heat {heat}" not in cols.index:
        return None
    marked = {name_key(cell_text(cols.get(row, "Name"))) for row in cols.rows
              if cell_text(cols.get(row, f"Heat {heat}")).lower() not in ("", "no", "n", "0")}
    return tuple(p for p in players if name_key(p.name) in marked)


def parse_event(book: Book, *, edited: bool = False) -> Event:
    """Settings, Players and Results, validated, as one :class:`Event`; every problem of the three tabs
    is raised at once (:class:`~sheetswiss.errors.ManyProblems` when there are several).

    ``edited`` (``pair --check``, RULES.md 2.14): a player typed in a second row of the last paired round is
    kept, not refused here, so that :func:`sheetswiss.edited.edited_round` names that cell together with
    who the round now leaves out and every other problem of the round, in one run."""
    problems = Problems()
    settings, bad = _settings_tab(book, problems)
    players = parse_players(book, problems)
    games: tuple[Game, ...] = ()
    if not bad & RESULT_SETTINGS:
        with problems.collect():
            games = _results(book, players, settings, problems, edited)
    from .parse_avoid import parse_avoid

    avoid = parse_avoid(book, players, problems)
    present: frozenset[str] = frozenset()
    if settings.check_in:  # a missing Present column is named with the other tabs' problems
        with problems.collect():
            present = parse_present(book)
    problems.raise_any()
    event = Event(settings=settings, players=players, games=games, avoid=avoid)
    return apply_check_in(event, present) if settings.check_in else event


def parse_present(book: Book) -> frozenset[str]:
    """The players marked in Players.Present (``check_in: yes``, RULES.md 10.2); the column is required."""
    cols = Columns(book, PLAYERS, ["Name"], ["Present"])
    if "Present" not in cols.index:
        raise BadWorkbook("Players!1: check_in is yes, so Players needs a column headed Present; mark each player "
                          "who has arrived (yes), or set check_in to no")
    return frozenset(cell_text(cols.get(row, "Name")) for row in cols.rows
                     if is_present(cell_text(cols.get(row, "Present"))))
