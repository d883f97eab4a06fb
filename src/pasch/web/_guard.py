"""What every request passes: security headers, the early room-creation limit, origin checks, and the
error answers of the HTTP API (always ``{"detail": {"code", "message"}}``, never a traceback)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, WebSocket
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import AfterValidator
from sqlalchemy.exc import OperationalError
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pasch.web._limits import Limiter, LimitError
from pasch.web._service import ActError

__all__ = [
    "SECURITY_HEADERS",
    "Guard",
    "Text",
    "address",
    "http_error",
    "install_error_handlers",
    "json_encodable",
    "origin_allowed",
]

LOG = logging.getLogger("pasch.web")

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


Text = Annotated[str, AfterValidator(_encodable)]
"""A request's text field: valid Unicode only."""


def json_encodable(value: Any) -> bool:
    """Whether every string in a decoded JSON value is valid Unicode."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def address(request: Request | WebSocket) -> str:
    """The client's address (the proxy's, unless it is named with ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "?"


def origin_allowed(ws: WebSocket, origins: frozenset[str]) -> bool:
    """A browser's page may connect from the server's own origin or an allowed one; clients that send no
    ``Origin`` (scripts, bots) are not browsers and may connect."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/").lower() in origins:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


_STATUS = {"no_room": 404, "room_full": 409, "name_taken": 409, "bad_token": 403, "not_finished": 409, "broken": 409}


def http_error(exc: ActError) -> HTTPException:
    """The HTTP answer of a refusal (400 unless its code has its own status)."""
    return HTTPException(_STATUS.get(exc.code, 400), detail={"code": exc.code, "message": exc.message})


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


def install_error_handlers(app: FastAPI) -> None:
    """The API's answers to refused input, limits, refused actions and a busy database."""

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> Response:
        # ASCII-escaped, so that the refused input (a lone surrogate, say) can always be quoted back.
        body = json.dumps({"detail": jsonable_encoder(exc.errors())}, ensure_ascii=True, default=str)
        return Response(body, status_code=422, media_type="application/json")

    @app.exception_handler(LimitError)
    async def over_limit(_request: Request, exc: LimitError) -> JSONResponse:
        return JSONResponse(
            {"detail": {"code": exc.code, "message": exc.message}},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(ActError)
    async def act_error(_request: Request, exc: ActError) -> JSONResponse:
        status = http_error(exc).status_code
        return JSONResponse({"detail": {"code": exc.code, "message": exc.message}}, status_code=status)

    @app.exception_handler(OperationalError)
    async def database_busy(_request: Request, exc: OperationalError) -> JSONResponse:
        # A SQLite file locked by another program past the busy timeout, or a database that went away: the
        # request may succeed in a moment, so say so in the API's own form instead of a plain-text 500.
        LOG.warning("database unavailable: %s", str(exc.orig or exc).splitlines()[0][:200])
        detail = {"code": "database_busy", "message": "the database is busy or unreachable; try again shortly"}
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "2"})
