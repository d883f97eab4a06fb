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
        from websockets.frames import Frame, Opcode
        from websockets.protocol import OPEN
    except ImportError:  # an older uvicorn or websockets
        return "auto"
    try:
        from websockets.speedups import apply_mask
    except ImportError:  # websockets without its C extension
        from websockets.utils import apply_mask

    class Direct(Base):
        """:class:`WebSocketsSansIOProtocol` whose application may write text frames without ASGI, and whose
        client's plain text frames and pongs are read without the library's frame parser (:meth:`data_received`)."""

        _pasch_parser: tuple[Any, bool] | None = None
        """The library's parser (its generator) and whether it stood between frames when last looked at: it moves
        only where the library reads (:meth:`_feed`), so the walk down its generators is not made at every read."""

        _pasch_partial: bytes | bytearray = b""
        """The start of a frame not complete in the reads so far (the library's parser has none of it); a large
        frame's reads are appended to it in place, not copied again at each read."""

        def data_received(self, data: bytes) -> None:
            """Read the client's frames one at a time, each one complete: a final, masked text frame (outside a
            fragmented message) or pong here, as the library would (each text a ``websocket.receive`` on the
            application's queue, reading paused until it takes it; each pong to :meth:`handle_pong`); any other
            frame (a ping, a close, a fragment, binary, an extension's bits) to the library alone, which answers
            or fails as always. The start of a frame not complete yet waits here for the rest
            (a frame over the size limit goes to the library at once, which refuses it). So the application sees
            what the library would show it had each frame come in a read of its own, and the library, which drops
            the messages parsed in the read where a protocol error comes, never has more than one frame in a read.
            Only while the library's parser stands between frames with nothing buffered (it has all that came
            before the handshake was complete): else the rest goes there.
            """
            conn = self.conn
            if not self.handshake_complete:
                self._feed(data)
                return
            buf: bytes | bytearray = data
            if self._pasch_partial:
                buf, self._pasch_partial = self._pasch_partial, b""
                buf += data
            limit = conn.max_message_size
            at, end = 0, len(buf)
            mine = self._mine()  # changes only where the library reads a frame
            while at < end:
                if not mine:
                    self._feed(bytes(buf[at:] if at else buf))
                    return
                start = at + 2
                if start > end:
                    break
                head, size = buf[at], buf[at + 1]
                masked = size & 0x80
                size &= 0x7F
                if size == 126:
                    size = int.from_bytes(buf[start : start + 2], "big")
                    start += 2
                elif size == 127:
                    size = int.from_bytes(buf[start : start + 8], "big")
                    start += 8
                start += 4 if masked else 0
                if start > end:
                    break
                if limit is not None and size > limit:  # refused by the library from its header
                    self._feed(bytes(buf[at:] if at else buf))
                    return
                frame_end = start + size
                if frame_end > end:
                    break
                if masked and ((head == 0x81 and conn.current_size is None) or (head == 0x8A and size <= 125)):
                    payload = apply_mask(buf[start:frame_end], buf[start - 4 : start])
                    if head == 0x8A:
                        self.handle_pong(Frame(Opcode.PONG, payload))
                    else:  # uvicorn's own delivery of a text frame (its handle_text): decoded, queued, reading
                        # paused; a payload that is not UTF-8 closes the connection (1007)
                        self.curr_msg_data_type = "text"
                        self.frames = [payload]
                        self.send_receive_event_to_app()
                else:
                    self._feed(bytes(buf[at:frame_end]))
                    mine = self._mine()
                at = frame_end
                if conn.parser_exc is not None or self.transport.is_closing():  # refused: the rest is never read
                    return
            if at < end:
                self._pasch_partial = buf if at == 0 and isinstance(buf, bytearray) else bytearray(buf[at:])

        def _feed(self, data: bytes) -> None:
            """Hand bytes to the library's own parser (which moves: looked at again before the next read)."""
            self._pasch_parser = None
            super().data_received(data)

        def _mine(self) -> bool:
            """Whether the library's parser stands between two frames of an open connection with nothing buffered
            and no extension: there the next bytes start a frame, and reading plain frames past the library leaves
            it as it would be after reading them itself. Its parser (the server's, which hands on to the frame loop
            ``Protocol.parse``) then waits in its reader's end-of-stream check (``StreamReader.at_eof``); inside a
            frame it waits in a read of the frame's bytes, which may leave the buffer empty too. A library whose
            parser looks otherwise is never bypassed. The parser's position is remembered while the library reads
            nothing (:meth:`_feed` forgets it)."""
            conn = self.conn
            if conn.state is not OPEN or conn.extensions or conn.parser_exc or conn.reader.buffer:
                return False
            seen = self._pasch_parser
            if seen is None or seen[0] is not conn.parser:
                seen = self._pasch_parser = (conn.parser, _parser_between_frames(conn))
            return seen[1]

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


def _parser_between_frames(conn: Any) -> bool:
    """Whether the parser waits in the frame loop's end-of-stream check (see ``Direct._mine``)."""
    outer, inner = None, conn.parser
    for _ in range(4):  # the server's parser delegates to the frame loop, which waits in the reader
        below = getattr(inner, "gi_yieldfrom", None)
        if below is None:
            break
        outer, inner = inner, below
    name = getattr(getattr(inner, "gi_code", None), "co_name", "")
    return name == "at_eof" and getattr(getattr(outer, "gi_code", None), "co_name", "") == "parse"


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
