"""Several ``pasch serve`` processes on one PostgreSQL (relay, bot lease, drain), and SQLite's one process.

The processes are real subprocesses on free ports sharing the throw-away PostgreSQL of the ``postgres``
fixture; the clients of one room are spread over them.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session
from websockets.exceptions import ConnectionClosed

from pasch.storage import EventRow, GameRow, SeatRow, make_engine, migrate
from pasch.web._lease import Lease
from pasch.web._relay import Relay, notice
from pasch.web._service import ActError, Room, Service

from ._support import WAIT, Client, Postgres, Server, choose, play


def updates(client: Client, upto: int = 1 << 30) -> list[tuple[int, int, list[str]]]:
    """(seq, by, events) of every ``update`` a client received up to ``upto``, in the order received."""
    return [(m["state"]["seq"], m["by"], m["events"]) for m in client.seen if m["type"] == "update"][:upto]


def start(postgres: Postgres, tmp_path: Path, servers: list[Server], n: int, **kw: Any) -> list[Server]:
    out = []
    for i in range(n):
        d = tmp_path / f"p{i}"
        d.mkdir()
        s = Server(postgres.url, d, **kw).start()
        servers.append(s)
        out.append(s)
    return out


def leader(servers: list[Server], timeout: float = 10.0) -> Server:
    """The one process that drives the bots (``/api/ready``'s ``leader``), once there is exactly one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [s for s in servers if s.proc is not None and s.request("GET", "/api/ready")[1].get("leader")]
        if len(found) == 1:
            return found[0]
        time.sleep(0.1)
    raise AssertionError("no single leader")


def logged(server: Server, code: str) -> list[str]:
    status, body = server.request("GET", f"/api/rooms/{code}/log")
    assert status == 200, body
    return list(body["actions"])


def assert_acked_in_log(acks: list[dict[str, Any]], actions: list[str]) -> None:
    for ack in acks:
        seq, events = ack["seq"], ack["events"]
        assert actions[seq - len(events) : seq] == events, (ack, actions)


@pytest.mark.slow
def test_three_processes_one_room_same_events_same_order(
    postgres: Postgres, tmp_path: Path, servers: list[Server]
) -> None:
    a, b, c = start(postgres, tmp_path, servers, 3)
    created = a.create([{"name": "Ada"}, {"name": "Bob"}, {"name": "Cy"}, {"name": "Robo", "kind": "bot:greedy"}])
    code = created["code"]
    early, early_c = Client(a, code), Client(c, code)  # A and C have the room cached before the claims
    bob = b.join(code)
    cy = c.join(code)
    # A's connections hear of the claims made on B and C (forwarded, then read from the database).
    deadline = time.monotonic() + 10
    while not all(s["claimed"] for s in early.recv_type("seats")["seats"]):
        assert time.monotonic() < deadline
    # Each player connects to a process that did not give them their seat.
    players = {0: Client(b, code, created["token"]), 1: Client(c, code, bob["token"]), 2: Client(a, code, cy["token"])}
    assert [p.seat for p in players.values()] == [0, 1, 2]
    watchers = [early_c, *(Client(s, code) for s in (a, b, c))]
    play(players, stop_after=40)
    final = max(p.state["seq"] for p in players.values())
    for client in [*players.values(), *watchers]:
        client.wait_seq(final)
    seen = [[u for u in updates(client) if u[0] <= final] for client in [*players.values(), *watchers]]
    assert len(seen[0]) > 40 and all(s == seen[0] for s in seen), "every connection sees the same updates"
    # ... in log order, consecutive, and they are the log.
    actions = logged(b, code)
    flat = [e for _, _, events in seen[0] for e in events]
    assert flat == actions[: len(flat)] and seen[0][-1][0] == len(flat) == final
    assert [seq for seq, _, _ in seen[0]] == sorted({seq for seq, _, _ in seen[0]})
    assert any(by == 3 for _, by, _ in seen[0]), "the bot played"
    # A player reconnects to another process and resumes there from the log.
    players[0].close()
    players[0] = Client(a, code, created["token"])
    assert players[0].seat == 0 and players[0].state["seq"] >= final
    play(players, stop_after=10)
    # A room whose bot moves first, made on a process that does not drive the bots: the driver hears of it.
    driver = leader([a, b, c])
    other = next(s for s in (a, b, c) if s is not driver)
    made = other.create([{"name": "Robo", "kind": "bot:greedy"}, {"name": "Ada"}])
    Client(other, made["code"]).wait_seq(2)
    assert "Traceback" not in a.output() + b.output() + c.output()


def test_forwarded_rematch_and_notices_reach_this_process(tmp_path: Path) -> None:
    """The relay's handling of notifications, without a listener: a rematch made elsewhere, bad payloads."""
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    sent: list[tuple[str, dict[str, Any]]] = []

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        relay = Relay(svc, lambda room, msg: sent.append((room.code, msg)))
        try:
            room, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            for bad in ("", "x", "e", "e CODE", "e CODE x 1", "m", f"m {relay.token} {room.code} {{}}", "m t C {"):
                relay.on_notice(bad)
            relay.on_notice(f'm other {room.code} {{"type":"rematch","code":"NEWONE"}}')
            assert room.rematch_code == "NEWONE"
            relay.on_notice(f"m {relay.token} {room.code} " + '{"type":"rematch","code":"MINE"}')  # our own
            assert room.rematch_code == "NEWONE"
            # A claim made elsewhere is read from the database although nobody here watches the room (so that a
            # rematch made here copies the new seat's token).
            with engine.begin() as conn:
                conn.execute(update(SeatRow).where(SeatRow.game_id == room.id, SeatRow.seat == 1).values(claimed=True))
            relay.on_notice(f'm other {room.code} {{"type":"seats"}}')
            # The relay reads the claim in a thread: wait for it (a loaded machine may take seconds).
            deadline = time.monotonic() + WAIT
            while not room.seats[1].claimed and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert room.seats[1].claimed and room.watchers == 0
            # A room nobody here watches is dropped when another process moves it on (reloaded on demand).
            relay.on_notice(f"e {room.code} 2 0")
            assert room.code not in svc.rooms
            assert (await svc.get_room(room.code)).seq == 0
        finally:
            svc.close()

    asyncio.run(scenario())
    assert sent == [(sent[0][0], {"type": "rematch", "code": "NEWONE"})]
    engine.dispose()


def test_a_token_revoked_by_another_process_stops_acting_here(tmp_path: Path) -> None:
    """On PostgreSQL a revoked token kept working on the other process (issue 26): the revoking process
    notifies ``tokens``; this one re-reads the seats and hands its connections the news."""
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    sent: list[dict[str, Any]] = []

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        relay = Relay(svc, lambda room, msg: sent.append(msg))
        try:
            room, tokens = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            assert room.seat_of(tokens[0]) == 0
            with engine.begin() as conn:  # what another process's rematch exchange or expiry writes
                conn.execute(
                    update(SeatRow).where(SeatRow.game_id == room.id, SeatRow.seat == 0).values(token_hash=None)
                )
            assert room.seat_of(tokens[0]) == 0  # this process does not know yet ...
            relay.on_notice(f'm other {room.code} {{"type":"tokens"}}')
            deadline = time.monotonic() + WAIT
            while room.seat_of(tokens[0]) is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert room.seat_of(tokens[0]) is None  # ... until the notice: re-read at once
            assert {"type": "tokens"} in sent  # and its connections are told (they drop the seat)
            relay.publish(room, {"type": "tokens"})  # the revoking side forwards it (a payload, not an error)
        finally:
            svc.close()

    asyncio.run(scenario())
    engine.dispose()


@pytest.mark.slow
def test_sigkill_of_the_bot_driver_mid_game(postgres: Postgres, tmp_path: Path, servers: list[Server]) -> None:
    procs = start(postgres, tmp_path, servers, 3, bot_delay=0.3)
    driver = leader(procs)
    others = [s for s in procs if s is not driver]
    created = others[0].create([{"name": "Ada"}, {"name": "Robo", "kind": "bot:greedy"}])
    code = created["code"]
    ada = Client(others[0], code, created["token"])
    on_driver = Client(driver, code)
    on_other = Client(others[1], code)
    acks: list[dict[str, Any]] = []
    # Ada plays her first turns; then, right after the bot's roll (it must still score), its process dies.
    killed_at = 0.0
    while not killed_at:
        state = ada.state
        if state["current"] == 0:
            ack = ada.act(choose(state))
            assert ack["type"] == "ack", ack
            acks.append(ack)
            ada.wait_seq(ack["seq"])
            continue
        msg = ada.recv_type("update")
        if msg["by"] == 1 and msg["events"][0] == "roll" and len(acks) >= 6:
            driver.kill()
            killed_at = time.monotonic()
    before = ada.state["seq"]
    # The bot plays on from another process once the dead one's lease lapses (5 s, plus its own think time:
    # 7.0 s measured at load 10 on two cores); the wait allows three times that, and the time is not asserted.
    msg = ada.recv_type("update", timeout=3 * (5.0 + 0.3))
    assert msg["by"] == 1 and msg["state"]["seq"] > before
    # The connection to the dead process is gone; its client reconnects elsewhere and catches up.
    with pytest.raises((ConnectionClosed, OSError)):
        while True:
            on_driver.recv(timeout=5)
    on_driver = Client(others[1], code)  # resuming with the last seq it saw: the welcome is at least there
    on_driver.send({"type": "join", "seq": msg["state"]["seq"]})
    assert on_driver.recv_type("welcome")["state"]["seq"] >= msg["state"]["seq"]
    play({0: ada}, stop_after=6)
    acks += [m for m in ada.seen if m["type"] == "ack" and m not in acks]
    final = ada.state["seq"]
    for client in (on_driver, on_other):
        client.wait_seq(final)
    actions = logged(others[1], code)
    assert len(actions) >= final
    assert_acked_in_log(acks, actions)
    assert [e for _, _, ev in updates(on_other) for e in ev] == actions[: len(actions)]
    assert leader(others) in others
    assert "Traceback" not in others[0].output() + others[1].output()


@pytest.mark.slow
def test_sigterm_drains_without_losing_an_action(postgres: Postgres, tmp_path: Path, servers: list[Server]) -> None:
    (tmp_path / "a").mkdir()
    a = Server(postgres.url, tmp_path / "a", args=("--drain-grace", "1.5")).start()
    servers.append(a)
    (b,) = start(postgres, tmp_path, servers, 1)
    created = a.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    tokens = {0: created["token"], 1: a.join(code)["token"]}
    clients = {s: Client(a, code, t) for s, t in tokens.items()}
    watcher = Client(b, code)
    play(clients, stop_after=7)
    assert a.request("GET", "/api/ready")[0] == 200
    state = clients[0].state
    seat = state["current"]
    # An action in flight when SIGTERM arrives: it is recorded and acknowledged before the connection closes.
    assert a.proc is not None
    clients[seat].send({"type": "act", "action": choose(state), "id": "last"})
    a.proc.send_signal(signal.SIGTERM)
    status, body = a.request("GET", "/api/ready")
    assert status == 503 and body["status"] == "draining"
    with pytest.raises(ConnectionClosed):
        Client(a, code)  # a new connection to the draining process is told to go elsewhere
    late = Client(b, code)  # the other process still serves
    got: list[dict[str, Any]] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            got.append(clients[seat].recv(timeout=10))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012  # "service restart": reconnect
    assert a.proc.wait(15) is not None
    acks = [m for m in got if m["type"] == "ack"]
    actions = logged(b, code)
    if acks:
        assert_acked_in_log(acks, actions)
        assert len(actions) == acks[0]["seq"]
    else:
        assert len(actions) == state["seq"]
    # Everyone reconnects to B and the game goes on there; the watcher of B saw every event in order.
    clients = {s: Client(b, code, t) for s, t in tokens.items()}
    assert clients[0].state["seq"] == len(actions)
    play(clients, stop_after=4)
    watcher.wait_seq(clients[0].state["seq"])
    late.wait_seq(clients[0].state["seq"])
    assert [e for _, _, ev in updates(watcher) for e in ev] == logged(b, code)
    assert "Traceback" not in a.output() + b.output()


@pytest.mark.slow
def test_a_stale_process_catches_up_from_the_log_on_conflict(postgres: Postgres) -> None:
    """Two services on one database, no listener: the stale one's write fails, it catches up in order."""
    engine = make_engine(postgres.url)
    migrate(engine)
    sent: list[dict[str, Any]] = []
    codes: list[str] = []

    async def scenario() -> None:
        fresh, stale = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
        relay = Relay(stale, lambda _room, msg: sent.append(msg))
        stale.notice, stale.on_conflict = None, relay.catch_up_locked

        async def record(_room: Room, msg: dict[str, Any]) -> None:
            sent.append(msg)

        stale.listeners.append(record)
        try:
            room, _ = await fresh.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            old = await stale.get_room(room.code)
            old.watchers = 1
            await fresh.act(room.code, 0, "roll")
            await fresh.act(room.code, 0, "score chance")
            with pytest.raises(ActError) as refused:
                await stale.act(room.code, 0, "roll")
            assert refused.value.code == "conflict"
            assert stale.rooms[room.code].seq == fresh.rooms[room.code].seq == 3
            assert [m["events"] for m in sent] == [fresh.rooms[room.code].actions[:2], ["score chance"]]
            # The caught-up game goes on: Bob's roll throws what the room's stream throws next.
            await stale.act(room.code, 1, "roll")
            assert fresh.reload(room.code).actions == stale.rooms[room.code].actions
            codes.append(room.code)
        finally:
            await relay.stop()
            fresh.close()
            stale.close()

    asyncio.run(scenario())
    with Session(engine) as session:
        rows = session.scalars(
            select(EventRow.action).join(GameRow).where(GameRow.code == codes[0]).order_by(EventRow.seq)
        ).all()
    assert len(rows) == 5
    engine.dispose()


@pytest.mark.slow
def test_commits_announced_with_their_frames_are_caught_up_without_reading_the_log(postgres: Postgres) -> None:
    """Another process's commit comes with its update frame in the NOTIFY: the watching process applies those
    events (checking its own throws against them) and sends that text, without a read of the log; a commit
    announced without its frame is read from the log."""
    engine = make_engine(postgres.url)
    migrate(engine)
    sent: list[dict[str, Any] | str] = []
    reads: list[list[tuple[int, int]]] = []

    async def scenario() -> None:
        fresh, stale = Service(engine, bot_delay=0), Service(engine, bot_delay=0)
        relay = Relay(stale, lambda _room, msg: sent.append(msg))
        real_read = relay._read

        async def counted(pairs: list[tuple[int, int]]) -> dict[int, list[tuple[int, int | None, str]]]:
            reads.append(pairs)
            return await real_read(pairs)

        relay._read = counted  # type: ignore[method-assign]
        relay.start()
        fresh.notice = notice  # the committing process announces each commit with its frame
        try:
            deadline = time.monotonic() + WAIT
            while not relay.connected and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            room, _ = await fresh.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            (await stale.get_room(room.code)).watchers = 1
            await fresh.act(room.code, 0, "roll")
            await fresh.act(room.code, 0, "score chance")
            while stale.rooms[room.code].seq < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert stale.rooms[room.code].seq == 3 and reads == []
            texts = [json.loads(m) for m in sent if isinstance(m, str)]
            assert [m["events"] for m in texts] == [fresh.rooms[room.code].actions[:2], ["score chance"]]
            fresh.notice = lambda r, p, v: notice(r, p, v).split(" {", 1)[0]  # announced without its frame
            await fresh.act(room.code, 1, "roll")
            while stale.rooms[room.code].seq < 5 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert len(reads) == 1 and stale.rooms[room.code].actions == fresh.rooms[room.code].actions
            await stale.act(room.code, 1, "score chance")  # the caught-up game goes on
            assert fresh.reload(room.code).actions == stale.rooms[room.code].actions
        finally:
            await relay.stop()
            fresh.close()
            stale.close()

    asyncio.run(scenario())
    engine.dispose()


def test_sqlite_refuses_a_second_server_process(tmp_path: Path, servers: list[Server]) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    first = Server(url, tmp_path).start()
    servers.append(first)
    second_dir = tmp_path / "second"
    second_dir.mkdir()
    second = Server(url, second_dir)
    with pytest.raises(RuntimeError, match="already served by another pasch serve process") as refused:
        second.start(timeout=60)
    assert "Traceback" not in str(refused.value) and "PostgreSQL" in str(refused.value)
    assert second.proc is None or second.proc.returncode == 2
    first.stop()
    second.start()  # the file is free again
    servers.append(second)
    assert second.request("GET", "/api/ready") == (200, {"status": "ready", "leader": True})


@pytest.mark.slow
def test_the_sweeps_owner_abandons_idle_rooms_other_processes_made(postgres: Postgres) -> None:
    engine = make_engine(postgres.url)
    migrate(engine)

    async def scenario() -> None:
        other, owner = Service(engine, bot_delay=0), Service(engine, bot_delay=0, abandon_after=3600)
        lease = Lease(owner, Relay(owner, lambda _room, _msg: None))
        try:
            idle, _ = await other.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            fresh, _ = await other.create_room("kniffel", [("Cy", "human"), ("Di", "human")])
            old = datetime.now(UTC) - timedelta(hours=2)
            with engine.begin() as conn:
                conn.execute(update(GameRow).where(GameRow.id == idle.id).values(created_at=old))
            assert await lease.adopt_idle() == []  # not the owner: nothing
            owner.leader = True
            assert idle.code in await lease.adopt_idle()
            assert fresh.code not in owner.rooms
            swept = await owner.sweep()
            assert swept["abandoned"] == [idle.code]
        finally:
            other.close()
            owner.close()

    asyncio.run(scenario())
    engine.dispose()
