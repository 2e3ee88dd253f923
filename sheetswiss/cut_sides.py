"""Who plays which side in a Netrunner top cut (RULES.md 6.8): one game a match, corp or runner.

Cobra (``app/services/side_determiner.rb``) decides each elimination game from the games the two
players have played in the cut so far: the one who has played the corp less often (corp games less
runner games) is the corp. When neither has played yet, Netrunner's rules let the higher seed choose;
when both have played each side equally often, Cobra draws at random and sheetswiss lets the higher
seed choose (*decision*: a choice is reproducible, a hidden draw is not). A choice is the GM's to
record: the corp player typed beside the match; until it is typed, the side counts of both players,
and so the sides of their later games, are unknown.

>>> from sheetswiss.playoffs import advance, new_bracket
>>> b = advance(new_bracket("double", ["A", "B", "C", "D"]), {"W1-1": "A", "W1-2": "B"})
>>> s = cut_sides(b, {"W1-1": "D", "W1-2": "B"})
>>> s["W1-1"].text, s["W2-1"].text, s["L1-1"].text
('D corp (chosen by A)', 'A corp', 'C corp')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import final

from .errors import Problems, SheetswissError, excerpt
from .model import Event, PlayerId, PlayoffSheet
from .playoffs import Bracket, typed_bracket

__all__ = ["CutSide", "chosen_corps", "cut_sides", "event_cut_sides", "typed_cut"]


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class CutSide:
    """The side decision of one elimination game."""

    corp: PlayerId | None
    """The corp player, once known (the runner is the other player)."""
    chooser: PlayerId | None = None
    """The higher seed, when the choice is theirs (first game in the cut for both, or equal side counts)."""
    waiting_for: str | None = None
    """A match whose unrecorded choice keeps this one unknown."""

    @property
    def text(self) -> str:
        """What the Playoffs tab shows: ``"Ana corp"``, ``"Ana corp (chosen by Ana)"``, ``"Ana chooses"``."""
        if self.corp is not None:
            return f"{self.corp} corp" + (f" (chosen by {self.chooser})" if self.chooser else "")
        if self.chooser is not None:
            return f"{self.chooser} chooses"
        return f"unknown until the corp of {self.waiting_for} is typed"


def cut_sides(bracket: Bracket, chosen: Mapping[str, PlayerId]) -> dict[str, CutSide]:
    """Each game's sides, by match id, for every match whose two players are known (walkovers left out).

    ``chosen`` is the corp player typed for matches where the higher seed chooses; a typed name in
    a match the rules decide is not read (the rules' answer stands). Matches are taken in bracket
    order, which is every player's order of play (RULES.md 6.6); a decided match adds +1 to its
    corp's count and -1 to its runner's (Cobra's "differential").
    """
    seed = {p: i for i, p in enumerate(bracket.seeds)}
    count: dict[PlayerId, int] = {}
    played: set[PlayerId] = set()
    unknown: dict[PlayerId, str] = {}  # a player whose count waits for a choice, and the match to type it in
    out: dict[str, CutSide] = {}
    for m in bracket.matches:
        a, b = m.a.player, m.b.player
        if a is None or b is None or m.walkover:
            continue
        higher = min(a, b, key=seed.__getitem__)
        blocked = unknown.get(a) or unknown.get(b)
        side: CutSide
        if blocked is not None:
            side = CutSide(corp=None, waiting_for=blocked)
        elif (a not in played and b not in played) or count.get(a, 0) == count.get(b, 0):
            typed = chosen.get(m.id)
            side = CutSide(corp=typed if typed in (a, b) else None, chooser=higher)
        else:
            side = CutSide(corp=a if count.get(a, 0) < count.get(b, 0) else b)
        out[m.id] = side
        if m.winner is None:
            continue
        played.update((a, b))
        if side.corp is None:
            unknown[a] = unknown[b] = side.waiting_for or m.id
            continue
        runner = b if side.corp == a else a
        count[side.corp] = count.get(side.corp, 0) + 1
        count[runner] = count.get(runner, 0) - 1
    return out


def chosen_corps(cells: Sequence[tuple[str, str, str]], bracket: Bracket, *,
                 unset_skipped: bool = False) -> dict[str, PlayerId]:
    """The corp players typed in the Playoffs tab: ``(cell, match id, text)`` triples of column F.

    A cell holding a player of its match (``Ana``, or as the tool writes it, ``Ana corp ...``) names
    that player; the tool's own ``... chooses`` and ``unknown ...`` are read as nothing; anything else
    is an error naming the cell: every such cell, one line each (:class:`~sheetswiss.errors.ManyProblems`).
    With ``unset_skipped`` (a Winner cell was left out, so some matches wait on it) a cell of a match whose
    players are not both known is not judged yet.

    >>> from sheetswiss.playoffs import new_bracket
    >>> b = new_bracket("single", ["Ana", "Bo"])
    >>> chosen_corps([("Playoffs!F3", "F", "bo corp (chosen by Ana)")], b)
    {'F': 'Bo'}
    """
    out: dict[str, PlayerId] = {}
    problems = Problems()
    for cell, match_id, text in cells:
        typed = text.strip()
        if not typed or typed.endswith(" chooses") or typed.startswith("unknown until"):
            continue
        try:
            m = bracket.match(match_id)
        except SheetswissError as e:
            problems.add(SheetswissError(f"{cell}: {e}"))
            continue
        players = [p for p in (m.a.player, m.b.player) if p is not None]
        if unset_skipped and len(players) < 2:
            continue
        found = [p for p in players if typed.lower() == p.lower() or typed.lower().startswith(p.lower() + " corp")]
        if not found:
            names = " or ".join(players) or "a player once the match is set"
            problems.add(SheetswissError(f"{cell}: {excerpt(typed)} is not a player of {match_id}; type the corp "
                                         f"player, {names}"))
            continue
        out[match_id] = found[0]
    problems.raise_any()
    return out


def typed_cut(event: Event, sheet: PlayoffSheet) -> tuple[Bracket, list[str], dict[str, CutSide] | None]:
    """The bracket as the Playoffs tab has it (:func:`~sheetswiss.playoffs.typed_bracket`) and, in a Netrunner
    event, its sides (:func:`event_cut_sides`): every bad Winner and Corp cell in one run (RULES.md 6.9)."""
    problems = Problems()
    bracket, notes = typed_bracket(event, sheet, problems)
    sides = None
    if event.settings.points == "netrunner":
        with problems.collect():
            sides = cut_sides(bracket, chosen_corps(sheet.corps, bracket, unset_skipped=bool(problems)))
    problems.raise_any()
    return bracket, notes, sides


def event_cut_sides(event: Event, bracket: Bracket, sheet: PlayoffSheet) -> dict[str, CutSide] | None:
    """A Netrunner cut's sides (``points: netrunner``, RULES.md 6.8), with the corp players typed in the
    Playoffs tab; ``None`` for other events."""
    if event.settings.points != "netrunner":
        return None
    return cut_sides(bracket, chosen_corps(sheet.corps, bracket))
