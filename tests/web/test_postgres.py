"""The same core game against a real PostgreSQL server started by the test (initdb + pg_ctl)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ._support import Client, Postgres, Server, choose, play, two_processes
from .test_play import two_players

pytestmark = pytest.mark.slow


def test_full_game_restart_and_kill_on_postgresql(postgres: Postgres, tmp_path: Path, servers: list[Server]) -> None:
    server = Server(postgres.url, tmp_path).start()
    servers.append(server)
    code, clients, tokens = two_players(server)
    play(clients, stop_after=15)
    for c in clients.values():
        c.close()
    server.kill()  # SIGKILL mid-game: the committed log is all there is
    server.start()
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    play(clients)
    assert clients[0].state["terminal"]
    status, room = server.request("GET", f"/api/rooms/{code}")
    assert status == 200 and room["room"]["status"] == "finished"
    assert "Traceback" not in server.output()


def test_two_processes_on_one_database_relay_then_refuse_the_repeat(
    postgres: Postgres, tmp_path: Path, servers: list[Server]
) -> None:
    a, b = two_processes(postgres, tmp_path, servers)
    code, clients, tokens = two_players(a)
    play(clients, stop_after=3)
    stale = clients[0].state
    seat = stale["current"]
    action = "roll" if stale["can_roll"] else str(stale["options"][0]["action"])
    # Process B loads the room from the log and records the next action.
    on_b = Client(b, code, tokens[seat])
    assert on_b.state["seq"] == stale["seq"]
    ack = on_b.act(action)
    assert ack["type"] == "ack" and ack["seq"] > stale["seq"]
    # A's clients get B's update through the relay (LISTEN/NOTIFY, then the log), without asking.
    for c in clients.values():
        c.wait_seq(ack["seq"])
        assert c.state["seq"] == ack["seq"]
    # The same action sent to A now meets the current game there: refused, nothing recorded twice (a write
    # from a process that had not caught up yet would hit the unique (room, seq) slot: ``conflict``).
    refused = clients[seat].act(action)
    assert refused["type"] == "error" and refused["code"] in ("illegal", "not_your_turn", "conflict"), refused
    status, log = a.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and len(log["actions"]) == ack["seq"]
    play(clients, stop_after=4)
    assert "Traceback" not in a.output() + b.output()


def test_presence_counts_the_connections_of_every_process(
    postgres: Postgres, tmp_path: Path, servers: list[Server]
) -> None:
    a, b = two_processes(postgres, tmp_path, servers)
    created = a.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    bob_token = a.join(code)["token"]
    ada = Client(a, code, created["token"])  # on process A
    bob = Client(b, code, bob_token)  # on process B

    def both_online(msg: dict[str, object]) -> bool:
        seats = msg.get("seats")
        return isinstance(seats, list) and all(s["online"] for s in seats)

    for client in (ada, bob):  # each learns of the other's connection from the other process
        while not both_online(client.recv_type("presence")):
            pass
    watcher = Client(b, code)  # a spectator on B counts on A too
    while ada.recv_type("presence").get("spectators") != 1:
        pass
    status, room = a.request("GET", f"/api/rooms/{code}")
    assert status == 200 and [s["online"] for s in room["room"]["seats"]] == [True, True]
    bob.close()
    watcher.close()
    while True:  # B's connections are gone: A says so
        msg = ada.recv_type("presence")
        if not msg["seats"][1]["online"] and msg["spectators"] == 0:
            break
    assert "Traceback" not in a.output() + b.output()


def test_the_turn_clock_and_its_stand_in_work_across_processes(
    postgres: Postgres, tmp_path: Path, servers: list[Server]
) -> None:
    a, b = two_processes(postgres, tmp_path, servers)
    created = b.create([{"name": "Ada"}, {"name": "Bob"}], wait=True, clock=15, stand_in="bot:greedy")
    code = created["code"]
    bob_token = a.join(code)["token"]
    ada = Client(b, code, created["token"])
    bob = Client(a, code, bob_token)
    ada.send({"type": "start"})  # on B; the clock runs where the bots' owner is (A or B)

    def away(msg: dict[str, Any]) -> bool | None:
        return msg["seats"][0]["away"] if msg.get("type") == "presence" else None

    while not away(bob.recv_type("presence")):  # Ada's 15 s run out (whichever process drives the clocks)
        pass
    while bob.recv_type("update")["by"] != 0:  # her stand-in plays
        pass
    ada.send({"type": "back"})
    while away(bob.recv_type("presence")) is not False:
        pass
    status, log = a.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and log["meta"]["stand_ins"][0]["seat"] == 0
    assert log["meta"]["stand_ins"][0]["bot"] == "bot:greedy"
    assert "Traceback" not in a.output() + b.output()


@pytest.mark.parametrize("host", ["a", "b"])
def test_a_seat_handed_to_the_stand_in_is_played_whichever_process_the_host_is_on(
    postgres: Postgres, tmp_path: Path, servers: list[Server], host: str
) -> None:
    """No turn clock: the host hands an absent player's seat over, and the process that drives the bots (one of
    the two, whichever holds the lease) plays it — also when the host is connected to the other one."""
    a, b = two_processes(postgres, tmp_path, servers)
    here = a if host == "a" else b
    created = here.create([{"name": "Ada"}, {"name": "Bob"}], stand_in="bot:greedy")
    code = created["code"]
    here.join(code)  # Bob takes his seat, and is not connected
    ada = Client(here, code, created["token"])
    ada.send({"type": "hand", "seat": 1})
    while not ada.recv_type("presence")["seats"][1]["away"]:
        pass
    while ada.state["current"] == 0:  # Ada's turn ...
        assert ada.act(choose(ada.state))["type"] == "ack"
        ada.recv_type("update")
    while ada.recv_type("update")["by"] != 1:  # ... then Bob's stand-in's
        pass
    assert "Traceback" not in a.output() + b.output()
