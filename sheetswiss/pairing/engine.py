"""Exact minimum-cost pairing at any size: a sparse candidate graph, a primal-dual solve, and a proof.

The round's cost (RULES.md 2.1) is one integer per edge of the complete graph G of players (and the bye
node). Building G costs O(n^2), so the engine works on a candidate graph G' and proves that the pairing
it finds is the minimum over all of G, by linear-programming duality:

* **Odd score groups.** For every prefix S_k of score groups (groups 0..k, the bye node below the last)
  with an odd number of nodes, every perfect matching has an edge leaving S_k. A dual ``z_k >= 0`` (the
  least cost of a single float across boundary k: score, height, balance and position of its cheapest
  ends; the height level is a sum over the boundaries a pair crosses, so each boundary's z_k carries its own) is
  subtracted from every pair crossing it: on these reduced costs ``c'`` a float costs about as little as
  a pair inside a group, so the search below stays local.
* **Candidate graph.** G' holds, inside each group, every player's partners near its ideal position
  (``slide``: p + h and p - h; ``fold``: size - 1 - p) and the nearest clean ones beyond (no rematch, no
  shared club); across adjacent groups each upper player with the best floats; small groups whole; and
  bye candidates from the bottom.
* **Primal-dual solve.** G' is solved exactly for ``c'`` by Edmonds' blossom algorithm (:mod:`.blossom`),
  started from closed-form duals: the allowed ideal pairs matched under a "staircase" of potentials,
  lower for the upper half of a group and stepping down group by group, so that floats and pattern
  changes between ideal pairs are never cheaper than the pairs themselves. Only players without an
  allowed ideal partner start free, and each search grows from one of them in Dijkstra's order, so it
  explores the region its augmenting path changes (say a group whose slide shifts because a player
  floated), not the field. The result: potentials ``D`` (twice the vertex duals) and blossoms with
  ``z_B >= 0`` such that ``D_u + D_v - Z_uv <= 2 c'_uv`` on G' (Z_uv: the z of the blossoms holding
  both), with equality on the matching.
* **Certificate.** Every perfect matching ``M*`` of G crosses each odd boundary at least once and holds
  at most floor(|B| / 2) pairs inside a blossom B, so once every allowed pair of G satisfies the
  inequality above, ``cost(M*) >= LB = (sum D - sum z_B floor(|B| / 2)) / 2 + sum z_k`` (weak duality).
  The engine checks all O(n^2) pairs with numpy, block by block (:meth:`Solver._scan`): pairs inside a
  group against their pattern and draw levels, pairs between groups against their float's score, height,
  balance and position (the per-player terms folded into the potentials, so a block whose largest
  potentials stay below its fixed part is cleared at once), with the blossoms' Z, and the bye by a lower
  bound of its cost; only pairs that may fail are checked one by one with their exact cost.
* **Widening.** Pairs that fail join G' and G' is solved again from the closed-form start; this repeats
  until no pair fails (ties at the pattern level, which the seeded draws break inside a shifted group,
  typically take one to three rounds). A search that finds no augmenting path gets its players'
  complete rows; if they have them all, its inner players are a Tutte barrier and G has no perfect
  matching.
* **Tightness.** The solve is optimal for ``c'``, and ``cost(M) = c'(M) + sum z_k * (crossings of
  boundary k)``, so ``LB`` equals the cost exactly when M crosses each odd boundary once. A pairing
  optimal for ``c'`` may cross one three times (each extra crossing is discounted by z_k, which holds
  balance and position costs too); those boundaries then get ``z_k = 0`` (every crossing costs in full)
  and the solve repeats, at most once per odd boundary.

The pairing is proven optimal when ``LB`` equals its cost: :class:`Proof` says so, or gives the gap. If
the widening does not settle within ``_ROUNDS`` rounds, fields up to ``_COMPLETE`` nodes are solved on
the complete graph (exact by construction); larger ones report the gap that the duals prove once each
failing pair is repaired by lowering one end's potential.

Events with two edges per pair (``colours: alternate``, RULES.md 2.10; ``sides: single``, 3) go the same
way: a pair's cost is the cheaper of its two assignments, at least its pattern and draw inside a group and its
float levels between groups, so the certificate holds as it stands, and the candidate graph takes each
player's nearest partners without a colour or side cost as its clean ones. Under ``sides: single`` the side
cost sits at level 3, beside the score, and pairs of equal bias cost more than a float: the search then
reaches across the field, so fields up to ``_COMPLETE`` nodes are solved on the complete graph, which is
faster there (the proof names the method).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar, final

import numpy as np

from .blossom import SPLIT, Matcher, Nesting
from .levels import (
    BALANCE,
    CLUB,
    CLUB_FIRST,
    COLOUR_HARD,
    COLOUR_PREF,
    HEIGHT,
    LEVELS,
    PATTERN,
    RANDOM,
    REMATCH,
    SCORE,
    WHO_FLOATS,
    colour_ok,
    due_colour,
    float_cost,
    float_height,
    side_cost,
    triangle,
)

if TYPE_CHECKING:
    from ..model import Event
    from .swiss import _State

__all__ = ["Costs", "Proof", "pair_draw", "player_keys", "solve_round"]

_WINDOW = 2
"""Within a group, G' holds pairs whose pattern cost is at most this (and the nearest clean ones beyond)."""
_TOP = 3
"""Across adjacent groups, G' holds each upper player with this many of the lower group's best."""
_SMALL = 12
"""Groups this small get every pair with groups up to two away."""
_ROUNDS = 20
"""Widening rounds before the fallback."""
_MAX_VIOLATIONS = 5000
"""The check stops listing violated pairs after this many."""
_COMPLETE = 600
"""Up to this many nodes the fallback solves the complete graph (rustworkx), so it is exact."""
_WIDE = 1 << 60 + SPLIT
"""Potentials below this in size are checked with numpy, split in two 64-bit integers."""
_LOW = (1 << SPLIT) - 1


def _positive(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Whether ``high * 2**SPLIT + low`` is positive, for |high| < 2**63 and |low| < 2**61."""
    near = np.abs(high) < 1 << 62 - SPLIT - 1
    value = np.where(near, high, 0) << SPLIT
    out: np.ndarray = np.where(near, value + low > 0, high > 0)
    return out


class _Enough(Exception):
    """Enough violated pairs are listed."""


@final
@dataclass(frozen=True, slots=True)
class Proof:
    """How far the pairing is proven optimal for the RULES.md 2.1 cost."""

    proven: bool
    """The pairing's cost equals a lower bound valid for every pairing of the complete graph."""
    gap: int = 0
    """Encoded cost above the proven lower bound (0 when proven)."""
    gap_levels: tuple[int, ...] = ()
    """``gap`` in the mixed radix of the level multipliers, most significant level first."""
    candidate_edges: int = 0
    """Edges the solver looked at (the complete graph has n(n-1)/2)."""
    widenings: int = 0
    """Rounds in which the candidate graph grew by pairs whose dual constraint failed."""
    method: str = ""

    def text(self) -> str:
        """One line for the command's output."""
        if self.proven:
            return (f"Optimal: no pairing of the whole field costs less (proven; {self.method}, "
                    f"{self.candidate_edges} candidate edges)")
        levels = ", ".join(str(v) for v in self.gap_levels)
        return f"Not proven optimal: at most [{levels}] above the optimum ({self.method})"


_MASK = (1 << 64) - 1
_K = TypeVar("_K", int, np.ndarray)
_P = TypeVar("_P", int, np.ndarray)


def _mix(k: _K) -> _K:
    """MurmurHash3's 64-bit finaliser, on a Python int below 2**64 or a uint64 array: every input bit
    changes about half the output bits."""
    k = k ^ (k >> 33)
    k = (k * 0xFF51AFD7ED558CCD) & _MASK
    k = k ^ (k >> 33)
    k = (k * 0xC4CEB9FE1A85EC53) & _MASK
    return k ^ (k >> 33)


def player_keys(seed: int, round_: int, names: Sequence[str]) -> list[int]:
    """Each player's 64-bit key for the level-11 draws of ``round_`` (RULES.md 2.11): the first eight bytes
    of BLAKE2b of ``f"{seed}:edges:{round}:{name}"``, little-endian; the bye node's name is empty.

    >>> player_keys(7, 3, ["Ann"]) == player_keys(7, 3, ["Ann"]) != player_keys(7, 4, ["Ann"])
    True
    """
    return [int.from_bytes(hashlib.blake2b(f"{seed}:edges:{round_}:{name}".encode(), digest_size=8).digest(),
                           "little") for name in names]


def pair_draw(a: _K, b: _K) -> _K:
    """Level 11 of RULES.md 2.11 for the players of keys ``a`` and ``b`` (:func:`player_keys`), or for arrays
    of them: the top 16 bits of ``mix(lo ^ mix(hi))``, lo and hi the smaller and the larger key. The draw
    depends on the two players only, not on their order or anyone else, and needs no table of all pairs.

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


class Costs:
    """Every edge's eleven level costs as integers, computed from per-player arrays in O(1) per edge.

    Level 3 is scaled by ``scale3`` (score distances can be halves); all other levels are integers
    already. :meth:`encode` is RULES.md 2.1's single integer with multipliers bounded over the whole
    complete graph, so comparing encoded sums is the lexicographic comparison for every pairing of G.
    """

    def __init__(self, event: Event, state: _State, bye_pool: Iterable[str], rematches: bool) -> None:
        settings = event.settings
        from ..scoring import pairing_scale_for

        self.n = n = len(state.order)
        self.nodes = n + n % 2
        self.bye = n if n % 2 else -1
        self.rematches = rematches
        self.groups = len(state.group_members)
        index = {name: i for i, name in enumerate(state.order)}
        self.members: list[list[int]] = [[index[x] for x in state.group_members[g]] for g in range(self.groups)]
        self.group = [state.group[x] for x in state.order]
        self.gpos = [0] * n
        for mem in self.members:
            for p, i in enumerate(mem):
                self.gpos[i] = p
        balance = [state.balance.get(x, 0) for x in state.order]
        low, high = state.balance_range
        self.down = [float_cost(f, high, "down") for f in balance]
        self.up = [float_cost(f, low, "up") for f in balance]
        clubs = [state.clubs[x] for x in state.order]
        rule = settings.avoid_same_club
        self.club_level = -1
        if rule != "no" and state.round == 1:
            self.club_level = CLUB_FIRST
        elif rule == "always":
            self.club_level = CLUB
        self.club = clubs
        # two edges per pair: sides (RULES.md 3) or colours (2.10); the pair costs the cheaper one
        self.mode = "sides" if settings.sides == "single" else \
            "colours" if settings.sides == "none" and settings.colours == "alternate" else ""  # double: neither
        seqs = [state.sides.get(x, ()) for x in state.order]
        self.bias = [seq.count(1) - seq.count(2) for seq in seqs]
        self.white_ok = [colour_ok(seq, 1) for seq in seqs]
        self.black_ok = [colour_ok(seq, 2) for seq in seqs]
        self.due = [due_colour(seq) or 0 for seq in seqs]
        self.first: list[set[int]] = [set() for _ in range(n)]
        """Positions each player has met as side 1 (the other on side 2)."""
        for a, b in state.played:
            if a in index and b in index:
                self.first[index[a]].add(index[b])
        side_values: dict[tuple[int, int], Fraction] = {}
        if self.mode == "sides":
            biases = sorted(set(self.bias))
            side_values = {(bx, by): side_cost(settings, bx, by) for bx in biases for by in biases}
        self.met: list[set[int]] = [set() for _ in range(n)]
        for pair in state.met:
            a, b = tuple(pair)
            if a in index and b in index:
                self.met[index[a]].add(index[b])
                self.met[index[b]].add(index[a])
        self.forbidden: list[set[int]] = [set() for _ in range(n)]
        """Pairs of :attr:`met` that stay out of G even when rematches are allowed (RULES.md 2.12)."""
        for pair in state.forbidden:
            a, b = tuple(pair)
            if a in index and b in index:
                self.forbidden[index[a]].add(index[b])
                self.forbidden[index[b]].add(index[a])
        self.pool = [False] * n
        for x in bye_pool:
            if x in index:
                self.pool[index[x]] = True
        self.pattern = settings.within_group
        self.size = [len(m) - (1 if n % 2 and g == self.groups - 1 else 0) for g, m in enumerate(self.members)]
        self.half = [math.ceil(s / 2) for s in self.size]
        # level 3: T(d) between groups (the bye sits in group G, RULES.md 2.4)
        win = pairing_scale_for(settings).win
        mode = settings.score_distance
        group_score = [state.scores[state.group_members[g][0]] for g in range(self.groups)]
        if n % 2:
            group_score.append(min(state.scores.values()) - win)

        def distance(a: int, b: int) -> Fraction:
            if mode == "groups":
                return Fraction(abs(a - b))
            delta = abs(group_score[a] - group_score[b])
            return delta / win if mode == "wins" else delta

        span = self.groups + n % 2
        t3 = [[triangle(distance(a, b)) for b in range(span)] for a in range(span)]
        self.height = [float_height(0, g, span) for g in range(span)]
        """Level 4 of a pair from group 0 down to each group: a pair g < h costs height[h] - height[g]."""
        self.scale3 = math.lcm(1, *(v.denominator for row in t3 for v in row),
                               *(v.denominator for v in side_values.values()))
        self.t3 = [[int(v * self.scale3) for v in row] for row in t3]
        self.side = {k: int(v * self.scale3) for k, v in side_values.items()}
        """Scaled side cost of "x takes side 1 against y" by the biases (bx, by)."""
        colours = int(self.mode == "colours")
        self.bye_rank = [n - 1 - i for i in range(n)]
        if settings.bye_choice == "random_lowest_group" and n % 2:
            self.bye_rank = [random.Random(f"{settings.seed}:bye:{state.round}:{x}").randrange(n)
                             for x in state.order]
        # multipliers, from each level's largest value over the complete graph (RULES.md 2.1)
        most = [int(rematches), int(self.club_level == CLUB_FIRST),
                max((max(r) for r in self.t3), default=0) + max(self.side.values(), default=0),
                self.height[-1], int(self.club_level == CLUB), colours,
                max(self.down, default=0) + max(self.up, default=0),
                max([n, *map(len, self.members)]), colours,
                max(map(len, self.members), default=0) + 1, 65535]
        pairs = self.nodes // 2
        self.mult = [1] * len(LEVELS)
        for k in range(len(LEVELS) - 2, -1, -1):
            self.mult[k] = self.mult[k + 1] * (1 + pairs * most[k + 1])
        self.keys = player_keys(settings.seed, state.round, [*state.order, *([""] if n % 2 else [])])
        """Each node's key for the level-11 draws (:func:`pair_draw`)."""
        self.key_array = np.array(self.keys, dtype=np.uint64)
        # boundary duals z_k (RULES.md 2.5 floats), set by Solver
        self.z = [0] * span
        self.zsum = [0] * (span + 1)

    def draw(self, i: int, j: int) -> int:
        """Level 11 of the pair of positions ``i`` and ``j`` (RULES.md 2.11)."""
        return pair_draw(self.keys[i], self.keys[j])

    def pattern_cost(self, g: int, p: _P, q: _P) -> _P:
        """Level 10 of positions ``p < q`` of group ``g`` (RULES.md 2.5), or of arrays of them."""
        if self.pattern == "slide":
            return abs((q - p) - self.half[g])
        if self.pattern == "fold":
            return abs(p + q - (self.size[g] - 1))
        return 0 * p

    def levels(self, i: int, j: int, draw: int | None = None) -> list[int]:
        """The eleven level costs of positions ``i < j`` (``j`` may be the bye), level 3 scaled; ``draw`` is
        the pair's level 11 when the caller has drawn it already (:func:`pair_draw` on arrays)."""
        c = [0] * len(LEVELS)
        c[RANDOM] = self.draw(i, j) if draw is None else draw
        if j == self.bye:
            c[SCORE] = self.t3[self.group[i]][self.groups]
            c[HEIGHT] = self.height[self.groups] - self.height[self.group[i]]
            c[WHO_FLOATS] = self.bye_rank[i]
            return c
        gi, gj = self.group[i], self.group[j]
        c[REMATCH] = int(j in self.met[i])
        if self.club_level >= 0 and self.club[i] and self.club[i] == self.club[j]:
            c[self.club_level] = 1
        c[SCORE] = self.t3[gi][gj]
        if gi != gj:
            c[HEIGHT] = self.height[gj] - self.height[gi]
            c[BALANCE] = self.down[i] + self.up[j]
            c[WHO_FLOATS] = self.gpos[j]
        else:
            c[PATTERN] = self.pattern_cost(gi, self.gpos[i], self.gpos[j])
        if self.mode == "sides":  # the cheaper assignment still allowed; both when the pair is spent
            spent = c[REMATCH] == 1
            c[SCORE] += min(self.side[self.bias[f], self.bias[s]] for f, s in ((i, j), (j, i))
                        if spent or s not in self.first[f])
        elif self.mode == "colours":
            c[COLOUR_HARD], c[COLOUR_PREF] = min((int(not (self.white_ok[w] and self.black_ok[b])),
                              int(self.due[w] == 2 or self.due[b] == 1)) for w, b in ((i, j), (j, i)))
        return c

    def encode(self, i: int, j: int) -> int:
        """RULES.md 2.1's integer weight of the pair ``i < j``."""
        return sum(v * m for v, m in zip(self.levels(i, j), self.mult) if v)

    def reduced(self, i: int, j: int) -> int:
        """The weight less the boundary duals of every boundary the pair crosses."""
        a, b = self.group[i], (self.groups if j == self.bye else self.group[j])
        return self.encode(i, j) - (self.zsum[b] - self.zsum[a])

    def allowed(self, i: int, j: int) -> bool:
        """Whether ``i < j`` is an edge of G (no rematch unless allowed, a forbidden pair never; the bye only
        for the pool)."""
        if j == self.bye:
            return self.pool[i]
        if self.rematches:
            return j not in self.forbidden[i]
        return j not in self.met[i]

    def radix(self, value: int) -> tuple[int, ...]:
        """``value`` in the mixed radix of the multipliers (level 1 first)."""
        out = []
        for m in self.mult:
            out.append(value // m)
            value %= m
        return tuple(out)


def _class_leaders(members: Sequence[int], value: Sequence[int], count: int) -> list[int]:
    """The first ``count`` of ``members`` (in order) for each distinct ``value`` among them: a float's
    cost rises with position inside a balance class, so only each class's leaders can be cheapest."""
    seen: dict[int, int] = defaultdict(int)
    out = []
    for j in members:
        if seen[value[j]] < count:
            seen[value[j]] += 1
            out.append(j)
    return out


def _key(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i < j else (j, i)


class Solver:
    """One round's solve: candidate graph, start duals, primal-dual matching, certificate, widening."""

    def __init__(self, costs: Costs, progress: Callable[[str], None] | None = None) -> None:
        self.c = costs
        self.progress = progress
        self.edges: dict[tuple[int, int], int] = {}
        """G': reduced cost of each candidate pair (i < j)."""
        self.odd: list[int] = []
        """Boundaries k whose prefix S_k holds an odd number of nodes."""
        self.widenings = 0
        self._boundaries()
        self._candidates()

    # -- boundary duals -------------------------------------------------------------------------------

    def _boundaries(self) -> None:
        """z_k for each odd prefix S_k: the cheapest single float across boundary k (RULES.md 2.5: score,
        the boundary's height, the lowest down-float balance cost above, the cheapest balance class leader
        below and its position),
        or the cheapest bye without its draw (2.4) for the bye boundary. Every crossing pair costs at least
        that, so the reduced costs of single floats stay >= 0."""
        c = self.c
        span = c.groups + (1 if c.bye >= 0 else 0)
        sizes = [len(m) for m in c.members] + ([1] if c.bye >= 0 else [])
        prefix = 0
        for k in range(span - 1):
            prefix += sizes[k]
            if prefix % 2 == 0:
                continue
            self.odd.append(k)
            if k + 1 == c.groups:  # the bye boundary: the cheapest single-boundary bye (RULES.md 2.4)
                low = [c.encode(i, c.bye) - c.draw(i, c.bye) for i in c.members[k] if c.pool[i]]
                c.z[k] = min(low, default=0)
                continue
            upper, lower = c.members[k], c.members[k + 1]
            down = min(c.down[i] for i in upper)
            single = c.mult[SCORE] * c.t3[k][k + 1] + c.mult[HEIGHT] * (c.height[k + 1] - c.height[k])
            c.z[k] = min(single + c.mult[BALANCE] * (down + c.up[j]) + c.mult[WHO_FLOATS] * c.gpos[j]
                         for j in _class_leaders(lower, c.up, 1))
        self._prefix_sums()

    def _prefix_sums(self) -> None:
        """``zsum[k]``: the z of boundaries 0..k-1, which :meth:`Costs.reduced` takes off a crossing pair."""
        c = self.c
        for k in range(len(c.z)):
            c.zsum[k + 1] = c.zsum[k] + c.z[k]

    def _crossings(self, mate: Sequence[int], k: int) -> int:
        """Matched pairs with one end in groups 0..k and the other below (the bye counts as group G)."""
        c = self.c
        side = [c.group[v] <= k for v in range(c.n)] + ([False] if c.bye >= 0 else [])
        return sum(1 for u, v in enumerate(mate) if u < v and side[u] != side[v])

    # -- candidate graph ------------------------------------------------------------------------------

    def _add(self, i: int, j: int) -> bool:
        """Put the pair into G' (if it is an edge of G and not there yet); whether it was added."""
        i, j = _key(i, j)
        if (i, j) not in self.edges and self.c.allowed(i, j):
            self.edges[i, j] = self.c.reduced(i, j)
            return True
        return False

    def _clean(self, i: int, j: int) -> bool:
        """Whether ``i`` and ``j`` of one group may meet at no cost above the pattern: no rematch, no shared
        club, no colour or side cost."""
        c = self.c
        if j in c.met[i] or (c.club_level >= 0 and c.club[i] and c.club[i] == c.club[j]):
            return False
        return not c.mode or not any(c.levels(*_key(i, j))[:PATTERN])

    def _candidates(self) -> None:
        """G': within a group, each player's partners within ``_WINDOW`` of its ideal position(s), and
        beyond that the nearest ones until ``2 * _WINDOW + 1`` are clean (rematches and club pairs cost
        more than any pattern); across adjacent groups the best floats; small groups whole; bye
        candidates from the bottom."""
        c = self.c
        for g, mem in enumerate(c.members):
            s = len(mem)
            if s <= 2 * _WINDOW + 8 or c.pattern == "random":
                for p in range(s):
                    for q in range(p + 1, s):
                        self._add(mem[p], mem[q])
                continue
            h, size = c.half[g], c.size[g]
            for p in range(s):
                ideal = (p + h, p - h) if c.pattern == "slide" else (size - 1 - p,)
                for centre in ideal:
                    clean = 0
                    steps = 2 * max(centre, s - 1 - centre) + 1 if 0 <= centre < s else 2 * _WINDOW + 1
                    for step in range(steps):
                        q = centre + (step + 1) // 2 * (1 if step % 2 else -1)
                        near = step <= 2 * _WINDOW
                        if not near and clean > 2 * _WINDOW:
                            break
                        if 0 <= q < s and q != p:
                            fine = self._clean(mem[p], mem[q])
                            if near or fine:
                                self._add(mem[p], mem[q])
                                clean += fine
        for g in range(c.groups - 1):
            upper, lower = c.members[g], c.members[g + 1]
            best = lower[:_TOP] + _class_leaders(lower, c.up, _TOP)
            for i in upper:
                for j in best:
                    self._add(i, j)
            for i in upper[-_TOP:]:
                for j in lower:
                    if len(lower) <= _SMALL:
                        self._add(i, j)
        for g, mem in enumerate(c.members):
            if len(mem) <= _SMALL:
                for h in range(max(0, g - 2), min(c.groups, g + 3)):
                    if h != g:
                        for i in mem:
                            for j in c.members[h]:
                                self._add(i, j)
        if c.bye >= 0:
            pool = [i for i in range(c.n) if c.pool[i]]
            chosen = set(pool[-2 * _TOP:])
            for g in range(c.groups - 1, -1, -1):
                mine = [i for i in c.members[g] if c.pool[i]]
                chosen.update(mine[-_TOP:])
                if len(chosen) > 4 * _TOP:
                    break
            for i in chosen:
                self._add(i, c.bye)

    def _widen_rows(self, m: Matcher, stuck: Sequence[int], reach: dict[int, int]) -> bool:
        """Give the players of a tree that found no augmenting path more edges: first every allowed pair
        with their own and the adjacent groups (and the bye), then every allowed pair. ``False`` when
        they have them all already: the tree's inner vertices are then a Tutte barrier of G (removing
        them leaves more odd components, the outer blossoms, than they are), so G has no perfect matching."""
        c = self.c
        while any(reach.get(v, 0) < 2 for v in stuck):
            added = False
            for v in stuck:
                level = reach.get(v, 0)
                if level == 2:
                    continue
                reach[v] = level + 1
                if level == 1 or v == c.bye:
                    reach[v] = 2
                    others: Iterable[int] = range(c.nodes)
                else:
                    g = c.group[v]
                    others = [x for h in range(max(0, g - 1), min(c.groups, g + 2)) for x in c.members[h]]
                    if c.bye >= 0:
                        others = [*others, c.bye]
                for x in others:
                    if x != v and self._add(v, x):
                        i, j = _key(v, x)
                        m.add_edge(i, j, 2 * self.edges[i, j])
                        m.repair(v, x)
                        added = True
            if added:
                return True
        return False

    # -- start duals ----------------------------------------------------------------------------------

    def _ideal(self) -> dict[int, int]:
        """Allowed ideal pairs (pattern cost 0), disjoint (in the lowest group of an odd field the slide
        pattern's last pair would reuse a player), each group's upper member first."""
        c = self.c
        mate: dict[int, int] = {}
        if c.pattern == "random":
            return mate
        for g, mem in enumerate(c.members):
            s = len(mem)
            for p in range(s):
                q = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
                if p < q < s and mem[p] not in mate and mem[q] not in mate and (mem[p], mem[q]) in self.edges:
                    lv = c.levels(mem[p], mem[q])
                    if not any(lv[:PATTERN]):
                        mate[mem[p]] = mem[q]
                        mate[mem[q]] = mem[p]
            if not c.mode:
                continue
            for p in range(s):  # two-edge modes: the nearest clean partner of the ideal position
                ideal = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
                if mem[p] in mate or ideal <= p:
                    continue
                for step in range(1, 4 * _WINDOW + 2):
                    q = ideal + (step + 1) // 2 * (1 if step % 2 else -1)
                    if p < q < s and mem[q] not in mate and (mem[p], mem[q]) in self.edges \
                            and not any(c.levels(mem[p], mem[q])[:PATTERN]):
                        mate[mem[p]] = mem[q]
                        mate[mem[q]] = mem[p]
                        break
        return mate

    def _matcher(self) -> Matcher:
        """G' with start duals: the ideal pairs matched under a staircase of potentials (the upper member
        of a pair in group g gets -(g+1) * 2**17, the lower one twice the pair's cost plus as much, so that
        floats and pattern changes between ideal pairs are never cheaper than the pairs themselves); every
        other node the largest potential its edges to those allow; any edge still infeasible repaired."""
        c = self.c
        m = Matcher(c.nodes)
        for (i, j), cost in self.edges.items():
            m.add_edge(i, j, 2 * cost)
        ideal = self._ideal()
        d = m.p
        placed = [False] * c.nodes
        for u, v in ideal.items():
            m.mate[u] = v
            if c.gpos[u] < c.gpos[v]:
                step = (c.group[u] + 1) << 17
                d[u], d[v] = -step, 2 * self.edges[u, v] + step
                placed[u] = placed[v] = True
        for v in range(c.nodes):
            if not placed[v]:
                d[v] = min((w - d[x] for x, w in m.adj[v].items() if placed[x]), default=0)
                placed[v] = True
        for (i, j), cost in self.edges.items():
            if 2 * cost < d[i] + d[j]:
                m.repair(i, j)
        return m

    # -- solve ----------------------------------------------------------------------------------------

    def solve(self) -> tuple[dict[int, int], Proof] | None:
        """The cheapest pairing of G with its proof; ``None`` when G has no perfect matching.

        Each pass solves G' exactly on the reduced costs and widens it until the duals hold on all of G.
        When the pairing then crosses an odd boundary more than once, the bound falls short by the extra
        crossings' z_k (a pairing optimal for the reduced costs need not be for the true ones): those
        boundaries lose their z_k (set to 0, which costs every crossing in full) and the pass repeats, at
        most once per odd boundary.
        """
        c = self.c
        while True:
            settled = self._settle()
            if settled is None:
                return None
            m, bad = settled
            if bad:
                return self._fallback(m, bad)
            mate = dict(enumerate(m.mate))
            cost = sum(c.encode(u, v) for u, v in mate.items() if u < v)
            bound2 = m.dual() + 2 * sum(c.z[k] for k in self.odd)
            if 2 * cost == bound2:
                return mate, Proof(True, 0, c.radix(0), len(self.edges), self.widenings, "sparse graph, LP duals")
            again = [k for k in self.odd if c.z[k] and self._crossings(m.mate, k) > 1]
            if not again:
                gap = cost - (bound2 + 1) // 2
                return mate, Proof(False, gap, c.radix(gap), len(self.edges), self.widenings, "sparse graph")
            for k in again:
                c.z[k] = 0
            self._prefix_sums()
            self.edges = {e: c.reduced(*e) for e in self.edges}

    def _settle(self) -> tuple[Matcher, list[tuple[int, int, int]]] | None:
        """Solve G' and widen it by the pairs of G whose dual constraint fails, until none does (no
        violations returned) or the rounds run out (the last violations); ``None`` when G has no perfect
        matching. Each round solves afresh from the closed-form start: repairing the previous duals
        pair by pair frees many players and makes the search rebuild large blossoms over and over."""
        reach: dict[int, int] = {}
        bad: list[tuple[int, int, int]] = []
        for attempt in range(_ROUNDS):
            m = self._matcher()
            stuck = m.run()
            while stuck:
                if not self._widen_rows(m, stuck, reach):
                    return None
                stuck = m.run()
            bad = self._check(m, m.p)
            if not bad:
                break
            self.widenings += 1
            if self.progress:
                self.progress(f"widening the candidate graph ({attempt + 1}): {len(bad)} pairs")
            for _, i, j in bad:
                self._add(i, j)
        return m, bad

    # -- certificate -----------------------------------------------------------------------------------

    def _check(self, m: Matcher, d: Sequence[int]) -> list[tuple[int, int, int]]:
        """Pairs of G whose dual constraint fails for the potentials ``d`` and the blossoms of ``m``, as
        (2 c' - D_i - D_j + Z_ij, i, j), most violated first (empty: the duals are feasible for all of G).
        Every pair is covered: each test below either checks a pair exactly or shows with a lower bound of
        its cost (and of Z_ij >= 0) that it cannot fail."""
        c = self.c
        bad: list[tuple[int, int, int]] = []
        nest = Nesting(m) if m.nested() else None
        shared: Callable[[int, int], int] = nest if nest is not None else lambda i, j: 0

        def exact(i: int, j: int) -> None:
            if c.allowed(i, j):
                s = 2 * c.reduced(i, j) - d[i] - d[j]
                if s < 0:
                    s += shared(i, j)
                    if s < 0:
                        bad.append((s, i, j))
                        if len(bad) >= _MAX_VIOLATIONS:
                            raise _Enough

        with contextlib.suppress(_Enough):
            for g in range(c.groups):
                self._check_group(g, m, d, nest, exact)
            self._check_across(m, d, nest, exact)
            if c.bye >= 0:
                last = c.groups
                for i in range(c.n):
                    g = c.group[i]
                    low = (c.mult[SCORE] * c.t3[g][last] + c.mult[HEIGHT] * (c.height[last] - c.height[g])
                           + c.mult[WHO_FLOATS] * c.bye_rank[i] - (c.zsum[last] - c.zsum[g]))
                    if d[i] + d[c.bye] > 2 * low:
                        exact(i, c.bye)
        bad.sort()
        return bad

    def _check_group(self, g: int, m: Matcher, d: Sequence[int], nest: Nesting | None,
                     exact: Callable[[int, int], None]) -> None:
        """Pairs inside group g: their cost is at least the pattern (level 10) plus the draw (level 11),
        exactly that unless a rematch, club, colour or side level adds to it (:meth:`_scan`)."""
        c = self.c
        mem = c.members[g]
        if len(mem) < 2:
            return
        pot = [d[v] for v in mem]
        m10 = 2 * c.mult[PATTERN]

        def pattern(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            out: np.ndarray = m10 * c.pattern_cost(g, x, y)  # x, y: positions in the group
            return out

        self._scan(mem, pot, mem, pot, 0, m, nest, exact, pattern)

    def _check_across(self, m: Matcher, d: Sequence[int], nest: Nesting | None,
                      exact: Callable[[int, int], None]) -> None:
        """Pairs between groups g < h: a float costs at least its score and height (fixed for g and h), its
        balance (the upper player's down share plus the lower one's up share) and position (the lower
        player's place in its group), less the z of the boundaries it crosses, plus its draw. The per-player
        terms go into the potentials, so a whole block of pairs whose largest potentials stay below the
        fixed part is fine at once, and the others are scanned (:meth:`_scan`)."""
        c = self.c
        m7, m8 = c.mult[BALANCE], c.mult[WHO_FLOATS]
        upper = [[d[i] - 2 * m7 * c.down[i] for i in mem] for mem in c.members]
        lower = [[d[j] - 2 * (m7 * c.up[j] + m8 * c.gpos[j]) for j in mem] for mem in c.members]
        top_upper = [max(a, default=0) for a in upper]
        top_lower = [max(b, default=0) for b in lower]
        for g in range(c.groups - 1):
            for h in range(g + 1, c.groups):
                fixed = 2 * (c.mult[SCORE] * c.t3[g][h] + c.mult[HEIGHT] * (c.height[h] - c.height[g])
                             - (c.zsum[h] - c.zsum[g]))
                if top_upper[g] + top_lower[h] > fixed:
                    self._scan(c.members[g], upper[g], c.members[h], lower[h], fixed, m, nest, exact, None)

    def _scan(self, rows: Sequence[int], a: Sequence[int], cols: Sequence[int], b: Sequence[int], fixed: int,
              m: Matcher, nest: Nesting | None, exact: Callable[[int, int], None],
              term: Callable[[np.ndarray, np.ndarray], np.ndarray] | None) -> None:
        """Check the pairs (rows[x], cols[y]) (only x < y when rows is cols, one group) of whose cost twice a
        lower bound is ``fixed + term(x, y) + 2 draw``: a pair whose ``a[x] + b[y] - Z`` (its potentials
        less their per-player cost terms, and less the blossoms' Z) exceeds that bound is checked exactly.
        Vectorised over blocks of rows, with every number split in two 64-bit integers, ``x = high *
        2**SPLIT + low`` (exact while |x| < 2**(62 + SPLIT)); rows and columns beyond that are checked pair
        by pair."""
        c = self.c
        same = rows is cols
        wide_rows = [x for x in range(len(rows)) if abs(a[x]) >= _WIDE]
        wide_cols = [y for y in range(len(cols)) if abs(b[y]) >= _WIDE]
        for x in wide_rows:
            for y in range(len(cols)):
                if not same or y != x:
                    exact(*_key(rows[x], cols[y]))
        for y in wide_cols:
            for x in range(len(rows)):
                if x not in wide_rows and (not same or y != x):
                    exact(*_key(rows[x], cols[y]))
        keep_x = [x for x in range(len(rows)) if abs(a[x]) < _WIDE]
        keep_y = [y for y in range(len(cols)) if abs(b[y]) < _WIDE]
        if not keep_x or not keep_y or fixed >= 2 * _WIDE:  # then a[x] + b[y] < fixed: all fine
            return
        if fixed <= -2 * _WIDE:  # beyond 64-bit halves: every pair one by one
            for x in keep_x:
                for y in keep_y:
                    if not same or y > x:
                        exact(rows[x], cols[y])
            return
        px, py = np.array(keep_x, dtype=np.int64), np.array(keep_y, dtype=np.int64)
        u, v = np.array(rows, dtype=np.int64)[px], np.array(cols, dtype=np.int64)[py]
        a_high = np.array([a[x] >> SPLIT for x in keep_x], dtype=np.int64)
        a_low = np.array([a[x] & _LOW for x in keep_x], dtype=np.int64)
        b_high = np.array([b[y] >> SPLIT for y in keep_y], dtype=np.int64)
        b_low = np.array([b[y] & _LOW for y in keep_y], dtype=np.int64)
        f_high, f_low = fixed >> SPLIT, fixed & _LOW
        if nest is None:
            in_u = np.zeros(len(u), dtype=bool)
            in_v = np.zeros(len(v), dtype=bool)
        else:
            in_u = np.array([m.outermost(i) >= c.nodes for i in u.tolist()], dtype=bool)
            in_v = np.array([m.outermost(j) >= c.nodes for j in v.tolist()], dtype=bool)
        step = max(1, (1 << 19) // len(v))
        for start in range(0, len(u), step):
            block = np.arange(start, min(len(u), start + step), dtype=np.int64)
            if same:
                r, k = np.nonzero(py[None, :] > px[block][:, None])
            else:
                r, k = np.divmod(np.arange(len(block) * len(v), dtype=np.int64), len(v))
            xs, ys = block[r], k
            high = a_high[xs] + b_high[ys] - f_high
            low = a_low[xs] + b_low[ys] - f_low
            if term is not None:
                low -= term(px[xs], py[ys])
            inside = in_u[xs] & in_v[ys]
            if nest is not None and inside.any():
                z_high, z_low = nest.split(u[xs[inside]], v[ys[inside]])
                high[inside] -= z_high
                low[inside] -= z_low
            fails = _positive(high, low)
            xs, ys, high, low = xs[fails], ys[fails], high[fails], low[fails]
            fails = _positive(high, low - 2 * pair_draw(c.key_array[u[xs]], c.key_array[v[ys]]))
            for i, j in zip(u[xs[fails]].tolist(), v[ys[fails]].tolist()):
                exact(i, j)

    # -- fallback ---------------------------------------------------------------------------------------

    def _fallback(self, m: Matcher, bad: list[tuple[int, int, int]]) -> tuple[dict[int, int], Proof] | None:
        """The widening did not converge. Small fields: the complete graph, exact by construction. Large
        ones: the pairing optimal on G', and the gap that the duals prove once each violated pair is
        repaired by lowering one end's potential (a lower potential never breaks another constraint)."""
        from .matching import min_cost_perfect_matching_fast

        c = self.c
        if self.progress:
            self.progress(f"the candidate graph did not settle in {_ROUNDS} rounds: "
                          + ("solving the complete graph" if c.nodes <= _COMPLETE else "bounding the gap"))
        if c.nodes <= _COMPLETE:
            for i in range(c.n):
                for j in range(i + 1, c.nodes):
                    self._add(i, j)
            pairs = min_cost_perfect_matching_fast(list(range(c.nodes)), compressed(c, self.edges))
            if pairs is None:
                return None
            return {**dict(pairs), **{v: u for u, v in pairs}}, Proof(
                True, 0, (0,) * len(LEVELS), len(self.edges), self.widenings, "complete graph")
        mate = dict(enumerate(m.mate))
        cost = sum(c.encode(u, v) for u, v in mate.items() if u < v)
        if len(bad) < _MAX_VIOLATIONS:
            d = list(m.p)
            nest = Nesting(m)
            for _, i, j in bad:
                s = 2 * c.reduced(i, j) - d[i] - d[j] + nest(i, j)
                if s < 0:
                    d[j] += s
            if not self._check(m, d):
                bound2 = m.dual(d) + 2 * sum(c.z[k] for k in self.odd)
                gap = max(0, cost - (bound2 + 1) // 2)
                return mate, Proof(gap == 0, gap, c.radix(gap), len(self.edges), self.widenings, "sparse graph")
        return mate, Proof(False, -1, (), len(self.edges), self.widenings, "sparse graph, no bound")


def compressed(costs: Costs, edges: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Weights for the edges of a graph G' whose sums order G''s perfect matchings as RULES.md 2.1 does,
    with multipliers bounded over G' only: M_k exceeds the largest total of the lower levels that a
    matching of G' can have (half the sum over nodes of each node's largest cost), so the weights stay
    far smaller than the encoding valid for the whole complete graph.
    """
    pairs = list(edges)
    first = np.array([i for i, _ in pairs], dtype=np.int64)
    second = np.array([j for _, j in pairs], dtype=np.int64)
    draws = pair_draw(costs.key_array[first], costs.key_array[second]).tolist() if pairs else []
    levels = {e: costs.levels(*e, draw=d) for e, d in zip(pairs, draws)}
    width = len(LEVELS)
    most: list[dict[int, int]] = [defaultdict(int) for _ in range(width)]
    for (i, j), lv in levels.items():
        for k in range(width):
            if lv[k]:
                most[k][i] = max(most[k][i], lv[k])
                most[k][j] = max(most[k][j], lv[k])
    mult = [1] * width
    for k in range(width - 2, -1, -1):
        mult[k] = mult[k + 1] * (1 + (sum(most[k + 1].values()) + 1) // 2)
    return {e: sum(v * m for v, m in zip(lv, mult) if v) for e, lv in levels.items()}


def solve_round(event: Event, state: _State, bye_pool: Iterable[str], rematches: bool,
                progress: Callable[[str], None] | None = None) -> tuple[list[tuple[int, int]], Costs, Proof] | None:
    """The cheapest perfect matching of the round, as pairs of ranking positions (the bye is position n),
    with the cost tables and the proof of optimality; ``None`` when no perfect matching exists."""
    costs = Costs(event, state, bye_pool, rematches)
    if costs.nodes == 0:
        return [], costs, Proof(True, method="empty")
    if costs.mode == "sides" and costs.nodes <= _COMPLETE:
        return _complete(costs, "complete graph (sides: single)")
    solver = Solver(costs, progress)
    solved = solver.solve()
    if solved is None:
        return None
    mate, proof = solved
    pairs = sorted((u, v) for u, v in mate.items() if u < v)
    return pairs, costs, proof


def _complete(costs: Costs, method: str) -> tuple[list[tuple[int, int]], Costs, Proof] | None:
    """The exact minimum on the complete graph (every allowed pair), proven by construction."""
    from .matching import min_cost_perfect_matching_fast

    edges = [(i, j) for i in range(costs.n) for j in range(i + 1, costs.nodes) if costs.allowed(i, j)]
    pairs = min_cost_perfect_matching_fast(list(range(costs.nodes)), compressed(costs, edges))
    if pairs is None:
        return None
    return sorted(pairs), costs, Proof(True, 0, (0,) * len(LEVELS), len(edges), 0, method)


def fractions(costs: Costs, i: int, j: int) -> list[Fraction]:
    """The level costs of ``i < j`` as RULES.md states them (level 3 unscaled)."""
    lv: Sequence[int] = costs.levels(i, j)
    return [Fraction(v, costs.scale3) if k == SCORE else Fraction(v) for k, v in enumerate(lv)]
