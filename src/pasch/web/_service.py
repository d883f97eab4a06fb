"""Rooms and the event log: the web server's core, independent of HTTP.

A room's game is the replay of its events. :meth:`Service.act` validates an action with the engine, throws
the dice from the room's seeded stream when the action sets dice rolling, appends every resulting event in
one database transaction, and only then updates the cached state and returns; the caller acknowledges and
broadcasts. Actions of one room are serialised by an :class:`asyncio.Lock`, and the unique ``(room, seq)``
constraint rejects a second writer (another process) that raced for the same slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine

from pasch._version import __version__
from pasch.app import Match, Pending, check_bot, seat_kind, uses_bot_tables
from pasch.app import Seat as AppSeat
from pasch.engine import Action, GameLog, Throw, new_game
from pasch.errors import IllegalActionError, InvalidActionError, PaschError
from pasch.rules import RuleSet
from pasch.rules import get as get_rules
from pasch.storage import (
    ABANDONED,
    Append,
    ConflictError,
    EventWriter,
    HandedError,
    RoomRecord,
    RoomStore,
    SeatRecord,
    StandInError,
)
from pasch.web._bots import bot_loop
from pasch.web._fair import DICE_V1, DICE_V2, check_contribution, commitment_of, dice_stream, new_seed
from pasch.web._hints import room_hint
from pasch.web._manners import ActError, away_of, waiting_for
from pasch.web._room import Room, Seat, hash_token, rotate_tokens
from pasch.web._sweep import sweep
from pasch.web._table import Table
from pasch.web._table_rules import lobby_entry, stale_message
from pasch.web._tables import TableQueue
from pasch.web._view import state_view

__all__ = ["ActError", "Encoded", "Room", "Seat", "Service", "hash_token", "rotate_tokens"]

LOG = logging.getLogger("pasch.web")

MAX_NAME = 40
"""The longest player name, everywhere (the API refuses longer ones; the seats column holds 40)."""
FINISHED_TTL = 600.0
"""Seconds a finished room stays cached after its last connection closed."""
TOKEN_TTL = 3600.0
"""Seconds after a finished room's last activity when its seat tokens expire, whoever is still connected."""
ABANDON_AFTER = 7 * 86400.0
"""Seconds without any action or connection after which an unfinished room is abandoned."""
UNPLAYED_AFTER = 900.0
"""Seconds without a connection after which a room nobody ever played in (no event) is abandoned."""


Listener = Callable[[Room, dict[str, Any]], Awaitable[None]]


def _check_name(name: str, others: list[str]) -> None:
    """Refuse a joining player's name that another seat of the room has (any case): the game's players must
    differ, and a claim that committed first and failed to rebuild the room after broke it for good (issue 25).

    Raises:
        ActError: ``name_taken``.
    """
    folded = name.casefold()
    for other in others:
        if other.casefold() == folded:
            raise ActError("name_taken", f"{name!r} plays in this room already ({other}); choose another name")


WIN_BOT = "bot:win"
"""The seat kind whose tables are built only where the operator allows them (:attr:`Service.win_bots`)."""


class _HandedOverError(ActError):
    """A player's move the database refused: their seat was handed to a stand-in (in another process, which
    this one had not heard of yet). ``seq``: the log's length the move was chosen at."""

    def __init__(self, seq: int) -> None:
        super().__init__("conflict", "your seat was handed to a stand-in meanwhile; the state was reloaded")
        self.seq = seq


def _may_be_handed(room: Room, seat: int) -> bool:
    """Whether a seat's player may find it handed to a stand-in by another process: a human seat in a room with a
    turn clock, or with another human seat (whose player, the host, may hand it over). Their own moves are
    checked against the stored hand-overs in the write's transaction (:attr:`pasch.storage.Append.player`)."""
    if room.seats[seat].is_bot:
        return False
    return bool(room.extra.get("clock")) or sum(not s.is_bot for s in room.seats) > 1


class Encoded(dict[str, Any]):
    """A frame with its JSON text, made once: the commit's notice to the other processes holds the ``update``
    frame's text already, and the hub sends that text as it is (it was encoded twice: ~3 % of a process)."""

    def __init__(self, message: dict[str, Any], text: str) -> None:
        super().__init__(message)
        self.text = text


@dataclass(slots=True)
class ActResult:
    """What one accepted action did: the events appended and the resulting view."""

    seq: int
    events: list[str]
    view: dict[str, Any]
    frame: str | None = None
    """The ``update`` frame's JSON text, where the commit's notice made it (:func:`pasch.web._relay.notice`)."""


class Service:
    """Rooms, seats and the event log on one database.

    Args:
        engine: the SQLAlchemy engine (already migrated).
        bot_delay: seconds a bot waits before each action (0 in tests and benchmarks).
    """

    def __init__(
        self,
        engine: Engine,
        bot_delay: float = 0.4,
        *,
        finished_ttl: float = FINISHED_TTL,
        abandon_after: float = ABANDON_AFTER,
        unplayed_after: float = UNPLAYED_AFTER,
        win_hints: bool = False,
        win_bots: bool = False,
    ) -> None:
        self.engine = engine
        self.win_hints = win_hints
        """Hints in single-column games of several players also give P(win) (``pasch serve --win-hints``)."""
        self.win_bots = win_bots
        """Whether ``bot:win`` seats are allowed (``pasch serve --win-bots``): each rule set's first game builds two
        tables of up to 0.7 GB; seven such rooms from one address took a server down (issue 26)."""
        self.bot_delay = bot_delay
        self.finished_ttl = finished_ttl
        self.token_ttl = max(finished_ttl, TOKEN_TTL)
        """Seconds after a room's last activity, once it is over, when its seat tokens expire even while someone
        is connected (a spectator's open socket kept them forever; issue 26)."""
        self.abandon_after = abandon_after
        self.unplayed_after = unplayed_after
        self.tables = TableQueue()
        """Solver tables, prepared one at a time (bots wait for theirs; hints say 'preparing' meanwhile)."""
        self.rooms: dict[str, Room] = {}
        self.listeners: list[Listener] = []
        self.table = Table(self)
        """The table's manners: the waiting room, the turn clock and its stand-ins, the chat."""
        self.store = RoomStore(engine)
        """Every read and write of the rooms but the events' appends (the only SQL of the server)."""
        self.writer = EventWriter(engine)
        # -- several processes on one PostgreSQL (web/_relay.py, web/_lease.py) --
        self.leader = True
        """Whether this process drives the bots and marks idle rooms abandoned (one process at a time does)."""
        self.notice: Callable[[Room, Pending, dict[str, Any]], str] | None = None
        """The ``NOTIFY`` payload of a commit (set by the relay)."""
        self.announce: Callable[[Room, str], bool] | None = None
        """Whether a commit's payload is sent (set by the relay: only where another process may hold the room);
        None: always."""
        self.refresh: Callable[[Room], Awaitable[None]] | None = None
        """Brings a cached room that nobody here watches up to the log before it is handed out (set by the relay:
        commits of a room that only other processes served were not announced to this one)."""
        self.committing: dict[str, int] = {}
        """Room code -> the ``seq`` this process's write under way reaches: its own notification may come back
        before the write returns, and the relay knows it thus for this process's own (a commit of another
        process to that slot makes this write fail, and the room is caught up from the log)."""
        self.on_conflict: Callable[[Room], Awaitable[None]] | None = None
        """Brings a stale room up to the log, its lock held (set by the relay; default: :meth:`reload`)."""
        self.wake_leader: Callable[[Room], None] | None = None
        """Tells the process that drives the bots that a new room's bot is to move first, or that a seat was handed
        to the stand-in here (set by the relay)."""

    def close(self) -> None:
        """Finish the pending writes and stop the writer thread."""
        self.tables.close()
        self.writer.stop()

    def _check_win_budget(self, rules: RuleSet) -> None:
        """Refuse a ``bot:win`` seat whose two tables would not fit the table cache's disk budget: they would be
        built, then trimmed away, again and again.

        Raises:
            ActError: ``seat_disabled`` with the sizes.
        """
        from pasch.solver import disk_budget, shared_solver, win_files

        budget = disk_budget()
        need = win_files(shared_solver(rules)).nbytes
        if budget and need > budget:
            raise ActError(
                "seat_disabled",
                f"{WIN_BOT} in {rules.id} needs {need / 1e6:,.0f} MB of tables; this server keeps "
                f"{budget / 1e6:,.0f} MB (pasch serve --table-disk-mb); choose bot:optimal",
            )

    def _playing(self, kind: str) -> str:
        """Who plays a seat of this kind here: ``bot:win`` rooms made before its tables were disabled are played
        on by ``bot:optimal`` (its seat keeps its name), so that resuming them builds no win table."""
        return "bot:optimal" if kind == WIN_BOT and not self.win_bots else kind

    # -- loading ---------------------------------------------------------------------------------
    def _build(self, rec: RoomRecord) -> Room:
        """The cached room of a stored one: its game replayed from the log.

        Raises:
            PaschError: the log no longer replays.
        """
        seats = [Seat(s.seat, s.name, s.kind, s.token_hash, s.claimed) for s in rec.seats]
        log = GameLog(rec.rules, tuple(s.name for s in seats), tuple(rec.actions), keeper=rec.keeper)
        meta = rec.meta
        version = str(meta.get("dice") or DICE_V1)
        raw = meta.get("contributions")
        contributions: list[str | None] = [
            c if isinstance(c, str) else None for c in (raw if isinstance(raw, list) else [None] * len(seats))
        ]
        # The stream draws once per logged throw, so that it continues where the game stands.
        match = Match.from_log(
            log,
            [self._playing(s.kind) for s in seats],
            dice=dice_stream(rec.seed, version, contributions) if rec.seed else None,
            sync_dice=True,
            undo=False,
        )
        return Room(
            id=rec.id,
            code=rec.code,
            rules=rec.rules,
            keeper=rec.keeper,
            hints=rec.hints,
            seed=rec.seed,
            commitment=rec.commitment,
            seats=seats,
            match=match,
            status=rec.status,
            dice_version=version,
            contributions=contributions,
            rematch_of=rec.rematch_of,
            rematch_code=rec.rematch_code,
            private=bool(meta.get("private")),
            last_active=rec.last_active,
            extra={k: v for k, v in meta.items() if k not in ("dice", "contributions", "private")},
            away={seat: self._playing(kind) for seat, kind in away_of(meta).items()},
        )

    def resume_all(self) -> list[str]:
        """Load every unfinished room from the log (server start); returns their codes.

        A room whose log no longer replays (a damaged row, a rule change between versions) is marked
        ``broken`` and left out, with a warning: one bad room never keeps the others down.
        """
        codes: list[str] = []
        broken: list[int] = []
        for rec in self.store.playing():
            try:
                self.rooms[rec.code] = self._build(rec)
            except Exception as exc:  # any failure to rebuild this room must not stop the server
                LOG.warning("room %s is broken and left out: %s", rec.code, exc)
                broken.append(rec.id)
                continue
            codes.append(rec.code)
        self.store.mark_broken(broken)
        return codes

    def room(self, code: str) -> Room:
        """The room with this join code (loaded from the database if not cached).

        Raises:
            ActError: no such room.
        """
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        room = self._read_room(code)
        self.rooms[code] = room
        return room

    async def get_room(self, code: str) -> Room:
        """:meth:`room`, reading an uncached room from the database in a thread (not on the event loop); a cached
        one that nobody here watches is first brought up to the log where :attr:`refresh` is set.

        Raises:
            ActError: no such room.
        """
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            if self.refresh is not None and room.watchers == 0 and not room.lock.locked():
                try:  # takes the lock: not while a caller holds it (then the room is in use here)
                    await self.refresh(room)
                except Exception as exc:  # the database failed: the cached copy it is (a write still checks the log)
                    LOG.warning("room %s: not brought up to the log (%s)", code, exc)
                room = self.rooms.get(code, room)
            return room
        loaded = await asyncio.to_thread(self._read_room, code)
        return self.rooms.setdefault(code, loaded)  # another task may have loaded it meanwhile

    def _read_room(self, code: str) -> Room:
        rec = self.store.load(code)
        if rec is None:
            raise ActError("no_room", f"there is no room {code!r}")
        try:
            return self._build(rec)
        except PaschError as exc:
            raise ActError("broken", f"room {code}'s log no longer replays ({exc}); its log is kept") from None

    def reload(self, code: str) -> Room:
        """Drop the cached room and rebuild it from the log (after a conflicting writer)."""
        old = self.rooms.pop(code, None)
        room = self.room(code)
        if old is not None:
            room.carry(old)
        return room

    # -- rooms -----------------------------------------------------------------------------------
    async def create_room(
        self,
        rules: str,
        seats: list[tuple[str, str]],
        *,
        hints: bool = False,
        keeper: bool = False,
        rematch_of: Room | None = None,
        private: bool = False,
        wait: bool = False,
        clock: int = 0,
        stand_in: str | None = None,
    ) -> tuple[Room, dict[int, str]]:
        """Create a room and start its game.

        Args:
            rules: rule-set text.
            seats: (name, kind) per seat; kind ``human`` or ``bot:NAME``.
            hints: whether the hint panel is on.
            keeper: score-keeper room (the table enters real dice).
            rematch_of: the finished room this one replays: each seat of it that was claimed gets a new token
                (:func:`rotate_tokens`; the old ones do not act in the new room).
            private: keep the room out of the lobby (joined by its link only).
            wait: a waiting room: the first action waits until everyone is there or the host starts.
            clock: seconds each human seat has for a turn before its stand-in plays (0: no clock).
            stand_in: the bot kind that plays for an away player (default ``bot:optimal``).

        Returns:
            The room and, by seat, the token of the first human seat (claimed for the creator), or in a rematch
            the new token of every claimed seat.

        Raises:
            ActError: a bad rule set, seat kind or player list.
        """
        try:
            rs = get_rules(rules)
        except PaschError as exc:
            raise ActError("bad_request", str(exc)) from None
        clean: list[tuple[str, str]] = []
        for n, (name, kind) in enumerate(seats):
            try:
                k = seat_kind(kind)
                check_bot(k, rs)
            except ValueError as exc:
                raise ActError("bad_request", str(exc)) from None
            if k == WIN_BOT and not self.win_bots:
                raise ActError(
                    "seat_disabled",
                    f"{WIN_BOT} plays from tables of up to 0.7 GB each, which this server does not build "
                    "(its operator can allow them: pasch serve --win-bots); choose bot:optimal",
                )
            if k == WIN_BOT:
                self._check_win_budget(rs)
            nm = " ".join(str(name).split())[:MAX_NAME] or f"Player {n + 1}"
            clean.append((nm, k))
        try:
            new_game(rs, [n for n, _ in clean], keeper=keeper)
        except PaschError as exc:
            raise ActError("bad_request", str(exc)) from None
        seed = "" if keeper else new_seed()
        commitment = commitment_of(seed) if seed else ""
        contributions: list[str | None] = [None] * len(clean)
        meta: dict[str, Any] = {"dice": DICE_V2, "contributions": contributions} if seed else {}
        if private:
            meta["private"] = True
        options = self.table.options(rs, wait=wait, clock=clock, stand_in=stand_in)
        meta.update(options)
        if rematch_of is not None:
            tokens = rotate_tokens(rematch_of.seats)
        else:
            first = next((n for n, (_, kind) in enumerate(clean) if kind == "human"), None)
            tokens = {} if first is None else {first: secrets.token_urlsafe(24)}
        hashes: list[str | None] = [hash_token(tokens[n]) if n in tokens else None for n in range(len(clean))]

        room_id, code = await asyncio.to_thread(
            self.store.create,
            rules=rs.id,
            keeper=keeper,
            hints=hints,
            seed=seed,
            commitment=commitment,
            meta=meta,
            seats=[(nm, k, h) for (nm, k), h in zip(clean, hashes, strict=True)],
            engine=__version__,
            rematch_of=(rematch_of.id, rematch_of.code) if rematch_of is not None else None,
        )
        room = Room(
            id=room_id,
            code=code,
            rules=rs.id,
            keeper=keeper,
            hints=hints,
            seed=seed,
            commitment=commitment,
            seats=[Seat(n, nm, k, h, h is not None) for n, ((nm, k), h) in enumerate(zip(clean, hashes, strict=True))],
            match=Match.new(
                rs,
                [AppSeat(nm, k) for nm, k in clean],
                dice=dice_stream(seed, DICE_V2, contributions) if seed else None,
                keeper=keeper,
                undo=False,
            ),
            dice_version=DICE_V2 if seed else DICE_V1,
            contributions=contributions,
            rematch_of=rematch_of.code if rematch_of else None,
            private=private,
            extra=dict(options),
        )
        self.rooms[code] = room
        if uses_bot_tables(rs) and (hints or any(k != "human" for _, k in clean)):
            # The bot's tables of a multi-column game, prepared while the players gather: its first move and
            # the first hint then wait for nothing (about 20 s to build kniffel-4's on a fresh machine).
            with contextlib.suppress(PaschError):  # a full queue: the bot's first move asks again
                self.tables.request(rs)
        return room, tokens

    async def claim_seat(self, code: str, seat: int | None = None, name: str | None = None) -> tuple[int, str]:
        """Give an unclaimed human seat of a room to a joining player.

        A ``name`` (cleaned, at most :data:`MAX_NAME` characters) renames the seat: the game's player names
        come from the seats, so the cached game is rebuilt from the log with it.

        Returns:
            The seat index and its new secret token.

        Raises:
            ActError: no room, the room is full, or the seat is taken or not human.
        """
        room = await self.get_room(code)
        async with room.lock:  # one claim of a room at a time, so two joiners never pick the same seat
            free = [s for s in room.seats if not s.claimed and not s.is_bot]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free or room.finished:
                which = f" {seat}" if seat is not None else ""
                raise ActError("room_full", f"room {room.code} has no free seat{which}")
            target = free[0]
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            new_name = " ".join(str(name or "").split())[:MAX_NAME]
            rename = bool(new_name) and new_name != target.name
            if rename:  # validated in full before anything is written: a claim that breaks the room changes nothing
                _check_name(new_name, [s.name for s in room.seats if s.seat != target.seat])

            def check(stored: list[SeatRecord]) -> None:
                if rename:  # again, inside the transaction: another process may have renamed a seat meanwhile
                    _check_name(new_name, [r.name for r in stored if r.seat != target.seat])

            name_now = new_name if rename else None
            if not await asyncio.to_thread(self.store.claim, room.id, target.seat, digest, name_now, check):
                raise ActError("room_full", f"seat {target.seat} of room {room.code} is taken")
            target.claimed = True
            target.token_hash = digest
            if rename:
                fresh = await asyncio.to_thread(self._read_room, room.code)
                fresh.carry(room)
                self.rooms[room.code] = fresh
                room = fresh
            await self.table.changed(room)
        self.schedule_bots(room)
        return target.seat, token

    async def contribute(self, code: str, seat: int | None, text: Any) -> list[str | None]:
        """Record a seated player's seed contribution (32 random bytes from their page, as hex), mixed into
        every throw of the game (docs/protocol.md, *Provably fair dice*); one per seat, before the first throw.

        Returns:
            The room's contributions, per seat.

        Raises:
            ActError: a spectator, a bot's seat, not 64 hex digits, a room without served dice or of dice
                version 1, a seat that contributed another value already, or a throw happened already.
        """
        room = await self.get_room(code)
        try:
            value = check_contribution(text)
        except PaschError as exc:
            raise ActError("bad_message", str(exc)) from None
        if seat is None:
            raise ActError("spectator", "only a seated player contributes to the dice")
        if room.dice_version != DICE_V2 or not room.seed:
            raise ActError("no_contribution", "this room's dice take no contributions (a score keeper or older room)")
        async with room.lock:
            room = self.rooms.get(room.code, room)
            if room.contributions[seat] == value:
                return list(room.contributions)
            if room.contributions[seat] is not None:
                raise ActError("no_contribution", "this seat has contributed already")
            if any(a.startswith("throw") for a in room.actions):
                raise ActError("no_contribution", "the dice have been thrown already; contributions come before")
            updated = [*room.contributions]
            updated[seat] = value

            def change(meta: dict[str, Any]) -> dict[str, Any]:
                return {**meta, "dice": DICE_V2, "contributions": updated}

            if await asyncio.to_thread(self.store.update_meta, room.id, change) is None:
                raise ActError("no_room", f"there is no room {room.code!r}")
            room.contributions[seat] = value  # the stream reads this list at its first throw
            await self._emit(room, {"type": "fair", "contributions": list(room.contributions)})
            await self.table.changed(room)
        self.schedule_bots(room)
        return list(room.contributions)

    async def lobby(self, limit: int = 50, include: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """Open rooms: unfinished, with a free human seat, newest first (read in a thread).

        Args:
            limit: rows at most, besides the rooms of ``include``.
            include: codes of rooms listed (if open) however old they are (rooms with players present).
        """
        return await asyncio.to_thread(self._lobby, limit, include)

    def _lobby(self, limit: int = 50, include: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        now = datetime.now(UTC)
        return [lobby_entry(*row, now) for row in self.store.lobby(limit, include)]

    async def rematch(self, code: str, token: str | None) -> tuple[Room, str]:
        """A new room with the same rules and seats once the game is over; one room however many players ask.

        Every claimed seat gets a new token (:func:`rotate_tokens`): the listeners receive them all in the
        ``rematch`` message (``tokens`` by seat; each connection is handed only its own seat's), and the asker
        gets theirs back. Asked again once the rematch exists, the asker's seat gets a fresh token of the new
        room (the server keeps only hashes, so it cannot hand out the first one twice). Either way the asker's
        old token is exchanged: it stops working here (:meth:`_revoke`), so it is exchanged once.

        Returns:
            The new room and the asker's token in it.

        Raises:
            ActError: no room, not a seat of it, or the game is not over.
        """
        room = await self.get_room(code)
        async with room.lock:
            seat = room.seat_of(token)
            if seat is None:
                raise ActError("bad_token", "only a seated player can ask for a rematch")
            if not room.finished:
                raise ActError("not_finished", "the game is not over yet")
            if room.rematch_code:
                # Each seat's token is exchanged once: it stops working here as its new one is issued, so
                # a second copy of it cannot take the seat back from the page that followed (issue 26).
                again = await self.get_room(room.rematch_code)
                fresh = await self._reissue(again, seat)
                await self._revoke(room, seat)
                return again, fresh
            new, tokens = await self.create_room(
                room.rules,
                [(s.name, s.kind) for s in room.seats],
                hints=room.hints,
                keeper=room.keeper,
                rematch_of=room,
                private=room.private,
                wait=bool(room.extra.get("wait")),
                clock=int(room.extra.get("clock") or 0),
                stand_in=room.extra.get("stand_in"),
            )
            room.rematch_code = new.code
            await self._emit(room, {"type": "rematch", "code": new.code, "tokens": tokens})
            await self._revoke(room, seat)  # the asker's token is exchanged (the others' when they follow)
        self.schedule_bots(new)
        return new, tokens[seat]

    async def _reissue(self, room: Room, seat: int) -> str:
        """A fresh token for a claimed seat of ``room`` (the old one stops working)."""
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)

        async with room.lock:
            await asyncio.to_thread(self.store.set_token, room.id, seat, digest)
            room.seats[seat].token_hash = digest
            room.seats[seat].claimed = True
        return token

    async def _revoke(self, room: Room, seat: int) -> None:
        """Make a seat's token stop working (its room's lock held), here and, through the listeners' ``tokens``
        message, in every process and on every connection that holds it."""

        await asyncio.to_thread(self.store.set_token, room.id, seat, None)
        room.seats[seat].token_hash = None
        await self._emit(room, {"type": "tokens"})

    async def rematch_seat(self, code: str, token: str | None) -> tuple[Room, int, str]:
        """:meth:`rematch` for one seated player: the rematch room, the player's seat there and its new token.

        Every player's page calls this with its own token (the first call creates the rematch, the others
        find it and get a fresh token of their seat), so each page follows with the seat it held.

        Raises:
            ActError: as :meth:`rematch`.
        """
        seat = (await self.get_room(code)).seat_of(token)  # before the exchange, which revokes the token
        new, new_token = await self.rematch(code, token)
        if seat is None:  # pragma: no cover - rematch() checked the token
            raise ActError("bad_token", "only a seated player can ask for a rematch")
        return new, seat, new_token

    # -- actions ---------------------------------------------------------------------------------
    async def act(
        self,
        code: str,
        seat: int | None,
        text: str,
        on_commit: Callable[[ActResult], None] | None = None,
        *,
        at: int | None = None,
    ) -> ActResult:
        """Validate and apply an action of ``seat``, append its events, then broadcast.

        ``on_commit`` runs once the events are committed and before the broadcast (the acknowledgement).
        ``at`` is the position (``seq``) the player saw when choosing the action: if the game moved on
        since (a double click, a key repeat, a second device), the action is refused as ``stale``.

        Raises:
            ActError: the action is refused (code ``spectator``, ``bad_action``, ``not_your_turn``,
                ``illegal``, ``no_throw``, ``game_over``, ``stale`` or ``conflict``); nothing changed.
        """
        room = await self.get_room(code)
        if seat is not None and seat in room.away:  # the player acts: they are back, their stand-in stops
            await self.table.back(room.code, seat)
            room = await self.get_room(code)
        # Shielded: once its events are being written, the action completes (cache, ack, broadcast) even if
        # the connection that sent it is torn down meanwhile, so the cache never falls behind the log.
        try:
            task = asyncio.ensure_future(self._act_task(room, seat, text, on_commit, at))
            result = await asyncio.shield(task)
        except _HandedOverError as exc:
            # The seat was handed over in another process before this one heard of it, and the database refused
            # the move as the player's. The player who acts is back: record it, then the same move once more,
            # at the position it was chosen at (refused as stale if the stand-in has moved meanwhile).
            await self.table.back(room.code, seat)
            room = await self.get_room(code)
            task = asyncio.ensure_future(self._act_task(room, seat, text, on_commit, exc.seq if at is None else at))
            result = await asyncio.shield(task)
        self.schedule_bots(room)
        return result

    async def _act_task(
        self,
        room: Room,
        seat: int | None,
        text: str,
        on_commit: Callable[[ActResult], None] | None,
        at: int | None = None,
        stand_in: str | None = None,
    ) -> ActResult:
        async with room.lock:
            room = self.rooms.get(room.code, room)  # reloaded while we waited (a conflict): the fresh one
            stale = stale_message(room.seq, at, text)
            if stale is not None:
                raise ActError("stale", stale)
            if stand_in is not None and room.away.get(seat if seat is not None else -1) != stand_in:
                raise ActError("conflict", "the player is back; their stand-in does not act")
            result = await self._commit(room, seat, text)
            if on_commit is not None:
                on_commit(result)
            # Listeners only queue the message, so updates leave in the order of the log.
            update = {"type": "update", "by": seat, "events": result.events, "state": result.view}
            await self._emit(room, Encoded(update, result.frame) if result.frame is not None else update)
            await self.table.arm(room)
        return result

    def _validate(self, room: Room, seat: int | None, text: str) -> Pending:
        """The events an action of ``seat`` appends and the state after them (its throw drawn from the room's
        stream); nothing of the room changes until :meth:`Match.commit`."""
        if seat is None:
            raise ActError("spectator", "spectators watch; join a seat to play")
        waiting = waiting_for(room)
        if waiting is not None:
            raise ActError("waiting", f"the game has not started: {waiting} (the host may start it now)")
        if room.status == ABANDONED:
            raise ActError("abandoned", "this game was abandoned (nobody played it for a long time); start a new one")
        try:
            action = Action.parse(text)
        except (InvalidActionError, PaschError) as exc:
            raise ActError("bad_action", str(exc)) from None
        if isinstance(action, Throw) and not room.keeper:
            raise ActError("no_throw", "the server throws the dice; send 'roll' or 'keep ...'")
        state = room.state
        if state.is_terminal:
            raise ActError("game_over", "the game is over")
        if seat != state.current_player:
            raise ActError(
                "not_your_turn", f"{str(action)!r}: it is {state.current_name}'s turn, not {room.seats[seat].name}'s"
            )
        try:
            return room.match.prepare(action, player=seat)
        except InvalidActionError as exc:
            raise ActError("bad_action", str(exc)) from None
        except (IllegalActionError, PaschError) as exc:
            raise ActError("illegal", str(exc)) from None

    async def _commit(self, room: Room, seat: int | None, text: str) -> ActResult:
        """Validate an action, append its events (awaiting the commit), then apply it to the cached room.

        The caller holds ``room.lock``.
        """
        pending = self._validate(room, seat, text)
        new = pending.state
        append = Append(room.id, room.seq + 1, list(pending.events), datetime.now(UTC))
        # The database checks that a stand-in's seat is still handed over, and that a player's is not.
        append.stand_in = seat if seat in room.away else None
        if append.stand_in is None and seat is not None and _may_be_handed(room, seat):
            append.player = seat
        view = state_view(new, room.seq + len(pending.events), room.views)  # before the write: the notice has it
        payload = self.notice(room, pending, view) if self.notice is not None else ""
        append.notice = payload if payload and (self.announce is None or self.announce(room, payload)) else ""
        room.unannounced = room.unannounced or append.notice != payload
        if new.is_terminal:
            outcome = new.outcome()
            append.results = [(s, name, outcome.totals[s], outcome.ranks[s]) for s, name in enumerate(new.players)]
        self.committing[room.code] = room.seq + len(pending.events)
        try:
            try:
                await self.writer.write(append)
            finally:
                self.committing.pop(room.code, None)
        except ConflictError as exc:
            # Another writer took this seq, or the player a stand-in moved for came back in another process:
            # our cache is stale. Catch up from the log; nothing was applied.
            room.match.discard(pending)
            if isinstance(exc, StandInError | HandedError):
                self.table.came_back(room, exc.meta)
            if self.on_conflict is not None:
                await self.on_conflict(room)
            else:
                self.reload(room.code)
            if isinstance(exc, HandedError):
                raise _HandedOverError(append.first_seq - 1) from None
            raise ActError("conflict", "another action was recorded first; the state was reloaded") from None
        except Exception as exc:
            room.match.discard(pending)  # the stream goes back: its next throw is the one not recorded
            raise ActError("server_error", f"the action could not be recorded ({type(exc).__name__})") from None
        events = room.match.commit(pending)
        if new.is_terminal:
            room.status = "finished"
        room.last_active = append.at
        parts = payload.split(" ", 4)  # e CODE SEQ BOT FRAME (the frame left out of a long payload)
        return ActResult(room.seq, events, view, parts[4] if len(parts) == 5 else None)

    async def hint(self, code: str, seat: int | None) -> dict[str, Any]:
        """The hint for the player to act (:func:`pasch.web._hints.room_hint`).

        Raises:
            ActError: hints are off, the asker is a spectator, or it is not their turn.
        """
        return await room_hint(await self.get_room(code), seat, self.tables, self.win_hints)

    # -- cleanup --------------------------------------------------------------------------------
    async def sweep(self, now: datetime | None = None) -> dict[str, list[str]]:
        """Drop finished and abandoned rooms from memory; mark long-idle unfinished rooms abandoned
        (:func:`pasch.web._sweep.sweep`).

        Returns:
            ``{"dropped": codes, "abandoned": codes}``.
        """
        return await sweep(self, now)

    # -- bots ------------------------------------------------------------------------------------
    def schedule_bots(self, room: Room) -> None:
        """Start the room's bot task if a bot is to act and none is running."""
        room = self.rooms.get(room.code, room)  # the cached object, should the room have been reloaded
        self.table.arm_soon(room)
        turn = self.table.turn(room)
        if not self.leader:  # another process drives the bots and clocks; it learns of moves from the notices
            timed = bool(room.extra.get("clock"))
            if room.seq == 0 and self.wake_leader is not None and (turn is not None or timed):
                self.wake_leader(room)  # ... but a new room has had no commit yet
            return
        if turn is None:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        room.bot_task = asyncio.get_running_loop().create_task(bot_loop(self, room.code))

    # -- broadcasting ----------------------------------------------------------------------------
    async def _emit(self, room: Room, message: dict[str, Any]) -> None:
        """Hand a message to every listener; listeners must only queue it, never wait on a client."""
        for listener in list(self.listeners):
            await listener(room, message)
