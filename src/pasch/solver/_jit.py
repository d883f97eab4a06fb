"""Compiling the solver's kernels: Numba's JIT and its disk cache, through Numba's public API only.

Private. Every kernel is an ``@njit(cache=True)`` function of arrays and scalars (the rule set's sizes
and constants come in :class:`~pasch.solver._prep.Tables`, never as globals or closures, so one
compiled kernel serves every rule set). Numba compiles a kernel on its first use in a process that does
not find it in its disk cache, and loads it from there after that.

:func:`ensure` compiles (or loads) a kernel for its arguments' types before the solver calls it, and when
that takes longer than :data:`NOTICE_AFTER` seconds it tells the listeners registered with
:func:`on_compile` (the command line prints one line, the terminal app a notification). The table
build's first compilation on an install is shared with a second process when a core is free
(``_compiler``). Nothing here changes Numba or the process: no patched classes, no environment variables.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["NOTICE_AFTER", "compiled_for", "ensure", "jit_disabled", "notice", "on_compile"]

NOTICE_AFTER = 0.5
"""Seconds a compilation (or a load from Numba's cache) may take before the listeners hear of it."""

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


def jit_disabled() -> bool:
    """Whether Numba's JIT is off (``NUMBA_DISABLE_JIT``): the kernels then run as plain Python.

    Read from Numba's configuration once Numba is imported, else from the environment (asking must not
    import Numba).
    """
    numba = sys.modules.get("numba")
    if numba is not None:
        return bool(numba.config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")


def compiled_for(kernel: Any, args: tuple[Any, ...]) -> bool:
    """Whether a kernel is compiled in this process for these arguments' types (True without the JIT)."""
    if getattr(kernel, "py_func", None) is None:
        return True
    from numba import typeof

    sig = tuple(typeof(a) for a in args)  # type: ignore[no-untyped-call]
    return sig in kernel.signatures


def ensure(kernel: Any, args: tuple[Any, ...]) -> None:
    """Compile (or load from Numba's cache) ``kernel`` for the types of ``args`` unless it is compiled already.

    Call it before running a kernel on several threads: they would all wait for one compilation anyway,
    and here the listeners hear of a slow one.
    """
    if compiled_for(kernel, args):
        return
    from numba import typeof

    with notice(f"compiling the solver's {kernel.__name__.lstrip('_')} kernel"):
        kernel.compile(tuple(typeof(a) for a in args))  # type: ignore[no-untyped-call]


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
