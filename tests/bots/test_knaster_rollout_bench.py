"""bench/knaster_rollout.py, the Knaster rollout yardstick: without continuations it is the base bot, move for
move; with them a game runs end to end on the same dice, solo and at a table of three."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "knaster_rollout.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_knaster_rollout", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["solo", "table"])
def test_without_continuations_the_rollout_bot_is_the_base_bot(bench: ModuleType, mode: str) -> None:
    for g in range(2):
        base, rolled_out, rolled = bench.play(bench.Config(mode, 5, 0, 4, 1.5), g)
        assert rolled_out == base and rolled == 0


def test_a_rollout_game_runs_on_common_dice(bench: ModuleType) -> None:
    a = bench._dice((5, 0, 3, 1), 2, 6)
    assert np.array_equal(a, bench._dice((5, 0, 3, 1), 2, 6))  # every candidate hears the same numbers
    assert not np.array_equal(a, bench._dice((5, 0, 3, 2), 2, 6))
    base, rolled_out, rolled = bench.play(bench.Config("table", 5, 1, 2, 1.5), 1)
    assert rolled > 0
    assert {base, rolled_out} <= {0.0, 1 / 3, 0.5, 1.0}


def test_the_bench_prints_its_table(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--mode", "solo", "--games", "2", "--n", "1", "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert "seed 2029" in out and "games/s" in out and "solo" in out
    assert bench.main(["--games", "1"]) == 2
