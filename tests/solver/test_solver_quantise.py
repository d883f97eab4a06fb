"""The win tables' uint16 quantisation written over the float table's own buffer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasch.solver._target import quantise, quantise_consuming


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 70),
    w=st.integers(1, 9),
    rows=st.integers(1, 20),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_consuming_quantisation_equals_the_copying_one(n: int, w: int, rows: int, dtype: type, seed: int) -> None:
    theta = np.random.default_rng(seed).uniform(-0.2, 1.2, (n, w)).astype(dtype)
    want = quantise(theta.copy(), rows)
    holder = [theta]
    del theta
    got = quantise_consuming(holder, rows)
    assert holder == []
    assert got.dtype == np.uint16 and got.shape == (n, w)
    np.testing.assert_array_equal(got, want)


def test_the_float_buffer_is_reused_and_shrunk() -> None:
    theta = np.empty((4096, 64), np.float32)  # owns its buffer, as a build's table does
    theta[...] = np.linspace(0.0, 1.0, 4096 * 64).reshape(4096, 64)
    want = quantise(theta.copy())
    holder = [theta]
    del theta
    got = quantise_consuming(holder, rows=100)
    np.testing.assert_array_equal(got, want)
    base = got.base
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    assert isinstance(base, np.ndarray) and base.dtype == np.float32  # the float table's own buffer
    assert base.nbytes == got.nbytes  # shrunk to the uint16 table: half its float32 elements are left


@pytest.mark.parametrize("kind", ["view", "shared"])
def test_a_buffer_that_cannot_be_reused_is_copied_and_left_alone(kind: str) -> None:
    full = np.random.default_rng(1).random((50, 6))
    theta = full[::2] if kind == "view" else full
    before = full.copy()
    got = quantise_consuming([theta], rows=7)
    np.testing.assert_array_equal(got, quantise(theta))
    np.testing.assert_array_equal(full, before)  # another reference sees its values unchanged
