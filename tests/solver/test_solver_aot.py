"""Kernels compiled ahead of time (``pasch.solver._aot``): same bits as the JIT's, used only where they may be."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import get
from pasch.solver import Solver, _aot
from pasch.solver._prep import prepare, tables
from pasch.solver._table import build_values

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="the JIT is off")


def _module() -> object:
    try:
        module = importlib.import_module(f"pasch.solver.{_aot.MODULE}")
    except ImportError:
        if os.environ.get("CI"):  # the install (hatch_build.py) must have built it in CI
            raise
        pytest.skip("the ahead-of-time module is not built here (pip install builds it)")
    return module


def test_the_installed_module_was_built_from_these_sources() -> None:
    module = _module()
    stamp = Path(str(module.__file__) + ".stamp").read_text().strip()  # type: ignore[attr-defined]
    assert stamp == _aot.source_stamp(), (
        "the kernels changed since the install compiled them (they are not used then): "
        "pip install -e . (or python -m pasch.solver._aot src/pasch/solver)"
    )


@pytest.mark.parametrize("rules_id", ["yacht", "kniffel-classic+strict+sharp", "yahtzee+forced"])
def test_the_module_builds_and_simulates_the_same_bits_as_the_jit(rules_id: str) -> None:
    module = _module()
    p = prepare(get(rules_id))
    t = tables(p, np.float32)
    values = np.zeros((1 << p.n_boxes, p.n_flags, p.lanes), np.float32)
    reads = values.view()
    reads.flags.writeable = False
    for layer in range(p.n_boxes - 1, -1, -1):
        lo, hi = int(p.layer_start[layer]), int(p.layer_start[layer + 1])
        if hi > lo:
            module.solve_layer(values, reads, p.masks, p.hi, lo, hi, t, 0, 1)  # type: ignore[attr-defined]
    jit = build_values(p)
    np.testing.assert_array_equal(values, jit)
    out = np.zeros(300, np.int64)
    module.simulate_many(reads, 300, 11, t, out, 0, 1)  # type: ignore[attr-defined]
    solver = Solver.load(rules_id, use_cache=False)
    np.testing.assert_array_equal(out, solver.simulate(300, seed=11))


_FIRST = """
import numpy as np
from pasch.solver import Solver, _aot, compiled
from pasch.solver._kbuild import _solve_layer
from pasch.solver._kmany import _simulate_many
print(compiled("build"), compiled("simulate"))
s = Solver.load("yacht", use_cache=False)
games = s.simulate(100, seed=5)
print(sorted(_aot._used), len(_solve_layer.signatures), len(_simulate_many.signatures))
print(compiled("build"), round(s.expected_start, 4), int(games.sum()))
"""


def test_a_fresh_process_answers_its_first_build_and_simulation_without_compiling(tmp_path: Path) -> None:
    _module()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": "0", "PASCH_AOT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST], env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    ready, used, after = done.stdout.strip().splitlines()
    assert ready == "True True"  # the CLI's first-use notice stays silent
    assert used == "['simulate_many', 'solve_layer'] 0 0"  # nothing compiled
    solver = Solver.load("yacht", use_cache=False)
    assert after == f"False {round(solver.expected_start, 4)} {int(solver.simulate(100, seed=5).sum())}"


def test_the_module_answers_only_where_it_may(monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    p = prepare(get("yacht"))
    values = np.zeros((1 << p.n_boxes, p.n_flags, p.lanes), np.float32)
    args = (values, values, p.masks, p.hi, 0, 0, tables(p, np.float32), 0, 1)
    monkeypatch.setattr(_aot, "_used", set())
    monkeypatch.setattr("pasch.solver._compile.ready", lambda name: False)
    monkeypatch.setenv("PASCH_AOT", "0")
    assert _aot.kernel("solve_layer", args) is None  # turned off
    monkeypatch.setenv("PASCH_AOT", "1")
    with _aot.jit_only():
        assert _aot.kernel("solve_layer", args) is None  # warm_up compiles the JIT kernels
    f64 = (values.astype(np.float64), *args[1:])
    assert _aot.kernel("solve_layer", f64) is None  # not the types it was compiled for
    assert _aot.kernel("solve_layer", args) is None  # a writable table where a read-only view belongs
    monkeypatch.setattr(_aot, "_used", set())
    reads = values.view()
    reads.flags.writeable = False
    good = (values, reads, *args[2:])
    assert _aot.answers("_solve_layer")
    assert _aot.kernel("solve_layer", good) is not None
    assert not _aot.answers("_solve_layer")
    assert _aot.kernel("solve_layer", good) is None  # its first call only
    monkeypatch.setattr(_aot, "_used", set())
    monkeypatch.setattr("pasch.solver._compile.ready", lambda name: True)
    assert _aot.kernel("solve_layer", good) is None  # the JIT kernel is ready: faster


def test_a_module_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setenv("PASCH_AOT", "1")
    monkeypatch.setattr(_aot, "_state", {"module": None, "loaded": False, "off": 0})
    assert _aot.available()
    monkeypatch.setattr(_aot, "_state", {"module": None, "loaded": False, "off": 0})
    monkeypatch.setattr(_aot, "source_stamp", lambda: "other")
    assert not _aot.available()
