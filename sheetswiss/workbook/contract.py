"""The workbook contract (DESIGN.md section 2): tab names and column headers, in one place."""

from __future__ import annotations

__all__ = [
    "AVOID",
    "CONTROL",
    "CONTROL_HEADER",
    "CONTROL_LABELS",
    "CONTROL_OPTIONAL",
    "CONTROL_REQUEST",
    "CONTROL_STATUS",
    "GM_TABS",
    "HEADERS",
    "HEATS",
    "LOG",
    "PAIRINGS",
    "PLACES",
    "PLAN",
    "PLAYERS",
    "PLAYOFFS",
    "PLAYOFF_A",
    "PLAYOFF_B",
    "PLAYOFF_BRACKET",
    "PLAYOFF_COLUMNS",
    "PLAYOFF_CORP",
    "PLAYOFF_FIRST_ROW",
    "PLAYOFF_MATCH",
    "PLAYOFF_NOTE",
    "PLAYOFF_ROUND",
    "PLAYOFF_SEED",
    "PLAYOFF_SEEDED",
    "PLAYOFF_WINNER",
    "QUALIFIERS",
    "REPORTS",
    "RESULTS",
    "RESULT_SCORES",
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

AVOID = "Avoid"
"""The GM's, read only, optional: pairs of players the pairing keeps apart (Player | Player | Why, RULES.md 2.12)."""

GM_TABS = (SETTINGS, PLAYERS, RESULTS, HEATS, AVOID)
"""Tabs the GM owns: the tool reads them and only appends rows to Results, Heats and Players (``register``);
Avoid (optional) is only read.

Also the GM's and read only, named by a setting or an option: the registrations source (setting
``registrations``, a Google Form's "Form Responses 1", RULES.md 10.1) and the results players report
(setting ``reports``, default :data:`REPORTS`, RULES.md 10.3); ``reports`` fills empty Results.Result cells."""

REPORTS = "Reports"

HEADERS: dict[str, tuple[str, ...]] = {
    SETTINGS: ("Setting", "Value", "Description"),
    PLAYERS: ("Name", "Rating", "Club", "Status", "Joined", "Notes"),
    RESULTS: ("Round", "Table", "Player A", "Player B", "Result"),
    HEATS: ("Heat", "Table", "Player", "Score", "Place"),
    AVOID: ("Player", "Player", "Why"),
}
"""Header row (row 1) of each GM tab as ``new`` writes it. Players and Results columns are found by
header, so a GM may reorder them or add columns of their own."""

RESULT_SCORES = ("Score A", "Score B")
"""Optional Results columns a GM adds: each side's game score, victory or control points (RULES.md 4.13). Found
by header like the others; ``new`` does not write them, and rows the tool appends fill them only when they are
there (``import`` of a results CSV with scores)."""

TOOL_NOTE = "written by sheetswiss; edits on this tab are overwritten on the next run"

CONTROL = "Control"
"""Shared by design (issue 17): the GM's request cells and, beside them, the tool's status cells. A request is
made by choosing a Command and ticking Run; ``sheetswiss watch`` runs it and writes the status cells."""

CONTROL_HEADER = ("Control", "Value", "Help")
"""Row 1 of the Control tab. Requests are refused while row 1 does not read so (a moved header)."""

CONTROL_REQUEST = ("Command", "Heat", "Round", "Player", "Redo", "Check", "Dry run", "Run", "Requested by",
                   "Requested at")
"""Labels (column A) of the request cells (column B): the GM's, or the sheetswiss menu's. The tool writes only
Run among them: it unticks Run when it takes the request."""

CONTROL_OPTIONAL = ("Check",)
"""Request labels a Control tab may lack: one made before the label existed. A missing one reads as empty
(a checkbox unticked); a GM who wants it inserts the row (the label in column A, the value in B)."""

CONTROL_STATUS = ("Status", "Started", "Finished", "Output")
"""Labels (column A) of the status cells (column B): written by the tool only; a GM's edit there is overwritten."""

CONTROL_LABELS = CONTROL_REQUEST + CONTROL_STATUS
"""Every label of the Control tab, in the order ``new`` lays them out (rows 2 on). Rows are found by label."""


PLAYOFF_COLUMNS = ("Match", "Round", "Player A", "Player B", "Winner (type here)", "", "Seed", "Player", "")
"""The Playoffs tab's input area, its header in row 2 under the title: the GM types each winner in column E
(and a Netrunner cut's corp player in F); the seeds stay in G and H. The tool owns the tab and rewrites it,
keeping what the GM typed there."""
PLAYOFF_FIRST_ROW = 3
"""The row of the first match and of the first seed."""
PLAYOFF_MATCH = 1
"""Column A: the match's id (``SF1``, ``W2-1``, ``GF``)."""
PLAYOFF_ROUND = 2
"""Column B: the round the match is drawn in."""
PLAYOFF_A = 3
"""Column C: the first side, a player or where the player comes from."""
PLAYOFF_B = 4
"""Column D: the second side."""
PLAYOFF_WINNER = 5
"""Column E: the winner, typed by the GM; read on the next run."""
PLAYOFF_CORP = 6
"""Column F, in a Netrunner cut: who plays the corp (RULES.md 6.8); the GM types it where the higher seed chose."""
PLAYOFF_SEED = 7
"""Column G: the seed's number, 1 first."""
PLAYOFF_SEEDED = 8
"""Column H: the seeded player, beside the number in G."""
PLAYOFF_NOTE = 9
"""Column I: ``walkover`` beside a match nobody has to play."""
PLAYOFF_BRACKET = len(PLAYOFF_COLUMNS) + 1
"""The first column of the bracket drawn to the right, one column a round."""
