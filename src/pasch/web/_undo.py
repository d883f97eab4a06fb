"""A score keeper's undo: the last entry of a room with real dice is taken back (docs/protocol.md, *Undo*).

An *entry* is what one player did in their latest turn: the final dice (``enter``), an announcement, the box
(``score``) — or, in Knaster, the events of that turn. The undo deletes those events from the log (the log
stays a plain list of actions, so the room replays and ``pasch verify`` reads it as before) and records what
was taken back in the room's ``meta`` (``undos``, in the log's meta too). Only rooms without server dice have
an undo: where the server throws, taking back a move would let a player throw again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pasch.engine import new_game
from pasch.web._manners import ActError, host_of
from pasch.web._view import state_view

if TYPE_CHECKING:
    from pasch.web._service import Room, Service

__all__ = ["entry_of", "undo"]

UNDOS_KEPT = 200
"""Undos recorded in a room's meta (the oldest go first)."""


def entry_of(room: Room) -> tuple[int, int] | None:
    """The last entry of a room: (its first ``seq``, the seat that made it), None when the log is empty.

    The entry is the log's last event and the events before it made in the same turn (same round, same player
    to act).
    """
    actions = room.actions
    if not actions:
        return None
    state = new_game(room.rules, [s.name for s in room.seats], keeper=room.keeper)
    turns: list[tuple[int, int]] = []
    for text in actions:
        turns.append((state.round, state.current_player))
        state = state.apply(text)
    last = turns[-1]
    first = len(turns)
    while first > 1 and turns[first - 2] == last:
        first -= 1
    return first, last[1]


async def undo(
    svc: Service, code: str, seat: int | None, at: Any, on_done: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Take back the last entry of a score keeper's room, for ``seat`` (the entry's player or the host).

    Everything is checked before anything is written; the events go and the undo is recorded in one
    transaction; ``on_done`` gets the new ``seq`` (the asker's ``ack``); then everyone gets the ``undo`` frame
    with the new state.

    Returns:
        The ``undo`` frame sent to everyone.

    Raises:
        ActError: ``undo_off`` (the server throws the dice here), ``spectator``, ``stale`` (``at`` is not the
            current position), ``game_over``, ``no_undo`` (nothing to take back, a bot's move, or an entry
            before one already taken back), ``not_your_entry`` (neither its player nor the host), ``conflict``.
    """
    room = await svc.get_room(code)
    if not room.keeper:
        raise ActError("undo_off", "the server throws the dice in this room: a move cannot be taken back")
    if seat is None:
        raise ActError("spectator", "spectators watch; join a seat to take an entry back")
    if isinstance(at, bool) or not isinstance(at, int):
        raise ActError("bad_message", "'undo' needs 'at': the seq of the state the player saw")
    async with room.lock:
        room = svc.rooms.get(room.code, room)
        if at != room.seq:
            raise ActError("stale", f"the game moved on (seq {room.seq}, not {at}); nothing was taken back")
        if room.finished or room.status != "playing":
            raise ActError("game_over", "the game is over: its entries stay")
        entry = entry_of(room)
        floor = int(room.extra.get("undo_floor") or 0)
        if entry is None:
            raise ActError("no_undo", "nothing has been entered yet")
        first, player = entry
        if first <= floor:
            raise ActError("no_undo", "only the last entry can be taken back, and it was")
        if room.seats[player].is_bot or player in room.away:
            raise ActError("no_undo", "a bot's move is not an entry; it cannot be taken back")
        if seat not in (player, host_of(room)):
            raise ActError("not_your_entry", f"only {room.seats[player].name} or the host can take this entry back")
        last = room.seq
        events = list(room.actions[first - 1 :])
        record = {"seat": player, "by": seat, "from": first, "to": last, "events": events}
        record["at"] = datetime.now(UTC).isoformat(timespec="seconds")

        def change(meta: dict[str, Any]) -> dict[str, Any]:
            meta["undos"] = [*(meta.get("undos") or []), record][-UNDOS_KEPT:]
            meta["undo_floor"] = first - 1
            return meta

        if not await asyncio.to_thread(svc.store.take_back, room.id, first, last, change):
            svc.reload(room.code)
            raise ActError("conflict", "another action was recorded first; nothing was taken back")
        fresh = svc.reload(room.code)
        fresh.last_active = datetime.now(UTC)
        message = {
            "type": "undo",
            "by": seat,
            "seat": player,
            "events": events,
            "seq": fresh.seq,
            "state": state_view(fresh.state, fresh.seq),
        }
        if on_done is not None:
            on_done(fresh.seq)
        await svc._emit(fresh, message)
        await svc.table.arm(fresh)
    svc.schedule_bots(fresh)
    return message
