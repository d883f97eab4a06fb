"""Load benchmark of ``pasch serve``: N simulated players play games over websockets on loopback.

Starts its own server (a subprocess on 127.0.0.1, a temp SQLite file unless ``--db``; or ``--url`` for one
already running), creates N/2 two-player rooms, and lets every player play its seat; when a game ends the
pair asks for a rematch and plays on in the new room, until ``--seconds`` pass. Bounded in players
(``--players`` at most 2000) and time; the server is stopped at the end.

Latency is action-to-broadcast: from sending ``act`` until the sender receives the ``update`` that carries
that action (the broadcast every connection of the room gets). The client is one asyncio process (uvloop
when installed) that parses each frame once; it offers permessage-deflate like a browser does unless
``--no-compression``. Prints games/s, actions/s, p50/p99/max latency, the CPU time the server and the
client spent per action, and the machine's load average before and after (other work on the machine
shows up in the latency).

    python bench/web_load.py --players 500 --seconds 60 --think 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

MAX_PLAYERS = 2000


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _post(url: str, body: object) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def _choose(state: dict[str, Any]) -> str:
    if state["can_roll"]:
        return "roll"
    dice = list(state["dice"])
    if state["throws"] == 1 and state["can_keep"]:
        face = max(set(dice), key=lambda f: (dice.count(f), f))
        if dice.count(face) < len(dice):
            return "keep " + " ".join([str(face)] * dice.count(face))
    best = max(state["options"], key=lambda o: (o["points"], -o["box"]))
    return str(best["action"])


@dataclass
class Stats:
    """What the players measured."""

    lat: list[float] = field(default_factory=list)
    games: int = 0
    errors: int = 0


async def _player(ws_base: str, code: str, token: str, seat: int, think: float, compress: bool, st: Stats) -> None:
    """Play seat ``seat`` of room ``code``, then of every rematch, until cancelled."""
    while True:
        async with websockets.connect(
            f"{ws_base}/ws/{code}", max_size=1 << 22, compression="deflate" if compress else None
        ) as ws:
            await ws.send(json.dumps({"type": "join", "token": token}))
            state: dict[str, Any] = {}
            seq = -1
            sent_at: float | None = None
            joined = False
            asked = False
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "rematch":
                    code = msg["code"]
                    break
                if kind == "error":
                    st.errors += 1
                    if st.errors <= 5:
                        print("error:", msg, file=sys.stderr)
                    sent_at = None
                elif kind == "welcome":
                    joined = joined or msg.get("seat") == seat
                if kind not in ("welcome", "update", "state"):
                    continue
                new = msg["state"]
                if new["seq"] < seq:
                    continue
                state, seq = new, new["seq"]
                if kind == "update" and msg["by"] == seat and sent_at is not None:
                    st.lat.append(time.perf_counter() - sent_at)
                    sent_at = None
                if state["terminal"]:
                    if seat == 0 and not asked:
                        st.games += 1
                        asked = True
                        await ws.send(json.dumps({"type": "rematch", "token": token}))
                    continue
                if joined and sent_at is None and state["current"] == seat and not state["pending"]:
                    if think > 0:  # a person's pause before acting (uniform 0..2*think)
                        await asyncio.sleep(random.uniform(0, 2 * think))
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": _choose(state)}))
            else:
                return  # the server closed the connection


async def _run(http: str, ws: str, players: int, seconds: float, think: float, compress: bool) -> tuple[Stats, float]:
    rooms = []
    for _ in range(players // 2):
        created = _post(f"{http}/api/rooms", {"seats": [{"name": "A"}, {"name": "B"}]})
        joined = _post(f"{http}/api/rooms/{created['code']}/join", {})
        rooms.append((str(created["code"]), str(created["token"]), str(joined["token"])))
    st = Stats()
    # The setup's objects live to the end: keep them out of the collector's way (as the server does).
    gc.collect()
    gc.freeze()
    start = time.monotonic()
    tasks = []
    for code, t0, t1 in rooms:
        tasks.append(asyncio.ensure_future(_player(ws, code, t0, 0, think, compress, st)))
        tasks.append(asyncio.ensure_future(_player(ws, code, t1, 1, think, compress, st)))
    _done, pending = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.monotonic() - start
    for t in pending:
        t.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failures:
        print(f"{len(failures)} players failed: {failures[0]!r}", file=sys.stderr)
    return st, elapsed


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a process, from /proc (nan where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def _client_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _arun(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=500, help="simulated players (even, at most 2000)")
    ap.add_argument("--seconds", type=float, default=90.0, help="time limit")
    ap.add_argument("--think", type=float, default=1.0, help="mean pause (s) before each action; 0: saturate")
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temp SQLite file)")
    ap.add_argument("--url", default=None, help="an already running server, e.g. http://127.0.0.1:8000")
    ap.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    args = ap.parse_args()
    players = max(2, min(MAX_PLAYERS, args.players)) // 2 * 2
    compress = not args.no_compression
    load_before = os.getloadavg()
    server: subprocess.Popen[bytes] | None = None
    if args.url:
        http = args.url.rstrip("/")
    else:
        tmp = Path(tempfile.mkdtemp(prefix="pasch-bench-"))
        db = args.db or f"sqlite:///{tmp / 'web.sqlite3'}"
        port = _port()
        env = dict(os.environ, PASCH_DATA_DIR=str(tmp))
        cmd = [sys.executable, "-c", "from pasch.cli import main; main()", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--db", db, "--bot-delay", "0"]
        # One address plays every room here: the per-address limits (bench/abuse.py measures them) are off.
        cmd += ["--rooms-per-minute", "0", "--open-rooms", "0", "--conns-per-room", "0", "--conns-per-address", "0"]
        server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        http = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{http}/api/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    server_cpu0 = _cpu_of(server.pid) if server else float("nan")
    client_cpu0 = _client_cpu()
    try:
        st, elapsed = _arun(_run(http, "ws" + http[4:], players, args.seconds, args.think, compress))
    finally:
        server_cpu = (_cpu_of(server.pid) - server_cpu0) if server else float("nan")
        client_cpu = _client_cpu() - client_cpu0
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(5)
    load_after = os.getloadavg()
    ms = sorted(x * 1000 for x in st.lat)
    n = len(ms)
    nan = float("nan")
    p50 = ms[n // 2] if ms else nan
    p99 = ms[min(n - 1, int(n * 0.99))] if ms else nan
    per = 1000 / n if n else nan
    print(f"think time: mean {args.think:g} s per action; compression: {'deflate' if compress else 'none'}")
    print(f"load average (1, 5, 15 min) before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    print(f"load average (1, 5, 15 min) after:  {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print(
        f"{'players':>8} {'games':>6} {'seconds':>8} {'games/s':>8} {'actions':>8} {'actions/s':>9} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'srv cpu ms/act':>14} {'cli cpu ms/act':>14} {'errors':>6}"
    )
    print(
        f"{players:>8} {st.games:>6} {elapsed:>8.1f} {st.games / elapsed:>8.2f} {n:>8} {n / elapsed:>9.1f} "
        f"{p50:>7.1f} {p99:>7.1f} {(ms[-1] if ms else nan):>7.1f} {server_cpu * per:>14.3f} "
        f"{client_cpu * per:>14.3f} {st.errors:>6}"
    )


if __name__ == "__main__":
    main()
