"""The web server's tables (rooms, seats, events, results) and their Alembic migrations.

The event log is the truth: a room's game is the replay of its ``web_events`` rows in ``seq`` order. The
unique constraint on ``(room_id, seq)`` makes two writers that race for the same slot fail instead of both
succeeding, so several server processes may later share one database.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "MIGRATIONS",
    "VERSION_TABLE",
    "EventRow",
    "ResultRow",
    "RoomRow",
    "SeatRow",
    "WebBase",
    "default_url",
    "make_engine",
    "migrate",
]

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "pasch_web_alembic_version"
"""The web tables have their own Alembic history, apart from the terminal app's."""
DB_FILE = "pasch-web.sqlite3"


def _now() -> datetime:
    return datetime.now(UTC)


class WebBase(DeclarativeBase):
    """Declarative base of the web tables."""


class RoomRow(WebBase):
    """A room: one game with its rule set, options and dice seed."""

    __tablename__ = "web_rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    rules: Mapped[str] = mapped_column(String(200))
    keeper: Mapped[bool] = mapped_column(Boolean, default=False)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    seed: Mapped[str] = mapped_column(String(64), default="")
    commitment: Mapped[str] = mapped_column(String(64), default="")
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SeatRow(WebBase):
    """A seat of a room: its player's name, kind (``human`` or ``bot:NAME``) and token hash."""

    __tablename__ = "web_seats"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_web_seats_room_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("web_rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(20), default="human")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)


class EventRow(WebBase):
    """One action of a room's game, in order; throws are events too (the server's dice)."""

    __tablename__ = "web_events"
    __table_args__ = (UniqueConstraint("room_id", "seq", name="uq_web_events_room_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("web_rooms.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ResultRow(WebBase):
    """The final total and rank of each seat of a finished room."""

    __tablename__ = "web_results"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_web_results_room_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("web_rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    total: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)


def default_url() -> str:
    """The SQLite file ``pasch-web.sqlite3`` in pasch's data directory (``$PASCH_DATA_DIR`` overrides it)."""
    from pasch.storage import data_dir

    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / DB_FILE}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys.

    Raises:
        sqlalchemy.exc.ArgumentError: the URL is not a SQLAlchemy URL.
    """
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit has reached the OS before it returns, so it survives SIGKILL of the
            # server (tested); only a power loss may drop the last commits. FULL would fsync every action.
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the web tables of ``engine``'s database to ``revision`` (default: the newest)."""
    from alembic import command
    from alembic.config import Config

    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def downgrade(engine: Engine, revision: str = "base") -> None:
    """Take the web tables back to ``revision`` (``base``: none)."""
    from alembic import command
    from alembic.config import Config

    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
