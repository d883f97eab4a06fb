"""The announced column's slack table (kniffel-4): exact where it can be checked, and what passes are worth."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from pasch.rules import Order, get
from pasch.solver import Solver
from pasch.solver._announced import _build_announced


@pytest.fixture(scope="module")
def free() -> Solver:
    rules = get("kniffel-4")
    return Solver.load(dataclasses.replace(rules, columns=(Order.FREE,), id="kniffel-4.free"))


def test_one_open_box_is_the_free_columns_exact_value(free: Solver) -> None:
    # With one box open, announcing it after the first throw loses nothing: the free table is exact there
    # (flag 0: no five-alike scored yet, so no extra points either way).
    n = len(free.rules.categories)
    full = (1 << n) - 1
    for box in (0, 3, 5, 6, 8, 9, 11, 12):
        w = _build_announced(free, 1, filled=full & ~(1 << box))
        mask = full & ~(1 << box)
        for upper in (0, 40, 55, 62, 63):
            want = float(free.values[mask, 0, upper])
            assert w[mask, upper, 0] == pytest.approx(want, abs=1e-3), (box, upper)


def test_two_open_boxes_match_a_brute_force_reference(free: Solver) -> None:
    # Two lower boxes open, no passes: announce the better box for the first throw, then the other one.
    from pasch.dice import space, transition_tables

    rules = free.rules
    n = len(rules.categories)
    full = (1 << n) - 1
    sp = space(rules.dice, rules.faces)
    trans, rsub, valid, _ = transition_tables(rules.dice, rules.faces)
    prob = sp.roll_probabilities_array()
    p = free.prep
    rolls = np.arange(len(sp.rolls))

    def aim(b: int, mask: int) -> np.ndarray:
        # The box's points in the scoring context of ``mask`` (a five-alike may be a joker once box 11 is filled).
        pts = p.cval[free.contexts(mask, 0)[0], 0, rolls, b].astype(np.float64)
        v = pts.copy()
        for _ in range(rules.throws - 1):
            e = trans @ v
            v = np.maximum(pts, np.where(valid, e[rsub], -1e18).max(axis=1))
        return v

    for a, b in itertools.combinations((6, 8, 9, 11, 12), 2):
        mask = full & ~(1 << a) & ~(1 << b)
        w = _build_announced(free, 2, filled=mask)
        ea, eb = aim(a, mask), aim(b, mask)
        va, vb = float(aim(a, mask | 1 << b) @ prob), float(aim(b, mask | 1 << a) @ prob)
        want = float(np.maximum(ea + vb, eb + va) @ prob)
        assert w[mask, 0, 0] == pytest.approx(want, abs=1e-9)
        # A pass can only help, and with a pass the first throw may be skipped once.
        assert w[mask, 0, 0] <= w[mask, 0, 1] <= w[mask, 0, 2]
        # With one pass: skip a first throw (keeping the pass's worth of the same two boxes) or use it.
        va1 = float(np.maximum(aim(a, mask | 1 << b), va) @ prob)
        vb1 = float(np.maximum(aim(b, mask | 1 << a), vb) @ prob)
        one_pass = float(np.maximum(np.maximum(ea + vb1, eb + va1), want) @ prob)
        assert w[mask, 0, 1] == pytest.approx(one_pass, abs=1e-9)


def _mini_free() -> Solver:
    """A four-box free column (fast): the announced table's cache behaviour, not its values, is tested with it."""
    k4 = get("kniffel-4")
    cats = tuple(c for c in k4.categories if c.id in ("ones", "sixes", "full_house", "yahtzee"))
    rules = dataclasses.replace(
        k4, id="mini-4.free", categories=cats, columns=(Order.FREE,), bonus_threshold=None, bonus=0
    )
    return Solver.load(rules)


def test_the_cached_table_is_checked_and_a_damaged_one_rebuilt() -> None:
    import json
    import warnings

    from pasch.solver import CacheWarning, announced_table, cache_dir

    solver = _mini_free()
    built = announced_table(solver, 3)
    files = sorted(cache_dir().glob("announced-mini-4_free*.npy"))  # a custom rule set: id~digest
    assert len(files) == 1
    side = json.loads(files[0].with_suffix(".json").read_text())
    assert side["kind"] == "announced" and side["max_slack"] == 3 and isinstance(side["crc32"], int)
    np.testing.assert_array_equal(announced_table(solver, 3), built)  # read back from the file

    data = bytearray(files[0].read_bytes())
    data[-4:] = b"\xff\xff\xff\xff"  # the last value damaged: it must not be served
    files[0].write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = announced_table(solver, 3)
    assert any(issubclass(w.category, CacheWarning) and "checksum" in str(w.message) for w in caught)
    np.testing.assert_array_equal(again, built)
    np.testing.assert_array_equal(announced_table(solver, 3), built)  # and stored again, sound


def _mini_bonus() -> Solver:
    """Five boxes, two of them upper ones with a bonus: every branch of the announced table's kernel."""
    k4 = get("kniffel-4")
    cats = tuple(c for c in k4.categories if c.id in ("twos", "sixes", "full_house", "yahtzee", "chance"))
    rules = dataclasses.replace(
        k4, id="mini-5b.free", categories=cats, columns=(Order.FREE,), bonus_threshold=20, bonus=15
    )
    return Solver.load(rules)


@pytest.mark.parametrize("filled", [0, 0b00100, 0b10001])
def test_the_kernel_matches_its_numpy_reference(filled: int) -> None:
    from pasch.solver._announced import _announced_reference

    solver = _mini_bonus()
    fast = _build_announced(solver, 3, filled=filled, threads=2)  # two threads share each layer's masks
    slow = _announced_reference(solver, 3, filled=filled)
    np.testing.assert_array_equal(_build_announced(solver, 3, filled=filled, threads=1), fast)
    assert fast.shape == slow.shape == (32, 21, 4)
    # Rows of upper totals the mask cannot hold stay 0 in the kernel's table (no state reads them).
    faces = {0: 2, 1: 6}
    for mask in range(32):
        top = min(20, sum(5 * f for b, f in faces.items() if mask >> b & 1))
        np.testing.assert_allclose(fast[mask, : top + 1], slow[mask, : top + 1], rtol=0, atol=1e-9)
        assert not fast[mask, top + 1 :].any()
    assert fast[filled, 0, 3] > fast[filled, 0, 0] > 0  # passes help, and the table is not empty
