"""The relay follows another process's commit at once, in the notification's callback, when the notification
carried the commit's frame: the replay still draws (and so checks) the throw, and anything it cannot follow
there is left to the worker that reads the log. Two services share one SQLite file; no listener runs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pasch.app import Pending
from pasch.storage import make_engine, migrate
from pasch.web._relay import Relay, notice
from pasch.web._service import Room, Service


def test_a_notified_commit_is_followed_at_once_and_a_wrong_throw_is_not(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    sent: list[dict[str, Any] | str] = []
    payloads: list[str] = []

    def announce(room: Room, pending: Pending, view: dict[str, Any]) -> str:
        payloads.append(notice(room, pending, view))
        return payloads[-1]

    async def scenario() -> None:
        owner, follower = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
        relay = Relay(follower, lambda _room, msg: sent.append(msg))
        owner.notice = announce
        try:
            room, _ = await owner.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            mine = await follower.get_room(room.code)
            mine.watchers = 1
            await owner.act(room.code, 0, "roll")
            await owner.act(room.code, 0, "score chance")
            relay.on_notice(payloads[0])  # no await in between: applied in the callback
            assert mine.seq == 2 and [json.loads(str(m))["events"] for m in sent] == [
                owner.rooms[room.code].actions[:2]
            ]
            # Held by someone (an action of this process being written): left to the worker.
            async with mine.lock:
                relay.on_notice(payloads[1])
                assert mine.seq == 2 and room.code in relay._wanted
            relay._wanted.clear()
            relay.on_notice(payloads[1])  # a repeat of a notification whose frame the worker did not take yet
            await owner.act(room.code, 1, "roll")
            *head, frame = payloads[2].split(" ", 4)
            real = json.loads(frame)["events"]
            wrong = "throw 1 1 1 1 1" if real[1] != "throw 1 1 1 1 1" else "throw 6 6 6 6 6"  # not what it draws
            frame = json.dumps({**json.loads(frame), "events": [real[0], wrong]})
            relay.on_notice(" ".join([*head, frame]))
            assert mine.seq == 3 and room.code in relay._wanted  # nothing applied; the worker reads the log
            assert mine.match.state.throws == 0  # the refused throw was discarded
            assert len(sent) == 2
        finally:
            await relay.stop()
            owner.close()
            follower.close()

    asyncio.run(scenario())
    engine.dispose()


def test_a_process_ignores_its_own_commit_announced_before_its_write_returns(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        owner = Service(engine, bot_delay=0)
        relay = Relay(owner, lambda _room, _msg: None)
        owner.notice = notice
        real_write = owner.writer.write

        async def echo_first(append: Any) -> None:  # PostgreSQL may deliver the NOTIFY before the write returns
            relay.on_notice(append.notice)
            await real_write(append)

        owner.writer.write = echo_first  # type: ignore[method-assign]
        try:
            room, _ = await owner.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            owner.rooms[room.code].watchers = 1
            await owner.act(room.code, 0, "roll")
            assert owner.rooms[room.code].seq == 2 and owner.committing == {}
            assert relay._wanted == {} and relay._logged == {} and relay._frames == {}  # nothing to catch up
        finally:
            await relay.stop()
            owner.close()

    asyncio.run(scenario())
    engine.dispose()
