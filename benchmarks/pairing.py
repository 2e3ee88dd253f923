"""Seconds, peak memory, proven gap and rematches of pairing one round on hard states, beside the swisspair
package (a C++ pairer on PyPI, installed only for this benchmark: ``pip install swisspair``) on the same states,
its pairs costed with our cost (RULES.md 2.1).

Run: python benchmarks/pairing.py [--size N] [--growth N,N,...] [STATE ...]
     (defaults: every state at 2,000 players, then the late round from 1,000 to 32,000 players)

Other states of the same kinds, for figures that hold beyond the states above (the default run builds each
state with seed 1, the greedy pairer, rated results and the state's own draws and round):

* ``--seed N``: players, ratings and results drawn with seed N (also the event's seed);
* ``--history greedy|engine|swisspair|random``: who pairs the rounds already played: the greedy pairer,
  this engine round by round (its own sides and colours), swisspair round by round, or random pairs;
* ``--results rated|coin``: a game not drawn goes by the ratings' Elo expectation, or by a fair coin;
* ``--player-a fewer|coin``: who is Player A (side 1, White) at each table of the history paired by the greedy
  pairer, swisspair or random pairs: the player with fewer side 1s (ties: the higher score), or a coin, as a
  plain Swiss that ignores sides and colours would leave them (under ``colours: alternate`` a fifth of the
  players may then take neither colour);
* ``--draws F``: the share of drawn games (0, 0.15, 0.35 ...);
* ``--within-group slide|fold|random``: every state paired (and its history built) under that pattern inside a
  score group instead of its own (RULES.md 2.5);
* ``--round R``: the round paired (R - 1 rounds played; the engine never reads the planned number of rounds);
* ``--size`` with an odd number gives an odd field (a bye);
* ``--profile LINES``: after each state's line, the functions taking the most time in one more run, under
  cProfile.

For example ``python benchmarks/pairing.py --size 7999 --growth '' --no-memory --seed 3 --history engine
--draws 0.35 --round 15 late colours single double``. Building a state paired by the engine or swisspair
takes longer than pairing it (each round of its history is paired); that time is not in the columns.

States (built by a plain greedy pairer here, not by the engine, so they do not favour it):

* ``late``: round 12 of 13, chess points, about 15% draws (25 score groups, many floats);
* ``dense``: 64 players in round 11 (rematches crowd every group);
* ``clubs``: round 7 with four huge clubs and ``avoid_same_club: always``;
* ``drops``: round 9 with drops after every round and late entries up to round 6;
* ``colours``: round 12 of 13 with ``colours: alternate``;
* ``single`` and ``double``: round 10 under ``sides: single`` and ``sides: double``, magic points;
* ``accel``: round 2 of an accelerated event;
* ``drawn``: round 12 of 13 with ``within_group: random`` (the seeded draw pairs inside each score group).

Columns: ``sec`` wall-clock seconds and ``cpu`` this process's CPU seconds (state building included; on a
machine shared with other work, compare ``cpu``), ``MiB`` the peak traced memory (a second run; ``-`` with
``--no-memory``), ``gap`` the proven distance to the optimum (0: proven optimal, ``?``: no bound), ``rem`` the
rematches, ``cost`` the level totals that differ in practice (score / float height / club / colour / float
balance / who floats / pattern); ``sp`` columns are swisspair's (its CPU seconds, measured in the same run),
``x`` our CPU time over its, and the last column says whether ours costs at most swisspair's (it must: ours
is the proven minimum).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import pstats
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from sheetswiss.history import history
from sheetswiss.model import Event, Game, Player
from sheetswiss.pairing import pair_round
from sheetswiss.pairing.costs import Costs
from sheetswiss.pairing.levels import (
    BALANCE,
    CLUB,
    COLOUR_HARD,
    COLOUR_PREF,
    HEIGHT,
    LEVELS,
    PATTERN,
    REMATCH,
    SCORE,
    WHO_FLOATS,
)
from sheetswiss.pairing.state import round_state
from sheetswiss.results import Result
from sheetswiss.scoring import scale_for
from sheetswiss.settings import Settings


@dataclass(frozen=True)
class Shape:
    """How a benchmark state is built."""

    rounds: int
    """Rounds played before the one paired."""
    settings: dict[str, Any]
    draws: float = 0.15
    clubs: int = 0
    drops: bool = False
    fixed: int = 0
    """A fixed field size (0: the size asked for)."""


SHAPES = {
    "late": Shape(11, {"points": "chess"}),
    "dense": Shape(10, {"points": "chess"}, fixed=64),
    "clubs": Shape(6, {"points": "chess", "avoid_same_club": "always"}, clubs=4),
    "drops": Shape(8, {"points": "chess"}, drops=True),
    "colours": Shape(11, {"points": "chess", "colours": "alternate"}),
    "single": Shape(9, {"points": "magic", "sides": "single"}, draws=0.05),
    "double": Shape(9, {"points": "magic", "sides": "double"}, draws=0.05),
    "accel": Shape(1, {"points": "chess", "accelerated": True}),
    "drawn": Shape(11, {"points": "chess", "within_group": "random"}),
}


HISTORIES = ("greedy", "engine", "swisspair", "random")
"""Who pairs the rounds already played: the plain greedy pairer below (the default), this engine round by
round, swisspair round by round, or random pairs (the next player not met in a shuffled field)."""

RESULTS = ("rated", "coin")
"""How a game other than a draw is decided: by the Elo expectation of the two ratings, or by a fair coin."""

PLAYER_A = ("fewer", "coin")
"""Who is Player A (side 1, White) at a table of a history not paired by the engine: the player with fewer side 1s,
or a coin."""


def build(size: int, shape: Shape, seed: int = 1, *, history_by: str = "greedy", results: str = "rated",
          player_a: str = "fewer", draws: float | None = None, round_: int | None = None,
          progress: Callable[[str], None] | None = None) -> Event:
    """An event of ``size`` rated players after ``shape.rounds`` rounds (``round_`` - 1 when given), and
    played with rating-weighted results (``results="coin"``: a fair coin) and ``shape.draws`` draws (or
    ``draws``). Its rounds are paired by ``history_by`` (:data:`HISTORIES`); by default a greedy top-down
    pairer (score, then rating; the next player not met; the bye to the lowest without one). Side 1 goes to
    the player with fewer (``player_a="coin"``: a coin decides), except when this engine pairs the history (its
    own sides)."""
    rng = random.Random(seed)
    size = shape.fixed or size
    rounds = shape.rounds if round_ is None else round_ - 1
    draw_rate = shape.draws if draws is None else draws
    clubs = [f"Club {c}" for c in range(shape.clubs)]
    players = []
    for i in range(size):
        drop = rng.randrange(1, rounds + 1) if shape.drops and rng.random() < 0.12 else None
        joined = rng.randrange(2, min(6, rounds) + 1) if shape.drops and rng.random() < 0.06 else 1
        players.append(Player(name=f"P{i:05d}", rating=rng.randrange(1000, 2600), row=i + 2,
                              club=rng.choice(clubs) if clubs else "", joined=joined,
                              dropped=drop is not None, dropped_after=drop))
    settings = Settings(seed=seed, **shape.settings)
    double = settings.sides == "double"
    game_based = scale_for(settings).game_based  # as the Results tab is read: magic's 1-0 is one game to none
    rating = {p.name: p.rating or 0 for p in players}
    score: dict[str, float] = {p.name: 0.0 for p in players}
    bias: dict[str, int] = {p.name: 0 for p in players}
    met: dict[str, set[str]] = {p.name: set() for p in players}
    had_bye: set[str] = set()
    games: list[Game] = []

    def add(round_: int, table: int | None, a: str, b: str | None, text: str) -> None:
        row = len(games) + 2
        result = Result.parse(text, game_based=game_based)
        games.append(Game(round=round_, table=table, a=a, b=b, result=result, row=row, cell=f"Results!E{row}"))

    def play(a: str, b: str) -> str:
        roll = rng.random()
        if roll < draw_rate:
            return "1/2"
        expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400)) if results == "rated" else 0.5
        return "1-0" if rng.random() < expected else "0-1"

    def greedy(active: list[str]) -> tuple[str | None, list[tuple[str, str]]]:
        bye = None
        if len(active) % 2:
            bye = next((x for x in reversed(active) if x not in had_bye), active[-1])
            active.remove(bye)
        free, pairs = active, []
        while free:
            x = free[0]
            k = next((k for k in range(1, len(free)) if free[k] not in met[x]), 1)
            pairs.append((x, free[k]))
            free = free[1:k] + free[k + 1:]
        return bye, pairs

    def shuffled(active: list[str]) -> tuple[str | None, list[tuple[str, str]]]:
        rng.shuffle(active)
        return greedy(active)

    def by_engine(event: Event) -> tuple[str | None, list[tuple[str, str]]]:
        tables = pair_round(event).tables
        return (next((t.a for t in tables if t.b is None), None),
                [(t.a, t.b) for t in tables if t.b is not None])

    def by_swisspair(event: Event) -> tuple[str | None, list[tuple[str, str]]]:
        found = swisspair_pairs(event)
        if found is None:
            raise SystemExit("swisspair is not installed: pip install swisspair")
        return (next((a for a, b in found[0] if b is None), None),
                [(a, b) for a, b in found[0] if b is not None])

    for round_ in range(1, rounds + 1):
        if progress is not None:
            progress(f"round {round_} of {rounds} paired by {history_by}")
        active = [p.name for p in players if p.plays_in(round_)]
        for p in players:
            if not p.plays_in(round_) and round_ >= p.joined:
                add(round_, None, p.name, None, "zero bye")
        active.sort(key=lambda x: (-score[x], -rating[x]))
        if history_by in ("engine", "swisspair"):
            so_far = Event(settings=settings, players=tuple(players), games=tuple(games))
            bye, pairs = (by_engine if history_by == "engine" else by_swisspair)(so_far)
        else:
            bye, pairs = (greedy if history_by == "greedy" else shuffled)(active)
        if bye is not None:
            had_bye.add(bye)
            score[bye] += 1
            add(round_, None, bye, None, "bye")
        for table, (x, y) in enumerate(pairs, start=1):
            if history_by == "engine":
                a, b = x, y
            elif player_a == "coin":
                a, b = (x, y) if rng.random() < 0.5 else (y, x)
            else:
                a, b = (x, y) if (bias[x], -score[x]) <= (bias[y], -score[y]) else (y, x)
            met[a].add(b)
            met[b].add(a)
            for first, second in ((a, b), (b, a)) if double else ((a, b),):
                text = play(first, second)
                add(round_, table, first, second, text)
                score[first] += {"1-0": 1, "0-1": 0, "1/2": 0.5}[text]
                score[second] += {"1-0": 0, "0-1": 1, "1/2": 0.5}[text]
            bias[a] += 0 if double else 1
            bias[b] -= 0 if double else 1
    return Event(settings=settings, players=tuple(players), games=tuple(games))


def totals(event: Event, pairs: list[tuple[str, str | None]]) -> tuple[int, ...]:
    """The level totals of ``pairs`` under RULES.md 2.1 (level 3 scaled to integers)."""
    st = round_state(event, event.paired_rounds + 1)
    costs = Costs(event, st, st.order, rematches=True)
    position = {name: i for i, name in enumerate(st.order)}
    ends = np.array([(position[a], costs.bye if b is None else position[b]) for a, b in pairs], dtype=np.int64)
    table = costs.level_table(ends[:, 0], ends[:, 1]) if len(ends) else np.zeros((0, len(LEVELS)), dtype=np.int64)
    return tuple(int(v) for v in table.sum(axis=0))


def swisspair_pairs(event: Event) -> tuple[list[tuple[str, str | None]], float] | None:
    """swisspair's pairing of the next round and the CPU seconds of its solve alone (building its input is not
    counted, although ours counts building the round state), or ``None`` when it is not installed."""
    try:
        import swisspair  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    round_ = event.paired_rounds + 1
    recs = history(event, through=round_ - 1)
    active = [p for p in event.players if p.plays_in(round_)]
    names = {p.name for p in active}
    score = {p.name: sum((r.pairing_points for r in recs[p.name]), Fraction(0)) for p in active}
    scale = math.lcm(*(v.denominator for v in score.values()))
    order = sorted(active, key=lambda p: (-score[p.name], -(p.rating or 0), p.name))
    players = []
    for rank, p in enumerate(order, start=1):
        rs = recs[p.name]
        met = {r.opponent for r in rs if r.opponent is not None and r.opponent in names}
        bye = not any(r.kind.name == "PAB" for r in rs)
        players.append(swisspair.Player(id=p.name, points=int(score[p.name] * scale), rank=rank,
                                        can_get_bye=bye, cannot_be_paired_against_ids=met))
    start = time.process_time()
    matches = swisspair.create_matches(players)
    seconds = time.process_time() - start
    return [(m.p1.id, None if m.p2 is None else m.p2.id) for m in matches], seconds


_SHOWN = (SCORE, HEIGHT, CLUB, COLOUR_HARD, COLOUR_PREF, BALANCE, WHO_FLOATS, PATTERN)


def _cost(levels: tuple[int, ...]) -> str:
    return "/".join(str(levels[k]) for k in _SHOWN)


def measure(name: str, event: Event, memory: bool = True) -> tuple[str, float]:
    """One line: our pairing's seconds, memory, gap, rematches and cost, and swisspair's beside it."""
    start, cpu = time.perf_counter(), time.process_time()
    pairing = pair_round(event)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = "-"  # not measured (``--no-memory``)
    if memory:
        tracemalloc.start()  # a second run for memory: tracing slows Python down
        pair_round(event)
        peak = f"{tracemalloc.get_traced_memory()[1] / 2**20:.0f}"
        tracemalloc.stop()
    players = sum(2 if t.b else 1 for t in pairing.tables)
    ours = totals(event, [(t.a, t.b) for t in pairing.tables])
    proof = pairing.proof
    gap = "?" if proof is None or proof.gap < 0 else str(proof.gap)
    method = "" if proof is None else proof.method.split(",")[0]
    line = (f"{name:<8} {players:>6} {pairing.round:>3} {seconds:>7.2f} {cpu:>7.2f} {peak:>6} {gap:>4} "
            f"{len(pairing.rematches):>4} {_cost(ours):>26}")
    theirs = swisspair_pairs(event)
    if theirs is None:
        return line + f"  {'swisspair not installed':>40}  {method}", cpu
    pairs, sp_cpu = theirs
    levels = totals(event, pairs)
    verdict = "<=" if ours <= levels else "> !!"
    return (line + f" {sp_cpu:>7.2f} {levels[REMATCH]:>4} {_cost(levels):>26} {cpu / max(sp_cpu, 1e-3):>6.1f}"
            f"  {verdict}  {method}"), cpu


HEADER = (f"{'state':<8} {'players':>6} {'rd':>3} {'sec':>7} {'cpu':>7} {'MiB':>6} {'gap':>4} {'rem':>4} "
          f"{'cost':>26} {'sp cpu':>7} {'rem':>4} {'sp cost':>26} {'x':>6}")


def profile(event: Event, lines: int) -> str:
    """The top ``lines`` functions by own time of one more :func:`pair_round` on ``event``, under cProfile."""
    profiler = cProfile.Profile()
    profiler.runcall(pair_round, event)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(lines)
    text = out.getvalue()
    return text[text.index("   ncalls"):].rstrip() if "   ncalls" in text else text.rstrip()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("states", nargs="*", metavar="STATE", help=f"any of {', '.join(SHAPES)} (default: all)")
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--growth", default="1000,2000,4000,8000,16000,32000",
                        help="sizes for the late round's growth, comma-separated ('' to skip)")
    parser.add_argument("--no-memory", action="store_true", help="skip the traced second run")
    parser.add_argument("--seed", type=int, default=1, help="the seed the states are built (and paired) with")
    parser.add_argument("--history", choices=HISTORIES, default="greedy",
                        help="who pairs the rounds already played (default: a greedy pairer)")
    parser.add_argument("--results", choices=RESULTS, default="rated",
                        help="games decided by the ratings' expectation or by a fair coin")
    parser.add_argument("--player-a", choices=PLAYER_A, default="fewer",
                        help="who takes side 1 (White) in the history's rounds: the player with fewer, or a coin")
    parser.add_argument("--draws", type=float, help="share of drawn games (default: each state's own)")
    parser.add_argument("--within-group", choices=("slide", "fold", "random"),
                        help="the pattern inside a score group (default: each state's own)")
    parser.add_argument("--round", type=int, dest="round_", metavar="ROUND",
                        help="the round paired (default: each state's own)")
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="after each state, the top functions of one more run under cProfile")
    args = parser.parse_args(argv)
    varied = (args.seed, args.history, args.results, args.player_a, args.draws, args.round_, args.within_group) != \
        (1, "greedy", "rated", "fewer", None, None, None)

    def made(size: int, name: str) -> Event:
        shape = SHAPES[name]
        if args.within_group is not None:
            shape = replace(shape, settings={**shape.settings, "within_group": args.within_group})
        if not varied:
            return build(size, shape)
        cpu = time.process_time()
        shown = sys.stderr.isatty()  # the rounds counted on a terminal, not in a log
        event = build(size, shape, args.seed, history_by=args.history, results=args.results,
                      player_a=args.player_a, draws=args.draws, round_=args.round_,
                      progress=(lambda line: print(f"  {name}: {line}", end="\r", file=sys.stderr, flush=True))
                      if shown else None)
        print(f"  {name}: built in {time.process_time() - cpu:.1f} CPU seconds" + " " * 20, file=sys.stderr,
              flush=True)
        return event

    def run(name: str, event: Event) -> tuple[str, float]:
        result = measure(name, event, not args.no_memory)
        if args.profile:
            return result[0] + "\n" + profile(event, args.profile), result[1]
        return result

    if varied:
        print(f"states built with seed {args.seed}, history paired by {args.history}, {args.results} results"
              + ("" if args.player_a == "fewer" else ", Player A by a coin")
              + ("" if args.draws is None else f", {args.draws:.0%} draws")
              + ("" if args.round_ is None else f", round {args.round_} paired")
              + ("" if args.within_group is None else f", within_group: {args.within_group}"), flush=True)
    print(HEADER, flush=True)
    for name in args.states or SHAPES:
        print(run(name, made(args.size, name))[0], flush=True)
    sizes = [int(s) for s in args.growth.split(",") if s]
    if sizes:
        print(f"\ngrowth of the late round (round 12 of 13, ~15% draws)\n{HEADER}", flush=True)
        previous: tuple[int, float] | None = None
        for size in sizes:
            event = made(size, "late")
            line, seconds = run("late", event)
            if previous is not None:
                line += f"  (x{size / previous[0]:.0f} players: x{seconds / previous[1]:.1f} CPU time)"
            previous = (size, seconds)
            print(line, flush=True)


if __name__ == "__main__":
    main()
