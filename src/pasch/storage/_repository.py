"""The repository of saved games: save and load logs, list games, high scores and averages."""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, case, create_engine, event, func, select
from sqlalchemy.orm import Session, selectinload

from pasch.engine import GameLog, replay
from pasch.errors import PaschError
from pasch.storage._migrate import migrate
from pasch.storage._models import GameRow, PlayerRow, utcnow

__all__ = [
    "DATA_DIR_ENV",
    "GameRecord",
    "HighScore",
    "PlayerRecord",
    "PlayerStats",
    "Repository",
    "StorageError",
    "data_dir",
    "database_url",
]

DATA_DIR_ENV = "PASCH_DATA_DIR"
"""Environment variable that overrides the user data directory (tests, portable installs)."""
DB_FILE = "pasch.sqlite3"
FINISHED = "finished"
UNFINISHED = "unfinished"


class StorageError(PaschError):
    """A saved game that does not exist or cannot be read."""


def data_dir(override: str | Path | None = None) -> Path:
    """The directory of pasch's database: ``override``, else ``$PASCH_DATA_DIR``, else the user data dir."""
    if override is not None:
        return Path(override)
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("pasch", appauthor=False))


def database_url(directory: str | Path | None = None) -> str:
    """The SQLAlchemy URL of the SQLite file in :func:`data_dir` (the directory is created)."""
    d = data_dir(directory)
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / DB_FILE}"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A seat of a saved game."""

    seat: int
    name: str
    kind: str
    total: int
    rank: int | None
    winner: bool


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A saved game: its log (replay it for the state) and its result so far."""

    id: int
    uid: str
    rules: str
    mode: str
    status: str
    log: GameLog
    players: tuple[PlayerRecord, ...]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        """Whether the game was played to the end."""
        return self.status == FINISHED

    @property
    def winners(self) -> tuple[str, ...]:
        """Names of the winners (empty while unfinished)."""
        return tuple(p.name for p in self.players if p.winner)

    def player_kinds(self) -> tuple[str, ...]:
        """``human`` or ``bot:NAME`` for every seat."""
        return tuple(p.kind for p in self.players)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Finished games of one player under one rule set."""

    rules: str
    name: str
    games: int
    wins: int
    best: int
    average: float


@dataclass(frozen=True, slots=True)
class HighScore:
    """One high-score row."""

    rules: str
    name: str
    total: int
    game_id: int
    finished_at: datetime | None


def _record(row: GameRow) -> GameRecord:
    return GameRecord(
        id=row.id,
        uid=row.uid,
        rules=row.rules,
        mode=row.mode,
        status=row.status,
        log=GameLog.from_json(row.log),
        players=tuple(PlayerRecord(p.seat, p.name, p.kind, p.total, p.rank, p.winner) for p in row.players),
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


def _sqlite_foreign_keys(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class Repository:
    """Saved games in a SQL database (SQLite by default; any SQLAlchemy URL works).

    Opening migrates the schema to the newest revision.
    """

    def __init__(self, url: str | None = None, *, directory: str | Path | None = None, engine: Engine | None = None):
        """Open (and migrate) the database.

        Args:
            url: a SQLAlchemy URL; default the SQLite file in :func:`data_dir`.
            directory: the data directory for the default SQLite file (overrides ``$PASCH_DATA_DIR``).
            engine: an engine to use instead of ``url``.
        """
        if engine is None:
            engine = create_engine(url or database_url(directory))
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_foreign_keys)
        self.engine = engine
        migrate(engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> Repository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------
    def save(
        self,
        log: GameLog,
        kinds: Sequence[str] | None = None,
        game_id: int | None = None,
        state: Any = None,
    ) -> int:
        """Insert a game or update it (by ``game_id``) with its log so far; returns the game's id.

        The status, totals, ranks and winners are computed from the log (or from ``state``, its final
        state, when the caller has it).

        Raises:
            StorageError: ``game_id`` does not exist.
            LogError: the log does not replay.
        """
        if state is None:
            state = replay(log)
        finished = bool(state.is_terminal)
        outcome = state.outcome()
        seats = list(kinds) if kinds is not None else ["human"] * len(log.players)
        now = utcnow()
        with Session(self.engine) as session, session.begin():
            if game_id is None:
                row = GameRow(uid=uuid.uuid4().hex, created_at=now)
                session.add(row)
            else:
                got = session.get(GameRow, game_id, options=[selectinload(GameRow.players)])
                if got is None:
                    raise StorageError(f"no saved game with id {game_id}")
                row = got
            row.rules = log.rules
            row.mode = "keeper" if log.keeper else "play"
            row.status = FINISHED if finished else UNFINISHED
            row.log = log.to_json(indent=None)
            row.actions = len(log.actions)
            row.updated_at = now
            row.finished_at = now if finished else None
            by_seat = {p.seat: p for p in row.players}
            for seat, name in enumerate(log.players):
                p = by_seat.get(seat)
                if p is None:
                    p = PlayerRow(seat=seat)
                    row.players.append(p)
                p.name = name
                p.kind = seats[seat] if seat < len(seats) else "human"
                p.total = int(outcome.totals[seat])
                p.rank = int(outcome.ranks[seat]) if finished else None
                p.winner = finished and outcome.ranks[seat] == 1
            session.flush()
            return row.id

    def delete(self, game_id: int) -> None:
        """Remove a saved game (nothing happens if it does not exist)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is not None:
                session.delete(row)

    # -- reading -------------------------------------------------------------------------------
    def get(self, game_id: int) -> GameRecord:
        """A saved game by id.

        Raises:
            StorageError: no such game.
        """
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id, options=[selectinload(GameRow.players)])
            if row is None:
                raise StorageError(f"no saved game with id {game_id}")
            return _record(row)

    def games(self, limit: int | None = 50, status: str | None = None, mode: str | None = None) -> list[GameRecord]:
        """Saved games, newest first."""
        q = (
            select(GameRow)
            .options(selectinload(GameRow.players))
            .order_by(GameRow.updated_at.desc(), GameRow.id.desc())
        )
        if status is not None:
            q = q.where(GameRow.status == status)
        if mode is not None:
            q = q.where(GameRow.mode == mode)
        if limit is not None:
            q = q.limit(limit)
        with Session(self.engine) as session:
            return [_record(r) for r in session.scalars(q)]

    def latest_unfinished(self, mode: str = "play") -> GameRecord | None:
        """The most recently saved unfinished game of ``mode``, if any."""
        got = self.games(limit=1, status=UNFINISHED, mode=mode)
        return got[0] if got else None

    def player_stats(self) -> list[PlayerStats]:
        """Games, wins, best and average total per rule set and player (finished games only)."""
        q = (
            select(
                GameRow.rules,
                PlayerRow.name,
                func.count(PlayerRow.id),
                func.sum(case((PlayerRow.winner, 1), else_=0)),
                func.max(PlayerRow.total),
                func.avg(PlayerRow.total),
            )
            .join(PlayerRow.game)
            .where(GameRow.status == FINISHED)
            .group_by(GameRow.rules, PlayerRow.name)
            .order_by(GameRow.rules, func.avg(PlayerRow.total).desc(), PlayerRow.name)
        )
        with Session(self.engine) as session:
            return [
                PlayerStats(rules, name, int(n), int(w or 0), int(best), float(avg))
                for rules, name, n, w, best, avg in session.execute(q)
            ]

    def high_scores(self, limit: int = 10, rules: str | None = None) -> list[HighScore]:
        """The best totals of finished games, best first."""
        q = (
            select(GameRow.rules, PlayerRow.name, PlayerRow.total, GameRow.id, GameRow.finished_at)
            .join(PlayerRow.game)
            .where(GameRow.status == FINISHED)
            .order_by(PlayerRow.total.desc(), GameRow.finished_at)
            .limit(limit)
        )
        if rules is not None:
            q = q.where(GameRow.rules == rules)
        with Session(self.engine) as session:
            return [HighScore(r, n, int(t), int(i), f) for r, n, t, i, f in session.execute(q)]
