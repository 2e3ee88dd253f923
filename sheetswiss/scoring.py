"""Point scales (RULES.md 1.3 and 1.5): what a win, a draw, a loss and a bye are worth.

>>> s = scale_for(Settings(points="chess"))
>>> s.win, s.draw, s.loss, s.bye
(Fraction(1, 1), Fraction(1, 2), Fraction(0, 1), Fraction(1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .errors import BadSetting
from .settings import Settings

__all__ = ["PRESETS", "Scale", "game12_points", "pairing_scale_for", "scale_for"]


@final
@dataclass(frozen=True, slots=True)
class Scale:
    """A point scale. ``game12`` splits its 12 points by game score (:func:`game12_points`)."""

    name: str
    win: Fraction
    draw: Fraction
    loss: Fraction
    bye: Fraction
    draws_allowed: bool = True
    game_based: bool = False
    """Results are match scores in games (Magic, Hearthstone, game12): ``1-0`` is one game to none."""

    def points(self, outcome: str, games: tuple[int, int, int] | None = None) -> Fraction:
        """Points for ``outcome`` ``"W"``, ``"D"`` or ``"L"``; ``game12`` uses the game score when known."""
        if self.name == "game12" and games is not None:
            return game12_points(*games)
        return {"W": self.win, "D": self.draw, "L": self.loss}[outcome]


F = Fraction
PRESETS: dict[str, Scale] = {
    "armati": Scale("armati", F(2), F(1), F(0), F(2)),
    "chess": Scale("chess", F(1), F(1, 2), F(0), F(1)),
    "magic": Scale("magic", F(3), F(1), F(0), F(3), game_based=True),
    "hct": Scale("hct", F(1), F(0), F(0), F(1), draws_allowed=False, game_based=True),
    "game12": Scale("game12", F(12), F(6), F(0), F(12), game_based=True),
}


def game12_points(won: int, lost: int, drawn: int) -> Fraction:
    """Seed 002's 12-point match score from a game score (RULES.md 1.3, table ``game12``).

    >>> game12_points(2, 1, 0), game12_points(1, 2, 0), game12_points(1, 1, 0)
    (Fraction(10, 1), Fraction(2, 1), Fraction(6, 1))
    """
    if won == lost:
        return F(6)
    hi, lo = max(won, lost), min(won, lost)
    if hi >= 2 and lo == 0:
        winner = 12 if drawn == 0 else 11
    elif hi >= 2:
        winner = 10 if drawn == 0 else 9
    else:
        winner = 8
    return F(winner) if won > lost else F(12 - winner)


def scale_for(settings: Settings) -> Scale:
    """The ranking scale of the Settings (``points`` and ``bye_points``)."""
    if settings.points == "custom":
        if settings.win_points is None or settings.draw_points is None or settings.loss_points is None:
            raise BadSetting("Settings: points is custom, so set win_points, draw_points and loss_points")
        scale = Scale("custom", settings.win_points, settings.draw_points, settings.loss_points,
                      settings.win_points)
    else:
        scale = PRESETS[settings.points]
    if settings.bye_points is not None:
        scale = Scale(scale.name, scale.win, scale.draw, scale.loss, settings.bye_points,
                      scale.draws_allowed, scale.game_based)
    return scale


def pairing_scale_for(settings: Settings) -> Scale:
    """The scale pairing uses (RULES.md 1.5): the ranking scale, but 2/1/0 for ``game12``."""
    if settings.points == "game12":
        return PRESETS["armati"]
    return scale_for(settings)
