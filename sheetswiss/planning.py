"""Round planning: how many Swiss rounds for how many players and which cut (RULES.md section 7).

Four views, side by side: Magic's table (7.1, from the MTR, Magic: The Gathering Tournament Rules), the Swiss
triangle of records by expectation and by an integer model (7.2), seed 000's "x-1 is safe, x-2 is not" (7.3), and
the rounds a single winner needs with seed 004's warnings (7.4). A prize-by-record table (seed 000's closing
proposal) prices prizes attached to records. :func:`plan` gathers what the ``plan`` command prints;
:func:`plan_text` says it in lines. All counts are exact (``Fraction``); they are rounded only for display.

>>> p = plan(88, top_cut=8)
>>> p.rounds, p.integer
(7, (1, 5, 14, 24, 24, 14, 5, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import final

from .errors import SheetswissError
from .tiebreaks import number_text

__all__ = [
    "MagicRow",
    "Plan",
    "PrizeRow",
    "expected_records",
    "integer_records",
    "magic_row",
    "plan",
    "plan_text",
    "players_at_most",
    "prize_by_record",
    "safe_rounds",
    "single_winner_rounds",
]


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class MagicRow:
    """One row of Magic's table (seed 000, verbatim; RULES.md 7.1)."""

    fewest: int
    most: int | None
    """``None``: no upper end (410+)."""
    rounds: int
    top_cut: int
    """0 for the 8-player row, which is single elimination rather than Swiss."""

    @property
    def players(self) -> str:
        """The row's players as the table writes them: ``8``, ``65-128``, ``410+``."""
        if self.most is None:
            return f"{self.fewest}+"
        return str(self.fewest) if self.fewest == self.most else f"{self.fewest}-{self.most}"


_MAGIC_TABLE = (
    MagicRow(fewest=8, most=8, rounds=3, top_cut=0),
    MagicRow(fewest=9, most=16, rounds=5, top_cut=4),
    MagicRow(fewest=17, most=32, rounds=5, top_cut=8),
    MagicRow(fewest=33, most=64, rounds=6, top_cut=8),
    MagicRow(fewest=65, most=128, rounds=7, top_cut=8),
    MagicRow(fewest=129, most=226, rounds=8, top_cut=8),
    MagicRow(fewest=227, most=409, rounds=9, top_cut=8),
    MagicRow(fewest=410, most=None, rounds=10, top_cut=8),
)


def magic_row(players: int) -> MagicRow | None:
    """The row of Magic's table for ``players``, or ``None`` below 8 (the table starts there).

    The rows from 17 up match WotC's "Swiss-Style Pairing System Basics" (1999). MTR Appendix E
    counts a player with a 1-, 2- or 3-round awarded bye as 2, 4 or 8 players: pass that count.

    >>> magic_row(88).rounds, magic_row(88).players
    (7, '65-128')
    """
    for row in _MAGIC_TABLE:
        if row.fewest <= players and (row.most is None or players <= row.most):
            return row
    return None


def single_winner_rounds(players: int) -> int:
    """ceil(log2 N): the rounds in which a Swiss likely picks the strongest player (seed 004; RULES.md 7.4).

    >>> single_winner_rounds(8), single_winner_rounds(16), single_winner_rounds(88)
    (3, 4, 7)
    """
    return (players - 1).bit_length()


def expected_records(players: int, rounds: int) -> tuple[Fraction, ...]:
    """The Swiss triangle by expectation: entry i is N · C(R, i) / 2^R players at (R−i)-i (RULES.md 7.2).

    No draws; every game is a coin toss. Seed 000's "1 at 7-0, 5 at 6-1, 14 at 5-2" for 88 players
    is this, rounded to the nearest integer.

    >>> [float(x) for x in expected_records(88, 7)[:3]]
    [0.6875, 4.8125, 14.4375]
    """
    return tuple(Fraction(players * math.comb(rounds, losses), 2**rounds) for losses in range(rounds + 1))


def integer_records(players: int, rounds: int, *, floater_wins: bool = True) -> tuple[int, ...]:
    """The Swiss triangle by the integer model: entry i is the players at (R−i)-i (RULES.md 7.2).

    Each round, every record group pairs inside and half of its games are won. An odd group sends
    its lowest player down to play the top of the next group below; that paired-down player wins
    (``floater_wins``; False: loses, the variant RULES.md 7.2 and 7.3 compare). The last odd player
    gets a bye, a win. For seed 000's 88 players and 7 rounds: 1, 5, 14, 24, 24, 14, 5, 1.

    >>> integer_records(88, 7, floater_wins=False)[:3]
    (0, 5, 15)
    """
    groups = [players]  # groups[w]: players with w wins
    for played in range(rounds):
        after = [0] * (played + 2)
        floater: int | None = None  # the wins of a player sent down from a group above
        for wins in range(played, -1, -1):
            count = groups[wins]
            if count and floater is not None:
                up, down = (floater + 1, wins) if floater_wins else (floater, wins + 1)
                after[up] += 1
                after[down] += 1
                count -= 1
                floater = None
            pairs, odd = divmod(count, 2)
            after[wins + 1] += pairs
            after[wins] += pairs
            if odd:
                floater = wins
        if floater is not None:
            after[floater + 1] += 1  # the bye
        groups = after
    return tuple(reversed(groups))


def players_at_most(records: Sequence[Fraction] | Sequence[int], losses: int) -> Fraction:
    """The players with at most ``losses`` losses: x-1 is safe for a top c when this, for 1, is <= c (RULES.md 7.3).

    >>> players_at_most(expected_records(88, 7), 1), players_at_most(expected_records(88, 6), 1)
    (Fraction(11, 2), Fraction(77, 8))
    """
    return sum((Fraction(x) for x in records[: losses + 1]), Fraction(0))


def safe_rounds(players: int, cut: int, *, integer: bool = False) -> int | None:
    """The fewest rounds after which x-1 is safe for a top ``cut`` (seed 000's rule; RULES.md 7.3).

    x-1 is safe when the players who can be x-0 or x-1 fit in the cut: N (R + 1) / 2^R <= c by
    expectation, or the same count from :func:`integer_records` (``integer``). ``None`` if no number
    of rounds below N − 1 makes it safe (from N − 1 rounds on, seed 004 says play a round robin).

    >>> safe_rounds(88, 8), safe_rounds(88, 8, integer=True)
    (7, 7)
    """
    if cut < 1:
        raise SheetswissError(f"x-1 safety needs a top cut of at least 1, not {cut}")
    for rounds in range(1, max(2, players - 1)):
        records = integer_records(players, rounds) if integer else expected_records(players, rounds)
        if players_at_most(records, 1) <= cut:
            return rounds
    return None


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PrizeRow:
    """One record of a prize-by-record table (seed 000: a prize attached to a record, RULES.md 7)."""

    wins: int
    losses: int
    expected: Fraction
    """Players expected at this record (:func:`expected_records`)."""
    players: int
    """Players at this record in the integer model (:func:`integer_records`)."""
    prize: Fraction
    """What each player with the record receives; for a pooled prize, the pool shared by ``players``."""
    total: Fraction
    """The expected payout for the record: ``prize · expected``; a pool is paid whole if anyone has the record."""


def prize_by_record(players: int, rounds: int, prizes: Mapping[int, Fraction], *,
                    pooled: bool = False) -> tuple[PrizeRow, ...]:
    """Every record from R-0 down, with the prize for it and its expected payout.

    ``prizes`` maps a number of wins to an amount: paid to each player with that record, or, with
    ``pooled``, a pool shared equally by them (seed 000: "a prize pool attached to it which is then
    divided by all the players who achieve that record"; also "a set sum for any players who
    finish with a specific record", whose total varies with the results). Shares use the integer
    model, as a pool cannot be split among 0.6875 players. Raises for a record ``rounds`` cannot give.

    >>> rows = prize_by_record(88, 7, {6: Fraction(100), 5: Fraction(50)})
    >>> [(r.wins, r.prize, float(r.total)) for r in rows[1:3]]
    [(6, Fraction(100, 1), 481.25), (5, Fraction(50, 1), 721.875)]
    """
    for wins in prizes:
        if not 0 <= wins <= rounds:
            raise SheetswissError(f"a prize for {wins} wins, but {rounds} rounds give 0 to {rounds} wins")
    expected = expected_records(players, rounds)
    integer = integer_records(players, rounds)
    rows = []
    for losses in range(rounds + 1):
        wins = rounds - losses
        amount = Fraction(prizes.get(wins, 0))
        count = integer[losses]
        if pooled:
            prize, total = (amount / count, amount) if count else (Fraction(0), Fraction(0))
        else:
            prize, total = amount, amount * expected[losses]
        rows.append(PrizeRow(wins=wins, losses=losses, expected=expected[losses], players=count, prize=prize,
                             total=total))
    return tuple(rows)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """Everything ``plan`` prints for one event (RULES.md section 7)."""

    players: int
    counted: int
    """Players as MTR Appendix E counts them for Magic's table: awarded byes of 1, 2, 3 rounds count 2, 4, 8."""
    top_cut: int
    """0: no cut."""
    rounds: int
    """The rounds planned: the ``rounds`` setting if given, else x-1 safe (7.3), else a single winner's (7.4)."""
    magic: MagicRow | None
    single_winner: int
    safe: int | None
    """The fewest rounds with x-1 safe for the cut, by expectation; ``None`` without a cut or if none below N − 1."""
    safe_integer: int | None
    """The same by the integer model."""
    expected: tuple[Fraction, ...]
    """The triangle after :attr:`rounds` by expectation, R-0 first."""
    integer: tuple[int, ...]
    """The same by the integer model."""
    warnings: tuple[str, ...]
    prizes: tuple[PrizeRow, ...] = ()

    @property
    def prize_total(self) -> Fraction:
        """The expected payout of all prizes by record."""
        return sum((row.total for row in self.prizes), Fraction(0))


def plan(players: int, *, top_cut: int, rounds: int | None = None, awarded_byes: Sequence[int] = (),
         prizes: Mapping[int, Fraction] | None = None, pooled: bool = False) -> Plan:
    """The round plan for ``players`` and a top ``top_cut`` (0: none); ``rounds`` is the ``rounds`` setting.

    ``awarded_byes`` has one entry per player with an awarded bye: its length in rounds, 1 to 3
    (MTR Appendix E; only Magic's table uses it). ``prizes`` and ``pooled`` are as in
    :func:`prize_by_record`. Warnings (RULES.md 7.3, 7.4): x-1 not safe, or x-2 safe too, in the
    planned rounds; more than 24 players in 4 rounds or fewer; N − 1 rounds or more.
    """
    if players < 2:
        raise SheetswissError(f"a plan needs at least 2 players, not {players}")
    if top_cut < 0:
        raise SheetswissError(f"top_cut is a number of players, not {top_cut}")
    if rounds is not None and rounds < 1:
        raise SheetswissError(f"rounds is a number from 1, not {rounds}")
    if any(b not in (1, 2, 3) for b in awarded_byes):
        raise SheetswissError("an awarded bye lasts 1, 2 or 3 rounds (MTR Appendix E)")
    safe = safe_rounds(players, top_cut) if top_cut else None
    single = single_winner_rounds(players)
    planned = rounds or safe or single
    expected = expected_records(players, planned)
    warnings = []
    if top_cut:
        x1, x2 = players_at_most(expected, 1), players_at_most(expected, 2)
        if x1 > top_cut:
            warnings.append(f"x-1 is not safe in {planned} rounds: {number_text(x1, 2)} players expected at "
                            f"x-0 or x-1 for a top {top_cut}")
        elif x2 <= top_cut:
            warnings.append(f"x-2 is safe too in {planned} rounds ({number_text(x2, 2)} players expected at x-2 "
                            f"or better for a top {top_cut}): a player could lose on purpose and still make the "
                            f"cut")
    if planned <= 4 and players > 24:
        warnings.append(f"{players} players in {planned} rounds: 4 rounds suit at most 24 players, "
                        f"preferably 16 or fewer")
    if planned >= players - 1:
        warnings.append(f"{planned} rounds for {players} players: with N − 1 rounds or more, play a round robin "
                        f"instead")
    counted = players + sum(2**b - 1 for b in awarded_byes)
    return Plan(players=players, counted=counted, top_cut=top_cut, rounds=planned, magic=magic_row(counted),
                single_winner=single, safe=safe,
                safe_integer=safe_rounds(players, top_cut, integer=True) if top_cut else None,
                expected=expected, integer=integer_records(players, planned), warnings=tuple(warnings),
                prizes=prize_by_record(players, planned, prizes, pooled=pooled) if prizes else ())


def plan_text(p: Plan) -> list[str]:
    """The plan as the ``plan`` command prints it.

    >>> print("\\n".join(plan_text(plan(88, top_cut=8))))  # doctest: +NORMALIZE_WHITESPACE
    88 players, top 8.
    Magic's table (65-128 players): 7 Swiss rounds, top 8.
    A single winner: 7 rounds (ceil(log2 88)).
    x-1 safe for the top 8: 7 rounds by expectation, 7 rounds by the integer model.
    Planned: 7 rounds.
    record   | 7-0  | 6-1  | 5-2   | 4-3   | 3-4   | 2-5   | 1-6  | 0-7
    expected | 0.69 | 4.81 | 14.44 | 24.06 | 24.06 | 14.44 | 4.81 | 0.69
    integer  | 1    | 5    | 14    | 24    | 24    | 14    | 5    | 1
    x-1 or better: 5.5 expected, 6 in the integer model; x-2 or better: 19.94 and 20.
    """
    lines = [f"{p.players} players" + (f" (counted as {p.counted} with awarded byes)" if p.counted != p.players
                                       else "") + (f", top {p.top_cut}." if p.top_cut else ", no top cut.")]
    if p.magic is None:
        lines.append("Magic's table starts at 8 players.")
    else:
        shape = f"Swiss rounds, top {p.magic.top_cut}" if p.magic.top_cut else "rounds of single elimination"
        lines.append(f"Magic's table ({p.magic.players} players): {p.magic.rounds} {shape}.")
    lines.append(f"A single winner: {p.single_winner} rounds (ceil(log2 {p.players})).")
    if p.top_cut:
        by = [f"{r} rounds" if r else f"no number below {p.players - 1}" for r in (p.safe, p.safe_integer)]
        lines.append(f"x-1 safe for the top {p.top_cut}: {by[0]} by expectation, {by[1]} by the integer model.")
    lines.append(f"Planned: {p.rounds} rounds.")
    records = [f"{p.rounds - losses}-{losses}" for losses in range(p.rounds + 1)]
    table = [["record", *records], ["expected", *(number_text(x, 2) for x in p.expected)],
             ["integer", *(str(x) for x in p.integer)]]
    if p.prizes:
        table.append(["prize", *(number_text(row.prize, 2) for row in p.prizes)])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines.extend(" | ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table)
    lines.append(f"x-1 or better: {number_text(players_at_most(p.expected, 1), 2)} expected, "
                 f"{players_at_most(p.integer, 1)} in the integer model; x-2 or better: "
                 f"{number_text(players_at_most(p.expected, 2), 2)} and {players_at_most(p.integer, 2)}.")
    if p.prizes:
        lines.append(f"Prizes by record: {number_text(p.prize_total, 2)} expected in all.")
    lines.extend(f"Warning: {w}" for w in p.warnings)
    return lines
