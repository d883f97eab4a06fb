"""The multi-column games' bot tables come through the server's table queue: prepared when a room that needs
them is created, so a bot seat's first move and the first hint wait for nothing; a hint asked meanwhile says
"preparing" (an estimate's tables, not an exact one)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

import pasch.web._hints as hints_module
from pasch.app import bot_tables_ready, uses_bot_tables
from pasch.bots._columns import _TABLES
from pasch.rules import get
from pasch.storage import make_engine, migrate
from pasch.web._service import Service
from pasch.web._tables import TableQueue

from ._support import WAIT, until


def test_the_queue_prepares_a_multi_column_games_bot_tables() -> None:
    rules = get("jetsi")
    _TABLES.clear()
    queue = TableQueue()
    try:
        assert not queue.ready(rules)  # in no bot's memory yet
        assert queue.request(rules).result(timeout=WAIT) is True
        assert queue.ready(rules) and queue.pending() == 0
        assert not queue.ready(get("kniffel-3"))  # each rule set its own
        assert queue.ready(get("knaster"))  # nothing to prepare: its bot has no tables
        # What the terminal app asks before a bot's move: only multi-column games read these tables.
        assert uses_bot_tables(rules) and not uses_bot_tables(get("yahtzee")) and not uses_bot_tables(get("knaster"))
        assert bot_tables_ready(rules) and bot_tables_ready(get("yahtzee")) and bot_tables_ready(get("knaster"))
    finally:
        queue.close()


def test_a_room_with_a_bot_or_hints_prepares_them_before_the_first_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    rules = get("jetsi")
    monkeypatch.setattr(hints_module, "HINT_WAIT", 0.0)  # a hint does not wait for a build: it says so

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        svc.writer.start()
        gate = threading.Event()
        try:
            _TABLES.clear()
            svc.tables._bot_pool.submit(gate.wait)  # the queue busy with another game until the gate opens
            room, _ = await svc.create_room("jetsi", [("Ada", "human")], hints=True)
            assert svc.tables.pending() == 1 and not svc.tables.ready(rules)  # queued at once
            hint = await svc.hint(room.code, 0)
            assert hint["status"] == "preparing" and hint["estimated"] is True and hint["options"] == []
            gate.set()
            await until(lambda: svc.tables.ready(rules), "jetsi's bot tables")
            hint = await svc.hint(room.code, 0)
            assert hint["status"] == "ready" and hint["exact"] is False and hint["suggest"] == "roll"
            # A room of people without hints prepares nothing; one with a bot seat does.
            _TABLES.clear()
            await svc.create_room("jetsi", [("Ada", "human"), ("Bo", "human")])
            assert svc.tables.pending() == 0 and not svc.tables.ready(rules)
            await svc.create_room("jetsi", [("Ada", "human"), ("Rob", "bot:multi")])
            await until(lambda: svc.tables.ready(rules), "jetsi's bot tables for the bot seat")
        finally:
            gate.set()
            svc.close()

    asyncio.run(scenario())
