"""The table's manners on the rooms of a :class:`~pasch.web._service.Service`: the waiting room's start, the
turn clock that hands an absent player's seat to a stand-in bot and back, and the chat (docs/protocol.md,
*The table's manners*). What each writes goes to the room's ``meta`` through :mod:`pasch.storage`, under the
room's lock; what it says goes to the service's listeners (the hub)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pasch.app import BotTurn, check_bot, make_bot, seat_kind
from pasch.rules import RuleSet
from pasch.web._manners import (
    CHAT_KEEP,
    CHAT_WELCOME,
    CLOCK_MAX,
    CLOCK_MIN,
    STAND_IN,
    ActError,
    away_of,
    clean_chat,
    host_of,
    table_info,
    waiting_for,
)

if TYPE_CHECKING:
    from pasch.web._service import Room, Service

__all__ = ["Table"]


class Table:
    """The manners of every room of one service.

    Args:
        service: the rooms.
    """

    def __init__(self, service: Service) -> None:
        self.svc = service
        self._spawned: set[asyncio.Task[None]] = set()

    # -- options -----------------------------------------------------------------------------------
    def options(self, rules: RuleSet, *, wait: bool, clock: int, stand_in: str | None) -> dict[str, Any]:
        """A new room's stored options (``wait``, ``clock``, ``stand_in``), checked.

        Raises:
            ActError: ``bad_request`` (a clock out of range, a stand-in that is not a bot of the rule set) or
                ``seat_disabled`` (``bot:win`` on a server without ``--win-bots``).
        """
        if isinstance(clock, bool) or not isinstance(clock, int) or (clock and not CLOCK_MIN <= clock <= CLOCK_MAX):
            raise ActError("bad_request", f"clock: 0 (off) or {CLOCK_MIN} to {CLOCK_MAX} seconds, not {clock!r}")
        out: dict[str, Any] = {}
        if wait:
            out["wait"] = True
        if clock:
            out["clock"] = clock
        if stand_in is not None or clock:
            try:
                kind = seat_kind(stand_in or STAND_IN)
                if not kind.startswith("bot"):
                    raise ValueError(f"stand_in must be a bot (bot:optimal, bot:greedy, ...), not {stand_in!r}")
                check_bot(kind, rules)
            except ValueError as exc:
                raise ActError("bad_request", str(exc)) from None
            if kind == "bot:win" and not self.svc.win_bots:
                raise ActError("seat_disabled", "bot:win is not offered on this server; choose bot:optimal")
            out["stand_in"] = kind
        return out

    # -- the waiting room ----------------------------------------------------------------------------
    async def changed(self, room: Room) -> None:
        """Tell everyone the waiting room changed (a claim, a contribution), while it matters."""
        if room.extra.get("wait") and room.seq == 0:
            await self.svc._emit(room, {"type": "table", "table": table_info(room)})

    async def start(self, code: str, seat: int | None) -> None:
        """The host starts a waiting room now, whoever is missing.

        Raises:
            ActError: ``not_host`` or ``started``.
        """
        svc = self.svc
        room = await svc.get_room(code)
        if seat is None or seat != host_of(room):
            raise ActError("not_host", "only the host (the room's first player) starts the game")
        async with room.lock:
            room = svc.rooms.get(room.code, room)
            if waiting_for(room) is None:
                raise ActError("started", "the game has started already")
            await self._write(room, lambda meta: {**meta, "started_by": "host"})
            room.extra["started_by"] = "host"
            await svc._emit(room, {"type": "table", "table": table_info(room)})
            await self.arm(room)
        svc.schedule_bots(room)

    # -- stand-ins -----------------------------------------------------------------------------------
    def turn(self, room: Room) -> BotTurn | None:
        """The bot to move now: a bot's seat, or an away player's stand-in; None while the room waits, a person
        (or the dice) is to act, or the game is over."""
        if waiting_for(room) is not None:
            return None
        if room.match.bot_to_move:
            return room.match.bot_turn()
        state = room.state
        if state.is_terminal or state.is_chance_node:
            return None
        seat = int(state.current_player)
        kind = room.away.get(seat)
        return None if kind is None else BotTurn(state, seat, make_bot(kind))

    async def back(self, code: str, seat: int | None) -> bool:
        """An away player is back: their stand-in stops (before its next step). Whether they were away.

        Raises:
            ActError: ``spectator``.
        """
        svc = self.svc
        if seat is None:
            raise ActError("spectator", "you are watching; only a seated player comes back")
        room = await svc.get_room(code)
        if seat not in room.away:
            return False
        async with room.lock:
            room = svc.rooms.get(room.code, room)
            if seat not in room.away:
                return False
            # Closed at the log's last event, read with the room's row locked: a stand-in's move the bots' owner
            # (maybe another process, which hears of this later) committed before counts as the stand-in's;
            # one it writes after is refused by the database, and it drops it (Service._commit).
            meta = await asyncio.to_thread(svc.store.record_back, room.id, seat)
            if meta is None:
                raise ActError("no_room", f"there is no room {room.code!r}")
            room.extra["stand_ins"] = meta.get("stand_ins", [])
            del room.away[seat]
            await svc._emit(room, {"type": "away", "seat": seat, "away": False})
            await self.arm(room)
        return True

    def came_back(self, room: Room, meta: dict[str, Any]) -> None:
        """The database refused a stand-in's move (its player is back, recorded by another process that this
        one has not heard from yet): take the room's stand-ins from its stored ``meta``, as the refusal read
        it, so the player, not the bot, acts next (the room's lock held)."""
        room.extra["stand_ins"] = meta.get("stand_ins", [])
        room.away = away_of(meta)
        self.arm_soon(room)

    async def _time_out(self, code: str, key: tuple[int, int]) -> None:
        svc = self.svc
        room = svc.rooms.get(code)
        if room is None or room.clock_key != key:
            return
        async with room.lock:
            room = svc.rooms.get(code, room)
            if room.clock_key != key or self._key(room) != key:
                return
            room.clock, room.clock_key, room.clock_task = None, None, None
            room = await self._hand_over(room, key[0], "clock")
            if room.clock is None:  # (a clock restarted after a catch-up has said so)
                await svc._emit(room, _clock_frame(room, None))
        svc.schedule_bots(room)

    async def _hand_over(self, room: Room, seat: int, why: str) -> Room:
        """Mark a seat away: the room's stand-in plays it from the next event on (the room's lock held). Returns
        the room (a fresh copy if it had to catch up with the log).

        The entry starts after the log's last event, read with the room's row locked: a move the player made in
        another process just before is theirs, one after is refused by the database (:meth:`Service.act` then
        records their ``back``). A turn clock's hand-over is for the turn this process saw: if the log moved on
        (the player acted elsewhere) nothing is handed over, and the room catches up and its clock restarts.
        """
        svc = self.svc
        kind = svc._playing(str(room.extra.get("stand_in") or STAND_IN))
        seen = room.seq if why == "clock" else None
        done = await asyncio.to_thread(svc.store.record_hand_over, room.id, seat, kind, why, seen)
        if done is None:
            raise ActError("no_room", f"there is no room {room.code!r}")
        meta, handed = done
        room.extra["stand_ins"] = meta.get("stand_ins", [])
        room.away = away_of(meta)
        if not handed and seat not in room.away:  # the log moved on: a player acted in another process
            if svc.on_conflict is not None:
                await svc.on_conflict(room)
            else:
                svc.reload(room.code)
            room = svc.rooms.get(room.code, room)
            await self.arm(room)
            return room
        await svc._emit(room, {"type": "away", "seat": seat, "away": True})
        if not svc.leader and svc.wake_leader is not None:  # the stand-in plays where the bots are driven
            svc.wake_leader(room)
        if room.clock_key is not None and room.clock_key[0] == seat:
            await self.arm(room)
        return room

    # -- the host hands an absent seat over ------------------------------------------------------------
    async def hand(self, code: str, host: int | None, seat: Any) -> None:
        """The host asks to hand an absent player's seat to the stand-in: at once when no other seated player
        is connected, else after their vote.

        Raises:
            ActError: ``not_host``, ``bad_message``, ``present``, ``away`` or ``game_over``.
        """
        svc = self.svc
        room = await svc.get_room(code)
        if host is None or host != host_of(room):
            raise ActError("not_host", "only the host (the room's first player) hands a seat over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise ActError("bad_message", "'hand' needs the 'seat' of a player")
        target = room.seats[seat]
        if target.is_bot or seat == host:
            raise ActError("bad_message", "the host hands over another player's seat, not a bot's or their own")
        if room.finished:
            raise ActError("game_over", "the game is over")
        if seat in room.away:
            raise ActError("away", f"{target.name}'s stand-in plays already")
        if room.present(seat) > 0:
            raise ActError("present", f"{target.name} is connected; only an absent player's seat is handed over")
        async with room.lock:
            room = svc.rooms.get(room.code, room)
            voters = [
                s.seat
                for s in room.seats
                if not s.is_bot and s.claimed and s.seat not in (host, seat) and room.present(s.seat) > 0
            ]
            if not voters:
                await self._hand_over(room, seat, "host")
            else:
                vote = {"seat": seat, "by": host, "voters": voters, "yes": [], "no": [], "needed": len(voters) // 2 + 1}
                vote["result"] = None
                await self._write(room, lambda m: {**m, "vote": vote})
                room.extra["vote"] = vote
                await svc._emit(room, {"type": "vote", **vote})
        svc.schedule_bots(room)

    async def vote(self, code: str, voter: int | None, seat: Any, yes: Any) -> None:
        """A connected seated player's vote on the host's hand-over of ``seat``; a majority decides.

        Raises:
            ActError: ``bad_message``, ``no_vote`` or ``not_voter``.
        """
        svc = self.svc
        if not isinstance(yes, bool):
            raise ActError("bad_message", "'vote' needs 'yes': true or false")
        room = await svc.get_room(code)
        async with room.lock:
            room = svc.rooms.get(room.code, room)

            def cast(meta: dict[str, Any]) -> dict[str, Any]:
                vote = meta.get("vote")
                if not isinstance(vote, dict) or vote.get("seat") != seat or vote.get("result") is not None:
                    raise ActError("no_vote", "there is no open vote on handing that seat over")
                if voter not in vote.get("voters", []):
                    raise ActError("not_voter", "this vote is for the other connected players")
                ayes = [s for s in vote["yes"] if s != voter] + ([voter] if yes else [])
                nays = [s for s in vote["no"] if s != voter] + ([] if yes else [voter])
                needed = int(vote["needed"])
                result = (
                    "handed" if len(ayes) >= needed else "refused" if len(nays) > len(vote["voters"]) - needed else None
                )
                return {**meta, "vote": {**vote, "yes": ayes, "no": nays, "result": result}}

            vote = (await self._write(room, cast))["vote"]
            room.extra["vote"] = vote
            result = vote["result"]
            await svc._emit(room, {"type": "vote", **vote})
            if result == "handed" and seat not in room.away and not room.finished:
                await self._hand_over(room, seat, "vote")
        svc.schedule_bots(room)

    # -- the clock ----------------------------------------------------------------------------------
    def _key(self, room: Room) -> tuple[int, int] | None:
        """(seat, turn) whose clock should run now, or None."""
        if not room.extra.get("clock") or room.status != "playing" or room.finished or waiting_for(room):
            return None
        if room.seq == 0 and not room.extra.get("wait"):
            return None  # no waiting room: the players may still be arriving; the clock starts with the game
        state = room.state
        if state.is_chance_node:
            return None
        seat = int(state.current_player)
        if room.seats[seat].is_bot or seat in room.away:
            return None
        return seat, int(getattr(state, "turn", room.seq))

    async def arm(self, room: Room) -> None:
        """Start, keep or stop the room's turn clock after a change (only the process that drives the bots
        runs clocks)."""
        if not self.svc.leader or not room.extra.get("clock"):
            return
        key = self._key(room)
        running = room.clock_task is not None and not room.clock_task.done()
        if key is not None and key == room.clock_key and running:
            return  # the same turn of the same seat: its deadline stands
        if room.clock_task is not None and room.clock_task is not asyncio.current_task():
            room.clock_task.cancel()
        room.clock_task, room.clock_key = None, key
        if key is None:
            if room.clock is not None:
                room.clock = None
                await self.svc._emit(room, _clock_frame(room, None))
            return
        seconds = int(room.extra["clock"])
        room.clock = {"seat": key[0], "seq": room.seq, "seconds": seconds, "deadline": time.time() + seconds}
        room.clock_task = asyncio.get_running_loop().create_task(self._run(room.code, key, seconds))
        await self.svc._emit(room, _clock_frame(room, room.clock))

    def arm_soon(self, room: Room) -> None:
        """:meth:`arm` from synchronous code (a task of its own)."""
        if self.svc.leader and room.extra.get("clock") and self._key(room) != room.clock_key:
            task = asyncio.get_running_loop().create_task(self.arm(room))
            self._spawned.add(task)
            task.add_done_callback(self._spawned.discard)

    async def _run(self, code: str, key: tuple[int, int], seconds: float) -> None:
        await asyncio.sleep(seconds)
        await self._time_out(code, key)

    # -- chat ---------------------------------------------------------------------------------------
    async def chat(self, code: str, seat: int | None, text: Any) -> dict[str, Any]:
        """A chat line from a seated player, stored with the room and sent to everyone.

        Raises:
            ActError: ``spectator``, ``bad_message``, ``too_long`` or ``rate_limited``.
        """
        svc = self.svc
        if seat is None:
            raise ActError("spectator", "spectators read the chat; take a seat to write")
        line = clean_chat(text)
        room = await svc.get_room(code)
        if not room.chat_pace.allow(seat):
            raise ActError("rate_limited", "chat lines come at most 5 at once and one every 2 seconds")
        async with room.lock:
            room = svc.rooms.get(room.code, room)
            entry = {"seat": seat, "name": room.seats[seat].name, "text": line, "at": datetime.now(UTC).isoformat()}

            def append(meta: dict[str, Any]) -> dict[str, Any]:
                n = int(meta.get("chat_n") or 0) + 1
                entry["n"] = n
                return {**meta, "chat": [*(meta.get("chat") or []), entry][-CHAT_KEEP:], "chat_n": n}

            meta = await self._write(room, append)
            room.extra["chat"], room.extra["chat_n"] = meta["chat"], meta["chat_n"]
            frame = {"type": "chat", **entry}
            await svc._emit(room, frame)
        return frame

    # -- what a joining page is told -------------------------------------------------------------------
    @staticmethod
    def welcome(room: Room) -> dict[str, Any]:
        """The clock and the last chat lines, for ``welcome``."""
        clock = _clock_frame(room, room.clock) if room.clock is not None else None
        if clock is not None:
            clock.pop("type")
        chat = room.extra.get("chat") or []
        return {"clock": clock, "chat": list(chat[-CHAT_WELCOME:])}

    async def _write(self, room: Room, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        meta = await asyncio.to_thread(self.svc.store.update_meta, room.id, change)
        if meta is None:
            raise ActError("no_room", f"there is no room {room.code!r}")
        return meta


def _clock_frame(room: Room, clock: dict[str, Any] | None) -> dict[str, Any]:
    seconds = int(room.extra.get("clock") or 0)
    if clock is None:
        return {"type": "clock", "seat": None, "seq": room.seq, "seconds": seconds, "left": None, "deadline": None}
    left = max(0.0, float(clock["deadline"]) - time.time())
    return {"type": "clock", **clock, "left": round(left, 1)}
