"""Graceful shutdown: on SIGTERM a server drains before it exits, and says so on ``/api/ready``.

The order (:meth:`Drain.run`): readiness turns false (``/api/ready`` answers 503, so the proxy sends no new
connections) and a websocket that opens now is closed at once with 1012 (*service restart*), so its client
reconnects, reaching another process; the bots' lease is given up, so another process drives them within
about a second; the actions already being handled commit and are acknowledged (at most
:data:`DRAIN_TIMEOUT` seconds); then every connection is closed with 1012 after the messages queued for it,
and only then does the server stop as uvicorn does on SIGTERM (stop listening, wait for HTTP requests,
flush the event writer, exit). A second SIGTERM skips the wait.

``/api/health`` is liveness (the process answers); ``/api/ready`` is readiness: not draining, and on
PostgreSQL the relay's listening connection is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from types import FrameType
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

__all__ = ["DRAIN_TIMEOUT", "RESTART", "Drain"]

LOG = logging.getLogger("pasch.web")

DRAIN_TIMEOUT = 8.0
"""Seconds the drain waits for the actions in flight before it closes the connections anyway."""
RESTART = 1012
"""The websocket close code of a draining server (*service restart*: reconnect, maybe elsewhere)."""

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


class _InFlight:
    """:meth:`Drain.busy`: one object for every message (a generator-based context manager cost a generator and
    two frames per message), counting in and out; nesting and concurrent use simply count."""

    __slots__ = ("_drain",)

    def __init__(self, drain: Drain) -> None:
        self._drain = drain

    def __enter__(self) -> None:
        self._drain.inflight += 1

    def __exit__(self, *exc: object) -> None:
        self._drain.inflight -= 1


class Drain:
    """The server's draining state, its in-flight counter and its SIGTERM handler.

    Args:
        grace: seconds between the start of the drain and the closing of the connections, while
            ``/api/ready`` already answers 503 (time for the proxy's health check to notice).
    """

    def __init__(self, grace: float = 0.0) -> None:
        self.grace = grace
        self.draining = False
        self.inflight = 0
        """Client messages being handled now."""
        self.ready: Callable[[], bool] = lambda: True
        """Extra readiness condition (the relay's connection)."""
        self.leader: Callable[[], bool] = lambda: True
        """Whether this process drives the bots (shown on ``/api/ready``)."""
        self._previous: Handler = None
        self._armed = False
        self._in_flight = _InFlight(self)

    def busy(self) -> _InFlight:
        """Count a client message as in flight while it is handled (``with drain.busy(): ...``)."""
        return self._in_flight

    def install(self, app: FastAPI) -> None:
        """Add ``GET /api/ready`` (readiness) to the app."""

        @app.get("/api/ready", tags=["meta"])
        async def ready() -> JSONResponse:
            """Readiness: 200 while this process takes new connections, 503 while it drains; ``leader``: whether
            it drives the bots and the sweep."""
            leader = self.leader()
            if self.draining:
                return JSONResponse({"status": "draining", "leader": leader}, status_code=503)
            if not self.ready():
                return JSONResponse({"status": "starting", "leader": leader}, status_code=503)
            return JSONResponse({"status": "ready", "leader": leader})

    def arm(self, on_drain: Callable[[], Awaitable[None]]) -> None:
        """Drain on SIGTERM, then hand the signal to the previous handler (uvicorn's, which exits).

        Only in the main thread (where signals are delivered); elsewhere SIGTERM keeps its handler.
        """
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        previous = signal.getsignal(signal.SIGTERM)
        self._previous = previous

        def handler(signum: int, frame: FrameType | None) -> None:
            if self.draining:  # a second SIGTERM: stop now
                self._pass_on(signum, frame)
                return
            self.draining = True

            async def drain_then_exit() -> None:
                try:
                    await on_drain()
                finally:
                    self._pass_on(signum, frame)

            loop.call_soon_threadsafe(lambda: loop.create_task(drain_then_exit()))

        signal.signal(signal.SIGTERM, handler)
        self._armed = True

    def disarm(self) -> None:
        """Put the previous SIGTERM handler back."""
        if self._armed and threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(signal.SIGTERM, self._previous)
        self._armed = False

    def _pass_on(self, signum: int, frame: FrameType | None) -> None:
        previous = self._previous
        if callable(previous):
            previous(signum, frame)
        else:  # no handler of uvicorn's: exit as SIGTERM would
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.raise_signal(signal.SIGTERM)

    async def run(
        self,
        release: Callable[[], Awaitable[None]],
        busy: Callable[[], bool],
        close_all: Callable[[], Iterable[Any]],
        timeout: float = DRAIN_TIMEOUT,
    ) -> None:
        """Drain: give the lease up, wait for the actions in flight, close every connection with 1012.

        Args:
            release: gives up what this process owns (the bots' lease).
            busy: whether some action of this process is still being recorded (a room's lock is held).
            close_all: closes every websocket (after its queued messages); returns them.
            timeout: the longest wait for the actions in flight.
        """
        self.draining = True
        started = time.monotonic()
        LOG.info("draining: %d messages in flight", self.inflight)
        if self.grace > 0:
            await asyncio.sleep(self.grace)
            started = time.monotonic()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(release(), timeout)
        while (self.inflight > 0 or busy()) and time.monotonic() - started < timeout:
            await asyncio.sleep(0.02)
        closed = list(close_all())
        LOG.info("drained in %.2f s: %d connections told to reconnect", time.monotonic() - started, len(closed))
        await asyncio.sleep(0.1)  # let the writers send the queued frames and the close
