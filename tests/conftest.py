"""One solver-table cache per test run, shared by the pytest-xdist workers of that run.

Every test sees ``PASCH_CACHE_DIR`` pointing into this run's temporary directory, never the user's cache
directory, and a new run starts with an empty one, so no test depends on an earlier run. Under xdist, each
worker's base temporary directory is a ``popen-gwN`` folder inside the run's own base directory: the
workers share ``pasch-solver-cache`` there. ``Solver.load`` is wrapped in a file lock per table, so the
first worker to need a table builds and stores it while the others wait, then load the stored file.

Tests of the cache itself (``tests/solver/test_solver_cache.py``) set a private directory of their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from pasch.rules import RuleSet, get
from pasch.solver import Solver, table_path

TABLE_LOCK_SECONDS = 600.0
"""How long a worker waits for another one to build a table before it fails (a full table takes seconds)."""


def run_dir(factory: pytest.TempPathFactory) -> Path:
    """The base temporary directory of this run: shared by its xdist workers, new for every run."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _locked_load(original: Any) -> Any:
    """``Solver.load`` that holds ``<table>.lock`` while it looks for, builds and stores the table."""

    def load(cls: type[Solver], rules: RuleSet | str, *args: Any, **kwargs: Any) -> Solver:
        if not kwargs.get("use_cache", True):
            return original(cls, rules, *args, **kwargs)  # type: ignore[no-any-return]
        rs = get(rules) if isinstance(rules, str) else rules
        path = table_path(rs)
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(f"{path}.lock", timeout=TABLE_LOCK_SECONDS):
            return original(cls, rs, *args, **kwargs)  # type: ignore[no-any-return]

    return classmethod(load)


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """This run's solver-table directory (``$PASCH_CACHE_DIR``), its tables built once behind a lock."""
    path = run_dir(tmp_path_factory) / "pasch-solver-cache"
    path.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASCH_CACHE_DIR", str(path))
        mp.setattr(Solver, "load", _locked_load(Solver.load.__func__))
        yield path
