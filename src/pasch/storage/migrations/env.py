"""Alembic environment: migrations run on the connection pasch hands over (see ``pasch.storage._migrate``)."""

from __future__ import annotations

from alembic import context

from pasch.storage._models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the programmatic path is supported
    raise RuntimeError("pasch migrations run through pasch.storage.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
