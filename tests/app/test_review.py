"""The review: each decision's loss against the exact solver, and the split of a total into expected start,
points lost and luck."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pasch.app import advise, make_bot, review, reviewable
from pasch.engine import Game, GameLog
from pasch.errors import LogError, RuleSetError

RULES = "yahtzee+forced"  # a full-size rule set whose table builds in milliseconds


def _play(kind: str, seed: int, players: int = 1) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(RULES, [f"p{i}" for i in range(players)], rng=rng)
    bot = make_bot(kind)
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    return game


def test_optimal_play_loses_nothing() -> None:
    game = _play("optimal", 3)
    got = review(game.log)
    assert got.finished and got.lost == (pytest.approx(0.0, abs=1e-6),)
    assert got.totals == (game.state.total(0),)
    assert got.decisions and all(d.is_best for d in got.decisions)
    assert got.accuracy(0) == 1.0 and got.mistakes() == ()


def test_each_loss_is_the_advice_delta_of_the_move_played() -> None:
    game = _play("random", 11)
    got = review(game.log)
    assert any(not d.is_best for d in got.decisions)
    # Recompute every decision from the advice of the position it was made in.
    state = Game(RULES, ["p0"]).state
    by_index = {d.index: d for d in got.decisions}
    for index, text in enumerate(game.log.actions):
        if index in by_index:
            d = by_index[index]
            advice = advise(state)
            option = advice.option(d.played)
            assert option is not None and option.delta is not None
            assert d.loss == pytest.approx(-option.delta, abs=1e-4)
            assert d.value_best == pytest.approx(advice.position_value, abs=1e-4)
            assert d.dice == state.dice
        state = state.apply(text)
    worst = got.mistakes(0, n=3)
    assert [d.loss for d in worst] == sorted((d.loss for d in got.decisions), reverse=True)[:3]
    assert got.lost[0] == pytest.approx(sum(d.loss for d in got.decisions))


def test_luck_averages_zero_whatever_the_policy() -> None:
    """Luck is a sum of chance increments of the optimal value: its mean is 0 for any policy (here the
    greedy bot's), so a sign or offset error in the split shows as a mean far from 0."""
    lucks = []
    for seed in range(60):
        got = review(_play("greedy", 100 + seed).log)
        luck = got.luck(0)
        assert luck is not None
        assert got.totals[0] == pytest.approx(got.expected_start - got.lost[0] + luck)
        lucks.append(luck)
    mean = float(np.mean(lucks))
    se = float(np.std(lucks, ddof=1)) / math.sqrt(len(lucks))
    assert abs(mean) < 4 * se, (mean, se)
    assert float(np.mean([review(_play("greedy", 100 + s).log).lost[0] for s in range(3)])) > 5


def test_unfinished_games_and_several_players() -> None:
    game = Game(RULES, ["ann", "bob"])
    for text in ["roll", "throw 6 6 6 6 6", "score ones", "roll", "throw 1 1 2 3 4", "keep 1 1"]:
        game.act(text)
    got = review(game.log)
    assert not got.finished and got.luck(0) is None
    assert [d.player for d in got.decisions] == [0, 1]
    assert got.decisions[1].played == "keep 1 1" and got.decisions[1].throws_left == 2


def test_what_cannot_be_reviewed() -> None:
    assert reviewable("yatzy") and not reviewable("kniffel-4") and not reviewable("knaster")
    assert reviewable("kniffel-4", estimated=True) and not reviewable("knaster", estimated=True)
    with pytest.raises(RuleSetError, match="sheet game"):
        review(GameLog(rules="knaster", players=("a",), actions=()))
    with pytest.raises(LogError, match="illegal"):
        review(GameLog(rules=RULES, players=("a",), actions=("roll", "throw 1 2 3 4 5", "score sixes")))


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-4"])
def test_several_columns_are_reviewed_against_the_bots_estimate(rules: str) -> None:
    """A multi-column review (issue 28 item 4): each decision's loss is the advice's estimate delta of the
    move played, labelled as estimated, with no luck split; a player who follows the advice loses nothing."""
    rng = np.random.default_rng(5)
    game = Game(rules, ["ann", "bob"], rng=rng)
    greedy = make_bot("greedy")
    while not game.state.is_terminal and game.state.round < 3:
        state = game.state
        if state.current_player == 0 and state.dice is not None:  # ann plays the advice, bob greedily
            game.act(advise(state).options[0].action)
        else:
            game.act(greedy.choose(state, rng))
    got = review(game.log)
    assert got.estimated and not got.finished and got.luck(0) is None and math.isfinite(got.expected_start)
    assert got.lost[0] == pytest.approx(0.0, abs=1e-9) and got.lost[1] > 0
    state = Game(rules, ["ann", "bob"]).state
    by_index = {d.index: d for d in got.decisions}
    for index, text in enumerate(game.log.actions):
        if state.dice is not None and not state.is_chance_node:
            d = by_index[index]  # every decision after a throw is reviewed
            advice = advise(state)
            option = advice.option(text)
            assert advice.estimated and option is not None and option.delta is not None
            assert d.loss == pytest.approx(-option.delta, abs=1e-9)
            assert d.value_best == pytest.approx(advice.options[0].estimate, abs=1e-9)
            assert d.best == str(advice.options[0].action) and d.played == text
        state = state.apply(text)
    assert got.lost[1] == pytest.approx(sum(d.loss for d in got.of(1)))
