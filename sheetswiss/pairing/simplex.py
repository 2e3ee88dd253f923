"""The cheapest flow of a network, by the primal network simplex method, in whole numbers.

The blocks' transports (:mod:`.transport`) have a few hundred nodes and a few thousand arcs, most of them one
player's arc of a convex cost, each of which enters the basis once: some two thousand pivots. The method is the
textbook one (Ahuja, Magnanti and Orlin, *Network Flows*, 1993, chapter 11): a spanning tree of basic arcs
rooted at an artificial node, each node's potential making its tree arc's reduced cost 0, and at each pivot
the non-basic arc whose reduced cost is the most violated enters (Dantzig's rule, priced over every arc at once
in numpy), the cycle it closes carries as much as its tightest arc allows, and that arc leaves. The tree is
kept *strongly feasible* (Cunningham, 1976: every tree arc of zero flow points away from the root, and the
leaving arc is the last blocking one met going round the cycle from its apex), so that degenerate pivots
never cycle. A pure-Python pricing of a few arcs at a time (networkx's network simplex) took three to four times
as long on the roles' transport at 8,000 players (0.32 CPU seconds against 0.07 to 0.1).

The potentials are Python integers, exact at any size; numpy prices them in 64-bit integers while they fit (the
score level's costs of the blocks' first transport come within a few bits of it at 8,000 players), else in
floats, whose choice of arc is then checked in integers, and where it fails (or no arc is left), every arc is
priced in integers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["cheapest_flow"]


def cheapest_flow(demand: Sequence[int], tail: Sequence[int], head: Sequence[int], cost: Sequence[int],
                  capacity: Sequence[int | None]) -> list[int]:
    """A cheapest flow on the arcs ``tail[a] -> head[a]`` (cost per unit ``cost[a]``, at most ``capacity[a]``
    units, ``None`` for no limit) that brings each node ``v`` its ``demand[v]`` (negative: it sends as much).
    Raises :class:`ValueError` where no flow meets the demands. The arcs' costs must leave no cycle of negative
    cost and no limit, as the transports' never do (their costs are never negative).

    Two sources of 2 and 1 units, a sink of 3; the second source's arc is dearer but the first's holds 2:

    >>> cheapest_flow([-2, -1, 3], [0, 1, 0], [2, 2, 1], [1, 5, 1], [2, None, None])
    [2, 1, 0]
    """
    n, m = len(demand), len(tail)
    root = n
    limit = [u if u is not None else -1 for u in capacity]
    endless = sum(abs(d) for d in demand) + sum(u for u in limit if u > 0) + 1  # more than any arc can carry
    big = (n + 1) * (max((abs(c) for c in cost), default=0) + 1)  # dearer than any path of real arcs
    # the artificial arcs: m + v joins node v and the root, carrying v's supply (away from the root if none)
    tails = [*tail, *(v if d < 0 else root for v, d in enumerate(demand))]
    heads = [*head, *(root if d < 0 else v for v, d in enumerate(demand))]
    room = [*(u if u >= 0 else endless for u in limit), *([endless] * n)]
    flow = [0] * m + [abs(d) for d in demand]
    pi = [-big if d < 0 else big for d in demand] + [0]
    """Each node's potential: the cost of its path from the root, so that every tree arc's reduced cost is 0."""
    parent, arc, depth = [root] * n + [-1], [*range(m, m + n), -1], [1] * n + [0]
    children: list[set[int]] = [set() for _ in range(n)] + [set(range(n))]
    exact = 5 * big < 2**63  # |potential| < 2 big and |reduced cost| < 5 big: int64 prices exactly
    kind = np.int64 if exact else np.float64  # else floats choose, and every choice is checked in integers
    potential, costs = np.array(pi, dtype=kind), np.array(cost, dtype=kind)
    t_arr, h_arr, u_arr = (np.array(x, dtype=np.int64) for x in (tail, head, room[:m]))
    f_arr = np.where(u_arr == 0, -1, 0)  # -1: an arc that holds nothing is never priced

    def gain(a: int) -> int:
        """How much arc ``a``'s reduced cost says the flow gains per unit moved along it (<= 0: nothing)."""
        reduced = cost[a] + pi[tails[a]] - pi[heads[a]]
        return 0 if not room[a] else -reduced if flow[a] == 0 else reduced if flow[a] == room[a] else 0

    while m:
        reduced = costs + potential[t_arr] - potential[h_arr]
        gains = np.where(f_arr == 0, -reduced, 0)
        e = int(np.argmax(np.where(f_arr == u_arr, np.maximum(gains, reduced), gains)))
        if not exact and gain(e) <= 0:  # the floats may have erred: every arc priced in integers
            potential = np.array(pi, dtype=kind)
            e = max(range(m), key=gain)
        if gain(e) <= 0:
            break
        up = flow[e] == 0  # the entering arc's flow rises (from 0), else falls (from its limit)
        first, second = (tails[e], heads[e]) if up else (heads[e], tails[e])
        down_path, up_path = [], []  # first and second up to the apex: the cycle runs first -> second on e
        x, y = first, second
        while depth[x] > depth[y]:
            down_path.append(x)
            x = parent[x]
        while depth[y] > depth[x]:
            up_path.append(y)
            y = parent[y]
        while x != y:
            down_path.append(x)
            x = parent[x]
            up_path.append(y)
            y = parent[y]
        # round the cycle from the apex: down to first, e, up from second; the last tightest arc leaves
        tightest, leaving, below = -1, e, -1
        for v in reversed(down_path):  # from parent[v] to v
            a = arc[v]
            left = room[a] - flow[a] if tails[a] == parent[v] else flow[a]
            if tightest < 0 or left <= tightest:
                tightest, leaving, below = left, a, v
        left = room[e] - flow[e] if up else flow[e]
        if tightest < 0 or left <= tightest:
            tightest, leaving, below = left, e, -1
        for v in up_path:  # from v to parent[v]
            a = arc[v]
            left = room[a] - flow[a] if tails[a] == v else flow[a]
            if left <= tightest:
                tightest, leaving, below = left, a, v
        if tightest:
            for a, rises in ((e, up), *((arc[v], tails[arc[v]] == parent[v]) for v in down_path),
                             *((arc[v], tails[arc[v]] == v) for v in up_path)):
                flow[a] += tightest if rises else -tightest
                if a < m:
                    f_arr[a] = flow[a]
        if leaving == e:
            continue
        # the subtree below the leaving arc hangs from e now, from e's end inside it
        inner, outer = (first, second) if below in down_path else (second, first)
        shift = cost[e] + pi[tails[e]] - pi[heads[e]]
        if inner != heads[e]:
            shift = -shift
        children[parent[below]].discard(below)
        path = [inner]
        while path[-1] != below:
            path.append(parent[path[-1]])
        hang, via = outer, e
        for v in path:
            was, was_arc = parent[v], arc[v]
            if v != below:
                children[was].discard(v)
            parent[v], arc[v] = hang, via
            children[hang].add(v)
            hang, via = v, was_arc
        stack, moved = [inner], []
        while stack:
            v = stack.pop()
            moved.append(v)
            depth[v] = depth[parent[v]] + 1
            stack.extend(children[v])
        for v in moved:
            pi[v] += shift
        potential[moved] += shift
    if any(flow[m:]):
        raise ValueError("no flow meets the demands")
    return flow[:m]
