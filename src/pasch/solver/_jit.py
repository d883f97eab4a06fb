"""Compiling the solver's kernels: Numba's JIT and its disk cache, through Numba's public API only.

Private. Every kernel is an ``@njit(cache=True)`` function of arrays and scalars: a rule set's sizes and
constants come in :class:`~pasch.solver._prep.Tables`, never as globals or closures, so one compiled
kernel serves every rule set. Numba compiles a kernel on its first use in a process that does not find
it in its disk cache. :func:`ensure` compiles (or loads) one before the solver runs it on its threads, and
when that takes over :data:`NOTICE_AFTER` seconds it tells the listeners of :func:`on_compile`.

A first table build compiles the build's pieces, then ``_kbuild._solve_layer`` (``bench/coldstart.py``
times it). When a core is free, :func:`ready_to_build` has a second process (:func:`second`) compile
:data:`PIECES` into Numba's cache meanwhile. Used: ``dispatcher.compile``, ``.signatures``, ``.stats``,
``numba.typeof``. Nothing here changes Numba or the process (no patched classes, no environment variables).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from pasch.rules import get
from pasch.solver._prep import prepare, tables

__all__ = ["NOTICE_AFTER", "PIECES", "compiled_for", "ensure", "jit_disabled", "on_compile", "piece_types"]

NOTICE_AFTER = 0.5
"""Seconds a compilation (or a load from Numba's cache) may take before the listeners hear of it."""

PIECES = ("_rows", "_stops", "_expect")
"""The build's pieces a second process compiles (this one: ``_turn``, the biggest, ``_legal``, ``_rebase``)."""

_LISTENERS: list[Callable[[str], None]] = []
_LOCK = threading.Lock()


def on_compile(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(message)`` whenever a kernel takes long to compile; returns a function that removes it."""
    with _LOCK:
        _LISTENERS.append(listener)

    def remove() -> None:
        with _LOCK:
            if listener in _LISTENERS:
                _LISTENERS.remove(listener)

    return remove


@contextmanager
def notice(message: str) -> Iterator[None]:
    """Tell the listeners ``message`` if the block takes longer than :data:`NOTICE_AFTER` seconds."""
    timer = threading.Timer(NOTICE_AFTER, _tell, (message,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _tell(message: str) -> None:
    with _LOCK:
        listeners = list(_LISTENERS)
    for listener in listeners:
        listener(message)


def jit_disabled() -> bool:
    """Whether Numba's JIT is off (``NUMBA_DISABLE_JIT``): Numba's reading once it is imported, else the
    environment's (asking must not import Numba)."""
    numba = sys.modules.get("numba")
    if numba is not None:
        return bool(numba.config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")


def compiled_for(kernel: Any, args: tuple[Any, ...]) -> bool:
    """Whether a kernel is compiled in this process for these arguments' types (True without the JIT)."""
    if getattr(kernel, "py_func", None) is None:
        return True
    from numba import typeof

    return tuple(typeof(a) for a in args) in kernel.signatures  # type: ignore[no-untyped-call]


def ensure(kernel: Any, args: tuple[Any, ...]) -> None:
    """Compile (or load from Numba's cache) ``kernel`` for the types of ``args`` unless it is compiled already."""
    if compiled_for(kernel, args):
        return
    from numba import typeof

    with notice(f"compiling the solver's {kernel.__name__.lstrip('_')} kernel"):
        kernel.compile(tuple(typeof(a) for a in args))  # type: ignore[no-untyped-call]


def second_pays() -> bool:
    """Whether a second compiling process pays: ``PASCH_COMPILE_PROCESS=1`` always (two cores or more), ``0``
    never, unset when a core looks free (the one-minute load average below the cores minus one half: on a
    busy machine the second process's start and the contention ate what it saved)."""
    cores = os.cpu_count() or 1
    wanted = os.environ.get("PASCH_COMPILE_PROCESS", "")
    if cores < 2 or wanted == "0" or jit_disabled():
        return False
    try:
        return wanted == "1" or os.getloadavg()[0] < cores - 0.5
    except (AttributeError, OSError):  # no load average on this platform
        return False


def piece_types(name: str) -> tuple[Any, ...]:
    """The Numba types of the arguments ``_kbuild._solve_layer`` passes to a piece of ``_kparts`` (float32).

    Raises:
        KeyError: not a piece of the build.
    """
    from numba import typeof

    t = tables(prepare(get("yacht")), np.float32)
    reads = np.zeros((1, 1, 1), np.float32)
    reads.flags.writeable = False  # the table a build reads: a read-only view of the one it writes
    i, row, stop = np.int64(0), np.empty((1, 1), np.float32), np.empty((1, 1, 1), np.float32)
    legal, n32 = np.empty((1, 1), np.int32), np.empty(1, np.int32)
    args: dict[str, tuple[Any, ...]] = {
        "_rows": (reads, i, i, i, i, t, row),
        "_legal": (i, i, t, legal, n32, n32),
        "_rebase": (row, i, i, t, np.empty(1, np.float32)),
        "_stops": (row, i, legal, n32, n32, t, stop),
        "_turn": (stop, row, row, row, i, i, t, stop),
        "_expect": (row, row, stop, i, i, t, np.empty(1, np.float64)),
    }
    return tuple(typeof(a) for a in args[name])  # type: ignore[no-untyped-call]


def ready_to_build(args: tuple[Any, ...]) -> None:
    """Compile (or load) the build's kernel for a float32 build's ``args``; on two cores the first time.

    Numba's cache is probed with the smallest piece (its ``stats`` tell a load from a compilation): a
    compilation means a first build on this install, and where :func:`second_pays` a second process compiles
    :data:`PIECES` meanwhile.
    """
    from pasch.solver import _kparts
    from pasch.solver._kbuild import _solve_layer

    if compiled_for(_solve_layer, args):
        return
    with notice("compiling the solver's table build"):
        if second_pays():
            sig = piece_types("_rebase")
            _kparts._rebase.compile(sig)
            if _kparts._rebase.stats.cache_misses[sig]:
                _share(_kparts)
        ensure(_solve_layer, args)


def _share(kparts: Any) -> None:
    code = "import sys; from pasch.solver._jit import second; sys.exit(second(sys.argv[1:]))"
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    try:
        child = subprocess.Popen([sys.executable, "-c", code, *PIECES], **quiet)  # type: ignore[call-overload]
    except OSError:  # no interpreter to start (an embedded Python): this process compiles them all
        return
    try:
        for name in ("_turn", "_legal"):
            getattr(kparts, name).compile(piece_types(name))
        child.wait(timeout=600)
    except subprocess.TimeoutExpired:
        child.kill()


def second(names: list[str]) -> int:
    """The second process: compile the named pieces of ``_kparts`` into Numba's cache."""
    from pasch.solver import _kparts

    for name in names:
        getattr(_kparts, name).compile(piece_types(name))
    return 0
