"""SQLite: the event writer writes on the event loop, never waits there for another connection's lock (that batch
goes to the thread, which waits), and checkpoints the write-ahead log in the thread, not on the loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from pasch.storage import BUSY_TIMEOUT_ENV, GameRow, _writer, make_engine, migrate
from pasch.storage._writer import Append, EventWriter, HandedError
from storage._rows import add_room, logged

HANDED = {"stand_ins": [{"seat": 1, "bot": "bot:greedy", "from": 0}]}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "w.sqlite3"


@pytest.fixture
def engine(path: Path) -> Engine:
    eng = make_engine(f"sqlite:///{path}")
    migrate(eng)
    yield eng
    eng.dispose()


def test_appends_are_written_on_the_loop_one_transaction_per_turn(engine: Engine) -> None:
    rooms = [add_room(engine, f"R{i}") for i in range(6)]
    handed = add_room(engine, "H", HANDED)
    writer = EventWriter(engine)
    now = datetime.now(UTC)

    async def scenario() -> None:
        # Six appends of one turn of the loop share one commit; nothing starts a thread.
        await asyncio.gather(*(writer.write(Append(r, 1, [(0, "roll")], now, player=0)) for r in rooms))
        assert writer.commits == 1
        # A game's end (results, the room finished) and a player's move on a handed seat, checked, on the loop too
        # (a taken slot failing alone on the loop: tests/web/test_writer.py).
        await writer.write(Append(rooms[0], 2, [(0, "score chance")], now, results=[(0, "Ada", 30, 1)]))
        with pytest.raises(HandedError) as refused:
            await writer.write(Append(handed, 1, [(1, "roll")], now, player=1))
        assert refused.value.meta == HANDED

    asyncio.run(scenario())
    assert writer._thread is None  # every append above was written on the loop
    writer.stop()
    assert logged(engine, rooms[0]) == [(1, "roll"), (2, "score chance")]
    assert logged(engine, rooms[2]) == [(1, "roll")]
    assert logged(engine, handed) == []
    with Session(engine) as s:
        assert s.get(GameRow, rooms[0]).status == "finished"  # type: ignore[union-attr]


def test_another_connections_write_lock_sends_the_batch_to_the_thread_and_the_loop_goes_on(
    engine: Engine, path: Path
) -> None:
    room = add_room(engine, "L")
    writer = EventWriter(engine)
    now = datetime.now(UTC)
    blocker = sqlite3.connect(path, isolation_level=None)

    async def scenario() -> None:
        await writer.write(Append(room, 1, [(0, "roll")], now))
        blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        pending = asyncio.ensure_future(writer.write(Append(room, 2, [(0, "keep")], now, player=0)))
        for _ in range(50):  # the loop keeps turning while the append waits for the lock in the thread
            await asyncio.sleep(0)
        assert not pending.done()
        assert writer._thread is not None and writer._thread.is_alive()
        blocker.execute("COMMIT")
        await pending
        # The lock is free again: the next append is written on the loop.
        await writer.write(Append(room, 3, [(None, "throw 1 2 3 4 5")], now))

    asyncio.run(scenario())
    writer.stop()
    blocker.close()
    assert logged(engine, room) == [(1, "roll"), (2, "keep"), (3, "throw 1 2 3 4 5")]


def test_a_lock_held_past_the_busy_timeout_fails_the_write_in_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(BUSY_TIMEOUT_ENV, "0.2")  # the thread's connection waits this long for the lock
    path = tmp_path / "t.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    room = add_room(engine, "T")
    writer = EventWriter(engine)
    blocker = sqlite3.connect(path, isolation_level=None)

    async def scenario() -> None:
        blocker.execute("BEGIN IMMEDIATE")  # held for good: the loop hands the append to the thread, which gives up
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                await asyncio.wait_for(writer.write(Append(room, 1, [(0, "roll")], datetime.now(UTC))), 30)
        finally:
            blocker.execute("ROLLBACK")
        await writer.write(Append(room, 1, [(0, "roll")], datetime.now(UTC)))  # the slot is still free

    asyncio.run(scenario())
    writer.stop()
    blocker.close()
    assert logged(engine, room) == [(1, "roll")]
    engine.dispose()


@pytest.mark.parametrize("every", [20, 10_000])
def test_the_thread_checkpoints_the_loops_commits(
    engine: Engine, path: Path, monkeypatch: pytest.MonkeyPatch, every: int
) -> None:
    monkeypatch.setattr(_writer, "CHECKPOINT_EVERY", every)
    room = add_room(engine, "C")
    watcher = sqlite3.connect(path)  # open throughout, so that no other connection's close is the last one
    watcher.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the tables and the room in the file, the log empty
    writer = EventWriter(engine)
    checkpointed = threading.Event()
    real = writer._checkpoint

    def checkpoint() -> None:
        real()
        checkpointed.set()

    monkeypatch.setattr(writer, "_checkpoint", checkpoint)
    now = datetime.now(UTC)

    async def scenario() -> None:
        for seq in range(1, 41):
            await writer.write(Append(room, seq, [(0, f"a{seq}")], now))

    asyncio.run(scenario())
    if every == 20:
        assert checkpointed.wait(30)
    # The database file alone (the log ignored): the events that a checkpoint copied there.
    image = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    in_file = image.execute("SELECT count(*) FROM events WHERE game_id = ?", (room,)).fetchone()[0]
    image.close()
    writer.stop()
    watcher.close()
    if every == 20:
        assert in_file >= 20  # at least the first 20 commits were copied into the file, by the thread
    else:
        assert in_file == 0 and not checkpointed.is_set()  # the loop's connection never checkpoints by itself
    assert len(logged(engine, room)) == 40
