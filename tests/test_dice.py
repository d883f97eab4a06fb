"""pasch.dice: throws, keeps, exact probabilities, parsing and seeded throwing."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasch.dice import (
    Dice,
    counts_of,
    from_counts,
    keep_groups,
    multiset_probability,
    parse_dice,
    space,
    throw,
    transition_tables,
)
from pasch.errors import InvalidActionError

dice5 = st.lists(st.integers(1, 6), min_size=5, max_size=5)


def test_252_throws_and_462_keeps() -> None:
    sp = space()
    assert len(sp.rolls) == 252
    assert len(sp.keeps) == 462
    assert len(set(sp.rolls)) == 252 and len(set(sp.keeps)) == 462
    assert all(tuple(sorted(r)) == r and len(r) == 5 for r in sp.rolls)
    assert {tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5)} == set(sp.rolls)
    assert Counter(len(k) for k in sp.keeps) == {0: 1, 1: 6, 2: 21, 3: 56, 4: 126, 5: 252}
    assert all(sp.roll_index[r] == i for i, r in enumerate(sp.rolls))
    assert all(sp.keep_index[k] == i for i, k in enumerate(sp.keeps))


def test_roll_probabilities_are_exact_and_sum_to_one() -> None:
    sp = space()
    probs = sp.roll_probabilities
    assert all(isinstance(p, Fraction) for p in probs)
    assert sum(probs, Fraction(0)) == 1
    assert multiset_probability((6, 6, 6, 6, 6)) == Fraction(1, 7776)
    assert multiset_probability((1, 2, 3, 4, 5)) == Fraction(120, 7776)
    assert multiset_probability((2, 2, 3, 3, 3)) == Fraction(10, 7776)
    # against a count of all 6**5 ordered throws
    ordered = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5))
    assert all(p == Fraction(ordered[r], 6**5) for r, p in zip(sp.rolls, probs, strict=True))
    arr = sp.roll_probabilities_array()
    assert arr.dtype == np.float64 and arr.shape == (252,)
    assert arr.sum() == pytest.approx(1.0, abs=1e-12)


def test_every_keep_leads_to_throws_with_probabilities_summing_to_one() -> None:
    sp = space()
    for keep in sp.keeps:
        outcomes = sp.outcomes_of_keep(keep)
        assert sum((p for _, p in outcomes), Fraction(0)) == 1, keep
        assert all(Counter(roll) >= Counter(keep) for roll, _ in outcomes)
    assert sp.outcomes_of_keep((1, 2, 3, 4, 5)) == [((1, 2, 3, 4, 5), Fraction(1))]


def test_keep_transition_rows_sum_to_one() -> None:
    sp = space()
    t = sp.keep_transition()
    assert t.shape == (462, 252)
    assert np.allclose(t.sum(axis=1), 1.0, atol=1e-12)
    assert (t >= 0).all()
    # keeping nothing is a fresh throw
    assert np.allclose(t[sp.keep_index[()]], sp.roll_probabilities_array())


def test_small_spaces() -> None:
    sp = space(3, 6)
    assert len(sp.rolls) == 56
    assert len(sp.keeps) == 84
    assert sum(sp.roll_probabilities, Fraction(0)) == 1
    with pytest.raises(ValueError, match="0d6"):
        space(0, 6)


@pytest.mark.parametrize(
    "text",
    ["13356", "1 3 3 5 6", "1,3,3,5,6", "6 5 3 3 1", " 3, 1 6  5 3 ", [1, 3, 3, 5, 6], ["6", "3", "1", "5", "3"]],
)
def test_parse_dice_formats(text: str | list[int] | list[str]) -> None:
    assert parse_dice(text) == (1, 3, 3, 5, 6)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1 3 3 5 7", "7"),
        ("13357", "7"),
        ("0 1 2 3 4", "0"),
        ("1 2 3 4", "1 2 3 4"),
        ("1234", "1234"),
        ("1 2 3 4 5 6", "1 2 3 4 5 6"),
        ("1 2 a 4 5", "'a'"),
        ("12x45", "'x'"),
        ("", "''"),
        ([1, 2, 3, 4, 9], "9"),
    ],
)
def test_parse_dice_errors_name_the_input(text: str | list[int], named: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_dice(text)
    assert named in str(info.value)


def test_parse_dice_keeps_of_any_size() -> None:
    assert parse_dice("", n=None) == ()
    assert parse_dice("5 3", n=None) == (3, 5)


def test_throw_is_reproducible_with_a_seeded_generator() -> None:
    a = [throw(np.random.default_rng(7), 5) for _ in range(3)]
    b = [throw(np.random.default_rng(7), 5) for _ in range(3)]
    assert a == b
    rng1, rng2 = np.random.default_rng(12345), np.random.default_rng(12345)
    seq1 = [throw(rng1, k) for k in (5, 3, 1, 0, 5)]
    seq2 = [throw(rng2, k) for k in (5, 3, 1, 0, 5)]
    assert seq1 == seq2
    assert [len(s) for s in seq1] == [5, 3, 1, 0, 5]
    assert all(s == tuple(sorted(s)) and all(1 <= v <= 6 for v in s) for s in seq1)


def test_throw_frequencies_look_fair() -> None:
    rng = np.random.default_rng(2024)
    faces = Counter(v for _ in range(6000) for v in throw(rng, 1))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in faces.values())


@given(dice5, st.randoms(use_true_random=False))
def test_parse_dice_ignores_order_and_format(values: list[int], rnd: random.Random) -> None:
    shuffled = list(values)
    rnd.shuffle(shuffled)
    want = tuple(sorted(values))
    assert parse_dice(" ".join(map(str, shuffled))) == want
    assert parse_dice("".join(map(str, shuffled))) == want
    assert parse_dice(",".join(map(str, shuffled))) == want
    assert Dice.of(*shuffled).values == want
    assert str(Dice.of(*shuffled)) == " ".join(map(str, want))


@given(dice5)
def test_counts_round_trip(values: list[int]) -> None:
    counts = counts_of(values)
    assert sum(counts) == 5 and len(counts) == 6
    assert from_counts(counts) == tuple(sorted(values))
    assert Dice.of(*values).counts() == counts
    assert Dice.of(*values).total == sum(values)
    assert tuple(sorted(values)) in space().roll_index


@settings(max_examples=30)
@given(dice5)
def test_sub_keeps_of_a_throw_are_keeps(values: list[int]) -> None:
    sp = space()
    roll = tuple(sorted(values))
    subs = sp.sub_keeps(roll)
    assert subs[0] == () and subs[-1] == roll
    assert len(set(subs)) == len(subs)
    assert all(k in sp.keep_index for k in subs)
    # each keep can lead back to the throw it came from
    for k in subs:
        assert roll in {r for r, _ in sp.outcomes_of_keep(k)}


@pytest.mark.parametrize(("dice", "faces"), [(5, 6), (3, 4), (6, 6), (1, 6), (2, 2)])
def test_keep_groups_give_the_padded_tables_best_keep(dice: int, faces: int) -> None:
    """The flat keep groups hold exactly the real entries of ``rsub``, throw by throw, and their ``reduceat``
    maximum is each throw's best keep as the padded ``rsub``/``valid`` tables give it, to the last bit."""
    trans, rsub, valid, empty = transition_tables(dice, faces)
    flat, starts = keep_groups(dice, faces)
    assert len(starts) == rsub.shape[0] and len(flat) == int(valid.sum())
    ends = [*starts[1:], len(flat)]
    for r in range(rsub.shape[0]):
        assert list(flat[starts[r] : ends[r]]) == list(rsub[r][valid[r]])
        assert int(empty[0]) in flat[starts[r] : ends[r]]  # every group can re-throw all the dice: never empty
    assert not flat.flags.writeable and not starts.flags.writeable
    rng = np.random.default_rng(dice * 10 + faces)
    for _ in range(20):
        e = rng.normal(size=trans.shape[0]) * rng.choice([1e-3, 1.0, 1e6])
        want = np.where(valid, e[rsub], -np.inf).max(axis=1)
        assert np.array_equal(np.maximum.reduceat(e[flat], starts), want)
        batch = rng.normal(size=(3, trans.shape[0]))
        want2 = np.where(valid[None], batch[:, rsub], -np.inf).max(axis=2)
        assert np.array_equal(np.maximum.reduceat(batch[:, flat], starts, axis=1), want2)
