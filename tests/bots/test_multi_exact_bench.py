"""bench/multi_exact.py, the exact yardstick of the multi-column bot on small games: its dynamic programme agrees
with the solver column by column, optimal play by its values scores exactly the optimum once luck is taken out,
and the bot, measured by it, never beats it."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from pasch.bots import MultiColumnBot
from pasch.rules import Order
from pasch.solver import Solver

BENCH = Path(__file__).resolve().parents[2] / "bench" / "multi_exact.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_multi_exact", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("order", [Order.FREE, Order.DOWN, Order.UP])
def test_one_column_is_the_solvers_exact_value(bench: ModuleType, order: Order) -> None:
    rules = bench.small_rules("t", bonus=10, lower=("small_straight",), columns=(order,))
    exact = bench.ExactMulti(rules)
    solver = Solver.load(rules)
    key = solver.state_key((None,) * len(rules.categories))
    assert exact.value[(0, 0)] == pytest.approx(float(solver.values[key.mask, key.flag, key.upper]), abs=1e-3)


def test_optimal_play_scores_the_optimum_in_every_game_once_luck_is_out(bench: ModuleType) -> None:
    games = (
        bench.RULES["plain"],
        bench.small_rules("two", bonus=10, columns=(Order.DOWN, Order.FREE)),
        bench.RULES["k4-plain"],  # kniffel-4's announcements and cross-outs, as the engine allows them
        bench.small_rules("ann", bonus=10, columns=(Order.ANNOUNCED, Order.FREE)),
    )
    for rules in games:
        exact = bench.ExactMulti(rules)
        optimum = float(exact.value[(0,) * len(exact.shape)])
        bot = bench.OptimalBot(exact)
        totals = []
        for seed in range(30):
            total, adjusted = bench.play(exact, bot, seed)
            totals.append(total)
            assert adjusted == pytest.approx(optimum, abs=1e-9)
        assert len(set(totals)) > 5  # the games differ; only the luck is taken out


def test_the_optimum_beats_the_columns_played_alone(bench: ModuleType) -> None:
    rules = bench.RULES["plain"]
    exact = bench.ExactMulti(rules)
    alone = bench.per_column_sum(rules)
    solvers = [Solver.load(dataclasses.replace(rules, columns=(o,), id=f"{rules.id}.{o.value}")) for o in rules.columns]
    assert alone == pytest.approx(sum(float(s.values[0, 0, 0]) for s in solvers), abs=1e-3)
    assert float(exact.value[0, 0, 0, 0, 0, 0]) > alone + 10


@pytest.mark.parametrize("name", ["bonus", "k4-plain"])
def test_the_bot_loses_against_the_optimum_exactly_what_its_decisions_lose(bench: ModuleType, name: str) -> None:
    rules = bench.RULES[name]
    exact = bench.ExactMulti(rules)
    optimum = float(exact.value[(0,) * len(exact.shape)])
    bot = MultiColumnBot(learned=False)
    lost = []
    for seed in range(20):
        regret = bench.Regret()
        _, adjusted = bench.play(exact, bot, seed, regret)
        assert regret.decisions >= 12
        assert 0 <= regret.column <= regret.box
        # A game's total is the optimum, plus the luck of its throws, less what each decision lost against the
        # best one (both in exact expected points): so with the luck out, exactly the optimum less the losses.
        assert adjusted == pytest.approx(optimum - regret.announce - regret.stop_or_keep - regret.box, abs=1e-6)
        lost.append(regret.announce + regret.stop_or_keep + regret.box)
    assert bot.fallbacks == 0
    assert 0 < np.mean(lost) < 20


def test_the_ideal_rollout_improves_on_the_bot_and_the_bots_value_is_what_it_scores(bench: ModuleType) -> None:
    exact = bench.ExactMulti(bench.RULES["plain"])
    optimum = float(exact.value[(0,) * len(exact.shape)])
    bot = MultiColumnBot(learned=False)
    mine, rollout = bench.ideal_rollout(exact, bot)
    assert mine < rollout <= optimum + 1e-9  # one step of policy improvement never loses
    adjusted = np.array([bench.play(exact, bot, 1000 + seed)[1] for seed in range(60)])
    assert mine == pytest.approx(adjusted.mean(), abs=4 * adjusted.std(ddof=1) / np.sqrt(60) + 1e-6)
    with pytest.raises(ValueError, match="without an upper bonus or announced column"):
        bench.ideal_rollout(bench.ExactMulti(bench.small_rules("b", bonus=10, columns=(Order.FREE,))), bot)


@pytest.mark.parametrize("name", ["plain", "k4-plain"])
def test_the_columns_at_full_slack_bound_the_optimum_from_above(bench: ModuleType, name: str) -> None:
    rules = bench.RULES[name]
    exact = bench.ExactMulti(rules)
    optimum = float(exact.value[(0,) * len(exact.shape)])
    parts = bench.column_bound(rules)
    assert len(parts) == rules.n_columns
    assert optimum < sum(parts) < 1.5 * optimum  # above the optimum, and not absurdly so
    # every column gains from its passes: each part exceeds the column's value played alone
    singles = [dataclasses.replace(rules, columns=(o,), id=f"{rules.id}.{o.value}") for o in rules.columns]
    alone = [bench.per_column_sum(single) for single in singles]
    assert all(p > a for p, a in zip(parts, alone, strict=True))


def test_one_column_has_no_passes_and_its_bound_is_its_value(bench: ModuleType) -> None:
    rules = bench.small_rules("b1", bonus=10, columns=(Order.DOWN,))
    exact = bench.ExactMulti(rules)
    assert bench.column_bound(rules) == pytest.approx((float(exact.value[(0, 0)]),), abs=1e-3)
