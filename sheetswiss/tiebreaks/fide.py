"""The chess family (FIDE Handbook C.07 and seed 004's ARMATI chain): RULES.md 4.2-4.7.

Buchholz (the sum of the opponents' scores) and its cuts, Sonneborn-Berger (SB: the opponents' scores
weighted by the result against each), SODOS (sum of defeated opponents' scores), the progressive score,
direct encounter (DE) within a tied group, and the win and Black-game counts. VUR means a voluntary
unplayed round (C.07 Art. 16.1: a requested bye or a forfeit loss); PAB the pairing-allocated bye.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..history import RoundKind
from ..model import PlayerId
from .registry import (
    Column,
    Context,
    Contribution,
    Group,
    Kind,
    column_tiebreak,
    group_tiebreak,
    number_text,
    sortable,
    split_by,
)


def _opp_label(ctx: Context) -> str:
    """How :attr:`Context.opponent_score` counted, for explanations."""
    if ctx.rule == "points":
        return "score"
    if ctx.rule == "fide2009":
        return "score, unplayed rounds as draws"
    return "score, rounds after the last paired one as draws"


def _explain_contribution(ctx: Context, x: PlayerId, c: Contribution) -> str:
    rec = c.record
    value = number_text(ctx.points(c.value))
    head = f"R{rec.round} {rec.kind.value}" + (f" v {rec.opponent}" if rec.opponent else "")
    if rec.kind is RoundKind.GAME or (ctx.rule == "points" and rec.opponent):
        how = f"{rec.opponent}'s {_opp_label(ctx)}"
    elif ctx.rule == "fide2009":
        how = "virtual opponent: score before the round + opposite result + a draw a round after"
    elif ctx.rule == "fide2023":
        how = f"dummy on {x}'s own score (C.07 16.4)"
    else:
        cap = f"{rec.opponent}'s score" if rec.opponent else "a draw a round"
        how = f"dummy on {x}'s own score, at most {cap} (C.07 16.4.1-2)"
    return f"  {head}: {value} ({how}){' [VUR]' if c.vur and ctx.rule != 'points' else ''}"


def _cut_order(values: np.ndarray, present: np.ndarray, vur: np.ndarray | None, lowest: int,
               highest: int) -> np.ndarray:
    """Which contributions a cut removes, row by row: 0 where kept, else the removal's number (1 first).

    A cut over every player at once (RULES.md 4.3 and 4.2, FIDE C.07 Art. 14 and 16.5): the ``lowest`` least
    values go first, the VURs (``vur``, when the rule cuts them
    first) before the others, the earlier round first among equals; then the ``highest`` greatest of the
    rest, the later round first among equals. Fewer values than cuts removes them all.
    """
    rows, rounds = values.shape
    ranks = sortable(values)
    position = np.broadcast_to(np.arange(rounds), (rows, rounds))
    not_vur = ~vur if vur is not None else np.zeros((rows, rounds), dtype=bool)
    out = np.zeros((rows, rounds), dtype=np.int64)
    taken = np.minimum(lowest, present.sum(axis=1))
    if lowest:
        order = np.lexsort((position, ranks, not_vur, ~present), axis=-1)  # VURs, the rest, then no contribution
        i, j = np.nonzero(np.arange(rounds) < taken[:, None])
        out[i, order[i, j]] = j + 1
    if highest:
        rest = present & (out == 0)
        high = np.minimum(highest, rest.sum(axis=1))
        order = np.lexsort((position, ranks, rest), axis=-1)  # the rest last, greatest (latest) at the end
        i, j = np.nonzero(np.arange(rounds) >= rounds - high[:, None])
        out[i, order[i, j]] = taken[i] + rounds - j
    return out


def _contribution_sums(ctx: Context, lowest: int = 0, highest: int = 0, weighted: bool = False) -> Column:
    """The Buchholz family for every player at once: the sum of each row of :attr:`Context.contribution_table`,
    less what the cut removes (:func:`_cut_order`; under ``fide2023``/``fide2026`` a low cut takes the VURs
    first); ``weighted`` is Sonneborn-Berger, each contribution times twice the share of the points scored."""
    c = ctx.contribution_table
    values = c.value * c.scored if weighted else c.value
    per = 2 if weighted else 1
    total = values.sum(axis=1)
    if not (lowest or highest):
        return Column(total, ctx.unit * per)
    fide_cut = lowest and ctx.rule in ("fide2023", "fide2026")
    removed = _cut_order(values, c.present, c.vur if fide_cut else None, lowest, highest)
    return Column(total - np.where(removed > 0, values, 0).sum(axis=1), ctx.unit * per, removed)


def _explain_sum(ctx: Context, x: PlayerId, column: Column, notes: list[str], weighted: bool = False) -> None:
    """Each contribution of ``x`` (times the share scored when ``weighted``), then what the cut removed."""
    cs = ctx.contributions_of(x)
    per = 2 if weighted else 1
    for c in cs:
        line = _explain_contribution(ctx, x, c)
        notes.append(line + (f" x {number_text(Fraction(c.scored, 2))} = "
                             f"{number_text(ctx.points(c.value * c.scored, 2))}" if weighted else ""))
    if column.detail is not None:
        row, table = ctx.row[x], ctx.contribution_table
        removed = column.detail[row].tolist()
        for _, i in sorted((k, i) for i, k in enumerate(removed) if k):
            value = table.value[row, i] * (table.scored[row, i] if weighted else 1)
            notes.append(f"  cut: R{i + 1} ({number_text(ctx.points(int(value), per))})")
    if not cs:
        notes.append("  no rounds contribute")


def _explain_weighted(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    _explain_sum(ctx, x, column, notes, weighted=True)


@column_tiebreak("buchholz", "bh", "sos", "buchholtz", title="Buchholz", explain=_explain_sum,
                 legend="the sum of the opponents' scores (a round without an opponent counts as the unplayed "
                        "setting says)")
def buchholz(ctx: Context) -> Column:
    """Buchholz: the sum of the player's round contributions c_r (RULES.md 4.3).

    FIDE C.07 Art. 8.1; seed 004's "SOS". Contributions follow ``unplayed`` (RULES.md 4.2, C.07
    Art. 16). RULES.md 4.2's P: 10 (``points``), 14 (``fide2009``), 16 (``fide2023``), 14 (``fide2026``).
    """
    return _contribution_sums(ctx)


@column_tiebreak("buchholz_cut1", "bh_c1", "cut1", "buchholz cut 1", title="BH Cut1", explain=_explain_sum,
                 legend="Buchholz without the lowest opponent's score")
def buchholz_cut1(ctx: Context) -> Column:
    """Buchholz less the least contribution (RULES.md 4.3; FIDE C.07 Art. 14.1).

    Under ``fide2023``/``fide2026`` the least VUR contribution goes first (C.07 Art. 16.5): RULES.md
    4.2's Q has 1.5, 2, 3, 3.5 and a half-bye dummy of 2.5, so Cut-1 is 10, not 11.
    """
    return _contribution_sums(ctx, lowest=1)


@column_tiebreak("buchholz_cut2", "bh_c2", "cut2", "buchholz cut 2", title="BH Cut2", explain=_explain_sum,
                 legend="Buchholz without the two lowest opponents' scores")
def buchholz_cut2(ctx: Context) -> Column:
    """Buchholz less the two least contributions (RULES.md 4.3; FIDE C.07 Art. 14.2; VUR rule of 16.5)."""
    return _contribution_sums(ctx, lowest=2)


@column_tiebreak("median_buchholz", "median", "m_buchholz", "m_buchholtz", "bh_m1", "median1",
                 title="Med-Buchholz", explain=_explain_sum,
                 legend="median Buchholz: Buchholz without the highest and the lowest opponent's score")
def median_buchholz(ctx: Context) -> Column:
    """Buchholz less the least and then the greatest contribution (RULES.md 4.3).

    Seed 004's M-Buchholz ("not taking into account the best and the worst totals"); FIDE C.07
    Median-1. Contributions 3, 2.5, 1 give 2.5; fewer than two contributions give 0.
    """
    return _contribution_sums(ctx, lowest=1, highest=1)


@column_tiebreak("sonneborn_berger", "sb", "neustadtl", title="SB", explain=_explain_weighted,
                 legend="Sonneborn-Berger: the scores of the opponents beaten, plus half those of the opponents "
                        "drawn")
def sonneborn_berger(ctx: Context) -> Column:
    """Sonneborn-Berger: Σ c_r · f_r, f = 1 for a win, 1/2 a draw or half bye, 0 a loss (RULES.md 4.4).

    FIDE C.07 Art. 9.1 multiplies by the points scored, which is f on the chess scale; sheetswiss
    uses f on every scale (*decision*). A PAB counts as what it is worth. Contributions follow
    ``unplayed`` (4.2; ``fide2009``'s virtual opponents included). RULES.md 4.2's P: 4.5, 8.5, 10.5, 8.5.
    """
    return _contribution_sums(ctx, weighted=True)


def _sodos_weights(ctx: Context) -> np.ndarray:
    """Twice the share of each opponent's score a round adds to SODOS, by row and round: 2 a game won over
    the board, 1 a game drawn under ``sodos_draws: half``, else 0."""
    t = ctx.table
    draws = 1 if ctx.settings.sodos_draws == "half" else 0
    weight: np.ndarray = np.where(_over_the_board(ctx), np.where(t.cls == 2, 2, np.where(t.cls == 1, draws, 0)), 0)
    return weight


def _explain_sodos(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    assert column.detail is not None
    row = ctx.row[x]
    for rec, weight in zip(ctx.records[x], column.detail[row].tolist()):
        if weight:
            assert rec.opponent is not None
            s = ctx.opponent_score[rec.opponent]
            notes.append(f"  R{rec.round} {'beat' if weight == 2 else 'drew'} {rec.opponent}: "
                         f"{number_text(ctx.points(s))}{'' if weight == 2 else ' x 1/2'} ({_opp_label(ctx)})")


@column_tiebreak("sodos", title="SODOS", explain=_explain_sodos,
                 legend="sum of defeated opponents' scores: the scores of the opponents beaten over the board "
                        "(forfeit wins and byes add nothing)")
def sodos(ctx: Context) -> Column:
    """Sum of the scores of the opponents beaten over the board (RULES.md 4.4; seed 004).

    Opponents' scores as ``unplayed`` counts them (S, S09 or S23). Forfeit wins and byes add nothing
    (*decision*); draws add nothing, or half the opponent's score with ``sodos_draws: half``.
    Beating opponents on 4 and 3, drawing one on 5 and losing to one on 6 gives 7 (9.5 with ``half``).
    """
    t, weight = ctx.table, _sodos_weights(ctx)
    theirs = ctx.opponent_score_array[np.where(t.opponent >= 0, t.opponent, 0)]
    return Column(np.where(weight > 0, weight * theirs, 0).sum(axis=1), ctx.unit * 2, weight)


def _drop_round(ctx: Context, x: PlayerId) -> int | None:
    """The round a dropped player last played in (Players.Status), ``None`` if still in."""
    player = ctx.player[x]
    if player.dropped_after is not None:
        return player.dropped_after
    if not player.dropped:
        return None
    return max((r.round for r in ctx.records[x] if r.kind is not RoundKind.ABSENT), default=0)


def _progress_rounds(ctx: Context) -> list[int]:
    """The rounds each player's progressive score adds up, by row: every round, or under
    ``progress_after_drop: stop`` those up to the drop."""
    if ctx.settings.progress_after_drop != "stop":
        return [ctx.rounds] * len(ctx.records)
    drops = (_drop_round(ctx, x) for x in ctx.records)
    return [ctx.rounds if drop is None else min(ctx.rounds, drop) for drop in drops]


def _explain_progress(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    assert column.detail is not None
    last = int(column.detail[ctx.row[x]])
    notes.append(f"  running totals of rounds 1-{last} added up"
                 + (f" (stops at the drop after round {last})" if last < ctx.rounds else ""))


@column_tiebreak("progress", "ps", "cumulative", title="Progress", explain=_explain_progress,
                 legend="progressive score: the player's total after round 1, plus the total after round 2, and "
                        "so on")
def progress(ctx: Context) -> Column:
    """Σ over rounds r = 1..n of the player's points after round r (RULES.md 4.5).

    Seed 004's Progress; FIDE C.07 Art. 7.5 (PS). Unplayed rounds count the points awarded. After a
    drop the frozen total keeps being added (``progress_after_drop: continue``) or the sum stops at
    the drop (``stop``). W, forfeit W, L, PAB, D on the chess scale: 1 + 2 + 2 + 3 + 3.5 = 11.5.
    """
    last = np.array(_progress_rounds(ctx), dtype=np.int64)
    running = np.cumsum(ctx.table.points, axis=1)
    counted = np.arange(1, ctx.rounds + 1) <= last[:, None]
    return Column(np.where(counted, running, 0).sum(axis=1), ctx.unit, last)


def _de_values(ctx: Context, group: Group) -> dict[PlayerId, Fraction]:
    """de(x): points against the other members in games over the board, repeated meetings averaged."""
    members = set(group)
    out = {}
    for x in group:
        met = ctx.head_to_head(x)
        out[x] = sum((Fraction(sum(ps), len(ps) * ctx.unit) for y, ps in met.items() if y in members and y != x),
                     Fraction(0))
    return out


def _met_count(ctx: Context, x: PlayerId, members: set[PlayerId]) -> int:
    return sum(1 for y in ctx.head_to_head(x) if y in members and y != x)


def _de_split(ctx: Context, group: Group, values: dict[PlayerId, Fraction] | None = None) -> list[Group]:
    """Split ``group`` by direct encounter under ``de_rule`` (RULES.md 4.6); ``values``: :func:`_de_values`
    of ``group`` when known already."""
    rule = ctx.settings.de_rule
    out: list[Group] = []
    rest = group
    while len(rest) > 1:
        members = set(rest)
        de = values if values is not None and rest is group else _de_values(ctx, rest)
        met = {x: _met_count(ctx, x, members) for x in rest}
        all_met = all(met[x] == len(rest) - 1 for x in rest)
        if all_met and (rule in ("fide", "all_met")
                        or (rule == "separates" and len(set(de.values())) == len(rest))
                        or (rule == "pair" and len(rest) == 2)):
            parts = split_by(rest, de)
            if len(parts) == 1:
                break
            for part in parts:  # each subgroup still tied is evaluated again on its own (C.07 Art. 6)
                out.extend(_de_split(ctx, part) if len(part) > 1 else [part])
            return out
        if rule != "fide" or all_met:
            break
        # C.07 6.3: first place only to someone whom the missing games could not catch
        w = ctx.whole(ctx.scale.win)
        bound = sorted(((de[y] + Fraction(w * (len(rest) - 1 - met[y]), ctx.unit), y)
                        for y in rest), key=lambda t: t[0], reverse=True)
        sure = [x for x in rest if all(de[x] > b for b, y in bound[:2] if y != x)]
        if not sure:
            break
        out.append((sure[0],))
        rest = tuple(y for y in rest if y != sure[0])
    out.append(rest)
    return out


@group_tiebreak("direct_encounter", "de", "head_to_head", "h2h", title="DE",
                legend="direct encounter: points scored in the games between the tied players")
def direct_encounter(ctx: Context, group: Group) -> tuple[list[Group], dict[PlayerId, Fraction]]:
    """Direct encounter within the tied group (RULES.md 4.6; FIDE C.07 Art. 6; seed 004).

    de(x) = points against the other tied players in games over the board (forfeits excluded,
    6.1.1; repeated meetings averaged, 6.1.2). ``de_rule``: ``fide`` ranks by de when all met and
    re-evaluates each subgroup, else places only a player whom the missing games could not catch
    (6.3); ``all_met``; ``separates`` (all met, all de different); ``pair`` (two players, decisive).
    Shown value: de in the group where the chain reached this tiebreak (0 when already untied).
    """
    values = _de_values(ctx, group)
    return _de_split(ctx, group, values), values


def _count(rounds: np.ndarray) -> Column:
    """How many of each player's rounds ``rounds`` marks (by row and round); the column keeps the marks."""
    return Column(rounds.sum(axis=1).astype(np.int64), 1, rounds)


def _explain_count(ctx: Context, x: PlayerId, column: Column, notes: list[str]) -> None:
    assert column.detail is not None
    rounds = (np.flatnonzero(column.detail[ctx.row[x]]) + 1).tolist()
    notes.append(f"  rounds: {', '.join(map(str, rounds)) or 'none'}")


def _over_the_board(ctx: Context) -> np.ndarray:
    """Rounds played over the board, by row and round."""
    t = ctx.table
    game: np.ndarray = (t.kind == list(RoundKind).index(RoundKind.GAME)) & (t.opponent >= 0)
    return game


@column_tiebreak("wins", "win", title="Wins", kind=Kind.INTEGER, explain=_explain_count,
                 legend="rounds won, forfeit wins and a bye worth a win included")
def wins(ctx: Context) -> Column:
    """Rounds with a win's points, played or not (RULES.md 4.7; FIDE C.07 Art. 7.1, WIN).

    Forfeit wins count, and a PAB worth a win; a half-point PAB does not.
    """
    return _count(ctx.table.cls == 2)


@column_tiebreak("wins_otb", "won", title="Wins OTB", kind=Kind.INTEGER, explain=_explain_count,
                 legend="games won over the board (no forfeits or byes)")
def wins_otb(ctx: Context) -> Column:
    """Games won over the board (RULES.md 4.7; FIDE C.07 Art. 7.2, WON)."""
    return _count(_over_the_board(ctx) & (ctx.table.cls == 2))


@column_tiebreak("black_games", "bpg", title="Black games", kind=Kind.INTEGER, explain=_explain_count,
                 legend="games played as Black (Player B)")
def black_games(ctx: Context) -> Column:
    """Games played over the board as Black, i.e. as Player B / side 2 (RULES.md 4.7; FIDE C.07 Art. 7.3, BPG)."""
    return _count(_over_the_board(ctx) & (ctx.table.side == 2))


@column_tiebreak("black_wins", "bwg", title="Black wins", kind=Kind.INTEGER, explain=_explain_count,
                 legend="games won as Black (Player B)")
def black_wins(ctx: Context) -> Column:
    """Games won over the board as Black / Player B (RULES.md 4.7; FIDE C.07 Art. 7.4, BWG)."""
    return _count(_over_the_board(ctx) & (ctx.table.side == 2) & (ctx.table.cls == 2))
