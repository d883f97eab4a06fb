"""Kernels compiled ahead of time, at install: a first answer on a fresh install without compiling.

Private. Numba's JIT compiles the table build for about three and a half seconds on a fresh install
(two cores; the kernels are then in Numba's cache). ``pip install`` builds this package's wheel, and its
build hook (``hatch_build.py``) compiles two kernels once more, with ``numba.pycc``, into an extension
module beside this file (``_aotkernels``, for the CPU it is built on): the table build's
``_kbuild._solve_layer`` and the simulation's ``_kmany._simulate_many``, from the same Python functions,
for the signatures :mod:`~pasch.solver._compile` gives them (float32 tables). Their results are the same
bits as the JIT's (the tests compare them).

A kernel compiled this way holds the GIL, so it runs on one thread: a yahtzee table in about 0.9 s
instead of 0.5 s on two. So it answers only while the JIT kernel is neither compiled nor in Numba's
cache, and only the first call of each kernel in a process (:func:`kernel`): a process that builds or
simulates again compiles the JIT kernel then, as it did before (long-running ones, the terminal game
and the web server, compile it in the background anyway with ``warm_up``).

It is not used when the module is missing (a build without a C compiler, say: the install goes on
without it), when it was compiled from other kernel sources than the installed ones (a stamp of their
text is stored beside it), when the arguments' types are not the ones it was compiled for, with
``PASCH_AOT=0``, or with ``NUMBA_DISABLE_JIT=1``.

Run as ``python -m pasch.solver._aot DIRECTORY`` it compiles the module into that directory.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["EXPORTS", "MODULE", "answers", "available", "build", "jit_only", "kernel", "source_stamp"]

MODULE = "_aotkernels"
"""The extension module's name, in this package."""

EXPORTS = {"solve_layer": ("_kbuild", "_solve_layer"), "simulate_many": ("_kmany", "_simulate_many")}
"""Exported name: (kernel module, kernel) of each kernel compiled ahead of time."""

SOURCES = ("_kparts.py", "_kbuild.py", "_kmany.py", "_prep.py", "_compile.py")
"""The files whose text the module was compiled from (kernels, record layout, signatures)."""

_used: set[str] = set()
_state: dict[str, Any] = {"module": None, "loaded": False, "off": 0}


def source_stamp() -> str:
    """A digest of the kernel sources: the module serves only the sources it was compiled from."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    return digest.hexdigest()


def _stamp_path(module_file: str) -> Path:
    return Path(module_file + ".stamp")


def _module() -> Any:
    if not _state["loaded"]:
        _state["loaded"] = True
        try:
            module = importlib.import_module(f"pasch.solver.{MODULE}")
            stored = _stamp_path(module.__file__ or "").read_text().strip()
        except (ImportError, OSError):  # not built, or for another Python or numpy: the JIT answers
            return None
        _state["module"] = module if stored == source_stamp() else None
    return _state["module"]


@contextmanager
def jit_only() -> Iterator[None]:
    """Within this block the kernels compiled ahead of time are not used (to compile the JIT's).

    In every thread, on purpose: while the terminal game or the web server warms up in the background,
    a build the player asks for waits for the JIT kernels, which release the GIL, rather than run the
    ones compiled here, which hold it (the interface would stop answering for a second).
    """
    _state["off"] += 1
    try:
        yield
    finally:
        _state["off"] -= 1


def available() -> bool:
    """Whether the module may answer in this process (present, from these sources, not turned off)."""
    from numba import config

    if _state["off"] or os.environ.get("PASCH_AOT") == "0" or config.DISABLE_JIT:  # type: ignore[attr-defined]
        return False
    return _module() is not None


def answers(kernel_name: str) -> bool:
    """Whether the next call of this JIT kernel (e.g. ``_solve_layer``) will be answered from the module."""
    exported = [e for e, (_, k) in EXPORTS.items() if k == kernel_name]
    return bool(exported) and exported[0] not in _used and available()


def kernel(name: str, args: tuple[Any, ...]) -> Callable[..., None] | None:
    """The kernel compiled ahead of time for its first call in this process, if it may answer these args.

    Args:
        name: a key of :data:`EXPORTS`.
        args: the arguments of the call (their types are checked against the compiled signature: the
            compiled code does not check them).

    Returns:
        The callable, or None: the JIT kernel answers (see the module docstring).
    """
    from pasch.solver import _compile

    kernel_name = EXPORTS[name][1]
    if name in _used or _compile.ready(kernel_name):  # the JIT kernel ready: faster (every thread)
        return None
    if not available():
        return None
    module = _module()
    from numba import typeof

    try:
        if tuple(typeof(a) for a in args) != _compile.signature(kernel_name):  # type: ignore[no-untyped-call]
            return None
    except ValueError:  # an argument Numba has no type for
        return None
    _used.add(name)
    fn: Callable[..., None] = getattr(module, name)
    return fn


def build(directory: Path) -> Path:
    """Compile the module into ``directory``, with its source stamp beside it; returns the module's path."""
    from numba import types
    from numba.pycc import CC  # type: ignore[attr-defined]

    from pasch.solver import _compile

    directory.mkdir(parents=True, exist_ok=True)
    cc = CC(MODULE)  # type: ignore[no-untyped-call]
    cc.output_dir = str(directory)
    cc.target_cpu = "host"  # the machine it is installed on, as the JIT does
    for exported, (module_name, kernel_name) in EXPORTS.items():
        fn = getattr(importlib.import_module(f"pasch.solver.{module_name}"), kernel_name)
        cc.export(exported, types.void(*_compile.signature(kernel_name)))(fn.py_func)  # type: ignore[no-untyped-call]
    cc.compile()
    path: Path = directory / str(cc.output_file)
    _stamp_path(str(path)).write_text(source_stamp() + "\n")
    return path


def _main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m pasch.solver._aot DIRECTORY", file=sys.stderr)
        return 2
    print(build(Path(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
