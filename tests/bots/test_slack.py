"""Slack tables of fixed-order columns: a plain recursive reference, the forced table at slack 0, monotony."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from pasch.bots._multi import _Column
from pasch.bots._slack import SlackColumn, box_sequence
from pasch.rules import ExtraPolicy, JokerPolicy, Order, RuleSet, get
from pasch.solver import Solver
from pasch.solver._table import build_values
from solver._reference import Reference, Scores, entries
from solver.test_solver_reference import FH
from solver.test_solver_reference import small as solver_small


def small(name: str, order: Order, **kw: object) -> RuleSet:
    """Three four-faced dice, two throws: ``ones twos full_house yahtzee chance`` in a fixed order."""
    return solver_small(name, order=order, bonus=7, lower=(FH,), **kw)  # type: ignore[arg-type]


class SlackReference(Reference):
    """``value(column, s)``: the column's turns may also be passed, at most ``s`` times, by plain recursion."""

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self.slack_value = cache(self._slack_value)

    def _slack_value(self, scores: Scores, s: int) -> float:
        if all(v is not None for v in scores):
            return 0.0
        rules = self.rules
        pass_value = self.slack_value(scores, s - 1) if s > 0 else None

        @cache
        def stop(roll: tuple[int, ...]) -> float:
            best = max(g + self.slack_value(nxt, s) for g, nxt in entries(rules, scores, roll, False))
            return best if pass_value is None else max(best, pass_value)

        @cache
        def hold(roll: tuple[int, ...], left: int) -> float:
            best = stop(roll)
            if left > 0:
                for k in self.sp.sub_keeps(roll):
                    if len(k) < len(roll):
                        best = max(best, sum(p * hold(r, left - 1) for r, p in self.outcomes(k)))
            return best

        return sum(p * hold(r, rules.throws - 1) for r, p in self.outcomes(()))


RULES = [
    small("down-classic", Order.DOWN, joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100),
    small("up-classic", Order.UP, joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100),
    small("down-plain", Order.DOWN),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.id)
def test_slack_table_matches_the_plain_reference(rules: RuleSet) -> None:
    col = _Column(Solver(rules, build_values(rules, np.float64)))
    order = rules.columns[0]
    slack = SlackColumn(col, order, max_slack=3)
    ref = SlackReference(rules)
    seq = box_sequence(order, len(rules.categories))
    # Walk a few columns along the fixed order, with scores that the boxes can hold.
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(6):
        scores: list[int | None] = [None] * len(seq)
        for k in range(len(seq) + 1):
            cols: Scores = tuple(scores)
            _, flag, upper = col.key(cols)
            for s in range(4):
                assert slack.values[k, flag, upper, s] == pytest.approx(ref.slack_value(cols, s), abs=1e-9), (cols, s)
                checked += 1
            if k < len(seq):
                box = seq[k]
                roll = tuple(sorted(int(x) for x in rng.integers(1, 5, 3)))
                options = [nxt for _, nxt in entries(rules, cols, roll, False) if nxt[box] is not None]
                scores = list(options[0])
    assert checked >= 6 * 4 * (len(seq) + 1)


def test_slack_zero_is_the_forced_table_and_more_slack_never_hurts() -> None:
    rules = get("kniffel-classic+forced")
    col = _Column(Solver.load(rules))
    slack = SlackColumn(col, Order.DOWN, max_slack=2)
    assert slack.values[0, 0, 0, 0] == pytest.approx(col.values[0, 0, 0], abs=1e-3)
    assert (np.diff(slack.values, axis=3) >= -1e-6).all()
    assert (slack.values[-1] == 0).all()
    # Waiting is worth a lot at the start: two passes add several points.
    assert slack.values[0, 0, 0, 2] > slack.values[0, 0, 0, 0] + 5
