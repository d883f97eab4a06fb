"""The process's open win tables (:class:`pasch.solver.WinCache`): opened once per rule set, shared, bounded."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from pasch.solver import MAX_OPEN, WinCache, shared_solver, win_cache, win_pair


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))


def test_a_pair_is_built_once_then_memory_mapped_and_shared() -> None:
    cache = WinCache()
    solver = shared_solver("yahtzee+forced")
    steps: list[str] = []
    target, survival = cache.pair(solver, steps.append)
    assert steps == ["target", "survival"] and cache.opened == 2
    assert isinstance(target.theta, np.memmap) and isinstance(survival.theta, np.memmap)  # no private copy
    assert cache.pair(solver, steps.append) == (target, survival)
    assert steps == ["target", "survival"] and cache.opened == 2  # the second ask opens nothing
    assert cache.is_open(solver.rules.id) and not cache.is_open("yacht")


def test_the_least_recently_used_rule_set_leaves_first() -> None:
    cache = WinCache(max_open=2)
    a, b, c = (shared_solver(r) for r in ("yahtzee+forced", "yacht", "yacht+forced"))
    cache.pair(a)
    cache.pair(b)
    cache.pair(a)  # a is the most recent now
    cache.pair(c)
    assert cache.is_open(a.rules.id) and cache.is_open(c.rules.id) and not cache.is_open(b.rules.id)
    assert cache.opened == 6
    cache.clear()
    assert not cache.tables and cache.opened == 6


def test_threads_asking_at_once_open_the_tables_once() -> None:
    cache = WinCache()
    solver = shared_solver("yacht")
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(cache.pair(solver))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert cache.opened == 2 and all(g is got[0] for g in got)


def test_the_process_cache_is_the_one_the_module_function_reads() -> None:
    win_cache.clear()
    solver = shared_solver("yacht")
    assert win_pair(solver) is win_cache.tables[solver.rules.id]
    assert win_cache.max_open == MAX_OPEN
    win_cache.clear()
