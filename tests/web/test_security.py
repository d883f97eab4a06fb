"""Refusals: each gets an error frame, the connection stays open, the state does not change."""

from __future__ import annotations

import json
import threading

from ._support import WAIT, Client, Server


def room(server: Server) -> tuple[str, str, str]:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    joined = server.join(created["code"])
    return created["code"], created["token"], joined["token"]


def still_alive(c: Client) -> None:
    c.send({"type": "ping", "id": "p"})
    assert c.recv_type("pong")["id"] == "p"


def unchanged(server: Server, code: str, seq: int) -> None:
    status, body = server.request("GET", f"/api/rooms/{code}")
    assert status == 200 and body["state"]["seq"] == seq


def test_wrong_missing_token_spectator_and_out_of_turn(server: Server) -> None:
    code, ada_token, bob_token = room(server)
    watcher = Client(server, code)  # no token: a spectator
    err = watcher.act("roll")
    assert err["type"] == "error" and err["code"] == "spectator"
    watcher.send({"type": "act", "action": "roll", "token": "not-a-token", "id": 1})
    err = watcher.recv_type("error")
    assert err["code"] == "bad_token" and err["id"] == 1
    watcher.send({"type": "join", "token": "forged"})
    assert watcher.recv_type("error", "welcome")["code"] == "bad_token"
    bob = Client(server, code, bob_token)
    err = bob.act("roll")
    assert err["code"] == "not_your_turn" and "Ada" in err["message"]
    err = bob.act("throw 6 6 6 6 6")
    assert err["code"] in ("no_throw", "not_your_turn")
    ada = Client(server, code, ada_token)
    assert ada.act("throw 6 6 6 6 6")["code"] == "no_throw"
    assert ada.act("score chance")["code"] == "illegal"
    assert ada.act("frobnicate")["code"] == "bad_action"
    unchanged(server, code, 0)
    for c in (watcher, bob, ada):
        still_alive(c)
    assert ada.act("roll")["type"] == "ack"


def test_malformed_unknown_oversized_and_flood(server: Server) -> None:
    code, ada_token, _ = room(server)
    ada = Client(server, code, ada_token)
    for bad in ("{nope", "[1, 2]", '"text"', "{}", json.dumps({"type": 5})):
        ada.send(bad)
        assert ada.recv_type("error")["code"] in ("bad_json", "bad_message")
    ada.send({"type": "launch_missiles"})
    assert ada.recv_type("error")["code"] == "unknown_type"
    ada.send({"type": "act"})
    assert ada.recv_type("error")["code"] == "bad_message"
    ada.send(json.dumps({"type": "act", "action": "roll", "pad": "x" * 10_000}))
    assert ada.recv_type("error")["code"] == "too_large"
    ada.send(json.dumps({"type": "act", "action": "roll", "pad": "x" * 200_000}))
    assert ada.recv_type("error")["code"] == "too_large"
    still_alive(ada)
    for _ in range(120):
        ada.send({"type": "ping"})
    codes = set()
    for _ in range(120):
        msg = ada.recv_type("pong", "error")
        codes.add(msg.get("code", msg["type"]))
    assert "rate_limited" in codes
    unchanged(server, code, 0)
    assert "Traceback" not in server.output()


def test_two_clients_acting_at_the_same_instant(server: Server) -> None:
    code, ada_token, _ = room(server)
    one, two = Client(server, code, ada_token), Client(server, code, ada_token)
    barrier = threading.Barrier(2)
    answers: dict[str, dict[str, object]] = {}

    def go(name: str, c: Client) -> None:
        barrier.wait()
        answers[name] = c.act("roll")

    threads = [threading.Thread(target=go, args=(n, c)) for n, c in (("one", one), ("two", two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    kinds = sorted(str(a["type"]) for a in answers.values())
    assert kinds == ["ack", "error"], answers
    err = next(a for a in answers.values() if a["type"] == "error")
    assert err["code"] == "illegal"
    unchanged(server, code, 2)  # exactly one roll and its throw
    still_alive(one)
    still_alive(two)


def test_unknown_room(server: Server) -> None:
    from websockets.sync.client import connect

    with connect(f"{server.ws}/ws/ZZZZZZ", open_timeout=WAIT) as ws:
        msg = json.loads(ws.recv(timeout=WAIT))
    assert msg["type"] == "error" and msg["code"] == "no_room"
