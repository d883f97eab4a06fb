"""The FastAPI application: HTTP endpoints (rooms, lobby, logs), the websocket protocol and the page.

The protocol is described in ``docs/protocol.md``. Every refusal is an ``error`` frame on a connection that
stays open; nothing a client sends can raise out of the handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy.exc import OperationalError
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pasch._version import __version__
from pasch.app import seat_kinds
from pasch.errors import PaschError
from pasch.rules import BASES
from pasch.rules import get as get_rules
from pasch.solver import set_disk_budget, set_shared_budget
from pasch.storage import Repository
from pasch.web._db import default_url, import_legacy_web, make_engine, migrate
from pasch.web._drain import RESTART, Drain
from pasch.web._end import end_report, move_list
from pasch.web._lease import Lease, sqlite_guard, stop_bots
from pasch.web._limits import Limiter, LimitError, Limits
from pasch.web._relay import Relay
from pasch.web._service import ABANDON_AFTER, FINISHED_TTL, MAX_NAME, ActError, ActResult, Room, Service
from pasch.web._view import rules_info, state_view

LOG = logging.getLogger("pasch.web")

__all__ = ["MAX_MESSAGE", "create_app"]

STATIC = Path(__file__).parent / "static"
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
SWITCH_INTERVAL = 0.0005
"""The GIL switch interval while the server runs (seconds; Python's default is 0.005)."""
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


MAX_SEATS = max(get_rules(base).max_players for base in BASES)
"""The most players any rule set takes (20); each rule set's own range is checked when a room is made."""


class CreateRoom(BaseModel):
    """A new room."""

    rules: Text = Field("kniffel", max_length=200, description="rule-set text, e.g. 'kniffel+sharp'")
    seats: list[SeatSpec] = Field(
        default_factory=lambda: [SeatSpec(name="", kind="human"), SeatSpec(name="", kind="human")],
        min_length=1,
        max_length=MAX_SEATS,
        description=f"one per player (at most {MAX_SEATS}; each rule set has its own range, see /api/rules)",
    )
    hints: bool = Field(False, description="allow the hint panel")
    keeper: bool = Field(False, description="score-keeper room: the table enters real dice")
    private: bool = Field(False, description="keep the room out of the lobby (joined by its link only)")


class CreatedRoom(BaseModel):
    """The new room and the creator's seat."""

    code: str
    link: str
    seat: int | None = Field(description="the creator's seat (the first human seat), None if all bots")
    token: str | None = Field(description="the creator's secret seat token; keep it to act and reconnect")
    commitment: str | None = Field(description="SHA-256 of the dice seed, revealed when the game ends")


class JoinRoom(BaseModel):
    """A request for a free seat."""

    seat: int | None = Field(None, ge=0, le=99, description="a particular seat (default: the first free one)")
    name: Text | None = Field(
        None, max_length=MAX_NAME, description="the joiner's name for the seat (default: the seat's name)"
    )


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
    """The rematch room, and the asker's seat there with its new token (tokens rotate on a rematch)."""

    code: str
    link: str
    seat: int | None = None
    token: str | None = Field(None, description="the asker's secret token in the new room")


class LobbyEntry(BaseModel):
    """An open room."""

    code: str
    rules: str
    keeper: bool
    players: list[str] = Field(default_factory=list, description="names on the taken seats (bots included)")
    free: int = Field(0, description="free human seats")
    age: int = Field(0, description="seconds since the room was created")


class RuleSetInfo(BaseModel):
    """A rule set of the catalogue."""

    id: str
    name: str
    kind: str
    min_players: int
    max_players: int
    seat_kinds: list[str] = []
    """The seat kinds the room form offers for this rule set, in display order (``human`` first)."""


class RoomView(BaseModel):
    """A room's public description and current state (see docs/protocol.md for ``state``)."""

    room: dict[str, Any]
    state: dict[str, Any]


# -- websocket connections -----------------------------------------------------------------------------
JOIN_RATE = 0.5
"""Joins a second that change a connection's seat, on average (each is broadcast to the room)."""
JOIN_BURST = 4.0
"""Such joins in a burst (a page joins once, and again after a seat is claimed or the room is rematched)."""


class Conn:
    """One websocket: its seat (None: spectator), outgoing queue and rate limiter."""

    def __init__(self, ws: WebSocket, code: str, rate: float = RATE, burst: float = BURST) -> None:
        self.ws = ws
        self.code = code
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
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def send_close(self) -> None:
        """Close the connection after the messages queued so far."""
        if not self.closed:
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


class Guard:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (the CSP not on ``/docs``), and
    ``POST /api/rooms`` refused with 429 before the application parses it when its address is over a limit.
    """

    def __init__(self, app: ASGIApp, limiter: Limiter, is_open: Callable[[str], bool]) -> None:
        self.app = app
        self.limiter = limiter
        self.is_open = is_open

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if scope.get("method") == "POST" and path.rstrip("/") == "/api/rooms":
            client = scope.get("client")
            try:
                self.limiter.check_create(client[0] if client else "?", self.is_open, reserve=False)
            except LimitError as exc:
                body = json.dumps({"detail": {"code": exc.code, "message": exc.message}}).encode()
                headers = [(b"content-type", b"application/json"), (b"retry-after", str(exc.retry_after).encode())]
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                await send({"type": "http.response.start", "status": 429, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name == "Content-Security-Policy" and path == "/docs":
                        continue  # the documentation page loads Swagger UI from its CDN (off unless --api-docs)
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        await self.app(scope, receive, with_headers)


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
    limits: Limits | None = None,
    drain_grace: float = 0.0,
    win_hints: bool = False,
    win_bots: bool = False,
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
        limits: the resource bounds per client address (default :class:`pasch.web.Limits` ()).
        drain_grace: on SIGTERM, seconds ``/api/ready`` answers 503 before the drain closes the connections.
        win_hints: hints in single-column games of several players also give each option's P(win); the win
            tables are prepared in the table queue (built once where they are not stored: minutes, 2 x 368 MB for
            ``yahtzee``) and memory-mapped from the cache, outside ``limits.table_memory_mb``.
        win_bots: allow ``bot:win`` seats (:attr:`Service.win_bots`); without it they are refused with
            ``seat_disabled``.
    """
    limits = limits if limits is not None else Limits()
    limiter = Limiter(limits)
    url = db_url or default_url()
    shared = db_url is None
    conns: dict[str, set[Conn]] = {}
    holder: dict[str, Service] = {}
    summaries: dict[str, asyncio.Future[dict[str, Any]]] = {}
    repos: dict[str, Repository] = {}
    # Several processes (web/_relay.py, _lease.py, _drain.py): SQLite refuses a second one, here and now.
    single = sqlite_guard(url)
    drain = Drain(grace=drain_grace)
    relays: list[Relay] = []

    def service() -> Service:
        return holder["service"]

    def deliver(room: Room, message: dict[str, Any] | str) -> None:
        if isinstance(message, dict) and message.get("type") == "tokens":  # a token stopped working: its seats go
            for conn in conns.get(room.code, ()):
                lost = conn.revoked(room)
                if lost:
                    conn.send(_error("token_revoked", "this seat's token no longer acts here; you are watching"))
            return
        tokens = message.get("tokens") if isinstance(message, dict) and message.get("type") == "rematch" else None
        if isinstance(tokens, dict):  # a rematch's new tokens: each seat's connections get only their own
            public = {k: v for k, v in message.items() if k != "tokens"} if isinstance(message, dict) else {}
            for conn in conns.get(room.code, ()):
                own = tokens.get(conn.seat) if conn.seat is not None else None
                conn.send({**public, "token": own} if own else public)
            return
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
        # Worker threads do CPU work in Python (a solver table's preparation, bots): with the default 5 ms GIL
        # switch interval each of the event loop's many GIL hand-overs can wait that long, and a table being
        # prepared stalled players' actions by many switch intervals; a tenth of it keeps them short.
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        engine = make_engine(url)
        migrate(engine)
        if shared:
            import_legacy_web(engine)
        svc = Service(
            engine,
            bot_delay=bot_delay,
            finished_ttl=finished_ttl,
            abandon_after=abandon_after,
            unplayed_after=limits.unplayed_minutes * 60.0,
            win_hints=win_hints,
            win_bots=win_bots,
        )
        set_shared_budget(limits.table_memory_mb << 20 if limits.table_memory_mb > 0 else None)
        set_disk_budget(limits.table_disk_mb)
        repos["repo"] = Repository(engine=engine)  # earlier games for the end of a game (schema migrated above)
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
        svc.tables.warm_up()
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
                    swept = await svc.sweep()
                    limiter.forget(swept["dropped"])

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
        sys.setswitchinterval(switch)

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

    def is_open(code: str) -> bool:
        room = holder["service"].rooms.get(code) if "service" in holder else None
        return room is not None and room.status == "playing"

    # A plain ASGI middleware (cheaper per request than a BaseHTTPMiddleware): the security headers on every
    # response, and a room-creation request over its address's limit answered 429 before its body is parsed.
    app.add_middleware(Guard, limiter=limiter, is_open=is_open)

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
        status = {
            "no_room": 404,
            "room_full": 409,
            "name_taken": 409,
            "bad_token": 403,
            "not_finished": 409,
            "broken": 409,
        }.get(exc.code, 400)
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
                    id=r.id,
                    name=r.name,
                    kind=r.kind.value,
                    min_players=r.min_players,
                    max_players=r.max_players,
                    seat_kinds=list(seat_kinds(r)),
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

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "?"

    @app.exception_handler(LimitError)
    async def over_limit(_request: Request, exc: LimitError) -> JSONResponse:
        return JSONResponse(
            {"detail": {"code": exc.code, "message": exc.message}},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.post(
        "/api/rooms",
        tags=["rooms"],
        response_model=CreatedRoom,
        status_code=201,
        responses={429: {"description": "over a limit of rooms per address (see Retry-After)"}},
    )
    async def create_room(body: CreateRoom, request: Request) -> CreatedRoom:
        """Create a room; the first human seat is the creator's (its token is in the answer).

        One address may create ``--rooms-per-minute`` rooms a minute and hold ``--open-rooms`` unfinished
        ones; beyond, HTTP 429 with ``Retry-After``.
        """
        client = address(request)
        limiter.check_create(client, is_open)
        try:
            room, tokens = await service().create_room(
                body.rules,
                [(s.name, s.kind) for s in body.seats],
                hints=body.hints,
                keeper=body.keeper,
                private=body.private,
            )
        except ActError as exc:
            limiter.failed(client)
            raise http_error(exc) from None
        except BaseException:
            limiter.failed(client)
            raise
        limiter.created(client, room.code)
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
        """The lobby: unfinished rooms with a free human seat; rooms with players connected first, then the
        newest, one row per creating address."""
        present = frozenset(code for code, held in conns.items() if held)
        rows = await service().lobby(limit=max(limits.lobby_size, 1) * 8, include=present)
        return [LobbyEntry(**r) for r in limiter.rank_lobby(rows, set(present))]

    async def known_code(request: Request, code: str) -> None:
        """A route's room code, looked up with the per-address bound on codes that name no room (guessing a
        private room's code was 91 tries a second)."""
        client = address(request)
        limiter.check_lookup(client)
        try:
            await service().get_room(code)
        except ActError as exc:
            if exc.code == "no_room":
                limiter.missed(client)
            raise http_error(exc) from None

    @app.get("/api/rooms/{code}", tags=["rooms"], response_model=RoomView, dependencies=[Depends(known_code)])
    async def room_view(code: str) -> RoomView:
        """A room and its current state."""
        try:
            room = await service().get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        return RoomView(room=room.info(), state=state_view(room.state, room.seq))

    @app.post("/api/rooms/{code}/join", tags=["rooms"], response_model=JoinedRoom, dependencies=[Depends(known_code)])
    async def join_room(code: str, body: JoinRoom | None = None) -> JoinedRoom:
        """Take a free human seat; the answer holds its secret token."""
        svc = service()
        try:
            await fresh_claims(code)
            seat, token = await svc.claim_seat(code, body.seat if body else None, body.name if body else None)
            room = await svc.get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        await broadcast(room, seats_message(room))
        return JoinedRoom(code=room.code, seat=seat, name=room.seats[seat].name, token=token)

    @app.post("/api/rooms/{code}/rematch", tags=["rooms"], response_model=Rematch, dependencies=[Depends(known_code)])
    async def rematch(code: str, body: RematchRequest) -> Rematch:
        """After the game: a new room with the same rules and seats (every player's page asks with its own token and
        gets the same room; each token is exchanged once); every claimed seat gets a new token: the answer holds the
        asker's seat and its token there (the others' pages receive theirs in the websocket's ``rematch`` message)."""
        try:
            await fresh_claims(code)  # another process may have claimed seats since
            new, seat, token = await service().rematch_seat(code, body.token)
        except ActError as exc:
            raise http_error(exc) from None
        return Rematch(code=new.code, link=link(new.code), seat=seat, token=token)

    @app.get("/api/rooms/{code}/log", tags=["rooms"], dependencies=[Depends(known_code)])
    async def room_log(code: str) -> Response:
        """The game log (``pasch-log`` JSON); once the game is over its meta reveals the dice seed."""
        try:
            room = await service().get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        return Response(
            room.log().to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="pasch-{room.code}.json"'},
        )

    @app.get("/api/rooms/{code}/moves", tags=["rooms"], dependencies=[Depends(known_code)])
    async def room_moves(code: str) -> list[dict[str, Any]]:
        """Every event so far with the seat that made it (``[{seq, player, action}]``), for the move log."""
        try:
            room = await service().get_room(code)
            return await asyncio.to_thread(move_list, room.log())
        except ActError as exc:
            raise http_error(exc) from None
        except PaschError as exc:
            raise HTTPException(409, detail={"code": "broken", "message": str(exc)}) from None

    @app.get("/api/rooms/{code}/summary", tags=["rooms"], dependencies=[Depends(known_code)])
    async def room_summary(code: str) -> dict[str, Any]:
        """The end of the game: sections, ranking, earlier games, and "your play vs optimal" (see
        :func:`pasch.web._end.end_report`); computed in a worker thread and kept once the game is over."""
        try:
            room = await service().get_room(code)
        except ActError as exc:
            raise http_error(exc) from None
        if not room.finished:
            raise HTTPException(409, detail={"code": "not_finished", "message": "the game is not over yet"})
        # Every page of the room asks at the same moment: one computation, shared (and kept).
        task = summaries.get(room.code)
        if task is None or (task.done() and task.exception() is not None):
            task = asyncio.ensure_future(asyncio.to_thread(report, room))
            summaries[room.code] = task
            while len(summaries) > 256:
                summaries.pop(next(iter(summaries)))
        try:
            return await asyncio.shield(task)
        except PaschError as exc:
            raise HTTPException(409, detail={"code": "broken", "message": str(exc)}) from None

    def report(room: Room) -> dict[str, Any]:
        history = repos["repo"].player_stats(rules=room.state.rules.id, exclude=room.id)
        return end_report(room.log(), room.state, history)

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
            local: set[int] = set()
            more = msg.get("tokens")
            if seat is not None and isinstance(more, list):
                for other in more[:100]:
                    held = room.seat_of(other) if isinstance(other, str) else None
                    if held is not None and held != seat:
                        local.add(held)
            changed = seat != conn.seat or local != conn.local
            if changed and not conn.allow_seat_change():
                LOG.info("room %s: a connection changes its seat too often; refused", room.code)
                conn.send(_error("rate_limited", "joining and leaving this often is not allowed; wait a moment", ref))
                return
            since = msg.get("seq")
            if relays and isinstance(since, int) and since > room.seq:  # resumed here: this process may lag
                await relays[0].catch_up(room)
            if changed:
                before = conn.local | ({conn.seat} if conn.seat is not None else set())
                for gone in before:
                    room.online[gone] = room.online.get(gone, 1) - 1
                for here in local | ({seat} if seat is not None else set()):
                    room.online[here] = room.online.get(here, 0) + 1
                conn.seat = seat
                conn.local = local
            # The token hash of each seat held: a seat whose token is revoked (a rematch exchange, expiry, in
            # any process) leaves this connection (Conn.revoked).
            conn.hashes = {s: room.seats[s].token_hash for s in conn.local | ({seat} if seat is not None else set())}
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

            at = msg.get("at")
            if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
                conn.send(_error("bad_message", "'at' must be the seq of the state the action was chosen on", ref))
                return

            def ack(result: ActResult) -> None:
                conn.send({"type": "ack", "id": ref, "seq": result.seq, "events": result.events})

            await svc.act(room_code, seat, action, on_commit=ack, at=at)
        elif kind == "hint":
            hint_seat = conn.seat
            if isinstance(msg.get("token"), str):  # a device holding several seats asks for one of them
                hint_seat = room.seat_of(msg["token"])
                if hint_seat is None:
                    conn.send(_error("bad_token", "wrong seat token", ref))
                    return
            out = await svc.hint(room_code, hint_seat)
            out["id"] = ref
            conn.send(out)
        elif kind == "rematch":
            token = msg.get("token")
            await fresh_claims(room_code)  # another process may have claimed seats since
            new, seat, new_token = await svc.rematch_seat(room_code, token if isinstance(token, str) else None)
            conn.send({"type": "rematch", "id": ref, "code": new.code, "seat": seat, "token": new_token})
        elif kind == "contribute":
            contributions = await svc.contribute(room_code, conn.seat, msg.get("seed"))
            conn.send({"type": "contributed", "id": ref, "seat": conn.seat, "contributions": contributions})
        elif kind == "state":
            conn.send({"type": "state", "id": ref, "room": room.info(), "state": state_view(room.state, room.seq)})
        else:
            conn.send(_error("unknown_type", f"unknown message type {str(kind)[:40]!r}", ref))

    async def refuse_upgrade(ws: WebSocket, exc: LimitError) -> None:
        """Answer a websocket upgrade over a limit with HTTP 429 (``Retry-After``, the error as JSON); a server
        without the denial-response extension refuses it with 403."""
        body = {"detail": {"code": exc.code, "message": exc.message}}
        headers = {"Retry-After": str(exc.retry_after), **SECURITY_HEADERS}
        try:
            await ws.send_denial_response(JSONResponse(body, status_code=429, headers=headers))
        except RuntimeError:
            await ws.close(1013)

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        if not origin_allowed(ws):
            await ws.close(code=1008)  # before accepting: the upgrade is refused (HTTP 403)
            return
        client = address(ws)
        try:  # before the handshake: a refused connection costs the server as little as possible
            limiter.check_lookup(client)
            limiter.connect(client, code.strip().upper())
        except LimitError as exc:
            await refuse_upgrade(ws, exc)
            return
        await ws.accept()
        if drain.draining:  # this process is going away: the client reconnects, reaching another one
            await ws.close(RESTART)
            return
        svc = service()
        try:
            room = await svc.get_room(code)
        except ActError as exc:
            limiter.disconnect(client, code.strip().upper())
            if exc.code == "no_room":
                limiter.missed(client)
            await ws.send_text(json.dumps(_error(exc.code, exc.message)))
            await ws.close(4404)
            return
        conn = Conn(ws, room.code, limits.message_rate, limits.message_burst)
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
                    conn.send(_error("rate_limited", f"too many messages; at most {conn.rate:g} a second"))
                    if conn.refused >= FLOOD * conn.burst:  # it does not back off: a flood, not a player
                        conn.send(_error("flood", "too many messages refused; the connection is closed"))
                        conn.send_close()
                        with contextlib.suppress(Exception):  # let the writer send the error and the close
                            await asyncio.wait_for(asyncio.shield(writer), 2.0)
                        break
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
            limiter.disconnect(client, room.code)
            held = conns.get(room.code)
            if held is not None:
                held.discard(conn)
                if not held:
                    del conns[room.code]  # bounded: no entry for every room ever connected to
            live = svc.rooms.get(room.code) or room
            live.watchers -= 1
            live.last_active = datetime.now(UTC)
            if conn.seat is not None:
                for gone in conn.local | {conn.seat}:
                    live.online[gone] = live.online.get(gone, 1) - 1
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

    @app.exception_handler(OperationalError)
    async def database_busy(_request: Request, exc: OperationalError) -> JSONResponse:
        # A SQLite file locked by another program past the busy timeout, or a database that went away: the
        # request may succeed in a moment, so say so in the API's own form instead of a plain-text 500.
        LOG.warning("database unavailable: %s", str(exc.orig or exc).splitlines()[0][:200])
        detail = {"code": "database_busy", "message": "the database is busy or unreachable; try again shortly"}
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "2"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
