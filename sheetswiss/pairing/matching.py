"""Minimum-cost perfect matching on a plain graph (RULES.md 2.1).

The pairing builds a graph whose nodes are players (and a bye node) and whose edges carry one
non-negative integer cost each; this module finds the perfect matching of least total cost.
:func:`min_cost_perfect_matching` (networkx) is the reference the tests compare against;
:func:`min_cost_perfect_matching_fast` gives the same minimum with rustworkx, about 30 times faster,
whenever the weights fit its 128-bit integers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import networkx as nx
import rustworkx as rx

__all__ = ["min_cost_perfect_matching", "min_cost_perfect_matching_fast"]

N = TypeVar("N", bound=Hashable)

_RX_LIMIT = 1 << 100
"""rustworkx keeps weights and twice the duals in i128; below 2**100 nothing can overflow."""


def min_cost_perfect_matching(
    nodes: Sequence[N], costs: Mapping[tuple[N, N], int]
) -> list[tuple[N, N]] | None:
    """The perfect matching of least total cost, or ``None`` when no perfect matching exists.

    networkx's blossom algorithm maximises weight; with weight ``BIG - cost`` (BIG above every cost)
    and ``maxcardinality=True`` the maximum-weight matching among the largest ones is the cheapest
    perfect matching whenever one exists. Integer weights keep the computation exact (networkx uses
    only integer arithmetic then), and the graph is built in the order given, so the result is
    deterministic. Takes time O(n^3).

    >>> min_cost_perfect_matching("abcd", {("a", "b"): 5, ("c", "d"): 5, ("a", "c"): 1, ("b", "d"): 1})
    [('a', 'c'), ('b', 'd')]
    >>> min_cost_perfect_matching("abcd", {("a", "b"): 1, ("a", "c"): 1}) is None
    True
    """
    if not nodes:
        return []
    big = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (u, v), cost in costs.items():
        graph.add_edge(u, v, weight=big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return _ordered(nodes, matching)


def min_cost_perfect_matching_fast(
    nodes: Sequence[N], costs: Mapping[tuple[N, N], int]
) -> list[tuple[N, N]] | None:
    """:func:`min_cost_perfect_matching` with rustworkx's blossom algorithm (the same algorithm in Rust).

    Exact while the weights stay below 2**100 (rustworkx computes in 128-bit integers); larger weights
    go to networkx, which uses Python integers.

    >>> min_cost_perfect_matching_fast("abcd", {("a", "b"): 5, ("c", "d"): 5, ("a", "c"): 1, ("b", "d"): 1})
    [('a', 'c'), ('b', 'd')]
    """
    if not nodes:
        return []
    big = max(costs.values(), default=0) + 1
    if big >= _RX_LIMIT:
        return min_cost_perfect_matching(nodes, costs)
    position = {node: i for i, node in enumerate(nodes)}
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(nodes)))
    graph.add_edges_from([(position[u], position[v], big - cost) for (u, v), cost in costs.items()])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return _ordered(nodes, [(nodes[u], nodes[v]) for u, v in found])


def _ordered(nodes: Sequence[N], matching: object) -> list[tuple[N, N]] | None:
    pairs_in = list(matching)  # type: ignore[call-overload]
    if 2 * len(pairs_in) != len(nodes):
        return None
    position = {node: i for i, node in enumerate(nodes)}
    pairs = [(u, v) if position[u] < position[v] else (v, u) for u, v in pairs_in]
    return sorted(pairs, key=lambda pair: position[pair[0]])
