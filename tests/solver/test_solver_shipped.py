"""The tables shipped in the package (``pasch.solver._shipped``): complete, checked, used, refused when wrong."""

from __future__ import annotations

import json
import lzma
import shutil
from pathlib import Path

import numpy as np
import pytest

from pasch.rules import GameKind, get, names
from pasch.solver import SOLVER_VERSION, CacheWarning, Solver, _shipped, build_values, prepare

# The expected scores of optimal play published for these rule sets, and the solver's own (tests elsewhere
# compare the solver with the published values; here: the shipped files hold the solver's tables).
EXPECTED = {"yahtzee": 254.5878, "yatzy": 248.4400, "kniffel": 248.2068, "kniffel-classic": 253.3052, "yacht": 166.9551}


def _shape(rules_id: str) -> tuple[int, ...]:
    p = prepare(get(rules_id))
    return (1 << p.n_boxes, p.n_flags, p.lanes)


def test_every_single_column_base_rule_set_of_the_catalogue_is_shipped() -> None:
    singles = {name for name in names() if get(name).n_columns == 1 and get(name).kind is GameKind.SHEET}
    assert set(_shipped.SHIPPED) == singles
    book = _shipped.manifest()
    assert book["solver_version"] == SOLVER_VERSION
    assert set(book["tables"]) == singles
    assert book["command"] == _shipped.COMMAND


@pytest.mark.parametrize("rules_id", _shipped.SHIPPED)
def test_a_shipped_table_loads_read_only_with_its_checksum(rules_id: str) -> None:
    values, problem = _shipped.load(get(rules_id), _shape(rules_id), SOLVER_VERSION)
    assert values is not None and problem == ""
    assert values.dtype == np.float32 and not values.flags.writeable
    assert round(float(values[0, 0, 0]), 4) == EXPECTED[rules_id]
    assert _shipped.manifest()["tables"][rules_id]["sha256"] == _shipped._digest(values)


def test_the_solver_answers_from_the_shipped_table_without_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))  # an empty cache directory
    solver = Solver.load("yacht")
    assert solver.from_cache and solver.build_seconds == 0.0
    assert round(solver.expected_start, 4) == EXPECTED["yacht"]
    assert list(tmp_path.glob("*.npy")) == []  # no table written: the package's copy serves every process


def test_another_solver_version_or_shape_is_not_served(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get("yacht")
    assert _shipped.load(rules, _shape("yacht"), SOLVER_VERSION + 1) == (None, "")
    assert _shipped.load(rules, (1, 1, 1), SOLVER_VERSION) == (None, "")
    assert _shipped.load(get("yacht+forced"), _shape("yacht+forced"), SOLVER_VERSION) == (None, "")  # not shipped


def _copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped tables that the test may damage, in place of the package's."""
    copy = tmp_path / "tables"
    shutil.copytree(_shipped.DIRECTORY, copy)
    monkeypatch.setattr(_shipped, "DIRECTORY", copy)
    monkeypatch.setattr(_shipped, "_MANIFEST", [])
    return copy


def test_a_damaged_shipped_table_is_refused_with_a_notice_and_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy(tmp_path, monkeypatch)
    raw = bytearray(lzma.decompress((copy / "yacht.f32.xz").read_bytes()))
    raw[-1] ^= 0x01  # one bit of one value
    (copy / "yacht.f32.xz").write_bytes(lzma.compress(bytes(raw)))
    assert _shipped.load(get("yacht"), _shape("yacht"), SOLVER_VERSION) == (
        None,
        "its data does not match its checksum",
    )
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.warns(CacheWarning, match="shipped table of yacht: its data does not match its checksum; building it"):
        solver = Solver.load("yacht")
    assert not solver.from_cache
    assert round(solver.expected_start, 4) == EXPECTED["yacht"]


def test_an_unreadable_shipped_table_is_refused_with_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy(tmp_path, monkeypatch)
    (copy / "yacht.f32.xz").write_bytes(b"not xz at all")
    values, problem = _shipped.load(get("yacht"), _shape("yacht"), SOLVER_VERSION)
    assert values is None and problem.startswith("it cannot be read")
    (copy / "yacht.f32.xz").unlink()
    values, problem = _shipped.load(get("yacht"), _shape("yacht"), SOLVER_VERSION)
    assert values is None and problem.startswith("it cannot be read") and "No such file" in problem


def test_a_manifest_that_is_not_json_ships_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy(tmp_path, monkeypatch)
    (copy / "MANIFEST.json").write_text("[1, 2", encoding="utf-8")
    assert _shipped.manifest() == {}
    assert _shipped.load(get("yacht"), _shape("yacht"), SOLVER_VERSION) == (None, "")


def test_write_round_trips_through_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_shipped, "_MANIFEST", [])
    built = build_values(get("yacht"))
    book = _shipped.write({"yacht": built}, SOLVER_VERSION, tmp_path)
    assert json.loads((tmp_path / "MANIFEST.json").read_text()) == book
    monkeypatch.setattr(_shipped, "DIRECTORY", tmp_path)
    monkeypatch.setattr(_shipped, "_MANIFEST", [])
    got, _ = _shipped.load(get("yacht"), _shape("yacht"), SOLVER_VERSION)
    assert got is not None
    assert got.tobytes() == built.tobytes()


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", _shipped.SHIPPED)
def test_the_shipped_bytes_are_a_fresh_build(rules_id: str) -> None:
    """Run ``python tools/ship_tables.py`` when this fails after a change of the solver (and bump SOLVER_VERSION)."""
    shipped, _ = _shipped.load(get(rules_id), _shape(rules_id), SOLVER_VERSION)
    assert shipped is not None
    fresh = build_values(get(rules_id), np.float32)
    assert fresh.tobytes() == shipped.tobytes(), f"{rules_id}: the shipped table is stale: run tools/ship_tables.py"
