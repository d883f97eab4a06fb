"""PostgreSQL: the event writer's usual appends are written on the event loop (libpq's asynchronous calls), with
no thread; a lost connection fails only the write in flight, and stopping fails the appends not yet sent."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import Engine

from pasch.errors import PaschError
from pasch.storage import make_engine, migrate
from pasch.storage._writer import Append, EventWriter, HandedError
from storage._rows import add_room, logged
from web._support import Postgres

pytestmark = pytest.mark.slow

HANDED = {"stand_ins": [{"seat": 1, "bot": "bot:greedy", "from": 0}]}


@pytest.fixture
def engine(postgres: Postgres) -> Engine:
    eng = make_engine(postgres.url)
    migrate(eng)
    return eng


def _raw(postgres: Postgres) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True)


async def _lock_waiter(watcher: psycopg.Connection[tuple[object, ...]], holder: int) -> int:
    """The backend that waits for a lock ``holder`` holds (polled, up to 10 s): a statement in flight."""
    for _ in range(200):
        waiting = watcher.execute(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> %s", (holder,)
        ).fetchall()
        if waiting:
            return int(str(waiting[0][0]))
        await asyncio.sleep(0.05)
    raise AssertionError("no statement waited for the row")


def test_the_usual_appends_are_written_on_the_loop_in_shared_statements(engine: Engine) -> None:
    rooms = [add_room(engine, f"L{i}") for i in range(6)]
    handed = add_room(engine, "LH", HANDED)
    writer = EventWriter(engine)
    now = datetime.now(UTC)

    async def scenario() -> list[BaseException | None]:
        # Six moves at once, half of them players' checked moves, and one refused: a seat handed over.
        return await asyncio.gather(
            *(
                writer.write(
                    Append(r, 1, [(0, "roll"), (None, "throw 1 2 3 4 5")], now, notice=f"n{r}", player=i % 2 or None)
                )
                for i, r in enumerate(rooms)
            ),
            writer.write(Append(handed, 1, [(1, "roll")], now, notice="h", player=1)),
            return_exceptions=True,
        )

    results = asyncio.run(scenario())
    assert results[:6] == [None] * 6
    assert isinstance(results[6], HandedError) and results[6].meta == {"stand_ins": HANDED["stand_ins"]}
    assert writer._thread is None  # no thread was started for them
    assert 1 <= writer.commits < 7  # batched: the first statement alone, the rest shared
    for r in rooms:
        assert logged(engine, r) == [(1, "roll"), (2, "throw 1 2 3 4 5")]
    assert logged(engine, handed) == []

    async def game_end() -> None:  # a game's end keeps its transaction, in the thread
        await writer.write(Append(rooms[0], 3, [(0, "score 1")], now, results=[(0, "Ada", 5, 1)]))

    asyncio.run(game_end())
    assert writer._thread is not None
    assert logged(engine, rooms[0])[-1] == (3, "score 1")
    writer.stop()
    engine.dispose()


def test_a_lost_connection_fails_the_write_in_flight_and_the_next_one_reconnects(
    engine: Engine, postgres: Postgres
) -> None:
    room = add_room(engine, "LC")
    writer = EventWriter(engine)
    now = datetime.now(UTC)
    blocker = _raw(postgres)
    killer = _raw(postgres)

    async def scenario() -> None:
        await writer.write(Append(room, 1, [(0, "roll")], now, player=0))
        # Hold the room's row, so the next checked move waits for it inside the database, in flight.
        blocker.execute("BEGIN")
        blocker.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (room,))
        move = asyncio.ensure_future(writer.write(Append(room, 2, [(None, "throw 6 6 6 6 6")], now, player=0)))
        waiting = await _lock_waiter(killer, blocker.info.backend_pid)
        killer.execute("SELECT pg_terminate_backend(%s)", (waiting,))
        with pytest.raises(psycopg.OperationalError):
            await move
        blocker.execute("ROLLBACK")
        await writer.write(Append(room, 2, [(None, "throw 1 1 2 2 3")], now, player=0))  # a new connection

    asyncio.run(scenario())
    assert logged(engine, room) == [(1, "roll"), (2, "throw 1 1 2 2 3")]
    writer.stop()
    blocker.close()
    killer.close()
    engine.dispose()


def test_stopping_fails_the_appends_not_sent_and_the_next_writer_goes_on(engine: Engine, postgres: Postgres) -> None:
    room = add_room(engine, "LS")
    writer = EventWriter(engine)
    now = datetime.now(UTC)
    blocker = _raw(postgres)

    async def scenario() -> None:
        blocker.execute("BEGIN")
        blocker.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (room,))
        first = asyncio.ensure_future(writer.write(Append(room, 1, [(0, "roll")], now, player=0)))
        other = add_room(engine, "LT")
        watcher = _raw(postgres)
        await _lock_waiter(watcher, blocker.info.backend_pid)  # the first one's statement is in flight
        watcher.close()
        second = asyncio.ensure_future(writer.write(Append(other, 1, [(0, "roll")], now)))
        await asyncio.sleep(0.1)  # the second is queued behind the first, not sent
        writer.stop()
        blocker.execute("ROLLBACK")
        outcomes = await asyncio.gather(first, second, return_exceptions=True)
        assert isinstance(outcomes[0], PaschError) and "in flight" in str(outcomes[0])  # not acknowledged
        assert isinstance(outcomes[1], PaschError) and "before this append was written" in str(outcomes[1])
        assert logged(engine, other) == []  # never sent
        # A writer started afresh (a restarted service) writes on.
        again = EventWriter(engine)
        await again.write(Append(other, 1, [(0, "roll")], now))
        again.stop()
        assert logged(engine, other) == [(1, "roll")]

    asyncio.run(scenario())
    blocker.close()
    engine.dispose()
