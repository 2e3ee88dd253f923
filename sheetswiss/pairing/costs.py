"""The one production cost of a pair (RULES.md 2.1), built level by level over arrays of pairs.

A pair's cost is a vector of eleven levels compared lexicographically, most significant first (RULES.md 2.1).
:data:`LEVEL_COSTS` holds one small function per level, in that order, each citing its RULES.md section and
each computing its level for whole arrays of pairs at once from per-player arrays that :class:`Costs`
builds once per round from the round state (:mod:`.state`). :meth:`Costs.weights` folds the levels into
RULES.md 2.1's single integer per pair, so that the cheapest perfect matching is the lexicographic minimum.

Words used here: a *node* is a player to pair, by ranking position, or the bye node ``n`` (present when the
field is odd); the pairing-allocated bye (PAB, RULES.md 2.4) is the edge to the bye node. A *place* is a
player's position inside its score group. The *score scale* makes the score level an integer (score
distances can be halves). A *boundary* k lies between score groups k and k + 1; the solver's boundary duals
(:mod:`.solver`) are taken off every pair that crosses it (:meth:`Costs.reduced`).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar, final

import numpy as np

from ..scoring import pairing_scale_for
from .levels import (
    CLUB,
    CLUB_FIRST,
    LEVELS,
    PATTERN,
    SCORE,
    colour_ok,
    due_colour,
    float_cost,
    float_height,
    side_cost,
    triangle,
)
from .state import RoundState

if TYPE_CHECKING:
    from ..model import Event

__all__ = ["DRAWS", "LEVEL_COSTS", "Costs", "pair_draw", "player_keys", "two_sided"]

_MASK = (1 << 64) - 1
_K = TypeVar("_K", int, np.ndarray)


def _mix(k: _K) -> _K:
    """MurmurHash3's 64-bit finaliser, on a Python int below 2**64 or a uint64 array: every input bit
    changes about half the output bits."""
    k = k ^ (k >> 33)
    k = (k * 0xFF51AFD7ED558CCD) & _MASK
    k = k ^ (k >> 33)
    k = (k * 0xC4CEB9FE1A85EC53) & _MASK
    return k ^ (k >> 33)


def player_keys(seed: int, round_: int, names: Sequence[str]) -> list[int]:
    """Each player's 64-bit key for the seeded random level's draws in ``round_`` (RULES.md 2.11): the first
    eight bytes of BLAKE2b of ``f"{seed}:edges:{round}:{name}"``, little-endian; the bye node's name is empty.

    >>> player_keys(7, 3, ["Ann"]) == player_keys(7, 3, ["Ann"]) != player_keys(7, 4, ["Ann"])
    True
    """
    return [int.from_bytes(hashlib.blake2b(f"{seed}:edges:{round_}:{name}".encode(), digest_size=8).digest(),
                           "little") for name in names]


DRAWS = 1 << 16
"""The seeded draws lie in ``[0, DRAWS)`` (:func:`pair_draw`)."""


def pair_draw(a: _K, b: _K) -> _K:
    """The seeded random level (RULES.md 2.11) of the players of keys ``a`` and ``b`` (:func:`player_keys`),
    or of arrays of them: the top 16 bits of ``mix(lo ^ mix(hi))``, lo and hi the smaller and the larger
    key. The draw depends on the two players only, not on their order or anyone else, and needs no table
    of all pairs.

    >>> ann, bob = player_keys(7, 3, ["Ann", "Bob"])
    >>> pair_draw(ann, bob) == pair_draw(bob, ann), 0 <= pair_draw(ann, bob) < 65536
    (True, True)
    >>> keys = np.array(player_keys(7, 3, ["Ann", "Bob"]), dtype=np.uint64)
    >>> pair_draw(keys[:1], keys[1:]).tolist() == [pair_draw(ann, bob)]
    True
    """
    if isinstance(a, np.ndarray):
        with np.errstate(over="ignore"):
            lo, hi = np.minimum(a, b), np.maximum(a, b)
            out: np.ndarray = (_mix(lo ^ _mix(hi)) >> 48).astype(np.int64)
        return out
    lo_, hi_ = (a, b) if a <= b else (b, a)
    return _mix(lo_ ^ _mix(hi_)) >> 48


def two_sided(sides: str, colours: str) -> str:
    """Which events give a pair two edges, one per side assignment: ``"sides"`` under ``sides: single``
    (RULES.md 3), ``"colours"`` under ``colours: alternate`` (RULES.md 2.10; ignored with sides), else ``""``.
    Under ``sides: double`` both sides are played every round: no side cost, nothing to choose (RULES.md 3).

    >>> two_sided("single", "alternate"), two_sided("double", "alternate"), two_sided("none", "alternate")
    ('sides', '', 'colours')
    """
    if sides != "none":
        return "sides" if sides == "single" else ""
    return "colours" if colours == "alternate" else ""


def _codes(pairs: Collection[Iterable[str]], index: Mapping[str, int], nodes: int, *,
           ordered: bool = False) -> np.ndarray:
    """``a * nodes + b`` for each pair of names whose two players are both in ``index`` (``a`` and ``b`` their
    positions there), sorted: ``a < b``, or with ``ordered`` in the pair's own order. The names are looked up
    in one pass and the pairs made over arrays (a round state at 8,000 players has some 50,000 pairs)."""
    at = np.fromiter(map(index.get, itertools.chain.from_iterable(pairs), itertools.repeat(-1)), dtype=np.int64)
    if len(at) != 2 * len(pairs):
        raise ValueError("a pair that is not of two players")
    at = at.reshape(-1, 2)
    at = at[(at >= 0).all(axis=1)]
    a, b = at[:, 0], at[:, 1]
    if not ordered:
        a, b = np.minimum(a, b), np.maximum(a, b)
    out: np.ndarray = np.sort(a * nodes + b)  # each pair once: the pairs are a set
    return out


def _members(keys: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is in the sorted array ``table``."""
    if not len(table):
        return np.zeros(keys.shape, dtype=bool)
    at = np.minimum(np.searchsorted(table, keys), len(table) - 1)
    out: np.ndarray = table[at] == keys
    return out


@final
class Costs:
    """The per-player arrays every level reads, computed once per round, and the level multipliers.

    Node arrays have one entry per node (the bye node last, when there is one); the score level is scaled
    by :attr:`score_scale` to stay an integer. Levels are given as int64 arrays, one row per pair and one
    column per level (:meth:`level_table`).
    """

    def __init__(self, event: Event, state: RoundState, bye_pool: Iterable[str], rematches: bool) -> None:
        settings = event.settings
        self.n = n = len(state.order)
        """Players to pair."""
        self.nodes = n + n % 2
        self.bye = n if n % 2 else -1
        """The bye node, or -1 when the field is even."""
        self.rematches = rematches
        """Whether pairs that have met are edges (the last fallback of RULES.md 2.3)."""
        self.groups = len(state.group_members)
        index = {name: i for i, name in enumerate(state.order)}
        self.members: list[list[int]] = [[index[x] for x in state.group_members[g]] for g in range(self.groups)]
        """The nodes of each score group, in ranking order."""
        group = [state.group[x] for x in state.order] + ([self.groups] if n % 2 else [])
        self.group = np.array(group, dtype=np.int64)
        """Score group of each node; the bye node is one group below the last (RULES.md 2.4)."""
        self.group_of = group
        place = [0] * self.nodes
        for mem in self.members:
            for p, i in enumerate(mem):
                place[i] = p
        self.place_of = place
        """Each node's place in its score group (0 for the top player)."""
        self.place = np.array(place, dtype=np.int64)
        balance = [state.balance.get(x, 0) for x in state.order]
        low, high = state.balance_range
        self.down = [float_cost(f, high, "down") for f in balance]
        """Each player's share of the float balance level when floating down (RULES.md 2.5)."""
        self.up = [float_cost(f, low, "up") for f in balance]
        """Each player's share of the float balance level when floating up (RULES.md 2.5)."""
        self._down = np.array(self.down + [0] * (n % 2), dtype=np.int64)
        self._up = np.array(self.up + [0] * (n % 2), dtype=np.int64)
        rule = settings.avoid_same_club
        self.club_level = -1
        """The level a shared club costs at: round 1 or every round (RULES.md 2.7), -1 for none."""
        if rule != "no" and state.round == 1:
            self.club_level = CLUB_FIRST
        elif rule == "always":
            self.club_level = CLUB
        self.club = [state.clubs[x] for x in state.order]
        codes = {name: k for k, name in enumerate(sorted(set(self.club) - {""}), start=1)}
        self._club = np.array([codes.get(x, 0) for x in self.club] + [0] * (n % 2), dtype=np.int64)
        self.mode = two_sided(settings.sides, settings.colours)
        """``"sides"``, ``"colours"`` or ``""``: whether a pair has two edges, one per side assignment."""
        seqs = [state.sides.get(x, ()) for x in state.order]
        self.bias = [seq.count(1) - seq.count(2) for seq in seqs]
        """Side bias (games as side 1 less games as side 2, RULES.md 3; White as side 1, 2.10)."""
        self._white_ok = np.array([colour_ok(seq, 1) for seq in seqs] + [True] * (n % 2), dtype=bool)
        self._black_ok = np.array([colour_ok(seq, 2) for seq in seqs] + [True] * (n % 2), dtype=bool)
        self.due = [due_colour(seq) or 0 for seq in seqs] + [0] * (n % 2)
        """Each node's due colour (RULES.md 2.10): 1 White, 2 Black, 0 none."""
        self._due = np.array(self.due, dtype=np.int64)
        self._colour_kind = 6 * self._white_ok + 3 * self._black_ok + self._due
        """Each node's colour kind: whether it may take White, whether Black, and its due colour (12 kinds)."""
        kinds = np.arange(12, dtype=np.int64)
        white, black = np.repeat(kinds, 12), np.tile(kinds, 12)
        self._kind_colours = np.minimum(_assignment(white, black), _assignment(black, white)).reshape(12, 12)
        """The colour levels of the better colour choice (:func:`best_colours`) of each two kinds."""
        self._met = _codes(state.met, index, self.nodes)
        """``i * nodes + j`` for each pair ``i < j`` that has met (RULES.md 2.3), sorted."""
        self._forbidden = _codes(state.forbidden, index, self.nodes)
        """The pairs of :attr:`_met` that stay out of G even when rematches are allowed (RULES.md 2.12)."""
        self._side_one = _codes(state.played, index, self.nodes, ordered=True)
        """``a * nodes + b`` for each pair where a has played side 1 against b."""
        pool = [False] * self.nodes
        for x in bye_pool:
            if x in index:
                pool[index[x]] = True
        self.pool = pool
        """Who may take the bye in this solve (RULES.md 2.4)."""
        self.pattern = settings.within_group
        self.size = [len(m) - (1 if n % 2 and g == self.groups - 1 else 0) for g, m in enumerate(self.members)]
        """Players of each group paired inside it (the bye's candidate leaves the lowest, RULES.md 2.5)."""
        self.half = [math.ceil(s / 2) for s in self.size]
        self._size = np.array([*self.size, 0], dtype=np.int64)
        self._half = np.array([*self.half, 0], dtype=np.int64)
        win = pairing_scale_for(settings).win
        distance_in = settings.score_distance
        group_score = [state.scores[state.group_members[g][0]] for g in range(self.groups)]
        if n % 2:
            group_score.append(min(state.scores.values()) - win)

        def distance(a: int, b: int) -> Fraction:
            if distance_in == "groups":
                return Fraction(abs(a - b))
            delta = abs(group_score[a] - group_score[b])
            return delta / win if distance_in == "wins" else delta

        span = self.groups + n % 2
        score_fractions = [[triangle(distance(a, b)) for b in range(span)] for a in range(span)]
        side_values: dict[tuple[int, int], Fraction] = {}
        biases = sorted(set(self.bias)) or [0]
        if self.mode == "sides":
            side_values = {(bx, by): side_cost(settings, bx, by) for bx in biases for by in biases}
        self.score_scale = math.lcm(1, *(v.denominator for row in score_fractions for v in row),
                                    *(v.denominator for v in side_values.values()))
        """The score level's values are multiplied by this to be integers."""
        self.score_table = [[int(v * self.score_scale) for v in row] for row in score_fractions]
        """Scaled T(d) between two groups (RULES.md 2.2); the bye's group is the last row."""
        self._score = np.array(self.score_table, dtype=np.int64)
        self.height = [float_height(0, g, span) for g in range(span)]
        """Float height (RULES.md 2.5) of a pair from group 0 down to each group: a pair g < h costs
        ``height[h] - height[g]``."""
        self._height = np.array(self.height, dtype=np.int64)
        self._low_bias = biases[0]
        width = biases[-1] - biases[0] + 1
        self._side = np.zeros((width, width), dtype=np.int64)
        """Scaled side cost of "x takes side 1 against y" by the biases (bx, by), offset by the lowest bias."""
        for (bx, by), v in side_values.items():
            self._side[bx - self._low_bias, by - self._low_bias] = int(v * self.score_scale)
        self._bias = np.array(self.bias + [0] * (n % 2), dtype=np.int64)
        self.bye_rank = [n - 1 - i for i in range(n)]
        """Who takes the bye, at the who-floats level (RULES.md 2.4): the lowest-ranked costs 0, or a seeded
        random rank under ``bye_choice: random_lowest_group``."""
        if settings.bye_choice == "random_lowest_group" and n % 2:
            self.bye_rank = [random.Random(f"{settings.seed}:bye:{state.round}:{x}").randrange(n)
                             for x in state.order]
        self._bye_rank = np.array(self.bye_rank + [0] * (n % 2), dtype=np.int64)
        colours = int(self.mode == "colours")
        largest_side = int(self._side.max()) if self.mode == "sides" else 0
        # the multipliers, from each level's largest value over the complete graph (RULES.md 2.1)
        most = [int(rematches), int(self.club_level == CLUB_FIRST),
                max((max(r) for r in self.score_table), default=0) + largest_side,
                self.height[-1], int(self.club_level == CLUB), colours,
                max(self.down, default=0) + max(self.up, default=0),
                max([n, *map(len, self.members)]), colours,
                max(map(len, self.members), default=0) + 1, 65535]
        pairs = self.nodes // 2
        self.multipliers = [1] * len(LEVELS)
        """RULES.md 2.1's M for each level: it exceeds the largest total of all lower levels."""
        for k in range(len(LEVELS) - 2, -1, -1):
            self.multipliers[k] = self.multipliers[k + 1] * (1 + pairs * most[k + 1])
        self._multipliers = np.array(self.multipliers, dtype=object)
        self._most = np.array(most, dtype=np.int64)
        self._spans = _spans(self.multipliers, most)
        self.keys = player_keys(settings.seed, state.round, [*state.order, *([""] if n % 2 else [])])
        """Each node's key for the seeded random level (:func:`pair_draw`)."""
        self.key_array = np.array(self.keys, dtype=np.uint64)
        self.boundary_dual = [0] * span
        """z_k of each boundary, set by the solver (:mod:`.solver`)."""
        self.duals_above = [0] * (span + 1)
        """``duals_above[g]``: the z of boundaries 0 .. g - 1, taken off every pair that crosses them."""

    # -- per level ------------------------------------------------------------------------------------

    def level_table(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The eleven levels (columns, most significant first) of the pairs ``(i[k], j[k])``, ``j`` may be
        the bye node; each column is one function of :data:`LEVEL_COSTS`."""
        pairs = _Pairs(self, i, j)
        return np.stack([level(pairs) for level in LEVEL_COSTS], axis=1) if len(i) else \
            np.zeros((0, len(LEVELS)), dtype=np.int64)

    def levels(self, i: int, j: int) -> list[int]:
        """The eleven levels of the pair ``i < j`` (score scaled by :attr:`score_scale`)."""
        row: list[int] = self.level_table(np.array([i]), np.array([j]))[0].tolist()
        return row

    def fractions(self, pairs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], list[Fraction]]:
        """The levels of each pair ``i < j`` as RULES.md states them (the score unscaled)."""
        ends = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        table = self.level_table(ends[:, 0], ends[:, 1]).tolist()
        seen = {v for row in table for v in row}
        whole = {v: Fraction(v) for v in seen}
        scaled = {v: Fraction(v, self.score_scale) for v in {row[SCORE] for row in table}}
        out = {}
        for pair, row in zip(pairs, table):
            values = [whole[v] for v in row]
            values[SCORE] = scaled[row[SCORE]]
            out[pair] = values
        return out

    def weights_of(self, table: np.ndarray) -> list[int]:
        """RULES.md 2.1's integer weight of each row of a :meth:`level_table`: each run of levels whose weighted
        sum fits 64 bits (:func:`_spans`) is summed in int64, and only those few sums are put together as Python
        integers (at 8,000 players, 310,000 pairs in 0.07 CPU seconds instead of 0.12 for one Python sum over the
        eleven levels)."""
        if not len(table):
            return []
        if (table > self._most).any() or (table < 0).any():  # beyond the bounds the multipliers were made for
            out: list[int] = table.astype(object).dot(self._multipliers).tolist()
            return out
        total = None
        for first, last, factors in self._spans:
            part = table[:, first:last + 1] @ factors
            part = part.astype(object) * self.multipliers[last] if self.multipliers[last] != 1 else part
            total = part if total is None else total + part
        assert total is not None
        out = total.tolist()
        return out

    def weights(self, i: np.ndarray, j: np.ndarray) -> list[int]:
        """RULES.md 2.1's integer weight of each pair."""
        return self.weights_of(self.level_table(i, j))

    def encode(self, i: int, j: int) -> int:
        """RULES.md 2.1's integer weight of the pair ``i < j``."""
        return self.weights(np.array([i]), np.array([j]))[0]

    def reduced_many(self, i: np.ndarray, j: np.ndarray) -> list[int]:
        """The weights less the boundary duals of every boundary each pair crosses."""
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        above = self.duals_above
        return [w - (above[b] - above[a]) for w, a, b in
                zip(self.weights(i, j), self.group[np.minimum(i, j)].tolist(), self.group[np.maximum(i, j)].tolist())]

    def reduced(self, i: int, j: int) -> int:
        """The weight of ``i < j`` less the boundary duals of every boundary the pair crosses."""
        return self.reduced_many(np.array([i]), np.array([j]))[0]

    def side_floors(self, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
        """The least scaled side cost a pair of side biases ``bx[k]`` and ``by[k]`` (biases some player has) can
        have under ``sides: single``: the cheaper of its two side assignments (RULES.md 3,
        :func:`~.levels.side_cost`); an assignment already played is gone or costs the same, never less."""
        x, y = np.asarray(bx) - self._low_bias, np.asarray(by) - self._low_bias
        out: np.ndarray = np.minimum(self._side[x, y], self._side[y, x])
        return out

    def allowed_many(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether each pair ``i < j`` is an edge of G: no rematch unless allowed (RULES.md 2.3), a forbidden
        pair never (2.12), the bye only for the pool (2.4)."""
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        bye = j == self.bye
        out = ~_members(i * self.nodes + j, self._forbidden if self.rematches else self._met)
        if bye.any():
            out[bye] = np.array(self.pool, dtype=bool)[i[bye]]
        return out

    def have_met(self, i: int, j: int) -> bool:
        """Whether players ``i`` and ``j`` have met (RULES.md 2.3): a rematch. The bye node has met no one."""
        code = min(i, j) * self.nodes + max(i, j)
        at = int(np.searchsorted(self._met, code))
        return at < len(self._met) and int(self._met[at]) == code

    def assignments(self, i: int, j: int) -> list[tuple[tuple[int, int, int], int, int]]:
        """The edges of the pair ``i < j`` still allowed, one per side assignment (side 1, White, first), each
        with its costs at the score level (the scaled side cost), colour hard and colour preference, cheapest
        first: the same costs as :func:`score`, :func:`colour_hard` and :func:`colour_preference` take the
        cheaper of."""
        out = []
        spent = np.array([self.mode == "sides" and self.have_met(i, j)])
        for first, second in ((i, j), (j, i)):
            a, b = np.array([first]), np.array([second])
            if self.mode == "sides":
                side = int(side_assignment(self, a, b, spent)[0])
                if side >= 0:
                    out.append(((side, 0, 0), first, second))
            else:
                colour = int(colour_assignment(self, a, b)[0])
                out.append(((0, colour // 2, colour % 2), first, second))
        out.sort(key=lambda option: option[0])
        return out

    def clean(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether each pair of one group may meet at no cost above the pattern: no rematch, no shared club,
        no colour or side cost. Only the levels a pair inside one group can pay are priced (:data:`_IN_GROUP`),
        every level above the pattern where a pair crosses groups or takes the bye."""
        pairs = _Pairs(self, i, j)
        levels = LEVEL_COSTS[:PATTERN] if pairs.across.any() or pairs.bye.any() else _IN_GROUP
        out: np.ndarray = sum((level(pairs) for level in levels), np.zeros(len(i), dtype=np.int64)) == 0
        return out

    def pattern_cost(self, g: int | np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Within-group pattern (``within_group``, RULES.md 2.5) of places ``p < q`` of group ``g`` (or of
        arrays of groups): ``slide`` |(q - p) - ceil(size / 2)|, ``fold`` |p + q - (size - 1)|, 0 for
        ``random``."""
        if self.pattern == "slide":
            out: np.ndarray = np.abs((q - p) - self._half[g])
        elif self.pattern == "fold":
            out = np.abs(p + q - (self._size[g] - 1))
        else:
            out = np.zeros_like(p)
        return out

    def radix(self, value: int) -> tuple[int, ...]:
        """``value`` in the mixed radix of the multipliers (the most significant level first)."""
        out = []
        for m in self.multipliers:
            out.append(value // m)
            value %= m
        return tuple(out)


def _spans(multipliers: Sequence[int], most: Sequence[int]) -> list[tuple[int, int, np.ndarray]]:
    """The levels cut into runs ``first .. last`` whose weighted sum, in units of the last one's multiplier, stays
    below 2**62 for levels up to ``most``: each run with its levels' multipliers in those units (int64).

    >>> [(a, b, f.tolist()) for a, b, f in _spans([100, 10, 1], [5, 9, 9])]
    [(0, 2, [100, 10, 1])]
    >>> [(a, b) for a, b, _ in _spans([2**70, 2**40, 1], [1, 3, 3])]
    [(1, 2), (0, 0)]
    """
    out: list[tuple[int, int, np.ndarray]] = []
    last = len(multipliers) - 1
    while last >= 0:
        first, bound = last, most[last]
        while first > 0 and bound + max(most[first - 1], 1) * (multipliers[first - 1] // multipliers[last]) < 1 << 62:
            first -= 1
            bound += max(most[first], 1) * (multipliers[first] // multipliers[last])
        factors = np.array([multipliers[k] // multipliers[last] for k in range(first, last + 1)], dtype=np.int64)
        out.append((first, last, factors))
        last = first - 1
    return out


@final
class _Pairs:
    """Arrays of pairs ``i < j`` (given in either order) and what several levels share about them."""

    def __init__(self, c: Costs, i: np.ndarray, j: np.ndarray) -> None:
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        i, j = np.minimum(i, j), np.maximum(i, j)
        self.c, self.i, self.j = c, i, j
        self.bye = j == c.bye
        self.gi, self.gj = c.group[i], c.group[j]
        self.across = (self.gi != self.gj) & ~self.bye
        """A float: x floats down, y up (RULES.md 2.5)."""
        self.met = _members(i * c.nodes + j, c._met) & ~self.bye


def _zero(pairs: _Pairs) -> np.ndarray:
    return np.zeros(len(pairs.i), dtype=np.int64)


def rematch(pairs: _Pairs) -> np.ndarray:
    """Rematch: 1 if the two have met (RULES.md 2.3; an edge only in the last fallback)."""
    out: np.ndarray = pairs.met.astype(np.int64)
    return out


def _same_club(pairs: _Pairs) -> np.ndarray:
    c = pairs.c
    a, b = c._club[pairs.i], c._club[pairs.j]
    out: np.ndarray = ((a > 0) & (a == b) & ~pairs.bye).astype(np.int64)
    return out


def club_first_round(pairs: _Pairs) -> np.ndarray:
    """Club in round 1: 1 if the two share a non-empty club and ``avoid_same_club`` is not ``no``
    (RULES.md 2.7)."""
    return _same_club(pairs) if pairs.c.club_level == CLUB_FIRST else _zero(pairs)


def side_assignment(c: Costs, first: np.ndarray, second: np.ndarray, spent: np.ndarray) -> np.ndarray:
    """The scaled side cost of "``first`` takes side 1 against ``second``" under ``sides: single`` (RULES.md 3,
    :func:`~.levels.side_cost` on the two side biases), or -1 where that assignment is gone: played already,
    unless the pair is ``spent`` (has met both ways, so both come back in the rematch fallback)."""
    low = c._low_bias
    cost: np.ndarray = c._side[c._bias[first] - low, c._bias[second] - low]
    played = _members(first * c.nodes + second, c._side_one) & ~spent
    return np.where(played, -1, cost)


def colour_assignment(c: Costs, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """Twice the colour hard level plus the colour preference of "``white`` has White against ``black``"
    (RULES.md 2.10; :func:`_assignment` of their colour kinds)."""
    return _assignment(c._colour_kind[white], c._colour_kind[black])


def _assignment(white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """Twice the colour hard level plus the colour preference of "a player of colour kind ``white`` has White
    against one of kind ``black``" (RULES.md 2.10): hard when either breaks the colour limits
    (:func:`~.levels.colour_ok`), a preference cost when either is due the other colour
    (:func:`~.levels.due_colour`). A kind is 6 if the player may take White, plus 3 if Black, plus its due colour
    (1 White, 2 Black, 0 none)."""
    hard = (white // 6 == 0) | (black // 3 % 2 == 0)
    preference = (white % 3 == 2) | (black % 3 == 1)
    out: np.ndarray = 2 * hard.astype(np.int64) + preference
    return out


def best_colours(c: Costs, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Twice the colour hard level plus the colour preference of the better colour choice of each pair (i, j)
    (RULES.md 2.10): the lesser of :func:`colour_assignment` both ways, looked up by the two colour kinds. At 8,000
    players under ``colours: alternate`` after a history with Player A by a coin, the checks of one solve took 0.98
    CPU seconds with both ways computed, 0.90 with the lookup."""
    out: np.ndarray = c._kind_colours[c._colour_kind[i], c._colour_kind[j]]
    return out


def score(pairs: _Pairs) -> np.ndarray:
    """Score: T(d) on the score-group distance (RULES.md 2.2; the bye node sits one group below the last,
    2.4), scaled; under ``sides: single`` plus the side cost of the cheaper side assignment still allowed
    (RULES.md 3, :func:`side_assignment`)."""
    c = pairs.c
    out: np.ndarray = c._score[pairs.gi, pairs.gj]
    games = ~pairs.bye
    if c.mode == "sides" and games.any():
        i, j, spent = pairs.i[games], pairs.j[games], pairs.met[games]
        i_first, j_first = side_assignment(c, i, j, spent), side_assignment(c, j, i, spent)
        best = np.where(i_first < 0, j_first, np.where(j_first < 0, i_first, np.minimum(i_first, j_first)))
        out = out.copy()
        out[games] += best
    return out


def height(pairs: _Pairs) -> np.ndarray:
    """Float height: the boundaries a float or the bye crosses, each weighted by the groups below it
    (RULES.md 2.5): floats stay as low in the field as they can."""
    c = pairs.c
    out: np.ndarray = c._height[pairs.gj] - c._height[pairs.gi]
    return out


def club(pairs: _Pairs) -> np.ndarray:
    """Club in later rounds: 1 if the two share a non-empty club under ``avoid_same_club: always``
    (RULES.md 2.7)."""
    return _same_club(pairs) if pairs.c.club_level == CLUB else _zero(pairs)


def _colours(pairs: _Pairs) -> np.ndarray:
    """Twice the colour hard level plus the colour preference of the better colour choice (RULES.md 2.10);
    0 outside ``colours: alternate``."""
    c = pairs.c
    if c.mode != "colours":
        return _zero(pairs)
    best = best_colours(c, pairs.i, pairs.j)
    best[pairs.bye] = 0
    return best


def colour_hard(pairs: _Pairs) -> np.ndarray:
    """Colour, hard: 1 if every colour choice breaks RULES.md 2.10's limits (FIDE C.04.1 (f), (g)) under
    ``colours: alternate``."""
    out: np.ndarray = _colours(pairs) // 2
    return out


def balance(pairs: _Pairs) -> np.ndarray:
    """Float balance: the upper player's share for floating down plus the lower one's for floating up
    (RULES.md 2.5, :func:`~.levels.float_cost`)."""
    c = pairs.c
    out: np.ndarray = np.where(pairs.across, c._down[pairs.i] + c._up[pairs.j], 0)
    return out


def who_floats(pairs: _Pairs) -> np.ndarray:
    """Who floats: the place in its group of the player floating up (RULES.md 2.5), and who takes the bye
    (2.4, :attr:`Costs.bye_rank`)."""
    c = pairs.c
    out: np.ndarray = np.where(pairs.across, c.place[pairs.j], 0)
    return np.where(pairs.bye, c._bye_rank[pairs.i], out)


def colour_preference(pairs: _Pairs) -> np.ndarray:
    """Colour preference: 0 if both can have their due colour, else 1, in the better colour choice
    (RULES.md 2.10) under ``colours: alternate``."""
    out: np.ndarray = _colours(pairs) % 2
    return out


def pattern(pairs: _Pairs) -> np.ndarray:
    """Within-group pattern (``within_group``, RULES.md 2.5, :meth:`Costs.pattern_cost`) of a pair inside a
    group; 0 between groups and for the bye."""
    c = pairs.c
    inside = ~pairs.across & ~pairs.bye
    out: np.ndarray = np.where(inside, c.pattern_cost(pairs.gi, c.place[pairs.i], c.place[pairs.j]), 0)
    return out


def draw(pairs: _Pairs) -> np.ndarray:
    """Seeded random: a number in [0, DRAWS) drawn from the event's seed, the round and the two players
    (RULES.md 2.11, :func:`pair_draw`)."""
    c = pairs.c
    return pair_draw(c.key_array[pairs.i], c.key_array[pairs.j])


LEVEL_COSTS: tuple[Callable[[_Pairs], np.ndarray], ...] = (
    rematch, club_first_round, score, height, club, colour_hard, balance, who_floats, colour_preference, pattern,
    draw)
"""One function per level of :data:`~.levels.LEVELS`, in the same order (RULES.md 2.1)."""

assert len(LEVEL_COSTS) == len(LEVELS)

_IN_GROUP: tuple[Callable[[_Pairs], np.ndarray], ...] = (rematch, club_first_round, score, club, colour_hard,
                                                        colour_preference)
"""The levels above the pattern that a pair inside one score group can pay (RULES.md 2.1): float height, float
balance and who floats price floats and the bye only. At 8,000 players under ``colours: alternate`` after a history
with Player A by a coin, where the candidate graph's walks ask about 2.2 million such pairs, :meth:`Costs.clean` took
0.27 CPU seconds with every level, 0.13 with these."""
