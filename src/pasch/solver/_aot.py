"""Kernels compiled ahead of time, at install: every table build and simulation without Numba's JIT.

Private. Numba's JIT compiles the table build for about three and a half seconds on a fresh install
(two cores; the kernels are then in Numba's cache), and even from its cache a process pays for
importing Numba and loading the kernels (about 0.3 s of a whole ``pasch solve``). ``pip install``
builds this package's wheel, and its build hook (``hatch_build.py``) compiles two kernels once more,
with ``numba.pycc``, into an extension module beside this file (``_aotkernels``, for the CPU it is built
on): the table build's ``_kbuild._solve_layer`` and the simulation's ``_kmany._simulate_many``, from the
same Python functions, for the signatures :mod:`~pasch.solver._compile` gives them (float32 tables).
Their results are the same bits as the JIT's (the tests compare them).

They are compiled to release the GIL during a call, as the JIT kernels do (``nogil``), so a build or a
simulation runs on every solver thread and is as fast as with the JIT. So they answer every call they
may (:func:`kernel`), and a process that only builds or simulates never imports Numba: importing this
module, checking the arguments and calling the kernels needs numpy only.

It is not used when the module is missing (a build without a C compiler, say: the install goes on
without it), when it was compiled from other kernel sources than the installed ones (a stamp of their
text is stored beside it), when the arguments' types are not the ones it was compiled for (the stamp
records them too), inside :func:`jit_only`, with ``PASCH_AOT=0``, or with ``NUMBA_DISABLE_JIT=1``.

Run as ``python -m pasch.solver._aot DIRECTORY`` it compiles the module into that directory.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["EXPORTS", "MODULE", "answers", "available", "build", "describe", "jit_only", "kernel", "source_stamp"]

MODULE = "_aotkernels"
"""The extension module's name, in this package."""

EXPORTS = {"solve_layer": ("_kbuild", "_solve_layer"), "simulate_many": ("_kmany", "_simulate_many")}
"""Exported name: (kernel module, kernel) of each kernel compiled ahead of time."""

SOURCES = ("_kparts.py", "_kbuild.py", "_kmany.py", "_prep.py", "_compile.py", "_aot.py")
"""The files whose text the module was compiled from (kernels, record layout, signatures, this build)."""

_state: dict[str, Any] = {"module": None, "loaded": False, "off": 0, "args": {}}


def source_stamp() -> str:
    """A digest of the kernel sources: the module serves only the sources it was compiled from."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    return digest.hexdigest()


def describe(value: Any) -> Any:
    """What the compiled code assumes of an argument, without Numba: a JSON-able nest of lists.

    An array gives its dtype, dimensions, layout, alignment and writability (the parts of its Numba
    type); a tuple (the tables' record) its class name and members; a number its kind. Two arguments
    with the same description have the same Numba type.
    """
    import numpy as np

    if isinstance(value, np.ndarray):
        flags = value.flags
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return ["array", value.dtype.str, value.ndim, layout, bool(flags.aligned), bool(flags.writeable)]
    if isinstance(value, tuple):
        return ["tuple", type(value).__name__, [describe(v) for v in value]]
    if isinstance(value, np.generic):
        return ["scalar", value.dtype.str]
    if isinstance(value, bool):
        return ["bool"]
    if isinstance(value, int):
        return ["int"] if -(2**63) <= value < 2**63 else ["bigint"]
    if isinstance(value, float):
        return ["float"]
    return ["other", type(value).__name__]


def _stamp_path(module_file: str) -> Path:
    return Path(module_file + ".stamp")


def _module() -> Any:
    if not _state["loaded"]:
        _state["loaded"] = True
        try:
            module = importlib.import_module(f"pasch.solver.{MODULE}")
            stored = json.loads(_stamp_path(module.__file__ or "").read_text())
        except (ImportError, OSError, ValueError):  # not built, for another Python or numpy, an old stamp
            return None
        if not isinstance(stored, dict) or stored.get("sources") != source_stamp():
            return None
        _state["args"] = stored.get("args", {})
        _state["module"] = module
    return _state["module"]


@contextmanager
def jit_only() -> Iterator[None]:
    """Within this block the kernels compiled ahead of time are not used (to compile or test the JIT's).

    In every thread: benchmarks and tests measure and compare Numba's JIT kernels with this.
    """
    _state["off"] += 1
    try:
        yield
    finally:
        _state["off"] -= 1


def _jit_disabled() -> bool:
    numba = sys.modules.get("numba")
    if numba is not None:  # Numba's own reading (its environment and config file), once it is imported
        return bool(numba.config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")


def available() -> bool:
    """Whether the module may answer in this process (present, from these sources, not turned off)."""
    if _state["off"] or os.environ.get("PASCH_AOT") == "0" or _jit_disabled():
        return False
    return _module() is not None


def answers(kernel_name: str) -> bool:
    """Whether calls of this JIT kernel (e.g. ``_solve_layer``) are answered from the module."""
    return any(k == kernel_name for _, k in EXPORTS.values()) and available()


def kernel(name: str, args: tuple[Any, ...]) -> Callable[..., None] | None:
    """The kernel compiled ahead of time, if it may answer these arguments.

    Args:
        name: a key of :data:`EXPORTS`.
        args: the arguments of the call (checked against the types the module was compiled for: the
            compiled code does not check them).

    Returns:
        The callable, or None: the JIT kernel answers (see the module docstring).
    """
    if not available():
        return None
    if describe(args) != _state["args"].get(name):
        return None
    fn: Callable[..., None] = getattr(_module(), name)
    return fn


def sample_args(name: str) -> tuple[Any, ...]:
    """Arguments of a call of an exported kernel, of the types the callers pass (a tiny rule set)."""
    import numpy as np

    from pasch.rules import get
    from pasch.solver._prep import prepare, tables
    from pasch.solver._table import new_values

    p = prepare(get("yahtzee+forced"))
    t = tables(p, np.float32)
    values, reads = new_values(p, np.float32)
    if name == "solve_layer":  # as _table.build_values calls it
        return (values, reads, p.masks, p.hi, 0, 0, t, 0, 1)
    if name == "simulate_many":  # as Solver.simulate calls it (its table is read-only)
        return (reads, 1, 0, t, np.zeros(1, np.int64), 0, 1)
    raise KeyError(name)


@contextmanager
def _releasing_the_gil() -> Iterator[None]:
    """``numba.pycc`` compiles with its own flags, without ``nogil``: ask for it (a private of Numba's)."""
    import numba.pycc.compiler as pycc_compiler

    original = pycc_compiler.Flags  # type: ignore[attr-defined]

    class Flags(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True  # the CPython wrapper releases the GIL around the call

    pycc_compiler.Flags = Flags  # type: ignore[attr-defined]
    try:
        yield
    finally:
        pycc_compiler.Flags = original  # type: ignore[attr-defined]


def build(directory: Path) -> Path:
    """Compile the module into ``directory``, with its stamp beside it; returns the module's path.

    Raises:
        RuntimeError: the callers' argument types are not the kernels' compiled signature.
    """
    from numba import typeof, types
    from numba.pycc import CC  # type: ignore[attr-defined]

    from pasch.solver import _compile

    directory.mkdir(parents=True, exist_ok=True)
    cc = CC(MODULE)  # type: ignore[no-untyped-call]
    cc.output_dir = str(directory)
    cc.target_cpu = "host"  # the machine it is installed on, as the JIT does
    described = {}
    for exported, (module_name, kernel_name) in EXPORTS.items():
        fn = getattr(importlib.import_module(f"pasch.solver.{module_name}"), kernel_name)
        sig = _compile.signature(kernel_name)
        sample = sample_args(exported)
        if tuple(typeof(a) for a in sample) != sig:  # type: ignore[no-untyped-call]
            raise RuntimeError(f"{exported}: the callers' argument types differ from {kernel_name}'s signature")
        described[exported] = describe(sample)
        cc.export(exported, types.void(*sig))(fn.py_func)  # type: ignore[no-untyped-call]
    with _releasing_the_gil():
        cc.compile()
    path: Path = directory / str(cc.output_file)
    stamp = {"sources": source_stamp(), "args": described}
    _stamp_path(str(path)).write_text(json.dumps(stamp) + "\n")
    return path


def _main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m pasch.solver._aot DIRECTORY", file=sys.stderr)
        return 2
    print(build(Path(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
