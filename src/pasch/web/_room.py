"""A room as the server caches it: its seats, its game (a :class:`pasch.app.Match`), its options and what
only memory holds (connections per seat, the turn clock, other processes' presence); and its tokens."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pasch.app import Match
from pasch.engine import GameLog, State
from pasch.storage import web_log
from pasch.web._fair import DICE_V1
from pasch.web._manners import ChatPace, presence_expired, table_info
from pasch.web._view import ViewCache, rules_info

__all__ = ["Room", "Seat", "hash_token", "rotate_tokens"]


def rotate_tokens(seats: list[Seat]) -> dict[int, str]:
    """New secret tokens for the claimed human seats of a room (a rematch): by seat.

    A rematch calls this so that a token never follows a seat from room to room: each seat's page receives
    its new token (the rematch message, or the answer of its own rematch request), and a token that leaked
    from an old game's page acts nowhere else.
    """
    return {s.seat: secrets.token_urlsafe(24) for s in seats if s.claimed and not s.is_bot and s.token_hash}


def hash_token(token: str) -> str:
    """SHA-256 of a seat token (only the hash is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Seat:
    """A seat of a cached room."""

    seat: int
    name: str
    kind: str
    token_hash: str | None
    claimed: bool

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.kind.startswith("bot")


@dataclass(slots=True)
class Room:
    """A room cached in memory; everything in it can be rebuilt from the database."""

    id: int
    code: str
    rules: str
    keeper: bool
    hints: bool
    seed: str
    commitment: str
    seats: list[Seat]
    match: Match
    """The game in progress: state, log and the room's committed dice stream (:mod:`pasch.app`)."""
    status: str = "playing"
    dice_version: str = DICE_V1
    """How the throws follow from the seed (:mod:`pasch.web._fair`); rooms created now use version 2."""
    contributions: list[str | None] = field(default_factory=list)
    """Per seat, the seed contribution its page sent before the first throw (version 2), else None; the
    room's dice stream reads this very list."""
    rematch_of: str | None = None
    rematch_code: str | None = None
    private: bool = False
    """Not listed in the lobby: joined by its link only."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The rest of the room's stored ``meta``: the table's options, the stand-ins of away players, the chat."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    online: dict[int, int] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    views: ViewCache = field(default_factory=ViewCache)
    watchers: int = 0
    """Open websocket connections to the room (players and spectators)."""
    last_active: datetime = field(default_factory=lambda: datetime.now(UTC))
    """The last action, connection or disconnection (from the log when loaded)."""
    away: dict[int, str] = field(default_factory=dict)
    """Seats whose turn clock ran out, with the bot that plays for each until its player is back."""
    clock: dict[str, Any] | None = None
    """The running turn clock's frame (``seat``, ``seq``, ``seconds``, ``deadline``), None when none runs."""
    clock_task: asyncio.Task[None] | None = None
    clock_key: tuple[int, int] | None = None
    """(seat, turn) the clock runs for: the same turn of the same seat keeps its deadline."""
    remote: dict[str, tuple[float, dict[int, int], int]] = field(default_factory=dict)
    """Other processes' presence counts: process -> (time received, connections per seat, spectators)."""
    unannounced: bool = False
    """A commit of this process was not announced to the others (none served the room) since a process new to
    the room was last told its ``seq`` (:meth:`pasch.web._relay.Relay.nudge`)."""
    chat_pace: ChatPace = field(default_factory=ChatPace)

    def carry(self, old: Room) -> None:
        """Take over what only memory holds from the room this one replaces (a reload from the log)."""
        self.online, self.lock, self.bot_task, self.watchers = old.online, old.lock, old.bot_task, old.watchers
        self.clock, self.clock_task, self.clock_key = old.clock, old.clock_task, old.clock_key
        self.remote, self.chat_pace, self.unannounced = old.remote, old.chat_pace, old.unannounced

    def present(self, seat: int) -> int:
        """Connections that hold a seat, in every process (other processes' counts expire)."""
        now = time.monotonic()
        return self.online.get(seat, 0) + sum(
            counts.get(seat, 0) for at, counts, _ in self.remote.values() if not presence_expired(at, now)
        )

    @property
    def state(self) -> State:
        """The game's current state."""
        return self.match.state

    @property
    def seq(self) -> int:
        """The number of events in the room's log."""
        return len(self.match.actions)

    @property
    def actions(self) -> list[str]:
        """The room's events (actions and throws), in order."""
        return self.match.actions

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return bool(self.state.is_terminal)

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (constant-time comparison), or None."""
        if not token:
            return None
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def info(self) -> dict[str, Any]:
        """The room's public description (no secrets; the seed only once the game is over)."""
        rules = self.state.rules
        return {
            "code": self.code,
            "rules": rules_info(rules),
            "keeper": self.keeper,
            "hints": self.hints,
            "private": self.private,
            "status": self.status,
            "commitment": self.commitment or None,
            "seed": self.seed if self.finished and self.seed else None,
            "dice": self.dice_version if self.seed else None,
            "contributions": list(self.contributions),
            "rematch_of": self.rematch_of,
            "rematch_code": self.rematch_code,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "claimed": s.claimed or s.is_bot,
                    "online": self.present(s.seat) > 0 or s.is_bot,
                    "away": s.seat in self.away,
                }
                for s in self.seats
            ],
            "table": table_info(self),
            "undo_floor": int(self.extra.get("undo_floor") or 0) if self.keeper else None,
        }

    def log(self) -> GameLog:
        """The game log; its meta holds the commitment, and the seed once the game is over."""
        return web_log(
            code=self.code,
            rules=self.rules,
            players=[s.name for s in self.seats],
            kinds=[s.kind for s in self.seats],  # verify: a bot's seat contributes nothing
            actions=self.actions,
            keeper=self.keeper,
            commitment=self.commitment,
            seed=self.seed,
            finished=self.finished,
            meta={"dice": self.dice_version, "contributions": self.contributions, **self.extra},
        )
