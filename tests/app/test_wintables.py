"""The win tables behind P(win) in hints: where they apply, whether they are at hand, prepared on request only,
memory-mapped from the cache and kept open per rule set."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import pasch.app._wintables as wintables
from pasch.app import advise, prepare_win_tables, win_applies, win_tables, win_tables_ready
from pasch.engine import GameState, Roll, Throw, new_game
from pasch.rules import get
from pasch.solver import shared_solver, survival_table, target_table, win_files

RULES = "yahtzee+forced"  # full size, but its tables build in milliseconds


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))
    wintables._TABLES.clear()
    yield tmp_path / "cache"
    wintables._TABLES.clear()


def _thrown(rules: str, players: int) -> GameState:
    state = new_game(rules, [f"p{i}" for i in range(players)]).apply(Roll()).apply(Throw((1, 3, 3, 5, 6)))
    assert isinstance(state, GameState)
    return state


def test_p_win_applies_to_one_column_games_of_two_to_eight_players() -> None:
    assert win_applies(_thrown(RULES, 2)) and win_applies(_thrown("yatzy", 8))
    assert not win_applies(_thrown(RULES, 1))
    assert not win_applies(new_game("yatzy", [f"p{i}" for i in range(9)]))
    assert not win_applies(_thrown("kniffel-3", 2))
    assert not win_applies(new_game("knaster", ["a", "b"]))


def test_nothing_is_built_unasked_then_prepare_builds_stores_and_maps(fresh_cache: Path) -> None:
    rules = get(RULES)
    before = win_tables(rules)
    assert not before.ready and not before.on_disk
    assert not any(fresh_cache.glob("target-*")) and not any(fresh_cache.glob("survive-*"))  # asking built nothing
    steps: list[tuple[int, int, int, int]] = []
    after = prepare_win_tables(rules, lambda *a: steps.append(a))
    assert after.ready and after.on_disk and win_tables_ready(rules)
    assert [s[:2] for s in steps] == [(1, 3), (2, 3), (3, 3), (3, 3)] and steps[-1] == (3, 3, 1, 1)
    table, survival = wintables._TABLES[rules.id]
    for t in (table, survival):
        assert isinstance(t.theta, np.memmap) and not t.theta.flags.writeable  # read-only, from the cache
    assert after.nbytes == table.theta.nbytes + survival.theta.nbytes == win_files(shared_solver(rules)).nbytes
    assert after.megabytes == max(1, round(after.nbytes / 1e6))


def test_a_stored_table_is_seen_and_a_stale_sidecar_is_not(fresh_cache: Path) -> None:
    solver = shared_solver(RULES)
    target_table(solver)
    info = win_files(solver)
    assert info.stored(info.target) and not info.on_disk()  # the survival table is missing
    survival_table(solver)
    assert info.on_disk() and win_tables(get(RULES)).on_disk
    side = info.target.with_suffix(".json")
    meta = json.loads(side.read_text(encoding="utf-8"))
    side.write_text(json.dumps({**meta, "width": meta["width"] - 1}), encoding="utf-8")
    assert not info.on_disk()
    side.write_text("not json", encoding="utf-8")
    assert not info.on_disk()


def test_advice_with_win_reads_the_kept_table(fresh_cache: Path) -> None:
    state = _thrown(RULES, 3)
    first = advise(state, win=True)
    table = wintables._TABLES[get(RULES).id]
    again = advise(state, win=True)
    assert wintables._TABLES[get(RULES).id] is table  # opened once, not per hint
    assert [o.p_win for o in again.options] == [o.p_win for o in first.options]
    assert all(o.p_win is not None and 0.0 <= o.p_win <= 1.0 for o in first.options)
