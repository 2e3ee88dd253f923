"""The domain types: a validated, immutable picture of one event's workbook.

``workbook.parse`` builds these from the tabs and reports every problem with its cell; the
``__post_init__`` checks here only re-state invariants the parser has already enforced. A Swiss event is an
:class:`Event`; a heat event's Heats tab is a tuple of :class:`HeatGame` tables (the heats of WBC, the World
Boardgaming Championships, RULES.md 5). A PAB is a pairing-allocated bye.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple, TypeAlias, final

from .errors import Problems, SheetswissError, first_few
from .results import Result, ResultKind
from .settings import Settings

__all__ = ["AvoidPair", "CellRef", "Event", "Game", "HeatGame", "HeatSeat", "Player", "PlayerId", "PlayoffSheet",
           "SideLabels", "TypedWinner"]

PlayerId: TypeAlias = str
"""A player's name exactly as in Players!A (names are unique)."""

CellRef: TypeAlias = str
"""A cell in A1 notation with its tab, e.g. ``"Results!E14"``."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    """One row of the Players tab."""

    name: PlayerId
    rating: int | None = None
    club: str = ""
    dropped_after: int | None = None
    """The last round the player is paired in; ``None`` while active (Players.Status)."""
    dropped: bool = False
    """Status says the player has left (``dropped`` or a round number)."""
    joined: int = 1
    """The first round the player is paired in (Players.Joined, RULES.md 2.9)."""
    row: int = 0
    """The row in Players, for messages."""
    table: int | None = None
    """The table the player always sits at (Players.Table, RULES.md 2.13); ``None``: any table."""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a player needs a name")
        if self.joined < 1:
            raise ValueError("Joined is a round number from 1")

    def plays_in(self, round_: int) -> bool:
        """Whether the player is to be paired in ``round_`` (drops and late entries, RULES.md 2.9)."""
        if round_ < self.joined:
            return False
        if self.dropped_after is not None:
            return round_ <= self.dropped_after
        return not self.dropped


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """One row of the Results tab: who met whom in a round, and how it ended."""

    round: int
    table: int | None
    a: PlayerId
    b: PlayerId | None
    """``None`` for a bye row."""
    result: Result | None
    """``None`` until the GM types one."""
    row: int
    """The row in Results."""
    cell: CellRef = ""
    """The Result cell of this row, e.g. ``Results!E14``; every message about this game names it."""
    scores: tuple[Fraction, Fraction] | None = None
    """Results.Score A and Score B: each side's game score (victory points, control points), when typed
    (RULES.md 4.13); ``None`` when the row has none."""

    @property
    def is_pairing(self) -> bool:
        """A row the pairing wrote: a game between two players, or a pairing-allocated bye."""
        return self.b is not None or (self.result is not None and self.result.kind is ResultKind.PAB)


class SideLabels(NamedTuple):
    """How the pairing lists name the two sides of a table (RULES.md 3, 2.10): :attr:`Event.side_labels`."""

    column: str
    """The header of the side's column in the list by name: ``Side``, ``Sides``, ``Colour``."""
    a_header: str
    """Player A's column header, e.g. ``Side 1 (Player A)``."""
    b_header: str
    """Player B's column header."""
    a_side: str
    """Player A's side in the list by name: ``1``, ``1, then 2``, ``White``."""
    b_side: str
    """Player B's side."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class AvoidPair:
    """One row of the Avoid tab: two players the pairing keeps apart as firmly as a rematch (RULES.md 2.12)."""

    a: PlayerId
    b: PlayerId
    why: str = ""
    """The GM's reason (Avoid.Why), repeated wherever the pair is named."""
    row: int = 0
    """The row in Avoid, for messages."""

    @property
    def reason(self) -> str:
        """``Avoid row 3: siblings``: where the pair comes from and why, for notes and refusals."""
        return f"Avoid row {self.row}" + (f": {self.why}" if self.why else "")


@final
@dataclass(frozen=True, kw_only=True)  # no slots: cached_property needs a __dict__
class Event:
    """A Swiss event as its workbook states it: settings, players, Results rows in tab order."""

    settings: Settings
    players: tuple[Player, ...]
    games: tuple[Game, ...] = ()
    waiting: tuple[Player, ...] = ()
    """Registered but not checked in (``check_in: yes``, RULES.md 10.2): not paired, not in the standings."""
    avoid: tuple[AvoidPair, ...] = ()
    """The Avoid tab's pairs (RULES.md 2.12): never paired together unless ``avoid_fallback`` allows it."""

    @cached_property
    def by_name(self) -> dict[PlayerId, Player]:
        """Players by name."""
        return {p.name: p for p in self.players}

    @cached_property
    def _by_round(self) -> dict[int, tuple[Game, ...]]:
        """The Results rows of each round, in tab order: one pass over the rows for every round query."""
        rounds: dict[int, list[Game]] = {}
        for g in self.games:
            rounds.setdefault(g.round, []).append(g)
        return {r: tuple(gs) for r, gs in rounds.items()}

    @cached_property
    def paired_rounds(self) -> int:
        """The highest round with pairings in Results (0 before round 1)."""
        return max((r for r, gs in self._by_round.items() if any(g.is_pairing for g in gs)), default=0)

    def games_in(self, round_: int) -> tuple[Game, ...]:
        """The Results rows of one round, in tab order."""
        return self._by_round.get(round_, ())

    @property
    def side_labels(self) -> SideLabels | None:
        """Under sides or ``colours: alternate`` (RULES.md 3, 2.10): the by-name column's header, the headers of
        Player A's and Player B's columns, and the names of their sides; ``None`` otherwise."""
        if self.settings.sides == "single":
            return SideLabels("Side", "Side 1 (Player A)", "Side 2 (Player B)", "1", "2")
        if self.settings.sides == "double":
            return SideLabels("Sides", "Player A (side 1 in game 1)", "Player B (side 1 in game 2)", "1, then 2",
                              "2, then 1")
        if self.settings.colours == "alternate":
            return SideLabels("Colour", "White (Player A)", "Black (Player B)", "White", "Black")
        return None

    @cached_property
    def missing_results(self) -> tuple[CellRef, ...]:
        """The Result cells of paired games still empty, in tab order (byes and absences need none)."""
        return tuple(g.cell for g in self.games if g.is_pairing and g.result is None)

    def check_listed(self) -> None:
        """Refuse an event where a player who should have played a paired round has no row in it: a deleted
        or mistyped row would otherwise silently count as an absence and make the pair meet again. Every round
        with a row missing is a line of its own, in one run."""
        problems = Problems()
        for r in range(1, self.paired_rounds + 1):
            listed = {n for g in self.games_in(r) for n in (g.a, g.b) if n}
            missing = [p.name for p in self.players if p.plays_in(r) and p.name not in listed]
            if missing:
                problems.add(SheetswissError(
                    f"Results: round {r} has no row for {first_few(missing)} (a deleted or mistyped row?); type "
                    "it again, or a row with Result 'absent' for a player who missed the round, or set "
                    "Players.Status for one who left"))
        problems.raise_any()

    @cached_property
    def completed_rounds(self) -> int:
        """The rounds 1..n whose every result is entered (standings count these, RULES.md 4.1)."""
        n = 0
        for r in range(1, self.paired_rounds + 1):
            if any(g.result is None for g in self.games_in(r)):
                break
            n = r
        return n


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class HeatSeat:
    """One row of the Heats tab: one player at one table."""

    player: PlayerId
    score: Fraction | None = None
    """The Score as typed, before ``score_offset``; ``None`` while empty."""
    place: int | None = None
    """The GM's Place, which overrides the scores (RULES.md 5.3); ``None`` while empty."""
    row: int = 0
    """The row in Heats."""
    score_cell: CellRef = ""
    """E.g. ``Heats!D12``; messages about the score name it (the player's name when empty)."""
    place_cell: CellRef = ""
    """E.g. ``Heats!E12``, or empty when the tab has no Place column."""
    player_cell: CellRef = ""
    """E.g. ``Heats!C12``: where the player's name is."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class HeatGame:
    """One table of one heat: its players in Heats-tab order."""

    heat: int
    """The heat's number; 0 for an elimination round's table."""
    table: int
    seats: tuple[HeatSeat, ...]
    stage: str = ""
    """``quarterfinal``, ``semifinal`` or ``final`` for an elimination round's table (RULES.md 5.10); empty
    for a heat."""

    def __post_init__(self) -> None:
        if (self.heat < 1 and not self.stage) or self.table < 1:
            raise ValueError("heats and tables are numbered from 1")
        names = [s.player for s in self.seats]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"{self.label} needs players, each once")

    @property
    def label(self) -> str:
        """``heat 2 table 3`` or ``semifinal table 1``, for messages."""
        return f"{self.stage or f'heat {self.heat}'} table {self.table}"

    @property
    def has_results(self) -> bool:
        """Whether any Score or Place is typed: the game is finished and counts (module docstring)."""
        return any(s.score is not None or s.place is not None for s in self.seats)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class TypedWinner:
    """A Winner cell of the Playoffs tab the GM filled: the match's id and the name as typed (matched to a seed
    when the bracket is rebuilt, :func:`~sheetswiss.playoffs.typed_bracket`)."""

    match: str
    winner: str
    match_cell: CellRef
    """Where the match's id stands, e.g. ``Playoffs!A5``."""
    winner_cell: CellRef
    """Where the winner was typed, e.g. ``Playoffs!E5``."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayoffSheet:
    """What the GM's Playoffs tab holds (:func:`~sheetswiss.workbook.parse_playoffs.parse_playoffs`): no seeds
    before a playoff is drawn."""

    seeds: tuple[PlayerId, ...]
    """The seeded players, best first."""
    winners: tuple[TypedWinner, ...]
    """Every row with both a match id and a typed winner, top to bottom."""
    corps: tuple[tuple[CellRef, str, str], ...]
    """``(cell, match id, text)`` of every filled corp cell beside a match id (a Netrunner cut, RULES.md 6.8)."""
    tab: str = "Playoffs"
    """The tab's name, for a message about a match whose cell is not known."""
