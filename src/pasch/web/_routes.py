"""The HTTP API (``/api``) and the page, as one FastAPI router: every handler is a module-level function
that gets the application's state (:class:`~pasch.web._context.Web`) as a dependency."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field
from starlette.requests import Request

from pasch._version import __version__
from pasch.app import seat_kinds
from pasch.errors import PaschError
from pasch.rules import BASES
from pasch.rules import get as get_rules
from pasch.web._context import Web, web_of
from pasch.web._end import end_report, move_list
from pasch.web._guard import Text, address, http_error
from pasch.web._manners import CLOCK_MAX, CLOCK_MIN
from pasch.web._service import MAX_NAME, ActError, Room
from pasch.web._view import rules_info, state_view

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).parent / "static"

router = APIRouter()
WebDep = Annotated[Web, Depends(web_of)]


# -- models ---------------------------------------------------------------------------------------
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
    wait: bool = Field(False, description="a waiting room: the first throw waits until everyone is there")
    clock: int = Field(
        0, ge=0, le=CLOCK_MAX, description=f"seconds per turn before a stand-in plays (0: off; else {CLOCK_MIN}+)"
    )
    stand_in: Text | None = Field(None, max_length=40, description="the bot that plays for an away player")


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


# -- meta and rules ------------------------------------------------------------------------------------
@router.get("/api/health", tags=["meta"])
async def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok", "version": __version__}


@router.get("/api/rules", tags=["rules"], response_model=list[RuleSetInfo])
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


@router.get("/api/rules/{text}", tags=["rules"])
async def show_rules(text: str) -> dict[str, Any]:
    """The boxes, columns and bonus of a rule set."""
    try:
        return rules_info(get_rules(text))
    except Exception as exc:
        raise HTTPException(400, detail={"code": "bad_request", "message": str(exc)}) from None


# -- rooms ---------------------------------------------------------------------------------------------
@router.post(
    "/api/rooms",
    tags=["rooms"],
    response_model=CreatedRoom,
    status_code=201,
    responses={429: {"description": "over a limit of rooms per address (see Retry-After)"}},
)
async def create_room(body: CreateRoom, request: Request, web: WebDep) -> CreatedRoom:
    """Create a room; the first human seat is the creator's (its token is in the answer).

    One address may create ``--rooms-per-minute`` rooms a minute and hold ``--open-rooms`` unfinished
    ones; beyond, HTTP 429 with ``Retry-After``.
    """
    client = address(request)
    web.limiter.check_create(client, web.is_open)
    try:
        room, tokens = await web.service.create_room(
            body.rules,
            [(s.name, s.kind) for s in body.seats],
            hints=body.hints,
            keeper=body.keeper,
            private=body.private,
            wait=body.wait,
            clock=body.clock,
            stand_in=body.stand_in,
        )
    except BaseException:
        web.limiter.failed(client)
        raise
    web.limiter.created(client, room.code)
    seat = next(iter(tokens), None)
    web.service.schedule_bots(room)
    return CreatedRoom(
        code=room.code,
        link=web.link(room.code),
        seat=seat,
        token=tokens.get(seat) if seat is not None else None,
        commitment=room.commitment or None,
    )


@router.get("/api/rooms", tags=["rooms"], response_model=list[LobbyEntry])
async def lobby(web: WebDep) -> list[LobbyEntry]:
    """The lobby: unfinished rooms with a free human seat; rooms with players connected first, then the
    newest, one row per creating address."""
    present = web.hub.present()
    rows = await web.service.lobby(limit=max(web.limits.lobby_size, 1) * 8, include=present)
    return [LobbyEntry(**r) for r in web.limiter.rank_lobby(rows, set(present))]


async def known_room(request: Request, code: str, web: WebDep) -> Room:
    """A route's room, looked up with the per-address bound on codes that name no room (guessing a private
    room's code was 91 tries a second)."""
    client = address(request)
    web.limiter.check_lookup(client)
    try:
        return await web.service.get_room(code)
    except ActError as exc:
        if exc.code == "no_room":
            web.limiter.missed(client)
        raise http_error(exc) from None


RoomDep = Annotated[Room, Depends(known_room)]


@router.get("/api/rooms/{code}", tags=["rooms"], response_model=RoomView)
async def room_view(room: RoomDep) -> RoomView:
    """A room and its current state."""
    return RoomView(room=room.info(), state=state_view(room.state, room.seq))


@router.post("/api/rooms/{code}/join", tags=["rooms"], response_model=JoinedRoom)
async def join_room(room: RoomDep, web: WebDep, body: JoinRoom | None = None) -> JoinedRoom:
    """Take a free human seat; the answer holds its secret token."""
    svc = web.service
    await web.hub.fresh_claims(room.code)
    seat, token = await svc.claim_seat(room.code, body.seat if body else None, body.name if body else None)
    room = await svc.get_room(room.code)  # a renamed seat rebuilt the room
    await web.hub.broadcast(room, web.hub.seats_message(room))
    return JoinedRoom(code=room.code, seat=seat, name=room.seats[seat].name, token=token)


@router.post("/api/rooms/{code}/rematch", tags=["rooms"], response_model=Rematch)
async def rematch(room: RoomDep, body: RematchRequest, web: WebDep) -> Rematch:
    """After the game: a new room with the same rules and seats (every player's page asks with its own token and
    gets the same room; each token is exchanged once); every claimed seat gets a new token: the answer holds the
    asker's seat and its token there (the others' pages receive theirs in the websocket's ``rematch`` message)."""
    await web.hub.fresh_claims(room.code)  # another process may have claimed seats since
    new, seat, token = await web.service.rematch_seat(room.code, body.token)
    return Rematch(code=new.code, link=web.link(new.code), seat=seat, token=token)


@router.get("/api/rooms/{code}/log", tags=["rooms"])
async def room_log(room: RoomDep) -> Response:
    """The game log (``pasch-log`` JSON); once the game is over its meta reveals the dice seed."""
    return Response(
        room.log().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="pasch-{room.code}.json"'},
    )


@router.get("/api/rooms/{code}/moves", tags=["rooms"])
async def room_moves(room: RoomDep) -> list[dict[str, Any]]:
    """Every event so far with the seat that made it (``[{seq, player, action, by}]``), for the move log."""
    try:
        return await asyncio.to_thread(move_list, room.log(), room.extra.get("stand_ins") or [])
    except PaschError as exc:
        raise HTTPException(409, detail={"code": "broken", "message": str(exc)}) from None


@router.get("/api/rooms/{code}/summary", tags=["rooms"])
async def room_summary(room: RoomDep, web: WebDep) -> dict[str, Any]:
    """The end of the game: sections, ranking, earlier games, and "your play vs optimal" (see
    :func:`pasch.web._end.end_report`); computed in a worker thread and kept once the game is over."""
    if not room.finished:
        raise HTTPException(409, detail={"code": "not_finished", "message": "the game is not over yet"})
    # Every page of the room asks at the same moment: one computation, shared (and kept).
    summaries = web.summaries
    task = summaries.get(room.code)
    if task is None or (task.done() and task.exception() is not None):
        task = asyncio.ensure_future(asyncio.to_thread(_report, web, room))
        summaries[room.code] = task
        while len(summaries) > 256:
            summaries.pop(next(iter(summaries)))
    try:
        return await asyncio.shield(task)
    except PaschError as exc:
        raise HTTPException(409, detail={"code": "broken", "message": str(exc)}) from None


def _report(web: Web, room: Room) -> dict[str, Any]:
    history = web.repo.player_stats(rules=room.state.rules.id, exclude=room.id) if web.repo is not None else []
    return end_report(room.log(), room.state, history)


# -- the page ------------------------------------------------------------------------------------------
@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.api_route("/r/{code}", methods=["GET", "HEAD"], include_in_schema=False)
async def room_page(code: str) -> FileResponse:
    return FileResponse(STATIC / "index.html")
