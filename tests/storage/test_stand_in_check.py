"""A stand-in's move is logged only while the room's stored meta hands its seat over; a player's ``back``
(:meth:`RoomStore.record_back`) closes the hand-over at the last logged event. SQLite in the fast step, the
same on PostgreSQL in the slow one (the two processes' race is tests/web/test_stand_in_back.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from pasch.storage import (
    Append,
    ConflictError,
    EventRow,
    EventWriter,
    GameRow,
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
