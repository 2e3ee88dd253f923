"""The workbook contract (DESIGN.md section 2): tab names and column headers, in one place."""

from __future__ import annotations

__all__ = [
    "AVOID",
    "GM_TABS",
    "HEADERS",
    "HEATS",
    "LOG",
    "PAIRINGS",
    "PLACES",
    "PLAN",
    "PLAYERS",
    "PLAYOFFS",
    "QUALIFIERS",
    "REPORTS",
    "RESULTS",
    "SEATING",
    "SETTINGS",
    "SLIPS",
    "STANDINGS",
    "TOOL_NOTE",
]

SETTINGS = "Settings"
PLAYERS = "Players"
RESULTS = "Results"
PAIRINGS = "Pairings"
STANDINGS = "Standings"
LOG = "Log"
HEATS = "Heats"
QUALIFIERS = "Qualifiers"
SEATING = "Seating"
PLAYOFFS = "Playoffs"
PLAN = "Plan"
SLIPS = "Slips"
"""Tool-owned: one result slip per table of the current round, laid out for printing (RULES.md 10.4)."""
PLACES = "Places"

GM_TABS = (SETTINGS, PLAYERS, RESULTS, HEATS)
"""Tabs the GM owns: the tool reads them and only appends rows to Results, Heats and Players (``register``).

Also the GM's and read only, named by a setting or an option: the registrations source (setting
``registrations``, a Google Form's "Form Responses 1", RULES.md 10.1) and the results players report
(setting ``reports``, default :data:`REPORTS`, RULES.md 10.3); ``reports`` fills empty Results.Result cells."""

REPORTS = "Reports"

AVOID = "Avoid"
"""The GM's, read only, optional: pairs of players the pairing keeps apart (Player | Player | Why, RULES.md 2.12)."""

HEADERS: dict[str, tuple[str, ...]] = {
    SETTINGS: ("Setting", "Value", "Description"),
    PLAYERS: ("Name", "Rating", "Club", "Status", "Joined", "Notes"),
    RESULTS: ("Round", "Table", "Player A", "Player B", "Result"),
    HEATS: ("Heat", "Table", "Player", "Score", "Place"),
}
"""Header row (row 1) of each GM tab as ``new`` writes it. Players and Results columns are found by
header, so a GM may reorder them or add columns of their own."""

TOOL_NOTE = "written by sheetswiss; edits on this tab are overwritten on the next run"
