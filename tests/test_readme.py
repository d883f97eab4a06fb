"""The README's Python sessions and the package docstring's examples run as doctests.

Like python-chess's README, the "Python API" section of ``README.md`` is a REPL session: every ``>>>`` line is
executed and its output compared, so the README shows what pasch prints today. The solver tables the
examples build go to a private cache directory, not the user's.
"""

from __future__ import annotations

import doctest
from collections.abc import Iterator
from pathlib import Path

import pytest

import pasch
from pasch.solver import clear_shared

README = Path(__file__).resolve().parents[1] / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "pasch-cache"))
    clear_shared()
    yield
    clear_shared()


def test_readme_sessions_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS, encoding="utf-8")
    assert result.attempted >= 40, f"the README's Python sessions went missing ({result.attempted} examples)"
    assert result.failed == 0, f"{result.failed} of {result.attempted} README examples failed (see the output)"


def test_package_docstring_examples_run() -> None:
    result = doctest.testmod(pasch, optionflags=FLAGS)
    assert result.attempted >= 1, "pasch's module docstring lost its example"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in pasch/__init__.py failed"
