"""The errors a GM can fix, and only those: each message names the cell first.

Anything else is a bug in sheetswiss; the command line logs it and exits 1.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import ParamSpec, TypeVar

__all__ = ["BadSetting", "BadWorkbook", "ManyProblems", "Problems", "SheetswissError", "UnknownName",
           "WorkbookUnavailable", "excerpt", "first_few"]

T = TypeVar("T")
P = ParamSpec("P")


class SheetswissError(ValueError):
    """Bad input the GM can fix: ``"Results!E14: cannot read 'W' as a result; accepted: ..."``."""


class BadWorkbook(SheetswissError):
    """A tab does not follow the workbook contract (DESIGN.md section 2)."""


class BadSetting(SheetswissError):
    """A Settings value is not one the setting accepts."""


class UnknownName(SheetswissError):
    """A name (tiebreak, setting, preset) that sheetswiss does not know; the message lists the known ones."""


class WorkbookUnavailable(SheetswissError):
    """The file cannot be used: missing, locked, open in Excel, not an .xlsx."""


SHOWN = 20
"""How many problems one run lists before ``and N more``."""

EXCERPT = 40
"""The most characters of a GM's value a message quotes."""


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a message: whole when short, else its first ``limit`` characters and its length,
    so a 40,000-character cell makes a line that still fits a screen.

    >>> excerpt("W")
    "'W'"
    >>> excerpt("x" * 40_000, limit=5)
    "'xxxxx…' (40,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '…'!r} ({len(text):,} characters)"


def first_few(items: Sequence[str], limit: int = 8) -> str:
    """The first ``limit`` of ``items`` (cells, names) joined for a message, and how many more there are.

    >>> first_few(["Results!E3", "Results!E4", "Results!E5"], limit=2)
    'Results!E3, Results!E4 and 1 more'
    """
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


class ManyProblems(BadWorkbook):
    """Several problems found in one run: one line each, the first :data:`SHOWN` of them, then ``and N more``."""

    def __init__(self, problems: Sequence[SheetswissError]) -> None:
        self.problems = tuple(problems)
        lines = [str(p) for p in self.problems[:SHOWN]]
        if len(self.problems) > SHOWN:
            lines.append(f"and {len(self.problems) - SHOWN} more ({len(self.problems)} problems in all)")
        super().__init__("\n".join(lines))


class Problems:
    """The problems found reading a workbook, gathered so that one run reports them all (collect, then report).

    A parser :meth:`add`\\ s each bad cell (or runs a step under :meth:`collect`) and reads on, leaving out
    what it could not read; at the end :meth:`raise_any` raises the one problem as it is, or several as
    :class:`ManyProblems`. The same line found twice is kept once.

    >>> found = Problems()
    >>> with found.collect():
    ...     raise BadWorkbook("Results!E3: cannot read 'W' as a result")
    >>> found.add(BadWorkbook("Results!D5: 'Zed' is not in Players"))
    >>> found.raise_any()
    Traceback (most recent call last):
    ...
    sheetswiss.errors.ManyProblems: Results!E3: cannot read 'W' as a result
    Results!D5: 'Zed' is not in Players
    """

    def __init__(self) -> None:
        self._found: list[SheetswissError] = []
        self._lines: set[str] = set()

    def __len__(self) -> int:
        return len(self._found)

    def add(self, problem: SheetswissError) -> None:
        """Keep ``problem`` (a :class:`ManyProblems` as each of its problems)."""
        for one in problem.problems if isinstance(problem, ManyProblems) else (problem,):
            if str(one) not in self._lines:
                self._lines.add(str(one))
                self._found.append(one)

    @contextlib.contextmanager
    def collect(self) -> Iterator[None]:
        """Run a step; a :class:`SheetswissError` it raises is kept and the caller goes on after the block."""
        try:
            yield
        except SheetswissError as e:
            self.add(e)

    def attempt(self, step: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        """``step(*args, **kwargs)``, or ``None`` when it raised a :class:`SheetswissError` (which is kept)."""
        try:
            return step(*args, **kwargs)
        except SheetswissError as e:
            self.add(e)
            return None

    def raise_any(self) -> None:
        """Raise what was found: nothing, the one problem, or :class:`ManyProblems`."""
        if len(self._found) == 1:
            raise self._found[0]
        if self._found:
            raise ManyProblems(self._found)

    @classmethod
    @contextlib.contextmanager
    def into(cls, problems: Problems | None) -> Iterator[Problems]:
        """``problems`` when the caller gathers them; else a new collection, raised on leaving the block."""
        found = cls() if problems is None else problems
        yield found
        if problems is None:
            found.raise_any()
