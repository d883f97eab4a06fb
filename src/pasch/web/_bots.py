"""The bots of a room: :func:`bot_loop` plays every turn a bot (or a stand-in for an absent player) is to play,
started by :meth:`pasch.web._service.Service.schedule_bots` on the process that drives the bots."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from pasch.app import BotTurn, play_bots
from pasch.engine import Action
from pasch.web._fair import DICE_V2
from pasch.web._manners import ActError

if TYPE_CHECKING:
    from pasch.web._service import Service

__all__ = ["bot_loop"]


async def _await_contributions(svc: Service, code: str) -> None:
    """Before a bot's first throw, give the seated players' pages a moment to send their contributions
    (up to five bot delays, at most 3 s): a bot that moves first would otherwise throw without them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(3.0, 5 * svc.bot_delay)
    while loop.time() < deadline:
        room = svc.room(code)
        if room.dice_version != DICE_V2 or any(a.startswith("throw") for a in room.actions):
            return
        if all(s.is_bot or not s.claimed or room.contributions[s.seat] is not None for s in room.seats):
            return
        await asyncio.sleep(0.1)


async def bot_loop(svc: Service, code: str) -> None:
    """Play the bots' turns of room ``code`` (and the stand-ins' of seats handed over) until a human is to act."""

    async def apply(turn: BotTurn, action: Action) -> bool:
        room = svc.room(code)
        stand_in = None if room.seats[turn.seat].is_bot else room.away.get(turn.seat, "")
        try:
            task = svc._act_task(room, turn.seat, str(action), None, stand_in=stand_in)
            await asyncio.shield(asyncio.ensure_future(task))
        except ActError:
            return False  # a conflict: the room was reloaded; look again
        return True

    await _await_contributions(svc, code)
    # The bots' solver table comes through the queue (one build at a time), waited for without a thread.
    await svc.tables.ensure(svc.room(code).state.rules)
    # The room is looked up afresh each time: a conflict may have reloaded it meanwhile.
    await play_bots(lambda: svc.table.turn(svc.room(code)), apply, delay=svc.bot_delay)
