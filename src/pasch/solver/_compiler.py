"""A second compiling process for a first table build (private; run as ``python -m pasch.solver._compiler``).

Numba compiles one function at a time per process, and a first build on an install compiles the build's
pieces and then ``_kbuild._solve_layer``. When a core is free, :func:`pasch.solver._jit.ready_to_build`
starts this module in a second process, which compiles :data:`PIECES` into Numba's disk cache while the
first process compiles ``_turn`` and the others; the first then loads these from the cache. It uses
Numba's public API only (``dispatcher.compile``) and prints each piece's name once it is cached.

The argument types are those ``_solve_layer`` passes (float32 tables); a piece compiled here for other
types would only be compiled again by the first process (a test checks that it is not).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["PIECES", "piece_types"]

PIECES = ("_rows", "_stops", "_expect")
"""The pieces the second process compiles (the first compiles ``_turn``, the biggest, ``_legal`` and ``_rebase``)."""


def piece_types(name: str) -> tuple[Any, ...]:
    """The Numba types of the arguments ``_kbuild._solve_layer`` passes to a piece of ``_kparts`` (float32).

    Raises:
        KeyError: not a piece of the build.
    """
    import numpy as np
    from numba import typeof

    from pasch.rules import get
    from pasch.solver._prep import prepare, tables
    from pasch.solver._table import new_values

    p = prepare(get("yacht"))
    t = tables(p, np.float32)
    _, reads = new_values(p, np.float32)
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


def _main(names: list[str]) -> int:
    from pasch.solver import _kparts

    for name in names:
        getattr(_kparts, name).compile(piece_types(name))
        print(name, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:] or list(PIECES)))
