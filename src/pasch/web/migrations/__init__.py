"""Alembic migrations of the web tables (version table ``pasch_web_alembic_version``)."""
