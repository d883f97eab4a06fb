"""The Numba kernels against the plain recursive reference solver (float64, to 1e-9)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pasch.dice import space
from pasch.rules import Category, ExtraPolicy, JokerPolicy, Order, RuleSet, Scorer, ScorerKind, get
from pasch.solver import Solver, build_values

from ._reference import Reference, Scores

K = ScorerKind
TOL = 1e-9


def small(
    name: str,
    *,
    joker: JokerPolicy = JokerPolicy.NONE,
    extra: ExtraPolicy = ExtraPolicy.NONE,
    order: Order = Order.FREE,
    sharp: bool = False,
    strict: bool = False,
    bonus: int = 0,
    lower: tuple[Category, ...] = (),
) -> RuleSet:
    """Three four-faced dice, two throws, the boxes ``ones twos`` + ``lower`` + ``yahtzee chance``."""
    cats = (
        Category("ones", Scorer(K.FACE, face=1)),
        Category("twos", Scorer(K.FACE, face=2)),
        *lower,
        Category("yahtzee", Scorer(K.ALL_ALIKE, points=50)),
        Category("chance", Scorer(K.CHANCE)),
    )
    return RuleSet(
        id=name,
        name=name,
        description="test",
        categories=cats,
        bonus_threshold=5 if bonus else None,
        bonus=bonus,
        joker=joker,
        extra=extra,
        five_alike_full_house=strict,
        sharp=sharp,
        sharp_categories=frozenset({"yahtzee", "full_house", "three_of_a_kind"}),
        columns=(order,),
        dice=3,
        faces=4,
        throws=2,
    )


FH = Category("full_house", Scorer(K.FULL_HOUSE, points=25))
TK = Category("three_of_a_kind", Scorer(K.N_KIND, n=3))
SS = Category("small_straight", Scorer(K.STRAIGHT, n=3, points=30))

SMALL = [
    small("plain"),
    small("bonus", bonus=10),
    small("forced-joker", joker=JokerPolicy.FORCED, extra=ExtraPolicy.BONUS_100, bonus=7, lower=(SS,)),
    small("free-joker", joker=JokerPolicy.FREE, extra=ExtraPolicy.BONUS_100, bonus=7, lower=(SS,)),
    small("schmidt", joker=JokerPolicy.SCHMIDT, extra=ExtraPolicy.UPPER_50, bonus=7, lower=(FH,)),
    small("classic", joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100, bonus=7, lower=(FH,)),
    small("classic-down", joker=JokerPolicy.FULL_HOUSE, extra=ExtraPolicy.FLAT_100, order=Order.DOWN, lower=(FH,)),
    small("strict-sharp", extra=ExtraPolicy.FLAT_100, order=Order.DOWN, strict=True, sharp=True, lower=(FH, TK)),
    small("up-sharp", joker=JokerPolicy.FORCED, extra=ExtraPolicy.BONUS_100, order=Order.UP, sharp=True, lower=(TK,)),
    small("sharp-free", joker=JokerPolicy.FREE, extra=ExtraPolicy.BONUS_100, sharp=True, bonus=6, lower=(FH,)),
]


class Recorder(Reference):
    """The reference solver, remembering every column it valued."""

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self.seen: dict[Scores, float] = {}

    def _value(self, scores: Scores) -> float:
        v = super()._value(scores)
        self.seen[scores] = v
        return v


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.id)
def test_every_state_value_matches_the_reference(rules: RuleSet) -> None:
    ref = Recorder(rules)
    empty: Scores = (None,) * len(rules.categories)
    start = ref.value(empty)
    solver = Solver(rules, build_values(rules, np.float64))
    assert solver.expected_start == pytest.approx(start, abs=TOL)
    assert len(ref.seen) > 20
    for scores, v in ref.seen.items():
        assert solver.value(scores) == pytest.approx(v, abs=TOL), scores


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.id)
def test_every_option_value_matches_the_reference(rules: RuleSet) -> None:
    ref = Recorder(rules)
    empty: Scores = (None,) * len(rules.categories)
    ref.value(empty)
    solver = Solver(rules, build_values(rules, np.float64))
    rng = random.Random(rules.id)
    sp = space(rules.dice, rules.faces)
    columns = [s for s in ref.seen if any(v is None for v in s)]
    for scores in rng.sample(columns, min(12, len(columns))):
        hold = ref.turn(scores, ref.value)
        for roll in rng.sample(sp.rolls, 6):
            for rolls_left in range(rules.throws):
                for sharp in (False, True) if rules.sharp else (False,):
                    opts = solver.options(scores, roll, rolls_left, sharp)
                    assert opts[0].value == pytest.approx(hold(roll, rolls_left, sharp), abs=TOL)
                    for o in opts:
                        if o.kind == "keep":
                            want = hold.keep_value(o.keep, rolls_left - 1)  # type: ignore[attr-defined]
                        else:
                            i = rules.category_index(o.category or "")
                            want = _entry_value(ref, scores, roll, sharp, i)
                        assert o.value == pytest.approx(want, abs=TOL), (scores, roll, rolls_left, o)


def _entry_value(ref: Reference, scores: Scores, roll: tuple[int, ...], sharp: bool, box: int) -> float:
    from pasch.dice import counts_of
    from pasch.rules import column_totals, score_options

    rules = ref.rules
    for opt in score_options(rules, rules.columns[0], scores, counts_of(roll, rules.faces), sharp and rules.sharp):
        if opt.index == box:
            nxt = list(scores)
            nxt[box] = opt.points
            gain = column_totals(rules, nxt).total - column_totals(rules, scores).total + opt.extra
            return gain + ref.value(tuple(nxt))
    raise AssertionError(f"box {box} is not legal")


REAL = ["yacht", "yahtzee+forced", "kniffel-classic+strict+sharp", "yatzy+upward", "kniffel+forced+sharp"]


def _random_column(rules: RuleSet, rng: random.Random, solver: Solver) -> Scores:
    """A column some game could reach: each filled box holds a score some throw gives it."""
    n = len(rules.categories)
    order = rules.columns[0]
    filled_count = rng.randrange(n)
    if order is Order.DOWN:
        filled = set(range(filled_count))
    elif order is Order.UP:
        filled = set(range(n - filled_count, n))
    else:
        filled = set(rng.sample(range(n), filled_count))
    scores: list[int | None] = [None] * n
    for i in filled:
        scores[i] = rng.choice(sorted(solver._possible[i]))
    return tuple(scores)


@pytest.mark.parametrize("rule_id", REAL)
def test_random_situations_of_real_rule_sets_match_the_reference(rule_id: str) -> None:
    """One turn by the reference (its futures read from the float64 table) against the kernels."""
    rules = get(rule_id)
    solver = Solver(rules, build_values(rules, np.float64))
    ref = Reference(rules)
    rng = random.Random(rule_id)
    sp = space(rules.dice, rules.faces)

    def future(scores: Scores) -> float:
        return solver.value(scores) if any(s is None for s in scores) else 0.0

    for _ in range(3):
        scores = _random_column(rules, rng, solver)
        hold = ref.turn(scores, future)
        start = sum(p * hold(r, rules.throws - 1, True) for r, p in ref.outcomes(()))
        assert solver.value(scores) == pytest.approx(start, abs=TOL), scores
        for roll in rng.sample(sp.rolls, 3):
            rolls_left = rng.randrange(rules.throws)
            sharp = rules.sharp and rng.random() < 0.5
            opts = solver.options(scores, roll, rolls_left, sharp)
            assert opts[0].value == pytest.approx(hold(roll, rolls_left, sharp), abs=TOL)
            for o in opts:
                if o.kind == "keep":
                    want = hold.keep_value(o.keep, rolls_left - 1)  # type: ignore[attr-defined]
                    assert o.value == pytest.approx(want, abs=TOL)
