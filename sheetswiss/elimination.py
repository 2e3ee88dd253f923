"""After the heats: the elimination rounds (quarterfinal, semifinal, final) and the final places.

RULES.md 5.10 and 5.11, for the heat methods of WBC (World Boardgaming Championships) events such as HMW
(Heats: Most Wins). The rounds are a chain of table rounds: the first is seated from the
qualifiers present (an absent qualifier's seat goes to the next alternate present, in order), each
next one from the winners before it. Seeds (the heat ranking) are spread across the tables in a
snake. The GM (game master) types the scores in Heats as in a heat; places come from them as in a heat
(:func:`~sheetswiss.heats.places`). After the final: places 1 to ``plaques``, the final table's
order first, then the runners-up of the round before, by their score as a share of their table
winner's, then by raw score.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .errors import BadWorkbook, Problems, SheetswissError
from .heat_methods import elimination_table
from .heats import Qualification, Status, places, score_share
from .model import HeatGame, PlayerId
from .seating import split_tables
from .settings import Settings

__all__ = [
    "STAGES",
    "PlaceRow",
    "Replacement",
    "RoundSeating",
    "RoundTable",
    "check_rounds",
    "final_places",
    "round_names",
    "runners_up",
    "seat_first_round",
    "seat_next_round",
    "spread",
    "stage_tables",
]

STAGES = ("quarterfinal", "semifinal", "final")
"""The elimination rounds in order; an event plays the last one, two or three of them."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundTable:
    """One table of an elimination round, players in seat order."""

    number: int
    players: tuple[PlayerId, ...]
    seeds: tuple[int, ...]
    """Each player's seed: their place in the heat ranking (1 the best)."""


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Replacement:
    """An absent player's seat, and who took it."""

    absent: PlayerId
    by: PlayerId | None
    """``None`` when nobody could take the seat."""
    why: str
    """E.g. ``alternate 1`` or ``the closest semifinal runner-up``."""

    @property
    def text(self) -> str:
        """One line for the command and the Seating tab."""
        if self.by is None:
            return f"{self.absent} is absent; nobody takes the seat ({self.why})"
        return f"{self.absent} is absent; {self.by} takes the seat ({self.why})"


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSeating:
    """An elimination round's tables, with the replacements made and notes on how it was seated."""

    stage: str
    tables: tuple[RoundTable, ...]
    replacements: tuple[Replacement, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(p for t in self.tables for p in t.players)


def stage_tables(n: int, settings: Settings) -> tuple[int, ...]:
    """Table sizes for ``n`` players in an elimination round: whole tables of ``final_size`` when ``n`` is a
    multiple of it (5.9 cuts the field so), else ``table_sizes`` as a heat is split (HWO, ``qualifiers``);
    ``n`` up to ``final_size`` is one table, the final.

    >>> stage_tables(16, Settings()), stage_tables(10, Settings()), stage_tables(3, Settings())
    ((4, 4, 4, 4), (4, 3, 3), (3,))
    """
    t = elimination_table(settings)
    if n <= t:
        return (n,)
    if n % t == 0:
        return (t,) * (n // t)
    return split_tables(n, settings.table_sizes)


def round_names(n: int, settings: Settings) -> tuple[str, ...]:
    """The rounds ``n`` players play down to the final, named from the end: final, semifinal, quarterfinal.

    >>> round_names(16, Settings()), round_names(4, Settings()), round_names(48, Settings(table_sizes=(3, 4)))
    (('semifinal', 'final'), ('final',), ('quarterfinal', 'semifinal', 'final'))
    """
    count = 1
    while n > elimination_table(settings):
        while not _seatable(n, settings):  # the closest runners-up fill such a round (seat_next_round)
            n += 1
        n = len(stage_tables(n, settings))
        count += 1
    if count > len(STAGES):
        raise SheetswissError(f"Settings: {n} players need {count} elimination rounds; sheetswiss runs at most "
                              "a quarterfinal, a semifinal and a final (lower semifinal or quarterfinal)")
    return STAGES[-count:]


def spread(seeded: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Seat players in seed order across tables of ``sizes`` in a snake (1 2 3 4 4 3 2 1 ...), skipping full
    tables, so that each table gets one of the best seeds (RULES.md 5.10).

    >>> spread(list("ABCDEFGH"), (4, 4))
    [['A', 'D', 'E', 'H'], ['B', 'C', 'F', 'G']]
    """
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i, step = 0, 1
    for player in seeded:
        while len(tables[order[i]]) >= sizes[order[i]]:
            i, step = _next(i, step, len(order))
        tables[order[i]].append(player)
        i, step = _next(i, step, len(order))
    return tables


def _next(i: int, step: int, n: int) -> tuple[int, int]:
    """The next table index of a snake over ``n`` tables (the end tables take two in a row)."""
    if 0 <= i + step < n:
        return i + step, step
    return i, -step


def _seated(stage: str, players: Sequence[PlayerId], seed: dict[PlayerId, int],
            settings: Settings) -> tuple[RoundTable, ...]:
    ordered = sorted(players, key=lambda p: seed[p])
    if stage != "final" and not _seatable(len(ordered), settings):
        raise SheetswissError(f"Settings: {len(ordered)} players for the {stage} cannot be seated at tables of "
                              f"{' or '.join(map(str, settings.table_sizes))} (table_sizes); change table_sizes, or "
                              "say who else plays (alternates, --absent)")
    sizes = (len(ordered),) if stage == "final" else stage_tables(len(ordered), settings)
    return tuple(RoundTable(number=i, players=tuple(t), seeds=tuple(seed[p] for p in t))
                 for i, t in enumerate(spread(ordered, sizes), start=1))


def _seeds(q: Qualification) -> dict[PlayerId, int]:
    return {r.player: i for i, r in enumerate(q.rows, start=1)}


def seat_first_round(q: Qualification, settings: Settings, absent: Collection[PlayerId]) -> RoundSeating:
    """The first elimination round: the qualifiers present, each absent qualifier's seat to the next alternate
    present in order (RULES.md 5.10). Refused while a tie runs across the cut (the GM decides it first)."""
    tied = [r.player for r in q.rows if r.status is Status.TIED]
    if tied:
        raise SheetswissError(f"Qualifiers: {', '.join(tied)} are tied across the cut; decide it first, for example "
                              "with a dice step at the end of gm_tiebreak (latto, dice under HMW)")
    if not q.qualified:
        raise SheetswissError("Heats: nobody has qualified yet; type the heat scores and run qualify")
    alternates = [p for p in q.alternate_order if p not in absent]
    skipped = [p for p in q.alternate_order if p in absent]
    players: list[PlayerId] = []
    replacements = []
    for p in q.qualified:
        if p not in absent:
            players.append(p)
            continue
        if alternates:
            by = alternates.pop(0)
            players.append(by)
            replacements.append(Replacement(absent=p, by=by, why=f"alternate {q.alternate_order.index(by) + 1}"))
        else:
            replacements.append(Replacement(absent=p, by=None, why="no alternate left"))
    if not players:
        raise SheetswissError(f"Qualifiers: every qualifier is absent ({', '.join(q.qualified)}) and no alternate is "
                              "present, so nobody can be seated; check who is absent")
    notes = [f"Alternate {q.alternate_order.index(p) + 1} {p} is absent too, so passed over" for p in skipped
             if any(r.by is not None and q.alternate_order.index(r.by) > q.alternate_order.index(p)
                    for r in replacements)]
    stage = round_names(len(players), settings)[0] if players else "final"
    return RoundSeating(stage=stage, tables=_seated(stage, players, _seeds(q), settings),
                        replacements=tuple(replacements), notes=tuple(notes))


def _share_key(game: HeatGame, index: int, settings: Settings) -> tuple[Fraction, Fraction]:
    """(share of the table winner's score, raw score), higher better (raw negated under ``score_order: low``)."""
    place = places(game, settings)
    winner = game.seats[place.index(1)].score or Fraction(0)
    own = game.seats[index].score or Fraction(0)
    sign = 1 if settings.score_order == "high" else -1
    return score_share(own, winner, settings), sign * own


def runners_up(games: Sequence[HeatGame], settings: Settings) -> list[tuple[PlayerId, int, HeatGame, int]]:
    """The non-winners of a round's tables, closest first: by place (every 2nd before any 3rd), then by score
    as a share of their table winner's, then by raw score (RULES.md 5.11, [TT22] [TITAN]). Each entry is
    (player, place, table, seat index)."""
    entries = []
    for game in games:
        for i, p in enumerate(places(game, settings)):
            if p > 1:
                entries.append((game.seats[i].player, p, game, i))
    entries.sort(key=lambda e: (e[1], tuple(-v for v in _share_key(e[2], e[3], settings)), e[0]))
    return entries


def seat_next_round(q: Qualification, rounds: Sequence[HeatGame], settings: Settings,
                    absent: Collection[PlayerId]) -> RoundSeating:
    """The round after the last one in ``rounds`` (every table of it scored): its table winners present;
    an absent winner's seat to the closest runner-up present under ``absent_winner: runner_up`` (Thurn &
    Taxis 2018), left empty under ``none``; a final with fewer winners than ``final_fill`` asks for is
    filled with the closest runners-up present (RULES.md 5.10)."""
    last = rounds[-1].stage
    before = [g for g in rounds if g.stage == last]
    _require_scored(before, f"type its scores, then run advance again to seat the round after the {last}")
    winners = [g.seats[places(g, settings).index(1)].player for g in before]
    spare = [e[0] for e in runners_up(before, settings) if e[0] not in absent]
    players: list[PlayerId] = []
    replacements = []
    for w in winners:
        if w not in absent:
            players.append(w)
        elif settings.absent_winner == "runner_up" and spare:
            by = spare.pop(0)
            players.append(by)
            replacements.append(Replacement(absent=w, by=by, why=f"the closest {last} runner-up"))
        else:
            why = "absent_winner: none" if settings.absent_winner == "none" else f"no {last} runner-up left"
            replacements.append(Replacement(absent=w, by=None, why=why))
    stage = round_names(len(players), settings)[0] if players else "final"
    notes = []
    while stage != "final" and not _seatable(len(players), settings) and spare:
        by = spare.pop(0)
        players.append(by)
        notes.append(f"{by} fills the {stage} as the closest {last} runner-up: {len(players) - 1} winners cannot "
                     "be seated at tables of table_sizes")
    if stage == "final":
        target = {"allowed": min(settings.table_sizes), "full": elimination_table(settings),
                  "none": 0}[settings.final_fill]
        while len(players) < target and spare:
            by = spare.pop(0)
            players.append(by)
            notes.append(f"{by} fills the final as the closest {last} runner-up (final_fill: {settings.final_fill})")
    if not players:
        raise SheetswissError(f"Heats: every {last} winner is absent ({', '.join(winners)}) and no {last} runner-up "
                              "can take a seat, so nobody can be seated; check who is absent")
    if STAGES.index(stage) <= STAGES.index(last):
        stage = STAGES[STAGES.index(last) + 1]
    return RoundSeating(stage=stage, tables=_seated(stage, players, _seeds(q), settings),
                        replacements=tuple(replacements), notes=tuple(notes))


def _seatable(n: int, settings: Settings) -> bool:
    try:
        stage_tables(n, settings)
    except SheetswissError:
        return False
    return True


def _require_scored(games: Sequence[HeatGame], then: str) -> None:
    empty = [s.score_cell or s.player for g in games if not g.has_results for s in g.seats]
    if empty:
        stage = games[0].stage
        shown = ", ".join(empty[:8]) + (f" and {len(empty) - 8} more" if len(empty) > 8 else "")
        raise BadWorkbook(f"{shown}: the {stage} is not scored yet; {then}")


def check_rounds(q: Qualification, rounds: Sequence[HeatGame], settings: Settings) -> None:
    """Refuse elimination rows the heats do not allow, naming the cell (RULES.md 5.10): a first-round row
    for a player who is neither qualifier nor alternate, a later round's row for a player who did not play
    the round before, a round before the first the qualifiers play, and a round seated while the one before
    it is not scored; every such row of the tab in one run (a round the event does not have is the one line)."""
    stages = list(dict.fromkeys(g.stage for g in rounds))
    if not stages:
        return
    allowed = set(q.qualified) | set(q.alternate_order) | {r.player for r in q.rows if r.status is Status.TIED}
    first = round_names(max(q.qualifiers, 1), settings)[0] if not q.final else "final"
    if STAGES.index(stages[0]) < STAGES.index(first):
        seat = rounds[0].seats[0]
        raise BadWorkbook(f"{seat.player_cell or seat.player}: this event has no {stages[0]}; the qualifiers play "
                          f"the {first} (see Qualifiers)")
    problems = Problems()  # every row the heats do not allow, in one run
    for seat in (s for g in rounds if g.stage == stages[0] for s in g.seats):
        if seat.player not in allowed:
            problems.add(BadWorkbook(f"{seat.player_cell or seat.player}: {seat.player!r} is in the {stages[0]} but "
                                     "is neither a qualifier nor an alternate (see Qualifiers)"))
    for before, stage in itertools.pairwise(stages):
        games = [g for g in rounds if g.stage == before]
        later = [g for g in rounds if g.stage == stage]
        played = {s.player for g in games for s in g.seats}
        where = later[0].seats[0].player_cell or stage
        with problems.collect():
            _require_scored(games, f"the {stage} (rows from {where}) cannot be seated before it is; type the "
                                   f"{before} scores, or delete the {stage}'s rows")
        for seat in (s for g in later for s in g.seats):
            if seat.player not in played:
                problems.add(BadWorkbook(f"{seat.player_cell or seat.player}: {seat.player!r} is in the {stage} but "
                                         f"did not play the {before}"))
    problems.raise_any()


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceRow:
    """One place of the final standings."""

    place: int
    """Shared by players the rules cannot split."""
    player: PlayerId
    how: str
    """E.g. ``final, 1st`` or ``semifinal table 2, 2nd: 15 of the winner's 19.5 (76.9%)``."""
    tied: tuple[PlayerId, ...] = ()
    """Others with the same place, which the rules cannot split."""


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def final_places(rounds: Sequence[HeatGame], settings: Settings) -> tuple[PlaceRow, ...]:
    """Places 1 to ``plaques`` once the final is scored (RULES.md 5.11): the final table's order, then the
    non-winners of each round before, latest round first, by place at their table, then by their score as
    a share of their table winner's, then by raw score ([TT22], [TITAN]). Players still equal share a place
    and are named as tied. Fewer players than ``plaques``: every one of them."""
    stages = list(dict.fromkeys(g.stage for g in rounds))
    if not stages or stages[-1] != "final":
        raise SheetswissError("Heats: the final is not seated yet; run advance to seat it")
    finals = [g for g in rounds if g.stage == "final"]
    _require_scored(finals, "type its scores, then run advance again to write the places")
    rows: list[PlaceRow] = []
    placed: set[PlayerId] = set()
    game = finals[0]
    order = sorted(zip(places(game, settings), game.seats), key=lambda ps: (ps[0], ps[1].player))
    for p, seat in order:
        tied = tuple(s.player for q, s in order if q == p and s.player != seat.player)
        rows.append(PlaceRow(place=p, player=seat.player, how=f"final, {_ordinal(p)}", tied=tied))
        placed.add(seat.player)
    for stage in reversed(stages[:-1]):
        games = [g for g in rounds if g.stage == stage]
        entries = [e for e in runners_up(games, settings) if e[0] not in placed]
        keys = [(e[1], _share_key(e[2], e[3], settings)) for e in entries]
        start = len(rows)
        for i, (player, p, g, idx) in enumerate(entries):
            if len(rows) >= settings.plaques and (i == 0 or keys[i] != keys[i - 1]):
                break
            first = next(j for j in range(len(entries)) if keys[j] == keys[i])
            tied = tuple(e[0] for j, e in enumerate(entries) if keys[j] == keys[i] and e[0] != player)
            share, _ = keys[i][1]
            winner = g.seats[places(g, settings).index(1)].score or Fraction(0)
            own = g.seats[idx].score or Fraction(0)
            how = (f"{stage} table {g.table}, {_ordinal(p)}: {_number(own)} to the winner's {_number(winner)} "
                   f"({float(share):.1%})")
            rows.append(PlaceRow(place=start + first + 1, player=player, how=how, tied=tied))
            placed.add(player)
        if len(rows) >= settings.plaques:
            break
    last = rows[min(settings.plaques, len(rows)) - 1].place if rows else 0
    return tuple(r for r in rows if r.place <= last)
