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
    "check_database",
    "default_url",
    "import_legacy_web",
    "make_engine",
    "migrate",
]


def default_url() -> str:
    """The server's default database: pasch's one SQLite file, shared with the terminal app."""
    return database_url()


def check_database(url: str) -> None:
    """Open the database once and bring its schema up to date, so that ``pasch serve`` says in one line what is
    wrong with ``--db`` before it starts serving.

    Raises:
        PaschError: not a database URL SQLAlchemy knows, a driver that is not installed, or a database that cannot
            be reached or migrated (the URL is quoted without its password).
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from pasch.errors import PaschError

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        raise PaschError(f"--db {url[:80]!r} is not a database URL (e.g. sqlite:///games.sqlite3)") from None
    try:
        engine = make_engine(url)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise PaschError(f"--db {shown!r}: {_first_line(exc)}") from None
    try:
        migrate(engine)
    except (SQLAlchemyError, OSError) as exc:
        cause = getattr(exc, "orig", None) or exc
        raise PaschError(f"cannot use the database {shown!r}: {_first_line(cause)}") from None
    finally:
        engine.dispose()


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0][:300] if lines else type(exc).__name__
