"""Linking a kernel's pieces without optimising them a second time (private; relies on Numba internals).

Numba compiles each ``@njit`` function into a code library of its own: LLVM optimises it and emits its
machine code. A kernel that calls pieces (``_kparts._turn``, ``_stops``, ...) links the pieces' IR into
its own module and then runs LLVM's whole module pipeline again over the result, every piece included,
before emitting it. For the kernels registered here the pieces are called once per state or per block
of situations, so inlining them buys nothing, and that second optimisation was a large share of a
first command's compiling: ``_solve_layer`` took 2.3 s of CPU to compile, 1.5 s of it in the module
passes, and 1.56 s with this (same table, same build speed, measured in one fresh process each).

:func:`relink` registers kernel names. Their libraries optimise their own code first, then link the
pieces' IR, which their own libraries optimised already. Everything else compiles as Numba does it.

The hook replaces ``numba.core.codegen.CPUCodeLibrary.finalize`` (a private method) with one that
reproduces its steps in the new order for the registered names and calls the original otherwise. It is
installed only where that class has the members the steps use, and not with ``PASCH_RELINK=0``;
otherwise the kernels compile as before.
"""

from __future__ import annotations

from typing import Any

__all__ = ["installed", "relink", "relinked"]

_NAMES: set[str] = set()
_STEPS = (
    "_codegen",
    "_raise_if_finalized",
    "_linking_libraries",
    "_reload_init",
    "_final_module",
    "_optimize_final_module",
    "_finalize_final_module",
    "_get_module_for_linking",
)
_state: dict[str, Any] = {"original": None}
_DONE: list[str] = []


def relinked() -> list[str]:
    """The registered kernels this process has compiled through the hook, in order (for tests)."""
    return list(_DONE)


def installed() -> bool:
    """Whether the hook is in place (the JIT is on and Numba's code library has the expected members)."""
    return _state["original"] is not None


def relink(*names: str) -> None:
    """Link these kernels' pieces without optimising them again; installs the hook on first use.

    Args:
        names: kernel function names (Numba names a kernel's code library after its qualified name).
    """
    _NAMES.update(names)
    if _state["original"] is None:
        _install()


def _install() -> None:
    import os

    from numba import config

    if config.DISABLE_JIT or os.environ.get("PASCH_RELINK") == "0":  # type: ignore[attr-defined]
        return
    from numba.core import codegen

    lib = codegen.CPUCodeLibrary
    original = getattr(lib, "finalize", None)
    methods = ("_raise_if_finalized", "_optimize_final_module", "_finalize_final_module", "_get_module_for_linking")
    if original is None or not all(hasattr(lib, m) for m in methods):
        return
    from numba.core.compiler_lock import require_global_compiler_lock

    def finalize(self: Any) -> None:
        if self.name not in _NAMES or not all(hasattr(self, m) for m in _STEPS):
            original(self)
            return
        require_global_compiler_lock()  # type: ignore[no-untyped-call]
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        self._optimize_final_module()  # this kernel's own code, before the pieces come in
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                self._reload_init.update(library._reload_init)
                seen.add(library)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._final_module.verify()
        self._finalize_final_module()
        _DONE.append(self.name)

    setattr(lib, "finalize", finalize)  # noqa: B010  (a method of a Numba class: replaced on purpose)
    _state["original"] = original
