"""The round state: everything a pair's cost needs, computed once per round from the event (RULES.md 2).

:func:`round_state` reads the rounds played so far and gives a :class:`RoundState`: who is paired, in
ranking order; each player's pairing score (with the virtual points of accelerated pairing, RULES.md 2.8)
and score group; float balances (RULES.md 2.5); the pairs that have met (a rematch costs at the first
level, RULES.md 2.3); who may take the pairing-allocated bye (PAB, RULES.md 2.4); clubs (2.7); and the sides or colours
each player has played (RULES.md 3 and 2.10). The pairing (:mod:`.swiss`) and the costs (:mod:`.costs`)
read it; nothing here prices a pair.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import final

import numpy as np

from ..errors import SheetswissError
from ..history import RoundRecord, history, sides_played
from ..model import AvoidPair, Event, Player, PlayerId
from ..results import ResultKind
from ..scoring import pairing_scale_for, per_round
from ..standings import compute_standings
from ..tiebreaks import event_chain

__all__ = ["RoundState", "first_round_order", "round_state"]


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundState:
    """Everything a pair's cost needs, computed once per round (:func:`round_state`)."""

    round: int
    """The round being paired."""
    order: tuple[PlayerId, ...]
    """Players to pair in ranking order (RULES.md 2.1)."""
    scores: dict[PlayerId, Fraction]
    """Pairing score before the round, virtual points included (RULES.md 1.5, 2.8)."""
    group: dict[PlayerId, int]
    """Score group of each player, 0 for the highest score."""
    group_members: dict[int, tuple[PlayerId, ...]]
    """The players of each score group, in ranking order."""
    balance: dict[PlayerId, int]
    """Float balance, ups minus downs (RULES.md 2.5); players at 0 are left out."""
    met: frozenset[frozenset[PlayerId]]
    """Pairs that may not meet again without a rematch (RULES.md 2.3; under ``sides: single`` only pairs
    that have met both ways, RULES.md 3). Whatever else must count as a meeting joins this set."""
    bye_eligible: frozenset[PlayerId]
    """Players who may take the pairing-allocated bye (PAB) without a second one (RULES.md 2.4)."""
    clubs: dict[PlayerId, str]
    """Club of each player, stripped and lower case ("" for none; RULES.md 2.7)."""
    not_paired: tuple[tuple[PlayerId, str], ...] = ()
    """Players left out this round, with the reason (RULES.md 2.9)."""
    sides: dict[PlayerId, tuple[int, ...]] = field(default_factory=dict)
    """Side (colour) of each earlier game over the board: 1 as Player A, 2 as Player B."""
    played: frozenset[tuple[PlayerId, PlayerId]] = frozenset()
    """Side assignments met so far, (side 1, side 2), games and forfeits (RULES.md 3)."""
    avoided: Mapping[frozenset[PlayerId], AvoidPair] = field(default_factory=dict)
    """The Avoid tab's pairs among the players to pair, by pair (RULES.md 2.12); they are in ``met`` too."""
    forbidden: frozenset[frozenset[PlayerId]] = frozenset()
    """Pairs of ``met`` that stay out even in the fallback of RULES.md 2.3: the avoided pairs under
    ``avoid_fallback: error``, the pairs met before under ``rematch_fallback: error`` (RULES.md 2.12)."""
    balance_range: tuple[int, int] = field(init=False)
    """The lowest and highest float balance of the players to pair (0 when there are none)."""

    def __post_init__(self) -> None:
        values = [self.balance.get(x, 0) for x in self.order] or [0]
        object.__setattr__(self, "balance_range", (min(values), max(values)))


def _requested_byes(event: Event, round_: int) -> dict[PlayerId, str]:
    """Requested byes typed into Results for ``round_`` before pairing (RULES.md 2.9)."""
    out = {}
    for g in event.games_in(round_):
        if g.b is None and g.result is not None and g.result.kind is not ResultKind.PAB:
            out[g.a] = g.result.kind.value
    return out


def _accelerated(event: Event) -> frozenset[PlayerId]:
    """The top 2*ceil(n/4) players by rating before round 1 (RULES.md 2.8)."""
    if not event.settings.accelerated:
        return frozenset()
    first = [p for p in event.players if p.plays_in(1)]
    unrated = [p for p in first if p.rating is None]
    if unrated:
        raise SheetswissError(f"Players!B{unrated[0].row}: accelerated pairing needs a rating for every "
                              f"player; {unrated[0].name!r} has none")
    first.sort(key=lambda p: (-(p.rating or 0), p.name))
    return frozenset(p.name for p in first[: 2 * math.ceil(len(first) / 4)])


def _running_scores(recs: Mapping[PlayerId, tuple[RoundRecord, ...]], round_: int, top: frozenset[PlayerId],
                    win: Fraction) -> tuple[list[PlayerId], np.ndarray, int]:
    """Every player's pairing score before each round 1..``round_``, with the virtual win of rounds 1 and 2
    (RULES.md 2.8): the players, a table ``before[p, k - 1]`` for round k, and the common denominator
    its whole numbers count in (pairing points are exact fractions; one cumulative sum gives every round)."""
    names = list(recs)
    rounds = round_ - 1
    points = [r.pairing_points for rs in recs.values() for r in rs[:rounds]]
    scale = math.lcm(win.denominator, *{v.denominator for v in points})
    table = np.zeros((len(names), round_), dtype=np.int64)
    for p, rs in enumerate(recs.values()):
        table[p, 1:] = [int(r.pairing_points * scale) for r in rs[:rounds]]
    before = np.cumsum(table, axis=1)
    virtual = np.array([name in top for name in names], dtype=bool)
    before[virtual, :2] += int(win * scale)
    return names, before, scale


def _float_balances(recs: Mapping[PlayerId, tuple[RoundRecord, ...]], names: Sequence[PlayerId],
                    before: np.ndarray, round_: int) -> dict[PlayerId, int]:
    """Ups minus downs over the rounds before ``round_`` (RULES.md 2.5; byes are not floats): a player
    floats up against an opponent whose pairing score before the round was higher, down against a lower."""
    index = {name: p for p, name in enumerate(names)}
    balance = np.zeros(len(names), dtype=np.int64)
    for k in range(1, round_):
        mine, theirs = [], []
        for p, rs in enumerate(recs.values()):
            rec = rs[k - 1]
            if rec.kind.has_opponent and rec.opponent is not None:
                mine.append(p)
                theirs.append(index[rec.opponent])
        if mine:
            np.add.at(balance, mine, np.sign(before[theirs, k - 1] - before[mine, k - 1]))
    return {name: int(b) for name, b in zip(names, balance.tolist()) if b}


def first_round_order(event: Event) -> str:
    """How round 1 is ordered (RULES.md 2.6): the ``first_round`` setting, else ``rating`` when every
    player has one, else ``random``."""
    return event.settings.first_round or (
        "rating" if all(p.rating is not None for p in event.players) else "random")


def _ranking_order(event: Event, round_: int, players: Sequence[Player], scores: Mapping[PlayerId, Fraction]
                   ) -> tuple[PlayerId, ...]:
    """Pairing score, then the standings tiebreak chain, then rating, then name (RULES.md 2.1, 2.6).

    The chain's ``random`` is left out here (*decision*): a drawn lot is the standings' last resort,
    while inside a score group seed 004 orders "by tiebreaks or estimated strength", so players still
    tied after the real tiebreaks are ordered by rating.
    """
    if round_ == 1 and first_round_order(event) == "random":
        names = sorted(p.name for p in players)
        random.Random(f"{event.settings.seed}:shuffle:1").shuffle(names)
        position = {name: i for i, name in enumerate(names)}
        return tuple(sorted(names, key=lambda n: (-scores[n], position[n])))
    without_lot = tuple(name for name in event_chain(event) if name != "random")
    ranked = replace(event, settings=replace(event.settings, tiebreaks=without_lot))
    standing = {row.player: row.rank for row in compute_standings(ranked, through=round_ - 1).rows}
    return tuple(p.name for p in sorted(
        players, key=lambda p: (-scores[p.name], standing.get(p.name, 0), -(p.rating or 0), p.name)))


def round_state(event: Event, round_: int) -> RoundState:
    """The state of ``event`` before round ``round_`` is paired (RULES.md 2)."""
    recs = history(event, through=round_ - 1)
    win = per_round(pairing_scale_for(event.settings), event.settings.games_per_round).win  # a round's win
    top = _accelerated(event)
    requested = _requested_byes(event, round_)
    not_paired: list[tuple[PlayerId, str]] = []
    players: list[Player] = []
    for p in event.players:
        if round_ < p.joined:
            not_paired.append((p.name, f"joins in round {p.joined}"))
        elif not p.plays_in(round_):
            not_paired.append((p.name, "dropped"))
        elif p.name in requested:
            not_paired.append((p.name, requested[p.name]))
        else:
            players.append(p)
    names, before, scale = _running_scores(recs, round_, top, win)
    row = {name: p for p, name in enumerate(names)}
    scores = {p.name: Fraction(int(before[row[p.name], round_ - 1]), scale) for p in players}
    order = _ranking_order(event, round_, players, scores)
    distinct = sorted(set(scores.values()), reverse=True)
    group = {name: distinct.index(scores[name]) for name in order}
    members: dict[int, list[PlayerId]] = defaultdict(list)
    for name in order:
        members[group[name]].append(name)
    met = frozenset(frozenset((name, r.opponent)) for name, rs in recs.items() for r in rs
                    if r.kind.has_opponent and r.opponent is not None)
    played = frozenset((name, r.opponent) for name, rs in recs.items() for r in rs
                       if r.kind.has_opponent and r.opponent is not None and r.side == 1)
    if event.settings.sides == "single":  # a pair is spent once it has met both ways (RULES.md 3)
        met = frozenset(pair for pair in met if len(pair) == 2 and tuple(pair) in played
                        and tuple(pair)[::-1] in played)
    avoided = {frozenset((x.a, x.b)): x for x in event.avoid if x.a in group and x.b in group}
    forbidden = (frozenset(avoided) if event.settings.avoid_fallback == "error" else frozenset()) | (
        met if event.settings.rematch_fallback == "error" else frozenset())
    met |= frozenset(avoided)  # kept apart as firmly as a rematch (RULES.md 2.12)
    chess = event.settings.points == "chess"
    eligible = frozenset(
        name for name in order
        if not any(r.kind.name == "PAB" or (chess and r.kind.name == "FORFEIT_WIN") for r in recs[name]))
    return RoundState(round=round_, order=order, scores=scores, group=group,
                      group_members={g: tuple(m) for g, m in members.items()},
                      balance=_float_balances(recs, names, before, round_), met=met, bye_eligible=eligible,
                      clubs={p.name: p.club.strip().lower() for p in players}, not_paired=tuple(not_paired),
                      sides={name: sides_played(recs[name]) for name in order}, played=played, avoided=avoided,
                      forbidden=forbidden)
