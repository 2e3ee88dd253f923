"""The workbook contract (DESIGN.md section 2): tab names and column headers, in one place."""

from __future__ import annotations

__all__ = [
    "GM_TABS",
    "HEADERS",
    "LOG",
    "PAIRINGS",
    "PLAYERS",
    "RESULTS",
    "SETTINGS",
    "STANDINGS",
    "TOOL_NOTE",
]

SETTINGS = "Settings"
PLAYERS = "Players"
RESULTS = "Results"
PAIRINGS = "Pairings"
STANDINGS = "Standings"
LOG = "Log"

GM_TABS = (SETTINGS, PLAYERS, RESULTS)
"""Tabs the GM owns: the tool reads them and only appends rows to Results."""

HEADERS: dict[str, tuple[str, ...]] = {
    SETTINGS: ("Setting", "Value", "Description"),
    PLAYERS: ("Name", "Rating", "Club", "Status", "Joined", "Notes"),
    RESULTS: ("Round", "Table", "Player A", "Player B", "Result"),
}
"""Header row (row 1) of each GM tab as ``new`` writes it. Players and Results columns are found by
header, so a GM may reorder them or add columns of their own."""

TOOL_NOTE = "written by sheetswiss; edits on this tab are overwritten on the next run"
