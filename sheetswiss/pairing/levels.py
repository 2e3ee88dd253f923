"""The rule formulas of RULES.md 2 and 3 that price a pair, one value at a time, and the names of the eleven
cost levels: score cost T(d), float height, side cost, due colour and colour limits, float balance.

The production cost (:mod:`.costs`) builds its per-player and per-group tables from these formulas; the test
oracle uses them too. RULES.md 2.1 numbers the levels 1 to 11; the code names each level by a constant
(:data:`SCORE`, ...), which is its index in a cost vector, and never by a number: only what a GM reads gives
RULES.md's number (the index plus one).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from ..settings import Settings

__all__ = ["BALANCE", "CLUB", "CLUB_FIRST", "COLOUR_HARD", "COLOUR_PREF", "HEIGHT", "LEVELS", "PATTERN", "RANDOM",
           "REMATCH", "SCORE", "WHO_FLOATS", "colour_ok", "due_colour", "float_cost", "float_height", "side_cost",
           "triangle"]

LEVELS = ("rematch", "club r1", "score", "float height", "club", "colour hard", "float balance", "who floats",
          "colour pref", "pattern", "random")
"""The eleven cost levels of RULES.md 2.1, most significant first."""

(REMATCH, CLUB_FIRST, SCORE, HEIGHT, CLUB, COLOUR_HARD, BALANCE, WHO_FLOATS, COLOUR_PREF, PATTERN,
 RANDOM) = range(len(LEVELS))
"""Each level's index in a cost vector, most significant first."""


def triangle(d: Fraction) -> Fraction:
    """T(d) = d(d+1)/2, the score cost of seed 001 on a distance ``d`` (RULES.md 2.2).

    >>> [int(triangle(Fraction(d))) for d in range(5)]
    [0, 1, 3, 6, 10]
    """
    return d * (d + 1) / 2


def float_height(upper: int, lower: int, span: int) -> int:
    """The float height level (RULES.md 2.5) of a pair between score groups ``upper <= lower``, where ``span``
    counts the groups and the bye's group G (one below the last, when the field is odd).

    Boundary k lies between groups k and k + 1; a pair crosses boundaries ``upper`` to ``lower - 1``, and each
    costs the number of groups below it, ``span - 1 - k``: among pairings of equal score cost the floats stay
    as low in the field as they can, so the leaders meet when they may. In a field of three groups, two
    floats from the top group cost 2 + 2 and two from the middle one 1 + 1; a double float from the top
    costs 2 + 1:

    >>> [float_height(0, 1, 3), float_height(1, 2, 3), float_height(0, 2, 3), float_height(1, 1, 3)]
    [2, 1, 3, 0]
    """
    crossed = lower - upper
    first = span - 1 - upper
    return crossed * (2 * first - crossed + 1) // 2


def side_cost(settings: Settings, bx: int, by: int) -> Fraction:
    """The side cost of "x takes side 1 against y" for side biases ``bx`` and ``by`` (RULES.md 3).

    pre and post are the pair's imbalance before and after the game: the larger of the two absolute
    biases (``side_bias_measure: max``) or their sum (``sum``). The cost is 0 when post < pre (the game
    reduces the imbalance), else base^post (``side_cost: power``) or base * post (``linear``); base is
    ``side_cost_base`` (8). RULES.md 3's worked example:

    >>> s = Settings(sides="single")
    >>> [int(side_cost(s, bx, by)) for bx, by in [(1, 1), (1, -1), (-1, 1), (0, 0), (2, 0), (0, 2)]]
    [64, 64, 0, 8, 512, 0]
    >>> int(side_cost(Settings(sides="single", side_cost="linear"), 1, 1))
    16
    """
    if settings.side_bias_measure == "sum":
        pre, post = abs(bx) + abs(by), abs(bx + 1) + abs(by - 1)
    else:
        pre, post = max(abs(bx), abs(by)), max(abs(bx + 1), abs(by - 1))
    if post < pre:
        return Fraction(0)
    base = settings.side_cost_base
    return base ** post if settings.side_cost == "power" else base * post


def due_colour(sides: Sequence[int]) -> int | None:
    """The due colour after games in ``sides`` (1 White, 2 Black), RULES.md 2.10: White when c < 0, Black when
    c > 0, else the opposite of the last colour; ``None`` without games.

    >>> due_colour([1, 2]), due_colour([1, 1, 2]), due_colour([2]), due_colour([])
    (1, 2, 1, None)
    """
    c = sides.count(1) - sides.count(2)
    if c:
        return 2 if c > 0 else 1
    return 3 - sides[-1] if sides else None


def colour_ok(sides: Sequence[int], colour: int) -> bool:
    """Whether ``colour`` keeps RULES.md 2.10's hard limits (FIDE C.04.1 (f), (g)): |c| <= 2 after the round,
    and not a third game running in one colour.

    >>> colour_ok([1, 1], 1), colour_ok([1, 2, 1], 1), colour_ok([1, 2, 1, 1], 2), colour_ok([2, 1, 1, 2, 1], 1)
    (False, True, True, True)
    """
    c = sides.count(1) - sides.count(2) + (1 if colour == 1 else -1)
    return abs(c) <= 2 and not (len(sides) >= 2 and sides[-1] == sides[-2] == colour)


def float_cost(balance: int, bound: int, direction: Literal["down", "up"]) -> int:
    """One player's share of the float balance level (RULES.md 2.5) when floating ``direction``.

    Seed 004 wants every player's float balance (ups minus downs) as close to zero as possible. A float
    changes the sum of squared balances by (f - 1)^2 - f^2 = 1 - 2f for the player going down and
    (f + 1)^2 - f^2 = 1 + 2f for the one going up, so the cheapest float is the one whose player's
    balance is furthest on the side the float corrects: down for the highest balance, up for the lowest.
    Shifted by the round's highest balance (``bound`` for ``down``) or lowest (``up``) to stay >= 1:
    ``1 + 2(bound - f)`` down, ``1 + 2(f - bound)`` up; a cross-group pair costs the two shares.

    >>> [float_cost(f, 2, "down") for f in (2, 1, 0)]   # floating down the +2 player is cheapest
    [1, 3, 5]
    >>> [float_cost(f, -1, "up") for f in (-1, 0, 2)]   # floating up the -1 player is cheapest
    [1, 3, 7]
    """
    return 1 + 2 * (bound - balance if direction == "down" else balance - bound)
