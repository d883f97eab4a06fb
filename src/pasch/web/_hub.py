"""The websocket side of the server: connections per room, broadcasts, and one handler per message kind.

A frame goes ``Hub.serve`` (read, rate limit, parse) → ``HANDLERS[type]`` → :class:`~pasch.web._service.Service`
(validate, write through :mod:`pasch.storage`) → the service's listener :meth:`Hub.broadcast` → every
connection's queue (one encoding per room) → its writer task. Every refusal is an ``error`` frame on a
connection that stays open; nothing a client sends can raise out of :meth:`Hub.serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from pasch.web._drain import RESTART
from pasch.web._guard import SECURITY_HEADERS, address, origin_allowed
from pasch.web._json import dumps, loads
from pasch.web._limits import LimitError
from pasch.web._manners import presence_expired
from pasch.web._service import ActError, ActResult, Encoded, Room
from pasch.web._transport import DIRECT_SEND
from pasch.web._undo import undo
from pasch.web._view import state_view

if TYPE_CHECKING:
    from pasch.web._context import Web

__all__ = ["FLOOD", "HANDLERS", "MAX_MESSAGE", "Conn", "Hub", "error"]

LOG = logging.getLogger("pasch.web")

MAX_MESSAGE = 4096
"""Largest client frame (bytes) the server reads; larger ones get a ``too_large`` error frame."""
RATE = 20.0
"""Messages per second a connection may send on average ..."""
BURST = 40.0
"""... with bursts of this many."""
FLOOD = 5
"""A connection whose messages the rate limit refuses this many bursts' worth of times within ``FLOOD_WINDOW``
seconds does not back off: it is closed (code 1008)."""
FLOOD_WINDOW = 10.0
QUEUE = 512
"""Outgoing messages queued per connection; a client that falls this far behind is disconnected."""
JOIN_RATE = 0.5
"""Joins a second that change a connection's seat, on average (each is broadcast to the room)."""
JOIN_BURST = 4.0
"""Such joins in a burst (a page joins once, and again after a seat is claimed or the room is rematched)."""


def error(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    """An ``error`` frame (``id`` only when the client's message had one)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["id"] = ref
    return out


def encode(message: dict[str, Any]) -> str:
    """A frame's text (compact JSON)."""
    return dumps(message)


class Conn:
    """One websocket: its seat (None: spectator), outgoing queue and rate limiter.

    Frames leave by the server's direct send where it offers one (:data:`pasch.web._transport.DIRECT_SEND`):
    those queued in one turn of the event loop are written together at its end (an action's ``ack`` and its
    ``update`` in one system call), without a task switch. When the direct send cannot take them (a slow reader,
    the handshake not complete) they go to the queue, which the writer task sends through ASGI; frames keep
    their order, since nothing is sent directly while the queue holds any or the writer is sending.
    """

    def __init__(self, ws: WebSocket, code: str, rate: float = RATE, burst: float = BURST) -> None:
        self.ws = ws
        self.code = code
        extensions = ws.scope.get("extensions") or {}
        self.direct: Callable[[list[str]], bool] | None = extensions.get(DIRECT_SEND)
        self.batch: list[str] = []
        """Frames for the direct send at the end of this turn of the event loop."""
        self.sending = False
        """The writer task took a frame from the queue and is sending it."""
        self.seat: int | None = None
        self.local: set[int] = set()
        """Further seats this connection's device plays (``join`` with ``tokens``): shown online."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.refused = 0
        """Messages refused by the rate limit in the current window (``FLOOD`` bursts' worth close it)."""
        self.stamp = time.monotonic()
        self.window = self.stamp
        self.closed = False
        self.close_code = 1008
        """The websocket close code once the queue's end is reached (1012 when the server drains)."""
        self.seat_changes = JOIN_BURST
        self.seat_stamp = self.stamp
        self.hashes: dict[int, str | None] = {}
        """The token hash of each seat this connection holds, as it was when it joined."""

    @property
    def held(self) -> set[int]:
        """Every seat this connection holds (its own and its device's local ones)."""
        return self.local | ({self.seat} if self.seat is not None else set())

    def revoked(self, room: Room) -> bool:
        """Drop the seats whose token changed since this connection joined with it; whether any was dropped."""
        lost = {s for s, digest in self.hashes.items() if s >= len(room.seats) or room.seats[s].token_hash != digest}
        if not lost:
            return False
        for s in lost:
            self.hashes.pop(s, None)
            room.online[s] = room.online.get(s, 1) - 1
        self.local -= lost
        if self.seat in lost:
            self.seat = None
        return True

    def allow_seat_change(self) -> bool:
        """Token bucket of the joins that change who this connection is: each one is broadcast to the whole
        room, so a client toggling its join multiplied every member's frames (issue 26: 33 times)."""
        now = time.monotonic()
        self.seat_changes = min(JOIN_BURST, self.seat_changes + (now - self.seat_stamp) * JOIN_RATE)
        self.seat_stamp = now
        if self.seat_changes >= 1.0:
            self.seat_changes -= 1.0
            return True
        return False

    def allow(self) -> bool:
        """Token bucket: whether one more message is allowed now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        if now - self.window > FLOOD_WINDOW:
            self.window, self.refused = now, 0
        self.refused += 1
        return False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (dict or JSON text); a client too far behind is cut off."""
        if self.closed:
            return
        text = message if isinstance(message, str) else encode(message)
        if self.direct is not None and (self.batch or (self.queue.empty() and not self.sending)):
            if not self.batch:
                asyncio.get_running_loop().call_soon(self.flush)
            self.batch.append(text)
            return
        self._enqueue(text)

    def flush(self) -> None:
        """Write the frames of this turn directly; what cannot be written now goes to the queue (in order)."""
        batch, self.batch = self.batch, []
        if not batch or (self.direct is not None and self.direct(batch)):
            return
        for text in batch:
            self._enqueue(text)

    def _enqueue(self, text: str | None) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def end(self) -> None:
        """Mark the connection closed: the writer closes it after the frames sent so far."""
        self.flush()
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def send_close(self) -> None:
        """Close the connection after the messages queued so far."""
        if not self.closed:
            self.end()

    async def writer(self) -> None:
        """Send queued messages in order until the connection closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(self.close_code)
                return
            self.sending = True
            try:
                await self.ws.send_text(text)
            except Exception:  # the peer went away; the reader ends the connection
                return
            finally:
                self.sending = False


class Hub:
    """The connections of every room this process serves, and how messages reach them.

    Args:
        web: the application's state (service, limits, relay, drain).
    """

    def __init__(self, web: Web) -> None:
        self.web = web
        self.conns: dict[str, set[Conn]] = {}

    # -- sending ---------------------------------------------------------------------------------
    def deliver(self, room: Room, message: dict[str, Any] | str) -> None:
        """Send a message to this process's connections of a room: encoded once, the same text to each (a
        token revocation and a rematch's new tokens are per connection)."""
        conns = self.conns.get(room.code, ())
        if isinstance(message, Encoded):  # a move's update (the most of them), its text made by the commit's notice
            text = message.text
            for conn in conns:
                conn.send(text)
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind in ("away", "presence") and isinstance(message, dict) and "seats" not in message:
            message = self.presence(room)  # who is there changed: the room's presence as this process sees it
            kind = "presence"
        if isinstance(message, dict) and kind == "tokens":  # a token stopped working: its seats go
            for conn in conns:
                if conn.revoked(room):
                    conn.send(error("token_revoked", "this seat's token no longer acts here; you are watching"))
            return
        tokens = message.get("tokens") if isinstance(message, dict) and kind == "rematch" else None
        if isinstance(message, dict) and isinstance(tokens, dict):  # each seat's connections get only their own
            public = {k: v for k, v in message.items() if k != "tokens"}
            for conn in conns:
                own = tokens.get(conn.seat) if conn.seat is not None else None
                conn.send({**public, "token": own} if own else public)
            return
        text = message if isinstance(message, str) else encode(message)
        for conn in conns:
            conn.send(text)

    async def broadcast(self, room: Room, message: dict[str, Any]) -> None:
        """:meth:`deliver`, and forward what the log does not carry (rematch, seats) to the other processes."""
        self.deliver(room, message)
        for relay in self.web.relays:
            relay.publish(room, message)

    @staticmethod
    def seats_message(room: Room) -> dict[str, Any]:
        """The ``seats`` frame of a room."""
        return {"type": "seats", "seats": room.info()["seats"]}

    def counts(self, room: Room) -> dict[str, Any]:
        """This process's own presence in a room: connections per seat, and spectators."""
        seats = {str(s): n for s, n in room.online.items() if n > 0}
        spectators = sum(1 for c in self.conns.get(room.code, ()) if c.seat is None)
        return {"type": "presence", "counts": seats, "spectators": spectators}

    def presence(self, room: Room) -> dict[str, Any]:
        """The ``presence`` frame: who is connected to the room across all processes, who is away."""
        now = time.monotonic()
        spectators = self.counts(room)["spectators"] + sum(
            n for at, _, n in room.remote.values() if not presence_expired(at, now)
        )
        seats = [
            {
                "seat": s.seat,
                "online": room.present(s.seat) > 0 or s.is_bot,
                "away": s.seat in room.away,
                "by": room.away.get(s.seat),
            }
            for s in room.seats
        ]
        return {"type": "presence", "seats": seats, "spectators": spectators}

    async def presence_changed(self, room: Room, seats: bool = False) -> None:
        """Tell the room (and the other processes) that this process's connections to it changed."""
        if seats:
            await self.broadcast(room, self.seats_message(room))
        self.deliver(room, self.presence(room))
        for relay in self.web.relays:
            relay.publish(room, self.counts(room))

    def welcome(self, room: Room, seat: int | None, ref: Any = None) -> dict[str, Any]:
        """The ``welcome`` frame: the seat, room, state, presence, turn clock and the last chat lines."""
        presence = self.presence(room)
        out: dict[str, Any] = {"type": "welcome", "seat": seat, "room": room.info()}
        out["state"] = state_view(room.state, room.seq)
        out["presence"] = {"seats": presence["seats"], "spectators": presence["spectators"]}
        out.update(self.web.service.table.welcome(room))
        if ref is not None:
            out["id"] = ref
        return out

    def close_all(self) -> list[Conn]:
        """Close every connection (draining: code 1012, after what is queued)."""
        out = [c for group in self.conns.values() for c in group]
        for conn in out:
            conn.close_code = RESTART
            conn.end()
        return out

    def present(self) -> frozenset[str]:
        """Codes of the rooms someone is connected to here."""
        return frozenset(code for code, held in self.conns.items() if held)

    # -- seats -----------------------------------------------------------------------------------
    async def seat_of(self, room: Room, token: str | None) -> int | None:
        """The one token→seat look-up: the cached claims, re-read once from the log when a token is unknown
        here (another process may have given the seat away)."""
        relays = self.web.relays
        return await relays[0].seat_of(room, token) if relays else room.seat_of(token)

    async def fresh_claims(self, code: str) -> None:
        """Re-read a room's seat claims: another process may have given seats away since this one cached it."""
        if self.web.relays:
            await self.web.relays[0].refresh_seats(await self.web.service.get_room(code))

    def _set_seats(self, room: Room, conn: Conn, seat: int | None, local: set[int]) -> None:
        for gone in conn.held:
            room.online[gone] = room.online.get(gone, 1) - 1
        conn.seat, conn.local = seat, local
        for here in conn.held:
            room.online[here] = room.online.get(here, 0) + 1

    # -- the connection --------------------------------------------------------------------------
    async def serve(self, ws: WebSocket, code: str) -> None:
        """One websocket of room ``code``, from the upgrade to the close."""
        web = self.web
        if not origin_allowed(ws, web.origins):
            await ws.close(code=1008)  # before accepting: the upgrade is refused (HTTP 403)
            return
        client = address(ws)
        try:  # before the handshake: a refused connection costs the server as little as possible
            web.limiter.check_lookup(client)
            web.limiter.connect(client, code.strip().upper())
        except LimitError as exc:
            await _refuse_upgrade(ws, exc)
            return
        await ws.accept()
        if web.drain.draining:  # this process is going away: the client reconnects, reaching another one
            await ws.close(RESTART)
            return
        svc = web.service
        try:
            room = await svc.get_room(code)
        except ActError as exc:
            web.limiter.disconnect(client, code.strip().upper())
            if exc.code == "no_room":
                web.limiter.missed(client)
            await ws.send_text(encode(error(exc.code, exc.message)))
            await ws.close(4404)
            return
        conn = Conn(ws, room.code, web.limits.message_rate, web.limits.message_burst)
        self.conns.setdefault(room.code, set()).add(conn)
        room.watchers += 1
        room.last_active = datetime.now(UTC)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.send(self.welcome(room, None))
        try:
            await self.presence_changed(room)  # one spectator more
            while not conn.closed:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect" or conn.closed:
                    break
                if not conn.allow():
                    conn.send(error("rate_limited", f"too many messages; at most {conn.rate:g} a second"))
                    if conn.refused >= FLOOD * conn.burst:  # it does not back off: a flood, not a player
                        conn.send(error("flood", "too many messages refused; the connection is closed"))
                        conn.send_close()
                        with contextlib.suppress(Exception):  # let the writer send the error and the close
                            await asyncio.wait_for(asyncio.shield(writer), 2.0)
                        break
                    continue
                msg = _parse(conn, raw)
                if msg is not None:
                    await self.dispatch(conn, room.code, msg)
        except WebSocketDisconnect:
            pass
        finally:
            await self._leave(conn, room, client)
            writer.cancel()

    async def dispatch(self, conn: Conn, code: str, msg: dict[str, Any]) -> None:
        """Hand a message to its kind's handler; every failure becomes an ``error`` frame."""
        ref = msg.get("id")
        if ref is not None and not isinstance(ref, str | int):
            ref = None
        handler = HANDLERS.get(msg["type"])
        try:
            with self.web.drain.busy():
                if handler is None:
                    conn.send(error("unknown_type", f"unknown message type {str(msg['type'])[:40]!r}", ref))
                    return
                room = await self.web.service.get_room(code)
                await handler(self, conn, room, msg, ref)
        except ActError as exc:
            conn.send(error(exc.code, exc.message, ref))
        except Exception as exc:  # never let a message take the connection or the server down
            conn.send(error("server_error", f"the server could not handle this message: {type(exc).__name__}"))

    async def _leave(self, conn: Conn, room: Room, client: str) -> None:
        self.web.limiter.disconnect(client, room.code)
        held = self.conns.get(room.code)
        if held is not None:
            held.discard(conn)
            if not held:
                del self.conns[room.code]  # bounded: no entry for every room ever connected to
        live = self.web.service.rooms.get(room.code) or room
        live.watchers -= 1
        live.last_active = datetime.now(UTC)
        seated = conn.seat is not None
        if seated:
            self._set_seats(live, conn, None, set())
        await self.presence_changed(live, seats=seated)
        conn.end()


def _parse(conn: Conn, raw: Mapping[str, Any]) -> dict[str, Any] | None:
    """A client frame as a message, or None after answering why it is refused."""
    text = raw.get("text")
    if text is None:
        text = (raw.get("bytes") or b"").decode("utf-8", "replace")
    if len(text) > MAX_MESSAGE:
        conn.send(error("too_large", f"messages are at most {MAX_MESSAGE} bytes"))
        return None
    try:
        msg, unicode = loads(text)
    except (ValueError, RecursionError):
        conn.send(error("bad_json", "the message is not valid JSON (or nested too deeply)"))
        return None
    if not unicode:
        conn.send(error("bad_message", "the message holds text that is not valid Unicode"))
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.send(error("bad_message", "a message is a JSON object with a 'type'"))
        return None
    return msg


async def _refuse_upgrade(ws: WebSocket, exc: LimitError) -> None:
    """Answer a websocket upgrade over a limit with HTTP 429 (``Retry-After``, the error as JSON); a server
    without the denial-response extension refuses it with 403."""
    body = {"detail": {"code": exc.code, "message": exc.message}}
    headers = {"Retry-After": str(exc.retry_after), **SECURITY_HEADERS}
    try:
        await ws.send_denial_response(JSONResponse(body, status_code=429, headers=headers))
    except RuntimeError:
        await ws.close(1013)


# -- one handler per message kind ----------------------------------------------------------------------
Handler = Callable[[Hub, Conn, Room, dict[str, Any], Any], Awaitable[None]]


async def on_ping(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    conn.send({"type": "pong", "id": ref})


async def on_state(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    conn.send({"type": "state", "id": ref, "room": room.info(), "state": state_view(room.state, room.seq)})


async def on_join(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    token = msg.get("token")
    if token is not None and not isinstance(token, str):
        raise ActError("bad_message", "'token' must be a string")
    seat = await hub.seat_of(room, token)
    if token and seat is None:
        raise ActError("bad_token", "this token belongs to no seat of the room; you are watching")
    more = msg.get("tokens")
    local: set[int] = set()
    if seat is not None and isinstance(more, list):
        others = [t for t in more[:100] if isinstance(t, str)]
        if any(room.seat_of(t) is None for t in others):
            await hub.fresh_claims(room.code)  # the same look-up as the token's: claims made elsewhere count
        local = {h for t in others if (h := room.seat_of(t)) is not None and h != seat}
    changed = seat != conn.seat or local != conn.local
    if changed and not conn.allow_seat_change():
        LOG.info("room %s: a connection changes its seat too often; refused", room.code)
        raise ActError("rate_limited", "joining and leaving this often is not allowed; wait a moment")
    since = msg.get("seq")
    if hub.web.relays and isinstance(since, int) and since > room.seq:  # resumed here: this process may lag
        await hub.web.relays[0].catch_up(room)
    if changed:
        hub._set_seats(room, conn, seat, local)
    # The token hash of each seat held: a seat whose token is revoked (a rematch exchange, expiry, in any
    # process) leaves this connection (Conn.revoked).
    conn.hashes = {s: room.seats[s].token_hash for s in conn.held}
    conn.send(hub.welcome(room, seat, ref))
    if changed:  # who is online changed: tell everyone (a repeated join changes nothing)
        await hub.presence_changed(room, seats=True)


async def on_act(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    action, at = msg.get("action"), msg.get("at")
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        raise ActError("bad_message", "'act' needs an 'action' text such as 'roll'")
    seat = conn.seat
    if "token" in msg:
        token = msg.get("token")
        seat = await hub.seat_of(room, token) if isinstance(token, str) else None
        if seat is None:
            raise ActError("bad_token", "wrong seat token; nothing was done")
    if seat is None:
        raise ActError("spectator", "you are watching; join a seat with its token to play")
    if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
        raise ActError("bad_message", "'at' must be the seq of the state the action was chosen on")

    def ack(result: ActResult) -> None:
        conn.send({"type": "ack", "id": ref, "seq": result.seq, "events": result.events})

    await hub.web.service.act(room.code, seat, action, on_commit=ack, at=at)


async def on_hint(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    seat = conn.seat
    if isinstance(msg.get("token"), str):  # a device holding several seats asks for one of them
        seat = await hub.seat_of(room, msg["token"])
        if seat is None:
            raise ActError("bad_token", "wrong seat token")
    out = await hub.web.service.hint(room.code, seat)
    conn.send({**out, "id": ref})


async def on_rematch(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    token = msg.get("token")
    await hub.fresh_claims(room.code)  # another process may have claimed seats since
    new, seat, new_token = await hub.web.service.rematch_seat(room.code, token if isinstance(token, str) else None)
    conn.send({"type": "rematch", "id": ref, "code": new.code, "seat": seat, "token": new_token})


async def on_contribute(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    contributions = await hub.web.service.contribute(room.code, conn.seat, msg.get("seed"))
    conn.send({"type": "contributed", "id": ref, "seat": conn.seat, "contributions": contributions})


async def _seat(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any]) -> int | None:
    """The seat a message speaks for: its ``token``'s when it has one (a device holding several seats), else
    the connection's."""
    token = msg.get("token")
    if token is None:
        return conn.seat
    seat = await hub.seat_of(room, token) if isinstance(token, str) else None
    if seat is None:
        raise ActError("bad_token", "wrong seat token; nothing was done")
    return seat


async def on_start(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    await hub.web.service.table.start(room.code, await _seat(hub, conn, room, msg))


async def on_back(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    seat = await _seat(hub, conn, room, msg)
    if not await hub.web.service.table.back(room.code, seat):
        conn.send(hub.presence(room) | {"id": ref})  # not away: the answer is who is there


async def on_hand(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    await hub.web.service.table.hand(room.code, await _seat(hub, conn, room, msg), msg.get("seat"))


async def on_vote(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    await hub.web.service.table.vote(room.code, conn.seat, msg.get("seat"), msg.get("yes"))


async def on_undo(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    seat = await _seat(hub, conn, room, msg)

    def ack(seq: int) -> None:
        conn.send({"type": "ack", "id": ref, "seq": seq, "events": []})

    await undo(hub.web.service, room.code, seat, msg.get("at"), ack)


async def on_chat(hub: Hub, conn: Conn, room: Room, msg: dict[str, Any], ref: Any) -> None:
    await hub.web.service.table.chat(room.code, conn.seat, msg.get("text"))


HANDLERS: dict[str, Handler] = {
    "ping": on_ping,
    "state": on_state,
    "join": on_join,
    "act": on_act,
    "hint": on_hint,
    "rematch": on_rematch,
    "contribute": on_contribute,
    "start": on_start,
    "back": on_back,
    "hand": on_hand,
    "vote": on_vote,
    "chat": on_chat,
    "undo": on_undo,
}
"""The websocket protocol's client messages (docs/protocol.md), one handler each."""
