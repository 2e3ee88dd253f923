"""RULES.md 2's per-pair level costs written out plainly from the round state, as the independent reference
the engine's costs (:class:`sheetswiss.pairing.engine.Costs`) are tested against."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from sheetswiss.model import Event, PlayerId
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
    float_cost,
    float_height,
    triangle,
)
from sheetswiss.pairing.swiss import _assignments, _State, _two_sided
from sheetswiss.scoring import pairing_scale_for


def distance(event: Event, state: _State, x: PlayerId, y_score: Fraction, y_group: int) -> Fraction:
    """Score-group distance d of RULES.md 2.2 (``score_distance``)."""
    mode = event.settings.score_distance
    if mode == "groups":
        return Fraction(abs(state.group[x] - y_group))
    delta = abs(state.scores[x] - y_score)
    return delta / pairing_scale_for(event.settings).win if mode == "wins" else delta


def edge_levels(event: Event, state: _State, i: int, j: int, rematch: bool) -> list[Fraction]:
    """The eleven level costs of the edge between ranking positions ``i < j`` (``j`` may be the bye)."""
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
    if _two_sided(event.settings):  # the cheaper edge of the pair (RULES.md 3, 2.10)
        (extra, hard, pref), _, _ = _assignments(event, state, x, y)[0]
        c[SCORE] += extra
        c[COLOUR_HARD], c[COLOUR_PREF] = Fraction(hard), Fraction(pref)
    return c


