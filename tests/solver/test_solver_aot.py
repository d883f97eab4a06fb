"""Kernels compiled ahead of time (``pasch.solver._aot``): same bits as the JIT's, used wherever they may be,
without Numba and without the GIL."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import get
from pasch.solver import Solver, _aot
from pasch.solver._prep import prepare, tables
from pasch.solver._table import build_values, new_values

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
    stamp = json.loads(Path(str(module.__file__) + ".stamp").read_text())  # type: ignore[attr-defined]
    assert stamp["sources"] == _aot.source_stamp(), (
        "the kernels changed since the install compiled them (they are not used then): "
        "pip install -e . (or python -m pasch.solver._aot src/pasch/solver)"
    )
    assert set(stamp["args"]) == set(_aot.EXPORTS)


@pytest.mark.parametrize("rules_id", ["yacht", "kniffel-classic+strict+sharp", "yahtzee+forced"])
def test_the_module_builds_and_simulates_the_same_bits_as_the_jit(rules_id: str) -> None:
    module = _module()
    p = prepare(get(rules_id))
    t = tables(p, np.float32)
    values, reads = new_values(p, np.float32)
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
import sys
from pasch.solver import Solver, compiled
print(compiled("build"), compiled("simulate"))
s = Solver.load("yacht", use_cache=False)
games = s.simulate(100, seed=5)
s = Solver.load("yacht", use_cache=False)  # and again: every call, not the first only
games2 = s.simulate(100, seed=5)
print("numba" in sys.modules, sorted(m for m in sys.modules if m.startswith("pasch.solver._k")))
print(round(s.expected_start, 4), int(games.sum()), int(games2.sum()))
"""


def test_a_process_builds_and_simulates_with_the_module_without_importing_numba(tmp_path: Path) -> None:
    _module()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": "0", "PASCH_AOT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST], env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    ready, imported, values = done.stdout.strip().splitlines()
    assert ready == "True True"  # the CLI's first-use notice stays silent
    assert imported == "False []"  # neither Numba nor a JIT kernel module
    solver = Solver.load("yacht", use_cache=False)
    total = int(solver.simulate(100, seed=5).sum())
    assert values == f"{round(solver.expected_start, 4)} {total} {total}"


def test_the_module_answers_where_it_may(monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    p = prepare(get("yacht"))
    values = np.zeros((1 << p.n_boxes, p.n_flags, p.lanes), np.float32)
    args = (values, values, p.masks, p.hi, 0, 0, tables(p, np.float32), 0, 1)
    monkeypatch.setenv("PASCH_AOT", "0")
    assert _aot.kernel("solve_layer", args) is None  # turned off
    assert not _aot.answers("_solve_layer")
    monkeypatch.setenv("PASCH_AOT", "1")
    with _aot.jit_only():
        assert _aot.kernel("solve_layer", args) is None  # benchmarks and tests of the JIT kernels
    f64 = (values.astype(np.float64), *args[1:])
    assert _aot.kernel("solve_layer", f64) is None  # not the types it was compiled for
    assert _aot.kernel("solve_layer", args) is None  # a writable table where a read-only view belongs
    assert _aot.kernel("solve_layer", (*args[:4], np.int64(0), *args[5:])) is None  # a numpy integer
    reads = values.view()
    reads.flags.writeable = False
    good = (values, reads, *args[2:])
    assert _aot.answers("_solve_layer")
    assert not _aot.answers("_option_values")  # not compiled at install
    assert _aot.kernel("solve_layer", good) is not None
    assert _aot.kernel("solve_layer", good) is not None  # every call
    # Numba's own setting once it is imported. Imported here before the variable below is set: Numba reads
    # it on import and would keep it for the rest of the process (every later test on this worker).
    import numba

    monkeypatch.setattr(numba.config, "DISABLE_JIT", 1)
    assert _aot.kernel("solve_layer", good) is None
    monkeypatch.setattr(numba.config, "DISABLE_JIT", 0)
    assert _aot.kernel("solve_layer", good) is not None
    # The variable, read as Numba would, in a process that has not imported Numba.
    monkeypatch.delitem(sys.modules, "numba")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert _aot.kernel("solve_layer", good) is None


@pytest.mark.parametrize(
    "rules_id", ["yahtzee", "yatzy", "kniffel", "kniffel-classic+strict+sharp", "yacht", "kniffel+upward"]
)
def test_every_rule_set_passes_the_types_the_module_was_compiled_for(
    rules_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module()
    monkeypatch.setenv("PASCH_AOT", "1")
    p = prepare(get(rules_id))
    t = tables(p, np.float32)
    values, reads = new_values(p, np.float32)
    assert _aot.kernel("solve_layer", (values, reads, p.masks, p.hi, 0, 0, t, 0, 1)) is not None
    assert _aot.kernel("simulate_many", (reads, 10, 3, t, np.zeros(10, np.int64), 0, 1)) is not None


def test_the_module_releases_the_gil_during_a_call() -> None:
    module = _module()
    p = prepare(get("yahtzee"))
    t = tables(p, np.float32)
    values, reads = new_values(p, np.float32)

    during: list[float] = []
    span: list[float] = []

    def call() -> None:
        span.append(time.perf_counter())
        # One long call (every state at once: the values are not the point here), about 0.5 s.
        module.solve_layer(values, reads, p.masks, p.hi, 0, len(p.masks), t, 0, 1)  # type: ignore[attr-defined]
        span.append(time.perf_counter())

    worker = threading.Thread(target=call)
    worker.start()
    while worker.is_alive():  # this thread runs Python only while the call has let go of the GIL
        during.append(time.perf_counter())
    worker.join()
    start, end = span
    # Away from the call's ends (where this thread may run before the call holds the GIL, if it did).
    inside = [x for x in during if start + 0.05 < x < end - 0.05]
    assert end - start > 0.2
    assert len(inside) > 1000, (len(inside), end - start)


def test_a_module_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setenv("PASCH_AOT", "1")
    monkeypatch.setattr(_aot, "_state", {"module": None, "loaded": False, "off": 0, "args": {}})
    assert _aot.available()
    monkeypatch.setattr(_aot, "_state", {"module": None, "loaded": False, "off": 0, "args": {}})
    monkeypatch.setattr(_aot, "source_stamp", lambda: "other")
    assert not _aot.available()


def test_describe_tells_numba_types_apart() -> None:
    from numba import typeof

    a = np.zeros((2, 3), np.float32)
    ro = a.view()
    ro.flags.writeable = False
    samples = [a, ro, a.T, a[:, ::2], a.astype(np.float64), np.zeros(3, np.int32), 1, 2.0, np.float32(1), (a, 1)]
    for x in samples:
        for y in samples:
            same_type = typeof(x) == typeof(y)  # type: ignore[no-untyped-call]
            assert (_aot.describe(x) == _aot.describe(y)) == same_type, (x, y)
