"""Schema migrations with Alembic, run programmatically on pasch's own engine.

The revisions live in ``migrations/versions`` inside the package, so an installed pasch upgrades the
database of an older version the first time it opens it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect

__all__ = ["HEAD", "current_revision", "downgrade", "migrate"]

MIGRATIONS = Path(__file__).parent / "migrations"
HEAD = "0001"
"""The newest schema revision."""


def _config(connection: object) -> object:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema of ``engine``'s database to ``revision`` (default: the newest)."""
    from alembic import command

    with engine.begin() as conn:
        command.upgrade(_config(conn), revision)  # type: ignore[arg-type]


def downgrade(engine: Engine, revision: str) -> None:
    """Take the schema back to ``revision`` (``base``: no tables)."""
    from alembic import command

    with engine.begin() as conn:
        command.downgrade(_config(conn), revision)  # type: ignore[arg-type]


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None for a database pasch never migrated."""
    if not inspect(engine).has_table("alembic_version"):
        return None
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
