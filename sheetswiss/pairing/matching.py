"""Minimum-cost perfect matching on a plain graph (RULES.md 2.1).

The pairing builds a graph whose nodes are players (and a bye node) and whose edges carry one
non-negative integer cost each; this module finds the perfect matching of least total cost.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import networkx as nx

__all__ = ["min_cost_perfect_matching"]

N = TypeVar("N", bound=Hashable)


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
    if 2 * len(matching) != len(nodes):
        return None
    position = {node: i for i, node in enumerate(nodes)}
    pairs = [(u, v) if position[u] < position[v] else (v, u) for u, v in matching]
    return sorted(pairs, key=lambda pair: position[pair[0]])
