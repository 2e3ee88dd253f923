"""The Settings tab: every key, its values, its default and what it does (RULES.md section 9).

The registry :data:`SPECS` is the single list of settings: ``new`` writes it into the template with
each description, and :func:`parse_settings` checks a GM's tab against it.

The descriptions use the sources' short names: PAB, a pairing-allocated bye; SODOS, the sum of defeated
opponents' scores; SoS and ESoS, Netrunner's strength of schedule and its extended form; MTR, Magic: The
Gathering's Tournament Rules; HCT, the Hearthstone Championship Tour; HMW and HSW (Heats: Most Wins, Heats:
Single Win), the heat methods of WBC, the World Boardgaming Championships; W x V, the additive rating of
RULES.md 8.1 (wins W times the value V of a final place).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeAlias, final, get_args, get_origin, get_type_hints

from .errors import BadSetting, Problems, UnknownName, excerpt

__all__ = ["SPECS", "MarginBands", "PointRange", "SettingSpec", "Settings", "known_keys", "parse_number", "parse_range",
           "parse_settings", "read_settings"]


def parse_number(text: str) -> Fraction:
    """A number as a GM types it: ``2``, ``0.5``, ``1/2``, ``-3``.

    >>> parse_number("1/2"), parse_number(" 0.5 ")
    (Fraction(1, 2), Fraction(1, 2))
    """
    try:
        return Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{excerpt(text)} is not a number") from None


# The choices of the settings that take one of a few words, as types: the registry below reads each from
# its alias, and a comparison with a word that is not one of them fails mypy.

EventFormat: TypeAlias = Literal["swiss", "heats"]
"""How the event is played: Swiss rounds, or WBC-style heats."""
PointsPreset: TypeAlias = Literal["armati", "chess", "magic", "hct", "game12", "netrunner", "custom"]
"""A point scale by name, for ``points`` and ``pairing_points``; ``custom`` takes the three ``*_points`` settings
(RULES.md 1.3)."""
ScaleCheck: TypeAlias = Literal["error", "warn", "off"]
"""What a custom scale that breaks the scale rules does (RULES.md 1.4)."""
Unplayed: TypeAlias = Literal["fide2023", "fide2026", "fide2009", "points"]
"""How byes and forfeits count in opponent-based tiebreaks (RULES.md 4.2)."""
SodosDraws: TypeAlias = Literal["zero", "half"]
"""SODOS (Sum of Defeated Opponents' Scores): what a drawn opponent adds (RULES.md 4.4)."""
ProgressAfterDrop: TypeAlias = Literal["continue", "stop"]
"""The progressive score after a drop: the frozen total keeps adding, or stops (RULES.md 4.5)."""
DirectEncounterRule: TypeAlias = Literal["fide", "all_met", "separates", "pair"]
"""When direct encounter decides a tie (RULES.md 4.6)."""
MtrFloor: TypeAlias = Literal["1/3", "0.33"]
"""MTR (Magic: The Gathering Tournament Rules): the lowest a percentage counts as (RULES.md 4.8)."""
MagicByes: TypeAlias = Literal["mtr", "exclude"]
"""How a bye counts in Magic's percentages (RULES.md 4.8)."""
HctFloor: TypeAlias = Literal["-3", "-2", "none"]
"""HCT (Hearthstone Championship Tour): the floor of a T1 value (RULES.md 4.9)."""
FirstRound: TypeAlias = Literal["rating", "random"]
"""How round 1 is paired (RULES.md 2.6)."""
AvoidSameClub: TypeAlias = Literal["no", "first_round", "always"]
"""Whether club-mates are kept apart (RULES.md 2.7)."""
LateEntryPoints: TypeAlias = Literal["zero", "draw"]
"""What a round before a late entry's first round is worth (RULES.md 2.9)."""
ScoreDistance: TypeAlias = Literal["groups", "wins", "points"]
"""How far apart two scores are for the pairing (RULES.md 2.2)."""
RematchFallback: TypeAlias = Literal["fewest", "error"]
"""A round that cannot avoid a rematch: pair the fewest, or stop (RULES.md 2.3)."""
AvoidFallback: TypeAlias = Literal["error", "fewest"]
"""A round that needs a pair of the Avoid tab: stop, or pair the fewest (RULES.md 2.12)."""
ByeChoice: TypeAlias = Literal["lowest_ranked", "random_lowest_group"]
"""Who gets the PAB (pairing-allocated bye) (RULES.md 2.4)."""
WithinGroup: TypeAlias = Literal["slide", "fold", "random"]
"""How a score group is paired within itself (RULES.md 2.5)."""
Colours: TypeAlias = Literal["none", "alternate"]
"""Whether colours alternate (RULES.md 2.10)."""
Sides: TypeAlias = Literal["none", "single", "double"]
"""A game's sides: none, one game a round, or a game on each side (RULES.md 3)."""
SideCost: TypeAlias = Literal["power", "linear"]
"""How the side cost grows with an imbalance (RULES.md 3)."""
SideBiasMeasure: TypeAlias = Literal["max", "sum"]
"""How a player's side imbalance is measured (RULES.md 3)."""
HeatMethod: TypeAlias = Literal["hmw", "hsw", "hmw-p", "hmw-t", "hwo"]
"""A heat event's advancement method: HMW (Heats: Most Wins), HSW (Heats: Single Win), HMW-P (HMW, then place
points), HMW-T (HMW's "Timing" variant) and HWO (heat winners only) (RULES.md 5.8)."""
ScoreOrder: TypeAlias = Literal["high", "low"]
"""Whether the high or the low score wins a heat game (RULES.md 5.3)."""
AbsentWinner: TypeAlias = Literal["runner_up", "none"]
"""Who takes an absent table winner's seat (RULES.md 5.10)."""
FinalFill: TypeAlias = Literal["allowed", "full", "none"]
"""How the final's empty seats are filled (RULES.md 5.10)."""
HeatRanking: TypeAlias = Literal["latto", "precedence"]
"""How heat players are ranked (RULES.md 5.6)."""
Precedence: TypeAlias = Literal["seed003", "wbc2008"]
"""The precedence of heat results (RULES.md 5.6)."""
PlayoffSystem: TypeAlias = Literal["single", "magic_top2", "mcintyre8", "mcintyre4", "double", "mulligan"]
"""The playoff's bracket (RULES.md 6)."""
BracketOrder: TypeAlias = Literal["fold", "ncaa"]
"""How seeds are placed in the bracket (RULES.md 6.1)."""
RatingDraw: TypeAlias = Literal["1/3", "1/2", "0"]
"""What a draw is worth in the W x V rating (RULES.md 8.1)."""
ReportsNeeded: TypeAlias = Literal["2", "1"]
"""How many players' reports fill a result (RULES.md 10.3)."""
Paper: TypeAlias = Literal["letter", "a4"]
"""The paper result slips are printed on (RULES.md 10.4)."""


@dataclass(frozen=True, slots=True)
class _Choice:
    """Reads one of ``values``, case ignored."""

    values: tuple[str, ...]

    def __call__(self, text: str) -> str:
        value = text.strip().lower()
        if value not in self.values:
            raise ValueError(f"{excerpt(text)} is not one of: {', '.join(self.values)}")
        return value


def _choice(alias: Any) -> _Choice:
    """The reader of a choice setting, from its ``Literal`` alias: the alias's values, in their order."""
    return _Choice(tuple(get_args(alias)))


def _yes_no(text: str) -> bool:
    value = text.strip().lower()
    if value in ("yes", "y", "true", "1"):
        return True
    if value in ("no", "n", "false", "0"):
        return False
    raise ValueError(f"{excerpt(text)} is not yes or no")


def _int(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            number = Fraction(text.strip())
        except ValueError:
            raise ValueError(f"{excerpt(text)} is not a whole number") from None
        if number.denominator != 1 or number < minimum:
            raise ValueError(f"{excerpt(text)} is not a whole number from {minimum}")
        return int(number)

    return parse


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.replace(";", ",").split(",") if part.strip())


def _text(text: str) -> str:
    return text.strip()


def _address(text: str) -> str:
    """A web address (``https://forms.gle/...``): http or https only, so a page never links elsewhere."""
    value = text.strip()
    if value and not re.match(r"https?://\S+$", value, re.I):
        raise ValueError(f"{text!r} is not a web address starting with https://")
    return value


def _number(text: str) -> Fraction:
    return parse_number(text)


PointRange: TypeAlias = tuple[Fraction, Fraction]
"""The least and the greatest points a custom scale gives for a win, a draw or a loss (equal: one value)."""

_RANGE = re.compile(r"\s*(-?\d+(?:[.,/]\d+)?)\s*(?:\.\.|-|–)\s*(-?\d+(?:[.,/]\d+)?)\s*")


def parse_range(text: str) -> PointRange:
    """A custom scale's points: one number, or a range ``28..30`` (or ``28-30``) of whole or exact values.

    >>> parse_range("28..30"), parse_range("-1")
    ((Fraction(28, 1), Fraction(30, 1)), (Fraction(-1, 1), Fraction(-1, 1)))
    """
    m = _RANGE.fullmatch(text)
    if m is None:
        value = parse_number(text)
        return value, value
    low, high = sorted((parse_number(m[1]), parse_number(m[2])))
    return low, high


def _table_sizes(text: str) -> tuple[int, ...]:
    """Heat table sizes, e.g. ``3,4``: whole numbers from 2 to 5, kept sorted (RULES.md 5.3)."""
    sizes = set()
    for part in _names(text):
        if part not in ("2", "3", "4", "5"):
            raise ValueError(f"{excerpt(part)} is not a table size; sizes are 2, 3, 4 or 5, comma-separated")
        sizes.add(int(part))
    if not sizes:
        raise ValueError(f"{excerpt(text)} lists no table size")
    return tuple(sorted(sizes))


def _side_cost_base(text: str) -> Fraction:
    """A number from 1 (RULES.md 3's base of the side cost)."""
    base = parse_number(text)
    if base < 1:
        raise ValueError(f"{excerpt(text)} is below 1; the side cost must not shrink as an imbalance grows")
    return base


def _gm_tiebreak(text: str) -> tuple[str, ...]:
    """``none``, or heat tiebreak names, comma-separated, each checked against the registry (RULES.md 5.8)."""
    from .heat_methods import find_heat_tiebreak

    if text.strip().lower() == "none":
        return ()
    return tuple(find_heat_tiebreak(name) for name in _names(text))


def _plaques(text: str) -> int:
    """Places that win a plaque: 1 to 6 (a Century event awards 2 to 6, a trial event 1; RULES.md 5.11)."""
    value = _int(1)(text)
    if value > 6:
        raise ValueError(f"{text!r} is more than 6; WBC awards at most 6 plaques")
    return value


def _round_weights(text: str) -> tuple[tuple[int, Fraction], ...]:
    """Rounds and their SoS weights, e.g. ``6: 1/2`` or ``5=0.5, 6=0.5`` (RULES.md 4.12, Cobra's round weight).

    >>> _round_weights("6: 1/2; 7=0.5")
    ((6, Fraction(1, 2)), (7, Fraction(1, 2)))
    """
    out: dict[int, Fraction] = {}
    for part in _names(text):
        m = re.fullmatch(r"(\d+)\s*[:=]\s*(\S+)", part)
        if m is None or int(m[1]) < 1:
            raise ValueError(f"{part!r} is not a round and its weight, e.g. 6: 1/2")
        weight = parse_number(m[2])
        if not 0 < weight <= 1:
            raise ValueError(f"{part!r}: a round's weight is above 0 and at most 1")
        out[int(m[1])] = weight
    return tuple(sorted(out.items()))


def _margin_cap(text: str) -> Fraction | None:
    """A number above 0, or ``none`` for no cap (RULES.md 4.13: the most one game adds to a margin)."""
    if text.strip().lower() == "none":
        return None
    cap = parse_number(text)
    if cap <= 0:
        raise ValueError(f"{excerpt(text)} is not above 0; a cap is the most one game's margin counts")
    return cap


MarginBands: TypeAlias = tuple[tuple[Fraction, Fraction], ...]
"""A margin scale (RULES.md 1.7): (least margin, the winner's points) from margin 0 up, points rising."""


def _margin_points(text: str) -> MarginBands:
    """Margin bands, e.g. ``0: 10, 6: 11, 11: 12``: from each margin up the winner scores those points and
    the loser the rest of twice the first band's (RULES.md 1.7).

    >>> _margin_points("0: 10, 6: 11, 51: 20")
    ((Fraction(0, 1), Fraction(10, 1)), (Fraction(6, 1), Fraction(11, 1)), (Fraction(51, 1), Fraction(20, 1)))
    """
    bands: list[tuple[Fraction, Fraction]] = []
    for part in _names(text):
        m = re.fullmatch(r"(\S+)\s*[:=]\s*(\S+)", part)
        if m is None:
            raise ValueError(f"{excerpt(part)} is not a margin and its points, e.g. 6: 11")
        margin, points = parse_number(m[1]), parse_number(m[2])
        if bands and (margin <= bands[-1][0] or points <= bands[-1][1]):
            raise ValueError(f"{excerpt(part)}: each band needs a larger margin and more points than the one before")
        bands.append((margin, points))
    if len(bands) < 2 or bands[0][0] != 0:
        raise ValueError("list the bands from margin 0 (the draw's points, e.g. 0: 10), then at least one more")
    if bands[-1][1] > 2 * bands[0][1]:
        raise ValueError(f"{_number_words(bands[-1][1])} for the winner leaves the loser below 0 of the "
                         f"{_number_words(2 * bands[0][1])} a game shares")
    return tuple(bands)


def _number_words(value: Fraction) -> str:
    """``value`` as typed: ``20``, ``10.5``, ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    return str(float(value)) if (10**6 * value).denominator == 1 else str(value)


def _ratio_cap(text: str) -> Fraction | None:
    """A number from 1, or ``none`` for no cap (RULES.md 5.4)."""
    if text.strip().lower() == "none":
        return None
    cap = parse_number(text)
    if cap < 1:
        raise ValueError(f"{excerpt(text)} is below 1; a winner's ratio is at least 1")
    return cap


@final
@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting: its key, the text ``new`` writes, how a value is read, and a line for the GM."""

    key: str
    default: str
    """As written in the template; empty means "decided from other settings" (the description says how)."""
    parse: Callable[[str], Any]
    description: str
    formats: tuple[str, ...] = ("swiss",)
    """The event formats whose template lists it (a GM may still set it in any format)."""
    section: str = ""

    @property
    def help(self) -> str:
        """The description, ending with the exact words to type when the setting is a choice and the
        description does not already show every one of them.

        >>> _BY_KEY["avoid_same_club"].help.endswith("every round (below score). Type: no, first_round or always.")
        True
        """
        if not isinstance(self.parse, _Choice):
            return self.description
        values = self.parse.values
        if all(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", self.description, re.I) for v in values):
            return self.description
        return f"{self.description} Type: {', '.join(values[:-1])} or {values[-1]}."


POINT_PRESETS: tuple[str, ...] = get_args(PointsPreset)

SPECS: tuple[SettingSpec, ...] = (
    SettingSpec("event_name", "My event", _text, "The event's name, shown at the top of the tool's tabs.",
                ("swiss", "heats")),
    SettingSpec("format", "swiss", _choice(EventFormat),
                "swiss: rounds paired by score; heats: WBC-style multi-player heats.", ("swiss", "heats")),
    SettingSpec("points", "armati", _choice(PointsPreset),
                "Point scale: armati 2/1/0, chess 1/0.5/0, magic 3/1/0, hct 1/-/0, game12 (12 points split "
                "by game score), netrunner 3/1/0 a game ranked by SoS and ESoS, custom (the three settings below).",
                section="1.3"),
    SettingSpec("win_points", "", parse_range, "custom scale: points for a win, or a range such as 28..30.",
                section="1.3"),
    SettingSpec("draw_points", "", parse_range, "custom scale: points for a draw, or a range such as 14..17.",
                section="1.3"),
    SettingSpec("loss_points", "", parse_range, "custom scale: points for a loss, or a range such as 0..2.",
                section="1.3"),
    SettingSpec("bye_points", "", _number,
                "Points for a pairing-allocated bye; empty: the scale's own (a win's points).", section="1.3"),
    SettingSpec("scale_check", "error", _choice(ScaleCheck),
                "A custom scale that breaks the scale rules (win > draw > loss, enough spread, draws worth half): "
                "stop with an error, warn, or off.",
                section="1.4"),
    SettingSpec("pairing_points", "", _choice(PointsPreset),
                "Scale the pairing uses, as points; empty: the points scale (2/1/0 for game12 and range scales).",
                section="1.5"),
    SettingSpec("rounds", "", _int(1), "Number of Swiss rounds planned; empty: not fixed.", section="7"),
    SettingSpec("top_cut", "", _int(0),
                "Players who make the top cut, shaded in Standings; empty: 8 (4 for 9-16 players), 0: none.",
                section="6"),
    SettingSpec("tiebreaks", "", _names,
                "Tiebreaks in order, comma-separated; empty: the scale's usual chain (armati: sodos, "
                "median_buchholz, buchholz, random).", section="4.1"),
    SettingSpec("round_weights", "", _round_weights,
                "SoS and ESoS (netrunner): rounds that count less, e.g. 6: 1/2 for a half round of one game; "
                "empty: every round weighs 1.", section="4.12"),
    SettingSpec("unplayed", "", _choice(Unplayed),
                "How byes and forfeits count in opponent-based tiebreaks: points (simple), fide2023 "
                "(FIDE C.07 Art. 16), fide2026 (its capped dummy) or fide2009 (virtual opponent); "
                "empty: fide2023 for chess, else points.", section="4.2"),
    SettingSpec("sodos_draws", "zero", _choice(SodosDraws),
                "SODOS: drawn opponents add nothing (zero) or half their score (half).", section="4.4"),
    SettingSpec("progress_after_drop", "continue", _choice(ProgressAfterDrop),
                "Progress after a drop: keep adding the frozen total each round, or stop.", section="4.5"),
    SettingSpec("de_rule", "fide", _choice(DirectEncounterRule),
                "Direct encounter: FIDE C.07 Art. 6, only if all met, only if it separates, or two players only.",
                section="4.6"),
    SettingSpec("mtr_floor", "1/3", _choice(MtrFloor),
                "Magic percentages (omw, gwp, ogw): the lowest value a player's percentage counts as.",
                section="4.8"),
    SettingSpec("magic_byes", "mtr", _choice(MagicByes),
                "Magic percentages: a bye counts as a 2-0 win (mtr) or is left out of the percentages (exclude).",
                section="4.8"),
    SettingSpec("hct_floor", "-3", _choice(HctFloor),
                "Hearthstone T1: the least one opponent's wins minus losses can add (-3, -2, or none).",
                section="4.9"),
    SettingSpec("first_round", "", _choice(FirstRound),
                "Round 1: by rating (top half v bottom half) or random; empty: rating if every player has one.",
                section="2.6"),
    SettingSpec("avoid_same_club", "no", _choice(AvoidSameClub),
                "Keep players of the same club apart: no, in round 1 only, or every round (below score).",
                section="2.7"),
    SettingSpec("accelerated", "no", _yes_no,
                "Accelerated pairing: a virtual win for the top half by rating in rounds 1 and 2.", section="2.8"),
    SettingSpec("late_entry_points", "zero", _choice(LateEntryPoints),
                "Points for each round before a late entry's first: zero, or a draw's.", section="2.9"),
    SettingSpec("score_distance", "groups", _choice(ScoreDistance),
                "Score cost measures distance in score groups, in wins, or in raw points.", section="2.2"),
    SettingSpec("rematch_fallback", "fewest", _choice(RematchFallback),
                "When no pairing avoids every rematch: allow the fewest, or stop with an error.", section="2.3"),
    SettingSpec("avoid_fallback", "error", _choice(AvoidFallback),
                "When no pairing keeps every pair of the Avoid tab apart: stop with an error naming the pair, or "
                "allow the fewest such pairs, like rematches.", section="2.12"),
    SettingSpec("bye_choice", "lowest_ranked", _choice(ByeChoice),
                "Who gets the bye: the lowest-ranked eligible player, or a random one of the lowest group.",
                section="2.4"),
    SettingSpec("within_group", "slide", _choice(WithinGroup),
                "Inside a score group: top half v bottom half (slide), 1st v last (fold), or random.",
                section="2.5"),
    SettingSpec("colours", "none", _choice(Colours),
                "Colours (ordinary Swiss): none, or alternate (Player A is White; no three in a row, never "
                "more than two more of one colour).", section="2.10"),
    SettingSpec("sides", "none", _choice(Sides),
                "Sides (e.g. corp/runner): none; single (one game a round, Player A plays side 1; each pair "
                "meets at most twice, once each way); double (two games a round, one on each side, two "
                "Results rows per table, each game scored on its own).", section="3"),
    SettingSpec("side_cost", "power", _choice(SideCost),
                "sides single: the cost of worsening a side imbalance: power (base to the imbalance) or linear "
                "(base times it).", section="3"),
    SettingSpec("side_bias_measure", "max", _choice(SideBiasMeasure),
                "sides single: imbalance of a pair measured by the larger of the two (max) or their sum.",
                section="3"),
    SettingSpec("side_cost_base", "8", _side_cost_base,
                "sides single: the base of the side cost (8: one worsened imbalance outweighs score gaps).",
                section="3"),
    SettingSpec("seed", "", _int(0), "Random seed: the same workbook and seed give the same pairings.",
                ("swiss", "heats"), "2.11"),
    SettingSpec("method", "HMW", _choice(HeatMethod),
                "HMW (heats: most wins), HSW (heats: single win, a first-heat win outranks two wins), HMW-P "
                "(most wins, then place points 1000/100/10/1), HMW-T (winners and runners-up eligible) or HWO "
                "(winners only).", ("heats",), "5.8"),
    SettingSpec("gm_tiebreak", "", _gm_tiebreak,
                "The method's GM-specific step: none, or heat tiebreaks comma-separated (wins, win_1st .. win_4th, "
                "place_points, average_finish, seconds, best_share, margin, latto, dice); empty: the method's own "
                "(HMW/HSW: ranking and precedence below).", ("heats",), "5.8"),
    SettingSpec("heat_first_win", "1500", _number, "Points for a win in the first heat entered (HMW), plus the ratio.",
                ("heats",), "5.2"),
    SettingSpec("heat_hsw_first_win", "5000", _number,
                "Points for a win in the first heat entered under HSW, plus the ratio.", ("heats",), "5.2"),
    SettingSpec("heat_win", "1000", _number, "Points for a win in any later heat, plus the ratio.", ("heats",), "5.2"),
    SettingSpec("heat_second_4", "100", _number, "Points for second place at a 4-player table.", ("heats",), "5.2"),
    SettingSpec("heat_second_3", "50", _number, "Points for second place at a 3-player table.", ("heats",), "5.2"),
    SettingSpec("heat_second_5", "100", _number, "Points for second place at a 5-player table.", ("heats",), "5.2"),
    SettingSpec("heat_third_5", "0", _number, "Points for third place at a 5-player table.", ("heats",), "5.2"),
    SettingSpec("heat_second_factor", "10", _number,
                "A second place also scores this times (own score / winner's score).", ("heats",), "5.2"),
    SettingSpec("score_order", "high", _choice(ScoreOrder),
                "high: the highest score wins; low: the lowest score wins.", ("heats",), "5.3"),
    SettingSpec("table_sizes", "3,4", _table_sizes,
                "Allowed players per table, comma-separated (2 to 5); seat fills the largest first.",
                ("heats",), "5.3"),
    SettingSpec("score_offset", "0", _number,
                "Added to every score before ratios are taken (for games with negative scores).", ("heats",), "5.4"),
    SettingSpec("ratio_cap", "10", _ratio_cap,
                "Largest score ratio a game can earn (also used when the other score is 0 or less); none: no cap.",
                ("heats",), "5.4"),
    SettingSpec("qualifiers", "", _int(1),
                "A fixed number who qualify, as seed 003's top 16, with no cap; empty: the semifinal rule below.",
                ("heats",), "5.5"),
    SettingSpec("semifinal", "", _int(2),
                "Seats in the semifinal; empty: the optimum (final_size x final_size: 16 for 4-player tables); never "
                "more than half the heat players, cut to whole tables.", ("heats",), "5.9"),
    SettingSpec("final_size", "", _int(2),
                "Players at a semifinal or final table; empty: the largest of table_sizes.", ("heats",), "5.9"),
    SettingSpec("quarterfinal", "", _int(2),
                "Seats in a quarterfinal before the semifinal (Splendor: 27/36/48/64); empty: none.",
                ("heats",), "5.10"),
    SettingSpec("absent_winner", "runner_up", _choice(AbsentWinner),
                "An absent winner's seat in the next round: the closest runner-up of their table (runner_up), or "
                "left empty (none).", ("heats",), "5.10"),
    SettingSpec("final_fill", "allowed", _choice(FinalFill),
                "Fewer semifinal winners than final_size: the closest runners-up fill the final to the smallest "
                "allowed table size (allowed), to final_size (full), or not at all (none).", ("heats",), "5.10"),
    SettingSpec("plaques", "6", _plaques, "Places listed in the Places tab (the plaques, 1 to 6).",
                ("heats",), "5.11"),
    SettingSpec("alternates", "4", _int(0), "Alternates listed in order after the qualifiers.", ("heats",), "5.5"),
    SettingSpec("ranking", "latto", _choice(HeatRanking),
                "latto: rank by total points (disagreements with the precedence are listed); precedence: rank by "
                "the precedence, then total points.", ("heats",), "5.6"),
    SettingSpec("precedence", "seed003", _choice(Precedence),
                "seed003: wins, then win in first heat entered; wbc2008: WBC's eight HMW steps.", ("heats",), "5.6"),
    SettingSpec("playoff", "single", _choice(PlayoffSystem),
                "Playoff after the Swiss: single (elimination), magic_top2 (seeds 1-2 into the semifinals), "
                "mcintyre8, mcintyre4, double (elimination), mulligan (single elimination after a mulligan round "
                "whose losers start again in round 1).", ("swiss",), "6"),
    SettingSpec("bracket_order", "fold", _choice(BracketOrder),
                "Elimination draw: fold (1-8, 4-5, 2-7, 3-6) or ncaa (seed 2 at the bottom).", ("swiss",), "6.1"),
    SettingSpec("bracket_reset", "yes", _yes_no,
                "Double elimination: a second grand final if the losers' bracket champion wins the first.",
                ("swiss",), "6.6"),
    SettingSpec("rating_draw", "1/3", _choice(RatingDraw),
                "W x V rating: what a drawn match adds to W (1/3, 1/2 or 0 of a win).", (), "8.1"),
    SettingSpec("rating_drop_bonus", "yes", _yes_no,
                "W x V rating: W's +1 only for players who stayed to the end (no: for everyone).", (), "8.1"),
    SettingSpec("rating_k", "8", _number, "W x V rating: this event's K; its points are multiplied by K/8.", ("swiss",),
                "8.1"),
    SettingSpec("elo_k", "20", _number, "Elo: the K factor, the most one game can move a rating.", (), "8.3"),
    SettingSpec("elo_start", "1500", _number, "Elo: the rating of a player with no past game.", (), "8.3"),
    SettingSpec("check_in", "no", _yes_no,
                "yes: only players marked in a Players column headed Present are paired for the first time; the "
                "others are listed as not checked in.", (), "10.2"),
    SettingSpec("reports", "Reports", _text,
                "reports: the tab with the results players report (a Google Form's responses tab).", (), "10.3"),
    SettingSpec("reports_needed", "2", _choice(ReportsNeeded),
                "reports: 2: a result is filled in when both players' reports agree; 1: one report is enough.",
                (), "10.3"),
    SettingSpec("report_form", "", _address,
                "The address of the form players report results with; the players' page links to it.", (), "10.3"),
    SettingSpec("paper", "letter", _choice(Paper),
                "slips: the paper the result slips are laid out for: letter (five a page) or a4 (six a page).",
                (), "10.4"),
    SettingSpec("round_minutes", "", _int(1),
                "publish: the length of a round in minutes; the players' page shows when the round ends (from the "
                "time it was paired) and a countdown.", (), "10.5"),
    SettingSpec("registrations", "Form Responses 1", _text,
                "register: the tab with the registrations (a Google Form's responses tab).", (), "10.1"),
    SettingSpec("registration_name", "", _text,
                "register: the header of the registrations' name column (or two joined by +: First name + "
                "Last name); empty: Name, Full name or Player.", (), "10.1"),
    SettingSpec("margin_cap", "", _margin_cap,
                "Secondary scores (Results columns Score A and Score B): the most one game's margin counts in "
                "margin and average_margin, e.g. 10; empty or none: no cap.", (), "4.13"),
    SettingSpec("margin_points", "", _margin_points,
                "points: custom from the scores' margin (Results columns Score A and Score B), e.g. a 20-0 scale "
                "0: 10, 6: 11, 11: 12 ... 51: 20; from each margin up the winner scores those points, the loser the "
                "rest; empty: not used.", (), "1.7"),
)

_BY_KEY = {spec.key: spec for spec in SPECS}


def known_keys(event_format: str | None = None) -> list[str]:
    """Every setting key, sorted; with ``event_format``, only those its template lists.

    >>> "qualifiers" in known_keys("swiss"), "qualifiers" in known_keys("heats")
    (False, True)
    """
    return sorted(k for k, spec in _BY_KEY.items() if event_format is None or event_format in spec.formats)


def _unknown(key: str, normal: str, event_format: str) -> str:
    """What to say about an unknown ``key`` (``normal``: as looked up): the nearest known spelling, else
    the event format's keys."""
    near = difflib.get_close_matches(normal, list(_BY_KEY), n=1)
    if near:
        return f"unknown setting {excerpt(key)}; did you mean {near[0]!r}?"
    known = ", ".join(known_keys(event_format))
    return f"unknown setting {excerpt(key)}; the settings of a {event_format} event: {known}"


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The parsed Settings tab. ``None`` means "not set": the rule that decides is in each field's spec."""

    event_name: str = "My event"
    format: EventFormat = "swiss"
    points: PointsPreset = "armati"
    win_points: PointRange | None = None
    draw_points: PointRange | None = None
    loss_points: PointRange | None = None
    bye_points: Fraction | None = None
    scale_check: ScaleCheck = "error"
    pairing_points: PointsPreset | None = None
    rounds: int | None = None
    top_cut: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    unplayed: Unplayed | None = None
    sodos_draws: SodosDraws = "zero"
    progress_after_drop: ProgressAfterDrop = "continue"
    de_rule: DirectEncounterRule = "fide"
    mtr_floor: MtrFloor = "1/3"
    magic_byes: MagicByes = "mtr"
    hct_floor: HctFloor = "-3"
    first_round: FirstRound | None = None
    avoid_same_club: AvoidSameClub = "no"
    accelerated: bool = False
    late_entry_points: LateEntryPoints = "zero"
    score_distance: ScoreDistance = "groups"
    rematch_fallback: RematchFallback = "fewest"
    avoid_fallback: AvoidFallback = "error"
    bye_choice: ByeChoice = "lowest_ranked"
    within_group: WithinGroup = "slide"
    colours: Colours = "none"
    sides: Sides = "none"
    side_cost: SideCost = "power"
    side_bias_measure: SideBiasMeasure = "max"
    side_cost_base: Fraction = Fraction(8)
    seed: int = 0
    method: HeatMethod = "hmw"
    heat_first_win: Fraction = Fraction(1500)
    heat_hsw_first_win: Fraction = Fraction(5000)
    heat_win: Fraction = Fraction(1000)
    heat_second_4: Fraction = Fraction(100)
    heat_second_3: Fraction = Fraction(50)
    heat_second_5: Fraction = Fraction(100)
    heat_third_5: Fraction = Fraction(0)
    heat_second_factor: Fraction = Fraction(10)
    score_order: ScoreOrder = "high"
    table_sizes: tuple[int, ...] = (3, 4)
    score_offset: Fraction = Fraction(0)
    ratio_cap: Fraction | None = Fraction(10)
    gm_tiebreak: tuple[str, ...] | None = None
    qualifiers: int | None = None
    semifinal: int | None = None
    final_size: int | None = None
    quarterfinal: int | None = None
    absent_winner: AbsentWinner = "runner_up"
    final_fill: FinalFill = "allowed"
    plaques: int = 6
    alternates: int = 4
    ranking: HeatRanking = "latto"
    precedence: Precedence = "seed003"
    playoff: PlayoffSystem = "single"
    bracket_order: BracketOrder = "fold"
    bracket_reset: bool = True
    rating_draw: RatingDraw = "1/3"
    rating_drop_bonus: bool = True
    rating_k: Fraction = Fraction(8)
    elo_k: Fraction = Fraction(20)
    elo_start: Fraction = Fraction(1500)
    check_in: bool = False
    round_minutes: int | None = None
    paper: Paper = "letter"
    reports: str = "Reports"
    reports_needed: ReportsNeeded = "2"
    report_form: str = ""
    registrations: str = "Form Responses 1"
    registration_name: str = ""
    round_weights: tuple[tuple[int, Fraction], ...] = ()
    margin_cap: Fraction | None = None
    margin_points: MarginBands = ()

    @property
    def games_per_round(self) -> int:
        """Games a player plays in a round: 2 under ``sides: double`` (one on each side, RULES.md 3), else 1."""
        return 2 if self.sides == "double" else 1

    def round_weight(self, round_: int) -> Fraction:
        """The weight of ``round_`` in SoS and ESoS (``round_weights``; 1 unless listed, RULES.md 4.12)."""
        return dict(self.round_weights).get(round_, Fraction(1))

    @property
    def unplayed_rule(self) -> str:
        """``unplayed`` with its default applied (RULES.md 4.2)."""
        return self.unplayed or ("fide2023" if self.points == "chess" else "points")


assert {f.name for f in dataclasses.fields(Settings)} == set(_BY_KEY), "SPECS and Settings disagree"


def _choices(annotation: Any) -> tuple[str, ...]:
    """The words a field's type allows: its ``Literal``'s values (``None`` left out); empty for other types."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    return tuple(v for a in get_args(annotation) if a is not type(None) for v in _choices(a))


_HINTS = get_type_hints(Settings)
assert all(_choices(_HINTS[spec.key]) == (spec.parse.values if isinstance(spec.parse, _Choice) else ())
           for spec in SPECS), "a choice setting's Literal type and its registry values disagree"


def parse_settings(rows: Iterable[tuple[int, str, str]], tab: str = "Settings", *, key_column: str = "A",
                   value_column: str = "B") -> Settings:
    """Build :class:`Settings` from ``(row, key, value)`` triples of the Settings tab, whose keys are in
    ``key_column`` and values in ``value_column`` (messages name those cells).

    An empty value leaves the default; an unknown key or a bad value is an error naming the cell (every
    such cell at once, as :func:`read_settings` finds them).
    """
    problems = Problems()
    settings, _ = read_settings(rows, tab, key_column=key_column, value_column=value_column, problems=problems)
    problems.raise_any()
    return settings


def read_settings(rows: Iterable[tuple[int, str, str]], tab: str = "Settings", *, key_column: str = "A",
                  value_column: str = "B", problems: Problems) -> tuple[Settings, frozenset[str]]:
    """:func:`parse_settings` that keeps reading past a bad cell: each problem goes to ``problems``, the
    setting keeps its default, and its key is among the keys returned (the settings not read as typed)."""
    values: dict[str, Any] = {}
    seen: dict[str, int] = {}
    bad: set[str] = set()
    rows = list(rows)
    event_format = next((text.strip().lower() for _, key, text in rows
                         if key.strip().lower() == "format" and text.strip().lower() in ("swiss", "heats")), "swiss")
    for row, key, text in rows:
        k = key.strip().lower().replace(" ", "_")
        if k not in _BY_KEY:
            problems.add(UnknownName(f"{tab}!{key_column}{row}: {_unknown(key, k, event_format)}"))
            continue
        if k in seen:
            problems.add(BadSetting(f"{tab}!{key_column}{row}: {k} is set twice (first in row {seen[k]})"))
            bad.add(k)
            continue
        seen[k] = row
        if not text.strip():
            continue
        try:
            values[k] = _BY_KEY[k].parse(text)
        except ValueError as e:
            problems.add(BadSetting(f"{tab}!{value_column}{row}: {k}: {e}"))
            bad.add(k)
    settings = Settings(**values)
    if settings.margin_points:  # a margin scale (RULES.md 1.7) is the custom scale, in place of its three ranges
        cell = f"{tab}!{value_column}{seen['margin_points']}"
        typed = [k for k in ("win_points", "draw_points", "loss_points") if getattr(settings, k) is not None]
        if settings.points != "custom" or typed:
            problems.add(BadSetting(f"{cell}: margin_points makes the points come from the margin, so set points to "
                                    "custom" + (f" and clear {', '.join(typed)}" if typed else "")))
            values.pop("margin_points")
            bad.add("margin_points")
            settings = Settings(**values)
    for which in ("points", "pairing_points"):
        missing = [k for k in ("win_points", "draw_points", "loss_points") if getattr(settings, k) is None]
        margin_scale = settings.margin_points or "margin_points" in bad  # its own problem is reported above
        if getattr(settings, which) == "custom" and missing and not margin_scale:
            problems.add(BadSetting(f"{tab}: {which} is custom, so set {', '.join(missing)}"))
            values.pop(which)
            bad.add(which)
            settings = Settings(**values)
    return settings, frozenset(bad)
