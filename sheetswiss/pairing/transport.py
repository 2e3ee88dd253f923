"""Duals of the cheapest fractional pairing of blocks of players, down to who floats.

Under ``sides: single`` (RULES.md 3) the top of a pair's cost, score, side cost and float height, depends only on
the two players' score groups and side biases. Grouping the players into *blocks* of equal (group, bias), the
pairing's top levels are a fractional b-matching of blocks: ``x_AB >= 0`` pairs between blocks A and B, each
block's pairs adding up to its players (a pair inside a block counts twice), at least cost ``sum C_AB x_AB``. Its
linear programme's dual gives each block a value ``y_A`` with ``y_A + y_B <= C_AB`` for every two blocks (A = B
included, where a block has two players), and the dual's optimum is the primal's. Under ``colours: alternate`` the
colour levels of a pair inside a score group likewise depend only on the two players' colour kinds, whose
fractional pairing's duals :func:`pairing_duals` gives the same way.

That dual comes from a transport problem, the bipartite double cover: every block is a source of its players
and a sink of as many, any source ships to any sink at ``C_AB``. Its optimal flow (the network simplex of
:mod:`.simplex`, exact in integers) and the potentials of its residual graph give ``u_A + v_B <= C_AB``, with
equality wherever the flow runs; ``y_A = (u_A + v_A) / 2`` keeps every block pair's constraint (the mean of
``u_A + v_B <= C_AB`` and ``u_B + v_A <= C_BA``) and sums, over the players, to half the transport's cost: the
fractional optimum.

The next levels, float balance and who floats (RULES.md 2.5), are each player's own: a player who floats up (meets
a lower-ranked group) pays its up cost, one who floats down its down cost, one who stays in its group nothing.
Among the pairings cheapest at the top levels (the flows that use only block pairs where ``u_A + v_B = C_AB``:
complementary slackness), the cheapest at these is a second transport on the same double cover, each block's
players now split by *role* (up, down, stay), each role's k-th player costing the k-th cheapest of its players'
costs (a convex cost, so cheapest first). Its residual graph's potentials give every role of every block a label
on each side of the cover, and a player's dual the cheaper of its roles on each side: feasible for every pair of
players whose blocks' pair is tight above, and tight along the flow (:class:`BlockDuals`). A player never takes
two roles at once as long as its up cost falls as its down cost rises (the float balance of RULES.md 2.5 prices
one as a constant less the other): the cheapest up-floaters and down-floaters of a block are then different
players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

import numpy as np

from .simplex import NoFlow, cheapest_flow

__all__ = ["DOWN", "STAY", "UP", "BlockDuals", "block_duals", "pairing_duals"]

_ROOM = 16
"""Players of a block's role that get their own arc in the roles' transport beyond half again as many as the
top levels' flow sends that way (:func:`_roles`); where a role takes more than that, the block's room grows and the
transport is solved again (:func:`block_duals`)."""

UP, DOWN, STAY = range(3)
"""A player's role in its pair: it floats up (meets a higher group), floats down, or stays in its group."""
_Labels = tuple[int | None, ...]
"""A block's labels of its three roles on one side of the cover; ``None`` for a role no tight block pair joins."""


@final
@dataclass(frozen=True)
class BlockDuals:
    """The duals of the cheapest fractional pairing of blocks (:func:`block_duals`).

    ``s[A]`` is twice block A's dual at the top levels (in the units of the block costs). ``pairs[A, B]`` are the
    whole pairs between blocks A and B in the role levels' cheapest flow (half its two directions' flow, rounded
    down; inside a block half its flow to itself). ``source[A][r]`` and ``sink[A][r]`` label role r of block A on
    each side of the double cover (``None`` where no tight block pair joins it: no player of the block takes
    it), so that a player's dual at the role levels, doubled, is :meth:`potential`."""

    s: list[int]
    pairs: np.ndarray
    source: list[_Labels]
    sink: list[_Labels]

    def potential(self, block: int, up: int, down: int) -> int:
        """Twice the role-level dual of a player of ``block`` whose up and down costs are ``up`` and ``down``:
        on each side of the cover the cheapest of its roles, its cost plus that role's label."""
        costs = (up, down, 0)
        one, two = self.source[block], self.sink[block]
        return (min(w + x for w, x in zip(costs, one) if x is not None)
                + min(w + x for w, x in zip(costs, two) if x is not None))


def block_duals(counts: Sequence[int], costs: np.ndarray, rank: Sequence[int | None],
                up: Sequence[Sequence[int]], down: Sequence[Sequence[int]]) -> BlockDuals:
    """The duals of the cheapest fractional pairing of blocks at the top levels and then at the role levels.

    ``counts`` are the blocks' players, ``costs`` the symmetric integer matrix of top-level pair costs (negative
    where two blocks may not meet), ``rank`` each block's score group (``None`` for one whose player never
    floats, the bye: its pairs stay), and ``up[A]``, ``down[A]`` the up and down costs of block A's players. In
    a pair of blocks of ranks ``r < t`` the first floats down and the second up; of equal ranks, both stay.

    The top duals are integers, ``s_A + s_B <= 2 * costs[A, B]`` for every two blocks that may meet (A = B where
    it holds two players or more), and ``sum(counts[A] * s_A)`` is twice the fractional optimum. Raises
    :class:`.simplex.NoFlow` where no fractional pairing exists (the solver's blocks may all meet, so
    it always has one).

    Two players of group 0 and two of group 1 (one block each), pairs inside a group dearer: both pairs float,
    the up-floaters' costs are 1 and 2, the down-floaters' 3 and 3, so the role duals add up to twice 9:

    >>> duals = block_duals([2, 2], np.array([[8, 0], [0, 8]]), [0, 1], [[0, 0], [1, 2]], [[3, 3], [0, 0]])
    >>> duals.s, duals.pairs.tolist()
    ([0, 0], [[0, 2], [2, 0]])
    >>> 2 * duals.potential(0, 0, 3) + duals.potential(1, 1, 0) + duals.potential(1, 2, 0)
    18
    >>> duals = block_duals([2, 1, 1], np.array([[10, 3, 5], [3, -1, 7], [5, 7, -1]]), [0, 0, 0],
    ...                     [[0, 0], [0], [0]], [[0, 0], [0], [0]])
    >>> duals.s, duals.pairs.tolist()
    ([5, 1, 5], [[0, 1, 1], [1, 0, 0], [1, 0, 0]])
    """
    k = len(counts)
    allowed = costs >= 0
    for a in range(k):
        if counts[a] < 2:
            allowed[a, a] = False
    order = np.array([-1 if r is None else r for r in rank], dtype=np.int64)
    near = (np.abs(order[:, None] - order[None, :]) <= 2) | (order[:, None] < 0) | (order[None, :] < 0)  # the bye: all
    shipped, source, sink = _top_flow(counts, costs, allowed, allowed & near)
    tight = [(a, b) for a, b in zip(*(x.tolist() for x in np.nonzero(allowed))) if source[a] + sink[b] == costs[a, b]]
    below = (order[None, :] > order[:, None]) & (order[None, :] >= 0) & (order[:, None] >= 0)
    room = [_ROOM + int(max(x, y)) * 3 // 2 for x, y in zip(np.maximum((shipped * below.T).sum(axis=1),
                                                                       (shipped.T * below.T).sum(axis=1)),
                                                            np.maximum((shipped * below).sum(axis=1),
                                                                       (shipped.T * below).sum(axis=1)))]
    while True:
        roles, pairs, short = _roles(counts, tight, rank, up, down, room)
        if not short:
            return BlockDuals([x + y for x, y in zip(source, sink)], pairs, *roles)
        for a, taken in short.items():
            room[a] = max(2 * room[a], taken + _ROOM)


def _top_flow(counts: Sequence[int], costs: np.ndarray, allowed: np.ndarray, first: np.ndarray
              ) -> tuple[np.ndarray, list[int], list[int]]:
    """The top levels' cheapest flow on the double cover (the source-to-sink amounts) and its potentials, source
    and sink labels with ``source[A] + sink[B] <= costs[A, B]`` for every ``allowed`` block pair, equal along
    the flow. The flow is found on the block pairs of ``first`` (score groups at most two apart), then with
    those whose constraint the potentials fail, added until none does (then the flow is optimal on all of
    them: its potentials prove it), or on every allowed pair where ``first`` ships nothing feasible. At 2,000
    players with 15 side biases in a group, 25,000 arcs for the simplex became 5,300, solved once (0.11 CPU
    seconds became 0.03). Which of several cheapest flows the simplex returns changes the role levels' flow
    and so the start; groups at most two apart labelled as many blossoms over 13 states of ``sides: single``
    at 2,000 and 8,000 players as all pairs did (one apart: 2% more)."""
    k = len(counts)
    arcs = first.copy()
    while True:
        joined = list(zip(*(x.tolist() for x in np.nonzero(arcs))))
        try:
            flow, source, sink = _cover(counts, [(a, b, int(costs[a, b])) for a, b in joined])
        except NoFlow:
            if (arcs == allowed).all():
                raise
            arcs = allowed.copy()
            continue
        shipped = np.zeros((k, k), dtype=np.int64)
        for (a, b), amount in zip(joined, flow):
            shipped[a, b] = amount
        failing = allowed & ~arcs & (np.array(source, dtype=np.int64)[:, None] + np.array(sink, dtype=np.int64)[None, :]
                                     > costs)
        if not failing.any():
            return shipped, source, sink
        arcs |= failing


def _cover(counts: Sequence[int], pairs: Sequence[tuple[int, int, int]]) -> tuple[list[int], list[int], list[int]]:
    """The cheapest flow on the double cover of classes of ``counts`` players (class A a source of its players
    and a sink of as many) along ``pairs`` (source class, sink class, cost), and its potentials: the flow on each
    pair, and source and sink labels with ``source[A] + sink[B] <= cost`` on every pair, equal along the flow
    (its residual graph's, :func:`_labels`). Raises :class:`.simplex.NoFlow` where no flow ships every player."""
    k = len(counts)
    demands = [d for a in range(k) for d in (-int(counts[a]), int(counts[a]))]  # class a: source 2a, sink 2a + 1
    flow = cheapest_flow(demands, [(2 * a, 2 * b + 1, cost, None) for a, b, cost in pairs])
    residual = [(a, k + b, cost) for a, b, cost in pairs]
    residual += [(k + b, a, -cost) for (a, b, cost), amount in zip(pairs, flow) if amount > 0]
    label = _labels(2 * k, residual)
    return flow, [-x for x in label[:k]], label[k:]


def pairing_duals(counts: Sequence[int], costs: Sequence[Sequence[int]]) -> list[int]:
    """Twice the duals of the cheapest fractional pairing of classes of ``counts`` players, any two of which may
    meet at ``costs[A][B]`` (symmetric; two players of one class where it has two): ``s_A + s_B <= 2 * costs[A][B]``
    for every such pair, and ``sum(counts[A] * s_A)`` is twice the fractional optimum. As :func:`block_duals`'s top
    levels, with every pair of classes joined at once (for a few classes) and costs of any size.

    Three players who may only take White and one who may take either: two of the three must meet each other
    (dearer) and the third the fourth player:

    >>> pairing_duals([3, 1], [[10, 1], [1, 0]])
    [10, -8]
    """
    k = len(counts)
    pairs = [(a, b, int(costs[a][b])) for a in range(k) for b in range(k) if a != b or counts[a] > 1]
    _, source, sink = _cover(counts, pairs)
    return [x + y for x, y in zip(source, sink)]


def _labels(nodes: int, arcs: Sequence[tuple[int, int, int]]) -> list[int]:
    """Shortest distances from a virtual node joined to every node at 0, along ``arcs`` (tail, head, cost), by
    Bellman-Ford: the potentials of an optimal flow's residual graph, which has no negative cycle, so they
    settle within ``nodes`` sweeps. Every arc then keeps ``label[head] <= label[tail] + cost``."""
    label = [0] * nodes
    for _ in range(nodes + 1):
        changed = False
        for tail, head, cost in arcs:
            if label[tail] + cost < label[head]:
                label[head] = label[tail] + cost
                changed = True
        if not changed:
            return label
    raise ValueError("a negative cycle in an optimal flow's residual graph")


def _roles(counts: Sequence[int], tight: Sequence[tuple[int, int]], rank: Sequence[int | None],
           up: Sequence[Sequence[int]], down: Sequence[Sequence[int]], room: Sequence[int]
           ) -> tuple[tuple[list[_Labels], list[_Labels]], np.ndarray, dict[int, int]]:
    """The role levels' cheapest flow on the double cover's ``tight`` block pairs (source block, sink block), and
    the labels of each block's roles on each side (:class:`BlockDuals`).

    Nodes: each block's source and sink, and each role of each (``8 * A + side * 4 + role``, the block itself at
    ``role`` 3). A source ships each of its players to one of its roles, at that player's cost of the role (one
    arc per distinct cost, as wide as the players of that cost; staying is free); a tight block pair joins the
    source's role to the sink's at no cost; the sink's roles return the players the same way. Only a block's
    ``room`` cheapest players of a role get their own arcs, the rest one arc at the next cost: fewer arcs for
    the simplex, and a cheaper flow than the true one only where a role takes more players than that at costs of
    their own. Also returns those blocks, each with the most players such a role of it took: given that much room
    the transport is exact there. After a swisspair history at 8,000 players (side biases follow the scores), a
    block of 168 players sent 78 up where its room was 61: the start's duals priced its up-floaters up to 240 places
    short, and the searches that make up for it took two thirds of the solve."""
    k = len(counts)

    def node(block: int, side: int, role: int) -> int:
        return 8 * block + 4 * side + role

    order: dict[int, int] = {}
    """Each node's place in the simplex, in the order the nodes first come up below. The arcs go by tail in that
    order, then by head as each first came: the simplex's choice among the cheapest flows follows the order
    (:mod:`.simplex`), and the start's figures were measured on this one."""
    arcs: list[tuple[int, int, int, int | None]] = []
    demand: dict[int, int] = {}

    def arc(tail: int, head: int, weight: int, capacity: int | None = None) -> None:
        order.setdefault(tail, len(order))
        order.setdefault(head, len(order))
        arcs.append((tail, head, weight, capacity))

    lumped: dict[tuple[int, int], list[int]] = {}
    """The costs of each role whose players beyond ``room`` share one arc, cheapest first."""
    taken: set[tuple[int, int, int]] = set()
    """The roles that some tight block pair joins (block, side, role): only those get their players' arcs."""
    for a, b in tight:
        ra, rb = rank[a], rank[b]
        if ra is None or rb is None or ra == rb:
            one, two = STAY, STAY
        else:
            one, two = (DOWN, UP) if ra < rb else (UP, DOWN)
        arc(node(a, 0, one), node(b, 1, two), 0)
        taken.update(((a, 0, one), (b, 1, two)))
    for a in range(k):
        for side, amount in ((0, -int(counts[a])), (1, int(counts[a]))):
            order.setdefault(node(a, side, 3), len(order))
            demand[node(a, side, 3)] = amount
        for role, values in ((UP, up[a]), (DOWN, down[a]), (STAY, [0] * int(counts[a]))):
            width: dict[int, int] = defaultdict(int)
            ordered = sorted(values)
            for x in ordered[:room[a]]:
                width[int(x)] += 1
            if len(ordered) > room[a]:
                width[int(ordered[room[a]])] += len(ordered) - room[a]
                lumped[a, role] = ordered
            for cost, players in width.items():
                if (a, 0, role) in taken:
                    arc(node(a, 0, 3), node(a, 0, role), cost, players)
                if (a, 1, role) in taken:
                    arc(node(a, 1, role), node(a, 1, 3), cost, players)
    first: dict[tuple[int, int], int] = {}
    for tail, head, _, _ in arcs:
        first.setdefault((tail, head), len(first))
    arcs.sort(key=lambda x: (order[x[0]], first[x[0], x[1]]))  # stable: parallel arcs as they came
    flow = cheapest_flow([demand.get(v, 0) for v in order],
                         [(order[tail], order[head], weight, capacity) for tail, head, weight, capacity in arcs])
    cheapest: dict[tuple[int, int], int] = {}
    """The residual graph: between two nodes, the cheapest arc with room left, and the way back along the
    dearest arc with flow (parallel arcs of one player role are used cheapest first)."""
    pairs = np.zeros((k, k), dtype=np.int64)
    took: dict[tuple[int, int, int], int] = defaultdict(int)
    """The players that each role of each block takes on each side (block, side, role)."""
    for (tail, head, weight, capacity), amount in zip(arcs, flow):
        for there, back, cost in ((tail, head, weight), (head, tail, -weight)):
            if (amount > 0 if back == tail else capacity is None or amount < capacity):
                cheapest[there, back] = min(cost, cheapest.get((there, back), cost))
        if tail % 4 == 3:  # a source's players to one of its roles
            took[tail // 8, 0, head % 4] += amount
        elif head % 4 == 3:  # a sink's role returning its players
            took[head // 8, 1, tail % 4] += amount
        else:
            pairs[tail // 8, head // 8] += amount
    short: dict[int, int] = {}
    for (a, _, role), amount in took.items():
        costs = lumped.get((a, role))
        if costs is not None and amount > room[a] + 1 and costs[amount - 1] != costs[room[a]]:
            short[a] = max(short.get(a, 0), amount)
    label = _labels(8 * k, [(a, b, cost) for (a, b), cost in cheapest.items()])
    source = [tuple(-label[node(a, 0, r)] if (a, 0, r) in taken else None for r in (UP, DOWN, STAY))
              for a in range(k)]
    sink = [tuple(label[node(a, 1, r)] if (a, 1, r) in taken else None for r in (UP, DOWN, STAY)) for a in range(k)]
    both = pairs + pairs.T
    np.fill_diagonal(both, np.diag(pairs))
    return (source, sink), both // 2, short
