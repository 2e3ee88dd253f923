"""The network simplex of the blocks' transports: the very flow networkx's ``network_simplex`` returns."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetswiss.pairing.simplex import NoFlow, cheapest_flow


@st.composite
def networks(draw: st.DrawFn) -> nx.DiGraph:
    """A network of up to 24 nodes in an order of their own, with parallel arcs (a multigraph) or not, loops,
    arcs of capacity 0 and arcs without one, demands that add up to 0, costs from 0 up to ``top`` (beyond 64 bits
    for the largest). In about half of them every supply has an arc without a capacity to every demand, so that
    a flow exists (``graph.graph["feasible"]``)."""
    n = draw(st.integers(2, 24))
    top = draw(st.sampled_from([4, 30, 10**6, 10**25]))
    graph: nx.DiGraph = nx.MultiDiGraph() if draw(st.booleans()) else nx.DiGraph()
    demand = [0] * n
    for _ in range(draw(st.integers(0, n))):
        a, b, amount = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(1, 6))
        demand[a] -= amount
        demand[b] += amount
    for v in draw(st.permutations(range(n))):
        graph.add_node(v, demand=demand[v])
    for _ in range(draw(st.integers(0, 6 * n))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        attributes = {"weight": draw(st.integers(0, top))}
        if draw(st.booleans()):
            attributes["capacity"] = draw(st.integers(0, 8))
        graph.add_edge(a, b, **attributes)
    graph.graph["feasible"] = draw(st.booleans())
    if graph.graph["feasible"]:
        for a in range(n):
            for b in range(n):
                if demand[a] < 0 < demand[b]:
                    key = graph.add_edge(a, b, weight=draw(st.integers(0, top)))
                    (graph.edges[a, b, key] if graph.is_multigraph() else graph.edges[a, b]).pop("capacity", None)
    return graph


def _flows(graph: nx.DiGraph) -> tuple[list[tuple[int, ...]], list[int], list[tuple[int, int, int, int | None]]]:
    """The network's arcs as networkx lists them, and its demands and arcs in the simplex's terms."""
    index = {v: k for k, v in enumerate(graph)}
    listed = list(graph.edges(keys=True, data=True) if graph.is_multigraph() else graph.edges(data=True))
    arcs = [(index[e[0]], index[e[1]], e[-1]["weight"], e[-1].get("capacity")) for e in listed]
    return [e[:-1] for e in listed], [graph.nodes[v]["demand"] for v in graph], arcs


@settings(max_examples=400, deadline=None)
@given(networks())
def test_the_flow_is_networkx_s_own(graph: nx.DiGraph) -> None:
    """For the same nodes and arcs in the same order, the same flow on every arc as networkx's network simplex
    (not only one as cheap: the blocks' start follows the flow), or no flow where it finds none."""
    arcs_of, demands, arcs = _flows(graph)
    try:
        _, expected = nx.network_simplex(graph)
    except nx.NetworkXUnfeasible:
        assert not graph.graph["feasible"]
        with pytest.raises(NoFlow):
            cheapest_flow(demands, arcs)
        return
    flow = cheapest_flow(demands, arcs)
    by_arc = [expected[e[0]][e[1]][e[2]] if graph.is_multigraph() else expected[e[0]][e[1]] for e in arcs_of]
    assert flow == by_arc


def test_a_cycle_of_negative_cost_without_a_bound_has_no_cheapest_flow() -> None:
    """Where a cycle of negative cost has no capacity, no flow is cheapest: :class:`NoFlow`, as networkx finds it
    unbounded."""
    arcs: list[tuple[int, int, int, int | None]] = [(0, 1, -3, None), (1, 0, 1, None)]
    graph = nx.DiGraph()
    graph.add_nodes_from([(0, {"demand": 0}), (1, {"demand": 0})])
    graph.add_weighted_edges_from([(0, 1, -3), (1, 0, 1)])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.network_simplex(graph)
    with pytest.raises(NoFlow):
        cheapest_flow([0, 0], arcs)
    with pytest.raises(NoFlow):
        cheapest_flow([1, 0], [])  # demands that do not add up to 0
