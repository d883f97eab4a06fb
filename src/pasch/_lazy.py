"""Names a package re-exports, imported on first use (PEP 562).

A command such as ``pasch solve`` needs the rules and the solver, not the bot loop (asyncio), the engine's
bots or the review; a package ``__init__`` that imported all of its modules would make every command pay
for all of them. The package lists what it exports once, as data, and keeps the same names in an
``if TYPE_CHECKING:`` block for type checkers and readers (a test checks that the two agree)::

    _EXPORTS = {"advise": "pasch.app._advice", "get_rules": "pasch.rules:get"}
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

A value is ``"module"`` (the attribute has the exported name) or ``"module:attribute"``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package`` for the names in ``exports``.

    Args:
        package: the package's ``__name__`` (for error messages and the module's globals).
        exports: public name -> ``"module"`` or ``"module:attribute"`` that holds it.

    Returns:
        ``(__getattr__, __dir__)``: the first imports the module holding a name on first access and keeps
        the value in the package's namespace, so later accesses cost a dictionary lookup.
    """
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module protocol's name
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = target.partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807 - the module protocol's name
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
