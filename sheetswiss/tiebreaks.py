"""The tiebreaks: one registry of named, documented functions (RULES.md section 4).

Every tiebreak reads a :class:`Context`, built once per standings from the event's history: each
player's round records, scores and opponents. Points are held there as whole numbers of
``1/unit`` of a point, so sums are integer sums; values come out as exact ``Fraction``s and are
rounded only for display (:meth:`Tiebreak.text`).

>>> find_tiebreak(" SOS ")
'buchholz'
>>> TIEBREAKS["omw"].title, TIEBREAKS["omw"].text(Fraction(11, 18))
('OMW%', '61.1111')
>>> chain(Settings(points="chess", tiebreaks=("Med-Buchholz", "sb")))
('median_buchholz', 'sonneborn_berger')
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple, TypeAlias, final

from .errors import UnknownName, excerpt
from .history import RoundKind, RoundRecord, history
from .model import Event, Player, PlayerId
from .scoring import Scale, per_round, scale_for
from .settings import Settings, parse_number

__all__ = [
    "TIEBREAKS",
    "Context",
    "Group",
    "Kind",
    "Notes",
    "Tiebreak",
    "chain",
    "cut",
    "default_chain",
    "find_tiebreak",
    "number_text",
    "split_by",
]

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
    lowest_first: bool = False
    """Ranks the lowest value first (``random``'s draw position)."""
    aliases: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        """The rule and its source, from the function's docstring."""
        fn = self.value or self.split
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


def cut(values: Sequence[int], lowest: int = 0, highest: int = 0, vur: Sequence[bool] = ()) -> list[int]:
    """Positions a cut removes: the ``lowest`` least values, then the ``highest`` greatest.

    RULES.md 4.3 and 4.2 (FIDE C.07 Art. 14 and 16.5): while the player has VURs (``vur``: one flag
    per value, or none), a low cut removes the least VUR value instead; high cuts are unaffected.
    Fewer values than cuts removes them all (the value is 0). Ties go to the earlier round.

    >>> cut([3, 5, 1], lowest=1, highest=1)              # Median-Buchholz of 3, 2.5, 1 (in halves)
    [2, 1]
    >>> cut([3, 4, 6, 7, 5], lowest=1, vur=[False, False, False, False, True])  # RULES.md 4.2's Q
    [4]
    """
    order = sorted(range(len(values)), key=values.__getitem__)  # stable: equal values keep round order
    vurs = [i for i in order if vur[i]] if any(vur) else []  # the VURs, least value first
    removed: list[int] = []
    for _ in range(min(lowest, len(order))):
        pick = vurs.pop(0) if vurs else order[0]
        order.remove(pick)
        removed.append(pick)
    for _ in range(min(highest, len(order))):
        removed.append(order.pop())
    return removed


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
    unit: int
    """Points are held as whole numbers of ``1/unit``: the least common denominator of all points."""
    _memo: dict[str, dict[PlayerId, Fraction]] = field(default_factory=dict, repr=False)
    _whole_memo: dict[str, tuple[dict[PlayerId, int], int]] = field(default_factory=dict, repr=False)
    _met_memo: dict[PlayerId, dict[PlayerId, list[int]]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, event: Event, *, through: int | None = None) -> Context:
        """The context of ``event`` through round ``through`` (default: the completed rounds)."""
        n = event.completed_rounds if through is None else through
        records = history(event, through=n)
        scale = per_round(scale_for(event.settings), event.settings.games_per_round)
        fixed = (scale.win, scale.draw, scale.loss, scale.bye)
        dens = {p.denominator for p in fixed} | {r.points.denominator for rs in records.values() for r in rs}
        return cls(event, n, records, scale, math.lcm(*dens))

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
    def round_points(self) -> dict[PlayerId, tuple[int, ...]]:
        """Each player's points per round, in ``1/unit``."""
        return {x: tuple(self.whole(r.points) for r in rs) for x, rs in self.records.items()}

    @cached_property
    def score(self) -> dict[PlayerId, int]:
        """S(x) through the context's rounds, in ``1/unit``."""
        return {x: sum(ps) for x, ps in self.round_points.items()}

    @cached_property
    def classes(self) -> dict[PlayerId, tuple[str, ...]]:
        """Each round's result class W/D/L; a PAB by what it is worth (a half-point PAB is a draw)."""
        s, pab = self.scale, RoundKind.PAB

        def by_worth(r: RoundRecord) -> str:
            if r.points >= s.win:
                return "W"
            return "D" if s.draws_allowed and r.points >= s.draw else "L"

        return {x: tuple(r.outcome if r.kind is not pab else by_worth(r) for r in rs) for x, rs in self.records.items()}

    @cached_property
    def last_paired(self) -> dict[PlayerId, int]:
        """The player's last round with a game, a forfeit or a PAB (0 if none; RULES.md 4.2 category 5)."""
        pab = RoundKind.PAB
        return {x: next((r.round for r in reversed(rs) if r.opponent is not None or r.kind is pab), 0)
                for x, rs in self.records.items()}

    @property
    def rule(self) -> str:
        """``unplayed`` in force (RULES.md 4.2)."""
        return self.settings.unplayed_rule

    @cached_property
    def opponent_score(self) -> dict[PlayerId, int]:
        """A player's score as their opponents' tiebreaks count it (RULES.md 4.2, in ``1/unit``).

        ``points``: S. ``fide2009``: every round without a game counts a draw (S09). ``fide2023`` and
        ``fide2026`` (C.07 16.3): requested byes after the last paired round count a draw (S23).
        """
        if self.rule == "points":
            return self.score
        d = self.whole(self.scale.draw)
        out = {}
        for x, rs in self.records.items():
            ps = self.round_points[x]
            if self.rule == "fide2009":
                out[x] = sum(p if r.kind is RoundKind.GAME else d for r, p in zip(rs, ps))
            else:
                last = self.last_paired[x]  # every round after it is a requested bye: a draw
                out[x] = sum(ps[:last]) + d * (len(ps) - last)
        return out

    def _mirror(self, points: int, cls: str) -> int:
        """Points of the opposite result: W + L - p on a symmetric scale (chess 1 - p), else by class."""
        s = self.scale
        w, d, loss = self.whole(s.win), self.whole(s.draw), self.whole(s.loss)
        if 2 * d == w + loss:
            return w + loss - points
        return {"W": loss, "D": d, "L": w}[cls]

    @cached_property
    def contributions(self) -> dict[PlayerId, tuple[Contribution, ...]]:
        """Each player's Buchholz contributions c_r, round by round (RULES.md 4.2).

        A game adds the opponent's :attr:`opponent_score`. Other rounds: ``points``: a forfeit adds the
        scheduled opponent's S, byes nothing; ``fide2009``: a virtual opponent S_<r + mirror(p_r) +
        D(n - r); ``fide2023``: a dummy on the player's own S; ``fide2026``: that dummy capped by the
        forfeit opponent's S23, or by D times the rounds played.
        """
        rule, n = self.rule, self.rounds
        d = self.whole(self.scale.draw)
        opp = self.opponent_score
        scored = {"W": 2, "D": 1, "L": 0}
        game = RoundKind.GAME  # a local: enum attribute lookups dominate this loop otherwise
        out = {}
        for x, rs in self.records.items():
            own, before, row = self.score[x], 0, []
            for rec, p, cls in zip(rs, self.round_points[x], self.classes[x]):
                value: int | None
                if rec.kind is game and rec.opponent is not None:
                    value = opp[rec.opponent]
                elif rule == "points":
                    value = self.score[rec.opponent] if rec.opponent is not None else None
                elif rule == "fide2009":
                    value = before + self._mirror(p, cls) + d * (n - rec.round)
                elif rule == "fide2023":
                    value = own
                else:
                    value = min(own, opp[rec.opponent] if rec.opponent is not None else d * n)
                before += p
                if value is not None:
                    vur = rec.kind is not game and rec.kind in _VUR  # games first: enum hashing is slow
                    row.append(Contribution(rec, value, vur, scored[cls]))
            out[x] = tuple(row)
        return out

    def values(self, name: str) -> dict[PlayerId, Fraction]:
        """Every player's value of the per-player tiebreak ``name``, computed once."""
        if name not in self._memo:
            fn = TIEBREAKS[name].value
            assert fn is not None, f"{name} is computed on a tied group"
            self._memo[name] = {x: fn(self, x, None) for x in self.players}
        return self._memo[name]

    def whole_values(self, name: str) -> tuple[dict[PlayerId, int], int]:
        """:meth:`values` over one common denominator, for fast exact means: (numerators, denominator)."""
        if name not in self._whole_memo:
            values = self.values(name)
            den = math.lcm(*{v.denominator for v in values.values()}) if values else 1
            self._whole_memo[name] = {x: int(v * den) for x, v in values.items()}, den
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
    def hct_records(self) -> dict[PlayerId, int]:
        """Match wins minus losses (a PAB is a win; requested byes neither), RULES.md 4.9."""
        out = {}
        for x, rs in self.records.items():
            wins = sum(1 for r, c in zip(rs, self.classes[x])
                       if c == "W" and (r.opponent is not None or r.kind is RoundKind.PAB))
            losses = sum(1 for r, c in zip(rs, self.classes[x]) if c == "L" and r.opponent is not None)
            out[x] = wins - losses
        return out

    @cached_property
    def cobra_played(self) -> dict[PlayerId, Fraction]:
        """Cobra's rounds played: the weights of the player's rounds Cobra would have a pairing for (RULES.md 4.12)."""
        weight = self.settings.round_weight
        return {x: sum((weight(r.round) for r in rs if r.kind not in _UNPAIRED), Fraction(0))
                for x, rs in self.records.items()}

    @cached_property
    def cobra_points(self) -> dict[PlayerId, int]:
        """Points (``1/unit``) of those rounds: a late entry's awarded points are not Cobra's."""
        return {x: sum(p for r, p in zip(rs, self.round_points[x]) if r.kind not in _UNPAIRED)
                for x, rs in self.records.items()}

    @cached_property
    def cobra_points_per_round(self) -> dict[PlayerId, Fraction]:
        """Points per round played, as Cobra divides them; 0 for a player with no round played."""
        return {x: self.points(p) / self.cobra_played[x] if self.cobra_played[x] else Fraction(0)
                for x, p in self.cobra_points.items()}

    @cached_property
    def lot(self) -> dict[PlayerId, int]:
        """Position (from 1) in ``Random(f"{seed}:standings:0")``'s shuffle of the sorted names (RULES.md 4.11)."""
        names = sorted(self.records)
        random.Random(f"{self.settings.seed}:standings:0").shuffle(names)
        return {x: i for i, x in enumerate(names, start=1)}


def _opp_label(ctx: Context) -> str:
    """How :attr:`Context.opponent_score` counted, for explanations."""
    if ctx.rule == "points":
        return "score"
    if ctx.rule == "fide2009":
        return "score, unplayed rounds as draws"
    return "score, rounds after the last paired one as draws"


def _explain_contribution(ctx: Context, x: PlayerId, c: Contribution) -> str:
    rec = c.record
    value = number_text(ctx.points(c.value))
    head = f"R{rec.round} {rec.kind.value}" + (f" v {rec.opponent}" if rec.opponent else "")
    if rec.kind is RoundKind.GAME or (ctx.rule == "points" and rec.opponent):
        how = f"{rec.opponent}'s {_opp_label(ctx)}"
    elif ctx.rule == "fide2009":
        how = "virtual opponent: score before the round + opposite result + a draw a round after"
    elif ctx.rule == "fide2023":
        how = f"dummy on {x}'s own score (C.07 16.4)"
    else:
        cap = f"{rec.opponent}'s score" if rec.opponent else "a draw a round"
        how = f"dummy on {x}'s own score, at most {cap} (C.07 16.4.1-2)"
    return f"  {head}: {value} ({how}){' [VUR]' if c.vur and ctx.rule != 'points' else ''}"


def _sum_contributions(ctx: Context, x: PlayerId, notes: Notes, lowest: int = 0, highest: int = 0,
                       weighted: bool = False) -> Fraction:
    """Buchholz-family sum over :attr:`Context.contributions`, cut per :func:`cut`; ``weighted`` is SB."""
    cs = ctx.contributions[x]
    values = [c.value * c.scored for c in cs] if weighted else [c.value for c in cs]
    fide_cut = lowest and ctx.rule in ("fide2023", "fide2026")
    removed = cut(values, lowest, highest, [c.vur for c in cs] if fide_cut else ()) if lowest or highest else []
    per = 2 if weighted else 1
    if notes is not None:
        for c, v in zip(cs, values):
            line = _explain_contribution(ctx, x, c)
            notes.append(line + (f" x {number_text(Fraction(c.scored, 2))} = {number_text(ctx.points(v, 2))}"
                                 if weighted else ""))
        for i in removed:
            notes.append(f"  cut: R{cs[i].record.round} ({number_text(ctx.points(values[i], per))})")
        if not cs:
            notes.append("  no rounds contribute")
    return ctx.points(sum(values) - sum(values[i] for i in removed), per)


@tiebreak("buchholz", "bh", "sos", "buchholtz", title="Buchholz",
          legend="the sum of the opponents' scores (a round without an opponent counts as the unplayed setting says)")
def buchholz(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Buchholz: the sum of the player's round contributions c_r (RULES.md 4.3).

    FIDE C.07 Art. 8.1; seed 004's "SOS". Contributions follow ``unplayed`` (RULES.md 4.2, C.07
    Art. 16). RULES.md 4.2's P: 10 (``points``), 14 (``fide2009``), 16 (``fide2023``), 14 (``fide2026``).
    """
    return _sum_contributions(ctx, x, notes)


@tiebreak("buchholz_cut1", "bh_c1", "cut1", "buchholz cut 1", title="BH Cut1",
          legend="Buchholz without the lowest opponent's score")
def buchholz_cut1(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Buchholz less the least contribution (RULES.md 4.3; FIDE C.07 Art. 14.1).

    Under ``fide2023``/``fide2026`` the least VUR contribution goes first (C.07 Art. 16.5): RULES.md
    4.2's Q has 1.5, 2, 3, 3.5 and a half-bye dummy of 2.5, so Cut-1 is 10, not 11.
    """
    return _sum_contributions(ctx, x, notes, lowest=1)


@tiebreak("buchholz_cut2", "bh_c2", "cut2", "buchholz cut 2", title="BH Cut2",
          legend="Buchholz without the two lowest opponents' scores")
def buchholz_cut2(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Buchholz less the two least contributions (RULES.md 4.3; FIDE C.07 Art. 14.2; VUR rule of 16.5)."""
    return _sum_contributions(ctx, x, notes, lowest=2)


@tiebreak("median_buchholz", "median", "m_buchholz", "m_buchholtz", "bh_m1", "median1", title="Med-Buchholz",
          legend="median Buchholz: Buchholz without the highest and the lowest opponent's score")
def median_buchholz(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Buchholz less the least and then the greatest contribution (RULES.md 4.3).

    Seed 004's M-Buchholz ("not taking into account the best and the worst totals"); FIDE C.07
    Median-1. Contributions 3, 2.5, 1 give 2.5; fewer than two contributions give 0.
    """
    return _sum_contributions(ctx, x, notes, lowest=1, highest=1)


@tiebreak("sonneborn_berger", "sb", "neustadtl", title="SB",
          legend="Sonneborn-Berger: the scores of the opponents beaten, plus half those of the opponents drawn")
def sonneborn_berger(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Sonneborn-Berger: Σ c_r · f_r, f = 1 for a win, 1/2 a draw or half bye, 0 a loss (RULES.md 4.4).

    FIDE C.07 Art. 9.1 multiplies by the points scored, which is f on the chess scale; sheetswiss
    uses f on every scale (*decision*). A PAB counts as what it is worth. Contributions follow
    ``unplayed`` (4.2; ``fide2009``'s virtual opponents included). RULES.md 4.2's P: 4.5, 8.5, 10.5, 8.5.
    """
    return _sum_contributions(ctx, x, notes, weighted=True)


@tiebreak("sodos", title="SODOS",
          legend="sum of defeated opponents' scores: the scores of the opponents beaten over the board (forfeit"
                 " wins and byes add nothing)")
def sodos(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Sum of the scores of the opponents beaten over the board (RULES.md 4.4; seed 004).

    Opponents' scores as ``unplayed`` counts them (S, S09 or S23). Forfeit wins and byes add nothing
    (*decision*); draws add nothing, or half the opponent's score with ``sodos_draws: half``.
    Beating opponents on 4 and 3, drawing one on 5 and losing to one on 6 gives 7 (9.5 with ``half``).
    """
    half = ctx.settings.sodos_draws == "half"
    weight = {"W": 2, "D": 1 if half else 0, "L": 0}
    total = 0
    for rec, cls in zip(ctx.records[x], ctx.classes[x]):
        if rec.kind is RoundKind.GAME and rec.opponent is not None and weight[cls]:
            s = ctx.opponent_score[rec.opponent]
            total += weight[cls] * s
            if notes is not None:
                share = "" if cls == "W" else " x 1/2"
                notes.append(f"  R{rec.round} {'beat' if cls == 'W' else 'drew'} {rec.opponent}: "
                             f"{number_text(ctx.points(s))}{share} ({_opp_label(ctx)})")
    return ctx.points(total, 2)


def _drop_round(ctx: Context, x: PlayerId) -> int | None:
    """The round a dropped player last played in (Players.Status), ``None`` if still in."""
    player = ctx.player[x]
    if player.dropped_after is not None:
        return player.dropped_after
    if not player.dropped:
        return None
    return max((r.round for r in ctx.records[x] if r.kind is not RoundKind.ABSENT), default=0)


@tiebreak("progress", "ps", "cumulative", title="Progress",
          legend="progressive score: the player's total after round 1, plus the total after round 2, and so on")
def progress(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Σ over rounds r = 1..n of the player's points after round r (RULES.md 4.5).

    Seed 004's Progress; FIDE C.07 Art. 7.5 (PS). Unplayed rounds count the points awarded. After a
    drop the frozen total keeps being added (``progress_after_drop: continue``) or the sum stops at
    the drop (``stop``). W, forfeit W, L, PAB, D on the chess scale: 1 + 2 + 2 + 3 + 3.5 = 11.5.
    """
    last = ctx.rounds
    if ctx.settings.progress_after_drop == "stop":
        drop = _drop_round(ctx, x)
        last = last if drop is None else min(last, drop)
    running = total = 0
    for p in ctx.round_points[x][:last]:
        running += p
        total += running
    if notes is not None:
        notes.append(f"  running totals of rounds 1-{last} added up"
                     + (f" (stops at the drop after round {last})" if last < ctx.rounds else ""))
    return ctx.points(total)


def _de_values(ctx: Context, group: Group) -> dict[PlayerId, Fraction]:
    """de(x): points against the other members in games over the board, repeated meetings averaged."""
    members = set(group)
    out = {}
    for x in group:
        met = ctx.head_to_head(x)
        out[x] = sum((Fraction(sum(ps), len(ps) * ctx.unit) for y, ps in met.items() if y in members and y != x),
                     Fraction(0))
    return out


def _met_count(ctx: Context, x: PlayerId, members: set[PlayerId]) -> int:
    return sum(1 for y in ctx.head_to_head(x) if y in members and y != x)


def split_by(group: Group, value: Mapping[PlayerId, Fraction], lowest_first: bool = False) -> list[Group]:
    """``group`` sorted by ``value`` (highest first unless ``lowest_first``), equal values together.

    >>> split_by(("a", "b", "c"), {"a": Fraction(1), "b": Fraction(2), "c": Fraction(1)})
    [('b',), ('a', 'c')]
    """
    ordered = sorted(group, key=lambda x: value[x], reverse=not lowest_first)
    out: list[Group] = []
    for x in ordered:
        if out and value[out[-1][0]] == value[x]:
            out[-1] = (*out[-1], x)
        else:
            out.append((x,))
    return out


def _de_split(ctx: Context, group: Group) -> list[Group]:
    """Split ``group`` by direct encounter under ``de_rule`` (RULES.md 4.6)."""
    rule = ctx.settings.de_rule
    out: list[Group] = []
    rest = group
    while len(rest) > 1:
        members = set(rest)
        de = _de_values(ctx, rest)
        all_met = all(_met_count(ctx, x, members) == len(rest) - 1 for x in rest)
        if all_met and (rule in ("fide", "all_met")
                        or (rule == "separates" and len(set(de.values())) == len(rest))
                        or (rule == "pair" and len(rest) == 2)):
            parts = split_by(rest, de)
            if len(parts) == 1:
                break
            for part in parts:  # each subgroup still tied is evaluated again on its own (C.07 Art. 6)
                out.extend(_de_split(ctx, part) if len(part) > 1 else [part])
            return out
        if rule != "fide" or all_met:
            break
        # C.07 6.3: first place only to someone whom the missing games could not catch
        w = ctx.whole(ctx.scale.win)
        bound = sorted(((de[y] + Fraction(w * (len(rest) - 1 - _met_count(ctx, y, members)), ctx.unit), y)
                        for y in rest), key=lambda t: t[0], reverse=True)
        sure = [x for x in rest if all(de[x] > b for b, y in bound[:2] if y != x)]
        if not sure:
            break
        out.append((sure[0],))
        rest = tuple(y for y in rest if y != sure[0])
    out.append(rest)
    return out


@group_tiebreak("direct_encounter", "de", "head_to_head", "h2h", title="DE",
                legend="direct encounter: points scored in the games between the tied players")
def direct_encounter(ctx: Context, group: Group) -> tuple[list[Group], dict[PlayerId, Fraction]]:
    """Direct encounter within the tied group (RULES.md 4.6; FIDE C.07 Art. 6; seed 004).

    de(x) = points against the other tied players in games over the board (forfeits excluded,
    6.1.1; repeated meetings averaged, 6.1.2). ``de_rule``: ``fide`` ranks by de when all met and
    re-evaluates each subgroup, else places only a player whom the missing games could not catch
    (6.3); ``all_met``; ``separates`` (all met, all de different); ``pair`` (two players, decisive).
    Shown value: de in the group where the chain reached this tiebreak (0 when already untied).
    """
    return _de_split(ctx, group), _de_values(ctx, group)


def _count(ctx: Context, x: PlayerId, notes: Notes, test: Callable[[RoundRecord, str], bool]) -> Fraction:
    rounds = [r.round for r, c in zip(ctx.records[x], ctx.classes[x]) if test(r, c)]
    if notes is not None:
        notes.append(f"  rounds: {', '.join(map(str, rounds)) or 'none'}")
    return Fraction(len(rounds))


@tiebreak("wins", "win", title="Wins", kind=Kind.INTEGER,
          legend="rounds won, forfeit wins and a bye worth a win included")
def wins(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Rounds with a win's points, played or not (RULES.md 4.7; FIDE C.07 Art. 7.1, WIN).

    Forfeit wins count, and a PAB worth a win; a half-point PAB does not.
    """
    return _count(ctx, x, notes, lambda r, c: c == "W")


@tiebreak("wins_otb", "won", title="Wins OTB", kind=Kind.INTEGER,
          legend="games won over the board (no forfeits or byes)")
def wins_otb(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Games won over the board (RULES.md 4.7; FIDE C.07 Art. 7.2, WON)."""
    return _count(ctx, x, notes, lambda r, c: r.kind is RoundKind.GAME and c == "W")


@tiebreak("black_games", "bpg", title="Black games", kind=Kind.INTEGER, legend="games played as Black (Player B)")
def black_games(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Games played over the board as Black, i.e. as Player B / side 2 (RULES.md 4.7; FIDE C.07 Art. 7.3, BPG)."""
    return _count(ctx, x, notes, lambda r, c: r.kind is RoundKind.GAME and r.side == 2)


@tiebreak("black_wins", "bwg", title="Black wins", kind=Kind.INTEGER, legend="games won as Black (Player B)")
def black_wins(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Games won over the board as Black / Player B (RULES.md 4.7; FIDE C.07 Art. 7.4, BWG)."""
    return _count(ctx, x, notes, lambda r, c: r.kind is RoundKind.GAME and r.side == 2 and c == "W")


def _magic_rounds(ctx: Context, x: PlayerId) -> Iterable[tuple[RoundRecord, str]]:
    """Rounds a Magic percentage counts: games and forfeits, and PABs unless ``magic_byes: exclude``."""
    byes = ctx.settings.magic_byes == "mtr"
    return ((r, c) for r, c in zip(ctx.records[x], ctx.classes[x])
            if r.opponent is not None or (byes and r.kind is RoundKind.PAB))


def _floored(ctx: Context, earned: int, possible: int, notes: Notes, what: str) -> Fraction:
    floor = parse_number(ctx.settings.mtr_floor)
    if not possible:
        if notes is not None:
            notes.append(f"  no {what} yet: 0")
        return Fraction(0)
    ratio = Fraction(earned, possible)
    if notes is not None:
        notes.append(f"  {earned}/{possible} {what} points"
                     + (f", raised to the floor {ctx.settings.mtr_floor}" if ratio < floor else ""))
    return max(ratio, floor)


@tiebreak("mwp", "mw%", "match win percentage", title="MW%", kind=Kind.PERCENT,
          legend="match-win percentage: match points / (3 x rounds played), never below the floor (mtr_floor)")
def mwp(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Match-win percentage: match points / (3 x rounds played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 for a win or bye, 1 a draw; a bye is a round played (``magic_byes: mtr``) or left
    out (``exclude``, seed 002); requested byes and rounds after a drop are not rounds played
    (*decision*). MTR's examples: 3-2-0 with a bye then a drop, 9/15 = 60%; 1-3-0, 25% -> the floor.
    """
    mp = {"W": 3, "D": 1, "L": 0}
    rounds = list(_magic_rounds(ctx, x))
    return _floored(ctx, sum(mp[c] for _, c in rounds), 3 * len(rounds), notes, "match")


def _opponents_mean(ctx: Context, x: PlayerId, notes: Notes, name: str) -> Fraction:
    """Mean of the opponents' ``name`` values, one term per round with an opponent; none -> 0."""
    nums, den = ctx.whole_values(name)
    opponents = [r for r in ctx.records[x] if r.opponent is not None]
    if notes is not None:
        title = TIEBREAKS[name]
        for r in opponents:
            assert r.opponent is not None
            notes.append(f"  R{r.round} v {r.opponent}: {title.title} {title.text(Fraction(nums[r.opponent], den))}")
        if not opponents:
            notes.append("  no opponents yet: 0")
    if not opponents:
        return Fraction(0)
    return Fraction(sum(nums[r.opponent] for r in opponents if r.opponent is not None), den * len(opponents))


@tiebreak("omw", "omw%", "omwp", "opponents match win percentage", title="OMW%", kind=Kind.PERCENT,
          legend="opponents' match-win percentage: the average of the opponents' MW%")
def omw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' match-win percentage: the mean of each opponent's :func:`mwp` (RULES.md 4.8).

    MTR Appendix C: one term per round with an opponent (forfeits included); the player's own byes
    are left out; a dropped opponent counts with the rounds they played. RULES.md 4.8's P: 61.0000%
    with floor 0.33, 61.1111% with 1/3. Seed 000's pooled "Σ opponents' wins / 49" is another
    figure: it agrees only while no opponent dropped or sits under the floor (RULES.md 4.10).
    """
    return _opponents_mean(ctx, x, notes, "mwp")


def _games(rec: RoundRecord, cls: str) -> tuple[int, int, int]:
    """Games won, lost, drawn in one round: as typed, a bye or forfeit as 2-0 (*decision*), else one game."""
    if rec.games is not None:
        return rec.games
    if rec.kind is not RoundKind.GAME:
        return {"W": (2, 0, 0), "L": (0, 2, 0)}.get(cls, (0, 0, 0))
    return {"W": (1, 0, 0), "D": (0, 0, 1), "L": (0, 1, 0)}[cls]


@tiebreak("gwp", "gw%", "game win percentage", title="GW%", kind=Kind.PERCENT,
          legend="game-win percentage: game points / (3 x games played), never below the floor (mtr_floor)")
def gwp(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Game-win percentage: game points / (3 x games played), at least ``mtr_floor`` (RULES.md 4.8).

    MTR Appendix C: 3 a game won, 1 a game drawn. A bye counts as a 2-0 win (MTR "Byes"; left out
    with ``magic_byes: exclude``); a forfeit as 2-0 for the winner (*decision*); a result typed
    without a game score as one game. RULES.md 4.8's P: 21/30 = 70% (62.5% with ``exclude``).
    """
    won = lost = drawn = 0
    for rec, cls in _magic_rounds(ctx, x):
        w, lo, d = _games(rec, cls)
        won, lost, drawn = won + w, lost + lo, drawn + d
    return _floored(ctx, 3 * won + drawn, 3 * (won + lost + drawn), notes, "game")


@tiebreak("ogw", "ogw%", "ogwp", "opponents game win percentage", title="OGW%", kind=Kind.PERCENT,
          legend="opponents' game-win percentage: the average of the opponents' GW%")
def ogw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' game-win percentage: the mean of each opponent's :func:`gwp`, as :func:`omw` (RULES.md 4.8)."""
    return _opponents_mean(ctx, x, notes, "gwp")


@tiebreak("oomw", "oomw%", "oomwp", title="OOMW%", kind=Kind.PERCENT,
          legend="opponents' opponents' match-win percentage: the average of the opponents' OMW%")
def oomw(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Opponents' opponents' match-win percentage: the mean of each opponent's :func:`omw`.

    RULES.md 4.9: seed 000's recommended second step for Hearthstone (omw, oomw, gwp).
    """
    return _opponents_mean(ctx, x, notes, "omw")


@tiebreak("hct_t1", "t1", "win/loss sum", title="T1", kind=Kind.INTEGER,
          legend="the sum over the opponents of their wins minus losses (each at least hct_floor)")
def hct_t1(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T1: Σ over opponents of max(wins - losses, ``hct_floor``) (RULES.md 4.9; seed 000).

    One term per round with an opponent; the opponent's record is through the context's rounds (a
    dropped opponent's at the drop; their byes count as wins, *decision*). Byes add 0. Floor -3 is
    the HCT rule, -2 seed 000's argued fix, ``none`` no floor. Seed 000: Neirea 23, Farm4fame 11.
    """
    floor = None if ctx.settings.hct_floor == "none" else int(ctx.settings.hct_floor)
    total = 0
    for r in ctx.records[x]:
        if r.opponent is not None:
            record = ctx.hct_records[r.opponent]
            term = record if floor is None else max(record, floor)
            total += term
            if notes is not None:
                notes.append(f"  R{r.round} v {r.opponent}: wins - losses {record:+d}"
                             + (f", floored to {term:+d}" if term != record else ""))
    return Fraction(total)


@tiebreak("hct_t2", "t2", "first tiebreaker sum", title="T2", kind=Kind.INTEGER, legend="the sum of the opponents' T1")
def hct_t2(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T2: Σ over opponents (one term per round with an opponent) of their :func:`hct_t1` (RULES.md 4.9)."""
    t1, _ = ctx.whole_values("hct_t1")
    total = 0
    for r in ctx.records[x]:
        if r.opponent is not None:
            total += t1[r.opponent]
            if notes is not None:
                notes.append(f"  R{r.round} v {r.opponent}: T1 {t1[r.opponent]}")
    return Fraction(total)


@tiebreak("hct_t3", "t3", "timing", title="T3", kind=Kind.INTEGER,
          legend="the sum of the squares of the numbers of the rounds lost: a later loss ranks higher")
def hct_t3(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """HCT T3: Σ r² over the rounds r the player lost, forfeit losses included (RULES.md 4.9; seed 000).

    Losing later ranks higher: Neirea lost rounds 6 and 7, 36 + 49 = 85.
    """
    lost = [r.round for r, c in zip(ctx.records[x], ctx.classes[x]) if c == "L" and r.opponent is not None]
    if notes is not None:
        notes.append(f"  lost rounds: {', '.join(map(str, lost)) or 'none'}")
    return Fraction(sum(r * r for r in lost))


@tiebreak("random", "lot", title="Lot", kind=Kind.INTEGER, lowest_first=True,
          legend="drawing of lots from the event's seed: the lower number ranks first")
def random_lot(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Last resort: the position in a seeded shuffle of the sorted names, first ranked first (RULES.md 4.11).

    Seed 004's step 6 ("pick at random"); ``random.Random(f"{seed}:standings:0")`` with the Settings
    seed, so the same workbook always draws the same order.
    """
    if notes is not None:
        notes.append(f"  position {ctx.lot[x]} of {len(ctx.lot)} in the draw with seed {ctx.settings.seed}")
    return Fraction(ctx.lot[x])


_UNPAIRED = frozenset({RoundKind.LATE, RoundKind.ABSENT, RoundKind.ZERO_BYE})
"""Rounds Cobra has no pairing for (RULES.md 4.12): before a late entry, after a drop, and a round the player
missed (an ``absent`` or ``zero bye`` row: Cobra does not pair a player who is not there)."""


def _cobra_terms(ctx: Context, x: PlayerId) -> list[tuple[PlayerId, Fraction]]:
    """``x``'s opponents, one per round with an opponent, with the round's weight (byes left out)."""
    weight = ctx.settings.round_weight
    return [(r.opponent, weight(r.round)) for r in ctx.records[x] if r.opponent is not None]


def _weighted_mean(terms: list[tuple[PlayerId, Fraction]], value: Mapping[PlayerId, Fraction]) -> Fraction:
    den = sum((w for _, w in terms), Fraction(0))
    return sum((w * value[o] for o, w in terms), Fraction(0)) / den if den else Fraction(0)


@tiebreak("cobra_sos", "strength of schedule", "netrunner sos", title="SoS",
          legend="strength of schedule: the average over the opponents of their points per round played")
def cobra_sos(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Strength of Schedule as Cobra computes it (RULES.md 4.12; Cobra's ``SosCalculator``).

    Each opponent's points divided by the rounds that opponent played, averaged over the player's
    opponents, each term weighted by its round's weight (``round_weights``, 1 unless set). An
    opponent's rounds played are the weights of their rounds with a game, a forfeit, a bye or a half bye:
    rounds before a late entry, after a drop or missed (``absent``) do not count; their points are those
    rounds' points. The
    player's own byes are left out; no opponent gives 0. Under ``sides: double`` a round's two games
    are one term worth 0-6. Cobra's test: laurie (bye, beat johno 6-0) v dan (3-3 with johno, bye):
    SoS of laurie 3/2 = 1.5, of johno (6 + 9/2) / 2 = 5.25.
    """
    terms = _cobra_terms(ctx, x)
    per_round = ctx.cobra_points_per_round
    if notes is not None:
        for (o, w), r in zip(terms, (r for r in ctx.records[x] if r.opponent is not None)):
            played = ctx.cobra_played[o]
            notes.append(f"  R{r.round} v {o}: {number_text(ctx.points(ctx.cobra_points[o]))} points / "
                         f"{number_text(played)} rounds = {number_text(per_round[o])}"
                         + (f", weight {number_text(w)}" if w != 1 else ""))
        if not terms:
            notes.append("  no opponents yet: 0")
    return _weighted_mean(terms, per_round)


@tiebreak("cobra_esos", "extended sos", "extended strength of schedule", title="ESoS",
          legend="extended strength of schedule: the average of the opponents' SoS")
def cobra_esos(ctx: Context, x: PlayerId, notes: Notes) -> Fraction:
    """Extended Strength of Schedule: the mean of the opponents' :func:`cobra_sos`, weighted as it.

    RULES.md 4.12; Cobra's ``SosCalculator``. Cobra's test: laurie's only opponent johno has SoS
    5.25, so laurie's ESoS is 5.25.
    """
    terms = _cobra_terms(ctx, x)
    sos = ctx.values("cobra_sos")
    if notes is not None:
        for o, w in terms:
            notes.append(f"  v {o}: SoS {number_text(sos[o])}" + (f", weight {number_text(w)}" if w != 1 else ""))
        if not terms:
            notes.append("  no opponents yet: 0")
    return _weighted_mean(terms, sos)
