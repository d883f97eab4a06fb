"""The broadcast view (``pasch.web._view``): what it says a player may do is what the engine allows."""

from __future__ import annotations

import random

import pytest

from pasch.engine import Announce, Keep, Roll, State, Throw, new_game
from pasch.web._view import ViewCache, state_view


@pytest.mark.parametrize(
    ("rules", "keeper"),
    [("kniffel", False), ("yatzy", False), ("kniffel-4", False), ("kniffel-4", True), ("jetsi", False)],
)
def test_the_views_flags_are_those_of_every_legal_action(rules: str, keeper: bool) -> None:
    # The view reads the flags off the first legal action (the list is sorted by kind); a whole game of random
    # moves, checked at every state against a scan of all of them.
    rng = random.Random(28)
    state: State = new_game(rules, ["Ada", "Bob"], keeper=keeper)
    cache = ViewCache()
    seen = {"roll": False, "keep": False, "announce": False}
    for seq in range(2000):
        view = state_view(state, seq, cache)
        legal = state.legal_actions() if not state.is_chance_node else ()
        if not state.is_chance_node:
            assert view["can_roll"] == any(isinstance(a, Roll) for a in legal)
            assert view["can_keep"] == any(isinstance(a, Keep) for a in legal)
            assert view["announce"] == [str(a) for a in legal if isinstance(a, Announce)]
            seen["roll"] |= view["can_roll"]
            seen["keep"] |= view["can_keep"]
            seen["announce"] |= bool(view["announce"])
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(Throw(tuple(sorted(rng.randint(1, 6) for _ in range(state.pending)))))
        else:
            state = state.apply(rng.choice(legal))
    assert state.is_terminal
    # Each flag was true somewhere (a keeper table rolls nothing and keeps nothing: it enters the dice).
    assert seen["roll"] is seen["keep"] is (not keeper)
    assert seen["announce"] is (rules == "kniffel-4")
