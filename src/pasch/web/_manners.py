"""The table's manners (docs/protocol.md, *The table's manners*): the waiting room, the turn clock's stand-ins,
the chat's text and pace, and who is present across processes. Small rules on a room; the service applies
them, the hub sends what they say."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pasch.errors import PaschError
from pasch.storage import open_stand_ins

if TYPE_CHECKING:
    from pasch.web._room import Room

__all__ = [
    "CHAT_BURST",
    "CHAT_KEEP",
    "CHAT_MAX",
    "CHAT_RATE",
    "CHAT_WELCOME",
    "CLOCK_MAX",
    "CLOCK_MIN",
    "PRESENCE_TTL",
    "STAND_IN",
    "ActError",
    "ChatPace",
    "away_of",
    "clean_chat",
    "host_of",
    "played_by",
    "presence_expired",
    "table_info",
    "waiting_for",
]

CLOCK_MIN = 15
"""The shortest turn clock (seconds) a room may have; 0 is off."""
CLOCK_MAX = 3600
STAND_IN = "bot:optimal"
"""The bot that plays for an away player unless the room names another."""
CHAT_MAX = 300
"""Characters of a chat line at most (after its whitespace is collapsed)."""
CHAT_BURST = 5.0
CHAT_RATE = 0.5
"""Chat lines a second per seat on average, in bursts of :data:`CHAT_BURST`."""
CHAT_KEEP = 200
"""Chat lines stored with a room (the oldest go)."""
CHAT_WELCOME = 50
"""Chat lines a joining page receives."""
PRESENCE_TTL = 15.0
"""Seconds after which another process's presence counts, not repeated, no longer count (it died)."""


def presence_expired(at: float, now: float | None = None) -> bool:
    """Whether presence counts received at ``at`` (``time.monotonic()``) no longer count: not repeated within
    :data:`PRESENCE_TTL` seconds of ``now`` (default: the present moment)."""
    return at < (time.monotonic() if now is None else now) - PRESENCE_TTL


class ActError(PaschError):
    """An action or request the server refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def host_of(room: Room) -> int | None:
    """The room's host: its first human seat (the creator's), None when every seat is a bot."""
    return next((s.seat for s in room.seats if not s.is_bot), None)


def _names(room: Room, seats: Sequence[int]) -> str:
    names = [room.seats[s].name for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unclaimed(room: Room) -> list[int]:
    return [s.seat for s in room.seats if not s.is_bot and not s.claimed]


def _missing(room: Room) -> list[int]:
    if not room.seed or room.dice_version != "pasch-dice-v2":
        return []
    return [s.seat for s in room.seats if not s.is_bot and s.claimed and room.contributions[s.seat] is None]


def waiting_for(room: Room) -> str | None:
    """Why a waiting room's first action must wait (who has not taken their seat, whose dice contribution is
    not in), or None: the room has no waiting room, has started, or everyone is there."""
    if not room.extra.get("wait") or room.seq > 0 or room.extra.get("started_by") == "host":
        return None
    unclaimed = _unclaimed(room)
    if unclaimed:
        return f"waiting for {_names(room, unclaimed)} to take {'their seat' if len(unclaimed) == 1 else 'seats'}"
    missing = _missing(room)
    if missing:
        return f"waiting for {_names(room, missing)}'s dice contribution{'s' if len(missing) > 1 else ''}"
    return None


def table_info(room: Room) -> dict[str, Any]:
    """``room.table``: the waiting room's phase and who is missing, the clock and the stand-in."""
    wait = bool(room.extra.get("wait"))
    waiting = waiting_for(room) is not None
    started_by = room.extra.get("started_by") if room.extra.get("started_by") == "host" else None
    if wait and not waiting and started_by is None:
        started_by = "table"
    return {
        "wait": wait,
        "phase": "waiting" if waiting else "playing",
        "host": host_of(room),
        "unclaimed": _unclaimed(room),
        "missing": _missing(room),
        "started_by": started_by if wait else None,
        "clock": int(room.extra.get("clock") or 0),
        "stand_in": str(room.extra.get("stand_in") or STAND_IN),
    }


def clean_chat(text: Any) -> str:
    """A chat line as it is stored and sent: runs of whitespace and control characters collapsed to one space,
    trimmed; plain text (nothing is interpreted).

    Raises:
        ActError: ``bad_message`` (not text, or empty) or ``too_long``.
    """
    if not isinstance(text, str):
        raise ActError("bad_message", "'chat' needs a 'text'")
    spaced = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)
    line = " ".join(spaced.split())
    if not line:
        raise ActError("bad_message", "an empty chat line is not sent")
    if len(line) > CHAT_MAX:
        raise ActError("too_long", f"a chat line is at most {CHAT_MAX} characters (this one has {len(line)})")
    return line


class ChatPace:
    """Token buckets of chat lines per seat (:data:`CHAT_RATE`, :data:`CHAT_BURST`)."""

    def __init__(self) -> None:
        self._buckets: dict[int, tuple[float, float]] = {}

    def allow(self, seat: int) -> bool:
        """Whether the seat may send a line now (and count it)."""
        now = time.monotonic()
        tokens, stamp = self._buckets.get(seat, (CHAT_BURST, now))
        tokens = min(CHAT_BURST, tokens + (now - stamp) * CHAT_RATE)
        if tokens < 1.0:
            self._buckets[seat] = (tokens, now)
            return False
        self._buckets[seat] = (tokens - 1.0, now)
        return True


def away_of(meta: Mapping[str, Any]) -> dict[int, str]:
    """The seats a room's stored ``meta`` hands to a stand-in now (its open ``stand_ins`` entries: ``to`` is
    null), each with the stand-in's kind. The writer logs a stand-in's move only for these seats."""
    return {s["seat"]: str(s.get("bot") or STAND_IN) for s in open_stand_ins(meta)}


def played_by(stand_ins: Sequence[Mapping[str, Any]], seat: int, seq: int) -> str | None:
    """The stand-in bot that played the event ``seq`` of ``seat`` (None: the seat's own player)."""
    for entry in stand_ins:
        if entry.get("seat") != seat:
            continue
        start, end = entry.get("from"), entry.get("to")
        if isinstance(start, int) and start <= seq and (end is None or (isinstance(end, int) and seq <= end)):
            bot = entry.get("bot")
            return str(bot) if bot else None
    return None
