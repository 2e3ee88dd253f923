"""WBC (World Boardgaming Championships) heat methods: one registry of heat tiebreaks, and each method as an
eligibility rule plus a chain.

RULES.md 5.8-5.10. A heat tiebreak is a small function of one player's heats, higher is better, registered by
name like the Swiss tiebreaks (:mod:`sheetswiss.tiebreaks`). A method (HMW: Heats, Most Wins; HSW: Heats, Single
Win; HMW-P: HMW then place points; HMW-T: HMW's "Timing" variant; HWO: heat winners only) says who may advance
and in which order of tiebreaks players are compared; the ``gm_tiebreak`` setting fills the method's step left
to the GM (game master). :func:`advancement` then decides how many seats the first elimination round has (the
BPA's cap, the Boardgame Players Association's half of the field; whole tables, too few for a semifinal).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias, final

from .errors import SheetswissError, UnknownName
from .heats import PlayerHeats
from .settings import Settings

__all__ = [
    "HEAT_TIEBREAKS",
    "METHODS",
    "Advancement",
    "HeatMethod",
    "HeatTiebreak",
    "advancement",
    "chain",
    "eligible",
    "find_heat_tiebreak",
    "heat_tiebreak",
    "method_of",
]

HeatTiebreakFn: TypeAlias = Callable[[PlayerHeats, Settings], Fraction]
"""One player's value, higher is better; equal values leave the players tied for the next step."""


@final
@dataclass(frozen=True, slots=True)
class HeatTiebreak:
    """A registered heat tiebreak: its name, the column title a GM reads, and its function."""

    name: str
    title: str
    fn: HeatTiebreakFn


HEAT_TIEBREAKS: dict[str, HeatTiebreak] = {}
"""Canonical name -> tiebreak, in registration order."""
_SPELLINGS: dict[str, str] = {}


def heat_tiebreak(name: str, title: str, *aliases: str) -> Callable[[HeatTiebreakFn], HeatTiebreakFn]:
    """Register a heat tiebreak under ``name`` and its ``aliases`` (spellings are case-insensitive)."""

    def register(fn: HeatTiebreakFn) -> HeatTiebreakFn:
        HEAT_TIEBREAKS[name] = HeatTiebreak(name, title, fn)
        _SPELLINGS.update({a.lower().replace(" ", "_"): name for a in (name, *aliases)})
        return fn

    return register


def find_heat_tiebreak(spelling: str) -> str:
    """The canonical name for ``spelling``; an unknown one raises, listing the known names.

    >>> find_heat_tiebreak("Most Wins"), find_heat_tiebreak("latto_points")
    ('wins', 'latto')
    """
    try:
        return _SPELLINGS[spelling.strip().lower().replace(" ", "_")]
    except KeyError:
        raise UnknownName(f"unknown heat tiebreak {spelling!r}; known: {', '.join(HEAT_TIEBREAKS)}") from None


@heat_tiebreak("wins", "Wins", "most_wins")
def wins(p: PlayerHeats, settings: Settings) -> Fraction:
    """Most wins over all heats entered (WBC 2008 HMW step 1 [RFG08]; HMW-P step 1 [UNP23]; RULES.md 5.8)."""
    return Fraction(p.wins)


def _won_entry(k: int, nth: str) -> HeatTiebreakFn:
    def won(p: PlayerHeats, settings: Settings) -> Fraction:
        return Fraction(int(p.won_entry(k)))

    won.__doc__ = (f"1 for a win in the {nth} heat the player entered, else 0 (WBC 2008 HMW step {k + 1} [RFG08]; "
                   "RULES.md 5.1: heats entered are the player's own, in time order).")
    return won


for _k, _nth in ((1, "first"), (2, "second"), (3, "third"), (4, "fourth")):
    heat_tiebreak(f"win_{_k}{('st', 'nd', 'rd', 'th')[_k - 1]}", f"Won {_k}{('st', 'nd', 'rd', 'th')[_k - 1]} heat",
                  f"win_in_{_nth}_heat_entered", f"win_in_{_nth}_heat")(_won_entry(_k, _nth))

PLACE_POINTS = {1: 1000, 2: 100, 3: 10, 4: 1}
"""HMW-P's points per place [UNP23]; any other place scores 0."""


@heat_tiebreak("place_points", "Place points", "points", "total_points", "hmw_p_points")
def place_points(p: PlayerHeats, settings: Settings) -> Fraction:
    """HMW-P step 2 [UNP23]: 1000 for each 1st, 100 for a 2nd, 10 for a 3rd, 1 for a 4th, 0 below
    (a 1st, a 2nd and a 4th give 1,101; RULES.md 5.8)."""
    return Fraction(sum(PLACE_POINTS.get(f.place, 0) for f in p.finishes))


NO_AVERAGE = Fraction(-10**6)
"""Average finish of a player with no finished game: below everyone who has one."""


@heat_tiebreak("average_finish", "Average finish", "avg_finish")
def average_finish(p: PlayerHeats, settings: Settings) -> Fraction:
    """Minus the mean place over the finished games, so that the lower average ranks higher (WBC 2008
    HMW step 7 [RFG08]: a 2nd and two 3rds, 2.67, beat two 2nds and two 4ths, 3). Raw places at every
    table size (UNCONFIRMED in the source; RULES.md 5.8). No finished game ranks below every average."""
    avg = p.average_finish
    return NO_AVERAGE if avg is None else -avg


@heat_tiebreak("seconds", "Seconds", "most_seconds", "most_2nd_place_finishes")
def seconds(p: PlayerHeats, settings: Settings) -> Fraction:
    """Number of 2nd places (Tigris & Euphrates 2017's step 3 [ET17]; RULES.md 5.8)."""
    return Fraction(p.seconds)


@heat_tiebreak("best_share", "Best non-win %", "best_non_win_share", "percentage_of_winning_score")
def best_share(p: PlayerHeats, settings: Settings) -> Fraction:
    """The best non-win finish as a share of that table's winning score, 0 without one (Splendor 2016
    step 2 [SPD16]; Through the Ages 2017/18 step 3 [AGE17]; RULES.md 5.8). Shares use RULES.md 5.4."""
    return max((f.share for f in p.finishes if f.place != 1), default=Fraction(0))


@heat_tiebreak("margin", "Best margin", "margin_of_victory")
def margin(p: PlayerHeats, settings: Settings) -> Fraction:
    """The best margin of victory over the second, in score points, 0 without a win (Splendor 2016 step 3
    "best margin of victory over 2nd place" [SPD16]; RULES.md 5.8)."""
    return max((f.margin for f in p.finishes if f.place == 1), default=Fraction(0))


@heat_tiebreak("latto", "Latto points", "latto_points", "thurn_and_taxis")
def latto(p: PlayerHeats, settings: Settings) -> Fraction:
    """Andy Latto's points summed over the player's games (seed 003; RULES.md 5.2)."""
    return p.points


@heat_tiebreak("dice", "Dice", "random", "high_dice_roll", "coin_flip")
def dice(p: PlayerHeats, settings: Settings) -> Fraction:
    """A seeded high dice roll (WBC 2008 HMW step 8 [RFG08]; HMW-P step 4 [UNP23]):
    ``random.Random(f"{seed}:dice:{player}")``, the same for the same ``seed`` (RULES.md 2.11)."""
    return Fraction(random.Random(f"{settings.seed}:dice:{p.player}").getrandbits(64))


Eligibility: TypeAlias = Literal["any", "scored", "placed", "winners"]
"""Who may advance: any player with a finished game; with Latto points above 0 (a first or second,
seed 003 goal 2); who won or finished 2nd at least once (HMW-T [ET25]); winners only (HWO [HET24])."""

ELIGIBILITY_TEXT: dict[str, str] = {
    "any": "any player with a finished game",
    "scored": "players with Latto points (a first or second place)",
    "placed": "players who won or finished 2nd at least once",
    "winners": "heat winners only",
}

GM = "gm"
"""The place of the GM-specific step in a method's chain."""


@final
@dataclass(frozen=True, slots=True)
class HeatMethod:
    """A heat method: who may advance, and the standard chain with its GM step (RULES.md 5.8)."""

    name: str
    """As typed in Settings, e.g. ``HMW-P``."""
    eligibility: Eligibility
    steps: tuple[str, ...]
    """Heat tiebreak names in order, with :data:`GM` where the GM-specific step goes."""
    gm_default: tuple[str, ...]
    source: str


_HMW_2008 = ("wins", "win_1st", "win_2nd", "win_3rd", "win_4th", GM, "average_finish", "dice")

METHODS: dict[str, HeatMethod] = {
    "hmw": HeatMethod("HMW", "any", _HMW_2008, ("latto",), "WBC 2008 HMW standard list [RFG08][RA08]"),
    "hsw": HeatMethod("HSW", "any", ("win_1st", "wins", *_HMW_2008[2:]), ("latto",),
                      "seed 003: a win in the first heat entered outranks two wins"),
    "hmw-p": HeatMethod("HMW-P", "any", ("wins", "place_points", GM, "dice"), (),
                        "HMW-P standard tiebreakers [UNP23]"),
    "hmw-t": HeatMethod("HMW-T", "placed", _HMW_2008, (),
                        "HMW-T eligibility [ET25]; its list is UNCONFIRMED, the 2008 list by default"),
    "hwo": HeatMethod("HWO", "winners", _HMW_2008, (),
                      "HWO: all and only winners [HET24][NVW24]; order among winners UNCONFIRMED"),
}


def method_of(settings: Settings) -> HeatMethod:
    """The :class:`HeatMethod` of ``settings.method``."""
    return METHODS[settings.method]


def chain(settings: Settings) -> tuple[str, ...]:
    """The heat tiebreaks players are ranked by, in order (RULES.md 5.6, 5.8).

    Under HMW and HSW with ``gm_tiebreak`` empty, ``ranking`` and ``precedence`` decide as they always
    have: ``latto`` ranks by the Latto total alone; ``precedence`` by ``seed003`` (wins, win in first heat
    entered; HSW swapped) or ``wbc2008`` (the 2008 list), with the total as the GM step. Otherwise the
    method's standard list, its GM step being ``gm_tiebreak`` (``none``: no step; empty: the method's own,
    nothing for HMW-P, HMW-T and HWO).

    >>> chain(Settings()), chain(Settings(method="hmw-p"))
    (('latto',), ('wins', 'place_points', 'dice'))
    >>> chain(Settings(method="hmw", gm_tiebreak=()))
    ('wins', 'win_1st', 'win_2nd', 'win_3rd', 'win_4th', 'average_finish', 'dice')
    """
    method = method_of(settings)
    if settings.method in ("hmw", "hsw") and settings.gm_tiebreak is None:
        if settings.ranking == "latto":
            return ("latto",)
        first = method.steps[:2]
        if settings.precedence == "seed003":
            return (*first, "latto")
    gm = settings.gm_tiebreak if settings.gm_tiebreak is not None else method.gm_default
    steps: list[str] = []
    for step in method.steps:
        for name in gm if step == GM else (step,):
            if name not in steps:
                steps.append(name)
    return tuple(steps)


def eligibility(settings: Settings) -> Eligibility:
    """The method's eligibility rule; HMW and HSW ranked with Latto points admit only players with points
    (seed 003 goal 2, "reward achievement, not attendance"; RULES.md 5.5)."""
    rule = method_of(settings).eligibility
    if settings.method in ("hmw", "hsw") and "latto" in chain(settings):
        return "scored"
    return rule


def eligible(p: PlayerHeats, rule: Eligibility) -> bool:
    """Whether ``p`` may advance under ``rule``."""
    if rule == "any":
        return bool(p.finishes)
    if rule == "scored":
        return p.points > 0
    if rule == "placed":
        return p.wins + p.seconds > 0
    return p.wins > 0


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Advancement:
    """How many advance, to which round, and the rules that decided it, in a GM's words."""

    seats: int
    """Players the first elimination round seats."""
    final: bool
    """The first elimination round is the final (one table, or HWO's few winners)."""
    table: int
    """Players a table in the elimination rounds (``final_size``)."""
    cap: int
    """Half the heat players, rounded down [EVFORM22]."""
    rules: tuple[str, ...]
    """Each rule that decided the size, one line each, e.g. ``cap: no more than half of 17 heat players (8)``."""


def elimination_table(settings: Settings) -> int:
    """Players a table in the elimination rounds: ``final_size``, else the largest of ``table_sizes``."""
    return settings.final_size or max(settings.table_sizes)


def advancement(players: int, ranked_eligible: int, settings: Settings) -> Advancement:
    """The size of the first elimination round (RULES.md 5.9).

    ``players``: who played the heats; ``ranked_eligible``: how many may advance. With ``qualifiers`` set
    (workbooks made before ``semifinal`` existed) exactly that many qualify, as seed 003's "top 16", and
    the cap is only reported. Otherwise: the ``semifinal`` setting, else the optimum, t x t for t-player
    tables (16 for 4, 25 for 5 [RFG08][RA08]); never more than half the heat players [EVFORM22]; cut to
    whole tables of t; fewer eligible than seats: as many whole tables as they fill (HMW-T [ET25]); one
    table or fewer: the semifinal becomes the final [RFG08]. HWO: every winner and only winners; with no
    more than t winners, straight to the final [NVW24]; more winners than the cap allows: the best by the
    chain (*decision*).

    >>> a = advancement(17, 17, Settings())
    >>> a.seats, a.final, a.rules[-1]
    (8, False, 'whole tables of 4: 8 seats, 2 tables')
    """
    t = elimination_table(settings)
    cap = players // 2
    rules: list[str] = []
    if settings.semifinal is None and settings.qualifiers is not None:
        seats = min(settings.qualifiers, ranked_eligible)
        rules.append(f"qualifiers setting: the top {settings.qualifiers} qualify (seed 003)")
        if settings.qualifiers > cap:
            rules.append(f"note: the BPA allows no more than half of the {players} heat players ({cap}); "
                         "clear qualifiers to apply semifinal and the cap")
        return Advancement(seats=seats, final=seats <= t, table=t, cap=cap, rules=tuple(rules))
    cap_text = f"cap: no more than half of the {players} heat players ({cap})"
    if settings.method == "hwo":
        rules.append(f"HWO: every winner and only winners ({ranked_eligible})")
        seats = ranked_eligible
        if settings.semifinal is not None and seats > settings.semifinal:
            seats = settings.semifinal
            rules.append(f"semifinal setting: {seats} seats")
        if seats > cap:
            seats = cap
            rules.append(cap_text)
        if seats > t and seats % t and not _splits(seats, settings.table_sizes):
            fit = next(n for n in range(seats - 1, 0, -1) if n <= t or n % t == 0 or _splits(n, settings.table_sizes))
            rules.append(f"{seats} winners cannot be seated at tables of table_sizes: the best {fit} by the chain")
            seats = fit
        if seats <= t:
            rules.append(f"{seats} winners, no more than a final table of {t}: straight to the final")
            return Advancement(seats=seats, final=True, table=t, cap=cap, rules=tuple(rules))
        return Advancement(seats=seats, final=False, table=t, cap=cap, rules=tuple(rules))
    if settings.quarterfinal is not None:
        want = settings.quarterfinal
        rules.append(f"quarterfinal setting: {want}")
    elif settings.semifinal is not None:
        want = settings.semifinal
        rules.append(f"semifinal setting: {want}")
    else:
        want = t * t
        rules.append(f"optimum for {t}-player tables: {want}")
    limit = want
    if cap < limit:
        limit = cap
        rules.append(cap_text)
    if ranked_eligible < limit:
        limit = ranked_eligible
        rules.append(f"fewer eligible ({ELIGIBILITY_TEXT[eligibility(settings)]}: {ranked_eligible}) than seats")
    seats = t * (limit // t)
    if seats > t:
        rules.append(f"whole tables of {t}: {seats} seats, {seats // t} tables")
        return Advancement(seats=seats, final=False, table=t, cap=cap, rules=tuple(rules))
    if seats == t:
        rules.append(f"whole tables of {t}: one table, so the semifinal is the final")
    else:
        seats = limit
        rules.append(f"too few for a table of {t}: the final is played by {seats}")
    return Advancement(seats=seats, final=True, table=t, cap=cap, rules=tuple(rules))


def step_text(step: str, value: Fraction) -> str:
    """One chain value in a GM's words: ``2 wins``, ``won 1st heat``, ``1100 place points``, ``avg 2.50``.

    >>> step_text("wins", Fraction(2)), step_text("average_finish", Fraction(-5, 2)), step_text("win_2nd", Fraction(0))
    ('2 wins', 'avg 2.50', '')
    """
    if step == "wins":
        return f"{value} win{'s' if value != 1 else ''}"
    if step.startswith("win_"):
        return f"won {step[4:]} heat" if value else ""
    if step == "average_finish":
        return "" if value == NO_AVERAGE else f"avg {float(-value):.2f}"
    if step == "best_share":
        return f"best non-win {float(value):.1%}"
    if step == "latto":
        return f"{float(value):.4f}"
    if step == "dice":
        return ""
    if step == "margin":
        return f"margin {value}"
    return f"{value} {HEAT_TIEBREAKS[step].title.lower()}"


def _splits(n: int, sizes: Sequence[int]) -> bool:
    """Whether ``n`` players can be seated at tables of ``sizes``."""
    from .seating import split_tables

    try:
        split_tables(n, sizes)
    except SheetswissError:
        return False
    return True


def chain_key(p: PlayerHeats, steps: Sequence[str], settings: Settings) -> tuple[Fraction, ...]:
    """``p``'s values for ``steps``, to compare players (higher first)."""
    return tuple(HEAT_TIEBREAKS[s].fn(p, settings) for s in steps)
