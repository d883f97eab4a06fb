"""How frames leave the server: one encoding per broadcast, an action's ``ack`` and ``update`` in one write of
the direct send, the queue (in order) when the direct send cannot take them, and JSON that equals :mod:`json`'s."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from pasch.engine import State, Throw, new_game
from pasch.web import _hub
from pasch.web._hub import Conn, Hub
from pasch.web._json import dumps, loads
from pasch.web._transport import DIRECT_SEND
from pasch.web._view import ViewCache, state_view


class FakeSocket:
    """What :class:`Conn` reads of a websocket: its scope (with or without the direct send)."""

    def __init__(self, direct: Any = None) -> None:
        self.scope: dict[str, Any] = {"extensions": {DIRECT_SEND: direct} if direct is not None else {}}
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.sent.append(f"close {code}")


class Direct:
    """A direct send that records each write, and refuses while ``open`` is False (a slow reader)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.open = True

    def __call__(self, texts: list[str]) -> bool:
        if not self.open:
            return False
        self.writes.append(list(texts))
        return True


def test_an_ack_and_its_update_leave_in_one_write() -> None:
    async def scenario() -> list[list[str]]:
        direct = Direct()
        conn = Conn(FakeSocket(direct), "ROOM")  # type: ignore[arg-type]
        conn.send({"type": "ack", "id": 1, "seq": 2, "events": ["roll", "throw 1 2 3 4 5"]})
        conn.send('{"type":"update"}')
        assert direct.writes == []  # nothing yet: written at the end of this turn of the loop
        await asyncio.sleep(0)
        conn.send('{"type":"update","n":2}')  # the next turn: its own write
        await asyncio.sleep(0)
        assert conn.queue.empty()
        return direct.writes

    writes = asyncio.run(scenario())
    assert len(writes) == 2
    assert [json.loads(t)["type"] for t in writes[0]] == ["ack", "update"]
    assert writes[1] == ['{"type":"update","n":2}']


def test_a_slow_reader_gets_its_frames_through_the_queue_in_order() -> None:
    async def scenario() -> tuple[list[list[str]], list[str]]:
        direct = Direct()
        ws = FakeSocket(direct)
        conn = Conn(ws, "ROOM")  # type: ignore[arg-type]
        writer = asyncio.get_running_loop().create_task(conn.writer())
        direct.open = False  # the transport's buffer is full: the direct send refuses
        conn.send("1")
        conn.send("2")
        await asyncio.sleep(0)
        direct.open = True
        conn.send("3")  # the queue still holds frames: this one waits behind them, not beside them
        conn.end()
        await asyncio.wait_for(writer, 5)
        return direct.writes, ws.sent

    writes, sent = asyncio.run(scenario())
    assert writes == []
    assert sent == ["1", "2", "3", "close 1008"]


def test_without_the_direct_send_frames_go_through_asgi() -> None:
    async def scenario() -> list[str]:
        ws = FakeSocket()
        conn = Conn(ws, "ROOM")  # type: ignore[arg-type]
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.send({"type": "pong", "id": None})
        conn.end()
        await asyncio.wait_for(writer, 5)
        return ws.sent

    assert asyncio.run(scenario()) == ['{"type":"pong","id":null}', "close 1008"]


def test_a_broadcast_is_encoded_once_for_the_whole_room(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    real = _hub.encode

    def counting(message: dict[str, Any]) -> str:
        calls.append(message)
        return real(message)

    monkeypatch.setattr(_hub, "encode", counting)

    class Room:
        code = "ROOM"

    async def scenario() -> list[list[list[str]]]:
        hub = Hub(None)  # type: ignore[arg-type]
        directs = [Direct() for _ in range(5)]
        hub.conns["ROOM"] = {Conn(FakeSocket(d), "ROOM") for d in directs}  # type: ignore[arg-type]
        hub.deliver(Room(), {"type": "update", "by": 0, "events": ["roll"], "state": {"seq": 1}})  # type: ignore[arg-type]
        await asyncio.sleep(0)
        return [d.writes for d in directs]

    writes = asyncio.run(scenario())
    assert len(calls) == 1
    assert all(w == [['{"type":"update","by":0,"events":["roll"],"state":{"seq":1}}']] for w in writes)


@pytest.mark.parametrize(
    "value",
    [
        {"type": "update", "state": {"dice": [1, 2, 3], "name": "Zoë", "x": 1.5, "none": None, "t": True}},
        {"counts": {1: 2, 3: 4}},  # integer keys become strings, as in json
        {"big": 2**70},  # beyond 64 bits: json writes it
        {"text": "a\ud800b"},  # a lone surrogate: json escapes it
    ],
)
def test_frames_are_the_json_of_the_standard_library(value: dict[str, Any]) -> None:
    assert json.loads(dumps(value)) == json.loads(json.dumps(value))


def test_loads_says_whether_the_strings_are_unicode() -> None:
    assert loads('{"type": "act", "action": "roll"}') == ({"type": "act", "action": "roll"}, True)
    value, unicode = loads('{"type": "chat", "text": "\\ud800"}')
    assert value == {"type": "chat", "text": "\ud800"} and not unicode
    value, unicode = loads('{"n": 123456789012345678901234567890}')  # orjson: a float (refused as an int)
    assert unicode and float(value["n"]) == 1.2345678901234568e29
    with pytest.raises(ValueError):
        loads("{not json")


@pytest.mark.parametrize("rules", ["kniffel", "yatzy", "kniffel-3"])
def test_the_room_view_cache_gives_the_views_of_a_fresh_draw(rules: str) -> None:
    rng = random.Random(25)
    state: State = new_game(rules, ["Ada", "Bob", "Cy"])
    cache = ViewCache()
    for seq in range(400):
        assert state_view(state, seq, cache) == state_view(state, seq)
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(Throw(tuple(sorted(rng.randint(1, 6) for _ in range(state.pending)))))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
