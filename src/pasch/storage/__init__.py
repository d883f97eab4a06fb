"""Saved games: SQLAlchemy 2 models, Alembic migrations and the :class:`Repository`.

One database holds the games of the terminal app and the rooms of the web server: ``games``, ``seats``,
``events`` (one per action, unique ``(game_id, seq)``) and ``results``. The default database is
``pasch.sqlite3`` in the user data directory (``$PASCH_DATA_DIR`` overrides it); the models are
dialect-neutral, so the web server can use PostgreSQL with the same migrations.
"""

from __future__ import annotations

from pasch.storage._migrate import HEAD, current_revision, downgrade, migrate
from pasch.storage._models import (
    ABANDONED,
    BROKEN,
    FINISHED,
    PLAYING,
    TERMINAL,
    UNFINISHED,
    WEB,
    Base,
    EventRow,
    GameRow,
    PlayerRow,
    ResultRow,
    SeatRow,
    new_uid,
)
from pasch.storage._repository import (
    BUSY_TIMEOUT_ENV,
    DATA_DIR_ENV,
    LEGACY_WEB_FILE,
    GameRecord,
    HighScore,
    PlayerRecord,
    PlayerStats,
    Repository,
    StorageError,
    busy_timeout,
    copy_games,
    data_dir,
    database_url,
    import_legacy_web,
    make_engine,
)
from pasch.storage._rooms import EVENTS_AFTER, PING, TRY_LOCK, RoomRecord, RoomStore, SeatRecord, handed, web_log
from pasch.storage._writer import CHANNEL, LISTEN, Append, ConflictError, EventWriter, StandInError

__all__ = [
    "ABANDONED",
    "BROKEN",
    "BUSY_TIMEOUT_ENV",
    "CHANNEL",
    "DATA_DIR_ENV",
    "EVENTS_AFTER",
    "FINISHED",
    "HEAD",
    "LEGACY_WEB_FILE",
    "LISTEN",
    "PING",
    "PLAYING",
    "TERMINAL",
    "TRY_LOCK",
    "UNFINISHED",
    "WEB",
    "Append",
    "Base",
    "ConflictError",
    "EventRow",
    "EventWriter",
    "GameRecord",
    "GameRow",
    "HighScore",
    "PlayerRecord",
    "PlayerRow",
    "PlayerStats",
    "Repository",
    "ResultRow",
    "RoomRecord",
    "RoomStore",
    "SeatRecord",
    "SeatRow",
    "StandInError",
    "StorageError",
    "busy_timeout",
    "copy_games",
    "current_revision",
    "data_dir",
    "database_url",
    "downgrade",
    "handed",
    "import_legacy_web",
    "make_engine",
    "migrate",
    "new_uid",
    "web_log",
]
