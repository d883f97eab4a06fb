"""bench/learned.py, the multi-column bots' solo means on seeded dice: a game runs end to end, the same seed gives
the same game, the luck adjustment is the rollout bench's, and ``--report`` reads what a run wrote."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "learned.py"


@pytest.fixture(scope="module")
def learned() -> ModuleType:
    sys.path.insert(0, str(BENCH.parent))  # it imports bench/rollout.py as ``rollout``
    try:
        spec = importlib.util.spec_from_file_location("bench_learned", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH.parent))
    return module


def test_a_seeded_game_runs_and_replays(learned: ModuleType) -> None:
    g, total, luck, decisions, decide_s, wall_s = learned.play("jetsi", "base", 2029, 3)
    assert g == 3 and 39 * 2 <= decisions <= 39 * 3 + 1  # 39 turns: an entry and up to two keeps each
    assert 150 <= total <= 1500 and abs(luck) < 400 and 0 < decide_s <= wall_s
    again = learned.play("jetsi", "base", 2029, 3)
    assert again[1:3] == (total, luck)  # the same dice, the same game
    other = learned.play("jetsi", "base", 2029, 4)
    assert other[1:3] != (total, luck)


def test_a_run_writes_rows_that_report_reads(tmp_path: Path) -> None:
    cmd = [sys.executable, str(BENCH), "--rules", "jetsi", "--bots", "base", "--games", "2", "--dir", str(tmp_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "jetsi.base.csv").read_text().splitlines()
    assert rows[0] == "game,total,luck,decisions,decide_s,wall_s" and len(rows) == 3
    line = next(x for x in done.stdout.splitlines() if x.startswith("jetsi"))
    assert line.split()[:3] == ["jetsi", "base", "2"]
