"""A room whose log no longer replays never stops the server: it is marked broken and left out, its log kept,
and every other room starts and plays on (issue #13)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pasch.storage import BROKEN, PLAYING, EventRow, GameRow, make_engine

from ._support import Client, Server


def test_a_room_with_a_bad_event_row_is_left_out_and_the_others_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    first = Server(url, tmp_path).start()
    try:
        good = first.create([{"name": "Ada"}, {"name": "Bob"}])
        bad = first.create([{"name": "Cy"}, {"name": "Di"}])
        for created in (good, bad):
            client = Client(first, created["code"], created["token"])
            assert client.act("roll")["type"] == "ack"
            client.close()
    finally:
        first.stop()
    engine = make_engine(url)
    with Session(engine) as session, session.begin():
        game_id = session.scalar(select(GameRow.id).where(GameRow.code == bad["code"]))
        # A throw of seven dice: no version of the rules can replay this log.
        session.execute(
            update(EventRow).where(EventRow.game_id == game_id, EventRow.seq == 2).values(action="throw 7 7 7 7 7")
        )
    second = Server(url, tmp_path).start()
    try:
        assert second.request("GET", "/api/health")[0] == 200
        status, body = second.request("GET", f"/api/rooms/{bad['code']}")
        assert status == 409 and body["detail"]["code"] == "broken"
        status, body = second.request("GET", f"/api/rooms/{good['code']}")
        assert status == 200 and body["state"]["seq"] == 2
        ada = Client(second, good["code"], good["token"])
        assert ada.act("score chance")["type"] == "ack"
        status, log = second.request("GET", "/api/rooms")
        assert bad["code"] not in {r["code"] for r in log}
        assert "Traceback" not in second.output()
    finally:
        second.stop()
    with Session(engine) as session:
        statuses = {row.code: row.status for row in session.execute(select(GameRow.code, GameRow.status))}
        events = session.scalars(select(EventRow.action).where(EventRow.game_id == game_id)).all()
    assert statuses[bad["code"]] == BROKEN and statuses[good["code"]] == PLAYING
    assert events[1] == "throw 7 7 7 7 7"  # the log is kept as it was, for verify and replay to report
    engine.dispose()
