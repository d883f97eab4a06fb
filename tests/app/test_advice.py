"""Advice: exact values on one-column sheets (checked against the engine's own chance outcomes), the
strongest bot's move elsewhere, nothing invented while a score keeper waits for the table's dice."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pasch.app import advise, make_bot
from pasch.engine import GameState, Keep, KnasterState, Roll, State, Throw, new_game
from pasch.errors import IllegalActionError
from pasch.solver import shared_solver

from .conftest import tiny

TOL = 1e-9
"""Values read off the same table agree exactly; recomputed ones to float32 precision (1e-5)."""


def _best_value(state: State) -> float:
    advice = advise(state)
    assert advice.exact
    assert advice.position_value is not None
    return advice.position_value


def _after_throws(state: State) -> float:
    """Expected best value over the engine's chance outcomes (exact fractions)."""
    return sum(float(p) * _best_value(state.apply(t)) for t, p in state.chance_outcomes())


def test_exact_values_agree_with_the_engine_and_the_solver() -> None:
    rules = tiny(bonus=10)
    solver = shared_solver(rules)
    state: State = new_game(rules, ["Ada"])
    start = advise(state)
    assert start.suggestion == Roll() and start.exact
    assert start.position_value == pytest.approx(solver.expected_start, abs=TOL)
    state = state.apply("roll").apply("throw 1 1 2")
    advice = advise(state)
    values = [o.value for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert {str(o.action) for o in advice.options} == {str(a) for a in state.legal_actions()}
    assert advice.options[0].best and advice.options[0].delta == 0.0
    for o in advice.options:
        assert o.value is not None and o.delta is not None
        assert o.delta == pytest.approx(o.value - advice.options[0].value, abs=TOL)
        after = state.apply(o.action)
        if isinstance(o.action, Keep):
            assert o.value == pytest.approx(_after_throws(after), abs=1e-5), o.action  # float32 tables
        else:
            assert isinstance(after, GameState)
            col = after.sheets[0].columns[0]
            rest = 0.0 if col.is_full else solver.value(list(col.scores))
            assert o.value == pytest.approx(after.total(0) + rest, abs=TOL), o.action
            assert o.points is not None


def test_the_best_option_is_the_suggestion_and_ties_are_all_best() -> None:
    state = new_game(tiny(), ["Ada"]).apply("roll").apply("throw 3 3 3")
    advice = advise(state)
    assert advice.suggestion == advice.options[0].action
    top = advice.options[0].value
    assert top is not None
    assert all(o.best == (abs((o.value or 0) - top) < TOL) for o in advice.options)
    assert advice.top(2) == advice.options[:2]
    assert advice.option(advice.options[1].action) == advice.options[1]


def test_a_score_keeper_waiting_for_dice_gets_no_invented_move() -> None:
    state = new_game(tiny(), ["Ada"], keeper=True)
    advice = advise(state)
    assert advice.waiting_for_dice and advice.suggestion is None and advice.options == ()
    assert advice.position_value == pytest.approx(shared_solver(tiny()).expected_start, abs=TOL)
    multi = advise(new_game("kniffel-3", ["Ada"], keeper=True))
    assert multi.waiting_for_dice and not multi.exact and multi.suggestion is None


def test_multi_column_advice_is_the_strongest_bots_move_with_keep_advice() -> None:
    rules = tiny("app-tiny-2", columns=2)
    state: State = new_game(rules, ["Ada", "Bob"]).apply("roll").apply("throw 1 2 4")
    advice = advise(state)
    assert not advice.exact and advice.source == "bot:optimal" and advice.estimated
    assert advice.suggestion in state.legal_actions()
    assert advice.suggestion == make_bot("bot:optimal").choose(state, np.random.default_rng(0))
    assert sum(o.best for o in advice.options) == 1 and advice.options[0].best
    assert all(o.value is None for o in advice.options)  # nothing here is exact
    if isinstance(advice.suggestion, Keep):
        assert advice.keep == advice.suggestion.dice
    else:
        assert advice.keep is None


def _ranked_everywhere(state: State, bot: Any) -> None:
    """Every legal option is listed once with an estimate, best first, the bot's choice the best."""
    advice = advise(state)
    assert advice.estimated and not advice.exact
    assert sorted(str(o.action) for o in advice.options) == sorted(str(a) for a in state.legal_actions())
    estimates = [o.estimate for o in advice.options]
    assert all(e is not None for e in estimates)
    assert estimates == sorted(estimates, reverse=True)  # type: ignore[type-var]
    assert advice.options[0].delta == 0.0 and all(o.delta is not None and o.delta <= 0 for o in advice.options)
    assert advice.suggestion == advice.options[0].action == bot.choose(state, np.random.default_rng(0))
    assert isinstance(state, GameState)
    pays = {str(state.score_action(c, o.index)): o.total for c, o in state.score_options()}
    assert {str(o.action): o.points for o in advice.options if o.points is not None} == pays


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-4"])
def test_multi_column_advice_ranks_every_keep_box_and_announcement_by_the_bots_estimate(rules: str) -> None:
    rng = np.random.default_rng(28)
    bot = make_bot("bot:optimal")
    state: State = new_game(rules, ["Ada"])
    seen: set[str] = set()
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(Throw(tuple(int(x) for x in rng.integers(1, 7, size=state.pending))))
            continue
        if isinstance(state, GameState) and state.dice is not None:
            _ranked_everywhere(state, bot)
            kinds = {type(a).__name__ for a in state.legal_actions()}
            seen |= kinds | ({"announced"} if state.announced is not None else set())
        state = state.apply(bot.choose(state, rng))
        if isinstance(state, GameState) and state.turn > 4:
            break
    assert {"Keep", "Score"} <= seen


def test_kniffel_4_advice_values_announcements_and_the_announced_turn() -> None:
    state: State = new_game("kniffel-4", ["Ada"]).apply("roll").apply("throw 6 6 6 2 3")
    advice = advise(state)
    announces = [o for o in advice.options if str(o.action).startswith("announce")]
    assert len(announces) == 13 and all(o.estimate is not None for o in announces)
    state = state.apply("announce sixes")
    _ranked_everywhere(state, make_bot("bot:optimal"))
    advice = advise(state)
    crossings = [o for o in advice.options if str(o.action).startswith("score") and o.points == 0]
    assert crossings and all(o.estimate is not None for o in crossings)  # crossing out elsewhere is valued too


def test_multi_column_advice_waits_for_the_throw() -> None:
    advice = advise(new_game("jetsi", ["Ada"]))
    assert str(advice.suggestion) == "roll" and not advice.estimated


def test_knaster_advice_ranks_every_move_by_the_bots_evaluation() -> None:
    state: State = new_game("knaster", ["Ada", "Bob"]).apply("roll")
    state = state.apply(state.chance_outcomes()[3][0])
    assert isinstance(state, KnasterState)
    advice = advise(state, rng=np.random.default_rng(1))
    assert not advice.exact and advice.source == "bot:knaster"
    assert advice.suggestion == make_bot("bot:knaster").choose(state, np.random.default_rng(1))
    assert sorted(map(str, (o.action for o in advice.options))) == sorted(map(str, state.legal_actions()))
    estimates = [o.estimate for o in advice.options]
    assert all(e is not None for e in estimates)
    assert estimates == sorted(estimates, reverse=True)  # type: ignore[type-var]
    assert advice.options[0].delta == 0.0 and all((o.delta or 0) <= 0 for o in advice.options)


def test_no_advice_at_a_chance_node_or_after_the_end() -> None:
    state = new_game(tiny(), ["Ada"]).apply("roll")
    with pytest.raises(IllegalActionError):
        advise(state)
