"""Transport limits of ``pasch serve`` (issue 26): slow request headers are cut off, one address cannot hold
every socket, frames are not compressed, and a connection toggling its seat is rate-limited."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from pasch.web._transport import text_frame

from ._support import WAIT, Client, Server


def _closed_by_server(sock: socket.socket, deadline: float = WAIT) -> bool:
    """Whether the server closes ``sock`` within ``deadline`` seconds (read until EOF; a generous guard)."""
    sock.settimeout(deadline)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def _open(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)


@pytest.fixture
def guarded(tmp_path: Path, servers: list[Server]) -> Server:
    args = ("--header-timeout", "1", "--sockets-per-address", "6")
    server = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, args=args).start()
    servers.append(server)
    return server


def test_request_headers_sent_a_byte_at_a_time_are_cut_off(guarded: Server) -> None:
    slow = _open(guarded)
    slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and the rest never comes
    assert _closed_by_server(slow)
    # A complete request on the same kind of connection is answered, and an idle keep-alive one is not cut
    # off by the header deadline (only uvicorn's own keep-alive timeout ends it).
    ok = _open(guarded)
    ok.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert ok.recv(4096).startswith(b"HTTP/1.1 200")
    ok.close()


def test_one_address_cannot_hold_every_socket(guarded: Server) -> None:
    held = [_open(guarded) for _ in range(6)]
    for sock in held:  # each one admitted: a complete request on it is answered
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    extra = _open(guarded)
    assert _closed_by_server(extra)  # the seventh of one address: closed at once, before any request
    held.pop().close()
    deadline = time.monotonic() + WAIT
    while True:  # the server notices the closed one when it admits the next
        again = _open(guarded)
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            if again.recv(4096).startswith(b"HTTP/1.1 200"):
                break
        except ConnectionResetError:
            pass
        assert time.monotonic() < deadline, "a freed socket slot was never given again"
    for sock in held:
        sock.close()


def test_websocket_frames_are_not_compressed(guarded: Server) -> None:
    created = guarded.create([{"name": "Ada"}])
    with connect(f"{guarded.ws}/ws/{created['code']}", open_timeout=WAIT, compression="deflate") as ws:
        assert ws.response is not None
        assert "Sec-WebSocket-Extensions" not in ws.response.headers  # the offer of permessage-deflate declined


def test_a_connection_toggling_its_seat_is_rate_limited(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    watcher = Client(server, created["code"])
    toggler = Client(server, created["code"])
    refused = 0
    for i in range(20):
        toggler.send({"type": "join", "token": created["token"] if i % 2 == 0 else None, "id": i})
        reply = toggler.recv_type("welcome", "error")
        refused += reply["type"] == "error" and reply["code"] == "rate_limited"
    assert refused >= 6  # a refused join leaves the seat as it was, so every other join is no change
    watcher.send({"type": "ping", "id": "end"})  # every broadcast caused above arrives before the pong
    watcher.recv_type("pong")
    seats = sum(1 for m in watcher.seen if m["type"] == "seats")
    assert seats <= 6, seats  # the joins that were let through, not 20


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=300), st.integers(0, 70_000).map(lambda n: "ü" * (n // 2) + "x" * (n % 2))))
def test_a_direct_text_frame_is_what_the_websocket_library_parses(text: str) -> None:
    """The direct send's own framing (every length class: 7-bit, 16-bit and 64-bit, multi-byte UTF-8) reads back
    as one final text frame with the same text, as a client would read it, and equals the library's own bytes."""
    from websockets.frames import Opcode
    from websockets.protocol import CLIENT, OPEN, SERVER, Protocol

    frame = text_frame(text)
    client = Protocol(CLIENT, state=OPEN, max_size=None)
    client.receive_data(frame)
    [got] = client.events_received()
    assert got.opcode is Opcode.TEXT and got.fin and got.data.decode() == text
    server = Protocol(SERVER, state=OPEN, max_size=None)
    server.send_text(text.encode())
    assert b"".join(server.data_to_send()) == frame
