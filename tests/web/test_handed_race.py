"""A player's own move made on a server process that has not yet heard that their seat was handed to a stand-in
bot (docs/protocol.md, *Turn clock*): the reverse of tests/web/test_stand_in_back.py.

The database orders the two. A hand-over opens its ``stand_ins`` entry after the log's last event, read with the
room's row locked, and a player's own move is written only while the stored ``meta`` does not hand their seat
over, checked in the same transaction. So the move is never logged as the stand-in's: made after the hand-over,
it is refused, the process records the player's ``back`` and writes the move again, as the player's; made before
(the turn clock's process had not heard of it), the clock's hand-over is dropped.

Each order is forced: the process that has "not heard" is made deaf (its relay holds every notification, and its
periodic catch-up, until the test lets them through), and the bots' owner's stand-in write is held by the
:class:`_Gate` of tests/web/test_stand_in_back.py. Two services on one PostgreSQL, each with its own connections,
writer and relay, as two server processes; on SQLite (one process) the hand-over is written beside the service.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from pasch.storage import StandInError, make_engine, migrate
from pasch.web._manners import ActError, played_by
from pasch.web._relay import Relay
from pasch.web._service import Service

from ._support import WAIT, Postgres
from .test_stand_in_back import _forward, _Gate, _stored, _until

ADA, BOB = 0, 1


class _Deaf:
    """Makes a process's relay hold what it hears (notifications, and its periodic catch-up from the log) until
    :meth:`hear`: the process has not heard yet of what another one did."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self.held: list[str] = []
        self._on_notice: Callable[[str], None] = relay.on_notice
        self._want_all: Callable[[], None] = relay.want_all
        relay.on_notice = self.held.append  # type: ignore[method-assign]
        relay.want_all = lambda: None  # type: ignore[method-assign]

    def hear(self) -> None:
        self.relay.on_notice = self._on_notice  # type: ignore[method-assign]
        self.relay.want_all = self._want_all  # type: ignore[method-assign]
        for payload in self.held:
            self._on_notice(payload)
        self.held.clear()


@asynccontextmanager
async def _processes(engine: Engine) -> AsyncIterator[tuple[Service, Service, Relay, Relay]]:
    """The bots' (and clocks') owner and another process, each with its relay."""
    owner, other = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
    other.leader = False
    relays = [Relay(svc, lambda _room, _msg: None) for svc in (owner, other)]
    for svc, relay in zip((owner, other), relays, strict=True):
        svc.listeners.append(_forward(relay))
        relay.start()
    try:
        await _until(lambda: all(r.connected for r in relays), "the relays to listen")
        yield owner, other, relays[0], relays[1]
    finally:
        for relay in relays:
            await relay.stop()
        owner.close()
        other.close()


async def _bobs_turn(owner: Service, other: Service, **options: Any) -> tuple[str, int]:
    """A room of Ada (the host) and Bob, watched in both processes, at the start of Bob's first turn."""
    room, _ = await owner.create_room("kniffel", [("Ada", "human"), ("Bob", "human")], stand_in="bot:greedy", **options)
    code = room.code
    owner.rooms[code].watchers = 1
    (await other.get_room(code)).watchers = 1
    await owner.act(code, ADA, "roll")
    await owner.act(code, ADA, "score chance")
    played = owner.rooms[code].seq
    await _until(lambda: other.rooms[code].seq == played, "the other process to follow Ada's turn")
    return code, played


def _bobs_entries(stand_ins: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    return [(s["from"], s["to"]) for s in stand_ins if s["seat"] == BOB]


@pytest.mark.slow
def test_a_move_after_a_hand_over_the_process_had_not_heard_of_is_the_players(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        async with _processes(engine) as (owner, other, _, other_relay):
            code, played = await _bobs_turn(owner, other)
            deaf = _Deaf(other_relay)
            gate = _Gate(owner)
            await owner.table.hand(code, ADA, BOB)  # nobody else is connected: at once
            await asyncio.wait_for(gate.reached.wait(), WAIT)  # the stand-in's roll, held on its way
            assert other.rooms[code].away == {}  # the other process has not heard of the hand-over
            # Bob, connected to the other process, rolls: that is his move, and he is back.
            await other.act(code, BOB, "roll")
            actions, stand_ins = _stored(owner, code)
            assert actions[played] == "roll" and len(actions) == played + 2
            assert played_by(stand_ins, BOB, played + 1) is None, f"Bob's roll logged as the stand-in's: {stand_ins}"
            assert _bobs_entries(stand_ins) == []  # the stand-in played nothing: no entry
            assert other.rooms[code].away == {}
            gate.open()  # the stand-in's roll, decided before Bob's, reaches the database now
            deaf.hear()
            await _until(lambda: owner.rooms[code].seq == played + 2, "the owner to catch up")
            assert [type(e) for e in gate.refused] == [StandInError]  # refused: Bob is back
            await _until(lambda: owner.rooms[code].away == {}, "the owner to hear that Bob is back")
            task = owner.rooms[code].bot_task
            if task is not None:
                await asyncio.wait_for(asyncio.shield(task), WAIT)
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 2, f"the stand-in moved after Bob's own move: {actions[played:]}"
            assert owner.table.turn(owner.rooms[code]) is None  # Bob's to keep or score, not the bot's
            await other.act(code, BOB, "score chance")
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 3 and played_by(stand_ins, BOB, played + 3) is None

    asyncio.run(scenario())
    engine.dispose()


@pytest.mark.slow
def test_a_move_on_a_state_the_stand_in_has_left_is_stale_and_the_stand_in_stops(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        async with _processes(engine) as (owner, other, _, other_relay):
            code, played = await _bobs_turn(owner, other)
            deaf = _Deaf(other_relay)
            gate = _Gate(owner)
            await owner.table.hand(code, ADA, BOB)
            await asyncio.wait_for(gate.reached.wait(), WAIT)
            gate.reached.clear()
            gate.let_one_pass()  # the stand-in's roll is logged; its next move is held
            await _until(lambda: owner.rooms[code].seq == played + 2, "the stand-in's roll")
            await asyncio.wait_for(gate.reached.wait(), WAIT)
            assert other.rooms[code].seq == played and other.rooms[code].away == {}  # it has heard of neither
            # Bob, on the other process, rolls on the state he sees: the stand-in rolled already.
            with pytest.raises(ActError) as refused:
                await other.act(code, BOB, "roll", at=played)
            assert refused.value.code in ("stale", "conflict")
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 2  # nothing of Bob's try is logged
            # ... but he is there: his back is recorded (the stand-in's roll and throw are the stand-in's).
            assert _bobs_entries(stand_ins) == [(played + 1, played + 2)], f"Bob is not back: {stand_ins}"
            gate.open()
            deaf.hear()
            await _until(lambda: owner.rooms[code].away == {}, "the owner to hear that Bob is back")
            task = owner.rooms[code].bot_task
            if task is not None:
                await asyncio.wait_for(asyncio.shield(task), WAIT)
            actions, _ = _stored(owner, code)
            assert len(actions) == played + 2, f"the stand-in moved after Bob's try: {actions[played:]}"
            await _until(lambda: other.rooms[code].seq == played + 2, "the other process to catch up")
            await other.act(code, BOB, "score chance", at=played + 2)
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 3 and played_by(stand_ins, BOB, played + 3) is None

    asyncio.run(scenario())
    engine.dispose()


@pytest.mark.slow
def test_a_turn_clock_running_out_after_the_players_move_elsewhere_hands_nothing_over(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        async with _processes(engine) as (owner, other, owner_relay, _):
            code, played = await _bobs_turn(owner, other, clock=15)
            key = owner.rooms[code].clock_key
            assert key is not None and key[0] == BOB  # Bob's clock runs in the owner
            deaf = _Deaf(owner_relay)
            await other.act(code, BOB, "roll")  # ... as his clock runs out there, before the owner hears of it
            await owner.table._time_out(code, key)
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 2
            assert _bobs_entries(stand_ins) == [], f"Bob's turn was handed over after his roll: {stand_ins}"
            room = owner.rooms[code]
            assert room.seq == played + 2 and room.away == {}  # caught up instead
            assert room.clock_key is not None and room.clock_key[0] == BOB  # and his clock runs again
            deaf.hear()
            task = room.bot_task
            if task is not None:
                await asyncio.wait_for(asyncio.shield(task), WAIT)
            await other.act(code, BOB, "score chance")
            actions, stand_ins = _stored(owner, code)
            assert len(actions) == played + 3 and played_by(stand_ins, BOB, played + 3) is None

    asyncio.run(scenario())
    engine.dispose()


def test_on_sqlite_a_move_on_a_seat_handed_over_beside_the_service_is_the_players(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")], stand_in="bot:greedy")
            code = room.code
            await svc.act(code, ADA, "roll")
            await svc.act(code, ADA, "score chance")
            played = svc.rooms[code].seq
            # Another writer hands Bob's seat over (as only another process could), in the stored format.
            entry = {"seat": BOB, "bot": "bot:greedy", "from": played + 1, "to": None, "why": "host"}
            await asyncio.to_thread(svc.store.update_meta, room.id, lambda m: {**m, "stand_ins": [entry]})
            assert svc.rooms[code].away == {}
            await svc.act(code, BOB, "roll")
            actions, stand_ins = _stored(svc, code)
            assert actions[played] == "roll" and len(actions) == played + 2
            assert played_by(stand_ins, BOB, played + 1) is None, f"Bob's roll logged as the stand-in's: {stand_ins}"
            assert _bobs_entries(stand_ins) == []
            room = svc.rooms[code]
            assert room.away == {} and svc.table.turn(room) is None
            await svc.act(code, BOB, "score chance")
            actions, stand_ins = _stored(svc, code)
            assert len(actions) == played + 3 and played_by(stand_ins, BOB, played + 3) is None
        finally:
            svc.close()

    asyncio.run(scenario())
    engine.dispose()


@pytest.mark.slow
def test_a_hand_over_by_a_process_behind_the_log_starts_after_the_players_move(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        async with _processes(engine) as (owner, other, owner_relay, _):
            code, played = await _bobs_turn(owner, other)
            deaf = _Deaf(owner_relay)
            await other.act(code, BOB, "roll")  # the host's process has not heard of it ...
            await owner.table.hand(code, ADA, BOB)  # ... when the host hands Bob's seat over
            _, stand_ins = _stored(owner, code)
            assert _bobs_entries(stand_ins) == [(played + 3, None)], f"the hand-over took in Bob's roll: {stand_ins}"
            assert played_by(stand_ins, BOB, played + 1) is None
            deaf.hear()
            await _until(lambda: owner.rooms[code].finished or owner.rooms[code].seq > played + 2, "the stand-in")
            _, stand_ins = _stored(owner, code)
            assert played_by(stand_ins, BOB, played + 3) == "bot:greedy"  # the rest of the turn is the stand-in's

    asyncio.run(scenario())
    engine.dispose()
