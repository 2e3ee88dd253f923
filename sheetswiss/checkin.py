"""Check-in (``check_in: yes``, RULES.md 10.2): only the players marked present are paired for the first time.

Pure: from the event as its tabs state it and who is marked in Players.Present, to the event the pairing and
the standings see. A player who has a row in Results is in the event from the first round with a row (a late
arrival's earlier rounds are a late entry's, RULES.md 2.9); a player without one is paired in the next round
when marked present, and otherwise waits: out of the pairing and the standings, listed as registered but not
checked in.

>>> from .settings import Settings
>>> ev = Event(settings=Settings(check_in=True), players=(Player(name="Ana"), Player(name="Bo"),
...            Player(name="Cy")))
>>> checked = apply_check_in(ev, {"Ana", "Cy"})
>>> [p.name for p in checked.players], [p.name for p in checked.waiting]
(['Ana', 'Cy'], ['Bo'])
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from .model import Event, Player, PlayerId

__all__ = ["PRESENT_NO", "apply_check_in", "is_present"]

PRESENT_NO = frozenset({"", "no", "n", "0", "false", "absent", "-"})
"""What a Present cell holds for a player who has not checked in; anything else (yes, y, x, ✓, 1 ...) is present."""


def is_present(text: str) -> bool:
    """Whether a Present cell's text marks the player present.

    >>> is_present("yes"), is_present("✓"), is_present(""), is_present("No")
    (True, True, False, False)
    """
    return text.strip().lower() not in PRESENT_NO


def apply_check_in(event: Event, present: Collection[PlayerId]) -> Event:
    """``event`` as check-in makes it (RULES.md 10.2): each player with Results rows joins at their first
    round with one (never earlier than Players.Joined says); each without, marked in ``present``, joins at
    the next round to pair; the others move to :attr:`Event.waiting`. Without ``check_in`` it is unchanged."""
    if not event.settings.check_in:
        return event
    first: dict[PlayerId, int] = {}
    for g in event.games:
        for name in (g.a, g.b):
            if name is not None:
                first[name] = min(first.get(name, g.round), g.round)
    following = event.paired_rounds + 1
    kept: list[Player] = []
    waiting: list[Player] = []
    for p in event.players:
        if p.name in first:
            kept.append(replace(p, joined=max(p.joined, first[p.name])))
        elif p.name in present:
            kept.append(replace(p, joined=max(p.joined, following)))
        else:
            waiting.append(p)
    return replace(event, players=tuple(kept), waiting=tuple(waiting))
