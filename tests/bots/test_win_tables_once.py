"""``bot:win`` reads the win tables the process keeps open (issue 28, item 6): a whole game opens and
checksum-verifies each table once, and the hints then read the same open tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pasch.solver._table as table_files
from pasch.bots import OptimalBot, WinBot
from pasch.engine import Game
from pasch.solver import shared_solver, survival_table, target_table, win_cache, win_files

RULES = "yahtzee+forced"  # full size, but its tables build in milliseconds


@pytest.fixture
def stored_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, int]]:
    """Both win tables of RULES stored in an empty cache directory, none open in the process; yields their
    shape (states, width)."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))
    win_cache.clear()
    solver = shared_solver(RULES)
    target_table(solver)
    survival_table(solver)
    info = win_files(solver)
    assert info.on_disk()
    yield info.states, info.width
    win_cache.clear()


def _count_checks(monkeypatch: pytest.MonkeyPatch, shape: tuple[int, int]) -> list[int]:
    """A list that grows by one at each checksum computed over an array of ``shape`` (a win table opened)."""
    seen: list[int] = []
    real = table_files._checksum

    def counting(values: Any) -> int:
        if tuple(values.shape) == shape:
            seen.append(1)
        return real(values)

    monkeypatch.setattr(table_files, "_checksum", counting)
    return seen


def test_a_game_of_bot_win_opens_and_verifies_each_table_once(
    stored_tables: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = _count_checks(monkeypatch, stored_tables)
    opened = win_cache.opened
    rng = np.random.default_rng(28)
    game = Game(RULES, ["win-a", "optimal", "win-b"], rng=rng)
    bots = [WinBot(), OptimalBot(), WinBot()]  # two bots of the same process share the open tables
    decisions = 0
    while not game.state.is_terminal:
        seat = game.state.current_player
        decisions += seat != 1
        game.act(bots[seat].choose(game.state, rng))
    assert decisions > 50
    assert len(checks) == 2  # the threshold table and the survival table, once each
    assert win_cache.opened - opened == 2
    assert win_cache.is_open(game.state.rules.id)


def test_the_hints_read_the_tables_the_bot_opened(
    stored_tables: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pasch.app import advise, win_tables_ready

    rng = np.random.default_rng(3)
    game = Game(RULES, ["win", "b"], rng=rng)
    bot = WinBot()
    while game.state.dice is None or game.state.current_player != 0:
        game.act(bot.choose(game.state, rng))
    bot.choose(game.state, rng)
    assert win_tables_ready(game.state.rules)
    checks = _count_checks(monkeypatch, stored_tables)
    got = advise(game.state, win=True)
    assert all(o.p_win is not None for o in got.options)
    assert checks == []  # nothing opened again
