"""Who owns what when several server processes share one database.

**PostgreSQL.** The bots of every room and the database part of the cleanup sweep (marking idle rooms
abandoned) belong to exactly one process at a time: the one holding a session-level advisory lock
(:data:`LOCK_KEY`) on a connection of its own. Every process tries to take it every :data:`EVERY` seconds;
when the owner dies its connection closes, PostgreSQL releases the lock, and the next try of another
process takes over (within about a second): it loads every unfinished room with a bot seat from the log and
starts the bots where one is to move, so the game goes on. A bot action the old owner had in flight either
committed (the new owner reads it from the log) or did not (the new owner plays it again); the unique
``(game, seq)`` slot rules out both counting. An owner that loses its connection stops its bots at once.

**SQLite** is the zero-setup default for one process: :func:`sqlite_guard` takes an exclusive ``flock`` on
the database file itself, so the lock follows the file whatever name reaches it (a hard link, a symbolic
link, another relative path), and a second ``pasch serve`` on the same file stops at start with a clear
message instead of sharing it without a relay. SQLite's own locks are POSIX record locks, which ``flock``
neither takes nor releases. The server's pid is written beside the name it was given
(``<database>.serve-lock``), for the message. The terminal app (``pasch play``) does not
take this lock: it may use the same file while a server runs, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

import psycopg
from sqlalchemy.engine import make_url

from pasch.errors import PaschError
from pasch.storage import PING, TRY_LOCK
from pasch.web._relay import Relay, conninfo
from pasch.web._service import Service

__all__ = ["EVERY", "LOCK_KEY", "Lease", "SQLiteGuard", "sqlite_guard", "stop_bots"]

LOG = logging.getLogger("pasch.web")

LOCK_KEY = 0x7061736368_0001
"""The advisory lock of the bots' and the sweep's owner (``pasch`` in ASCII, then 1)."""
EVERY = 1.0
"""Seconds between two tries to take the lock (and two checks of the owner's connection)."""


class Lease:
    """Holds (or keeps trying to take) the bots' and sweep's advisory lock for this process.

    Args:
        service: this process's rooms; its ``leader`` flag follows the lock.
        relay: catches cached rooms up from the log when this process takes over.
        every: seconds between two tries.
    """

    def __init__(self, service: Service, relay: Relay, every: float = EVERY) -> None:
        self.service = service
        self.relay = relay
        self.every = every
        self.conninfo = conninfo(service.engine)
        self._task: asyncio.Task[None] | None = None
        service.leader = False  # until the lock is ours
        self.takeovers = 0
        """How often this process became the owner."""

    def start(self) -> None:
        """Start trying to take the lock."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def release(self) -> None:
        """Give the lock up (draining): stop the bots, let their actions in flight finish, close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self._stop_bots()

    async def _run(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    while True:
                        if not self.service.leader:
                            cur = await conn.execute(TRY_LOCK, (LOCK_KEY,))
                            row = await cur.fetchone()
                            if row is not None and row[0]:
                                await self._take_over()
                        else:
                            await conn.execute(PING)  # still connected, so still the owner
                        await asyncio.sleep(self.every)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection is gone, and with it the lock
                if self.service.leader:
                    LOG.warning("lease: lost the bots' lock (%s); stopping the bots", exc)
                    await self._stop_bots()
            await asyncio.sleep(self.every)

    async def _stop_bots(self) -> None:
        await stop_bots(self.service)

    async def _take_over(self) -> None:
        svc = self.service
        svc.leader = True
        self.takeovers += 1
        LOG.info("lease: this process now drives the bots and the sweep")
        codes = await asyncio.to_thread(svc.store.bot_room_codes)
        for code in codes:
            try:
                room = svc.rooms.get(code)
                if room is None:
                    room = await svc.get_room(code)  # loaded from the log: current
                else:
                    await self.relay.catch_up(room)
                svc.schedule_bots(room)
            except Exception as exc:  # one room that does not load never keeps the others' bots down
                LOG.warning("lease: room %s: %s", code, exc)

    async def adopt_idle(self, limit: int = 100) -> list[str]:
        """The owner loads unfinished rooms idle for ``abandon_after`` that it has not cached (made and played
        on other processes), so that its next sweep abandons them; other processes do nothing.

        Returns:
            The codes loaded.
        """
        svc = self.service
        if not svc.leader:
            return []
        cutoff = datetime.now(UTC) - timedelta(seconds=svc.abandon_after)
        cached = frozenset(svc.rooms)
        loaded = []
        for code in await asyncio.to_thread(svc.store.idle_codes, cutoff, limit, cached):
            with contextlib.suppress(Exception):  # a broken room stays out, as at start
                await svc.get_room(code)
                loaded.append(code)
        return loaded


async def stop_bots(service: Service) -> None:
    """This process stops driving bots (it drains, or lost the lease); their actions in flight finish first."""
    service.leader = False
    tasks = [r.bot_task for r in service.rooms.values() if r.bot_task is not None and not r.bot_task.done()]
    for task in tasks:
        task.cancel()
    if tasks:  # an action a bot has in flight is shielded: it commits (or fails) before we go on
        await asyncio.wait(tasks, timeout=10)


class SQLiteGuard:
    """An exclusive ``flock`` on a SQLite database file, held while a server uses it."""

    _held: dict[tuple[int, int], tuple[IO[Any], int]] = {}  # noqa: RUF012 - per process, by file identity

    def __init__(self, path: Path) -> None:
        self.path = path.resolve()
        self.lock = self.path.with_name(self.path.name + ".serve-lock")
        self._released = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("ab")  # an empty file is an empty SQLite database
        stat = os.fstat(handle.fileno())
        self.key = (stat.st_dev, stat.st_ino)
        held = self._held.get(self.key)
        if held is not None:  # this process already holds it (several apps, e.g. in tests)
            handle.close()
            self._held[self.key] = (held[0], held[1] + 1)
            return
        _take(handle, self.path, self.lock)
        self._held[self.key] = (handle, 1)

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._released:
            return
        self._released = True
        handle, count = self._held.get(self.key, (None, 0))
        if handle is None:
            return
        if count > 1:
            self._held[self.key] = (handle, count - 1)
            return
        del self._held[self.key]
        with contextlib.suppress(OSError):
            handle.close()  # closing the file releases the lock


def _take(handle: IO[Any], db: Path, pid_file: Path) -> None:
    """Lock the open database file without waiting, and write this process's pid beside it.

    Raises:
        PaschError: another process holds it.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock (one process is the documented use)
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        try:
            other = f"pid {pid_file.read_text(encoding='utf-8').strip() or '?'}"
        except OSError:  # reached through another name: its pid file is beside that one
            other = "another name of the same file"
        raise PaschError(
            f"the SQLite database {str(db)!r} is already served by another pasch serve process ({other}); "
            "SQLite serves one process: stop that one, or use PostgreSQL (--db postgresql+psycopg://...) to "
            "run several"
        ) from None
    with contextlib.suppress(OSError):
        pid_file.write_text(str(os.getpid()), encoding="utf-8")


def sqlite_guard(url: str) -> SQLiteGuard | None:
    """The single-process lock of a SQLite file URL (None for other databases and in-memory SQLite).

    Raises:
        PaschError: another process serves this file already.
    """
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or not parsed.database or parsed.database == ":memory:":
        return None
    if parsed.database.startswith("file:"):
        return None  # a SQLite URI (shared memory and the like): not a plain file
    return SQLiteGuard(Path(parsed.database))
