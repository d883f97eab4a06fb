"""The checksummed cache helper under damage: odd sidecars, failed and killed writes, unwritable directories.

Value tables and slack tables share the helper (``load_array`` / ``store_array``), so both are checked.
"""

from __future__ import annotations

import errno
import json
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pasch.solver._table as table_mod
from pasch.rules import get
from pasch.solver import CacheWarning, Solver, load_or_build, slack_table, table_path
from pasch.solver._table import load_array, store_array, store_or_warn

RULES = "yahtzee+forced"  # a tiny table (forced order: 14 reachable masks), built in milliseconds
META = {"rules": "test", "version": 1}
SHAPE = (3, 4)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests damage cache files: each gets a directory of its own, not the run's."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "pasch-cache"))


def _stored(tmp_path: Path) -> tuple[Path, np.ndarray[Any, Any]]:
    values = np.arange(12, dtype=np.float64).reshape(SHAPE)
    path = tmp_path / "t.npy"
    store_array(path, values, META)
    return path, values


def test_a_sound_pair_loads_without_a_warning(tmp_path: Path) -> None:
    path, values = _stored(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = load_array(path, META, SHAPE, np.float64)
    assert got is not None and np.array_equal(got, values)


def test_missing_files_are_no_damage(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_array(tmp_path / "none.npy", META, SHAPE, np.float64) is None
        assert load_array(tmp_path / "file" / "none.npy", META, SHAPE, np.float64) is None


@pytest.mark.parametrize(
    ("sidecar", "why"),
    [
        ("[]", "an array"),
        ("3", "a number"),
        ('"x"', "a string"),
        ("null", "null"),
        ("{not json", "not JSON"),
        ("[" * 100_000, "not JSON"),
        (json.dumps({**META, "shape": "3,4", "dtype": "float64", "crc32": 1}), "shape"),
        (json.dumps({**META, "shape": [3, "4"], "dtype": "float64", "crc32": 1}), "shape"),
        (json.dumps({**META, "shape": [3, 4], "dtype": 8, "crc32": 1}), "dtype"),
        (json.dumps({**META, "shape": [3, 4], "dtype": "float64", "crc32": "1"}), "checksum"),
        (json.dumps({**META, "shape": [3, 4], "dtype": "float64", "crc32": True}), "checksum"),
        (json.dumps({**META, "shape": [3, 4], "dtype": "float64", "crc32": 12345}), "checksum"),
    ],
)
def test_damaged_sidecars_warn_and_load_nothing(tmp_path: Path, sidecar: str, why: str) -> None:
    path, _ = _stored(tmp_path)
    path.with_suffix(".json").write_text(sidecar)
    with pytest.warns(CacheWarning, match=why):
        assert load_array(path, META, SHAPE, np.float64) is None


def test_a_stale_sidecar_is_replaced_quietly(tmp_path: Path) -> None:
    path, _ = _stored(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_array(path, {**META, "version": 2}, SHAPE, np.float64) is None


@pytest.mark.parametrize("sidecar", ["[]", "3", '"x"', '{"rules": 5, "shape": {}, "crc32": []}'])
def test_solver_rebuilds_a_table_whose_sidecar_is_not_an_object(sidecar: str) -> None:
    good = Solver.load(RULES, force=True).expected_start
    side = table_path(get(RULES)).with_suffix(".json")
    side.write_text(sidecar)
    with pytest.warns(CacheWarning, match="damaged"):
        rebuilt = Solver.load(RULES)
    assert not rebuilt.from_cache and rebuilt.expected_start == good
    assert isinstance(json.loads(side.read_text()), dict)
    assert Solver.load(RULES).from_cache


def test_slack_tables_share_the_checks() -> None:
    solver = Solver.load(RULES)
    first = slack_table(solver, 2)
    sides = list(table_path(get(RULES)).parent.glob("slack-*.json"))
    assert len(sides) == 1
    sides[0].write_text("[]")
    with pytest.warns(CacheWarning, match="not a JSON object"):
        again = slack_table(solver, 2)
    assert np.array_equal(again.values, first.values)
    assert isinstance(json.loads(sides[0].read_text()), dict)


def _temporaries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.tmp"))


def test_a_failed_write_leaves_no_temporary_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(fh: Any, values: Any, **_kw: Any) -> None:
        fh.write(b"\x93NUMPY partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(table_mod.np, "save", full_disk)
    path = tmp_path / "t.npy"
    with pytest.raises(OSError, match="No space"):
        store_array(path, np.zeros(SHAPE), META)
    assert _temporaries(tmp_path) == [] and not path.exists()
    with pytest.warns(CacheWarning, match="No space left on device"):
        assert store_or_warn(path, np.zeros(SHAPE), META) is False
    assert _temporaries(tmp_path) == []


def test_a_failed_sidecar_write_leaves_no_temporary_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path.write_text

    def fail_json(self: Path, *args: Any, **kwargs: Any) -> int:
        if self.name.endswith(".json.tmp"):
            real(self, "{", encoding="utf-8")
            raise OSError(errno.EIO, "I/O error")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fail_json)
    with pytest.raises(OSError):
        store_array(tmp_path / "t.npy", np.zeros(SHAPE), META)
    assert _temporaries(tmp_path) == []


def test_temporaries_of_killed_writers_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    dead = 2**22 + 7  # above Linux's largest pid: no such process
    stale = [tmp_path / f".t.npy.{dead}.1.tmp", tmp_path / f".t.npy.{dead}.1.json.tmp"]
    live = tmp_path / f".t.npy.{os.getppid()}.1.tmp"  # a writer still running keeps its file
    other = tmp_path / f".other.npy.{dead}.1.tmp"
    for p in (*stale, live, other):
        p.write_bytes(b"x" * 100)
    store_array(path, np.zeros(SHAPE), META)
    assert not any(p.exists() for p in stale)
    assert live.exists() and other.exists()
    assert load_array(path, META, SHAPE, np.float64) is not None


def test_an_unwritable_cache_computes_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("PASCH_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(CacheWarning, match="cannot write") as seen:  # (the test run's Solver.load takes a lock file)
        values, from_cache, _ = load_or_build(get(RULES))
    assert not from_cache and float(values[0, 0, 0]) > 0
    assert sum("cannot write" in str(w.message) for w in seen) == 1
    assert not any("damaged" in str(w.message) for w in seen)
