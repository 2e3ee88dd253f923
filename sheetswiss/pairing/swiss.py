"""Swiss pairing as a minimum-cost perfect matching (RULES.md section 2; seeds 001 and 004).

Players are nodes, allowed pairs are edges, and each edge costs a vector of eleven levels compared
lexicographically (RULES.md 2.1): rematch, club in round 1, score-group distance (plus the side
cost under ``sides: single``, RULES.md 3), float height (floats as low in the field as they can be),
club later, the hard colour limits, float balance, who floats or takes the bye, colour preference, the
within-group pattern, and a seeded random tie-break.
The vector is encoded as one integer so that the cheapest perfect matching is the lexicographic minimum.

With sides or colours every pair has two edges, one per side assignment (Player A is side 1, White);
the pair costs the cheaper edge that is still allowed, and the pairing writes that edge's sides.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import final

from ..errors import SheetswissError
from ..fixed_tables import number_tables
from ..model import Event, PlayerId
from .costs import Costs
from .gcpause import without_cycle_collection
from .levels import LEVELS, RANDOM, REMATCH, due_colour
from .solver import Proof, solve_round
from .state import RoundState, first_round_order, round_state

__all__ = ["LEVELS", "Pairing", "Table", "check_pairing", "pair_round"]

_BYE = -1
"""The bye node."""


@final
@dataclass(frozen=True, slots=True)
class Table:
    """One pair of the round (``b`` is ``None`` for the bye)."""

    number: int | None
    """Table number, 1 for the top pair; ``None`` for the bye."""
    a: PlayerId
    """Player A in Results: the higher-ranked player; under ``sides: single`` or ``colours: alternate``
    the player of side 1 (White), RULES.md 3 and 2.10."""
    b: PlayerId | None
    cost: tuple[Fraction, ...]
    """The edge's cost at each of :data:`LEVELS`."""
    note: str = ""
    """Why this pair: floats and the bye, in words."""


@final
@dataclass(frozen=True, slots=True)
class Pairing:
    """A paired round: tables in table order (the bye last), and everything needed to explain it."""

    round: int
    tables: tuple[Table, ...]
    scores: Mapping[PlayerId, Fraction]
    """Pairing score of each paired player before the round (with virtual points)."""
    not_paired: tuple[tuple[PlayerId, str], ...] = ()
    """Players left out this round, with the reason (dropped, late entry, requested bye)."""
    rematches: tuple[tuple[PlayerId, PlayerId], ...] = ()
    notes: tuple[str, ...] = ()
    """Relaxations the pairing needed (a second bye, rematches), for the command's output and Pairings."""
    remarks: tuple[str, ...] = ()
    """How the round was paired where a GM may not expect it (round 1 drawn at random), for the command's
    output."""
    explanation: tuple[str, ...] = field(default=(), compare=False)
    proof: Proof | None = field(default=None, compare=False)
    """Whether the pairing is proven to be the cheapest of all, and the gap if not (RULES.md 2.1)."""
    avoided: tuple[tuple[PlayerId, PlayerId], ...] = ()
    """Pairs of the Avoid tab paired all the same under ``avoid_fallback: fewest`` (RULES.md 2.12)."""

    @property
    def bye(self) -> PlayerId | None:
        """Who has the pairing-allocated bye, if anyone."""
        return next((t.a for t in self.tables if t.b is None), None)


@final
@dataclass(frozen=True, slots=True)
class _Solved:
    """One solve: pairs of ranking positions (the bye is position n), each pair's levels as RULES.md states
    them, the proof of optimality, and the costs it was priced with."""

    matching: list[tuple[int, int]]
    levels: dict[tuple[int, int], list[Fraction]]
    proof: Proof
    costs: Costs


def _solve(event: Event, state: RoundState, bye_pool: frozenset[PlayerId], rematches: bool,
           progress: Callable[[str], None] | None = None) -> _Solved | None:
    """The cheapest perfect matching (:mod:`.solver`: sparse graph, local exact solves, LP duals checked
    against every pair of the complete graph); ``None`` when no perfect matching exists."""
    solved = solve_round(event, state, bye_pool, rematches, progress=progress)
    if solved is None:
        return None
    matching, costs, proof = solved
    return _Solved(matching, costs.fractions(matching), proof, costs)


@without_cycle_collection
def pair_round(event: Event, *, state: RoundState | None = None,
               progress: Callable[[str], None] | None = None) -> Pairing:
    """Pair the next round of ``event`` (RULES.md section 2): the cheapest perfect matching.

    ``state`` is the event's :func:`round_state` before that round, when the caller has it already (to
    check the pairing against it after). ``progress`` receives a line whenever a large solve widens its
    graph or falls back.

    Tries, in order: no rematch and the bye only for players without one; then the bye for
    anyone (RULES.md 2.3: relaxed before rematches); then, under ``rematch_fallback: fewest``,
    rematches at the highest cost level, so the fewest possible are made. Pairs of the Avoid tab count
    as met; under ``avoid_fallback: fewest`` they join the rematches of that fallback (RULES.md 2.12).

    Raises :class:`SheetswissError` when nobody can be paired or rematches are refused.
    """
    round_ = event.paired_rounds + 1
    state = state if state is not None else round_state(event, round_)
    n = len(state.order)
    if n == 0:
        raise SheetswissError(f"Players: nobody is left to pair in round {round_}")
    notes: list[str] = []
    everyone = frozenset(state.order)
    pool = state.bye_eligible
    if n % 2 and not pool:
        notes.append("everyone has had a bye, so anyone may take this one")
        pool = everyone
    rematches = False
    solved = _solve(event, state, pool, rematches, progress)
    if solved is None and pool != everyone:
        pool = everyone
        solved = _solve(event, state, pool, rematches, progress)
        if solved is not None:
            notes.append("no pairing gives the bye to a player without one; a second bye was needed")
    if solved is None:
        if state.forbidden >= state.met:
            raise _refusal(event, state)
        pool, rematches = everyone, True
        solved = _solve(event, state, pool, rematches, progress)
        if solved is None:
            raise _refusal(event, state)
    passed = _passed_over(event, state, solved.matching, solved.levels, pool, rematches)
    remarks: tuple[str, ...] = ()
    if round_ == 1 and first_round_order(event) == "random":
        unrated = sum(1 for p in event.players if p.rating is None)
        why = ("first_round: random" if event.settings.first_round else
               f"{unrated} of {len(event.players)} players have no Rating; with a Rating for everyone, or "
               "first_round: rating, the top half meets the bottom half")
        remarks = (f"Round 1 is drawn at random from seed {event.settings.seed} ({why})",)
    pairing = _pairing(event, state, solved, notes, passed, _would_meet(event, state, pool, rematches))
    return replace(pairing, proof=solved.proof, remarks=(*remarks, *pairing.remarks))


def _would_meet(event: Event, state: RoundState, pool: frozenset[PlayerId], rematches: bool
                ) -> frozenset[frozenset[PlayerId]]:
    """The pairs of the Avoid tab that the same round, paired without the tab, would put together: what
    ``--explain`` says each row changed (RULES.md 2.12). One more solve, only when such a pair is in play."""
    single = event.settings.sides == "single"

    def spent(pair: frozenset[PlayerId]) -> bool:  # met already: kept apart by 2.3 (or section 3) anyway
        a, b = tuple(pair)
        return ((a, b) in state.played and (b, a) in state.played) if single else \
            ((a, b) in state.played or (b, a) in state.played)

    fresh = frozenset(p for p in state.avoided if not spent(p))
    if not fresh:
        return frozenset()
    free = _solve(event, replace(state, met=state.met - fresh, avoided={}, forbidden=state.forbidden - fresh),
                  pool, rematches)
    if free is None:
        return frozenset()
    n = len(state.order)
    return fresh & {frozenset((state.order[i], state.order[j])) for i, j in free.matching if j < n}


def _refusal(event: Event, state: RoundState) -> SheetswissError:
    """Why the round cannot be paired when the fallback of RULES.md 2.3 may not use the pairs it needs:
    the pairs of the Avoid tab (``avoid_fallback: error``, RULES.md 2.12) the cheapest pairing with every
    pair allowed would make, each with its Avoid row, else the rematches (``rematch_fallback: error``)."""
    round_ = state.round
    free = _solve(event, replace(state, forbidden=frozenset()), frozenset(state.order), True)
    if free is None:
        return SheetswissError(f"round {round_} cannot be paired")
    needed = [frozenset((state.order[i], state.order[j])) for i, j in free.matching
              if j < len(state.order) and free.levels[i, j][REMATCH]]
    avoided = [state.avoided[p] for p in needed if p in state.avoided and p in state.forbidden]
    if avoided:
        names = "; ".join(f"{x.a} v {x.b} ({x.reason})" for x in avoided)
        return SheetswissError(
            f"Avoid: round {round_} cannot be paired without {names}, kept apart by the Avoid tab (avoid_fallback "
            "is error); set avoid_fallback to fewest to allow the fewest such pairs, or delete the row")
    return SheetswissError(f"round {round_} cannot be paired without a rematch (rematch_fallback is error): "
                           + ", ".join(state.order))


def _passed_over(event: Event, state: RoundState, matching: list[tuple[int, int]],
                 levels: Mapping[tuple[int, int], list[Fraction]], pool: frozenset[PlayerId], rematches: bool
                 ) -> str:
    """Why the lowest-ranked player who could have taken the bye did not (RULES.md 2.4: the bye goes to
    the lowest-ranked eligible player only at the who-floats level, below score, float height and float balance): the
    round paired with the bye forced on them, compared level by level; ``""`` when nobody was passed over.
    """
    n = len(state.order)
    bye = next((state.order[i] for i, j in matching if j == n), None)
    if bye is None or event.settings.bye_choice != "lowest_ranked":
        return ""
    below = [x for x in state.order[state.order.index(bye) + 1:] if x in pool]
    if not below:
        return ""
    other = below[-1]
    forced = _solve(event, state, frozenset({other}), rematches)
    if forced is None:
        return f"{other}, ranked lower, could not take it: no pairing of the others is possible then"
    ours = [sum(col) for col in zip(*(levels[e] for e in matching))]
    theirs = [sum(col) for col in zip(*(forced.levels[e] for e in forced.matching))]
    k = next((k for k in range(len(LEVELS)) if ours[k] != theirs[k]), RANDOM)
    return (f"{other}, ranked lower, was passed over: with the bye on {other} the round costs more at level "
            f"{k + 1} ({LEVELS[k]}), {theirs[k]} against {ours[k]}")


def _pairing(event: Event, state: RoundState, solved: _Solved, notes: list[str], passed_over: str = "",
             would_meet: frozenset[frozenset[PlayerId]] = frozenset()) -> Pairing:
    n = len(state.order)
    matching, levels = solved.matching, solved.levels
    order = state.order
    tables: list[Table] = []
    rematches: list[tuple[PlayerId, PlayerId]] = []
    avoided: list[tuple[PlayerId, PlayerId]] = []
    again: list[tuple[PlayerId, PlayerId]] = []
    groups = len(state.group_members)
    explanation = [f"Round {state.round}: {n} players in {groups} score group{'' if groups == 1 else 's'}; "
                   f"cost levels {', '.join(LEVELS)}"]
    games = sorted((p for p in matching if p[1] != n), key=lambda p: p[0])
    bye = next((order[i] for i, j in matching if j == n), None)
    numbering = number_tables([(order[i], order[j]) for i, j in games], event.players, state.round)
    lines: dict[int, str] = {}
    for position, (number, (i, j)) in enumerate(zip(numbering.numbers, games), start=1):
        a, b, sides = _orient(event, state, solved.costs, i, j, position)
        note = "; ".join(x for x in (_float_note(state, order[i], order[j]), sides) if x)
        kept_apart = state.avoided.get(frozenset((a, b)))
        if levels[i, j][REMATCH] and kept_apart is not None:
            avoided.append((a, b))
            note = (note + "; " if note else "") + (f"avoided pair ({kept_apart.reason}): no pairing keeps every "
                                                    "pair of the Avoid tab apart (avoid_fallback: fewest)")
        elif levels[i, j][REMATCH]:
            rematches.append((a, b))
            note = (note + "; " if note else "") + "rematch: no pairing avoids every rematch"
        elif solved.costs.mode == "sides" and (b, a) in state.played:  # met the other way round (RULES.md 3)
            again.append((a, b))
        tables.append(Table(number, a, b, tuple(levels[i, j]), note))
        lines[number] = (f"Table {number}: {a} ({state.scores[a]}) v {b} ({state.scores[b]}), "
                         f"cost [{_costs(levels[i, j])}]" + (f"; {note}" if note else ""))
    tables.sort(key=lambda t: t.number or 0)  # fixed tables first numbered, the others around them (RULES.md 2.13)
    explanation.extend(lines[number] for number in sorted(lines))
    if bye is not None:
        note = _bye_note(event, state, bye, passed_over)
        tables.append(Table(None, bye, None, tuple(levels[order.index(bye), n]), note))
        explanation.append(f"Bye: {bye} ({state.scores[bye]}); {note}")
    if rematches:
        notes.append(f"{len(rematches)} rematch(es) could not be avoided: "
                     + "; ".join(f"{a} v {b}" for a, b in rematches))
    if avoided:
        notes.append(f"{len(avoided)} pair(s) of the Avoid tab could not be kept apart: "
                     + "; ".join(f"{a} v {b} ({state.avoided[frozenset((a, b))].reason})" for a, b in avoided))
    explanation.extend(_avoid_lines(state, tables, would_meet))
    remarks = numbering.remarks
    if again:
        shown = "; ".join(f"{a} v {b}" for a, b in again[:5])
        shown += f"; and {len(again) - 5} more" if len(again) > 5 else ""
        remarks = (*remarks, f"{len(again)} second meeting(s) with sides reversed, as sides: single allows: {shown}")
    return Pairing(state.round, tuple(tables), dict(state.scores), state.not_paired, tuple(rematches),
                   tuple(notes), remarks, explanation=tuple(explanation + [f"Note: {x}" for x in notes]),
                   avoided=tuple(avoided))


def _avoid_lines(state: RoundState, tables: Sequence[Table], would_meet: frozenset[frozenset[PlayerId]] = frozenset()
                 ) -> list[str]:
    """``--explain``'s line for each pair of the Avoid tab among the players paired (RULES.md 2.12): kept
    apart, at which tables, and whether the round without the tab would have paired them (``would_meet``);
    or paired under ``avoid_fallback: fewest``."""
    where = {name: (f"table {t.number}" if t.number is not None else "the bye")
             for t in tables for name in (t.a, t.b) if name is not None}
    lines = []
    for x in state.avoided.values():
        if x.a in where and where[x.a] == where.get(x.b):
            lines.append(f"Avoid: {x.a} and {x.b} ({x.reason}) meet at {where[x.a]}: no pairing keeps every pair "
                         "of the Avoid tab apart")
        else:
            effect = ("without the Avoid tab this round would pair them" if frozenset((x.a, x.b)) in would_meet else
                      "this round would not pair them anyway")
            lines.append(f"Avoid: {x.a} ({where.get(x.a, 'not paired')}) and {x.b} ({where.get(x.b, 'not paired')}) "
                         f"kept apart ({x.reason}); {effect}")
    return lines


def _orient(event: Event, state: RoundState, costs: Costs, i: int, j: int, number: int
            ) -> tuple[PlayerId, PlayerId, str]:
    """Player A (side 1, White) and Player B of the pair of ranking positions ``i < j`` at table ``number``,
    and a note on why: the cheaper edge (RULES.md 3, 2.10); between equal edges a seeded coin
    for sides, and for colours RULES.md 2.10's order (larger |c|, then two equal last colours, then the
    higher-ranked player gets their due colour; nobody due: a seeded coin for table 1, alternating by table).
    """
    x, y = state.order[i], state.order[j]
    mode = costs.mode
    if not mode:
        return x, y, ""
    options = [(cost, state.order[f], state.order[s]) for cost, f, s in costs.assignments(i, j)]
    tied = [o for o in options if o[0] == options[0][0]]
    first, second = options[0][1], options[0][2]
    how = "the only side assignment left" if len(options) == 1 else (
        "the cheaper side assignment" if mode == "sides" else "the better colour choice")
    seed = event.settings.seed
    if len(tied) > 1 and mode == "sides":
        if random.Random(f"{seed}:sides:{state.round}:{x}:{y}").randrange(2):
            first, second = y, x
        how = "seeded coin (both assignments cost the same)"
    elif len(tied) > 1:
        sx, sy = state.sides.get(x, ()), state.sides.get(y, ())
        dx, dy = due_colour(sx), due_colour(sy)
        if dx is None and dy is None:
            coin = random.Random(f"{seed}:colours:{state.round}").randrange(2)
            white_first = (coin + number - 1) % 2 == 0
            first, second = (x, y) if white_first else (y, x)
            how = "seeded coin for table 1, alternating by table"
        else:
            def claim(seq: Sequence[int], higher: bool) -> tuple[int, bool, bool]:
                return abs(seq.count(1) - seq.count(2)), len(seq) >= 2 and seq[-1] == seq[-2], higher

            claims = [(claim(seq, p == x), p, due) for p, seq, due in ((x, sx, dx), (y, sy, dy)) if due is not None]
            _, winner, due = max(claims)
            other = y if winner == x else x
            first, second = (winner, other) if due == 1 else (other, winner)
            how = f"{winner} gets the due colour"
    if mode == "sides":
        sf, ss = state.sides.get(first, ()), state.sides.get(second, ())
        bf, bs = sf.count(1) - sf.count(2), ss.count(1) - ss.count(2)
        note = (f"{first} plays side 1 (side bias {bf:+d} -> {bf + 1:+d}), {second} side 2 ({bs:+d} -> {bs - 1:+d}); "
                f"{how}")
        if (second, first) in state.played and (first, second) not in state.played:
            note += "; second meeting, sides reversed"
        return first, second, note
    broken = all(o[0][1] for o in options)
    note = f"{first} White, {second} Black; {how}" + ("; no colour choice keeps the colour limits" if broken else "")
    return first, second, note


def _costs(levels: Sequence[Fraction]) -> str:
    return ", ".join(str(v) for v in levels)


def _float_note(state: RoundState, hi: PlayerId, lo: PlayerId) -> str:
    gh, gl = state.group[hi], state.group[lo]
    if gh == gl:
        return ""
    fh, fl = state.balance.get(hi, 0), state.balance.get(lo, 0)
    position = state.group_members[gl].index(lo) + 1
    return (f"{hi} floats down {gl - gh} group(s) (float balance {fh:+d} -> {fh - 1:+d}), "
            f"{lo} floats up (balance {fl:+d} -> {fl + 1:+d}; #{position} of the {state.scores[lo]} group)")


def _bye_note(event: Event, state: RoundState, bye: PlayerId, passed_over: str = "") -> str:
    """Why ``bye`` has the bye (RULES.md 2.4); ``passed_over`` says why a lower-ranked player who could
    have taken it did not (:func:`_passed_over`)."""
    below = state.order[state.order.index(bye) + 1:]
    skipped = [name for name in below if name not in state.bye_eligible]
    if event.settings.bye_choice == "random_lowest_group":
        why = "a seeded random player of the lowest score group without a bye"
    elif passed_over:
        why = "the lowest-ranked player without a bye whose bye keeps the round cheapest"
    else:
        why = "the lowest-ranked player without a bye"
    if bye not in state.bye_eligible:
        why = "had a bye already, but no pairing avoids a second one"
    elif skipped:
        why += f" ({', '.join(skipped)}, ranked lower, had one)"
    return f"{bye} takes the bye: {why}" + (f"; {passed_over}" if passed_over else "")


def check_pairing(event: Event, pairing: Pairing, *, state: RoundState | None = None) -> list[str]:
    """Problems with ``pairing`` (empty when valid): everyone to pair exactly once, no rematch or
    second bye that the pairing does not declare. ``pair`` runs it before writing anything, on the round
    state it paired from (``state``; built here when not given)."""
    state = state if state is not None else round_state(event, pairing.round, ranked=False)
    problems = []
    seen: dict[PlayerId, int] = defaultdict(int)
    sides = event.settings.sides == "single"
    for t in pairing.tables:
        seen[t.a] += 1
        if t.b is not None:
            seen[t.b] += 1
            kept_apart = state.avoided.get(frozenset((t.a, t.b)))
            if kept_apart is not None and (t.a, t.b) not in pairing.avoided:
                problems.append(f"{t.a} and {t.b} are to be kept apart ({kept_apart.reason})")
            elif frozenset((t.a, t.b)) in state.met and (t.a, t.b) not in (*pairing.rematches, *pairing.avoided):
                problems.append(f"{t.a} and {t.b} have met before")
            elif sides and (t.a, t.b) in state.played and (t.a, t.b) not in pairing.rematches:
                problems.append(f"{t.a} has played side 1 against {t.b} before")
        elif t.a not in state.bye_eligible and not pairing.notes:
            problems.append(f"{t.a} has had a bye already")
    for name in state.order:
        if seen[name] != 1:
            problems.append(f"{name} is paired {seen[name]} times")
    problems.extend(f"{name} is not to be paired" for name in seen if name not in state.group)
    return problems
