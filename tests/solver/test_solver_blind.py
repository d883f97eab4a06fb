"""Utility tables and the best blind play against an expected-score player (issue 28, item 5), against a plain
recursion over whole columns and points (small rule sets)."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from pasch.dice import space
from pasch.rules import RuleSet, column_totals
from pasch.solver import Solver, blind_win, build_values, score_distribution
from pasch.solver._blind import win_utility
from pasch.solver._target import build_utility, table_width

from ._reference import Scores, entries, holding
from .test_solver_reference import SMALL

TOL = 1e-9
SOME = [r for r in SMALL if r.id in ("bonus", "forced-joker", "up-sharp")]


class UtilityReference:
    """Max over policies of E[utility(final score)], by recursion over (column, points so far)."""

    def __init__(self, rules: RuleSet, utility: np.ndarray) -> None:
        self.rules = rules
        self.utility = utility
        self.sp = space(rules.dice, rules.faces)
        self.value = cache(self._value)

    def u(self, points: int) -> float:
        return float(self.utility[min(points, len(self.utility) - 1)])

    def _value(self, scores: Scores, points: int) -> float:
        if all(s is not None for s in scores):
            return self.u(points)
        rules = self.rules

        @cache
        def stop(roll: tuple[int, ...], sharp: bool) -> float:
            return max(
                self.value(nxt, points + int(g)) for g, nxt in entries(rules, scores, roll, sharp and rules.sharp)
            )

        hold = holding(self.sp, stop)
        return sum(float(p) * hold(r, rules.throws - 1, True) for r, p in self.sp.outcomes_of_keep(()))


def _utility(rules: RuleSet, seed: int) -> np.ndarray:
    """A random non-decreasing utility from 0 to 1, reaching 1 at the table's top."""
    w = table_width(Solver(rules, build_values(rules, np.float64)).prep)
    rng = np.random.default_rng(seed)
    steps = rng.random(w - 1) * (rng.random(w - 1) < 0.3)
    u = np.concatenate(([0.0], np.cumsum(steps)))
    u = u / u[-1]
    return np.concatenate((u, [1.0, 1.0]))


@pytest.mark.parametrize("rules", SOME, ids=lambda r: r.id)
def test_the_utility_table_matches_the_reference(rules: RuleSet) -> None:
    solver = Solver(rules, build_values(rules, np.float64))
    utility = _utility(rules, 7)
    theta, sidx = build_utility(solver.prep, utility, np.float64, eps=0.0)
    top = table_width(solver.prep) - 1
    ref = UtilityReference(rules, utility)
    rng = random.Random(rules.id)
    scores: list[int | None] = [None] * len(rules.categories)
    columns = [tuple(scores)]
    for _ in range(len(scores) - 1):  # a random path of legal entries
        roll = rng.choice(space(rules.dice, rules.faces).rolls)
        scores = list(rng.choice(entries(rules, tuple(scores), roll, False))[1])
        columns.append(tuple(scores))
    for col in columns:
        key = solver.state_key(col)
        base = column_totals(rules, col).total
        got = float(theta[sidx[key.mask, key.flag, key.upper], top - base])
        assert got == pytest.approx(ref.value(col, base), abs=TOL), col
        # the same column with fewer points so far (another lane of the same row)
        if base >= 3:
            got = float(theta[sidx[key.mask, key.flag, key.upper], top - base + 3])
            assert got == pytest.approx(ref.value(col, base - 3), abs=TOL), col


def test_a_utility_that_is_not_one_at_the_top_or_decreases_is_refused() -> None:
    rules = SOME[0]
    p = Solver(rules, build_values(rules, np.float64)).prep
    good = _utility(rules, 1)
    for bad in (good[:-3] * 0.5, good[::-1], good[:3]):
        with pytest.raises(ValueError, match="non-decreasing"):
            build_utility(p, bad)


@pytest.mark.parametrize("rules", [r for r in SOME if r.id != "forced-joker"], ids=lambda r: r.id)
def test_the_blind_win_share_is_the_reference_and_at_least_a_draw(rules: RuleSet) -> None:
    """The best blind play wins at least half (the expected-score play is blind and draws against itself),
    and its share is the recursion's with the winning utility built from the opponent's exact law."""
    solver = Solver(rules, build_values(rules, np.float64))
    got = blind_win(solver, use_cache=False)
    law = score_distribution(solver, use_cache=False)
    q = np.zeros(got.top + 2 + law.offset + len(law.probs))
    q[law.offset : law.offset + len(law.probs)] = law.probs
    below = np.concatenate(([0.0], np.cumsum(q)[:-1]))
    utility = np.minimum(below + q / 2, 1.0)
    utility[got.top :] = 1.0
    want = UtilityReference(rules, utility).value((None,) * len(rules.categories), 0)
    assert got.share == pytest.approx(want, abs=1e-6)  # the table is float32
    assert got.share >= 0.5 - 1e-6
    assert 0.0 <= got.error <= got.opponent_tail


@pytest.mark.parametrize("opponents", [1, 2, 3])
def test_the_win_utility_is_the_share_of_every_way_the_opponents_can_end(opponents: int) -> None:
    """Against independent opponents with a small law: the expected share (a tie of k + 1 players worth
    1 / (k + 1) each) over every combination of their final scores, for every score of ours."""
    probs = np.array([0.1, 0.0, 0.25, 0.4, 0.25])
    offset = 3
    u = win_utility(probs, offset, opponents, 12)
    for mine in range(12):
        want = 0.0
        for ends in itertools.product(range(len(probs)), repeat=opponents):
            p = float(np.prod([probs[i] for i in ends]))
            scores = [offset + i for i in ends]
            if max(scores) < mine:
                want += p
            elif max(scores) == mine:
                want += p / (1 + scores.count(mine))
        assert u[mine] == pytest.approx(want, abs=1e-12), mine
    assert np.all(np.diff(u) >= 0) and u[-1] == 1.0


def test_against_two_opponents_the_best_blind_play_wins_at_least_a_third() -> None:
    rules = next(r for r in SOME if r.id == "bonus")
    solver = Solver(rules, build_values(rules, np.float64))
    two = blind_win(solver, opponents=2, use_cache=False)
    one = blind_win(solver, use_cache=False)
    assert 1 / 3 - 1e-6 <= two.share < one.share
