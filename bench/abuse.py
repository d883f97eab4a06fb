"""Abuse benchmark of ``pasch serve``: one client tries to exhaust the server while an ordinary player plays.

Loopback only, bounded and self-stopping. It starts its own server (a subprocess on 127.0.0.1 with the default
limits of ``pasch serve``, a temp SQLite file, a temp solver cache), then at the same time:

- the **abuser**, from the loopback address 127.0.0.2 (its own client address, so that the per-address
  limits see it apart from the player), asks for 1,000 rooms of *different* rule variants (``yacht+bonus=N``
  with two optimal bots: each would need its own solver table), then 3,000 ordinary rooms, then opens 800
  websocket connections to one room and makes each send ``join`` frames as fast as it can for a few seconds;
- then the attacks of issue 26, each counted: ``bot:win`` rooms (refused unless the operator allows them),
  room creations with a fresh forged ``X-Forwarded-For`` each (the per-address limit must hold), sockets that
  send request headers a byte at a time (slowloris: cut off by the header timeout) and silent sockets beyond
  the per-address cap (closed at once), a websocket offering compression (declined), and a rematch token
  replayed after its exchange (refused);
- the **player**, from 127.0.0.1, in a process of its own, plays solo games throughout and times every
  action (send ``act`` -> its ``ack``).

The abuser's process runs at ``--abuser-nice`` (10): on loopback it shares the machine's CPU with the server
and the player, which an attacker elsewhere would not; it still sends everything as fast as it can.
It samples the server's resident memory (``/proc/PID/status``) and the solver cache's size on disk every
0.2 s and prints a table: what the abuser got (created / refused per status), the connections accepted and
refused, the join frames sent, each attack's outcome, the server's peak RSS and the cache's peak size against
their bounds, and the player's p50 / p99 / max action latency against 100 ms, with the load average. Exit
status 1 when a bound is broken or an attack got through.

    python bench/abuse.py                      # about 1-2 minutes
    python bench/abuse.py --rss-bound-mb 400 --spam-seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ABUSER = "127.0.0.2"
PLAYER = "127.0.0.1"
THINK = 0.3
"""The player's pause between actions (a fast player; a game takes about 9 s, under the creation limit)."""
MAX_SECONDS = 600.0
"""The whole run stops after this many seconds, whatever is left."""


def _port() -> int:
    with socket.socket() as s:
        s.bind((PLAYER, 0))
        port: int = s.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Figures:
    """What the run measured."""

    variant: Counter[int] = field(default_factory=Counter)
    plain: Counter[int] = field(default_factory=Counter)
    conns_ok: int = 0
    conns_refused: int = 0
    conns_failed: int = 0
    conns_closed: int = 0
    join_frames: int = 0
    replies: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)
    """When each of the player's actions was acknowledged (epoch seconds)."""
    phases: list[tuple[float, str]] = field(default_factory=list)
    """When each phase of the abuse began (epoch seconds)."""
    player_errors: list[str] = field(default_factory=list)
    games: int = 0
    rss: list[float] = field(default_factory=list)
    disk: list[float] = field(default_factory=list)
    """The solver cache's size on disk (MB), sampled with the RSS."""
    attacks: dict[str, str] = field(default_factory=dict)
    """Each attack of issue 26: what it got, in words."""
    broken: list[str] = field(default_factory=list)
    """The attacks that got through."""


async def _create(client: httpx.AsyncClient, url: str, body: dict[str, Any], tally: Counter[int]) -> str | None:
    try:
        r = await client.post(f"{url}/api/rooms", json=body)
    except httpx.HTTPError:
        tally[0] += 1
        return None
    tally[r.status_code] += 1
    return str(r.json()["code"]) if r.status_code == 201 else None


async def abuse_rooms(url: str, variants: int, plain: int, fig: Figures, stop: asyncio.Event) -> str | None:
    """The abuser's room creations; returns a room code to attack (its own, or the player's)."""
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    limits = httpx.Limits(max_connections=32)
    code: str | None = None
    async with httpx.AsyncClient(transport=transport, limits=limits, timeout=30) as client:
        sem = asyncio.Semaphore(32)

        async def one(body: dict[str, Any], tally: Counter[int]) -> None:
            nonlocal code
            if stop.is_set():
                return
            async with sem:
                got = await _create(client, url, body, tally)
                code = code or got

        bots = [{"name": "", "kind": "bot:optimal"}, {"name": "", "kind": "bot:optimal"}]
        await asyncio.gather(
            *(one({"rules": f"yacht+bonus={n % 200 + 1}", "seats": bots}, fig.variant) for n in range(variants))
        )
        await asyncio.gather(*(one({"rules": "kniffel"}, fig.plain) for _ in range(plain)))
    return code


async def abuse_connections(ws_url: str, code: str, count: int, seconds: float, fig: Figures) -> None:
    """``count`` connections to one room from the abuser's address, each spamming ``join`` for ``seconds``."""
    frame = json.dumps({"type": "join", "token": "x" * 32})

    async def one() -> None:
        try:
            async with websockets.connect(
                f"{ws_url}/ws/{code}", open_timeout=20, close_timeout=2, local_addr=(ABUSER, 0), max_size=1 << 22
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 20))
                if first.get("type") == "error":
                    fig.conns_refused += 1
                    return
                fig.conns_ok += 1

                async def drain() -> None:
                    async for raw in ws:
                        msg = json.loads(raw)
                        fig.replies[str(msg.get("code") or msg.get("type"))] += 1

                reader = asyncio.get_running_loop().create_task(drain())
                end = time.monotonic() + seconds
                try:
                    while time.monotonic() < end:
                        await ws.send(frame)
                        fig.join_frames += 1
                        await asyncio.sleep(0.005)
                except websockets.ConnectionClosed:
                    fig.conns_closed += 1  # the server closed it (a flood)
                    return
                finally:
                    reader.cancel()
        except websockets.InvalidStatus as exc:  # refused at the upgrade (429: a limit)
            if exc.response.status_code == 429:
                fig.conns_refused += 1
            else:
                fig.conns_failed += 1
        except (OSError, websockets.WebSocketException, TimeoutError):
            fig.conns_failed += 1

    await asyncio.gather(*(one() for _ in range(count)))


def _disk_mb(path: Path) -> float:
    total = 0
    with contextlib.suppress(OSError):
        for f in path.glob("*"):
            with contextlib.suppress(OSError):
                total += f.stat().st_size
    return total / 1e6


async def attack_win_bots(url: str, fig: Figures) -> None:
    """Seven bot:win rooms (each would build two tables of up to 0.7 GB): refused with seat_disabled."""
    tally: Counter[int] = Counter()
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.5")  # within its room limits: the seat gate answers
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        for _ in range(7):
            r = await client.post(
                f"{url}/api/rooms", json={"rules": "yatzy", "seats": [{"name": "A"}, {"kind": "bot:win"}]}
            )
            tally[r.status_code] += 1
    fig.attacks["bot:win rooms (7 asked)"] = ", ".join(f"{k}: {v}" for k, v in sorted(tally.items()))
    if tally[201] or tally[400] != 7:
        fig.broken.append("bot:win rooms were not refused as disabled seats")


async def attack_spoofed_header(url: str, rooms_per_minute: int, fig: Figures) -> None:
    """Room creations from one address with a fresh X-Forwarded-For each: the per-address limit must hold."""
    created = 0
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.3")  # an address of its own, limits unused
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        for n in range(40):
            headers = {"X-Forwarded-For": f"198.51.100.{n}"}
            r = await client.post(f"{url}/api/rooms", json={"rules": "kniffel"}, headers=headers)
            created += r.status_code == 201
    fig.attacks["forged X-Forwarded-For (40 rooms)"] = f"{created} created (limit {rooms_per_minute}/min)"
    if created > rooms_per_minute:
        fig.broken.append("forged headers got more rooms than the per-address limit")


async def attack_sockets(host: str, port: int, slow: int, silent: int, seconds: float, fig: Figures) -> None:
    """``slow`` sockets sending request headers a byte a second (slowloris) and ``silent`` ones sending nothing,
    from one address, for ``seconds``: how many the server closed."""

    async def one(kind: str) -> str:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=("127.0.0.4", 0)), 10
            )
        except (OSError, TimeoutError):
            return "refused"
        try:
            end = time.monotonic() + seconds
            line = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: "
            i = 0
            while time.monotonic() < end:
                if kind == "slow":
                    writer.write(line[i : i + 1] or b"a")
                    await writer.drain()
                    i += 1
                try:
                    if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                        return "closed"
                except TimeoutError:
                    continue
            return "open"
        except (OSError, ConnectionError):
            return "closed"
        finally:
            writer.close()

    got = await asyncio.gather(*(one("slow") for _ in range(slow)), *(one("silent") for _ in range(silent)))
    slow_closed = sum(1 for g in got[:slow] if g != "open")
    silent_closed = sum(1 for g in got[slow:] if g != "open")
    fig.attacks[f"slowloris sockets ({slow}, {seconds:.0f} s)"] = f"{slow_closed} closed by the server"
    fig.attacks[f"silent sockets of one address ({silent})"] = f"{silent_closed} closed by the server"
    if slow_closed < slow:
        fig.broken.append("slowloris sockets stayed open")
    if silent > 64 and silent_closed < silent - 64:
        fig.broken.append("one address held more sockets than its cap")


async def attack_compression(ws_url: str, url: str, fig: Figures) -> None:
    """A websocket offering permessage-deflate: declined, so a frame costs what it measures."""
    async with httpx.AsyncClient(timeout=30) as c:
        code = (await c.post(f"{url}/api/rooms", json={"rules": "kniffel"})).json().get("code")
    async with websockets.connect(f"{ws_url}/ws/{code}", compression="deflate") as ws:
        ext = ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
    fig.attacks["websocket compression offered"] = "declined" if not ext else f"accepted: {ext}"
    if ext:
        fig.broken.append("compressed frames accepted")


async def attack_token_replay(url: str, ws_url: str, fig: Figures) -> None:
    """A finished solo game's token exchanged for the rematch, then replayed: refused."""
    async with httpx.AsyncClient(timeout=30) as c:
        room = (await c.post(f"{url}/api/rooms", json={"rules": "yacht", "seats": [{"name": "Rex"}]})).json()
        async with websockets.connect(f"{ws_url}/ws/{room['code']}") as ws:
            await ws.send(json.dumps({"type": "join", "token": room["token"]}))
            state: dict[str, Any] = {}
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("type") == "welcome" and msg.get("seat") == 0:
                    state = msg["state"]
                    break
            while not state["terminal"]:
                await ws.send(json.dumps({"type": "act", "action": _choose(state)}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "update":
                        state = msg["state"]
                        break
        first = await c.post(f"{url}/api/rooms/{room['code']}/rematch", json={"token": room["token"]})
        again = await c.post(f"{url}/api/rooms/{room['code']}/rematch", json={"token": room["token"]})
    fig.attacks["rematch token replayed"] = f"first {first.status_code}, replay {again.status_code}"
    if first.status_code != 200 or again.status_code != 403:
        fig.broken.append("a rematch token was exchanged twice")


def _choose(state: dict[str, Any]) -> str:
    if state["can_roll"]:
        return "roll"
    best = max(state["options"], key=lambda o: (o["points"], -o["box"]))
    return str(best["action"])


async def player(url: str, ws_url: str, fig: Figures, stop: Any) -> None:
    """An ordinary player: solo games one after another, every action timed until its ack."""
    transport = httpx.AsyncHTTPTransport(local_address=PLAYER)
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        while not stop.is_set():
            r = await client.post(f"{url}/api/rooms", json={"rules": "kniffel", "seats": [{"name": "Pat"}]})
            if r.status_code != 201:
                fig.player_errors.append(f"create: {r.status_code}")
                await asyncio.sleep(1)
                continue
            room = r.json()
            fig.games += 1
            async with websockets.connect(f"{ws_url}/ws/{room['code']}", local_addr=(PLAYER, 0)) as ws:
                await ws.send(json.dumps({"type": "join", "token": room["token"]}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "welcome" and msg.get("seat") == 0:
                        state: dict[str, Any] = msg["state"]
                        break
                while not stop.is_set() and not state["terminal"]:
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": _choose(state), "id": 1}))
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg["type"] in ("ack", "error"):
                            fig.latencies.append(time.perf_counter() - t0)
                            fig.stamps.append(time.time())
                            if msg["type"] == "error":
                                fig.player_errors.append(msg["code"])
                        if msg["type"] == "update":
                            state = msg["state"]
                            break
                        if msg["type"] == "error":
                            break
                    await asyncio.sleep(THINK)


def _player_process(url: str, ws_url: str, stop: Any, out: Any) -> None:
    """The player's process: plays until ``stop`` is set, then sends (latencies, errors, games) back."""
    fig = Figures()

    class Stop:
        def is_set(self) -> bool:
            return bool(stop.is_set())

    with contextlib.suppress(Exception):
        asyncio.run(player(url, ws_url, fig, Stop()))
    out.send((fig.latencies, fig.stamps, fig.player_errors, fig.games))


async def run(args: argparse.Namespace) -> Figures:
    tmp = Path(tempfile.mkdtemp(prefix="pasch-abuse-"))
    port = _port()
    env = dict(os.environ, PASCH_DATA_DIR=str(tmp), PASCH_CACHE_DIR=str(tmp / "cache"))
    cmd = [sys.executable, "-c", "from pasch.cli import main; main()", "serve", "--host", PLAYER, "--port", str(port)]
    cmd += ["--db", f"sqlite:///{tmp / 'web.sqlite3'}", "--table-disk-mb", str(args.disk_bound_mb)]
    cmd += ["--header-timeout", "5", *args.serve_args]
    log = (tmp / "server.log").open("wb")
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url, ws_url = f"http://{PLAYER}:{port}", f"ws://{PLAYER}:{port}"
    fig = Figures()
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        stop = asyncio.Event()

        async def sample() -> None:
            while not stop.is_set():
                fig.rss.append(_rss_mb(server.pid))
                fig.disk.append(_disk_mb(tmp / "cache"))
                await asyncio.sleep(0.2)

        sampler = asyncio.get_running_loop().create_task(sample())
        # The player runs in a process of its own: the abuser's frames must not delay it on the client side.
        ctx = multiprocessing.get_context("spawn")
        player_stop = ctx.Event()
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_player_process, args=(url, ws_url, player_stop, sender), daemon=True)
        proc.start()
        # The abuser (this process, from here on) yields the CPU to the server and the player: on loopback it
        # shares their CPU, which an attacker on another machine would not; its requests are sent all the same.
        with contextlib.suppress(OSError):
            os.nice(args.abuser_nice)
        await asyncio.sleep(2.0)  # the player's baseline

        async def attack() -> None:
            fig.phases.append((time.time(), "rooms"))
            code = await abuse_rooms(url, args.variants, args.creations, fig, stop)
            fig.phases.append((time.time(), "connections"))
            if code is None:  # every room refused: attack the lobby's first room instead
                async with httpx.AsyncClient(timeout=30) as c:
                    rows = (await c.get(f"{url}/api/rooms")).json()
                code = rows[0]["code"] if rows else None
            if code is not None:
                await abuse_connections(ws_url, code, args.connections, args.spam_seconds, fig)
            fig.phases.append((time.time(), "attacks"))
            await attack_win_bots(url, fig)
            await attack_spoofed_header(url, 10, fig)
            await attack_sockets(PLAYER, port, args.slow_sockets, args.silent_sockets, 8.0, fig)
            await attack_compression(ws_url, url, fig)
            await attack_token_replay(url, ws_url, fig)

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(attack(), MAX_SECONDS)
        fig.phases.append((time.time(), "after"))
        await asyncio.sleep(2.0)  # and after
        stop.set()
        player_stop.set()
        await asyncio.wait_for(asyncio.gather(sampler, return_exceptions=True), 30)
        if await asyncio.to_thread(receiver.poll, 60):
            fig.latencies, fig.stamps, fig.player_errors, fig.games = receiver.recv()
        else:
            fig.player_errors.append("the player process sent no figures")
        proc.join(10)
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        text = (tmp / "server.log").read_text(errors="replace")
        if "Traceback" in text or "Exception" in text:
            print(text[-3000:], file=sys.stderr)
            fig.player_errors.append("an exception in the server log")
        shutil.rmtree(tmp, ignore_errors=True)
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=1000, help="variant rooms asked for (at most 5000)")
    parser.add_argument("--creations", type=int, default=3000, help="ordinary rooms asked for (at most 10000)")
    parser.add_argument("--connections", type=int, default=800, help="websocket connections (at most 2000)")
    parser.add_argument("--spam-seconds", type=float, default=8.0, help="seconds each connection spams joins")
    parser.add_argument("--rss-bound-mb", type=float, default=400.0, help="the server's stated memory bound")
    parser.add_argument("--p99-bound-ms", type=float, default=100.0, help="the player's stated p99 bound")
    parser.add_argument("--disk-bound-mb", type=int, default=64, help="the server's --table-disk-mb in this run")
    parser.add_argument("--slow-sockets", type=int, default=50, help="slowloris sockets (at most 500)")
    parser.add_argument("--silent-sockets", type=int, default=150, help="silent sockets of one address (at most 1000)")
    parser.add_argument("--abuser-nice", type=int, default=10, help="niceness of the abuser's process (0-19)")
    parser.add_argument("serve_args", nargs="*", help="extra 'pasch serve' options after --")
    args = parser.parse_args()
    if not (0 <= args.variants <= 5000 and 0 <= args.creations <= 10_000 and 0 <= args.connections <= 2000):
        parser.error("the counts are bounded: --variants <= 5000, --creations <= 10000, --connections <= 2000")
    args.spam_seconds = min(max(args.spam_seconds, 0.0), 60.0)
    args.slow_sockets = min(max(args.slow_sockets, 0), 500)
    args.silent_sockets = min(max(args.silent_sockets, 0), 1000)
    args.abuser_nice = min(max(args.abuser_nice, 0), 19)
    t0 = time.monotonic()
    fig = asyncio.run(run(args))
    wall = time.monotonic() - t0
    lat = sorted(fig.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[int(0.99 * (len(lat) - 1))] * 1000 if lat else float("nan")
    peak = max((r for r in fig.rss if r == r), default=float("nan"))
    disk_peak = max(fig.disk, default=0.0)
    # A table being written may come on top of the bound before the trim that follows it (one yacht table).
    disk_ok = disk_peak <= args.disk_bound_mb * 1.048576 + 1.0
    rows = [
        ("variant rooms asked / created", f"{args.variants} / {fig.variant[201]}"),
        ("  refused (status: count)", ", ".join(f"{k}: {v}" for k, v in sorted(fig.variant.items()) if k != 201)),
        ("plain rooms asked / created", f"{args.creations} / {fig.plain[201]}"),
        ("  refused (status: count)", ", ".join(f"{k}: {v}" for k, v in sorted(fig.plain.items()) if k != 201)),
        ("connections asked / accepted", f"{args.connections} / {fig.conns_ok}"),
        ("  refused by a limit / failed", f"{fig.conns_refused} / {fig.conns_failed}"),
        ("  closed by the server while spamming", str(fig.conns_closed)),
        ("join frames sent", str(fig.join_frames)),
        ("  replies (kind: count)", ", ".join(f"{k}: {v}" for k, v in fig.replies.most_common(5))),
        ("server RSS start / peak (MB)", f"{fig.rss[0] if fig.rss else float('nan'):.0f} / {peak:.0f}"),
        ("  stated bound (MB)", f"{args.rss_bound_mb:.0f}"),
        ("solver cache on disk, peak (MB)", f"{disk_peak:.1f} (--table-disk-mb {args.disk_bound_mb})"),
        *((f"attack: {name}", got) for name, got in fig.attacks.items()),
        ("attacks that got through", ", ".join(fig.broken) or "none"),
        ("load average (1, 5, 15 min)", " ".join(f"{x:.1f}" for x in os.getloadavg())),
        ("player actions / games", f"{len(lat)} / {fig.games}"),
        ("player p50 / p99 / max (ms)", f"{p50:.1f} / {p99:.1f} / {lat[-1] * 1000 if lat else float('nan'):.1f}"),
        ("  stated p99 bound (ms)", f"{args.p99_bound_ms:.0f}"),
        ("player errors", ", ".join(fig.player_errors[:5]) or "none"),
        ("wall time (s)", f"{wall:.1f}"),
    ]
    worst = sorted(zip(fig.latencies, fig.stamps, strict=False), reverse=True)[:3]
    start = fig.phases[0][0] if fig.phases else 0.0

    def phase_at(when: float) -> str:
        return next((name for t, name in reversed(fig.phases) if t <= when), "before")

    rows.append(
        (
            "player's 3 slowest (ms @ s, phase)",
            "; ".join(f"{lt * 1000:.0f} @ {st - start:+.1f} {phase_at(st)}" for lt, st in worst),
        )
    )
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    ok = peak <= args.rss_bound_mb and p99 <= args.p99_bound_ms and not fig.player_errors and len(lat) >= 20
    ok = ok and disk_ok and not fig.broken and len(fig.attacks) == 6
    print("result:", "within bounds" if ok else "BOUND BROKEN")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
