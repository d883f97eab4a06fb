"""The application's state: one object the HTTP routes and the websocket hub get their dependencies from
(``request.app.state.web``), and its start and stop (the FastAPI lifespan)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from starlette.requests import HTTPConnection

from pasch.solver import set_disk_budget, set_shared_budget
from pasch.storage import Repository
from pasch.web._db import import_legacy_web, make_engine, migrate
from pasch.web._drain import Drain
from pasch.web._hub import Hub
from pasch.web._lease import Lease, SQLiteGuard, sqlite_guard, stop_bots
from pasch.web._limits import Limiter, Limits
from pasch.web._relay import Relay
from pasch.web._service import Service

__all__ = ["SWITCH_INTERVAL", "Options", "Web", "web_of"]

SWITCH_INTERVAL = 0.0005
"""The GIL switch interval while the server runs (seconds; Python's default is 0.005)."""


@dataclass(frozen=True, slots=True)
class Options:
    """What ``create_app`` was asked for (see its arguments)."""

    url: str
    shared: bool
    bot_delay: float
    public_url: str
    finished_ttl: float
    abandon_after: float
    sweep_every: float
    origins: frozenset[str]
    limits: Limits
    drain_grace: float
    win_hints: bool
    win_bots: bool


@dataclass
class Web:
    """Everything a request or a connection needs: the rooms' service, the limits, the connections, the
    relay to other processes, and the summaries computed so far."""

    options: Options
    limiter: Limiter
    drain: Drain
    hub: Hub = field(init=False)
    relays: list[Relay] = field(default_factory=list)
    summaries: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _service: Service | None = None
    repo: Repository | None = None
    single: SQLiteGuard | None = None

    def __post_init__(self) -> None:
        self.hub = Hub(self)
        # Several processes (web/_relay.py, _lease.py, _drain.py): SQLite refuses a second one, here and now.
        self.single = sqlite_guard(self.options.url)

    @property
    def service(self) -> Service:
        """The rooms (once the application started)."""
        if self._service is None:
            raise RuntimeError("the server has not started")
        return self._service

    @property
    def limits(self) -> Limits:
        return self.options.limits

    @property
    def origins(self) -> frozenset[str]:
        return self.options.origins

    def link(self, code: str) -> str:
        """A room's join link."""
        return f"{self.options.public_url}/r/{code}"

    def is_open(self, code: str) -> bool:
        """Whether a room is cached here and unfinished (the limit of open rooms per address counts these)."""
        room = self._service.rooms.get(code) if self._service is not None else None
        return room is not None and room.status == "playing"

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        """Start the service, writer, relay, lease, drain and sweeper; stop them in reverse at the end."""
        # Worker threads do CPU work in Python (a solver table's preparation, bots): with the default 5 ms GIL
        # switch interval each of the event loop's many GIL hand-overs can wait that long, and a table being
        # prepared stalled players' actions by many switch intervals; a tenth of it keeps them short.
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        opts = self.options
        engine = make_engine(opts.url)
        migrate(engine)
        if opts.shared:
            import_legacy_web(engine)
        svc = Service(
            engine,
            bot_delay=opts.bot_delay,
            finished_ttl=opts.finished_ttl,
            abandon_after=opts.abandon_after,
            unplayed_after=opts.limits.unplayed_minutes * 60.0,
            win_hints=opts.win_hints,
            win_bots=opts.win_bots,
        )
        limits = opts.limits
        set_shared_budget(limits.table_memory_mb << 20 if limits.table_memory_mb > 0 else None)
        set_disk_budget(limits.table_disk_mb)
        self.repo = Repository(engine=engine)  # earlier games for the end of a game (schema migrated above)
        svc.listeners.append(self.hub.broadcast)
        self._service = svc
        lease: Lease | None = None
        if engine.dialect.name == "postgresql":  # several processes may share it: relay and lease
            relay = Relay(svc, self.hub.deliver)
            relay.counts = self.hub.counts
            self.relays.append(relay)
            lease = Lease(svc, relay)
            relay.start()
            lease.start()
            self.drain.ready = lambda: relay.connected
        self.drain.leader = lambda: svc.leader
        release = lease.release if lease is not None else lambda: stop_bots(svc)
        drain = self.drain
        drain.arm(
            lambda: drain.run(release, lambda: any(r.lock.locked() for r in svc.rooms.values()), self.hub.close_all)
        )
        svc.writer.start()
        svc.tables.warm_up()
        for code in svc.resume_all():
            svc.schedule_bots(svc.rooms[code])
        # Everything loaded so far (modules, rule tables, resumed rooms) lives as long as the process: keep it
        # out of the collector's generations, so a full collection scans only what the games allocate since.
        gc.collect()
        gc.freeze()
        sweeping = asyncio.get_running_loop().create_task(self._sweeper(lease))
        yield
        sweeping.cancel()
        drain.disarm()
        if lease is not None:
            await lease.release()
        for relay in self.relays:
            await relay.stop()
        self.relays.clear()
        if self.single is not None:
            self.single.release()
        for room in svc.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        svc.close()
        engine.dispose()
        sys.setswitchinterval(switch)

    async def _sweeper(self, lease: Lease | None) -> None:
        while True:
            await asyncio.sleep(self.options.sweep_every)
            with contextlib.suppress(Exception):  # a failed sweep (database away) is retried next time
                if lease is not None:
                    await lease.adopt_idle()  # the sweep's owner also sweeps rooms other processes made
                swept = await self.service.sweep()
                self.limiter.forget(swept["dropped"])


def web_of(conn: HTTPConnection) -> Web:
    """The application's state, for a request or a websocket (a FastAPI dependency)."""
    web: Web = conn.app.state.web
    return web
