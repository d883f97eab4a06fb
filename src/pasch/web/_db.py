"""The web server's tables are pasch's one schema (:mod:`pasch.storage`): these are re-exports.

A room is a row of ``games`` with ``source`` ``web`` and its join ``code``; its game is the replay of its
``events`` rows in ``seq`` order. The unique constraint on ``(game_id, seq)`` makes two writers that race
for the same slot fail instead of both succeeding, so several server processes may share one database.
"""

from __future__ import annotations

from pasch.storage import (
    EventRow,
    GameRow,
    ResultRow,
    SeatRow,
    database_url,
    import_legacy_web,
    make_engine,
    migrate,
)

__all__ = [
    "EventRow",
    "GameRow",
    "ResultRow",
    "SeatRow",
    "default_url",
    "import_legacy_web",
    "make_engine",
    "migrate",
]


def default_url() -> str:
    """The server's default database: pasch's one SQLite file, shared with the terminal app."""
    return database_url()
