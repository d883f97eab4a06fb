"""Schema migrations with Alembic, run programmatically on pasch's own engine.

The revisions live in ``migrations/versions`` inside the package, so an installed pasch upgrades the
database of an older version the first time it opens it. There is one history for the terminal app and the
web server (version table ``alembic_version``); revision 0002 folds the web server's tables of the earlier
release (their own history, version table ``pasch_web_alembic_version``) into the common ones. A database
with no tables at all gets the newest schema directly (created from the models, then stamped).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect

__all__ = ["HEAD", "current_revision", "downgrade", "migrate"]

MIGRATIONS = Path(__file__).parent / "migrations"
HEAD = "0002"
"""The newest schema revision."""


def _config(connection: object) -> object:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema of ``engine``'s database to ``revision`` (default: the newest).

    Raises:
        RuntimeError: the database holds web tables of a revision this pasch does not know.
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    from alembic import command

    with engine.begin() as conn:
        if revision in ("head", HEAD) and not inspect(conn).get_table_names():
            from pasch.storage._models import Base

            Base.metadata.create_all(conn)
            command.stamp(_config(conn), HEAD)  # type: ignore[arg-type]
        else:
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
