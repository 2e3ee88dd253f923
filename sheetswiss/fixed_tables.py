"""Fixed tables (RULES.md 2.13): a player who always sits at one table number, the others numbered around.

A wheelchair user keeps the accessible table, the stream table holds a feature player: Players.Table
gives the number. A Swiss round (``pair``) and a heat (``seat``) number their tables the same way:

>>> from sheetswiss.model import Player
>>> players = [Player(name="Ana", table=1), Player(name="Bo"), Player(name="Cy"), Player(name="Di", table=3),
...            Player(name="Ed"), Player(name="Flo")]
>>> n = number_tables([("Bo", "Cy"), ("Ed", "Ana"), ("Flo", "Di")], players, 2)
>>> n.numbers, n.remarks
((2, 1, 3), ())
>>> n = number_tables([("Bo", "Cy"), ("Ed", "Flo")], players, 2)   # Ana has the bye, Di is absent
>>> n.numbers
(2, 4)
>>> for line in n.remarks: print(line)
...
Table 1 stays empty: Ana, who sits there, does not play this round
Table 3 stays empty: Di, who sits there, does not play this round
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import final

from .model import Player, PlayerId

__all__ = ["Numbering", "number_tables", "reserved_tables", "withdrawn"]


def withdrawn(player: Player, round_: int) -> bool:
    """Whether ``player`` has left the event by ``round_`` (Players.Status ``dropped``, or a last round
    before it): their fixed table is free again (*decision*, RULES.md 2.13). A late entry who has not
    joined yet, a requested bye or an absence keeps the table."""
    return player.dropped and (player.dropped_after is None or round_ > player.dropped_after)


def reserved_tables(players: Iterable[Player], round_: int) -> dict[int, PlayerId]:
    """The fixed tables of ``round_`` (or heat): table number -> the player who sits there."""
    return {p.table: p.name for p in players if p.table is not None and not withdrawn(p, round_)}


@final
@dataclass(frozen=True, slots=True)
class Numbering:
    """Each table's number, in the order the tables were given, and what a GM may not expect."""

    numbers: tuple[int, ...]
    remarks: tuple[str, ...]
    """A fixed table left empty, two fixed players at one table."""


def number_tables(tables: Sequence[Sequence[PlayerId | None]], players: Sequence[Player], round_: int,
                  period: str = "round") -> Numbering:
    """Number ``tables`` (each a sequence of its players, best table first) around the fixed ones
    (RULES.md 2.13): a table with a fixed player takes that player's number; the others take, in order,
    the smallest numbers no fixed player holds this ``round_`` (a fixed player absent, with the bye or
    not yet joined leaves the table empty). Two fixed players at one table play at the lower number and
    the other table stays empty (*decision*).
    """
    fixed = {p.name: p.table for p in players if p.table is not None}
    reserved = reserved_tables(players, round_)
    numbers: list[int | None] = []
    remarks: list[str] = []
    seated = {name for table in tables for name in table if name is not None}
    for table in tables:
        own = sorted((fixed[name], name) for name in table if name is not None and name in fixed)
        numbers.append(own[0][0] if own else None)
        for number, name in own[1:]:
            remarks.append(f"{name} sits at table {number} but plays {own[0][1]} at table {own[0][0]}; table "
                           f"{number} stays empty")
    taken = set(reserved) | {n for n in numbers if n is not None}
    free = (k for k in itertools.count(1) if k not in taken)
    remarks[:0] = [f"Table {number} stays empty: {name}, who sits there, does not play this {period}"
                   for number, name in sorted(reserved.items()) if name not in seated]
    return Numbering(tuple(n if n is not None else next(free) for n in numbers), tuple(remarks))
