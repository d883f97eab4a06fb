"""The repository of saved games: save and load logs, list games, high scores and averages.

One database holds the terminal app's games and the web server's rooms (see :mod:`pasch.storage._models`);
the repository reads both and writes the terminal's.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, case, create_engine, delete, event, func, insert, select
from sqlalchemy.orm import Session, selectinload

from pasch.engine import GameLog, new_game, replay
from pasch.errors import PaschError
from pasch.storage._migrate import migrate
from pasch.storage._models import (
    ABANDONED,
    FINISHED,
    TERMINAL,
    UNFINISHED,
    WEB,
    EventRow,
    GameRow,
    ResultRow,
    SeatRow,
    utcnow,
)
from pasch.storage._rooms import web_log

__all__ = [
    "BUSY_TIMEOUT_ENV",
    "DATA_DIR_ENV",
    "LEGACY_WEB_FILE",
    "GameRecord",
    "HighScore",
    "PlayerRecord",
    "PlayerStats",
    "Repository",
    "StorageError",
    "busy_timeout",
    "copy_games",
    "data_dir",
    "database_url",
    "import_legacy_web",
    "make_engine",
]

DATA_DIR_ENV = "PASCH_DATA_DIR"
"""Environment variable that overrides the user data directory (tests, portable installs)."""
DB_FILE = "pasch.sqlite3"
LEGACY_WEB_FILE = "pasch-web.sqlite3"
"""The web server's own database file of the release before the unified schema."""
BUSY_TIMEOUT_ENV = "PASCH_DB_BUSY_TIMEOUT"
"""Environment variable: seconds a SQLite connection waits for a lock held by another program (default 30)."""
BUSY_TIMEOUT = 30.0


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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys (the server and the terminal
    app may use one file at the same time).

    Raises:
        sqlalchemy.exc.ArgumentError: the URL is not a SQLAlchemy URL.
    """
    kwargs: dict[str, Any] = {}
    sqlite = url.startswith("sqlite")
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout()}
    else:
        kwargs["pool_pre_ping"] = True
    engine = create_engine(url, **kwargs)
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def busy_timeout() -> float:
    """Seconds a SQLite connection waits for another program's lock: ``$PASCH_DB_BUSY_TIMEOUT`` or 30.

    A value that is not a non-negative number is ignored (the default applies).
    """
    try:
        value = float(os.environ.get(BUSY_TIMEOUT_ENV, BUSY_TIMEOUT))
    except ValueError:
        return BUSY_TIMEOUT
    return value if 0 <= value <= 3600 else BUSY_TIMEOUT


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a commit has reached the OS before it returns, so it survives SIGKILL of the server
    # (tested); only a power loss may drop the last commits. FULL would fsync every action.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class StorageError(PaschError):
    """A saved game that does not exist or cannot be read."""


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
    """A saved game: its log (replay it for the state) and its result so far.

    ``source`` is ``terminal`` or ``web``; a web room also has its join ``code``. ``status`` is
    ``finished`` or ``unfinished`` for terminal games and ``playing``, ``finished`` or ``abandoned`` for web
    rooms.
    """

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
    source: str = TERMINAL
    code: str | None = None

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


def _naive(when: datetime | None) -> datetime | None:
    """Naive UTC (what SQLite gives back) for every backend."""
    if when is None or when.tzinfo is None:
        return when
    return when.astimezone(UTC).replace(tzinfo=None)


def _log_of(row: GameRow) -> GameLog:
    if row.source == WEB:  # as the server's /log endpoint gives it (one builder): the seed only once it is over
        return web_log(
            code=row.code,
            rules=row.rules,
            players=[s.name for s in row.seats],
            kinds=[s.kind for s in row.seats],
            actions=[e.action for e in row.events],
            keeper=row.keeper,
            commitment=row.commitment,
            seed=row.seed,
            finished=row.status == FINISHED,
            meta=row.meta if isinstance(row.meta, dict) else None,
            engine=row.engine,
        )
    meta: dict[str, Any] = dict(row.meta or {})
    return GameLog(
        rules=row.rules,
        players=tuple(s.name for s in row.seats),
        actions=tuple(e.action for e in row.events),
        keeper=row.keeper,
        engine=row.engine,
        meta=meta,
    )


def _totals(log: GameLog) -> tuple[int, ...]:
    """Totals so far by replaying (web rooms write results only at the end); zeros if it does not replay."""
    try:
        return tuple(int(t) for t in replay(log).totals())
    except PaschError:
        return (0,) * len(log.players)


def _record(row: GameRow) -> GameRecord:
    log = _log_of(row)
    results = {r.seat: r for r in row.results}
    totals = _totals(log) if len(results) < len(row.seats) else ()
    players = []
    for s in row.seats:
        r = results.get(s.seat)
        if r is not None:
            players.append(PlayerRecord(s.seat, s.name, s.kind, r.total, r.rank, r.winner))
        else:
            total = totals[s.seat] if s.seat < len(totals) else 0
            players.append(PlayerRecord(s.seat, s.name, s.kind, total, None, False))
    updated = _naive(row.updated_at) or row.updated_at
    if row.events and row.source == WEB:  # the server does not touch the game's row for every action
        updated = max(updated, _naive(row.events[-1].created_at) or updated)
    return GameRecord(
        id=row.id,
        uid=row.uid,
        rules=row.rules,
        mode="keeper" if row.keeper else "play",
        status=row.status,
        log=log,
        players=tuple(players),
        created_at=_naive(row.created_at) or row.created_at,
        updated_at=updated,
        finished_at=_naive(row.finished_at),
        source=row.source,
        code=row.code,
    )


def _seats_of(log: GameLog, start: int) -> list[int | None]:
    """The seat that played each action from index ``start`` on (None for throws).

    Raises:
        LogError: the log does not replay.
    """
    state: Any = replay(log, upto=start) if start else new_game(log.rules, log.players, keeper=log.keeper)
    seats: list[int | None] = []
    for text in log.actions[start:]:
        seats.append(None if state.is_chance_node else int(state.current_player))
        state = state.apply(text)
    return seats


_MAX_ID = 2**63 - 1
"""The largest id a game row can have (a signed 64-bit integer in SQLite and PostgreSQL)."""


def _game_row(session: Session, game_id: int, options: Sequence[Any] = ()) -> GameRow | None:
    """The game row with ``game_id``, or None; an id no row can have is not sent to the database (where
    SQLite's driver would fail to convert it)."""
    if not 0 < game_id <= _MAX_ID:
        return None
    return session.get(GameRow, game_id, options=list(options))


class Repository:
    """Saved games in a SQL database (SQLite by default; any SQLAlchemy URL works).

    Opening migrates the schema to the newest revision. Reading lists the games of both sources (the
    terminal app's and the web server's); :meth:`save` writes terminal games.
    """

    def __init__(self, url: str | None = None, *, directory: str | Path | None = None, engine: Engine | None = None):
        """Open (and migrate) the database.

        Args:
            url: a SQLAlchemy URL; default the SQLite file in :func:`data_dir`.
            directory: the data directory for the default SQLite file (overrides ``$PASCH_DATA_DIR``).
            engine: an engine to use instead of ``url``.

        Raises:
            sqlalchemy.exc.ArgumentError: ``url`` is not a SQLAlchemy URL.
            sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or migrated.
        """
        self._own = engine is None
        if engine is None:
            engine = make_engine(url or database_url(directory))
        self.engine = engine
        try:
            migrate(engine)
        except BaseException:
            if self._own:
                engine.dispose()
            raise

    def close(self) -> None:
        """Release the database connections (of an engine the repository made; a caller's engine stays)."""
        if self._own:
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
        """Insert a terminal game or update it (by ``game_id``) with its log so far; returns the game's id.

        The log's actions become event rows: only those after the longest prefix already stored are written
        (an undo rewrites the tail). The status, totals, ranks and winners are computed from the log (or
        from ``state``, its final state, when the caller has it).

        Raises:
            StorageError: ``game_id`` does not exist or is not a terminal game.
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
                row = GameRow(source=TERMINAL, created_at=now)
                session.add(row)
                stored: list[str] = []
            else:
                got = _game_row(session, game_id, options=[selectinload(GameRow.seats), selectinload(GameRow.results)])
                if got is None or got.source != TERMINAL:
                    raise StorageError(f"no saved game with id {game_id}")
                row = got
                stored = list(
                    session.scalars(select(EventRow.action).where(EventRow.game_id == row.id).order_by(EventRow.seq))
                )
            row.rules = log.rules
            row.keeper = bool(log.keeper)
            row.status = FINISHED if finished else UNFINISHED
            row.engine = log.engine[:32]
            row.meta = dict(log.meta)
            row.updated_at = now
            row.finished_at = now if finished else None
            seat_rows = {p.seat: p for p in row.seats}
            result_rows = {r.seat: r for r in row.results}
            for seat, name in enumerate(log.players):
                sr = seat_rows.get(seat)
                if sr is None:
                    sr = SeatRow(seat=seat)
                    row.seats.append(sr)
                sr.name = name
                sr.kind = seats[seat] if seat < len(seats) else "human"
                rr = result_rows.get(seat)
                if rr is None:
                    rr = ResultRow(seat=seat)
                    row.results.append(rr)
                rr.name = name
                rr.total = int(outcome.totals[seat])
                rr.rank = int(outcome.ranks[seat]) if finished else None
                rr.winner = finished and outcome.ranks[seat] == 1
            session.flush()
            keep = 0
            for old, new in zip(stored, log.actions, strict=False):
                if old != new:
                    break
                keep += 1
            if keep < len(stored):
                session.execute(delete(EventRow).where(EventRow.game_id == row.id, EventRow.seq > keep))
            if keep < len(log.actions):
                acted = _seats_of(log, keep)
                session.execute(
                    insert(EventRow),
                    [
                        {"game_id": row.id, "seq": n, "seat": seat, "action": text, "created_at": now}
                        for n, (text, seat) in enumerate(zip(log.actions[keep:], acted, strict=True), start=keep + 1)
                    ],
                )
            return row.id

    def abandon(self, game_id: int) -> None:
        """Give up an unfinished terminal game: ``--resume`` no longer offers it; the log stays.

        Raises:
            StorageError: no unfinished terminal game with that id.
        """
        with Session(self.engine) as session, session.begin():
            row = _game_row(session, game_id)
            if row is None or row.source != TERMINAL or row.status != UNFINISHED:
                raise StorageError(f"no unfinished terminal game with id {game_id}")
            row.status = ABANDONED
            row.updated_at = utcnow()

    def delete(self, game_id: int) -> None:
        """Remove a saved game (nothing happens if it does not exist)."""
        with Session(self.engine) as session, session.begin():
            row = _game_row(session, game_id)
            if row is not None:
                session.delete(row)

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def _full() -> list[Any]:
        return [selectinload(GameRow.seats), selectinload(GameRow.results), selectinload(GameRow.events)]

    def get(self, game_id: int) -> GameRecord:
        """A saved game by id (terminal or web).

        Raises:
            StorageError: no such game.
        """
        with Session(self.engine) as session:
            row = _game_row(session, game_id, options=self._full())
            if row is None:
                raise StorageError(f"no saved game with id {game_id}")
            return _record(row)

    def games(
        self,
        limit: int | None = 50,
        status: str | None = None,
        mode: str | None = None,
        source: str | None = None,
    ) -> list[GameRecord]:
        """Saved games of both sources (or of ``source``), newest first.

        ``mode`` is ``play`` or ``keeper``.
        """
        q = select(GameRow).options(*self._full()).order_by(GameRow.updated_at.desc(), GameRow.id.desc())
        if status is not None:
            q = q.where(GameRow.status == status)
        if mode is not None:
            q = q.where(GameRow.keeper.is_(mode == "keeper"))
        if source is not None:
            q = q.where(GameRow.source == source)
        if limit is not None:
            q = q.limit(limit)
        with Session(self.engine) as session:
            return [_record(r) for r in session.scalars(q)]

    def latest_unfinished(self, mode: str = "play") -> GameRecord | None:
        """The most recently saved unfinished terminal game of ``mode``, if any."""
        got = self.games(limit=1, status=UNFINISHED, mode=mode, source=TERMINAL)
        return got[0] if got else None

    def player_stats(self, *, rules: str | None = None, exclude: int | None = None) -> list[PlayerStats]:
        """Games, wins, best and average total per rule set and player (finished games of both sources).

        Args:
            rules: only this rule set's games (its id).
            exclude: leave out this game (a game just saved, to compare it with the games before it).
        """
        q = (
            select(
                GameRow.rules,
                ResultRow.name,
                func.count(ResultRow.id),
                func.sum(case((ResultRow.winner, 1), else_=0)),
                func.max(ResultRow.total),
                func.avg(ResultRow.total),
            )
            .join(ResultRow.game)
            .where(GameRow.status == FINISHED)
            .group_by(GameRow.rules, ResultRow.name)
            .order_by(GameRow.rules, func.avg(ResultRow.total).desc(), ResultRow.name)
        )
        if rules is not None:
            q = q.where(GameRow.rules == rules)
        if exclude is not None:
            q = q.where(GameRow.id != exclude)
        with Session(self.engine) as session:
            return [
                PlayerStats(rules, name, int(n), int(w or 0), int(best), float(avg))
                for rules, name, n, w, best, avg in session.execute(q)
            ]

    def high_scores(self, limit: int = 10, rules: str | None = None) -> list[HighScore]:
        """The best totals of finished games (both sources), best first."""
        q = (
            select(GameRow.rules, ResultRow.name, ResultRow.total, GameRow.id, GameRow.finished_at)
            .join(ResultRow.game)
            .where(GameRow.status == FINISHED)
            .order_by(ResultRow.total.desc(), GameRow.finished_at, GameRow.id)
            .limit(limit)
        )
        if rules is not None:
            q = q.where(GameRow.rules == rules)
        with Session(self.engine) as session:
            return [HighScore(r, n, int(t), int(i), _naive(f)) for r, n, t, i, f in session.execute(q)]


def copy_games(source: Engine, target: Engine) -> int:
    """Copy every game of ``source`` (migrated) into ``target`` under new ids; returns how many.

    Uids and web join codes are unique in both databases; a game whose uid or code ``target`` already has
    is skipped, so copying twice adds nothing.
    """
    with Session(source) as src, Session(target) as dst, dst.begin():
        have_uids = set(dst.scalars(select(GameRow.uid)))
        have_codes = set(dst.scalars(select(GameRow.code).where(GameRow.code.is_not(None))))
        copied = 0
        for row in src.scalars(select(GameRow).options(*Repository._full()).order_by(GameRow.id)):
            if row.uid in have_uids or (row.code is not None and row.code in have_codes):
                continue
            cols = {c.key: getattr(row, c.key) for c in GameRow.__table__.columns if c.key != "id"}
            new = GameRow(**cols)
            new.seats = [
                SeatRow(seat=s.seat, name=s.name, kind=s.kind, token_hash=s.token_hash, claimed=s.claimed)
                for s in row.seats
            ]
            new.events = [
                EventRow(seq=e.seq, seat=e.seat, action=e.action, created_at=e.created_at) for e in row.events
            ]
            new.results = [
                ResultRow(seat=r.seat, name=r.name, total=r.total, rank=r.rank, winner=r.winner) for r in row.results
            ]
            dst.add(new)
            copied += 1
        return copied


def import_legacy_web(target: Engine, directory: str | Path | None = None) -> int:
    """Import the web server's database of the earlier release (``pasch-web.sqlite3`` in the data directory)
    into ``target`` once: only when that file exists and ``target`` holds no web game yet.

    The old file is read from a copy (upgraded there) and left as it is. Returns how many games were
    imported and says so on stderr.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: either database failed.
    """
    legacy = data_dir(directory) / LEGACY_WEB_FILE
    if not legacy.is_file():
        return 0
    with Session(target) as session:
        if session.scalar(select(GameRow.id).where(GameRow.source == WEB).limit(1)) is not None:
            return 0
    tmp = Path(tempfile.mkdtemp(prefix="pasch-import-"))
    try:
        copy = tmp / LEGACY_WEB_FILE
        try:
            src_con = sqlite3.connect(f"file:{legacy}?mode=ro", uri=True)
            src_con.execute("SELECT 1 FROM sqlite_master LIMIT 1")
        except sqlite3.OperationalError:  # a WAL file without its -shm cannot be opened read-only
            src_con = sqlite3.connect(legacy)
        dst_con = sqlite3.connect(copy)
        with dst_con:
            src_con.backup(dst_con)  # consistent even while the WAL holds the newest commits
        src_con.close()
        dst_con.close()
        engine = make_engine(f"sqlite:///{copy}")
        try:
            migrate(engine)
            n = copy_games(engine, target)
        finally:
            engine.dispose()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if n:
        print(f"pasch: imported {n} web games from {legacy} (the file is kept; it is not read again)", file=sys.stderr)
    return n
