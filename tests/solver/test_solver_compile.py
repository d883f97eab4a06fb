"""Compiling ahead: the signatures match the kernels' real calls, and a second process fills the cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import get
from pasch.solver import _compile as comp
from pasch.solver import compile_ahead


def test_unknown_task_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot compile 'advise' ahead"):
        compile_ahead("advise")
    with pytest.raises(KeyError):
        comp.signature("_nope")


_FIRST_USE = """
from pasch.solver import Solver, _compile
Solver.load("yahtzee+forced", use_cache=False).simulate(3, seed=1)
for name in _compile._HOME:
    sigs = _compile._kernel(name).signatures
    assert sigs == [_compile.signature(name)], (name, sigs)
print("ok")
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
def test_a_first_build_and_simulation_compile_each_kernel_once_for_its_signature(tmp_path: Path) -> None:
    """Fresh Numba cache, all in one process: each kernel is compiled once, for the signature given here."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_USE], env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok"]


_CHILD = """
import sys
from pasch.solver import _compile
names = _compile.SECOND["build"]
assert not any(_compile.ready(n) for n in names)
_compile.compile_in_background("build")
assert set(_compile._COVER) == (set(names) if sys.argv[1] == "1" else set()), _compile._COVER
for n in names:
    _compile.wait_for(n)
print(all(_compile.ready(n) for n in names), all(_compile._kernel(n).signatures == [] for n in names))
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
@pytest.mark.parametrize("enabled", ["1", "0"])
def test_a_second_process_puts_the_build_pieces_in_numbas_cache(tmp_path: Path, enabled: str) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": enabled}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, enabled], env=env, capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    # Enabled: ready from the cache without compiling in this process; disabled: nothing was compiled.
    assert done.stdout.split() == (["True", "True"] if enabled == "1" else ["False", "True"])


def test_a_core_is_free_below_the_cores_minus_one_half(monkeypatch: pytest.MonkeyPatch) -> None:
    from pasch.solver import _compile

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 0.0, 0.0))
    assert _compile.core_free()
    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 0.0, 0.0))
    assert not _compile.core_free()

    def unreadable() -> tuple[float, float, float]:
        raise OSError("no load average here")

    monkeypatch.setattr(os, "getloadavg", unreadable)
    assert not _compile.core_free()


@pytest.mark.parametrize(
    ("setting", "free", "started"),
    [("", True, True), ("", False, False), ("1", False, True), ("0", True, False)],
)
def test_the_second_process_starts_unasked_only_when_a_core_is_free(
    monkeypatch: pytest.MonkeyPatch, setting: str, free: bool, started: bool
) -> None:
    from pasch.solver import _compile

    began: list[tuple[str, ...]] = []
    monkeypatch.setattr(_compile, "_COVER", {})
    monkeypatch.setattr(_compile, "_jit", lambda: True)
    monkeypatch.setattr(_compile, "ready", lambda name: False)
    monkeypatch.setattr(_compile, "core_free", lambda: free)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(_compile, "_Second", lambda names: began.append(names))
    monkeypatch.setenv("PASCH_COMPILE_PROCESS", setting)
    _compile.compile_in_background("build")
    assert began == ([_compile.SECOND["build"]] if started else [])


_RELINK = """
import numpy as np
from pasch.solver import Solver, _link
s = Solver.load("yahtzee+forced", use_cache=False)
games = s.simulate(50, seed=3)
print(_link.installed(), sorted(set(_link.relinked())), round(s.expected_start, 9), int(np.sum(games)))
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
def test_the_kernels_call_their_pieces_without_a_second_optimisation(tmp_path: Path) -> None:
    """Fresh Numba caches: the build and the simulation compile through the hook (``PASCH_RELINK=0``:
    not), and both ways give the same table and the same games."""
    out = {}
    for relink in ("1", "0"):
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": str(tmp_path / relink),
            "PASCH_COMPILE_PROCESS": "0",
            "PASCH_RELINK": relink,
        }
        done = subprocess.run(
            [sys.executable, "-c", _RELINK], env=env, capture_output=True, text=True, check=False, timeout=600
        )
        assert done.returncode == 0, done.stderr
        out[relink] = done.stdout.rsplit(maxsplit=2)
    assert out["1"][0] == "True ['_simulate_many', '_solve_layer']"
    assert out["0"][0] == "False []"
    assert out["1"][1:] == out["0"][1:]  # the expected score, and the 50 games' total


_LOAD = """
import sys
from numba import njit
if sys.argv[1] == "shift":  # one more compiled function first: the pieces compiled here get other symbols
    njit(lambda x: x + 1)(1)
from pasch.solver import Solver, _kbuild, _link
s = Solver.load("yahtzee+forced", use_cache=False)
print(sum(_kbuild._solve_layer._cache_hits.values()), _link.relinked(), round(s.expected_start, 9))
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
def test_a_cached_kernel_loads_its_pieces_first_even_compiled_under_another_symbol(tmp_path: Path) -> None:
    """The build kernel's cache entry refers to its pieces' code: a fresh process loads them first; when a
    piece's own entry is gone and compiling it again gives it another symbol, the kernel's entry still
    loads (the old symbol is an alias): no unresolved call, no second compile of the kernel, same table."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PASCH_COMPILE_PROCESS": "0"}

    def run(mode: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", _LOAD, mode], env=env, capture_output=True, text=True, check=False, timeout=600
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().split(maxsplit=1)

    first = run("plain")
    assert first[0] == "0" and first[1].startswith("['_solve_layer']")
    assert run("plain") == ["1", "[] " + first[1].split()[-1]]  # loaded, pieces from their own entries
    gone = list(tmp_path.rglob("_kparts._turn-*"))
    assert gone
    for f in gone:
        f.unlink()
    shifted = run("shift")  # _turn compiled again, under another symbol
    assert shifted == ["1", "[] " + first[1].split()[-1]]
    assert run("plain") == shifted


def test_a_changed_piece_makes_the_cache_entry_stale() -> None:
    import pasch.solver._kbuild  # noqa: F401  (registers its kernel, installing the hook)
    from pasch.solver import _link

    if not _link.installed():
        pytest.skip("hook not installed (NUMBA_DISABLE_JIT or another Numba)")
    from numba.core.registry import cpu_target

    from pasch.solver import _compile

    codegen = cpu_target.target_context.codegen()
    args = _compile.signature("_legal")
    _compile.compile_kernels(["_legal"])
    cres = _compile._kernel("_legal").overloads[args]
    good = _link.Piece("pasch.solver._kparts", "_legal", args, cres.fndesc.mangled_name, cres.signature.return_type)
    _link._load_piece(good, codegen)  # loads (here: already compiled) and finds its symbol
    _link._load_piece(good._replace(symbol=good.symbol + "_old"), codegen)  # another name: an alias
    import llvmlite.binding as ll

    assert ll.address_of_symbol(good.symbol + "_old") == cres.library.get_pointer_to_function(good.symbol)
    for bad in (
        good._replace(return_type="int64"),
        good._replace(name="_gone"),
        good._replace(args=args[:2]),
    ):
        with pytest.raises(_link._StalePieceError):
            _link._load_piece(bad, codegen)


def test_the_hook_leaves_other_code_libraries_alone() -> None:
    import pasch.solver._kbuild  # noqa: F401  (registers its kernel, installing the hook)
    from pasch.solver import _link

    if not _link.installed():
        pytest.skip("hook not installed (NUMBA_DISABLE_JIT or another Numba)")
    from numba import njit

    @njit
    def plain(x: int) -> int:
        return x + 1

    before = _link.relinked()
    assert plain(1) == 2
    assert _link.relinked() == before


def test_a_build_after_compile_ahead_shares_its_second_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pasch simulate`` starts the simulation's second process first; the build then starts no other one
    and compiles here every piece of the build that the simulation's process does not."""
    from pasch.solver import _compile

    began: list[tuple[str, ...]] = []
    monkeypatch.setattr(_compile, "_COVER", {})
    monkeypatch.setattr(_compile, "_jit", lambda: True)
    monkeypatch.setattr(_compile, "ready", lambda name: False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(_compile, "_Second", lambda names: began.append(names) or object())
    monkeypatch.setenv("PASCH_COMPILE_PROCESS", "1")
    assert _compile.mine() == _compile.BUILD_PIECES  # nothing covered: this process compiles them all
    _compile.compile_in_background("simulate")
    _compile.compile_in_background("build")
    assert began == [_compile.SECOND["simulate"]]
    assert _compile.mine() == ("_turn", "_legal", "_rebase", "_rows", "_expect")
    assert set(_compile.mine()) | set(_compile.SECOND["simulate"]) >= set(_compile.BUILD_PIECES)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
def test_warm_up_of_options_compiles_the_options_kernel() -> None:
    """``options`` answer in numpy until the kernel is compiled; warming them up (the web server does)
    compiles it, after which the kernel answers, with the same numbers."""
    from pasch.solver import Solver, _kone, _query, warm_up

    solver = Solver.load("yahtzee+forced", use_cache=False)
    scores: list[int | None] = [None] * solver.prep.n_boxes
    warm_up(("options",))
    assert _kone._option_values.signatures
    assert _query._options_kernel_ready()
    from pasch.solver._npquery import option_values

    key, r, _, sharp = solver._situation(scores, "13356", 2, None)
    by_numpy = option_values(solver.values, key.mask, key.flag, key.upper, r, 2, sharp, solver.tables)
    for got, want in zip(solver.option_arrays(scores, "13356", 2), by_numpy, strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("running", [True, False])
def test_a_build_runs_on_one_thread_while_a_second_process_compiles(
    monkeypatch: pytest.MonkeyPatch, running: bool
) -> None:
    """A first ``pasch simulate`` builds while its second process compiles the simulation: the build
    leaves that process a core (one thread), and takes every thread again once it has finished."""
    from pasch.solver import _compile, _table

    class Fake:
        def running(self) -> bool:
            return running

    monkeypatch.setattr(_compile, "_COVER", {"_simulate_many": Fake()})
    monkeypatch.setattr(_table, "default_threads", lambda: 2)  # the tests may run with one Numba thread
    assert _compile.second_running() is running
    used: list[int] = []
    real = _table.run_threads
    monkeypatch.setattr(_table, "run_threads", lambda kernel, n, *args: (used.append(n), real(kernel, n, *args)))
    values = _table.build_values(get("yacht"), threads=2)
    assert max(used) == (1 if running else 2)
    monkeypatch.setattr(_compile, "_COVER", {})
    assert not _compile.second_running()
    np.testing.assert_array_equal(values, _table.build_values(get("yacht"), threads=1))
