"""The direct receive of ``pasch serve``'s websocket protocol (issue 25, item 6): plain text frames and pongs read
past the library's frame parser must leave everything as the library would, whatever the client sends and however
TCP cuts it. Checked against uvicorn's own protocol class on the same bytes: the same messages for the application
in the same order, the same bytes written back (pongs, closes), the same connection state."""

from __future__ import annotations

import asyncio
import base64
import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.utils import apply_mask

from pasch.web._transport import direct_websocket_protocol

MAX_SIZE = 1024
PING = b"ping-42"


class FakeTransport(asyncio.Transport):
    """What the protocol writes, and whether it paused reading or closed."""

    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.closed = False
        self.paused = False

    def write(self, data: Any) -> None:
        self.out += data

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 80)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


async def _app(scope: Any, receive: Any, send: Any) -> None:
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    await asyncio.Event().wait()  # never reads: the messages stay on the protocol's queue


HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: " + base64.b64encode(b"0123456789abcdef") + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


async def _open(cls: type[Any]) -> tuple[Any, FakeTransport]:
    config = Config(app=_app, ws_max_size=MAX_SIZE, ws_ping_interval=None, lifespan="off", log_level="critical")
    config.load()
    proto = cls(config, ServerState(), {}, asyncio.get_running_loop())
    transport = FakeTransport()
    proto.connection_made(transport)
    proto.data_received(HANDSHAKE)
    for _ in range(20):
        await asyncio.sleep(0)
        if proto.handshake_complete:
            break
    assert proto.handshake_complete and transport.out.startswith(b"HTTP/1.1 101")
    assert proto.queue.empty()  # the app took the connect
    transport.out.clear()
    proto.pending_ping_payload = PING  # a keepalive ping in flight: its pong is answered by handle_pong
    return proto, transport


def _messages(proto: Any) -> list[dict[str, Any]]:
    out = []
    while not proto.queue.empty():
        out.append(proto.queue.get_nowait())
    return out


async def _feed(cls: type[Any], chunks: list[bytes]) -> tuple[Any, ...]:
    """What ``cls`` shows the application, writes back and is left as after reading ``chunks``."""
    proto, transport = await _open(cls)
    failed = ""
    for chunk in chunks:
        if transport.closed:  # a closed transport reads no more
            break
        try:
            proto.data_received(chunk)
        except Exception as exc:  # uvicorn's own: a bad text and a close in one read raise InvalidState there
            failed = type(exc).__name__
            break
    for task in list(proto.tasks):
        task.cancel()
    state = (transport.closed, transport.paused, proto.conn.state, proto.close_sent, proto.pending_ping_payload)
    return (failed, _messages(proto), bytes(transport.out), *state)


def _cut(data: bytes, at: set[int]) -> list[bytes]:
    edges = sorted(at | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(edges) if b > a]


def _raw(first: int, payload: bytes, masked: bool = True) -> bytes:
    """One frame as a client writes it: ``first`` the FIN, RSV and opcode bits, the payload masked."""
    n = len(payload)
    if n < 126:
        head = bytes((first, n | 0x80 * masked))
    elif n < 65536:
        head = bytes((first, 126 | 0x80 * masked)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 127 | 0x80 * masked)) + n.to_bytes(8, "big")
    if not masked:
        return head + payload
    mask = b"\x0f\xa1\x33\x7c"
    return head + mask + apply_mask(payload, mask)


def _frames(kinds: list[tuple[str, Any]]) -> list[bytes]:
    out: list[bytes] = []
    for kind, value in kinds:
        if kind == "text":
            out.append(_raw(0x81, value.encode()))
        elif kind == "bad_utf8":
            out.append(_raw(0x81, b"ok" + value + b"\xff"))
        elif kind == "binary":
            out.append(_raw(0x82, value))
        elif kind == "ping":
            out.append(_raw(0x89, value))
        elif kind == "pong":
            out.append(_raw(0x8A, value))
        elif kind == "fragments":
            out.append(_raw(0x01, value[: len(value) // 2].encode()))
            out.append(_raw(0x80, value[len(value) // 2 :].encode()))
        elif kind == "rsv":  # an extension's bit that no extension was agreed for
            out.append(_raw(0xA1, value.encode()))
        elif kind == "unmasked":
            out.append(_raw(0x81, value.encode(), masked=False))
        elif kind == "close":
            out.append(_raw(0x88, (1000).to_bytes(2, "big") + value.encode()))
    return out


FRAME = st.one_of(
    st.tuples(st.just("text"), st.text(max_size=60)),
    st.tuples(st.just("text"), st.text(min_size=100, max_size=700)),  # 16-bit lengths, some over MAX_SIZE bytes
    st.tuples(st.just("bad_utf8"), st.binary(max_size=5)),
    st.tuples(st.just("binary"), st.binary(max_size=40)),
    st.tuples(st.just("ping"), st.binary(max_size=20)),
    st.tuples(st.just("pong"), st.sampled_from([PING, b"stale"])),
    st.tuples(st.just("fragments"), st.text(min_size=2, max_size=40)),
    st.tuples(st.just("rsv"), st.text(max_size=10)),
    st.tuples(st.just("unmasked"), st.text(max_size=10)),
    st.tuples(st.just("close"), st.text(max_size=10)),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.tuples(st.just("text"), st.text(max_size=60)), FRAME), min_size=1, max_size=12),
    st.lists(st.floats(0, 1), max_size=6),
)
def test_the_direct_receive_leaves_everything_as_the_library_would(kinds: list[tuple[str, Any]], cuts: Any) -> None:
    """Cut anywhere, the bytes read directly give what the library gives when each frame comes in a read of its
    own (the library drops the messages parsed in the read where a protocol error comes, so a read holding several
    frames may show it less; the direct receive hands it one complete frame at a time)."""
    frames = _frames(kinds)
    data = b"".join(frames)
    direct_cls = direct_websocket_protocol()
    assert not isinstance(direct_cls, str)
    direct = asyncio.run(_feed(direct_cls, _cut(data, {int(c * len(data)) for c in cuts})))
    library = asyncio.run(_feed(WebSocketsSansIOProtocol, _cut(data, set(itertools.accumulate(map(len, frames))))))
    assert direct == library
    if all(kind in ("text", "pong") for kind, _ in kinds):  # nothing for the library: one read or many, the same
        assert direct == asyncio.run(_feed(WebSocketsSansIOProtocol, [data]))


def test_plain_texts_and_pongs_are_read_past_the_library_in_order() -> None:
    """The common case the bypass is for (an ``act`` frame, a keepalive pong), cut anywhere, gives the same messages
    in order, and the library's parser is never stepped: a frame's start waits for its rest beside it."""
    texts = ['{"type":"act","action":"roll"}', "ü" * 100, '{"type":"ping"}']
    data = b"".join(_frames([("text", texts[0]), ("pong", PING), ("text", texts[1]), ("text", texts[2])]))

    async def run(cut: int) -> tuple[list[dict[str, Any]], Any, list[bytes]]:
        direct_cls = direct_websocket_protocol()
        assert not isinstance(direct_cls, str)
        proto, _ = await _open(direct_cls)
        parsed: list[bytes] = []
        proto.conn.receive_data = parsed.append  # the library's entry: reached only for what is left to it
        proto.data_received(data[:cut])
        proto.data_received(data[cut:])
        return _messages(proto), proto.pending_ping_payload, parsed

    for cut in (0, 1, 5, 36, 37, 44, len(data) - 1, len(data)):
        messages, pending, parsed = asyncio.run(run(cut))
        assert [m["text"] for m in messages] == texts and pending is None and parsed == [], cut


def test_a_large_frame_in_many_reads_is_one_message() -> None:
    """A frame near the size limit arriving ten bytes at a time is gathered beside the library (appended in place,
    not copied again at every read) and read as one message; the library is never stepped."""
    text = "x" * (MAX_SIZE - 4) + "ü"
    data = b"".join(_frames([("text", text), ("text", "after")]))

    async def run() -> tuple[list[dict[str, Any]], list[bytes]]:
        direct_cls = direct_websocket_protocol()
        assert not isinstance(direct_cls, str)
        proto, _ = await _open(direct_cls)
        parsed: list[bytes] = []
        proto.conn.receive_data = parsed.append
        for at in range(0, len(data), 10):
            proto.data_received(data[at : at + 10])
        return _messages(proto), parsed

    messages, parsed = asyncio.run(run())
    assert [m["text"] for m in messages] == [text, "after"] and parsed == []


def test_the_parsers_remembered_position_is_forgotten_when_the_library_reads() -> None:
    """The bypass remembers where the library's parser stands (the walk down its generators is not made at every
    read) and forgets it whenever the library reads: a frame's head read by the library alone leaves its parser
    inside the frame with nothing buffered, and the next bytes must go to the library, not past it."""

    async def run() -> tuple[bool, bool, bool, list[dict[str, Any]]]:
        direct_cls = direct_websocket_protocol()
        assert not isinstance(direct_cls, str)
        proto, _ = await _open(direct_cls)
        before = proto._mine()
        frame = _raw(0x81, b'{"type":"ping"}')
        proto._feed(frame[:6])  # the head and the mask: the library waits for the payload, its buffer empty
        inside = proto._mine()
        proto.data_received(frame[6:])  # the payload: the library's, which completes the frame
        return before, inside, proto._mine(), _messages(proto)

    before, inside, after, messages = asyncio.run(run())
    assert before and not inside and after
    assert [m["text"] for m in messages] == ['{"type":"ping"}']
