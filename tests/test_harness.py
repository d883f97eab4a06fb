"""The suite's own solver cache (tests/conftest.py): this run's directory, one table build behind a lock."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import platformdirs
import pytest
from filelock import BaseFileLock, FileLock

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


def _blocked_on(thread: threading.Thread, lock: BaseFileLock) -> bool:
    """Whether ``thread`` is inside ``acquire`` of a lock on ``lock``'s file now (its stack, read from here)."""
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        other = frame.f_locals.get("self") if frame.f_code.co_name == "acquire" else None
        if isinstance(other, BaseFileLock) and other.lock_file == lock.lock_file:
            return True
        frame = frame.f_back
    return False


def test_a_table_another_worker_is_building_is_waited_for_then_loaded() -> None:
    rules = get("yahtzee+forced")
    loaded: list[Solver] = []
    with FileLock(f"{table_path(rules)}.lock") as held:  # as a worker that is building this table holds it
        waiter = threading.Thread(target=lambda: loaded.append(Solver.load(rules)))
        waiter.start()
        # Seen, not slept on: the waiter reaches the lock's acquire and stays there while the lock is held (a
        # Solver.load that did not take the lock would finish instead). A loaded machine only makes this later.
        deadline = time.monotonic() + 120
        while waiter.is_alive() and not _blocked_on(waiter, held) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _blocked_on(waiter, held) and not loaded, "Solver.load did not wait for the table's lock"
        load_or_build(rules)  # the other worker stores the table
    waiter.join(120)
    assert len(loaded) == 1 and loaded[0].from_cache
