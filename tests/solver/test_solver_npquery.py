"""The numpy one-situation query (no compiling) gives the Numba kernel's option values bit for bit."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pasch.dice import space
from pasch.rules import RuleSet, get
from pasch.solver import Solver, build_values
from pasch.solver._kone import _option_values
from pasch.solver._npquery import option_values

from .test_solver_reference import SMALL

REAL = ["yahtzee", "yacht", "kniffel-classic+strict+sharp", "yatzy+upward", "kniffel+forced+sharp"]


def _compare(rules: RuleSet, dtype: type[np.floating], trials: int, seed: int) -> int:
    """Random situations (any mask, flag, upper total, throw, rolls left, sharpness); returns how many."""
    solver = Solver(rules, build_values(rules, dtype)) if dtype is np.float64 else Solver.load(rules)
    t = solver.tables
    p = solver.prep
    rng = random.Random(seed)
    n_rolls = len(space(rules.dice, rules.faces).rolls)
    for _ in range(trials):
        mask = rng.randrange((1 << p.n_boxes) - 1)
        args = (mask, rng.randrange(p.n_flags), rng.randrange(p.lanes), rng.randrange(n_rolls))
        rolls_left = rng.randrange(rules.throws)
        sharp = rng.random() < 0.5
        boxes = np.empty(p.n_boxes)
        keeps = np.empty(p.keep_add.shape[0])
        _option_values(solver.values, *args, rolls_left, sharp, t, boxes, keeps)
        np_boxes, np_keeps = option_values(solver.values, *args, rolls_left, sharp, t)
        assert np.array_equal(boxes, np_boxes, equal_nan=True), (rules.id, args, rolls_left, sharp)
        assert np.array_equal(keeps, np_keeps, equal_nan=True), (rules.id, args, rolls_left, sharp)
        assert (~np.isnan(np_boxes)).any()
    return trials


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.id)
def test_small_rule_sets_float64(rules: RuleSet) -> None:
    assert _compare(rules, np.float64, 150, 1) == 150


@pytest.mark.parametrize("rule_id", REAL)
def test_real_rule_sets_float32_tables(rule_id: str) -> None:
    assert _compare(get(rule_id), np.float32, 60, 2) == 60


_NUMPY_THEN_KERNEL = """
from pasch.solver import Solver, warm_up
from pasch.solver._kone import _option_values
solver = Solver.load("yahtzee")
scores = [3, 6, None, None, None, None, None, None, None, None, None, 50, None]
plain = solver.options(scores, "13356", 2)
print(len(_option_values.signatures))
warm_up(("options",))
kernel = solver.options(scores, "13356", 2)
print(len(_option_values.signatures))
print([(o.action_text, o.value) for o in plain] == [(o.action_text, o.value) for o in kernel])
"""


def test_options_use_numpy_until_the_kernel_is_compiled(tmp_path: Path) -> None:
    """A fresh process answers in numpy (the kernel is not compiled: not even loaded), then, once a
    long-running process warms the kernel up, with the kernel: the same options and values."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PASCH_CACHE_DIR": str(tmp_path / "tables")}
    done = subprocess.run(
        [sys.executable, "-c", _NUMPY_THEN_KERNEL], env=env, capture_output=True, text=True, timeout=600, check=True
    )
    assert done.stdout.split() == ["0", "1", "True"]
