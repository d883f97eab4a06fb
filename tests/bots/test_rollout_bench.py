"""bench/rollout.py, the rollout yardstick of the multi-column games: its luck terms have mean 0 exactly (so
luck-adjusted totals are unbiased), and a game of it runs end to end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from pasch.bots import MultiColumnBot
from pasch.dice import space
from pasch.engine import GameState, Keep, Throw, new_game

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rollout.py"


@pytest.fixture(scope="module")
def rollout() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rollout", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _outcomes(state: GameState) -> list[tuple[GameState, float]]:
    """Every throw of the dice in the air with its probability (the engine's exact chance outcomes)."""
    out = []
    for throw, p in state.chance_outcomes():
        after = state.apply(throw)
        assert isinstance(after, GameState)
        out.append((after, float(p)))
    return out


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-4"])
def test_each_throws_luck_has_mean_zero(rollout: ModuleType, rules: str) -> None:
    bot = MultiColumnBot()
    state = new_game(rules, ["solo"])
    assert isinstance(state, GameState)
    before = rollout._first_throw_mean(bot, state)
    thrown = state.apply("roll")
    assert isinstance(thrown, GameState)
    after = sum(p * rollout._throw_value(bot, s) for s, p in _outcomes(thrown))
    assert after == pytest.approx(before, abs=1e-9)  # kniffel-4: announcing each box counted, as the bot does
    landed = thrown.apply(Throw((1, 2, 2, 5, 6)))
    assert isinstance(landed, GameState)
    keep = Keep((2, 2))
    expected = rollout._keep_value(bot, landed, keep)
    again = landed.apply(keep)
    assert isinstance(again, GameState)
    after = sum(p * rollout._throw_value(bot, s) for s, p in _outcomes(again))
    assert after == pytest.approx(expected, abs=1e-9)


@pytest.mark.slow
def test_a_rollout_game_runs_and_reports_both_bots(rollout: ModuleType) -> None:
    cfg = rollout.Config("kniffel-3", seed=1, n=2, k=2, margin=10.0, z=0.0, horizon=2)
    g, base, base_luck, total, luck, rolled, seconds = rollout.play(cfg, 0)
    assert g == 0 and rolled > 0 and seconds >= 0
    assert 100 < base < 1500 and 100 < total < 1500
    assert abs(base_luck) < 400 and abs(luck) < 400
    dice = rollout._dice(new_game("kniffel-3", ["x"]).rules, [1, 0])
    assert dice.shape == (40, 3, 5) and dice.min() >= 1 and dice.max() <= 6
    assert len(space(5, 6).rolls) == 252
    assert np.array_equal(dice, rollout._dice(new_game("kniffel-3", ["x"]).rules, [1, 0]))  # seeded
