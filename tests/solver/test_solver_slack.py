"""Slack tables of fixed-order columns and slack levels of free ones: plain recursive references, the plain
tables at slack 0, monotony."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import ExtraPolicy, JokerPolicy, Order, RuleSet, get
from pasch.solver import SlackTable, Solver, box_sequence, build_values, free_slack_levels, slack_table

from ._reference import Reference, Scores, entries
from .test_solver_reference import FH
from .test_solver_reference import small as solver_small


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
    solver = Solver(rules, build_values(rules, np.float64))
    order = rules.columns[0]
    slack = SlackTable(solver, max_slack=3)
    ref = SlackReference(rules)
    seq = box_sequence(order, len(rules.categories))
    # Walk a few columns along the fixed order, with scores that the boxes can hold.
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(6):
        scores: list[int | None] = [None] * len(seq)
        for k in range(len(seq) + 1):
            cols: Scores = tuple(scores)
            key = solver.state_key(cols)
            flag, upper = key.flag, key.upper
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
    solver = Solver.load(rules)
    slack = slack_table(solver, 2)
    assert slack.values[0, 0, 0, 0] == pytest.approx(solver.values[0, 0, 0], abs=1e-3)
    assert (np.diff(slack.values, axis=3) >= -1e-6).all()
    assert (slack.values[-1] == 0).all()
    # Waiting is worth a lot at the start: two passes add several points.
    assert slack.values[0, 0, 0, 2] > slack.values[0, 0, 0, 0] + 5


def test_slack_tables_are_cached_checksummed_and_rebuilt_when_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    solver = Solver(get("kniffel-classic+forced"), build_values(get("kniffel-classic+forced")))
    first = slack_table(solver, 1)
    files = sorted(tmp_path.glob("slack-*.npy"))
    assert len(files) == 1 and files[0].with_suffix(".json").exists()
    again = slack_table(solver, 1)
    np.testing.assert_array_equal(again.values, first.values)
    raw = bytearray(files[0].read_bytes())
    raw[-8:] = b"\x00" * 8  # the checksum no longer matches: rebuilt, equal to the first
    files[0].write_bytes(bytes(raw))
    rebuilt = slack_table(solver, 1)
    np.testing.assert_array_equal(rebuilt.values, first.values)


def test_a_free_column_has_no_slack_table() -> None:
    from pasch.errors import RuleSetError

    with pytest.raises(RuleSetError, match="top-down or bottom-up"):
        free = small("free", Order.FREE)
        SlackTable(Solver(free, build_values(free)), 1)


# Four boxes (no full house): the plain recursion over a free column's every fill order stays quick.
FREE_RULES = [
    solver_small("free-classic", joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100, bonus=7),
    solver_small("free-forced", joker=JokerPolicy.FORCED, extra=ExtraPolicy.BONUS_100, bonus=7),
]


@pytest.mark.parametrize("rules", FREE_RULES, ids=lambda r: r.id)
def test_free_slack_levels_match_the_plain_reference(rules: RuleSet) -> None:
    """A free column's slack levels (the table kernel with a pass floor) against plain recursion, in float64,
    and the float32 levels :func:`free_slack_levels` keeps against those."""
    solver = Solver(rules, build_values(rules, np.float64))
    levels = [solver.values]
    for _ in range(2):
        levels.append(build_values(rules, np.float64, floor=levels[-1]))
    kept = free_slack_levels(solver, 2, use_cache=False)
    assert kept.shape == (3, *solver.values.shape) and kept.dtype == np.float32
    ref = SlackReference(rules)
    rng = np.random.default_rng(2)
    n = len(rules.categories)
    checked = 0
    for _ in range(4):
        scores: list[int | None] = [None] * n
        for box in [*rng.permutation(n), None]:
            cols: Scores = tuple(scores)
            key = solver.state_key(cols)
            for s in range(3):
                want = ref.slack_value(cols, s)
                assert levels[s][key.mask, key.flag, key.upper] == pytest.approx(want, abs=1e-9), (cols, s)
                assert kept[s, key.mask, key.flag, key.upper] == pytest.approx(want, abs=2e-3), (cols, s)
                checked += 1
            if box is not None:
                roll = tuple(sorted(int(x) for x in rng.integers(1, 5, 3)))
                options = [nxt for _, nxt in entries(rules, cols, roll, False) if nxt[int(box)] is not None]
                # A joker may force another box: then any legal entry goes on the walk.
                scores = list(options[0] if options else entries(rules, cols, roll, False)[0][1])
    assert checked == 4 * 3 * (n + 1)


def test_free_slack_levels_are_cached_and_refuse_other_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pasch.errors import RuleSetError

    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    rules = FREE_RULES[0]
    solver = Solver(rules, build_values(rules))
    first = free_slack_levels(solver, 2)
    assert len(sorted(tmp_path.glob("freeslack-*.npy"))) == 1
    np.testing.assert_array_equal(free_slack_levels(solver, 2), first)
    # More slack is never worth less, and level 0 is the solver's own table.
    np.testing.assert_array_equal(first[0], solver.values)
    assert (np.diff(first, axis=0) >= -1e-5).all()
    down = small("down", Order.DOWN)
    with pytest.raises(RuleSetError, match="free column"):
        free_slack_levels(Solver(down, build_values(down)), 1)
    with pytest.raises(ValueError, match="floor of shape"):
        build_values(rules, floor=np.zeros((2, 2, 2), np.float32))
