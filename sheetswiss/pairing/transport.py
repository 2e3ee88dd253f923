"""Duals of the cheapest fractional pairing of blocks of interchangeable players.

Under ``sides: single`` (RULES.md 3) the top of a pair's cost, score and side cost, depends only on the two
players' score groups and side biases. Grouping the players into *blocks* of equal (group, bias), the pairing's
top level is a fractional b-matching of blocks: ``x_AB >= 0`` pairs between blocks A and B, each block's pairs
adding up to its players (a pair inside a block counts twice), at least cost ``sum C_AB x_AB``. Its linear
programme's dual gives each block a value ``y_A`` with ``y_A + y_B <= C_AB`` for every two blocks (A = B
included, where a block has two players), and the dual's optimum is the primal's.

That dual comes from a transport problem, the bipartite double cover: every block is a source of its players
and a sink of as many, any source ships to any sink at ``C_AB``. Its optimal flow (networkx's network simplex,
exact in integers) and the potentials of its residual graph give ``u_A + v_B <= C_AB``, with equality wherever
the flow runs; ``y_A = (u_A + v_A) / 2`` keeps every block pair's constraint (the mean of ``u_A + v_B <= C_AB``
and ``u_B + v_A <= C_BA``) and sums, over the players, to half the transport's cost: the fractional optimum.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

__all__ = ["block_duals"]


def block_duals(counts: Sequence[int], costs: np.ndarray) -> tuple[list[int], np.ndarray]:
    """``s_A = u_A + v_A`` (twice ``y_A``) for each block, and the whole pairs between every two blocks in the
    cheapest fractional pairing (half the two directions' flow, rounded down; inside a block half its flow to
    itself), from the blocks' player ``counts`` and the symmetric integer cost matrix ``costs`` (a negative
    cost where two blocks may not meet). The duals are integers, ``s_A + s_B <= 2 * costs[A, B]`` for every
    two blocks that may meet (A = B where it holds two players or more), and ``sum(counts[A] * s_A)`` is
    twice the fractional optimum. Raises :class:`networkx.NetworkXUnfeasible` where no fractional pairing
    exists (the solver's blocks may all meet, so it always has one).

    >>> duals, pairs = block_duals([2, 2], np.array([[8, 0], [0, 8]]))
    >>> duals, pairs.tolist()
    ([0, 0], [[0, 2], [2, 0]])
    >>> duals, pairs = block_duals([2, 1, 1], np.array([[10, 3, 5], [3, -1, 7], [5, 7, -1]]))
    >>> duals, pairs.tolist()
    ([5, 1, 5], [[0, 1, 1], [1, 0, 0], [1, 0, 0]])
    >>> duals, pairs = block_duals([4], np.array([[6]]))
    >>> duals, pairs.tolist()
    ([6], [[2]])
    """
    k = len(counts)
    allowed = costs >= 0
    for a in range(k):
        if counts[a] < 2:
            allowed[a, a] = False
    graph = nx.DiGraph()
    for a in range(k):
        graph.add_node(a, demand=-int(counts[a]))
        graph.add_node(k + a, demand=int(counts[a]))
    for a, b in zip(*np.nonzero(allowed)):
        graph.add_edge(int(a), k + int(b), weight=int(costs[a, b]))
    _, flow = nx.network_simplex(graph)
    shipped = np.zeros((k, k), dtype=np.int64)
    for a in range(k):
        for b, amount in flow[a].items():
            shipped[a, b - k] = amount
    used = shipped > 0
    # Potentials of the residual graph: the shortest distances from a virtual node joined to every node at 0.
    # Forward arcs (source a to sink b, cost C_ab) always; backward arcs (b to a, cost -C_ab) where flow runs.
    # An optimal flow leaves no negative cycle, so the relaxation settles within 2k sweeps.
    big = np.iinfo(np.int64).max // 4
    forward = np.where(allowed, costs, big).astype(np.int64)
    backward = np.where(used, -costs, big).astype(np.int64)
    source = np.zeros(k, dtype=np.int64)
    sink = np.zeros(k, dtype=np.int64)
    for _ in range(2 * k + 1):
        new_sink = np.minimum(sink, (source[:, None] + forward).min(axis=0))
        new_source = np.minimum(source, (new_sink[None, :] + backward).min(axis=1))
        if np.array_equal(new_sink, sink) and np.array_equal(new_source, source):
            break
        source, sink = new_source, new_sink
    # u_a = -source[a], v_b = sink[b]: u_a + v_b = sink[b] - source[a] <= C_ab.
    out: list[int] = (sink - source).tolist()
    pairs = shipped + shipped.T
    np.fill_diagonal(pairs, np.diag(shipped))
    return out, pairs // 2
