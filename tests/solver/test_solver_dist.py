"""Exact score distributions against a plain recursion over whole columns (small rule sets, float64)."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import numpy as np
import pytest

from pasch.dice import counts_of, space
from pasch.rules import RuleSet, column_totals, get, score_options
from pasch.solver import Solver, build_values
from pasch.solver._dist import ScoreDistribution, score_distribution

from ._reference import Scores
from .test_solver_reference import SMALL

TOL = 1e-12


class DistReference:
    """P(points still to come = s) of a column, following the solver's best decision in each situation.

    Plain recursion over columns and throws; the points of an entry are the change of ``column_totals``
    plus its extra points, as in the reference solver. Only the *choice* comes from ``Solver.best``.
    """

    def __init__(self, rules: RuleSet, solver: Solver) -> None:
        self.rules = rules
        self.solver = solver
        self.sp = space(rules.dice, rules.faces)
        self.future = cache(self._future)

    def _entry(self, scores: Scores, roll: tuple[int, ...], sharp: bool, category: str) -> tuple[int, Scores]:
        rules = self.rules
        box = rules.category_index(category)
        for opt in score_options(rules, rules.columns[0], scores, counts_of(roll, rules.faces), sharp and rules.sharp):
            if opt.index == box:
                nxt = list(scores)
                nxt[box] = opt.points
                gain = column_totals(rules, nxt).total - column_totals(rules, scores).total + opt.extra
                return gain, tuple(nxt)
        raise AssertionError(f"{category} is not legal")

    def turn(self, scores: Scores) -> dict[tuple[int, Scores], float]:
        """(points gained, next column) -> probability, for one turn under the solver's decisions."""
        out: dict[tuple[int, Scores], float] = defaultdict(float)

        def hold(roll: tuple[int, ...], rolls_left: int, sharp: bool, p: float) -> None:
            best = self.solver.best(list(scores), roll, rolls_left, sharp)
            if best.kind == "score":
                out[self._entry(scores, roll, sharp, best.category or "")] += p
                return
            keep = best.keep or ()
            for r, q in self.sp.outcomes_of_keep(keep):
                hold(r, rolls_left - 1, len(keep) == 0, p * float(q))

        for r, q in self.sp.outcomes_of_keep(()):
            hold(r, self.rules.throws - 1, True, float(q))
        return out

    def _future(self, scores: Scores) -> dict[int, float]:
        if all(s is not None for s in scores):
            return {0: 1.0}
        got: dict[int, float] = defaultdict(float)
        for (gain, nxt), p in self.turn(scores).items():
            for s, q in self.future(nxt).items():
                got[gain + s] += p * q
        return got


def _as_dict(d: ScoreDistribution) -> dict[int, float]:
    return {int(s): float(p) for s, p in zip(d.scores, d.probs, strict=True) if p > 0}


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.id)
def test_distribution_matches_the_reference(rules: RuleSet) -> None:
    solver = Solver(rules, build_values(rules, np.float64))
    ref = DistReference(rules, solver)
    empty: Scores = (None,) * len(rules.categories)
    want = ref.future(empty)
    got = score_distribution(solver, use_cache=False)
    assert set(_as_dict(got)) == {s for s, p in want.items() if p > 0}
    for s, p in want.items():
        assert got.prob(s) == pytest.approx(p, abs=TOL), s
    assert got.mean == pytest.approx(solver.expected_start, abs=1e-9)
    # Situations later in the game: the points on the sheet shift the distribution.
    rng = random.Random(rules.id)
    scores: list[int | None] = list(empty)
    for _ in range(len(scores) - 1):
        nxt = rng.choice(sorted(ref.turn(tuple(scores)), key=repr))[1]
        scores = list(nxt)
        d = score_distribution(solver, scores)
        base = column_totals(rules, scores).total
        assert d.offset == base
        for s, p in ref.future(tuple(scores)).items():
            assert d.prob(base + s) == pytest.approx(p, abs=TOL), (scores, s)
        assert d.mean == pytest.approx(solver.expected_final(scores), abs=1e-9)


def test_summary_statistics_of_a_known_distribution() -> None:
    d = ScoreDistribution(np.array([0.25, 0.5, 0.25]), offset=10)
    assert d.mean == pytest.approx(11.0)
    assert d.sd == pytest.approx(np.sqrt(0.5))
    assert d.percentile(1) == 10
    assert d.percentile(25) == 10
    assert d.percentile(50) == 11
    assert d.percentile(99) == 12
    assert d.p_at_least(11) == pytest.approx(0.75)
    assert d.p_at_least(13) == 0.0
    assert d.p_at_least(5) == 1.0
    assert d.p_below(12) == pytest.approx(0.75)
    s = d.summary()
    assert set(s) == {"mean", "sd", "percentiles", "p_at_least"}
    assert list(s["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]
    with pytest.raises(ValueError, match="percentile"):
        d.percentile(101)


def test_the_empty_sheet_distribution_is_cached(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    solver = Solver.load("yahtzee+forced", use_cache=False)
    first = score_distribution(solver)
    again = score_distribution(solver)
    assert np.array_equal(first.probs, again.probs)
    assert any(p.name.startswith("dist-") for p in tmp_path.iterdir())  # type: ignore[attr-defined]
    assert first.mean == pytest.approx(solver.expected_start, rel=1e-6)


@pytest.mark.slow
def test_yahtzee_mean_and_simulation() -> None:
    """The published expected value, and P(score >= 300) against 10^6 simulated optimal games."""
    solver = Solver.load(get("yahtzee"))
    d = score_distribution(solver)
    assert d.mean == pytest.approx(254.5877, abs=5e-4)
    assert d.mean == pytest.approx(solver.expected_start, rel=1e-6)
    games = 1_000_000
    scores = solver.simulate(games, seed=14)
    p = d.p_at_least(300)
    se = np.sqrt(p * (1 - p) / games)
    assert abs(float((scores >= 300).mean()) - p) < 3 * se
