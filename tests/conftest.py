"""One solver-table cache per test run, shared by the pytest-xdist workers of that run.

Every test sees ``PASCH_CACHE_DIR`` pointing into this run's temporary directory, never the user's cache
directory, and a new run starts with an empty one, so no test depends on an earlier run. Under xdist, each
worker's base temporary directory is a ``popen-gwN`` folder inside the run's own base directory: the
workers share ``pasch-solver-cache`` there (web servers started by the tests inherit the variable).

The loaders of cached tables hold a file lock per table while they look for, build and store it, so the
first worker to need a table builds it while the others wait, then load the stored file:
``Solver.load`` (value tables, about a second each) and the solver's ``slack_table`` (the slack tables of
fixed-order columns the multi-column bot uses, several seconds each). Tests of the cache itself
(``tests/solver/test_solver_cache.py``) set a private directory of their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

import pasch.solver._slack
from pasch.rules import RuleSet, get
from pasch.solver import SlackTable, Solver, cache_dir, table_path
from web._support import Postgres, find_pg_bin

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


def _locked_slack_table(original: Any) -> Any:
    """``slack_table`` that holds a lock per slack table (column rule set, most slack) while it runs."""

    def slack_table(solver: Solver, max_slack: int, *, use_cache: bool = True) -> SlackTable:
        if not use_cache:
            return original(solver, max_slack, use_cache=False)  # type: ignore[no-any-return]
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in solver.rules.cache_key)[:80]
        with table_lock(cache_dir() / f"slack-{safe}-{max_slack}"):
            return original(solver, max_slack, use_cache=True)  # type: ignore[no-any-return]

    return slack_table


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """This run's solver-table directory (``$PASCH_CACHE_DIR``), each table built once behind a lock."""
    path = run_dir(tmp_path_factory) / "pasch-solver-cache"
    path.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASCH_CACHE_DIR", str(path))
        mp.setattr(Solver, "load", _locked_solver_load(Solver.load.__func__))
        mp.setattr(pasch.solver._slack, "slack_table", _locked_slack_table(pasch.solver._slack.slack_table))
        yield path


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    """A throw-away PostgreSQL server (initdb + pg_ctl) for a module's tests; skipped where none is installed."""
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) are not installed; run ci/setup-system.sh")
    pg = Postgres(bindir).start()
    try:
        yield pg
    finally:
        pg.stop()
