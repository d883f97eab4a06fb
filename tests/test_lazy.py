"""Lazy re-exports (``pasch._lazy``): ``pasch`` and ``pasch.app`` name their exports once, import them on use."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys

import pytest

PACKAGES = ("pasch", "pasch.app")


def _type_checking_imports(package: str) -> dict[str, str]:
    """What the package's ``if TYPE_CHECKING:`` block imports, as ``_EXPORTS`` writes it."""
    tree = ast.parse(inspect.getsource(importlib.import_module(package)))
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module is not None
                for alias in imp.names:
                    name = alias.asname or alias.name
                    out[name] = imp.module if alias.asname is None else f"{imp.module}:{alias.name}"
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_the_exports_the_names_for_type_checkers_and_all_agree(package: str) -> None:
    module = importlib.import_module(package)
    exports = module._EXPORTS
    assert set(exports) == set(module.__all__) - {"__version__"}  # the version is set, not imported
    assert _type_checking_imports(package) == exports


@pytest.mark.parametrize("package", PACKAGES)
def test_every_export_is_the_object_of_its_module(package: str) -> None:
    module = importlib.import_module(package)
    for name, target in module._EXPORTS.items():
        home, _, attribute = target.partition(":")
        assert getattr(module, name) is getattr(importlib.import_module(home), attribute or name), name
        assert name in dir(module)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018 - the access is the test


def test_importing_pasch_imports_neither_numpy_nor_the_application_layer() -> None:
    heavy = ("numpy", "asyncio", "numba", "pasch.engine")
    code = f"import sys, pasch, pasch.app; print(sorted(m for m in {heavy} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"
    code = "import sys, pasch; pasch.Match; print('pasch.app._match' in sys.modules, 'pasch.bots' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "True True"  # on first use, with what it needs
