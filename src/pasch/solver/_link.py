"""Kernels that call their pieces instead of carrying a copy (private; relies on Numba internals).

Numba compiles each ``@njit`` function into a code library of its own: LLVM optimises it and emits its
machine code. A kernel that calls pieces (``_kparts._turn``, ``_stops``, ...) links the pieces' IR into
its own module, runs LLVM's whole module pipeline again over the result, every piece included, and
emits machine code for all of it once more. For the kernels registered here the pieces are called once
per state or per block of situations, so inlining them buys nothing, and that second pass was a large
share of a first command's compiling: ``_solve_layer`` took 2.3 s of CPU to compile, 1.5 s of it in the
module passes and 0.5 s in emitting the pieces' machine code again; it takes 1.0 s with this (measured
in one fresh process each, Numba's timers; same table, same build speed).

:func:`relink` registers kernel names. Their libraries optimise their own code only, and their calls
to the solver's other kernels go to those kernels' own machine code, already in the process (the JIT
resolves them by symbol); Numba's helpers (``np.empty``'s implementation, ...) are linked in as Numba
does it. Everything else compiles as Numba does it.

A registered kernel in Numba's on-disk cache then refers to its pieces' code instead of containing it.
Its cache entry lists them (module, name, signature, symbol), and loading it loads them first (from
their own cache entries, or compiling them). A piece compiled again under another symbol (Numba numbers
the functions it compiles in each process; a second compiling process, say) gets the old symbol as an
alias. If a piece no longer takes those arguments or returns another type, the entry counts as missing
and the kernel is compiled again: the JIT never meets a call it cannot resolve.

The hooks replace private members of Numba's ``numba.core.codegen.CPUCodeLibrary`` (``finalize``,
``serialize_using_object_code``, ``_unserialize``) and wrap ``numba.core.caching.Cache.load_overload``.
They are installed only where those members exist. ``PASCH_RELINK=0`` compiles the kernels as Numba
does (the loading hooks stay, for cache entries written with it).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, NamedTuple

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
_state: dict[str, Any] = {"original": None, "tried": False}
_DONE: list[str] = []


class Piece(NamedTuple):
    """A compiled kernel that a registered kernel calls, as its cache entry records it."""

    module: str
    name: str
    args: tuple[Any, ...]
    """Numba argument types of the compiled version."""
    symbol: str
    """The machine-code symbol the caller's code refers to."""
    return_type: Any


class _StalePieceError(Exception):
    """A cached kernel's piece is not the one it was compiled against: compile the kernel again."""


def relinked() -> list[str]:
    """The registered kernels this process has compiled through the hook, in order (for tests)."""
    return list(_DONE)


def installed() -> bool:
    """Whether the hook is in place (the JIT is on and Numba's code library has the expected members)."""
    return _state["original"] is not None


def relink(*names: str) -> None:
    """Compile these kernels with calls to their pieces instead of copies; installs the hooks on first use.

    Args:
        names: kernel function names (Numba names a kernel's code library after its qualified name).
    """
    _NAMES.update(names)
    if not _state["tried"]:
        _state["tried"] = True
        _install()


def _install() -> None:
    from numba import config
    from numba.core import caching, codegen

    if config.DISABLE_JIT:  # type: ignore[attr-defined]
        return
    lib = codegen.CPUCodeLibrary
    original = getattr(lib, "finalize", None)
    methods = (
        "_raise_if_finalized",
        "_optimize_final_module",
        "_finalize_final_module",
        "_get_module_for_linking",
        "serialize_using_object_code",
    )
    if (
        original is None
        or not all(hasattr(lib, m) for m in methods)
        or not isinstance(lib.__dict__.get("_unserialize"), classmethod)
        or not hasattr(caching.Cache, "load_overload")
    ):
        return
    _install_loading(lib, caching.Cache)
    if os.environ.get("PASCH_RELINK") == "0":
        return
    from numba.core.compiler_lock import require_global_compiler_lock

    def finalize(self: Any) -> None:
        if self.name not in _NAMES or not all(hasattr(self, m) for m in _STEPS):
            original(self)
            return
        require_global_compiler_lock()  # type: ignore[no-untyped-call]
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        self._optimize_final_module()  # this kernel's own code
        owners = _owners()
        pieces: list[Piece] = []
        seen: list[Any] = []
        for library in self._linking_libraries:
            if library in seen:
                continue
            seen.append(library)
            self._reload_init.update(library._reload_init)
            piece = owners.get(id(library))
            if piece is not None:  # a kernel of ours: called at its own code's symbol, not copied
                pieces.append(piece)
            else:
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._pasch_pieces = tuple(pieces)
        self._final_module.verify()
        self._finalize_final_module()
        _DONE.append(self.name)

    serialize: Any = lib.serialize_using_object_code

    def serialize_using_object_code(self: Any) -> Any:
        name, kind, data = serialize(self)
        pieces = getattr(self, "_pasch_pieces", None)
        if pieces and kind == "object":
            return name, kind, (*data, pieces)
        return name, kind, data

    setattr(lib, "finalize", finalize)  # noqa: B010  (a method of a Numba class: replaced on purpose)
    setattr(lib, "serialize_using_object_code", serialize_using_object_code)  # noqa: B010
    _state["original"] = original


def _owners() -> dict[int, Piece]:
    """The code libraries of the solver's compiled kernels, by ``id``.

    Only the solver's own kernels (not Numba's helpers): their dispatchers can load them again before a
    kernel that calls them is loaded from the cache.
    """
    owners: dict[int, Piece] = {}
    for mod_name, module in list(sys.modules.items()):
        if not mod_name.startswith("pasch.solver._k") or module is None:
            continue
        for value in vars(module).values():
            fn: Any = getattr(value, "py_func", None)
            if fn is None:
                continue
            for args, cres in list(getattr(value, "overloads", {}).items()):
                owners[id(cres.library)] = Piece(
                    fn.__module__, fn.__name__, tuple(args), cres.fndesc.mangled_name, cres.signature.return_type
                )
    return owners


def _install_loading(lib: Any, cache: Any) -> None:
    """Cache entries that list pieces: load the pieces first; a piece that changed makes the entry stale."""
    plain = lib.__dict__["_unserialize"].__func__

    def _unserialize(cls: Any, codegen: Any, state: Any) -> Any:
        name, kind, data = state
        if kind == "object" and len(data) == 3:
            *rest, pieces = data
            for piece in pieces:
                _load_piece(piece, codegen)
            state = (name, kind, tuple(rest))
        return plain(cls, codegen, state)

    load_overload = cache.load_overload

    def guarded_load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load_overload(self, sig, target_context)
        except _StalePieceError:
            return None  # as if not cached: Numba compiles the kernel again and replaces the entry

    setattr(lib, "_unserialize", classmethod(_unserialize))  # noqa: B010
    setattr(cache, "load_overload", guarded_load_overload)  # noqa: B010


def _load_piece(piece: Any, codegen: Any) -> None:
    try:
        module, name, args, symbol, return_type = piece
        dispatcher = getattr(importlib.import_module(module), name)
        dispatcher.compile(tuple(args))
        cres = dispatcher.overloads[tuple(args)]
    except Exception as exc:  # the piece is gone or no longer takes these arguments
        raise _StalePieceError(f"{piece!r}: {exc}") from exc
    if cres.signature.return_type != return_type:
        raise _StalePieceError(f"{piece!r} changed")
    if not codegen._engine.is_symbol_defined(symbol):
        # The same kernel, the same types, compiled under another name (Numba numbers each compiled
        # function in its process, so a second compiling process or a rebuilt cache entry names it
        # differently): the same calling convention, so the old name is made to point at it.
        address = cres.library.get_pointer_to_function(cres.fndesc.mangled_name)
        if not address:
            raise _StalePieceError(f"{piece!r} has no code")
        import llvmlite.binding as ll

        ll.add_symbol(symbol, address)
