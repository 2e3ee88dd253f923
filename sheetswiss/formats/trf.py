"""FIDE's Tournament Report File (TRF-16, with the TRF-26 records 142, 162 and 202): write an event, read one.

A TRF is fixed-column text (FIDE Handbook C.04 Annex 2, TRF16; TRF26 adds the tournament records
142 rounds, 162 scoring system, 202 tie-breaks, and ``###`` comment lines). Each player is one ``001``
record: starting rank (columns 5-8), name (15-47), rating (49-52), points (81-84), rank (86-89), then
ten columns a round from column 92: the opponent's starting rank (``0000`` for none), the colour
(``w``, ``b``, ``-``) and the result code (RULES.md 11.1; ``U`` is a PAB, a pairing-allocated bye).

:func:`write` turns an event into TRF text; :func:`read` parses TRF text, reporting an unreadable
record as one line naming its line and column; :func:`workbook_rows` turns a parsed file into the
Settings values, Players rows and Results rows of a workbook. Neither opens a file.

>>> ana = "001    1      Ana".ljust(48) + "1800".ljust(32) + " 1.0    1     2 w 1"
>>> bo = "001    2      Bo".ljust(80) + " 0.0    2     1 b 0"
>>> text = NEWLINE.join(["012 Club Cup", ana, bo])
>>> t = read(text, "cup.trf")
>>> [(p.number, p.name, p.rating, p.points) for p in t.players]
[(1, 'Ana', 1800, Fraction(1, 1)), (2, 'Bo', None, Fraction(0, 1))]
>>> workbook_rows(t).results
((1, 1, 'Ana', 'Bo', '1-0'),)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import final

from ..errors import Problems, SheetswissError, excerpt
from ..history import RoundKind, RoundRecord, history
from ..model import Event, PlayerId
from ..scoring import scale_for
from ..standings import Standings
from ..tiebreaks import number_text

__all__ = ["FIDE_CODES", "Imported", "TrfFile", "TrfPlayer", "TrfRound", "read", "workbook_rows", "write"]

NEWLINE = "\r\n"
"""TRF lines end with a carriage return (TRF16 remark 1); the line feed after it keeps the file readable."""

FIDE_CODES: dict[str, str] = {
    "buchholz": "BH", "buchholz_cut1": "BH/C1", "buchholz_cut2": "BH/C2", "median_buchholz": "BH/M1",
    "sonneborn_berger": "SB", "direct_encounter": "DE", "wins": "WIN", "wins_otb": "WON", "black_games": "BPG",
    "black_wins": "BWG", "progress": "PS",
}
"""sheetswiss tiebreaks and their FIDE C.07 codes, as record 202 lists them (TRF26)."""

_GAME_CODES = frozenset("1=0WDL+-")
_CODES = "1 = 0 + - W D L H F U Z, or blank"
_PAIRED = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+-"}
"""For each game code, the codes the opponent's line may hold (a double forfeit is - on both lines)."""


@final
@dataclass(frozen=True, slots=True)
class TrfRound:
    """One round of one ``001`` record."""

    opponent: int | None
    """The opponent's starting rank; ``None`` for ``0000`` or blank."""
    colour: str
    """``w``, ``b``, or ``""`` (``-`` or blank: no colour)."""
    code: str
    """The result code, upper case (``1``, ``=``, ``0``, ``+``, ``-``, ``W``, ``D``, ``L``, ``H``, ``F``, ``U``,
    ``Z``), or ``""`` for blank (not paired, which TRF16 reads as ``Z``)."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class TrfPlayer:
    """One ``001`` record."""

    number: int
    """Starting rank (columns 5-8)."""
    name: str
    rating: int | None
    points: Fraction | None
    rank: int | None
    rounds: tuple[TrfRound, ...]
    """Round 1 first, trailing blank rounds dropped."""
    line: int
    """Its line in the file, for messages."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class TrfFile:
    """What sheetswiss reads from a TRF."""

    name: str = ""
    rounds: int | None = None
    """Record 142 (or ``XXR``): the rounds planned."""
    scoring: Mapping[str, Fraction] = field(default_factory=dict)
    """Record 162 (or bbpPairings' ``BBW``/``BBD``/``BBL``/``BBU``): points by code ``W``, ``D``, ``L``, ``P``."""
    tiebreaks: tuple[str, ...] = ()
    """Record 202: the FIDE tie-break codes, in order."""
    players: tuple[TrfPlayer, ...] = ()
    settings: tuple[tuple[str, str], ...] = ()
    """``### sheetswiss setting KEY: VALUE`` comments: the exporting workbook's Settings."""
    extras: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    """``### sheetswiss player NNNN KEY: VALUE`` comments: Players columns a TRF has no field for."""
    from_sheetswiss: bool = False
    """The file says ``### sheetswiss export``: its comments are the whole truth about drops and entries."""


# --- Writing -------------------------------------------------------------------------------------------


def _points(value: Fraction, what: str) -> str:
    """``value`` as TRF's ``11.5``: one decimal, at most 99.9."""
    if (value * 10).denominator != 1 or not 0 <= value <= Fraction(999, 10):
        raise SheetswissError(f"{what}: {number_text(value)} points do not fit a TRF's points field (0.0 to 99.9)")
    return f"{float(value):4.1f}"


def _round_entry(rec: RoundRecord | None, number: Mapping[PlayerId, int]) -> str:
    """The ten columns of one round (the last two blank): ``  12 w 1  ``."""
    if rec is None or rec.kind is RoundKind.ABSENT or (rec.kind is RoundKind.LATE and not rec.points):
        return " " * 10
    if rec.opponent is not None:
        colour = "w" if rec.side in (1, None) else "b"
        code = {RoundKind.FORFEIT_WIN: "+", RoundKind.FORFEIT_LOSS: "-"}.get(
            rec.kind, {"W": "1", "D": "=", "L": "0"}[rec.outcome])
        return f"{number[rec.opponent]:4d} {colour} {code}  "
    code = {RoundKind.PAB: "U", RoundKind.HALF_BYE: "H", RoundKind.ZERO_BYE: "Z", RoundKind.LATE: "H"}[rec.kind]
    return f"0000 - {code}  "


def _refuse_unwritable(event: Event) -> None:
    settings = event.settings
    scale = scale_for(settings)
    if settings.sides == "double":
        raise SheetswissError("Settings: sides is double; a TRF holds one game a player a round, so it cannot "
                              "hold a double-sided match (export --format nrtm or csv instead)")
    if scale.is_range or scale.game_based:
        raise SheetswissError(f"Settings: points is {settings.points}, whose results are game scores; a TRF holds "
                              "one result a game (win, draw, loss), so export --format csv instead")
    if scale.loss != 0:
        raise SheetswissError("Settings: loss_points is not 0; a TRF scores a forfeit loss and an absence alike, "
                              "so it cannot tell them apart from a loss")


def write(event: Event, table: Standings, *, settings_text: Sequence[tuple[str, str]] = (),
          round_dates: Mapping[int, dt.date] | None = None) -> str:
    """The event through ``table.rounds`` (the completed rounds) as TRF text (RULES.md 11.1).

    Starting ranks follow the Players tab; points and ranks are ``table``'s. ``settings_text`` (Settings
    keys and values as typed) and the Players columns a TRF has no field for (Club, Status, Joined)
    are kept in ``### sheetswiss`` comment lines, which other programs skip and :func:`read` reads
    back, so an export imported again is the same event. Raises :class:`SheetswissError` for an event
    a TRF cannot hold (two games a round, game scores, a name longer than 33 characters).
    """
    _refuse_unwritable(event)
    settings = event.settings
    scale = scale_for(settings)
    number = {p.name: i for i, p in enumerate(event.players, start=1)}
    records = history(event, through=table.rounds)
    rows = {row.player: row for row in table.rows}
    played = table.rounds
    planned = settings.rounds if settings.rounds is not None and settings.rounds >= played else played + 1
    lines = [f"012 {settings.event_name}",
             f"062 {len(event.players)}",
             f"072 {sum(1 for p in event.players if p.rating)}",
             "092 Individual: Swiss-System"]
    if round_dates:
        cells = "".join(f"{round_dates[r]:%y/%m/%d}  " if r in round_dates else " " * 10 for r in range(1, played + 1))
        lines.append(f"{'132':<91}{cells}".rstrip())
    lines += [f"142 {planned}", f"XXR {planned}"]
    if (scale.win, scale.draw, scale.loss, scale.bye) != (Fraction(1), Fraction(1, 2), Fraction(0), Fraction(1)):
        values = (("W", scale.win), ("D", scale.draw), ("L", scale.loss), ("P", scale.bye))
        lines.append("162  " + "    ".join(f"{code}{_points(v, 'Settings: points')}" for code, v in values))
    from ..tiebreaks import chain

    codes = [FIDE_CODES.get(name) for name in chain(settings)]
    if codes and all(codes):
        lines.append("202 " + ",".join(c for c in codes if c))
    lines.append("### sheetswiss export")
    lines += [f"### sheetswiss setting {key}: {value}" for key, value in settings_text]
    problems = Problems()  # every name too long, in one run
    for p in event.players:
        if len(p.name) > 33:
            problems.add(SheetswissError(f"Players!A{p.row}: {excerpt(p.name)} is longer than the 33 characters a "
                                         "TRF name holds"))
    problems.raise_any()
    for p in event.players:
        extras = {"club": p.club, "status": ("" if not p.dropped else
                                             str(p.dropped_after) if p.dropped_after is not None else "dropped"),
                  "joined": str(p.joined) if p.joined > 1 else ""}
        lines += [f"### sheetswiss player {number[p.name]:04d} {k}: {v}" for k, v in extras.items() if v]
    for p in event.players:
        row = rows[p.name]
        by_round = {r.round: r for r in records[p.name]}
        rating = f"{p.rating:4d}" if p.rating is not None and 0 < p.rating <= 9999 else "    "
        head = (f"001 {number[p.name]:4d} {' ':1}{'':>3} {p.name:<33} {rating} {'':3} {'':>11} {'':10} "
                f"{_points(row.points, f'Players!A{p.row}')} {row.rank:4d}  ")
        body = "".join(_round_entry(by_round.get(r), number) for r in range(1, played + 1))
        lines.append((head + body).rstrip())
    return NEWLINE.join(lines) + NEWLINE


# --- Reading -------------------------------------------------------------------------------------------


class _Reader:
    """Reads one file's lines; each problem is ``file:line:column: ...``, gathered in :attr:`problems`."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems = Problems()

    def fail(self, line: int, column: int, message: str) -> SheetswissError:
        return SheetswissError(f"{self.source}:{line}:{column}: {message}")

    def number(self, text: str, line: int, column: int, what: str) -> int | None:
        field_ = text.strip()
        if not field_:
            return None
        if not field_.isdigit():
            raise self.fail(line, column, f"cannot read {field_!r} as {what}; a whole number is expected")
        return int(field_)

    def points(self, text: str, line: int, column: int) -> Fraction | None:
        field_ = text.strip()
        if not field_:
            return None
        if not re.fullmatch(r"\d+(?:[.,]\d)?", field_):
            raise self.fail(line, column, f"cannot read {field_!r} as points; the format is 11.5")
        return Fraction(field_.replace(",", "."))

    def player(self, text: str, line: int) -> TrfPlayer:
        if len(text) < 8:
            raise self.fail(line, 5, "a 001 record needs its starting rank in columns 5-8")
        number = self.number(text[4:8], line, 5, "a starting rank")
        if not number:
            raise self.fail(line, 5, "a 001 record needs its starting rank (1 to 9999) in columns 5-8")
        rating = self.problems.attempt(self.number, text[48:52], line, 49, "a rating")
        points = self.problems.attempt(self.points, text[80:84], line, 81)
        rank = self.problems.attempt(self.number, text[85:89], line, 86, "a rank")
        rounds: list[TrfRound] = []
        for start in range(91, len(text), 10):
            rounds.append(self.problems.attempt(self._round, text[start:start + 8].ljust(8), line, start, number)
                          or TrfRound(None, "", ""))  # a bad entry: the file is refused, every problem named
        while rounds and rounds[-1] == TrfRound(None, "", ""):
            rounds.pop()
        return TrfPlayer(number=number, name=text[14:47].strip(), rating=rating, points=points, rank=rank,
                         rounds=tuple(rounds), line=line)

    def _round(self, entry: str, line: int, start: int, number: int) -> TrfRound:
        """One round's entry of a 001 record (columns ``start + 1`` to ``start + 8``)."""
        opponent = self.number(entry[0:4], line, start + 1, "an opponent's starting rank")
        colour = entry[5].lower()
        if colour not in "wb- ":
            raise self.fail(line, start + 6, f"cannot read {entry[5]!r} as a colour; w, b, - or blank")
        code = entry[7].upper()
        if code not in "1=0+-WDLHFUZ ":
            raise self.fail(line, start + 8, f"cannot read {entry[7]!r} as a result; TRF results: {_CODES}")
        if opponent == number:
            raise self.fail(line, start + 1, f"player {number} is paired with themself")
        if opponent and code in "HFUZ ":
            raise self.fail(line, start + 8, f"result {code.strip() or 'blank'!r} is a bye or an absence, "
                                              f"but an opponent ({opponent}) is given")
        return TrfRound(opponent or None, colour.strip("- "), code.strip())


_SETTING = re.compile(r"### sheetswiss setting ([a-z0-9_]+): (.*)")
_EXTRA = re.compile(r"### sheetswiss player (\d{4}) ([a-z]+): (.*)")


def read(text: str, source: str) -> TrfFile:
    """Parse TRF text; ``source`` names the file in messages (``in.trf:7:92: cannot read 'x' as a result``).

    Reads the 001 records, the tournament name (012), the rounds (142, or ``XXR``), the scoring
    system (162, or bbpPairings' ``BBW``/``BBD``/``BBL``/``BBU``), the tie-breaks (202) and sheetswiss's
    own comments; other records are skipped, as TRF readers do. Checks that every opponent exists and
    that both lines of a game agree. Every unreadable field of the file is reported in one run; the checks
    across lines follow once every line reads.
    """
    reader = _Reader(source)
    players: list[TrfPlayer] = []
    name, rounds = "", None
    scoring: dict[str, Fraction] = {}
    tiebreaks: tuple[str, ...] = ()
    settings: list[tuple[str, str]] = []
    extras: dict[int, dict[str, str]] = {}
    marked = False
    found = reader.problems
    for n, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.rstrip()
        tag = line[:3]
        if tag == "001":
            with found.collect():
                players.append(reader.player(line, n))
        elif tag == "012":
            name = line[4:].strip()
        elif tag in ("142", "XXR"):
            rounds = found.attempt(reader.number, line[3:], n, 5, "a number of rounds")
        elif tag == "162":
            for start in range(5, len(line), 9):
                with found.collect():
                    code = line[start]
                    value = reader.points(line[start + 1:start + 5], n, start + 2)
                    if code not in "WDLAPX" or value is None:
                        raise reader.fail(n, start + 1, f"cannot read {line[start:start + 5]!r} as a scoring code "
                                                        "and its points, e.g. W 1.0")
                    scoring[code] = value
        elif tag in ("BBW", "BBD", "BBL", "BBU"):
            value = found.attempt(reader.points, line[3:].strip(), n, 5)
            if value is not None:
                scoring["P" if tag == "BBU" else tag[2]] = value
        elif tag == "202":
            tiebreaks = tuple(c.strip().upper() for c in line[4:].replace(" ", ",").split(",") if c.strip())
        elif line == "### sheetswiss export":
            marked = True
        elif (m := _SETTING.fullmatch(line)) is not None:
            settings.append((m[1], m[2].strip()))
        elif (m := _EXTRA.fullmatch(line)) is not None:
            extras.setdefault(int(m[1]), {})[m[2]] = m[3].strip()
    trf = TrfFile(name=name, rounds=rounds, scoring=scoring, tiebreaks=tiebreaks, players=tuple(players),
                  settings=tuple(settings), extras=extras, from_sheetswiss=marked)
    found.raise_any()
    _check(trf, reader)
    found.raise_any()
    return trf


def _check(trf: TrfFile, reader: _Reader) -> None:
    """Every opponent is a player and both lines of a game agree (opponent, result, colours); each problem
    goes to ``reader.problems``."""
    by_number: dict[int, TrfPlayer] = {}
    for p in trf.players:
        if p.number in by_number:
            reader.problems.add(reader.fail(p.line, 5, f"starting rank {p.number} is also on line "
                                                       f"{by_number[p.number].line}"))
            continue
        by_number[p.number] = p
    blamed: set[tuple[int, int]] = set()  # (line, round) already named: its game's other line is not named too
    for p in trf.players:
        for r, entry in enumerate(p.rounds, start=1):
            before = len(reader.problems)
            with reader.problems.collect():
                _check_entry(p, r, entry, by_number, reader, blamed)
            if len(reader.problems) > before:
                blamed.add((p.line, r))


def _check_entry(p: TrfPlayer, r: int, entry: TrfRound, by_number: dict[int, TrfPlayer], reader: _Reader,
                 blamed: set[tuple[int, int]]) -> None:
    """Round ``r`` of player ``p``: a game's result, an opponent who exists and whose line agrees (unless the
    opponent's line for that round is in ``blamed``: its problem names this disagreement already)."""
    column = 92 + 10 * (r - 1)
    if entry.opponent is None:
        return
    if entry.code not in _GAME_CODES:
        raise reader.fail(p.line, column + 7, f"round {r}: {entry.code or 'blank'!r} is no result for a game "
                                              f"against {entry.opponent}; TRF results: {_CODES}")
    other = by_number.get(entry.opponent)
    if other is None:
        raise reader.fail(p.line, column, f"round {r}: opponent {entry.opponent} has no 001 record")
    back = other.rounds[r - 1] if len(other.rounds) >= r else TrfRound(None, "", "")
    if (other.line, r) in blamed:
        return
    if back.opponent != p.number or back.code not in _PAIRED[entry.code] or (
            entry.colour and back.colour == entry.colour):
        raise reader.fail(p.line, column, f"round {r}: player {p.number} v {other.number} "
                                          f"({entry.colour or '-'} {entry.code}) disagrees with line "
                                          f"{other.line} ({back.opponent or '0000'} {back.colour or '-'} "
                                          f"{back.code or 'blank'})")


# --- Into a workbook -------------------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Imported:
    """A TRF as workbook rows: what ``import`` writes."""

    settings: tuple[tuple[str, str], ...]
    """Settings keys and values to type (a new workbook only)."""
    players: tuple[tuple[str, int | None, str, str | int, int | None], ...]
    """Name, Rating, Club, Status (a round number as a number), Joined, in starting-rank order."""
    results: tuple[tuple[int, int | None, str, str, str], ...]
    """Round, Table, Player A, Player B (``BYE`` for a bye), Result."""
    notes: tuple[str, ...] = ()
    """What the GM should know: codes read approximately, tie-breaks sheetswiss does not have."""


_BY_CODE = {code: name for name, code in FIDE_CODES.items()}
_ALONE = {"1": "bye", "W": "bye", "+": "bye", "F": "bye", "U": "bye", "=": "half bye", "D": "half bye",
          "H": "half bye", "0": "zero bye", "L": "zero bye", "-": "zero bye", "Z": "zero bye"}
"""A round without an opponent, by code: a full-point bye is written as a bye (*decision*, RULES.md 11.1)."""


def _game_result(a: str, b: str) -> str:
    """The Results spelling of a game from Player A's code ``a`` and Player B's code ``b``."""
    if a == "-" and b == "-":
        return "--"
    if a in "+-":
        return "+/-" if a == "+" else "-/+"
    return {"1": "1-0", "W": "1-0", "=": "1/2", "D": "1/2", "0": "0-1", "L": "0-1"}[a]


def _scale_settings(trf: TrfFile) -> tuple[list[tuple[str, str]], list[str]]:
    win = trf.scoring.get("W", Fraction(1))
    draw = trf.scoring.get("D", Fraction(1, 2))
    loss = trf.scoring.get("L", Fraction(0))
    bye = trf.scoring.get("P", win)
    out: list[tuple[str, str]] = []
    notes: list[str] = []
    preset = {(Fraction(1), Fraction(1, 2), Fraction(0)): "chess", (Fraction(2), Fraction(1), Fraction(0)): "armati"}
    name = preset.get((win, draw, loss))
    if name is not None:
        out.append(("points", name))
    else:
        out += [("points", "custom"), ("win_points", number_text(win)), ("draw_points", number_text(draw)),
                ("loss_points", number_text(loss)), ("scale_check", "off")]
    if bye != win:
        out.append(("bye_points", number_text(bye)))
    names = [_BY_CODE.get(code) for code in trf.tiebreaks]
    unknown = [code for code, name in zip(trf.tiebreaks, names) if name is None]
    if unknown:
        notes.append(f"Tie-breaks {', '.join(unknown)} (record 202) have no sheetswiss equivalent and were left out")
    known = [n for n in names if n]
    if known:
        out.append(("tiebreaks", ", ".join(known)))
    return out, notes


def workbook_rows(trf: TrfFile) -> Imported:
    """Settings values, Players rows and Results rows for ``trf`` (RULES.md 11.1).

    A game is one Results row, Player A the player with White (the lower starting rank when no colour
    is given); byes and absences by code: ``U`` and ``F`` a bye, ``H`` a half bye, ``Z`` a zero bye,
    blank an ``absent`` row (a zero bye). A player whose last rounds are blank is dropped after their
    last round with an entry. A file sheetswiss wrote says in its comments who dropped and joined, and
    its blank rounds are rounds without a row (RULES.md 11.1).
    """
    names = {p.number: p.name for p in trf.players}
    by_number = {p.number: p for p in trf.players}
    played = max((len(p.rounds) for p in trf.players), default=0)
    settings, notes = _scale_settings(trf)
    if trf.name:
        settings.insert(0, ("event_name", trf.name))
    if trf.rounds is not None:
        settings.append(("rounds", str(trf.rounds)))
    given = dict(trf.settings)
    if given:  # the exporting workbook's own settings win over what the records imply
        settings = [(k, v) for k, v in settings if k not in given] + list(trf.settings)
    players = []
    joined: dict[int, int] = {}
    for p in trf.players:
        extra = trf.extras.get(p.number, {})
        status = extra.get("status", "")
        if not trf.from_sheetswiss and 0 < len(p.rounds) < played:
            status = str(len(p.rounds))
        elif not trf.from_sheetswiss and not p.rounds and played:
            status = "dropped"
        joined[p.number] = int(extra.get("joined", "1") or 1)
        players.append((p.name, p.rating, extra.get("club", ""), int(status) if status.isdigit() else status,
                        joined[p.number] if joined[p.number] > 1 else None))
    results: list[tuple[int, int | None, str, str, str]] = []
    for r in range(1, played + 1):
        games: list[tuple[int, int | None, str, str, str]] = []
        alone: list[tuple[int, int | None, str, str, str]] = []
        done: set[int] = set()
        for p in trf.players:
            if len(p.rounds) < r or p.number in done or r < joined[p.number]:
                continue
            entry = p.rounds[r - 1]
            if entry.opponent is None:
                if entry.code:
                    alone.append((r, None, p.name, "BYE", _ALONE[entry.code]))
                elif not trf.from_sheetswiss:  # blank is a zero-point bye (TRF16): a round the player missed
                    alone.append((r, None, p.name, "BYE", "absent"))
                continue
            other = by_number[entry.opponent].rounds[r - 1]
            a, b = (p.number, entry.opponent) if entry.colour != "b" else (entry.opponent, p.number)
            code_a, code_b = (entry.code, other.code) if a == p.number else (other.code, entry.code)
            games.append((r, None, names[a], names[b], _game_result(code_a, code_b)))
            done.update((a, b))
        results += [(rr, t, a, b, res) for t, (rr, _, a, b, res) in enumerate([*games, *alone], start=1)]
    return Imported(settings=tuple(settings), players=tuple(players), results=tuple(results), notes=tuple(notes))
