"""Standings: points, then the tiebreak chain, as FIDE C.07 Art. 4.2 applies it (RULES.md 4.1). A PAB
(pairing-allocated bye) scores ``bye_points``; how it counts in each tiebreak is the ``unplayed`` setting's.

The pairing uses :func:`compute_standings` row order as the ranking inside a score group, so the
order is fully deterministic: players still tied after the whole chain share a rank and are listed
by rating (highest first, unrated last), then by name.

>>> from sheetswiss.model import Event, Game, Player
>>> from sheetswiss.results import Result
>>> from sheetswiss.settings import Settings
>>> ev = Event(settings=Settings(points="chess"), players=(Player(name="Ana"), Player(name="Bo")),
...            games=(Game(round=1, table=1, a="Ana", b="Bo", result=Result.parse("1-0"), row=2),))
>>> [(r.rank, r.player, r.points) for r in compute_standings(ev).rows]
[(1, 'Ana', Fraction(1, 1)), (2, 'Bo', Fraction(0, 1))]
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import final

import numpy as np

from .errors import UnknownName
from .history import RoundKind, RoundRecord
from .model import Event, PlayerId
from .names import sort_key
from .tiebreaks import TIEBREAKS, Column, Context, Group, Tiebreak, event_chain, number_text, sortable

__all__ = ["StandingRow", "Standings", "compute_standings", "explain", "making_cut", "standing_ranks", "top_cut"]


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow:
    """One player's line in Standings."""

    rank: int
    shared: bool
    """Still tied after the whole chain: the rank is shared (shown ``3=``)."""
    player: PlayerId
    points: Fraction
    wins: int
    """Rounds worth a win's points, played or not (forfeit wins, a PAB worth a win).

    Under ``sides: double`` the record counts games, not rounds (:func:`_game_record`)."""
    draws: int
    """Rounds worth a draw: drawn games, half byes, a PAB worth a draw."""
    losses: int
    """Games and forfeits lost; zero byes and absences are in none of the three."""
    games: int
    """Games played over the board (two a round of a double-sided match)."""
    values: tuple[Fraction, ...]
    """One value per tiebreak of :attr:`Standings.chain`, in chain order."""
    dropped: bool
    """Players.Status says the player has left."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Standings:
    """The ranking after ``rounds`` rounds, best first."""

    rounds: int
    chain: tuple[str, ...]
    """Canonical tiebreak names, in the order applied."""
    rows: tuple[StandingRow, ...]
    cut: int = 0
    """How many go on to the playoff: ``top_cut`` or its default (:func:`top_cut`, RULES.md 7.1); 0 for none."""

    @property
    def qualified(self) -> tuple[PlayerId, ...]:
        """The players in the top :attr:`cut`, best first (:func:`making_cut`)."""
        return making_cut(self, self.cut)

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """The chain's registry entries: each column's title and display kind."""
        return tuple(TIEBREAKS[name] for name in self.chain)


@final
@dataclass(frozen=True, slots=True)
class _Ranking:
    groups: list[Group]
    """Best first; a group of several players is tied after the whole chain."""
    values: dict[PlayerId, list[Fraction]]
    evaluated_in: dict[PlayerId, dict[int, Group]]
    """For group tiebreaks (by chain position): the tied group the value was computed on."""


def _descending(key: np.ndarray, lowest_first: bool) -> np.ndarray:
    """``key`` as ``int64`` whose ascending order ranks first what the tiebreak ranks first."""
    key = sortable(key)
    return key if lowest_first else -key


def _rank(ctx: Context, names: tuple[str, ...], *, lazy: bool = False) -> _Ranking:
    """Sort by points, then split each tied group by each tiebreak in turn (C.07 Art. 4.2).

    The field is held as one ranking order with the start of each tied group marked; a tiebreak computed
    for every player at once (:attr:`~sheetswiss.tiebreaks.Tiebreak.column`) splits every tied group in one
    stable sort, keyed by group then value, so a group's members keep their order among equals. A
    group-dependent tiebreak (direct encounter) splits each tied group in turn.

    ``lazy``: only the groups matter, not the values shown. A tiebreak without a column is then computed
    only for the players still tied when the chain reaches it: a value never decides anything for a player
    alone in their group, and each value is the same function of the context wherever it is computed, so
    the groups are the same; :attr:`_Ranking.values` is then left empty.
    """
    entries = [TIEBREAKS[name] for name in names]
    players = list(ctx.players)
    if lazy:
        values: dict[PlayerId, list[Fraction]] = {}
    else:
        maps = [ctx.values(e.name) if e.value is not None else None for e in entries]
        values = {x: [m[x] if m is not None else Fraction(0) for m in maps] for x in players}
    evaluated_in: dict[PlayerId, dict[int, Group]] = defaultdict(dict)
    score = _descending(ctx.score_array, lowest_first=False)
    order = np.argsort(score, kind="stable")  # best first, Players order among equals
    start = np.ones(len(players), dtype=bool)  # where a tied group starts, along ``order``
    start[1:] = score[order[1:]] != score[order[:-1]]
    for i, entry in enumerate(entries):
        group = np.cumsum(start) - 1
        tied = np.bincount(group)[group] > 1
        if not tied.any():
            break
        if entry.split is not None:
            for first, last in _segments(start, tied):
                members = tuple(players[k] for k in order[first:last].tolist())
                parts, de = entry.split(ctx, members)
                row = ctx.row
                order[first:last] = [row[x] for part in parts for x in part]
                start[first:last] = [j == 0 for part in parts for j in range(len(part))]
                for x in members:
                    if not lazy:
                        values[x][i] = de[x]
                    evaluated_in[x][i] = members
            continue
        at = order[tied]
        if entry.column is not None or not lazy:
            key = ctx.column(entry.name).numerators[at]
        else:
            key = Column.of([ctx.value(entry.name, players[k]) for k in at.tolist()]).numerators
        key = _descending(key, entry.lowest_first)
        g = group[tied]
        moved = np.lexsort((key, g))  # stable: by group, then value, then the order so far
        order[tied] = at[moved]
        key, g = key[moved], g[moved]
        start[tied] = np.concatenate(([True], (g[1:] != g[:-1]) | (key[1:] != key[:-1])))
    bounds = [*np.flatnonzero(start).tolist(), len(players)]
    ranked = [players[k] for k in order.tolist()]
    groups = [tuple(ranked[a:b]) for a, b in itertools.pairwise(bounds)]
    return _Ranking(groups, values, evaluated_in)


def _segments(start: np.ndarray, tied: np.ndarray) -> list[tuple[int, int]]:
    """The (first, end) positions of the tied groups of several players, along the ranking order."""
    firsts = np.flatnonzero(start).tolist()
    ends = [*firsts[1:], len(start)]
    return [(a, b) for a, b in zip(firsts, ends) if tied[a]]


def _tie_order(ctx: Context, group: Group) -> Group:
    """Players tied after the chain: by rating (unrated last), then name (RULES.md 1.6), for a stable order."""
    return tuple(sorted(group, key=lambda x: (ctx.player[x].rating is None, -(ctx.player[x].rating or 0), sort_key(x))))


def _game_record(records: Sequence[RoundRecord], classes: Sequence[str], per: int) -> tuple[int, int, int]:
    """Wins, draws, losses: one a round, or under ``sides: double`` (``per`` = 2) one a game (*decision*).

    A round with an opponent counts its result class, or a double-sided match its games, forfeited
    games included (RULES.md 3: each game is scored on its own). A round without one counts its
    class ``per`` times, as it stands for every game of the round (a PAB worth a win: two wins);
    losses need an opponent, so zero byes and absences are in none of the three.
    """
    won = drawn = lost = 0
    for r, c in zip(records, classes):
        if r.opponent is not None and per > 1 and r.games is not None:
            won, lost, drawn = won + r.games[0], lost + r.games[1], drawn + r.games[2]
        elif r.opponent is not None or c != "L":
            count = 1 if r.opponent is not None else per
            won, drawn, lost = won + count * (c == "W"), drawn + count * (c == "D"), lost + count * (c == "L")
    return won, drawn, lost


def compute_standings(event: Event, *, through: int | None = None,
                      recorded: Mapping[PlayerId, tuple[RoundRecord, ...]] | None = None) -> Standings:
    """The standings after round ``through`` (default: the completed rounds); ``recorded``: the history of
    those rounds when the caller has read it already (:func:`~sheetswiss.history.history`).

    Cost: one pass over the history reads it into the :class:`~sheetswiss.tiebreaks.Context`'s arrays;
    each tiebreak defined over the whole field is then a few array operations, the others are computed
    once per player, and each tiebreak splits the tied groups in one sort; direct encounter is computed
    on the tied groups only.
    """
    ctx = Context.of(event, through=through, recorded=recorded)
    names = event_chain(event)
    ranking = _rank(ctx, names)
    per = event.settings.games_per_round
    rows: list[StandingRow] = []
    for group in ranking.groups:
        rank = len(rows) + 1
        for x in _tie_order(ctx, group):
            records = ctx.records[x]
            wins, draws, losses = _game_record(records, ctx.classes[x], per)
            rows.append(StandingRow(
                rank=rank,
                shared=len(group) > 1,
                player=x,
                points=ctx.points(ctx.score[x]),
                wins=wins,
                draws=draws,
                losses=losses,
                games=per * sum(1 for r in records if r.kind is RoundKind.GAME),
                values=tuple(ranking.values[x]),
                dropped=ctx.player[x].dropped,
            ))
    return Standings(rounds=ctx.rounds, chain=names, rows=tuple(rows), cut=top_cut(event))


def standing_ranks(event: Event, *, through: int | None = None,
                   recorded: Mapping[PlayerId, tuple[RoundRecord, ...]] | None = None,
                   context: Context | None = None) -> dict[PlayerId, int]:
    """Each player's rank in :func:`compute_standings` (tied players share one), without the rest of the
    rows: what the pairing needs to order a score group (RULES.md 2.1). ``context``: the context of the
    same rounds of the same event when the caller has built it already (its chain is ``event``'s)."""
    ctx = context if context is not None else Context.of(event, through=through, recorded=recorded)
    ranks: dict[PlayerId, int] = {}
    for group in _rank(ctx, event_chain(event), lazy=True).groups:
        rank = len(ranks) + 1
        ranks.update(dict.fromkeys(group, rank))
    return ranks


def explain(event: Event, player: PlayerId, *, through: int | None = None) -> list[str]:
    """How each of ``player``'s standings values was computed, opponent by opponent.

    Raises :class:`~sheetswiss.errors.UnknownName` for a name not in Players.
    """
    ctx = Context.of(event, through=through)
    if player not in ctx.records:
        raise UnknownName(f"Players: no player named {player!r}")
    names = event_chain(event)
    ranking = _rank(ctx, names)
    at = next(i for i, group in enumerate(ranking.groups) if player in group)
    place = 1 + sum(len(group) for group in ranking.groups[:at])
    lines = [f"{player}: {number_text(ctx.points(ctx.score[player]))} points after round {ctx.rounds}, "
             f"rank {place}{'=' if len(ranking.groups[at]) > 1 else ''} "
             f"(opponents' unplayed rounds: {event.settings.unplayed_rule})"]
    for i, name in enumerate(names):
        entry = TIEBREAKS[name]
        value = ranking.values[player][i]
        notes: list[str] = []
        if entry.value is not None:
            entry.value(ctx, player, notes)
        elif i in ranking.evaluated_in[player]:
            tied = ranking.evaluated_in[player][i]
            notes.append(f"  tied group: {', '.join(tied)} (de_rule: {event.settings.de_rule})")
            for opponent, points in ctx.head_to_head(player).items():
                if opponent in tied:
                    notes.append(f"  v {opponent}: " + ", ".join(number_text(ctx.points(p)) for p in points)
                                 + (" (averaged)" if len(points) > 1 else ""))
        else:
            notes.append("  not tied when the chain reached it: 0")
        lines.append(f"{entry.title} ({name}) = {entry.text(value)}")
        lines.extend(notes)
    return lines


def top_cut(event: Event) -> int:
    """``top_cut`` or its default: none up to 8 players, 4 for 9-16, else 8 (RULES.md 7.1)."""
    if event.settings.top_cut is not None:
        return event.settings.top_cut
    count = len(event.players)
    return 0 if count <= 8 else 4 if count <= 16 else 8


def making_cut(table: Standings, cut: int) -> tuple[PlayerId, ...]:
    """The players in the top ``cut``, best first: dropped players are passed over (*decision*)."""
    return tuple(row.player for row in table.rows if not row.dropped)[:cut]
