"""Two rules every kernel keeps, checked on the source, so that a class of memory and cache bugs cannot come back.

1. **A borrowed view is of an argument.** ``_kparts._borrow`` gives an array whose memory nobody owns (no
   reference counts in the hot loops). Only an argument is safe to borrow: its caller keeps it alive for the
   whole call. A local array is freed by Numba at its last use, not at the end of the function, so a
   borrowed view of one points into freed memory (issue 24's segmentation fault: ``_turn`` borrowed the
   buffer it had just allocated). Every ``_borrow`` call must take a parameter and rebind that parameter.
2. **A rule set reaches a kernel only as an argument.** Numba freezes a global variable (and a closure's
   cell) into the machine code as a constant, and its disk cache looks a kernel up by argument types only:
   a size or constant of one rule set read from a global would be reused, silently, for another. Every
   global a kernel reads must be a module, a function (another kernel, an intrinsic, a helper) or a number
   written as a literal in its module; no kernel is a closure.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest

from pasch.solver import KERNEL_MODULES, kernels


def _functions(module_name: str) -> list[ast.FunctionDef]:
    module = importlib.import_module(f"pasch.solver.{module_name}")
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)]


def _params(fn: ast.FunctionDef) -> set[str]:
    a = fn.args
    return {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)}


def _borrow_misuses(fn: ast.FunctionDef) -> list[str]:
    params = _params(fn)
    bad: list[str] = []
    borrowed: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_borrow":
            arg = node.args[0] if len(node.args) == 1 else None
            if not (isinstance(arg, ast.Name) and arg.id in params):
                bad.append(
                    f"{fn.name}: _borrow({ast.unparse(node.args[0]) if node.args else ''}) is not of a parameter"
                )
            else:
                borrowed.add(arg.id)
    for node in ast.walk(fn):  # a parameter rebound to anything else before or after would borrow a local
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            if isinstance(target, ast.Name) and target.id in borrowed:
                value = node.value  # type: ignore[union-attr]
                is_borrow = (
                    isinstance(value, ast.Call)
                    and isinstance(value.func, ast.Name)
                    and value.func.id == "_borrow"
                    and isinstance(value.args[0], ast.Name)
                    and value.args[0].id == target.id
                )
                if not is_borrow:
                    bad.append(f"{fn.name}: {target.id} is borrowed and also rebound to {ast.unparse(value)}")
    return bad


def test_borrow_takes_only_parameters() -> None:
    bad = [m for name in KERNEL_MODULES for fn in _functions(name) for m in _borrow_misuses(fn)]
    assert not bad, bad
    uses = sum(1 for name in KERNEL_MODULES for fn in _functions(name) for n in ast.walk(fn) if _is_borrow_call(n))
    assert uses >= 30  # the check looks at the calls that exist


def _is_borrow_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_borrow"


@pytest.mark.parametrize(
    "source",
    [
        "def k(A, T):\n    B_own = np.empty(3)\n    B = _borrow(B_own)\n",
        "def k(A, T):\n    A = np.empty(3)\n    A = _borrow(A)\n",
        "def k(A, T):\n    X = _borrow(A[0])\n",
    ],
)
def test_the_borrow_check_catches_a_local(source: str) -> None:
    fn = ast.parse(source).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert _borrow_misuses(fn)


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    if isinstance(node, ast.BinOp):
        return _literal(node.left) and _literal(node.right)
    return False


def _literal_constants(module: types.ModuleType) -> set[str]:
    """Module-level names assigned a number written as a literal (``NEG = -1.0e30``, ``LANES = 64``)."""
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and _literal(node.value):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        annotated = isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
        if annotated and node.value is not None and _literal(node.value):  # type: ignore[union-attr]
            out.add(node.target.id)  # type: ignore[union-attr]
    return out


def _globals_read(fn: Any) -> set[str]:
    """The names a function's body reads that are neither its parameters nor its locals."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    body = ast.Module(body=node.body, type_ignores=[])  # the decorators' options are not the kernel's
    local = _params(node)
    for sub in ast.walk(body):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            local.add(sub.id)
        elif isinstance(sub, ast.arg):
            local.add(sub.arg)
    return {
        sub.id
        for sub in ast.walk(body)
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in local
    }


def _allowed(value: Any, name: str, home: types.ModuleType) -> bool:
    if isinstance(value, types.ModuleType) or callable(value):
        return True  # np, another kernel, an intrinsic or helper, a numpy type (np.float32 ...), a builtin
    if isinstance(value, int | float) and not isinstance(value, bool):  # written as a literal where it is defined
        return any(vars(m).get(name) is value and name in _literal_constants(m) for m in (home, *_modules()))
    return False


def _modules() -> list[types.ModuleType]:
    return [importlib.import_module(f"pasch.solver.{name}") for name in (*KERNEL_MODULES, "_prep")]


def test_every_global_a_kernel_reads_is_a_module_a_function_or_a_literal_number() -> None:
    found = kernels()
    assert len(found) >= 15
    bad: list[str] = []
    read = 0
    for kernel in found:
        fn = getattr(kernel, "py_func", kernel)
        read += len(_globals_read(fn))
        if fn.__closure__:
            bad.append(f"{fn.__module__}.{fn.__name__} is a closure")
        home = importlib.import_module(fn.__module__)
        for name in sorted(_globals_read(fn)):
            if name in fn.__globals__:
                value = fn.__globals__[name]
            elif hasattr(builtins, name):
                continue  # range, min, max, ...
            else:
                bad.append(f"{fn.__module__}.{fn.__name__} reads {name}, which is not defined")
                continue
            if not _allowed(value, name, home):
                bad.append(f"{fn.__module__}.{fn.__name__} reads the global {name} = {value!r:.60}")
    assert not bad, bad
    assert read >= 100  # the check sees the globals there are (np, the pieces, NEG, ...)


def test_the_global_check_catches_a_computed_number_and_an_array() -> None:
    import numpy as np

    from pasch.solver import _kparts

    assert _allowed(_kparts.NEG, "NEG", _kparts)  # NEG = -1.0e30: a literal
    assert not _allowed(np.zeros(3), "SIZES", _kparts)
    assert not _allowed(252, "N_ROLLS", _kparts)  # not written as a literal in the module
    assert not _allowed((1, 2), "SHAPE", _kparts)
