"""Test support: a real ``pasch serve`` process on 127.0.0.1 and a small websocket client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

SERVER_CODE = "from pasch.cli import main; main()"
NO_REPEAT = "import pasch.web._relay as relay; relay.POLL = 3600.0; from pasch.cli import main; main()"
"""``pasch serve`` whose relay repeats its presence (and catches up from the log) only once an hour: what a test
sees can only have come from the change itself, not from the periodic repeat."""

WAIT = 120.0
"""How long a test waits for the server (to start, to answer, to send the next message) before it calls it
hung. Generous: a machine at load 9 stretches a moment of work to many seconds, and a working server answers
long before this, so it costs nothing when all is well. (10 s once failed a game against a bot in CI.)"""


async def until(check: Any, what: str, timeout: float = WAIT) -> None:
    """Wait in an event loop until ``check()`` holds, polling every 10 ms; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def free_port() -> int:
    """A TCP port that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


NO_LIMITS = ("--rooms-per-minute", "0", "--open-rooms", "0", "--conns-per-room", "0", "--conns-per-address", "0")
NO_LIMITS += ("--misses-per-minute", "0")
"""The tests create many rooms and connections from one address: limits off unless a test sets its own."""


class Server:
    """``pasch serve`` in a subprocess; ``start`` waits until it answers, ``stop``/``kill`` end it."""

    def __init__(
        self,
        db: str,
        data_dir: Path,
        bot_delay: float = 0.0,
        extra: tuple[str, ...] = NO_LIMITS,
        args: tuple[str, ...] = (),
    ) -> None:
        self.db = db
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.extra = extra
        self.args = args
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = WAIT) -> Server:
        self.port = free_port()
        env = dict(os.environ, PASCH_DATA_DIR=str(self.data_dir))
        args = [sys.executable, "-c", SERVER_CODE, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        args += ["--db", self.db, "--bot-delay", str(self.bot_delay), *self.extra, *self.args]
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{self.http}/api/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in time")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    # -- HTTP --------------------------------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{self.http}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=WAIT) as r:
                raw = r.read()
                return r.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, json.loads(raw) if raw else None

    def create(self, seats: list[dict[str, str]], **opts: Any) -> dict[str, Any]:
        status, body = self.request("POST", "/api/rooms", {"seats": seats, **opts})
        assert status == 201, body
        return dict(body)

    def join(self, code: str) -> dict[str, Any]:
        status, body = self.request("POST", f"/api/rooms/{code}/join", {})
        assert status == 200, body
        return dict(body)


class Client:
    """A websocket client of one room that keeps the newest state it saw."""

    def __init__(self, server: Server, code: str, token: str | None = None) -> None:
        # No keepalive pings of its own (a browser sends none; the server's are answered): after a test killed its
        # server, the library's ping thread would print a traceback for each connection left open.
        url = f"{server.ws}/ws/{code}"
        self.ws: ClientConnection = connect(url, open_timeout=WAIT, max_size=1 << 22, ping_interval=None).__enter__()
        self.state: dict[str, Any] = {}
        self.seat: int | None = None
        self.seen: list[dict[str, Any]] = []
        self.recv_type("welcome")
        if token is not None:
            self.send({"type": "join", "token": token})
            msg = self.recv_type("welcome", "error")
            if msg["type"] == "welcome":
                self.seat = msg["seat"]

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(msg)
        state = msg.get("state")
        if isinstance(state, dict) and state.get("seq", -1) >= self.state.get("seq", -1):
            self.state = state
        return msg

    def recv_type(self, *types: str, timeout: float = WAIT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if msg["type"] in types:
                return msg

    def act(self, action: str, ref: int | str = "a") -> dict[str, Any]:
        """Send an action; return its ack or error.

        Like a well-behaved client, it backs off and sends again when the server says it is rate
        limited (the games here are played far faster than people play); the flood tests send raw.
        """
        for _ in range(50):
            self.send({"type": "act", "action": action, "id": ref})
            reply = self.recv_type("ack", "error")
            if reply.get("code") != "rate_limited":
                return reply
            time.sleep(0.1)
        return reply

    def wait_seq(self, seq: int, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while self.state.get("seq", -1) < seq:
            self.recv(max(0.01, deadline - time.monotonic()))

    def close(self) -> None:
        self.ws.close()


def two_processes(postgres: Postgres, tmp_path: Path, servers: list[Server]) -> tuple[Server, Server]:
    """Two ``pasch serve`` processes, A and B, on one PostgreSQL database, started (the ``servers`` fixture stops
    them)."""
    pair = (Server(postgres.url, tmp_path / "a"), Server(postgres.url, tmp_path / "b"))
    for s in pair:
        s.data_dir.mkdir()
        servers.append(s.start())
    return pair


def choose(state: dict[str, Any], keep_first: bool = True) -> str:
    """A simple legal move for the player to act in a sheet-game view."""
    if state["can_roll"]:
        return "roll"
    if state["throws"] == 1 and state["can_keep"] and keep_first:
        dice = state["dice"]
        face = max(set(dice), key=lambda f: (dice.count(f), f))
        if dice.count(face) < len(dice):
            return "keep " + " ".join([str(face)] * dice.count(face))
    best = max(state["options"], key=lambda o: (o["points"], -o["box"]))
    return str(best["action"])


def play(clients: dict[int, Client], max_actions: int = 2000, stop_after: int | None = None) -> int:
    """Let each seat's client play when it is their turn until the game ends (or ``stop_after`` actions)."""
    done = 0
    while done < max_actions:
        states = [c.state for c in clients.values()]
        state = max(states, key=lambda s: s.get("seq", -1))
        if state["terminal"] or (stop_after is not None and done >= stop_after):
            return done
        seat = state["current"]
        client = clients.get(seat)
        if client is None:  # a bot's turn: wait for its move
            any_client = next(iter(clients.values()))
            any_client.wait_seq(state["seq"] + 1)
            continue
        ack = client.act(choose(state))
        assert ack["type"] == "ack", ack
        for c in clients.values():
            c.wait_seq(ack["seq"])
        done += 1
    raise AssertionError("the game did not end")


def find_pg_bin() -> Path | None:
    """Directory of PostgreSQL's initdb/pg_ctl (Debian puts them under /usr/lib/postgresql/N/bin)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "initdb").exists() and (d / "pg_ctl").exists():
            return d
    return None


class Postgres:
    """A throw-away PostgreSQL cluster in a temp dir, run as the ``postgres`` user when we are root."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pasch-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> Postgres:
        if self.user:
            shutil.chown(self.root, self.user)
            os.chmod(self.root, 0o700)
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "pasch", "--auth=trust", "-E", "UTF8")
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.root / "pg.log"),
            "-w",
            "start",
        )
        return self

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://pasch@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
