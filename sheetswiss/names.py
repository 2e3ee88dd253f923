"""Names as people type them: one identity for matching, one order for lists (RULES.md 1.6).

A GM types "jose alvarez" in Results, the Players tab says "José Álvarez"; a phone autocorrects
O'Malley to O’Malley. Both are the same player. :func:`name_key` is the identity every name match
uses (Results, Heats, Playoffs winners, ``--explain``, ``--players``, ``rating``, the players' page
search), :class:`Names` finds a typed name among the Players tab's spellings or suggests the nearest,
and :func:`sort_key` orders lists of names for people to read.

>>> name_key("  José  ÁLVAREZ ") == name_key("jose alvarez")
True
>>> name_key("Grace O’Malley") == name_key("grace o'malley")
True
>>> sorted(["Zoë", "Łukasz", "Lukas", "=Bo"], key=sort_key)
['=Bo', 'Lukas', 'Łukasz', 'Zoë']
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from .errors import excerpt

__all__ = ["FOLDS", "Names", "char_folds", "name_key", "sort_key"]

_PUNCTUATION = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u02bb\u02bc\u02bd\u00b4\u0060\uff07", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\uff02", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d", "-"),
})
"""Apostrophes (’ ‘ ʼ ´ ` ...), double quotes (“ ” „ « » ...) and dashes (– — − ...) as their plain ASCII form.
Applied before decomposition, since NFKD would turn ´ into a space and a combining accent."""

FOLDS: dict[str, str] = {
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Ħ": "H", "ħ": "h",
    "Ŧ": "T", "ŧ": "t", "ı": "i", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "TH", "þ": "th",
    "ß": "ss", "ẞ": "SS", "Ŋ": "N", "ŋ": "n", "ƒ": "f", "Ɨ": "I", "ɨ": "i", "ĸ": "k", "·": "",
}
"""Letters that are a base letter with a stroke or a ligature but do not decompose under NFKD, as a reader
of a Latin script would spell them without it (Łukasz as Lukasz, Søren as Soren, Æsa as Aesa). ``·`` is
dropped: NFKD spells Catalan ŀ as l·."""

_FOLD = str.maketrans(FOLDS)


def _fold_once(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.translate(_PUNCTUATION)).translate(_FOLD).casefold()
    text = unicodedata.normalize("NFKD", text)  # casefold turns a Greek iota subscript into a letter: before marks go
    return "".join(c for c in text if not unicodedata.combining(c)
                   and unicodedata.category(c) not in ("Mn", "Me", "Cf")).translate(_PUNCTUATION)


def char_folds() -> dict[str, str]:
    """Every single-character replacement :func:`name_key` makes besides decomposition, accents and case
    (the apostrophes, quotes and dashes, then :data:`FOLDS`): for a search box that folds what is typed
    the same way in the browser."""
    return {**{chr(k): str(v) for k, v in _PUNCTUATION.items()}, **FOLDS}


def name_key(text: str) -> str:
    """The identity of a typed name: two names are the same player exactly when their keys are equal.

    Compatibility decomposition (NFKD), the letters of :data:`FOLDS` spelled without their stroke,
    accents and other combining marks dropped, case folded, every apostrophe, quote and dash in its
    plain form, and runs of whitespace (a no-break space too) one space, none at either end. Invisible
    format characters (a zero-width space pasted from a web page) are dropped. Idempotent:
    ``name_key(name_key(s)) == name_key(s)``.

    >>> name_key("Søren  KIERKEGAARD"), name_key("d’Artagnan"), name_key("Straße")
    ('soren kierkegaard', "d'artagnan", 'strasse')

    Plain ASCII text, most names, takes a shortcut with the same result: nothing in it decomposes, carries
    a mark or folds, its case folds as lower case, and its only quote to replace is the backtick.
    """
    if text.isascii():
        return " ".join(text.replace("`", "'").lower().split())
    return _folded_key(text)


def _folded_key(text: str) -> str:
    """:func:`name_key` the long way, for any text."""
    for _ in range(4):  # a pass can expose a character another pass folds; four is plenty for Unicode
        folded = _fold_once(text)
        if folded == text:
            break
        text = folded
    return " ".join(text.split())


def sort_key(name: str) -> tuple[str, str, str]:
    """Where ``name`` goes in a list sorted by name: by its :func:`name_key`, ignoring any leading
    character that is not a letter or digit (a name typed ``'=Bo`` files under B), then by the key in
    full, then by the name as typed so that the order is the same on every run.

    Łukasz files as Lukasz, after Lukas and before Zoë; Ærø as Aero.

    >>> sorted(["zoe", "Ana", "ana", "+Cy", "Bo"], key=sort_key)
    ['Ana', 'ana', 'Bo', '+Cy', 'zoe']
    """
    key = name_key(name)
    start = next((i for i, c in enumerate(key) if c.isalnum()), len(key))
    return key[start:], key, name


class Names:
    """The Players tab's spellings, found by what a GM types (:func:`name_key`), with suggestions.

    >>> names = Names(["José Álvarez", "Grace O'Malley", "Ana Berg"])
    >>> names.find("jose alvarez"), names.find("GRACE O’MALLEY"), names.find("Jose Alvares")
    ('José Álvarez', "Grace O'Malley", None)
    >>> names.unknown("Jose Alvares", "Players")
    "'Jose Alvares' is not in Players; did you mean 'José Álvarez'?"
    """

    def __init__(self, spellings: Iterable[str]) -> None:
        self._by_key: dict[str, str] = {}
        for spelling in spellings:
            self._by_key.setdefault(name_key(spelling), spelling)
        self._found: dict[str, str | None] = {}
        """What :meth:`find` answered for each text: a Results tab names each player once a round."""

    def find(self, typed: str) -> str | None:
        """The spelling ``typed`` stands for, or ``None``."""
        if typed not in self._found:
            self._found[typed] = self._by_key.get(name_key(typed))
        return self._found[typed]

    def suggest(self, typed: str, limit: int = 3) -> list[str]:
        """Spellings close to ``typed`` (a letter or two off, a word missing or added), nearest first."""
        key = name_key(typed)
        if not key:
            return []
        close = difflib.get_close_matches(key, list(self._by_key), n=limit, cutoff=0.75)
        if not close:  # one word of a name ("alvarez"), or the start of one ("alv")
            words = key.split()
            close = [k for k in self._by_key
                     if all(any(part.startswith(w) for part in k.split()) for w in words)][: limit + 1]
            if len(close) > limit or (len(key) < 3 and len(close) != 1):
                close = []
        return [self._by_key[k] for k in close]

    def did_you_mean(self, typed: str) -> str:
        """``"; did you mean 'José Álvarez'?"`` for a near miss, else ``""``."""
        close = self.suggest(typed)
        if not close:
            return ""
        quoted = [repr(c) for c in close]
        options = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
        return f"; did you mean {options}?"

    def unknown(self, typed: str, where: str) -> str:
        """The message for a name not among the spellings: ``'x' is not in Players; did you mean 'y'?``."""
        return f"{excerpt(typed)} is not in {where}{self.did_you_mean(typed)}"
