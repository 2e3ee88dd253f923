"""The cheapest flow by the primal network simplex, with networkx's pivot rules and its pricing in numpy.

The blocks' transports (:mod:`.transport`) have many cheapest flows, and which one they take decides the start of a
``sides: single`` solve (the whole pairs between blocks and each role's room): two rules choosing differently made
the same round 1 to 2 CPU seconds slower or faster at 8,000 players. The rules here are those of networkx's
``network_simplex`` (version 3), so the flow is the one it returns for the same nodes and arcs in the same order, and
it no longer depends on which networkx is installed:

* **Start.** A root joined to every node by an artificial arc (from a node that supplies or has no demand, to one
  that demands), of cost and capacity ``faux`` (three times the largest of the finite capacities' sum, the
  absolute costs' sum and the absolute demands' sum), carrying each node's demand; the tree's thread visits the
  nodes in their order.
* **Entering arc.** The arcs are priced in blocks of ``ceil(sqrt(arcs))`` in their order, round the list, from
  where the last pivot's block ended; the first block holding an arc of negative reduced cost gives its most
  negative one (the first of equals). An arc without flow enters forwards, one with flow backwards.
* **Leaving arc.** Along the cycle that the entering arc closes (from its tail up to the apex and down to its head),
  the last arc of least residual capacity in that orientation.

An arc's reduced cost is its cost less its tail's potential plus its head's (negated where it carries flow). The
potentials are Python integers, mirrored in numpy for the pricing: in int64 where every potential fits 64 bits, else
in floats that only screen the arcs (those that may price below 0, beyond the floats' rounding, are priced exactly).
At 8,000 players the roles' transport takes half the CPU time of networkx's pure Python pricing, and the top levels'
(costs beyond 64 bits after histories with Player A by a coin) about as much.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import isqrt

import numpy as np

__all__ = ["NoFlow", "cheapest_flow"]


_FIRST = 4
"""Blocks priced at first for the entering arc; the rest only where none of those holds one."""


class NoFlow(ValueError):
    """No flow meets every demand."""


def cheapest_flow(demands: Sequence[int], arcs: Sequence[tuple[int, int, int, int | None]]) -> list[int]:
    """The flow on each of ``arcs`` (tail, head, cost, capacity or ``None`` for none) of a cheapest flow that meets
    the nodes' ``demands`` (negative: a supply; they add up to 0), by the rules of the module's docstring. A loop or
    an arc of capacity 0 carries nothing. Raises :class:`NoFlow` where no flow meets them, or where a cycle of
    negative cost has no capacity bound.

    Two sources of 2 and 1, a sink of 3, the direct arc dearer than the way round by node 1, whose arc holds 2:

    >>> cheapest_flow([-2, -1, 3], [(0, 2, 5, None), (0, 1, 1, 2), (1, 2, 1, None)])
    [0, 2, 3]
    """
    n = len(demands)
    if sum(demands) != 0:
        raise NoFlow("the demands do not add up to 0")
    kept = [k for k, (tail, head, _, cap) in enumerate(arcs) if tail != head and cap != 0]
    count = len(kept)
    root = n
    source = [arcs[k][0] for k in kept] + [root if d > 0 else v for v, d in enumerate(demands)]
    target = [arcs[k][1] for k in kept] + [v if d > 0 else root for v, d in enumerate(demands)]
    weight = [arcs[k][2] for k in kept]
    given = [arcs[k][3] for k in kept]
    faux = 3 * max(sum(cap for cap in given if cap is not None), sum(map(abs, weight)), sum(map(abs, demands))) or 1
    weight += [faux] * n
    capacity = [4 * faux if cap is None else cap for cap in given] + [faux] * n  # 4 * faux: more than any bound
    flow = [0] * count + [abs(d) for d in demands]
    pot = [faux if d <= 0 else -faux for d in demands] + [0]
    """Each node's potential (the root's is never read)."""
    wide = 8 * (n + 2) * faux >= 1 << 62  # every potential stays within (n + 2) * faux
    screen = np.array(pot, dtype=np.float64 if wide else np.int64)
    """The potentials in numpy: exact in int64, else floats whose pricing is checked exactly near 0."""
    parent: list[int | None] = [root] * n + [None]
    parent_arc: list[int | None] = [count + v for v in range(n)] + [None]
    size = [1] * n + [n + 1]
    after = [*range(1, n), root, 0]
    """The thread: each node's next in a depth-first walk of the tree, and back."""
    before = [root, *range(n - 1), n - 1]
    last = [*range(n), n - 1]
    """Each node's last descendant in the thread."""

    def apex(p: int, q: int) -> int:
        while p != q:
            if size[p] < size[q]:
                p = parent[p]  # type: ignore[assignment]
            elif size[p] > size[q]:
                q = parent[q]  # type: ignore[assignment]
            else:
                p, q = parent[p], parent[q]  # type: ignore[assignment]
        return p

    def path(p: int, top: int) -> tuple[list[int], list[int]]:
        nodes, through = [p], []
        while p != top:
            through.append(parent_arc[p])
            p = parent[p]  # type: ignore[assignment]
            nodes.append(p)
        return nodes, through  # type: ignore[return-value]

    def residual(i: int, p: int) -> int:
        return capacity[i] - flow[i] if source[i] == p else flow[i]

    def cut(s: int, t: int) -> None:  # the tree arc from s down to t
        moved, prev_t, last_t = size[t], before[t], last[t]
        next_last = after[last_t]
        parent[t] = parent_arc[t] = None
        after[prev_t], before[next_last] = next_last, prev_t
        after[last_t], before[t] = t, last_t
        up: int | None = s
        while up is not None:
            size[up] -= moved
            if last[up] == last_t:
                last[up] = prev_t
            up = parent[up]

    def reroot(q: int) -> None:  # q becomes the root of its subtree, the arcs above it turned round
        ancestors: list[int] = []
        up: int | None = q
        while up is not None:
            ancestors.append(up)
            up = parent[up]
        ancestors.reverse()
        for p, q in pairwise(ancestors):
            size_p, last_p = size[p], last[p]
            prev_q, last_q = before[q], last[q]
            next_last = after[last_q]
            parent[p], parent[q] = q, None
            parent_arc[p], parent_arc[q] = parent_arc[q], None
            size[p], size[q] = size_p - size[q], size_p
            after[prev_q], before[next_last] = next_last, prev_q
            after[last_q], before[q] = q, last_q
            if last_p == last_q:
                last[p] = last_p = prev_q
            before[p], after[last_q] = last_q, p
            after[last_p], before[q] = q, last_p
            last[q] = last_p

    def graft(i: int, p: int, q: int) -> None:  # the subtree rooted at q hangs from p by arc i
        last_p = last[p]
        next_last, moved, last_q = after[last_p], size[q], last[q]
        parent[q], parent_arc[q] = p, i
        after[last_p], before[q] = q, last_p
        before[next_last], after[last_q] = last_q, next_last
        up: int | None = p
        while up is not None:
            size[up] += moved
            if last[up] == last_p:
                last[up] = last_q
            up = parent[up]

    def shift(i: int, p: int, q: int) -> None:  # the potentials of q's subtree, so that arc i is tight
        d = pot[p] - weight[i] - pot[q] if q == target[i] else pot[p] + weight[i] - pot[q]
        nodes = [q]
        while q != last[nodes[0]]:
            q = after[q]
            nodes.append(q)
        for v in nodes:
            pot[v] += d
        screen[nodes] = [pot[v] for v in nodes]

    if count:
        tails = np.array(source[:count], dtype=np.int64)
        heads = np.array(target[:count], dtype=np.int64)
        cost = np.array(weight[:count], dtype=np.float64 if wide else np.int64)
        idle = np.ones(count, dtype=bool)
        """Whether each arc carries no flow."""
        block = isqrt(count - 1) + 1  # ceil(sqrt(count))
        blocks = (count + block - 1) // block
        ahead = np.arange(blocks * block, dtype=np.int64)
        start = [0]
        """Where the next block starts."""
        top_cost = max(map(abs, weight[:count]))

        def exact(i: int) -> int:
            reduced = weight[i] - pot[source[i]] + pot[target[i]]
            return reduced if flow[i] == 0 else -reduced

        def entering() -> int | None:  # the next few blocks first: pricing them all is wasted where one of them has it
            slack = (top_cost + 2 * float(np.abs(screen).max())) * 2.0 ** -50 if wide else 0
            """Beyond the floats' rounding (three roundings of numbers at most that large: a few in 2**53)."""
            for lo, hi in ((0, min(_FIRST, blocks)), (min(_FIRST, blocks), blocks)):
                at = (start[0] + ahead[lo * block:hi * block]) % count
                reduced = cost[at] - screen[tails[at]] + screen[heads[at]]
                priced = np.where(idle[at], reduced, -reduced).reshape(hi - lo, block)
                least = priced.min(axis=1)
                for b in np.flatnonzero(least <= slack if wide else least < 0).tolist():
                    row = at[b * block:(b + 1) * block]
                    found = int(row[int(np.argmin(priced[b]))])
                    if wide:  # the arcs that may be below 0, exactly; the others are above it
                        maybe = row[priced[b] <= slack].tolist()
                        values = [exact(i) for i in maybe]
                        if min(values) >= 0:
                            continue
                        found = int(maybe[values.index(min(values))])
                    start[0] = (start[0] + (lo + b + 1) * block) % count
                    return found
            return None

        while (i := entering()) is not None:
            p, q = (source[i], target[i]) if flow[i] == 0 else (target[i], source[i])
            top = apex(p, q)
            nodes, through = path(p, top)
            nodes.reverse()
            through.reverse()
            through.append(i)  # never a tree arc: those price 0
            down_nodes, down = path(q, top)
            nodes += down_nodes[:-1]
            through += down
            j, s = min(zip(reversed(through), reversed(nodes)), key=lambda arc: residual(*arc))
            t = target[j] if source[j] == s else source[j]
            amount = residual(j, s)
            for k, v in zip(through, nodes):
                flow[k] += amount if source[k] == v else -amount
                if k < count:
                    idle[k] = flow[k] == 0
            if i != j:
                if parent[t] != s:
                    s, t = t, s
                if through.index(i) > through.index(j):
                    p, q = q, p
                cut(s, t)
                reroot(q)
                graft(i, p, q)
                shift(i, p, q)
    if any(flow[count:]):
        raise NoFlow("no flow meets every demand")
    if any(2 * x >= faux for x in flow[:count]):
        raise NoFlow("a cycle of negative cost without a capacity bound")
    out = [0] * len(arcs)
    for k, x in zip(kept, flow):
        out[k] = int(x)
    return out
