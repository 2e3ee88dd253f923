"""Edited pairings (RULES.md 2.14): the GM's swaps in a paired round's Results rows, checked.

After ``pair`` the GM may swap players between the round's rows in Results (a late change of heart, a
pairing the GM knows better) while none of its results is in. :func:`edited_round` reads the round as
Results now has it and refuses what is not a round: a player due to play in no row, a player who is not
to play, a second bye. What the rules would have avoided (a rematch, a pair of the Avoid tab, a second
bye for one player, a fixed table) is only warned about: the GM decided. Results stays the record; the
next round is paired from it like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import final

from .errors import Problems, SheetswissError
from .model import Event, Game, PlayerId
from .pairing import Pairing, RoundState, Table, round_state
from .results import ResultKind

__all__ = ["EditedRound", "Written", "edited_round", "written_pairings"]

Written = tuple[int | None, PlayerId, PlayerId | None]
"""One table as the Pairings tab shows it: table number (``None`` for the bye), Player A, Player B."""


@final
@dataclass(frozen=True, slots=True)
class EditedRound:
    """The last paired round as Results has it, checked."""

    pairing: Pairing
    """The round's tables from the Results rows (table order, the bye last), for the Pairings tab."""
    warnings: tuple[str, ...]
    """What the pairing rules would have avoided, each naming its row."""
    changes: tuple[str, ...]
    """The tables that differ from ``written`` (the round as it was paired), in words."""


def edited_round(event: Event, written: Sequence[Written] | None = None,
                 columns: Mapping[str, str] | None = None) -> EditedRound:
    """Check the last paired round of ``event`` as edited in Results (RULES.md 2.14).

    ``written`` is the round as the Pairings tab shows it (``None`` when the tab shows another round);
    ``columns`` gives the column letter of Results' ``Player A``, ``Player B`` and ``Table`` headers, for
    messages. Raises :class:`SheetswissError` (every problem, each naming its row) when the rows are not a
    valid round: a result already entered, a player due to play in no row or more than one, a player who
    is not to play this round, two byes.
    """
    letters = {"Player A": "C", "Player B": "D", "Table": "B", "Result": "E", **(columns or {})}
    round_ = event.paired_rounds
    if round_ == 0:
        raise SheetswissError("Results: no round is paired yet; pair --check checks a round after pair wrote it")
    rows = event.games_in(round_)
    entered = [g.cell for g in rows if g.b is not None and g.result is not None]
    if entered:
        raise SheetswissError(f"{', '.join(entered[:8])}: round {round_} has results entered; the pairings of a "
                              "round are edited (and checked) before any of its results is typed")
    state = round_state(event, round_)
    reason = dict(state.not_paired)
    problems = Problems()

    def cell(column: str, game: Game) -> str:
        return f"Results!{letters[column]}{game.row}"

    paired = [g for g in rows if g.is_pairing]
    double = event.settings.sides == "double"
    seen: dict[PlayerId, Game] = {}
    twice: list[tuple[str, PlayerId, Game]] = []  # the cell of a name typed again, the name, its first row
    for g in paired:
        for column, name in (("Player A", g.a), ("Player B", g.b)):
            if name is None:
                continue
            first = seen.get(name)
            if first is not None and double and {first.a, first.b} == {g.a, g.b}:
                continue  # the second game of a double-sided match (parse checked the pair's two rows)
            if first is not None:  # a name typed over another: said below, with who the round leaves out
                twice.append((cell(column, g), name, seen[name]))
            elif name not in state.group:
                why = reason.get(name, "not in the event")
                problems.add(SheetswissError(f"{cell(column, g)}: {name!r} is not to play in round {round_} "
                                             f"({why}); put a player who is due to play here"))
            seen.setdefault(name, g)
    byes = [g for g in paired if g.b is None]
    for g in byes[1:]:
        problems.add(SheetswissError(f"{cell('Player A', g)}: a second bye in round {round_} (the first is in row "
                                     f"{byes[0].row}); a round has one bye at most: pair {g.a} with a player"))
    empty = [g for g in rows if not g.is_pairing and g.b is None and g.result is None]
    missing = [name for name in state.order if name not in seen and name not in {g.a for g in empty}]
    left = f"; round {round_} leaves out {', '.join(repr(m) for m in missing)}" if missing else ""
    for ref, name, first in twice:
        problems.add(SheetswissError(f"{ref}: {name!r} is in round {round_} twice (also row {first.row}){left}"))
    for g in empty:  # a row whose Player B was cleared: Player A alone, not the bye
        problems.add(SheetswissError(
            f"{cell('Player B', g)}: {g.a!r} has no opponent in this row and it is not the bye row (Result bye)"
            f"{left}; type the opponent here"))
    if missing and not empty and not twice:
        names = ", ".join(repr(m) for m in missing)
        problems.add(SheetswissError(
            f"Results!A{min(g.row for g in rows)}:{letters['Result']}{max(g.row for g in rows)}: round {round_} "
            f"leaves out {names}, due to play; each player due to play is in exactly one row of the round "
            "(Player A or B, or the bye row)"))
    problems.raise_any()
    return EditedRound(*_read(event, state, paired, cell, written))


def _read(event: Event, state: RoundState, paired: Sequence[Game], cell: Callable[[str, Game], str],
          written: Sequence[Written] | None) -> tuple[Pairing, tuple[str, ...], tuple[str, ...]]:
    """The round's tables from ``paired`` (its rows), the warnings, and the changes from ``written``."""
    round_ = state.round
    earlier: dict[frozenset[PlayerId], list[int]] = {}
    for g in event.games:
        if g.round < round_ and g.b is not None and g.result is not None and g.result.kind in (
                ResultKind.GAME, ResultKind.FORFEIT):
            earlier.setdefault(frozenset((g.a, g.b)), []).append(g.round)
    fixed = {p.name: p.table for p in event.players if p.table is not None}
    warnings: list[str] = []
    tables: list[Table] = []
    rematches: list[tuple[PlayerId, PlayerId]] = []
    avoided: list[tuple[PlayerId, PlayerId]] = []
    done: set[frozenset[PlayerId]] = set()
    for position, g in enumerate(paired, start=1):
        number = g.table if g.table is not None else position
        if g.b is None:
            if g.a not in state.bye_eligible:
                warnings.append(f"{cell('Player A', g)}: {g.a} has had a bye already; kept as edited")
            tables.append(Table(None, g.a, None, ()))
            continue
        pair = frozenset((g.a, g.b))
        if pair in done:  # the second game of a double-sided match
            continue
        done.add(pair)
        kept_apart = state.avoided.get(pair)
        if kept_apart is not None:
            avoided.append((g.a, g.b))
            warnings.append(f"{cell('Player A', g)}: {g.a} v {g.b} is a pair of the Avoid tab ({kept_apart.reason}); "
                            "kept as edited")
        if pair in state.met and pair in earlier:
            rematches.append((g.a, g.b))
            rounds = " and ".join(str(r) for r in earlier[pair])
            warnings.append(f"{cell('Player A', g)}: {g.a} and {g.b} met in round {rounds} (a rematch); kept as "
                            "edited")
        elif event.settings.sides == "single" and (g.a, g.b) in state.played:
            warnings.append(f"{cell('Player A', g)}: {g.a} has played side 1 against {g.b} before; kept as edited")
        for name in (g.a, g.b):
            own = fixed.get(name)
            other = fixed.get(g.b if name == g.a else g.a)
            if own is not None and own != number and (other is None or other > own):
                warnings.append(f"{cell('Table', g)}: {name} sits at table {own} (Players.Table) but plays at table "
                                f"{number} as edited; kept as edited")
        tables.append(Table(number, g.a, g.b, ()))
    tables.sort(key=lambda t: (t.number is None, t.number or 0))
    changes = _changes(tables, written)
    notes = [f"Round {round_} as edited in Results and checked (pair --check)"] if changes else []
    pairing = Pairing(round_, tuple(tables), dict(state.scores), state.not_paired, tuple(rematches), tuple(notes),
                      avoided=tuple(avoided))
    return pairing, tuple(warnings), tuple(changes)


def written_pairings(rows: Sequence[Sequence[object]], round_: int) -> list[Written] | None:
    """The tables of the Pairings tab's rows (the tool's own tab: title, header, then Table | Player A |
    Points | Player B ...), or ``None`` when the tab shows another round than ``round_``."""
    if not rows or f"round {round_} pairings" not in str(rows[0][0] if rows[0] else ""):
        return None
    out: list[Written] = []
    for row in rows[2:]:
        if len(row) < 4 or not isinstance(row[1], str):
            continue
        number, a, b = row[0], row[1], row[3]
        if isinstance(number, (int, float)) and not isinstance(number, bool) and isinstance(b, str):
            out.append((int(number), a, b))
        elif number == "bye":
            out.append((None, a, None))
    return out


def _changes(tables: Sequence[Table], written: Sequence[Written] | None) -> list[str]:
    """Each table whose players differ from ``written``, as ``table 2: Bo v Cy (was Bo v Di)``."""
    if written is None:
        return []
    before = {number: (a, b) for number, a, b in written}
    out = []
    for t in tables:
        old = before.get(t.number)
        if old is None or {old[0], old[1]} != {t.a, t.b}:
            now = f"{t.a} v {t.b}" if t.b is not None else f"{t.a} has the bye"
            was = "" if old is None else f" (was {old[0]} v {old[1]})" if old[1] is not None else \
                f" (was {old[0]} with the bye)"
            out.append(("bye: " if t.number is None else f"table {t.number}: ") + now + was)
    return out
