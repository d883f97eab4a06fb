"""The hint panel over the websocket: every option's exact value (checked against the Solver), or the bot."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pasch.engine import Action
from pasch.solver import Solver

from ._support import Client, Server


def ask_hint(client: Client) -> dict[str, Any]:
    """Ask as the page does: while the table is being built the answer says 'preparing'; ask again."""
    for _ in range(120):
        client.send({"type": "hint", "id": "h"})
        hint = client.recv_type("hint", "error", timeout=120)  # the first hint may load the solver's table
        if hint.get("status") != "preparing":
            return hint
        time.sleep(1)
    raise AssertionError("the hint's table was never ready")


def test_hint_lists_every_option_with_the_solvers_exact_value(server: Server) -> None:
    created = server.create([{"name": "Ada"}], rules="kniffel", hints=True)
    ada = Client(server, created["code"], created["token"])
    solver = Solver.load("kniffel")
    # Before the first throw: the only option is to throw; its value is the sheet's expected final score.
    hint = ask_hint(ada)
    assert hint["type"] == "hint" and hint["exact"] is True and hint["id"] == "h"
    assert [o["action"] for o in hint["options"]] == ["roll"]
    assert hint["options"][0]["value"] == pytest.approx(solver.expected_start, abs=1e-6)
    checked = 0
    for _ in range(12):
        st = ada.state
        if st["can_roll"]:
            ack = ada.act("roll")
            ada.wait_seq(ack["seq"])
            continue
        hint = ask_hint(ada)
        assert hint["type"] == "hint" and hint["exact"] is True and hint["seq"] == ada.state["seq"]
        st = ada.state
        col = st["sheets"][0][0]
        expected = solver.options(col["scores"], st["dice"], st["throws_left"], sharp=st["sharp"])
        got = {o["action"]: o for o in hint["options"]}
        # Every option the solver knows, each with its value: the column's points so far + the expected rest.
        assert set(got) == {o.action_text for o in expected}
        assert len(got) > 5
        for o in expected:
            assert got[o.action_text]["value"] == pytest.approx(col["total"] + o.value, abs=1e-6)
        assert hint["suggest"] == expected[0].action_text
        best = [o for o in hint["options"] if o["best"]]
        assert best and best[0]["action"] == hint["suggest"]
        assert [o["value"] for o in hint["options"]] == sorted((o["value"] for o in hint["options"]), reverse=True)
        # Play the suggestion (it is legal) and look again on the next decision.
        ack = ada.act(hint["suggest"])
        assert ack["type"] == "ack", ack
        ada.wait_seq(ack["seq"])
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("rules", ["kniffel-4", "knaster"])
def test_hint_without_an_exact_table_gives_the_bots_legal_choice(server: Server, rules: str) -> None:
    created = server.create([{"name": "Ada"}], rules=rules, hints=True)
    ada = Client(server, created["code"], created["token"])
    for _ in range(4):
        hint = ask_hint(ada)
        assert hint["type"] == "hint" and hint["exact"] is False, hint
        assert all(o["value"] is None for o in hint["options"])
        Action.parse(hint["suggest"])  # a well-formed action text
        ack = ada.act(hint["suggest"])
        assert ack["type"] == "ack", (hint, ack)  # and a legal one
        ada.wait_seq(ack["seq"])


def test_hints_off_and_spectators_get_error_frames(server: Server) -> None:
    created = server.create([{"name": "Ada"}], rules="kniffel")
    ada = Client(server, created["code"], created["token"])
    assert ask_hint(ada)["code"] == "hints_off"
    on = server.create([{"name": "Ada"}], rules="kniffel", hints=True)
    watcher = Client(server, on["code"])
    assert ask_hint(watcher)["code"] == "spectator"


def test_keeper_room_hint_waits_for_the_tables_dice_then_values_every_box(server: Server) -> None:
    created = server.create([{"name": "Ada"}], rules="kniffel", hints=True, keeper=True)
    ada = Client(server, created["code"], created["token"])
    solver = Solver.load("kniffel")
    hint = ask_hint(ada)
    assert hint["suggest"] == "enter" and hint["exact"] is True
    assert hint["options"][0]["value"] == pytest.approx(solver.expected_start, abs=1e-6)
    ack = ada.act("enter 1 3 3 5 6")
    ada.wait_seq(ack["seq"])
    hint = ask_hint(ada)
    st = ada.state
    expected = solver.options(st["sheets"][0][0]["scores"], st["dice"], st["throws_left"], sharp=st["sharp"])
    assert [o["action"] for o in hint["options"]] == [o.action_text for o in expected]
    assert [o["value"] for o in hint["options"]] == pytest.approx([o.value for o in expected], abs=1e-6)
