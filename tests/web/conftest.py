"""Fixtures of the web tests: a real server on a temp SQLite database, killed at the end of each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ._support import Server


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Servers a test started; every one is stopped when the test ends."""
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


@pytest.fixture
def server(tmp_path: Path, servers: list[Server]) -> Server:
    """A running server on a fresh SQLite file (bots act at once)."""
    s = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path).start()
    servers.append(s)
    return s
