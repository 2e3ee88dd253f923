"""Playoffs after the Swiss: elimination brackets, Magic's protected top two, McIntyre (RULES.md section 6).

A WBC (World Boardgaming Championships) style double elimination and a mulligan bracket are among the systems.

A bracket is plain data built from two inputs only: the seeds (the final Swiss ranks, best first) and
the winners typed so far, match by match. :func:`new_bracket` lays the bracket out; :func:`advance`
applies typed winners and returns a new bracket, so a Playoffs tab is rebuilt from scratch on every
run, and a corrected Winner cell simply re-routes everything after it.

Every match has an id (``QF1``, ``W2-1``, ``GF``), a round (the column it is drawn in), a section
(``winners``, ``losers`` or ``final`` in a double elimination, else empty) and two sides. A side is
a player once known; before that its :attr:`Side.source` says where the player comes from
(``"winner of QF1"``, ``"2nd-ranked loser of round 1"``), and a side nobody can fill is a bye: the
other player goes through without a game (:attr:`Match.walkover`).

>>> b = new_bracket("single", ["Ana", "Bo", "Cy", "Di"])
>>> [(m.id, m.a.text, m.b.text) for m in b.matches]
[('SF1', 'Ana', 'Di'), ('SF2', 'Bo', 'Cy'), ('F', 'winner of SF1', 'winner of SF2')]
>>> b = advance(b, {"SF1": "Ana", "SF2": "Cy"})
>>> b.match("F").a.text, b.match("F").b.text, [m.id for m in b.to_play]
('Ana', 'Cy', ['F'])
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeAlias, final, get_args

from .errors import Problems, SheetswissError, UnknownName
from .model import Event, PlayerId, PlayoffSheet
from .names import Names
from .settings import BracketOrder, PlayoffSystem

__all__ = [
    "BRACKET_ORDERS",
    "SYSTEMS",
    "BadWinner",
    "Bracket",
    "Match",
    "Side",
    "System",
    "advance",
    "bracket_order",
    "new_bracket",
    "outcomes",
    "typed_bracket",
]

BRACKET_ORDERS: tuple[BracketOrder, ...] = get_args(BracketOrder)
"""The values of ``bracket_order`` (RULES.md 6.1)."""


class BadWinner(SheetswissError):
    """A typed winner that cannot stand: not a player of that match, or the match is not set yet.

    The message names the match but no cell; the caller knows which cell holds the match's winner
    and prefixes it. :attr:`match` is the match's id.
    """

    def __init__(self, match: str, message: str) -> None:
        super().__init__(message)
        self.match = match


# --- Where a side's player comes from -------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class _Seed:
    """The player with this Swiss rank; a rank beyond the cut is a bye (RULES.md 6.1)."""

    rank: int

    @property
    def text(self) -> str:
        return f"seed {self.rank}"


@final
@dataclass(frozen=True, slots=True)
class _Result:
    """The winner (``won``) or the loser of an earlier match."""

    match: str
    won: bool

    @property
    def text(self) -> str:
        return f"{'winner' if self.won else 'loser'} of {self.match}"


@final
@dataclass(frozen=True, slots=True)
class _Ranked:
    """The ``place``-th best by Swiss rank among the winners (or losers) of a round (McIntyre, RULES.md 6.3)."""

    round: int
    won: bool
    place: int
    name: str = ""
    """How the round is called, when not ``round N`` (``the mulligan``)."""

    @property
    def text(self) -> str:
        rank = "highest" if self.place == 1 else _ordinal(self.place)
        return f"{rank}-ranked {'winner' if self.won else 'loser'} of {self.name or f'round {self.round}'}"


@final
@dataclass(frozen=True, slots=True)
class _Reset:
    """The loser of a grand final, but only if its second side (the losers' champion) won it (RULES.md 6.6)."""

    match: str

    @property
    def text(self) -> str:
        return f"loser of {self.match}, if the losers' bracket side won it"


@final
@dataclass(frozen=True, slots=True)
class _Bye:
    """Nobody: a draw position beyond the players (a single elimination with a mulligan, RULES.md 6.7)."""

    @property
    def text(self) -> str:
        return "bye"


_Source: TypeAlias = "_Seed | _Result | _Ranked | _Reset | _Bye"


@final
@dataclass(frozen=True, slots=True)
class _Spec:
    """One match of a layout: where its two players come from."""

    id: str
    label: str
    round: int
    section: str
    a: _Source
    b: _Source


def _ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --- What a renderer draws ------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One side of a match."""

    player: PlayerId | None
    """The player, once known; ``None`` while earlier matches are open, and for a bye."""
    source: str
    """Where the player comes from: ``"seed 3"``, ``"winner of QF1"``, ``"highest-ranked loser of round 1"``."""
    bye: bool = False
    """Nobody will fill this side: the other player goes through without a game."""

    @property
    def text(self) -> str:
        """What a cell shows: the player, ``bye``, or where the player will come from."""
        return self.player or ("bye" if self.bye else self.source)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Match:
    """One match of a bracket, as far as the typed winners decide it."""

    id: str
    """Short and stable: ``QF1``, ``SF2``, ``F``, ``R16-3``, ``W2-1``, ``L3-1``, ``GF``."""
    label: str
    """For people: ``Quarterfinal 1``, ``Losers' final``."""
    round: int
    """The column the match is drawn in, from 1; a later round never feeds an earlier one."""
    section: str
    """``winners``, ``losers`` or ``final`` in a double elimination; empty in every other bracket."""
    a: Side
    b: Side
    winner: PlayerId | None
    """Typed, or automatic in a walkover; ``None`` while open (and when both sides are byes)."""
    typed: bool
    """The winner was typed (a walkover's winner is not)."""

    @property
    def walkover(self) -> bool:
        """A side is a bye: no game is played here."""
        return self.a.bye or self.b.bye

    @property
    def ready(self) -> bool:
        """Both players are known and the winner is not: the game can be played now."""
        return self.a.player is not None and self.b.player is not None and self.winner is None

    @property
    def loser(self) -> PlayerId | None:
        """The other player, once a game is decided; ``None`` in a walkover."""
        if self.winner is None or self.walkover:
            return None
        return self.b.player if self.winner == self.a.player else self.a.player


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Bracket:
    """A playoff bracket: its system, its seeds and every match with what is known of it."""

    system: PlayoffSystem
    seeds: tuple[PlayerId, ...]
    """Best Swiss rank first: ``seeds[0]`` is seed 1."""
    matches: tuple[Match, ...]
    """Every match comes after the matches it depends on (winners' bracket, then losers', then finals)."""
    layout: tuple[_Spec, ...] = field(repr=False)
    """Where each side's player comes from; :func:`advance` resolves it again."""

    def match(self, match_id: str) -> Match:
        """The match with this id; :class:`~sheetswiss.errors.UnknownName` lists the ids otherwise."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise _no_match(match_id, [m.id for m in self.matches])

    @property
    def winners(self) -> dict[str, PlayerId]:
        """The typed winners, by match id: with the seeds, all it takes to rebuild this bracket."""
        return {m.id: m.winner for m in self.matches if m.typed and m.winner is not None}

    @property
    def to_play(self) -> tuple[Match, ...]:
        """The matches whose players are known and whose winner is not yet typed."""
        return tuple(m for m in self.matches if m.ready)

    @property
    def champion(self) -> PlayerId | None:
        """The winner of the last match, once decided."""
        return self.matches[-1].winner

    def places(self) -> dict[PlayerId, tuple[int, int]]:
        """Each player's final place as a range, best and worst: ``(1, 1)`` the champion, ``(5, 8)`` a shared place.

        Players whose last match is in a later round finish higher; in the last match the winner does.
        Players whose last match is in the same round share the places (*decision*: seed 002 splits
        them by Swiss rank, which a caller can still do). Raises ``ValueError`` before the end.
        """
        if self.champion is None:
            raise ValueError("the bracket is not finished: places are known at the end")
        last: dict[PlayerId, tuple[int, bool]] = {}
        for m in self.matches:
            for side in (m.a, m.b):
                if side.player is not None:
                    key = (m.round, m.winner == side.player)
                    last[side.player] = max(last.get(side.player, key), key)
        places: dict[PlayerId, tuple[int, int]] = {}
        for key in sorted(set(last.values()), reverse=True):
            group = [p for p in last if last[p] == key]
            better = len(places)
            places.update((p, (better + 1, better + len(group))) for p in group)
        return places


# --- Layouts --------------------------------------------------------------------------------------


def bracket_order(size: int, order: BracketOrder = "fold") -> tuple[int, ...]:
    """Seeds in draw order: entries 2i and 2i+1 meet in round 1, better seed first (RULES.md 6.1).

    ``fold``: order(2) = [1, 2]; order(2m) replaces each seed s of order(m) by s, 2m + 1 − s.
    ``ncaa`` (*decision*, reproduces 6.1's 16-line): the same, except that every seed but 1 is
    replaced by 2m + 1 − s, s, which mirrors each sub-bracket below the top one and puts 2 at the
    bottom. If the better seed always wins, round k of either draw is played by seeds 1..size/2^(k−1).

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    >>> bracket_order(16, "ncaa")
    (1, 16, 8, 9, 5, 12, 4, 13, 6, 11, 3, 14, 7, 10, 2, 15)
    """
    _check_order(order)
    if size < 2 or size & (size - 1):
        raise ValueError(f"a draw has a power of two entries, not {size}")
    seq = [1]
    while len(seq) < size:
        m = 2 * len(seq)
        seq = [x for s in seq for x in ((s, m + 1 - s) if order == "fold" or s == 1 else (m + 1 - s, s))]
    return tuple(x for i in range(0, size, 2) for x in sorted(seq[i : i + 2]))


def _check_order(order: BracketOrder) -> None:
    if order not in BRACKET_ORDERS:
        raise UnknownName(f"unknown bracket order {order!r}; known: {', '.join(BRACKET_ORDERS)}")


def _no_match(match_id: str, ids: Sequence[str]) -> UnknownName:
    return UnknownName(f"no match {match_id!r} in this bracket; matches: {', '.join(ids)}")


def _draw_size(n: int) -> int:
    return 1 << (n - 1).bit_length()


_Names: TypeAlias = Callable[[int, int, int], tuple[str, str]]
"""(round, match number in the round, matches in the round) -> (id, label)."""


def _knockout(entrants: Sequence[_Source], names: _Names, section: str = "") -> list[_Spec]:
    """Neighbouring entrants meet, then winners of neighbouring matches, down to one (RULES.md 6.1)."""
    specs: list[_Spec] = []
    current = list(entrants)
    round_ = 1
    while len(current) > 1:
        count = len(current) // 2
        nxt: list[_Source] = []
        for i in range(count):
            match_id, label = names(round_, i + 1, count)
            specs.append(_Spec(match_id, label, round_, section, current[2 * i], current[2 * i + 1]))
            nxt.append(_Result(match_id, True))
        current = nxt
        round_ += 1
    return specs


def _single_names(round_: int, i: int, count: int) -> tuple[str, str]:
    if count == 1:
        return "F", "Final"
    if count == 2:
        return f"SF{i}", f"Semifinal {i}"
    if count == 4:
        return f"QF{i}", f"Quarterfinal {i}"
    return f"R{2 * count}-{i}", f"Round of {2 * count}, match {i}"


def _single(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """Single elimination (RULES.md 6.1): a cut that is not a power of two gives the top seeds byes."""
    return _knockout([_Seed(s) for s in bracket_order(_draw_size(n), order)], _single_names)


def _double(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """Double elimination (RULES.md 6.6): a first loss drops a player to the losers' bracket, a second is out.

    Winners' round r is drawn in column r. The losers' bracket starts in column 2 with the losers of
    winners' round 1 paired in order; then it alternates: its survivors meet the players just
    dropped from winners' round r (column 2r − 1; fed in reverse order so that players from the
    same part of the draw meet as late as possible, *decision*), and, except after the winners'
    final, its survivors play each other (column 2r). The grand final is winners' champion v losers'
    champion; with ``reset``, a second grand final follows only if the losers' champion wins the first.
    """
    size = _draw_size(n)
    rounds = size.bit_length() - 1

    def winners_names(round_: int, i: int, count: int) -> tuple[str, str]:
        return f"W{round_}-{i}", "Winners' final" if count == 1 else f"Winners' round {round_}, match {i}"

    specs = _knockout([_Seed(s) for s in bracket_order(size, order)], winners_names, "winners")
    losers_rounds = 2 * rounds - 2

    def losers(number: int, pairs: Sequence[tuple[_Source, _Source]]) -> list[_Source]:
        out: list[_Source] = []
        for i, (a, b) in enumerate(pairs, 1):
            match_id = f"L{number}-{i}"
            label = "Losers' final" if number == losers_rounds else f"Losers' round {number}, match {i}"
            specs.append(_Spec(match_id, label, number + 1, "losers", a, b))
            out.append(_Result(match_id, True))
        return out

    def dropped(round_: int) -> list[_Source]:
        return [_Result(f"W{round_}-{i}", False) for i in range(1, size // 2**round_ + 1)]

    if rounds == 1:
        champion: _Source = _Result("W1-1", False)
    else:
        first = dropped(1)
        alive = losers(1, list(zip(first[::2], first[1::2])))
        for round_ in range(2, rounds + 1):
            alive = losers(2 * round_ - 2, list(zip(alive, reversed(dropped(round_)))))
            if round_ < rounds:
                alive = losers(2 * round_ - 1, list(zip(alive[::2], alive[1::2])))
        (champion,) = alive
    final = 2 * rounds
    specs.append(_Spec("GF", "Grand final", final, "final", _Result(f"W{rounds}-1", True), champion))
    if reset:
        specs.append(_Spec("GF2", "Grand final, reset", final + 1, "final", _Result("GF", True), _Reset("GF")))
    return specs


def _mulligan(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """Single elimination with a mulligan round (WBC "SEM", Memoir '44 [M44-23][M44-25]; RULES.md 6.7).

    The mulligan round is round 1 of a single-elimination draw (column 1). Its winners skip round 1 and go
    straight to round 2; its losers start again in round 1 (column 2), paired by seed, best v worst. Round 2
    on (column 3 on) is plain single elimination of the mulligan winners and the round-1 winners, in that
    order and each by seed, the best of them given the byes (*decision*: the source says who goes where, not
    how they are paired).
    """
    first = bracket_order(_draw_size(n), order)
    specs = [_Spec(f"M{i + 1}", f"Mulligan {i + 1}", 1, "", _Seed(first[2 * i]), _Seed(first[2 * i + 1]))
             for i in range(len(first) // 2)]
    mulligan_winners = len(specs)
    losers = sum(1 for i in range(len(first) // 2) if first[2 * i + 1] <= n)
    losers_draw = bracket_order(_draw_size(max(losers, 2)), order)
    round1 = len(losers_draw) // 2
    specs += [_Spec(f"R1-{i + 1}", f"Round 1, match {i + 1} (mulligan losers)", 2, "",
                    _Ranked(1, False, losers_draw[2 * i], "the mulligan"),
                    _Ranked(1, False, losers_draw[2 * i + 1], "the mulligan"))
              for i in range(round1)]
    entrants: list[_Source] = [*(_Ranked(1, True, i, "the mulligan") for i in range(1, mulligan_winners + 1)),
                               *(_Ranked(2, True, i, "round 1") for i in range(1, round1 + 1))]
    draw = bracket_order(_draw_size(len(entrants)), order)

    def names(round_: int, i: int, count: int) -> tuple[str, str]:
        if count <= 4:
            return _single_names(round_, i, count)
        return f"R{round_ + 1}-{i}", f"Round {round_ + 1}, match {i}"

    main = _knockout([entrants[s - 1] if s <= len(entrants) else _Bye() for s in draw], names)
    return specs + [_Spec(m.id, m.label, m.round + 2, m.section, m.a, m.b) for m in main]


def _magic_top2(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """Magic's protected top two (seed 000; RULES.md 6.2, pairings a *decision*).

    Round 1: 5 v 8, 6 v 7; round 2: 4 and 3 meet those winners; semifinals: 1 and 2 meet theirs.
    """
    return [
        _Spec("R1-1", "First round 1", 1, "", _Seed(5), _Seed(8)),
        _Spec("R1-2", "First round 2", 1, "", _Seed(6), _Seed(7)),
        _Spec("QF1", "Quarterfinal 1", 2, "", _Seed(4), _Result("R1-1", True)),
        _Spec("QF2", "Quarterfinal 2", 2, "", _Seed(3), _Result("R1-2", True)),
        _Spec("SF1", "Semifinal 1", 3, "", _Seed(1), _Result("QF1", True)),
        _Spec("SF2", "Semifinal 2", 3, "", _Seed(2), _Result("QF2", True)),
        _Spec("F", "Final", 4, "", _Result("SF1", True), _Result("SF2", True)),
    ]


def _mcintyre8(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """The McIntyre final eight (seed 000, Wikipedia; RULES.md 6.3), "ranked" meaning Swiss rank.

    Round 1: 4 v 5, 3 v 6, 2 v 7, 1 v 8; the two highest-ranked winners wait for round 3, the two
    lowest-ranked losers are out. Round 2: 4th-ranked winner v 2nd-ranked loser, 3rd-ranked winner
    v highest-ranked loser. Round 3: highest-ranked round-1 winner v winner of semifinal 1, 2nd v
    winner of semifinal 2. Round 4: the final.
    """
    return [
        _Spec("QF1", "Qualifying final 1", 1, "", _Seed(4), _Seed(5)),
        _Spec("QF2", "Qualifying final 2", 1, "", _Seed(3), _Seed(6)),
        _Spec("QF3", "Qualifying final 3", 1, "", _Seed(2), _Seed(7)),
        _Spec("QF4", "Qualifying final 4", 1, "", _Seed(1), _Seed(8)),
        _Spec("SF1", "Semifinal 1", 2, "", _Ranked(1, True, 4), _Ranked(1, False, 2)),
        _Spec("SF2", "Semifinal 2", 2, "", _Ranked(1, True, 3), _Ranked(1, False, 1)),
        _Spec("PF1", "Preliminary final 1", 3, "", _Ranked(1, True, 1), _Result("SF1", True)),
        _Spec("PF2", "Preliminary final 2", 3, "", _Ranked(1, True, 2), _Result("SF2", True)),
        _Spec("F", "Final", 4, "", _Result("PF1", True), _Result("PF2", True)),
    ]


def _mcintyre4(n: int, order: BracketOrder, reset: bool) -> list[_Spec]:
    """The Page–McIntyre final four (VFL 1931–71; RULES.md 6.4).

    1 v 2: the winner goes to the final, the loser to the preliminary final; 3 v 4: the loser is
    out; preliminary final: loser(1–2) v winner(3–4); final: winner(1–2) v winner of the preliminary final.
    """
    return [
        _Spec("SF1", "Major semifinal", 1, "", _Seed(1), _Seed(2)),
        _Spec("SF2", "Minor semifinal", 1, "", _Seed(3), _Seed(4)),
        _Spec("PF", "Preliminary final", 2, "", _Result("SF1", False), _Result("SF2", True)),
        _Spec("F", "Final", 3, "", _Result("SF1", True), _Result("PF", True)),
    ]


@final
@dataclass(frozen=True, slots=True)
class System:
    """A playoff system: how its matches are laid out, and how many players it takes."""

    layout: Callable[[int, BracketOrder, bool], list[_Spec]] = field(repr=False)
    """(players, bracket order, bracket reset) -> every match, each after those it depends on."""
    fewest: int
    most: int | None
    """``None``: no limit."""


SYSTEMS: dict[PlayoffSystem, System] = {
    "single": System(_single, 2, None),
    "magic_top2": System(_magic_top2, 2, 8),
    "mcintyre8": System(_mcintyre8, 8, 8),
    "mcintyre4": System(_mcintyre4, 4, 4),
    "double": System(_double, 2, None),
    "mulligan": System(_mulligan, 2, None),
}
"""The values of the ``playoff`` setting, by name."""
assert tuple(SYSTEMS) == get_args(PlayoffSystem), "the playoff systems and the playoff setting disagree"


# --- Resolving a layout with the typed winners ----------------------------------------------------


class _Nobody(enum.Enum):
    BYE = "bye"


_BYE = _Nobody.BYE
_Entry: TypeAlias = "PlayerId | _Nobody | None"
"""A player, a bye (nobody will come), or ``None``: not known yet."""


@final
@dataclass(frozen=True, slots=True)
class _Outcome:
    a: _Entry
    b: _Entry
    winner: _Entry

    @property
    def loser(self) -> _Entry:
        if self.winner is None or self.winner is _BYE:
            return self.winner
        return self.b if self.winner == self.a else self.a


def _resolve(system: PlayoffSystem, seeds: tuple[PlayerId, ...], layout: tuple[_Spec, ...],
             winners: Mapping[str, PlayerId], rejected: list[BadWinner] | None = None) -> Bracket:
    """The bracket with ``winners`` applied. Without ``rejected`` the first winner that cannot stand raises;
    with it, each one is added there and left out (its match stays open, see :func:`advance`)."""
    ids = [spec.id for spec in layout]
    for match_id in winners:
        if match_id not in ids:
            raise _no_match(match_id, ids)
    rank = {p: i for i, p in enumerate(seeds)}
    done: dict[str, _Outcome] = {}
    in_round: dict[int, list[str]] = {}
    held: set[str] = set()
    """Matches whose typed winner was left out: rejected, or waiting on a match left out before it."""

    def waits_on_held(source: _Source) -> bool:
        """The side is unknown only because a match it comes from had its typed winner left out."""
        if isinstance(source, (_Result, _Reset)):
            return source.match in held
        if isinstance(source, _Ranked):
            open_ = [m for m in in_round[source.round] if done[m].winner is None]
            return bool(open_) and all(m in held for m in open_)
        return False

    def entry(source: _Source) -> _Entry:
        if isinstance(source, _Seed):
            return seeds[source.rank - 1] if source.rank <= len(seeds) else _BYE
        if isinstance(source, _Result):
            outcome = done[source.match]
            return outcome.winner if source.won else outcome.loser
        if isinstance(source, _Bye):
            return _BYE
        if isinstance(source, _Reset):
            outcome = done[source.match]
            if outcome.winner is None:
                return None
            return outcome.loser if outcome.winner == outcome.b else _BYE
        pool = [done[m] for m in in_round[source.round]]
        if any(o.winner is None for o in pool):
            return None
        found = [o.winner if source.won else o.loser for o in pool]
        players = sorted((p for p in found if isinstance(p, str)), key=rank.__getitem__)
        return players[source.place - 1] if source.place <= len(players) else _BYE

    matches: list[Match] = []
    for spec in layout:
        a, b = entry(spec.a), entry(spec.b)
        sides = (Side(player=a if isinstance(a, str) else None, source=spec.a.text, bye=a is _BYE),
                 Side(player=b if isinstance(b, str) else None, source=spec.b.text, bye=b is _BYE))
        typed = winners.get(spec.id)
        try:
            winner = _winner(spec, sides, a, b, typed)
        except BadWinner as e:
            if rejected is None:
                raise
            unknown = [source for source, value in ((spec.a, a), (spec.b, b)) if value is None]
            if not (unknown and all(waits_on_held(source) for source in unknown)):
                rejected.append(e)
            elif typed not in rank:  # wrong whoever comes: not a player of this playoff at all
                rejected.append(BadWinner(spec.id, f"{_where(spec, sides)}: {typed!r} is not a player of this "
                                                   "playoff"))
            held.add(spec.id)
            winner, typed = None, None
        done[spec.id] = _Outcome(a, b, winner)
        in_round.setdefault(spec.round, []).append(spec.id)
        matches.append(Match(id=spec.id, label=spec.label, round=spec.round, section=spec.section, a=sides[0],
                             b=sides[1], winner=winner if isinstance(winner, str) else None,
                             typed=typed is not None and a is not _BYE and b is not _BYE))
    return Bracket(system=system, seeds=seeds, matches=tuple(matches), layout=layout)


def _where(spec: _Spec, sides: tuple[Side, Side]) -> str:
    """The match as a message names it: ``QF1 (Quarterfinal 1, Ana v Di)``."""
    return f"{spec.id} ({spec.label}, {sides[0].text} v {sides[1].text})"


def _winner(spec: _Spec, sides: tuple[Side, Side], a: _Entry, b: _Entry, typed: PlayerId | None) -> _Entry:
    """The match's winner: a walkover's own, the typed one if it stands, else ``None``."""
    where = _where(spec, sides)
    if a is _BYE or b is _BYE:
        through = b if a is _BYE else a
        if typed is not None and typed != through:
            raise BadWinner(spec.id, f"{where}: no game is played here, so {typed!r} cannot win it")
        return through
    if typed is None:
        return None
    if a is None or b is None:
        raise BadWinner(spec.id, f"{where}: {typed!r} is typed as the winner, but the players are not known yet")
    if typed not in (a, b):
        raise BadWinner(spec.id, f"{where}: {typed!r} is not in this match; type {a} or {b}")
    return typed


def new_bracket(system: PlayoffSystem, seeds: Sequence[PlayerId], *, order: BracketOrder = "fold",
                reset: bool = True) -> Bracket:
    """The bracket of ``system`` (a ``playoff`` value) for ``seeds``, best Swiss rank first, nothing played yet.

    ``order`` is ``bracket_order`` (single and double elimination) and ``reset`` is ``bracket_reset``
    (double elimination). Raises :class:`~sheetswiss.errors.UnknownName` for an unknown system and
    :class:`~sheetswiss.errors.SheetswissError` when the number of players does not suit it.

    >>> [(m.id, m.a.text, m.b.text) for m in new_bracket("single", ["A", "B", "C"]).matches][:2]
    [('SF1', 'A', 'bye'), ('SF2', 'B', 'C')]
    """
    if system not in SYSTEMS:
        raise UnknownName(f"unknown playoff {system!r}; known: {', '.join(SYSTEMS)}")
    _check_order(order)
    spec = SYSTEMS[system]
    players = tuple(seeds)
    if len(set(players)) != len(players):
        raise SheetswissError(f"playoff seeds name a player twice: {', '.join(players)}")
    if len(players) < spec.fewest or (spec.most is not None and len(players) > spec.most):
        fewest, most = spec.fewest, spec.most
        wanted = f"exactly {fewest}" if fewest == most else f"{fewest} to {most}" if most else f"at least {fewest}"
        raise SheetswissError(f"playoff {system} takes {wanted} players; the top cut has {len(players)}")
    return _resolve(system, players, tuple(spec.layout(len(players), order, reset)), {})


def advance(bracket: Bracket, winners: Mapping[str, PlayerId], *,
            rejected: list[BadWinner] | None = None) -> Bracket:
    """``bracket`` with ``winners`` (match id -> winner) added to those already typed; a new winner replaces an old.

    Every typed winner is checked where it stands: a winner who is not in that match, or a winner
    typed before the match's players are known, raises :class:`BadWinner`; an unknown match id
    raises :class:`~sheetswiss.errors.UnknownName`. ``advance(new_bracket(...), typed)`` rebuilds
    any state from the seeds and the winners typed so far, in any order.

    With ``rejected``, every winner that cannot stand is added to it, in bracket order, instead of
    raising the first, and its match stays open (RULES.md 6.9). A winner typed in a match whose players
    are not known only because an earlier typed winner was left out cannot be judged yet: it is left
    out too, without a problem of its own (the earlier one explains it), unless it names nobody among the
    seeds, which is wrong whoever comes.

    >>> found: list[BadWinner] = []
    >>> b = advance(new_bracket("single", ["A", "B", "C", "D"]), {"SF1": "B", "SF2": "A", "F": "D"},
    ...             rejected=found)
    >>> [str(e) for e in found]
    ["SF1 (Semifinal 1, A v D): 'B' is not in this match; type A or D", \
"SF2 (Semifinal 2, B v C): 'A' is not in this match; type B or C"]
    >>> b.winners
    {}
    """
    return _resolve(bracket.system, bracket.seeds, bracket.layout, {**bracket.winners, **winners}, rejected)


def outcomes(bracket: Bracket) -> Iterator[tuple[Fraction, Bracket]]:
    """Every way the open matches can end, each game won by either player with chance 1/2.

    Yields ``(probability, finished bracket)``; the probabilities add up to 1. This is the exact
    enumeration behind RULES.md 6.5 (``mcintyre8``: 2^9 = 512 outcomes). Cost: 2^(open games) brackets.
    """
    ready = bracket.to_play
    if not ready:
        yield Fraction(1), bracket
        return
    match = ready[0]
    for player in (match.a.player, match.b.player):
        assert player is not None
        for chance, finished in outcomes(advance(bracket, {match.id: player})):
            yield chance / 2, finished


def typed_bracket(event: Event, sheet: PlayoffSheet, problems: Problems | None = None) -> tuple[Bracket, list[str]]:
    """The bracket as the Playoffs tab has it (its seeds and the winners typed there), or, before one is
    drawn, a new one seeded from the standings' top cut (RULES.md 6); with lines that say how it was seeded.

    A typed winner is matched to a seed as names are (RULES.md 1.6); a match id the bracket lacks, or a winner
    who is not one of the match's players, is an error naming its cell: every such cell is reported at once, in
    the tab's order (RULES.md 6.9); to ``problems`` when given, and then the bracket leaves those winners out."""
    from .standings import compute_standings

    settings = event.settings
    seeds = list(sheet.seeds)
    notes = []
    if not seeds:
        table = compute_standings(event)
        if table.cut < 2:
            raise SheetswissError("Settings: top_cut is 0, so there is no playoff; set top_cut (4, 8, 16 ...)")
        seeds = list(table.qualified)
        if settings.rounds and table.rounds < settings.rounds:
            notes.append(f"The Swiss is not finished (round {table.rounds} of {settings.rounds}): "
                         "these seeds are the current standings")
        notes.append(f"Seeded the top {len(seeds)} from the standings after round {table.rounds}")
    bracket = new_bracket(settings.playoff, seeds, order=settings.bracket_order, reset=settings.bracket_reset)
    known = Names(seeds)
    typed: dict[str, str] = {}
    row: dict[str, int] = {}
    """The match's winner cell's place among the typed ones, so that problems come in the tab's order."""
    found: list[tuple[int, SheetswissError]] = []
    for i, typed_winner in enumerate(sheet.winners):
        try:
            bracket.match(typed_winner.match)
        except SheetswissError as e:
            found.append((i, SheetswissError(f"{typed_winner.match_cell}: {e}")))
            continue
        typed[typed_winner.match] = known.find(typed_winner.winner) or typed_winner.winner
        row[typed_winner.match] = i
    rejected: list[BadWinner] = []
    bracket = advance(bracket, typed, rejected=rejected)
    for bad in rejected:
        winner = typed[bad.match]
        hint = known.did_you_mean(winner) if known.find(winner) is None else ""
        found.append((row[bad.match], SheetswissError(f"{sheet.winners[row[bad.match]].winner_cell}: {bad}{hint}")))
    with Problems.into(problems) as gathered:
        for _, problem in sorted(found, key=lambda item: item[0]):
            gathered.add(problem)
    return bracket, notes
