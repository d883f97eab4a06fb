"""RoomStore.notify on PostgreSQL: many payloads in one statement arrive, in order, once each."""

from __future__ import annotations

import psycopg
import pytest

from pasch.storage import RoomStore, make_engine, migrate
from pasch.storage._writer import CHANNEL
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
