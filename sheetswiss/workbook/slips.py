"""The Slips tab: one result slip per table of a round, several to a printed page, with cut lines.

A slip names the round and table, both players (with their side or colour when the event has them), a box for
each result the scale allows (or lines for the games won, under a game-scored scale), a line for each side's
game score when the event keeps them (RULES.md 4.13) and two signature lines.
Slips never straddle a page: the tab carries a page break after each page's last slip, for Letter (five slips
a page) or A4 (six; the sheet is taller) paper (RULES.md 10.4).
"""

from __future__ import annotations

import datetime as dt

from ..backends.base import Band, Tab, TabFormat, Value
from ..model import Event
from ..scoring import scale_for
from ..settings import Paper
from ..tiebreaks import event_chain
from ..tiebreaks.scores import SCORE_TIEBREAKS
from .contract import SLIPS, TOOL_NOTE

__all__ = ["PER_PAGE", "SLIP_ROWS", "Paper", "slips_tab"]


SLIP_ROWS = 7
"""Rows of one slip, its cut line included."""

PER_PAGE: dict[str, int] = {"letter": 5, "a4": 6}
"""Slips on one printed page: at the default row height a slip is 105 points high; Letter's printable height
(11 in less 1.5 in of margins, 684 pt) holds five beside the title row, A4's (842 pt less 108, 734 pt) six."""

CUT = "✂" + " -" * 84
BOX = "☐"
WIDTHS = (13, 30, 3, 13, 30, 4)
"""93 characters: the width of a portrait page, so that it prints at full size."""
HEAD_ROWS = 2


def _scored(event: Event) -> bool:
    """Whether the event keeps game scores (RULES.md 1.7, 4.13): a margin scale, a tiebreak on them in the chain,
    or scores typed already. Its slips then have a line for each side's score."""
    return (bool(event.settings.margin_points) or any(g.scores is not None for g in event.games)
            or bool(SCORE_TIEBREAKS & set(event_chain(event))))


def slips_tab(event: Event, round_: int, paper: Paper, when: dt.datetime) -> Tab:
    """The Slips tab for ``round_``: one slip per table that has a game (a bye needs none)."""
    labels = event.side_labels
    a_label, b_label = ("Player A", "Player B") if labels is None else (labels.a_side, labels.b_side)
    if labels is not None and event.settings.sides == "single":
        a_label, b_label = "Side 1", "Side 2"
    elif labels is not None and event.settings.sides == "double":
        a_label, b_label = "Side 1, game 1", "Side 1, game 2"
    scale = scale_for(event.settings)
    scored = _scored(event)
    seen: set[tuple[int | None, str]] = set()
    games = []
    for g in event.games_in(round_):
        if g.b is None or (g.table, g.a) in seen or (g.table, g.b) in seen:
            continue
        seen.update({(g.table, g.a), (g.table, g.b)})
        games.append(g)
    name = event.settings.event_name or "sheetswiss event"
    size = "A4" if paper == "a4" else "Letter"
    rows: list[tuple[Value, ...]] = [(f"{name}: result slips, round {round_} ({size}, {when:%Y-%m-%d %H:%M})",),
                                     (TOOL_NOTE,)]
    bands: list[Band] = [Band(1, 1, 1, 6, bold=True), Band(2, 2, 1, 6, italic=True)]
    for g in games:
        top = len(rows) + 1
        table = f"Table {g.table}" if g.table is not None else ""
        if scale.game_based:
            result: tuple[Value, ...] = ("Games won:", f"{g.a}: ____", None, "Drawn: ____", f"{g.b}: ____")
        else:
            result = ("Result:", f"{BOX} {g.a} wins", None, f"{BOX} Draw" if scale.draws_allowed else None,
                      f"{BOX} {g.b} wins")
        if event.settings.sides == "double":
            result = ("Games:", "Game 1: ______", None, None, "Game 2: ______")
        rows.extend([
            (f"Round {round_}", table, None, None, name),
            (a_label, g.a, None, b_label, g.b),
            result,
            ("Scores:", f"{g.a}: ____", None, None, f"{g.b}: ____") if scored else (),
            ("Signatures:", "______________________", None, None, "______________________"),
            (None, g.a, None, None, g.b),
            (CUT,),
        ])
        bands.extend([
            Band(top, top, 1, 6, bold=True, fill="E7E6E6"),
            Band(top + 1, top + 1, 2, 2, bold=True), Band(top + 1, top + 1, 5, 5, bold=True),
            Band(top + 5, top + 5, 2, 5, italic=True),
        ])
    if not games:
        rows.append((f"Round {round_} has no games to report.",))
    per_page = PER_PAGE[paper]
    breaks = tuple(HEAD_ROWS + SLIP_ROWS * per_page * k for k in range(1, (len(games) - 1) // per_page + 1))
    return Tab(SLIPS, tuple(rows), TabFormat(widths=WIDTHS, bands=tuple(bands), paper=paper, row_breaks=breaks))
