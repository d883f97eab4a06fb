"""The event writer on PostgreSQL: one statement per batch (events + NOTIFY), conflicts, a game's end."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow, make_engine, migrate
from pasch.storage._models import FINISHED, ResultRow
from pasch.storage._writer import CHANNEL, Append, ConflictError, EventWriter
from web._support import Postgres

pytestmark = pytest.mark.slow


def _room(engine: Engine, code: str) -> int:
    with Session(engine) as s, s.begin():
        row = GameRow(code=code, rules="kniffel", source="web", status="playing")
        s.add(row)
        s.flush()
        return row.id


def test_appends_notify_on_commit_a_conflict_fails_alone_and_a_game_end_is_one_transaction(
    postgres: Postgres,
) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)
    rooms = [_room(engine, f"W{i}") for i in range(6)]
    writer = EventWriter(engine)
    listener = psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    now = datetime.now(UTC)

    async def scenario() -> None:
        for seq in (1, 2):
            await asyncio.gather(
                *(writer.write(Append(r, seq, [(0, f"a{seq}")], now, notice=f"{r}:{seq}")) for r in rooms)
            )
        results = await asyncio.gather(
            writer.write(Append(rooms[0], 2, [(0, "late")], now, notice="late")),
            writer.write(Append(rooms[1], 3, [(1, "a3"), (None, "throw 1 2 3 4 5")], now, notice="ok")),
            writer.write(
                Append(
                    rooms[2], 3, [(None, "score 0")], now, results=[(0, "Ada", 50, 1), (1, "Bo", 20, 2)], notice="end"
                )
            ),
            return_exceptions=True,
        )
        assert isinstance(results[0], ConflictError) and results[1] is None and results[2] is None
        # A game's end whose results conflict (the same seat twice is fine, a taken seq is not) writes nothing.
        bad = await asyncio.gather(
            writer.write(Append(rooms[3], 1, [(None, "x")], now, results=[(0, "Ada", 1, 1)], notice="bad")),
            return_exceptions=True,
        )
        assert isinstance(bad[0], ConflictError)

    asyncio.run(scenario())
    writer.stop()
    notices = [n.payload for n in listener.notifies(timeout=2, stop_after=100)]
    listener.close()
    # Every committed append was announced, once; the failed ones were not.
    assert sorted(notices) == sorted([f"{r}:{s}" for r in rooms for s in (1, 2)] + ["ok", "end"])
    with Session(engine) as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == rooms[1]).order_by(EventRow.seq)).all()
        assert [(r.seat, r.action) for r in rows] == [(0, "a1"), (0, "a2"), (1, "a3"), (None, "throw 1 2 3 4 5")]
        assert s.scalars(select(EventRow).where(EventRow.action.in_(["late", "x"]))).first() is None
        ended = s.get(GameRow, rooms[2])
        assert ended is not None and ended.status == FINISHED
        res = s.scalars(select(ResultRow).where(ResultRow.game_id == rooms[2]).order_by(ResultRow.seat)).all()
        assert [(r.seat, r.name, r.total, r.rank, r.winner) for r in res] == [
            (0, "Ada", 50, 1, True),
            (1, "Bo", 20, 2, False),
        ]
        not_ended = s.get(GameRow, rooms[3])
        assert not_ended is not None and not_ended.status != FINISHED
        assert s.scalars(select(ResultRow).where(ResultRow.game_id == rooms[3])).first() is None
    engine.dispose()
