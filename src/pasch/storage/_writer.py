"""The event log's writer: appends in a background thread, several actions per transaction (group commit).

Every accepted action waits (``await``) for the commit of its events before it is acknowledged, so an
acknowledged action survives a crash of the server. The database work runs in one thread with its own
connection, off the event loop: the loop keeps serving other rooms while a commit (or an SQLite WAL
checkpoint, or a PostgreSQL round trip) takes its time. Actions that arrive while a commit is under way go
into the next transaction together, so under load there are fewer commits than actions.

The statements are compiled once for the database's dialect and executed on the DBAPI connection: the
hot path builds no ORM objects and no SQL. The unique ``(game_id, seq)`` constraint still decides between
two writers (processes) that raced for the same slot: a batch that violates it is rolled back and its
appends are retried one by one, so only the conflicting append fails (:class:`ConflictError`).

On PostgreSQL the usual append (a move's events and notice, checked or not, without a game's end or a stand-in)
does not go through the thread: it is written on the event loop itself through libpq's asynchronous calls
(:class:`~pasch.storage._pg_append.LoopDirect`), batched the same way; the hand-off to a thread and back cost more
CPU than the statement. The rest (a game's end, a stand-in's move, a long batch) keeps the thread.

On SQLite every append is written on the event loop too, on a connection of its own that never waits: the appends
of one turn of the loop share one transaction (a commit in WAL mode with ``synchronous=NORMAL`` writes the log to
the OS and does not sync it: ~20 µs), and the write-ahead log's checkpoints (which do sync) run in the thread. When
another connection holds the write lock (a seat claimed, a room created, another program on the same file), the
batch goes to the thread, which waits for the lock as before; so the loop never waits for SQLite's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine, bindparam, insert, update
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from pasch.errors import PaschError
from pasch.storage._models import FINISHED, EventRow, GameRow, ResultRow
from pasch.storage._pg_append import CheckedStatements, Direct, LoopDirect, refused_of
from pasch.storage._rooms import handed

__all__ = ["CHANNEL", "LISTEN", "Append", "ConflictError", "EventWriter", "HandedError", "StandInError"]

MAX_BATCH = 512
"""At most this many appends share one transaction."""
SMALL_BATCH = 8
"""PostgreSQL: a batch of at most this many events and notices binds scalar parameters (else arrays)."""
CHANNEL = "pasch_events"
"""The PostgreSQL ``NOTIFY`` channel on which committed events are announced (:mod:`pasch.web._relay`)."""
LISTEN = f"LISTEN {CHANNEL}"
"""PostgreSQL: the statement that subscribes a connection to :data:`CHANNEL`."""
CHECKPOINT_EVERY = 256
"""SQLite: the loop's connection does not checkpoint the write-ahead log itself (a checkpoint syncs the file); the
thread checkpoints it (``PASSIVE``: never waiting for readers or writers) after this many of the loop's commits."""
_CHECKPOINT = "checkpoint"
"""The writer thread's queue: checkpoint the write-ahead log now (SQLite)."""

_Item = tuple["Append", asyncio.Future[None], asyncio.AbstractEventLoop]


class ConflictError(PaschError):
    """Another writer already recorded an event at one of the append's ``seq`` slots."""


class StandInError(ConflictError):
    """A stand-in's move for a seat that the room's stored ``meta`` no longer hands to a stand-in: its player
    came back (maybe in another process). Nothing of the append was written; ``meta`` holds the room's
    ``stand_ins``, as read."""

    def __init__(self, message: str, meta: dict[str, Any]) -> None:
        super().__init__(message)
        self.meta = meta


class HandedError(ConflictError):
    """A player's own move for a seat that the room's stored ``meta`` hands to a stand-in bot: it was handed over
    (maybe by another process) before this process heard of it. Nothing of the append was written; ``meta`` holds
    the room's ``stand_ins``, as read (the caller records the player's ``back`` and tries the move again)."""

    def __init__(self, message: str, meta: dict[str, Any]) -> None:
        super().__init__(message)
        self.meta = meta


@dataclass(slots=True)
class Append:
    """The rows one accepted action adds: its events and, if it ended the game, the results.

    Attributes:
        room_id: the room's primary key (its ``games.id``).
        first_seq: ``seq`` of the first event (the log's length before plus one).
        events: (seat or None, action text) per event, in order.
        at: the time stamp of the events.
        results: (seat, name, total, rank) per seat when the game ended; the room is then marked finished.
            Rank 1 is a winner.
        notice: on PostgreSQL, the payload ``NOTIFY``-ed on :data:`CHANNEL` in the same transaction (so it
            is delivered exactly when the events are committed); empty: none.
        stand_in: the seat a stand-in bot plays this move for (None: a player's or a bot seat's own move). It is
            written only if the room's stored meta still hands that seat over (:func:`~pasch.storage.handed`),
            read in the same transaction with the room's row locked; else :class:`StandInError`.
        player: the seat whose player makes this move themselves (None: not checked). It is written only if the
            room's stored meta does not hand that seat to a stand-in, read in the same transaction with the
            room's row locked; else :class:`HandedError`. So a move is never logged as a stand-in's that its
            player made on a process which had not yet heard of the hand-over.
    """

    room_id: int
    first_seq: int
    events: list[tuple[int | None, str]]
    at: datetime
    results: list[tuple[int, str, int, int]] = field(default_factory=list)
    notice: str = ""
    stand_in: int | None = None
    player: int | None = None


class _Prepared:
    """A statement compiled once for a dialect; turns rows of values into DBAPI parameters."""

    def __init__(self, stmt: ClauseElement, engine: Engine, types: Mapping[str, Any]) -> None:
        dialect = engine.dialect
        compiled = cast(SQLCompiler, stmt.compile(dialect=dialect))
        self.sql = str(compiled)
        self.order: Sequence[str] | None = list(compiled.positiontup or ()) if compiled.positional else None
        self.processors = {
            name: proc
            for name, type_ in types.items()
            if (proc := dialect.type_descriptor(type_).bind_processor(dialect)) is not None
        }

    def params(self, rows: Iterable[dict[str, Any]]) -> list[Any]:
        out: list[Any] = []
        for row in rows:
            for name, proc in self.processors.items():
                row[name] = proc(row[name])
            out.append(tuple(row[n] for n in self.order) if self.order is not None else row)
        return out


class EventWriter:
    """Appends events from the event loop: on the loop itself where that never waits (SQLite: every append while no
    other connection holds the write lock; PostgreSQL: the usual appends), the rest in one background thread.

    Args:
        engine: the SQLAlchemy engine of the (migrated) database.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        ev = EventRow.__table__.c
        rs = ResultRow.__table__.c
        rm = GameRow.__table__.c
        ev_cols = ("game_id", "seq", "seat", "action", "created_at")
        self._events = _Prepared(
            insert(EventRow).values({c: bindparam(c, type_=ev[c].type) for c in ev_cols}),
            engine,
            {"created_at": ev.created_at.type},
        )
        rs_cols = ("game_id", "seat", "name", "total", "rank", "winner")
        self._results = _Prepared(
            insert(ResultRow).values({c: bindparam(c, type_=rs[c].type) for c in rs_cols}),
            engine,
            {"winner": rs.winner.type},
        )
        self._finish = _Prepared(
            update(GameRow)
            .where(rm.id == bindparam("rid", type_=rm.id.type))
            .values(
                status=bindparam("st", type_=rm.status.type),
                finished_at=bindparam("at", type_=rm.finished_at.type),
                updated_at=bindparam("up", type_=rm.updated_at.type),
            ),
            engine,
            {"at": rm.finished_at.type, "up": rm.updated_at.type},
        )
        # The checked moves' rooms: their hand-overs (meta's ``stand_ins`` only: not the chat), the rows locked in
        # id order, one statement for the batch (SQLite: BEGIN IMMEDIATE holds the write lock already).
        games = GameRow.__tablename__
        self._stand_ins = (
            f"SELECT id, meta -> 'stand_ins' FROM {games} WHERE id = ANY(%s::bigint[]) ORDER BY id FOR UPDATE"
            if engine.dialect.name == "postgresql"
            else f"SELECT id, json_extract(meta, '$.stand_ins') FROM {games} WHERE id IN ({{}}) ORDER BY id"
        )
        # PostgreSQL: the events and their NOTIFYs go in ONE statement on an autocommit connection, so a
        # batch without results is one round trip (was: BEGIN, the insert, the notify, COMMIT). The insert
        # is a data-modifying CTE, which runs to completion whether or not the query reads it; if it fails
        # (a taken seq) the statement fails whole and nothing is notified. PostgreSQL sends the NOTIFYs when
        # (and only if) the statement's transaction commits.
        postgres = engine.dialect.name == "postgresql"
        self._postgres = postgres
        arrays = ", ".join(f"%s::{ev[c].type.compile(dialect=engine.dialect)}[]" for c in ev_cols)
        self._append_pg = (
            f"WITH ins AS (INSERT INTO {EventRow.__tablename__} ({', '.join(ev_cols)}) "
            f"SELECT * FROM unnest({arrays})) "
            f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(%s::text[]) AS p"
        )
        self._ev_cols = ev_cols
        # A small batch (the usual one: one action of one or two events) binds scalars instead of arrays:
        # psycopg dumps a list element by element in Python (~9 % of a process's CPU with 2,000 players).
        self._ev_casts = "(" + ", ".join(f"%s::{ev[c].type.compile(dialect=engine.dialect)}" for c in ev_cols) + ")"
        self._small: dict[tuple[int, int], str] = {}
        # A checked batch (a stand-in's or a player's own move on a seat that may be handed over): the rooms'
        # rows locked, the check, the insert and the NOTIFYs in one statement (pasch.storage._pg_append).
        self._checked = CheckedStatements(
            GameRow.__tablename__,
            EventRow.__tablename__,
            ev_cols,
            [str(ev[c].type.compile(dialect=engine.dialect)) for c in ev_cols],
            CHANNEL,
            SMALL_BATCH,
        )
        self._direct = Direct()
        dbapi = engine.dialect.loaded_dbapi
        self._integrity: type[Exception] = dbapi.IntegrityError
        self._queue: queue.SimpleQueue[_Item | str | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: Any = None
        # PostgreSQL: the usual appends are written on the event loop (see the module's docstring).
        self._loop_direct = LoopDirect(engine.raw_connection) if postgres else None
        self._pending: deque[tuple[Append, asyncio.Future[None]]] = deque()
        self._drainer: asyncio.Task[None] | None = None
        # SQLite: the appends of this turn of the loop (written together when it ends), the loop's own connection.
        self._sqlite = engine.dialect.name == "sqlite"
        self._turn: list[_Item] = []
        self._loop_conn: Any = None
        self._since_checkpoint = 0
        self.commits = 0
        """Transactions committed so far (fewer than appends under load)."""

    # -- the event loop's side --------------------------------------------------------------------
    def start(self) -> None:
        """Start the writer thread (idempotent)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="pasch-event-writer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Finish the queued appends, then end the thread and close its connection."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(30)
        self._thread = None
        # The loop's appends: those not sent yet are not written (their actions were not acknowledged).
        if self._drainer is not None and not self._drainer.done():
            with contextlib.suppress(RuntimeError):  # its loop is closed
                self._drainer.cancel()
        self._drainer = None
        unsent = [fut for _, fut in self._pending] + [fut for _, fut, _ in self._turn]  # PostgreSQL's, SQLite's
        self._pending.clear()
        self._turn = []
        for fut in unsent:
            with contextlib.suppress(RuntimeError):  # its loop is closed
                _resolve(fut, PaschError("the event writer stopped before this append was written"))
        if self._loop_direct is not None:
            self._loop_direct.close()
        self._close_loop_conn()

    async def write(self, append: Append) -> None:
        """Append the rows in one transaction (maybe shared with other appends); return after the commit.

        Raises:
            ConflictError: another writer took one of the ``seq`` slots; nothing of this append was written.
            Exception: the database failed (the DBAPI's error); nothing of this append was written.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self._sqlite:
            if not self._turn:
                loop.call_soon(self._write_turn)
            self._turn.append((append, done, loop))
            await done
            return
        if self._loop_direct is not None and self._loop_ok(append):
            self._pending.append((append, done))
            if self._drainer is None or self._drainer.done():
                self._drainer = loop.create_task(self._drain())
            await done
            return
        if self._thread is None:  # (is_alive() per action was ~2 % of a process under load)
            self.start()
        self._queue.put((append, done, loop))
        await done

    # -- the event loop's own writes (PostgreSQL) -------------------------------------------------
    @staticmethod
    def _loop_ok(append: Append) -> bool:
        """Whether the append is written on the loop: a move's events and notice, a player's check at most."""
        return not append.results and append.stand_in is None and len(append.events) <= SMALL_BATCH

    async def _drain(self) -> None:
        """Write the loop's pending appends, as many as fit one small statement at a time, until none is left."""
        while self._pending:
            batch = [self._pending.popleft()]
            rows, notices, checks = _sizes(batch[0][0])
            while self._pending:
                r, n, c = _sizes(self._pending[0][0])
                if max(rows + r, notices + n, checks + c) > SMALL_BATCH:
                    break
                batch.append(self._pending.popleft())
                rows, notices, checks = rows + r, notices + n, checks + c
            await self._loop_batch(batch)

    async def _loop_batch(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        try:
            refused = await self._loop_statement([a for a, _ in batch])
        except asyncio.CancelledError:  # stop(): the statement may or may not have committed; nobody was told
            for _, fut in batch:
                _resolve(fut, PaschError("the event writer stopped while this append was in flight"))
            raise
        except self._integrity:
            # Someone else holds one of these slots: find which append it was, write the others.
            for append, fut in batch:
                try:
                    _resolve(fut, (await self._loop_statement([append])).get(id(append)))
                except self._integrity:
                    _resolve(fut, ConflictError(f"seq {append.first_seq} of room {append.room_id} is taken"))
                except Exception as exc:
                    _resolve(fut, exc)
            return
        except Exception as exc:
            for _, fut in batch:
                _resolve(fut, exc)
            return
        for append, fut in batch:
            _resolve(fut, refused.get(id(append)))

    async def _loop_statement(self, appends: list[Append]) -> dict[int, ConflictError]:
        """One small autocommit statement on the loop: the appends' events and notices, the players' moves
        checked (with the rooms' rows locked) where any is; returns the refused, by ``id``."""
        assert self._loop_direct is not None
        if any(a.player is not None for a in appends):
            sql, params = self._checked_statement(appends)
            found = (await self._loop_direct.run(sql, params))[0]
            self.commits += 1
            return _refused_by(appends, found)
        rows = _rows(appends)
        self._events.params(rows)  # applies the bind processors to the rows in place
        sql, params = self._append_statement(rows, [a.notice for a in appends if a.notice])
        await self._loop_direct.run(sql, params)
        self.commits += 1
        return {}

    # -- SQLite on the loop ------------------------------------------------------------------------
    def _write_turn(self) -> None:
        """SQLite: write the appends of this turn of the loop in one transaction on the loop's connection; what
        the database is too busy to take at once (another connection's write lock) goes to the thread."""
        batch, self._turn = self._turn, []
        if not batch:
            return
        busy = self._write_batch(batch, on_loop=True)
        if busy:
            self.start()
            for item in busy:
                self._queue.put(item)
            return
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            self._since_checkpoint = 0
            self.start()
            self._queue.put(_CHECKPOINT)

    def _loop_connection(self) -> Any:
        """The loop's own SQLite connection (out of the pool): it never waits for a lock and never checkpoints."""
        if self._loop_conn is None:
            conn: Any = self.engine.raw_connection()
            conn.detach()  # its settings stay its own: closed, not returned to the pool
            cur = conn.cursor()
            cur.execute("PRAGMA busy_timeout=0")
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()
            self._loop_conn = conn
        return self._loop_conn

    def _close_loop_conn(self) -> None:
        conn, self._loop_conn = self._loop_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    # -- the writer thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch: list[_Item] = []
            stop = checkpoint = False
            while True:
                if item is None:
                    stop = True
                    break
                if isinstance(item, str):
                    checkpoint = True
                else:
                    batch.append(item)
                if len(batch) >= MAX_BATCH:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._write_batch(batch)
            if checkpoint:
                self._checkpoint()
            if stop:
                break
        if self._conn is not None:
            with contextlib.suppress(Exception):
                if self._postgres:
                    self._conn.driver_connection.autocommit = False  # back to the pool as it came
                self._conn.close()
            self._conn = None

    def _connection(self) -> Any:
        if self._conn is None:
            conn: Any = self.engine.raw_connection()
            if self._postgres:
                conn.driver_connection.autocommit = True  # each statement commits; BEGIN where several must
            self._conn = conn
        return self._conn

    def _checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file as far as no reader needs it (``PASSIVE``)."""
        with contextlib.suppress(Exception):  # a failed checkpoint is retried by the next one; nothing is lost
            cur = self._connection().cursor()
            cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
            cur.fetchall()
            cur.close()

    def _write_batch(self, batch: list[_Item], *, on_loop: bool = False) -> list[_Item]:
        """Write a batch in one transaction (a taken slot: one by one, so only that append fails) and settle each
        append: from this thread on its loop, or (``on_loop``: SQLite's loop connection) where it is.

        Returns:
            ``on_loop``: the appends the database was too busy to take, not settled (the caller hands them to the
            thread); the loop's connection never waits for a lock. The thread's own connection waits up to the
            busy timeout, and a batch still refused then fails like any error: nothing is returned unsettled.
        """
        settle = _settle_here if on_loop else _settle
        connection = self._loop_connection if on_loop else self._connection
        busy: list[_Item] = []

        def fail(item: _Item, exc: Exception) -> None:
            if on_loop and _is_busy(exc):
                busy.append(item)
            else:
                settle(item, exc)

        try:
            refused = self._transaction([a for a, _, _ in batch], connection)
        except self._integrity:
            # Someone else holds one of these slots: find which append it was, write the others.
            for item in batch:
                try:
                    refused = self._transaction([item[0]], connection)
                except self._integrity:
                    settle(item, ConflictError(f"seq {item[0].first_seq} of room {item[0].room_id} is taken"))
                except Exception as exc:
                    fail(item, exc)
                else:
                    settle(item, refused.get(id(item[0])))
            return busy
        except Exception as exc:
            for item in batch:
                fail(item, exc)
            return busy
        for item in batch:
            settle(item, refused.get(id(item[0])))
        return busy

    def _transaction(self, appends: list[Append], connection: Any = None) -> dict[int, ConflictError]:
        """Write the appends in one transaction on ``connection()`` (default: the thread's); returns the
        stand-ins' moves refused (by ``id``), not written."""
        conn = (connection or self._connection)()
        try:
            cur = conn.cursor()
            refused: dict[int, ConflictError] = {}
            checked = any(a.stand_in is not None or a.player is not None for a in appends)
            if checked and self._postgres and not any(a.results or a.stand_in is not None for a in appends):
                # Players' own moves (every move in a room with two humans): lock, check, insert and notify in
                # one statement. A stand-in's move (rare) keeps the transaction below.
                refused = self._append_checked(appends)
                cur.close()
                self.commits += 1
                return refused
            if checked:  # rare: a transaction that reads (locks) the rooms' rows before the insert
                cur.execute("BEGIN" if self._postgres else "BEGIN IMMEDIATE")
                refused = self._refused(cur, appends)
                appends = [a for a in appends if id(a) not in refused]
                if not appends:  # all refused: nothing to write; end the transaction that read the rows
                    if self._postgres:
                        cur.execute("COMMIT")
                    else:
                        conn.commit()
                    return refused
            rows = _rows(appends)
            if self._postgres:
                self._append_postgres(cur, appends, rows, begun=checked)
                cur.close()
                self.commits += 1
                return refused
            cur.executemany(self._events.sql, self._events.params(rows))
            for a in appends:
                if a.results:
                    self._finish_game(cur, a)
            cur.close()
            conn.commit()
            self.commits += 1
            return refused
        except self._integrity:
            conn.rollback()
            raise
        except Exception as exc:
            with contextlib.suppress(Exception):
                conn.rollback()
            if self._sqlite and _is_busy(exc):  # another connection's lock: the connection itself is fine
                raise
            # The connection may be broken (a database restart): drop it, the next batch opens a new one.
            if conn is self._loop_conn:
                self._close_loop_conn()
            else:
                with contextlib.suppress(Exception):
                    conn.invalidate()
                self._conn = None
            raise

    def _refused(self, cur: Any, appends: list[Append]) -> dict[int, ConflictError]:
        """The checked moves the room's stored meta refuses, read inside the batch's transaction with the rooms'
        rows locked (in id order): a stand-in's move whose seat is no longer handed over (:class:`StandInError`)
        and a player's own move whose seat is (:class:`HandedError`). A ``back`` or a hand-over committed
        before is seen here; one recorded after waits for this commit (:meth:`~pasch.storage.RoomStore.record_back`,
        :meth:`~pasch.storage.RoomStore.record_hand_over`)."""
        ids = sorted({a.room_id for a in appends if a.stand_in is not None or a.player is not None})
        if self._postgres:
            cur.execute(self._stand_ins, (ids,))
        else:
            cur.execute(self._stand_ins.format(", ".join("?" * len(ids))), ids)
        metas: dict[int, dict[str, Any]] = {rid: {} for rid in ids}
        for rid, value in cur.fetchall():
            value = json.loads(value) if isinstance(value, str | bytes) else value
            metas[rid] = {"stand_ins": value} if isinstance(value, list) else {}
        refused: dict[int, ConflictError] = {}
        for a in appends:
            meta = metas.get(a.room_id, {})
            if (a.stand_in is not None and not handed(meta, a.stand_in)) or (
                a.stand_in is None and a.player is not None and handed(meta, a.player)
            ):
                refused[id(a)] = _refusal(a, meta)
        return refused

    def _append_postgres(
        self, cur: Any, appends: list[Append], rows: list[dict[str, Any]], *, begun: bool = False
    ) -> None:
        """The events and NOTIFYs in one statement (autocommit: one round trip); a batch that ends a game
        adds its results and the room's status in the same transaction (BEGIN ... COMMIT), as does one with a
        stand-in's move (``begun``: BEGIN was sent and the rooms' rows read)."""
        self._events.params(rows)  # applies the bind processors to the rows in place
        notices = [a.notice for a in appends if a.notice]
        sql, params = self._append_statement(rows, notices)
        finishing = [a for a in appends if a.results]
        if not finishing and not begun:
            if len(rows) <= SMALL_BATCH and len(notices) <= SMALL_BATCH:  # scalars: libpq itself
                self._direct.run(self._conn.driver_connection.pgconn, sql, params)
            else:
                cur.execute(sql, params)
            return
        if not begun:
            cur.execute("BEGIN")
        try:
            cur.execute(sql, params)
            for a in finishing:
                self._finish_game(cur, a)
            cur.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(Exception):
                cur.execute("ROLLBACK")
            raise

    def _append_checked(self, appends: list[Append]) -> dict[int, ConflictError]:
        """PostgreSQL, a batch with checked moves and no game's end: one autocommit statement locks the checked
        rooms' rows (id order), refuses what their meta refuses (:func:`_refusal`), inserts and notifies the others
        (:class:`~pasch.storage._pg_append.CheckedStatements`); returns the refused, by ``id``."""
        sql, params = self._checked_statement(appends)
        if isinstance(params, tuple) and not any(isinstance(p, list) for p in params):  # scalars: libpq itself
            found = self._direct.run(self._conn.driver_connection.pgconn, sql, params)[0]
        else:
            cur = self._conn.cursor()
            cur.execute(sql, params)
            found = cur.fetchone()
            cur.close()
        return _refused_by(appends, found)

    def _checked_statement(self, appends: list[Append]) -> tuple[str, tuple[Any, ...]]:
        """The one checked statement of a batch and its parameters (:class:`CheckedStatements`)."""
        checks: list[tuple[int, int, int, bool]] = []
        for i, a in enumerate(appends):
            if a.stand_in is not None:
                checks.append((i, a.room_id, a.stand_in, True))
            elif a.player is not None:
                checks.append((i, a.room_id, a.player, False))
        dicts = _rows(appends)
        self._events.params(dicts)  # applies the bind processors to the rows in place
        owners = [i for i, a in enumerate(appends) for _ in a.events]
        rows = [(i, [d[c] for c in self._ev_cols]) for i, d in zip(owners, dicts, strict=True)]
        notices = [(i, a.notice) for i, a in enumerate(appends) if a.notice]
        return self._checked.statement(checks, rows, notices)

    def _append_statement(self, rows: list[dict[str, Any]], notices: list[str]) -> tuple[str, tuple[Any, ...]]:
        """The statement that inserts ``rows`` and notifies ``notices``, and its parameters: scalars in a
        statement made for this many rows and notices when the batch is small, else one array per column."""
        if len(rows) > SMALL_BATCH or len(notices) > SMALL_BATCH:
            return self._append_pg, (*([row[c] for row in rows] for c in self._ev_cols), notices)
        sql = self._small.get((len(rows), len(notices)))
        if sql is None:
            table = EventRow.__tablename__
            notify = (
                f"SELECT pg_notify('{CHANNEL}', p) FROM (VALUES {', '.join(['(%s::text)'] * len(notices))}) AS v(p)"
                if notices
                else "SELECT 0"
            )
            values = ", ".join([self._ev_casts] * len(rows))
            sql = f"WITH ins AS (INSERT INTO {table} ({', '.join(self._ev_cols)}) VALUES {values}) {notify}"
            self._small[(len(rows), len(notices))] = sql
        return sql, (*(row[c] for row in rows for c in self._ev_cols), *notices)

    def _finish_game(self, cur: Any, a: Append) -> None:
        """A game's end, inside the batch's transaction: its results, and the room marked finished."""
        cur.executemany(
            self._results.sql,
            self._results.params(
                {"game_id": a.room_id, "seat": s, "name": nm, "total": t, "rank": r, "winner": r == 1}
                for s, nm, t, r in a.results
            ),
        )
        finish = {"rid": a.room_id, "st": FINISHED, "at": a.at, "up": a.at}
        cur.execute(self._finish.sql, self._finish.params([finish])[0])


def _refusal(a: Append, meta: dict[str, Any]) -> ConflictError:
    """Why the room's stored ``meta`` refuses a checked move, as :meth:`EventWriter._refused` says it: a
    stand-in's move for a seat not handed over (:class:`StandInError`), or a player's own move for a seat that is
    (:class:`HandedError`)."""
    if a.stand_in is not None:
        return StandInError(
            f"seat {a.stand_in} of room {a.room_id} is not handed to a stand-in (its player is back)", meta
        )
    return HandedError(f"seat {a.player} of room {a.room_id} is handed to a stand-in (its player was away)", meta)


def _refused_by(appends: list[Append], found: Sequence[Any] | None) -> dict[int, ConflictError]:
    """The appends the checked statement's row refused (:func:`~pasch.storage._pg_append.refused_of`), by ``id``."""
    return {id(appends[i]): _refusal(appends[i], meta) for i, meta in refused_of(found).items()}


def _rows(appends: list[Append]) -> list[dict[str, Any]]:
    """The ``events`` rows of the appends, in order."""
    return [
        {"game_id": a.room_id, "seq": n, "seat": seat, "action": text, "created_at": a.at}
        for a in appends
        for n, (seat, text) in enumerate(a.events, start=a.first_seq)
    ]


def _sizes(append: Append) -> tuple[int, int, int]:
    """An append's rows, notices and checks (what a small statement binds as scalars)."""
    return len(append.events), 1 if append.notice else 0, 1 if append.player is not None else 0


def _resolve(fut: asyncio.Future[None], exc: BaseException | None) -> None:
    """Settle a loop's append (on the loop itself)."""
    if fut.done():
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)


def _settle(item: _Item, exc: BaseException | None) -> None:
    """Settle a thread's append: :func:`_resolve` on its loop."""
    _, fut, loop = item
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(_resolve, fut, exc)


def _settle_here(item: _Item, exc: BaseException | None) -> None:
    """Settle an append written on its own loop."""
    _resolve(item[1], exc)


def _is_busy(exc: BaseException) -> bool:
    """Whether a SQLite error says that another connection holds a lock (``SQLITE_BUSY`` or ``SQLITE_LOCKED``,
    extended codes included): the statement did nothing and may be tried again."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (5, 6)
