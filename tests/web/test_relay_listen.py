"""The relay's listener reads notifications at libpq's level: every payload, in order, and a lost connection ends
the wait (the listener then connects again)."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from pasch.storage import LISTEN
from pasch.web._relay import Relay
from pasch.web._writer import CHANNEL
from web._support import Postgres

pytestmark = pytest.mark.slow


class _Sink:
    """What :meth:`Relay._receive` uses of a relay."""

    def __init__(self) -> None:
        self.received = 0
        self.payloads: list[str] = []
        self.got = asyncio.Event()

    def on_notice(self, payload: str) -> None:
        if payload == "boom":
            raise RuntimeError("a bad notification")
        self.payloads.append(payload)
        self.got.set()


def test_notifications_arrive_in_order_and_a_killed_connection_ends_the_wait(postgres: Postgres) -> None:
    url = postgres.url.replace("postgresql+psycopg", "postgresql")
    sent = [f"e R{i} {i} 0" for i in range(50)] + ['m t R1 {"name":"Zoë ✓"}']

    async def scenario() -> None:
        sink = _Sink()
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await listener.execute(LISTEN)
        pid = listener.info.backend_pid
        task = asyncio.create_task(Relay._receive(sink, listener))  # type: ignore[arg-type]
        other = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await other.execute("SELECT pg_notify(%s, 'boom')", (CHANNEL,))  # a failing one does not stop it
        async with other.transaction():  # several in one transaction arrive together
            for p in sent[:25]:
                await other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, p))
        for p in sent[25:]:
            await other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, p))
        while len(sink.payloads) < len(sent):
            sink.got.clear()
            await asyncio.wait_for(sink.got.wait(), 30)
        assert sink.payloads == sent and sink.received == len(sent) + 1
        await other.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(psycopg.OperationalError):
            await asyncio.wait_for(task, 30)
        await other.close()
        await listener.close()

    asyncio.run(scenario())


def test_cancelling_the_wait_leaves_no_reader(postgres: Postgres) -> None:
    url = postgres.url.replace("postgresql+psycopg", "postgresql")

    async def scenario() -> None:
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await listener.execute(LISTEN)
        task = asyncio.create_task(Relay._receive(_Sink(), listener))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        loop: Any = asyncio.get_running_loop()
        assert not loop._selector.get_map() or listener.pgconn.socket not in loop._selector.get_map()
        await listener.close()

    asyncio.run(scenario())
