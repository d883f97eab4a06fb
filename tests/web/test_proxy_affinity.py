"""The room-affinity proxy of ``docs/deploy.md`` for real: nginx in front of two processes on PostgreSQL.

The test runs the nginx block the document shows (its ports replaced, TLS left out), plays a few rooms
through it and reads nginx's access log: every request and websocket of one room reached one process, and
the rooms as a whole reached both. Skipped where nginx or PostgreSQL is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._support import WAIT, Client, Postgres, Server, free_port, play

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def documented_block() -> str:
    """The nginx block of the "Room affinity" section (the one that hashes the room code)."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), flags=re.S)
    found = [b for b in blocks if "hash $pasch_route consistent" in b]
    assert len(found) == 1, "docs/deploy.md shows one nginx block with the room hash"
    return found[0]


def config(block: str, ports: list[int], listen: int, root: Path) -> str:
    """A complete nginx.conf around the documented block: its upstreams on ``ports``, plain HTTP."""
    servers = [ln for ln in block.splitlines() if re.match(r"\s*server 127\.0\.0\.1:\d+", ln)]
    assert len(servers) >= len(ports)
    for line, port in zip(servers, ports, strict=False):
        block = block.replace(line, re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", line))
    for line in servers[len(ports) :]:
        block = block.replace(line + "\n", "")
    block = re.sub(r"listen 443 ssl;", f"listen 127.0.0.1:{listen};", block)
    block = block.replace("server_name dice.example.org;", "server_name localhost;")
    return f"""
daemon off;
master_process off;
worker_processes 1;
error_log {root}/error.log;
pid {root}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    log_format routed '$uri $upstream_addr $status';
    access_log {root}/access.log routed;
{block}
}}
"""


@pytest.fixture
def nginx_bin() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if found is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return found


@pytest.fixture
def proxy(nginx_bin: str, postgres: Postgres, tmp_path: Path, servers: list[Server]) -> Iterator[tuple[Server, Path]]:
    """Two processes on PostgreSQL behind nginx with the documented configuration; (the proxy, its log)."""
    for i in range(2):
        d = tmp_path / f"p{i}"
        d.mkdir()
        servers.append(Server(postgres.url, d, args=("--forwarded-allow-ips", "127.0.0.1")).start())
    root = tmp_path / "nginx"
    root.mkdir()
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(config(documented_block(), [s.port for s in servers], port, root))
    check = subprocess.run([nginx_bin, "-t", "-p", str(root), "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([nginx_bin, "-p", str(root), "-c", str(conf)], stderr=subprocess.PIPE)
    front = Server(postgres.url, tmp_path)  # not started: only its HTTP and websocket helpers, on nginx's port
    front.port = port
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(f"{front.http}/api/health", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        yield front, root / "access.log"
    finally:
        proc.terminate()
        proc.wait(WAIT)


@pytest.mark.slow
def test_every_request_of_a_room_reaches_one_process(proxy: tuple[Server, Path], servers: list[Server]) -> None:
    front, log = proxy
    codes = []
    for i in range(16):  # 16 rooms reach both processes but with odds of 2**-15 (the hash is of random codes)
        created = front.create([{"name": "Ada"}, {"name": "Bob"}, {"name": "Cy"}])
        code = created["code"]
        codes.append(code)
        tokens = [created["token"], front.join(code)["token"], front.join(code)["token"]]
        status, body = front.request("GET", f"/api/rooms/{code}")
        assert status == 200, body
        if i < 4:  # and some are played over websockets through the proxy
            clients = {seat: Client(front, code, token) for seat, token in enumerate(tokens)}
            assert play(clients, stop_after=6) == 6
            for c in clients.values():
                c.ws.close()
    time.sleep(0.5)  # nginx writes a websocket's line when it closes
    upstreams: dict[str, set[str]] = {}
    for line in log.read_text().splitlines():
        uri, upstream, _status = line.split(" ")
        m = re.match(r"^/(?:ws|api/rooms)/([^/]+)", uri)
        if m:
            upstreams.setdefault(m.group(1), set()).add(upstream)
    for code in codes:
        assert len(upstreams.get(code, set())) == 1, (code, upstreams.get(code))
    played = [line for line in log.read_text().splitlines() if line.startswith("/ws/") and line.endswith(" 101")]
    assert len(played) == 12, played
    used = set().union(*(upstreams[c] for c in codes))
    assert used == {f"127.0.0.1:{s.port}" for s in servers}, used
