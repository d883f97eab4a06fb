"""One solver-table cache per test run, shared by the pytest-xdist workers of that run.

Every test sees ``PASCH_CACHE_DIR`` pointing into this run's temporary directory, never the user's cache
directory, and a new run starts with an empty one, so no test depends on an earlier run. Under xdist, each
worker's base temporary directory is a ``popen-gwN`` folder inside the run's own base directory: the
workers share ``pasch-solver-cache`` there (web servers started by the tests inherit the variable).

The loaders of cached tables hold a file lock per table while they look for, build and store it, so the
first worker to need a table builds it while the others wait, then load the stored file:
``Solver.load`` (value tables, about a second each) and the multi-column bot's ``load_slack`` (slack
tables of fixed-order columns, several seconds each). Tests of the cache itself
(``tests/solver/test_solver_cache.py``) set a private directory of their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

import pasch.bots._multi
from pasch.bots._multi import _Column
from pasch.bots._slack import SlackColumn
from pasch.rules import Order, RuleSet, get
from pasch.solver import Solver, cache_dir, table_path

LOCK_SECONDS = 600.0
"""How long a worker waits for another one to build a table before it fails (the largest takes seconds)."""


def run_dir(factory: pytest.TempPathFactory) -> Path:
    """The base temporary directory of this run: shared by its xdist workers, new for every run."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def table_lock(path: Path) -> FileLock:
    """The lock of one table file of the cache directory (``<file>.lock`` beside it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(f"{path}.lock", timeout=LOCK_SECONDS)


def _locked_solver_load(original: Any) -> Any:
    """``Solver.load`` that holds the table's lock while it loads or builds and stores the table."""

    def load(cls: type[Solver], rules: RuleSet | str, *args: Any, **kwargs: Any) -> Solver:
        if not kwargs.get("use_cache", True):
            return original(cls, rules, *args, **kwargs)  # type: ignore[no-any-return]
        rs = get(rules) if isinstance(rules, str) else rules
        with table_lock(table_path(rs)):
            return original(cls, rs, *args, **kwargs)  # type: ignore[no-any-return]

    return classmethod(load)


def _locked_load_slack(original: Any) -> Any:
    """``load_slack`` that holds a lock per slack table (rule set, order, most slack) while it runs."""

    def load_slack(col: _Column, order: Order, max_slack: int, rules_id: str) -> SlackColumn:
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in rules_id)[:80]
        with table_lock(cache_dir() / f"slack-{safe}-{order.value}-{max_slack}"):
            return original(col, order, max_slack, rules_id)  # type: ignore[no-any-return]

    return load_slack


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """This run's solver-table directory (``$PASCH_CACHE_DIR``), each table built once behind a lock."""
    path = run_dir(tmp_path_factory) / "pasch-solver-cache"
    path.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASCH_CACHE_DIR", str(path))
        mp.setattr(Solver, "load", _locked_solver_load(Solver.load.__func__))
        mp.setattr(pasch.bots._multi, "load_slack", _locked_load_slack(pasch.bots._multi.load_slack))
        yield path
