"""A player's ``back`` recorded by one server process against the stand-in bot that the bots' owner, another
process on the same PostgreSQL database, is about to move for them (docs/protocol.md, *Turn clock*).

The owner learns of the ``back`` only through the relay, so the database decides: a stand-in's move written
after a committed ``back`` is refused (the owner drops it and the player acts next), and a stand-in's move
committed just before the ``back`` is counted as the stand-in's (``to`` includes it). Each race is made to
happen for sure: the owner's write is held (in Python, or by a table lock the test holds in PostgreSQL)
until the other process has recorded the ``back``, or is waiting to.

The two processes are two services in this process, each with its own connections, writer and relay, as in
tests/web/test_scale.py: what they share is the database, as two server processes do. On SQLite (one
process) the same check runs in the writer: the last test records the ``back`` beside the service, as only
another process could, and the service drops its stand-in's move.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine

from pasch.storage import Append, StandInError, make_engine, migrate
from pasch.web._manners import played_by
from pasch.web._relay import Relay
from pasch.web._service import Room, Service

from ._support import WAIT, Postgres

ADA, BOB = 0, 1


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def _forward(relay: Relay) -> Callable[[Room, dict[str, Any]], Awaitable[None]]:
    async def listener(room: Room, message: dict[str, Any]) -> None:  # what the hub's broadcast hands on
        relay.publish(room, message)

    return listener


@asynccontextmanager
async def _processes(engine: Engine) -> AsyncIterator[tuple[Service, Service]]:
    """The bots' owner and another process, each with its relay (the other learns of commits, the owner of
    the other's ``away`` frames, through ``NOTIFY``)."""
    owner, other = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
    other.leader = False
    relays = [Relay(svc, lambda _room, _msg: None) for svc in (owner, other)]
    for svc, relay in zip((owner, other), relays, strict=True):
        svc.listeners.append(_forward(relay))
        relay.counts = _counts
        relay.start()
    try:
        await _until(lambda: all(r.connected for r in relays), "the relays to listen")
        yield owner, other
    finally:
        for relay in relays:
            await relay.stop()
        owner.close()
        other.close()


def _counts(room: Room) -> dict[str, Any]:
    """A process's presence in a room, as its hub counts it: here one spectator per watcher."""
    return {"type": "presence", "counts": {}, "spectators": room.watchers}


async def _bobs_seat_handed_over(owner: Service, other: Service) -> str:
    """A room of Ada (the host) and Bob, whose seat the host hands to a greedy stand-in; Ada starts her turn.
    Both processes keep the room (someone watches it in each, and each has told the other so: its presence)."""
    room, _ = await owner.create_room("kniffel", [("Ada", "human"), ("Bob", "human")], stand_in="bot:greedy")
    await owner.table.hand(room.code, ADA, BOB)  # nobody else is connected: at once
    assert owner.rooms[room.code].away == {BOB: "bot:greedy"}
    for svc in (owner, other):
        here = await svc.get_room(room.code)
        here.watchers = 1
        for listener in svc.listeners:  # what the hub does when a connection arrives
            await listener(here, _counts(here))
    await _until(lambda: all(svc.rooms[room.code].remote for svc in (owner, other)), "each to hear of the other")
    await owner.act(room.code, ADA, "roll")
    return room.code


class _Gate:
    """Holds the owner's writes of Bob's seat (the stand-in's: Bob is not here) until the test lets one pass,
    or opens the gate."""

    def __init__(self, owner: Service) -> None:
        self.reached = asyncio.Event()
        self.passes = asyncio.Semaphore(0)
        self.opened = False
        self.refused: list[Exception] = []
        """What the database answered the stand-in's writes it refused."""
        self._write = owner.writer.write
        owner.writer.write = self.write  # type: ignore[method-assign]

    async def write(self, append: Append) -> None:
        if append.events[0][0] == BOB and not self.opened:
            self.reached.set()
            await self.passes.acquire()
        try:
            await self._write(append)
        except Exception as exc:
            self.refused.append(exc)
            raise

    def let_one_pass(self) -> None:
        self.passes.release()

    def open(self) -> None:
        self.opened = True
        self.passes.release()


async def _bots_done(owner: Service, code: str) -> None:
    task = owner.rooms[code].bot_task
    if task is not None:
        await asyncio.wait_for(asyncio.shield(task), WAIT)


def _stored(svc: Service, code: str) -> tuple[list[str], list[dict[str, Any]]]:
    record = svc.store.load(code)
    assert record is not None
    return record.actions, list(record.meta.get("stand_ins") or [])


@pytest.mark.slow
def test_a_stand_in_move_after_a_back_in_another_process_is_refused(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        async with _processes(engine) as (owner, other):
            code = await _bobs_seat_handed_over(owner, other)
            gate = _Gate(owner)
            await owner.act(code, ADA, "score chance")  # Bob's turn: the owner's stand-in moves for him ...
            await asyncio.wait_for(gate.reached.wait(), WAIT)  # ... and is held on its way to the database
            played = owner.rooms[code].seq
            # Bob comes back through the other process; the owner does not know yet (it hears of it later).
            assert await other.table.back(code, BOB)
            gate.open()  # the stand-in's move, decided before the back, reaches the database now
            await _bots_done(owner, code)
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played, f"the stand-in moved after Bob's back: {actions[played:]}"
            assert [type(e) for e in gate.refused] == [StandInError]  # the database said why (and only once)
            assert [(s["seat"], s["to"]) for s in stand_ins] == [(BOB, played)]  # closed where the log stood
            room = owner.rooms[code]
            assert room.seq == played and BOB not in room.away and owner.table.turn(room) is None
            # Bob, not the bot, acts next, wherever he is connected.
            await other.act(code, BOB, "roll")
            await _until(lambda: owner.rooms[code].seq == played + 2, "the owner to catch up")
            actions, _ = _stored(owner, code)
            assert actions[played] == "roll" and owner.rooms[code].away == {}

    asyncio.run(scenario())
    engine.dispose()


@pytest.mark.slow
def test_a_stand_in_move_committed_just_before_the_back_is_the_stand_ins(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)
    url = postgres.url.replace("postgresql+psycopg", "postgresql")

    async def waiting(conn: psycopg.AsyncConnection[Any]) -> int:
        cur = await conn.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        found = await cur.fetchone()
        return int(found[0]) if found else 0

    async def scenario() -> None:
        async with _processes(engine) as (owner, other):
            code = await _bobs_seat_handed_over(owner, other)
            gate = _Gate(owner)
            await owner.act(code, ADA, "score chance")
            await asyncio.wait_for(gate.reached.wait(), WAIT)
            played = owner.rooms[code].seq
            # Now the stand-in's roll goes to the database, where it waits for this table lock ...
            lock = await psycopg.AsyncConnection.connect(url)
            await lock.execute("LOCK TABLE events IN SHARE MODE")
            gate.let_one_pass()
            deadline = time.monotonic() + WAIT
            while await waiting(lock) < 1:
                assert time.monotonic() < deadline, "the stand-in's write never reached the database"
                await asyncio.sleep(0.01)
            # ... while Bob's back is recorded in the other process: it waits for the stand-in's transaction,
            # or (without a check in the writer) goes ahead at once.
            back = asyncio.create_task(other.table.back(code, BOB))
            while not back.done() and await waiting(lock) < 2:
                assert time.monotonic() < deadline, "the back neither finished nor waited"
                await asyncio.sleep(0.01)
            await lock.commit()  # the stand-in's roll commits first
            await lock.close()
            assert await asyncio.wait_for(back, WAIT)
            gate.open()  # the stand-in's next move, if the owner tries one before it hears of the back
            await _bots_done(owner, code)
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 2 and actions[played] == "roll"  # the roll and its throw
            assert all(isinstance(e, StandInError) for e in gate.refused)  # its next move, if it tried one
            assert [(s["seat"], s["to"]) for s in stand_ins] == [(BOB, played + 2)]  # its roll and throw count
            assert played_by(stand_ins, BOB, played + 1) == "bot:greedy"
            # The back applies to the next decision: Bob's, not the stand-in's.
            assert owner.table.turn(owner.rooms[code]) is None
            await _until(lambda: other.rooms[code].seq == played + 2, "the other process to catch up")
            await other.act(code, BOB, "score chance")
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 3 and played_by(stand_ins, BOB, played + 3) is None

    asyncio.run(scenario())
    engine.dispose()


def test_on_sqlite_the_writer_checks_too_and_the_service_drops_the_move(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")], stand_in="bot:greedy")
            code = room.code
            await svc.table.hand(code, ADA, BOB)
            await svc.act(code, ADA, "roll")
            gate = _Gate(svc)
            await svc.act(code, ADA, "score chance")
            await asyncio.wait_for(gate.reached.wait(), WAIT)
            played = svc.rooms[code].seq
            meta = await asyncio.to_thread(svc.store.record_back, svc.rooms[code].id, BOB)  # not via the room
            assert meta is not None and svc.rooms[code].away == {BOB: "bot:greedy"}
            gate.open()
            await _bots_done(svc, code)
            assert [type(e) for e in gate.refused] == [StandInError]
            room = svc.rooms[code]  # reloaded from the log and its meta
            assert room.seq == played and room.away == {} and svc.table.turn(room) is None
            await svc.act(code, BOB, "roll")
            actions, stand_ins = _stored(svc, code)
            assert len(actions) == played + 2 and [(s["seat"], s["to"]) for s in stand_ins] == [(BOB, played)]
        finally:
            svc.close()

    asyncio.run(scenario())
    engine.dispose()
