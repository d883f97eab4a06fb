"""Load benchmark of ``pasch serve``: N simulated players play complete games over websockets on loopback.

Starts its own server (a subprocess on 127.0.0.1, a temp SQLite file unless ``--db``), creates N/2 two-player
rooms, and lets every player play its seat until the game ends or ``--seconds`` pass. Bounded in players
(``--players`` at most 2000) and time; the server is stopped at the end.

Latency is action-to-broadcast: from sending ``act`` until the sender receives the ``update`` carrying
that action. Prints games/s, actions/s and p50/p99 latency as a table.

    python bench/web_load.py --players 500 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

MAX_PLAYERS = 2000


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _post(url: str, body: object) -> dict[str, object]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, object] = json.loads(r.read())
        return out


def _choose(state: dict[str, object]) -> str:
    if state["can_roll"]:
        return "roll"
    dice = list(state["dice"])  # type: ignore[call-overload]
    if state["throws"] == 1 and state["can_keep"]:
        face = max(set(dice), key=lambda f: (dice.count(f), f))
        if dice.count(face) < len(dice):
            return "keep " + " ".join([str(face)] * dice.count(face))
    options = state["options"]
    best = max(options, key=lambda o: (o["points"], -o["box"]))  # type: ignore[arg-type,index]
    return str(best["action"])  # type: ignore[index]


async def _player(
    ws_url: str, token: str, seat: int, deadline: float, lat: list[float], done: list[int], think: float
) -> None:
    async with websockets.connect(ws_url, max_size=1 << 22) as ws:
        state: dict[str, object] = {}
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                print("error:", msg, file=sys.stderr)
                sent_at = None
            if msg["type"] in ("welcome", "update", "state"):
                new = msg["state"]
                if new["seq"] < state.get("seq", -1):  # type: ignore[operator]
                    continue
                state = new
                if msg["type"] == "update" and msg.get("by") == seat and sent_at is not None:
                    lat.append(time.perf_counter() - sent_at)
                    sent_at = None
            if not state:
                continue
            if state["terminal"]:
                if seat == 0:
                    done.append(1)
                return
            if state["current"] == seat and not state["pending"] and sent_at is None and msg["type"] != "ack":
                if msg["type"] == "welcome" and msg.get("seat") != seat:
                    continue
                if think > 0:  # a person's pause before acting (uniform 0..2*think)
                    await asyncio.sleep(random.uniform(0, 2 * think))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": _choose(state)}))


async def _run(http: str, ws: str, players: int, seconds: float, think: float) -> tuple[list[float], int, float]:
    rooms = []
    for _ in range(players // 2):
        created = _post(f"{http}/api/rooms", {"seats": [{"name": "A"}, {"name": "B"}]})
        joined = _post(f"{http}/api/rooms/{created['code']}/join", {})
        rooms.append((created["code"], created["token"], joined["token"]))
    lat: list[float] = []
    done: list[int] = []
    start = time.monotonic()
    deadline = start + seconds
    tasks = []
    for code, t0, t1 in rooms:
        tasks.append(_player(f"{ws}/ws/{code}", str(t0), 0, deadline, lat, done, think))
        tasks.append(_player(f"{ws}/ws/{code}", str(t1), 1, deadline, lat, done, think))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        print(f"{len(failures)} players failed: {failures[0]!r}", file=sys.stderr)
    return lat, len(done), time.monotonic() - start


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=500, help="simulated players (even, at most 2000)")
    ap.add_argument("--seconds", type=float, default=90.0, help="time limit")
    ap.add_argument("--think", type=float, default=0.0, help="mean pause (s) before each action; 0: saturate")
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temp SQLite file)")
    args = ap.parse_args()
    players = max(2, min(MAX_PLAYERS, args.players)) // 2 * 2
    tmp = Path(tempfile.mkdtemp(prefix="pasch-bench-"))
    db = args.db or f"sqlite:///{tmp / 'web.sqlite3'}"
    port = _port()
    env = dict(os.environ, PASCH_DATA_DIR=str(tmp))
    cmd = [sys.executable, "-c", "from pasch.cli import main; main()", "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--db", db, "--bot-delay", "0"]
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{http}/api/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        lat, games, elapsed = asyncio.run(_run(http, ws, players, args.seconds, args.think))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    lat.sort()
    ms = [x * 1000 for x in lat]
    p50 = statistics.median(ms) if ms else float("nan")
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
    print(f"think time: mean {args.think:g} s per action")
    print(
        f"{'players':>8} {'games':>6} {'seconds':>8} {'games/s':>8} {'actions':>8} {'actions/s':>9} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    )
    print(
        f"{players:>8} {games:>6} {elapsed:>8.1f} {games / elapsed:>8.2f} {len(ms):>8} {len(ms) / elapsed:>9.1f} "
        f"{p50:>7.1f} {p99:>7.1f} {(ms[-1] if ms else float('nan')):>7.1f}"
    )


if __name__ == "__main__":
    main()
