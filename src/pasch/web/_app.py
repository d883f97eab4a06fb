"""The FastAPI application: HTTP endpoints (rooms, lobby, logs), the websocket protocol and the page.

The protocol is described in ``docs/protocol.md``. Every refusal is an ``error`` frame on a connection that
stays open; nothing a client sends can raise out of the handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field
from starlette.requests import Request

from pasch import __version__
from pasch.rules import BASES
from pasch.rules import get as get_rules
from pasch.web._db import default_url, import_legacy_web, make_engine, migrate
from pasch.web._drain import RESTART, Drain
from pasch.web._lease import Lease, sqlite_guard, stop_bots
from pasch.web._relay import Relay
from pasch.web._service import ABANDON_AFTER, FINISHED_TTL, MAX_NAME, ActError, ActResult, Room, Service
from pasch.web._view import rules_info, state_view

__all__ = ["MAX_MESSAGE", "create_app"]

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Largest client frame (bytes) the server reads; larger ones get a ``too_large`` error frame."""
RATE = 20.0
"""Messages per second a connection may send on average ..."""
BURST = 40.0
"""... with bursts of this many."""
QUEUE = 512
"""Outgoing messages queued per connection; a client that falls this far behind is disconnected."""


SECURITY_HEADERS = {
    # The page loads only its own script and style files (no inline script); the websocket is same-origin.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
        "object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Headers of every HTTP response (the API documentation page, when switched on, relaxes the CSP)."""


def _encodable(text: str) -> str:
    """Refuse text that cannot be stored or sent (a lone UTF-16 surrogate from a ``\\ud800`` escape).

    Raises:
        ValueError: the text holds a lone surrogate.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the text holds a character that is not valid Unicode (a lone surrogate)") from None
    return text


def _json_encodable(value: Any) -> bool:
    """Whether every string in a decoded JSON value is valid Unicode."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


Text = Annotated[str, AfterValidator(_encodable)]


# -- HTTP models ---------------------------------------------------------------------------------------
class SeatSpec(BaseModel):
    """One seat of a new room."""

    name: Text = Field("", max_length=MAX_NAME, description=f"player name (at most {MAX_NAME} characters)")
    kind: Text = Field(
        "human", max_length=40, description="'human' or 'bot:NAME' (optimal, greedy, random, multi, knaster)"
    )


def _two_humans() -> list[SeatSpec]:
    return [SeatSpec(name="", kind="human"), SeatSpec(name="", kind="human")]


class CreateRoom(BaseModel):
    """A new room."""

    rules: Text = Field("kniffel", max_length=200, description="rule-set text, e.g. 'kniffel+sharp'")
    seats: list[SeatSpec] = Field(
        default_factory=lambda: [SeatSpec(name="", kind="human"), SeatSpec(name="", kind="human")],
        min_length=1,
        max_length=8,
    )
    hints: bool = Field(False, description="allow the hint panel")
    keeper: bool = Field(False, description="score-keeper room: the table enters real dice")


class CreatedRoom(BaseModel):
    """The new room and the creator's seat."""

    code: str
    link: str
    seat: int | None = Field(description="the creator's seat (the first human seat), None if all bots")
    token: str | None = Field(description="the creator's secret seat token; keep it to act and reconnect")
    commitment: str | None = Field(description="SHA-256 of the dice seed, revealed when the game ends")


class JoinRoom(BaseModel):
    """A request for a free seat."""

    seat: int | None = Field(None, ge=0, le=7, description="a particular seat (default: the first free one)")


class JoinedRoom(BaseModel):
    """The seat given to a joining player."""

    code: str
    seat: int
    name: str
    token: str


class RematchRequest(BaseModel):
    """A rematch request by a seated player."""

    token: Text = Field(max_length=200)


class Rematch(BaseModel):
    """The rematch room."""

    code: str
    link: str


class LobbyEntry(BaseModel):
    """An open room."""

    code: str
    rules: str
    keeper: bool


class RuleSetInfo(BaseModel):
    """A rule set of the catalogue."""

    id: str
    name: str
    kind: str
    min_players: int
    max_players: int


class RoomView(BaseModel):
    """A room's public description and current state (see docs/protocol.md for ``state``)."""

    room: dict[str, Any]
    state: dict[str, Any]


# -- websocket connections -----------------------------------------------------------------------------
class Conn:
    """One websocket: its seat (None: spectator), outgoing queue and rate limiter."""

    def __init__(self, ws: WebSocket, code: str) -> None:
        self.ws = ws
        self.code = code
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.closed = False
        self.close_code = 1008
        """The websocket close code once the queue's end is reached (1012 when the server drains)."""

    def allow(self) -> bool:
        """Token bucket: whether one more message is allowed now."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (dict or JSON text); a client too far behind is cut off."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued messages in order until the connection closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(self.close_code)
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # the peer went away; the reader ends the connection
                return


def _error(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["id"] = ref
    return out


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.4,
    public_url: str = "",
    finished_ttl: float = FINISHED_TTL,
    abandon_after: float = ABANDON_AFTER,
    sweep_every: float = 60.0,
    allowed_origins: tuple[str, ...] = (),
    api_docs: bool = False,
    drain_grace: float = 0.0,
) -> FastAPI:
    """The web application on the database ``db_url`` (default: pasch's SQLite file in the data directory).

    Without ``db_url`` the server shares the terminal app's database; the first start imports the rooms of
    the earlier release's own file (``pasch-web.sqlite3``) into it (see :func:`pasch.storage.import_legacy_web`).

    Args:
        db_url: any SQLAlchemy URL; the schema is migrated at start.
        bot_delay: seconds a bot waits before each action.
        public_url: prefix of join links (default: relative links).
        finished_ttl: seconds a finished room stays in memory after its last connection.
        abandon_after: seconds of idleness after which an unfinished room is abandoned.
        sweep_every: seconds between two cleanups (:meth:`Service.sweep`).
        allowed_origins: origins (``https://dice.example.org``) whose pages may open a websocket besides the
            server's own (the ``Host`` the browser asked for); a browser on any other origin is refused.
        api_docs: serve the interactive API documentation at ``/docs`` (it loads its script from a CDN).
        drain_grace: on SIGTERM, seconds ``/api/ready`` answers 503 before the drain closes the connections.
    """
    url = db_url or default_url()
    shared = db_url is None
    conns: dict[str, set[Conn]] = {}
    holder: dict[str, Service] = {}
    # Several processes (web/_relay.py, _lease.py, _drain.py): SQLite refuses a second one, here and now.
    single = sqlite_guard(url)
    drain = Drain(grace=drain_grace)
    relays: list[Relay] = []

    def service() -> Service:
        return holder["service"]

    def deliver(room: Room, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        for conn in conns.get(room.code, ()):
            conn.send(text)

    async def broadcast(room: Room, message: dict[str, Any]) -> None:
        deliver(room, message)
        for relay in relays:  # what the log does not carry (rematch, seats) goes to the other processes
            relay.publish(room, message)

    async def seat_of(room: Room, token: str | None) -> int | None:
        return await relays[0].seat_of(room, token) if relays else room.seat_of(token)

    async def fresh_claims(code: str) -> None:
        """Re-read a room's seat claims: another process may have given seats away since this one cached it."""
        if relays:
            await relays[0].refresh_seats(await service().get_room(code))

    def close_all() -> list[Conn]:
        out = [c for group in conns.values() for c in group]
        for conn in out:
            conn.close_code = RESTART
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
        return out

    def seats_message(room: Room) -> dict[str, Any]:
        return {"type": "seats", "seats": room.info()["seats"]}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(url)
        migrate(engine)
        if shared:
            import_legacy_web(engine)
        svc = Service(engine, bot_delay=bot_delay, finished_ttl=finished_ttl, abandon_after=abandon_after)
        svc.listeners.append(broadcast)
        holder["service"] = svc
        lease: Lease | None = None
        if engine.dialect.name == "postgresql":  # several processes may share it: relay and lease
            relay = Relay(svc, deliver)
            relays.append(relay)
            lease = Lease(svc, relay)
            relay.start()
            lease.start()
            drain.ready = lambda: relay.connected
        drain.leader = lambda: svc.leader
        release = lease.release if lease is not None else lambda: stop_bots(svc)
        drain.arm(lambda: drain.run(release, lambda: any(r.lock.locked() for r in svc.rooms.values()), close_all))
        svc.writer.start()
        for code in svc.resume_all():
            svc.schedule_bots(svc.rooms[code])
        # Everything loaded so far (modules, rule tables, resumed rooms) lives as long as the process: keep it
        # out of the collector's generations, so a full collection scans only what the games allocate since.
        gc.collect()
        gc.freeze()

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(sweep_every)
                with contextlib.suppress(Exception):  # a failed sweep (database away) is retried next time
                    if lease is not None:
                        await lease.adopt_idle()  # the sweep's owner also sweeps rooms other processes made
                    await svc.sweep()

        sweeping = asyncio.get_running_loop().create_task(sweeper())
        yield
        sweeping.cancel()
        drain.disarm()
        if lease is not None:
            await lease.release()
        for relay in relays:
            await relay.stop()
        relays.clear()
        if single is not None:
            single.release()
        for room in svc.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        svc.close()
        engine.dispose()

    app = FastAPI(
        title="pasch serve",
        version=__version__,
        description="Online play of pasch dice games: rooms, seats, spectators, provably fair dice. "
        "The websocket protocol at /ws/{code} is described in docs/protocol.md.",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
    )
    origins = {o.rstrip("/").lower() for o in allowed_origins}

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            if name == "Content-Security-Policy" and request.url.path == "/docs":
                continue  # the documentation page loads Swagger UI from its CDN (off unless --api-docs)
            response.headers.setdefault(name, value)
        return response

    def origin_allowed(ws: WebSocket) -> bool:
        """A browser's page may connect from the server's own origin or an allowed one; clients that send no
        ``Origin`` (scripts, bots) are not browsers and may connect."""
        origin = ws.headers.get("origin")
        if origin is None:
            return True
        if origin.rstrip("/").lower() in origins:
            return True
        host = ws.headers.get("host", "")
        return urlsplit(origin).netloc.lower() == host.lower()

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> Response:
        # ASCII-escaped, so that the refused input (a lone surrogate, say) can always be quoted back.
        body = json.dumps({"detail": jsonable_encoder(exc.errors())}, ensure_ascii=True, default=str)
        return Response(body, status_code=422, media_type="application/json")

    def link(code: str) -> str:
        return f"{public_url}/r/{code}"

    def http_error(exc: ActError) -> HTTPException:
        status = {"no_room": 404, "room_full": 409, "bad_token": 403, "not_finished": 409, "broken": 409}.get(
            exc.code, 400
        )
        return HTTPException(status, detail={"code": exc.code, "message": exc.message})

    # -- HTTP ------------------------------------------------------------------------------------------
    drain.install(app)  # GET /api/ready

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok", "version": __version__}

    @app.get("/api/rules", tags=["rules"], response_model=list[RuleSetInfo])
    async def list_rules() -> list[RuleSetInfo]:
        """The rule sets of the catalogue (any rule text with modifiers is accepted too)."""
        out = []
        for base in BASES:
            r = get_rules(base)
            out.append(
                RuleSetInfo(
                    id=r.id, name=r.name, kind=r.kind.value, min_players=r.min_players, max_players=r.max_players
                )
            )
        return out

    @app.get("/api/rules/{text}", tags=["rules"])
    async def show_rules(text: str) -> dict[str, Any]:
        """The boxes, columns and bonus of a rule set."""
        try:
            return rules_info(get_rules(text))
        except Exception as exc:
            raise HTTPException(400, detail={"code": "bad_request", "message": str(exc)}) from None

    @app.post("/api/rooms", tags=["rooms"], response_model=CreatedRoom, status_code=201)
    async def create_room(body: CreateRoom) -> CreatedRoom:
        """Create a room; the first human seat is the creator's (its token is in the answer)."""
        try:
            room, tokens = await service().create_room(
                body.rules, [(s.name, s.kind) for s in body.seats], hints=body.hints, keeper=body.keeper
            )
        except ActError as exc:
            raise http_error(exc) from None
        seat = next(iter(tokens), None)
        service().schedule_bots(room)
        return CreatedRoom(
            code=room.code,
            link=link(room.code),
            seat=seat,
            token=tokens.get(seat) if seat is not None else None,
            commitment=room.commitment or None,
        )

    @app.get("/api/rooms", tags=["rooms"], response_model=list[LobbyEntry])
    async def lobby() -> list[LobbyEntry]:
        """The lobby: unfinished rooms with a free human seat."""
        return [LobbyEntry(**r) for r in await service().lobby()]

    @app.get("/api/rooms/{code}", tags=["rooms"], response_model=RoomView)
    async def room_view(code: str) -> RoomView:
        """A room and its current state."""
        try:
            room = await service().get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        return RoomView(room=room.info(), state=state_view(room.state, room.seq))

    @app.post("/api/rooms/{code}/join", tags=["rooms"], response_model=JoinedRoom)
    async def join_room(code: str, body: JoinRoom | None = None) -> JoinedRoom:
        """Take a free human seat; the answer holds its secret token."""
        svc = service()
        try:
            await fresh_claims(code)
            seat, token = await svc.claim_seat(code, body.seat if body else None)
            room = await svc.get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        await broadcast(room, seats_message(room))
        return JoinedRoom(code=room.code, seat=seat, name=room.seats[seat].name, token=token)

    @app.post("/api/rooms/{code}/rematch", tags=["rooms"], response_model=Rematch)
    async def rematch(code: str, body: RematchRequest) -> Rematch:
        """After the game: a new room with the same rules and seats; every seat keeps its token."""
        try:
            await fresh_claims(code)  # the rematch copies every seat's token
            new = await service().rematch(code, body.token)
        except ActError as exc:
            raise http_error(exc) from None
        return Rematch(code=new.code, link=link(new.code))

    @app.get("/api/rooms/{code}/log", tags=["rooms"])
    async def room_log(code: str) -> Response:
        """The game log (``pasch-log`` JSON); once the game is over its meta reveals the dice seed."""
        try:
            room = await service().get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        return Response(room.log().to_json(), media_type="application/json")

    # -- websocket -------------------------------------------------------------------------------------
    async def handle(conn: Conn, room_code: str, msg: dict[str, Any]) -> None:
        svc = service()
        kind = msg.get("type")
        ref = msg.get("id")
        if ref is not None and not isinstance(ref, str | int):
            ref = None
        room = await svc.get_room(room_code)
        if kind == "ping":
            conn.send({"type": "pong", "id": ref})
        elif kind == "join":
            token = msg.get("token")
            if token is not None and not isinstance(token, str):
                conn.send(_error("bad_message", "'token' must be a string", ref))
                return
            seat = await seat_of(room, token)
            if token and seat is None:
                conn.send(_error("bad_token", "this token belongs to no seat of the room; you are watching", ref))
                return
            since = msg.get("seq")
            if relays and isinstance(since, int) and since > room.seq:  # resumed here: this process may lag
                await relays[0].catch_up(room)
            changed = seat != conn.seat
            if changed:
                if conn.seat is not None:
                    room.online[conn.seat] = room.online.get(conn.seat, 1) - 1
                if seat is not None:
                    room.online[seat] = room.online.get(seat, 0) + 1
                conn.seat = seat
            conn.send(
                {
                    "type": "welcome",
                    "id": ref,
                    "seat": seat,
                    "room": room.info(),
                    "state": state_view(room.state, room.seq),
                }
            )
            if changed:  # who is online changed: tell everyone (a repeated join changes nothing)
                await broadcast(room, seats_message(room))
        elif kind == "act":
            action = msg.get("action")
            if not isinstance(action, str) or not action.strip() or len(action) > 200:
                conn.send(_error("bad_message", "'act' needs an 'action' text such as 'roll'", ref))
                return
            seat = conn.seat
            if "token" in msg:
                token = msg.get("token")
                seat = await seat_of(room, token) if isinstance(token, str) else None
                if seat is None:
                    conn.send(_error("bad_token", "wrong seat token; nothing was done", ref))
                    return
            if seat is None:
                conn.send(_error("spectator", "you are watching; join a seat with its token to play", ref))
                return

            def ack(result: ActResult) -> None:
                conn.send({"type": "ack", "id": ref, "seq": result.seq, "events": result.events})

            await svc.act(room_code, seat, action, on_commit=ack)
        elif kind == "hint":
            out = await svc.hint(room_code, conn.seat)
            out["id"] = ref
            conn.send(out)
        elif kind == "rematch":
            token = msg.get("token")
            await fresh_claims(room_code)  # the rematch copies every seat's token
            new = await svc.rematch(room_code, token if isinstance(token, str) else None)
            conn.send({"type": "rematch", "id": ref, "code": new.code})
        elif kind == "state":
            conn.send({"type": "state", "id": ref, "room": room.info(), "state": state_view(room.state, room.seq)})
        else:
            conn.send(_error("unknown_type", f"unknown message type {str(kind)[:40]!r}", ref))

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        if not origin_allowed(ws):
            await ws.close(code=1008)  # before accepting: the upgrade is refused (HTTP 403)
            return
        await ws.accept()
        if drain.draining:  # this process is going away: the client reconnects, reaching another one
            await ws.close(RESTART)
            return
        svc = service()
        try:
            room = await svc.get_room(code)
        except ActError as exc:
            await ws.send_text(json.dumps(_error(exc.code, exc.message)))
            await ws.close(4404)
            return
        conn = Conn(ws, room.code)
        conns.setdefault(room.code, set()).add(conn)
        room.watchers += 1
        room.last_active = datetime.now(UTC)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.send({"type": "welcome", "seat": None, "room": room.info(), "state": state_view(room.state, room.seq)})
        try:
            while not conn.closed:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect" or conn.closed:
                    break
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    text = data.decode("utf-8", "replace")
                if not conn.allow():
                    conn.send(_error("rate_limited", f"too many messages; at most {RATE:g} a second"))
                    continue
                if len(text) > MAX_MESSAGE:
                    conn.send(_error("too_large", f"messages are at most {MAX_MESSAGE} bytes"))
                    continue
                try:
                    msg = json.loads(text)
                except (ValueError, RecursionError):
                    conn.send(_error("bad_json", "the message is not valid JSON (or nested too deeply)"))
                    continue
                if not _json_encodable(msg):
                    conn.send(_error("bad_message", "the message holds text that is not valid Unicode"))
                    continue
                if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                    conn.send(_error("bad_message", "a message is a JSON object with a 'type'"))
                    continue
                try:
                    with drain.busy():
                        await handle(conn, room.code, msg)
                except ActError as exc:
                    conn.send(_error(exc.code, exc.message, msg.get("id")))
                except Exception as exc:  # never let a message take the connection or the server down
                    conn.send(_error("server_error", f"the server could not handle this message: {type(exc).__name__}"))
        except WebSocketDisconnect:
            pass
        finally:
            conns.get(room.code, set()).discard(conn)
            live = svc.rooms.get(room.code) or room
            live.watchers -= 1
            live.last_active = datetime.now(UTC)
            if conn.seat is not None:
                live.online[conn.seat] = live.online.get(conn.seat, 1) - 1
                await broadcast(live, seats_message(live))
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            writer.cancel()

    # -- the page --------------------------------------------------------------------------------------
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.api_route("/r/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.exception_handler(ActError)
    async def act_error(_request: Request, exc: ActError) -> JSONResponse:
        return JSONResponse({"detail": {"code": exc.code, "message": exc.message}}, status_code=400)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
