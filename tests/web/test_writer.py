"""The event writer (group commit, conflicts) and the service's handling of a failed write, in process."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow, make_engine, migrate
from pasch.web import verify
from pasch.web._service import ActError, Service
from pasch.web._writer import Append, ConflictError, EventWriter


@pytest.fixture
def engine(tmp_path: Path) -> Any:
    eng = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(eng)
    yield eng
    eng.dispose()


def _room(engine: Engine, code: str) -> int:
    with Session(engine) as s, s.begin():
        row = GameRow(code=code, rules="kniffel", source="web", status="playing")
        s.add(row)
        s.flush()
        return row.id


def test_concurrent_appends_share_commits_and_a_conflict_fails_alone(engine: Engine) -> None:
    rooms = [_room(engine, f"R{i}") for i in range(20)]
    writer = EventWriter(engine)

    async def scenario() -> None:
        now = datetime.now(UTC)
        # 20 rooms x 5 actions, all in flight at once: every one is written, in far fewer transactions.
        for seq in range(1, 6):
            await asyncio.gather(*(writer.write(Append(r, seq, [(0, f"a{seq}")], now)) for r in rooms))
        assert writer.commits < 100
        # A batch in which one append takes a taken slot: that one fails, the others are written.
        results = await asyncio.gather(
            writer.write(Append(rooms[0], 3, [(0, "late")], now)),
            writer.write(Append(rooms[1], 6, [(0, "a6"), (None, "throw 1 2 3 4 5")], now)),
            return_exceptions=True,
        )
        assert isinstance(results[0], ConflictError) and results[1] is None

    asyncio.run(scenario())
    writer.stop()
    with Session(engine) as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == rooms[1]).order_by(EventRow.seq)).all()
        assert [r.action for r in rows] == ["a1", "a2", "a3", "a4", "a5", "a6", "throw 1 2 3 4 5"]
        assert [r.seat for r in rows][-2:] == [0, None]
        assert s.scalars(select(EventRow).where(EventRow.action == "late")).first() is None


def test_a_failed_write_changes_nothing_and_keeps_the_dice_in_step(engine: Engine) -> None:
    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        room, _ = await svc.create_room("kniffel", [("Ada", "human")])
        real = svc.writer.write
        calls = {"n": 0}

        async def flaky(append: Append) -> None:
            calls["n"] += 1
            if calls["n"] == 3:
                raise OSError("disk gone")
            await real(append)

        svc.writer.write = flaky  # type: ignore[method-assign]
        await svc.act(room.code, 0, "roll")
        await svc.act(room.code, 0, "keep")
        before = (room.seq, room.state, list(room.actions))
        with pytest.raises(ActError) as err:
            await svc.act(room.code, 0, "keep")
        assert err.value.code == "server_error"
        assert (room.seq, room.state, list(room.actions)) == before  # nothing applied
        for _ in range(200):  # the database is back: finish the game
            if room.finished:
                break
            legal = [str(a) for a in room.state.legal_actions()]
            await svc.act(room.code, 0, "roll" if "roll" in legal else next(a for a in legal if a.startswith("score")))
        svc.close()
        # Every throw, also the one drawn again after the failure, follows from the revealed seed.
        report = verify(room.log())
        assert report.fair, report.problems

    asyncio.run(scenario())
