"""The benchmark's state builder (benchmarks/pairing.py): every history maker gives an event whose rounds
seat each playing player exactly once, and the engine pairs its next round proven optimal without a rematch;
the event is the one its workbook (benchmarks/command.py) reads back as.
Small fields only; the benchmark itself is not run here."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.pairing import pair_round
from sheetswiss.pairing.levels import colour_ok
from sheetswiss.pairing.state import round_state
from sheetswiss.workbook.parse import parse_event

from .helpers import benchmark

BENCH = benchmark("pairing")
HAS_SWISSPAIR = importlib.util.find_spec("swisspair") is not None


@pytest.mark.parametrize("state", ["late", "colours", "single", "double", "drops", "drawn"])
@pytest.mark.parametrize("history_by", BENCH.HISTORIES)
@pytest.mark.parametrize("player_a", BENCH.PLAYER_A)
def test_every_history_seats_each_player_once_a_round(state: str, history_by: str, player_a: str) -> None:
    if history_by == "swisspair" and not HAS_SWISSPAIR:  # `.[test]` installs it where PyPI has a wheel
        pytest.skip("swisspair has wheels for Linux only")
    event = BENCH.build(41, BENCH.SHAPES[state], 5, history_by=history_by, results="coin", player_a=player_a,
                        draws=0.35, round_=7)
    assert event.paired_rounds == 6
    games = 2 if state == "double" else 1
    for round_ in range(1, 7):
        seats = Counter(n for g in event.games_in(round_) for n in (g.a, g.b) if n is not None)
        playing = [p.name for p in event.players if p.plays_in(round_)]
        assert all(seats[name] in (1, games) for name in playing), round_
        assert sum(1 for g in event.games_in(round_) if g.b is None and g.result is not None
                   and g.result.spelling() == "bye") == len(playing) % 2
    pairing = pair_round(event)
    assert pairing.proof is not None and pairing.proof.gap == 0
    assert pairing.rematches == ()


def test_the_default_state_does_not_depend_on_the_new_options() -> None:
    shape = BENCH.SHAPES["late"]
    assert BENCH.build(60, shape) == BENCH.build(60, shape, 1, history_by="greedy", results="rated", player_a="fewer",
                                                 draws=shape.draws, round_=shape.rounds + 1)


def test_a_coin_for_player_a_leaves_players_who_may_take_neither_colour() -> None:
    """``player_a="coin"``: Player A by a coin, as a plain Swiss that ignores colours leaves them; by round 12 some
    players may take neither colour (RULES.md 2.10), where the balancing default leaves none."""
    def neither(first: str) -> int:
        event = BENCH.build(200, BENCH.SHAPES["colours"], 2, player_a=first)
        state = round_state(event, event.paired_rounds + 1)
        return sum(1 for seq in state.sides.values() if not colour_ok(seq, 1) and not colour_ok(seq, 2))

    assert neither("fewer") == 0
    assert neither("coin") > 20


@pytest.mark.parametrize("state", ["late", "colours", "single", "double", "drawn"])
def test_the_state_is_what_its_workbook_reads_back_as(state: str, tmp_path: Path) -> None:
    built = benchmark("command").write_workbook(tmp_path / "event.xlsx", 30, 2, state)
    parsed = parse_event(ExcelBackend(tmp_path / "event.xlsx").read())
    assert parsed.players == built.players
    assert parsed.games == built.games
