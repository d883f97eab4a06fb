"""The shared bot-turn loop plays bots until a person is to act, and looks again after a refusal."""

from __future__ import annotations

import asyncio

from pasch.app import BotTurn, Match, parse_seats, play_bots
from pasch.engine import Action


def test_bots_play_until_the_person_and_refusals_are_retried() -> None:
    match = Match.new("kniffel", parse_seats("bot:greedy, bot:optimal, Ada"), seed=5)
    seen: list[str] = []
    refused = {"left": 2}

    async def apply(turn: BotTurn, action: Action) -> bool:
        if refused["left"]:
            refused["left"] -= 1
            return False
        assert turn.state is match.state
        seen.append(str(action))
        match.act(action, turn.seat)
        return True

    played = asyncio.run(play_bots(match.bot_turn, apply, delay=0.001))
    assert played == len(seen) >= 4
    assert match.state.current_player == 2 and not match.bot_to_move
    assert seen[0] == "roll"


def test_a_finished_game_plays_nothing() -> None:
    match = Match.new("kniffel", parse_seats("Ada"), seed=5)

    async def apply(turn: BotTurn, action: Action) -> bool:
        raise AssertionError("no bot should move")

    assert asyncio.run(play_bots(match.bot_turn, apply)) == 0
