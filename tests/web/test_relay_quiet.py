"""Two ``pasch serve`` processes on one PostgreSQL (docs/deploy.md, *Room affinity*): the moves of a room that only
one process serves are not announced to the other processes (nor echoed to itself), and a process that starts to
serve the room later shows it as the log has it, and hears of every move from then on.

The servers run with the relay's periodic repeat and catch-up made an hour long (as in
tests/web/test_presence_at_once.py), so what the newcomer shows can only have come from reading the log when the
room was asked for, and the moves after it from the announcements. No clock is read: the absence of the moves'
notifications is seen in PostgreSQL's order of delivery, before a notification that comes after them.
"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from pasch.storage import LISTEN

from . import _support
from ._support import NO_REPEAT, WAIT, Client, Postgres, Server, choose, two_processes
from .test_play import two_players

pytestmark = pytest.mark.slow


def _turn(client: Client) -> None:
    """The client's seat plays its turn to the end, each move acknowledged."""
    seat = client.state["current"]
    while client.state["current"] == seat:
        assert client.act(choose(client.state))["type"] == "ack"
        client.recv_type("update")


def test_a_room_one_process_serves_wakes_no_other_and_a_newcomer_elsewhere_sees_it_as_logged(
    postgres: Postgres, tmp_path: Path, servers: list[Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_support, "SERVER_CODE", NO_REPEAT)
    a, b = two_processes(postgres, tmp_path, servers)
    code, players, _ = two_players(a)  # both players play on process A ...
    ada, bob = players[0], players[1]
    status, info = b.request("GET", f"/api/rooms/{code}")  # ... and process B caches the room at its start
    assert status == 200, info
    with psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as listener:
        listener.execute(LISTEN)
        _turn(ada)
        bob.wait_seq(ada.state["seq"])
        played = ada.state["seq"]
        assert played >= 3
        # A spectator on B: B reads the log for the room it cached before it shows it ...
        watcher = Client(b, code)
        assert watcher.state["seq"] == played
        # ... and says it serves the room. Everything PostgreSQL delivered before that came in commit order: the
        # moves were not among it (nor A's echo of them), only the players' and the spectator's presence.
        seen: list[str] = []
        for note in listener.notifies(timeout=WAIT):
            seen.append(note.payload)
            kind, _, rest = note.payload.partition(" ")
            if kind == "m" and rest.split(" ", 2)[1] == code and '"spectators":1' in rest:
                break
        else:
            raise AssertionError(f"process B never said it serves the room: {seen}")
        assert not [p for p in seen if p.startswith("e ")], seen
        assert all(json.loads(p.split(" ", 3)[3])["type"] == "presence" for p in seen)
    # From now on B hears of every move, at once (its periodic catch-up is an hour away).
    _turn(bob)
    watcher.wait_seq(bob.state["seq"])
    assert watcher.state == bob.state
    assert "Traceback" not in a.output() + b.output()
