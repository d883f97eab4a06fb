"""Exact final-score distributions under the expected-score-optimal policy.

:func:`score_distribution` answers for the empty sheet (computed once per rule set, then read from the
user cache directory) or for any column: the points already on the sheet plus the exact distribution
of the points still to come, as the optimal policy of :class:`~pasch.solver.Solver` plays them.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.rules import RuleSet, column_totals
from pasch.solver._table import SOLVER_VERSION, cache_name, load_array, store_array

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = [
    "DIST_VERSION",
    "PERCENTILES",
    "THRESHOLDS",
    "ScoreDistribution",
    "distribution_path",
    "max_gain",
    "score_distribution",
]

DIST_VERSION = 1
"""Bump when the distribution's computation changes: cached empty-sheet distributions are then stale."""

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
"""The percentiles ``solve --distribution`` prints."""

THRESHOLDS = (200, 250, 300, 350)
"""The scores whose P(score >= s) ``solve --distribution`` prints."""

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """P(final score = s) for every s: ``probs[s - offset]``.

    Attributes:
        probs: probabilities of the final scores ``offset, offset + 1, ...`` (float64, read-only).
        offset: the points already on the sheet (the smallest final score).
    """

    probs: F64
    offset: int = 0

    @cached_property
    def _cdf(self) -> F64:
        return np.cumsum(self.probs)

    @property
    def scores(self) -> npt.NDArray[np.int64]:
        """The final scores that ``probs`` covers."""
        return np.arange(self.offset, self.offset + len(self.probs), dtype=np.int64)

    @property
    def mean(self) -> float:
        """Expected final score."""
        return float(self.probs @ self.scores)

    @property
    def sd(self) -> float:
        """Standard deviation of the final score."""
        d = self.scores - self.mean
        return math.sqrt(max(0.0, float(self.probs @ (d * d))))

    def prob(self, score: int) -> float:
        """P(final score = ``score``)."""
        i = score - self.offset
        return float(self.probs[i]) if 0 <= i < len(self.probs) else 0.0

    def p_at_least(self, score: int) -> float:
        """P(final score >= ``score``)."""
        i = score - self.offset
        if i <= 0:
            return 1.0
        if i > len(self.probs):
            return 0.0
        return max(0.0, 1.0 - float(self._cdf[i - 1]))

    def p_below(self, score: int) -> float:
        """P(final score < ``score``): the share of games that ``score`` beats."""
        return 1.0 - self.p_at_least(score)

    def percentile(self, q: float) -> int:
        """The smallest score ``s`` with P(final score <= s) >= q / 100.

        Raises:
            ValueError: ``q`` outside 0..100.
        """
        if not 0 <= q <= 100:
            raise ValueError(f"a percentile is between 0 and 100, not {q}")
        i = int(np.searchsorted(self._cdf, q / 100.0 - 1e-12, side="left"))
        return self.offset + min(i, len(self.probs) - 1)

    def summary(self) -> dict[str, Any]:
        """Mean, sd, the :data:`PERCENTILES` and P(score >= s) for :data:`THRESHOLDS` (``solve --json``)."""
        return {
            "mean": self.mean,
            "sd": self.sd,
            "percentiles": {str(q): self.percentile(q) for q in PERCENTILES},
            "p_at_least": {str(s): self.p_at_least(s) for s in THRESHOLDS},
        }


def max_gain(solver: Solver) -> int:
    """The most points one turn can gain in a rule set: the best entry plus the upper bonus."""
    p = solver.prep
    return int(p.total.max()) + int(p.bonus)


def _future(solver: Solver, mask: int, flag: int, upper: int) -> F64:
    from pasch.solver._kdist import _forward

    p = solver.prep
    open_boxes = p.n_boxes - bin(mask).count("1")
    gain = max_gain(solver)
    out = np.zeros(open_boxes * gain + 1, np.float64)
    _forward(solver.values, solver.tables, int(mask), int(flag), int(upper), gain, out)
    last = int(np.flatnonzero(out)[-1]) if out.any() else 0
    return out[: last + 1]


def distribution_path(rules: RuleSet) -> Path:
    """The cache file of a rule set's empty-sheet distribution."""
    return cache_name("dist", rules.cache_key, SOLVER_VERSION, DIST_VERSION)


def score_distribution(
    solver: Solver, scores: Sequence[int | None] | None = None, *, extra: int = 0, use_cache: bool = True
) -> ScoreDistribution:
    """The exact distribution of the final score under the expected-score-optimal policy.

    Args:
        solver: the rule set's solver.
        scores: the column at the start of a turn (None: the empty sheet).
        extra: extra points already earned beside the column (five-alike bonuses).
        use_cache: read and write the empty sheet's distribution in the cache directory.

    Returns:
        The distribution; its mean equals :meth:`Solver.expected_final` up to rounding.

    Raises:
        InvalidActionError: a column of the wrong length or with impossible values.
    """
    if scores is None:
        scores = [None] * solver.prep.n_boxes
    key = solver.state_key(scores)
    offset = column_totals(solver.rules, scores, extra).total
    if key.mask != 0 or not use_cache:
        return ScoreDistribution(_readonly(_future(solver, key.mask, key.flag, key.upper)), offset)
    path = distribution_path(solver.rules)
    meta = {"rules": solver.rules.cache_key, "version": DIST_VERSION, "solver": SOLVER_VERSION}
    probs: F64 | None = None
    with contextlib.suppress(OSError, ValueError):
        stored = np.load(path, allow_pickle=False, mmap_mode=None)
        probs = load_array(path, meta, tuple(stored.shape), np.float64, mmap=False)
    if probs is None:
        probs = _future(solver, 0, 0, 0)
        with contextlib.suppress(OSError):  # a read-only cache only costs the computation next time
            store_array(path, probs, meta)
    return ScoreDistribution(_readonly(np.array(probs, dtype=np.float64)), offset)


def _readonly(a: F64) -> F64:
    a.setflags(write=False)
    return a
