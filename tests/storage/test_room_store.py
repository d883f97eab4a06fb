"""The web rooms' store (pasch.storage.RoomStore) and the one log builder: the history's copy of a web
game's log is the server's, seed contributions included, and it verifies for every player."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

from pasch.storage import Repository, RoomStore, make_engine, migrate
from pasch.web import verify
from pasch.web._service import Service


def test_the_historys_log_of_a_web_game_is_the_servers_and_verifies_for_every_player(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    mine, theirs = secrets.token_hex(32), secrets.token_hex(32)

    async def play() -> tuple[str, int]:
        svc = Service(engine, bot_delay=0)
        svc.writer.start()
        try:
            room, _ = await svc.create_room("yacht", [("Ada", "human"), ("Bob", "human")])
            await svc.contribute(room.code, 0, mine)
            await svc.contribute(room.code, 1, theirs)
            while not svc.rooms[room.code].finished:
                seat = svc.rooms[room.code].state.current_player
                thrown = await svc.act(room.code, seat, "roll")
                await svc.act(room.code, seat, thrown.view["options"][0]["action"])
            return room.code, room.id
        finally:
            svc.close()

    code, room_id = asyncio.run(play())
    store = RoomStore(engine)
    stored = store.load(code)
    assert stored is not None and stored.status == "finished" and stored.meta["contributions"] == [mine, theirs]
    with Repository(engine=engine) as repo:
        log = repo.get(room_id).log
    assert log.meta["contributions"] == [mine, theirs] and log.meta["seats"] == ["human", "human"]
    assert log.meta["dice"] == "pasch-dice-v2" and log.meta["seed"]
    for contribution in (mine, theirs):
        report = verify(log, contribution=contribution)
        assert report.fair and report.mine is True
    assert store.load("NOSUCH") is None
    assert code not in [r.code for r in store.playing()]  # over: not resumed at start
