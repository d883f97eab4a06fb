"""Alembic environment of the web tables: runs on the connection :func:`pasch.web._db.migrate` hands over."""

from __future__ import annotations

from alembic import context

from pasch.web._db import VERSION_TABLE, WebBase

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the programmatic path is supported
    raise RuntimeError("pasch web migrations run through pasch.web._db.migrate(engine)")
context.configure(
    connection=connection,
    target_metadata=WebBase.metadata,
    render_as_batch=True,
    version_table=VERSION_TABLE,
)
with context.begin_transaction():
    context.run_migrations()
