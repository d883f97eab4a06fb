"""Resource bounds per client address: room creation, open rooms, connections, the lobby, unplayed rooms,
and the solver tables (a memory budget; one build at a time, hints 'preparing' meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from pasch.cli._web_cmds import serve_cmd
from pasch.rules import get
from pasch.solver import clear_shared, is_shared, set_shared_budget, shared_nbytes, shared_solver
from pasch.storage import GameRow, make_engine, migrate
from pasch.web import Limits
from pasch.web._limits import Limiter, LimitError
from pasch.web._service import ActError, Service

from ._support import WAIT, Client, Server, play


def limited(tmp_path: Path, servers: list[Server], *extra: str) -> Server:
    s = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, extra=extra).start()
    servers.append(s)
    return s


def create_raw(server: Server, forwarded_for: str | None = None) -> tuple[int, dict[str, str], object]:
    """POST a room (with an ``X-Forwarded-For`` header if given); the status, headers and body (no assertion)."""
    req = urllib.request.Request(
        f"{server.http}/api/rooms", data=b'{"seats": [{"name": "Ada"}, {"name": ""}]}', method="POST"
    )
    req.add_header("Content-Type", "application/json")
    if forwarded_for is not None:
        req.add_header("X-Forwarded-For", forwarded_for)
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def test_room_creation_is_rate_limited_per_address_with_retry_after(tmp_path: Path, servers: list[Server]) -> None:
    server = limited(tmp_path, servers, "--rooms-per-minute", "3", "--open-rooms", "0")
    assert [create_raw(server)[0] for _ in range(3)] == [201, 201, 201]
    status, headers, body = create_raw(server)
    assert status == 429, body
    assert 1 <= int(headers["retry-after"]) <= 60
    assert b"rate_limited" in body
    # Other requests of the same address still work.
    assert server.request("GET", "/api/health")[0] == 200


def test_a_forged_forwarded_header_is_not_a_new_address(tmp_path: Path, servers: list[Server]) -> None:
    """By default the limits count the connecting peer: a script on the same host (or a visitor behind a proxy
    that passes their header on) choosing a fresh X-Forwarded-For per request gets no fresh budget."""
    server = limited(tmp_path, servers, "--rooms-per-minute", "3", "--open-rooms", "0")
    statuses = [create_raw(server, f"203.0.113.{i}")[0] for i in range(5)]
    assert statuses == [201, 201, 201, 429, 429]


def test_a_trusted_proxy_names_the_client(tmp_path: Path, servers: list[Server]) -> None:
    """With --forwarded-allow-ips naming the proxy, each forwarded client has its own budget."""
    server = limited(
        tmp_path, servers, "--rooms-per-minute", "3", "--open-rooms", "0", "--forwarded-allow-ips", "127.0.0.1"
    )
    assert [create_raw(server, "203.0.113.7")[0] for _ in range(4)] == [201, 201, 201, 429]
    assert create_raw(server, "203.0.113.8")[0] == 201  # another client behind the same proxy


def test_open_rooms_per_address_are_bounded_until_one_ends(tmp_path: Path, servers: list[Server]) -> None:
    server = limited(tmp_path, servers, "--rooms-per-minute", "0", "--open-rooms", "2")
    solo = server.create([{"name": "Ada"}])
    server.create([{"name": "Ada"}, {"name": ""}])
    status, headers, body = create_raw(server)
    assert status == 429 and b"too_many_rooms" in body and "retry-after" in headers
    # Finish the solo game: the address may open another room.
    ada = Client(server, solo["code"], solo["token"])
    for _ in range(200):
        st = ada.state
        if st.get("terminal"):
            break
        if st["can_roll"]:
            ada.wait_seq(ada.act("roll")["seq"])
        else:
            best = max(st["options"], key=lambda o: (o["points"], -o["box"]))
            ada.wait_seq(ada.act(best["action"])["seq"])
    assert ada.state.get("terminal")
    assert create_raw(server)[0] == 201


def test_connections_are_bounded_per_room_and_per_address(tmp_path: Path, servers: list[Server]) -> None:
    server = limited(tmp_path, servers, "--conns-per-room", "3", "--conns-per-address", "4")
    one = server.create([{"name": "Ada"}, {"name": ""}])["code"]
    two = server.create([{"name": "Bob"}, {"name": ""}])["code"]
    held = [Client(server, one) for _ in range(3)]

    def refused(code: str) -> None:
        with pytest.raises(InvalidStatus) as err:
            connect(f"{server.ws}/ws/{code}", open_timeout=WAIT)
        assert err.value.response.status_code == 429
        assert int(err.value.response.headers["Retry-After"]) > 0
        assert b"too_many_connections" in err.value.response.body

    refused(one)
    held.append(Client(server, two))  # the 4th of the address, in another room
    refused(two)
    held.pop(0).close()
    deadline = 50
    while deadline:  # the server counts the closed connection down as soon as it sees the close
        try:
            held.append(Client(server, two))
            break
        except Exception:
            deadline -= 1
            asyncio.run(asyncio.sleep(0.1))
    assert deadline, "a freed connection slot was not given again"
    for c in held:
        c.send({"type": "ping", "id": "p"})
        assert c.recv_type("pong")["id"] == "p"


def test_lobby_gives_one_row_per_address_and_rooms_with_players_first() -> None:
    limiter = Limiter(Limits())
    for n in range(30):
        limiter.created("10.0.0.66", f"SPAM{n:02d}")
    limiter.created("10.0.0.7", "REAL01")
    rows = [{"code": f"SPAM{n:02d}"} for n in reversed(range(30))] + [{"code": "OLDIE1"}, {"code": "REAL01"}]
    assert [r["code"] for r in limiter.rank_lobby(rows, present=set())] == ["SPAM29", "OLDIE1", "REAL01"]
    ranked = limiter.rank_lobby(rows, present={"REAL01", "SPAM03"})
    assert [r["code"] for r in ranked] == ["SPAM03", "REAL01", "OLDIE1"]
    small = Limiter(Limits(lobby_size=1))
    assert [r["code"] for r in small.rank_lobby(rows, present={"OLDIE1"})] == ["OLDIE1"]


def test_limiter_windows_and_release_with_a_fake_clock() -> None:
    now = [0.0]
    limiter = Limiter(Limits(rooms_per_minute=2, open_rooms=0), clock=lambda: now[0])
    for code in ("A", "B"):
        limiter.check_create("x", lambda _c: True)
        limiter.created("x", code)
    with pytest.raises(LimitError) as err:
        limiter.check_create("x", lambda _c: True)
    assert err.value.retry_after == 60 and err.value.code == "rate_limited"
    limiter.check_create("y", lambda _c: True)  # another address is not affected
    now[0] = 59.5
    with pytest.raises(LimitError):
        limiter.check_create("x", lambda _c: True)
    now[0] = 60.0
    limiter.check_create("x", lambda _c: True)
    # Admitted attempts count at once: concurrent requests cannot all pass before one is recorded.
    racing = Limiter(Limits(rooms_per_minute=0, open_rooms=2))
    racing.check_create("z", lambda _c: True)
    racing.check_create("z", lambda _c: True)
    with pytest.raises(LimitError):
        racing.check_create("z", lambda _c: True)
    racing.failed("z")
    racing.check_create("z", lambda _c: True)
    conns = Limiter(Limits(conns_per_room=1, conns_per_address=0))
    conns.connect("x", "R")
    with pytest.raises(LimitError):
        conns.connect("y", "R")
    conns.disconnect("x", "R")
    conns.connect("y", "R")
    assert conns.connections() == 1


def test_rooms_nobody_played_expire_in_minutes_not_days(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0, abandon_after=7 * 86400, unplayed_after=900)
        svc.writer.start()
        try:
            unplayed, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
            played, _ = await svc.create_room("kniffel", [("Cy", "human"), ("Di", "human")])
            await svc.act(played.code, 0, "roll")
            now = datetime.now(UTC)
            assert (await svc.sweep(now + timedelta(minutes=10)))["abandoned"] == []
            out = await svc.sweep(now + timedelta(minutes=16))
            assert out["abandoned"] == [unplayed.code]
            assert played.code in svc.rooms
            assert unplayed.code not in [r["code"] for r in await svc.lobby()]
        finally:
            svc.close()

    asyncio.run(scenario())
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    with Session(engine) as s:
        statuses = {r.code: r.status for r in s.execute(select(GameRow.code, GameRow.status))}
    assert sorted(statuses.values()) == ["abandoned", "playing"]


def test_solver_tables_stay_under_the_memory_budget_least_recently_used_first() -> None:
    clear_shared()
    try:
        small = [get(f"kniffel+bonus={b}") for b in (10, 11, 12)]
        first = shared_solver(small[0])
        one = shared_nbytes()
        assert one > first.values.nbytes
        set_shared_budget(2 * one + one // 2)  # room for two
        shared_solver(small[1])
        shared_solver(small[0])  # used again: now the most recent
        shared_solver(small[2])
        assert [is_shared(r) for r in small] == [True, False, True]
        assert shared_nbytes() <= 2 * one + one // 2
        set_shared_budget(0)  # the table asked for last always stays
        assert is_shared(small[2]) and not is_shared(small[0])
    finally:
        set_shared_budget(None)
        clear_shared()


def test_table_queue_builds_one_at_a_time_and_hints_say_preparing(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)
    clear_shared()

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0)
        svc.writer.start()
        try:
            room, _ = await svc.create_room("kniffel+bonus=17", [("Ada", "human")], hints=True)
            rules = room.state.rules
            gate = asyncio.Event()
            # Hold the one table thread: the room's table waits behind it in the queue.
            blocker = svc.tables._pool.submit(lambda: asyncio.run_coroutine_threadsafe(gate.wait(), loop).result())
            hint = await svc.hint(room.code, 0)
            assert hint["status"] == "preparing" and hint["options"] == [] and hint["suggest"] is None
            assert svc.tables.pending() == 1 and not svc.tables.ready(rules)
            gate.set()
            await asyncio.wrap_future(blocker)
            await svc.tables.ensure(rules)
            hint = await svc.hint(room.code, 0)
            assert hint["status"] == "ready" and hint["exact"] is True and hint["options"][0]["action"] == "roll"
        finally:
            svc.close()

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(scenario())
    finally:
        loop.close()
        clear_shared()


def test_serve_defaults_are_the_limits_defaults() -> None:
    params = inspect.signature(serve_cmd).parameters
    defaults = Limits()
    for name in Limits.__dataclass_fields__:
        assert params[name].default == getattr(defaults, name), name


def test_tokens_rotate_on_a_rematch_and_each_page_receives_its_own(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}, {"name": "Robo", "kind": "bot:greedy"}])
    code = created["code"]
    bob_token = server.join(code)["token"]
    ada, bob, watcher = Client(server, code, created["token"]), Client(server, code, bob_token), Client(server, code)
    play({0: ada, 1: bob})
    ada.send({"type": "rematch", "token": created["token"], "id": "r"})
    mine = ada.recv_type("rematch")
    new = mine["code"]
    bobs = bob.recv_type("rematch")
    seen = watcher.recv_type("rematch")
    assert bobs["code"] == new == seen["code"] and "token" not in seen  # spectators get no token
    assert mine["token"] and bobs["token"] and len({mine["token"], bobs["token"], created["token"], bob_token}) == 4
    assert Client(server, new, mine["token"]).seat == 0 and Client(server, new, bobs["token"]).seat == 1
    assert Client(server, new, created["token"]).seat is None and Client(server, new, bob_token).seat is None


async def _finished_solo_room(svc: Service) -> tuple[Any, dict[int, str]]:
    """A yacht room of one human seat, played to its end (each turn: throw once, take the best box)."""
    room, tokens = await svc.create_room("yacht", [("Ada", "human")])
    while not svc.rooms[room.code].finished:
        thrown = await svc.act(room.code, 0, "roll")
        best = max(thrown.view["options"], key=lambda o: (o["points"], -o["box"]))
        await svc.act(room.code, 0, best["action"])
    return room, tokens


def test_tokens_expire_when_a_finished_room_is_left(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0, finished_ttl=600)
        svc.writer.start()
        try:
            room, tokens = await _finished_solo_room(svc)
            assert room.seat_of(tokens[0]) == 0
            out = await svc.sweep(datetime.now(UTC) + timedelta(minutes=11))
            assert out["dropped"] == [room.code]
            again = await svc.get_room(room.code)  # reloaded from the database: over, verifiable, no tokens
            assert again.finished and again.seat_of(tokens[0]) is None
            with pytest.raises(ActError) as err:
                await svc.rematch(room.code, tokens[0])
            assert err.value.code == "bad_token"
        finally:
            svc.close()

    asyncio.run(scenario())


def test_an_old_token_is_exchanged_for_the_rematch_once(server: Server) -> None:
    """Replaying a player's old token after the rematch existed took their seat in the new room (issue 26)."""
    created = server.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    bob_old = server.join(code)["token"]
    ada, bob = Client(server, code, created["token"]), Client(server, code, bob_old)
    play({0: ada, 1: bob})
    status, mine = server.request("POST", f"/api/rooms/{code}/rematch", {"token": created["token"]})
    assert status == 200 and mine["seat"] == 0, mine
    status, again = server.request("POST", f"/api/rooms/{code}/rematch", {"token": created["token"]})
    assert status == 403 and again["detail"]["code"] == "bad_token"  # exchanged already: it acts nowhere now
    status, bobs = server.request("POST", f"/api/rooms/{code}/rematch", {"token": bob_old})  # Bob follows
    assert status == 200 and bobs["seat"] == 1
    status, replay = server.request("POST", f"/api/rooms/{code}/rematch", {"token": bob_old})
    assert status == 403 and replay["detail"]["code"] == "bad_token"
    new = mine["code"]
    assert Client(server, new, mine["token"]).seat == 0 and Client(server, new, bobs["token"]).seat == 1
    # Bob's connection in the old room held the exchanged token: it is a spectator there now, told so.
    assert bob.recv_type("error")["code"] == "token_revoked"


def test_tokens_expire_on_time_whoever_is_watching(tmp_path: Path) -> None:
    """One open spectator socket kept a finished room's tokens from ever expiring (issue 26)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        svc = Service(engine, bot_delay=0, finished_ttl=600)
        svc.writer.start()
        try:
            room, tokens = await _finished_solo_room(svc)
            room = svc.rooms[room.code]
            room.watchers = 1  # a spectator stays connected
            heard: list[dict[str, object]] = []

            async def listen(_room: object, message: dict[str, object]) -> None:
                heard.append(message)

            svc.listeners.append(listen)
            out = await svc.sweep(datetime.now(UTC) + timedelta(minutes=30))
            assert out["dropped"] == [] and room.seat_of(tokens[0]) == 0  # watched, within the hour: kept
            out = await svc.sweep(datetime.now(UTC) + timedelta(minutes=61))
            assert out["dropped"] == []  # still cached for its watcher ...
            assert room.seat_of(tokens[0]) is None and {"type": "tokens"} in heard  # ... but its tokens are gone
            with pytest.raises(ActError) as err:
                await svc.rematch(room.code, tokens[0])
            assert err.value.code == "bad_token"
        finally:
            svc.close()

    asyncio.run(scenario())


def test_a_connection_that_floods_on_while_refused_is_closed(server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": ""}])
    flooder, player = Client(server, created["code"]), Client(server, created["code"], created["token"])
    with contextlib.suppress(ConnectionClosed):  # on a busy machine the server may close it before all are sent
        for _ in range(400):
            flooder.send({"type": "ping"})
    codes: list[str] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            msg = flooder.recv(timeout=WAIT)
            codes.append(str(msg.get("code", msg["type"])))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert codes[-1] == "flood" and "rate_limited" in codes and codes.count("pong") >= 40
    player.send({"type": "ping", "id": "p"})
    assert player.recv_type("pong")["id"] == "p"  # the room and its other connections go on


def test_win_bots_are_refused_unless_the_operator_allows_them(tmp_path: Path, server: Server) -> None:
    """Seven bot:win rooms from one address took a server down (issue 26): their tables are up to 0.7 GB each."""
    status, body = server.request("POST", "/api/rooms", {"seats": [{"name": "Ada"}, {"name": "W", "kind": "bot:win"}]})
    assert status == 400 and body["detail"]["code"] == "seat_disabled" and "--win-bots" in body["detail"]["message"]
    engine = make_engine(f"sqlite:///{tmp_path / 'win.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        allowed = Service(engine, bot_delay=0, win_bots=True)
        room, _ = await allowed.create_room("yacht", [("Ada", "human"), ("W", "bot:win")])
        assert room.match.kinds[1] == "bot:win"
        allowed.close()
        # The same room resumed by a server that does not allow them: its seat keeps its kind, played by
        # bot:optimal (no win table is built).
        strict = Service(engine, bot_delay=0)
        assert room.code in strict.resume_all()
        again = strict.rooms[room.code]
        assert again.seats[1].kind == "bot:win" and again.match.kinds[1] == "bot:optimal"
        with pytest.raises(ActError) as refused:
            await strict.create_room("yacht", [("Ada", "human"), ("W", "bot:win")])
        assert refused.value.code == "seat_disabled"
        strict.close()

    asyncio.run(scenario())
    engine.dispose()


def test_guessing_room_codes_is_rate_limited_per_address(tmp_path: Path, servers: list[Server]) -> None:
    """Private codes could be probed at 91 a second (issues 25, 26): unknown codes count, known ones do not."""
    server = limited(tmp_path, servers, "--misses-per-minute", "5", "--rooms-per-minute", "0", "--open-rooms", "0")
    real = server.create([{"name": "Ada"}])["code"]
    statuses = [server.request("GET", f"/api/rooms/ZZZZ{n:02d}")[0] for n in range(5)]
    assert statuses == [404] * 5
    assert server.request("GET", f"/api/rooms/{real}")[0] == 429  # beyond: every look-up waits, a real one too
    assert server.request("POST", "/api/rooms/ZZZZ99/join", {})[0] == 429
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws}/ws/{real}", open_timeout=WAIT)
    assert refused.value.response.status_code == 429
    assert server.request("GET", "/api/health")[0] == 200  # the rest of the API is untouched


def test_win_bots_whose_tables_exceed_the_disk_budget_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))  # a budget trims the cache: not the shared one
    engine = make_engine(f"sqlite:///{tmp_path / 'budget.sqlite3'}")
    migrate(engine)

    async def scenario() -> None:
        from pasch.solver import set_disk_budget

        svc = Service(engine, bot_delay=0, win_bots=True)
        set_disk_budget(64)  # 64 MB: yacht's win tables (5 MB) fit, yahtzee's 736 MB do not
        try:
            await svc.create_room("yacht", [("Ada", "human"), ("W", "bot:win")])
            with pytest.raises(ActError) as refused:
                await svc.create_room("yahtzee", [("Ada", "human"), ("W", "bot:win")])
            assert refused.value.code == "seat_disabled" and "--table-disk-mb" in refused.value.message
        finally:
            set_disk_budget(None)
            svc.close()

    asyncio.run(scenario())
    engine.dispose()
