"""SQLAlchemy 2 models of pasch's one database: games, seats, events (one per row) and results.

The terminal app and the web server write the same tables; ``games.source`` says which one played a game.
A game is the replay of its ``events`` in ``seq`` order; the unique ``(game_id, seq)`` constraint makes two
writers that race for the same slot fail instead of both succeeding (several server processes may share one
database). The models are dialect-neutral (SQLite by default, PostgreSQL tested). Constraint names follow a
fixed convention so that migrations name them identically on every backend.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "ABANDONED",
    "BROKEN",
    "FINISHED",
    "PLAYING",
    "SOURCES",
    "TERMINAL",
    "UNFINISHED",
    "WEB",
    "Base",
    "EventRow",
    "GameRow",
    "PlayerRow",
    "ResultRow",
    "SeatRow",
    "new_uid",
    "utcnow",
]

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

TERMINAL = "terminal"
"""``games.source`` of a game played in the terminal app (or saved through :class:`Repository`)."""
WEB = "web"
"""``games.source`` of a room of the web server."""
SOURCES = (TERMINAL, WEB)

FINISHED = "finished"
"""Played to the end (both sources)."""
UNFINISHED = "unfinished"
"""A terminal game saved before its end; ``pasch play --resume`` continues it."""
PLAYING = "playing"
"""A web room whose game is not over; the server resumes it at start and lists it in the lobby."""
ABANDONED = "abandoned"
"""A web room nobody played for a long time; it refuses actions (the log stays)."""
BROKEN = "broken"
"""A web room whose log no longer replays (a damaged row, a rule change): left out at start, its log kept for
``pasch verify`` and ``pasch replay`` to say what is wrong."""


def utcnow() -> datetime:
    """The current time in UTC (timezone-aware)."""
    return datetime.now(UTC)


def new_uid() -> str:
    """A fresh game uid (32 hex digits)."""
    return uuid.uuid4().hex


class Base(DeclarativeBase):
    """Declarative base with pasch's constraint naming convention."""

    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """One game: rule set, where it was played, its status, the web room's options and dice commitment.

    Terminal games have no ``code`` (join code) and no seed; web rooms have both (keeper rooms no seed).
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True, default=new_uid)
    code: Mapped[str | None] = mapped_column(String(16), unique=True, nullable=True)
    source: Mapped[str] = mapped_column(String(16), index=True, default=TERMINAL)
    rules: Mapped[str] = mapped_column(String(200), index=True)
    keeper: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True, default=UNFINISHED)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[str] = mapped_column(String(64), default="")
    commitment: Mapped[str] = mapped_column(String(64), default="")
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    engine: Mapped[str] = mapped_column(String(32), default="")
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True, order_by="SeatRow.seat"
    )
    events: Mapped[list[EventRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True, order_by="EventRow.seq"
    )
    results: Mapped[list[ResultRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True, order_by="ResultRow.seat"
    )


class SeatRow(Base):
    """A seat of a game: its player's name, kind (``human`` or ``bot:NAME``) and, on the web, token hash."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100), index=True)
    kind: Mapped[str] = mapped_column(String(40), default="human")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    game: Mapped[GameRow] = relationship(back_populates="seats")


PlayerRow = SeatRow
"""The seats table's model under its name before the unified schema."""


class EventRow(Base):
    """One action of a game, in order; throws are events too (seat None: the dice, not a player)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    game: Mapped[GameRow] = relationship(back_populates="events")


class ResultRow(Base):
    """The total of each seat: final with rank and winner once the game is over.

    The terminal app keeps the totals so far of its unfinished games here too (rank None); the web server
    writes the rows when a room's game ends.
    """

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100), index=True)
    total: Mapped[int] = mapped_column(Integer, default=0)
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[bool] = mapped_column(Boolean, default=False)
    game: Mapped[GameRow] = relationship(back_populates="results")
