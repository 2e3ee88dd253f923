"""Point scales (RULES.md 1.3 to 1.5): what a win, a draw, a loss and a bye are worth, and the checks
a custom scale and a separate pairing scale must pass. A PAB is a pairing-allocated bye; MTR are Magic: The
Gathering's Tournament Rules, the ``magic`` preset's source.

A scale gives each result class a range of values: one value for the fixed presets, 8..12 for a
``game12`` win, and whatever ranges a custom scale sets (``win_points: 28..30``).

>>> s = scale_for(Settings(points="chess"))
>>> s.win, s.draw, s.loss, s.bye
(Fraction(1, 1), Fraction(1, 2), Fraction(0, 1), Fraction(1, 1))
>>> wide = Settings(points="custom", win_points=parse_range("28..30"), draw_points=parse_range("14..17"),
...                 loss_points=parse_range("0..2"), rounds=5)
>>> scale_problems(wide), pairing_scale_for(wide).name
([], 'armati')
>>> as_custom = Settings(points="custom", win_points=parse_range("8..12"), draw_points=parse_range("6"),
...                      loss_points=parse_range("0..4"), rounds=5)              # game12's values
>>> [p.text.split(":")[0] for p in scale_problems(as_custom)], scale_problems(as_custom)[0].text
(['rule 2', 'rule 3', 'purpose'], 'rule 2: worst win − best loss = 4 < 4 x (12 − 8) = 16')
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import final

from .errors import BadSetting, SheetswissError
from .settings import MarginBands, PointRange, Settings, parse_range

__all__ = [
    "PRESETS",
    "Scale",
    "ScaleProblem",
    "ScaleWarning",
    "game12_points",
    "margin_scale",
    "pairing_scale_for",
    "per_round",
    "scale_for",
    "scale_problems",
]

_CLASS_NAMES = {"W": "win", "D": "draw", "L": "loss"}


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Scale:
    """A point scale: the least and greatest points of a win, a draw and a loss, and a PAB's points.

    How a game scores on a *range* scale (a class worth more than one value):

    - ``game12`` splits its 12 points by the typed game score (:func:`game12_points`, seed 002).
    - A custom range scale (*decision*): the GM types the two sides' points as the result, ``29-1``
      or ``15-15``, and the ranges decide the outcome (``16-14`` is a draw when both fit the draw
      range); rule 1 keeps the ranges apart, so the reading is unique. Points outside every pair
      of ranges are an error naming the cell. Whole numbers only, as the result syntax has them.
    - Anything typed without points (``1-0``, ``1/2``, a forfeit) scores the class's plain value:
      the best win and the worst loss, as ``game12`` counts a forfeit as 2-0; a draw, a half bye
      and a late entry's draw score the draw value nearest half of those two (6 in ``game12``,
      15 for 28..30 / 14..17 / 0..2), so two such draws equal a win and a loss where the draw
      range allows it.

    ``history`` reads every game through :meth:`points` and :meth:`typed_classes`.
    """

    name: str
    wins: PointRange
    draws: PointRange
    losses: PointRange
    bye: Fraction
    """A pairing-allocated bye (``bye_points`` overrides the scale's own, RULES.md 1.3)."""
    draws_allowed: bool = True
    game_based: bool = False
    """Results are match scores in games (Magic, Hearthstone, game12): ``1-0`` is one game to none."""
    bands: MarginBands = ()
    """A margin scale's bands (``margin_points``, RULES.md 1.7): a game with Score A and Score B typed scores
    by its margin (:meth:`margin_points`); empty for every other scale."""

    def margin_points(self, margin: Fraction) -> Fraction:
        """The points of the side whose score beat the other's by ``margin`` (negative: lost by it), RULES.md 1.7.

        >>> s = margin_scale(((Fraction(0), Fraction(10)), (Fraction(6), Fraction(11)), (Fraction(51), Fraction(20))))
        >>> s.margin_points(Fraction(5)), s.margin_points(Fraction(6)), s.margin_points(Fraction(-60))
        (Fraction(10, 1), Fraction(11, 1), Fraction(0, 1))
        """
        band = next(points for least, points in reversed(self.bands) if abs(margin) >= least)
        return band if margin >= 0 else 2 * self.bands[0][1] - band

    def margin_class(self, margin: Fraction) -> str:
        """``"W"``, ``"D"`` or ``"L"``: what :meth:`margin_points` is worth (a draw's points are a draw)."""
        points = self.margin_points(margin)
        return "W" if points > self.bands[0][1] else "L" if points < self.bands[0][1] else "D"

    @property
    def win(self) -> Fraction:
        """A win scored without finer detail (a forfeit, a plain ``1-0``): the best win."""
        return self.wins[1]

    @property
    def loss(self) -> Fraction:
        """A loss scored without finer detail: the worst loss."""
        return self.losses[0]

    @property
    def draw(self) -> Fraction:
        """A draw without finer detail, a half bye: the draw value nearest (:attr:`win` + :attr:`loss`) / 2."""
        return min(max((self.win + self.loss) / 2, self.draws[0]), self.draws[1])

    @property
    def is_range(self) -> bool:
        """Some class is worth more than one value (``game12``, a custom scale with ranges)."""
        return any(low != high for low, high in (self.wins, self.draws, self.losses))

    def _range(self, outcome: str) -> PointRange:
        return {"W": self.wins, "D": self.draws, "L": self.losses}[outcome]

    def points(self, outcome: str, games: tuple[int, int, int] | None = None) -> Fraction:
        """Points for a game of class ``outcome`` (``"W"``, ``"D"``, ``"L"``); ``games`` puts the player's first.

        >>> wide = Scale(name="custom", wins=parse_range("28..30"), draws=parse_range("14..17"),
        ...              losses=parse_range("0..2"), bye=Fraction(30))
        >>> wide.points("W", (29, 1, 0)), wide.points("D", (16, 14, 0)), wide.points("W"), wide.points("D")
        (Fraction(29, 1), Fraction(16, 1), Fraction(30, 1), Fraction(15, 1))
        """
        if games is not None and self.name == "game12":
            return game12_points(*games)
        if games is not None and self.is_range and not self.game_based:
            low, high = self._range(outcome)
            if low <= games[0] <= high:
                return Fraction(games[0])
        return {"W": self.win, "D": self.draw, "L": self.loss}[outcome]

    def typed_classes(self, games: tuple[int, int, int]) -> tuple[str, str] | None:
        """On a custom range scale, the classes of Player A and B for points typed as ``games``; else ``None``.

        Raises :class:`SheetswissError` (the caller adds the cell) when the points fit no pair of ranges.
        """
        if not self.is_range or self.game_based:
            return None
        a, b, drawn = games
        for ca, cb in (("W", "L"), ("L", "W"), ("D", "D")):
            (alow, ahigh), (blow, bhigh) = self._range(ca), self._range(cb)
            if not drawn and alow <= a <= ahigh and blow <= b <= bhigh:
                return ca, cb
        ranges = ", ".join(f"a {_CLASS_NAMES[c]} {_span(self._range(c))}" for c in ("W", "D", "L"))
        raise SheetswissError(f"{a}-{b}{f'-{drawn}' if drawn else ''} does not fit the custom scale ({ranges}); "
                              "type both sides' points, e.g. "
                              f"{self.wins[1]}-{self.losses[0]} or {self.draw}-{self.draw}")


def _span(r: PointRange) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]}..{r[1]}"


def _fixed(name: str, win: int, draw: int | Fraction, loss: int, *, draws_allowed: bool = True,
           game_based: bool = False) -> Scale:
    w, d, lo = Fraction(win), Fraction(draw), Fraction(loss)
    return Scale(name=name, wins=(w, w), draws=(d, d), losses=(lo, lo), bye=w, draws_allowed=draws_allowed,
                 game_based=game_based)


PRESETS: dict[str, Scale] = {
    "armati": _fixed("armati", 2, 1, 0),
    "chess": _fixed("chess", 1, Fraction(1, 2), 0),
    "magic": _fixed("magic", 3, 1, 0, game_based=True),
    "hct": _fixed("hct", 1, 0, 0, draws_allowed=False, game_based=True),
    "netrunner": _fixed("netrunner", 3, 1, 0),
    "game12": Scale(name="game12", wins=parse_range("8..12"), draws=parse_range("6"), losses=parse_range("0..4"),
                    bye=Fraction(12), game_based=True),
}
"""The named scales of RULES.md 1.3 (``custom`` is built from the Settings)."""


def game12_points(won: int, lost: int, drawn: int) -> Fraction:
    """Seed 002's 12-point match score from a game score (RULES.md 1.3, table ``game12``).

    >>> game12_points(2, 1, 0), game12_points(1, 2, 0), game12_points(1, 1, 0)
    (Fraction(10, 1), Fraction(2, 1), Fraction(6, 1))
    """
    if won == lost:
        return Fraction(6)
    hi, lo = max(won, lost), min(won, lost)
    if hi >= 2 and lo == 0:
        winner = 12 if drawn == 0 else 11
    elif hi >= 2:
        winner = 10 if drawn == 0 else 9
    else:
        winner = 8
    return Fraction(winner) if won > lost else Fraction(12 - winner)


def margin_scale(bands: MarginBands) -> Scale:
    """The custom scale of ``margin_points`` (RULES.md 1.7): its win, draw and loss ranges follow from the bands.

    >>> s = margin_scale(((Fraction(0), Fraction(10)), (Fraction(6), Fraction(11)), (Fraction(51), Fraction(20))))
    >>> s.wins, s.draws, s.losses
    ((Fraction(11, 1), Fraction(20, 1)), (Fraction(10, 1), Fraction(10, 1)), (Fraction(0, 1), Fraction(9, 1)))
    """
    draw, low, high = bands[0][1], bands[1][1], bands[-1][1]
    return Scale(name="custom", wins=(low, high), draws=(draw, draw), losses=(2 * draw - high, 2 * draw - low),
                 bye=high, bands=bands)


def _named(settings: Settings, name: str) -> Scale:
    """The preset ``name``, or the custom scale of ``win_points``, ``draw_points`` and ``loss_points`` (or of
    ``margin_points``)."""
    if name != "custom":
        return PRESETS[name]
    if settings.margin_points:
        return margin_scale(settings.margin_points)
    if settings.win_points is None or settings.draw_points is None or settings.loss_points is None:
        raise BadSetting("Settings: the custom scale is used, so set win_points, draw_points and loss_points")
    return Scale(name="custom", wins=settings.win_points, draws=settings.draw_points, losses=settings.loss_points,
                 bye=settings.win_points[1])


def scale_for(settings: Settings) -> Scale:
    """The ranking scale of the Settings (``points`` and ``bye_points``)."""
    scale = _named(settings, settings.points)
    return scale if settings.bye_points is None else replace(scale, bye=settings.bye_points)


def pairing_scale_for(settings: Settings) -> Scale:
    """The scale pairing uses (RULES.md 1.5): ``pairing_points``, else the ranking scale, but 2/1/0 for a range scale.

    A pairing scale other than the ranking scale scores a PAB as its own win (``bye_points`` is in
    ranking points; *decision*).

    >>> pairing_scale_for(Settings(points="game12")).name, pairing_scale_for(Settings(points="magic")).name
    ('armati', 'magic')
    """
    if settings.pairing_points not in (None, settings.points):
        return _named(settings, settings.pairing_points)
    ranking = scale_for(settings)
    return PRESETS["armati"] if settings.pairing_points is None and ranking.is_range else ranking


def per_round(scale: Scale, games: int) -> Scale:
    """``scale`` for a whole round of ``games`` games, each scored on its own: every value times ``games``.

    Under ``sides: double`` (RULES.md 3: two games a round, one on each side, each scored on its own)
    a round is worth twice a game, and a PAB, a half bye and a late entry's draw stand for both games
    (*decision*, as the MTR counts a bye as a 2-0 win): ``magic`` gives a bye 6, a half bye 2.

    >>> s = per_round(PRESETS["magic"], 2)
    >>> s.win, s.draw, s.loss, s.bye
    (Fraction(6, 1), Fraction(2, 1), Fraction(0, 1), Fraction(6, 1))
    """
    if games == 1:
        return scale

    def times(r: PointRange) -> PointRange:
        return r[0] * games, r[1] * games

    return replace(scale, wins=times(scale.wins), draws=times(scale.draws), losses=times(scale.losses),
                   bye=scale.bye * games)


@final
@dataclass(frozen=True, slots=True)
class ScaleProblem:
    """One rule of RULES.md 1.4 or 1.5 that the Settings' scales break."""

    keys: tuple[str, ...]
    """The settings it concerns, most to blame first: the error names the first one's cell."""
    text: str
    """The rule and its numbers, e.g. ``"rule 2: worst win − best loss = 4 < 4 x (12 − 8) = 16"``."""


class ScaleWarning(UserWarning):
    """A :class:`ScaleProblem` reported with ``scale_check: warn``, its message naming the cell."""


def _rounds(settings: Settings) -> int:
    """R for the scale checks: ``rounds``, or 5 while it is not set (seed 004's k = 4 case; *decision*)."""
    return settings.rounds or 5


def _rule_1(scale: Scale) -> list[ScaleProblem]:
    """RULES.md 1.4 rule 1: min W > max D and min D > max L."""
    out = []
    if scale.wins[0] <= scale.draws[1]:
        out.append(ScaleProblem(("win_points", "draw_points"),
                                f"rule 1: worst win {scale.wins[0]} <= best draw {scale.draws[1]}; "
                                "a win must always pay more than a draw"))
    if scale.draws[0] <= scale.losses[1]:
        out.append(ScaleProblem(("draw_points", "loss_points"),
                                f"rule 1: worst draw {scale.draws[0]} <= best loss {scale.losses[1]}; "
                                "a draw must always pay more than a loss"))
    return out


def _rules_2_3(scale: Scale, rounds: int) -> list[ScaleProblem]:
    """RULES.md 1.4 rules 2 and 3, and the purpose of rule 2 (a lone all-winner finishes first)."""
    (w0, w1), (_, d1), (_, l1) = scale.wins, scale.draws, scale.losses
    k = 4 if rounds <= 5 else rounds
    out = []
    if w0 - l1 < k * (w1 - w0):
        out.append(ScaleProblem(("win_points", "loss_points"),
                                f"rule 2: worst win − best loss = {w0 - l1} < {k} x ({w1} − {w0}) = {k * (w1 - w0)}"))
    if 2 * d1 < w1 + l1:
        out.append(ScaleProblem(("draw_points",),
                                f"rule 3: best draw {d1} < (best win {w1} + best loss {l1})/2 = {(w1 + l1) / 2}"))
    rival = (rounds - 1) * w1 + max(d1, l1)
    if rounds * w0 <= rival:
        out.append(ScaleProblem(("win_points",),
                                f"purpose: {rounds} x worst win {w0} = {rounds * w0} <= {rounds - 1} x best win {w1} "
                                f"+ best draw {max(d1, l1)} = {rival}; a lone player who wins all {rounds} rounds "
                                f"could finish behind {rounds - 1} wins and a draw"))
    return out


def _totals(scale: Scale, record: tuple[int, int, int]) -> PointRange:
    """The least and greatest points a record of (wins, draws, losses) can total on ``scale``."""
    w, d, lo = record
    return (w * scale.wins[0] + d * scale.draws[0] + lo * scale.losses[0],
            w * scale.wins[1] + d * scale.draws[1] + lo * scale.losses[1])


def _opposite(ranking: Scale, pairing: Scale, rounds: int) -> ScaleProblem | None:
    """Two records of the same length, at most ``rounds``, that the scales order oppositely (RULES.md 1.5).

    Opposite: the ranking scale puts A below B whatever values the ranges take, and the pairing
    scale puts A above B whatever values its ranges take. For each length the records are swept
    in order of the most A can rank, so the check is O(m log m) for m records, not O(m²).
    """
    for n in range(1, rounds + 1):
        records = [(w, d, n - w - d) for w in range(n + 1) for d in range(n - w + 1 if ranking.draws_allowed else 1)]
        rank = {rec: _totals(ranking, rec) for rec in records}
        pair = {rec: _totals(pairing, rec) for rec in records}
        records.sort(key=lambda rec: rank[rec][1])
        highs = [rank[rec][1] for rec in records]
        best: list[tuple[int, int, int]] = []  # best[i]: the record among records[: i + 1] the pairing puts highest
        for rec in records:
            best.append(rec if not best or pair[rec][0] > pair[best[-1]][0] else best[-1])
        for b in records:
            below = bisect.bisect_left(highs, rank[b][0])
            if below and pair[best[below - 1]][0] > pair[b][1]:
                a = best[below - 1]
                return ScaleProblem(
                    ("pairing_points", "points"),
                    f"the pairing scale {pairing.name} puts {_record(a)} ({_span(pair[a])}) above {_record(b)} "
                    f"({_span(pair[b])}), which the ranking scale {ranking.name} ranks below it "
                    f"({_span(rank[a])} < {_span(rank[b])})")
    return None


def _record(rec: tuple[int, int, int]) -> str:
    return f"{rec[0]} wins, {rec[1]} draws, {rec[2]} losses"


def scale_problems(settings: Settings) -> list[ScaleProblem]:
    """Every rule of RULES.md 1.4 and 1.5 the Settings' scales break; empty when they are sound.

    A custom ranking scale must pass rules 1-3 and the purpose check for R = :func:`_rounds` rounds;
    presets are not checked. A pairing scale other than the ranking scale must pass rule 1 and never
    order two records of the same length (up to R) oppositely where the ranking scale's ranges do
    not overlap (seed 004: "2 wins and a loss are always less than 3 wins in both"). The caller
    applies ``scale_check``.

    >>> magic_paired_210 = Settings(points="magic", pairing_points="armati", rounds=5)
    >>> print(scale_problems(magic_paired_210)[0].text)    # doctest: +NORMALIZE_WHITESPACE
    the pairing scale armati puts 0 wins, 5 draws, 0 losses (5) above 2 wins, 0 draws, 3 losses (4),
    which the ranking scale magic ranks below it (5 < 6)
    >>> scale_problems(Settings(points="game12")), scale_problems(Settings(points="magic", pairing_points="armati",
    ...                                                                   rounds=4))
    ([], [])
    """
    rounds = _rounds(settings)
    ranking, pairing = scale_for(settings), pairing_scale_for(settings)
    problems = _rule_1(ranking) + _rules_2_3(ranking, rounds) if settings.points == "custom" else []
    if settings.margin_points:  # the bands are what the GM typed: name their cell
        problems = [replace(p, keys=("margin_points", *p.keys)) for p in problems]
    if (pairing.wins, pairing.draws, pairing.losses) != (ranking.wins, ranking.draws, ranking.losses):
        if pairing.name == "custom":
            problems += [replace(p, keys=("pairing_points", *p.keys)) for p in _rule_1(pairing)]
        opposite = _opposite(ranking, pairing, rounds)
        if opposite is not None:
            problems.append(opposite)
    return problems
