"""The package's shape: no module reaches into another package's private modules, and the layers import
one way (DESIGN.md: rules -> engine -> solver -> bots -> app -> interfaces; storage beside)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pasch

ROOT = Path(pasch.__file__).parent


def _modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "migrations" not in p.parts or p.name != "__init__.py")


def _name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    """Whether a dotted name is a module or package of pasch (not a function or class in one)."""
    base = ROOT.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every pasch module a file imports (``from pasch.x import _y`` counts when ``_y`` is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            out.extend(
                (node.lineno, f"{node.module}.{a.name}") for a in node.names if _is_module(f"{node.module}.{a.name}")
            )
    return out


def _owner(module: str) -> str:
    """The package a private module belongs to: ``pasch.engine._state`` -> ``pasch.engine``."""
    parts = module.split(".")
    for i, p in enumerate(parts):
        if p.startswith("_") and not p.startswith("__"):
            return ".".join(parts[:i])
    return module


def test_no_module_imports_another_packages_private_module() -> None:
    bad: list[str] = []
    for path in _modules():
        me = _name(path)
        for line, target in _imports(path):
            if not target.startswith("pasch."):
                continue
            owner = _owner(target)
            if owner == target:
                continue  # nothing private in the path
            if me == owner or me.startswith(owner + "."):
                continue  # a package's own private modules
            bad.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target}")
    assert not bad, "private modules of other packages imported:\n" + "\n".join(bad)


def test_the_check_catches_a_private_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from pasch.engine._state import GameState\nfrom pasch.i18n import _\nfrom pasch.rules import _scorers\n",
        encoding="utf-8",
    )
    targets = [t for _, t in _imports(probe)]
    assert "pasch.engine._state" in targets and "pasch.rules._scorers" in targets
    assert "pasch.i18n._" not in targets
    assert _owner("pasch.engine._state.GameState") == "pasch.engine"
    assert _owner("pasch.rules") == "pasch.rules"
    probe.write_text("from pasch import __version__\nfrom pasch import bots\n", encoding="utf-8")
    assert _front_door_names(probe) == [(1, "__version__")]  # a subpackage is no front-door name


def _front_door_names(path: Path) -> list[tuple[int, str]]:
    """Names a file takes from ``pasch`` itself that are not subpackages (``from pasch import __version__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, a.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "pasch" and node.level == 0
        for a in node.names
        if not _is_module(f"pasch.{a.name}")
    ]


LAYERS = {
    "pasch.dice": set(),
    "pasch.rules": {"pasch.dice"},
    "pasch.engine": {"pasch.dice", "pasch.rules"},
    "pasch.solver": {"pasch.dice", "pasch.rules", "pasch.engine"},
    "pasch.bots": {"pasch.dice", "pasch.rules", "pasch.engine", "pasch.solver"},
    "pasch.storage": {"pasch.dice", "pasch.rules", "pasch.engine"},
    "pasch.app": {"pasch.dice", "pasch.rules", "pasch.engine", "pasch.solver", "pasch.bots", "pasch.storage"},
}
"""What each lower package may import (besides pasch.errors, pasch.i18n, pasch._version and pasch._lazy, the lazy
re-exports); the interfaces may import all. No lower package imports the front door ``pasch`` itself."""


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_flow_one_way(package: str) -> None:
    allowed = LAYERS[package] | {package, "pasch.errors", "pasch.i18n", "pasch._lazy", "pasch._version"}
    bad: list[str] = []
    for path in _modules():
        me = _name(path)
        if me != package and not me.startswith(package + "."):
            continue
        for line, name in _front_door_names(path):  # the front door sits above every layer
            bad.append(f"{path.relative_to(ROOT.parent)}:{line} imports {name} from the package front door")
        for line, target in _imports(path):
            if not target.startswith("pasch."):
                continue
            top = ".".join(target.split(".")[:2])
            if top not in allowed:
                bad.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target}")
    assert not bad, f"{package} reaches above its layer:\n" + "\n".join(bad)
