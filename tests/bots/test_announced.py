"""The announced column's table: a plain recursive reference on small rule sets, and the real one's size."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from solver._reference import Reference, Scores, entries
from solver.test_solver_reference import FH, SS, TK
from solver.test_solver_reference import small as solver_small

from pasch.bots._announced import announced_values
from pasch.bots._multi import _Column
from pasch.rules import ExtraPolicy, JokerPolicy, RuleSet, get
from pasch.solver import Solver
from pasch.solver._table import build_values


class AnnouncedReference(Reference):
    """Plain recursion: after the first throw pick a box, play the other throws for it alone."""

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self.announced = cache(self._announced)

    def _announced(self, scores: Scores) -> float:
        if all(v is not None for v in scores):
            return 0.0
        rules = self.rules
        open_boxes = [i for i, v in enumerate(scores) if v is None]

        def aim(box: int) -> float:
            @cache
            def stop(roll: tuple[int, ...]) -> float:
                return max(
                    g + self.announced(nxt) for g, nxt in entries(rules, scores, roll, False) if nxt[box] is not None
                )

            @cache
            def hold(roll: tuple[int, ...], left: int) -> float:
                best = stop(roll)
                if left > 0:
                    for k in self.sp.sub_keeps(roll):
                        if len(k) < len(roll):
                            best = max(best, sum(p * hold(r, left - 1) for r, p in self.outcomes(k)))
                return best

            return sum(p * hold(r, rules.throws - 1) for r, p in self.outcomes(()))

        # E over the first throw of the best box: aim() above averages per box; take the max per throw.
        total = 0.0
        per_box = {}
        for b in open_boxes:
            per_box[b] = self._aim_table(scores, b)
        for r, p in self.outcomes(()):
            total += p * max(per_box[b][r] for b in open_boxes)
        del aim
        return total

    def _aim_table(self, scores: Scores, box: int) -> dict[tuple[int, ...], float]:
        rules = self.rules

        @cache
        def stop(roll: tuple[int, ...]) -> float:
            return max(
                g + self.announced(nxt) for g, nxt in entries(rules, scores, roll, False) if nxt[box] is not None
            )

        @cache
        def hold(roll: tuple[int, ...], left: int) -> float:
            best = stop(roll)
            if left > 0:
                for k in self.sp.sub_keeps(roll):
                    if len(k) < len(roll):
                        best = max(best, sum(p * hold(r, left - 1) for r, p in self.outcomes(k)))
            return best

        return {r: hold(r, rules.throws - 1) for r, _ in self.outcomes(())}


RULES = [
    solver_small("plain"),
    solver_small("bonus", bonus=10, lower=(FH,)),
    solver_small("straight-kind", bonus=7, lower=(SS, TK)),
    solver_small("classic-fh", joker=JokerPolicy.FULL_HOUSE, bonus=7, lower=(FH,)),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.id)
def test_announced_table_matches_the_plain_reference(rules: RuleSet) -> None:
    col = _Column(Solver(rules, build_values(rules, np.float64)))
    table = announced_values(col)
    ref = AnnouncedReference(rules)
    empty: Scores = (None,) * len(rules.categories)
    assert table[0, 0, 0] == pytest.approx(ref.announced(empty), abs=1e-9)
    # ...and on columns reached along the way.
    rng = np.random.default_rng(3)
    for _ in range(8):
        scores: list[int | None] = list(empty)
        while any(v is None for v in scores):
            roll = tuple(sorted(int(x) for x in rng.integers(1, rules.faces + 1, rules.dice)))
            options = entries(rules, tuple(scores), roll, False)
            scores = list(options[int(rng.integers(len(options)))][1])
            mask, flag, upper = col.key(tuple(scores))
            assert table[mask, flag, upper] == pytest.approx(ref.announced(tuple(scores)), abs=1e-9)
    # Announcing is a handicap: never worth more than the free column.
    assert table[0, 0, 0] <= col.values[0, 0, 0] + 1e-9


def test_extra_points_rules_are_close_to_the_reference() -> None:
    # With extra points the table ignores one option (stopping on five alike of another face in an upper
    # box, scoring only its extra points): it undervalues that outcome, so it is a lower bound, and close.
    # Three four-faced dice make "five alike" (here three alike) common, so this is the worst case.
    rules = solver_small("classic", joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100, bonus=7, lower=(FH,))
    col = _Column(Solver(rules, build_values(rules, np.float64)))
    exact = AnnouncedReference(rules).announced((None,) * 5)
    assert 0.96 * exact < announced_values(col)[0, 0, 0] <= exact + 1e-9


def test_real_announced_column_is_worth_less_than_a_free_one() -> None:
    rules = get("kniffel-classic")
    col = _Column(Solver.load(rules))
    free = float(col.values[0, 0, 0])
    ann = float(announced_values(col)[0, 0, 0])
    assert 0.8 * free < ann < free - 5
