"""The FastAPI application: :func:`create_app` wires the three parts of the server together.

- :mod:`pasch.web._routes`: the HTTP API and the page (one router);
- :mod:`pasch.web._hub`: the websocket connections per room and one handler per message kind;
- :mod:`pasch.storage` (``RoomStore``, ``EventWriter``): every read and write of the database,

with :class:`pasch.web._service.Service` (rooms, seats, actions, bots) between them and the application's
state (:class:`pasch.web._context.Web`) as the one object they share. The protocol is described in
``docs/protocol.md``.
"""

from __future__ import annotations

from fastapi import FastAPI, WebSocket
from fastapi.staticfiles import StaticFiles

from pasch._version import __version__
from pasch.web._context import Options, Web
from pasch.web._db import default_url
from pasch.web._drain import Drain
from pasch.web._guard import Guard, install_error_handlers
from pasch.web._hub import MAX_MESSAGE
from pasch.web._limits import Limiter, Limits
from pasch.web._routes import STATIC, router
from pasch.web._service import ABANDON_AFTER, FINISHED_TTL

__all__ = ["MAX_MESSAGE", "create_app"]


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
    options = Options(
        url=db_url or default_url(),
        shared=db_url is None,
        bot_delay=bot_delay,
        public_url=public_url,
        finished_ttl=finished_ttl,
        abandon_after=abandon_after,
        sweep_every=sweep_every,
        origins=frozenset(o.rstrip("/").lower() for o in allowed_origins),
        limits=limits,
        drain_grace=drain_grace,
        win_hints=win_hints,
        win_bots=win_bots,
    )
    web = Web(options, Limiter(limits), Drain(grace=drain_grace))
    app = FastAPI(
        title="pasch serve",
        version=__version__,
        description="Online play of pasch dice games: rooms, seats, spectators, provably fair dice. "
        "The websocket protocol at /ws/{code} is described in docs/protocol.md.",
        lifespan=web.lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
    )
    app.state.web = web
    # A plain ASGI middleware (cheaper per request than a BaseHTTPMiddleware): the security headers on every
    # response, and a room-creation request over its address's limit answered 429 before its body is parsed.
    app.add_middleware(Guard, limiter=web.limiter, is_open=web.is_open)
    install_error_handlers(app)
    web.drain.install(app)  # GET /api/ready
    app.include_router(router)

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        await web.hub.serve(ws, code)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
