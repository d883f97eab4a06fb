"""Two real websocket clients against a real server: full games, restart, SIGKILL, bots, rematch, verify."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from pasch.engine import GameLog, replay
from pasch.storage import EventRow, GameRow, ResultRow

from ._support import SERVER_CODE, Client, Server, play


def two_players(server: Server, **opts: object) -> tuple[str, dict[int, Client], dict[int, str]]:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], **opts)
    code = created["code"]
    joined = server.join(code)
    tokens = {0: created["token"], 1: joined["token"]}
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    assert clients[0].seat == 0 and clients[1].seat == 1
    return code, clients, tokens


def test_two_clients_play_a_full_game(server: Server) -> None:
    code, clients, _ = two_players(server)
    play(clients)
    final = clients[0].state
    assert final["terminal"] and final["outcome"]["winners"]
    assert clients[1].state == final
    status, room = server.request("GET", f"/api/rooms/{code}")
    assert status == 200 and room["room"]["status"] == "finished" and room["room"]["seed"]
    # The log replays to the same totals; the results table holds them.
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    state = replay(GameLog.from_dict(log))
    assert list(state.totals()) == final["totals"]
    engine = create_engine(server.db)
    with Session(engine) as s:
        rows = s.scalars(select(ResultRow).order_by(ResultRow.seat)).all()
        assert [r.total for r in rows] == final["totals"]
    engine.dispose()
    assert "Traceback" not in server.output()


def test_stop_mid_game_and_finish_after_restart(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path).start()
    servers.append(server)
    code, clients, tokens = two_players(server)
    play(clients, stop_after=20)
    before = clients[0].state
    for c in clients.values():
        c.close()
    server.stop()
    server.start()  # same database, new process and port
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    assert clients[0].state["seq"] == before["seq"]
    assert clients[0].state["sheets"] == before["sheets"]
    play(clients)
    assert clients[0].state["terminal"]


def test_sigkill_right_after_ack_keeps_the_move(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path).start()
    servers.append(server)
    code, clients, _ = two_players(server)
    play(clients, stop_after=5)
    state = clients[0].state
    seat = state["current"]
    action = "roll" if state["can_roll"] else str(state["options"][0]["action"])
    ack = clients[seat].act(action)
    assert ack["type"] == "ack"
    server.kill()
    engine = create_engine(server.db)
    with Session(engine) as s:
        room = s.scalar(select(GameRow).where(GameRow.code == code))
        assert room is not None
        events = s.scalars(select(EventRow).where(EventRow.game_id == room.id).order_by(EventRow.seq)).all()
    engine.dispose()
    assert len(events) == ack["seq"]
    assert events[-len(ack["events"])].action == action
    assert [e.action for e in events[-len(ack["events"]) :]] == ack["events"]


def test_bot_seats_play_server_side_and_rematch(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Robo", "kind": "bot:greedy"}], hints=True)
    code = created["code"]
    ada = Client(server, code, created["token"])
    for _ in range(60):  # a table being built first: the hint says 'preparing' and the page asks again
        ada.send({"type": "hint"})
        hint = ada.recv_type("hint", "error")
        if hint.get("status") != "preparing":
            break
        time.sleep(1)
    assert hint["type"] == "hint" and hint["suggest"] == "roll"
    play({0: ada})
    assert ada.state["terminal"]
    status, body = server.request("POST", f"/api/rooms/{code}/rematch", {"token": "wrong"})
    assert status == 403
    status, body = server.request("POST", f"/api/rooms/{code}/rematch", {"token": created["token"]})
    assert status == 200
    status, again = server.request("POST", f"/api/rooms/{code}/rematch", {"token": created["token"]})
    assert status == 403 and again["detail"]["code"] == "bad_token"  # a token is exchanged once
    # Tokens rotate on a rematch: the answer's token holds the seat there, the old one does not.
    ada2 = Client(server, body["code"], body["token"])
    assert ada2.seat == 0
    assert ada2.state["seq"] == 0
    assert Client(server, body["code"], created["token"]).seat is None


def test_lobby_lists_rooms_with_a_free_seat(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    status, lobby = server.request("GET", "/api/rooms")
    assert status == 200 and created["code"] in [r["code"] for r in lobby]
    server.join(created["code"])
    lobby = server.request("GET", "/api/rooms")[1]
    assert created["code"] not in [r["code"] for r in lobby]
    status, body = server.request("POST", f"/api/rooms/{created['code']}/join", {})
    assert status == 409 and body["detail"]["code"] == "room_full"
    assert server.request("GET", "/api/rooms/NOPE99")[0] == 404


def test_keeper_room_enters_real_dice(server: Server) -> None:
    created = server.create([{"name": "Ada"}], keeper=True, rules="kniffel")
    assert created["commitment"] is None
    ada = Client(server, created["code"], created["token"])
    assert ada.state["can_enter"]
    assert ada.act("roll")["code"] == "illegal"
    ack = ada.act("enter 6 6 6 6 6")
    assert ack["type"] == "ack" and ack["events"] == ["enter 6 6 6 6 6"]
    ada.wait_seq(ack["seq"])
    ack = ada.act("score yahtzee")
    ada.wait_seq(ack["seq"])
    assert ada.state["totals"] == [50]


def _verify(log: dict[str, object], path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(json.dumps(log))
    return subprocess.run(
        [sys.executable, "-c", SERVER_CODE, "verify", str(path)], capture_output=True, text=True, timeout=60
    )


def test_verify_says_fair_and_catches_a_changed_throw(server: Server, tmp_path: Path) -> None:
    code, clients, _ = two_players(server)
    _status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert "seed" not in log["meta"] and len(log["meta"]["commitment"]) == 64  # not revealed while playing
    play(clients)
    log = server.request("GET", f"/api/rooms/{code}/log")[1]
    done = _verify(log, tmp_path / "fair.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("fair")
    actions = list(log["actions"])
    i = next(n for n, a in enumerate(actions) if a.startswith("throw"))
    dice = sorted(int(d) for d in actions[i].split()[1:])
    dice[0] = 1 if dice[0] != 1 else 2
    actions[i] = "throw " + " ".join(map(str, sorted(dice)))
    # Keep the log replayable: only the throw changes, later actions may still be legal or not.
    tampered = dict(log, actions=actions[: i + 1])
    done = _verify(tampered, tmp_path / "unfair.json")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "UNFAIR" in done.stdout
    bad_commit = dict(log, meta=dict(log["meta"], commitment="0" * 64))
    assert _verify(bad_commit, tmp_path / "c.json").returncode == 1
    (tmp_path / "junk.json").write_text("{not json")
    junk = subprocess.run(
        [sys.executable, "-c", SERVER_CODE, "verify", str(tmp_path / "junk.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert junk.returncode == 2


@pytest.mark.parametrize("rules", ["knaster"])
def test_knaster_room_with_a_bot(server: Server, rules: str) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Robo", "kind": "bot:random"}], rules=rules)
    ada = Client(server, created["code"], created["token"])
    for _ in range(400):
        st = ada.state
        if st["terminal"]:
            break
        if st["current"] != 0 or st["pending"]:
            ada.wait_seq(st["seq"] + 1)
            continue
        ack = ada.act(st["legal"][0])
        if ack.get("code") == "rate_limited":  # this client outpaces the 20 messages/s limit; slow down
            time.sleep(0.2)
            continue
        assert ack["type"] == "ack", ack
        ada.wait_seq(ack["seq"])
    assert ada.state["terminal"]
