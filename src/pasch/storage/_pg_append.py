"""PostgreSQL: a checked append in one statement (one round trip on an autocommit connection).

A batch with a checked move (a stand-in's move, :attr:`~pasch.storage.Append.stand_in`, or a player's own move on
a seat that may be handed over, :attr:`~pasch.storage.Append.player`) used to take four round trips: ``BEGIN``,
``SELECT meta ... FOR UPDATE`` (the rooms' rows, in id order), the insert with its ``NOTIFY``-s, ``COMMIT``. This
module builds one statement that does all of it, in this order:

1. ``lk`` locks the checked rooms' rows in id order (``FOR UPDATE``; under READ COMMITTED a row another
   transaction changed meanwhile is read in its newest committed version once that transaction ends, as the
   separate ``SELECT ... FOR UPDATE`` did);
2. ``bad`` is every checked move the room's ``meta`` refuses: a stand-in's move whose seat is not handed over, a
   player's own move whose seat is (:data:`HANDED`, the SQL twin of :func:`pasch.storage.handed`);
3. the events of every other append are inserted and their notices ``NOTIFY``-ed (in the batch's order); the
   statement's transaction commits at its end (autocommit), which releases the locks and sends the notices.

The statement returns one row: the number of notices sent and ``[[append index, stand_ins], ...]`` of the
refused moves (JSON text, NULL when none; ``stand_ins`` is the room's ``meta`` entry as read under the lock).
A taken ``(game_id, seq)`` slot fails the whole statement (nothing written, nothing notified), as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import pq

__all__ = ["HANDED", "CheckedStatements", "Direct", "LoopDirect", "handed_sql", "refused_of"]

HANDED = (
    "COALESCE((SELECT true FROM json_array_elements("
    "CASE WHEN json_typeof({meta}) = 'object' AND json_typeof({meta} -> 'stand_ins') = 'array' "
    "THEN {meta} -> 'stand_ins' END) AS e(v) "
    "WHERE json_typeof(e.v) = 'object' AND json_typeof(e.v -> 'seat') = 'number' "
    "AND e.v ->> 'seat' = CAST({seat} AS text) "
    "AND (e.v -> 'to' IS NULL OR json_typeof(e.v -> 'to') = 'null') LIMIT 1), false)"
)
"""Whether a room's ``meta`` (a ``json`` value) hands ``seat`` to a stand-in now: an entry of ``stand_ins`` that is
an object with an integer ``seat`` equal to it and no ``to`` (or ``to`` null) — :func:`pasch.storage.handed`.
(A seat written as ``true`` or ``1.0`` counts for no seat here; the server writes integers.)"""


def handed_sql(meta: str, seat: str) -> str:
    """:data:`HANDED` for the SQL expressions ``meta`` (json) and ``seat`` (integer)."""
    return HANDED.format(meta=meta, seat=seat)


class CheckedStatements:
    """Builds (and caches, per shape) the one-statement checked append for a table of events.

    Args:
        games: the rooms' table (``id``, ``meta``).
        events: the events' table.
        columns: the events' columns, in the order of a row's values.
        types: their SQL types (as PostgreSQL spells them), in the same order.
        channel: the ``NOTIFY`` channel.
        small: up to this many rows, notices and checks bind scalars (a statement per shape); more: arrays.
    """

    def __init__(
        self, games: str, events: str, columns: Sequence[str], types: Sequence[str], channel: str, small: int
    ) -> None:
        self.games = games
        self.events = events
        self.columns = list(columns)
        self.types = list(types)
        self.channel = channel
        self.small = small
        self._cache: dict[tuple[int, int, int, int], str] = {}

    def statement(
        self,
        checks: Sequence[tuple[int, int, int, bool]],
        rows: Sequence[tuple[int, Sequence[Any]]],
        notices: Sequence[tuple[int, str]],
    ) -> tuple[str, tuple[Any, ...]]:
        """The statement and its parameters.

        Args:
            checks: (append index, room id, seat, whether it is a stand-in's move) per checked append.
            rows: (append index, the row's values in ``columns`` order) per event, in log order.
            notices: (append index, payload) per notice, in the order they are to be sent.
        """
        rooms = sorted({rid for _, rid, _, _ in checks})
        small = max(len(checks), len(rows), len(notices)) <= self.small
        shape = (len(checks), len(rooms), len(rows), len(notices)) if small else (-1, -1, -1, -1)
        sql = self._cache.get(shape)
        if sql is None:
            sql = self._build(shape if small else None)
            self._cache[shape] = sql
        if small:
            params: list[Any] = [v for check in checks for v in check]
            params += rooms
            params += [v for i, values in rows for v in (*values, i)]
            params += [v for i, p in notices for v in (p, i)]
            return sql, tuple(params)
        return sql, (
            [c[0] for c in checks],
            [c[1] for c in checks],
            [c[2] for c in checks],
            [c[3] for c in checks],
            rooms,
            *([values[k] for _, values in rows] for k in range(len(self.columns))),
            [i for i, _ in rows],
            [p for _, p in notices],
            [i for i, _ in notices],
        )

    def _build(self, shape: tuple[int, int, int, int] | None) -> str:
        cols = ", ".join(self.columns)
        if shape is not None:
            n_checks, n_rooms, n_rows, n_notices = shape
            checks = "(VALUES " + ", ".join(["(%s::integer, %s::integer, %s::integer, %s::boolean)"] * n_checks) + ")"
            rooms = "id IN (" + ", ".join(["%s"] * n_rooms) + ")"
            row = "(" + ", ".join(f"%s::{t}" for t in self.types) + ", %s::integer)"
            rows = "(VALUES " + ", ".join([row] * n_rows) + ")"
            notices = (
                "(VALUES " + ", ".join(f"(%s::text, %s::integer, {k})" for k in range(n_notices)) + ") AS n(p, i, o)"
                if n_notices
                else ""
            )
        else:
            checks = "unnest(%s::integer[], %s::integer[], %s::integer[], %s::boolean[])"
            rooms = "id = ANY(%s::integer[])"
            rows = "unnest(" + ", ".join(f"%s::{t}[]" for t in self.types) + ", %s::integer[])"
            notices = "unnest(%s::text[], %s::integer[]) WITH ORDINALITY AS n(p, i, o)"
        notify = (
            f"SELECT pg_notify('{self.channel}', n.p) FROM {notices} WHERE n.i NOT IN (SELECT i FROM bad) ORDER BY n.o"
            if notices
            else "SELECT 1 WHERE false"
        )
        return (
            f"WITH c AS MATERIALIZED (SELECT * FROM {checks} AS c(i, rid, seat, stand)), "
            f"lk AS MATERIALIZED (SELECT id, meta FROM {self.games} WHERE {rooms} ORDER BY id FOR UPDATE), "
            "bad AS MATERIALIZED (SELECT c.i, lk.meta -> 'stand_ins' AS stand_ins FROM c JOIN lk ON lk.id = c.rid "
            f"WHERE {handed_sql('lk.meta', 'c.seat')} <> c.stand), "
            f"ins AS (INSERT INTO {self.events} ({cols}) SELECT {cols} FROM {rows} AS r({cols}, i) "
            "WHERE r.i NOT IN (SELECT i FROM bad)), "
            f"nt AS MATERIALIZED ({notify}) "
            "SELECT (SELECT count(*) FROM nt), "
            "(SELECT CAST(json_agg(json_build_array(bad.i, bad.stand_ins)) AS text) FROM bad)"
        )


def refused_of(result: Sequence[Any] | None) -> dict[int, dict[str, Any]]:
    """The refused appends' indexes and their rooms' ``meta`` as read under the lock, from the statement's row:
    only its ``stand_ins`` (``{}`` when it has no list there), as the writer's own check reads it."""
    if result is None or result[1] is None:
        return {}
    out: dict[int, dict[str, Any]] = {}
    for index, stand_ins in json.loads(result[1]):
        out[int(index)] = {"stand_ins": stand_ins} if isinstance(stand_ins, list) else {}
    return out


class Direct:
    """Runs the writer's small statements through libpq itself, each prepared once per connection, with its
    parameters sent as text: psycopg's cursor (query conversion, a dumper per parameter, its prepare bookkeeping,
    the result's loaders) took ~45 µs of a process's CPU per write, libpq ~20 µs. libpq waits for the server with
    the GIL released. Errors are psycopg's classes (a taken slot: :class:`psycopg.errors.UniqueViolation`, an
    :class:`psycopg.IntegrityError`; a lost connection: :class:`psycopg.OperationalError`).

    Only for statements written with ``%s`` placeholders, explicit casts and scalar parameters (None, bool, int,
    str, datetime); the statement text holds no other ``%``.
    """

    def __init__(self) -> None:
        self._pgconn: Any = None
        self._names: dict[str, bytes] = {}

    def run(self, pgconn: Any, sql: str, params: Sequence[Any]) -> list[tuple[bytes | None, ...]]:
        """Execute ``sql`` on ``pgconn`` (a psycopg ``PGconn`` in autocommit, no transaction open); its rows as
        text (bytes, None for NULL).

        Raises:
            psycopg.Error: the database refused the statement or the connection failed.
        """
        if pgconn is not self._pgconn:  # a new connection: nothing is prepared on it yet
            self._pgconn = pgconn
            self._names = {}
        values = [_text(v) for v in params]
        name = self._names.get(sql)
        if name is None:
            name = self._prepare(pgconn, sql)
        try:
            result = _check(pgconn.exec_prepared(name, values), pgconn)
        except psycopg.errors.InvalidSqlStatementName:  # dropped behind our back (DEALLOCATE / DISCARD ALL)
            result = _check(pgconn.exec_prepared(self._prepare(pgconn, sql), values), pgconn)
        return _rows_of(result)

    def _prepare(self, pgconn: Any, sql: str) -> bytes:
        # Named by the text: a pooled connection may hold it already (prepared by an earlier writer).
        name = _statement_name(sql)
        with contextlib.suppress(psycopg.errors.DuplicatePreparedStatement):  # the same name: the same text
            _check(pgconn.prepare(name, _numbered(sql).encode()), pgconn)
        self._names[sql] = name
        return name


class LoopDirect:
    """:class:`Direct` on the event loop: libpq's asynchronous calls on a nonblocking connection whose socket the
    loop watches, so a write needs no thread. Handing every write to a writer thread and its result back (a queue,
    a thread's wake-up, the GIL passed both ways, ``call_soon_threadsafe``'s wake-up of the loop) cost more of a
    process's CPU than the statement (issue 25). One statement is in flight at a time (the caller sees to it).

    Args:
        connect: opens a DBAPI connection to PostgreSQL (psycopg); called in a worker thread, so a database that
            does not answer never blocks the loop.
    """

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._conn: Any = None
        self._pgconn: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._fd = -1
        self._names: dict[str, bytes] = {}
        self._waiter: asyncio.Future[None] | None = None

    async def run(self, sql: str, params: Sequence[Any]) -> list[tuple[bytes | None, ...]]:
        """Execute ``sql`` (autocommit, no transaction open); its rows as text (bytes, None for NULL).

        Raises:
            psycopg.Error: the database refused the statement or the connection failed (the connection is
                dropped; the next call opens a new one).
        """
        pgconn = await self._connection()
        values = [v.encode() if type(v) is str else _text(v) for v in params]  # text, the most of them, at once
        try:
            name = self._names.get(sql)
            if name is None:
                name = await self._prepare(sql)
            try:
                result = await self._exec(lambda: pgconn.send_query_prepared(name, values))
            except psycopg.errors.InvalidSqlStatementName:  # dropped behind our back (DEALLOCATE / DISCARD ALL)
                name = await self._prepare(sql)
                result = await self._exec(lambda: pgconn.send_query_prepared(name, values))
        except (psycopg.OperationalError, asyncio.CancelledError):  # a statement may be left in flight: start afresh
            self.close()
            raise
        except psycopg.Error:
            if pgconn.status != pq.ConnStatus.OK:
                self.close()
            raise
        return _rows_of(result)

    def close(self) -> None:
        """Stop watching the socket and close the connection (idempotent)."""
        conn, self._conn, self._pgconn = self._conn, None, None
        if self._waiter is not None and not self._waiter.done():
            with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
                self._waiter.set_exception(psycopg.OperationalError("the connection was closed"))
        self._waiter = None
        if conn is None:
            return
        # The descriptor as registered: libpq may have closed a lost connection's socket already (its number is
        # then free for the next connection, which must not find it registered still).
        with contextlib.suppress(Exception):  # a closed loop
            if self._loop is not None and self._fd >= 0:
                self._loop.remove_reader(self._fd)
        self._fd = -1
        with contextlib.suppress(Exception):
            conn.invalidate()  # its protocol state is libpq's, not psycopg's: not back to the pool

    async def _connection(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._pgconn is not None and self._loop is not loop:  # another loop (a test's second asyncio.run)
            self.close()
        if self._pgconn is None:
            conn = await asyncio.to_thread(self._connect)
            try:
                conn.driver_connection.autocommit = True
                pgconn = conn.driver_connection.pgconn
                pgconn.nonblocking = 1
                fd = pgconn.socket
                loop.add_reader(fd, self._readable)
            except Exception:
                with contextlib.suppress(Exception):
                    conn.invalidate()
                raise
            self._conn, self._pgconn, self._loop, self._fd, self._names = conn, pgconn, loop, fd, {}
        return self._pgconn

    def _readable(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)
            return
        # Nobody waits (a notice, or the server closing the connection): read it, so the loop stops reporting it.
        try:
            if self._pgconn is not None:
                self._pgconn.consume_input()
        except psycopg.Error:
            self.close()

    async def _writable(self) -> None:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_writer(self._fd, wake)
        try:
            await ready
        finally:
            loop.remove_writer(self._fd)

    async def _prepare(self, sql: str) -> bytes:
        name = _statement_name(sql)
        pgconn = self._pgconn
        with contextlib.suppress(psycopg.errors.DuplicatePreparedStatement):  # the same name: the same text
            await self._exec(lambda: pgconn.send_prepare(name, _numbered(sql).encode()))
        self._names[sql] = name
        return name

    async def _exec(self, send: Callable[[], None]) -> Any:
        """Send a command, then read its results as they come (the loop serves others meanwhile); the first
        failed result is raised (as :class:`Direct` does), after the rest was read."""
        pgconn = self._pgconn
        send()
        while pgconn.flush():  # rare: the socket's buffer is full; wait until it takes more
            await self._writable()
        outcome: Any = None
        failed: Any = None
        while True:
            while pgconn.is_busy():
                waiter = self._waiter = asyncio.get_running_loop().create_future()
                await waiter
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            if failed is None and result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
                failed = result
            outcome = result
        if outcome is None:
            raise psycopg.OperationalError((pgconn.error_message or b"no result").decode(errors="replace").strip())
        return _check(failed if failed is not None else outcome, pgconn)


def _statement_name(sql: str) -> bytes:
    """The prepared statement's name, from its text: a pooled connection may hold it already (prepared by an
    earlier writer, :class:`Direct` or :class:`LoopDirect`), and the same name means the same text."""
    return b"pasch_" + hashlib.sha1(sql.encode()).hexdigest()[:24].encode()


def _rows_of(result: Any) -> list[tuple[bytes | None, ...]]:
    """A libpq result's rows as text (bytes, None for NULL)."""
    return [tuple(result.get_value(r, c) for c in range(result.nfields)) for r in range(result.ntuples)]


def _numbered(sql: str) -> str:
    """``%s`` placeholders as ``$1, $2, ...``."""
    parts = sql.split("%s")
    out = [parts[0]]
    for k, part in enumerate(parts[1:], start=1):
        out.append(f"${k}{part}")
    return "".join(out)


_LAST_TIME: tuple[Any, bytes] = (None, b"")
"""The last time written and its text: every event of a move carries the move's one ``datetime`` object, and
``isoformat`` of an aware time costs about 2 us (replaced as a whole, so a thread never reads half of it)."""


def _text(value: Any) -> bytes | None:
    global _LAST_TIME
    if type(value) is int:
        return str(value).encode()
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int | str):
        return str(value).encode()
    if isinstance(value, datetime):
        last = _LAST_TIME
        if last[0] is value:
            return last[1]
        text = value.isoformat().encode()
        _LAST_TIME = (value, text)
        return text
    raise TypeError(f"no text form for a parameter of type {type(value).__name__}")


def _check(result: Any, pgconn: Any) -> Any:
    if result.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        return result
    message = (result.error_message or pgconn.error_message or b"the database failed").decode(errors="replace")
    state = result.error_field(pq.DiagnosticField.SQLSTATE)
    if state is None or pgconn.status != pq.ConnStatus.OK:
        raise psycopg.OperationalError(message.strip())
    try:
        kind: type[psycopg.Error] = psycopg.errors.lookup(state.decode())
    except KeyError:
        kind = psycopg.DatabaseError
    raise kind(message.strip())
