"""A score keeper's undo (docs/protocol.md, *Undo*): the last entry of a room with real dice is taken back
until the next player's entry, by its player or the host; refused where the server throws the dice; the room
replays after a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pasch.cli import main
from pasch.engine import GameLog, replay

from ._support import Client, Server


def _undo(client: Client, at: int | None = None, **extra: Any) -> dict[str, Any]:
    client.send({"type": "undo", "at": client.state["seq"] if at is None else at, "id": "u", **extra})
    return client.recv_type("ack", "error")


def _follow(*clients: Client) -> dict[str, Any]:
    """Each client's next ``undo`` frame (its state goes back: the helper keeps the newest otherwise)."""
    frame: dict[str, Any] = {}
    for c in clients:
        frame = c.recv_type("undo")
        c.state = frame["state"]
    return frame


def _keeper(server: Server) -> tuple[str, Client, str, Client]:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], keeper=True, rules="kniffel")
    code = created["code"]
    bob_token = server.join(code)["token"]
    return code, Client(server, code, created["token"]), bob_token, Client(server, code, bob_token)


def _act(client: Client, action: str, *others: Client) -> None:
    ack = client.act(action)
    assert ack["type"] == "ack", ack
    for c in (client, *others):
        c.wait_seq(ack["seq"])


def test_the_last_entry_is_taken_back_and_everyone_sees_it(server: Server) -> None:
    code, ada, _, bob = _keeper(server)
    _act(ada, "enter 1 1 2 3 4", bob)
    _act(ada, "score chance", bob)  # meant: ones
    assert bob.state["current"] == 1
    ack = _undo(ada)
    assert ack["type"] == "ack" and ack["seq"] == 0, ack
    _follow(ada)
    frame = _follow(bob)
    assert frame["seat"] == 0 and frame["by"] == 0 and frame["events"] == ["enter 1 1 2 3 4", "score chance"]
    assert frame["seq"] == 0 and frame["state"]["current"] == 0 and frame["state"]["totals"] == [0, 0]
    assert bob.state["seq"] == 0
    # Only that entry: the undo does not walk further back (here: nothing before it anyway).
    assert _undo(ada)["code"] == "no_undo"
    _act(ada, "enter 1 1 2 3 4", bob)
    _act(ada, "score ones", bob)
    status, moves = server.request("GET", f"/api/rooms/{code}/moves")
    assert status == 200 and [m["action"] for m in moves] == ["enter 1 1 2 3 4", "score ones"]
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert log["actions"] == ["enter 1 1 2 3 4", "score ones"]
    assert log["meta"]["undos"][0]["events"] == ["enter 1 1 2 3 4", "score chance"]
    assert list(replay(GameLog.from_dict(log)).totals()) == [2, 0]


def test_the_undo_is_refused_after_the_next_players_entry(server: Server) -> None:
    _, ada, _, bob = _keeper(server)
    _act(ada, "enter 6 6 6 6 6", bob)
    _act(ada, "score chance", bob)
    _act(bob, "enter 2 2 3 3 3", ada)
    # Bob's entry has begun: Ada's is no longer the last. An undo takes back Bob's (his dice so far) alone.
    ack = _undo(bob)
    assert ack["type"] == "ack" and ack["seq"] == 2, ack
    frame = _follow(ada, bob)
    assert frame["seat"] == 1 and frame["events"] == ["enter 2 2 3 3 3"]
    assert ada.state["current"] == 1 and ada.state["totals"] == [30, 0]
    # Ada's entry stays: a second undo does not reach back past the entry already taken back.
    assert _undo(bob)["code"] == "no_undo"
    assert _undo(ada)["code"] == "no_undo"
    _act(bob, "enter 2 2 3 3 3", ada)
    _act(bob, "score full_house", ada)
    assert ada.state["totals"] == [30, 25]


def test_the_host_takes_back_a_players_entry_and_others_cannot(server: Server) -> None:
    _, ada, _, bob = _keeper(server)
    _act(ada, "enter 6 6 6 6 6", bob)
    assert _undo(bob)["code"] == "not_your_entry"  # Bob is neither Ada nor the host
    _act(ada, "score chance", bob)
    _act(bob, "enter 1 2 3 4 5", ada)
    _act(bob, "score chance", ada)
    ack = _undo(ada)  # the host, for Bob
    assert ack["type"] == "ack" and ack["seq"] == 2, ack
    _follow(ada, bob)
    assert _undo(ada, at=0)["code"] == "stale"


def test_the_undo_is_refused_where_the_server_throws(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules="kniffel")
    ada = Client(server, created["code"], created["token"])
    _act(ada, "roll")
    refused = _undo(ada)
    assert refused["code"] == "undo_off" and "throw" in refused["message"], refused
    assert ada.state["seq"] == 2  # nothing changed


def test_a_spectator_cannot_undo(server: Server) -> None:
    code, ada, _, bob = _keeper(server)
    _act(ada, "enter 6 6 6 6 6", bob)
    watcher = Client(server, code)
    watcher.state = dict(ada.state)
    assert _undo(watcher)["code"] == "spectator"


def test_the_room_replays_after_a_restart_and_verify_reads_it(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, ada, bob_token, bob = _keeper(server)
    _act(ada, "enter 6 6 6 6 6", bob)
    _act(ada, "score chance", bob)
    _act(bob, "enter 1 2 3 4 5", ada)
    _act(bob, "score ones", bob)
    assert _undo(bob)["type"] == "ack"
    ada.close()
    bob.close()
    server.stop()
    server.start()
    bob = Client(server, code, bob_token)
    assert bob.state["seq"] == 2 and bob.state["current"] == 1 and bob.state["totals"] == [30, 0]
    welcome = [m for m in bob.seen if m["type"] == "welcome"][-1]
    assert welcome["room"]["undo_floor"] == 2
    assert _undo(bob)["code"] == "no_undo"  # Ada's entry before it stays, after the restart too
    _act(bob, "enter 1 2 3 4 5", bob)
    _act(bob, "score large_straight", bob)
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and log["actions"][-2:] == ["enter 1 2 3 4 5", "score large_straight"]
    path = tmp_path / "keeper.json"
    path.write_text(json.dumps(log))
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(["replay", str(path)])
    assert done.value.code in (0, None), capsys.readouterr()
