"""The network simplex of :mod:`sheetswiss.pairing.simplex` against networkx's on random networks."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sheetswiss.pairing.simplex import cheapest_flow

_ARC = st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(-4, 20), st.sampled_from([None, 0, 1, 2, 3, 5]))


@st.composite
def _networks(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int, int, int | None]]]:
    """Up to 8 nodes, whose demands add up to 0, and up to 30 arcs (parallel ones, ones that hold nothing, some of
    negative cost)."""
    n = draw(st.integers(1, 8))
    demand = [0] * n
    for a, b, k in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 5)),
                                 max_size=6)):
        demand[a] -= k
        demand[b] += k
    arcs = [(t % n, h % n, c, u) for t, h, c, u in draw(st.lists(_ARC, max_size=30)) if t % n != h % n]
    return demand, arcs


@given(_networks(), st.sampled_from([1, 2**62]))
@settings(max_examples=400, deadline=None)
def test_the_cheapest_flow_is_networkx_s(network: tuple[list[int], list[tuple[int, int, int, int | None]]],
                                         scale: int) -> None:
    """Whatever the network, :func:`cheapest_flow` meets every demand within every arc's limit at networkx's
    least cost, or says no flow exists where networkx does. Costs scaled by 2**62 (plus a unit or two, so that
    the last units count) go beyond 64-bit potentials: floats choose the entering arcs there, and each choice
    and the optimum are checked in integers."""
    demand, arcs = network
    arcs = [(t, h, c * scale + (t + h) % 3, u) for t, h, c, u in arcs]
    graph = nx.MultiDiGraph()
    graph.add_nodes_from((v, {"demand": d}) for v, d in enumerate(demand))
    for t, h, c, u in arcs:
        graph.add_edge(t, h, weight=c, **({} if u is None else {"capacity": u}))
    try:
        best, _ = nx.network_simplex(graph)
    except nx.NetworkXUnbounded:
        assume(False)  # a cycle of negative cost and no limit: no cheapest flow, outside the function's promise
    except nx.NetworkXUnfeasible:
        with pytest.raises(ValueError, match="no flow meets the demands"):
            cheapest_flow(demand, *_columns(arcs))
        return
    flow = cheapest_flow(demand, *_columns(arcs))
    net = [0] * len(demand)
    for (t, h, _, u), f in zip(arcs, flow):
        assert f >= 0 and (u is None or f <= u)
        net[t] -= f
        net[h] += f
    assert net == demand
    assert sum(f * c for (_, _, c, _), f in zip(arcs, flow)) == best


def _columns(arcs: list[tuple[int, int, int, int | None]]
             ) -> tuple[list[int], list[int], list[int], list[int | None]]:
    return [t for t, _, _, _ in arcs], [h for _, h, _, _ in arcs], [c for _, _, c, _ in arcs], [u for *_, u in arcs]
