"""Rows the writer tests start from and read back: a room's ``games`` row, its logged events."""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow


def add_room(engine: Engine, code: str, meta: dict[str, object] | None = None) -> int:
    """A playing web room's row (kniffel); its id."""
    with Session(engine) as s, s.begin():
        row = GameRow(code=code, rules="kniffel", source="web", status="playing", meta=meta or {})
        s.add(row)
        s.flush()
        return row.id


def logged(engine: Engine, room: int) -> list[tuple[int, str]]:
    """The room's events as (seq, action), in order."""
    with Session(engine) as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == room).order_by(EventRow.seq)).all()
        return [(r.seq, r.action) for r in rows]
