"""The hint panel's content in multi-column games (issue 28 item 4): every legal option after a throw, ranked
by the strongest bot's estimate of the final total, with "vs best" deltas, marked as estimated, not exact."""

from __future__ import annotations

import numpy as np
import pytest

from pasch.app import advise
from pasch.engine import Game
from pasch.web._hints import compute_hint


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-4"])
def test_multi_column_hints_rank_every_option_by_the_bots_estimate(rules: str) -> None:
    rng = np.random.default_rng(2)
    game = Game(rules, ["ann"], rng=rng)
    checked = 0
    while checked < 4:
        game.act("roll")
        state = game.state
        hint = compute_hint(state)
        assert hint["exact"] is False and hint["estimated"] is True
        options = hint["options"]
        # Every legal choice is listed once, the suggestion first and marked best.
        assert sorted(o["action"] for o in options) == sorted(str(a) for a in state.legal_actions())
        assert options[0]["action"] == hint["suggest"] and options[0]["best"] and options[0]["delta"] == 0.0
        estimates = [o["estimate"] for o in options]
        assert all(isinstance(e, float) for e in estimates) and estimates == sorted(estimates, reverse=True)
        for o in options:
            assert o["value"] is None  # nothing here is exact
            assert o["delta"] == pytest.approx(o["estimate"] - estimates[0], abs=1e-9)
            assert o["points"] is None or o["action"].startswith("score")
        # The same numbers as the one advice every interface shows.
        advice = advise(state)
        assert [(str(o.action), o.estimate) for o in advice.options] == [(o["action"], o["estimate"]) for o in options]
        checked += 1
        game.act(hint["suggest"])
        while not game.state.is_terminal and game.state.dice is not None:  # finish the turn as the bot would
            game.act(compute_hint(game.state)["suggest"])


def test_single_column_and_knaster_hints_carry_no_estimate() -> None:
    game = Game("kniffel", ["ann"], rng=np.random.default_rng(1))
    game.act("roll")
    hint = compute_hint(game.state)
    assert hint["exact"] is True and hint["estimated"] is False
    assert all(o["estimate"] is None and o["value"] is not None for o in hint["options"])
