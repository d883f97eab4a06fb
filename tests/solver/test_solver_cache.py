"""Table files: stored, memory-mapped on load, stale or corrupt files rebuilt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import get
from pasch.solver import Solver, table_path

RULES = "yahtzee+forced"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests rewrite and corrupt table files: each gets a directory of its own, not the run's."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "pasch-cache"))


def test_table_is_stored_then_loaded_memory_mapped() -> None:
    first = Solver.load(RULES, force=True)
    assert not first.from_cache
    path = table_path(get(RULES))
    assert path.exists() and path.with_suffix(".json").exists()
    again = Solver.load(RULES)
    assert again.from_cache
    assert isinstance(again.values, np.memmap)
    assert again.expected_start == first.expected_start


def test_corrupt_data_is_detected_and_rebuilt() -> None:
    good = Solver.load(RULES, force=True).expected_start
    path = table_path(get(RULES))
    raw = bytearray(path.read_bytes())
    raw[-8:] = b"\xff" * 8  # flip the last values: the checksum no longer matches
    path.write_bytes(bytes(raw))
    rebuilt = Solver.load(RULES)
    assert not rebuilt.from_cache
    assert rebuilt.expected_start == good
    assert Solver.load(RULES).from_cache


def test_truncated_file_is_rebuilt() -> None:
    Solver.load(RULES, force=True)
    path = table_path(get(RULES))
    path.write_bytes(path.read_bytes()[:100])
    assert not Solver.load(RULES).from_cache


def test_stale_version_or_other_rules_in_the_sidecar_is_rebuilt() -> None:
    Solver.load(RULES, force=True)
    meta_path = table_path(get(RULES)).with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    meta["version"] = meta["version"] - 1
    meta_path.write_text(json.dumps(meta))
    assert not Solver.load(RULES).from_cache
    meta = json.loads(meta_path.read_text())
    meta["rules"] = "yahtzee"
    meta_path.write_text(json.dumps(meta))
    assert not Solver.load(RULES).from_cache
    meta_path.write_text("{not json")
    assert not Solver.load(RULES).from_cache


def test_cache_key_depends_on_canonical_text() -> None:
    assert table_path(get("yahtzee+sharp+forced")) == table_path(get("yahtzee+forced+sharp"))
    assert table_path(get("yahtzee")) != table_path(get("yahtzee+forced"))


_THREADS = """
import os, sys
from pasch.solver._table import default_threads
print(default_threads(), "numba" in sys.modules)
import numba
print(default_threads(), numba.config.NUMBA_NUM_THREADS)
"""


@pytest.mark.parametrize("setting", ["3", None])
def test_default_threads_reads_numbas_setting_without_importing_numba(setting: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_NUM_THREADS"}
    if setting is not None:
        env["NUMBA_NUM_THREADS"] = setting
    done = subprocess.run(
        [sys.executable, "-c", _THREADS], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    before, after = done.stdout.splitlines()
    expected = setting or str(len(os.sched_getaffinity(0)))
    assert before == f"{expected} False"  # from the environment, as Numba reads it; Numba not imported
    assert after == f"{expected} {expected}"  # the same once Numba is imported (then from its config)


def test_the_cache_directory_stays_within_its_disk_budget_least_recently_used_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule variants filled the disk without limit (issue 26: 458 MB in 3.5 minutes)."""
    from pasch.solver import disk_budget, set_disk_budget, trim_cache

    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("pasch.solver._table._DISK", [None])
    monkeypatch.setenv("PASCH_CACHE_MB", "7")
    assert disk_budget() == 7 << 20
    # Three yahtzee-sized tables of 4 MB each: the budget of 7 MB holds one.
    ids = ["yahtzee+forced+bonus=10", "yahtzee+forced+bonus=20", "yahtzee+forced+bonus=30"]
    Solver.load(ids[0])
    first = table_path(get(ids[0]))
    os.utime(first, (1, 1))  # long unused
    Solver.load(ids[1])
    assert not first.exists() and not first.with_suffix(".json").exists()  # the least recently used went
    second = table_path(get(ids[1]))
    assert second.exists()
    Solver.load(ids[1])  # loading marks it used ...
    Solver.load(ids[2])  # ... but the newest table is never the one removed, and the budget holds one
    assert table_path(get(ids[2])).exists() and not second.exists()
    set_disk_budget(0)  # no bound: nothing removed
    Solver.load(ids[0])
    assert len(list(tmp_path.glob("*.npy"))) == 2 and trim_cache() == 0
    with pytest.raises(ValueError, match="at least 0 MB"):
        set_disk_budget(-1)
