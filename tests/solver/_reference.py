"""A slow, plainly written reference solver: recursion over whole columns, scoring by score_options.

It knows nothing of masks, capped totals, flags, tiers or keep trees: a state is the column itself (the
tuple of box scores), the reward of an entry is the change of ``column_totals`` plus extra points, and
the legal entries are whatever :func:`pasch.rules.score_options` says. Everything in float64.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from pasch.dice import counts_of, space
from pasch.rules import RuleSet, column_totals, score_options

Scores = tuple[int | None, ...]


def entries(rules: RuleSet, scores: Scores, roll: tuple[int, ...], sharp: bool) -> list[tuple[float, Scores]]:
    """(points gained now, next column) for each legal entry of a throw."""
    order = rules.columns[0]
    before = column_totals(rules, scores).total
    out = []
    for opt in score_options(rules, order, scores, counts_of(roll, rules.faces), sharp):
        nxt = list(scores)
        nxt[opt.index] = opt.points
        gain = column_totals(rules, nxt).total - before + opt.extra
        out.append((float(gain), tuple(nxt)))
    return out


class Reference:
    """Optimal expected further score of every column of a (small) rule set, by plain recursion."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.sp = space(rules.dice, rules.faces)
        self.value = cache(self._value)

    def _value(self, scores: Scores) -> float:
        """Expected further score at the start of a turn."""
        if all(s is not None for s in scores):
            return 0.0
        turn = self.turn(scores, self.value)
        return sum(float(p) * turn(r, self.rules.throws - 1, True) for r, p in self.outcomes(()))

    def outcomes(self, keep: tuple[int, ...]) -> list[tuple[tuple[int, ...], float]]:
        return [(r, float(p)) for r, p in self.sp.outcomes_of_keep(keep)]

    def turn(self, scores: Scores, future: Callable[[Scores], float]) -> Callable[[tuple[int, ...], int, bool], float]:
        """``hold(roll, rolls_left, sharp)``: value of holding a throw, with its own memo."""
        rules = self.rules

        @cache
        def stop(roll: tuple[int, ...], sharp: bool) -> float:
            return max(g + future(nxt) for g, nxt in entries(rules, scores, roll, sharp and rules.sharp))

        hold = holding(self.sp, stop)
        hold.stop = stop  # type: ignore[attr-defined]
        return hold


def holding(sp: Any, stop: Callable[[tuple[int, ...], bool], float]) -> Callable[[tuple[int, ...], int, bool], float]:
    """``hold(roll, rolls_left, sharp)``: the best of stopping (``stop(roll, sharp)``, the value of the turn's
    best entry) and every keep, over the rest of one turn; ``hold.keep_value(keep, rolls_left)`` too."""

    @cache
    def keep_value(keep: tuple[int, ...], rolls_left: int) -> float:
        # Keeping these dice and throwing the rest; the throw is sharp only if nothing was kept.
        return sum(float(p) * hold(r, rolls_left, len(keep) == 0) for r, p in sp.outcomes_of_keep(keep))

    @cache
    def hold(roll: tuple[int, ...], rolls_left: int, sharp: bool) -> float:
        best = stop(roll, sharp)
        if rolls_left > 0:
            for k in sp.sub_keeps(roll):
                if len(k) < len(roll):
                    best = max(best, keep_value(k, rolls_left - 1))
        return best

    hold.keep_value = keep_value  # type: ignore[attr-defined]
    return hold
