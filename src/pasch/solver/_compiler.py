"""The table build's first compilation, on two cores (private).

Numba compiles one function at a time per process, and a first build on an install compiles the build's
pieces and then ``_kbuild._solve_layer`` (seconds of CPU: ``bench/coldstart.py`` measures it). When a core
is free, :func:`ready_to_build` starts a second process (:func:`second`), which compiles :data:`PIECES` into
Numba's disk cache while the first process compiles ``_turn`` and the others; the first then loads these
from the cache. Numba's public API only: ``dispatcher.compile``, ``dispatcher.stats`` and ``numba.typeof``.

The argument types are those ``_solve_layer`` passes (float32 tables); a piece compiled here for other
types would only be compiled again by the first process (a test checks that it is not).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np

from pasch.rules import get
from pasch.solver._jit import compiled_for, ensure, jit_disabled, notice
from pasch.solver._prep import prepare, tables

__all__ = ["PIECES", "piece_types", "ready_to_build", "second", "second_pays"]

PIECES = ("_rows", "_stops", "_expect")
"""The pieces the second process compiles (the first compiles ``_turn``, the biggest, ``_legal`` and ``_rebase``)."""


def piece_types(name: str) -> tuple[Any, ...]:
    """The Numba types of the arguments ``_kbuild._solve_layer`` passes to a piece of ``_kparts`` (float32).

    Raises:
        KeyError: not a piece of the build.
    """
    from numba import typeof

    t = tables(prepare(get("yacht")), np.float32)
    reads = np.zeros((1, 1, 1), np.float32)
    reads.flags.writeable = False  # the table a build reads: a read-only view of the one it writes
    i, f32 = np.int64(0), np.float32
    row = np.empty((1, 1), f32)
    stop = np.empty((1, 1, 1), f32)
    legal, n32 = np.empty((1, 1), np.int32), np.empty(1, np.int32)
    args: dict[str, tuple[Any, ...]] = {
        "_rows": (reads, i, i, i, i, t, row),
        "_legal": (i, i, t, legal, n32, n32),
        "_rebase": (row, i, i, t, np.empty(1, f32)),
        "_stops": (row, i, legal, n32, n32, t, stop),
        "_turn": (stop, row, row, row, i, i, t, stop),
        "_expect": (row, row, stop, i, i, t, np.empty(1, np.float64)),
    }
    return tuple(typeof(a) for a in args[name])  # type: ignore[no-untyped-call]


def second_pays() -> bool:
    """Whether a second compiling process pays: ``PASCH_COMPILE_PROCESS=1`` always (with two cores or
    more), ``0`` never, unset when a core looks free (the one-minute load average below the cores minus
    one half). On a busy machine the second process's start and the contention ate what it saved."""
    cores = os.cpu_count() or 1
    wanted = os.environ.get("PASCH_COMPILE_PROCESS", "")
    if cores < 2 or wanted == "0" or jit_disabled():
        return False
    try:
        return wanted == "1" or os.getloadavg()[0] < cores - 0.5
    except (AttributeError, OSError):  # no load average on this platform
        return False


def ready_to_build(args: tuple[Any, ...]) -> None:
    """Compile (or load) the table build's kernel for a float32 build's ``args``, on two cores the first time.

    Numba's cache is probed with the smallest piece (its ``stats`` tell a load from a compilation): a
    compilation means a first build on this install, and when :func:`second_pays` a second process
    compiles some pieces (``_compiler``) while this one compiles the others.
    """
    from pasch.solver._kbuild import _solve_layer

    if compiled_for(_solve_layer, args):
        return
    from pasch.solver import _kparts

    with notice("compiling the solver's table build"):
        if second_pays():
            sig = piece_types("_rebase")
            _kparts._rebase.compile(sig)
            if _kparts._rebase.stats.cache_misses[sig]:
                _share(_kparts)
        ensure(_solve_layer, args)


def _share(kparts: Any) -> None:
    """Compile the pieces on two cores: :data:`PIECES` in a second process, the others here."""
    argv = [
        sys.executable,
        "-c",
        "import sys; from pasch.solver._compiler import second; sys.exit(second(sys.argv[1:]))",
    ]
    try:
        child = subprocess.Popen(
            [*argv, *PIECES], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError:  # no interpreter to start (an embedded Python): this process compiles them all
        return
    try:
        for name in ("_turn", "_legal"):
            getattr(kparts, name).compile(piece_types(name))
        child.wait(timeout=600)
    except subprocess.TimeoutExpired:
        child.kill()


def second(names: list[str]) -> int:
    """The second process: compile the named pieces of ``_kparts`` into Numba's cache, printing each name."""
    from pasch.solver import _kparts

    for name in names:
        getattr(_kparts, name).compile(piece_types(name))
        print(name, flush=True)
    return 0
