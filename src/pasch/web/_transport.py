"""Limits below the application, on each TCP connection: how many one address may hold, and how long a
request's headers may take.

A client that opens sockets and sends nothing, or sends a request's headers a byte at a time (slowloris),
holds a file descriptor and a connection slot for as long as it likes: uvicorn times out only idle
keep-alive connections. :func:`guarded_protocol` wraps uvicorn's HTTP protocol class (the one it would
choose itself) so that

* an address holding ``per_address`` open connections has its next one closed at once (the peer's address:
  a trusted reverse proxy, which carries every visitor, is exempt; the application's own limits count the
  visitors it names);
* a request whose headers are not complete ``header_timeout`` seconds after its first byte arrived is
  closed.

Each refusal is counted and logged (at most once a minute per address and kind). A connection upgraded to a
websocket is the websocket protocol's from then on, and keeps counting toward its address until it closes.

:func:`direct_websocket_protocol` is uvicorn's websocket protocol (``websockets-sansio``) with a shorter way
out: the application finds ``scope["extensions"]["pasch.send"]``, a function that writes text frames straight
to the connection's transport (the websocket framing of each, one ``write`` for all of them) and answers
whether it could. It cannot while the handshake is not complete, after a close, and while the transport's
buffer is over its high-water mark (a slow reader: then the application queues and sends through ASGI, which
waits for the buffer to drain). Per frame this saves the ASGI send chain and a task switch; frames queued in
one turn of the event loop (an action's ``ack`` and its ``update``) leave in one system call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

__all__ = ["DIRECT_SEND", "TransportGuard", "direct_websocket_protocol", "guarded_protocol", "text_frame"]

LOG = logging.getLogger("pasch.web")

DIRECT_SEND = "pasch.send"
"""The scope extension under which :func:`direct_websocket_protocol` offers its direct send."""


class TransportGuard:
    """The counters and settings the guarded protocol instances share (one per server process).

    Args:
        header_timeout: seconds a request's headers may take from its first byte (0: no limit).
        per_address: open connections one address may hold (0: no limit).
        trusted: addresses exempt from ``per_address`` (the reverse proxies of ``--forwarded-allow-ips``).
    """

    def __init__(self, header_timeout: float, per_address: int, trusted: frozenset[str] = frozenset()) -> None:
        self.header_timeout = header_timeout
        self.per_address = per_address
        self.trusted = trusted
        self.refused = 0
        """Connections closed at once: their address held ``per_address`` already."""
        self.timed_out = 0
        """Connections closed because a request's headers did not arrive in time."""
        self._open: dict[str, set[asyncio.BaseTransport]] = {}
        self._logged: dict[tuple[str, str], float] = {}
        self._admitted = 0

    def admit(self, host: str, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection of ``host``; False (and counted as refused) when it holds too many."""
        if not self.per_address or host in self.trusted:
            return True
        live = {t for t in self._open.get(host, ()) if not t.is_closing()}
        if len(live) >= self.per_address:
            self.refused += 1
            self.note(host, "refused", f"{host} holds {len(live)} connections; another one closed")
            self._open[host] = live
            return False
        live.add(transport)
        self._open[host] = live
        self._admitted += 1
        if self._admitted % 1024 == 0:  # forget addresses that hold nothing any more
            for key in [k for k, v in self._open.items() if all(t.is_closing() for t in v)]:
                del self._open[key]
        return True

    def note(self, host: str, kind: str, message: str) -> None:
        """Log ``message`` unless this address's ``kind`` of refusal was logged in the last minute."""
        now = time.monotonic()
        if now - self._logged.get((host, kind), -60.0) >= 60.0:
            self._logged[(host, kind)] = now
            if len(self._logged) > 4096:
                self._logged.clear()
            LOG.warning("transport: %s", message)


def guarded_protocol(guard: TransportGuard) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (httptools where installed, else h11), with ``guard``'s limits."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # uvicorn without its [standard] extras
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class Guarded(Base):
        """:class:`uvicorn`'s protocol with a per-address connection cap and a deadline for headers."""

        _pasch_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            self._pasch_host = host
            if not guard.admit(host, transport):
                transport.close()

        def data_received(self, data: bytes) -> None:
            if guard.header_timeout and self._pasch_deadline is None and self._between_requests():
                # Headers complete make a new request cycle: the same cycle when the time is up means none came.
                self._pasch_cycle = getattr(self, "cycle", None)
                self._pasch_deadline = self.loop.call_later(guard.header_timeout, self._headers_late)
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._pasch_deadline is not None:
                self._pasch_deadline.cancel()
                self._pasch_deadline = None
            super().connection_lost(exc)

        def _between_requests(self) -> bool:
            cycle = getattr(self, "cycle", None)
            return cycle is None or bool(getattr(cycle, "response_complete", False))

        def _headers_late(self) -> None:
            self._pasch_deadline = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:  # closed, or a websocket now
                return
            if getattr(self, "cycle", None) is self._pasch_cycle:  # the request that started it has no headers
                guard.timed_out += 1
                guard.note(self._pasch_host, "headers", f"{self._pasch_host}: request headers too slow; closed")
                transport.close()

    return Guarded


def direct_websocket_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's ``websockets-sansio`` protocol class offering :data:`DIRECT_SEND` (``"auto"`` where this uvicorn
    has no such class: the application then sends through ASGI only)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol as Base
        from websockets.protocol import OPEN
    except ImportError:  # an older uvicorn or websockets
        return "auto"

    class Direct(Base):
        """:class:`WebSocketsSansIOProtocol` whose application may write text frames without ASGI."""

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the upgrade goes on to the application
                scope["extensions"][DIRECT_SEND] = self.pasch_send

        def pasch_send(self, texts: list[str]) -> bool:
            """Write ``texts`` as text frames in one ``write``; False (nothing written) when it cannot now."""
            if (
                not self.handshake_complete
                or self.close_sent
                or self.disconnected
                or self.initial_response is not None
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            conn = self.conn
            if conn.state is not OPEN:
                return False
            if conn.extensions or conn.expect_continuation_frame:
                # the library's own framing (an extension such as compression): never here with pasch serve
                for text in texts:
                    conn.send_text(text.encode())
                out = conn.data_to_send()
            else:
                out = conn.data_to_send()  # what the protocol queued before (a pong): it leaves first
                out.extend(text_frame(text) for text in texts)
            self.transport.write(b"".join(out))
            return True

    return Direct


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked, final websocket text frame (RFC 6455, section 5.2): what a server sends.

    The framing of :meth:`websockets.protocol.Protocol.send_text` without extensions, written out: per frame
    the library builds a ``Frame``, checks it and serialises it through a buffer, about five times an action
    with five seats a room (issue 25; with the presence change of the same day about 2.5 % of the server's CPU
    per action, ``docs/deploy.md``). Tested against the library's parser.
    """
    payload = text.encode()
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload
