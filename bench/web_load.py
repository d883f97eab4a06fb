"""Load benchmark of ``pasch serve``: N simulated players play games over websockets on loopback.

Starts its own server (a subprocess on 127.0.0.1, a temp SQLite file unless ``--db``; or ``--url`` for one
already running), creates N/S rooms of S seats (``--seats``, default 2), and lets every player play its seat;
when a game ends the table asks for a rematch and plays on in the new room, until ``--seconds`` pass. Bounded
in players (``--players`` at most 2000) and time; the server is stopped at the end.

``--servers K`` starts K server processes on one PostgreSQL (``--db URL``, or ``--pg`` for a throw-away
cluster made with initdb/pg_ctl in a temp directory, as the tests do). Rooms are created round robin over
the processes. ``--route`` says where a room's seats connect: ``spread`` (the default, the worst case and the
figure earlier measurements used) puts seat j of room i on process (i + j) mod K, so that every action is
handled by one process and followed by the others (PostgreSQL ``LISTEN/NOTIFY``, a replay of the events,
their own frame writes); ``room`` puts every request and connection of room i on process i mod K, as a
reverse proxy that hashes the room code does (``docs/deploy.md``, "Room affinity"), so that the other
processes only see each notification go by. The
cross-process delivery delay is, per action, the time from the update reaching the actor (on the process
that committed it) to the same update reaching the other player (on another process); with one process it
is the same measurement within one process.

Latency is action-to-broadcast: from sending ``act`` until the sender receives the ``update`` that carries
that action (the broadcast every connection of the room gets). The client is one asyncio process (uvloop
when installed) that parses each frame once; it offers permessage-deflate like a browser does unless
``--no-compression``. Every player connects at once unless ``--ramp`` spreads the connects over some
seconds; a websocket handshake that fails (refused, timed out after ``--open-timeout`` s, an HTTP error) is
counted and retried after a second, as a page does. Prints games/s, actions/s, p50/p99/max latency, the
CPU time the server and the client spent per action, and the machine's load average before and after
(other work on the machine shows up in the latency).

The server CPU per action includes what holding the connections costs by itself (keepalive pings, timers, the
processes' repeated presence): ``--idle S`` stops the players acting when the measured window ends, lets the
actions in flight end (3 s) and measures the servers' CPU for ``S`` more seconds with every player connected and
nobody acting; it prints that idle cost and splits each action's figure into its share of the idle cost (at the
window's rate of actions) and what the action adds.

    python bench/web_load.py --players 500 --seconds 60 --think 1
    python bench/web_load.py --players 2000 --seats 5 --seconds 120 --think 2   # issue 25 item 6
    python bench/web_load.py --players 2000 --seats 5 --seconds 90 --warmup 20 --think 2 --servers 2 --pg --route room
    python bench/web_load.py --players 2000 --seats 5 --seconds 90 --think 2 --servers 2 --pg --route room --idle 30
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
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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
    marks: list[tuple[int, float, tuple[float, ...]]] = field(default_factory=list)
    """(actions so far, time, CPU seconds of server, database, client) at the window's start and end."""
    handshakes: list[float] = field(default_factory=list)
    """Seconds each successful websocket handshake took (connect to open)."""
    failed_handshakes: int = 0
    first_failure: str = ""
    arrivals: dict[tuple[str, int], list[tuple[int, int, float]]] = field(default_factory=dict)
    """(room, seq) -> (receiving seat, acting seat, time) of each update."""
    go: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while the players may act (cleared after the window for ``--idle``'s measurement)."""
    idle: tuple[float, float] | None = None
    """``--idle``: (seconds, server CPU seconds) of the window with every player connected and nobody acting."""

    def delays(self) -> list[float]:
        """Per action: the other player's update time minus the actor's (commit process -> other process)."""
        out = []
        for got in self.arrivals.values():
            mine = [t for seat, by, t in got if seat == by]
            theirs = [t for seat, by, t in got if seat != by]
            if mine and theirs:
                out.append(theirs[0] - mine[0])
        return out


async def _connect(url: str, compress: bool, open_timeout: float, st: Stats) -> Any:
    """A websocket to ``url``; a failed handshake is counted and tried again a second later (as a page does)."""
    while True:
        t0 = time.perf_counter()
        try:
            # No keepalive pings from the client: a browser sends none (the server pings every 20 s).
            ws = await websockets.connect(
                url,
                max_size=1 << 22,
                compression="deflate" if compress else None,
                open_timeout=open_timeout,
                ping_interval=None,
            )
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
            st.failed_handshakes += 1
            st.first_failure = st.first_failure or repr(exc)
            await asyncio.sleep(1.0)
            continue
        st.handshakes.append(time.perf_counter() - t0)
        return ws


async def _player(
    ws_base: str, code: str, token: str, seat: int, think: float, compress: bool, open_timeout: float, st: Stats
) -> None:
    """Play seat ``seat`` of room ``code``, then of every rematch, until cancelled."""
    while True:
        async with await _connect(f"{ws_base}/ws/{code}", compress, open_timeout, st) as ws:
            await ws.send(json.dumps({"type": "join", "token": token}))
            state: dict[str, Any] = {}
            seq = -1
            sent_at: float | None = None
            joined = False
            asked = False
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "rematch":  # tokens rotate on a rematch: each seat follows with its new one
                    code = msg["code"]
                    token = msg.get("token") or token
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
                if kind == "update":
                    now = time.perf_counter()
                    st.arrivals.setdefault((code, new["seq"]), []).append((seat, msg["by"], now))
                    if msg["by"] == seat and sent_at is not None:
                        st.lat.append(now - sent_at)
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
                    if not st.go.is_set():
                        await st.go.wait()
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": _choose(state)}))
            else:
                return  # the server closed the connection


def _process(i: int, j: int, n: int, route: str) -> int:
    """The process seat j of room i talks to: (i + j) mod K when ``spread``, i mod K when ``room``."""
    return (i + j) % n if route == "spread" else i % n


def _make_room(https: list[str], i: int, seats: int, route: str) -> tuple[int, str, list[str]]:
    """Room ``i``: created on process i mod K, seat j claimed on its process (:func:`_process`); code, tokens."""
    n = len(https)
    names = [{"name": chr(ord("A") + j)} for j in range(seats)]
    created = _post(f"{https[i % n]}/api/rooms", {"seats": names})
    tokens = [str(created["token"])]
    for j in range(1, seats):
        url = https[_process(i, j, n, route)]
        tokens.append(str(_post(f"{url}/api/rooms/{created['code']}/join", {})["token"]))
    return i, str(created["code"]), tokens


async def _run(
    https: list[str],
    players: int,
    seats: int,
    route: str,
    seconds: float,
    think: float,
    compress: bool,
    ramp: float,
    open_timeout: float,
    warmup: float,
    cpu: Callable[[], tuple[float, float, float, float, float]],
    idle: float = 0.0,
) -> Stats:
    n = len(https)
    with ThreadPoolExecutor(8) as pool:
        rooms = list(pool.map(lambda i: _make_room(https, i, seats, route), range(players // seats)))
    st = Stats()
    # The setup's objects live to the end: keep them out of the collector's way (as the server does).
    gc.collect()
    gc.freeze()
    start = time.monotonic()
    tasks = []
    for i, code, tokens in rooms:
        for j, token in enumerate(tokens):
            ws = "ws" + https[_process(i, j, n, route)][4:]
            tasks.append(asyncio.ensure_future(_player(ws, code, token, j, think, compress, open_timeout, st)))
        if ramp > 0:  # spread the connects over ``ramp`` seconds (the first players start meanwhile)
            await asyncio.sleep(ramp / len(rooms))
    st.go.set()
    # The measured window: from ``warmup`` seconds after the start (the connect storm is over) to the end.
    _done, pending = await asyncio.wait(tasks, timeout=min(warmup, seconds))
    st.marks.append((len(st.lat), time.monotonic(), cpu()))
    if pending:
        _done, pending = await asyncio.wait(pending, timeout=max(0.0, seconds - (time.monotonic() - start)))
    st.marks.append((len(st.lat), time.monotonic(), cpu()))
    if idle > 0 and pending:
        # Every player still connected, nobody acting: what holding the connections costs by itself (measured
        # after the play, when the servers' start and the connects are long over).
        st.go.clear()
        await asyncio.sleep(3.0)  # the actions in flight end
        t0, cpu0 = time.monotonic(), cpu()[0]
        await asyncio.sleep(idle)
        st.idle = (time.monotonic() - t0, cpu()[0] - cpu0)
    for t in pending:
        t.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failures:
        print(f"{len(failures)} players failed: {failures[0]!r}", file=sys.stderr)
    return st


def _cpu_parts(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process, from /proc (nan where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, ValueError, IndexError):
        return float("nan"), float("nan")


def _client_cpu() -> tuple[float, float]:
    """The client's (this process's) user and system CPU seconds."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime


def _arun(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


class _Postgres:
    """A throw-away PostgreSQL cluster (initdb + pg_ctl in a temp directory; run as ``postgres`` when root)."""

    def __init__(self) -> None:
        found = shutil.which("initdb")
        dirs = [Path(found).resolve().parent] if found else []
        dirs += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
        bindir = next((d for d in dirs if (d / "initdb").exists() and (d / "pg_ctl").exists()), None)
        if bindir is None:
            sys.exit("--pg: PostgreSQL's initdb/pg_ctl are not installed (ci/setup-system.sh)")
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pasch-bench-pg-"))
        self.port = _port()
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            shutil.chown(self.root, self.user)
            os.chmod(self.root, 0o700)
        data = str(self.root / "data")
        self._run("initdb", "-D", data, "-U", "pasch", "--auth=trust", "-E", "UTF8")
        # Durable commits as in production (fsync on, synchronous_commit on); enough connections for K processes.
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._run("pg_ctl", "-D", data, "-o", opts, "-l", str(self.root / "pg.log"), "-w", "start")
        self.url = f"postgresql+psycopg://pasch@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bindir / tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def pid(self) -> int | None:
        """The postmaster's process id (its CPU time counts as the database's)."""
        try:
            return int((self.root / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def _pg_cpu(root_pid: int | None) -> float:
    """CPU seconds of the postmaster and its backends (children), from /proc."""
    if root_pid is None:
        return float("nan")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        if pid == root_pid or int(fields[1]) == root_pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _exit_on_signal(signum: int, _frame: object) -> None:
    """SIGTERM/SIGHUP: leave through ``main``'s ``finally`` (servers, database and files cleaned up)."""
    raise SystemExit(128 + signum)


def _die_with_parent() -> None:
    """In the server's child process before exec (Linux): SIGTERM it when the benchmark dies, even by SIGKILL."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _start_server(db: str, tmp: Path, servers: list[subprocess.Popen[bytes]]) -> str:
    """Start one server (appended to ``servers`` at once, so that it is stopped whatever happens next); its URL."""
    port = _port()
    env = dict(os.environ, PASCH_DATA_DIR=str(tmp))
    cmd = [sys.executable, "-c", "from pasch.cli import main; main()", "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--db", db, "--bot-delay", "0"]
    # One address plays every room here: the per-address limits (bench/abuse.py measures them) are off.
    cmd += ["--rooms-per-minute", "0", "--open-rooms", "0", "--conns-per-room", "0", "--conns-per-address", "0"]
    cmd += ["--sockets-per-address", "0"]
    linux = sys.platform.startswith("linux")
    server = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_die_with_parent if linux else None,  # before any thread starts
    )
    servers.append(server)
    http = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(f"{http}/api/ready", timeout=1).close()
            break
        except OSError:
            if server.poll() is not None:
                sys.exit(f"the server exited with status {server.returncode}")
            time.sleep(0.1)
    return http


def _pct(values: list[float], q: float) -> float:
    ms = sorted(x * 1000 for x in values)
    return ms[min(len(ms) - 1, int(len(ms) * q))] if ms else float("nan")


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=500, help="simulated players (at most 2000)")
    ap.add_argument("--seats", type=int, default=2, help="players per room (2-8; players are rounded down to it)")
    ap.add_argument("--ramp", type=float, default=0.0, help="seconds over which the players connect (0: at once)")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds before the measured window starts")
    ap.add_argument("--open-timeout", type=float, default=10.0, help="seconds a websocket handshake may take")
    ap.add_argument("--seconds", type=float, default=90.0, help="time limit")
    ap.add_argument("--think", type=float, default=1.0, help="mean pause (s) before each action; 0: saturate")
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temp SQLite file, or --pg)")
    ap.add_argument("--servers", type=int, default=1, help="server processes on the one database (PostgreSQL if >1)")
    ap.add_argument(
        "--route",
        choices=("spread", "room"),
        default="spread",
        help="with --servers > 1: seat j of room i on process (i+j) mod K (spread, the worst case), "
        "or every seat of room i on process i mod K (room, as a proxy hashing the room code does)",
    )
    ap.add_argument("--pg", action="store_true", help="start a throw-away PostgreSQL for the run (initdb, pg_ctl)")
    ap.add_argument("--url", default=None, help="an already running server, e.g. http://127.0.0.1:8000")
    ap.add_argument("--pid", type=int, default=None, help="with --url: the server's process id (its CPU is counted)")
    ap.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    ap.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="after the window: the servers' CPU for this many seconds with every player connected, nobody acting",
    )
    args = ap.parse_args()
    if not 2 <= args.seats <= 8:
        ap.error("--seats must be 2 to 8")
    if args.idle < 0:
        ap.error("--idle must be 0 (no idle measurement) or a number of seconds")
    players = max(args.seats, min(MAX_PLAYERS, args.players)) // args.seats * args.seats
    compress = not args.no_compression
    k = max(1, min(16, args.servers))
    if k > 1 and not args.pg and not (args.db or "").startswith("postgresql"):
        sys.exit("--servers > 1 needs PostgreSQL: --pg, or --db postgresql+psycopg://...")
    load_before = os.getloadavg()
    servers: list[subprocess.Popen[bytes]] = []
    pg: _Postgres | None = None
    tmp: Path | None = None
    # A benchmark stopped from outside (kill, a closed terminal) stops its servers and its database too: left
    # running, they would share the cores with the next measurement (issue 25: two orphaned servers and two
    # clusters were found running beside later runs).
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _exit_on_signal)
    try:
        if args.url:
            https = [args.url.rstrip("/")]
        else:
            tmp = Path(tempfile.mkdtemp(prefix="pasch-bench-"))
            if args.pg:
                pg = _Postgres()
            db = pg.url if pg else (args.db or f"sqlite:///{tmp / 'web.sqlite3'}")
            https = []
            for _ in range(k):
                https.append(_start_server(db, tmp, servers))
        pg_pid = pg.pid() if pg else None

        def cpu() -> tuple[float, float, float, float, float]:
            """Server, database and client CPU seconds, then the servers' and the client's system part."""
            parts = [_cpu_parts(p.pid) for p in servers] if servers else [_cpu_parts(args.pid or 0)]
            server_sys = sum(s for _u, s in parts)
            client_user, client_sys = _client_cpu()
            return (
                sum(u for u, _s in parts) + server_sys,
                _pg_cpu(pg_pid),
                client_user + client_sys,
                server_sys,
                client_sys,
            )

        st = _arun(
            _run(
                https,
                players,
                args.seats,
                args.route,
                args.seconds,
                args.think,
                compress,
                args.ramp,
                args.open_timeout,
                args.warmup,
                cpu,
                args.idle,
            )
        )
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the cleanup short
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(5)
        if pg is not None:
            pg.stop()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    load_after = os.getloadavg()
    (n0, t0, cpu0), (n1, t1, cpu1) = st.marks
    lat = st.lat[n0:n1]
    n, elapsed = len(lat), t1 - t0
    server_cpu, pg_cpu, client_cpu, server_sys, client_sys = (b - a for a, b in zip(cpu0, cpu1, strict=True))
    nan = float("nan")
    per = 1000 / n if n else nan
    delays = st.delays()
    print(f"think time: mean {args.think:g} s per action; compression: {'deflate' if compress else 'none'}")
    route = f"; route: {args.route}" if len(https) > 1 else ""
    print(f"server processes: {len(https)}{route}; database: {'PostgreSQL (--pg)' if pg else (args.db or 'SQLite')}")
    print(f"rooms: {players // args.seats} of {args.seats} seats; connects spread over {args.ramp:g} s")
    print(
        f"websocket handshakes: {len(st.handshakes)} ok, {st.failed_handshakes} failed; "
        f"p50 {_pct(st.handshakes, 0.5):.1f} ms, p99 {_pct(st.handshakes, 0.99):.1f} ms, "
        f"max {(max(st.handshakes) * 1000 if st.handshakes else float('nan')):.1f} ms"
        + (f"; first failure: {st.first_failure}" if st.first_failure else "")
    )
    print(f"load average (1, 5, 15 min) before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    print(f"load average (1, 5, 15 min) after:  {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print(
        f"whole run: {len(st.lat)} actions, p50 {_pct(st.lat, 0.5):.1f} ms, p99 {_pct(st.lat, 0.99):.1f} ms, "
        f"max {(max(st.lat) * 1000 if st.lat else nan):.1f} ms; the table counts from {args.warmup:g} s on "
        f"(after the connects) to the end"
    )
    print(
        f"CPU in the window: server {server_cpu:.2f} s ({100 * server_cpu / elapsed:.1f} % of a core; system "
        f"{server_sys:.2f} s), database {pg_cpu:.2f} s, client {client_cpu:.2f} s ({100 * client_cpu / elapsed:.1f} "
        f"% of a core; system {client_sys:.2f} s)"
    )
    if st.idle is not None and n:
        idle_s, idle_cpu = st.idle
        held = idle_cpu / idle_s * elapsed * per  # the idle rate over the window, per action
        print(
            f"idle: {players} players connected, nobody acting for {idle_s:.0f} s: server {idle_cpu:.2f} s "
            f"({100 * idle_cpu / idle_s:.2f} % of a core); at the window's {n / elapsed:.1f} actions/s that is "
            f"{held:.3f} ms of each action's {server_cpu * per:.3f} ms, and an action adds "
            f"{server_cpu * per - held:.3f} ms"
        )
    print(
        f"{'players':>8} {'procs':>5} {'games':>6} {'seconds':>8} {'actions':>8} {'actions/s':>9} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'xproc p50':>9} {'xproc p99':>9} "
        f"{'srv cpu ms/act':>14} {'db cpu ms/act':>13} {'cli cpu ms/act':>14} {'errors':>6}"
    )
    print(
        f"{players:>8} {len(https):>5} {st.games:>6} {elapsed:>8.1f} {n:>8} {n / elapsed:>9.1f} "
        f"{_pct(lat, 0.5):>7.1f} {_pct(lat, 0.99):>7.1f} {(max(lat) * 1000 if lat else nan):>7.1f} "
        f"{_pct(delays, 0.5):>9.1f} {_pct(delays, 0.99):>9.1f} {server_cpu * per:>14.3f} {pg_cpu * per:>13.3f} "
        f"{client_cpu * per:>14.3f} {st.errors:>6}"
    )


if __name__ == "__main__":
    main()
