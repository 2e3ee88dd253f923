"""Exact minimum-cost pairing at any size: a sparse candidate graph, a primal-dual solve, and a proof.

The round's cost (RULES.md 2.1) is one integer per edge of the complete graph G of players (and the bye
node). Building G costs O(n^2), so the engine works on a candidate graph G' and proves that the pairing
it finds is the minimum over all of G, by linear-programming duality:

* **Odd score groups.** For every prefix S_k of score groups (groups 0..k, the bye node below the last)
  with an odd number of nodes, every perfect matching has an edge leaving S_k. A dual ``z_k >= 0`` (the
  least cost of a single float across boundary k: score, height, balance and position of its cheapest
  ends; the height level is a sum over the boundaries a pair crosses, so each boundary's z_k carries its own) is
  subtracted from every pair crossing it: on these reduced costs ``c'`` a float costs about as little as
  a pair inside a group, so the search below stays local.
* **Candidate graph.** G' holds, inside each group, every player's partners near its ideal position
  (``slide``: p + h and p - h; ``fold``: size - 1 - p) and the nearest clean ones beyond (no rematch, no
  shared club); across adjacent groups each upper player with the best floats; small groups whole;
  bye candidates from the bottom; and any player still left with few partners (late in an event, a lone
  player at the bottom who has met everyone near) its nearest allowed ones in the ranking.
* **Primal-dual solve.** G' is solved exactly for ``c'`` by Edmonds' blossom algorithm (:mod:`.blossom`),
  started from closed-form duals: the allowed ideal pairs matched under a "staircase" of potentials,
  lower for the upper half of a group and stepping down group by group, so that floats and pattern
  changes between ideal pairs are never cheaper than the pairs themselves. Only players without an
  allowed ideal partner start free, and each search grows from one of them in Dijkstra's order, so it
  explores the region its augmenting path changes (say a group whose slide shifts because a player
  floated), not the field. The result: potentials ``D`` (twice the vertex duals) and blossoms with
  ``z_B >= 0`` such that ``D_u + D_v - Z_uv <= 2 c'_uv`` on G' (Z_uv: the z of the blossoms holding
  both), with equality on the matching.
* **Certificate.** Every perfect matching ``M*`` of G crosses each odd boundary at least once and holds
  at most floor(|B| / 2) pairs inside a blossom B, so once every allowed pair of G satisfies the
  inequality above, ``cost(M*) >= LB = (sum D - sum z_B floor(|B| / 2)) / 2 + sum z_k`` (weak duality).
  The engine checks all O(n^2) pairs with numpy, block by block (:meth:`Solver._scan`): pairs inside a
  group against their pattern and draw levels, pairs between groups against their float's score, height,
  balance and position (the per-player terms folded into the potentials, so a block whose largest
  potentials stay below its fixed part is cleared at once), with the blossoms' Z, and the bye by a lower
  bound of its cost; only pairs that may fail are checked one by one with their exact cost.
* **Widening.** Pairs that fail join G' and G' is solved again, carrying on from the last solve; this repeats
  until no pair fails (ties at the pattern level, which the seeded draws break inside a shifted group,
  typically take one to three rounds). A search that finds no augmenting path gets its players'
  complete rows; if they have them all, its inner players are a Tutte barrier and G has no perfect
  matching. After a check that listed every failing pair, those pairs are in G' and every other pair held, so
  the next check looks only at the pairs with an end whose potential or blossoms with z > 0 changed since
  (:class:`_Checked`), while fewer than half the nodes did.
* **Tightness.** The solve is optimal for ``c'``, and ``cost(M) = c'(M) + sum z_k * (crossings of
  boundary k)``, so ``LB`` equals the cost exactly when M crosses each odd boundary once. A pairing
  optimal for ``c'`` may cross one three times (each extra crossing is discounted by z_k, which holds
  balance and position costs too); those boundaries then get ``z_k = 0`` (every crossing costs in full)
  and the solve carries on from there (the crossing pairs only cost more, so every dual stays feasible),
  at most once per odd boundary.

The pairing is proven optimal when ``LB`` equals its cost: :class:`Proof` says so, or gives the gap. If
the widening does not settle within ``_ROUNDS`` rounds, fields up to ``_COMPLETE`` nodes are solved on
the complete graph (exact by construction); larger ones report the gap that the duals prove once each
failing pair is repaired by lowering one end's potential.

Events with two edges per pair (``colours: alternate``, RULES.md 2.10; ``sides: single``, 3) go the same
way: a pair's cost is the cheaper of its two assignments, at least its pattern and draw inside a group and its
float levels between groups, so the certificate holds as it stands, and the candidate graph takes each
player's nearest partners without a colour or side cost as its clean ones. Under ``colours: alternate`` the
two classes of a group (due White or Black) meet in order: between two sorted rows of players the cheapest
matching by a convex cost of distance keeps their order, so the candidate graph also holds each player's
partners of nearby rank in the other class (:meth:`Solver._colour_ranks`).
Under ``colours: alternate`` with ``slide`` or ``fold`` each large group starts from its ring
(:meth:`Solver._colour_ring`): the pattern cost is a distance on a circle (:func:`_circle`), so the group's two
colour classes meet by a circular transport whose cheapest assignment and potentials have a closed form; G' holds
its pairs and, where many pairs tie with them at the pattern level, each player's partners of lowest draw.
Under ``sides: single`` the side cost sits at the score level, and pairs of equal bias cost more than a
float: floats are everywhere, so there are no boundary duals. Every field size goes through the sparse engine:

* **Start.** A pair's score, side and float height depend only on its two (group, bias) blocks, so those levels
  of the cheapest pairing are a fractional matching of blocks: a transport problem of a few dozen blocks
  (:mod:`.transport`), whose duals are exact at those levels. Float balance and who floats, the next levels, are
  each player's own cost of its role (floating up, floating down or staying in its group): among the blocks'
  flows cheapest above, a second transport over the roles finds the cheapest, and its duals give each player
  its own (:meth:`Solver._blocks`, :meth:`Solver._block_start`). The Hungarian method's reductions add the
  pattern and the draw, and the tight pairs start matched; the stayers of a large group first get their own exact
  pairing among the pairs tight above (:meth:`Solver._ring_solve`: the pattern ties along the ring, and the
  seeded draws make a random assignment of it). The searches then start from the free players in an
  order spread over the field (by place in their score group, the groups in turn, :attr:`Matcher.order`), not top
  down: a search from the top of a chain of floats walks it to the bottom, while spread-out searches meet free
  players nearer by.
* **Candidate graph.** G' holds the floats that the flow sends from block to block (:meth:`Solver._side_flows`)
  and, in each group, its stayers paired by their ring as under ``colours: alternate``
  (:meth:`Solver._side_ring`).
* **Certificate.** Potentials are about twice the score multiplier times a dual per (group, bias) block, and
  two blocks' duals differ by far more than 64 bits hold. The check goes block by block of (group, bias)
  (:meth:`Solver._check_side_group`, :meth:`Solver._check_side_across`): each block pair's fixed part holds
  the least side cost of its two biases (:meth:`Solver._side_floor`; a played assignment is gone or costs the
  same), and :meth:`Solver._scan` takes the potentials relative to each block's largest (a common offset does
  not change ``a + b - fixed``), so the numbers stay in the two-integer split and no pair goes one by one.
  Nothing else changes: the bound is the same weak duality, each pair still covered by an exact check or a
  proven lower bound.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import numpy as np

from .blossom import SPLIT, Matcher, Nesting, Saved
from .costs import DRAWS, Costs, best_colours, pair_draw
from .levels import BALANCE, COLOUR_HARD, COLOUR_PREF, HEIGHT, LEVELS, PATTERN, SCORE, WHO_FLOATS
from .state import RoundState
from .transport import block_duals, pairing_duals

if TYPE_CHECKING:
    from ..model import Event

__all__ = ["Proof", "Solver", "compressed", "solve_round"]

_WINDOW = 3
"""Within a group, G' holds pairs whose pattern cost is at most this (and the nearest clean ones beyond)."""
_TOP = 3
"""Across adjacent groups, G' holds each upper player with this many of the lower group's best."""
_LEADERS = 2
"""Across adjacent groups without colours or sides, G' holds each upper player with this many of each float
balance class of the lower group (the first ones): fewer edges than ``_TOP`` (a sides: double round has
many balance classes), more than one, which left a late round's first solve short of floats."""
_SMALL = 12
"""Groups this small get every pair with groups up to two away."""
_ROUNDS = 20
"""Widening rounds before the fallback."""
_LARGE = 2000
"""From this many nodes a widening is said as it happens: a round takes long enough for a person to wait."""
_MAX_VIOLATIONS = 100_000
"""The check stops listing violated pairs after this many. A widening adds every pair listed and then solves
again, so this stays above what a large field's first check finds (about 20,000 pairs under ``colours:
alternate`` at 8,000 players): a lower cap would spend one whole solve per cap's worth of pairs."""
_COMPLETE = 600
"""Up to this many nodes the fallback solves the complete graph (rustworkx), so it is exact."""
_WIDE = 1 << 60 + SPLIT
"""Potentials below this in size are checked with numpy, split in two 64-bit integers."""
_LOW = (1 << SPLIT) - 1
_HIGH = 24
"""Inside a group the check pairs this many players of the highest potentials with everyone."""
_REFINE = 4
"""Rounds in which a ring's surplus players of its more frequent colour are chosen again (:meth:`_colour_ring`)."""
_SURPLUS = 5
"""The rings start the solve only while fewer than one ring pair in this many meets two players due the same
colour (:meth:`_colour_rings`)."""
_TIGHT_SPAN = 96
"""Places along a ring within which G' looks for pairs that tie the ring's pattern level (:meth:`_ring_draws`)."""
_LOWEST = 4
"""Of those, G' takes each player's this many of lowest draw."""
_WILD = 4
"""A ring of stayers more than a ``1 / _WILD`` share of whose players are wild starts at the pattern's own
potentials (:meth:`Solver._side_ring`, :meth:`Solver._ring_potentials`)."""
_CAMP_BLOCKS = 12
"""Under ``sides: single``, where the roles' flow pairs a group's blocks round an odd cycle, their camps are the split
that leaves the fewest of its pairs inside a camp, tried every way for up to this many blocks
(:meth:`Solver._side_camps`); more keep their signs' camps."""
_CAMP_SHARE = 64
"""And only where that split leaves at most this share of the flow's pairs inside a camp (one in this many): after a
history with Player A by a coin, where side biases spread to +-9, the flow joins a group's blocks in many odd cycles
of a few pairs each, and the rings are wild (:meth:`Solver._wild`); the camps by such splits (one in 16 inside) took a
tenth longer there than by sign, so there the camps stay by sign."""
_PRESOLVE = 200
"""Under ``sides: single`` a group's stayers start from their own exact pairing (:meth:`Solver._ring_solve`) when their
ring holds at least this many pairs. At 8,000 players the largest groups' rings hold 300 to 600 pairs, and the first
solve's searches took 0.6 CPU seconds instead of 2.3; at 2,000 players, rings of 100 to 200 pairs started that way
left twice as many floaters free and took a quarter longer."""
_BACK = 4
"""Times a solve starts again from the last duals that every pair of G held (:meth:`Solver._settle`) before the
repairs take over."""
_NEAR = 1 << 14
"""Under ``sides: single``, where a check after the searches without the cap fails, the pairs of G outside G' that
hold by less than this (an eighth of the seeded draw's range in the matcher's doubled weights, RULES.md 2.11) join
G' with the failing ones (:meth:`Solver._check_near`)."""
_NEAR_MOST = 1024
"""The most such pairs a check lists (400 to 830 where they saved a try, at 8,000 players): beyond, a blossom's
worth of pairs holds that closely (after a random history at 8,000 players, 100,000 of them, listed in 0.44 CPU
seconds), too many to add, and the rest of the check looks for failing pairs only (:meth:`Solver._check`)."""
_NEAR_BATCH = 1 << 12
"""While near pairs are listed, the check prices the pairs it gathers this many at a time (else 65,536), so that a
list that fills is found before many more are priced."""
_FLOATERS = 64
"""The expected float at an odd boundary (:meth:`_floaters`) is looked for among this many of the lower group's
cheapest players to float up."""
_DRAWN = 4
"""Under ``within_group: random``, G' holds each player with this many partners of its group of lowest draw
(:meth:`Solver._lowest_draws`). Round 12 at 8,000 players: 3 or 4 took 5 CPU seconds, 8 took 9, 12 took 13; 2 left
so few that the check added pairs pass after pass (8 seconds at 2,000 players, where 4 took 0.5)."""
_SPARING = 8
"""Under ``within_group: random`` with ``colours: alternate`` or ``sides: single``, G' also holds each player with this
many partners of its group that spare the pair the most, of lowest colour levels or meeting at no side cost, then of
lowest draw (:meth:`Solver._lowest_draws`). Under colours at 8,000 players in round 12, 4 took 4.6 CPU seconds, 6 took
4.0 and 8 took 3.8 (after a history with Player A by a coin 6.3, 5.9 and 6.3)."""
_BELOW = 48
"""Under ``within_group: random`` the check keeps each large group's pairs of draw below the one that this many
partners of each player fall under on average (:meth:`Solver._check_drawn`)."""
_SHORT = 4
"""Preferences by which a group's colour rings price its colour levels below its colour kinds' fractional pairing,
from which the rings take that pairing's duals as their lifts (:meth:`Solver._class_lifts`)."""
_CHUNK = 64
"""Players of a group that :meth:`Solver._check_drawn` bounds together."""
_WHOLE = 30_000
"""Under ``sides: single`` the check scans a group whole, each pair lifted by its side floor, where its players
squared are at most this many times its side biases: every pair then costs less than one scan per bias."""
_SHORTLIST = 64
"""A ring's exchange (:meth:`Solver._ring_exchange`) is looked for first among this many of its movable sources and
as many of its movable sinks, those whose turn alone shortens the ring most."""

def _positive(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Whether ``high * 2**SPLIT + low`` is positive, for |high| < 2**63 and |low| < 2**61."""
    near = np.abs(high) < 1 << 62 - SPLIT - 1
    value = np.where(near, high, 0) << SPLIT
    out: np.ndarray = np.where(near, value + low > 0, high > 0)
    return out


class _Enough(Exception):
    """Enough violated pairs are listed."""


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
    widenings: int = 0
    """Rounds in which the candidate graph grew by pairs whose dual constraint failed."""
    method: str = ""

    def text(self) -> str:
        """One line for the command's output."""
        if self.proven:
            return (f"Optimal: no pairing of the whole field costs less (proven; {self.method}, "
                    f"{self.candidate_edges} candidate edges)")
        levels = ", ".join(str(v) for v in self.gap_levels)
        return f"Not proven optimal: at most [{levels}] above the optimum ({self.method})"


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


def _may_fail(a: Sequence[int], b: Sequence[int], fixed: int, px: np.ndarray, py: np.ndarray, same: bool,
              centre: Sequence[int] | None, slope: int) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """Blocks of pairs (x, y) of indexes into ``a`` and ``b`` that may have ``a[x] + b[y] > fixed + term``, every
    other pair being fine (see :meth:`Solver._scan`); ``px``, ``py`` the pairs' places, ``same`` for one group
    (then y > x only). Between groups (``same`` false) a pair may fail only if ``a[x] + b[y] > fixed``: the
    columns sorted by ``b`` give each row its candidates at once. Inside a group whose term is at least
    ``slope * |py[y] - centre[x]|``, the ``_HIGH`` columns of the largest ``b`` go with every row, and every
    other column y (``b[y] <= ceiling``, the largest of the rest) only with the rows x whose centre is within
    ``(a[x] + ceiling - fixed) / slope`` places of it: farther, ``a[x] + b[y] <= fixed + term``."""
    limit = 1 << 19
    if not same:
        order = sorted(range(len(b)), key=b.__getitem__, reverse=True)
        ascending = [b[y] for y in reversed(order)]
        counts = np.array([len(b) - bisect.bisect_right(ascending, fixed - value) for value in a], dtype=np.int64)
        columns = np.array(order, dtype=np.int64)
        rows = np.nonzero(counts)[0]
        ends = np.searchsorted(np.cumsum(counts[rows]), np.arange(limit, int(counts.sum()) + limit, limit),
                               side="right")
        start = 0
        for end in ends.tolist():
            chunk = rows[start:max(end, start + 1)]
            start += len(chunk)
            if not len(chunk):
                continue
            sizes = counts[chunk]
            xs = np.repeat(chunk, sizes)
            offsets = np.arange(len(xs), dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            yield xs, columns[offsets]
        return
    if centre is None or slope <= 0 or not len(b):
        step = max(1, limit // max(1, len(py)))
        for start in range(0, len(a), step):
            block = np.arange(start, min(len(a), start + step), dtype=np.int64)
            r, k = np.nonzero(py[None, :] > px[block][:, None])
            yield block[r], k
        return
    # the few largest columns with every row; every other column only within reach of a row's centre
    high = sorted(range(len(b)), key=b.__getitem__, reverse=True)[:_HIGH]
    chosen = set(high)
    ceiling = max((b[y] for y in range(len(b)) if y not in chosen), default=None)
    high_mask = np.zeros(len(b), dtype=bool)
    high_mask[high] = True
    if high:
        ys = np.array(sorted(high), dtype=np.int64)
        r, k = np.nonzero(py[ys][None, :] > px[:, None])
        if len(r):
            yield r, ys[k]
    if ceiling is None:
        return
    span = 1 << 40  # beyond every place: a cap that keeps the numbers in 64 bits
    reach = [min(span, (value + ceiling - fixed) // slope) if value + ceiling > fixed else -1 for value in a]
    places = px.tolist()
    low = np.array([max(p + 1, c - r) for p, c, r in zip(places, centre, reach)], dtype=np.int64)
    top = np.array([c + r for c, r in zip(centre, reach)], dtype=np.int64)
    first = np.searchsorted(py, low, side="left")
    last = np.searchsorted(py, top, side="right")
    counts = np.maximum(last - first, 0)
    rows = np.nonzero(counts)[0]
    if not len(rows):
        return
    sizes = counts[rows]
    xs = np.repeat(rows, sizes)
    ys = np.repeat(first[rows], sizes) + np.arange(len(xs), dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    keep = ~high_mask[ys]
    xs, ys = xs[keep], ys[keep]
    for start in range(0, len(xs), limit):
        yield xs[start:start + limit], ys[start:start + limit]


def _own_colour(due: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """Whether each player may have its due colour (1 White, 2 Black, 0 none) within the hard limits, given which
    colours it may take (RULES.md 2.10)."""
    out: np.ndarray = np.where(due == 1, white, np.where(due == 2, black, True))
    return out


def _aligned(nodes: np.ndarray, rows: Iterable[tuple[np.ndarray, np.ndarray, bool]]) -> tuple[np.ndarray, np.ndarray]:
    """For each (upper, lower, backwards) of ``rows`` (places in ``nodes``; ``lower`` read from its end when
    ``backwards``), the k-th of ``upper`` with the ``lower`` of ranks k - ``_WINDOW`` to k + ``_WINDOW``, and as
    many past the difference of their sizes: the cheapest matching of two sorted rows by a convex cost of
    distance keeps their order, so a row's natural partners lie there."""
    near = np.arange(-_WINDOW, _WINDOW + 1)
    one: list[np.ndarray] = []
    two: list[np.ndarray] = []
    for upper, lower, backwards in rows:
        if backwards:
            lower = lower[::-1]
        if not len(upper) or not len(lower):
            continue
        shift = np.unique(np.concatenate([near, near + len(lower) - len(upper)]))
        rank = np.arange(len(upper), dtype=np.int64)[:, None] + shift[None, :]
        ok = (rank >= 0) & (rank < len(lower))
        one.append(nodes[np.broadcast_to(upper[:, None], rank.shape)[ok]])
        two.append(nodes[lower[rank[ok]]])
    if not one:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(one), np.concatenate(two)


def _bands(values: Sequence[int]) -> list[list[int]]:
    """Indexes of ``values`` in bands, each spanning less than half of ``_WIDE`` and listed in index order; the
    bands in order of value (one band when all values are that close)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    if not order or values[order[-1]] - values[order[0]] < _WIDE // 2:
        return [list(range(len(values)))]
    bands: list[list[int]] = []
    start = 0
    for k in order:
        if not bands or values[k] - start >= _WIDE // 2:
            bands.append([])
            start = values[k]
        bands[-1].append(k)
    return [sorted(band) for band in bands]


def _circle(pattern: str, size: int, half: int, places: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """A score group's pattern (RULES.md 2.5; ``size`` players, ``half`` of them in its upper half) as distances on a
    circle: its length L, and where each of the players at ``places`` stands as a sink and as a source, so that
    the pattern cost of two players is the distance on the circle from one's source place to the other's sink place
    (either way round: it is the same).

    * ``slide``: L = 2 * half, a sink at p and a source at its antipode p + half: ``|q - p - half|`` for p < q.
    * ``fold``: L = 2 * (size + 1), a sink at size - 1 - p and a source at p: ``|p + q - (size - 1)|``, the
      distance on a line, which the circle keeps, as no source lies more than half of it from a sink.

    Both hold for places 0 to ``size``: the lowest player of an odd field's last group, the bye's candidate,
    stands at ``size``, one place below the players that group pairs among themselves (RULES.md 2.5).

    So the rings that start the large groups under ``colours: alternate`` and ``sides: single`` serve both
    patterns. Before ``fold`` had them, ``sides: single`` at 8,000 players took 23 to 32 CPU seconds (the checks
    found 100,000 failing pairs inside groups three times over: G' held each player's mirror place, mostly of its
    own camp), 2.7 to 3.8 with them; ``colours: alternate`` 5.0 and, with Player A by a coin, 8.2, with them 2.8
    and 4.5.

    >>> length, sink, source = _circle("fold", 4, 2, np.arange(5))
    >>> length, sink.tolist(), source.tolist()
    (10, [3, 2, 1, 0, 9], [0, 1, 2, 3, 4])
    """
    if pattern == "fold":
        length = 2 * (size + 1)
        return length, (size - 1 - places) % length, places.copy()
    length = 2 * half
    return length, places % length, (places + half) % length


def _best_split(size: int, weights: Sequence[tuple[int, int, int]], preferred: int) -> tuple[int, int]:
    """Of the ways to split items 0 to ``size`` - 1 in two, item 0 in the first part (bit i of twice the returned mask:
    whether item i is in the second), the one that leaves the least weight inside a part, of those the one with the
    fewest items placed otherwise than in the ``preferred`` mask, and that weight; ``weights`` are (i, j, w). Tried
    every way: for a few items.

    >>> _best_split(3, [(1, 0, 4), (2, 1, 2), (2, 0, 1)], 0)
    (1, 1)
    >>> _best_split(3, [(1, 0, 4), (2, 1, 2), (2, 0, 2)], 2), _best_split(3, [(1, 0, 4), (2, 1, 2), (2, 0, 2)], 1)
    ((3, 2), (1, 2))
    """
    inside = [sum(w for i, j, w in weights if (mask << 1 >> i & 1) == (mask << 1 >> j & 1))
              for mask in range(1 << (size - 1))]
    best = min(range(len(inside)), key=lambda mask: (inside[mask], (mask ^ preferred).bit_count()))
    return best, inside[best]


def _by_blossom(m: Matcher, nodes: Sequence[int]) -> list[list[int]]:
    """Indexes of ``nodes`` by the top-level blossom holding them, one list for each such blossom of ``_HIGH``
    vertices or more, then one for the rest (in index order)."""
    parts: dict[int, list[int]] = defaultdict(list)
    for k, v in enumerate(nodes):
        top = m.outermost(v)
        parts[top if m.size[top] >= _HIGH else -1].append(k)
    return list(parts.values())


def _spread(bands: list[list[int]]) -> int:
    """Indexes outside the largest of ``bands``."""
    return sum(len(band) for band in bands) - max((len(band) for band in bands), default=0)


def _product(rows: Sequence[int], cols: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of one of ``rows`` with one of ``cols``, row by row."""
    a, b = np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)
    return np.repeat(a, len(b)), np.tile(b, len(a))


def _exact_pairs(exact: Callable[[np.ndarray, np.ndarray], None], i: Sequence[int], j: Sequence[int]) -> None:
    """Check the pairs ``(i[k], j[k])`` exactly, each as (smaller, larger)."""
    a, b = np.array(i, dtype=np.int64), np.array(j, dtype=np.int64)
    exact(np.minimum(a, b), np.maximum(a, b))


@final
@dataclass(frozen=True)
class _Checked:
    """The duals at a check that listed every pair of G they violated (:meth:`Solver._check`): the potentials, the
    blossoms with z > 0 that hold each node (:meth:`Matcher.weighted`, numbered in ``ids``, which every reading of
    one solve shares) and the pairs listed. The pairs listed join G', where the solve keeps every constraint; any
    other pair held then, and holds as long as its reduced cost, both potentials and its Z stay as they were."""

    p: list[int]
    chains: list[int]
    ids: dict[tuple[int, int, int], int]
    bad: list[tuple[int, int, int]]

    @classmethod
    def of(cls, m: Matcher, bad: list[tuple[int, int, int]], ids: dict[tuple[int, int, int], int]) -> _Checked | None:
        """The state of ``m`` at a check that listed ``bad``; ``None`` when the list stopped at its cap."""
        return cls(list(m.p), m.weighted(ids), ids, bad) if len(bad) < _MAX_VIOLATIONS else None

    def changed(self, m: Matcher) -> np.ndarray | None:
        """The nodes of ``m`` whose potential changed since, those held by other blossoms with z > 0 then and now
        (the same blossom, closed once, and z), and both ends of any pair listed then that G' does not hold: every
        pair of G that can fail now, on the same reduced costs, has an end here. ``None`` where that is half the
        nodes or more: checking every pair then costs less than the two scans of each block
        (:meth:`Solver._scan_changed`; at 8,000 players 0.13 CPU seconds against 0.145 with two thirds of them
        changed, 0.13 against 0.06 to 0.1 with a tenth to a fifth)."""
        out = np.array([x != y for x, y in zip(self.p, m.p)], dtype=bool)
        out |= np.array(self.chains, dtype=np.int64) != np.array(m.weighted(self.ids), dtype=np.int64)
        for _, i, j in self.bad:
            if j not in m.adj[i]:
                out[i] = out[j] = True
        return out if 2 * int(out.sum()) < len(out) else None


@final
@dataclass
class _Clean:
    """Duals that every pair of G held, for a solve to go back to (:meth:`Solver._settle`): the start once its failing
    pairs joined G', or those of a check that found none failing while players were still free."""

    checked: _Checked | None
    """Their check (:meth:`Solver._check`)."""
    saved: Saved
    whole: bool
    """Whether that check found none failing (the start set again after its check may fail pairs added since)."""
    most: int | None = None
    """The bound of the bids that followed them (:meth:`Solver._bid_bound`)."""
    free: int = 0
    """The players those bids left free."""


class _Common:
    """Z over the blossoms that hold two blocks of players whole (a lower bound of Z_ij for each pair between
    them, :meth:`Nesting.common`), the blocks given as ``blocks[g][x]``, each one's stretch of the tour found once."""

    def __init__(self, nest: Nesting | None, blocks: Sequence[Sequence[Sequence[int]]]) -> None:
        self.nest = nest
        self.spans = [] if nest is None else [[nest.span(who) for who in row] for row in blocks]

    def __call__(self, one: tuple[int, int], two: tuple[int, int]) -> int:
        if self.nest is None:
            return 0
        (lo, hi), (low, high) = self.spans[one[0]][one[1]], self.spans[two[0]][two[1]]
        return self.nest.between(min(lo, low), max(hi, high))


class Solver:
    """One round's solve: candidate graph, start duals, primal-dual matching, certificate, widening."""

    def __init__(self, costs: Costs, progress: Callable[[str], None] | None = None) -> None:
        self.c = costs
        self.progress = progress
        self.edges: dict[tuple[int, int], int] = {}
        """G': reduced cost of each candidate pair (i < j)."""
        self.odd: list[int] = []
        """Boundaries k whose prefix S_k holds an odd number of nodes."""
        self.widenings = 0
        self._clean_cache: dict[int, set[tuple[int, int]]] = {}
        self._block_cache: tuple[list[int], list[int], np.ndarray, list[int]] | None = None
        """Under ``sides: single``, :meth:`_blocks` once computed."""
        self._rings: list[tuple[list[tuple[int, int]], dict[int, int]]] = []
        """Under ``colours: alternate`` with ``slide`` or ``fold``: each score group's ring start
        (:meth:`_colour_ring`), its pairs and its players' potentials."""
        self._floats: list[tuple[int, int]] = []
        """Under ``colours: alternate`` with ``slide`` or ``fold``: the float the start expects at each odd boundary."""
        self._extra: list[tuple[np.ndarray, np.ndarray]] = []
        """Pairs that tie a ring's pattern level with its own, of low draw (:meth:`_ring_draws`)."""
        self._signs: dict[int, tuple[int, int]] | None = None
        """Under ``colours: alternate``, :meth:`_colour_signs` once computed."""
        self._hard_groups: list[bool] | None = None
        """:meth:`_colour_hard` of each group, once computed."""
        self._stayers: list[list[tuple[int, int]]] = []
        """Under ``sides: single``: each group's stayers paired by their ring (:meth:`_side_stay`), as G' takes them."""
        self._camps: list[dict[int, bool]] = []
        """Under ``sides: single``: each group's side biases in the two camps of its ring (:meth:`_side_camps`)."""
        self._slid: set[int] = set()
        """Under ``sides: single``: the groups whose stayers' ring is more than a ``1 / _WILD`` share wild
        (:meth:`_side_ring`), started at the pattern's own potentials."""
        self._floors: dict[tuple[int, int], int] = {}
        """Under ``sides: single``, :meth:`_side_floor` of each pair of biases once computed."""
        self._parts: dict[int, list[tuple[int, list[int], list[int]]]] = {}
        """Under ``sides: single``, :meth:`_side_parts` of each group once computed."""
        self._stayers_start: dict[int, tuple[int, int]] | None = None
        """:meth:`_ring_solve` once computed: the start set again after its check takes the same."""
        self._changed: np.ndarray | None = None
        """While :meth:`_check` looks only at the pairs with a changed end: whether each node's end changed."""
        self._dropped = 0
        """How many times a check's lifted potentials came down to the true ones (its near pairs filled their list),
        so that a scan that read them beforehand reads them again (:meth:`_check_side_across`)."""
        self._low_draws: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}
        """Under ``within_group: random``, each large group's pairs of low draw (:meth:`_lowest_draws`): their places
        (the first above the second), their draws, and the draw they all lie below."""
        self._boundaries()
        self._candidates()

    # -- boundary duals -------------------------------------------------------------------------------

    def _boundaries(self) -> None:
        """z_k for each odd prefix S_k: the cheapest single float across boundary k (RULES.md 2.5: score,
        the boundary's height, the lowest down-float balance cost above, the cheapest balance class leader
        below and its position),
        or the cheapest bye without its draw (2.4) for the bye boundary. Every crossing pair costs at least
        that, so the reduced costs of single floats stay >= 0."""
        c = self.c
        if c.mode == "sides":  # floats are everywhere (:meth:`_side_flows`): no boundary is crossed once only
            return
        span = c.groups + (1 if c.bye >= 0 else 0)
        sizes = [len(m) for m in c.members] + ([1] if c.bye >= 0 else [])
        prefix = 0
        for k in range(span - 1):
            prefix += sizes[k]
            if prefix % 2 == 0:
                continue
            self.odd.append(k)
            if k + 1 == c.groups:  # the bye boundary: the cheapest single-boundary bye (RULES.md 2.4)
                takers = np.array([i for i in c.members[k] if c.pool[i]], dtype=np.int64)
                byes = np.full(len(takers), c.bye, dtype=np.int64)
                draws = pair_draw(c.key_array[takers], c.key_array[byes]).tolist()
                c.boundary_dual[k] = min((w - r for w, r in zip(c.weights(takers, byes), draws)), default=0)
                continue
            upper, lower = c.members[k], c.members[k + 1]
            down = min(c.down[i] for i in upper)
            m = c.multipliers
            single = m[SCORE] * c.score_table[k][k + 1] + m[HEIGHT] * (c.height[k + 1] - c.height[k])
            c.boundary_dual[k] = min(single + m[BALANCE] * (down + c.up[j]) + m[WHO_FLOATS] * c.place_of[j]
                                     for j in _class_leaders(lower, c.up, 1))
            if c.mode == "colours" and (self._colour_short(k) or self._colour_short(k + 1)):
                c.boundary_dual[k] -= m[COLOUR_HARD]  # an extra float is never cheaper than a hard limit's breach
        self._prefix_sums()

    def _colour_short(self, g: int) -> bool:
        """Under ``colours: alternate``, whether group g cannot pair inside itself without breaking a colour hard
        limit (RULES.md 2.10): a player may take neither colour, or those who may only take White outnumber those
        who may only take Black by more than those who may take either (or the other way round).

        At a boundary next to such a group, z_k is one colour hard level below the cheapest single float
        (:meth:`_boundaries`). With the whole float off, every float across it would cost less than a hard
        limit's breach in the reduced costs (float balance and position rank below the hard limits), so the
        first solve would float whole blocks of players out of the group to save its breaches, each of them a
        violated pair to add and, once the pairing crosses the boundary three times or more, one more solve
        with z_k = 0: at 2,000 players in round 15 after a history paired by swisspair, 5 widenings and 4 to 5
        CPU seconds where this takes 2 widenings and 1 to 1.5. A float changes each of its groups' shortfall by
        at most one player, half a breached pair; in the reduced costs it now costs at least the hard level, so
        extra floats never pay. The bound stays valid for any z_k >= 0 and equals the cost when the pairing
        crosses the boundary once."""
        c = self.c
        mem = np.array(c.members[g], dtype=np.int64)
        white, black = c._white_ok[mem], c._black_ok[mem]
        only_white, only_black = int((white & ~black).sum()), int((black & ~white).sum())
        return bool((~white & ~black).any()) or abs(only_white - only_black) > int((white & black).sum())

    def _prefix_sums(self) -> None:
        """``duals_above[k]``: the z of boundaries 0..k-1, which :meth:`Costs.reduced` takes off a crossing
        pair."""
        c = self.c
        for k in range(len(c.boundary_dual)):
            c.duals_above[k + 1] = c.duals_above[k] + c.boundary_dual[k]

    def _crossings(self, mate: Sequence[int], k: int) -> int:
        """Matched pairs with one end in groups 0..k and the other below (the bye counts as group G)."""
        c = self.c
        side = [c.group_of[v] <= k for v in range(c.n)] + ([False] if c.bye >= 0 else [])
        return sum(1 for u, v in enumerate(mate) if u < v and side[u] != side[v])

    # -- candidate graph ------------------------------------------------------------------------------

    def _add(self, i: np.ndarray, j: np.ndarray) -> list[tuple[int, int]]:
        """Put the pairs into G' in the order given (those that are edges of G and not there yet); the pairs
        added, each as ``(smaller, larger)``."""
        c = self.c
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        keep = (lo != hi) & c.allowed_many(lo, hi)
        lo, hi = lo[keep], hi[keep]
        _, first = np.unique(lo * c.nodes + hi, return_index=True)
        first.sort()
        lo, hi = lo[first], hi[first]
        edges = self.edges
        fresh = np.array([e not in edges for e in zip(lo.tolist(), hi.tolist())], dtype=bool)
        lo, hi = lo[fresh], hi[fresh]
        pairs = list(zip(lo.tolist(), hi.tolist()))
        if pairs:
            edges.update(zip(pairs, c.reduced_many(lo, hi)))
        return pairs

    def _candidates(self) -> None:
        """G': within a group, each player's partners within ``_WINDOW`` of its ideal position(s), and
        beyond that the nearest ones until ``2 * _WINDOW + 1`` are clean (rematches and club pairs cost
        more than any pattern), under ``within_group: random`` its partners of lowest draw (:meth:`_lowest_draws`:
        with every pair of the group, 2,000 players in round 12 took 19 CPU seconds and 8,000 more than ten
        minutes, with them 0.5 and 5); across adjacent groups the best floats; small groups whole; bye
        candidates from the bottom.

        The best floats: each upper player with the lower group's top ``_TOP`` and the first ``_LEADERS`` of
        each float balance class below (a float's cost rises with place inside a class, :func:`_class_leaders`);
        with two edges a pair (colours, sides) the first one of each class: next to a group short of one colour
        the floats that keep the colour limits join too (:meth:`_colour_floats`), and under ``sides: single``
        the blocks' flow holds the floats (:meth:`_side_flows`); the first ``_TOP`` of each class cost a fifth
        more CPU at 8,000 players under sides and a tenth under colours. The certificate adds whatever pair
        this leaves out that the pairing needs."""
        c = self.c
        proposed: list[tuple[np.ndarray, np.ndarray]] = []
        for g, mem in enumerate(c.members):
            s = len(mem)
            nodes = np.array(mem, dtype=np.int64)
            if s <= 2 * _WINDOW + 8:
                p, q = np.triu_indices(s, 1)
                proposed.append((nodes[p], nodes[q]))
                continue
            proposed.append(self._lowest_draws(g, nodes) if c.pattern == "random" else self._walks(g, nodes))
        if c.mode == "colours" and c.pattern in ("slide", "fold"):
            for g, mem in enumerate(c.members):
                if len(mem) > 2 * _WINDOW + 8:
                    proposed.append(self._colour_ranks(mem, c.half[g]))
        if c.mode == "colours" and c.pattern in ("slide", "fold"):
            for g, mem in enumerate(c.members):
                if len(mem) > 2 * _WINDOW + 8:
                    proposed.append(self._colour_hard_ranks(mem, c.half[g]))
        if c.mode == "colours" and c.pattern in ("slide", "fold"):
            proposed.append(self._colour_rings())
        if c.mode == "sides":
            proposed.append(self._side_flows())
        for g in range(c.groups - 1):
            upper, lower = c.members[g], c.members[g + 1]
            best = lower[:_TOP] + _class_leaders(lower, c.up, 1 if c.mode else _LEADERS)
            proposed.append(_product(upper, best))
            if c.mode == "colours" and (self._colour_hard(g) or self._colour_hard(g + 1)):
                proposed.append(self._colour_floats(g))
            if len(lower) <= _SMALL:
                proposed.append(_product(upper[-_TOP:], lower))
        for g, mem in enumerate(c.members):
            if len(mem) <= _SMALL:
                for h in range(max(0, g - 2), min(c.groups, g + 3)):
                    if h != g:
                        proposed.append(_product(mem, c.members[h]))
        if c.bye >= 0:
            pool = [i for i in range(c.n) if c.pool[i]]
            chosen = set(pool[-2 * _TOP:])
            for g in range(c.groups - 1, -1, -1):
                mine = [i for i in c.members[g] if c.pool[i]]
                chosen.update(mine[-_TOP:])
                if len(chosen) > 4 * _TOP:
                    break
            proposed.append(_product(list(chosen), [c.bye]))
        self._add(np.concatenate([a for a, _ in proposed]), np.concatenate([b for _, b in proposed]))
        self._add_nearest()

    def _add_nearest(self) -> None:
        """Every player with fewer than ``2 * _WINDOW + 1`` partners in G' gets its nearest allowed ones in the
        ranking order (by score, then rank) until it has that many. Late in an event a small group at the bottom
        may have met everyone the rules above give it (a lone last player who met the two groups above): with
        no partner in G' at all, the first search would grow over the whole field and widen every row."""
        c = self.c
        want = 2 * _WINDOW + 1
        ends = np.array(list(self.edges), dtype=np.int64).reshape(-1)
        degree = np.bincount(ends, minlength=c.nodes)
        for v in np.nonzero(degree[:c.n] < want)[0].tolist():
            reach = 4 * want
            while True:
                near = np.arange(max(0, v - reach), min(c.n, v + reach + 1), dtype=np.int64)
                near = near[near != v]
                near = near[np.argsort(np.abs(near - v), kind="stable")]
                mine = np.full(len(near), v, dtype=np.int64)
                fresh = c.allowed_many(np.minimum(mine, near), np.maximum(mine, near))
                fresh &= np.array([(min(v, u), max(v, u)) not in self.edges for u in near.tolist()], dtype=bool)
                taken = near[fresh][:want - int(degree[v])]
                if len(taken) >= want - degree[v] or len(near) >= c.n - 1:
                    break
                reach *= 2
            self._add(np.full(len(taken), v, dtype=np.int64), taken)

    def _colour_ranks(self, mem: Sequence[int], half: int) -> tuple[np.ndarray, np.ndarray]:
        """Under ``colours: alternate``: the pattern pairs the upper half of a group with the lower half, and
        between two sorted rows of places the cheapest matching by distance keeps their order, so the k-th
        player of the upper half due White is the natural partner of the k-th player of the lower half not
        due White (the last one counting up, under ``fold``), and likewise for Black (RULES.md 2.5, 2.10).
        Each player gets those partners of ranks k - ``_WINDOW`` to k + ``_WINDOW``.

        Players who may take neither colour rank among themselves: a pair breaks a hard limit once however many of
        its players do (RULES.md 2.1, level 6), so they meet each other, and ranked with the rest they would shift
        every rank below them. Under ``fold`` the others also rank by the colour a hard limit holds them to (their
        due one if none does), as a player held to White may be due Black; under ``slide`` the rings give those
        pairs (:meth:`_colour_rings`), and these ranks there measured slower. After a history with Player A by a
        coin (a quarter of a group may take neither colour), at 2,000 players in round 12 under ``fold``, the first
        check found 1,800 failing pairs instead of 5,000 and 0.9-1.4 CPU seconds became 0.65-1.05; at 8,000
        players under ``slide``, 8 became 4.7."""
        c = self.c
        nodes = np.array(mem, dtype=np.int64)
        due = np.array([c.due[v] for v in mem], dtype=np.int64)
        white, black = c._white_ok[nodes], c._black_ok[nodes]
        neither = ~white & ~black
        places = np.arange(len(mem), dtype=np.int64)
        top, bottom = places < half, places >= half
        fold = c.pattern == "fold"
        classes = [(~neither, due), (neither, due)]
        if fold:  # the colour a hard limit holds a player to, else its due one
            classes.append((~neither, np.where(white & ~black, 1, np.where(black & ~white, 2, due))))
        return _aligned(nodes, ((places[upper_side & among & (colours == colour)],
                                 places[lower_side & among & (colours != colour)], turn != fold)
                                for among, colours in classes
                                for colour, upper_side, lower_side, turn in (
                                    (1, top, bottom, False), (2, top, bottom, False), (1, top, top, True),
                                    (2, top, top, True), (1, bottom, bottom, True), (2, bottom, bottom, True))))

    def _colour_floats(self, g: int) -> tuple[np.ndarray, np.ndarray]:
        """Under ``colours: alternate``, next to a group where hard limits lift players (:meth:`_colour_hard`):
        floats from group g to group g + 1 that keep the colour hard limits (RULES.md 2.10), the last ``_TOP`` upper
        players of each float balance class (counting up from the bottom) with the first ``_TOP`` of each class
        among the lower players they may meet without breaking one. Every upper player with them gave G' half its
        pairs after a history with Player A by a coin (56,000 of 110,000 at 2,000 players), each one scanned by
        every search that reached its player: the rows limited so, 0.85-1.05 CPU seconds became 0.7-0.9 there,
        and at 8,000 players none measured slower. Where a history piled one colour up, a whole class's leaders
        may all break a limit with the upper players limited to the same colour (the float a group short of
        colours sends down is one of those): without these pairs, at 8,000 players after a history paired by
        swisspair, the first solve floated players from far down the group below and the first check found
        tens of thousands of failing pairs.

        An upper player who may take neither colour breaks a limit with anyone, and a pair breaks it once
        however many of its players do (RULES.md 2.1, level 6), so such players meet each other: one left over in
        a group floats to meet one of them below, and gets the first ``_TOP`` of each class among them. After a
        history with Player A by a coin (a quarter of a group may take neither colour), at 2,000 players in round
        12 under ``fold`` or ``slide``, 0.9-1.3 CPU seconds became 0.6-1.1, and at 8,000 players 11 became 8."""
        c = self.c
        upper = np.array(c.members[g], dtype=np.int64)
        lower = np.array(c.members[g + 1], dtype=np.int64)
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        white, black = c._white_ok, c._black_ok
        for takes_white, takes_black in ((True, False), (False, True), (False, False)):
            mine = upper[(white[upper] == takes_white) & (black[upper] == takes_black)]
            if not len(mine):
                continue
            mine = np.array(_class_leaders(mine[::-1].tolist(), c.down, _TOP), dtype=np.int64)
            meets = black if takes_white else white if takes_black else ~white & ~black  # who fits below
            fits = lower[meets[lower]]
            best = _class_leaders(fits.tolist(), c.up, _TOP)
            rows.append(np.repeat(mine, len(best)))
            cols.append(np.tile(np.array(best, dtype=np.int64), len(mine)))
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(rows), np.concatenate(cols)

    def _colour_hard_ranks(self, mem: Sequence[int], half: int) -> tuple[np.ndarray, np.ndarray]:
        """Under ``colours: alternate``, in a group short of one colour (:meth:`_colour_signs`): every lowered player
        meets a lifted one and the lifted players left meet each other, breaking a hard limit (RULES.md 2.10), so
        the cheapest matching by distance keeps the order of each class as :meth:`_colour_ranks` says: the k-th
        player of the upper half of one class is the natural partner of the k-th of the lower half of the other,
        and of the lifted class with its own (inside one half, the k-th from the top with the k-th from the
        bottom). Each player gets those partners of ranks k - ``_WINDOW`` to k + ``_WINDOW`` (and as many past
        the classes' difference in size). Where the players who may take neither colour are a group's only lifted
        ones, they meet each other the same way (after a history with Player A by a coin, in round 12 at 2,000
        players under ``fold``, a quarter fewer blossoms labelled)."""
        c = self.c
        signs = self._colour_signs()
        hard = np.array([signs.get(v, (0, 0))[0] for v in mem], dtype=np.int64)
        if not hard.any():
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        nodes = np.array(mem, dtype=np.int64)
        places = np.arange(len(mem), dtype=np.int64)
        top = places < half
        fold = c.pattern == "fold"
        return _aligned(nodes, ((places[upper_side & (hard == one)], places[lower_side & (hard == other)], turn != fold)
                                for (one, other), (upper_side, lower_side, turn) in itertools.product(
                                    ((1, -1), (-1, 1), (1, 1)),
                                    ((top, ~top, False), (top, top, True), (~top, ~top, True)))))

    def _colour_rings(self) -> tuple[np.ndarray, np.ndarray]:
        """Under ``colours: alternate`` with ``slide`` or ``fold``: each score group's ring (:meth:`_colour_ring`), set
        aside the float that each odd boundary expects (:meth:`_floaters`); G' takes each ring pair and, for the k-th
        player of a ring's first class, the players of ranks k - ``_WINDOW`` to k + ``_WINDOW`` of its second class.
        Where more than one ring pair in ``_SURPLUS`` meets players due the same colour (rounds whose colours piled up
        one colour in whole groups), :meth:`_matcher` starts from the ideal pairs instead: the ring's potentials price
        those pairs loosely, and their searches cost more than the ring saves. G' keeps the rings' pairs all the same:
        where many players of the piled colour may only take it (a hard limit, RULES.md 2.10), they must meet the
        others, and the ring's transport says whom. Without them, at 8,000 players after a history paired by swisspair,
        the first check found about 87,000 failing pairs and the solve took 9 to 10 CPU seconds; with them about 4,700
        and 4. A player who may not take its due colour pays the preference level with anyone, so only pairs of two
        players who may take theirs count toward that share.

        **Players who may take neither colour** (RULES.md 2.10) break a hard limit with anyone, and two of them
        meet for one breach: in a group where :meth:`_colour_signs` lifts them alone, they have a ring of their
        own (an even number of them, the one left over in the group's ring), where their due colours decide, each
        lifted by the hard level. After a plain Swiss's rounds with colours by a coin a fifth of the field is such
        a player: in the group's ring they met the others at a breach each, whose pairs started loose, and at
        2,000 players the first check found 7,251 failing pairs (1.1 CPU seconds, 4,228 and 0.6 with their
        rings); at 8,000 players 18 to 25 seconds, 5 to 15 with them."""
        c = self.c
        self._floats = self._floaters()
        away = {v for pair in self._floats for v in pair}
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        signs = self._colour_signs()
        apart: list[tuple[list[tuple[int, int]], dict[int, int]]] = []
        for g, mem in enumerate(c.members):
            nodes = [v for v in mem if v not in away]
            hard = [signs.get(v, (0, 0))[0] for v in nodes]
            lifted = {v for v, h in zip(nodes, hard) if h > 0} if -1 not in hard else set()
            breach = self._colour_ring(g, [v for v in nodes if v in lifted][:len(lifted) & ~1], lifted)
            held = {v for pair in breach[0] for v in pair} if breach is not None else set()
            ring = self._colour_ring(g, [v for v in nodes if v not in held], lifted)
            self._class_lifts(nodes, [found[1:] for found in (ring, breach) if found is not None])
            for found in (ring, breach):
                if found is not None:
                    (self._rings if found is ring else apart).append(found[:2])
                    one, two = self._ring_edges(found[0])
                    rows.append(one)
                    cols.append(two)
        own = _own_colour(c._due, c._white_ok, c._black_ok)
        surplus = sum(1 for pairs, _ in self._rings for u, v in pairs if c.due[u] == c.due[v] and own[u] and own[v])
        if surplus * _SURPLUS > sum(len(pairs) for pairs, _ in self._rings):
            self._rings = []  # the start goes by the ideal pairs; G' keeps the rings' pairs
        else:
            self._rings.extend(apart)
        rows.extend(i for i, _ in self._extra)
        cols.extend(j for _, j in self._extra)
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(rows), np.concatenate(cols)

    def _class_lifts(self, nodes: Sequence[int], rings: Sequence[tuple[dict[int, int], dict[int, int]]]) -> None:
        """Under ``colours: alternate``, each ring potential's colour lift replaced by its colour kind's dual in the
        cheapest fractional pairing of the kinds of ``nodes`` (a group's players but its floats, each ring's players
        given as its potentials and its lifts, :meth:`_colour_ring`), where the rings' lifts add up to less than
        those duals by ``_SHORT`` pairs' preference or more.

        Within a group the colour levels of a pair (RULES.md 2.10: hard limits, then preference) depend only on the two
        players' colour kinds (the colours each may take and its due one, :func:`.costs.best_colours`), so the kinds'
        fractional pairing (:func:`.transport.pairing_duals`) bounds the group's colour costs from below, and its duals
        are the largest such bound that potentials equal within a kind can give. The rings' lifts price each class by
        its ring's colour counts: where players who may not take their due colour (who pay the preference with anyone)
        are many, they count as the colour they take, and the ring lifts the wrong class. After a history with Player A
        by a coin, at 8,000 players in round 12, a group of 1,002 had 45 players due White who may only take Black and
        24 the other way round: its rings priced the group's colour levels 18 preferences short, and 18 searches each
        rose by a preference across 900 players; with the duals, none did (0.7 of 1.7 CPU seconds of the first solve's
        searches). Where the rings fall short by less, their lifts measured as fast or faster: the fractional pairing
        has many optima, and the one taken may lift a class that the ring pairs evenly (at 8,000 players with Player A
        the one with fewer White games, lifting such a group by the duals cost a quarter more blossoms labelled)."""
        c = self.c
        if not rings:
            return
        kinds, counts = np.unique(c._colour_kind[np.array(nodes, dtype=np.int64)], return_counts=True)
        hard, pref = c.multipliers[COLOUR_HARD] & ~1, c.multipliers[COLOUR_PREF] & ~1
        table = c._kind_colours[np.ix_(kinds, kinds)]
        costs = [[x // 2 * hard + x % 2 * pref for x in row] for row in table.tolist()]
        dual = dict(zip(kinds.tolist(), pairing_duals(counts.tolist(), costs)))
        lift = {v: dual[kind] for _, lifts in rings for v, kind in zip(lifts, c._colour_kind[list(lifts)].tolist())}
        if sum(lift.values()) - sum(x for _, lifts in rings for x in lifts.values()) < 2 * _SHORT * pref:
            return
        for pot, lifts in rings:
            for v, x in lifts.items():
                pot[v] += lift[v] - x

    def _floaters(self) -> list[tuple[int, int]]:
        """The float that each odd boundary k most likely holds (RULES.md 2.5): the player of group k + 1 who floats
        up most cheaply (the lowest up share, then the highest place) and, of group k's players of the lowest down
        share, the lowest-ranked one not due the same colour as that player (else the lowest-ranked), the first such
        pair in that order that may meet (not a rematch: at 8,000 players the cheapest up-floater of a boundary had
        met the only player of the lowest down share, and the search that found the real float grew over both
        groups in every widening); at the bye boundary, the lowest group's cheapest bye (2.4). Where both groups
        hold an odd number of players who may take neither colour (RULES.md 2.10), the float is two of them: the
        colour hard level ranks above the float balance and who floats, and that float saves a breach (each group
        would leave one of them to meet another player at a breach each, the float pairs the two for one); after a
        history with Player A by a coin, at 8,000 players, the solve labelled a tenth fewer blossoms. Only the start
        depends on this guess."""
        c = self.c
        out: list[tuple[int, int]] = []
        taken: set[int] = set()
        for k in self.odd:
            upper = [i for i in c.members[k] if i not in taken]
            if k + 1 == c.groups:
                pool = [i for i in upper if c.pool[i]]
                if pool:
                    out.append((min(pool, key=c.bye_rank.__getitem__), c.bye))
                continue
            lower = [j for j in c.members[k + 1] if j not in taken]
            if not upper or not lower:
                continue
            odd = [[v for v in side if not c._white_ok[v] and not c._black_ok[v]] for side in (upper, lower)]
            if all(len(x) % 2 for x in odd):
                upper, lower = odd
            low = min(c.down[i] for i in upper)
            cheapest = [i for i in upper if c.down[i] == low]
            for j in sorted(lower, key=lambda v: (c.up[v], c.place_of[v]))[:_FLOATERS]:
                i = ([i for i in cheapest if c.due[i] != c.due[j]] or cheapest)[-1]
                if c.allowed_many(np.array([min(i, j)]), np.array([max(i, j)]))[0]:
                    out.append((i, j))
                    taken.update((i, j))
                    break
        return out

    def _circle_of(self, g: int, nodes: Iterable[int]) -> tuple[int, np.ndarray, np.ndarray]:
        """:func:`_circle` of group ``g``'s players ``nodes``: its length, and their sink and source places."""
        c = self.c
        return _circle(c.pattern, c.size[g], c.half[g], np.array([c.place_of[v] for v in nodes], dtype=np.int64))

    def _colour_ring(self, g: int, nodes: Sequence[int], lifted: Collection[int] = ()
                     ) -> tuple[list[tuple[int, int]], dict[int, int], dict[int, int]] | None:
        """The pairs and start potentials of group ``g``'s players ``nodes`` under ``colours: alternate`` with
        ``slide`` or ``fold`` (RULES.md 2.5, 2.10), and the part of each potential that is its lift at the colour
        levels, or ``None`` for a ring too small or odd.

        * **A ring.** The pattern cost of two players is a distance on a circle (:func:`_circle`): under
          ``slide``, with ``L = 2 * half``, the cost of places p < q, ``|q - p - half|``, is the distance on a
          circle of L places between ``p + half`` (p's antipode) and q, so the slide pairs players as far apart
          on the circle as it can; under ``fold``, the distance from p to q's mirror place ``size - 1 - q``.
        * **Classes.** The players due the group's more frequent colour (the sources) meet the others (the
          sinks) at no colour cost; when the sources are more than half, the surplus must meet each other
          (ceil of half the excess pairs due the same colour, RULES.md 2.10): some sources become sinks, chosen
          one by one where they shorten the flow below the most, then exchanged with sources while that shortens
          it (:meth:`_ring_exchange`: in round 15 at 8,000 players after a history paired by swisspair, the greedy
          choice alone left some rings up to half again dearer at the pattern level than the pairing found, the
          exchanges a tenth at most; each difference costs a search along the ring), and the whole class is
          lifted by about the preference level (as :meth:`_colour_lifts`), the others lowered by as much.
        * **Transport on the circle.** Sources at their antipodes and sinks at their places: the cheapest
          assignment by circular distance has a closed form. With F(t) the sources less the sinks at places up
          to t, and k a median of F, the flow across the cut after t is F(t) - k; cutting the circle where it is
          0, the i-th source meets the i-th sink. Potentials phi with slope -sign(F - k) (some cuts of no flow
          take a slope of the other sign, so that phi closes round the circle: the median leaves enough of
          them) are 1-Lipschitz on the circle, so ``phi(a) - phi(b) <= |a - b|`` for every source and sink,
          with equality along the flow.
        * **Potentials.** A sink gets ``-phi(place)``, a player of the more frequent colour ``min(phi(antipode),
          -phi(place))``, which covers both of its roles; phi is shifted by the constant that makes that minimum
          the antipode's for every source. Then every pair of the ring keeps its pattern level's constraint,
          and the ring's pairs are tight at it; times twice the pattern multiplier, plus the lift.
        * **Neutral players** (due a colour that a hard limit forbids) cost the preference level with anyone, and
          two of them whose only colours differ cost it once: they get half of it (about the lift), so that such
          pairs are tight at that level, and G' takes every such pair of the group.
        * **Lifted players** (``lifted``: players who may take neither colour, where they are the group's only
          lifted ones, :meth:`_colour_signs`) break a hard limit with anyone and get the hard level's lift
          besides. A ring of lifted players only pays one breach a pair whatever the colours, so there the due
          colours decide as if each player might take either.

        Only the start depends on this: the draws, the floats and rematches are for the solve, and the
        certificate makes the result exact whatever the start."""
        c = self.c
        m = len(nodes)
        if m < 2 * _WINDOW + 8 or m % 2:
            return None
        length, pos, anti = self._circle_of(g, nodes)
        due = np.array([c.due[v] for v in nodes], dtype=np.int64)
        white = np.array([c._white_ok[v] for v in nodes], dtype=bool)
        black = np.array([c._black_ok[v] for v in nodes], dtype=bool)
        if all(v in lifted for v in nodes):  # each breaks a hard limit whatever its colour: the due colours decide
            white[:] = black[:] = True
        own = _own_colour(due, white, black)
        """Whether each player may have its due colour: one who may not (a hard limit) costs the preference level
        with everyone, a neutral player, and takes the other colour."""
        side = np.where(own, due, np.where(white, 1, np.where(black, 2, 0)))
        """The colour each player takes against one of the other class: its due colour, or a neutral player's
        only one (0: either)."""
        major = 1 if (side == 1).sum() >= (side == 2).sum() else 2
        source = side == major
        need = m // 2
        count = int(source.sum())
        if count < need:  # players who may take either colour, then the other class stand in
            others = np.nonzero(~source)[0]
            source[others[np.argsort(side[others] != 0, kind="stable")][:need - count]] = True
        lift = 0
        if count > need:
            lift = c.multipliers[COLOUR_PREF] & ~1
            soft = white & black
            if not self._ring_turn(length, anti, pos, source, soft, count - need):
                return None
            self._ring_exchange(length, anti, pos, source, soft & (side == major))
        ring = self._ring_phi(length, anti[source], pos[~source])
        if ring is None:
            return None
        phi, start, cost = ring
        if lift:  # the sources whose roles phi prices dearest become the sinks instead, while that costs less
            movable = np.nonzero(soft & (side == major))[0]
            for _ in range(_REFINE):
                rank = movable[np.lexsort((source[movable], -(phi[anti] + phi[pos])[movable]))]
                turned = np.isin(np.arange(m), rank[:count - need])
                if not (turned[movable] == ~source[movable]).any() or (turned[movable] == source[movable]).all():
                    break
                trial = source.copy()
                trial[movable] = ~turned[movable]
                again = self._ring_phi(length, anti[trial], pos[~trial])
                if again is None or again[2] > cost:
                    break
                source = trial
                phi, start, cost = again
        unrolled, src, snk = self._ring_pairs(length, start, anti, pos, source)
        sink_only = (side != 0) & (side != major)
        both = src[~sink_only[src]]
        shift = int(np.min((-(phi[anti[both]] + phi[pos[both]])) // 2)) if len(both) else 0
        value = np.minimum(phi[anti] + shift, -phi[pos] - shift)
        value[sink_only] = -phi[pos[sink_only]] - shift
        twice = 2 * c.multipliers[PATTERN]
        lifts = np.where(~own, c.multipliers[COLOUR_PREF] & ~1, np.where(side == major, lift, -lift))
        forced_white, forced_black = np.nonzero(~own & (side == 1))[0], np.nonzero(~own & (side == 2))[0]
        if len(forced_white) and len(forced_black):  # two neutral players of opposite colours meet for one
            held = np.array(nodes, dtype=np.int64)
            self._extra.append(_product(held[forced_white].tolist(), held[forced_black].tolist()))
        hard = c.multipliers[COLOUR_HARD] & ~1
        lift_of = {v: int(y) + (hard if v in lifted else 0) for v, y in zip(nodes, lifts.tolist())}
        pot = {v: twice * int(x) + lift_of[v] for v, x in zip(nodes, value.tolist())}
        pairs = [(nodes[a], nodes[b]) for a, b in zip(src.tolist(), snk.tolist())]
        self._ring_draws(np.array(nodes, dtype=np.int64)[src], np.array(nodes, dtype=np.int64)[snk],
                         anti[src], pos[snk], unrolled, phi)
        return pairs, pot, lift_of

    def _ring_draws(self, src: np.ndarray, snk: np.ndarray, at: np.ndarray, to: np.ndarray, unrolled: np.ndarray,
                    phi: np.ndarray) -> None:
        """The pairs of a ring (:meth:`_colour_ring`) that tie its pattern level with its own pairs (a source and a
        sink along one stretch of flow: ``phi(a) - phi(b)`` is their distance), up to ``_TIGHT_SPAN`` places apart:
        the seeded draw decides among them (RULES.md 2.11), so G' takes each player's ``_LOWEST`` of lowest draw
        (in a dense set of ties the cheapest assignment uses low draws)."""
        c = self.c
        length = len(phi)
        first, second = unrolled[at], unrolled[to]
        lo = np.searchsorted(second, first - _TIGHT_SPAN, side="left")
        hi = np.searchsorted(second, first + _TIGHT_SPAN, side="right")
        counts = hi - lo
        xs = np.repeat(np.arange(len(src), dtype=np.int64), counts)
        ys = np.repeat(lo, counts) + np.arange(len(xs), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        gap = np.abs(at[xs] - to[ys])
        tight = phi[at[xs]] - phi[to[ys]] == np.minimum(gap, length - gap)
        xs, ys = xs[tight], ys[tight]
        draws = pair_draw(c.key_array[src[xs]], c.key_array[snk[ys]])
        for own in (xs, ys):
            order = np.lexsort((draws, own))
            row = own[order]
            start = np.searchsorted(row, row, side="left")
            keep = order[np.arange(len(row)) - start < _LOWEST]
            self._extra.append((src[xs[keep]], snk[ys[keep]]))

    @staticmethod
    def _ring_turn(length: int, anti: np.ndarray, pos: np.ndarray, source: np.ndarray, movable: np.ndarray,
                   count: int) -> bool:
        """Turn ``count`` of a ring's sources (``source``, changed in place) that are ``movable`` into sinks, one at a
        time, each the one that shortens the transport the most (:meth:`_colour_ring`): ``False`` when too few
        are movable."""
        for _ in range(count):
            flow = Solver._ring_flow(length, anti[source], pos[~source])
            over = flow - np.sort(flow)[(length - 1) // 2]
            one = np.concatenate([np.where(over >= 1, -1, 1)[::-1].cumsum()[::-1], [0]])
            two = np.concatenate([np.where(over >= 2, -2, np.where(over == 1, 0, 2))[::-1].cumsum()[::-1], [0]])
            pick = np.nonzero(source & movable)[0]
            if not len(pick):
                return False
            lo, hi = np.minimum(anti[pick], pos[pick]), np.maximum(anti[pick], pos[pick])
            source[pick[int(np.argmin(one[lo] - one[hi] + two[hi]))]] = False
        return True

    @staticmethod
    def _ring_exchange(length: int, anti: np.ndarray, pos: np.ndarray, source: np.ndarray, movable: np.ndarray,
                       ) -> None:
        """Improve which ``movable`` players of a ring are its sources (``source``, changed in place) by exchanges: one
        source turns into a sink as one sink turns into a source, the exchange that lowers the transport's cost the
        most (counted with the median of the flow held; the true change is no larger) among a shortlist of each
        (:meth:`_shortlist`), while one does.

        A source at a leaves the flow F (sources less sinks up to each place) one lower from a on and, as a sink at
        b, one lower again from b on: F falls by 1 between min(a, b) and max(a, b) and by 2 after. An exchange of
        such a player u for v changes F at each place by -2 to 2, piecewise between the four ends; with the
        median k held, each piece costs the sum of ``|F - k + s| - |F - k|`` over it, read from prefix sums."""
        for _ in range(int(movable.sum())):
            flow = np.cumsum(np.bincount(anti[source], minlength=length) - np.bincount(pos[~source], minlength=length))
            over = flow - np.sort(flow)[(length - 1) // 2]
            shifts = np.arange(-2, 3)
            table = np.abs(over[None, :] + shifts[:, None]) - np.abs(over)[None, :]
            prefix = np.concatenate([np.zeros((5, 1), dtype=np.int64), np.cumsum(table, axis=1)], axis=1)
            out = np.nonzero(source & movable)[0]
            into = np.nonzero(~source & movable)[0]
            if not len(out) or not len(into):
                return
            u, v, change = Solver._exchanges(length, anti, pos, prefix, *Solver._shortlist(length, anti, pos, prefix,
                                                                                          out, into))
            best = int(np.argmin(change))
            if change[best] >= 0:
                return
            source[u[best]], source[v[best]] = False, True

    @staticmethod
    def _shortlist(length: int, anti: np.ndarray, pos: np.ndarray, prefix: np.ndarray, out: np.ndarray,
                   into: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of a ring's movable sources ``out`` and sinks ``into``, the ``_SHORTLIST`` of each whose turn alone (a source
        turned into a sink, a sink into a source) costs least with the median held (``prefix``, rows for a change of
        the flow by -2 to 2, :meth:`_ring_exchange`): the flow changes by one between the player's two ends and by
        two after. After a history paired by swisspair, at 8,000 players a ring may have 260 of each, and every pair
        of them priced for each of 270 exchanges took 2.4 CPU seconds; from the shortlists, 0.08 for 88 exchanges
        that leave the rings dearer (11,100 units of the pattern over the field's rings against 8,100) but the searches
        with as much work (in round 15 with 35% draws, the same exchanges as every pair's)."""
        if len(out) * len(into) <= _SHORTLIST * _SHORTLIST:
            return out, into
        picked = []
        for players, one, two in ((out, 1, 0), (into, 3, 4)):
            lo, hi = np.minimum(anti[players], pos[players]), np.maximum(anti[players], pos[players])
            alone = prefix[one, hi] - prefix[one, lo] + prefix[two, length] - prefix[two, hi]
            picked.append(players[np.argsort(alone, kind="stable")[:_SHORTLIST]])
        return picked[0], picked[1]

    @staticmethod
    def _exchanges(length: int, anti: np.ndarray, pos: np.ndarray, prefix: np.ndarray, out: np.ndarray,
                   into: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every exchange of a source of ``out`` for a sink of ``into`` (each turned into the other), with its change
        of the ring's cost with the median held (``prefix``, :meth:`_ring_exchange`)."""
        u = np.repeat(out, len(into))
        v = np.tile(into, len(out))
        ends = np.stack([np.minimum(anti[u], pos[u]), np.maximum(anti[u], pos[u]),
                         np.minimum(anti[v], pos[v]), np.maximum(anti[v], pos[v]), np.full(len(u), length)], axis=1)
        steps = np.array([-1, -1, 1, 1, 0])[None, :].repeat(len(u), axis=0)
        order = np.argsort(ends, axis=1, kind="stable")
        ends = np.take_along_axis(ends, order, axis=1)
        level = np.cumsum(np.take_along_axis(steps, order, axis=1), axis=1)[:, :4]
        change: np.ndarray = (prefix[level + 2, ends[:, 1:]] - prefix[level + 2, ends[:, :4]]).sum(axis=1)
        return u, v, change

    @staticmethod
    def _ring_pairs(length: int, start: int, anti: np.ndarray, pos: np.ndarray, source: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A ring's positions counted from its line's ``start`` (:meth:`_ring_phi`), and its sources and sinks
        (indices) in the order of their antipodes and places along it: the i-th source meets the i-th sink."""
        unrolled = (np.arange(length) - start) % length
        src = np.nonzero(source)[0]
        snk = np.nonzero(~source)[0]
        return (unrolled, src[np.argsort(unrolled[anti[src]], kind="stable")],
                snk[np.argsort(unrolled[pos[snk]], kind="stable")])

    @staticmethod
    def _ring_edges(pairs: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """G''s pairs of a ring: for the k-th pair's first player, the second players of pairs k - ``_WINDOW`` to
        k + ``_WINDOW`` (round the ring)."""
        ends = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        near = np.arange(-_WINDOW, _WINDOW + 1, dtype=np.int64)
        rank = (np.arange(len(ends), dtype=np.int64)[:, None] + near[None, :]) % max(1, len(ends))
        return np.broadcast_to(ends[:, :1], rank.shape).reshape(-1), ends[rank.reshape(-1), 1]

    @staticmethod
    def _ring_phi(length: int, sources: np.ndarray, sinks: np.ndarray) -> tuple[np.ndarray, int, int] | None:
        """The potentials phi of a ring's transport (:meth:`_colour_ring`), the place after a cut of no flow where
        its line starts, and its cost; ``None`` when the median leaves too few cuts of no flow (never, for as
        many sources as sinks)."""
        flow = np.cumsum(np.bincount(sources, minlength=length) - np.bincount(sinks, minlength=length))
        over = flow - np.sort(flow)[(length - 1) // 2]
        slope = -np.sign(over)
        total = int(slope.sum())
        idle = np.nonzero(over == 0)[0]
        if not len(idle) or len(idle) < abs(total):
            return None
        slope[idle[:abs(total)]] = -np.sign(total)
        start = int(idle[-1]) + 1
        order = (start + np.arange(length)) % length
        phi = np.zeros(length, dtype=np.int64)
        phi[order] = np.concatenate([[0], np.cumsum(slope[order])[:-1]])
        return phi, start % length, int(np.abs(over).sum())

    @staticmethod
    def _ring_flow(length: int, sources: np.ndarray, sinks: np.ndarray) -> np.ndarray:
        """Sources less sinks at positions up to each t of a ring of ``length`` positions."""
        out: np.ndarray = np.cumsum(np.bincount(sources, minlength=length) - np.bincount(sinks, minlength=length))
        return out

    def _blocks(self) -> tuple[list[int], list[int], np.ndarray, list[int]]:
        """Under ``sides: single``: each node's block (score group and side bias; the bye alone), each block's
        dual at the score, side and float height levels, the pairs between every two blocks in the cheapest
        fractional pairing of blocks down to who floats, and each node's dual at the float balance and who floats
        levels (:func:`.transport.block_duals`, all doubled, the role duals in cost units; the side cost taken as
        the cheaper assignment, :meth:`_side_floor`). A player's up cost is its float balance share for floating
        up and its place (who floats, RULES.md 2.5), its down cost its share for floating down. Where the role
        duals reach a quarter of the float height multiplier they are left out (0): pairs of blocks that the top
        levels do not join must keep their slack. Computed once per solve."""
        if self._block_cache is not None:
            return self._block_cache
        c = self.c
        mult = c.multipliers
        key = [(c.group_of[v], c.bias[v] if v != c.bye else 0) for v in range(c.nodes)]
        blocks = sorted(set(key))
        index = {b: k for k, b in enumerate(blocks)}
        of = [index[b] for b in key]
        counts = [0] * len(blocks)
        for block in of:
            counts[block] += 1
        ratio = mult[SCORE] // mult[HEIGHT]
        group = np.array([g for g, _ in blocks], dtype=np.int64)
        bye = group == c.groups
        bias = np.where(bye, c.bias[0] if c.n else 0, [b for _, b in blocks])  # the bye's block pays no side cost
        side = np.where(bye[:, None] | bye[None, :], 0, c.side_floors(bias[:, None], bias[None, :]))
        low, high = np.minimum.outer(group, group), np.maximum.outer(group, group)
        costs = (c._score[low, high] + side) * ratio + c._height[high] - c._height[low]
        unit = mult[BALANCE] // mult[WHO_FLOATS]
        up = [0 if v == c.bye else unit * c.up[v] + c.place_of[v] for v in range(c.nodes)]
        down = [0 if v == c.bye else unit * c.down[v] for v in range(c.nodes)]
        ups: list[list[int]] = [[] for _ in blocks]
        downs: list[list[int]] = [[] for _ in blocks]
        for v in range(c.nodes):
            ups[of[v]].append(up[v])
            downs[of[v]].append(down[v])
        duals = block_duals(counts, costs, [None if g == c.groups else g for g, _ in blocks], ups, downs)
        roles = [0 if v == c.bye else mult[WHO_FLOATS] * duals.potential(of[v], up[v], down[v])
                 for v in range(c.nodes)]
        if 4 * max(map(abs, roles)) >= mult[HEIGHT]:
            roles = [0] * c.nodes
        self._block_cache = (of, duals.s, duals.pairs, roles)
        return self._block_cache

    def _side_flows(self) -> tuple[np.ndarray, np.ndarray]:
        """Pairs between the blocks that the blocks' cheapest fractional pairing joins (:meth:`_blocks`), and the
        stayers' rings.

        * **Floats.** Who floats up from a block is decided at the float balance and position levels (RULES.md
          2.5): its players by float balance up, then place; who floats down only by float balance (the highest
          first) and the levels below, which leave it open inside a balance class: the group's ring chooses
          (:meth:`_side_stay`), else the lowest placed are taken first. A block
          sends and receives several floats (say 80 of its players to the group three below and 5 to the next):
          each one takes the next players of those lists, the nearest groups first, so that G' can pair them
          all at once at the score, side and height levels, and joins the k-th of the upper ones with the
          lower ones of ranks k - ``_WINDOW`` to k + ``_WINDOW``. Those floats tie at every level but the seeded
          draw (RULES.md 2.11), which then decides who meets whom: each of them also gets its ``_LOWEST``
          partners of lowest draw among the other side's (``_WINDOW`` more on each side).
        * **Every player of the upper block who may float down** (its down cost no dearer than the block's last
          down-floater's) also gets ``2 * _WINDOW + 1`` of the lower block's first q + ``_WINDOW`` (q the pairs
          between them), the k-th the (k - ``_WINDOW``)-th to the (k + ``_WINDOW``)-th (round the list): who
          of a tied class floats down is open.
        * **Inside a group**, each player of one block gets the other block's players nearest its ideal partners'
          places (:meth:`_centres`), ``_WINDOW`` on each side.
        * **The stayers** (the players of each group that the floats leave in it) are paired by their ring
          (:meth:`_side_ring`): G' takes each ring pair and the ring's neighbours within ``_WINDOW``."""
        c = self.c
        of, _, pairs, _ = self._blocks()
        members: dict[int, list[int]] = defaultdict(list)
        for v in range(c.nodes):
            members[of[v]].append(v)
        group = {k: c.group_of[mem[0]] for k, mem in members.items()}
        rising = {k: np.array(sorted(mem, key=lambda v: (c.up[v], c.place_of[v]) if v != c.bye else (0, 0)),
                              dtype=np.int64) for k, mem in members.items()}
        falling = {k: np.array(sorted(mem, key=lambda v: (c.down[v], -c.place_of[v]) if v != c.bye else (0, 0)),
                               dtype=np.int64) for k, mem in members.items()}
        rings = self._stayers
        for g in range(c.groups):
            here = [k for k in members if group[k] == g]
            self._camps.append(self._side_camps({k: int(c.bias[members[k][0]]) for k in here}, pairs))
            ups = {k: sum(int(pairs[k, b]) for b in members if group[b] < g) for k in here}
            downs = {k: sum(int(pairs[k, b]) for b in members if group[b] > g) for k in here}
            chosen, ring = self._side_stay(g, {k: rising[k][:ups[k]].tolist() for k in here},
                                           {k: falling[k].tolist() for k in here}, downs)
            rings.append(ring)
            for k, first in chosen.items():
                taken = set(first)
                falling[k] = np.array(first + [v for v in falling[k].tolist() if v not in taken], dtype=np.int64)
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        near = np.arange(-_WINDOW, _WINDOW + 1, dtype=np.int64)
        joined = [(a, b) for a, b in zip(*(x.tolist() for x in np.nonzero(np.triu(pairs))))]
        floats = [(a, b) if group[a] < group[b] else (b, a) for a, b in joined if group[a] != group[b]]
        sent: dict[tuple[int, int], int] = {}
        """Where each float's players start in the upper block's falling list."""
        got: dict[tuple[int, int], int] = {}
        """And in the lower block's rising list."""
        for start, end in ((sent, 0), (got, 1)):  # each block's floats, the nearest groups first
            held: dict[int, int] = defaultdict(int)
            for f in sorted(floats, key=lambda f: (f[end], group[f[1]] - group[f[0]])):
                start[f] = held[f[end]]
                held[f[end]] += int(pairs[f])
        for a, b in floats:
            q = int(pairs[a, b])
            upper, lower = falling[a], rising[b]
            at = np.arange(sent[a, b], min(sent[a, b] + q, len(upper)), dtype=np.int64)
            rank = np.clip(got[a, b] - sent[a, b] + at[:, None] + near[None, :], 0, len(lower) - 1)
            rows.append(np.repeat(upper[at], len(near)))
            cols.append(lower[rank.reshape(-1)])
            one = upper[max(0, sent[a, b] - _WINDOW):sent[a, b] + q + _WINDOW]
            two = lower[max(0, got[a, b] - _WINDOW):got[a, b] + q + _WINDOW]
            draws = pair_draw(c.key_array[one][:, None], c.key_array[two][None, :])
            for axis, mine, theirs in ((1, one, two), (0, two, one)):
                low = min(_LOWEST, len(theirs))
                best = np.argpartition(draws, low - 1, axis=axis).take(np.arange(low), axis=axis)
                rows.append(np.repeat(mine, low))
                cols.append(theirs[(best if axis else best.T).reshape(-1)])
        for a, b in joined:
            if group[a] == group[b]:  # each player with the other block's nearest to its ideal partners' places
                for one, two in ((a, b), (b, a)):
                    mine, theirs = np.array(members[one], dtype=np.int64), np.array(members[two], dtype=np.int64)
                    at = np.array([c.place_of[v] for v in theirs], dtype=np.int64)
                    for centre in self._centres(group[a], np.array([c.place_of[v] for v in mine], dtype=np.int64)):
                        rank = np.searchsorted(at, centre)[:, None] + near[None, :]
                        rows.append(np.repeat(mine, len(near)))
                        cols.append(theirs[np.clip(rank, 0, len(theirs) - 1).reshape(-1)])
                continue
            if group[a] > group[b]:
                a, b = b, a
            sending = sum(int(pairs[a, x]) for x in members if group[x] > group[a])
            last = c.down[int(falling[a][min(sending, len(falling[a])) - 1])] if sending else -1
            upper = np.array([v for v in members[a] if c.down[v] <= last], dtype=np.int64)
            lower = rising[b][:int(pairs[a, b]) + _WINDOW]
            rank = (np.arange(len(upper), dtype=np.int64)[:, None] + near[None, :]) % len(lower)
            rows.append(np.broadcast_to(upper[:, None], rank.shape).reshape(-1))
            cols.append(lower[rank].reshape(-1))
        for ring in rings:
            one, two = self._ring_edges(ring)
            rows.append(one)
            cols.append(two)
        rows.extend(i for i, _ in self._extra)
        cols.extend(j for _, j in self._extra)
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(rows), np.concatenate(cols)

    @staticmethod
    def _side_camps(bias: dict[int, int], pairs: np.ndarray) -> dict[int, bool]:
        """A group's side biases in two camps, each camp's players to meet the other's: for each of the group's blocks
        (``bias``: block to its side bias), whether it is in the first camp.

        Whether two biases meet at no side cost depends on the measure (RULES.md 3): under ``max`` any two different
        biases do (3 and 1: the 3 takes side 2, and the larger imbalance falls), under ``sum`` only opposite signs. So
        the camps follow the pairs that the roles' flow (:meth:`_blocks`) makes between the group's blocks: each block
        in the other camp from the blocks it meets there, the lowest bias of each connected set in the first camp. In a
        group of biases 3, 1 and -1 whose 1s are the more numerous, the flow pairs the 1s with both others: the 1s
        against the 3s and -1s, where the signs would have set the 3s against the -1s and paired the surplus 1s among
        themselves. Where those pairs close an odd cycle, no split keeps them all between the camps: the one that leaves
        the fewest inside a camp, of those the nearest the signs' camps, where it leaves few enough (``_CAMP_BLOCKS``,
        ``_CAMP_SHARE``; else every block keeps its sign's camp). A block the flow pairs with none of its group keeps
        its sign's camp (negative first). After an odd field's rounds at 8,000 players, a group's flow paired its -3s
        with its -1s (2 pairs) and its 1s (6), round the 595 pairs of its -1s and 1s; every camp by sign put its 3s with
        its 1s, which they meet at no side cost, and its stayers' own pairing's searches took 0.4 CPU seconds, 0.01 with
        the 3s against the 1s.

        Blocks 0, 1, 2 of biases 3, 1, -1, the flow pairing block 1 with both others; then a flow round all three
        (an odd cycle, whose lightest pairs, the 3s with the -1s, go inside a camp); one with more pairs inside any
        camp than ``_CAMP_SHARE`` allows; and one that pairs block 2 with none of the group:

        >>> flow = np.array([[0, 40, 0], [40, 0, 30], [0, 30, 0]])
        >>> Solver._side_camps({0: 3, 1: 1, 2: -1}, flow)
        {3: True, 1: False, -1: True}
        >>> Solver._side_camps({0: 3, 1: 1, 2: -1}, flow + 1 - np.eye(3, dtype=int))
        {3: True, 1: False, -1: True}
        >>> Solver._side_camps({0: 3, 1: 1, 2: -1}, flow + 10 - 10 * np.eye(3, dtype=int))
        {3: False, 1: False, -1: True}
        >>> Solver._side_camps({0: 3, 1: 1, 2: -1}, np.array([[0, 4, 0], [4, 0, 0], [0, 0, 0]]))
        {3: False, 1: True, -1: True}
        """
        camp: dict[int, bool] = {}
        for start in sorted(bias, key=bias.__getitem__):
            if start in camp or not any(pairs[start, k] for k in bias if k != start):
                continue
            camp[start] = True
            found, todo, odd = [start], [start], False
            while todo:
                a = todo.pop()
                for b in bias:
                    if b != a and pairs[a, b]:
                        if b not in camp:
                            camp[b] = not camp[a]
                            found.append(b)
                            todo.append(b)
                        elif camp[b] == camp[a]:
                            odd = True
            if odd:  # the split that leaves the fewest of the flow's pairs inside a camp
                found.sort(key=bias.__getitem__)
                if len(found) > _CAMP_BLOCKS:
                    return {bias[k]: bias[k] < 0 for k in bias}
                weights = [(i, j, int(pairs[x, y])) for i, x in enumerate(found) for j, y in enumerate(found[:i])]
                signs = sum(1 << (i - 1) for i, k in enumerate(found) if i and (bias[k] < 0) != (bias[found[0]] < 0))
                best, inside = _best_split(len(found), weights, signs)  # ties: the camps nearest the signs
                if _CAMP_SHARE * inside > sum(w for _, _, w in weights):  # far from two camps: by sign
                    return {bias[k]: bias[k] < 0 for k in bias}
                camp.update({k: not best << 1 >> i & 1 for i, k in enumerate(found)})
        return {bias[k]: camp.get(k, bias[k] < 0) for k in bias}

    def _side_stay(self, g: int, risers: dict[int, list[int]], falling: dict[int, list[int]],
                   downs: dict[int, int]) -> tuple[dict[int, list[int]], list[tuple[int, int]]]:
        """Who of group ``g`` floats down under ``sides: single``, and its stayers' ring (:meth:`_side_ring`).

        Each block of the group (its up-floaters ``risers``, its players by down cost ``falling``) floats down as
        many as the roles' flow says (``downs``), the cheapest down costs first. Where the last one ties with
        players who stay (a float balance class, RULES.md 2.5), the levels above leave open which of the class
        float, and the pattern decides: in the largest such class the ring picks them (:meth:`_ring_swap`). The
        chosen down-floaters of each block, cheapest first, and the ring's pairs."""
        c = self.c
        held = {v for first in risers.values() for v in first}
        chosen: dict[int, list[int]] = {}
        classes: dict[int, tuple[list[int], int]] = {}
        """Each block whose last down-floater ties with a stayer: that class, and how many of it float."""
        for k, order in falling.items():
            rest = [v for v in order if v not in held and v != c.bye]
            count = downs[k]
            chosen[k] = rest[:count]
            if 0 < count < len(rest) and c.down[rest[count - 1]] == c.down[rest[count]]:
                tied = [v for v in rest if c.down[v] == c.down[rest[count]]]
                classes[k] = (tied, count - sum(1 for v in rest[:count] if c.down[v] < c.down[rest[count]]))
        largest = max(classes, key=lambda k: len(classes[k][0]), default=None)
        tied, away = classes[largest] if largest is not None else ([], 0)
        optional = [v for v in tied if c.bias[v]]
        gone = held | {v for first in chosen.values() for v in first}
        ring = self._side_ring(g, [v for v in c.members[g] if (v not in gone or v in optional) and v != c.bye
                                   and c.bias[v]], optional, away if optional else 0)
        if ring is None:
            return chosen, []
        pairs, left = ring
        if optional:
            assert largest is not None
            chosen[largest] = [v for v in chosen[largest] if v not in tied] + left
        return chosen, pairs

    def _side_ring(self, g: int, nodes: Sequence[int], optional: Sequence[int], away: int
                   ) -> tuple[list[tuple[int, int]], list[int]] | None:
        """The players ``nodes`` of group ``g`` under ``sides: single`` with ``slide`` or ``fold``, but ``away`` of
        those in ``optional`` (of one side bias), paired by the pattern's ring (:meth:`_colour_ring`): the players
        of one camp meet the other's at no side cost (:meth:`_side_camps`), so the more numerous camp are the
        sources, and their surplus turns into sinks (pairs that pay the side cost). Which optional players leave
        the ring is chosen by :meth:`_ring_swap`. Where the players are odd, one more floats: the likeliest to float
        up of the more numerous camp, or where that camp is all optional, one more of those floats down (the ring of
        a group of 230 such players at 8,000 players after a swisspair history, which had none). The pairs in ring
        order (the i-th source meets the i-th sink) and the optional players left out; ``None`` for a ring too small
        or odd. Each player also gets its partners of lowest draw among the ties (:meth:`_ring_draws`). A ring more
        than a ``1 / _WILD`` share of which is wild starts at the pattern's own potentials instead of its own
        (:meth:`_ring_potentials`), so its wild players are not exchanged (at 8,000 players after sides by a coin,
        0.1 CPU seconds)."""
        c = self.c
        camp = self._camps[g]
        out = set(optional[:away])
        nodes = [v for v in nodes if v not in out]
        if len(nodes) % 2:  # one more floats: the likeliest to float up of the more numerous camp
            major = 2 * sum(camp[c.bias[v]] for v in nodes) >= len(nodes)
            drop = min((v for v in nodes if camp[c.bias[v]] == major and v not in optional),
                       key=lambda v: (c.up[v], c.place_of[v]), default=None)
            if drop is None:  # that camp is all of the optional class: one more of it floats down
                drop = next((v for v in optional if v not in out), None)
                if drop is not None:
                    out.add(drop)
            nodes = [v for v in nodes if v != drop]
        m = len(nodes)
        if c.pattern == "random" or m < 2 * _WINDOW + 8 or m % 2:
            return None
        every = np.array([*nodes, *out], dtype=np.int64)
        length, pos, anti = self._circle_of(g, every)
        member = np.arange(len(every)) < m
        first = np.array([camp[c.bias[v]] for v in every], dtype=bool)
        major = 2 * int((first & member).sum()) >= m
        source = first if major else ~first
        if out:
            sources = camp[c.bias[optional[0]]] == major
            self._ring_swap(length, np.where(source, anti, -1), np.where(~source, pos, -1), member,
                            np.isin(every, np.array(optional, dtype=np.int64)), anti if sources else pos, sources)
        held = every[member]
        source, pos, anti = source[member], pos[member], anti[member]
        surplus = int(source.sum()) - m // 2
        wild = self._wild(held, first[member])
        turn = source & wild if int((source & wild).sum()) >= surplus else source.copy()
        if not self._ring_turn(length, anti, pos, source, turn, surplus):
            return None
        slid = _WILD * int(wild.sum()) > m  # nearly every pair meets at no side cost: the pattern's own pairs start it
        if not slid:
            self._ring_exchange(length, anti, pos, source, wild)
        ring = self._ring_phi(length, anti[source], pos[~source])
        if ring is None:
            return None
        if slid:
            self._slid.add(g)
        phi, start, _ = ring
        unrolled, src, snk = self._ring_pairs(length, start, anti, pos, source)
        self._ring_draws(held[src], held[snk], anti[src], pos[snk], unrolled, phi)
        return list(zip(held[src].tolist(), held[snk].tolist())), every[~member].tolist()

    def _wild(self, nodes: np.ndarray, first: np.ndarray) -> np.ndarray:
        """Which of a ring's players ``nodes`` (each in the first camp or not: ``first``) may meet their own camp's
        most common bias at no side cost: a 3 among the 1s (RULES.md 3, ``side_bias_measure: max``). Such a
        player may take either end of a ring pair, so the ring exchanges them between its sources and sinks where
        that shortens it (:meth:`_ring_exchange`), and where the ring's surplus sources turn into sinks, wild ones
        turn first (they pay no side cost). In a group of 415 players of bias -1 and 413 of bias 1, six 3s and four
        -3s (8,000 players, seed 2), the ring that kept them in their camps cost 4,527 units of the pattern, the one
        with them wild 3,977, the stayers' exact pairing 3,855; in the next group the ring's 636 pairs all start
        tight instead of 626."""
        c = self.c
        bias = np.array([c.bias[v] for v in nodes.tolist()], dtype=np.int64)
        out = np.zeros(len(nodes), dtype=bool)
        for side in (True, False):
            here = first == side
            if here.any():
                values, counts = np.unique(bias[here], return_counts=True)
                common = int(values[np.argmax(counts)])
                free = {int(b) for b in values if b != common and self._side_floor(int(b), common) == 0}
                out |= here & np.isin(bias, list(free))
        return out

    @staticmethod
    def _ring_swap(length: int, anti: np.ndarray, pos: np.ndarray, member: np.ndarray, optional: np.ndarray,
                   at: np.ndarray, sources: bool) -> None:
        """Improve which of a ring's ``optional`` players (all sources, at their antipodes, or all sinks, at their
        places: ``at``) are in it (``member``, changed in place), one swap at a time: each swap takes out one and
        puts in another, which moves the ring's flow by one along the stretch between them, and the best swap is
        made while its cost change, counted with the median of the flow held, is below 0 (the true change is no
        larger: the median then only improves it)."""
        for _ in range(int(optional.sum())):
            flow = np.cumsum(np.bincount(anti[member & (anti >= 0)], minlength=length)
                             - np.bincount(pos[member & (pos >= 0)], minlength=length))
            k = np.sort(flow)[(length - 1) // 2]
            up = np.concatenate([[0], np.cumsum(np.where(flow >= k, 1, -1))])
            down = np.concatenate([[0], np.cumsum(np.where(flow <= k, 1, -1))])
            inside, outside = np.nonzero(member & optional)[0], np.nonzero(~member & optional)[0]
            if not len(inside) or not len(outside):
                return
            r, q = at[inside][:, None], at[outside][None, :]
            if sources:  # out at r: -1 from r on; in at q: +1 from q on
                change = np.where(r < q, down[q] - down[r], up[r] - up[q])
            else:  # out at r: +1 from r on; in at q: -1 from q on
                change = np.where(r < q, up[q] - up[r], down[r] - down[q])
            best = np.unravel_index(int(np.argmin(change)), change.shape)
            if change[best] >= 0:
                return
            member[inside[best[0]]], member[outside[best[1]]] = False, True

    def _centres(self, g: int, places: np.ndarray) -> list[np.ndarray]:
        """The ideal partners' places in group ``g`` of players at ``places``: ``slide`` p + h and p - h,
        ``fold`` (and ``random``, whose walks start there too) size - 1 - p (RULES.md 2.5)."""
        c = self.c
        h, size = c.half[g], c.size[g]
        return [places + h, places - h] if c.pattern == "slide" else [size - 1 - places]

    def _walks(self, g: int, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of group ``g`` (``nodes``, in ranking order) that G' takes: from each place p, for each
        ideal partner's place (``slide``: p + h and p - h; ``fold``: size - 1 - p), a walk outwards from it,
        centre first, then one above, one below, and so on. Within ``_WINDOW`` of the centre every partner is
        taken; beyond it only clean ones (:meth:`Costs.clean`), until more than ``2 * _WINDOW`` clean ones have
        been seen. In the order of the walks: by place, then ideal partner, then step."""
        c = self.c
        s = len(nodes)
        places = np.arange(s, dtype=np.int64)
        centres = np.stack(self._centres(g, places), axis=1)
        row_place = np.repeat(places, centres.shape[1])
        row_centre = centres.reshape(-1)
        inside = (row_centre >= 0) & (row_centre < s)
        steps = np.where(inside, 2 * np.maximum(row_centre, s - 1 - row_centre) + 1, 2 * _WINDOW + 1)
        seen = np.zeros(len(row_place), dtype=np.int64)
        """Clean partners met so far on each walk."""
        done = np.zeros(len(row_place), dtype=bool)
        found_row: list[np.ndarray] = []
        found_step: list[np.ndarray] = []
        found_q: list[np.ndarray] = []
        start, width = 0, 4 * _WINDOW + 4
        while True:
            rows = np.nonzero(~done & (steps > start))[0]
            if not len(rows):
                break
            step = np.arange(start, start + width, dtype=np.int64)
            q = row_centre[rows, None] + (step + 1) // 2 * np.where(step % 2 == 1, 1, -1)
            p = row_place[rows, None]
            valid = (step[None, :] < steps[rows, None]) & (q >= 0) & (q < s) & (q != p)
            fine = np.zeros(valid.shape, dtype=bool)
            a, b = np.broadcast_to(p, q.shape)[valid], q[valid]
            fine[valid] = c.clean(nodes[np.minimum(a, b)], nodes[np.maximum(a, b)])
            before = seen[rows, None] + np.cumsum(fine, axis=1) - fine
            near = step <= 2 * _WINDOW
            stop = ~near[None, :] & (before > 2 * _WINDOW)
            take = valid & (near[None, :] | fine) & ~stop
            r, k = np.nonzero(take)
            found_row.append(rows[r])
            found_step.append(step[k])
            found_q.append(q[r, k])
            seen[rows] += fine.sum(axis=1)
            done[rows] |= stop.any(axis=1)
            start += width
            width *= 2
        row, step_, q_ = np.concatenate(found_row), np.concatenate(found_step), np.concatenate(found_q)
        order = np.lexsort((step_, row))
        return nodes[row_place[row[order]]], nodes[q_[order]]

    def _lowest_draws(self, g: int, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of group ``g`` (``nodes``) that G' takes under ``within_group: random``, where every pair of the
        group ties at the pattern level and the seeded draw decides (RULES.md 2.5, 2.11): each player with its
        ``_DRAWN`` partners of lowest draw among those it may meet (a random assignment's cheapest matching
        uses low draws), computed a block of rows at a time. Under ``colours: alternate`` also its ``_SPARING`` of
        lowest colour levels (RULES.md 2.10, the better colour choice of each pair), then draw: by draw alone, the
        partners that spare both players a colour preference were missing, and the first check found 24,000 failing
        pairs at 2,000 players (1.4 CPU seconds, 0.46 with them; at 8,000 players 107 and 4.7); by colour alone, a
        group whose players are due one colour more than the other had too few pairs due the same colour for a
        perfect matching in G', and the searches widened whole rows. A player who may take neither colour breaks a
        hard limit with anyone, and two of them meet for one breach (RULES.md 2.1, level 6), so it also takes its
        ``_SPARING`` of lowest draw among those like it, the colour preference first: after a history with Player A
        by a coin, at 8,000 players, 24 CPU seconds became 6.5. Under ``sides: single`` likewise its ``_SPARING``
        partners that it meets at no side cost first (RULES.md 3: a side cost sits at the score level), then by
        draw: by draw alone, half of them or more were of its own side bias, and the first check found 15,000
        failing pairs at 8,000 players (2.9 to 3.2 CPU seconds became 2.1 to 2.3; after a history with Player A by a
        coin, 5.7 became 3.7). In a plain event (no colours or sides) the same
        pass keeps the group's pairs of draw below the one that ``_BELOW`` partners of each player fall under on
        average, for the check (:meth:`_check_drawn`)."""
        c = self.c
        keys = c.key_array[nodes]
        s = len(nodes)
        take, wide = min(_DRAWN, s - 1), min(_SPARING, s - 1)
        step = max(1, (1 << 20) // s)
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        below = -(-DRAWS * _BELOW // s) if not c.mode and s > 2 * _BELOW else 0
        neither = ~c._white_ok[nodes] & ~c._black_ok[nodes]
        low: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for start in range(0, s, step):
            block = np.arange(start, min(s, start + step), dtype=np.int64)
            draws = pair_draw(keys[block][:, None], keys[None, :])
            if below:
                x, y = np.nonzero((draws < below) & (np.arange(s)[None, :] > block[:, None]))
                low.append((block[x], y, draws[x, y]))
            i, j = np.broadcast_to(nodes[block][:, None], draws.shape), np.broadcast_to(nodes[None, :], draws.shape)
            lo, hi = np.minimum(i, j).reshape(-1), np.maximum(i, j).reshape(-1)
            fine = (lo != hi) & c.allowed_many(lo, hi)
            allowed = fine.reshape(draws.shape)
            orders: list[tuple[slice | np.ndarray, np.ndarray, int]] = [(slice(None), draws, take)]
            if c.mode == "sides":  # the pairs that meet at no side cost first, then the draw
                floors = c.side_floors(c._bias[nodes[block]][:, None], c._bias[nodes][None, :])
                orders.append((slice(None), draws + (floors > 0) * DRAWS, wide))
            if c.mode == "colours":  # the colour levels first, then the draw
                levels = best_colours(c, lo, hi).reshape(draws.shape)
                orders.append((slice(None), draws + levels * DRAWS, wide))
                mine = neither[block]
                if mine.any():  # a player who may take neither colour: those like it first, then preference, draw
                    unlike = (~neither).astype(np.int64)[None, :]
                    orders.append((mine, draws[mine] + (2 * unlike + levels[mine] % 2) * DRAWS, wide))
            for at, order, most in orders:
                best = np.argpartition(np.where(allowed[at], order, 1 << 20), most - 1, axis=1)[:, :most]
                rows.append(np.repeat(nodes[block][at], most))
                cols.append(nodes[best.reshape(-1)])
        if below:
            self._low_draws[g] = (np.concatenate([x for x, _, _ in low]), np.concatenate([y for _, y, _ in low]),
                                  np.concatenate([d for _, _, d in low]), below)
        return np.concatenate(rows), np.concatenate(cols)

    def _widen_rows(self, m: Matcher, stuck: Sequence[int], reach: dict[int, int]) -> bool:
        """Give the players of a tree that found no augmenting path more edges: first every allowed pair
        with their own and the adjacent groups (and the bye), then every allowed pair. ``False`` when
        they have them all already: the tree's inner vertices are then a Tutte barrier of G (removing
        them leaves more odd components, the outer blossoms, than they are), so G has no perfect matching."""
        c = self.c
        while any(reach.get(v, 0) < 2 for v in stuck):
            added = False
            for v in stuck:
                level = reach.get(v, 0)
                if level == 2:
                    continue
                reach[v] = level + 1
                if level == 1 or v == c.bye:
                    reach[v] = 2
                    others: Iterable[int] = range(c.nodes)
                else:
                    g = c.group_of[v]
                    others = [x for h in range(max(0, g - 1), min(c.groups, g + 2)) for x in c.members[h]]
                    if c.bye >= 0:
                        others = [*others, c.bye]
                targets = np.array([x for x in others if x != v], dtype=np.int64)
                for i, j in self._add(np.full(len(targets), v, dtype=np.int64), targets):
                    m.add_edge(i, j, 2 * self.edges[i, j])
                    m.repair(v, j if i == v else i)
                    added = True
            if added:
                return True
        return False

    # -- start duals ----------------------------------------------------------------------------------

    def _ideal(self) -> dict[int, int]:
        """Allowed ideal pairs (pattern cost 0), disjoint (in the lowest group of an odd field the slide
        pattern's last pair would reuse a player), each group's upper member first."""
        c = self.c
        mate: dict[int, int] = {}
        if c.pattern == "random":
            return mate
        for g, mem in enumerate(c.members):
            s = len(mem)
            clean = self._clean_pairs(g)
            for p in range(s):
                q = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
                if p < q < s and mem[p] not in mate and mem[q] not in mate and (mem[p], mem[q]) in self.edges \
                        and (p, q) in clean:
                    mate[mem[p]] = mem[q]
                    mate[mem[q]] = mem[p]
            if not c.mode:
                continue
            for p in range(s):  # two-edge modes: the nearest clean partner of the ideal position
                ideal = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
                if mem[p] in mate or ideal <= p:
                    continue
                for step in range(1, 4 * _WINDOW + 2):
                    q = ideal + (step + 1) // 2 * (1 if step % 2 else -1)
                    if p < q < s and mem[q] not in mate and (mem[p], mem[q]) in self.edges and (p, q) in clean:
                        mate[mem[p]] = mem[q]
                        mate[mem[q]] = mem[p]
                        break
        return mate

    def _clean_pairs(self, g: int) -> set[tuple[int, int]]:
        """The clean pairs of places (p, q), p < q, of group ``g`` that :meth:`_ideal` may take: each place
        with its ideal partner's place and, in the two-edge modes, the ``4 * _WINDOW + 1`` places nearest to
        it (computed once per solve)."""
        if g in self._clean_cache:
            return self._clean_cache[g]
        c = self.c
        mem = np.array(c.members[g], dtype=np.int64)
        s = len(mem)
        p = np.arange(s, dtype=np.int64)
        ideal = p + c.half[g] if c.pattern == "slide" else c.size[g] - 1 - p
        step = np.arange(4 * _WINDOW + 2 if c.mode else 1, dtype=np.int64)
        q = ideal[:, None] + (step + 1) // 2 * np.where(step % 2 == 1, 1, -1)
        pp = np.broadcast_to(p[:, None], q.shape)
        keep = (pp < q) & (q < s)
        a, b = pp[keep], q[keep]
        signs = self._colour_signs()
        if any(v in signs for v in mem.tolist()):
            # colour levels only, as the lifts price them (:meth:`_colour_signs`): tight there, as a clean pair is
            # elsewhere; a clean pair of two lowered players is loose and would start free
            table = c.level_table(mem[a], mem[b])[:, :PATTERN]
            lifted = np.array([signs.get(v, (0, 0)) for v in mem.tolist()], dtype=np.int64).reshape(-1, 2)
            priced = ((2 * table[:, COLOUR_HARD] == lifted[a, 0] + lifted[b, 0])
                      & (2 * table[:, COLOUR_PREF] == lifted[a, 1] + lifted[b, 1]))
            fine = priced & (table.sum(axis=1) == table[:, COLOUR_HARD] + table[:, COLOUR_PREF])
        else:
            fine = self.c.clean(mem[a], mem[b])
        out = set(zip(a[fine].tolist(), b[fine].tolist()))
        self._clean_cache[g] = out
        return out

    def _colour_major(self, g: int) -> int:
        """Under ``colours: alternate``, the colour (1 White, 2 Black) that more players of group g are due than
        all the others together (:meth:`_colour_lifts`), else 0."""
        c = self.c
        if c.mode != "colours":
            return 0
        due = [c.due[v] for v in c.members[g]]
        return next((colour for colour in (1, 2) if 2 * due.count(colour) > len(due)), 0)

    def _colour_signs(self) -> dict[int, tuple[int, int]]:
        """Under ``colours: alternate``, each lifted player's signs at the colour hard and preference levels
        (+1 lifted, -1 lowered, 0 neither), group by group (RULES.md 2.10).

        * **Hard.** Where the players who may take only one colour outnumber those who may take only the other
          by more than those who may take either (:meth:`_colour_short`), the surplus must meet each other, each
          such pair breaking a hard limit: that class and the players who may take neither colour (who break one
          with anyone) are lifted, the others lowered. In any other group, players who may take neither colour
          are lifted alone (two of them meet for one breach).
        * **Preference.** Where more players are due one colour than all the others together, some of them must
          meet each other at the preference level: they are lifted, the others lowered.

        With the lifts of :meth:`_colour_lifts`, a pair of two lifted players is tight at the level, a lifted and
        a lowered one at no cost there, and every pair of the group stays feasible at it. Computed once per
        solve."""
        c = self.c
        if self._signs is not None:
            return self._signs
        signs: dict[int, tuple[int, int]] = {}
        self._signs = signs
        if c.mode != "colours":
            return signs
        for g, mem in enumerate(c.members):
            nodes = np.array(mem, dtype=np.int64)
            white, black = c._white_ok[nodes], c._black_ok[nodes]
            only_white, only_black = white & ~black, black & ~white
            surplus = int(only_black.sum()) - int(only_white.sum())
            either = int((white & black).sum())
            neither = ~white & ~black
            hard = np.zeros(len(mem), dtype=np.int64)
            if abs(surplus) > either:
                hard = np.where((only_black if surplus > 0 else only_white) | neither, 1, -1)
            elif neither.any():
                hard = neither.astype(np.int64)
            colour = self._colour_major(g)
            due = c._due[nodes]
            pref = np.where(due == colour, 1, -1) if colour else np.zeros(len(mem), dtype=np.int64)
            for v, h, p in zip(mem, hard.tolist(), pref.tolist()):
                if h or p:
                    signs[v] = (h, p)
        return signs

    def _colour_hard(self, g: int) -> bool:
        """Whether :meth:`_colour_signs` lifts or lowers players of group g at the colour hard level: their
        potentials then lie a hard level apart, and the check bounds each pair by its own colour levels
        (:meth:`_colour_bound`) rather than by a floor."""
        if self._hard_groups is None:
            signs = self._colour_signs()
            self._hard_groups = [any(signs.get(v, (0, 0))[0] for v in mem) for mem in self.c.members]
        return self._hard_groups[g]

    def _colour_lifts(self) -> dict[int, int]:
        """Under ``colours: alternate``, the start potential's lift of each player :meth:`_colour_signs` lifts or
        lowers: about the colour hard and preference levels' multipliers (the even number at or below each), by
        its signs. This keeps every pair of a group feasible at those levels and the pairs between a lifted and
        a lowered player as tight as before."""
        c = self.c
        hard = c.multipliers[COLOUR_HARD] & ~1  # even: every potential keeps its parity (:mod:`.blossom`)
        pref = c.multipliers[COLOUR_PREF] & ~1
        return {v: h * hard + p * pref for v, (h, p) in self._colour_signs().items()}

    def _ideal_start(self, m: Matcher, skip: set[int]) -> list[bool]:
        """The ideal pairs of the groups not in ``skip`` under a staircase of potentials (the upper member of a
        pair in group g gets -(g+1) * 2**17, the lower one twice the pair's cost plus as much) and the colour lifts
        (:meth:`_colour_lifts`). A pair whose colour levels the lifts price (each level's cost twice the sum of its
        two signs, :meth:`_colour_signs`) starts matched and tight; any other starts free, its lower member
        without the pair's colour cost, so that its other pairs stay feasible. Which nodes got a potential."""
        c = self.c
        d = m.p
        placed = [False] * c.nodes
        signs = self._colour_signs()
        lifts = self._colour_lifts()
        pairs = [(u, v) for u, v in self._ideal().items()
                 if c.place_of[u] < c.place_of[v] and c.group_of[u] not in skip]
        if not pairs:
            return placed
        ends = np.array(pairs, dtype=np.int64)
        table = c.level_table(ends[:, 0], ends[:, 1])
        hard, pref = table[:, COLOUR_HARD].tolist(), table[:, COLOUR_PREF].tolist()
        mult = c.multipliers
        for (u, v), hb, pb in zip(pairs, hard, pref):
            step = (c.group_of[u] + 1) << 17
            su, sv = signs.get(u, (0, 0)), signs.get(v, (0, 0))
            d[u] = -step + lifts.get(u, 0)
            if 2 * hb == su[0] + sv[0] and 2 * pb == su[1] + sv[1]:
                d[v] = 2 * self.edges[u, v] - d[u]
                m.mate[u], m.mate[v] = v, u
            else:
                d[v] = 2 * (self.edges[u, v] - mult[COLOUR_HARD] * hb - mult[COLOUR_PREF] * pb) + step + lifts.get(v, 0)
            placed[u] = placed[v] = True
        return placed

    def _matcher(self) -> Matcher:
        """G' with start duals: the ideal pairs matched under a staircase of potentials and the colour lifts
        (:meth:`_ideal_start`), so that floats and pattern changes between ideal pairs are never cheaper than the
        pairs themselves; every other node the largest potential its edges to those allow; any edge still
        infeasible repaired.

        Under ``sides: single`` the start of :meth:`_side_matcher`, under ``within_group: random`` (no ideal
        pairs) that of :meth:`_cheapest_start`."""
        c = self.c
        if c.mode == "sides":
            return self._side_matcher()
        m = self._graph()
        if c.pattern == "random":
            self._cheapest_start(m)
            return m
        if c.mode == "colours" and self._rings:
            self._ring_start(m)
            return m
        d = m.p
        placed = self._ideal_start(m, set())
        for v in range(c.nodes):
            if not placed[v]:
                d[v] = min((w - d[x] for x, w in m.adj[v].items() if placed[x]), default=0)
                placed[v] = True
        self._repair_all(m)
        return m

    @staticmethod
    def _cheapest_start(m: Matcher) -> None:
        """Start duals under ``within_group: random``, where every pair of a score group ties at the pattern level
        and the seeded draw decides (RULES.md 2.5, 2.11), so a group has no ideal pairs: each player's potential is
        half the weight of its cheapest pair in G' (rounded down to an even number, as :mod:`.blossom` needs), the
        duals of every player taking its cheapest partner. A pair weighs at least either end's cheapest, so every
        edge is feasible. From potentials of 0 the first solve's searches each rose through the draws of a whole
        group, and the last of a group's to its floats: at 8,000 players in round 12 they took 2.3 CPU seconds, from
        these 0.8. Then each player in turn takes the least slack of its pairs (:meth:`Matcher.reduce`: every edge
        stays feasible and each player has a tight one), and the pairs tight then start matched: a quarter of the
        players are left free instead of three quarters."""
        p = m.p
        for v in range(m.n):
            p[v] = min(m.adj[v].values(), default=0) // 4 * 2
        m.reduce(range(m.n))
        m.match_tight()

    def _graph(self) -> Matcher:
        """A matcher on G', each edge weighing twice its reduced cost (:mod:`.blossom` needs even weights)."""
        m = Matcher(self.c.nodes)
        for (i, j), cost in self.edges.items():
            m.add_edge(i, j, 2 * cost)
        return m

    def _repair_all(self, m: Matcher) -> None:
        """Repair every edge of G' that the start potentials leave infeasible (:meth:`Matcher.repair`)."""
        p = m.p
        for (i, j), cost in self.edges.items():
            if 2 * cost < p[i] + p[j]:
                m.repair(i, j)

    def _side_matcher(self) -> Matcher:
        """G' under ``sides: single`` from the start of :meth:`_block_start`, any edge still infeasible repaired.
        The searches start from the free players by their place in their score group, each place in group order
        (the first of every group, then the second, and so on): spread over the field, as a search from the top of
        a chain of floats walks it to the bottom while spread-out searches meet free players nearer by. At 8,000
        players, against an order by a multiplicative hash of the ranking position, the solves' searches
        labelled 16% fewer blossoms over 18 states, a third fewer after swisspair histories (where whole groups
        float: 6.4 to 8.4 CPU seconds became 4.3 to 6.6, in the same sitting) and up to a quarter fewer after greedy
        ones (2.3 to 4.1 became 2.3 to 3.6); after random histories the few players left to the searches without the
        cap fell in middle groups, whose rises at the score level span the field (4.3 to 8.1 became 4.7 to 9.0).
        Under ``sides: double`` as fast."""
        c = self.c
        m = self._graph()
        self._side_start(m)
        m.order = sorted(range(c.nodes), key=lambda v: (c.place_of[v], c.group_of[v]) if v < c.n else (0, c.groups))
        return m

    def _side_start(self, m: Matcher) -> None:
        """Set the start of :meth:`_block_start` on ``m`` (nothing matched yet, or anew on a matcher that no search
        has run on, after edges were added: as on a matcher built afresh, whose edges are in the same order), any
        edge still infeasible repaired."""
        m.p = [0] * self.c.nodes
        m.mate = [-1] * self.c.nodes
        self._block_start(m)
        self._repair_all(m)

    def _ring_start(self, m: Matcher) -> None:
        """Start duals and matching under ``colours: alternate`` with ``slide`` or ``fold``: each group's ring
        potentials (:meth:`_colour_ring`), every other node the largest potential its edges to those allow, any edge
        still infeasible repaired. Then the seeded draws: each ring's sinks, then its sources, then everyone else takes
        the least slack of its edges (:meth:`Matcher.reduce`: every edge stays feasible); the ring pairs that are
        tight start matched, then the expected floats (:meth:`_floaters`), then any tight pair of free players. All
        potentials stay even, as :mod:`.blossom` needs."""
        c = self.c
        d = m.p
        adj = m.adj
        placed = [False] * c.nodes
        for _, pot in self._rings:
            for v, x in pot.items():
                d[v] = x
                placed[v] = True
        ringed = {c.group_of[pairs[0][0]] for pairs, _ in self._rings if pairs}
        ideal = self._ideal_start(m, ringed)  # groups without a ring: their ideal pairs, as :meth:`_matcher` starts
        placed = [a or b for a, b in zip(placed, ideal)]
        for v in range(c.nodes):
            if not placed[v]:
                d[v] = min((w - d[x] for x, w in adj[v].items() if placed[x]), default=0)
                placed[v] = True
        self._repair_all(m)
        sinks = [w for pairs, _ in self._rings for _, w in pairs]
        sources = [u for pairs, _ in self._rings for u, _ in pairs]
        inside = set(sinks) | set(sources)
        m.reduce([*sinks, *sources, *(v for v in range(c.nodes) if v not in inside)])
        mate = m.mate
        for u, v in [pair for pairs, _ in self._rings for pair in pairs] + self._floats:
            if mate[u] == -1 and mate[v] == -1 and adj[u].get(v) == d[u] + d[v]:
                mate[u], mate[v] = v, u
        m.match_tight()

    def _block_start(self, m: Matcher) -> None:
        """Start duals and matching under ``sides: single`` (RULES.md 3), where players cross score groups to
        meet an opposite side bias.

        * **Score, side and float height.** These depend only on the two players' blocks (score group and
          side bias, :meth:`_blocks`), so the top of the cheapest pairing is a fractional matching of blocks,
          whose duals :func:`.transport.block_duals` gives: ``s_A + s_B <= 2 C_AB`` for every two blocks, tight
          wherever the blocks' optimal flow runs. Each player's potential is its block's ``s`` times the float
          height multiplier.
        * **Float balance and who floats.** Plus the player's own dual at these levels from the second
          transport, over the roles (:meth:`_blocks`): every pair of G stays feasible, and the pairs along the
          roles' flow are tight down to who floats.
        * **Pattern and draw.** Each player in ranking order then takes the least slack of its candidate pairs,
          up to just below one unit of who floats (:meth:`Matcher.reduce`: every pair of G'
          stays feasible and each player has a tight one; the cap keeps a player whose partners G' lacks at
          its dual above), and the tight pairs are matched greedily in the same order, at most as many between
          two blocks as the roles' flow pairs there.
        * **The stayers of a large group**: before that, their own exact pairing
          (:meth:`_ring_solve`) gives them their pattern and draw duals and their pairs. Inside a group the
          pattern (RULES.md 2.5) ties along each stretch of the ring, where any of its sources may meet any of its
          sinks, so the seeded draw (RULES.md 2.11) chooses among hundreds of players: a random assignment, which
          the field's searches would solve one augmenting path at a time (in the largest group at 8,000 players, 22
          of the ring's 605 pairs were in the pairing found). The others then take their reductions as above.

        Only the start depends on this: the solve and the certificate make the result exact whatever it is.
        All potentials are even, as :mod:`.blossom` needs."""
        c = self.c
        mult = c.multipliers
        of, s, quota, roles = self._blocks()
        quota = quota.copy()
        d = m.p
        for v in range(c.nodes):
            d[v] = (mult[HEIGHT] * s[of[v]] + roles[v]) & ~1
        adj, mate = m.adj, m.mate
        cap = (mult[WHO_FLOATS] - 1) & ~1
        placed = [False] * c.nodes
        for v, (rise, x) in self._ring_solve(m, cap).items():
            d[v] += rise
            placed[v] = True
            if x > v:
                mate[v], mate[x] = x, v
                quota[of[v], of[x]] -= 1
                if of[v] != of[x]:
                    quota[of[x], of[v]] -= 1
        m.reduce((v for v in range(c.nodes) if not placed[v]), cap)
        for v in range(c.nodes):
            if mate[v] == -1:
                pv = d[v]
                for x, w in adj[v].items():
                    if mate[x] == -1 and w == pv + d[x] and quota[of[v], of[x]] > 0:
                        mate[v], mate[x] = x, v
                        quota[of[v], of[x]] -= 1
                        if of[v] != of[x]:
                            quota[of[x], of[v]] -= 1
                        break

    def _ring_solve(self, m: Matcher, cap: int) -> dict[int, tuple[int, int]]:
        """The stayers of each group whose ring holds ``_PRESOLVE`` pairs or more, paired exactly among themselves
        on G' from ``m``'s potentials (those of the top levels, :meth:`_block_start`): the pairs whose reduced
        weight is below ``cap`` (one unit of who floats: the pattern and draw of pairs tight above), solved by
        their own :class:`Matcher` on those small weights, from the ring's potentials (:meth:`_ring_potentials`)
        each reduced to its least slack, the players with the most pairs those fail first: a wild player fails with
        dozens of its own camp, and lowered first it lowers alone, where in ranking order each of those players
        lowered in turn lost its ring partner (seed 2 at 8,000 players: 314 free before the bids instead of 450, and
        a third less labelled in the largest group's searches). Each stayer's rise above its potential and its
        partner; a group without a perfect matching there is left out. Blossoms left at the end are dissolved
        (:meth:`Matcher.flatten`), which keeps the rises feasible on those pairs. Computed once: the start set
        again after the check of the first one (:meth:`_settle`) takes the same, and the pairs that check adds
        between stayers are repaired there (at 8,000 players that check then finds 9,400 of the stayers' failing
        pairs before the first solve instead of after it, and the searches scan 1.8 million edges instead of
        2.5)."""
        if self._stayers_start is not None:
            return self._stayers_start
        p, adj = m.p, m.adj
        out: dict[int, tuple[int, int]] = {}
        for g, ring in enumerate(self._stayers):
            if len(ring) < _PRESOLVE:
                continue
            members = sorted({v for pair in ring for v in pair})
            index = {v: k for k, v in enumerate(members)}
            sub = Matcher(len(members))
            for v in members:
                for x, w in adj[v].items():
                    if x > v and x in index and 0 <= w - p[v] - p[x] < cap:
                        sub.add_edge(index[v], index[x], w - p[v] - p[x])
            q = sub.p = self._ring_potentials(g, members, ring)
            short = [sum(1 for x, w in sub.adj[k].items() if w < q[k] + q[x]) for k in range(sub.n)]
            sub.reduce(sorted(range(sub.n), key=lambda k: -short[k]))
            sub.match_tight()
            sub.order = sorted(range(sub.n), key=lambda k: (k * 0x9E3779B9) & 0xFFFFFFFF)
            sub.bid(cap)
            if sub.run():
                continue
            sub.flatten()
            for k, v in enumerate(members):
                out[v] = (q[k], -1 if sub.mate[k] == -1 else members[sub.mate[k]])
        self._stayers_start = out
        return out

    def _ring_potentials(self, g: int, members: Sequence[int], ring: Sequence[tuple[int, int]]) -> list[int]:
        """Start potentials of group ``g``'s stayers ``members`` at the pattern level from their ``ring`` (sources
        first in each pair), in the units of :meth:`_ring_solve`'s weights: the ring's potentials phi, as under
        ``colours: alternate`` (:meth:`_colour_ring`), a player of the sources' camp (:meth:`_side_camps`) taking
        the lower of its two roles, one of the other camp its sink's, or its source's where the ring made it a
        source (:meth:`_wild`). Every pair of stayers keeps its pattern level's constraint (phi is 1-Lipschitz on
        the circle) but two of the sinks' camp, who pay the side cost at the score level unless one is wild (the
        reductions that follow lower them where such a pair is a candidate), and the ring's pairs of opposite camps
        are tight at it, so the searches that follow rise at the draws only: at 8,000 players they took 0.17 CPU
        seconds instead of 0.58, for 270 free players instead of 690. Zeros where the ring has no closed form, and
        where more than a quarter of the ring is wild (``_WILD``, :meth:`_side_ring`): after a history with sides by
        a coin the biases spread (-7 to 9 by round 10) and about half of each ring is, nearly every pair of the
        group meets at no side cost and the camps no longer say who meets whom, so the pattern's own ideal pairs are
        the pattern's cheapest, whose potentials are 0. From the ring's, the stayers' searches there rose by 20
        units of the pattern and more, at 8,000 players 1.3 CPU seconds of the start; from 0, 0.2."""
        if g in self._slid:
            return [0] * len(members)
        c = self.c
        length, pos, anti = self._circle_of(g, members)
        sources = {u for u, _ in ring}
        source = np.array([v in sources for v in members], dtype=bool)
        ring_phi = self._ring_phi(length, anti[source], pos[~source])
        if ring_phi is None:
            return [0] * len(members)
        phi = ring_phi[0]
        shift = int(np.min((-(phi[anti[source]] + phi[pos[source]])) // 2))
        first = np.array([self._camps[g][c.bias[v]] for v in members], dtype=bool)
        either = first == (2 * int((first & source).sum()) >= int(source.sum()))
        value = np.where(either, np.minimum(phi[anti] + shift, -phi[pos] - shift),
                         np.where(source, phi[anti] + shift, -phi[pos] - shift))
        twice = 2 * c.multipliers[PATTERN]
        return [twice * x for x in value.tolist()]

    # -- solve ----------------------------------------------------------------------------------------

    def solve(self) -> tuple[dict[int, int], Proof] | None:
        """The cheapest pairing of G with its proof; ``None`` when G has no perfect matching.

        Each pass solves G' exactly on the reduced costs and widens it until the duals hold on all of G.
        When the pairing then crosses an odd boundary more than once, the bound falls short by the extra
        crossings' z_k (a pairing optimal for the reduced costs need not be for the true ones): those
        boundaries lose their z_k (set to 0, which costs every crossing in full) and the pass repeats, at
        most once per odd boundary, carrying on from the last solve: a crossing pair's reduced cost only rises
        (:meth:`Matcher.raise_edge` undoes what it held tight), so the duals stay feasible and only the players
        of those pairs are searched for again, not the whole field.
        """
        c = self.c
        m: Matcher | None = None
        while True:
            settled = self._settle(m)
            if settled is None:
                return None
            m, bad = settled
            if bad:
                return self._fallback(m, bad)
            mate = dict(enumerate(m.mate))
            cost = self._cost(m.mate)
            bound2 = m.dual() + 2 * sum(c.boundary_dual[k] for k in self.odd)
            if 2 * cost == bound2:
                return mate, Proof(True, 0, c.radix(0), len(self.edges), self.widenings, "sparse graph, LP duals")
            again = [k for k in self.odd if c.boundary_dual[k] and self._crossings(m.mate, k) > 1]
            if not again:
                gap = cost - (bound2 + 1) // 2
                return mate, Proof(False, gap, c.radix(gap), len(self.edges), self.widenings, "sparse graph")
            for k in again:
                c.boundary_dual[k] = 0
            self._prefix_sums()
            pairs = np.array(list(self.edges), dtype=np.int64).reshape(-1, 2)
            self.edges = dict(zip(self.edges, c.reduced_many(pairs[:, 0], pairs[:, 1])))
            for (i, j), cost in self.edges.items():
                if 2 * cost != m.adj[i][j]:
                    m.raise_edge(i, j, 2 * cost)

    def _cost(self, mate: Sequence[int]) -> int:
        """The weight of a perfect matching given by each node's mate."""
        pairs = np.array([(u, v) for u, v in enumerate(mate) if u < v], dtype=np.int64).reshape(-1, 2)
        return sum(self.c.weights(pairs[:, 0], pairs[:, 1]))

    def _settle(self, m: Matcher | None = None) -> tuple[Matcher, list[tuple[int, int, int]]] | None:
        """Solve G' and widen it by the pairs of G whose dual constraint fails, until none does (no
        violations returned) or the rounds run out (the last violations); ``None`` when G has no perfect matching. Every
        widening carries on from the previous solve, each added pair repaired (:meth:`Matcher.repair`): that is the
        faster at every size measured, as a repair frees only players whose searches stay near them while a fresh start
        repeats every search of the first solve (under ``colours: alternate`` at 8,000 players the repaired solve frees
        2,800 players where the closed-form start leaves 3,700; under ``sides: single`` at 2,000, 1.1 CPU seconds
        against 4.7; from the start by blocks at 8,000 players, 71 against 195). Under ``sides: single`` the start's
        duals (the large groups' stayers from their own pairing, :meth:`_ring_solve`) are checked against G, their
        failing pairs added and the start set again, and before each solve the free players bid for partners
        (:meth:`Matcher.bid`). Before the first solve each rise stays below one unit of who floats (as the start's
        reductions): at 8,000 players half as many players are left free for the searches, and the searches label a
        quarter fewer blossoms. After a widening each rise stays below 8 units of the pattern: the repaired players'
        partners were settled by the first solve, and larger rises there sent the searches after a random history into
        rises at the score level (at 2,000 players 42,000 blossoms labelled against 12,000; after a swisspair history
        52,000 without bids, 17,000 with). Under ``colours: alternate`` the free players bid after a widening only, each
        rise below 8 units of the pattern as under ``sides: single``: at 8,000 players the searches of the benchmark's
        colours state push a twelfth fewer edges, those of round 15 after a swisspair history as many; bids before the
        first solve (the rings' start) measured no faster. Under ``within_group: random`` they bid before the first
        solve, each rise below one unit of who floats (as under sides): from :meth:`_cheapest_start` a random
        assignment's ties, where at 8,000 players in round 12 after a random history they leave 180 players free of
        1,928, and the first solve took 0.2 CPU seconds instead of 1.6. In the other modes the bids measured no
        faster, so their searches start at once.

        Under ``sides: single`` a search stops before its duals change by a whole unit of who floats (the cap of
        :meth:`Matcher.run`), its player left free: the start is exact down to that level, so a search that
        would rise further does so because G' lacks the pairs that G has there, and every search after it
        would climb on its raised duals. The check then adds the pairs that the raised duals violate. Once the
        check finds none while players are still free, the rises are the pairing's own (a fractional cheapest
        pairing of the blocks, whose odd sets need rises at the score level), and the searches go on without
        the cap; the last round never has it. After a history paired by swisspair, at 8,000 players, the first
        solve without the cap left duals that 100,000 pairs of G violated at the score level, and the solve
        did not end within ten minutes; with it, 11 to 12 CPU seconds.

        Those searches without the cap rise at the score level across most of the field, and where the pairs of G
        that their duals fail are repaired, each repair frees two players whose searches rise that far again; after
        some histories the same holds for the first solve's. So the duals that every pair of G held last (the start
        once its failing pairs joined G', or a check that found none failing while players were still free) are
        kept, and where the repairs and bids leave more than twice as many players free as the bids did from those
        duals, the solve starts again from them instead, every pair added since kept in G' (the start's own set
        again after its check may fail some: those are repaired), up to ``_BACK`` times. At 8,000 players in round
        12 with 15% draws (seed 3), the first solve without the cap left 4,975 failing pairs: repaired, they freed
        222 players and took 6 CPU seconds of searches; started again, two more solves of 2 free players, 0.5 s
        each. After one swisspair history at 8,000 players the first solve's 8,010 failing pairs left 2,428 players
        free after the repairs and bids (78 CPU seconds of searches) where the start's bids had left 674: started
        again, 4.7 seconds and 266 failing pairs."""
        reach: dict[int, int] = {}
        bad: list[tuple[int, int, int]] = []
        ids: dict[tuple[int, int, int], int] = {}
        """The chains of blossoms that the checks' readings number (:meth:`Matcher.weighted`)."""
        last: _Checked | None = None
        clean: _Clean | None = None
        """The last duals to go back to."""
        held: _Clean | None = None
        """Such duals, until the bids that follow them."""
        back = _BACK
        cap = 2 * self.c.multipliers[WHO_FLOATS] if self.c.mode == "sides" else None
        for attempt in range(_ROUNDS):
            if m is None:
                m = self._matcher()
                if self.c.mode == "sides" and attempt == 0:  # the start's own violations join G' first
                    early = self._check(m, m.p)
                    last = _Checked.of(m, early, ids)
                    if early:
                        self._join(m, [(i, j) for _, i, j in early])
                        self._side_start(m)
                    held = _Clean(last, m.saved(), False)
            else:
                for _, i, j in bad:
                    if (i, j) in self.edges:
                        m.add_edge(i, j, 2 * self.edges[i, j])
                        m.repair(i, j)
            most = self._bid_bound(attempt)
            if most is not None:
                m.bid(most)
            if held is not None:
                held.most, held.free = most, m.mate.count(-1)
                clean, held = held, None
            elif clean is not None and back and m.mate.count(-1) > 2 * clean.free:  # go back rather than repair
                last = clean.checked
                m.restore(clean.saved)
                if not clean.whole:  # the start (without blossoms) set again after its check may fail pairs added since
                    self._repair_all(m)
                if clean.most is not None:
                    m.bid(clean.most)
                back -= 1
            if attempt == _ROUNDS - 1:
                cap = None  # the last round leaves nobody free
            stuck = m.run(cap)
            while stuck:
                if not self._widen_rows(m, stuck, reach):
                    return None
                stuck = m.run(cap)
            bad = self._check_near(m, None if last is None else last.changed(m), cap is None)
            last = _Checked.of(m, bad, ids)
            if not bad:
                if -1 not in m.mate:
                    break
                cap = None  # the rises are the pairing's own: the searches go on without the cap
                held = _Clean(last, m.saved(), True)
                continue
            self.widenings += 1
            if self.progress and self.c.nodes >= _LARGE:  # routine; worth a line only where a person waits
                self.progress(f"Pairing {self.c.nodes} players: looking at more possible opponents "
                              f"(pass {attempt + 2})")
            self._add(np.array([i for _, i, _ in bad], dtype=np.int64),
                      np.array([j for _, _, j in bad], dtype=np.int64))
        assert m is not None
        return m, bad

    def _check_near(self, m: Matcher, changed: np.ndarray | None, uncapped: bool) -> list[tuple[int, int, int]]:
        """The pairs of G that ``m``'s duals fail (:meth:`_check`). Under ``sides: single`` (but ``within_group:
        random``), after searches without the cap, the same check also lists the pairs outside G' that hold by
        less than ``_NEAR``, and where some pair fails, those join G' at once: the search that follows (after
        going back to the last clean duals, or the repairs) rises by about as little as they hold by, and would
        fail them next. In two states of 8,000 players (seed 3 in round 12, and seed 2), every pair that failed
        after the second try of a search without the cap (1 and 3 pairs) had held by less than that at the first
        try's duals, and each try labels most of the field again (4,350 players, 0.25 CPU seconds with its check):
        a third try saved, for a check that lists more (a tenth longer). Where the near pairs fill their list
        (``_NEAR_MOST``), none joins. Only there: the checks before rise the other ways, and listing the near pairs
        at every check cost more than it saved; and not under ``within_group: random``, where the draw decides
        every pair of a group (tried in every mode, such rounds took up to half again as long at 8,000 players)."""
        c = self.c
        if not uncapped or c.mode != "sides" or c.pattern == "random":
            return self._check(m, m.p, changed)
        listed = self._check(m, m.p, changed, _NEAR)
        bad = [pair for pair in listed if pair[0] < 0]
        if bad and len(listed) - len(bad) < _NEAR_MOST:  # not cut short
            self._join(m, [(i, j) for slack, i, j in listed if slack >= 0])  # no repair: each holds
        return bad

    def _join(self, m: Matcher, pairs: Sequence[tuple[int, int]]) -> None:
        """Put ``pairs`` into G' (:meth:`_add`) and into ``m`` as they are, with no repair: where their dual
        constraints hold, or where the start is set again after."""
        i = np.array([x for x, _ in pairs], dtype=np.int64)
        j = np.array([y for _, y in pairs], dtype=np.int64)
        for u, v in self._add(i, j):
            m.add_edge(u, v, 2 * self.edges[u, v])

    def _bid_bound(self, attempt: int) -> int | None:
        """How far the free players' bids before a solve may raise a potential (:meth:`Matcher.bid`), or ``None`` for
        no bids: under ``sides: single`` below one unit of who floats before the first solve and below 8 units of
        the pattern after a widening; under ``colours: alternate`` after a widening only, as under sides; under
        ``within_group: random`` before the first solve as under sides."""
        if (self.c.mode == "sides" or self.c.pattern == "random") and attempt == 0:
            return 2 * self.c.multipliers[WHO_FLOATS] - 2
        if self.c.mode == "sides" or (self.c.mode == "colours" and attempt):
            return 16 * self.c.multipliers[PATTERN] - 2
        return None

    # -- certificate -----------------------------------------------------------------------------------

    def _check(self, m: Matcher, d: Sequence[int], changed: np.ndarray | None = None, margin: int = 0
               ) -> list[tuple[int, int, int]]:
        """Pairs of G whose dual constraint fails for the potentials ``d`` and the blossoms of ``m``, as
        (2 c' - D_i - D_j + Z_ij, i, j), most violated first (empty: the duals are feasible for all of G).
        Every pair is covered: each test below either checks a pair exactly or shows with a lower bound of
        its cost (and of Z_ij >= 0) that it cannot fail. With ``changed`` (:meth:`_Checked.changed`), only the
        pairs with an end there: every other pair held at the last complete check or is in G' now. With an even
        ``margin``, also the pairs outside G' whose slack is below it (a pair of G' never fails), up to
        ``_NEAR_MOST`` of them: the scans look for them as for pairs that fail potentials each ``margin / 2``
        higher, and once that many are listed, the rest of the check looks for failing pairs only, the scans between
        groups too (:meth:`_check_side_across`): inside a blossom that holds most of the field (after the searches
        without the cap that follow a swisspair history at 8,000 players), hundreds of thousands of pairs between
        groups hold by less than the margin, and while those scans kept the lifted potentials, each such pair went to
        the exact cost (315,000 pairs, 0.7 CPU seconds a check, where a check for failing pairs alone takes 0.15)."""
        self._changed = changed
        try:
            return self._check_pairs(m, d, margin)
        finally:
            self._changed = None

    def _check_pairs(self, m: Matcher, d: Sequence[int], margin: int) -> list[tuple[int, int, int]]:
        """:meth:`_check`, the pairs with a changed end only while :attr:`_changed` is set (:meth:`_scan`). The
        scans read ``screen``, the potentials lifted by half the margin until the near pairs fill their list, and
        each pair they pass is priced at ``d``."""
        c = self.c
        edges = self.edges
        changed = self._changed
        bad: list[tuple[int, int, int]] = []
        near: list[tuple[int, int, int]] = []
        nest = Nesting(m) if m.nested() else None
        screen = [x + margin // 2 for x in d]

        waiting: list[tuple[np.ndarray, np.ndarray]] = []
        held = [0]

        def exact(i: np.ndarray, j: np.ndarray) -> None:  # gathered, so that many small blocks cost one call
            waiting.append((np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)))
            held[0] += len(waiting[-1][0])
            if held[0] >= (_NEAR_BATCH if len(near) < _NEAR_MOST and margin else 1 << 16):
                flush()

        def flush() -> None:
            if not waiting:
                return
            i, j = np.concatenate([x for x, _ in waiting]), np.concatenate([y for _, y in waiting])
            waiting.clear()
            held[0] = 0
            keep = (i != j) & c.allowed_many(i, j)  # a row and a column of :meth:`_scan` may be one player
            i, j = i[keep], j[keep]
            slack = [2 * s - d[u] - d[v] for s, u, v in zip(c.reduced_many(i, j), i.tolist(), j.tolist())]
            short = [k for k, s in enumerate(slack) if s < margin]
            if short and nest is not None:
                at = np.array(short, dtype=np.int64)
                for k, z in zip(short, nest.exact(i[at], j[at])):
                    slack[k] += z
            for k in short:
                if slack[k] < 0:
                    bad.append((slack[k], int(i[k]), int(j[k])))
                    if len(bad) >= _MAX_VIOLATIONS:
                        raise _Enough
                elif slack[k] < margin and len(near) < _NEAR_MOST:
                    pair = (int(i[k]), int(j[k]))
                    if (min(pair), max(pair)) not in edges:  # the tight pairs of G' are no news
                        near.append((slack[k], *pair))
                        if len(near) == _NEAR_MOST:
                            screen[:] = d  # enough: the scans still to come look for failing pairs only
                            self._dropped += 1

        with contextlib.suppress(_Enough):
            if c.mode == "sides":
                for g in range(c.groups):
                    self._check_side_group(g, m, screen, nest, exact)
                self._check_side_across(m, screen, nest, exact)
            else:
                for g in range(c.groups):
                    self._check_group(g, m, screen, nest, exact)
                self._check_across(m, screen, nest, exact)
            if c.bye >= 0:
                last, mult, above = c.groups, c.multipliers, c.duals_above
                takers = []
                for i in range(c.n) if changed is None or changed[c.bye] else np.nonzero(changed[:c.n])[0].tolist():
                    g = c.group_of[i]
                    low = (mult[SCORE] * c.score_table[g][last] + mult[HEIGHT] * (c.height[last] - c.height[g])
                           + mult[WHO_FLOATS] * c.bye_rank[i] - (above[last] - above[g]))
                    if screen[i] + screen[c.bye] > 2 * low:
                        takers.append(i)
                exact(np.array(takers, dtype=np.int64), np.full(len(takers), c.bye, dtype=np.int64))
            flush()
        return sorted(bad + near)

    def _check_group(self, g: int, m: Matcher, d: Sequence[int], nest: Nesting | None,
                     exact: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Pairs inside group g: their cost is at least the pattern plus the seeded draw,
        exactly that unless a rematch, club, colour or side level adds to it (:meth:`_scan`). Under ``colours:
        alternate`` the pair's colour levels (hard limits and preference) are added to that bound; under
        ``within_group: random`` in a plain event a group whose pairs of low draw are kept goes by them
        (:meth:`_check_drawn`)."""
        c = self.c
        mem = c.members[g]
        if len(mem) < 2:
            return
        pot = [d[v] for v in mem]
        twice_pattern = 2 * c.multipliers[PATTERN]

        def pattern(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            out: np.ndarray = twice_pattern * c.pattern_cost(g, x, y)  # x, y: positions in the group
            return out

        places = range(len(mem))
        centre = self._check_centre(g, places)
        if g in self._low_draws:
            self._check_drawn(g, m, d, nest, exact)
            return
        if c.mode != "colours":
            self._scan(mem, pot, mem, pot, 0, m, nest, exact, pattern, centre, twice_pattern)
            return
        # by due colour: the colour levels of two players due the same colour are at least the preference
        # level, and a class lifted by :meth:`_colour_lifts` is then cleared block by block
        parts = [[p for p in places if c.due[mem[p]] == k] for k in (0, 1, 2)]
        pref = 2 * c.multipliers[COLOUR_PREF]
        hard = self._colour_hard(g)  # hard lifts: the colour levels of each pair, not a floor
        for k, part in enumerate(parts):
            if not part:
                continue
            rows, a = [mem[p] for p in part], [pot[p] for p in part]
            near = None if centre is None else [centre[p] for p in part]
            self._scan(rows, a, rows, a, pref if k and not hard else 0, m, nest, exact, pattern, near, twice_pattern,
                       places=(part, part), colours=not k or hard)
            for other in parts[:k] + parts[k + 1:]:
                if other:
                    self._scan(rows, a, [mem[p] for p in other], [pot[p] for p in other], 0, m, nest, exact,
                               pattern, near, twice_pattern, places=(part, other), colours=True)

    def _check_drawn(self, g: int, m: Matcher, d: Sequence[int], nest: Nesting | None,
                     exact: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Pairs inside group g under ``within_group: random`` in a plain event, where a pair costs at least twice its
        seeded draw (doubled, as the potentials; the pattern costs every pair nothing, RULES.md 2.5, 2.11): a pair
        fails only where ``p[x] + p[y] - Z > 2 * draw``.

        The group's players go in chunks of ``_CHUNK`` in the order of the blossoms' tour (:class:`Nesting`), so that
        a chunk's players share most of their blossoms. For two chunks, the z of the blossoms holding both whole is a
        lower bound of each of their pairs' Z, so their largest potentials less it bound every pair's ``p[x] + p[y] -
        Z``. Where that bound is at most twice the draw that the group's kept pairs lie below (:meth:`_lowest_draws`),
        only a kept pair may fail: those are compared with their draws, and the few that may fail checked exactly.
        Any other two chunks are scanned as before (:meth:`_scan`). At 8,000 players in round 12 a whole check hashed
        the draws of 2.5 million pairs each time; the kept pairs are about a thirteenth of them."""
        c = self.c
        mem = c.members[g]
        pot = [d[v] for v in mem]
        first, second, draws, below = self._low_draws[g]
        ordered = functools.partial(_exact_pairs, exact)  # a chunk's players in the tour's order, not the group's

        order = list(range(len(mem)))
        if nest is not None:
            order.sort(key=lambda x: nest.first[mem[x]])
        chunks = [order[k:k + _CHUNK] for k in range(0, len(order), _CHUNK)]
        chunk_of = np.zeros(len(mem), dtype=np.int64)
        for k, chunk in enumerate(chunks):
            chunk_of[chunk] = k
        tops = [max(pot[x] for x in chunk) for chunk in chunks]
        spans = [nest.span([mem[x] for x in chunk]) if nest is not None else (0, 0) for chunk in chunks]
        floor = -(1 << 60)  # a value this low clears every pair: held there, in 64 bits
        bound = np.zeros((len(chunks), len(chunks)), dtype=np.int64)
        clear = np.zeros((len(chunks), len(chunks)), dtype=bool)
        for k, one in enumerate(chunks):
            for h in range(k, len(chunks)):
                base = 0 if nest is None else nest.between(min(spans[k][0], spans[h][0]),
                                                           max(spans[k][1], spans[h][1]))
                most = tops[k] + tops[h] - base
                if most <= 2 * below:
                    clear[k, h] = clear[h, k] = True
                    bound[k, h] = bound[h, k] = max(most, floor)
                    continue
                rows, a = [mem[x] for x in one], [pot[x] for x in one]
                if h == k:
                    self._scan(rows, a, rows, a, 0, m, nest, ordered, None)
                else:
                    other = chunks[h]
                    self._scan(rows, a, [mem[y] for y in other], [pot[y] for y in other], 0, m, nest, ordered, None)
        nodes = np.array(mem, dtype=np.int64)
        keep = clear[chunk_of[first], chunk_of[second]]
        if self._changed is not None:
            keep &= self._changed[nodes[first]] | self._changed[nodes[second]]
        x, y, draw = first[keep], second[keep], draws[keep]
        under = np.array([max(pot[v] - tops[k], floor) for v, k in enumerate(chunk_of.tolist())], dtype=np.int64)
        """Each potential less the largest of its chunk."""
        fails = under[x] + under[y] + bound[chunk_of[x], chunk_of[y]] > 2 * draw
        ordered(nodes[x[fails]], nodes[y[fails]])

    def _check_centre(self, g: int, places: Iterable[int]) -> list[int] | None:
        """For players at ``places`` in group ``g``, the place below each where the pattern cost of a pair is least,
        the check's bound rising from there (:func:`_may_fail`): p + h under ``slide``, size - 1 - p under ``fold``
        (RULES.md 2.5); ``None`` under ``random``, whose pattern costs every pair the same."""
        c = self.c
        if c.pattern == "slide":
            return [p + c.half[g] for p in places]
        return [c.size[g] - 1 - p for p in places] if c.pattern == "fold" else None

    def _colour_bound(self, i: np.ndarray, j: np.ndarray, high: np.ndarray, low: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """``(high, low)`` less twice the colour levels of the pairs (i, j) (RULES.md 2.10: hard limits, then
        preference, each the better of the two colour choices, as :func:`colour_hard` and
        :func:`colour_preference` price them). In the vectorised scan ``|a|, |b| < _WIDE`` and ``|fixed| <
        2 * _WIDE``, so a level of ``4 * _WIDE`` or more clears its pairs at once; a value that falls below
        ``-2**61`` in the high part is negative whatever its low part, and is held there (no overflow)."""
        c = self.c
        best = best_colours(c, i, j)
        low = low.copy()
        floor = -(1 << 61)
        for level, has in ((COLOUR_PREF, best % 2 == 1), (COLOUR_HARD, best >= 2)):
            twice = 2 * c.multipliers[level]
            if twice >= 4 * _WIDE:
                high = np.where(has, floor, high)
                continue
            high = np.maximum(high - has * (twice >> SPLIT), floor)
            low -= has * (twice & _LOW)
        return high, low

    def _check_across(self, m: Matcher, d: Sequence[int], nest: Nesting | None,
                      exact: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Pairs between groups g < h: a float costs at least its score and height (fixed for g and h), its
        balance (the upper player's down share plus the lower one's up share) and position (the lower
        player's place in its group), less the z of the boundaries it crosses, plus its draw. The per-player
        terms go into the potentials, so a whole block of pairs whose largest potentials stay below the
        fixed part is fine at once, and the others are scanned (:meth:`_scan`)."""
        c = self.c
        mult = c.multipliers
        upper = [[d[i] - 2 * mult[BALANCE] * c.down[i] for i in mem] for mem in c.members]
        lower = [[d[j] - 2 * (mult[BALANCE] * c.up[j] + mult[WHO_FLOATS] * c.place_of[j]) for j in mem]
                 for mem in c.members]
        top_upper = [max(a, default=0) for a in upper]
        top_lower = [max(b, default=0) for b in lower]
        common = _Common(nest, [[mem] for mem in c.members])
        for g in range(c.groups - 1):
            for h in range(g + 1, c.groups):
                fixed = 2 * (mult[SCORE] * c.score_table[g][h] + mult[HEIGHT] * (c.height[h] - c.height[g])
                             - (c.duals_above[h] - c.duals_above[g]))
                if top_upper[g] + top_lower[h] > fixed + common((g, 0), (h, 0)):
                    self._scan(c.members[g], upper[g], c.members[h], lower[h], fixed, m, nest, exact, None,
                               colours=self._colour_hard(g) or self._colour_hard(h))

    def _side_parts(self, g: int) -> list[tuple[int, list[int], list[int]]]:
        """Under ``sides: single``: group g's players by side bias, each part as (bias, players, their places in
        the group), in ranking order; worked out once per solve (each check reads every group's twice)."""
        if g not in self._parts:
            c = self.c
            parts: dict[int, tuple[list[int], list[int]]] = {}
            for p, v in enumerate(c.members[g]):
                who, where = parts.setdefault(c.bias[v], ([], []))
                who.append(v)
                where.append(p)
            self._parts[g] = [(bias, who, where) for bias, (who, where) in sorted(parts.items())]
        return self._parts[g]

    def _side_floor(self, bx: int, by: int) -> int:
        """The least scaled side cost a pair of side biases ``bx`` and ``by`` can have: the cheaper of its two
        side assignments (RULES.md 3); an assignment already played is gone or costs the same, never less."""
        key = (bx, by)
        if key not in self._floors:
            self._floors[key] = int(self.c.side_floors(np.array(bx), np.array(by)))
        return self._floors[key]

    def _check_side_group(self, g: int, m: Matcher, d: Sequence[int], nest: Nesting | None,
                          exact: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Under ``sides: single``, the pairs inside group g: a pair of side biases bx, by costs at least their
        side floor (:meth:`_side_floor`) at the score level, its pattern and its draw.

        * A group of at most ``_WHOLE`` times as many squared players as side biases, whose potentials lie within
          the split, is one scan (:meth:`_scan`), each pair lifted by its side floor (capped at the split, a lower
          bound still: a pair that far above clears anyway). Scanning it bias by bias, each scan a fixed cost,
          took three to four times as long at 2,000 players after a history with Player A by a coin (15 biases
          in a group, 950 scans per check).
        * A larger group goes part by part of side bias (:meth:`_side_parts`): each part's players are the rows
          of one scan against the group's players placed below them, each column's potential less the side
          floor of its part against the rows' (the rows' part fixed, that floor is the column's own term); the
          columns of a part whose largest potential stays below that floor (and the blossoms holding both parts
          whole) are left out at once. In the largest groups at 8,000 players that leaves out enough pairs to
          beat the whole group's scan by half (17 ms against 35 at 1,300 players and 4 biases)."""
        c = self.c
        mem = c.members[g]
        if len(mem) < 2:
            return
        twice_pattern = 2 * c.multipliers[PATTERN]

        def pattern(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            out: np.ndarray = twice_pattern * c.pattern_cost(g, x, y)  # x < y: places in the group
            return out

        parts = self._side_parts(g)
        score = c.multipliers[SCORE]
        floors = [[2 * score * self._side_floor(bx, by) for by, _, _ in parts] for bx, _, _ in parts]
        pots = [d[v] for v in mem]
        if len(mem) ** 2 <= _WHOLE * len(parts) and max(pots) - min(pots) < _WIDE // 2:  # one scan, pairs lifted
            part = np.zeros(c.nodes, dtype=np.int64)
            for k, (_, who, _) in enumerate(parts):
                part[who] = k
            least = [[min(f, _WIDE - 1) for f in row] for row in floors]  # a lower bound: beyond, a pair is fine
            halves = np.array([[f >> SPLIT for f in row] for row in least], dtype=np.int64), \
                np.array([[f & _LOW for f in row] for row in least], dtype=np.int64)

            def lift(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
                return halves[0][part[i], part[j]], halves[1][part[i], part[j]]

            self._scan(mem, pots, mem, pots, 0, m, nest, exact, pattern, self._check_centre(g, range(len(mem))),
                       twice_pattern, lift=lift)
            return
        common = _Common(nest, [[who for _, who, _ in parts]])
        tops = [max(d[v] for v in who) for _, who, _ in parts]
        part_of = {bias: k for k, (bias, _, _) in enumerate(parts)}
        for k, (_, rows, row_places) in enumerate(parts):
            a = [d[v] for v in rows]
            floor = floors[k]
            open_ = [tops[k] + top > floor[y] + common((0, k), (0, y)) for y, top in enumerate(tops)]
            first = row_places[0]
            cols, b, col_places = [], [], []
            for p in range(first + 1, len(mem)):
                y = part_of[c.bias[mem[p]]]
                if open_[y]:
                    cols.append(mem[p])
                    b.append(d[mem[p]] - floor[y])
                    col_places.append(p)
            if not cols:
                continue
            self._scan(rows, a, cols, b, 0, m, nest, exact, pattern, self._check_centre(g, row_places), twice_pattern,
                       (row_places, col_places))

    def _check_side_across(self, m: Matcher, d: Sequence[int], nest: Nesting | None,
                           exact: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Under ``sides: single``, the pairs between groups g < h, block by block of (group, side bias): a
        pair's fixed part is its score and height (:meth:`_check_across`) plus the side floor of its two
        biases (:meth:`_side_floor`), and the per-player balance and position terms go into the potentials as
        there. Blocks whose largest potentials stay below the fixed part are fine at once, and so are two groups
        whose largest potentials stay below it without the side floor (which is never negative): at 2,000 players
        with 15 biases in a group, 76,000 pairs of blocks are 340 pairs of groups."""
        c = self.c
        mult = c.multipliers
        blocks = [self._side_parts(g) for g in range(c.groups)]
        common = _Common(nest, [[who for _, who, _ in parts] for parts in blocks])
        whole = _Common(nest, [[mem] for mem in c.members])
        read = -1
        for g in range(c.groups - 1):
            for h in range(g + 1, c.groups):
                if read != self._dropped:  # first, or the potentials came down since (:meth:`_check`): read them
                    read = self._dropped
                    upper = [[[d[i] - 2 * mult[BALANCE] * c.down[i] for i in who] for _, who, _ in parts]
                             for parts in blocks]
                    lower = [[[d[j] - 2 * (mult[BALANCE] * c.up[j] + mult[WHO_FLOATS] * c.place_of[j]) for j in who]
                              for _, who, _ in parts] for parts in blocks]
                    top_upper = [[max(a) for a in row] for row in upper]
                    top_lower = [[max(b) for b in row] for row in lower]
                base = (mult[SCORE] * c.score_table[g][h] + mult[HEIGHT] * (c.height[h] - c.height[g])
                        - (c.duals_above[h] - c.duals_above[g]))
                if max(top_upper[g], default=0) + max(top_lower[h], default=0) <= 2 * base + whole((g, 0), (h, 0)):
                    continue
                for x, (bx, rows, _) in enumerate(blocks[g]):
                    for y, (by, cols, _) in enumerate(blocks[h]):
                        fixed = 2 * (base + mult[SCORE] * self._side_floor(bx, by))
                        if top_upper[g][x] + top_lower[h][y] > fixed + common((g, x), (h, y)):
                            self._scan(rows, upper[g][x], cols, lower[h][y], fixed, m, nest, exact, None)

    def _scan(self, rows: Sequence[int], a: Sequence[int], cols: Sequence[int], b: Sequence[int], fixed: int,
              m: Matcher, nest: Nesting | None, exact: Callable[[np.ndarray, np.ndarray], None],
              term: Callable[[np.ndarray, np.ndarray], np.ndarray] | None,
              centre: Sequence[int] | None = None, slope: int = 0,
              places: tuple[Sequence[int], Sequence[int]] | None = None, colours: bool = False,
              lift: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None) -> None:
        """Check the pairs (rows[x], cols[y]) (only x < y when rows is cols, one group) of whose cost twice a
        lower bound is ``fixed + term(x, y) + 2 draw``: a pair whose ``a[x] + b[y] - Z`` (its potentials
        less their per-player cost terms, and less the blossoms' Z) exceeds that bound is checked exactly.
        Vectorised over the pairs that may fail, with every number split in two 64-bit integers, ``x = high *
        2**SPLIT + low`` (exact while |x| < 2**(62 + SPLIT)); rows and columns beyond that are checked pair
        by pair.

        Only pairs that may fail are looked at (:func:`_may_fail`): between groups, for each row the columns
        with ``a[x] + b[y] > fixed``; inside a group, where ``term`` is ``slope * |y - centre[x]|`` or more,
        only the rows for which some column could beat it.

        ``places`` (two parts of one group, e.g. its players of two side biases) gives each row's and column's
        place in the group; then only the pairs whose column stands below its row are checked (the caller scans
        the other order too), ``term`` and ``centre`` speak of places, and a part may be both rows and columns.

        Potentials too large for the split are first taken relative to the median row and column (a common
        offset changes nothing: only ``a[x] + b[y] - fixed`` counts), so that only the rows and columns more
        than 2**(60 + SPLIT) from it go pair by pair: a player whose every pair breaks a colour hard limit
        (RULES.md 2.10) has a potential that far above the rest of its group, and taken relative to the
        largest it would send the whole block pair by pair. Inside a blossom whose z is large (under
        ``sides: single`` it can hold whole score groups), potentials exceed the fixed part by about that z, so
        the z of the blossoms holding every row and column (:meth:`Nesting.common`, a lower bound of each
        pair's Z) joins the fixed part, and only each pair's Z beyond it is taken off: the numbers stay in the
        split instead of going pair by pair. Where that z is itself beyond the split (after the searches without
        a cap, at 8,000 players, blossoms at the score level hold several groups), each pair's Z less it comes
        from :meth:`Nesting.split` at that base; capped at the split instead, every pair of such a group went by
        Python integers (one check of 0.7 CPU seconds became 0.35).

        Of the terms that only clear pairs, the blossoms' Z is taken off before the seeded draw (Z needs the lowest
        common blossom's look-ups, and under ``sides: single`` the blossoms' z at the score level clears most pairs:
        the draw first took half again as long there), except under ``within_group: random``, where every pair of a
        group ties but for its draw and the draw clears most (the draw first: a quarter less time per check at 8,000
        players).

        With ``colours``, a pair's bound also holds its colour levels (:meth:`_check_group`). With ``lift``, it also
        holds ``lift(i, j)`` of the players i, j, as the two halves of the split (non-negative: ``fixed`` alone
        bounds the pairs that may fail), e.g. their side floor (:meth:`_check_side_group`).

        Where more than ``_HIGH`` rows and columns lie that far from the rest, the rows and the columns split in
        bands of potentials (:func:`_bands`), and each band of rows is scanned against each band of columns,
        relative to its own median: a group short of one colour (:meth:`_colour_short`) holds two such bands, its
        players limited to the short colour a hard level or two apart from the rest, and in a large enough field
        that level is beyond the split. Taken relative to one median, every pair of the farther band went one by
        one (with a split of 40 bits, at 8,000 players in round 15 after a swisspair history: 5.8 million pairs
        per check, 3 to 4 CPU seconds each). A few far players stay pair by pair, which costs less than a band
        pair's scan.

        Between two groups whose numbers lie beyond the halves even so (their players all but a few in one blossom
        of z beyond the split, so that the z of the blossoms holding them all is far below most pairs' Z), the far
        rows and columns go pair by pair and the rest are scanned again by their top-level blossom
        (:func:`_by_blossom`), each part with the blossoms holding it whole: in Python integers, a million pairs per
        check at 8,000 players under ``within_group: random`` took 0.3 CPU seconds.

        While :attr:`_changed` is set, only the pairs with a changed end: the changed rows against every column,
        then the other rows against the changed columns."""
        c = self.c
        same = rows is cols or places is not None
        changed = self._changed
        if changed is not None:
            self._changed = None
            try:
                self._scan_changed(changed, rows, a, cols, b, fixed, m, nest, exact, term, centre, slope, places,
                                   colours, lift)
            finally:
                self._changed = changed
            return
        row_bands = _bands(a)
        col_bands = row_bands if b is a else _bands(b)
        if _spread(row_bands) + _spread(col_bands) > _HIGH:  # each band pair alone, with the places of the whole
            at_x = list(range(len(rows))) if places is None else list(places[0])
            at_y = list(range(len(cols))) if places is None else list(places[1])
            for band_x in row_bands:
                near = None if centre is None else [centre[x] for x in band_x]
                for band_y in col_bands:
                    at = ([at_x[x] for x in band_x], [at_y[y] for y in band_y]) if same else None
                    self._scan([rows[x] for x in band_x], [a[x] for x in band_x], [cols[y] for y in band_y],
                               [b[y] for y in band_y], fixed, m, nest, exact, term, near, slope, at, colours, lift)
            return
        given_a, given_b, given_fixed = a, b, fixed  # before the blossoms' common z and the shift below
        common = nest.common([*rows, *cols]) if nest is not None else 0  # a lower bound of every pair's Z
        fixed += common  # every pair here has Z >= common: only Z - common is left to take off below
        if any(abs(v) >= _WIDE for v in a) or any(abs(v) >= _WIDE for v in b):
            mid_a, mid_b = sorted(a)[len(a) // 2], sorted(b)[len(b) // 2]
            shifted_a = [v - mid_a for v in a]
            b = shifted_a if b is a else [v - mid_b for v in b]
            a = shifted_a
            fixed -= mid_a + mid_b
        place_x = range(len(rows)) if places is None else places[0]
        place_y = range(len(cols)) if places is None else places[1]
        wide_rows = [x for x in range(len(rows)) if abs(a[x]) >= _WIDE]
        wide_cols = [y for y in range(len(cols)) if abs(b[y]) >= _WIDE]
        for x in wide_rows:  # with ``places``, rows and columns are different players: every pair
            others = [y for y in range(len(cols)) if rows is not cols or y != x]
            _exact_pairs(exact, [rows[x]] * len(others), [cols[y] for y in others])
        skip = set(wide_rows)
        for y in wide_cols:
            picked = [x for x in range(len(rows)) if x not in skip and (rows is not cols or y != x)]
            _exact_pairs(exact, [rows[x] for x in picked], [cols[y]] * len(picked))
        keep_x = [x for x in range(len(rows)) if abs(a[x]) < _WIDE]
        keep_y = [y for y in range(len(cols)) if abs(b[y]) < _WIDE]
        if not keep_x or not keep_y or fixed >= 2 * _WIDE:  # then a[x] + b[y] < fixed: all fine
            return
        ix, iy = np.array(keep_x, dtype=np.int64), np.array(keep_y, dtype=np.int64)
        px = np.array(place_x, dtype=np.int64)[ix] if len(rows) else ix
        py = np.array(place_y, dtype=np.int64)[iy] if len(cols) else iy
        u, v = np.array(rows, dtype=np.int64)[ix], np.array(cols, dtype=np.int64)[iy]
        if fixed <= -2 * _WIDE and not same and term is None and nest is not None:
            row_parts = _by_blossom(m, [rows[x] for x in keep_x])
            col_parts = _by_blossom(m, [cols[y] for y in keep_y])
            if len(row_parts) > 1 or len(col_parts) > 1 or len(keep_x) < len(rows) or len(keep_y) < len(cols):
                for part_x in row_parts:
                    at_x = [keep_x[k] for k in part_x]
                    for part_y in col_parts:
                        at_y = [keep_y[k] for k in part_y]
                        self._scan([rows[x] for x in at_x], [given_a[x] for x in at_x], [cols[y] for y in at_y],
                                   [given_b[y] for y in at_y], given_fixed, m, nest, exact, None, colours=colours,
                                   lift=lift)
                return
        if fixed <= -2 * _WIDE:  # beyond 64-bit halves: every pair in Python integers (numpy object arrays)
            xs, ys = np.nonzero(py[None, :] > px[:, None] if same else np.ones((len(ix), len(iy)), dtype=bool))
            over = (np.array([a[x] for x in keep_x], dtype=object)[xs]
                    + np.array([b[y] for y in keep_y], dtype=object)[ys] - (fixed - common))
            if nest is not None:
                over -= np.array(nest.exact(u[xs], v[ys]) if len(xs) else [], dtype=object)
            if term is not None:
                over -= term(px[xs], py[ys]).astype(object)
            if lift is not None:
                lift_high, lift_low = lift(u[xs], v[ys])
                over -= lift_high.astype(object) * (1 << SPLIT) + lift_low.astype(object)
            over -= (2 * pair_draw(c.key_array[u[xs]], c.key_array[v[ys]])).astype(object)
            fails = (over > 0).astype(bool)
            exact(u[xs[fails]], v[ys[fails]])
            return
        a_high = np.array([a[x] >> SPLIT for x in keep_x], dtype=np.int64)
        a_low = np.array([a[x] & _LOW for x in keep_x], dtype=np.int64)
        b_high = np.array([b[y] >> SPLIT for y in keep_y], dtype=np.int64)
        b_low = np.array([b[y] & _LOW for y in keep_y], dtype=np.int64)
        f_high, f_low = fixed >> SPLIT, fixed & _LOW
        draw_first = c.pattern == "random"  # the seeded draw decides each pair of a group: it clears more than Z

        def less_draw(xs: np.ndarray, ys: np.ndarray, high: np.ndarray, low: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
            return high, low - 2 * pair_draw(c.key_array[u[xs]], c.key_array[v[ys]])

        def less_z(xs: np.ndarray, ys: np.ndarray, high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            inside = in_u[xs] & in_v[ys]
            if nest is not None and inside.any():
                base = common if common >= _WIDE else 0  # Z less a common z beyond the split, else Z
                z_high, z_low = nest.split(u[xs[inside]], v[ys[inside]], base)
                high[inside] -= z_high - ((common - base) >> SPLIT)
                low[inside] -= z_low - ((common - base) & _LOW)
            return high, low

        if nest is None:
            in_u = np.zeros(len(u), dtype=bool)
            in_v = np.zeros(len(v), dtype=bool)
        else:
            in_u, in_v = nest.in_blossom[u], nest.in_blossom[v]
        for xs, ys in _may_fail([a[x] for x in keep_x], [b[y] for y in keep_y], fixed, px, py, same,
                                None if centre is None else [centre[x] for x in keep_x], slope):
            high = a_high[xs] + b_high[ys] - f_high
            low = a_low[xs] + b_low[ys] - f_low
            if term is not None:
                low -= term(px[xs], py[ys])
            if lift is not None:
                lift_high, lift_low = lift(u[xs], v[ys])
                high -= lift_high
                low -= lift_low
            if colours:
                high, low = self._colour_bound(u[xs], v[ys], high, low)
            fails = _positive(high, low)  # without Z and the draw first: Z >= 0 and the draw only clear pairs
            xs, ys, high, low = xs[fails], ys[fails], high[fails], low[fails]
            for less in (less_draw, less_z) if draw_first else (less_z, less_draw):
                high, low = less(xs, ys, high, low)
                fails = _positive(high, low)
                xs, ys, high, low = xs[fails], ys[fails], high[fails], low[fails]
            exact(u[xs], v[ys])

    def _scan_changed(self, changed: np.ndarray, rows: Sequence[int], a: Sequence[int], cols: Sequence[int],
                      b: Sequence[int], fixed: int, m: Matcher, nest: Nesting | None,
                      exact: Callable[[np.ndarray, np.ndarray], None],
                      term: Callable[[np.ndarray, np.ndarray], np.ndarray] | None, centre: Sequence[int] | None,
                      slope: int, places: tuple[Sequence[int], Sequence[int]] | None, colours: bool,
                      lift: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None) -> None:
        """:meth:`_scan` of the pairs with an end in ``changed``: the changed rows against every column, then the
        unchanged rows against the changed columns, each a scan of its own. Each keeps its players' places (inside
        a group, where only a column below its row counts, the positions in the one list)."""
        fresh = [x for x in range(len(rows)) if changed[rows[x]]]
        news = [y for y in range(len(cols)) if changed[cols[y]]]
        stale = [x for x in range(len(rows)) if not changed[rows[x]]]
        at_x = range(len(rows)) if places is None else places[0]
        at_y = range(len(cols)) if places is None else places[1]
        same = rows is cols or places is not None
        for xs, ys in ((fresh, range(len(cols))), (stale, news)):
            if not xs or not ys:
                continue
            self._scan([rows[x] for x in xs], [a[x] for x in xs], [cols[y] for y in ys], [b[y] for y in ys], fixed, m,
                       nest, exact, term, None if centre is None else [centre[x] for x in xs], slope,
                       ([at_x[x] for x in xs], [at_y[y] for y in ys]) if same else None, colours, lift)

    # -- fallback ---------------------------------------------------------------------------------------

    def _fallback(self, m: Matcher, bad: list[tuple[int, int, int]]) -> tuple[dict[int, int], Proof] | None:
        """The widening did not converge. Small fields: the complete graph, exact by construction. Large
        ones: the pairing optimal on G', and the gap that the duals prove once each violated pair is
        repaired by lowering one end's potential (a lower potential never breaks another constraint)."""
        from .matching import min_cost_perfect_matching_fast

        c = self.c
        if self.progress:
            self.progress(f"The quick search for the best pairing did not settle in {_ROUNDS} passes: "
                          + ("trying every possible pair instead (slower, still the best pairing)"
                             if c.nodes <= _COMPLETE else "keeping its pairing and proving how close to the best "
                             "it is"))
        if c.nodes <= _COMPLETE:
            self._add(*np.triu_indices(c.nodes, 1))
            pairs = min_cost_perfect_matching_fast(list(range(c.nodes)), compressed(c, self.edges))
            if pairs is None:
                return None
            return {**dict(pairs), **{v: u for u, v in pairs}}, Proof(
                True, 0, (0,) * len(LEVELS), len(self.edges), self.widenings, "complete graph")
        mate = dict(enumerate(m.mate))
        cost = self._cost(m.mate)
        if len(bad) < _MAX_VIOLATIONS:
            d = list(m.p)
            nest = Nesting(m)
            for _, i, j in bad:
                s = 2 * c.reduced(i, j) - d[i] - d[j] + nest(i, j)
                if s < 0:
                    d[j] += s
            if not self._check(m, d):
                bound2 = m.dual(d) + 2 * sum(c.boundary_dual[k] for k in self.odd)
                gap = max(0, cost - (bound2 + 1) // 2)
                return mate, Proof(gap == 0, gap, c.radix(gap), len(self.edges), self.widenings, "sparse graph")
        return mate, Proof(False, -1, (), len(self.edges), self.widenings, "sparse graph, no bound")


def compressed(costs: Costs, edges: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Weights for the edges of a graph G' whose sums order G''s perfect matchings as RULES.md 2.1 does,
    with multipliers bounded over G' only: M_k exceeds the largest total of the lower levels that a
    matching of G' can have (half the sum over nodes of each node's largest cost), so the weights stay
    far smaller than the encoding valid for the whole complete graph.
    """
    pairs = list(edges)
    if not pairs:
        return {}
    ends = np.array(pairs, dtype=np.int64)
    table = costs.level_table(ends[:, 0], ends[:, 1])
    width = len(LEVELS)
    multipliers = [1] * width
    for k in range(width - 2, -1, -1):
        largest = np.zeros(costs.nodes, dtype=np.int64)
        np.maximum.at(largest, ends[:, 0], table[:, k + 1])
        np.maximum.at(largest, ends[:, 1], table[:, k + 1])
        multipliers[k] = multipliers[k + 1] * (1 + (int(largest.sum()) + 1) // 2)
    return dict(zip(pairs, table.astype(object).dot(np.array(multipliers, dtype=object)).tolist()))


def solve_round(event: Event, state: RoundState, bye_pool: Iterable[str], rematches: bool,
                progress: Callable[[str], None] | None = None) -> tuple[list[tuple[int, int]], Costs, Proof] | None:
    """The cheapest perfect matching of the round, as pairs of ranking positions (the bye is position n),
    with the cost tables and the proof of optimality; ``None`` when no perfect matching exists."""
    costs = Costs(event, state, bye_pool, rematches)
    if costs.nodes == 0:
        return [], costs, Proof(True, method="empty")
    solver = Solver(costs, progress)
    solved = solver.solve()
    if solved is None:
        return None
    mate, proof = solved
    pairs = sorted((u, v) for u, v in mate.items() if u < v)
    return pairs, costs, proof

