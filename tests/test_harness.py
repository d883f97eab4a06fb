"""The suite's own solver cache (tests/conftest.py): this run's directory, one table build behind a lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import platformdirs
import pytest
from filelock import FileLock

from pasch.rules import get
from pasch.solver import Solver, cache_dir, load_or_build, table_path


def test_tables_live_in_this_runs_directory_not_the_users(
    solver_cache: Path, tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> None:
    base = tmp_path_factory.getbasetemp()
    assert cache_dir() == solver_cache
    # Under xdist every worker's base is ``<run>/popen-gwN``: the cache sits in ``<run>``, beside them.
    assert solver_cache.parent == (base if worker_id == "master" else base.parent)
    assert not solver_cache.is_relative_to(Path(platformdirs.user_cache_dir("pasch")))


def test_a_table_another_worker_is_building_is_waited_for_then_loaded() -> None:
    rules = get("yahtzee+forced")
    loaded: list[Solver] = []
    with FileLock(f"{table_path(rules)}.lock"):  # as a worker that is building this table holds it
        waiter = threading.Thread(target=lambda: loaded.append(Solver.load(rules)))
        waiter.start()
        time.sleep(0.5)
        assert waiter.is_alive() and not loaded, "Solver.load did not wait for the table's lock"
        load_or_build(rules)  # the other worker stores the table
    waiter.join(60)
    assert len(loaded) == 1 and loaded[0].from_cache
