"""Registrations into Players: a form's responses tab or a CSV file, read like any GM tab (RULES.md 10.1).

Pure: from the rows of a source (a header row, then one row per registration) and the Players tab as it
is, to the rows to append to Players and the lines that say what was done. Nothing here reads or writes a
file; :func:`sheetswiss.api.register` reads the source and writes the rows.

A name is the same player as another when their :func:`~sheetswiss.names.name_key` keys are equal (case,
accents, apostrophes and spaces ignored, RULES.md 1.6): a second registration of the same name, or one of
a player already in Players, is listed and never added. Every other answer goes under the Players column with the same
header (:func:`header_key`), so a form asking "Club" and "Rating" fills Players.Club and Players.Rating.

>>> reg = plan_registrations(
...     Source("Form Responses 1", (("Timestamp", "Name", "Club"), ("t1", "José Álvarez", "Rooks"),
...                                 ("t2", "jose alvarez", "Rooks"), ("t3", "Ana Berg", ""))),
...     players_header=("Name", "Rating", "Club"), players=(("Ana  Berg", 3),), name_column="")
>>> [r.name for r in reg.added], [d.text for d in reg.duplicates]
(['José Álvarez'], ["Form Responses 1!B3: 'jose alvarez' registered twice (first in row 2)", \
"Form Responses 1!B4: 'Ana Berg' is already in Players (row 3, 'Ana  Berg')"])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .backends.base import Value, column_letter
from .errors import BadWorkbook, Problems
from .names import name_key

__all__ = ["Duplicate", "NewPlayer", "Registrations", "Source", "header_key", "plan_registrations"]

_ALIASES = {"email address": "email", "e-mail": "email", "e-mail address": "email", "mail": "email",
            "club name": "club", "team": "club", "elo": "rating"}
"""Headers a form commonly uses for a Players column: Google Forms heads the address it collects
"Email Address"."""

NAME_HEADERS = ("name", "full name", "player", "player name", "your name", "your full name", "names")
"""Headers taken as the name column when the ``registration_name`` setting is empty."""

FIRST_HEADERS = ("first name", "given name", "first names", "forename")
LAST_HEADERS = ("last name", "surname", "family name")

_SKIP = ("timestamp", "horodateur", "marca temporal", "zeitstempel")
"""A form's own timestamp column (in a few languages): never an answer for Players."""


def header_key(header: str) -> str:
    """A column header as compared between a source and Players: case ignored, anything in brackets
    and a trailing ``?``, ``:`` or ``*`` dropped, a few usual form spellings taken as the Players one.

    >>> header_key("Rating (FIDE)?"), header_key("Email Address"), header_key(" Club: ")
    ('rating', 'email', 'club')
    """
    text = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", header).strip().rstrip("?:*").strip()
    text = " ".join(text.casefold().split())
    return _ALIASES.get(text, text)


@final
@dataclass(frozen=True, slots=True)
class Source:
    """A registrations source as read: its name in messages (a tab, or a CSV file's name) and its rows,
    the header first."""

    label: str
    rows: tuple[tuple[Value, ...], ...]


@final
@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A registration to append to Players."""

    name: str
    values: dict[int, Value]
    """Players column index (0-based) -> value, the name included."""
    source_row: int
    answers: tuple[str, ...]
    """The Players headers filled besides the name."""


@final
@dataclass(frozen=True, slots=True)
class Duplicate:
    """A registration not added, and why, naming its cell."""

    name: str
    text: str
    in_players: bool = False
    """Already in Players (else registered twice in the source)."""
    same_spelling: bool = False
    """Already in Players spelled exactly so: a registration brought in before."""


@final
@dataclass(frozen=True, slots=True)
class Registrations:
    """What registering a source does: the players to add, in the source's order, and what is left out."""

    added: tuple[NewPlayer, ...]
    duplicates: tuple[Duplicate, ...]
    notes: tuple[str, ...]
    """Rows without a name, answers without a Players column, values that could not be read."""
    mapped: tuple[str, ...]
    """Players headers the source's answers go under (the name column first)."""
    rows: int
    """Registrations read (rows with anything in them)."""


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _name_columns(header: Sequence[str], name_column: str, label: str) -> tuple[int, ...]:
    keys = [header_key(h) for h in header]
    if name_column:
        wanted = [header_key(part) for part in name_column.split("+")]
        problems = Problems()  # both parts of First name + Last name, when both are missing
        for want in wanted:
            if want not in keys:
                problems.add(BadWorkbook(f"{label}!1: no column headed {want!r} (setting registration_name); "
                                         "headers: " + ", ".join(repr(h) for h in header if h)))
        problems.raise_any()
        return tuple(keys.index(want) for want in wanted)
    for want in NAME_HEADERS:
        if want in keys:
            return (keys.index(want),)
    first = next((keys.index(k) for k in FIRST_HEADERS if k in keys), None)
    last = next((keys.index(k) for k in LAST_HEADERS if k in keys), None)
    if first is not None and last is not None:
        return first, last
    raise BadWorkbook(f"{label}!1: no name column (headed Name, Full name, Player, or First name and Last name); "
                      "set registration_name in Settings to the header of the column with the names")


def _rating(text: str, ref: str) -> tuple[Value, str | None]:
    try:
        number = Fraction(text.replace(",", "."))
    except (ValueError, ZeroDivisionError):
        return None, f"{ref}: rating {text!r} is not a number; Rating left empty"
    return round(number), None


def plan_registrations(source: Source, *, players_header: Sequence[Value],
                       players: Sequence[tuple[str, int]], name_column: str) -> Registrations:
    """The registrations of ``source`` that are not in ``players`` (their names and rows), as Players rows.

    ``players_header`` is Players' row 1; ``name_column`` the ``registration_name`` setting (a header, or
    two joined by ``+``: ``First name + Last name``; empty: found by :data:`NAME_HEADERS`). The first
    registration of a name is added; later ones and names already in Players are :class:`Duplicate`.
    A rating that is not a number is left empty and said in ``notes``.
    """
    if not source.rows:
        raise BadWorkbook(f"{source.label}: empty; a registrations source has a header row, then one row "
                          "per registration")
    header = [_text(h) for h in source.rows[0]]
    names = _name_columns(header, name_column, source.label)
    targets = {header_key(_text(h)): i for i, h in enumerate(players_header) if _text(h)}
    if "name" not in targets:
        raise BadWorkbook("Players!1: no column headed 'Name' in row 1")
    mapping: dict[int, int] = {}
    unmapped: list[str] = []
    for i, h in enumerate(header):
        key = header_key(h)
        if i in names or not h or key in _SKIP:
            continue
        if key in targets and key != "name" and targets[key] not in mapping.values():
            mapping[i] = targets[key]
        else:
            unmapped.append(h)
    target_headers = {i: _text(h) for i, h in enumerate(players_header)}
    known = {name_key(name): (name, row) for name, row in players}
    seen: dict[str, int] = {}
    added: list[NewPlayer] = []
    duplicates: list[Duplicate] = []
    notes: list[str] = []
    count = 0
    for r, row in enumerate(source.rows[1:], start=2):
        cells = [_text(v) for v in row]
        if not any(cells):
            continue
        count += 1
        name = " ".join(" ".join(cells[i] for i in names if i < len(cells)).split())
        ref = f"{source.label}!{column_letter(names[0] + 1)}{r}"
        if not name:
            notes.append(f"{ref}: this registration has no name; skipped")
            continue
        key = name_key(name)
        if key in known:
            there, players_row = known[key]
            same = "" if there == name else f", {there!r}"
            duplicates.append(Duplicate(name, f"{ref}: {name!r} is already in Players (row {players_row}{same})",
                                        in_players=True, same_spelling=there == name))
            continue
        if key in seen:
            duplicates.append(Duplicate(name, f"{ref}: {name!r} registered twice (first in row {seen[key]})"))
            continue
        seen[key] = r
        values: dict[int, Value] = {targets["name"]: name}
        for i, target in mapping.items():
            text = cells[i] if i < len(cells) else ""
            if not text:
                continue
            if header_key(target_headers[target]) == "rating":
                value, problem = _rating(text, f"{source.label}!{column_letter(i + 1)}{r}")
                if problem:
                    notes.append(problem)
                    continue
                values[target] = value
            else:
                values[target] = text
        answers = tuple(target_headers[t] for t in sorted(values) if t != targets["name"])
        added.append(NewPlayer(name, values, r, answers))
    if unmapped:
        notes.append("Not brought in (no Players column headed the same; add one to Players to bring it in): "
                     + ", ".join(repr(h) for h in unmapped))
    mapped = tuple(target_headers[t] for t in (targets["name"], *sorted(mapping.values())))
    return Registrations(tuple(added), tuple(duplicates), tuple(notes), mapped, count)
