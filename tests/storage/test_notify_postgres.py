"""PostgreSQL notifications: RoomStore.notify's payloads in one statement arrive in order, once each; the
event writer's small (scalar) and large (array) batches write the same rows and notices."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow, RoomStore, make_engine, migrate
from pasch.storage import _writer as writer_module
from pasch.storage._writer import CHANNEL, SMALL_BATCH, Append, EventWriter
from web._support import Postgres

pytestmark = pytest.mark.slow


def test_notify_sends_every_payload_in_order(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)
    store = RoomStore(engine)
    with psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        payloads = [f'm t R{i:03d} {{"n":{i}}}' for i in range(300)] + ["ünïcode 'quoted' \\ back"]
        store.notify(CHANNEL, *payloads)
        store.notify(CHANNEL)  # nothing to send: no statement, no error
        store.notify(CHANNEL, "last")
        got = [n.payload for n in listener.notifies(timeout=30, stop_after=len(payloads) + 1)]
    assert got == [*payloads, "last"]
    engine.dispose()


@pytest.mark.parametrize("small", [SMALL_BATCH, 0])
def test_writer_batches_small_and_large_write_every_event_and_notice(
    postgres: Postgres, small: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of up to SMALL_BATCH events bind scalars, larger ones arrays (all of them with 0): both write
    the same rows and notices."""
    monkeypatch.setattr(writer_module, "SMALL_BATCH", small)
    engine = make_engine(postgres.url)
    migrate(engine)
    with Session(engine) as s, s.begin():
        rooms = [GameRow(code=f"N{small}-{i}", rules="kniffel", source="web", status="playing") for i in range(30)]
        s.add_all(rooms)
        s.flush()
        ids = [r.id for r in rooms]
    writer = EventWriter(engine)
    now = datetime.now(UTC)
    with psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")

        async def scenario() -> None:
            await writer.write(Append(ids[0], 1, [(0, "roll"), (None, "throw 1 2 3 4 5")], now, notice="one"))
            await writer.write(Append(ids[0], 3, [(None, "x")], now))  # no notice
            # 30 at once: the first goes alone, the rest share a batch larger than SMALL_BATCH (arrays).
            await asyncio.gather(
                *(writer.write(Append(r, 1 + 3 * (r == ids[0]), [(1, "ä's")], now, notice=f"n{r}")) for r in ids)
            )

        asyncio.run(scenario())
        writer.stop()
        got = {n.payload for n in listener.notifies(timeout=30, stop_after=31)}
    assert got == {"one", *(f"n{r}" for r in ids)}
    with Session(engine) as s:
        columns = select(EventRow.game_id, EventRow.seq, EventRow.seat, EventRow.action)
        logged = s.execute(columns.where(EventRow.game_id.in_(ids))).all()
    assert sorted(logged) == sorted(
        [(ids[0], 1, 0, "roll"), (ids[0], 2, None, "throw 1 2 3 4 5"), (ids[0], 3, None, "x")]
        + [(r, 1 + 3 * (r == ids[0]), 1, "ä's") for r in ids]
    )
    engine.dispose()
