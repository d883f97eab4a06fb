"""The table's protocol: stale actions, private rooms, the lobby's rows, joiners' names, every seat following
a rematch, local seats (one connection acting for several seats), the end of game and the move list."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from ._support import Client, Postgres, Server, play


def test_an_action_chosen_on_an_old_position_is_refused(server: Server) -> None:
    created = server.create([{"name": "Ada"}])
    c = Client(server, created["code"], created["token"])
    seq = c.state["seq"]
    c.send({"type": "act", "action": "roll", "at": seq, "id": 1})
    assert c.recv_type("ack", "error")["type"] == "ack"
    c.wait_seq(seq + 2)  # roll and the server's throw
    # The same click again (a double click): it names the position it was made on, which is gone.
    c.send({"type": "act", "action": "keep", "at": seq, "id": 2})
    err = c.recv_type("ack", "error")
    assert err["type"] == "error" and err["code"] == "stale" and "nothing was done" in err["message"]
    _status, view = server.request("GET", f"/api/rooms/{created['code']}")
    assert view["state"]["seq"] == seq + 2 and view["state"]["throws"] == 1
    # The current position is accepted; old clients without "at" keep working.
    c.send({"type": "act", "action": "keep", "at": seq + 2, "id": 3})
    assert c.recv_type("ack", "error")["type"] == "ack"
    c.wait_seq(seq + 4)
    assert c.act("keep")["type"] == "ack"
    c.send({"type": "act", "action": "roll", "at": "x", "id": 4})
    assert c.recv_type("ack", "error")["code"] == "bad_message"
    c.close()


def test_private_rooms_stay_out_of_the_lobby_and_the_lobby_shows_seats_and_age(server: Server) -> None:
    public = server.create([{"name": "Ada"}, {"name": "Robo", "kind": "bot:greedy"}, {"name": ""}])
    private = server.create([{"name": "Eve"}, {"name": ""}], private=True)
    _status, lobby = server.request("GET", "/api/rooms")
    codes = [r["code"] for r in lobby]
    assert public["code"] in codes and private["code"] not in codes
    row = next(r for r in lobby if r["code"] == public["code"])
    assert row["players"] == ["Ada", "Robo"] and row["free"] == 1 and 0 <= row["age"] < 60
    # Joined by its link, the private room works as any other; its rematch stays private.
    joined = server.request("POST", f"/api/rooms/{private['code']}/join", {"name": "  Bob   the  Builder "})[1]
    assert joined["name"] == "Bob the Builder"
    _status, view = server.request("GET", f"/api/rooms/{private['code']}")
    assert view["state"]["players"] == ["Eve", "Bob the Builder"]
    assert view["room"]["seats"][1]["name"] == "Bob the Builder"


def test_every_seat_follows_the_rematch_with_its_own_token(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    joined = server.join(code)
    clients = {0: Client(server, code, created["token"]), 1: Client(server, code, joined["token"])}
    play(clients)
    # Ada asks; Bob's page sees the rematch frame and asks with his own token: both land in one new room.
    status, ada = server.request("POST", f"/api/rooms/{code}/rematch", {"token": created["token"]})
    assert status == 200 and ada["seat"] == 0 and ada["token"]
    frame = clients[1].recv_type("rematch")
    assert frame["code"] == ada["code"]
    status, bob = server.request("POST", f"/api/rooms/{code}/rematch", {"token": joined["token"]})
    assert status == 200 and bob["code"] == ada["code"] and bob["seat"] == 1
    new = {0: Client(server, ada["code"], ada["token"]), 1: Client(server, bob["code"], bob["token"])}
    assert new[0].seat == 0 and new[1].seat == 1
    assert play(new) > 0 and new[0].state["terminal"]
    for c in [*clients.values(), *new.values()]:
        c.close()


def test_one_connection_plays_several_local_seats(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], hints=True)
    code = created["code"]
    bob = server.request("POST", f"/api/rooms/{code}/join", {"seat": 1})[1]
    tokens = {0: created["token"], 1: bob["token"]}
    c = Client(server, code)
    c.send({"type": "join", "token": tokens[0], "tokens": [tokens[1], "not-a-token"]})
    assert c.recv_type("welcome")["seat"] == 0
    seats = c.recv_type("seats")["seats"]
    assert [s["online"] for s in seats] == [True, True]  # both seats are played here
    for _ in range(40):  # both players' turns, each authorised by its token on the one connection
        time.sleep(0.12)  # a person's pace: the server limits a connection to 20 messages a second
        state = c.state
        seat = state["current"]
        if state["can_roll"]:
            action = "roll"
        else:
            # The server answers 'preparing' (no options) when the table is not ready within a moment (a loaded
            # machine): ask again, as the page does.
            deadline = time.monotonic() + 300
            while True:
                c.send({"type": "hint", "token": tokens[seat], "id": "h"})
                hint = c.recv_type("hint", "error", timeout=180)
                if hint.get("status") != "preparing" or time.monotonic() > deadline:
                    break
                time.sleep(1)
            assert hint["type"] == "hint" and hint["options"] and hint["options"][0]["delta"] == 0.0, hint
            assert all(o["delta"] <= 0 for o in hint["options"])
            action = hint["suggest"]
        c.send({"type": "act", "action": action, "token": tokens[seat], "at": state["seq"], "id": "a"})
        ack = c.recv_type("ack", "error")
        assert ack["type"] == "ack", ack
        c.wait_seq(ack["seq"])
    assert c.state["round"] >= 2
    c.close()


def test_end_of_game_summary_review_and_moves(server: Server) -> None:
    created = server.create([{"name": "Ada"}])
    code = created["code"]
    c = Client(server, code, created["token"])
    status, body = server.request("GET", f"/api/rooms/{code}/summary")
    assert status == 409 and body["detail"]["code"] == "not_finished"
    play({0: c})
    # The first review of a rule set may load its solver table: allow it time.
    with urllib.request.urlopen(f"{server.http}/api/rooms/{code}/summary", timeout=300) as r:
        status, rep = r.status, json.loads(r.read())
    assert status == 200 and rep["finished"] and rep["solo"] and rep["winners"] == []
    ada = rep["players"][0]
    assert ada["total"] == c.state["totals"][0]
    assert ada["upper"] + ada["bonus"] + ada["lower"] + ada["extra"] == ada["total"]
    review = rep["review"]
    me = review["players"][0]
    # total = expected_start - lost + luck, exactly as the application layer splits it.
    assert abs(review["expected_start"] - me["lost"] + me["luck"] - ada["total"]) < 0.05
    assert me["decisions"] == len(review["decisions"]) >= 13
    status, moves = server.request("GET", f"/api/rooms/{code}/moves")
    assert [m["seq"] for m in moves] == list(range(1, c.state["seq"] + 1))
    assert moves[0] == {"seq": 1, "player": 0, "action": "roll", "by": None} and moves[1]["action"].startswith("throw ")
    with urllib.request.urlopen(f"{server.http}/api/rooms/{code}/log") as r:
        assert r.headers["Content-Disposition"] == f'attachment; filename="pasch-{code}.json"'
    c.close()


@pytest.mark.parametrize("rules", ["jetsi", "knaster"])
def test_multi_column_end_with_an_estimated_review_and_knaster_without(server: Server, rules: str) -> None:
    created = server.create([{"name": "Ada", "kind": "bot:greedy"}, {"name": "Bob", "kind": "bot:greedy"}], rules=rules)
    code = created["code"]
    c = Client(server, code)
    deadline_state = c.state
    while not deadline_state.get("terminal"):
        c.recv(timeout=60)
        deadline_state = c.state
    status, rep = server.request("GET", f"/api/rooms/{code}/summary")
    assert status == 200 and not rep["solo"]
    assert rep["winners"] == [p["name"] for p in rep["players"] if p["rank"] == 1]
    assert [p["rank"] for p in rep["players"]] == sorted(p["rank"] for p in rep["players"])
    if rules == "knaster":
        assert rep["review"] is None
    else:  # against the bot's estimate, labelled so, with no luck figure (only final dice are judged)
        review = rep["review"]
        assert review["estimated"] is True
        assert [p["name"] for p in review["players"]] == ["Ada", "Bob"]
        assert all(p["luck"] is None and p["lost"] >= 0 for p in review["players"])
        assert len(review["decisions"]) == sum(p["decisions"] for p in review["players"]) > 0
    c.close()


@pytest.mark.slow
def test_lobby_private_rooms_and_summary_on_postgresql(
    postgres: Postgres, tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(postgres.url, tmp_path).start()
    servers.append(server)
    public = server.create([{"name": "Ada"}, {"name": ""}])
    private = server.create([{"name": "Eve"}, {"name": ""}], private=True)
    _status, lobby = server.request("GET", "/api/rooms")
    row = next(r for r in lobby if r["code"] == public["code"])
    assert row["players"] == ["Ada"] and row["free"] == 1
    assert private["code"] not in [r["code"] for r in lobby]
    solo = server.create([{"name": "Ada"}])
    c = Client(server, solo["code"], solo["token"])
    play({0: c})
    with urllib.request.urlopen(f"{server.http}/api/rooms/{solo['code']}/summary", timeout=300) as r:
        rep = json.loads(r.read())
    assert rep["solo"] and rep["players"][0]["total"] == c.state["totals"][0]
    c.close()
    assert "Traceback" not in server.output()


def test_rooms_take_each_rule_sets_own_player_range(server: Server) -> None:
    """Yatzy and Knaster take 20 players (their sources set no maximum), Kniffel 8: the request model admits
    up to the largest range and the rule set's own range decides."""
    twenty = [{"name": "Ada"}] + [{"name": f"Bot {i}", "kind": "bot:greedy"} for i in range(2, 21)]
    for rules in ("yatzy", "knaster"):
        created = server.create(twenty, rules=rules)
        _status, view = server.request("GET", f"/api/rooms/{created['code']}")
        assert len(view["state"]["players"]) == 20
    status, body = server.request("POST", "/api/rooms", {"seats": [*twenty, {"name": "Extra"}], "rules": "yatzy"})
    assert status == 422, body
    status, body = server.request("POST", "/api/rooms", {"seats": twenty[:9], "rules": "kniffel"})
    assert status == 400 and "8" in json.dumps(body), body


def test_the_end_report_asks_for_no_percentile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The summary's review computed the exact score distribution (the page never shows it): the first game
    of a rule set waited 45-90 s for its end card (issue 25)."""
    import numpy as np

    from pasch.app import Match, parse_seats
    from pasch.web import _end

    match = Match.new("yacht", parse_seats("bot:greedy"), rng=np.random.default_rng(3), undo=False)
    match.play_bots()
    asked: list[object] = []
    real = _end.review

    def review(log: object, **kwargs: object) -> object:
        asked.append(kwargs.get("percentile", "default"))
        return real(log, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_end, "review", review)
    report = _end.end_report(match.log, match.state)
    assert asked == [False]
    assert report["finished"] and report["review"] is not None
