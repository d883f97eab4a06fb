# ruff: noqa: N806  (T: the Tables record, as in the kernels)
"""Compiling the solver's kernels ahead of their first call, on both cores.

Private. Numba compiles one function at a time per process, and a first command spends most of its
time there. This process compiles the biggest piece of the table build, ``_kparts._turn`` (1.75 s of
CPU), and two small ones, while :func:`compile_in_background` hands the others (``_rows``, ``_stops``,
``_expect``: 1.2 s, and for simulation the simulation kernels) to a second Python process, which
writes Numba's on-disk cache; the kernels then load the second process's work from the cache instead
of compiling it. The second process takes the smaller share because it starts about 0.7 s later
(Python and Numba imports). Measured on the idle 2-core machine, a first ``pasch solve --rules
yahtzee`` took 4.69-4.71 s with this split, 4.92-4.94 s with every piece but ``_turn`` in the second
process, 4.83-4.85 s with ``_expect`` here too. For a simulation the second process takes only
``_stops`` of the build and then the simulation kernels; this process compiles the rest (:func:`mine`).

Every kernel is compiled for one signature (float32 tables, int64 scalars, C-contiguous arrays),
built here from the types of a tiny rule set's :class:`~pasch.solver._prep.Tables`: they are the
types the kernels meet in a build, a batch or a simulation, so nothing is compiled twice.

Run as ``python -m pasch.solver._compile NAME...`` it compiles the named kernels and prints each name
when it is in the cache.

When it runs: ``PASCH_COMPILE_PROCESS=1`` always (with two cores or more), ``0`` never, and unset
only when a core is free (:func:`core_free`: the one-minute load average below the number of cores
minus one half; a command just started adds little to it yet). Measured on this project's
2-core machine, a first ``pasch solve --rules yahtzee`` took 4.7-5.0 s with the second process against
6.0-6.2 s without when the machine was otherwise idle; with older kernels, at load 3.5, it took 13.5 s
with against 11.6-12.8 s without: the second process's start and the contention ate the overlap.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

__all__ = [
    "BUILD_PIECES",
    "SECOND",
    "compile_in_background",
    "compile_kernels",
    "core_free",
    "mine",
    "ready",
    "second_running",
    "signature",
    "wait_for",
]

BUILD_PIECES = ("_turn", "_legal", "_rebase", "_rows", "_expect", "_stops")
"""The table build's pieces, in the order this process compiles those no second process covers."""

SECOND = {
    "build": ("_rows", "_stops", "_expect"),
    "simulate": ("_stops", "_rows_many", "_stops_many", "_simulate_many"),
}
"""Per task, the kernels the second process compiles, in order. For a simulation it takes fewer of the
build's pieces: the simulation kernels are its larger share (a first ``pasch simulate --games 1000``
waited about 2 s for them when it also took ``_rows`` and ``_expect``)."""


def mine() -> tuple[str, ...]:
    """The build's pieces this process compiles itself: those no second process covers."""
    return tuple(n for n in BUILD_PIECES if n not in _COVER)


_HOME = {
    "_rows": "_kparts",
    "_legal": "_kparts",
    "_stops": "_kparts",
    "_turn": "_kparts",
    "_expect": "_kparts",
    "_rebase": "_kparts",
    "_rows_many": "_kparts",
    "_stops_many": "_kparts",
    "_solve_layer": "_kbuild",
    "_simulate_many": "_kmany",
}


def _kernel(name: str) -> Any:
    return getattr(importlib.import_module(f"pasch.solver.{_HOME[name]}"), name)


@cache
def _types() -> dict[str, Any]:
    import numpy as np
    from numba import typeof

    from pasch.rules import get
    from pasch.solver._prep import prepare, tables

    f32, i32, f64, i64 = np.float32, np.int32, np.float64, np.int64

    def arr(dtype: type, ndim: int, writeable: bool = True) -> Any:
        a: Any = np.empty((1,) * ndim, dtype)
        a.flags.writeable = writeable
        return typeof(a)  # type: ignore[no-untyped-call]

    return {
        "T": typeof(tables(prepare(get("yahtzee+forced")), np.float32)),  # type: ignore[no-untyped-call]
        "i": typeof(0),  # type: ignore[no-untyped-call]
        "f1": arr(f32, 1),
        "f2": arr(f32, 2),
        "f3": arr(f32, 3),
        "r3": arr(f32, 3, writeable=False),  # a solver's table: read-only (memory-mapped, or built and frozen)
        "d1": arr(f64, 1),
        "n1": arr(i32, 1),
        "n2": arr(i32, 2),
        "l1": arr(i64, 1),
    }


def signature(name: str) -> tuple[Any, ...]:
    """The argument types a kernel is compiled for (float32 tables).

    Raises:
        KeyError: a kernel this module does not know.
    """
    t = _types()
    T, i, f1, f2, f3, r3 = (t[k] for k in ("T", "i", "f1", "f2", "f3", "r3"))
    d1, n1, n2, l1 = (t[k] for k in ("d1", "n1", "n2", "l1"))
    return {
        "_rows": (r3, i, i, i, i, T, f2),
        "_legal": (i, i, T, n2, n1, n1),
        "_stops": (f2, i, n2, n1, n1, T, f3),
        "_turn": (f3, f2, f2, f2, i, i, T, f3),
        "_expect": (f2, f2, f3, i, i, T, d1),
        "_rebase": (f2, i, i, T, f1),
        "_rows_many": (r3, l1, l1, l1, i, T, f2, f1),
        "_stops_many": (f2, f2, i, l1, l1, T, f3, n1),
        "_solve_layer": (f3, r3, l1, n1, i, i, T, i, i),
        "_simulate_many": (r3, i, i, T, l1, i, i),
    }[name]


def _jit() -> bool:
    from numba import config

    return not config.DISABLE_JIT  # type: ignore[attr-defined]


def ready(name: str) -> bool:
    """Whether a kernel runs without compiling: compiled in this process, or in Numba's disk cache."""
    kernel = _kernel(name)
    if getattr(kernel, "py_func", None) is None or kernel.signatures:
        return True
    try:  # Numba's on-disk index of this kernel (empty when missing or stale); private to Numba
        return bool(kernel._cache._cache_file._load_index())
    except Exception:
        return False


def compile_kernels(names: Iterable[str], done: Callable[[str], None] | None = None) -> None:
    """Compile (or load from Numba's cache) kernels for their :func:`signature`, in order.

    Args:
        names: kernel names (keys of this module's table).
        done: called with each name once it is compiled.

    Raises:
        KeyError: an unknown kernel name.
    """
    for name in names:
        kernel = _kernel(name)
        if getattr(kernel, "py_func", None) is not None:
            kernel.compile(signature(name))
        if done is not None:
            done(name)


def core_free() -> bool:
    """Whether a core looks free for a second compiling process: the one-minute load average is below the
    number of cores minus one half (a command just started adds little to it yet). False where the
    load average cannot be read."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on this platform
        return False
    return load < (os.cpu_count() or 1) - 0.5


class _Second:
    """The second process: its pipe tells which kernels it has put in the cache."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.finished: set[str] = set()
        self._cond = threading.Condition()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "pasch.solver._compile", *names],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        threading.Thread(target=self._read, name="pasch-compile-pipe", daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            with self._cond:
                self.finished.add(line.strip())
                self._cond.notify_all()
        self._proc.wait()
        with self._cond:
            self.finished.update(self.names)  # done or failed: nothing more to wait for
            self._cond.notify_all()

    def running(self) -> bool:
        """Whether the process is still compiling (or starting, or exiting)."""
        return self._proc.poll() is None

    def wait(self, name: str, timeout: float = 300.0) -> None:
        """Block until the second process has cached ``name`` (or stopped)."""
        with self._cond:
            self._cond.wait_for(lambda: name in self.finished, timeout)


_COVER: dict[str, _Second] = {}  # kernel name -> the second process compiling it
_LOCK = threading.Lock()


def compile_in_background(task: str) -> None:
    """Start compiling a task's kernels in a second process, while this one goes on with its own.

    Does nothing with ``PASCH_COMPILE_PROCESS=0``, or unset when no core is free (see the module
    docstring), and nothing when those kernels are ready, when a second process already runs (one at a
    time; :func:`mine` then leaves this process the pieces it does not cover), when Numba's JIT is off,
    or when there is one core.
    Before calling a kernel the second process compiles, call :func:`wait_for`; a kernel the second
    process failed to cache is simply compiled on its first call, as without this.

    Args:
        task: ``build`` or ``simulate``.

    Raises:
        KeyError: an unknown task.
    """
    names = SECOND[task]
    if not _jit() or (os.cpu_count() or 1) < 2:
        return
    wanted = os.environ.get("PASCH_COMPILE_PROCESS", "")
    if wanted == "0" or (wanted != "1" and not core_free()):
        return
    with _LOCK:
        if _COVER:  # one second process per process: a build after ``compile_ahead`` shares that one
            return
        todo = tuple(n for n in names if not ready(n))
        if not todo:
            return
        try:
            second = _Second(todo)
        except OSError:  # no Python to start (an embedded interpreter, say): compile here instead
            return
        for name in todo:
            _COVER[name] = second


def second_running() -> bool:
    """Whether a second process of this one is still compiling.

    A table build then runs on one thread: the second process keeps a core to itself, and the build
    waits for it afterwards anyway (a first ``pasch simulate``).
    """
    with _LOCK:
        seconds = list(_COVER.values())
    return any(second.running() for second in seconds)


def wait_for(name: str, timeout: float = 300.0) -> None:
    """Block until a second process compiling kernel ``name`` has cached it (or stopped); else return."""
    with _LOCK:
        second = _COVER.get(name)
    if second is not None:
        second.wait(name, timeout)


def _main(argv: list[str]) -> int:
    def done(name: str) -> None:
        print(name, flush=True)

    compile_kernels(argv, done)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
