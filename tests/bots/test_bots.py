"""Bots play whole games through the engine; the optimal bot follows the solver."""

from __future__ import annotations

import numpy as np
import pytest

from pasch.bots import GreedyBot, MultiColumnBot, OptimalBot, RandomBot, make_bot
from pasch.engine import Game, Keep, Roll, Score, new_game
from pasch.errors import IllegalActionError, RuleSetError
from pasch.rules import get


def play(rules: str, bot: object, seed: int) -> int:
    rng = np.random.default_rng(seed)
    game = Game(rules, ["bot"], rng=rng)
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))  # type: ignore[attr-defined]
    return int(game.state.total(0))


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=lambda b: b.name)
@pytest.mark.parametrize("rules", ["yahtzee", "yatzy", "kniffel-classic+strict+sharp", "jetsi", "kniffel-4"])
def test_simple_bots_finish_every_game(bot: object, rules: str) -> None:
    assert play(rules, bot, 3) >= 0


def test_optimal_bot_plays_a_legal_game_and_beats_greedy_on_average() -> None:
    bot = OptimalBot()
    optimal = np.mean([play("yahtzee+forced", bot, s) for s in range(20)])
    greedy = np.mean([play("yahtzee+forced", GreedyBot(), s) for s in range(20)])
    assert optimal > greedy


def test_optimal_bot_rolls_first_and_takes_the_solvers_best_option() -> None:
    bot = OptimalBot()
    rng = np.random.default_rng(0)
    state = new_game("yahtzee", ["a"])
    assert isinstance(bot.choose(state, rng), Roll)
    state = state.apply(Roll()).apply("throw 1 3 3 5 6")
    action = bot.choose(state, rng)
    assert isinstance(action, Keep) and action.dice == (3, 3)
    final = new_game("yahtzee", ["a"]).apply(Roll()).apply("throw 6 6 6 6 6")
    assert isinstance(bot.choose(final, rng), Score)


def test_bots_refuse_chance_nodes_and_optimal_delegates_without_a_table() -> None:
    rng = np.random.default_rng(0)
    state = new_game("yahtzee", ["a"]).apply(Roll())
    with pytest.raises(IllegalActionError):
        RandomBot().choose(state, rng)
    with pytest.raises(RuleSetError):
        OptimalBot().solver_for(get("jetsi"))
    # Multi-column games and Knaster have no exact table: the optimal seat plays the strongest bot.
    jetsi = new_game("jetsi", ["a"]).apply(Roll()).apply("throw 1 2 3 4 5")
    assert OptimalBot().choose(jetsi, rng) == MultiColumnBot().choose(jetsi, np.random.default_rng(0))
    assert OptimalBot().choose(jetsi, rng) in jetsi.legal_actions()
    knaster = new_game("knaster", ["a"]).apply("roll").apply("throw 3 4")
    assert OptimalBot().choose(knaster, rng) in knaster.legal_actions()


def test_make_bot() -> None:
    assert isinstance(make_bot("greedy"), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever")
