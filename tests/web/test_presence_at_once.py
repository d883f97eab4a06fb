"""Who is connected, across processes, at once (docs/protocol.md, *Presence*): a process tells the others of a
change of its connections to a room when it happens, and one that starts serving a room hears at once of the
connections the others already had, without waiting for their periodic repeat.

The servers run with the repeat made an hour long, so each presence asserted here can only have come from the
change itself; the test waits for it (no clock is read).
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from pasch.storage import LISTEN

from . import _support
from ._support import NO_REPEAT, WAIT, Client, Postgres, Server, two_processes

pytestmark = pytest.mark.slow


def _online(client: Client) -> list[bool]:
    """Who is online as the client was last told (its latest ``welcome`` or ``presence``)."""
    for msg in reversed(client.seen):
        if msg["type"] in ("welcome", "presence"):
            presence = msg["presence"] if msg["type"] == "welcome" else msg
            return [bool(s["online"]) for s in presence["seats"]]
    return []


def _until_online(client: Client, online: list[bool]) -> None:
    while _online(client) != online:
        client.recv_type("presence")


def test_presence_reaches_the_other_process_when_it_changes(
    postgres: Postgres, tmp_path: Path, servers: list[Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_support, "SERVER_CODE", NO_REPEAT)
    a, b = two_processes(postgres, tmp_path, servers)
    created = a.create([{"name": "Ada"}, {"name": "Bob"}])
    code = created["code"]
    bob_token = a.join(code)["token"]
    with psycopg.connect(postgres.url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as listener:
        listener.execute(LISTEN)
        ada = Client(a, code, created["token"])  # on process A, which has served the room from its creation
        assert _online(ada) == [True, False]
        # A tells the other processes (B does not serve the room yet: it has nothing to show it to) ...
        for note in listener.notifies(timeout=WAIT):
            if note.payload.endswith(f' {code} {{"type":"presence","counts":{{"0":1}},"spectators":0}}'):
                break
        else:
            raise AssertionError("process A did not announce Ada")
    # ... and a spectator connects to process B, which starts serving the room: it hears of Ada at once ...
    watcher = Client(b, code)
    _until_online(watcher, [True, False])
    while ada.recv_type("presence")["spectators"] != 1:  # ... and A of the spectator
        pass
    # Bob connects to B: A hears of him, and of him leaving.
    bob = Client(b, code, bob_token)
    _until_online(bob, [True, True])
    _until_online(ada, [True, True])
    bob.close()  # Bob leaves: A says so
    _until_online(ada, [True, False])
    watcher.close()
    while ada.recv_type("presence")["spectators"] != 0:
        pass
    assert "Traceback" not in a.output() + b.output()
