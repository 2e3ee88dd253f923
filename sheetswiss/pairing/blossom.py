"""Minimum-cost perfect matching with its dual solution: Edmonds' primal-dual blossom algorithm, started
from given duals and a partial matching, and able to carry on after edges are added.

The solver (:mod:`.solver`) needs more than a pairing: duals that prove it optimal over pairs the solver
never saw, and a start from duals it already knows (closed-form potentials for most of the field), so that
the search only works where the pairing departs from them.

* **Duals.** Each vertex v has a potential ``p[v]``; each blossom B (an odd set of vertices shrunk during
  the search) has ``z[B] >= 0``. Every edge uv keeps ``slack = w_uv - p_u - p_v + Z_uv >= 0``, Z_uv being
  the sum of z over the blossoms holding both ends; matched edges and the edges that close a blossom have
  slack 0, and a blossom with z > 0 holds (|B| - 1) / 2 matched edges. So for every perfect matching M,
  ``w(M) >= sum(p) - sum(z_B * (|B| - 1) / 2)`` (each vertex is covered once, each B holds at most
  (|B| - 1) / 2 edges of M), with equality for the matching found (:meth:`Matcher.dual`).
* **Stages.** A stage grows one alternating tree from a free vertex in Dijkstra's order: the tree's outer
  vertices rise and its inner vertices fall by the same amount (outer blossoms' z rises by twice that,
  inner blossoms' falls), and the next event is whatever runs out of slack first: an edge from an outer
  vertex to a vertex outside the tree (its blossom becomes inner and its mate's outer, or, at a free
  vertex, the path augments the matching), an edge between two outer blossoms (closing a new blossom), or
  an inner blossom whose z reaches 0 (expanded). Tree duals are kept lazily (a vertex's value is fixed when
  its label changes and read against the stage's running total), and a vertex's top-level blossom is
  found through parent links, so a stage costs about the size of the tree it explores, not of the graph.
* **What a stage queues.** Only the earliest edge to each vertex outside the tree, and nothing due after
  the earliest edge to a free blossom (the stage augments by then). An edge into an inner blossom keeps its
  slack while both ends keep their labels, so the least one is noted as it is scanned, and a vertex that
  leaves the tree when its blossom expands gets its earliest edge from that note, not from its edges again.
  A large blossom with z > 0 can join tree after tree: it lists, once per run, its least-slack edge to each
  vertex outside it (all its potentials move alike while it stands), and is scanned through that list.
* **Warm start and repair.** The caller sets any potentials feasible on the graph and a matching of tight
  edges. :meth:`Matcher.repair` makes an added edge feasible: it dissolves the blossoms holding one end
  (moving their z into their vertices' potentials, which keeps every edge feasible), lowers that end's
  potential by the edge's deficit and frees it and its mate, for the next stages to match again.
* **Reading Z.** :class:`Nesting` gives Z_uv for any pair, one at a time or for numpy arrays of pairs,
  from the forest of nested blossoms.

Weights are even integers (the engine passes twice its costs) and potentials integers, so every dual stays
an integer: along the tight edges of a tree the outer vertices share one parity, so an edge between two
outer blossoms has even slack and closes after half of it.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import final

import numpy as np

__all__ = ["SPLIT", "Matcher", "Nesting", "Saved"]

_CAP = 1 << 62
"""Where :meth:`Nesting.many` caps Z."""
SPLIT = 48
"""Bits of the low part of a number split in two 64-bit integers (:meth:`Nesting.split`): the split holds
numbers up to about 2**(62 + SPLIT), and the low parts' sums in the check (pattern, draws, a few low parts) stay
far below 2**61. Under ``colours: alternate`` from 8,000 players the colour hard level is about 2**104, and a
blossom across a boundary next to a group short of one colour gets a z of a few of those: with 40 bits such
pairs went through Python integers (0.6 CPU seconds per check instead of 0.15 in round 15 of the benchmark's
``--seed 3 --draws 0.35`` state)."""
_OUTER, _INNER = 1, 2
"""Labels of a top-level blossom in the current tree (0: not in the tree)."""
_LISTED = 16
"""Blossoms of this many vertices or more keep their edges that leave them (:attr:`Matcher._outside`)."""
_NEVER = 1 << 4096
"""Later than every time: the key of a vertex with no edge queued. An integer (a key is a sum of a few weights and
potentials, each far below this), so that comparing a key with it is integer arithmetic: a large integer key compared
with ``float("inf")`` took about one and a half times as long (timeit), twice per edge scanned."""
_FAR = 64
"""Under a cap on a run's rises, an edge whose slack exceeds this many caps is left out of the scans
(:attr:`Matcher._near`)."""
_EDGE, _CLOSE, _EXPAND = 0, 1, 2
"""Events: an edge from an outer vertex to one outside the tree, an edge between outer blossoms, an inner
blossom whose z runs out."""


@final
@dataclass(frozen=True)
class Saved:
    """A matcher's duals and matching (:meth:`Matcher.saved`): copies of its lists, to go back to."""

    p: list[int]
    mate: list[int]
    top: list[int]
    parent: list[int]
    childs: list[list[int]]
    links: list[list[tuple[int, int]]]
    base: list[int]
    z: list[int]
    size: list[int]
    held: list[list[int]]
    born: list[int]
    spare: list[int]
    opened: list[int]


class Matcher:
    """Edmonds' algorithm on vertices ``0 .. n-1`` (blossoms get the ids ``n .. 2n-1``). Add the edges, set
    ``p`` (feasible) and ``mate`` (tight edges), then :meth:`run`; the duals are ``p``, ``z`` and the
    blossom forest (``parent``, ``childs``), read through :class:`Nesting` and :meth:`dual`."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.adj: list[dict[int, int]] = [{} for _ in range(n)]
        """Weight of each edge, from both ends."""
        self.p = [0] * n
        """Potentials (exact between stages)."""
        self.mate = [-1] * n
        size = 2 * n
        self.top = list(range(n))
        """A blossom holding each vertex (or the vertex itself), the top-level one when :meth:`outermost` last
        found it; the top-level one is found from there by following ``parent``, so neither closing nor opening a
        blossom relabels its vertices (an opened one's vertices that named it search again from themselves,
        :attr:`_opened`)."""
        self.parent = [-1] * size
        self.childs: list[list[int]] = [[] for _ in range(size)]
        """Sub-blossoms of a blossom round its odd cycle, the one holding the base first."""
        self.links: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        """``links[b][i]`` joins ``childs[b][i]`` to the next child: (vertex in the one, vertex in the next)."""
        self.base = [*range(n), *([-1] * n)]
        self.z = [0] * size
        self.size = [1] * n + [0] * n
        """Vertices in each blossom."""
        self._spare = list(range(size - 1, n - 1, -1))
        self._opened: list[int] = []
        """Blossoms opened since the vertices' ``top`` were last all found anew: each is its own ``parent`` (so the
        look-ups that find one in ``top`` take the slow way, :meth:`outermost`) and is not reused until then
        (:meth:`_reuse`). Opening a blossom nested hundreds deep (a ring closed two vertices at a time) one level at a
        time relabelled all of it at each level: at 8,000 players under ``sides: single`` after a random history,
        56 million relabellings in 18,000 expansions, half a CPU second to a second of that round's 9 or 10."""
        self._label = [0] * size
        self._via: list[tuple[int, int] | None] = [None] * size
        """The edge that labelled a blossom: (vertex of its tree parent, vertex in it)."""
        self._since = [0] * size
        """Stage total at which a vertex's potential (a blossom's z) was last made exact."""
        self._delta = 0
        self._heap: list[tuple[int, int, int, int, int]] = []
        self._count = 0
        self._labelled: list[int] = []
        self.order: Sequence[int] | None = None
        """The order in which :meth:`run` grows trees from free vertices (by default by number)."""
        self._best: dict[int, int] = {}
        """The earliest time queued for an edge to each vertex outside the tree, in this stage."""
        self._limit = _NEVER
        """The earliest time queued for an edge to a free blossom, in this stage: that edge augments then, if
        nothing does before, so no event from then on is queued (it would come after the stage ends)."""
        self._slack: dict[int, int] = {}
        """The least slack of an edge from an outer vertex to each vertex of an inner blossom (of more than one
        vertex), in this stage: while both ends keep their labels the slack stays as it is (one end rises as
        the other falls), so when the blossom expands its leaving vertices' earliest edges are known without
        rescanning their edges (:meth:`_expand_inner`)."""
        self._held: list[list[int]] = [[v] for v in range(n)] + [[] for _ in range(n)]
        """The vertices of each blossom (each vertex alone for itself), listed once when it closes."""
        self._born = [0] * size
        """When each blossom closed, counted in closings since the matcher was made (:meth:`weighted`)."""
        self._closed = 0
        self._jump = list(range(size))
        """For a vertex or blossom: an ancestor that :meth:`outermost` found above it (itself when none), trusted while
        that ancestor stands, the same closing (``_stamp``). A blossom closes only at the top level, over blossoms
        closed before it, and opens only at the top level, after every blossom above it: an ancestor found once
        stays one for as long as it stands, and one that opened or was closed anew (after :meth:`restore` too,
        the closings go on counting) has another closing or no children. Where blossoms nest hundreds deep (a
        ring closed two vertices at a time), the walks up the parents were long: at 8,000 players under ``sides:
        single`` after a random history, 72 million steps for 3.7 million look-ups, and with the jumps (and
        :meth:`_rotate`'s one listing) that round takes 8.6 to 9.2 CPU seconds instead of 9.6 to 10.3."""
        self._stamp = [0] * size
        """The closing (``_born``) of each one's ``_jump`` when it was found."""
        self._outside: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {}
        """For a blossom of ``_LISTED`` vertices or more, once it has been outer in this run: its least-slack edge
        to each vertex outside it (:meth:`_list_outside`), kept while the blossom and the edges stay as they are.
        A blossom with z > 0 lasts from stage to stage, and a large one (two whole score groups whose union is
        odd, say) joins tree after tree: each time it queues one edge per vertex it reaches, not every edge of
        every one of its vertices (about 12 to the group below where each of its 990 players has those 12)."""
        self._far: int | None = None
        """In a run with a cap: the slack (``_FAR`` caps) beyond which an edge is left out of :attr:`_near`."""
        self._near: dict[int, list[tuple[int, int]]] = {}
        """In a run with a cap: the edges of each vertex scanned so far whose slack was at most :attr:`_far` when
        it was listed. Each stage moves a potential by at most its own total (at most the cap), so while those
        totals since the lists were made (:attr:`_drift`) stay below a quarter of ``_far``, every edge left out
        still has a slack above two caps: it can neither get tight nor close a blossom before the stage stops.
        A search scans only the listed edges (under ``sides: single`` at 8,000 players, 37% of the edges the
        first solve's searches scanned had a slack above the cap, nearly all above 64 caps)."""
        self._drift = 0
        """The stages' totals since :attr:`_near` was emptied."""
        self._above: tuple[int, list[tuple[int, int]]] = (-1, [])
        """The last vertex through which :meth:`_expand_inner` entered a blossom, and the blossoms above it (and
        itself), each with its closing (``_born``), from itself up to the child of that blossom (:meth:`_entered`)."""
        self._cut = False
        """Whether this stage has scanned a vertex some of whose edges :attr:`_near` leaves out: its tree then
        stops at the cap when nothing is left to queue, as those edges would come later, instead of being stuck."""

    # -- set-up and results ---------------------------------------------------------------------------

    def add_edge(self, u: int, v: int, w: int) -> None:
        """Add the edge uv of weight ``w`` (even); :meth:`repair` it if the potentials violate it."""
        self.adj[u][v] = w
        self.adj[v][u] = w
        if self._outside:
            self._outside = {}
        if self._near:
            self._near = {}

    def _leaves(self, b: int) -> list[int]:
        """The vertices of blossom (or vertex) ``b`` (kept from when the blossom closed: not to be changed)."""
        return self._held[b]

    def weighted(self, ids: dict[tuple[int, int, int], int]) -> list[int]:
        """For each vertex, the blossoms with z > 0 that hold it, as one number: ``ids`` numbers each chain of such
        blossoms (from the outermost, each known by its z and when it closed) the first time it is met. A blossom
        closed once holds the same vertices for as long as it stands (and after :meth:`restore`), so two readings
        of the same matcher that share ``ids`` give a vertex the same number exactly when the same blossoms, with
        the same z, hold it, and Z_uv stays as it was for every pair of such vertices. One walk down the blossoms:
        listing each blossom's vertices instead cost 0.05 CPU seconds per reading at 8,000 players (the blossoms
        nest deep)."""
        out = [0] * self.n
        z, born, childs = self.z, self._born, self.childs
        stack = [(b, 0) for b in range(self.n, 2 * self.n) if self.parent[b] == -1 and childs[b]]
        while stack:
            b, chain = stack.pop()
            if z[b] > 0:
                chain = ids.setdefault((chain, z[b], born[b]), len(ids) + 1)
            for child in childs[b]:
                if child < self.n:
                    out[child] = chain
                else:
                    stack.append((child, chain))
        return out

    def nested(self) -> bool:
        """Whether some blossom has z > 0 (else Z_uv = 0 for every edge)."""
        return any(self.childs[b] and self.z[b] > 0 for b in range(self.n, 2 * self.n))

    def dual(self, p: Sequence[int] | None = None) -> int:
        """``sum(p) - sum(z_B * floor(|B| / 2))`` over the blossoms with z > 0, for the potentials ``p``
        (by default the solver's): no perfect matching weighs less once every edge of the graph it is
        taken over has slack >= 0 (with Z_uv summed over the same blossoms)."""
        total = sum(self.p if p is None else p)
        for b in range(self.n, 2 * self.n):
            if self.childs[b] and self.z[b] > 0:
                total -= self.z[b] * (self.size[b] // 2)
        return total

    def match_tight(self) -> None:
        """Match each free vertex, in number order, to its first free neighbour along a tight edge (a start's
        greedy matching: the searches take the rest)."""
        adj, p, mate = self.adj, self.p, self.mate
        for v in range(self.n):
            if mate[v] == -1:
                pv = p[v]
                for x, w in adj[v].items():
                    if mate[x] == -1 and w == pv + p[x]:
                        mate[v], mate[x] = x, v
                        break

    def saved(self) -> Saved:
        """The duals and the matching, to go back to (:meth:`restore`) after edges are added that they keep
        feasible: potentials, mates and the blossoms (the edges are not saved)."""
        return Saved(self.p[:], self.mate[:], self.top[:], self.parent[:], [x[:] for x in self.childs],
                     [x[:] for x in self.links], self.base[:], self.z[:], self.size[:], [x[:] for x in self._held],
                     self._born[:], self._spare[:], self._opened[:])

    def restore(self, saved: Saved) -> None:
        """Go back to the duals and matching of :meth:`saved` (a copy of them: the same ``saved`` can be restored
        again), keeping every edge added since."""
        self.p, self.mate, self.top, self.parent = saved.p[:], saved.mate[:], saved.top[:], saved.parent[:]
        self.childs, self.links = [x[:] for x in saved.childs], [x[:] for x in saved.links]
        self.base, self.z, self.size = saved.base[:], saved.z[:], saved.size[:]
        self._held, self._born, self._spare = [x[:] for x in saved.held], saved.born[:], saved.spare[:]
        self._opened = saved.opened[:]
        self._outside = {}

    def flatten(self) -> None:
        """Dissolve every blossom (:meth:`_dissolve_above`): the potentials take their z, so every edge stays
        feasible with Z = 0, and the matched edge at the base of each blossom with z > 0 is unmatched."""
        for v in range(self.n):
            if self.parent[v] != -1:
                self._dissolve_above(v)

    # -- repairs between stages -----------------------------------------------------------------------

    def repair(self, u: int, v: int) -> None:
        """Make edge uv feasible again: dissolve the blossoms holding ``v``, then lower ``p[v]`` by what the edge
        still lacks. Where v's mate x is in no blossom and each of its other edges has that much slack, x rises by
        as much: vx stays tight and matched, and the dual objective is as it was. Else v and x are freed (their
        edge is no longer tight), for the searches to match again (at 8,000 players in round 12, 307 searches
        instead of 397)."""
        self._dissolve_above(v)
        s = self.adj[u][v] - self.p[u] - self.p[v]  # no blossom holds v now
        if s < 0:
            self.p[v] += s
            x = self.mate[v]
            if x != -1 and self.parent[x] == -1:
                px = self.p[x] - s
                if all(w >= px + self.p[y] for y, w in self.adj[x].items() if y != v):
                    self.p[x] = px
                    return
            self._unmatch(v)

    def raise_edge(self, u: int, v: int, w: int) -> None:
        """Give the edge uv the weight ``w``, at least its own: every edge stays feasible, but uv may no longer
        be tight, so the blossoms holding both ends are dissolved (:meth:`_dissolve_above`: their links and
        matched edges were tight) and, if uv was matched, u and v are freed for the next stages."""
        if w < self.adj[u][v]:
            raise ValueError(f"edge {u}-{v} may only get dearer")
        self.add_edge(u, v, w)
        if self.outermost(u) == self.outermost(v):
            self._dissolve_above(u)
        if self.mate[u] == v:
            self._unmatch(u)

    def _unmatch(self, v: int) -> None:
        m = self.mate[v]
        if m != -1:
            self.mate[v] = self.mate[m] = -1

    def _split(self, b: int) -> None:
        """Make the children of top-level blossom ``b``, whose z is 0, top-level (no dual changes)."""
        for c in self.childs[b]:
            self.parent[c] = -1
        self._free(b)

    def _dissolve_above(self, v: int) -> None:
        """Dissolve every blossom holding ``v``, outermost first: its z moves into its vertices' potentials
        (each lowered by z / 2), so edges inside keep their slack and edges leaving gain; the matched edge
        at its base is no longer tight and is unmatched. Each vertex is touched once: one that leaves the
        chain at some level is lowered by the z / 2 of every blossom above it."""
        chain = []
        x = v
        while self.parent[x] != -1:
            x = self.parent[x]
            chain.append(x)
        on_chain = {v, *chain}
        drop = 0
        for b in reversed(chain):
            if self.z[b]:
                drop += self.z[b] // 2
                self._unmatch(self.base[b])
            for c in self.childs[b]:
                self.parent[c] = -1
                if c in on_chain:
                    continue
                for y in self._leaves(c):
                    self.p[y] -= drop
            self._free(b)
        self.p[v] -= drop

    def _free(self, b: int) -> None:
        self.parent[b] = b  # opened (:attr:`_opened`)
        self.childs[b] = []
        self._held[b] = []
        self.links[b] = []
        self.base[b] = -1
        self.z[b] = 0
        self.size[b] = 0
        self._label[b] = 0
        self._via[b] = None
        self._outside.pop(b, None)
        self._opened.append(b)

    def _reuse(self) -> None:
        """Find every vertex's top-level blossom anew (:meth:`outermost`), so that no ``top`` names an opened blossom,
        and make the opened ones spare."""
        for v in range(self.n):
            self.outermost(v)
        for b in self._opened:
            self.parent[b] = -1
        self._spare.extend(self._opened)
        self._opened = []

    # -- reductions and bids before the stages ---------------------------------------------------------

    def reduce(self, order: Iterable[int], most: int | None = None) -> None:
        """The reductions of the Hungarian method: each vertex of ``order`` in turn takes the least slack of its
        edges, at most ``most``. Every edge feasible before stays feasible (the vertex rises by no more than any of
        its edges' slack) and the vertex gets a tight edge unless ``most`` held it back; a least slack below 0
        lowers the vertex until its edges are feasible. Even weights and potentials stay even."""
        adj, p = self.adj, self.p
        for v in order:
            if adj[v]:
                pv = p[v]
                s = min(w - pv - p[x] for x, w in adj[v].items())
                p[v] = pv + (s if most is None or s < most else most)

    def bid(self, most: int) -> None:
        """Match free vertices by bids, the augmenting row reduction of Jonker and Volgenant's assignment
        method (Computing 38, 1987), before the stages: a free vertex v outside every blossom whose least slack
        ``s1`` (to x) is below ``most`` takes x, its potential rising to ``p[v] + s1`` plus the gap to its
        second least slack (at most ``most``), while x's falls by that gap; x's old mate, if any, is freed
        and bids in turn. v's edges stay feasible (it rises to no more than its second least slack, and to
        x exactly), x's only gain slack, and vx is tight. The dual objective does not fall (it gains ``s1``).
        A vertex freed by a bid that raised nothing waits for the next pass, and each of the two passes makes
        at most four bids per vertex free at its start, so the bids end; the stages take the rest. Blossoms
        are left alone (no vertex in one bids, is bid for or is freed), so Z stays 0 on every edge a bid
        reads. Cheap where many free vertices are near tight partners (a random assignment's ties): they can
        leave a fifth as many for the searches."""
        adj, p, mate, parent = self.adj, self.p, self.mate, self.parent
        free = [v for v in (range(self.n) if self.order is None else self.order) if mate[v] == -1]
        for _ in range(2):
            todo = deque(free)
            free = []
            budget = 4 * len(todo)
            while todo and budget:
                budget -= 1
                v = todo.popleft()
                if mate[v] != -1 or parent[v] != -1 or not adj[v]:
                    continue
                pv, s1, s2, x = p[v], _NEVER, _NEVER, -1
                for u, w in adj[v].items():
                    s = w - pv - p[u]
                    if s < s1:
                        s1, s2, x = s, s1, u
                    elif s < s2:
                        s2 = s
                y = mate[x]
                if s1 >= most or parent[x] != -1 or (y != -1 and parent[y] != -1):
                    continue
                rise = int(min(s2 - s1, most))
                p[v] = pv + int(s1) + rise
                p[x] -= rise
                mate[v], mate[x] = x, v
                if y != -1:
                    mate[y] = -1
                    (todo if rise else free).append(y)
            free.extend(v for v in todo if mate[v] == -1)

    # -- stages ---------------------------------------------------------------------------------------

    def run(self, cap: int | None = None) -> list[int]:
        """Augment from every free vertex. Returns ``[]`` when every free vertex has augmented or stopped at
        ``cap``, else the outer vertices of a tree that reached no free vertex (the graph needs more edges there).
        With a ``cap``, a tree whose duals would change by more than that stops there: its duals change by what
        they have changed so far (every edge stays feasible, every matched edge tight) and its root stays free; its
        searches leave out the edges too slack to matter before the cap (:attr:`_near`)."""
        self._outside = {}  # the potentials may have been set since
        self._near, self._drift = {}, 0
        self._far = None if cap is None else _FAR * cap
        for v in range(self.n) if self.order is None else self.order:
            if self.mate[v] == -1:
                stuck = self._stage(v, _NEVER if cap is None else cap)
                if stuck:
                    return stuck
                self._drift += self._delta
                if self._far is not None and 4 * self._drift > self._far:
                    self._near, self._drift = {}, 0
        return []

    def _edges(self, v: int) -> Iterable[tuple[int, int]]:
        """The edges of ``v`` that a search scans: all of them, or in a run with a cap those of :attr:`_near`."""
        if self._far is None:
            return self.adj[v].items()
        near = self._near.get(v)
        if near is None:
            p, far = self.p, self._far + self.p[v]
            near = [(u, w) for u, w in self.adj[v].items() if w - p[u] <= far]
            self._near[v] = near
        if len(near) < len(self.adj[v]):
            self._cut = True
        return near

    def outermost(self, v: int) -> int:
        """The top-level blossom holding vertex ``v`` (``v`` itself when none): up the parents from the blossom found
        last for ``v`` (from ``v`` where that one has opened since, :attr:`_opened`), taking each level's jump where it
        holds (:attr:`_jump`), and every level passed then jumps to the one found (path compression, as in a
        union-find)."""
        t = self.top[v]
        parent = self.parent
        if parent[t] != -1:
            if parent[t] == t:  # that blossom has opened since (:attr:`_opened`): from the vertex itself
                t = v
            jump, stamp, born, childs = self._jump, self._stamp, self._born, self.childs
            path = []
            while parent[t] != -1:
                path.append(t)
                j = jump[t]
                t = j if j != t and born[j] == stamp[t] and childs[j] else parent[t]
            b = born[t]
            for x in path:
                jump[x] = t
                stamp[x] = b
            self.top[v] = t
        return t

    def _pot(self, v: int) -> int:
        lab = self._label[self.outermost(v)]
        if not lab:
            return self.p[v]
        d = self._delta - self._since[v]
        return self.p[v] + d if lab == _OUTER else self.p[v] - d

    def _zval(self, b: int) -> int:
        lab = self._label[b]
        if not lab:
            return self.z[b]
        d = 2 * (self._delta - self._since[b])
        return self.z[b] + d if lab == _OUTER else self.z[b] - d

    def _push(self, key: int, kind: int, a: int, b: int) -> None:
        if key < self._limit:
            self._count += 1
            heapq.heappush(self._heap, (key, self._count, kind, a, b))

    def _reach(self, key: int, a: int, b: int) -> None:
        """Queue the edge from outer vertex ``a`` to ``b`` outside the tree, which gets tight at ``key``,
        unless an edge to ``b`` that gets tight no later is queued already (until ``b`` joins the tree, only
        the first of its edges to get tight matters, and an outer vertex's edge keeps its time)."""
        if key < self._best.get(b, key + 1):
            self._best[b] = key
            self._push(key, _EDGE, a, b)

    def _stage(self, root: int, cap: int) -> list[int]:
        """One alternating tree from the free vertex ``root``, grown until it augments or its next event comes
        after ``cap``; ``[]`` then, else the tree's outer vertices once no event is left (no augmenting path)."""
        self._delta = 0
        self._best = {}
        self._slack = {}
        self._limit = _NEVER
        self._heap = []
        self._labelled = []
        self._cut = False
        heap, top, label, tops, parent = self._heap, self.outermost, self._label, self.top, self.parent
        self._outer(top(root), None)
        stuck: list[int] = []
        while True:
            if not heap and self._cut:  # what is left comes after the cap
                break
            if not heap:
                stuck = [v for b in self._labelled if label[b] == _OUTER and self.parent[b] == -1
                         for v in self._leaves(b)]
                break
            if heap[0][0] > cap:
                break
            key, _, kind, a, b = heapq.heappop(heap)
            if key > self._delta:
                self._delta = key
            if kind == _EDGE:
                bb = tops[b]
                if parent[bb] != -1:
                    bb = top(b)
                if a < 0:  # queued by :meth:`_expand_inner`: the outer end is the first whose edge is tight now
                    if label[bb]:
                        continue
                    a = self._tight_outer(b)
                    if a < 0:  # b joined the tree and left it again since: its edges were queued anew
                        continue
                elif label[bb]:  # inside the tree already (a's own blossom is outer)
                    continue
                s = self.adj[a][b] - self._pot(a) - self._pot(b)
                if s > 0:
                    self._reach(self._delta + s, a, b)
                elif self.mate[self.base[bb]] == -1:
                    self._augment(a, b)
                    break
                else:
                    self._inner(bb, (a, b))
            elif kind == _CLOSE:
                if top(a) == top(b):
                    continue
                s = self.adj[a][b] - self._pot(a) - self._pot(b)
                if s > 0:
                    self._push(self._delta + s // 2, _CLOSE, a, b)
                else:
                    self._shrink(a, b)
            elif self.parent[a] == -1 and label[a] == _INNER and self._zval(a) == 0:
                self._expand_inner(a)
        self._finish()
        return stuck

    def _scan(self, v: int, edges: Iterable[tuple[int, int]] | None = None) -> None:
        """Queue the edges of a new outer vertex ``v`` (or those of ``edges``, its edges that leave its blossom),
        and note the slack of its edges into inner blossoms."""
        top, parent, label, since, p, n = self.top, self.parent, self._label, self._since, self.p, self.n
        delta, best, slack, heap, push = self._delta, self._best, self._slack, self._heap, heapq.heappush
        mate, base, limit = self.mate, self.base, self._limit
        jump, stamp, born, childs = self._jump, self._stamp, self._born, self.childs
        bv = self.outermost(v)
        pv = p[v] + delta - since[v]
        rise = delta - pv
        """An edge's key to a vertex outside the tree is ``w - p[u] + rise``: when its slack runs out."""
        count = self._count
        for u, w in self._edges(v) if edges is None else edges:
            bu = top[u]
            if parent[bu] != -1:  # its blossom found last is inside another now: :meth:`outermost`'s jump, inline
                j = jump[bu]
                if parent[j] == -1 and j != bu and born[j] == stamp[bu] and childs[j] and parent[bu] != bu:
                    top[u] = bu = j
                else:
                    bu = self.outermost(u)
            lab = label[bu]
            if not lab:
                key = w - p[u] + rise
                if key < limit and key < best.get(u, _NEVER):
                    best[u] = key
                    count += 1
                    push(heap, (key, count, _EDGE, v, u))
                    if mate[base[bu]] == -1:  # a free blossom: the stage augments by then
                        limit = key
                if key < delta:
                    raise ValueError(f"infeasible duals on edge {v}-{u}")
            elif lab == _OUTER:
                if bu == bv:
                    continue
                s = w - pv - (p[u] + delta - since[u])
                if s < 0:
                    raise ValueError(f"infeasible duals on edge {v}-{u}")
                if delta + s // 2 < limit:
                    count += 1
                    push(heap, (delta + s // 2, count, _CLOSE, v, u))
            elif bu >= n:  # inner blossom: the slack stays until it expands or joins an outer blossom
                s = w - pv - (p[u] - delta + since[u])
                if s < slack.get(u, _NEVER):
                    if s < 0:
                        raise ValueError(f"infeasible duals on edge {v}-{u}")
                    slack[u] = s
        self._count = count
        self._limit = limit

    def _tight_outer(self, v: int) -> int:
        """The first outer vertex (in ``v``'s edges) whose edge to ``v``, outside the tree, is tight now; -1
        when none is."""
        pv = self.p[v]
        for u, w in self.adj[v].items():
            if self._label[self.outermost(u)] == _OUTER and w == pv + self._pot(u):
                return u
        return -1

    def _outer(self, b: int, via: tuple[int, int] | None) -> None:
        self._label[b] = _OUTER
        self._via[b] = via
        self._since[b] = self._delta
        self._labelled.append(b)
        leaves = self._leaves(b)
        for v in leaves:
            self._since[v] = self._delta
        if self.size[b] < _LISTED:
            for v in leaves:
                self._scan(v)
            return
        listed = self._outside.get(b)
        if listed is None:
            listed = self._list_outside(b)
            self._outside[b] = listed
        for v, out in listed:
            self._scan(v, out)

    def _list_outside(self, b: int) -> list[tuple[int, list[tuple[int, int]]]]:
        """The edges of blossom ``b`` that :meth:`_scan` needs when it is outer: to each vertex u outside it,
        the first of its edges of least ``w - p[v]``, in their order (vertex by vertex, edges in order). Every
        dual change moves all of a blossom's potentials alike, so while it stands that edge stays the one whose
        slack to u is least (whether u is outside the tree, outer or inner), the one :meth:`_scan` would queue."""
        inside = set(self._leaves(b))
        p, adj = self.p, self.adj
        best: dict[int, tuple[int, int, int, int]] = {}
        """For each vertex outside: (least ``w - p[v]``, its place in the scan order, v, w)."""
        seen = 0
        for v in self._leaves(b):
            pv = p[v]
            for u, w in adj[v].items():
                if u not in inside:
                    r = w - pv
                    held = best.get(u)
                    if held is None or r < held[0]:
                        best[u] = (r, seen, v, w)
                seen += 1
        listed: list[tuple[int, list[tuple[int, int]]]] = []
        for u, (_, _, v, w) in sorted(best.items(), key=lambda item: item[1][1]):
            if listed and listed[-1][0] == v:
                listed[-1][1].append((u, w))
            else:
                listed.append((v, [(u, w)]))
        return listed

    def _inner(self, b: int, via: tuple[int, int]) -> None:
        self._label[b] = _INNER
        self._via[b] = via
        self._since[b] = self._delta
        self._labelled.append(b)
        for v in self._leaves(b):
            self._since[v] = self._delta
        if b >= self.n:
            self._push(self._delta + self.z[b] // 2, _EXPAND, b, 0)
            best, slack, delta = self._best, self._slack, self._delta
            for v in self._leaves(b):  # the least slack from the outer vertices so far: when its edge was due
                key = best.get(v)
                if key is not None:
                    slack[v] = key - delta
        base = self.base[b]
        mate = self.mate[base]
        self._outer(self.outermost(mate), (base, mate))

    def _tree_parent(self, b: int) -> int:
        """The outer blossom above outer blossom ``b`` in the tree (-1 at the root)."""
        via = self._via[b]
        if via is None:
            return -1
        t = self._via[self.outermost(via[0])]
        assert t is not None
        return self.outermost(t[0])

    def _shrink(self, a: int, b: int) -> None:
        """Close the blossom made by the tight edge ab between two outer blossoms and the tree paths up to
        their common ancestor."""
        top, label, via = self.outermost, self._label, self._via
        seen: set[int] = set()
        x, y = top(a), top(b)
        while True:
            if x != -1:
                if x in seen:
                    break
                seen.add(x)
                x = self._tree_parent(x)
            x, y = y, x
        lca = x

        def climb(start: int) -> list[tuple[int, tuple[int, int]]]:
            out = []
            x = start
            while x != lca:
                e = via[x]
                assert e is not None
                t = top(e[0])
                et = via[t]
                assert et is not None
                out += [(x, e), (t, et)]
                x = top(et[0])
            return out

        side_a, side_b = climb(top(a)), climb(top(b))
        childs = [lca, *(x for x, _ in reversed(side_a)), *(x for x, _ in side_b)]
        links = [*(e for _, e in reversed(side_a)), (a, b), *((e[1], e[0]) for _, e in side_b)]
        if not self._spare:
            self._reuse()
        nb = self._spare.pop()
        self.childs[nb], self.links[nb] = childs, links
        held: list[int] = []
        for c in childs:
            held += self._held[c]  # a list's extend: a sixth of the time of a comprehension over the vertices
        self._held[nb] = held
        self._closed += 1
        self._born[nb] = self._closed
        self.size[nb] = sum(self.size[c] for c in childs)
        self.base[nb] = self.base[lca]
        self.z[nb] = 0
        lca_via = via[lca]
        newly_outer: list[int] = []
        for c in childs:
            if label[c] == _INNER:
                for v in self._leaves(c):
                    self.p[v] = self._pot(v)
                    self._since[v] = self._delta
                    newly_outer.append(v)
            if c >= self.n:
                self.z[c] = self._zval(c)
            label[c] = 0
            via[c] = None
            self.parent[c] = nb
        label[nb] = _OUTER
        via[nb] = lca_via
        self._since[nb] = self._delta
        self._labelled.append(nb)
        for v in newly_outer:
            self._scan(v)

    def _entered(self, v: int, b: int) -> int:
        """The child of top-level blossom ``b`` that holds vertex ``v``. The blossoms above the last such vertex are
        listed once, with their closings (:attr:`_above`): a nest opened one level at a time through the same vertex
        takes the next one down each time (at 8,000 players under ``sides: single`` after a random history, 9
        million steps up the parents in 18,000 expansions, blossoms nested 500 deep on average)."""
        parent, born = self.parent, self._born
        last, above = self._above
        if last == v and len(above) > 1 and above[-1] == (b, born[b]):
            above.pop()
            t, closed = above[-1]
            if born[t] == closed and parent[t] == b:
                return t
        above = [(v, 0)]
        while parent[above[-1][0]] != -1:
            x = parent[above[-1][0]]
            above.append((x, born[x]))
        above.pop()
        self._above = (v, above)
        return above[-1][0]

    def _expand_inner(self, b: int) -> None:
        """Expand inner blossom ``b`` (z = 0): the children on the even path from the entry child to the
        base child stay in the tree (inner, outer, ..., inner); the others leave it."""
        label, via = self._label, self._via
        entry = via[b]
        assert entry is not None
        p, since, delta = self.p, self._since, self._delta
        childs, links = self.childs[b], self.links[b]
        t = self._entered(entry[1], b)
        i, k = childs.index(t), len(childs)
        path: list[tuple[int, tuple[int, int]]] = [(t, entry)]
        if i % 2 == 0:  # back round the cycle to the base child
            for j in range(i, 0, -1):
                x, y = links[j - 1]
                path.append((childs[j - 1], (y, x)))
        else:
            for j in range(i, k):
                path.append((childs[(j + 1) % k], links[j]))
        on_path = {c for c, _ in path}
        inner = {c for r, (c, _) in enumerate(path) if r % 2 == 0 and c >= self.n}
        for c in childs:
            self.parent[c] = -1
            if c not in inner:  # outer or out of the tree: each potential fell since it was last made exact (an
                for v in self._leaves(c):  # inner blossom's go on falling from there)
                    p[v] -= delta - since[v]
                    since[v] = delta
        self._free(b)
        for r, (c, e) in enumerate(path):
            label[c] = _INNER if r % 2 == 0 else _OUTER
            via[c] = e
            self._since[c] = self._delta
            self._labelled.append(c)
            if r % 2 == 0 and c >= self.n:
                self._push(self._delta + self.z[c] // 2, _EXPAND, c, 0)
        best, slack = self._best, self._slack
        for c in childs:  # leaving the tree: each one's earliest edge from an outer vertex, its end found when due
            if c in on_path:
                continue
            for v in self._leaves(c):
                s = slack.get(v)
                if s is None:
                    best.pop(v, None)
                else:
                    best[v] = delta + s
                    self._push(delta + s, _EDGE, -1, v)
        for r, (c, _) in enumerate(path):
            if r % 2:
                for v in self._leaves(c):
                    self._scan(v)

    def _augment(self, a: int, b: int) -> None:
        """Flip the path from the root to outer vertex ``a``, then the edge ab to the free blossom of b."""
        top, mate = self.outermost, self.mate
        if top(b) >= self.n:
            self._rotate(top(b), b)
        mate[b] = a
        s, j = a, b
        while True:
            bs = top(s)
            if bs >= self.n:
                self._rotate(bs, s)
            mate[s] = j
            via = self._via[bs]
            if via is None:
                return
            t = top(via[0])
            tv = self._via[t]
            assert tv is not None
            x, y = tv
            if t >= self.n:
                self._rotate(t, y)
            mate[y] = x
            s, j = x, y

    def _rotate(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b``: flip the even path round each cycle from the child
        holding ``v`` to the base child, in ``b`` and in every sub-blossom the path passes through. The blossoms
        above ``v`` are listed once, for every level below ``b``: found again from ``v`` at each level, they took
        time in the square of the depth (8 ms per augmentation through blossoms nested some 300 deep, now 1)."""
        n, parent, mate = self.n, self.parent, self.mate
        todo: list[tuple[int, int, list[int] | None, int]] = [(b, v, None, 0)]
        while todo:
            b, v, up, at = todo.pop()
            if up is None:  # v and the blossoms above it, up to the child of b: read once for every level below b
                up = [v]
                while parent[up[-1]] != b:
                    up.append(parent[up[-1]])
                at = len(up) - 1
            t = up[at]
            if t >= n:
                todo.append((t, v, up, at - 1))
            childs, links = self.childs[b], self.links[b]
            i, k = childs.index(t), len(childs)
            flips = range(i - 2, -1, -2) if i % 2 == 0 else range(i + 1, k, 2)
            for j in flips:
                x, y = links[j]
                mate[x], mate[y] = y, x
                if childs[j] >= n:
                    todo.append((childs[j], x, None, 0))
                if childs[(j + 1) % k] >= n:
                    todo.append((childs[(j + 1) % k], y, None, 0))
            self.childs[b] = childs[i:] + childs[:i]
            self.links[b] = links[i:] + links[:i]
            self.base[b] = v

    def _finish(self) -> None:
        """Fix the duals of the tree, clear the labels, and dissolve the tree's blossoms whose z is 0."""
        label = self._label
        tree = [b for b in dict.fromkeys(self._labelled) if label[b] and self.parent[b] == -1]
        p, since, delta = self.p, self._since, self._delta
        for b in tree:
            change = 1 if label[b] == _OUTER else -1
            for v in self._leaves(b):
                p[v] += change * (delta - since[v])
            if b >= self.n:
                self.z[b] = self._zval(b)
        for b in self._labelled:
            label[b] = 0
            self._via[b] = None
        todo = [b for b in tree if b >= self.n]
        while todo:
            b = todo.pop()
            if self.parent[b] == -1 and self.childs[b] and self.z[b] == 0:
                todo.extend(c for c in self.childs[b] if c >= self.n)
                self._split(b)
        self._heap = []


def _halves(values: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative ``values`` as ``(x >> SPLIT, x % 2**SPLIT)`` in int64, the first capped at 2**62."""
    return (np.array([min(x >> SPLIT, _CAP) for x in values], dtype=np.int64),
            np.array([x & ((1 << SPLIT) - 1) for x in values], dtype=np.int64))


class Nesting:
    """Z_uv, the sum of z > 0 over the blossoms holding both u and v, for a matcher's current blossoms.

    Blossoms nest, so they form a forest over the vertices (joined here under one root), and Z_uv is the
    running sum of z from the root down to the lowest common ancestor of u and v. That ancestor is the
    shallowest node between the first visits of u and v in an Euler tour of the forest, found with a
    sparse table of minima in O(1), for one pair or (with numpy) for arrays of pairs.
    """

    def __init__(self, m: Matcher) -> None:
        n = m.n
        root = 2 * n
        # the root's children are the top-level blossoms: a vertex in none is left out of the tour, its first visit
        # the root's (position 0), so its lowest common ancestor with any vertex is the root, where Z is 0 (at 8,000
        # players 3,000 to 5,000 vertices, half the tour)
        kids: dict[int, list[int]] = {root: [b for b in range(n, 2 * n) if m.parent[b] == -1 and m.childs[b]]}
        held = [0] * (2 * n + 1)
        order: list[int] = []
        depth: list[int] = []
        self.first = [0] * n
        stack = [(root, 0, 0)]
        while stack:
            b, level, index = stack.pop()
            if index == 0:
                if b < n:
                    self.first[b] = len(order)
                elif b != root:
                    held[b] = held[m.parent[b]] + max(0, m.z[b]) if m.parent[b] != -1 else max(0, m.z[b])
            order.append(b)
            depth.append(level)
            below = kids[b] if b == root else m.childs[b] if b >= n else []
            if index < len(below):
                stack.append((b, level, index + 1))
                stack.append((below[index], level + 1, 0))
        self.held = held
        self.small = max(held) < _CAP
        """Whether :meth:`many` gives every Z exactly (else the sums above 2**62 are capped there)."""
        self._first = np.array(self.first, dtype=np.int64)
        self._held = np.array([min(h, _CAP) for h in held], dtype=np.int64)
        self._halves: tuple[np.ndarray, np.ndarray] | None = None
        """:meth:`split`'s halves of each node's Z, once asked for."""
        self.order = np.array(order, dtype=np.int64)
        size = len(order)
        self.depth = np.array(depth, dtype=np.int64)
        self.in_blossom: np.ndarray = self.depth[self._first] >= 2
        """Whether each vertex is inside a blossom (below a top-level one: deeper than the root's children)."""
        self.floor_log = np.zeros(size + 1, dtype=np.int64)
        """``floor(log2(x))`` for x = 1 .. size."""
        for k in range(1, size.bit_length()):
            self.floor_log[1 << k:] += 1
        rows = [np.arange(size, dtype=np.int64)]
        width = 1
        while 2 * width <= size:  # rows[k][i]: the shallowest tour position in [i, i + 2**k)
            prev = rows[-1]
            right = np.concatenate([prev[width:], prev[-width:]])
            rows.append(np.where(self.depth[prev] <= self.depth[right], prev, right))
            width *= 2
        self.table = np.stack(rows)

    def _lowest(self, lo: int, hi: int) -> int:
        k = int(self.floor_log[hi - lo + 1])
        a, b = int(self.table[k, lo]), int(self.table[k, hi - (1 << k) + 1])
        return int(self.order[a if self.depth[a] <= self.depth[b] else b])

    def __call__(self, u: int, v: int) -> int:
        lo, hi = sorted((self.first[u], self.first[v]))
        return self.held[self._lowest(lo, hi)]

    def _lowest_many(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        fu, fv = self._first[u], self._first[v]
        lo, hi = np.minimum(fu, fv), np.maximum(fu, fv)
        k = self.floor_log[hi - lo + 1]
        a, b = self.table[k, lo], self.table[k, hi - (1 << k) + 1]
        out: np.ndarray = self.order[np.where(self.depth[a] <= self.depth[b], a, b)]
        return out

    def common(self, vertices: Sequence[int]) -> int:
        """The z summed over the blossoms holding every one of ``vertices``: Z_uv is at least this for any
        two of them (their lowest common blossom lies inside all of these)."""
        return self.between(*self.span(vertices))

    def span(self, vertices: Sequence[int]) -> tuple[int, int]:
        """The first and last of the first visits of ``vertices`` in the tour (``(0, 0)`` for none): the
        blossoms holding them all are those holding that stretch of the tour (:meth:`between`)."""
        if not vertices:
            return 0, 0
        firsts = [self.first[v] for v in vertices]
        return min(firsts), max(firsts)

    def between(self, lo: int, hi: int) -> int:
        """The z summed over the blossoms holding the stretch ``lo`` to ``hi`` of the tour (:meth:`span`); for two
        sets of vertices, the span from the smaller start to the larger end gives :meth:`common` of their union."""
        return self.held[self._lowest(lo, hi)]

    def exact(self, u: np.ndarray, v: np.ndarray) -> list[int]:
        """Z for the pairs ``(u[i], v[i])``, exactly (Python integers)."""
        held = self.held
        return [held[b] for b in self._lowest_many(u, v).tolist()]

    def many(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Z for the pairs ``(u[i], v[i])`` as int64, capped at 2**62 (exact when :attr:`small`)."""
        out: np.ndarray = self._held[self._lowest_many(u, v)]
        return out

    def split(self, u: np.ndarray, v: np.ndarray, base: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """``Z - base`` for the pairs ``(u[i], v[i])`` as ``(x >> SPLIT, x % 2**SPLIT)`` in int64, the first capped
        at 2**62 (exact below 2**(62 + SPLIT)); a capped Z only makes a pair look more violated. ``base`` is at most
        each pair's Z (:meth:`common` of them): inside a blossom whose z is beyond the split, the pairs' Z less it
        still fits."""
        b = self._lowest_many(u, v)
        if not base:  # the usual case: every node's halves, once
            if self._halves is None:
                self._halves = _halves(self.held)
            return self._halves[0][b], self._halves[1][b]
        lowest, back = np.unique(b, return_inverse=True)  # the few blossoms these pairs meet in
        high, low = _halves([max(self.held[x] - base, 0) for x in lowest.tolist()])
        return high[back], low[back]
