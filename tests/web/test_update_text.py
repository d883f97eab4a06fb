"""An action's ``update`` frame is encoded once: the commit's notice to the other processes holds its text, and
the hub sends that same text (docs/architecture.md, the action path)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pasch.storage import make_engine, migrate
from pasch.web._hub import encode
from pasch.web._relay import notice
from pasch.web._service import Encoded, Room, Service


def test_the_update_sent_is_the_notices_text(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    sent: list[dict[str, Any]] = []

    async def listener(_room: Room, message: dict[str, Any]) -> None:
        if message.get("type") == "update":
            sent.append(message)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        svc.listeners.append(listener)
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            await svc.act(room.code, 0, "roll")  # one process (SQLite): no notice, the hub encodes the frame
            svc.notice = notice  # as the relay sets it on PostgreSQL
            await svc.act(room.code, 0, "score chance")
        finally:
            svc.close()

    asyncio.run(scenario())
    engine.dispose()
    plain, noticed = sent
    assert not isinstance(plain, Encoded)
    assert isinstance(noticed, Encoded) and noticed["events"] == ["score chance"]
    assert noticed.text == encode(dict(noticed))  # the very text the hub would have made
