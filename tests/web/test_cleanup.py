"""The cleanup policy: finished rooms leave memory, long-idle unfinished rooms are abandoned; logs stay."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow, make_engine, migrate
from pasch.web._service import ActError, Service


async def _finish_solo_game(svc: Service, code: str) -> None:
    """Play a one-player game to the end: throw, then enter the best-paying box."""
    for _ in range(200):
        if svc.rooms[code].finished:
            return
        thrown = await svc.act(code, 0, "roll")  # the server throws at once: the view holds the options
        best = max(thrown.view["options"], key=lambda o: (o["points"], -o["box"]))
        await svc.act(code, 0, best["action"])
    raise AssertionError("the game did not end")


def test_sweep_drops_finished_rooms_and_abandons_idle_ones(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0, finished_ttl=600, abandon_after=7 * 86400)
        svc.writer.start()
        done, _ = await svc.create_room("kniffel", [("Ada", "human")])
        idle, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
        watched, _ = await svc.create_room("kniffel", [("Cy", "human")])
        await _finish_solo_game(svc, done.code)
        await svc.act(idle.code, 0, "roll")
        watched.watchers = 1  # an open connection keeps a room however old
        now = datetime.now(UTC)

        assert await svc.sweep(now + timedelta(minutes=5)) == {"dropped": [], "abandoned": []}
        out = await svc.sweep(now + timedelta(minutes=11))
        assert out == {"dropped": [done.code], "abandoned": []}
        assert done.code not in svc.rooms and idle.code in svc.rooms
        # Dropped from memory only: the next request reloads it from the log, over and verifiable.
        again = await svc.get_room(done.code)
        assert again.finished and again.status == "finished" and again.seq == done.seq

        out = await svc.sweep(now + timedelta(days=8))
        assert idle.code in out["abandoned"] and watched.code not in out["dropped"]
        assert idle.code not in svc.rooms and watched.code in svc.rooms
        with Session(engine) as s:
            row = s.scalar(select(GameRow).where(GameRow.code == idle.code))
            assert row is not None and row.status == "abandoned"
            assert len(s.scalars(select(EventRow).where(EventRow.game_id == row.id)).all()) == 2  # log kept
        assert idle.code not in [r["code"] for r in await svc.lobby()]
        with pytest.raises(ActError) as err:
            await svc.act(idle.code, 1, "roll")
        assert err.value.code == "abandoned"
        svc.close()

        # A restart resumes unfinished rooms only: not the abandoned one.
        svc2 = Service(engine, bot_delay=0)
        resumed = svc2.resume_all()
        assert watched.code in resumed and idle.code not in resumed and done.code not in resumed
        svc2.close()

    asyncio.run(scenario())
    engine.dispose()


def test_sweep_keeps_a_room_another_process_played(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0, abandon_after=3600)
        room, _ = await svc.create_room("kniffel", [("Ada", "human")])
        await svc.act(room.code, 0, "roll")
        # Our cache thinks the room has been idle for two hours; the log says it was just played.
        room.last_active = datetime.now(UTC) - timedelta(hours=2)
        out = await svc.sweep()
        assert out == {"dropped": [], "abandoned": []}
        assert svc.rooms[room.code].status == "playing"
        svc.close()

    asyncio.run(scenario())
    engine.dispose()


def test_a_process_that_does_not_lead_forgets_an_unfinished_room_idle_here(tmp_path: Path) -> None:
    """With several processes a room's moves are announced only to those that serve it (web/_relay.py): one that
    cached the room for a request and then heard nothing drops its copy (only that: the game plays on, its seat
    tokens stay), where the leading process, which marks rooms abandoned, keeps it."""
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def refresh(_room: object) -> None:  # the relay's catch-up (nothing new in the log here)
        return None

    async def scenario() -> None:
        leader, other = (Service(engine, bot_delay=0, finished_ttl=600, abandon_after=7 * 86400) for _ in range(2))
        other.leader = False
        for svc in (leader, other):
            svc.refresh = refresh
        room, tokens = await leader.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
        await leader.act(room.code, 0, "roll")
        await other.get_room(room.code)
        later = datetime.now(UTC) + timedelta(minutes=11)
        other.rooms[room.code].watchers = 1  # watched: kept
        assert await other.sweep(later) == {"dropped": [], "abandoned": []} and room.code in other.rooms
        other.rooms[room.code].watchers = 0
        assert await other.sweep(later) == {"dropped": [], "abandoned": []}
        assert room.code not in other.rooms  # forgotten here ...
        assert await leader.sweep(later) == {"dropped": [], "abandoned": []} and room.code in leader.rooms
        again = await other.get_room(room.code)  # ... reloaded on the next request, still playing, tokens valid
        assert again.status == "playing" and again.seq == room.seq
        assert again.seat_of(tokens[0]) == 0
        for svc in (leader, other):
            svc.close()

    asyncio.run(scenario())
    engine.dispose()
