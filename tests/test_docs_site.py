"""The API reference's Griffe extension (tools/griffe_roles.py): Sphinx roles become cross-references.

The site itself is built by ``.ci/run``'s docs step (``mkdocs build --strict``, which fails on any reference
it cannot resolve); these tests pin what the extension makes of the roles in pasch's docstrings.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

griffe = pytest.importorskip("griffe")

ROOT = Path(__file__).resolve().parents[1]


def _extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "tools" / "griffe_roles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pasch_tree() -> Any:
    ext = _extension()
    return griffe.load("pasch", search_paths=[str(ROOT / "src")], extensions=griffe.load_extensions(ext.SphinxRoles()))


def _docstrings(obj: Any) -> list[str]:
    out = [obj.docstring.value] if obj.docstring is not None else []
    for member in obj.members.values():
        if not member.is_alias:
            out.extend(_docstrings(member))
    return out


def test_no_sphinx_role_is_left(pasch_tree: Any) -> None:
    left = [d for d in _docstrings(pasch_tree) if re.search(r":(mod|class|func|meth|attr|data|exc):`", d)]
    assert left == []


def test_roles_become_references_to_the_documented_path(pasch_tree: Any) -> None:
    app = pasch_tree["app"].docstring.value
    assert "[`Match`][pasch.app.Match]" in app  # pasch.app._match.Match is documented as pasch.app.Match
    assert "[`advise`][pasch.app.advise]" in app
    assert "`seats`" in app and "pasch.app._seats]" not in app  # a private module has no page: plain code
    undo = pasch_tree["app._match"].docstring.value
    assert "[`Match.checkpoint`][pasch.app.Match.checkpoint]" in undo


def test_names_outside_the_reference_stay_plain_code(pasch_tree: Any) -> None:
    dice = pasch_tree["dice"].docstring.value
    assert "`numpy.random.Generator`" in dice and "][numpy" not in dice
    front = pasch_tree.docstring.value
    assert "one text form:\n" in front and "form::" not in front  # a reST literal block's "::"
