"""The table's manners (docs/protocol.md): the waiting room, the turn clock handing an absent player's seat
to a stand-in bot and back, chat limits, presence, and the stored log verifying for every player."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from pasch.cli import main
from pasch.storage import make_engine, migrate
from pasch.web._end import move_list
from pasch.web._manners import PRESENCE_TTL, presence_expired
from pasch.web._service import ActError, Service

from ._support import Client, Server, choose, until


def _frame(client: Client, kind: str, test: Any = None) -> dict[str, Any]:
    """The next frame of a kind (that passes ``test``)."""
    while True:
        msg = client.recv_type(kind)
        if test is None or test(msg):
            return msg


def test_the_waiting_room_holds_the_first_throw_until_everyone_is_in(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], wait=True)
    code = created["code"]
    ada = Client(server, code, created["token"])
    welcome = ada.seen[-1]
    assert welcome["room"]["table"] == {
        "wait": True,
        "phase": "waiting",
        "host": 0,
        "unclaimed": [1],
        "missing": [0],
        "started_by": None,
        "clock": 0,
        "stand_in": "bot:optimal",
    }
    refused = ada.act("roll")
    assert refused["code"] == "waiting" and "Bob to take their seat" in refused["message"], refused
    bob_token = server.join(code)["token"]
    table = _frame(ada, "table")["table"]
    assert table["unclaimed"] == [] and table["missing"] == [0, 1] and table["phase"] == "waiting"
    bob = Client(server, code, bob_token)
    refused = ada.act("roll")
    assert refused["code"] == "waiting" and "Ada and Bob's dice contributions" in refused["message"], refused
    ada.send({"type": "contribute", "seed": secrets.token_hex(32)})
    assert _frame(ada, "table")["table"]["missing"] == [1]
    bob.send({"type": "start"})  # only the host starts
    assert bob.recv_type("error")["code"] == "not_host"
    bob.send({"type": "contribute", "seed": secrets.token_hex(32)})
    table = _frame(ada, "table", lambda m: m["table"]["missing"] == [])["table"]
    assert table["phase"] == "playing" and table["started_by"] == "table"
    assert ada.act("roll")["type"] == "ack"
    ada.send({"type": "start"})
    assert ada.recv_type("error")["code"] == "started"


def test_the_host_starts_without_the_missing_and_bots_wait_for_the_start(server: Server) -> None:
    created = server.create([{"name": "Robo", "kind": "bot:greedy"}, {"name": "Ada"}, {"name": "Bob"}], wait=True)
    code = created["code"]
    assert created["seat"] == 1  # the host: the first human seat
    ada = Client(server, code, created["token"])
    watcher = Client(server, code)
    watcher.send({"type": "start"})
    assert watcher.recv_type("error")["code"] == "not_host"
    ada.send({"type": "ping", "id": "p"})
    ada.recv_type("pong")
    assert ada.state["seq"] == 0  # the bot, to move first, waits
    ada.send({"type": "start"})
    table = _frame(ada, "table")["table"]
    assert table["started_by"] == "host" and table["phase"] == "playing" and table["unclaimed"] == [2]
    ada.wait_seq(1)  # now the bot moves
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and log["meta"]["contributions"] == [None, None, None]


def test_the_turn_clock_hands_an_absent_seat_to_its_stand_in_and_back(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    frames: list[dict[str, Any]] = []

    async def scenario() -> list[dict[str, Any]]:
        svc = Service(engine, bot_delay=0)
        svc.writer.start()

        async def listen(_room: Any, message: dict[str, Any]) -> None:
            frames.append(message)

        svc.listeners.append(listen)
        try:
            with pytest.raises(ActError) as err:
                await svc.create_room("yacht", [("Ada", "human")], clock=5)
            assert err.value.code == "bad_request"
            with pytest.raises(ActError) as err:
                await svc.create_room("yacht", [("Ada", "human")], clock=60, stand_in="human")
            assert err.value.code == "bad_request"
            room, _ = await svc.create_room(
                "yacht", [("Ada", "human"), ("Bob", "human")], wait=True, clock=60, stand_in="greedy"
            )
            code = room.code
            await svc.claim_seat(code, 1)
            svc.schedule_bots(room)
            await asyncio.sleep(0.05)
            assert room.clock_key is None  # the waiting room has not started: no clock
            await svc.table.start(code, 0)
            await until(lambda: room.clock_key == (0, 0), "Ada's clock")
            clock = next(f for f in frames if f["type"] == "clock")
            assert clock["seat"] == 0 and clock["seconds"] == 60 and clock["left"] <= 60
            # The clock runs out (made to, here: a minute is long for a test).
            assert room.clock_task is not None
            room.clock_task.cancel()
            await svc.table._time_out(code, (0, 0))
            assert room.away == {0: "bot:greedy"} and room.info()["seats"][0]["away"]
            assert any(f["type"] == "away" and f["seat"] == 0 for f in frames)
            await until(lambda: svc.rooms[code].state.current_player == 1, "the stand-in's turn for Ada")
            assert svc.rooms[code].clock_key == (1, 1)  # Bob's turn is timed; Ada, away, has no clock
            thrown = await svc.act(code, 1, "roll")  # Bob plays; the stand-in plays Ada's next turn too
            await svc.act(code, 1, thrown.view["options"][0]["action"])
            await until(lambda: svc.rooms[code].state.current_player == 1, "the stand-in's second turn")
            played = svc.rooms[code].seq
            assert await svc.table.back(code, 0)  # Ada is back
            assert not await svc.table.back(code, 0)  # once
            thrown = await svc.act(code, 1, "roll")
            await svc.act(code, 1, thrown.view["options"][0]["action"])
            room = svc.rooms[code]
            assert room.away == {} and svc.table.turn(room) is None  # her turn: nobody plays it for her
            assert room.clock_key is not None and room.clock_key[0] == 0
            thrown = await svc.act(code, 0, "roll")
            await svc.act(code, 0, thrown.view["options"][0]["action"])
            stand_ins = room.log().meta["stand_ins"]
            assert stand_ins == [{"seat": 0, "bot": "bot:greedy", "from": 1, "to": played, "why": "clock"}]
            moves = move_list(room.log(), stand_ins)
            ada = [m for m in moves if m["player"] == 0]
            assert all(m["by"] == "bot:greedy" for m in ada if m["seq"] <= played)
            assert all(m["by"] is None for m in ada if m["seq"] > played) and ada[-1]["seq"] > played
            assert all(m["by"] is None for m in moves if m["player"] == 1)
        finally:
            svc.close()
        # A restart: the stand-in's record comes back with the room.
        again = Service(engine, bot_delay=0)
        try:
            assert code in again.resume_all()
            assert again.rooms[code].log().meta["stand_ins"] == stand_ins and again.rooms[code].away == {}
        finally:
            again.close()
        return frames

    asyncio.run(scenario())


def test_chat_is_plain_text_limited_and_kept_with_the_room(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    ada = Client(server, code, created["token"])
    watcher = Client(server, code)
    watcher.send({"type": "chat", "text": "hi"})
    assert watcher.recv_type("error")["code"] == "spectator"
    ada.send({"type": "chat", "text": "  <b>hello</b>\n\tthere \u202e "})
    line = watcher.recv_type("chat")
    assert line["text"] == "<b>hello</b> there" and line["seat"] == 0 and line["name"] == "Ada" and line["n"] == 1
    for text, code_ in (("x" * 301, "too_long"), ("   \n ", "bad_message"), (None, "bad_message")):
        ada.send({"type": "chat", "text": text})
        assert ada.recv_type("error")["code"] == code_
    refused = 0
    for n in range(8):  # five in a burst, then one every two seconds
        ada.send({"type": "chat", "text": f"line {n}", "id": n})
        reply = ada.recv_type("chat", "error")
        refused += reply["type"] == "error" and reply["code"] == "rate_limited"
    assert refused >= 2
    server.stop()
    server.start()
    late = Client(server, code)
    chat = late.seen[0]["chat"]
    assert [c["text"] for c in chat][:2] == ["<b>hello</b> there", "line 0"] and chat[0]["n"] == 1


def test_presence_counts_seats_and_spectators(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    ada = Client(server, code, created["token"])
    _frame(ada, "presence", lambda m: m["seats"][0]["online"])
    watcher = Client(server, code)
    assert watcher.seen[0]["presence"]["seats"][0]["online"] and watcher.seen[0]["presence"]["spectators"] == 1
    presence = _frame(ada, "presence", lambda m: m["spectators"] == 1)
    assert [s["online"] for s in presence["seats"]] == [True, False] and not presence["seats"][0]["away"]
    watcher.close()
    _frame(ada, "presence", lambda m: m["spectators"] == 0)


def test_a_waiting_rooms_log_verifies_with_every_players_contribution(
    tmp_path: Path, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules="yacht", wait=True)
    code = created["code"]
    bob_token = server.join(code)["token"]
    clients = {0: Client(server, code, created["token"]), 1: Client(server, code, bob_token)}
    seeds = {0: secrets.token_hex(32), 1: secrets.token_hex(32)}
    for seat, client in clients.items():
        client.send({"type": "contribute", "seed": seeds[seat]})
        client.recv_type("contributed")
    for _ in range(400):
        state = max((c.state for c in clients.values()), key=lambda s: s["seq"])
        if state["terminal"]:
            break
        ack = clients[state["current"]].act(choose(state))
        assert ack["type"] == "ack", ack
        for c in clients.values():
            c.wait_seq(ack["seq"])
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and log["meta"]["contributions"] == [seeds[0], seeds[1]]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    for seat, name in ((0, "Ada"), (1, "Bob")):
        capsys.readouterr()
        args = ["verify", str(path), "--commitment", created["commitment"], "--contribution", seeds[seat]]
        with pytest.raises(SystemExit) as done:
            main([*args, "--player", name])
        out = capsys.readouterr().out
        assert done.value.code == 0, out


def test_the_host_hands_an_absent_seat_over_after_the_others_vote(server: Server) -> None:
    seats = [{"name": "Ada"}, {"name": "Bob"}, {"name": "Cy"}]
    created = server.create(seats, rules="yacht", stand_in="bot:greedy")
    code = created["code"]
    server.join(code)  # Bob takes his seat, then goes away (never connects)
    cy_token = server.join(code)["token"]
    ada = Client(server, code, created["token"])
    cy = Client(server, code, cy_token)
    cy.send({"type": "hand", "seat": 1})
    assert cy.recv_type("error")["code"] == "not_host"
    for seat, why in ((2, "present"), (0, "bad_message"), ("x", "bad_message")):
        ada.send({"type": "hand", "seat": seat})
        assert ada.recv_type("error")["code"] == why
    ada.send({"type": "hand", "seat": 1})
    vote = cy.recv_type("vote")
    assert vote == {"type": "vote", "seat": 1, "by": 0, "voters": [2], "yes": [], "no": [], "needed": 1, "result": None}
    ada.send({"type": "vote", "seat": 1, "yes": True})
    assert ada.recv_type("error")["code"] == "not_voter"
    cy.send({"type": "vote", "seat": 1, "yes": True})
    assert ada.recv_type("vote")["result"] == "handed"
    presence = _frame(ada, "presence", lambda m: m["seats"][1]["away"])
    assert presence["seats"][1]["by"] == "bot:greedy"
    while ada.state["current"] == 0:  # Ada plays her turn; then Bob's stand-in plays his
        ack = ada.act(choose(ada.state))
        assert ack["type"] == "ack", ack
        ada.wait_seq(ack["seq"])
    while ada.recv_type("update")["by"] != 1:
        pass
    status, log = server.request("GET", f"/api/rooms/{code}/log")
    assert status == 200 and log["meta"]["stand_ins"][0]["why"] == "vote"


def test_with_nobody_else_connected_the_host_hands_a_seat_over_at_once(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules="yacht", stand_in="bot:greedy")
    code = created["code"]
    server.join(code)
    ada = Client(server, code, created["token"])
    ada.send({"type": "hand", "seat": 1})
    assert _frame(ada, "presence", lambda m: m["seats"][1]["away"])["seats"][1]["by"] == "bot:greedy"
    ada.send({"type": "hand", "seat": 1})
    assert ada.recv_type("error")["code"] == "away"


def test_another_process_counts_expire_after_the_ttl_and_not_before() -> None:
    now = 1000.0
    assert not presence_expired(now, now)
    assert not presence_expired(now - PRESENCE_TTL, now)  # repeated just in time: still counts
    assert presence_expired(now - PRESENCE_TTL - 0.001, now)
    assert not presence_expired(now + 5.0, now)  # a stamp from a later moment (another thread's clock read)
