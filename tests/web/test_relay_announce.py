"""Which commits the relay announces to the other processes (docs/deploy.md, *Room affinity*): only those that
concern another process, so that a room served by one process alone wakes nobody for each move; what was not
announced is read from the log where it is needed. Services on one SQLite file, in one event loop; the relay's
log reads are those of the SQLite file (its PostgreSQL statement is the same query), and no listener runs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from pasch.storage import Append, make_engine, migrate
from pasch.web._relay import Relay
from pasch.web._service import Service


def _engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    return engine


def _log_reader(engine: Engine) -> Any:
    """The relay's read of the events after each (room id, seq), from the SQLite file."""

    async def read(pairs: list[tuple[int, int]]) -> dict[int, list[tuple[int, int | None, str]]]:
        out: dict[int, list[tuple[int, int | None, str]]] = {}
        with engine.connect() as conn:
            for rid, after in pairs:
                rows = conn.execute(
                    text("SELECT seq, seat, action FROM events WHERE game_id = :g AND seq > :s ORDER BY seq"),
                    {"g": rid, "s": after},
                )
                found = [(int(seq), seat, str(action)) for seq, seat, action in rows]
                if found:
                    out[rid] = found
        return out

    return read


def _attached(svc: Service, engine: Engine) -> tuple[Relay, list[str]]:
    """A relay hooked into ``svc`` (not listening) and the payload of every append ``svc`` writes ("": none)."""
    relay = Relay(svc, lambda _room, _msg: None)
    relay.attach()
    relay._read = _log_reader(engine)  # type: ignore[method-assign]
    payloads: list[str] = []
    write = svc.writer.write

    async def spy(append: Append) -> Any:
        payloads.append(append.notice)
        return await write(append)

    svc.writer.write = spy  # type: ignore[method-assign]
    return relay, payloads


def test_a_commit_is_announced_only_where_it_concerns_another_process(tmp_path: Path) -> None:
    engine = _engine(tmp_path)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        relay, payloads = _attached(svc, engine)
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            room.watchers = 2  # both players connected here, nobody anywhere else
            done = await svc.act(room.code, 0, "roll")
            assert payloads == [""]  # nothing sent ...
            assert done.frame is not None and '"type":"update"' in done.frame  # ... the update made all the same
            room.remote["other"] = (time.monotonic(), {1: 1}, 0)  # another process says Bob is connected there
            await svc.act(room.code, 0, "score chance")
            assert payloads[-1].startswith(f"e {room.code} 3 0 ") and '"type":"update"' in payloads[-1]
            room.remote.clear()
            room.watchers = 0  # a move made here for players served elsewhere (a stand-in's, a bot's)
            await svc.act(room.code, 1, "roll")
            assert payloads[-1].startswith(f"e {room.code} 5 0 ")
            room.watchers = 1
            await svc.act(room.code, 1, "score chance")  # the last human move of the round: Ada's turn next
            assert payloads[-1] == ""
            assert relay.announces(room, f"e {room.code} 9 1") and not relay.announces(room, f"e {room.code} 9 0")

            # A bot (or a turn clock) to move next: the leading process is told, wherever it is.
            bots, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bot", "bot:greedy")])
            bots.watchers = 1
            await svc.act(bots.code, 0, "roll")
            assert payloads[-1] == ""  # Ada still to move
            await svc.act(bots.code, 0, "score chance")
            assert payloads[-1].startswith(f"e {bots.code} 3 1 ")  # the bot's turn
        finally:
            await relay.stop()
            svc.close()

    asyncio.run(scenario())
    engine.dispose()


def test_a_cached_room_nobody_here_watches_is_brought_up_to_the_log_when_asked_for(tmp_path: Path) -> None:
    engine = _engine(tmp_path)

    async def scenario() -> None:
        owner, other = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
        relays = [_attached(owner, engine)[0], _attached(other, engine)[0]]
        try:
            room, _ = await owner.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            room.watchers = 1
            cached = await other.get_room(room.code)  # a request of the other process (its page's room info)
            assert cached.seq == 0
            await owner.act(room.code, 0, "roll")  # not announced: nobody else serves the room
            await owner.act(room.code, 0, "score chance")
            assert other.rooms[room.code].seq == 0  # the other process was not told ...
            again = await other.get_room(room.code)  # ... and reads the log when the room is asked for
            assert again.seq == 3 and again.match.state == owner.rooms[room.code].match.state
            again.watchers = 1  # watched: up to date by the announcements from now on, not read again
            await owner.act(room.code, 1, "roll")
            assert (await other.get_room(room.code)).seq == 3
        finally:
            for relay in relays:
                await relay.stop()
            owner.close()
            other.close()

    asyncio.run(scenario())
    engine.dispose()


def test_a_process_new_to_a_room_is_told_its_last_seq_once_the_write_under_way_ends(tmp_path: Path) -> None:
    engine = _engine(tmp_path)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        relay, payloads = _attached(svc, engine)
        nudged: asyncio.Queue[tuple[str, ...]] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        relay._notify = lambda *p: loop.call_soon_threadsafe(nudged.put_nowait, p)  # type: ignore[method-assign]
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            room.watchers = 1
            await svc.act(room.code, 0, "roll")
            presence = {"type": "presence", "counts": {"1": 1}, "spectators": 0}
            async with room.lock:  # an action of this room being recorded (its lock held) ...
                relay._on_message(room.code, presence, "other")  # ... when another process says it serves it
                assert room.remote and nudged.empty()
                await svc._commit(room, 0, "score chance")
            assert payloads[-1].startswith(f"e {room.code} 3 0 ")  # announced: the presence came first
            assert await asyncio.wait_for(nudged.get(), 10) == (f"e {room.code} 3 0",)  # the seq the write reached
            relay._on_message(room.code, presence, "other")  # its repeat: nothing new to tell
            relay._on_message(room.code, presence, "third")  # a third process: every commit since was announced
            while relay._background:
                await asyncio.sleep(0)
            assert nudged.empty()
            room.remote.clear()  # the others went away; a commit nobody is told of ...
            await svc.act(room.code, 1, "roll")
            assert payloads[-1] == ""
            room.watchers = 0
            relay._on_message(room.code, presence, "fourth")  # (nobody here: this process serves nothing)
            while relay._background:
                await asyncio.sleep(0)
            assert nudged.empty()
            room.watchers, room.remote = 1, {}
            relay._on_message(room.code, presence, "fifth")  # ... is told to the next process that comes
            assert await asyncio.wait_for(nudged.get(), 10) == (f"e {room.code} 5 0",)
        finally:
            await relay.stop()
            svc.close()

    asyncio.run(scenario())
    engine.dispose()


def test_presence_is_repeated_only_where_another_process_serves_the_room_until_a_full_round(tmp_path: Path) -> None:
    """Each process repeats its connection counts every poll only in the rooms another process serves too; the
    rooms it serves alone hear them every ``FULL_REPUBLISH``-th poll, or at once after a notification failed
    (a database away), so processes that missed each other meet again."""
    engine = _engine(tmp_path)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        relay, _ = _attached(svc, engine)
        relay.counts = lambda room: {"type": "presence", "counts": {"0": room.watchers}, "spectators": 0}
        sent: list[str] = []
        failing = False

        def notify(_channel: str, *payloads: str) -> None:
            if failing:
                raise OSError("the database is away")
            sent.extend(payloads)

        svc.store.notify = notify  # type: ignore[method-assign]
        try:
            alone, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            shared, _ = await svc.create_room("kniffel", [("Cy", "human"), ("Di", "human")])
            unwatched, _ = await svc.create_room("kniffel", [("Ed", "human"), ("Flo", "human")])
            alone.watchers = shared.watchers = 2
            shared.remote["other"] = (time.monotonic(), {1: 1}, 0)
            unwatched.remote["other"] = (time.monotonic(), {0: 1}, 0)

            async def rounds(everywhere: bool) -> set[str]:
                sent.clear()
                relay.republish(everywhere)
                for _ in range(50):
                    await asyncio.sleep(0.01)
                    if not relay._background:
                        break
                return {p.split(" ")[2] for p in sent}

            assert await rounds(False) == {shared.code}  # served here alone: no repeat
            assert await rounds(True) == {alone.code, shared.code}  # the full round; never an unwatched room
            failing = True
            await rounds(False)
            assert relay._lost  # the next poll is a full round
            failing = False
            shared.remote["other"] = (time.monotonic() - 60.0, {1: 1}, 0)  # the other process went away
            assert await rounds(False) == set() and not shared.remote
        finally:
            svc.close()

    asyncio.run(scenario())
