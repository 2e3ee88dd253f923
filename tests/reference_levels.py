"""The oracle for the pair cost: RULES.md 2's eleven levels written out plainly, one pair at a time, from the
round state, with Fractions and player names. It shares nothing with the production cost
(:mod:`sheetswiss.pairing.costs`, whole arrays of pairs) beyond the rule formulas of
:mod:`sheetswiss.pairing.levels`, so the tests compare the two pair by pair and pairing by pairing.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np

from sheetswiss.model import Event, PlayerId
from sheetswiss.pairing.costs import Costs
from sheetswiss.pairing.levels import (
    BALANCE,
    CLUB,
    CLUB_FIRST,
    COLOUR_HARD,
    COLOUR_PREF,
    HEIGHT,
    LEVELS,
    PATTERN,
    REMATCH,
    SCORE,
    WHO_FLOATS,
    colour_ok,
    due_colour,
    float_cost,
    float_height,
    side_cost,
    triangle,
)
from sheetswiss.pairing.matching import min_cost_perfect_matching
from sheetswiss.pairing.state import RoundState
from sheetswiss.scoring import pairing_scale_for


def distance(event: Event, state: RoundState, x: PlayerId, y_score: Fraction, y_group: int) -> Fraction:
    """Score-group distance d of RULES.md 2.2 (``score_distance``)."""
    mode = event.settings.score_distance
    if mode == "groups":
        return Fraction(abs(state.group[x] - y_group))
    delta = abs(state.scores[x] - y_score)
    return delta / pairing_scale_for(event.settings).win if mode == "wins" else delta


def oracle_assignments(event: Event, state: RoundState, x: PlayerId, y: PlayerId
                       ) -> list[tuple[tuple[Fraction, int, int], PlayerId, PlayerId]]:
    """The pair's edges still allowed, one per side assignment (side 1, White, first), each with its side cost
    (RULES.md 3), colour hard and colour preference (2.10), cheapest first. Under ``sides: single`` an
    assignment already played is gone unless both are (the pair is then a rematch, RULES.md 3)."""
    settings = event.settings
    spent = frozenset((x, y)) in state.met
    out = []
    for first, second in ((x, y), (y, x)):
        sf, ss = state.sides.get(first, ()), state.sides.get(second, ())
        if settings.sides == "single":
            if (first, second) in state.played and not spent:
                continue
            bias_f, bias_s = sf.count(1) - sf.count(2), ss.count(1) - ss.count(2)
            out.append(((side_cost(settings, bias_f, bias_s), 0, 0), first, second))
        else:
            hard = int(not (colour_ok(sf, 1) and colour_ok(ss, 2)))
            pref = int(due_colour(sf) == 2 or due_colour(ss) == 1)
            out.append(((Fraction(0), hard, pref), first, second))
    out.sort(key=lambda option: option[0])
    return out


def oracle_levels(event: Event, state: RoundState, i: int, j: int, rematch: bool) -> list[Fraction]:
    """The eleven level costs of the edge between ranking positions ``i < j`` (``j`` may be the bye), the
    seeded random level left at 0."""
    n = len(state.order)
    x = state.order[i]
    c = [Fraction(0)] * len(LEVELS)
    bye_group = len(state.group_members)
    span = bye_group + n % 2  # the groups and the bye's (RULES.md 2.4)
    if j == n:  # the bye edge (RULES.md 2.4)
        lowest = min(state.scores.values())
        c[SCORE] = triangle(distance(event, state, x, lowest - pairing_scale_for(event.settings).win, bye_group))
        c[HEIGHT] = Fraction(float_height(state.group[x], bye_group, span))
        if event.settings.bye_choice == "random_lowest_group":
            c[WHO_FLOATS] = Fraction(random.Random(f"{event.settings.seed}:bye:{state.round}:{x}").randrange(n))
        else:
            c[WHO_FLOATS] = Fraction(n - 1 - i)
        return c
    y = state.order[j]
    gx, gy = state.group[x], state.group[y]
    c[REMATCH] = Fraction(int(rematch))
    same_club = bool(state.clubs[x]) and state.clubs[x] == state.clubs[y]
    club_rule = event.settings.avoid_same_club
    if same_club and club_rule != "no" and state.round == 1:
        c[CLUB_FIRST] = Fraction(1)
    elif same_club and club_rule == "always":
        c[CLUB] = Fraction(1)
    c[SCORE] = triangle(distance(event, state, x, state.scores[y], gy))
    if gx != gy:  # x floats down, y floats up (RULES.md 2.5)
        low, high = state.balance_range
        c[HEIGHT] = Fraction(float_height(gx, gy, span))
        c[BALANCE] = Fraction(float_cost(state.balance.get(x, 0), high, "down")
                              + float_cost(state.balance.get(y, 0), low, "up"))
        c[WHO_FLOATS] = Fraction(state.group_members[gy].index(y))
    else:
        members = state.group_members[gx]
        size = len(members) - (1 if n % 2 and gx == len(state.group_members) - 1 else 0)
        pi, pj = members.index(x), members.index(y)
        if event.settings.within_group == "slide":
            c[PATTERN] = Fraction(abs((pj - pi) - math.ceil(size / 2)))
        elif event.settings.within_group == "fold":
            c[PATTERN] = Fraction(abs(pi + pj - (size - 1)))
    settings = event.settings
    if settings.sides == "single" or (settings.sides == "none" and settings.colours == "alternate"):
        (extra, hard, pref), _, _ = oracle_assignments(event, state, x, y)[0]  # the cheaper edge (RULES.md 3, 2.10)
        c[SCORE] += extra
        c[COLOUR_HARD], c[COLOUR_PREF] = Fraction(hard), Fraction(pref)
    return c


def complete_graph_cost(costs: Costs) -> int | None:
    """networkx's exact minimum over every allowed pair, each priced with RULES.md 2.1's encoding."""
    i, j = np.triu_indices(costs.nodes, 1)
    keep = costs.allowed_many(i, j)
    i, j = i[keep], j[keep]
    edges = dict(zip(zip(i.tolist(), j.tolist()), costs.weights(i, j)))
    found = min_cost_perfect_matching(list(range(costs.nodes)), edges)
    return None if found is None else sum(edges[e] for e in found)
