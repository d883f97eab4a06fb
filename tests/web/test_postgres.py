"""The same core game against a real PostgreSQL server started by the test (initdb + pg_ctl)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ._support import Client, Postgres, Server, find_pg_bin, play
from .test_play import two_players

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) are not installed; run ci/setup-system.sh")
    pg = Postgres(bindir).start()
    try:
        yield pg
    finally:
        pg.stop()


def test_full_game_restart_and_kill_on_postgresql(postgres: Postgres, tmp_path: Path, servers: list[Server]) -> None:
    server = Server(postgres.url, tmp_path).start()
    servers.append(server)
    code, clients, tokens = two_players(server)
    play(clients, stop_after=15)
    for c in clients.values():
        c.close()
    server.kill()  # SIGKILL mid-game: the committed log is all there is
    server.start()
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    play(clients)
    assert clients[0].state["terminal"]
    status, room = server.request("GET", f"/api/rooms/{code}")
    assert status == 200 and room["room"]["status"] == "finished"
    assert "Traceback" not in server.output()
