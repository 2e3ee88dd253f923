"""The round state: everything a pair's cost needs, computed once per round from the event (RULES.md 2).

:func:`round_state` reads the rounds played so far and gives a :class:`RoundState`: who is paired, in
ranking order; each player's pairing score (with the virtual points of accelerated pairing, RULES.md 2.8)
and score group; float balances (RULES.md 2.5); the pairs that have met (a rematch costs at the first
level, RULES.md 2.3); who may take the pairing-allocated bye (PAB, RULES.md 2.4); clubs (2.7); and the sides or colours
each player has played (RULES.md 3 and 2.10). The pairing (:mod:`.swiss`) and the costs (:mod:`.costs`)
read it; nothing here prices a pair.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import final

import numpy as np

from ..errors import SheetswissError
from ..history import RoundKind, history
from ..model import AvoidPair, Event, Player, PlayerId
from ..results import ResultKind
from ..scoring import pairing_scale_for, per_round
from ..standings import standing_ranks
from ..tiebreaks import Context, event_chain
from .gcpause import without_cycle_collection

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


@dataclass(frozen=True, slots=True)
class _Rounds:
    """The rounds played, read once into arrays, one row per player and one column per round."""

    names: list[PlayerId]
    index: dict[PlayerId, int]
    points: np.ndarray
    """Pairing points of each round, in whole numbers of ``1 / scale``."""
    scale: int
    opponent: np.ndarray
    """Row of the opponent in a game or forfeit, else -1."""
    side: np.ndarray
    """1 or 2 where the player took side 1 or side 2 of a game or forfeit, else 0."""
    over_the_board: np.ndarray
    """Whether the round was a game over the board (RULES.md 2.10 and 3: colours count games only)."""
    had_bye: np.ndarray
    """Whether the player has had the pairing-allocated bye (PAB), or under chess points a forfeit win
    (RULES.md 2.4)."""


def _read_rounds(ctx: Context, win: Fraction, chess: bool) -> _Rounds:
    """The rounds as the pairing reads them, from the records read once into arrays (:attr:`Context.table`,
    the same arrays the standings tiebreaks read): pairing points in whole numbers of one scale, which
    divides the pairing win too."""
    t = ctx.table
    scale = math.lcm(win.denominator, t.pairing_unit)
    kind = t.kind
    code = {k: i for i, k in enumerate(RoundKind)}
    had_bye = (kind == code[RoundKind.PAB]) | (chess & (kind == code[RoundKind.FORFEIT_WIN]))
    return _Rounds(list(ctx.records), ctx.row, t.pairing_points * (scale // t.pairing_unit), scale, t.opponent,
                   t.side.astype(np.int64), (kind == code[RoundKind.GAME]) & (t.opponent >= 0), had_bye.any(axis=1))


def _running_scores(rounds: _Rounds, top: frozenset[PlayerId], win: Fraction) -> np.ndarray:
    """Every player's pairing score before each round 1..R + 1 (R the rounds read), with the virtual win of
    rounds 1 and 2 (RULES.md 2.8): ``before[p, k - 1]`` for round k, in whole numbers of ``rounds.scale``
    (pairing points are exact fractions; one cumulative sum gives every round)."""
    n, played = rounds.points.shape
    table = np.zeros((n, played + 1), dtype=np.int64)
    table[:, 1:] = rounds.points
    before = np.cumsum(table, axis=1)
    virtual = np.array([name in top for name in rounds.names], dtype=bool)
    before[virtual, :2] += int(win * rounds.scale)
    return before


def _float_balances(rounds: _Rounds, before: np.ndarray) -> dict[PlayerId, int]:
    """Ups minus downs over the rounds read (RULES.md 2.5; byes are not floats): a player floats up against
    an opponent whose pairing score before the round was higher, down against a lower."""
    paired = rounds.opponent >= 0
    player, k = np.nonzero(paired)
    theirs = rounds.opponent[player, k]
    balance = np.zeros(len(rounds.names), dtype=np.int64)
    np.add.at(balance, player, np.sign(before[theirs, k] - before[player, k]))
    return {name: int(b) for name, b in zip(rounds.names, balance.tolist()) if b}


def first_round_order(event: Event) -> str:
    """How round 1 is ordered (RULES.md 2.6): the ``first_round`` setting, else ``rating`` when every
    player has one, else ``random``."""
    return event.settings.first_round or (
        "rating" if all(p.rating is not None for p in event.players) else "random")


def _ranking_order(event: Event, round_: int, players: Sequence[Player], scores: Mapping[PlayerId, int],
                   ctx: Context) -> tuple[PlayerId, ...]:
    """Pairing score, then the standings tiebreak chain, then rating, then name (RULES.md 2.1, 2.6).

    The chain's ``random`` is left out here (*decision*): a drawn lot is the standings' last resort,
    while inside a score group seed 004 orders "by tiebreaks or estimated strength", so players still
    tied after the real tiebreaks are ordered by rating. ``scores``: pairing scores in whole numbers of one
    common unit, as they sort the same as the fractions and far faster; ``ctx``: the tiebreaks' context of
    the rounds played.
    """
    if round_ == 1 and first_round_order(event) == "random":
        names = sorted(p.name for p in players)
        random.Random(f"{event.settings.seed}:shuffle:1").shuffle(names)
        position = {name: i for i, name in enumerate(names)}
        return tuple(sorted(names, key=lambda n: (-scores[n], position[n])))
    without_lot = tuple(name for name in event_chain(event) if name != "random")
    ranked = replace(event, settings=replace(event.settings, tiebreaks=without_lot))
    standing = standing_ranks(ranked, context=ctx)
    return tuple(p.name for p in sorted(
        players, key=lambda p: (-scores[p.name], standing.get(p.name, 0), -(p.rating or 0), p.name)))


@without_cycle_collection
def round_state(event: Event, round_: int, *, ranked: bool = True) -> RoundState:
    """The state of ``event`` before round ``round_`` is paired (RULES.md 2). ``ranked=False`` leaves out the
    standings tiebreaks that order each score group (the order inside a group is then by name): for a check
    that needs who is paired and what they have met, not their ranking."""
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
    chess = event.settings.points == "chess"
    ctx = Context.of(event, through=round_ - 1, recorded=recs)
    rounds = _read_rounds(ctx, win, chess)
    before = _running_scores(rounds, top, win)
    row = rounds.index
    now = before[:, round_ - 1].tolist()
    whole = {p.name: now[row[p.name]] for p in players}  # the pairing score in 1 / rounds.scale
    distinct = sorted(set(whole.values()), reverse=True)
    fractions = {w: Fraction(w, rounds.scale) for w in distinct}
    scores = {name: fractions[w] for name, w in whole.items()}
    order = _ranking_order(event, round_, players, whole, ctx) if ranked else \
        tuple(sorted((p.name for p in players), key=lambda name: (-whole[name], name)))
    place = {score: g for g, score in enumerate(distinct)}
    group = {name: place[whole[name]] for name in order}
    members: dict[int, list[PlayerId]] = defaultdict(list)
    for name in order:
        members[group[name]].append(name)
    names = rounds.names
    player, k = np.nonzero(rounds.opponent >= 0)
    theirs = rounds.opponent[player, k]
    first = rounds.side[player, k] == 1
    name_of = names.__getitem__
    played = frozenset(zip(map(name_of, player[first].tolist()), map(name_of, theirs[first].tolist())))
    pairs = np.unique(np.minimum(player, theirs) * len(names) + np.maximum(player, theirs))  # each pair once
    low, high = np.divmod(pairs, max(len(names), 1))
    met = frozenset(map(frozenset, zip(map(name_of, low.tolist()), map(name_of, high.tolist()))))
    if event.settings.sides == "single":  # a pair is spent once it has met both ways (RULES.md 3)
        met = frozenset(pair for pair in met if len(pair) == 2 and tuple(pair) in played
                        and tuple(pair)[::-1] in played)
    avoided = {frozenset((x.a, x.b)): x for x in event.avoid if x.a in group and x.b in group}
    forbidden = (frozenset(avoided) if event.settings.avoid_fallback == "error" else frozenset()) | (
        met if event.settings.rematch_fallback == "error" else frozenset())
    met |= frozenset(avoided)  # kept apart as firmly as a rematch (RULES.md 2.12)
    eligible = frozenset(name for name in order if not rounds.had_bye[row[name]])
    games = rounds.over_the_board & (rounds.side > 0)
    side_rows, game_rows = rounds.side.tolist(), games.tolist()
    sides = {name: tuple(itertools.compress(side_rows[row[name]], game_rows[row[name]])) for name in order}
    return RoundState(round=round_, order=order, scores=scores, group=group,
                      group_members={g: tuple(m) for g, m in members.items()},
                      balance=_float_balances(rounds, before), met=met, bye_eligible=eligible,
                      clubs={p.name: p.club.strip().lower() for p in players}, not_paired=tuple(not_paired),
                      sides=sides, played=played, avoided=avoided,
                      forbidden=forbidden)
