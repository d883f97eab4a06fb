"""Small rules of the table the service applies: the position an action was chosen on, and the lobby's rows.

An action may carry the position (``at``: the ``seq`` of the state the player saw) it was chosen on. A
double click, a key repeat or a second device of the same player sends the same action twice for one
position; the first one moves the game on, so the second names a position that is gone and is refused as
``stale`` instead of spending a second throw. Clients that send no position are served as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Protocol

__all__ = ["lobby_entry", "stale_message"]


def stale_message(seq: int, at: int | None, text: str) -> str | None:
    """Why an action chosen on position ``at`` is refused at position ``seq`` (None: it is not stale).

    Args:
        seq: the room's current position (events in its log).
        at: the position the client chose the action on; None: not checked (older clients).
        text: the action text, quoted in the message.
    """
    if at is None or at == seq:
        return None
    return f"{text[:40]!r} was chosen at move {at}, but the game is at move {seq} now; nothing was done"


class _SeatLike(Protocol):
    seat: int
    name: str
    kind: str
    claimed: bool


def lobby_entry(
    code: str, rules: str, keeper: bool, created: datetime, seats: Iterable[_SeatLike], now: datetime
) -> dict[str, Any]:
    """One row of the lobby: the room, who sits there, how many human seats are free, and its age.

    Args:
        code: the room's join code.
        rules: its rule-set id.
        keeper: whether it is a score-keeper room.
        created: when it was created (aware).
        seats: its seats in order.
        now: the time the lobby is read (aware).
    """
    taken = [s for s in seats if s.claimed or s.kind != "human"]
    free = sum(1 for s in seats if not s.claimed and s.kind == "human")
    return {
        "code": code,
        "rules": rules,
        "keeper": keeper,
        "players": [s.name for s in taken],
        "free": free,
        "age": max(0, int((now - created).total_seconds())),
    }
