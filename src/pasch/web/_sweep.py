"""The cache's cleanup: rooms that are over leave memory, rooms nobody plays are abandoned, tokens expire.

Kept apart from :class:`pasch.web._service.Service` (its ``sweep`` calls :func:`sweep`); only the process
that leads (``svc.leader``) marks rooms abandoned.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pasch.web._room import Room
    from pasch.web._service import Service

__all__ = ["sweep"]


async def sweep(svc: Service, now: datetime | None = None) -> dict[str, list[str]]:
    """Drop finished and abandoned rooms from memory; mark long-idle unfinished rooms abandoned.

    Policy (docs/protocol.md, *Cleanup*): a room nobody is connected to, with no action being recorded
    and no bot thinking, is dropped from the cache ``finished_ttl`` seconds after its last activity if
    its game is over; an unfinished one idle for ``abandon_after`` seconds is marked ``abandoned`` in the
    database (it leaves the lobby, is not resumed at start, refuses actions) and dropped. Nothing is
    deleted: every log stays readable and verifiable, and a dropped room is reloaded on its next request.
    Another process that recorded an action since the cutoff keeps the room playing (checked in the
    database). Where several processes share the database, one that does not lead also forgets an unfinished
    room idle here for ``finished_ttl`` seconds (only its cache: the room plays on wherever it is served, and
    this process is not told of its moves unless it serves it).

    Returns:
        ``{"dropped": codes, "abandoned": codes}``.
    """
    now = now or datetime.now(UTC)
    dropped: list[str] = []
    abandoned: list[str] = []
    forgotten: list[str] = []  # unfinished, served elsewhere: out of this process's cache only
    overdue: list[Room] = []  # over for token_ttl: tokens expire whoever is still watching
    for room in svc.rooms.values():
        idle = (now - room.last_active).total_seconds()
        if room.status != "playing" and idle >= svc.token_ttl and any(x.token_hash for x in room.seats):
            overdue.append(room)
    if overdue:
        await asyncio.to_thread(svc.store.expire_tokens, [r.id for r in overdue])
        for room in overdue:
            for seat in room.seats:
                seat.token_hash = None
            await svc._emit(room, {"type": "tokens"})
    for code, room in list(svc.rooms.items()):
        busy = room.watchers > 0 or room.lock.locked() or (room.bot_task is not None and not room.bot_task.done())
        if busy:
            continue
        idle = (now - room.last_active).total_seconds()
        if room.status != "playing" and idle >= svc.finished_ttl:
            dropped.append(code)
        elif room.status == "playing" and not svc.leader and svc.refresh is not None and idle >= svc.finished_ttl:
            forgotten.append(code)
        elif (
            room.status == "playing"
            and svc.leader
            and (idle >= svc.abandon_after or (room.seq == 0 and idle >= svc.unplayed_after))
        ):
            cutoff = now - timedelta(seconds=min(idle, svc.abandon_after))
            if await asyncio.to_thread(svc.store.abandon, room.id, cutoff, now):
                room.status = "abandoned"
                abandoned.append(code)
                dropped.append(code)
            else:
                room.last_active = now  # another process played it meanwhile: look again later
    for code in forgotten:
        cached = svc.rooms.get(code)
        if cached is not None and cached.watchers == 0 and not cached.lock.locked():
            del svc.rooms[code]
    expired: list[int] = []
    for code in dropped:
        cached = svc.rooms.get(code)
        if cached is not None and cached.watchers == 0 and not cached.lock.locked():
            del svc.rooms[code]
            expired.append(cached.id)
    # A room that is over (finished or abandoned) and that everyone left: its seat tokens expire.
    await asyncio.to_thread(svc.store.expire_tokens, expired)
    return {"dropped": dropped, "abandoned": abandoned}
