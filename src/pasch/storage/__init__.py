"""Saved games: SQLAlchemy 2 models, Alembic migrations and the :class:`Repository`.

The default database is ``pasch.sqlite3`` in the user data directory (``$PASCH_DATA_DIR`` overrides it);
the models are dialect-neutral so the web server can use PostgreSQL with the same migrations.
"""

from __future__ import annotations

from pasch.storage._migrate import HEAD, current_revision, downgrade, migrate
from pasch.storage._models import Base, GameRow, PlayerRow
from pasch.storage._repository import (
    DATA_DIR_ENV,
    FINISHED,
    UNFINISHED,
    GameRecord,
    HighScore,
    PlayerRecord,
    PlayerStats,
    Repository,
    StorageError,
    data_dir,
    database_url,
)

__all__ = [
    "DATA_DIR_ENV",
    "FINISHED",
    "HEAD",
    "UNFINISHED",
    "Base",
    "GameRecord",
    "GameRow",
    "HighScore",
    "PlayerRecord",
    "PlayerRow",
    "PlayerStats",
    "Repository",
    "StorageError",
    "current_revision",
    "data_dir",
    "database_url",
    "downgrade",
    "migrate",
]
