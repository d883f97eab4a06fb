"""The sheet layout: rows, sums and bonus progress agree with the engine, and columns are reused."""

from __future__ import annotations

import numpy as np
import pytest

from pasch.app import LayoutCache, Match, RowKind, Seat, make_bot, sheet_layout
from pasch.engine import GameState
from pasch.rules import get


def _play(rules: str, players: int, turns: int, seed: int) -> GameState:
    match = Match.new(rules, [Seat(f"P{i}", "bot:greedy") for i in range(players)], seed=seed)
    bot = make_bot("bot:random")
    rng = np.random.default_rng(seed)
    while not match.finished and match.state.turn < turns:
        match.act(bot.choose(match.state, rng))
    state = match.state
    assert isinstance(state, GameState)
    return state


@pytest.mark.parametrize("rules", ["kniffel", "yatzy", "yacht", "kniffel-4", "jetsi", "kniffel-classic+sharp"])
def test_sums_and_totals_are_the_engines(rules: str) -> None:
    state = _play(rules, 2, 17, seed=7)
    layout = sheet_layout(state)
    assert len(layout.columns) == 2 * state.rules.n_columns
    for col in layout.columns:
        t = state.column_totals(col.player, col.column)
        assert (col.upper, col.bonus, col.lower, col.extra, col.total) == (t.upper, t.bonus, t.lower, t.extra, t.total)
        assert col.scores == state.sheets[col.player].columns[col.column].scores
    assert layout.grand_totals == state.totals()
    assert layout.current == (None if state.is_terminal else state.current_player)
    assert set(layout.options) == {(c, o.index) for c, o in state.score_options()}


def test_rows_follow_the_rule_set() -> None:
    kinds = [r.kind for r in sheet_layout(GameState.new(get("kniffel"), ["A"])).rows]
    assert kinds == [RowKind.BOX] * 6 + [RowKind.UPPER_SUM, RowKind.BONUS] + [RowKind.BOX] * 7 + [
        RowKind.EXTRA,
        RowKind.TOTAL,
    ]
    yacht = [r.kind for r in sheet_layout(GameState.new(get("yacht"), ["A"])).rows]
    assert RowKind.BONUS not in yacht and RowKind.EXTRA not in yacht
    jetsi = sheet_layout(GameState.new(get("jetsi"), ["A"]))
    assert jetsi.rows[-1].kind is RowKind.GRAND_TOTAL


def test_bonus_progress() -> None:
    state = GameState.new(get("kniffel"), ["A"])
    fresh = sheet_layout(state).column(0).progress
    assert fresh is not None and fresh.need == 63 and fresh.reachable and not fresh.decided and fresh.vs_par == 0
    state = state.apply("roll").apply("throw 6 6 6 6 1").apply("score sixes")
    p = sheet_layout(state).column(0).progress
    assert p is not None and p.vs_par == 24 - 18 and p.need == 63 - 24
    # Zeros in sixes, fives and fours: at most 15 + 10 + 5 = ... out of reach of 63.
    st = GameState.new(get("kniffel"), ["A"])
    for box in ("sixes", "fives", "fours"):
        st = st.apply("roll").apply("throw 1 1 2 2 3").apply(f"score {box}")
    q = sheet_layout(st).column(0).progress
    assert q is not None and not q.reachable and q.decided and q.vs_par == -(18 + 15 + 12)
    assert sheet_layout(GameState.new(get("yacht"), ["A"])).column(0).progress is None


def test_unchanged_columns_are_reused_from_the_cache() -> None:
    cache = LayoutCache()
    state = _play("kniffel", 3, 5, seed=2)
    first = sheet_layout(state, cache)
    nxt = state.apply("roll") if state.dice is None else state
    nxt = nxt.apply(nxt.legal_actions()[0]) if nxt.is_chance_node else nxt
    second = sheet_layout(nxt, cache)
    for a, b in zip(first.columns, second.columns, strict=True):
        same = state.sheets[a.player].columns[a.column] is nxt.sheets[b.player].columns[b.column]
        assert (a is b) == same
