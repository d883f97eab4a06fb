"""The server's database at its edges (issue 26): a bad ``--db`` in one line, one server per SQLite *file*
(whatever name reaches it), and a locked database answered with JSON 503 and ``Retry-After``."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ._support import WAIT, Server


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from pasch.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", "0", *args], capture_output=True, text=True, timeout=WAIT
    )


@pytest.mark.parametrize(
    ("db", "needle"),
    [
        ("notaurl", "is not a database URL"),
        ("foo://bar", "--db 'foo://bar'"),
        ("postgresql+psycopg://ada:secret@127.0.0.1:1/x", "cannot use the database 'postgresql+psycopg://ada:***@"),
    ],
)
def test_a_bad_db_is_one_line_and_exit_2(db: str, needle: str) -> None:
    done = _serve("--db", db)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pasch: error:") and needle in lines[0], done.stderr
    assert "secret" not in done.stderr


def test_a_hard_link_to_a_served_file_is_refused(tmp_path: Path, servers: list[Server]) -> None:
    """The lock follows the file, not its name: before, a second server reached it through a hard link and
    the two lost half of their acknowledged events."""
    first_db = tmp_path / "web.sqlite3"
    first = Server(f"sqlite:///{first_db}", tmp_path).start()
    servers.append(first)
    other = tmp_path / "elsewhere"
    other.mkdir()
    os.link(first_db, other / "alias.sqlite3")
    second = Server(f"sqlite:///{other / 'alias.sqlite3'}", other)
    with pytest.raises(RuntimeError, match="already served by another pasch serve process"):
        second.start(timeout=WAIT)
    assert second.proc is None or second.proc.returncode == 2
    symlink = other / "link.sqlite3"
    symlink.symlink_to(first_db)
    with pytest.raises(RuntimeError, match="already served"):
        Server(f"sqlite:///{symlink}", other).start(timeout=WAIT)


def test_a_locked_database_answers_json_503_with_retry_after(
    tmp_path: Path, servers: list[Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PASCH_DB_BUSY_TIMEOUT", "0.2")  # how long the server waits for another program's lock
    db = tmp_path / "web.sqlite3"
    server = Server(f"sqlite:///{db}", tmp_path).start()
    servers.append(server)
    holder = sqlite3.connect(db, timeout=WAIT, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing, for longer than the busy timeout
    try:
        req = urllib.request.Request(f"{server.http}/api/rooms", data=b'{"seats": [{"name": "Ada"}]}', method="POST")
        req.add_header("Content-Type", "application/json")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=WAIT)
        assert refused.value.code == 503
        assert refused.value.headers["Content-Type"] == "application/json"
        assert int(refused.value.headers["Retry-After"]) >= 1
        assert b'"database_busy"' in refused.value.read()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert server.create([{"name": "Ada"}])["code"]  # the lock gone, the same request succeeds


def test_serve_says_where_it_serves_and_within_which_bounds(tmp_path: Path, servers: list[Server]) -> None:
    """It printed nothing when it started, not even its URL (issue 25)."""
    server = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, extra=()).start()
    servers.append(server)
    out = server.output()
    assert f"serving on http://127.0.0.1:{server.port}/" in out
    assert f"database: sqlite:///{tmp_path / 'web.sqlite3'}" in out
    assert "per address: 10 rooms a minute, 20 open rooms" in out and "at most 4096 MB on disk" in out
    assert "client addresses: the connecting peer's" in out
