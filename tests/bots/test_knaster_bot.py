"""The Knaster bot: legal in every situation (duties included), deterministic, and far above random play."""

from __future__ import annotations

import numpy as np
import pytest

from pasch.bots import KnasterBot, RandomBot, make_bot
from pasch.engine import Circle, Game, KnasterState, Write, new_game
from pasch.errors import IllegalActionError, RuleSetError


def play(bots: list[object], seed: int) -> tuple[int, ...]:
    rng = np.random.default_rng(seed)
    game = Game("knaster", [f"p{i}" for i in range(len(bots))], rng=rng)
    while not game.state.is_terminal:
        state = game.state
        action = bots[state.current_player].choose(state, rng)
        assert action in state.legal_actions()
        game.act(action)
    return tuple(int(t) for t in game.state.totals())


def test_solo_games_are_legal_and_score_well() -> None:
    scores = [play([KnasterBot()], seed)[0] for seed in range(20)]
    assert np.mean(scores) > 60


@pytest.mark.parametrize("players", [2, 4])
def test_multiplayer_tables_are_legal(players: int) -> None:
    assert len(play([KnasterBot() for _ in range(players)], players)) == players


def test_mixed_table_with_a_random_player() -> None:
    totals = [play([KnasterBot(), RandomBot()], seed) for seed in range(10)]
    assert np.mean([t[0] for t in totals]) > np.mean([t[1] for t in totals]) + 15


@pytest.mark.slow
def test_legal_over_many_games() -> None:
    for seed in range(200):
        play([KnasterBot()], 1000 + seed)
    for seed in range(30):
        play([KnasterBot(), KnasterBot(), KnasterBot()], 2000 + seed)


def test_same_seed_same_game() -> None:
    assert play([KnasterBot()], 7) == play([KnasterBot()], 7)


def test_beats_random_on_a_seeded_sample() -> None:
    seeds = range(10)
    bot = np.mean([play([KnasterBot()], s)[0] for s in seeds])
    rand = np.mean([play([RandomBot()], s)[0] for s in seeds])
    assert bot > rand + 40


def test_forced_circles_and_circling_in_solo() -> None:
    bot = KnasterBot()
    rng = np.random.default_rng(0)
    state = new_game("knaster", ["a"])
    assert isinstance(state, KnasterState)
    # Write 7 8 9 10 into row 1, then an 11 completes a straight: three circles are owed there.
    for n, cell in zip((7, 8, 9, 10), ("a1", "b1", "c1", "d1"), strict=True):
        state = state.apply("roll").apply(f"throw {n - 6} 6" if n > 7 else "throw 1 6").apply(f"write {n} at {cell}")
    state = state.apply("roll").apply("throw 5 6")
    state = state.apply("write 11 at e1")
    assert state.duties
    action = bot.choose(state, rng)
    assert isinstance(action, Circle) and action.cell in {"a1", "b1", "c1", "d1", "e1"}
    while state.duties:
        state = state.apply(bot.choose(state, rng))
    # Solo: a called number that can be circled is circled rather than written.
    state = state.apply("roll").apply("throw 5 6")
    if any(not state.grids[0].is_circled(c) for c in ("e1",)):
        assert isinstance(bot.choose(state, rng), Circle)
    else:
        assert isinstance(bot.choose(state, rng), Write)


def test_refuses_chance_nodes_and_sheet_games() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(IllegalActionError):
        KnasterBot().choose(new_game("knaster", ["a"]).apply("roll"), rng)
    with pytest.raises(RuleSetError):
        KnasterBot().choose(new_game("yahtzee", ["a"]).apply("roll").apply("throw 1 2 3 4 5"), rng)


def test_make_bot_knows_knaster() -> None:
    assert isinstance(make_bot("knaster"), KnasterBot)
