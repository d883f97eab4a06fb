"""A stand-in's move is logged only while the room's stored meta hands its seat over; a player's ``back``
(:meth:`RoomStore.record_back`) closes the hand-over at the last logged event. SQLite in the fast step, the
same on PostgreSQL in the slow one (the two processes' race is tests/web/test_stand_in_back.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session

from pasch.storage import (
    Append,
    ConflictError,
    EventRow,
    EventWriter,
    GameRow,
    HandedError,
    RoomStore,
    StandInError,
    handed,
    make_engine,
    migrate,
)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "postgresql":
        eng = make_engine(request.getfixturevalue("postgres").url)
    else:
        eng = make_engine(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    migrate(eng)
    yield eng
    eng.dispose()


def _away(seat: int, start: int) -> dict[str, Any]:
    return {"seat": seat, "bot": "bot:greedy", "from": start, "to": None, "why": "clock"}


def _room(engine: Engine, code: str, meta: dict[str, Any]) -> int:
    with Session(engine) as s, s.begin():
        row = GameRow(code=code, rules="kniffel", source="web", status="playing", meta=meta)
        s.add(row)
        s.flush()
        return row.id


def _tag(engine: Engine) -> str:
    return engine.dialect.name[:2].upper()  # a room code per database (PostgreSQL's lives for the module)


def _logged(engine: Engine, room: int) -> list[tuple[int, int | None, str]]:
    with Session(engine) as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == room).order_by(EventRow.seq)).all()
        return [(r.seq, r.seat, r.action) for r in rows]


def test_handed_means_an_open_entry_of_that_seat() -> None:
    assert handed({"stand_ins": [_away(1, 3)]}, 1)
    assert not handed({"stand_ins": [_away(1, 3)]}, 0)
    assert not handed({"stand_ins": [{**_away(1, 3), "to": 5}]}, 1)
    assert not handed({}, 1) and not handed(None, 1) and not handed({"stand_ins": "junk"}, 1)


def test_a_stand_ins_move_after_back_is_refused_and_one_before_is_counted(engine: Engine) -> None:
    store, writer = RoomStore(engine), EventWriter(engine)
    room = _room(engine, f"SI1{_tag(engine)}", {"stand_ins": [_away(1, 1)]})
    other = _room(engine, f"SI2{_tag(engine)}", {"stand_ins": [_away(0, 1)]})
    plain = _room(engine, f"SI3{_tag(engine)}", {})
    now = datetime.now(UTC)

    async def scenario() -> None:
        # Handed over: the stand-in's roll is logged.
        await writer.write(Append(room, 1, [(1, "roll"), (None, "throw 1 2 3 4 5")], now, stand_in=1))
        # The player is back: the hand-over closes at the last logged event, which the stand-in played.
        meta = store.record_back(room, 1)
        assert meta is not None and meta["stand_ins"] == [{**_away(1, 1), "to": 2}]
        # The stand-in's next move (decided before it knew) is refused, alone or in a batch ...
        with pytest.raises(StandInError):
            await writer.write(Append(room, 3, [(1, "score chance")], now, stand_in=1))
        # ... in which a stand-in's move in a room that still hands its seat over and a player's move
        # elsewhere are written.
        results = await asyncio.gather(
            writer.write(Append(room, 3, [(1, "score chance")], now, stand_in=1)),
            writer.write(Append(other, 1, [(0, "roll"), (None, "throw 6 6 6 6 6")], now, stand_in=0)),
            writer.write(Append(plain, 1, [(0, "roll"), (None, "throw 2 2 3 3 3")], now)),
            return_exceptions=True,
        )
        refused = results[0]
        assert isinstance(refused, StandInError) and isinstance(refused, ConflictError)
        assert refused.meta["stand_ins"] == [{**_away(1, 1), "to": 2}]
        assert results[1:] == [None, None]
        # The player, not the bot, acts next: their own move takes the slot.
        await writer.write(Append(room, 3, [(1, "score chance")], now))

    asyncio.run(scenario())
    writer.stop()
    assert _logged(engine, room) == [(1, 1, "roll"), (2, None, "throw 1 2 3 4 5"), (3, 1, "score chance")]
    assert [a for _, _, a in _logged(engine, other)] == ["roll", "throw 6 6 6 6 6"]
    assert [a for _, _, a in _logged(engine, plain)] == ["roll", "throw 2 2 3 3 3"]


def test_back_before_the_stand_in_played_drops_its_entry_and_keeps_the_others(engine: Engine) -> None:
    earlier = {**_away(1, 1), "to": 1, "why": "host"}
    room = _room(engine, f"SI4{_tag(engine)}", {"chat": [], "stand_ins": [earlier, _away(0, 4), _away(1, 4)]})
    writer = EventWriter(engine)

    async def scenario() -> None:
        for seq, seat in ((1, 1), (2, 0), (3, 0)):
            await writer.write(Append(room, seq, [(seat, f"a{seq}")], datetime.now(UTC)))

    asyncio.run(scenario())
    writer.stop()
    meta = RoomStore(engine).record_back(room, 1)
    assert meta is not None and meta["stand_ins"] == [earlier, _away(0, 4)] and meta["chat"] == []
    assert RoomStore(engine).meta(room) == meta
    assert RoomStore(engine).record_back(10_000, 1) is None


def test_a_players_own_move_is_refused_while_their_seat_is_handed_over(engine: Engine) -> None:
    store, writer = RoomStore(engine), EventWriter(engine)
    room = _room(engine, f"SI5{_tag(engine)}", {})
    plain = _room(engine, f"SI6{_tag(engine)}", {})
    now = datetime.now(UTC)

    async def scenario() -> None:
        await writer.write(Append(room, 1, [(0, "roll"), (None, "throw 1 2 3 4 5")], now, player=0))
        await writer.write(Append(room, 3, [(0, "score chance")], now, player=0))
        # Another process hands seat 1 over: from the event after the log's last one.
        done = store.record_hand_over(room, 1, "bot:greedy", "clock", seen=3)
        assert done is not None and done[1] and done[0]["stand_ins"] == [{**_away(1, 4), "why": "clock"}]
        # Seat 1's player, on a process that has not heard of it, rolls: refused, alone or in a batch (in which
        # a move of another room and the stand-in's own move are written).
        with pytest.raises(HandedError) as refused:
            await writer.write(Append(room, 4, [(1, "roll"), (None, "throw 6 6 6 6 6")], now, player=1))
        assert isinstance(refused.value, ConflictError) and handed(refused.value.meta, 1)
        results = await asyncio.gather(
            writer.write(Append(room, 4, [(1, "roll"), (None, "throw 6 6 6 6 6")], now, player=1)),
            writer.write(Append(plain, 1, [(0, "roll"), (None, "throw 2 2 3 3 3")], now, player=0)),
            return_exceptions=True,
        )
        assert isinstance(results[0], HandedError) and results[1] is None
        # The player is back (the stand-in played nothing: no entry): their move is written.
        meta = store.record_back(room, 1)
        assert meta is not None and meta["stand_ins"] == []
        await writer.write(Append(room, 4, [(1, "roll"), (None, "throw 6 6 6 6 6")], now, player=1))

    asyncio.run(scenario())
    writer.stop()
    assert [a for _, _, a in _logged(engine, room)] == [
        "roll",
        "throw 1 2 3 4 5",
        "score chance",
        "roll",
        "throw 6 6 6 6 6",
    ]


def test_a_hand_over_decided_on_a_log_that_moved_on_writes_nothing(engine: Engine) -> None:
    store, writer = RoomStore(engine), EventWriter(engine)
    room = _room(engine, f"SI7{_tag(engine)}", {"chat": ["kept"]})

    async def scenario() -> None:
        await writer.write(Append(room, 1, [(1, "roll"), (None, "throw 1 2 3 4 5")], datetime.now(UTC)))

    asyncio.run(scenario())
    writer.stop()
    assert store.record_hand_over(room, 1, "bot:greedy", "clock", seen=0) == ({"chat": ["kept"]}, False)
    assert store.meta(room) == {"chat": ["kept"]}
    # The host's hand-over needs no position: the entry starts after the log's last event.
    done = store.record_hand_over(room, 1, "bot:greedy", "host")
    assert done is not None and done == (store.meta(room), True)
    assert done[0]["stand_ins"] == [{**_away(1, 3), "why": "host"}]
    # Handed over already (by another process): nothing more.
    assert store.record_hand_over(room, 1, "bot:greedy", "vote") == (done[0], False)
    assert store.record_hand_over(10_000, 1, "bot:greedy", "host") is None


def test_on_sqlite_record_back_reads_and_writes_in_one_transaction(tmp_path: Path) -> None:
    """``back`` takes SQLite's write lock before it reads the log's end: a writer that holds the lock and logs
    a stand-in's move meanwhile is seen (before: it read first and closed the entry before that move)."""
    path = tmp_path / "rooms.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    room = _room(engine, "SIBACK", {"stand_ins": [_away(1, 1)]})
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer (a stand-in's move) holds the database's write lock
    holder.execute(
        "INSERT INTO events (game_id, seq, seat, action, created_at) VALUES (?, 1, 1, 'roll', '2026-01-01 00:00:00')",
        (room,),
    )
    started = threading.Event()

    @event.listens_for(engine, "before_cursor_execute")
    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(("BEGIN", "UPDATE")):
            started.set()  # record_back is about to wait for the lock (after its read, without one transaction)

    out: list[dict[str, Any] | None] = []
    back = threading.Thread(target=lambda: out.append(RoomStore(engine).record_back(room, 1)))
    back.start()
    assert started.wait(30)
    holder.execute("COMMIT")
    holder.close()
    back.join(60)
    assert not back.is_alive()
    assert out == [{"stand_ins": [{**_away(1, 1), "to": 1}]}], f"back missed the stand-in's move: {out}"
    engine.dispose()
