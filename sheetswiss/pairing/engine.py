"""Exact minimum-cost pairing at any size: a sparse candidate graph, local exact solves, and a proof.

The round's cost (RULES.md 2.1) is one integer per edge of the complete graph G of players (and the bye
node). Building G costs O(n^2), so the engine works on a candidate graph G' and proves that the pairing
it finds is the minimum over all of G, by linear-programming duality:

* **Odd score groups.** For every prefix S_k of score groups (groups 0..k) with an odd number of
  players, any perfect matching has an edge leaving S_k. A dual ``z_k`` (the least cost of a single
  float across boundary k) is subtracted from every edge crossing it: the reduced costs ``c'`` make
  the float as cheap as a pair inside a group, so the rest of the proof stays local.
* **Ideal pairs.** Inside a group each player has one ideal partner (``slide``: position p and p + h;
  ``fold``: p and size - 1 - p). Ideal pairs that are allowed get closed-form duals: a "staircase" of
  potentials, lower for the upper half of a group, stepping down group by group, so that floats and
  pattern changes between ideal pairs are never cheaper than the pairs themselves.
* **Blocks.** Players without an allowed ideal partner (the odd player of a group, blocked rematches,
  clubs) and the pairs around them form small blocks, each solved exactly by Edmonds' algorithm
  (:mod:`.blossom`), which also yields the block's duals and blossoms.
* **Certificate.** With the potentials ``D`` (twice the vertex duals), blossom duals and ``z_k``,
  weak duality gives ``cost(M*) >= LB`` for every perfect matching ``M*`` of G once every pair of G
  satisfies ``D_u + D_v - 2 z(blossoms holding both) <= 2 c'_uv``. The engine checks that for all
  O(n^2) pairs without listing them: pairs in the same group by pattern distance, pairs in adjacent
  groups by balance class and position, distant groups by group maxima; only pairs whose bound is
  close are checked one by one with their exact cost. A violated pair widens its block (and joins
  G'); after a few rounds of widening the engine falls back to an exact solve of G' (rustworkx) and
  reports the gap that the (repaired) duals still prove.

The pairing is optimal when ``LB`` equals its cost: :class:`Proof` says so, or gives the gap.

Events with two edges per pair (``sides: single``, RULES.md 3; ``colours: alternate``, 2.10) are solved
exactly on the complete graph instead (rustworkx): a pair's cost there is the cheaper of its two side
assignments, which the ideal pairs and staircase duals above do not model. That is O(n^2) edges, fine for
events of a few hundred players (a thousand takes a few seconds).
"""

from __future__ import annotations

import contextlib
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, final

import numpy as np

from . import blossom
from .levels import colour_ok, due_colour, float_cost, side_cost, triangle

if TYPE_CHECKING:
    from ..model import Event
    from .swiss import _State

__all__ = ["Costs", "Proof", "edge_draws", "solve_round"]

_WINDOW = 2
"""Within a group, G' holds pairs whose pattern cost is at most this."""
_TOP = 3
"""Across adjacent groups, G' holds each upper player with this many of the lower group's best."""
_SMALL = 12
"""Groups this small get every pair with groups up to two away."""
_ROUNDS = 2
"""Widening rounds before falling back to an exact solve of G'."""
_MAX_VIOLATIONS = 2000
"""The check stops listing violated pairs after this many."""
_COMPLETE = 600
"""Up to this many nodes the fallback solves the complete graph (rustworkx), so it is exact."""
_BLOCK_LIMIT = 240
"""Players in blocks beyond which the Python blossom solver gives way to rustworkx on all of G'."""


class _Enough(Exception):
    """Enough violated pairs are listed."""


class _NoMatching(Exception):
    """The blocks cannot be completed to a perfect matching."""


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
    blocks: int = 0
    """Blocks solved exactly."""
    method: str = ""

    def text(self) -> str:
        """One line for the command's output."""
        if self.proven:
            return (f"Optimal: no pairing of the whole field costs less (proven; {self.method}, "
                    f"{self.candidate_edges} candidate edges)")
        levels = ", ".join(str(v) for v in self.gap_levels)
        return f"Not proven optimal: at most [{levels}] above the optimum ({self.method})"


def edge_draws(seed: int, round_: int, count: int) -> np.ndarray:
    """The first ``count`` level-10 draws of RULES.md 2.11, as ``random.Random(f"{seed}:edges:{round}")
    .randrange(65536)`` gives them, one per pair in canonical order, as a uint16 array.

    ``randrange(65536)`` takes 17 bits of a 32-bit Mersenne Twister word (``word >> 15``) and draws again
    when the top bit is set, so the draws are the accepted words of the same stream, which numpy's
    MT19937 produces from the same state about a hundred times faster.

    >>> rng = random.Random("7:edges:3")
    >>> [rng.randrange(65536) for _ in range(5)] == edge_draws(7, 3, 5).tolist()
    True
    """
    state = random.Random(f"{seed}:edges:{round_}").getstate()[1]
    bits = np.random.MT19937()
    raw_state = bits.state
    raw_state["state"]["key"] = np.array(state[:624], dtype=np.uint32)
    raw_state["state"]["pos"] = state[624]
    bits.state = raw_state
    out = np.empty(count, dtype=np.uint16)
    filled = 0
    while filled < count:
        words = bits.random_raw(max(1024, min(1 << 22, 2 * (count - filled) + 64)))
        kept = (words[(words >> 31) == 0] >> 15).astype(np.uint16)
        take = min(len(kept), count - filled)
        out[filled:filled + take] = kept[:take]
        filled += take
    return out


class Costs:
    """Every edge's ten level costs as integers, computed from per-player arrays in O(1) per edge.

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
            self.club_level = 1
        elif rule == "always":
            self.club_level = 3
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
        most = [int(rematches), int(self.club_level == 1),
                max((max(r) for r in self.t3), default=0) + max(self.side.values(), default=0),
                int(self.club_level == 3), colours, max(self.down, default=0) + max(self.up, default=0),
                max([n, *map(len, self.members)]), colours,
                max(map(len, self.members), default=0) + 1, 65535]
        pairs = self.nodes // 2
        self.mult = [1] * 10
        for k in range(8, -1, -1):
            self.mult[k] = self.mult[k + 1] * (1 + pairs * most[k + 1])
        self.draws = edge_draws(settings.seed, state.round, self.nodes * (self.nodes - 1) // 2)
        # boundary duals z_k (RULES.md 2.5 floats), set by Solver
        self.z = [0] * span
        self.zsum = [0] * (span + 1)

    def draw(self, i: int, j: int) -> int:
        """Level 10 of the pair of positions ``i < j`` (canonical index, RULES.md 2.11)."""
        m = self.nodes
        return int(self.draws[i * (m - 1) - i * (i - 1) // 2 + (j - i - 1)])

    def pattern_cost(self, g: int, p: int, q: int) -> int:
        """Level 9 of positions ``p < q`` of group ``g``."""
        if self.pattern == "slide":
            return abs((q - p) - self.half[g])
        if self.pattern == "fold":
            return abs(p + q - (self.size[g] - 1))
        return 0

    def levels(self, i: int, j: int) -> list[int]:
        """The ten level costs of positions ``i < j`` (``j`` may be the bye), level 3 scaled."""
        c = [0] * 10
        c[9] = self.draw(i, j)
        if j == self.bye:
            c[2] = self.t3[self.group[i]][self.groups]
            c[6] = self.bye_rank[i]
            return c
        gi, gj = self.group[i], self.group[j]
        c[0] = int(j in self.met[i])
        if self.club_level >= 0 and self.club[i] and self.club[i] == self.club[j]:
            c[self.club_level] = 1
        c[2] = self.t3[gi][gj]
        if gi != gj:
            c[5] = self.down[i] + self.up[j]
            c[6] = self.gpos[j]
        else:
            c[8] = self.pattern_cost(gi, self.gpos[i], self.gpos[j])
        if self.mode == "sides":  # the cheaper assignment still allowed; both when the pair is spent
            spent = c[0] == 1
            c[2] += min(self.side[self.bias[f], self.bias[s]] for f, s in ((i, j), (j, i))
                        if spent or s not in self.first[f])
        elif self.mode == "colours":
            c[4], c[7] = min((int(not (self.white_ok[w] and self.black_ok[b])),
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
        """Whether ``i < j`` is an edge of G (no rematch unless allowed; the bye only for the pool)."""
        if j == self.bye:
            return self.pool[i]
        return self.rematches or j not in self.met[i]

    def radix(self, value: int) -> tuple[int, ...]:
        """``value`` in the mixed radix of the multipliers (level 1 first)."""
        out = []
        for m in self.mult:
            out.append(value // m)
            value %= m
        return tuple(out)


@dataclass
class _Solution:
    mate: dict[int, int]
    potential: dict[int, int]
    blossoms: list[tuple[frozenset[int], int]] = field(default_factory=list)
    block_of: dict[int, int] = field(default_factory=dict)


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
    """One round's solve: candidate graph, ideal pairs, blocks, certificate, widening."""

    def __init__(self, costs: Costs, progress: Callable[[str], None] | None = None) -> None:
        self.c = costs
        self.progress = progress
        self.edges: dict[tuple[int, int], int] = {}
        """G': reduced cost of each candidate pair (i < j)."""
        self._nb: dict[int, list[int]] | None = None
        self._boundaries()
        self._candidates()

    # -- boundary duals -------------------------------------------------------------------------------

    def _boundaries(self) -> None:
        c = self.c
        span = c.groups + (1 if c.bye >= 0 else 0)
        sizes = [len(m) for m in c.members] + ([1] if c.bye >= 0 else [])
        prefix = 0
        for k in range(span - 1):
            prefix += sizes[k]
            if prefix % 2 == 0:
                continue
            if k + 1 == c.groups:  # the bye boundary: the cheapest single-boundary bye (RULES.md 2.4)
                low = [c.encode(i, c.bye) - c.draw(i, c.bye) for i in c.members[k] if c.pool[i]]
                c.z[k] = min(low, default=0)
                continue
            upper, lower = c.members[k], c.members[k + 1]
            down = min(c.down[i] for i in upper)
            c.z[k] = min(c.mult[2] * c.t3[k][k + 1] + c.mult[5] * (down + c.up[j]) + c.mult[6] * c.gpos[j]
                         for j in _class_leaders(lower, c.up, 1))
        for k in range(span):
            c.zsum[k + 1] = c.zsum[k] + c.z[k]

    # -- candidate graph ------------------------------------------------------------------------------

    def _add(self, i: int, j: int) -> None:
        i, j = _key(i, j)
        if (i, j) not in self.edges and self.c.allowed(i, j):
            self.edges[i, j] = self.c.reduced(i, j)
            self._nb = None

    def _candidates(self) -> None:
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
                centre = p + h if c.pattern == "slide" else size - 1 - p
                for q in range(centre - _WINDOW, centre + _WINDOW + 1):
                    if p < q < s:
                        self._add(mem[p], mem[q])
                if c.pattern == "slide":
                    for q in range(p - h - _WINDOW, p - h + _WINDOW + 1):
                        if 0 <= q < p:
                            self._add(mem[q], mem[p])
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

    # -- ideal pairs and blocks -----------------------------------------------------------------------

    def _ideal(self) -> dict[int, int]:
        """Allowed ideal pairs (pattern cost 0), each group's upper member first."""
        c = self.c
        mate: dict[int, int] = {}
        if c.pattern == "random":
            return mate
        for g, mem in enumerate(c.members):
            s = len(mem)
            for p in range(s):
                q = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
                if p < q < s and (mem[p], mem[q]) in self.edges:
                    lv = c.levels(mem[p], mem[q])
                    if not any(lv[:8]):
                        mate[mem[p]] = mem[q]
                        mate[mem[q]] = mem[p]
        return mate

    def _neighbours(self) -> dict[int, list[int]]:
        if self._nb is None:
            out: dict[int, list[int]] = defaultdict(list)
            for i, j in self.edges:
                out[i].append(j)
                out[j].append(i)
            self._nb = out
        return self._nb

    def solve(self) -> tuple[dict[int, int], Proof] | None:
        c = self.c
        ideal = self._ideal()
        stairs = self._staircase(ideal)
        block = {v for v in range(c.nodes) if v not in ideal}
        if c.nodes <= 64:
            block = set(range(c.nodes))
        self._grow(block, set(block), ideal, 1, stairs)
        solution: _Solution | None = None
        for attempt in range(_ROUNDS):
            if self.progress and attempt:
                self.progress(f"widening the candidate graph ({attempt}): {len(block)} players in blocks")
            if len(block) > _BLOCK_LIMIT:
                break
            try:
                solution, blocks = self._solve_blocks(block, ideal, stairs)
            except _NoMatching:
                break
            violations = self._check(solution)
            if not violations:
                lb2 = self._bound2(solution)
                cost = sum(c.encode(*_key(u, v)) for u, v in solution.mate.items() if u < v)
                if cost == lb2 // 2:
                    return solution.mate, Proof(True, 0, c.radix(0), len(self.edges), blocks, "local blocks")
                break  # feasible duals, but the pairing crosses an odd boundary more than once: not proven
            touched: set[int] = set()
            for i, j in violations[:_BLOCK_LIMIT]:
                self._add(i, j)
                touched.update((i, j))
            block |= touched
            self._grow(block, touched, ideal, 1 + attempt, stairs)
        return self._fallback(solution)

    def _staircase(self, ideal: dict[int, int]) -> dict[int, int]:
        """Closed-form potentials of the ideal pairs: the upper member of a pair in group g gets
        -(g+1) * 2**17, the lower one twice the pair's cost plus as much; seeds get 0."""
        c = self.c
        d = dict.fromkeys(range(c.nodes), 0)
        for u, v in ideal.items():
            if c.gpos[u] < c.gpos[v]:
                step = (c.group[u] + 1) << 17
                d[u], d[v] = -step, 2 * self.edges[_key(u, v)] + step
        return d

    def _grow(self, block: set[int], frontier: Iterable[int], ideal: dict[int, int], steps: int,
              stairs: dict[int, int]) -> None:
        """Add to ``block`` what alternating paths of small slack reach from ``frontier`` in ``steps``."""
        nb = self._neighbours()
        theta = 2 * self.c.mult[8] * (2 + steps)
        todo = set(frontier)
        for _ in range(steps):
            nxt: set[int] = set()
            for v in todo:
                block.add(v)
                if v in ideal and ideal[v] not in block:
                    block.add(ideal[v])
                    nxt.add(ideal[v])
                for w in nb.get(v, ()):
                    if w not in block and 2 * self.edges[_key(v, w)] - stairs[v] - stairs[w] <= theta:
                        block.add(w)
                        nxt.add(w)
                        if w in ideal and ideal[w] not in block:
                            block.add(ideal[w])
                            nxt.add(ideal[w])
            todo = nxt

    def _components(self, block: set[int]) -> list[list[int]]:
        nb = self._neighbours()
        seen: set[int] = set()
        out = []
        for start in sorted(block):
            if start in seen:
                continue
            comp = []
            stack = [start]
            seen.add(start)
            while stack:
                v = stack.pop()
                comp.append(v)
                for w in nb.get(v, ()):
                    if w in block and w not in seen:
                        seen.add(w)
                        stack.append(w)
            out.append(sorted(comp))
        return out

    def _solve_blocks(self, block: set[int], ideal: dict[int, int], stairs: dict[int, int]
                      ) -> tuple[_Solution, int]:
        """Solve every block exactly, growing a block that has no perfect matching until it has one."""
        c = self.c
        steps = 1
        cache: dict[tuple[int, ...], tuple[list[tuple[int, int]], dict[int, int],
                                           list[tuple[frozenset[int], int]]] | None] = {}
        while True:
            if steps > 4 or len(block) > _BLOCK_LIMIT:
                raise _NoMatching
            comps = self._components(block)
            failed: list[int] = []
            sol = _Solution({}, {})
            for u, v in ideal.items():
                if u not in block:
                    sol.mate[u] = v
                    sol.potential[u] = stairs[u]
            for number, comp in enumerate(comps, start=1):
                result = None
                if tuple(comp) in cache:
                    result = cache[tuple(comp)]
                elif len(comp) % 2 == 0:
                    inside = set(comp)
                    nb = self._neighbours()
                    costs = {_key(v, w): self.edges[_key(v, w)] for v in comp for w in nb.get(v, ()) if w in inside}
                    result = cache[tuple(comp)] = blossom.solve(comp, costs)
                if result is None:
                    failed.extend(comp)
                    continue
                pairs, potential, blossoms = result
                for u, v in pairs:
                    sol.mate[u], sol.mate[v] = v, u
                sol.potential.update(potential)
                sol.blossoms.extend(blossoms)
                for v in comp:
                    sol.block_of[v] = number
            if not failed:
                return sol, len(comps)
            if len(block) >= c.nodes:
                raise _NoMatching
            before = len(block)
            self._grow(block, failed, ideal, steps, stairs)
            steps += 1
            if len(block) == before:  # nothing cheap left to reach: take every neighbour
                nb = self._neighbours()
                for v in failed:
                    block.update(nb.get(v, ()))
                if len(block) == before:
                    raise _NoMatching

    # -- certificate -----------------------------------------------------------------------------------

    def _slack2(self, sol: _Solution, i: int, j: int) -> int:
        """2 c'_ij - D_i - D_j + 2 z(blossoms holding both): must be >= 0."""
        s = 2 * self.c.reduced(i, j) - sol.potential[i] - sol.potential[j]
        if sol.blossoms and sol.block_of.get(i) is not None and sol.block_of.get(i) == sol.block_of.get(j):
            s += 2 * sum(z for leaves, z in sol.blossoms if i in leaves and j in leaves)
        return s

    def _check(self, sol: _Solution) -> list[tuple[int, int]]:
        """Pairs of G whose dual constraint fails (empty: the duals are feasible for all of G)."""
        c = self.c
        bad: list[tuple[int, int]] = []

        def exact(i: int, j: int) -> None:
            i, j = _key(i, j)
            if c.allowed(i, j) and self._slack2(sol, i, j) < 0:
                bad.append((i, j))
                if len(bad) >= _MAX_VIOLATIONS:
                    raise _Enough

        with contextlib.suppress(_Enough):
            self._check_all(sol, exact)
        return bad

    def _check_all(self, sol: _Solution, exact: Callable[[int, int], None]) -> None:
        c = self.c
        d = sol.potential
        top = [max(d[v] for v in mem) for mem in c.members]
        for g, mem in enumerate(c.members):
            s = len(mem)
            limit = 2 * c.mult[8]
            if c.pattern == "random" or s <= 2 * _WINDOW + 8:
                for p in range(s):
                    for q in range(p + 1, s):
                        exact(mem[p], mem[q])
                continue
            for p in range(s):
                i = mem[p]
                if d[i] + top[g] > limit:  # a large potential: every pair of the group, by its bound
                    for q in range(s):
                        if q != p:
                            a, b = min(p, q), max(p, q)
                            if d[i] + d[mem[q]] > limit * c.pattern_cost(g, a, b):
                                exact(i, mem[q])
                else:  # only the pattern-0 partner can be cheaper than the bound
                    for q in (p + c.half[g], c.size[g] - 1 - p):
                        if p < q < s and c.pattern_cost(g, p, q) == 0:
                            exact(i, mem[q])
        for g in range(c.groups):
            for h in range(g + 1, c.groups):
                if h == g + 1:
                    self._check_adjacent(sol, g, exact)
                    continue
                bound = 2 * (c.mult[2] * c.t3[g][h] - (c.zsum[h] - c.zsum[g]))
                if top[g] + top[h] > bound:
                    for i in c.members[g]:
                        for j in c.members[h]:
                            if d[i] + d[j] > bound:
                                exact(i, j)
        if c.bye >= 0:
            for i in range(c.n):
                exact(i, c.bye)

    def _check_adjacent(self, sol: _Solution, g: int, exact: Callable[[int, int], None]) -> None:
        c = self.c
        d = sol.potential
        upper, lower = c.members[g], c.members[g + 1]
        by_class: dict[int, list[int]] = defaultdict(list)
        for i in upper:
            by_class[c.down[i]].append(i)
        tops = {k: max(d[i] for i in v) for k, v in by_class.items()}
        base = c.mult[2] * c.t3[g][g + 1] - c.z[g]
        for j in lower:
            for k, members in by_class.items():
                bound = 2 * (base + c.mult[5] * (k + c.up[j]) + c.mult[6] * c.gpos[j])
                if tops[k] + d[j] > bound:
                    for i in members:
                        if d[i] + d[j] > bound:
                            exact(i, j)

    def _bound2(self, sol: _Solution) -> int:
        """Twice the lower bound that feasible duals prove for every perfect matching of G."""
        c = self.c
        total = sum(sol.potential.values()) - sum(z * (len(leaves) - 1) for leaves, z in sol.blossoms)
        prefix = 0
        sizes = [len(m) for m in c.members] + ([1] if c.bye >= 0 else [])
        for k in range(len(sizes) - 1):
            prefix += sizes[k]
            if prefix % 2:
                total += 2 * c.z[k]
        return total

    # -- fallback ---------------------------------------------------------------------------------------

    def _fallback(self, last: _Solution | None) -> tuple[dict[int, int], Proof] | None:
        from .matching import min_cost_perfect_matching_fast

        c = self.c

        def on_the_complete_graph() -> list[tuple[int, int]] | None:
            for i in range(c.n):
                for j in range(i + 1, c.nodes):
                    self._add(i, j)
            return min_cost_perfect_matching_fast(list(range(c.nodes)), compressed(c, self.edges))

        if c.nodes <= _COMPLETE:  # small enough for the complete graph: exact by construction
            pairs = on_the_complete_graph()
            if pairs is None:
                return None
            return {**dict(pairs), **{v: u for u, v in pairs}}, Proof(
                True, 0, (0,) * 10, len(self.edges), 0, "complete graph")
        if self.progress:
            self.progress(f"solving the candidate graph exactly ({len(self.edges)} edges)")
        pairs = min_cost_perfect_matching_fast(list(range(c.nodes)), compressed(c, self.edges))
        if pairs is None:  # G' has no perfect matching: decide on the complete graph
            pairs = on_the_complete_graph()
        if pairs is None:
            return None
        weights = {_key(u, v): c.encode(*_key(u, v)) for u, v in pairs}
        mate: dict[int, int] = {}
        for u, v in pairs:
            mate[u], mate[v] = v, u
        cost = sum(weights[_key(u, v)] for u, v in pairs)
        gap = -1
        if last is not None:  # repair the duals (lower an end of each violated pair) for a valid bound
            bad = self._check(last)
            if len(bad) < _MAX_VIOLATIONS:
                for i, j in bad:
                    s = self._slack2(last, i, j)
                    if s < 0:
                        last.potential[j] += s
                if not self._check(last):
                    gap = max(0, cost - self._bound2(last) // 2)
        if gap < 0:
            return mate, Proof(False, -1, (), len(self.edges), 0, "candidate graph, no bound")
        return mate, Proof(gap == 0, gap, c.radix(gap), len(self.edges), 0, "candidate graph")


def compressed(costs: Costs, edges: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Weights for the edges of a graph G' whose sums order G''s perfect matchings as RULES.md 2.1 does,
    with multipliers bounded over G' only: M_k exceeds the largest total of the lower levels that a
    matching of G' can have (half the sum over nodes of each node's largest cost), so the weights stay
    far smaller than the encoding valid for the whole complete graph.
    """
    levels = {e: costs.levels(*e) for e in edges}
    width = 10
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
    if costs.mode:
        return _complete(costs)
    solver = Solver(costs, progress)
    solved = solver.solve()
    if solved is None:
        return None
    mate, proof = solved
    pairs = sorted((u, v) for u, v in mate.items() if u < v)
    return pairs, costs, proof


def _complete(costs: Costs) -> tuple[list[tuple[int, int]], Costs, Proof] | None:
    """The exact minimum on the complete graph (every allowed pair), proven by construction."""
    from .matching import min_cost_perfect_matching_fast

    edges = [(i, j) for i in range(costs.n) for j in range(i + 1, costs.nodes) if costs.allowed(i, j)]
    pairs = min_cost_perfect_matching_fast(list(range(costs.nodes)), compressed(costs, edges))
    if pairs is None:
        return None
    return sorted(pairs), costs, Proof(True, 0, (0,) * 10, len(edges), 0, "complete graph")


def fractions(costs: Costs, i: int, j: int) -> list[Fraction]:
    """The level costs of ``i < j`` as RULES.md states them (level 3 unscaled)."""
    lv: Sequence[int] = costs.levels(i, j)
    return [Fraction(v, costs.scale3) if k == 2 else Fraction(v) for k, v in enumerate(lv)]
