"""Playing bot turns, for every interface: one visible step at a time, off the event loop.

:func:`play_bots` is the loop the terminal app and the web server share: while a bot is to move it waits
``delay`` seconds (so people can follow), looks again (an undo or another process may have changed the game
meanwhile), lets the bot think in a worker thread (a bot may load a solver table first) and hands the action
to the interface's ``apply``, which records, saves, broadcasts or redraws as that interface does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import numpy as np

from pasch.app._match import BotTurn
from pasch.engine import Action

__all__ = ["play_bots"]

RETRY_PAUSE = 0.05
"""Seconds to wait before looking again when ``apply`` refused a bot's action (a conflict)."""


async def play_bots(
    next_turn: Callable[[], BotTurn | None],
    apply: Callable[[BotTurn, Action], Awaitable[bool]],
    *,
    delay: float = 0.0,
    rng: Callable[[], np.random.Generator | None] | None = None,
) -> int:
    """Play bot turns until a person (or the dice) is to act or the game is over.

    Args:
        next_turn: the bot to move now, or None (:meth:`pasch.app.Match.bot_turn`, or a room's equivalent).
        apply: record the bot's action; returns False when it was refused (the game changed meanwhile: the
            loop looks again).
        delay: seconds before each bot step.
        rng: the generator the bot should use (called per step), or None for fresh entropy.

    Returns:
        The number of bot actions applied.
    """
    played = 0
    while True:
        turn = next_turn()
        if turn is None:
            return played
        if delay > 0:
            await asyncio.sleep(delay)
        again = next_turn()
        if again is None or again.state is not turn.state:
            continue  # the game moved on while we waited (an undo, another process): look again
        gen = rng() if rng is not None else None
        action = await asyncio.to_thread(turn.choose, gen)
        if await apply(turn, action):
            played += 1
        else:
            await asyncio.sleep(RETRY_PAUSE)
