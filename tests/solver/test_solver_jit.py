"""Compiling the kernels (``pasch.solver._jit``): a notice for a slow compilation only; a first build on two cores."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from pasch.solver import Solver, _jit, on_compile
from pasch.solver._kone import _option_values


def test_a_compiled_kernel_is_not_compiled_again_and_tells_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    solver = Solver.load("yacht")
    _jit.ensure(_option_values, solver._option_args)  # compiled (or loaded) now, whatever it took
    monkeypatch.setattr(_jit, "NOTICE_AFTER", 0.0)  # any compilation from here on would be told at once
    heard: list[str] = []
    remove = on_compile(heard.append)
    try:
        before = list(_option_values.signatures)
        _jit.ensure(_option_values, solver._option_args)
        assert _option_values.signatures == before
    finally:
        remove()
    assert heard == []


def test_a_slow_block_is_told_once_to_every_listener_and_a_quick_one_never(monkeypatch: pytest.MonkeyPatch) -> None:
    told = threading.Event()
    heard: list[str] = []

    def listener(message: str) -> None:
        heard.append(message)
        told.set()

    remove = on_compile(listener)
    try:
        monkeypatch.setattr(_jit, "NOTICE_AFTER", 0.0)
        with _jit.notice("compiling the solver's test kernel"):
            assert told.wait(60), "the notice never came"  # the block outlasts the notice's delay
        monkeypatch.setattr(_jit, "NOTICE_AFTER", 3600.0)
        with _jit.notice("never told"):
            pass
    finally:
        remove()
    assert heard == ["compiling the solver's test kernel"]


def test_a_removed_listener_hears_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    on_compile(heard.append)()  # added and removed at once
    monkeypatch.setattr(_jit, "NOTICE_AFTER", 0.0)
    _jit._tell("compiling")
    assert heard == []


@pytest.mark.parametrize(
    ("setting", "cores", "load", "pays"),
    [
        ("1", 2, 9.0, True),
        ("0", 2, 0.0, False),
        ("", 2, 0.5, True),
        ("", 2, 1.6, False),
        ("1", 1, 0.0, False),
    ],
)
def test_a_second_compiling_process_only_where_a_core_is_free(
    monkeypatch: pytest.MonkeyPatch, setting: str, cores: int, load: float, pays: bool
) -> None:
    monkeypatch.setenv("PASCH_COMPILE_PROCESS", setting)
    monkeypatch.setattr(_jit.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(_jit.os, "getloadavg", lambda: (load, load, load))
    assert _jit.second_pays() is pays


def test_compiled_for_tells_the_types_apart() -> None:
    solver = Solver.load("yacht")
    _jit.ensure(_option_values, solver._option_args)
    assert _jit.compiled_for(_option_values, solver._option_args)
    args = list(solver._option_args)
    args[-1] = np.empty(args[-1].shape, np.float32)  # another dtype: another compilation
    assert not _jit.compiled_for(_option_values, tuple(args))


_FIRST_BUILD = """
from pasch.rules import get
from pasch.solver import _jit, _kparts, build_values

values = build_values(get("yahtzee+forced"))
for name in ("_rows", "_stops", "_expect", "_turn", "_legal", "_rebase"):
    kernel = getattr(_kparts, name)
    sig = _jit.piece_types(name)
    print(name, kernel.signatures == [sig], kernel.stats.cache_hits[sig], kernel.stats.cache_misses[sig])
print("expected", round(float(values[0, 0, 0]), 4))
"""


def test_a_first_build_shares_its_compilation_with_a_second_process(tmp_path: Path) -> None:
    """The second process's pieces are loaded from its cache (a hit, not compiled again), each for the one
    signature the build uses; this process compiles the others; the table is the one a build gives."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env |= {"NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_BUILD], env=env, capture_output=True, text=True, timeout=900, check=True
    )
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    for name in _jit.PIECES:
        assert rows[name] == ["True", "1", "0"], (name, rows[name])  # loaded from the second process's cache
    for name in ("_turn", "_legal", "_rebase"):
        assert rows[name] == ["True", "0", "1"], (name, rows[name])  # compiled here
    assert rows["expected"] == [str(round(Solver.load("yahtzee+forced").expected_start, 4))]
