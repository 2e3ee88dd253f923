"""The tiebreak registry and the :class:`Context` every tiebreak reads (RULES.md section 4).

Points are held in the context as whole numbers of ``1/unit`` of a point, so sums are integer sums;
values come out as exact ``Fraction``s and are rounded only for display (:meth:`Tiebreak.text`).
The context also reads the records once into arrays, one row per player and one column per round
(:attr:`Context.table`); a tiebreak registered with :func:`column_tiebreak` is defined over them, for every
player at once, as whole numbers over one denominator (:class:`Column`); the others player by player.
A VUR (voluntary unplayed round, FIDE C.07 Art. 16.1) is a requested bye or a forfeit loss; a PAB
(pairing-allocated bye) is the bye the pairing gives. The families register themselves from their own
modules: :mod:`.fide`, :mod:`.magic`, :mod:`.hearthstone`, :mod:`.lot`, :mod:`.netrunner`,
:mod:`.scores`.
"""

from __future__ import annotations

import enum
import math
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple, TypeAlias, final

import numpy as np

from ..errors import UnknownName, excerpt
from ..history import RoundKind, RoundRecord, history
from ..model import Event, Player, PlayerId
from ..scoring import Scale, per_round, scale_for
from ..settings import Settings

Notes: TypeAlias = list[str] | None
"""Where a tiebreak writes how it got its value, line by line; ``None`` when nobody asked."""

Group: TypeAlias = tuple[PlayerId, ...]


class Kind(enum.Enum):
    """How a tiebreak's value is displayed."""

    NUMBER = "number"
    """Points and sums of points: the exact value, at most 4 decimals."""
    PERCENT = "percent"
    """A ratio from 0 to 1 shown as a percentage with 4 decimals, half-up (RULES.md 4.1, seed 002)."""
    INTEGER = "integer"
    """A count or a whole-number sum."""


def _units(value: Fraction, decimals: int) -> int:
    """``|value|`` in units of ``10**-decimals``, rounded half-up (a half goes away from zero)."""
    step: int = 10**decimals
    return math.floor(abs(value) * step + Fraction(1, 2))


def number_text(value: Fraction, decimals: int = 4) -> str:
    """``value`` rounded half-up to ``decimals`` places, trailing zeros dropped.

    >>> number_text(Fraction(21, 2)), number_text(Fraction(1, 3)), number_text(Fraction(-1, 4))
    ('10.5', '0.3333', '-0.25')
    """
    units = _units(value, decimals)
    whole, rest = divmod(units, 10**decimals)
    sign = "-" if value < 0 and units else ""
    return sign + (f"{whole}.{rest:0{decimals}d}".rstrip("0") if rest else str(whole))


ValueFn: TypeAlias = Callable[["Context", PlayerId, Notes], Fraction]
"""A player's value; lines explaining it go to the notes when given."""
SplitFn: TypeAlias = Callable[["Context", Group], "tuple[list[Group], dict[PlayerId, Fraction]]"]
"""A group-dependent tiebreak: the tied group split into ordered subgroups, and each member's value."""


@final
@dataclass(frozen=True, slots=True, eq=False)
class Column:
    """Every player's value of one tiebreak, in :attr:`Context.players` order: whole numbers over one denominator.

    ``numerators`` is an ``int64`` array, or an ``object`` array of Python integers when the values could
    outgrow 64 bits (:meth:`Context.integers`): exact either way.
    """

    numerators: np.ndarray
    denominator: int
    detail: np.ndarray | None = None
    """What a tiebreak keeps for its explanations, one row per player (the Buchholz cuts: which rounds went)."""

    @classmethod
    def of(cls, values: Sequence[Fraction]) -> Column:
        """``values`` (in row order) as whole numbers over their least common denominator."""
        den = math.lcm(*{v.denominator for v in values}) if values else 1
        nums = [v.numerator * (den // v.denominator) for v in values]
        return cls(np.array(nums, dtype=object if _too_wide(nums) else np.int64), den)

    def at(self, row: int) -> Fraction:
        """The value of the player on ``row``."""
        return Fraction(int(self.numerators[row]), self.denominator)

    def fractions(self) -> list[Fraction]:
        """Every value, in row order (each distinct value reduced once: many players share a value)."""
        den, nums = self.denominator, self.numerators.tolist()
        reduced = {v: Fraction(v, den) for v in set(nums)}
        return list(map(reduced.__getitem__, nums))


ColumnFn: TypeAlias = Callable[["Context"], Column]
"""A tiebreak computed for every player at once, over the context's arrays (:attr:`Context.table`)."""
ExplainFn: TypeAlias = Callable[["Context", PlayerId, Column, list[str]], None]
"""Lines explaining a :data:`ColumnFn`'s value for one player, read from what the column computed."""


@final
@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One registered tiebreak: how it is computed, how it is shown, and what it is called."""

    name: str
    title: str
    """Column title in Standings, e.g. ``"Med-Buchholz"``."""
    kind: Kind
    legend: str = ""
    """What the column means in a GM's words, for the Standings legend: ``"the sum of the opponents' scores"``."""
    value: ValueFn | None = None
    split: SplitFn | None = None
    """Set instead of ``value`` for a tiebreak computed on the tied group (direct encounter)."""
    column: ColumnFn | None = None
    """The definition of a tiebreak computed for every player at once; ``value`` then reads it (and explains it)."""
    lowest_first: bool = False
    """Ranks the lowest value first (``random``'s draw position)."""
    aliases: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        """The rule and its source, from the function's docstring."""
        fn = self.column or self.value or self.split
        return (fn.__doc__ if fn is not None else None) or ""

    def rounded(self, value: Fraction) -> Fraction:
        """The number the Standings tab shows: percentages as 0..100 with 4 decimals (half-up).

        >>> TIEBREAKS["mwp"].rounded(Fraction(1, 3))
        Fraction(333333, 10000)
        """
        shown = value * 100 if self.kind is Kind.PERCENT else value
        return Fraction(_units(shown, 4) * (-1 if shown < 0 else 1), 10**4)

    def text(self, value: Fraction) -> str:
        """The value as printed: ``"61.1111"`` (percent, always 4 decimals), ``"10.5"``, ``"23"``."""
        if self.kind is Kind.PERCENT:
            whole, rest = divmod(_units(value * 100, 4), 10**4)
            return f"{whole}.{rest:04d}"
        return number_text(value)


TIEBREAKS: dict[str, Tiebreak] = {}
"""Canonical name -> tiebreak, in the order of RULES.md section 9."""
_SPELLINGS: dict[str, str] = {}


def _key(spelling: str) -> str:
    return "_".join(spelling.strip().lower().replace("-", " ").replace("_", " ").split())


def _register(entry: Tiebreak) -> None:
    TIEBREAKS[entry.name] = entry
    for spelling in (entry.name, entry.title, *entry.aliases):  # a spelling taken first keeps its meaning:
        _SPELLINGS.setdefault(_key(spelling), entry.name)       # "SoS" (cobra_sos's title) stays Buchholz


def tiebreak(name: str, *aliases: str, title: str, kind: Kind = Kind.NUMBER,
             lowest_first: bool = False, legend: str = "") -> Callable[[ValueFn], ValueFn]:
    """Register a per-player tiebreak under ``name``, its column ``title``, its ``legend`` and other spellings."""

    def register(fn: ValueFn) -> ValueFn:
        _register(Tiebreak(name, title, kind, legend, value=fn, lowest_first=lowest_first, aliases=aliases))
        return fn

    return register


def column_tiebreak(name: str, *aliases: str, title: str, explain: ExplainFn, kind: Kind = Kind.NUMBER,
                    legend: str = "") -> Callable[[ColumnFn], ColumnFn]:
    """Register a tiebreak defined over every player at once (a :data:`ColumnFn`); ``explain`` writes a
    player's lines from the column. Its per-player ``value`` reads the column, so the rule has one definition."""

    def register(fn: ColumnFn) -> ColumnFn:
        def value(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
            column = ctx.column(name)
            if notes is not None:
                explain(ctx, x, column, notes)
            return column.at(ctx.row[x])

        _register(Tiebreak(name, title, kind, legend, value=value, column=fn, aliases=aliases))
        return fn

    return register


def group_tiebreak(name: str, *aliases: str, title: str, legend: str = "") -> Callable[[SplitFn], SplitFn]:
    """Register a tiebreak computed on the tied group (FIDE C.07 Art. 4.2's group-dependent kind)."""

    def register(fn: SplitFn) -> SplitFn:
        _register(Tiebreak(name, title, Kind.NUMBER, legend, split=fn, aliases=aliases))
        return fn

    return register


def find_tiebreak(spelling: str) -> str:
    """The canonical name of a tiebreak; case, spaces, ``-`` and ``_`` do not matter.

    The caller (the Settings parser) puts the cell in front of the message.

    >>> find_tiebreak("Sonneborn-Berger"), find_tiebreak("OMW%")
    ('sonneborn_berger', 'omw')
    >>> find_tiebreak("koya")
    Traceback (most recent call last):
    ...
    sheetswiss.errors.UnknownName: unknown tiebreak 'koya'; known: buchholz, buchholz_cut1, ...
    """
    try:
        return _SPELLINGS[_key(spelling)]
    except KeyError:
        known = ", ".join(TIEBREAKS)
        raise UnknownName(f"unknown tiebreak {excerpt(spelling)}; known: {known}") from None


_DEFAULT_CHAINS: dict[str, tuple[str, ...]] = {
    "chess": ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"),
    "magic": ("omw", "gwp", "ogw"),
    "armati": ("sodos", "median_buchholz", "buchholz", "random"),
    "hct": ("hct_t1", "hct_t2", "hct_t3"),
    "game12": ("omw", "ogw"),
    "netrunner": ("cobra_sos", "cobra_esos"),
}


def default_chain(settings: Settings) -> tuple[str, ...]:
    """The preset's chain (RULES.md 4.1); a custom scale gets armati's, the default preset (*decision*).

    >>> default_chain(Settings(points="magic"))
    ('omw', 'gwp', 'ogw')
    """
    return _DEFAULT_CHAINS.get(settings.points, _DEFAULT_CHAINS["armati"])


def chain(settings: Settings) -> tuple[str, ...]:
    """The chain in force: ``tiebreaks`` canonicalised (a repeated name counts once), else the default."""
    if settings.tiebreaks is None:
        return default_chain(settings)
    return tuple(dict.fromkeys(find_tiebreak(s) for s in settings.tiebreaks))


def event_chain(event: Event) -> tuple[str, ...]:
    """The chain in force for ``event``: :func:`chain`, and seed 004's full chain once game scores are typed.

    Seed 004's fifth step, "any goal average system", needs each side's game score: under the
    ``armati`` default chain (``tiebreaks`` empty) it goes before the lot as soon as a Results row
    has Score A and Score B (RULES.md 4.1 and 4.13).
    """
    names = chain(event.settings)
    if (event.settings.tiebreaks is None and names == _DEFAULT_CHAINS["armati"]
            and any(g.scores is not None for g in event.games)):
        return (*names[:-1], "goal_average", names[-1])
    return names


_VUR = frozenset({RoundKind.FORFEIT_LOSS, *(k for k in RoundKind if k.is_requested_bye)})
"""FIDE C.07 Art. 16.1's voluntary unplayed rounds: requested byes (incl. after a withdrawal), forfeit losses."""


class Contribution(NamedTuple):
    """What one round adds to a player's Buchholz (RULES.md 4.2), in ``1/unit`` points.

    A named tuple rather than a dataclass: one is built per player and round.
    """

    record: RoundRecord
    value: int
    vur: bool
    """A voluntary unplayed round (C.07 Art. 16.1), cut first under ``fide2023``/``fide2026``."""
    scored: int
    """Twice the share of the round's points the player scored: 2 win, 1 draw, 0 loss (SB's f, doubled)."""


_KIND_CODE = {k: i for i, k in enumerate(RoundKind)}
"""Each round kind's code in :attr:`Table.kind`."""
_OUTCOME = {"W": 2, "D": 1, "L": 0}
_FIELDS = tuple(map(operator.attrgetter, ("points", "pairing_points", "kind", "outcome", "opponent", "side")))
_VUR_CODES = np.array(sorted(_KIND_CODE[k] for k in _VUR), dtype=np.int8)


@final
@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """A context's records as arrays: one row per player (:attr:`Context.players` order), one column per round."""

    points: np.ndarray
    """Points of each round in ``1/unit`` (:meth:`Context.integers`)."""
    opponent: np.ndarray
    """Row of the opponent in a game or forfeit, else -1."""
    kind: np.ndarray
    """The round's :class:`~sheetswiss.history.RoundKind`, as its position in the enumeration."""
    cls: np.ndarray
    """The result class: 2 win, 1 draw, 0 loss, a PAB by what it is worth (:attr:`Context.classes`); so
    also twice the share of the round's points the player scored (SB's f, doubled)."""
    side: np.ndarray
    """1 or 2 where the player took side 1 or side 2 of a game or forfeit, else 0."""
    pairing_points: np.ndarray
    """Points of each round on the pairing scale (RULES.md 1.5), in ``1/pairing_unit``."""
    pairing_unit: int
    """The least common denominator of the pairing points."""


@final
@dataclass(frozen=True, slots=True, eq=False)
class Contributions:
    """Every player's Buchholz contributions c_r (RULES.md 4.2), one row per player and one column per round."""

    value: np.ndarray
    """c_r in ``1/unit``; 0 where the round contributes nothing."""
    present: np.ndarray
    """Whether the round contributes (under ``points`` a bye does not)."""
    vur: np.ndarray
    """A voluntary unplayed round (C.07 Art. 16.1), cut first under ``fide2023``/``fide2026``."""
    scored: np.ndarray
    """Twice the share of the round's points the player scored: 2 win, 1 draw, 0 loss (SB's f, doubled)."""


@final
@dataclass(frozen=True, eq=False)
class Context:
    """Everything the tiebreaks read, derived once from an event through round ``rounds``.

    Build it with :meth:`of`. Maps that only some tiebreaks need are computed on first use. A round
    record has an ``opponent`` exactly when it was a game or a forfeit (:mod:`sheetswiss.history`).
    """

    event: Event
    rounds: int
    records: Mapping[PlayerId, tuple[RoundRecord, ...]]
    scale: Scale
    """What a round is worth: the ranking scale, doubled under ``sides: double`` (two games a round,
    :func:`~sheetswiss.scoring.per_round`), so a round "counted as a draw" is a drawn match."""
    _memo: dict[str, dict[PlayerId, Fraction]] = field(default_factory=dict, repr=False)
    _whole_memo: dict[str, tuple[dict[PlayerId, int], int]] = field(default_factory=dict, repr=False)
    _met_memo: dict[PlayerId, dict[PlayerId, list[int]]] = field(default_factory=dict, repr=False)
    _some_memo: dict[str, dict[PlayerId, Fraction]] = field(default_factory=dict, repr=False)
    """Values :meth:`value` computed one player at a time, which :meth:`values` takes over."""
    _column_memo: dict[str, Column] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, event: Event, *, through: int | None = None,
           recorded: Mapping[PlayerId, tuple[RoundRecord, ...]] | None = None) -> Context:
        """The context of ``event`` through round ``through`` (default: the completed rounds); ``recorded``:
        :func:`~sheetswiss.history.history` of the same rounds when the caller has read it already."""
        n = event.completed_rounds if through is None else through
        records = history(event, through=n) if recorded is None else recorded
        return cls(event, n, records, per_round(scale_for(event.settings), event.settings.games_per_round))

    @cached_property
    def unit(self) -> int:
        """Points are held as whole numbers of ``1/unit``: the least common denominator of all points (the
        scale's and every round's)."""
        s = self.scale
        fixed = (s.win, s.draw, s.loss, s.bye)
        return math.lcm(*{p.denominator for p in (*fixed, *self._distinct_points.values())})

    @property
    def settings(self) -> Settings:
        """The event's settings."""
        return self.event.settings

    @property
    def players(self) -> Iterable[PlayerId]:
        """Every player, in Players order."""
        return self.records.keys()

    def whole(self, points: Fraction) -> int:
        """``points`` in ``1/unit``."""
        return points.numerator * (self.unit // points.denominator)

    def points(self, value: int, per: int = 1) -> Fraction:
        """Back from ``1/(unit * per)`` to points."""
        return Fraction(value, self.unit * per)

    @cached_property
    def player(self) -> dict[PlayerId, Player]:
        """Players by name."""
        return {p.name: p for p in self.event.players}

    @cached_property
    def row(self) -> dict[PlayerId, int]:
        """Each player's row in :attr:`table` and in every :class:`Column` (Players order)."""
        return {x: i for i, x in enumerate(self.records)}

    @cached_property
    def wide(self) -> bool:
        """Whether sums of points could outgrow 64 bits (an exotic scale's ``unit``): arrays then hold Python
        integers (:meth:`integers`). A Buchholz-family value is at most 2 (R + 1)² times the largest points
        of a round, in ``1/unit``."""
        largest = max((abs(p) for p in self._distinct_points.values()), default=Fraction(0))
        largest = max(largest, *(abs(v) for v in (self.scale.win, self.scale.draw, self.scale.loss, self.scale.bye)))
        return self.whole(largest) * 4 * (self.rounds + 2) ** 2 >= 2**62

    def integers(self, values: Sequence[int] | np.ndarray) -> np.ndarray:
        """Whole numbers as an array: ``int64``, or ``object`` (exact Python integers) when :attr:`wide`."""
        return np.array(values, dtype=object if self.wide else np.int64)

    @cached_property
    def flat(self) -> list[RoundRecord]:
        """Every record, player by player, in round order: the rows of :attr:`table` laid end to end."""
        return [r for rs in self.records.values() for r in rs]

    @cached_property
    def _fields(self) -> tuple[tuple[Any, ...], ...]:
        """The fields the :attr:`table` holds, each over :attr:`flat` in one tuple: points, pairing points,
        kind, outcome, opponent and side. A field at a time: reading all six into a tuple per record would
        make one more object per record, which the cycle collector then walks over and over."""
        return tuple(tuple(map(getter, self.flat)) for getter in _FIELDS)

    @cached_property
    def _distinct_points(self) -> dict[int, Fraction]:
        """The distinct points objects of the records, by identity: a scale's win, draw and loss, mostly."""
        points: tuple[Fraction, ...] = self._fields[0]
        return dict(zip(map(id, points), points))

    @cached_property
    def table(self) -> Table:
        """The records as arrays (:class:`Table`), read in one pass; every tiebreak over the whole field reads
        these instead of the records, and so does the pairing's round state.

        Each distinct points object is converted once: the records share a few (a scale's win, draw and
        loss), told apart by identity, which the records keep alive while the context lives."""
        unit, size = self.unit, len(self.flat)
        points, pairing_points, kinds, outcomes, opponents, sides = self._fields
        whole = {key: p.numerator * (unit // p.denominator) for key, p in self._distinct_points.items()}
        shape = (len(self.records), self.rounds)
        index: dict[PlayerId | None, int] = {x: i for i, x in enumerate(self.records)}
        index[None] = -1
        ids = map(id, points)
        if self.wide:
            table = np.array(list(map(whole.__getitem__, ids)), dtype=object).reshape(shape)
        else:
            table = np.fromiter(map(whole.__getitem__, ids), np.int64, size).reshape(shape)
        cls = np.fromiter(map(_OUTCOME.__getitem__, outcomes), np.int64, size).reshape(shape)
        kind = np.fromiter(map(_KIND_CODE.__getitem__, kinds), np.int8, size).reshape(shape)
        pab = kind == _KIND_CODE[RoundKind.PAB]
        if pab.any():  # a PAB is classed by what it is worth: a half-point PAB is a draw
            s = self.scale
            worth = np.where(table >= self.whole(s.win), 2,
                             np.where(s.draws_allowed & (table >= self.whole(s.draw)), 1, 0))
            cls = np.where(pab, worth, cls)
        opponent = np.fromiter(map(index.__getitem__, opponents), np.int64, size).reshape(shape)
        side = np.fromiter((v or 0 for v in sides), np.int8, size).reshape(shape)
        distinct: dict[int, Fraction] = {id(p): p for p in pairing_points}
        pairing_unit = math.lcm(*(p.denominator for p in distinct.values()))
        pairing = {key: p.numerator * (pairing_unit // p.denominator) for key, p in distinct.items()}
        pairing_table = np.fromiter(map(pairing.__getitem__, map(id, pairing_points)), np.int64, size).reshape(shape)
        return Table(points=table, opponent=opponent, kind=kind, cls=cls, side=side, pairing_points=pairing_table,
                     pairing_unit=pairing_unit)

    @cached_property
    def round_points(self) -> dict[PlayerId, tuple[int, ...]]:
        """Each player's points per round, in ``1/unit`` (:attr:`Table.points`)."""
        return dict(zip(self.records, map(tuple, self.table.points.tolist())))

    @cached_property
    def score_array(self) -> np.ndarray:
        """S(x) through the context's rounds, in ``1/unit``, by row."""
        out: np.ndarray = self.table.points.sum(axis=1)
        return out

    @cached_property
    def score(self) -> dict[PlayerId, int]:
        """S(x) through the context's rounds, in ``1/unit``."""
        return dict(zip(self.records, self.score_array.tolist()))

    @cached_property
    def classes(self) -> dict[PlayerId, tuple[str, ...]]:
        """Each round's result class W/D/L; a PAB by what it is worth, a half-point PAB a draw (:attr:`Table.cls`)."""
        letters = "LDW"
        return {x: tuple(letters[c] for c in row) for x, row in zip(self.records, self.table.cls.tolist())}

    @cached_property
    def last_paired_array(self) -> np.ndarray:
        """The player's last round with a game, a forfeit or a PAB (0 if none; RULES.md 4.2 category 5), by row."""
        t = self.table
        paired = (t.opponent >= 0) | (t.kind == _KIND_CODE[RoundKind.PAB])
        if not self.rounds:
            return np.zeros(len(self.records), dtype=np.int64)
        return np.where(paired.any(axis=1), self.rounds - np.argmax(paired[:, ::-1], axis=1), 0)

    @cached_property
    def last_paired(self) -> dict[PlayerId, int]:
        """:attr:`last_paired_array` by name."""
        return dict(zip(self.records, self.last_paired_array.tolist()))

    @property
    def rule(self) -> str:
        """``unplayed`` in force (RULES.md 4.2)."""
        return self.settings.unplayed_rule

    @cached_property
    def opponent_score_array(self) -> np.ndarray:
        """A player's score as their opponents' tiebreaks count it (RULES.md 4.2, in ``1/unit``), by row.

        ``points``: S. ``fide2009``: every round without a game counts a draw (S09). ``fide2023`` and
        ``fide2026`` (C.07 16.3): requested byes after the last paired round count a draw (S23).
        """
        if self.rule == "points" or not self.rounds:
            return self.score_array
        t, d = self.table, self.whole(self.scale.draw)
        if self.rule == "fide2009":
            counted = np.where(t.kind == _KIND_CODE[RoundKind.GAME], t.points, d)
        else:
            after = np.arange(1, self.rounds + 1) > self.last_paired_array[:, None]  # every round after: a draw
            counted = np.where(after, d, t.points)
        out: np.ndarray = counted.sum(axis=1)
        return out

    @cached_property
    def opponent_score(self) -> dict[PlayerId, int]:
        """:attr:`opponent_score_array` by name."""
        return dict(zip(self.records, self.opponent_score_array.tolist()))

    def _mirror(self, points: np.ndarray, cls: np.ndarray) -> np.ndarray:
        """Points of the opposite result: W + L - p on a symmetric scale (chess 1 - p), else by class."""
        s = self.scale
        w, d, loss = self.whole(s.win), self.whole(s.draw), self.whole(s.loss)
        if 2 * d == w + loss:
            return (w + loss) - points
        return np.where(cls == 2, loss, np.where(cls == 1, d, w))

    @cached_property
    def contribution_table(self) -> Contributions:
        """Every player's Buchholz contributions c_r, round by round (RULES.md 4.2), as arrays.

        A game adds the opponent's :attr:`opponent_score`. Other rounds: ``points``: a forfeit adds the
        scheduled opponent's S, byes nothing; ``fide2009``: a virtual opponent S_<r + mirror(p_r) +
        D(n - r); ``fide2023``: a dummy on the player's own S; ``fide2026``: that dummy capped by the
        forfeit opponent's S23, or by D times the rounds played. A round other than a game is a VUR when
        it is a forfeit loss or a requested bye (C.07 Art. 16.1).
        """
        rule, n, t = self.rule, self.rounds, self.table
        d = self.whole(self.scale.draw)
        met = t.opponent >= 0
        at = np.where(met, t.opponent, 0)  # the opponent's row where met (any row elsewhere: masked out)
        theirs = self.opponent_score_array[at]
        game = met & (t.kind == _KIND_CODE[RoundKind.GAME])
        own = self.score_array[:, None]
        if rule == "points":
            value, present = self.score_array[at], met
        elif rule == "fide2009":
            before = np.cumsum(t.points, axis=1) - t.points
            later = self.integers([d * (n - r) for r in range(1, n + 1)])
            value, present = before + self._mirror(t.points, t.cls) + later, np.ones_like(met)
        elif rule == "fide2023":
            value, present = np.broadcast_to(own, t.points.shape), np.ones_like(met)
        else:
            value = np.minimum(own, np.where(met, theirs, d * n))
            present = np.ones_like(met)
        value = np.where(game, theirs, value)
        vur = ~game & np.isin(t.kind, _VUR_CODES)
        return Contributions(value=np.where(present, value, 0), present=present, vur=vur & present, scored=t.cls)

    def contributions_of(self, x: PlayerId) -> tuple[Contribution, ...]:
        """``x``'s contributions (:attr:`contribution_table`) with their records, round by round: what an
        explanation lists."""
        c, row = self.contribution_table, self.row[x]
        return tuple(Contribution(r, v, u, f) for r, v, p, u, f in zip(
            self.records[x], c.value[row].tolist(), c.present[row].tolist(), c.vur[row].tolist(),
            c.scored[row].tolist()) if p)

    @cached_property
    def contributions(self) -> dict[PlayerId, tuple[Contribution, ...]]:
        """Every player's :meth:`contributions_of`."""
        return {x: self.contributions_of(x) for x in self.records}

    def column(self, name: str) -> Column:
        """Every player's value of the per-player tiebreak ``name`` as a :class:`Column`, computed once: by its
        column definition at once, else player by player (:meth:`values`) over their common denominator."""
        known = self._column_memo.get(name)
        if known is None:
            entry = TIEBREAKS[name]
            if entry.column is not None:
                known = entry.column(self)
            else:
                nums, den = self.whole_values(name)
                row = [nums[x] for x in self.players]
                known = Column(np.array(row, dtype=object if _too_wide(row) else np.int64), den)
            self._column_memo[name] = known
        return known

    def values(self, name: str) -> dict[PlayerId, Fraction]:
        """Every player's value of the per-player tiebreak ``name``, computed once."""
        if name not in self._memo:
            entry = TIEBREAKS[name]
            fn = entry.value
            assert fn is not None, f"{name} is computed on a tied group"
            if entry.column is not None:
                self._memo[name] = dict(zip(self.players, self.column(name).fractions()))
            else:
                some = self._some_memo.pop(name, {})
                self._memo[name] = {x: some[x] if x in some else fn(self, x, None) for x in self.players}
        return self._memo[name]

    def value(self, name: str, x: PlayerId) -> Fraction:
        """Player ``x``'s value of the per-player tiebreak ``name``: from :meth:`values` or its column when
        every player's is known already, else computed for ``x`` alone (and kept for :meth:`values`)."""
        known = self._memo.get(name)
        if known is not None:
            return known[x]
        if TIEBREAKS[name].column is not None:
            return self.column(name).at(self.row[x])
        some = self._some_memo.setdefault(name, {})
        if x not in some:
            fn = TIEBREAKS[name].value
            assert fn is not None, f"{name} is computed on a tied group"
            some[x] = fn(self, x, None)
        return some[x]

    def whole_values(self, name: str) -> tuple[dict[PlayerId, int], int]:
        """:meth:`values` over one common denominator, for fast exact means: (numerators, denominator)."""
        if name not in self._whole_memo:
            self._whole_memo[name] = _over_one_denominator(self.values(name))
        return self._whole_memo[name]

    def head_to_head(self, x: PlayerId) -> dict[PlayerId, list[int]]:
        """Points (``1/unit``) ``x`` scored against each opponent in games over the board.

        Computed on first use for each player: only tied groups and explanations ask.
        """
        if x not in self._met_memo:
            mine: dict[PlayerId, list[int]] = {}
            for r, p in zip(self.records[x], self.round_points[x]):
                if r.kind is RoundKind.GAME and r.opponent is not None:
                    mine.setdefault(r.opponent, []).append(p)
            self._met_memo[x] = mine
        return self._met_memo[x]

    @cached_property
    def hct_record_array(self) -> np.ndarray:
        """Match wins minus losses (a PAB is a win; requested byes neither), RULES.md 4.9, by row."""
        t = self.table
        met = t.opponent >= 0
        wins = (t.cls == 2) & (met | (t.kind == _KIND_CODE[RoundKind.PAB]))
        out: np.ndarray = wins.sum(axis=1) - ((t.cls == 0) & met).sum(axis=1)
        return out

    @cached_property
    def hct_records(self) -> dict[PlayerId, int]:
        """:attr:`hct_record_array` by name."""
        return dict(zip(self.records, self.hct_record_array.tolist()))

    def opponents_mean(self, values: Column, weights: np.ndarray | None = None) -> Column:
        """The mean of ``values`` over each player's opponents, one term per round with an opponent (games and
        forfeits; byes are left out), each term weighted by its round's whole-number weight (``weights``, one
        per round; 1 when not given); 0 for a player without an opponent."""
        t = self.table
        met = t.opponent >= 0
        weight = met.astype(np.int64) if weights is None else np.where(met, weights[None, :], 0)
        nums = values.numerators
        if nums.dtype != object and nums.size and int(np.abs(nums).max()) * max(int(weight.sum(axis=1).max()), 1) \
                >= 2**62:
            nums = nums.astype(object)
        totals = (weight * nums[np.where(met, t.opponent, 0)]).sum(axis=1).tolist()
        counts = weight.sum(axis=1).tolist()
        common = math.lcm(*{c for c in counts if c})
        out = [total * (common // c) if c else 0 for total, c in zip(totals, counts)]
        return Column(np.array(out, dtype=object if _too_wide(out) else np.int64), values.denominator * common)

    @cached_property
    def cobra_weights(self) -> tuple[np.ndarray, int]:
        """Each round's weight in SoS and ESoS (``round_weights``, RULES.md 4.12) as whole numbers over one
        denominator: (weights by round, denominator)."""
        weights = [self.settings.round_weight(r) for r in range(1, self.rounds + 1)]
        den = math.lcm(*(w.denominator for w in weights)) if weights else 1
        return np.array([w.numerator * (den // w.denominator) for w in weights], dtype=np.int64), den

    @cached_property
    def _cobra_rounds(self) -> np.ndarray:
        """Rounds Cobra would have a pairing for, by row and round (not :data:`_UNPAIRED`)."""
        rounds: np.ndarray = ~np.isin(self.table.kind, _UNPAIRED_CODES)
        return rounds

    @cached_property
    def cobra_played(self) -> dict[PlayerId, Fraction]:
        """Cobra's rounds played: the weights of the player's rounds Cobra would have a pairing for (RULES.md 4.12)."""
        weights, den = self.cobra_weights
        played = (self._cobra_rounds * weights[None, :]).sum(axis=1).tolist()
        return {x: Fraction(p, den) for x, p in zip(self.records, played)}

    @cached_property
    def cobra_points(self) -> dict[PlayerId, int]:
        """Points (``1/unit``) of those rounds: a late entry's awarded points are not Cobra's."""
        return dict(zip(self.records, np.where(self._cobra_rounds, self.table.points, 0).sum(axis=1).tolist()))

    @cached_property
    def cobra_points_per_round(self) -> Column:
        """Points per round played, as Cobra divides them (:attr:`cobra_points` / :attr:`cobra_played`); 0 for
        a player with no round played."""
        weights, den = self.cobra_weights
        played = (self._cobra_rounds * weights[None, :]).sum(axis=1).tolist()
        points = np.where(self._cobra_rounds, self.table.points, 0).sum(axis=1).tolist()
        common = math.lcm(*{p for p in played if p})
        out = [q * den * (common // p) if p else 0 for q, p in zip(points, played)]
        return Column(np.array(out, dtype=object if _too_wide(out) else np.int64), self.unit * common)

    @cached_property
    def lot(self) -> dict[PlayerId, int]:
        """Position (from 1) in ``Random(f"{seed}:standings:0")``'s shuffle of the sorted names (RULES.md 4.11)."""
        names = sorted(self.records)
        random.Random(f"{self.settings.seed}:standings:0").shuffle(names)
        return {x: i for i, x in enumerate(names, start=1)}


def sortable(values: np.ndarray) -> np.ndarray:
    """``values`` as ``int64`` that sort the same: as they are, or, when they are Python integers too wide for 64
    bits, as their ranks (equal values, equal ranks)."""
    if values.dtype != object:
        return values
    return np.unique(values.ravel(), return_inverse=True)[1].reshape(values.shape).astype(np.int64)


def _too_wide(numbers: Iterable[int]) -> bool:
    """Whether some of ``numbers`` do not fit in 62 bits (an ``int64`` array, negated, with room)."""
    return any(abs(v) >= 2**62 for v in numbers)


def _over_one_denominator(values: Mapping[PlayerId, Fraction]) -> tuple[dict[PlayerId, int], int]:
    """``values`` as whole numerators over their least common denominator: (numerators, denominator)."""
    den = math.lcm(*{v.denominator for v in values.values()}) if values else 1
    return {x: int(v * den) for x, v in values.items()}, den


_UNPAIRED = frozenset({RoundKind.LATE, RoundKind.ABSENT, RoundKind.ZERO_BYE})
"""Rounds Cobra has no pairing for (RULES.md 4.12): before a late entry, after a drop, and a round the player
missed (an ``absent`` or ``zero bye`` row: Cobra does not pair a player who is not there)."""
_UNPAIRED_CODES = np.array(sorted(_KIND_CODE[k] for k in _UNPAIRED), dtype=np.int8)


def split_by(group: Group, value: Mapping[PlayerId, Fraction], lowest_first: bool = False) -> list[Group]:
    """``group`` sorted by ``value`` (highest first unless ``lowest_first``), equal values together.

    >>> split_by(("a", "b", "c"), {"a": Fraction(1), "b": Fraction(2), "c": Fraction(1)})
    [('b',), ('a', 'c')]
    """
    values = [value[x] for x in group]
    den = math.lcm(*{v.denominator for v in values})  # sorted as whole numbers: far faster than fractions
    whole = {x: v.numerator * (den // v.denominator) for x, v in zip(group, values)}
    ordered = sorted(group, key=whole.__getitem__, reverse=not lowest_first)
    out: list[list[PlayerId]] = []
    for x in ordered:
        if out and whole[out[-1][0]] == whole[x]:
            out[-1].append(x)
        else:
            out.append([x])
    return [tuple(part) for part in out]
