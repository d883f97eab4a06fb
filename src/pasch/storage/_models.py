"""SQLAlchemy 2 models of saved games. Dialect-neutral (SQLite here, PostgreSQL for the web server).

Constraint names follow a fixed convention so that migrations name them identically on every backend.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = ["Base", "GameRow", "PlayerRow", "utcnow"]

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time in UTC, without tzinfo (stored as naive UTC on every backend)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base with pasch's constraint naming convention."""

    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """One game: its rule set, its log (JSON text, replayable) and its status."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    rules: Mapped[str] = mapped_column(String(200), index=True)
    mode: Mapped[str] = mapped_column(String(16), default="play")
    status: Mapped[str] = mapped_column(String(16), index=True, default="unfinished")
    log: Mapped[str] = mapped_column(Text)
    actions: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    players: Mapped[list[PlayerRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="PlayerRow.seat"
    )


class PlayerRow(Base):
    """A seat of a game: name, kind (``human`` or ``bot:NAME``) and the result."""

    __tablename__ = "game_players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100), index=True)
    kind: Mapped[str] = mapped_column(String(40), default="human")
    total: Mapped[int] = mapped_column(Integer, default=0)
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[bool] = mapped_column(Boolean, default=False)
    game: Mapped[GameRow] = relationship(back_populates="players")
