"""CSV out (Players, Results, Standings) and results in (RULES.md 11.3); players come in by ``register``.

Written as UTF-8 with a header row. A cell that a spreadsheet would take for a formula (text starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading apostrophe, the usual guard
against CSV injection; reading strips it again, so a name survives the round trip.

>>> safe("=SUM(A1)"), safe("-5"), safe("Ana"), unsafe("'=SUM(A1)")
("'=SUM(A1)", "'-5", 'Ana', '=SUM(A1)')
"""

from __future__ import annotations

import csv as _csv
import io
from collections.abc import Mapping, Sequence

from ..backends.base import Value
from ..errors import Problems, SheetswissError, excerpt
from ..model import Event, Player
from ..names import Names
from ..settings import parse_number
from ..standings import Standings
from ..workbook.contract import RESULT_SCORES

__all__ = ["results_in", "rows_of", "safe", "tab_csv", "unsafe"]

_RISKY = ("=", "+", "-", "@", "\t", "\r")


def safe(text: str) -> str:
    """``text`` with an apostrophe in front when a spreadsheet would read it as a formula."""
    return "'" + text if text.startswith(_RISKY) else text


def unsafe(text: str) -> str:
    """The inverse of :func:`safe`: the guarding apostrophe removed."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_RISKY) else text


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _write(header: Sequence[str], rows: Sequence[Sequence[Value]]) -> str:
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe(_text(v)) for v in row])
    return out.getvalue()


def tab_csv(tab: str, event: Event, table: Standings) -> str:
    """``players``, ``results`` or ``standings`` as CSV text (RULES.md 11.3)."""
    if tab == "players":
        return _write(("Name", "Rating", "Club", "Status", "Joined"), [
            (p.name, p.rating, p.club,
             str(p.dropped_after) if p.dropped_after is not None else "dropped" if p.dropped else "",
             p.joined if p.joined > 1 else None) for p in event.players])
    if tab == "results":
        scored = any(g.scores is not None for g in event.games)  # Score A and B only when typed (RULES.md 4.13)
        return _write(("Round", "Table", "Player A", "Player B", "Result", *(RESULT_SCORES if scored else ())), [
            (g.round, g.table, g.a, g.b if g.b is not None else "BYE",
             g.result.spelling() if g.result is not None else "",
             *(() if not scored else ("", "") if g.scores is None else (_number(g.scores[0]), _number(g.scores[1]))))
            for g in event.games])
    if tab == "standings":
        titles = [t.title for t in table.tiebreaks]
        return _write(("Rank", "Player", "Points", "Wins", "Draws", "Losses", *titles), [
            (f"{row.rank}{'=' if row.shared else ''}", row.player, _number(row.points), row.wins, row.draws,
             row.losses, *(t.text(v) for t, v in zip(table.tiebreaks, row.values))) for row in table.rows])
    raise SheetswissError(f"unknown tab {tab!r}; export --tab players, results or standings")


def _number(value: object) -> str:
    from fractions import Fraction

    from ..tiebreaks import number_text

    return number_text(value) if isinstance(value, Fraction) else str(value)


def _cell(row: Sequence[str], col: Mapping[str, int], name: str) -> str:
    """The cell of ``row`` under header ``name``, guard apostrophe removed; ``""`` when the row is short."""
    i = col.get(name)
    return unsafe(row[i].strip()) if i is not None and i < len(row) else ""


def rows_of(text: str, source: str) -> list[list[str]]:
    """The CSV's rows, header first; comma, semicolon or tab separated (a spreadsheet's own export)."""
    sample = text[:4096]
    try:
        dialect: type[_csv.Dialect] | _csv.Dialect = _csv.Sniffer().sniff(sample, delimiters=",;\t")
    except _csv.Error:
        dialect = _csv.excel
    rows = [row for row in _csv.reader(io.StringIO(text), dialect)]
    if not rows:
        raise SheetswissError(f"{source}: the file is empty; the first line names the columns (Name, Rating, Club)")
    return rows


def results_in(rows: Sequence[Sequence[str]], source: str, players: Sequence[Player]) -> list[dict[str, Value]]:
    """Results rows from a results CSV (Round, Table, Player A, Player B, Result, and Score A and Score B when
    there), names as in Players.

    A name matches a player as ``register`` matches them (case, accents, apostrophes and spaces aside); a
    name that matches nobody, or a round or table
    that is not a whole number, is an error naming the line and column; every such cell of the file is
    reported in one run (:class:`~sheetswiss.errors.ManyProblems`).
    """
    header = [h.strip().lower() for h in rows[0]]
    col = {name: header.index(name.lower())
           for name in ("Round", "Table", "Player A", "Player B", "Result", *RESULT_SCORES) if name.lower() in header}
    if "Round" not in col or "Player A" not in col:
        raise SheetswissError(f"{source}:1: a results file's first line names Round, Table, Player A, Player B and "
                              "Result")
    names = Names(p.name for p in players)
    out: list[dict[str, Value]] = []
    problems = Problems()
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        record: dict[str, Value] = {"Result": _cell(row, col, "Result") or None}
        for name in RESULT_SCORES:  # the parser checks them once they are in Results (RULES.md 4.13)
            text = _cell(row, col, name)
            try:
                number = parse_number(text) if text else None
            except ValueError:
                problems.add(SheetswissError(f"{source}:{n}:{col[name] + 1}: cannot read {excerpt(text)} as a "
                                             "score; a score is a number from 0"))
                continue
            if number is not None:
                record[name] = int(number) if number.denominator == 1 else float(number)
        for name in ("Round", "Table"):
            text = _cell(row, col, name)
            if text and not text.isdigit():
                problems.add(SheetswissError(f"{source}:{n}:{col[name] + 1}: cannot read {excerpt(text)} as a "
                                             f"{name.lower()} number"))
                continue
            record[name] = int(text) if text else None
        for name in ("Player A", "Player B"):
            text = _cell(row, col, name)
            if name == "Player B" and text.lower() in ("", "bye"):
                record[name] = "BYE"
                continue
            found = names.find(text)
            if found is None:
                problems.add(SheetswissError(f"{source}:{n}:{col[name] + 1}: {names.unknown(text, 'Players')}"))
                continue
            record[name] = found
        out.append(record)
    problems.raise_any()
    return out
