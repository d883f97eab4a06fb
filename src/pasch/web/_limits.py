"""Resource bounds of the web server: what one client address may create and open, and the lobby's order.

Every limit is an option of ``pasch serve`` (docs/protocol.md, *Limits*); 0 switches one off. Counters live
in memory, per process, keyed by the client's address as the server sees it (behind a reverse proxy on the
same host, uvicorn takes it from ``X-Forwarded-For``). They are bounded themselves: an address's entry goes
when it holds nothing.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Limiter", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's resource bounds (0: no limit).

    Attributes:
        rooms_per_minute: rooms one address may create in any 60 seconds (beyond: HTTP 429, ``Retry-After``).
        open_rooms: unfinished rooms created by one address at once (beyond: HTTP 429).
        conns_per_room: websocket connections to one room (players and spectators).
        conns_per_address: websocket connections from one address, all rooms together.
        unplayed_minutes: minutes after which a room nobody played in (no action recorded) and nobody is
            connected to is abandoned.
        lobby_size: rows of the lobby.
        table_memory_mb: memory budget of the solver tables kept in memory (MB).
        table_disk_mb: bound of the solver's table cache on disk (MB; least recently used first; 0: none).
        misses_per_minute: look-ups of room codes that name no room, per address and minute (beyond: 429);
            a private room's code is its only secret, so guessing codes must be slow.
        message_rate: websocket messages a second one connection may send on average (beyond: ``rate_limited``
            error frames) ...
        message_burst: ... with bursts of this many.
    """

    rooms_per_minute: int = 10
    open_rooms: int = 20
    conns_per_room: int = 32
    conns_per_address: int = 16
    unplayed_minutes: float = 15.0
    lobby_size: int = 50
    table_memory_mb: int = 64
    table_disk_mb: int = 4096
    misses_per_minute: int = 30
    message_rate: float = 20.0
    message_burst: float = 40.0

    @classmethod
    def off(cls) -> Limits:
        """No limit at all (tests and trusted single-user setups); unplayed rooms still expire."""
        return cls(
            rooms_per_minute=0,
            open_rooms=0,
            conns_per_room=0,
            conns_per_address=0,
            table_memory_mb=0,
            misses_per_minute=0,
        )


class LimitError(Exception):
    """A request over a limit: ``code`` for the protocol, ``retry_after`` seconds (HTTP ``Retry-After``)."""

    def __init__(self, code: str, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


class Limiter:
    """The counters behind :class:`Limits`.

    Args:
        limits: the bounds.
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._created: dict[str, deque[float]] = {}
        self._rooms: dict[str, set[str]] = {}
        self._pending: dict[str, int] = {}
        self.creator: dict[str, str] = {}
        """Room code -> the address that created it (rooms created since this process started)."""
        self._per_room: dict[str, int] = {}
        self._per_address: dict[str, int] = {}
        self._misses: dict[str, deque[float]] = {}
        self.refused = 0
        """Requests refused so far (all limits together)."""

    # -- looking rooms up -----------------------------------------------------------------------------
    def check_lookup(self, address: str) -> None:
        """Whether ``address`` may look a room code up now (it named too many codes of no room lately).

        Raises:
            LimitError: ``misses_per_minute`` misses within the last minute.
        """
        limit = self.limits.misses_per_minute
        stamps = self._misses.get(address)
        if limit <= 0 or stamps is None:
            return
        now = self.clock()
        while stamps and now - stamps[0] >= 60.0:
            stamps.popleft()
        if not stamps:
            del self._misses[address]
        elif len(stamps) >= limit:
            self.refused += 1
            wait = max(1, math.ceil(60.0 - (now - stamps[0])))
            raise LimitError(
                "rate_limited", f"too many unknown room codes from this address; try again in {wait} s", wait
            )

    def missed(self, address: str) -> None:
        """A look-up of ``address`` named no room."""
        if self.limits.misses_per_minute > 0:
            if len(self._misses) > 100_000:  # bounded: the oldest addresses' counts go
                self._misses.pop(next(iter(self._misses)))
            self._misses.setdefault(address, deque()).append(self.clock())

    # -- room creation ------------------------------------------------------------------------------
    def check_create(self, address: str, is_open: Callable[[str], bool], *, reserve: bool = True) -> None:
        """Whether ``address`` may create a room now; if so the attempt is counted at once (so that concurrent
        requests cannot all pass the check before any is recorded): call :meth:`created` once the room exists,
        or :meth:`failed` if it was not made.

        Args:
            address: the client's address.
            is_open: whether a room (by code) is still unfinished.
            reserve: count the attempt (False: only look, for an early refusal).

        Raises:
            LimitError: over the creation rate or the open-room limit.
        """
        lim = self.limits
        now = self.clock()
        if lim.rooms_per_minute > 0:
            stamps = self._created.get(address)
            if stamps is not None:
                while stamps and now - stamps[0] >= 60.0:
                    stamps.popleft()
                if not stamps:
                    del self._created[address]
                elif len(stamps) >= lim.rooms_per_minute:
                    self.refused += 1
                    wait = max(1, math.ceil(60.0 - (now - stamps[0])))
                    raise LimitError(
                        "rate_limited",
                        f"at most {lim.rooms_per_minute} new rooms a minute from one address; try again in {wait} s",
                        wait,
                    )
        if lim.open_rooms > 0:
            codes = self._rooms.get(address, set())
            for code in [c for c in codes if not is_open(c)]:
                codes.discard(code)
                self.creator.pop(code, None)
            if not codes:
                self._rooms.pop(address, None)
            held = len(codes) + self._pending.get(address, 0)
            if held >= lim.open_rooms:
                self.refused += 1
                raise LimitError(
                    "too_many_rooms",
                    f"{held} unfinished rooms were created from this address (at most {lim.open_rooms}); "
                    "finish or leave one first",
                    60,
                )
        if not reserve:
            return
        if lim.rooms_per_minute > 0:
            self._created.setdefault(address, deque()).append(now)
        self._pending[address] = self._pending.get(address, 0) + 1

    def created(self, address: str, code: str) -> None:
        """The room an attempt admitted by :meth:`check_create` made."""
        self._release(address)
        self._rooms.setdefault(address, set()).add(code)
        self.creator[code] = address

    def failed(self, address: str) -> None:
        """An attempt admitted by :meth:`check_create` made no room (it still counts for the rate)."""
        self._release(address)

    def _release(self, address: str) -> None:
        left = self._pending.get(address, 0) - 1
        if left > 0:
            self._pending[address] = left
        else:
            self._pending.pop(address, None)

    def forget(self, codes: Iterable[str]) -> None:
        """Rooms that are over (finished, abandoned): they no longer count for anyone."""
        for code in codes:
            address = self.creator.pop(code, None)
            if address is None:
                continue
            held = self._rooms.get(address)
            if held is not None:
                held.discard(code)
                if not held:
                    del self._rooms[address]

    # -- connections ----------------------------------------------------------------------------------
    def connect(self, address: str, code: str) -> None:
        """Count a websocket connection (call :meth:`disconnect` when it ends).

        Raises:
            LimitError: the room or the address holds as many connections as allowed.
        """
        lim = self.limits
        if lim.conns_per_room > 0 and self._per_room.get(code, 0) >= lim.conns_per_room:
            self.refused += 1
            raise LimitError("too_many_connections", f"room {code} has {lim.conns_per_room} connections already", 30)
        if lim.conns_per_address > 0 and self._per_address.get(address, 0) >= lim.conns_per_address:
            self.refused += 1
            raise LimitError(
                "too_many_connections", f"at most {lim.conns_per_address} connections from one address", 30
            )
        self._per_room[code] = self._per_room.get(code, 0) + 1
        self._per_address[address] = self._per_address.get(address, 0) + 1

    def disconnect(self, address: str, code: str) -> None:
        """A connection counted by :meth:`connect` ended."""
        for table, key in ((self._per_room, code), (self._per_address, address)):
            left = table.get(key, 0) - 1
            if left > 0:
                table[key] = left
            else:
                table.pop(key, None)

    def connections(self) -> int:
        """Open websocket connections counted now."""
        return sum(self._per_room.values())

    # -- the lobby ------------------------------------------------------------------------------------
    def rank_lobby(self, rows: list[dict[str, Any]], present: set[str]) -> list[dict[str, Any]]:
        """The lobby's rows: rooms with someone connected first, then the rest newest first, one row per
        creating address (a client's many rooms take one row), at most ``lobby_size``.

        Args:
            rows: open rooms, newest first (``code`` in each).
            present: codes of rooms someone is connected to now.
        """
        seen: set[str] = set()
        out: list[dict[str, Any]] = []
        for row in sorted(rows, key=lambda r: r["code"] not in present):  # stable: newest first within each
            creator = self.creator.get(row["code"])
            if creator is not None:
                if creator in seen:
                    continue
                seen.add(creator)
            out.append(row)
        size = self.limits.lobby_size
        return out[:size] if size > 0 else out
