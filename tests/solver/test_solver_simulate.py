"""Simulated optimal play agrees with the exact expected score; the kernel agrees with the bot."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pasch.rules import RuleSet
from pasch.solver import Solver, build_values

from .test_solver_reference import SMALL


def assert_mean_within_three_standard_errors(solver: Solver) -> None:
    scores = solver.simulate(100_000, seed=12345)
    se = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - solver.expected_start) < 3 * se


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.id)
def test_optimal_policy_mean_on_small_rule_sets_is_within_three_standard_errors(rules: RuleSet) -> None:
    # Every joker, extra, order and sharp variant of the small sets: the simulation kernel's branches.
    assert_mean_within_three_standard_errors(Solver(rules, build_values(rules)))


@pytest.mark.slow  # full-size tables: the small sets above check the same kernel in the default run
@pytest.mark.parametrize("rule_id", ["yahtzee", "yatzy"])
def test_optimal_policy_mean_is_within_three_standard_errors(rule_id: str) -> None:
    assert_mean_within_three_standard_errors(Solver.load(rule_id))


def test_simulation_is_seeded_and_independent_of_threads() -> None:
    solver = Solver.load("yahtzee+forced")
    a = solver.simulate(500, seed=3, threads=1)
    b = solver.simulate(500, seed=3)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, solver.simulate(500, seed=4))


@pytest.mark.parametrize("rule_id", ["yahtzee", "kniffel+sharp", "kniffel-classic+strict"])
def test_batch_and_fast_single_queries_agree_with_the_options_listing(rule_id: str) -> None:
    from pasch.dice import space

    from .test_solver_reference import _random_column

    solver = Solver.load(rule_id)
    rng = random.Random(rule_id)
    sp = space()
    keys, rolls, left, sharps, situations = [], [], [], [], []
    while len(keys) < 150:
        scores = _random_column(solver.rules, rng, solver)
        roll = rng.choice(sp.rolls)
        t = rng.randrange(3)
        sharp = t == 2 or (solver.rules.sharp and rng.random() < 0.5)
        keys.append(solver.state_key(scores))
        rolls.append(sp.roll_index[roll])
        left.append(t)
        sharps.append(int(sharp))
        situations.append((scores, roll, t, sharp))
    box, keep, value = solver.best_batch(
        np.array([k.mask for k in keys]),
        np.array([k.flag for k in keys]),
        np.array([k.upper for k in keys]),
        np.array(rolls),
        np.array(left),
        np.array(sharps),
    )
    for q, (scores, roll, t, sharp) in enumerate(situations):
        options = solver.options(scores, roll, t, sharp)
        best = options[0]
        assert value[q] == pytest.approx(best.value, abs=1e-9)
        chosen = (
            f"score {solver.rules.categories[box[q]].id}"
            if box[q] >= 0
            else " ".join(["keep", *map(str, sp.keeps[keep[q]])])
        )
        assert next(o for o in options if o.action_text == chosen).value == pytest.approx(best.value, abs=1e-9)
        assert solver.best_index(keys[q], rolls[q], t, sharp) == (int(box[q]), int(keep[q]), value[q])
