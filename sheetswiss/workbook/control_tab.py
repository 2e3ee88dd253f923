"""The Control tab (issue 17): its layout, the commands it offers, and how a request is read from it.

Labels are in column A, values in column B, help in column C; rows are found by label, so a GM may insert a
row between them. Row 1 is the header (:data:`~sheetswiss.workbook.contract.CONTROL_HEADER`): requests are
refused, naming the cell, while it is not there, or while a label stands outside column A (a column inserted).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, final

from ..backends.base import Band, Book, Tab, TabFormat, Validation, Value, column_letter
from ..errors import Problems, SheetswissError, excerpt, first_few
from .contract import CONTROL, CONTROL_HEADER, CONTROL_LABELS, CONTROL_OPTIONAL, CONTROL_STATUS
from .parse import cell_text

__all__ = [
    "CHECKBOXES",
    "COMMANDS",
    "HELP",
    "ControlCells",
    "Request",
    "commands_for",
    "control_tab",
    "find_control",
    "is_ticked",
]

Format = Literal["swiss", "heats"]

COMMANDS: Mapping[str, tuple[str, ...]] = {
    "swiss": ("pair", "standings", "playoffs", "slips", "reports", "register", "plan", "publish"),
    "heats": ("seat", "qualify", "advance", "publish"),
}
"""The commands the Control tab runs, by the event's format: each one's plain name, offered in the Command
drop-down. Nothing else is accepted (no command that takes a path, an account or another event)."""

HELP: Mapping[str, str] = {
    "Command": "The command to run: choose it from the list",
    "Heat": "seat: the heat to seat (a number)",
    "Round": "slips: the round (a number; empty: the last paired round)",
    "Player": "standings: explain this player's tiebreaks; advance: who is absent (names, comma-separated)",
    "Redo": "pair: tick to re-pair the last round (while none of its results is in); unticked once taken",
    "Check": "pair: tick to check the last round as edited in Results (players swapped before any result), "
             "rewrite Pairings from it and log the edit; unticked once taken",
    "Dry run": "Tick to see what the command would do, writing nothing",
    "Run": "Tick to run the command; sheetswiss unticks it when it takes the request",
    "Requested by": "Filled by the sheetswiss menu (who asked), or left empty",
    "Requested at": "Filled by the sheetswiss menu (when), or left empty",
    "Status": "Written by sheetswiss: running, done or refused",
    "Started": "Written by sheetswiss: when it started the request",
    "Finished": "Written by sheetswiss: when it finished",
    "Output": "Written by sheetswiss: what the command printed (a refusal names the cell to fix)",
}
"""Column C of each row: what the value in column B is for."""

_TICKED = {"true", "yes", "y", "x", "1", "✓", "✔", "☑"}

CHECKBOXES = ("Redo", "Check", "Dry run", "Run")
"""The labels whose value is a checkbox."""

ONCE = ("Redo", "Check")
"""Checkboxes that hold for one request: unticked with Run when the request is taken, so a later ``pair``
pairs the next round rather than redoing or checking the last one again (Dry run stays as the GM left it)."""


def commands_for(fmt: str | None) -> tuple[str, ...]:
    """The commands of the event's format; both formats' when the format is not known (Settings unreadable:
    the command itself then names the bad cell)."""
    if fmt is not None and fmt in COMMANDS:
        return COMMANDS[fmt]
    return tuple(dict.fromkeys(c for commands in COMMANDS.values() for c in commands))


def is_ticked(value: Value) -> bool:
    """Whether a checkbox cell is ticked: TRUE (a Google Sheets checkbox, or TRUE chosen in Excel), or a
    GM's ``yes``/``x``/``1``.

    >>> [is_ticked(v) for v in (True, False, None, "TRUE", "x", "no", 1, 0)]
    [True, False, False, True, True, False, True, False]
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value == 1
    return isinstance(value, str) and value.strip().lower() in _TICKED


def control_tab(fmt: str) -> Tab:
    """The Control tab as ``new`` (and ``sheetswiss control``) makes it: the header, a row per label with
    its help, the Command drop-down of the format's commands, and checkboxes for Redo, Check, Dry run and Run."""
    rows: list[tuple[Value, ...]] = [CONTROL_HEADER]
    for label in CONTROL_LABELS:
        value: Value = False if label in CHECKBOXES else None
        rows.append((label, value, HELP[label]))
    row_of = {label: i for i, label in enumerate(CONTROL_LABELS, start=2)}
    validations = (Validation(row_of["Command"], 2, choices=commands_for(fmt)),
                   *(Validation(row_of[label], 2, checkbox=True) for label in CHECKBOXES))
    first_status = row_of[CONTROL_STATUS[0]]
    return Tab(CONTROL, tuple(rows), TabFormat(
        freeze_rows=1, widths=(14, 60, 70), landscape=True,
        bands=(Band(1, 1, 1, 3, fill="D9E1F2", bold=True, border_below=True),
               Band(2, len(rows), 1, 1, bold=True),
               Band(first_status - 1, first_status - 1, 1, 3, border_below=True),
               Band(first_status, len(rows), 2, 3, fill="F2F2F2"),
               Band(row_of["Output"], row_of["Output"], 2, 2, wrap=True),
               Band(2, len(rows), 3, 3, italic=True)),
        text_columns=(), validations=validations))


@final
@dataclass(frozen=True, slots=True)
class Request:
    """What the Control tab asks for, as read (the command not yet checked against the list)."""

    command: str
    heat: int | None
    round: int | None
    player: str
    redo: bool
    dry_run: bool
    by: str
    at: str
    check: bool = False
    """pair: check the last round as edited in Results (``pair --check``)."""

    def words(self) -> str:
        """The request as a command line a GM would type (without the event): ``pair --redo``."""
        parts = [self.command]
        if self.command == "seat" and self.heat is not None:
            parts.append(f"--heat {self.heat}")
        if self.command == "slips" and self.round is not None:
            parts.append(f"--round {self.round}")
        if self.command == "standings" and self.player:
            parts.append(f'--explain "{self.player}"')
        if self.command == "advance" and self.player:
            parts.append(f'--absent "{self.player}"')
        if self.command == "pair" and self.redo:
            parts.append("--redo")
        if self.command == "pair" and self.check:
            parts.append("--check")
        if self.dry_run and self.command != "publish":
            parts.append("--dry-run")
        return " ".join(parts)


@final
@dataclass(frozen=True, slots=True)
class ControlCells:
    """Where the Control tab's labelled rows are, and what they hold."""

    tab: str
    rows: Mapping[str, int]
    """Label -> its 1-based row."""
    values: Mapping[str, Value]
    """Label -> what column B holds."""

    def cell(self, label: str) -> str:
        """How messages name a label's value cell: ``Control!B8``."""
        return f"{self.tab}!B{self.rows[label]}"

    @property
    def ticked(self) -> bool:
        """Whether Run is ticked: a request is waiting to be taken."""
        return is_ticked(self.values.get("Run"))

    @property
    def status(self) -> str:
        return cell_text(self.values.get("Status")).strip().lower()

    def request(self) -> Request:
        """The request as typed; a value of the wrong kind is refused naming its cell."""
        def text(label: str) -> str:
            return cell_text(self.values.get(label)).strip()

        problems = Problems()  # a bad Heat and a bad Round are both named

        def number(label: str) -> int | None:
            shown = text(label)
            if shown == "":
                return None
            if isinstance(self.values.get(label), bool) or not shown.isdigit() or int(shown) < 1:
                problems.add(SheetswissError(f"{self.cell(label)}: {excerpt(shown)} is not a {label.lower()} "
                                             "number (1, 2, 3 ...)"))
                return None
            return int(shown)

        heat, round_ = number("Heat"), number("Round")
        problems.raise_any()
        return Request(command=text("Command").lower(), heat=heat, round=round_,
                       player=text("Player"), redo=is_ticked(self.values.get("Redo")),
                       dry_run=is_ticked(self.values.get("Dry run")), by=text("Requested by"),
                       at=text("Requested at"), check=is_ticked(self.values.get("Check")))


def _labels_in(rows: tuple[tuple[Value, ...], ...]) -> dict[str, tuple[int, int]]:
    """Every Control label found anywhere in ``rows``: label -> (1-based row, 1-based column), first found."""
    wanted = {label.lower(): label for label in CONTROL_LABELS}
    found: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            label = wanted.get(cell_text(value).strip().lower())
            if label is not None and label not in found:
                found[label] = (r, c)
    return found


def _looks_like_control(rows: tuple[tuple[Value, ...], ...]) -> bool:
    """Whether a tab holds the Control tab's labels (a renamed Control tab)."""
    found = _labels_in(rows)
    return "Run" in found and "Command" in found and "Status" in found


def find_control(book: Book) -> ControlCells | None:
    """The Control tab's cells, ``None`` when the event has no Control tab.

    Refused, naming the cell, when the tab was renamed (another tab holds its labels), when row 1 is not its
    header, when a label stands outside column A or appears twice, or when one is missing (but for
    :data:`~sheetswiss.workbook.contract.CONTROL_OPTIONAL`'s: a missing one reads as empty, unticked).
    """
    if CONTROL not in book.tabs:
        renamed = [t for t in book.tabs if _looks_like_control(book.rows(t))]
        if renamed:
            where = _labels_in(book.rows(renamed[0]))["Run"]
            raise SheetswissError(
                f"{renamed[0]}!{column_letter(where[1])}{where[0]}: this tab looks like the Control tab renamed; "
                f"requests are taken only from a tab named {CONTROL}: name it {CONTROL} again")
        return None
    rows = book.rows(CONTROL)
    header = tuple(cell_text(v).strip() for v in (rows[0] if rows else ())[:2])
    if header != CONTROL_HEADER[:2]:
        moved = next((f"{CONTROL}!A{r}" for r, row in enumerate(rows, start=1)
                      if tuple(cell_text(v).strip() for v in row[:2]) == CONTROL_HEADER[:2]), None)
        held = " | ".join(header) if any(header) else "nothing"
        raise SheetswissError(
            f"{CONTROL}!A1: the Control tab's header ({' | '.join(CONTROL_HEADER[:2])}) should be in row 1, which "
            f"holds {held}" + (f"; it is in {moved} (a row inserted above it?)" if moved else "")
            + "; requests are refused until it is back in A1:B1")
    found = _labels_in(rows)
    problems = Problems()  # every label out of place, missing or twice, in one run
    misplaced = [(f"{CONTROL}!{column_letter(c)}{r}", label)
                 for label, (r, c) in sorted(found.items(), key=lambda kv: kv[1]) if c != 1]
    if misplaced:  # one line: moved labels have one cause and one fix (a column inserted: delete it)
        many = len(misplaced) > 1
        labels = ", ".join(repr(label) for _, label in misplaced)
        problems.add(SheetswissError(
            f"{first_few([cell for cell, _ in misplaced], limit=3)}: the label{'s' if many else ''} {labels} should "
            f"be in column A, with {'their values' if many else 'its value'} in B (a column inserted?); requests are "
            "refused until the labels are back in column A"))
    missing = [label for label in CONTROL_LABELS if label not in found and label not in CONTROL_OPTIONAL]
    if missing:
        problems.add(SheetswissError(f"{CONTROL}!A:A: no row labelled {', '.join(repr(m) for m in missing)}; the "
                                     f"Control tab needs a row for each of: {', '.join(CONTROL_LABELS)} "
                                     "(to make it again: delete this tab, then run sheetswiss control EVENT)"))
    seen: dict[str, int] = {}
    for r, row in enumerate(rows, start=1):
        label = cell_text(row[0] if row else None).strip()
        match = next((known for known in CONTROL_LABELS if known.lower() == label.lower()), None)
        if match is not None:
            if match in seen:
                problems.add(SheetswissError(f"{CONTROL}!A{r}: a second row labelled {match!r} (the first is row "
                                             f"{seen[match]}); keep one"))
                continue
            seen[match] = r
    problems.raise_any()
    values = {label: (rows[r - 1][1] if len(rows[r - 1]) > 1 else None) for label, r in seen.items()}
    return ControlCells(CONTROL, seen, values)


