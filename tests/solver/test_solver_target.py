"""Threshold tables (target play) against a plain recursion over whole columns (small rule sets)."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from pasch.dice import space
from pasch.rules import RuleSet, column_totals
from pasch.solver import Solver, build_values
from pasch.solver._dist import ScoreDistribution
from pasch.solver._target import TargetTable, build_target, quantise, target_table

from ._reference import Scores, entries
from .test_solver_reference import SMALL

TOL = 1e-9


class TargetReference:
    """Max over policies of P(at least t more points), by recursion over columns, throws and keeps."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.sp = space(rules.dice, rules.faces)
        self.reach = cache(self._reach)

    def _reach(self, scores: Scores, t: int) -> float:
        if t <= 0:
            return 1.0
        if all(s is not None for s in scores):
            return 0.0
        hold = self.turn(scores, t)
        return sum(float(p) * hold(r, self.rules.throws - 1, True) for r, p in self.sp.outcomes_of_keep(()))

    def turn(self, scores: Scores, t: int):  # type: ignore[no-untyped-def]
        rules = self.rules

        @cache
        def stop(roll: tuple[int, ...], sharp: bool) -> float:
            return max(self.reach(nxt, t - int(g)) for g, nxt in entries(rules, scores, roll, sharp and rules.sharp))

        @cache
        def keep_value(keep: tuple[int, ...], rolls_left: int) -> float:
            return sum(float(p) * hold(r, rolls_left, len(keep) == 0) for r, p in self.sp.outcomes_of_keep(keep))

        @cache
        def hold(roll: tuple[int, ...], rolls_left: int, sharp: bool) -> float:
            best = stop(roll, sharp)
            if rolls_left > 0:
                for k in self.sp.sub_keeps(roll):
                    if len(k) < len(roll):
                        best = max(best, keep_value(k, rolls_left - 1))
            return best

        hold.keep_value = keep_value  # type: ignore[attr-defined]
        return hold


# the joker, bonus, fill-order and sharp variants; the reference costs a turn per (column, points needed)
SOME = [r for r in SMALL if r.id in ("bonus", "forced-joker", "classic-down", "up-sharp", "sharp-free")]


@pytest.mark.parametrize("rules", SOME, ids=lambda r: r.id)
def test_threshold_table_matches_the_reference(rules: RuleSet) -> None:
    solver = Solver(rules, build_values(rules, np.float64))
    theta, sidx = build_target(solver.prep, np.float64, eps=0.0)
    ref = TargetReference(rules)
    table = TargetTable(solver, theta, sidx)
    rng = random.Random(rules.id)
    empty: Scores = (None,) * len(rules.categories)
    columns = [empty]
    scores = list(empty)
    for _ in range(len(scores) - 1):  # a random path of legal entries
        roll = rng.choice(space(rules.dice, rules.faces).rolls)
        scores = list(rng.choice(entries(rules, tuple(scores), roll, False))[1])
        columns.append(tuple(scores))
    for col in columns[::2]:
        base = column_totals(rules, col).total
        for t in rng.sample(range(1, table.width), min(6, table.width - 1)):
            assert table.p_reach(col, base + t) == pytest.approx(ref.reach(col, t), abs=TOL), (col, t)
    # the options of some situations
    sp = space(rules.dice, rules.faces)
    for col in columns[:-1]:
        base = column_totals(rules, col).total
        for t in rng.sample(range(1, table.width), 2):
            hold = ref.turn(col, t)
            for roll in rng.sample(sp.rolls, 2):
                for rolls_left in range(rules.throws):
                    opts = table.options(col, roll, rolls_left, base + t, sharp=False)
                    below = table.options(col, roll, rolls_left, base + t - 1, sharp=False)
                    win = table.win_options(col, roll, rolls_left, [ScoreDistribution(np.array([1.0]), base + t - 1)],
                                            sharp=False)  # fmt: skip
                    # one opponent certain to end on base + t - 1: beating it is reaching base + t, a tie
                    # (reaching base + t - 1 exactly) counts half, so an entry is worth the mean of the two
                    # thresholds' values, and the best keep at most the mean of their best keeps
                    hi = {o.action_text: o.probability for o in opts}
                    lo = {o.action_text: o.probability for o in below}
                    for o in win:
                        if rolls_left == 0:
                            assert o.probability == pytest.approx((hi[o.action_text] + lo[o.action_text]) / 2, abs=TOL)
                    assert win[0].probability <= (opts[0].probability + below[0].probability) / 2 + TOL
                    assert opts[0].probability == pytest.approx(hold(roll, rolls_left, False), abs=TOL)
                    for o in opts:
                        if o.kind == "keep":
                            want = hold.keep_value(o.keep, rolls_left - 1)
                            assert o.probability == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("rules", SOME[:3], ids=lambda r: r.id)
def test_zeroing_tiny_probabilities_stays_within_its_bound(rules: RuleSet) -> None:
    """The default build zeroes probabilities below EPS: no value moves by more than layers * EPS."""
    from pasch.solver._target import EPS, build_survival

    solver = Solver(rules, build_values(rules, np.float64))
    p = solver.prep
    exact, sidx = build_target(p, np.float64, eps=0.0)
    eps = 1e-3  # large enough that rows end early in these small rule sets
    fast, sidx2 = build_target(p, np.float64, eps=eps)
    assert (sidx == sidx2).all()
    diff = np.abs(fast - exact)
    assert diff.max() <= len(rules.categories) * eps
    assert ((exact > 0) & (fast == 0)).any(), "no row ended early: the test checks nothing"
    default, _ = build_target(p, np.float64)
    assert np.abs(default - exact).max() <= len(rules.categories) * EPS
    exact, _ = build_survival(solver, eps=0.0)
    fast, _ = build_survival(solver, eps=eps)
    assert np.abs(fast - exact).max() <= len(rules.categories) * eps
    assert ((exact > 0) & (fast == 0)).any()


def test_the_threshold_table_beats_the_expected_score_policy_and_quantises() -> None:
    """Playing for a target reaches it at least as often as optimal expected-score play."""
    from pasch.solver import score_distribution

    solver = Solver.load("yahtzee+forced", use_cache=False)
    theta, sidx = build_target(solver.prep)
    d = score_distribution(solver, use_cache=False)
    row = theta[sidx[0, 0, 0]]
    for t in (100, 150, 200, 250):
        assert row[t] >= d.p_at_least(t) - 1e-5
    q = quantise(theta)
    assert q.dtype == np.uint16
    assert np.abs(q / 65535.0 - theta).max() <= 0.5 / 65535 + 1e-7


def test_target_table_is_cached(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    solver = Solver.load("yahtzee+forced", use_cache=False)
    first = target_table(solver)
    again = target_table(solver)
    assert again.build_seconds == 0.0 and np.array_equal(np.asarray(first.theta), np.asarray(again.theta))
    empty = [None] * solver.prep.n_boxes
    assert 0.0 < first.p_reach(empty, 200) < 1.0
    assert first.p_reach(empty, 0) == 1.0


@pytest.mark.parametrize("rules", SMALL[:6] + SMALL[7:], ids=lambda r: r.id)
def test_survival_rows_are_the_exact_distributions(rules: RuleSet) -> None:
    """Each row of the survival table equals P(>= t) of the forward-propagated distribution."""
    from pasch.solver import score_distribution
    from pasch.solver._target import SurvivalTable, build_survival

    solver = Solver(rules, build_values(rules, np.float64))
    theta, sidx = build_survival(solver, eps=0.0)
    table = SurvivalTable(solver, theta, sidx)
    rng = random.Random(rules.id)
    scores: list[int | None] = [None] * len(rules.categories)
    for _ in range(len(scores)):
        want = score_distribution(solver, scores, use_cache=False)
        got = table.distribution(scores)
        assert got.offset == want.offset
        for t in range(want.offset, want.offset + theta.shape[1]):
            assert got.p_at_least(t) == pytest.approx(want.p_at_least(t), abs=TOL), (scores, t)
        roll = rng.choice(space(rules.dice, rules.faces).rolls)
        scores = list(rng.choice(entries(rules, tuple(scores), roll, False))[1])
