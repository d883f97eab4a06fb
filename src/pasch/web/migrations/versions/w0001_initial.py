"""Web tables: rooms, seats, events, results.

Revision ID: w0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "w0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the web tables."""
    op.create_table(
        "web_rooms",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("keeper", sa.Boolean(), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch_code", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_web_rooms_code", "web_rooms", ["code"], unique=True)
    op.create_index("ix_web_rooms_status", "web_rooms", ["status"])
    op.create_table(
        "web_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("room_id", "seat", name="uq_web_seats_room_seat"),
    )
    op.create_index("ix_web_seats_room_id", "web_seats", ["room_id"])
    op.create_table(
        "web_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room_id", "seq", name="uq_web_events_room_seq"),
    )
    op.create_index("ix_web_events_room_id", "web_events", ["room_id"])
    op.create_table(
        "web_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.UniqueConstraint("room_id", "seat", name="uq_web_results_room_seat"),
    )
    op.create_index("ix_web_results_room_id", "web_results", ["room_id"])


def downgrade() -> None:
    """Drop the web tables."""
    op.drop_table("web_results")
    op.drop_table("web_events")
    op.drop_table("web_seats")
    op.drop_table("web_rooms")
