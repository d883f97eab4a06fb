"""Several server processes on one PostgreSQL: committed events are relayed with ``LISTEN/NOTIFY``.

A commit of a room ``NOTIFY``-s ``e CODE SEQ BOT FRAME`` on :data:`~pasch.web._writer.CHANNEL` in the
same transaction as its events (:class:`~pasch.web._writer.EventWriter`), so a notification is delivered
exactly when, and only if, the events are in the log. Each process listens on one connection of its own.
The notification says *that* a room moved on: the events themselves are read from the log, after the
room's last ``seq`` known to this process, and applied to the room's cached :class:`pasch.app.Match` under
the room's lock, each followed by the same ``update`` frame the committing process sent, in log order (the
frame's text comes with the notification, so the state is not drawn again; without it, it is). A
lost notification (the listening connection dropped, the database restarted) therefore loses nothing: on
reconnecting, and every :data:`POLL` seconds, every watched room is caught up from the log anyway.

Only commits that concern another process are announced (:meth:`Relay.announces`): where another process has
said it serves the room (its presence), where nobody here watches it, or where a bot, a stand-in or a turn clock
is to run (the leading process drives them). A room served by one process alone (a reverse proxy with room
affinity, or a single process) thus wakes no other process, and not its own, for every move: every announced
commit reaches every listening process.
The rest is caught up from the log when it is needed: a cached room that nobody watches is brought up to
the log before it is handed out (:attr:`~pasch.web._service.Service.refresh`), and a process that hears of
a new process in a room announces the room's last ``seq`` to it (:meth:`Relay.nudge`), so that what it
committed before it knew of that process is read.

A room this process caches but nobody here watches is dropped from the cache when a commit of it is
announced (it is reloaded from the log on its next request), except where this process drives its bots
(:mod:`pasch.web._lease`). A commit of this process that lost the race for a ``seq``
(:class:`~pasch.web._writer.ConflictError`) catches the room up the same way before the actor gets the
``conflict`` error, so no process ever acts on a stale game.

Messages that are not in the log (``rematch``, ``seats`` after a claim) are forwarded as ``m TOKEN CODE
JSON``; the receiving processes re-read the room's seat claims and send them to their own connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

import psycopg
from sqlalchemy import Engine

from pasch.app import Pending
from pasch.storage import EVENTS_AFTER, LISTEN
from pasch.web._json import dumps, loads
from pasch.web._manners import CHAT_KEEP, away_of, presence_expired
from pasch.web._service import Room, Service
from pasch.web._view import state_view
from pasch.web._writer import CHANNEL

__all__ = ["POLL", "Relay", "conninfo", "notice"]

LOG = logging.getLogger("pasch.web")

POLL = 5.0
"""Seconds between two catch-ups of every watched room from the log (a safety net for lost notifications)."""
RETRY = 1.0
"""Seconds before the listener connects again after losing its connection."""
CHUNK = 1000
MAX_PAYLOAD = 7900
"""PostgreSQL's notification payloads are shorter than 8000 bytes."""
PRESENCE_DELAY = 0.1
"""Seconds this process gathers changes of its presence counts before it sends them (one transaction)."""
FULL_REPUBLISH = 6
"""Every this many polls this process repeats its presence in every room it serves, not only in those another
process serves too (the rest of the time): a room whose processes all missed each other's counts (a
notification lost while the database was away) is found again within ``FULL_REPUBLISH * POLL`` seconds."""
FORWARDED = frozenset({"presence", "clock", "chat", "table", "away", "vote"})
"""Frames of the table's manners forwarded to the other processes as they are."""
MAX_FRAMES = 20000
"""Frames kept from notifications until their events are read (a bound, should many go unused)."""
"""Rooms read per query when many catch up at once."""

Deliver = Callable[[Room, dict[str, Any] | str], None]
"""Sends a message to this process's own connections of a room (never to the other processes)."""


def conninfo(engine: Engine) -> str:
    """The libpq connection string (URL) of a SQLAlchemy PostgreSQL engine, for psycopg's own connections."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def notice(room: Room, pending: Pending, view: dict[str, Any]) -> str:
    """The payload that announces a commit: ``e CODE SEQ BOT FRAME``.

    SEQ is the log's new length, BOT 1 when a bot or an away player's stand-in is to move or a turn clock is to
    run, FRAME the ``update`` frame the committing process sends (left out when the payload would be too long):
    a process whose game reaches SEQ by the logged events sends that text instead of drawing the state again.
    """
    state = pending.state
    bot = not state.is_terminal and not state.is_chance_node
    seat = state.current_player
    bot = bot and (room.seats[seat].is_bot or seat in room.away or bool(room.extra.get("clock")))
    head = f"e {room.code} {pending.at + len(pending.events)} {int(bot)}"
    frame = {"type": "update", "by": pending.events[0][0], "events": [t for _, t in pending.events], "state": view}
    text = dumps(frame)
    # The bound is in bytes (PostgreSQL's); a name with non-ASCII letters takes more bytes than characters.
    return f"{head} {text}" if len(head) + len(text.encode()) < MAX_PAYLOAD else head


def _frame_head(frame: str) -> Any:
    """The ``update`` frame's ``by`` and ``events`` without parsing its state: :func:`notice` writes them before
    ``"state"`` (a ``,"state":`` cannot stand inside a JSON string, whose quotes are escaped). Any other text is
    parsed whole.

    Raises:
        ValueError: not JSON.
        RecursionError: nested too deeply.
    """
    cut = frame.find(',"state":')
    if cut > 0:
        with contextlib.suppress(ValueError):
            head, _ = loads(frame[:cut] + "}")
            if isinstance(head, dict) and "by" in head and "events" in head:
                return head
    message, _ = loads(frame)
    return message


def _replay(room: Room, seat: int, texts: list[str]) -> tuple[Pending, list[str]]:
    """Apply one logged action of another process to the cached game, checking it first: the room's dice stream
    draws the same throw the committing process drew from it, so the replay must give exactly the logged events.

    Returns:
        The committed action and the texts appended to the log.

    Raises:
        Exception: the action does not replay as logged (anything the engine raises, or ValueError): nothing of it
            is applied.
    """
    pending: Pending | None = None
    try:
        pending = room.match.prepare(texts[0], player=seat)
        replayed = [t for _, t in pending.events]
        if replayed != texts:
            raise ValueError(f"replayed {replayed}, logged {texts}")
    except Exception:
        if pending is not None:
            room.match.discard(pending)
        raise
    events = room.match.commit(pending)
    if pending.state.is_terminal:
        room.status = "finished"
    room.last_active = datetime.now(UTC)
    return pending, events


def _group(rows: list[tuple[int, int | None, str]], after: int) -> list[tuple[int, list[str]]] | None:
    """The logged actions after ``after``: (seat, texts) with each action's throw; None if the log has a gap."""
    out: list[tuple[int, list[str]]] = []
    expect = after + 1
    for seq, seat, action in rows:
        if seq < expect:
            continue
        if seq > expect:
            return None
        expect += 1
        if seat is None:
            if not out:
                return None
            out[-1][1].append(action)
        else:
            out.append((seat, [action]))
    return out


class Relay:
    """Relays the rooms' events between the processes that share one PostgreSQL database.

    Args:
        service: this process's rooms.
        deliver: sends a message to this process's connections of a room.
    """

    def __init__(self, service: Service, deliver: Deliver) -> None:
        self.service = service
        self.deliver = deliver
        self.conninfo = conninfo(service.engine)
        self.token = secrets.token_hex(4)
        """This process's name in forwarded messages (it ignores its own)."""
        self.connected = False
        """Whether the listening connection is up (readiness)."""
        self.received = 0
        """Notifications received so far."""
        self._wanted: dict[str, int] = {}
        self._frames: dict[tuple[str, int], str] = {}
        self._logged: dict[tuple[str, int], tuple[int, list[tuple[int, int | None, str]]]] = {}
        """(room, first seq) -> (last seq, the logged rows) of each commit another process announced with its
        frame: a room caught up by a chain of them needs no read of the log."""
        self._claims: dict[str, tuple[bool, ...]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[Any]] = set()
        self._reader: psycopg.AsyncConnection[Any] | None = None
        self._presence: set[str] = set()
        self._presence_flush: asyncio.TimerHandle | None = None
        self._lost = False
        """A notification could not be sent: the next poll repeats the presence in every room."""
        self.counts: Callable[[Room], dict[str, Any]] | None = None
        """This process's presence counts of a room (set by the hub), repeated by :meth:`republish`."""

    # -- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Hook into the service and start listening."""
        self.attach()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(t) for t in (self._listen(), self._work(), self._poll())]

    def attach(self) -> None:
        """Hook into the service: its commits' payloads and which of them are sent, and how a stale room is
        brought up to the log (what :meth:`start` does before it listens)."""
        self.service.notice = notice
        self.service.announce = self.announces
        self.service.refresh = self.catch_up
        self.service.on_conflict = self.catch_up_locked
        self.service.wake_leader = self.wake_leader

    async def stop(self) -> None:
        """Stop listening (the service's commits still notify the other processes)."""
        if self._presence_flush is not None:
            self._presence_flush.cancel()
            self._presence_flush = None
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self.connected = False
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader.close()
            self._reader = None

    # -- receiving ----------------------------------------------------------------------------------
    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(LISTEN)
                    self.connected = True
                    self.want_all()  # whatever was committed while nobody here listened
                    self.republish(everywhere=True)  # and who is here, to processes that forgot it meanwhile
                    await self._receive(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: listen again, then catch up
                LOG.warning("relay: lost the listening connection (%s); reconnecting", exc)
            self.connected = False
            await asyncio.sleep(RETRY)

    async def _receive(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Hand each notification of the listening connection to :meth:`on_notice` until the connection fails.

        The connection does nothing but listen, so this reads it at libpq's level: one reader callback on its
        socket for good, and each wake-up drains every notification that arrived. (psycopg's ``notifies()``
        generator registered and removed a reader and made a future for every wait: ~12 % of a process's CPU
        with 2,000 players on two processes.)
        """
        loop = asyncio.get_running_loop()
        pgconn = conn.pgconn
        encoding = conn.info.encoding
        lost: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()
            except Exception as exc:  # the server went away (consume_input raises psycopg.OperationalError)
                if not lost.done():
                    lost.set_exception(exc)
                return
            while (note := pgconn.notifies()) is not None:
                self.received += 1
                try:
                    self.on_notice(note.extra.decode(encoding))
                except Exception:  # one bad notification must not stop the listener
                    LOG.exception("relay: a notification failed")

        fd = pgconn.socket
        loop.add_reader(fd, readable)
        try:
            readable()  # anything libpq already holds
            await lost
        finally:
            loop.remove_reader(fd)

    async def _poll(self) -> None:
        polls = 0
        while True:
            await asyncio.sleep(POLL)
            polls += 1
            self.want_all()
            self.republish(everywhere=polls % FULL_REPUBLISH == 0 or self._lost)

    def want_all(self) -> None:
        """Catch up every room this process serves (watched, or whose bots it drives) from the log."""
        svc = self.service
        for code, room in list(svc.rooms.items()):
            if room.watchers > 0 or (svc.leader and _has_bots(room)):
                self._wanted[code] = max(self._wanted.get(code, 0), room.seq + 1)
        self._wake.set()

    def on_notice(self, payload: str) -> None:
        """Handle one notification (``e CODE SEQ BOT`` or ``m TOKEN CODE JSON``); malformed ones are ignored."""
        kind, _, rest = payload.partition(" ")
        if kind == "e":
            parts = rest.split(" ", 3)
            if len(parts) < 3 or not parts[1].isdigit():
                return
            if parts[2] == "0" and self.service.committing.get(parts[0]) == int(parts[1]):
                return  # this process's own commit, back before its write returned: nothing to follow
            watched = self.service.rooms.get(parts[0])
            if len(parts) == 4 and watched is not None and watched.watchers > 0:
                if len(self._frames) >= MAX_FRAMES:
                    self._frames.clear()
                self._frames[(parts[0], int(parts[1]))] = parts[3]
                if watched.seq < int(parts[1]):  # another process's commit: its events are in the frame
                    self._note_rows(parts[0], int(parts[1]), parts[3])
            self._on_events(parts[0], int(parts[1]), parts[2] == "1")
        elif kind == "m":
            token, _, rest = rest.partition(" ")
            code, _, body = rest.partition(" ")
            if token != self.token:
                with contextlib.suppress(ValueError):
                    self._on_message(code, json.loads(body), token)

    def _note_rows(self, code: str, seq: int, frame: str) -> None:
        """Keep the log rows an ``update`` frame of a commit ending at ``seq`` stands for (its ``by`` acted,
        the events after the first are the server's throws), for :meth:`_known_rows`."""
        try:
            message = _frame_head(frame)
            texts = [str(t) for t in message["events"]]
            by = message["by"]
            if not texts or not isinstance(by, int) or isinstance(by, bool):
                return
        except (ValueError, RecursionError, TypeError, KeyError):
            return
        first = seq - len(texts) + 1
        if len(self._logged) >= MAX_FRAMES:
            self._logged.clear()
        rows: list[tuple[int, int | None, str]] = [(first, by, texts[0])]
        rows += [(first + k, None, t) for k, t in enumerate(texts[1:], 1)]
        self._logged[(code, first)] = (seq, rows)

    def _known_rows(self, room: Room, seq: int) -> list[tuple[int, int | None, str]] | None:
        """The log rows after the room's ``seq`` up to ``seq`` when the notifications carried all of them
        (None: read the log)."""
        rows: list[tuple[int, int | None, str]] = []
        at = room.seq
        while at < seq:
            known = self._logged.pop((room.code, at + 1), None)
            if known is None:
                return None
            at, more = known
            rows += more
        return rows

    def _on_events(self, code: str, seq: int, bot: bool) -> None:
        svc = self.service
        room = svc.rooms.get(code)
        if room is None:
            if bot and svc.leader:  # a bot of a room this process has not loaded is to move
                self._wanted[code] = max(self._wanted.get(code, 0), seq)
                self._wake.set()
            return
        if room.seq >= seq:  # our own commit, or already caught up
            self._frames.pop((code, seq), None)
            if bot and svc.leader:
                svc.schedule_bots(room)
            return
        if room.watchers > 0 and self._follow(room, seq):
            if svc.leader:
                svc.schedule_bots(room)
            return
        busy = room.lock.locked() or (room.bot_task is not None and not room.bot_task.done())
        if room.watchers > 0 or busy or (svc.leader and (bot or _has_bots(room))):
            self._wanted[code] = max(self._wanted.get(code, 0), seq)
            self._wake.set()
        else:
            del svc.rooms[code]  # nobody here needs it: the next request reloads it from the log

    def _follow(self, room: Room, seq: int) -> bool:
        """Apply another process's commits up to ``seq`` at once, in the notification's callback, when their
        notifications carried every one of them with its frame and nobody holds the room's lock (nothing can
        run between the check and the end: no ``await``). False, with nothing applied: the worker catches the
        room up (:meth:`_catch_up_many`), as it does when a replay here does not throw what was logged.

        This is the common case of a room whose seats are spread over processes; it saves the worker's wake-up,
        the lock and the bookkeeping per followed action (the replay with its dice check is the same).
        """
        if room.lock.locked():
            return False
        code = room.code
        chain: list[int] = []
        at = room.seq
        while at < seq:
            known = self._logged.get((code, at + 1))
            if known is None or (code, known[0]) not in self._frames:
                return False
            chain.append(at + 1)
            at = known[0]
        rows = [row for first in chain for row in self._logged.pop((code, first))[1]]
        groups = _group(rows, room.seq)
        if groups is None or len(groups) != len(chain):
            return False
        for seat, texts in groups:
            try:
                _replay(room, seat, texts)
            except Exception:  # the worker reads the log and rebuilds the room if it still does not replay
                return False
            self.deliver(room, self._frames.pop((code, room.seq)))
        return True

    @staticmethod
    def announces(room: Room, payload: str) -> bool:
        """Whether a commit's payload goes to the other processes: where one of them has said it serves the room
        (its presence, repeated every :data:`POLL` seconds); where nobody here watches it (a bot's or a stand-in's
        move of the leading process, whose players are served elsewhere); or where a bot, an away player's stand-in
        or a turn clock is to run next (BOT 1: the leading process drives them, and loads the room for it)."""
        return bool(room.remote) or room.watchers == 0 or payload.split(" ", 4)[3:4] == ["1"]

    def nudge(self, room: Room) -> None:
        """Announce a room's last ``seq`` without a frame (``e CODE SEQ 0``), once no write of it is under way,
        if this process committed any since the last time without announcing it: a process new to the room may
        not have been told of those, and catches the room up from the log. Every commit decided before (under
        the room's lock) has then ended, and every later one is announced, since the new process's presence is
        already recorded."""

        async def later() -> None:
            async with room.lock:
                live = self.service.rooms.get(room.code, room)  # the cached object, should it have been reloaded
                seq, missed = live.seq, live.unannounced
                live.unannounced = False
            if missed:
                await asyncio.to_thread(self._notify, f"e {room.code} {seq} 0")

        self._spawn(later())

    def _on_message(self, code: str, message: Any, sender: str = "") -> None:
        room = self.service.rooms.get(code)
        if room is None or not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "presence":  # another process's connections to the room
            with contextlib.suppress(TypeError, ValueError, AttributeError):
                counts = {int(k): int(v) for k, v in dict(message.get("counts") or {}).items()}
                spectators = int(message.get("spectators") or 0)
                before = room.remote.get(sender)
                if before is not None and presence_expired(before[0]):
                    before = None  # expired (not yet swept): the sender is new to this room again
                room.remote[sender] = (time.monotonic(), counts, spectators)
                if before is None or before[1:] != (counts, spectators):  # a repeat that changes nothing: quiet
                    self.deliver(room, {"type": "seats", "seats": room.info()["seats"]})
                    self.deliver(room, {"type": "presence"})
                if before is None and room.watchers > 0:  # a process new to the room this one serves missed
                    self.nudge(room)  # the commits this one did not announce (nobody else served the room) ...
                    if self.counts is not None:
                        self.publish(room, self.counts(room))  # ... and who is connected here
            return
        if kind == "clock":
            room.clock = (
                None
                if message.get("seat") is None
                else {k: message.get(k) for k in ("seat", "seq", "seconds", "deadline")}
            )
            self.deliver(room, message)
            return
        if kind == "chat":
            room.extra["chat"] = [*(room.extra.get("chat") or []), {k: v for k, v in message.items() if k != "type"}][
                -CHAT_KEEP:
            ]
            self.deliver(room, message)
            return
        if kind == "vote":
            self.deliver(room, message)
            return
        if kind in ("table", "away"):  # the host's start, a seat away or back: read the room's meta again
            self._spawn(self._refresh_meta(room, message))
            return
        if kind == "undo":  # events left the log: this process's copy of the room is rebuilt from it
            self._spawn(self._rebuild(room, "an entry was taken back"))
            return
        if message.get("type") == "rematch" and isinstance(message.get("code"), str):
            room.rematch_code = message["code"]
            self.deliver(room, {"type": "rematch", "code": message["code"]})
        elif message.get("type") == "seats":  # a claim elsewhere: a rematch made here copies the claims
            self._spawn(self._resend_seats(room))
        elif message.get("type") == "tokens":  # a token revoked elsewhere: it must stop acting here too
            self._spawn(self._revoke_here(room))

    async def _refresh_meta(self, room: Room, message: dict[str, Any]) -> None:
        meta = await asyncio.to_thread(self.service.store.meta, room.id)
        if meta is None:
            return
        for key in ("started_by", "stand_ins"):
            if key in meta:
                room.extra[key] = meta[key]
        room.away = away_of(meta)
        self.deliver(room, message)
        if self.service.leader:
            self.service.schedule_bots(room)

    def republish(self, everywhere: bool = False) -> None:
        """Repeat this process's presence in the rooms it serves together with another process (``everywhere``:
        in every room it serves), and forget other processes' counts that were not repeated (a process that
        died).

        A room served here alone needs no repeat: a process that starts serving it announces its own counts,
        and this one answers at once (:meth:`_on_message`); from then on both repeat theirs. So with room
        affinity (each room's connections on one process) nothing is repeated between the full rounds.
        """
        self._lost = False
        now = time.monotonic()
        payloads = []
        for room in list(self.service.rooms.values()):
            stale = [k for k, (at, _, _) in room.remote.items() if presence_expired(at, now)]
            for k in stale:
                del room.remote[k]
            if self.counts is not None and room.watchers > 0 and (everywhere or room.remote):
                payloads.append(f"m {self.token} {room.code} {json.dumps(self.counts(room), separators=(',', ':'))}")
            if stale and room.watchers > 0:
                self.deliver(room, {"type": "seats", "seats": room.info()["seats"]})
                self.deliver(room, {"type": "presence"})
        if payloads:  # one transaction for all of them
            self._spawn(asyncio.to_thread(self._notify, *payloads))

    async def _revoke_here(self, room: Room) -> None:
        await self.refresh_seats(room)
        self.deliver(room, {"type": "tokens"})

    async def _resend_seats(self, room: Room) -> None:
        await self.refresh_seats(room)
        if room.watchers > 0:
            self.deliver(room, {"type": "seats", "seats": room.info()["seats"]})

    # -- catching up --------------------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            wanted, self._wanted = self._wanted, {}
            try:
                await self._catch_up_many(wanted)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database failed: these rooms are caught up on the next poll
                LOG.warning("relay: catching up %d rooms failed: %s", len(wanted), exc)

    async def _catch_up_many(self, wanted: dict[str, int]) -> None:
        svc = self.service
        rooms: list[Room] = []
        for code in wanted:
            room = svc.rooms.get(code)
            if room is None:
                with contextlib.suppress(Exception):  # no such room (any more), or its log is broken
                    room = await svc.get_room(code)  # loaded from the log: current
                    if svc.leader:
                        svc.schedule_bots(room)
                continue
            rooms.append(room)
        # Rooms whose missed commits all came with their frames are caught up from those (the same rows, as
        # PostgreSQL notifies only what a transaction committed); the others read the log.
        known = {r.id: got for r in rooms if (got := self._known_rows(r, wanted[r.code])) is not None}
        if known:
            for room in rooms:
                if room.id in known:
                    async with room.lock:
                        if svc.rooms.get(room.code) is room:
                            await self._apply(room, known[room.id])
                    if svc.leader:
                        svc.schedule_bots(room)
            rooms = [r for r in rooms if r.id not in known]
        for start in range(0, len(rooms), CHUNK):
            chunk = rooms[start : start + CHUNK]
            rows = await self._read([(r.id, r.seq) for r in chunk])
            for room in chunk:
                if rows.get(room.id):
                    async with room.lock:
                        if svc.rooms.get(room.code) is room:
                            await self._apply(room, rows[room.id])
                if svc.leader:
                    svc.schedule_bots(room)

    async def _read(self, pairs: list[tuple[int, int]]) -> dict[int, list[tuple[int, int | None, str]]]:
        """The events of each (room id, seq) pair after that seq, in log order (one statement for all).

        Read on the relay's own connection, on the event loop (no thread, no pool checkout); psycopg
        serialises its users, and prepares the statement on the server after a few uses.

        Raises:
            psycopg.Error: the database failed twice (a broken connection is replaced once).
        """
        ids = [rid for rid, _ in pairs]
        after = [seq for _, seq in pairs]
        for attempt in range(2):
            try:
                if self._reader is None or self._reader.closed:
                    self._reader = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                cur = await self._reader.execute(EVENTS_AFTER, (ids, after))
                found = await cur.fetchall()
                break
            except psycopg.OperationalError:
                if self._reader is not None:
                    with contextlib.suppress(Exception):
                        await self._reader.close()
                self._reader = None
                if attempt:
                    raise
        out: dict[int, list[tuple[int, int | None, str]]] = {}
        for rid, seq, seat, action in found:
            out.setdefault(rid, []).append((seq, seat, action))
        return out

    async def catch_up_locked(self, room: Room) -> None:
        """Bring a room up to the log (the caller holds its lock), sending the missed updates in order."""
        rows = await self._read([(room.id, room.seq)])
        await self._apply(room, rows.get(room.id, []))

    async def catch_up(self, room: Room) -> None:
        """Bring a room up to the log, taking its lock."""
        async with room.lock:
            await self.catch_up_locked(room)

    async def _apply(self, room: Room, rows: list[tuple[int, int | None, str]]) -> None:
        """Apply logged events to the cached game; each action's ``update`` goes to this process's clients."""
        svc = self.service
        groups = _group(rows, room.seq)
        if groups is None:
            await self._rebuild(room, "the log read has a gap")
            return
        for seat, texts in groups:
            try:
                pending, events = _replay(room, seat, texts)
            except Exception as exc:  # a log this process cannot follow step by step: rebuild the room
                await self._rebuild(room, str(exc))
                return
            frame = self._frames.pop((room.code, room.seq), None)
            if room.watchers > 0:
                if frame is not None:  # the committing process's own text of this update
                    self.deliver(room, frame)
                else:
                    view = state_view(pending.state, room.seq, room.views)
                    await svc._emit(room, {"type": "update", "by": seat, "events": events, "state": view})

    async def _rebuild(self, room: Room, why: str) -> None:
        LOG.warning("relay: room %s is rebuilt from its log (%s)", room.code, why)
        svc = self.service
        fresh = svc.reload(room.code)  # rare: on the loop, so that nothing else sees half a room
        if fresh.watchers > 0:
            state = state_view(fresh.state, fresh.seq)
            await svc._emit(fresh, {"type": "state", "room": fresh.info(), "state": state})

    async def refresh_seats(self, room: Room) -> None:
        """Re-read the room's seat claims (another process may have given a seat away)."""

        for seat, digest, claimed in await asyncio.to_thread(self.service.store.claims, room.id):
            if 0 <= seat < len(room.seats):
                room.seats[seat].token_hash = digest
                room.seats[seat].claimed = claimed

    async def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat of a token, re-reading the claims once when this process does not know it."""
        seat = room.seat_of(token)
        if seat is None and token:
            await self.refresh_seats(room)
            seat = room.seat_of(token)
        return seat

    # -- sending ------------------------------------------------------------------------------------
    def publish(self, room: Room, message: dict[str, Any]) -> None:
        """Forward a message that is not in the log (``rematch``, ``seats``) to the other processes."""
        kind = message.get("type")
        if kind == "presence" and "counts" in message and self.counts is not None:
            # This process's counts: coalesced, so that a storm of connections is a few NOTIFYs, not one each.
            self._presence.add(room.code)
            if self._presence_flush is None:
                loop = asyncio.get_running_loop()
                self._presence_flush = loop.call_later(PRESENCE_DELAY, self._flush_presence)
            return
        if kind == "seats":  # only a claim matters elsewhere (who is online is each process's own view)
            claims = tuple(s.claimed for s in room.seats)
            if self._claims.get(room.code) == claims:
                return
            if len(self._claims) >= MAX_FRAMES:
                self._claims.clear()
            self._claims[room.code] = claims
        elif kind in FORWARDED:  # small frames of the table's manners: as they are
            payload = f"m {self.token} {room.code} {json.dumps(message, separators=(',', ':'))}"
            if len(payload) < MAX_PAYLOAD:
                self._spawn(asyncio.to_thread(self._notify, payload))
            return
        elif kind not in ("rematch", "tokens", "undo"):
            return
        body = {"type": message["type"], "code": message.get("code")}
        payload = f"m {self.token} {room.code} {json.dumps(body, separators=(',', ':'))}"
        self._spawn(asyncio.to_thread(self._notify, payload))

    def _flush_presence(self) -> None:
        self._presence_flush = None
        codes, self._presence = self._presence, set()
        payloads = []
        for code in codes:
            room = self.service.rooms.get(code)
            if room is not None and self.counts is not None:
                body = json.dumps(self.counts(room), separators=(",", ":"))
                payloads.append(f"m {self.token} {code} {body}")
        if payloads:
            self._spawn(asyncio.to_thread(self._notify, *payloads))

    def wake_leader(self, room: Room) -> None:
        """Announce a room whose bot may be to move with no commit to say so: before any event was logged (new
        rooms, rematches), or when a seat was handed to the stand-in in a process that does not drive the bots."""
        payload = f"e {room.code} {room.seq} 1"
        self._spawn(asyncio.to_thread(self._notify, payload))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(self._background.discard)

    def _notify(self, *payloads: str) -> None:
        try:
            self.service.store.notify(CHANNEL, *payloads)
        except Exception:  # the database is away: the next poll repeats this process's presence everywhere
            self._lost = True


def _has_bots(room: Room) -> bool:
    """Whether the bots' owner drives something in the room: a bot seat, an away player's stand-in, or a turn
    clock (and its stand-ins)."""
    return bool(room.extra.get("clock")) or bool(room.away) or any(s.is_bot for s in room.seats)
