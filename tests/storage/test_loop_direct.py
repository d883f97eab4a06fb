"""``LoopDirect`` without a database: a statement whose bytes the socket does not take at once waits for the
socket to be writable (the loop serves others meanwhile, nothing spins), then reads its results."""

from __future__ import annotations

import asyncio
import select
import socket
from typing import Any

from psycopg import pq

from pasch.storage._pg_append import LoopDirect


class _Result:
    status = pq.ExecStatus.TUPLES_OK


class _PGconn:
    """libpq as LoopDirect sees it: ``flush`` has more to send (1) while the socket takes nothing."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.flushes = 0
        self.results: list[Any] = [_Result()]

    def flush(self) -> int:
        self.flushes += 1
        _, writable, _ = select.select([], [self.sock], [], 0)
        return 0 if writable else 1

    def is_busy(self) -> int:
        return 0

    def get_result(self) -> Any:
        return self.results.pop() if self.results else None


def test_a_full_send_buffer_is_waited_out_on_the_loop_without_spinning() -> None:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    try:
        while True:  # fill the buffers: the database reads nothing for now
            ours.send(b"x" * 65536)
    except BlockingIOError:
        pass
    pgconn = _PGconn(ours)
    direct = LoopDirect(lambda: None)
    direct._pgconn, direct._fd = pgconn, ours.fileno()

    async def database_reads_later() -> None:
        for _ in range(50):  # fifty turns of the loop, then the database reads everything
            await asyncio.sleep(0)
        while True:
            try:
                if not theirs.recv(1 << 20):
                    break
            except BlockingIOError:
                await asyncio.sleep(0.01)
                if select.select([], [ours], [], 0)[1]:
                    break

    async def scenario() -> Any:
        sent: list[bool] = []
        result, _ = await asyncio.gather(direct._exec(lambda: sent.append(True)), database_reads_later())
        assert sent == [True]
        assert not asyncio.get_running_loop().remove_writer(ours.fileno())  # its writer was removed
        return result

    try:
        assert isinstance(asyncio.run(scenario()), _Result)
    finally:
        ours.close()
        theirs.close()
    # Once before the wait, once when the socket could take more: not once per turn of the loop.
    assert pgconn.flushes == 2


class _Busy(_PGconn):
    """A statement whose result never comes."""

    def is_busy(self) -> int:
        return 1


def test_closing_after_the_loop_closed_with_a_statement_waiting_raises_nothing() -> None:
    ours, theirs = socket.socketpair()
    direct = LoopDirect(lambda: None)
    direct._pgconn, direct._fd = _Busy(ours), ours.fileno()
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(direct._exec(lambda: None))
        loop.run_until_complete(asyncio.sleep(0.01))  # the statement now waits for its result
        assert direct._waiter is not None and not direct._waiter.done()
    finally:
        loop.close()  # (a server stopping: its loop is gone before the writer's stop)
    direct.close()  # must not raise "Event loop is closed"
    assert direct._waiter is None and not task.done()
    ours.close()
    theirs.close()


def test_parameters_as_text_remember_the_last_time_by_identity() -> None:
    """Every event of a move carries one ``datetime``: its text is made once; another time, even an equal one,
    is written from its own value (the memo holds the object, so its identity is never reused meanwhile)."""
    from datetime import UTC, datetime, timedelta

    from pasch.storage._pg_append import _text

    first = datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC)
    assert _text(first) == b"2026-11-29T12:00:00.123456+00:00" and _text(first) == _text(first)
    later = first + timedelta(microseconds=1)
    assert _text(later) == b"2026-11-29T12:00:00.123457+00:00"
    assert _text(first) == b"2026-11-29T12:00:00.123456+00:00"
    assert [_text(v) for v in (7, True, False, None, "x")] == [b"7", b"t", b"f", None, b"x"]
