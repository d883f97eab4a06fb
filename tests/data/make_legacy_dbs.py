"""Make the legacy database files that the storage migration tests upgrade.

``legacy-terminal.sqlite3`` and ``legacy-web.sqlite3`` were made by this script with the code of commit
5ce583e ("Multi-column bot: one _best_keep for the plan's keep decision ..."), the last commit with two
storages: the terminal app's ``games`` + ``game_players`` (the whole JSON log in a text column, Alembic
version table ``alembic_version`` at ``0001``) and the web server's ``web_rooms``, ``web_seats``,
``web_events``, ``web_results`` (version table ``pasch_web_alembic_version`` at ``w0001``).

The files are frozen: they stand for databases that users of that release have on disk. This script only
runs against that commit's code (``git checkout 5ce583e -- src`` in a scratch worktree), so do not re-run it
on a newer tree; it is kept to show how the files were made::

    python tests/data/make_legacy_dbs.py tests/data
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

TERMINAL = "legacy-terminal.sqlite3"
WEB = "legacy-web.sqlite3"


def _choose(state: Any, kind: str, rng: np.random.Generator) -> Any:
    """The action of the seat to play: its bot's, or a simple human-like choice."""
    from pasch.bots import make_bot

    if kind.startswith("bot:"):
        return make_bot(kind.removeprefix("bot:")).choose(state, rng)
    legal = state.legal_actions()
    scores = [a for a in legal if str(a).startswith(("score", "write", "circle"))]
    if scores and rng.random() < 0.6:
        return scores[int(rng.integers(len(scores)))]
    return legal[int(rng.integers(len(legal)))]


def _terminal(path: Path) -> None:
    from pasch.engine import Game
    from pasch.storage import Repository

    path.unlink(missing_ok=True)
    repo = Repository(f"sqlite:///{path}")
    # (rules, seats as (name, kind), seed, stop after this many actions or None to finish)
    games: list[tuple[str, list[tuple[str, str]], int, int | None]] = [
        ("kniffel", [("Ada", "human"), ("Robo", "bot:greedy")], 1, None),
        ("kniffel", [("Ada", "human"), ("Bob", "human")], 2, None),  # hot-seat
        ("kniffel", [("Ada", "human"), ("Bob", "human"), ("Cy", "bot:random")], 3, 40),  # unfinished
        ("yatzy", [("Bob", "human")], 4, None),
        ("yatzy", [("Ada", "human"), ("Gree", "bot:greedy")], 5, 25),  # unfinished
        ("kniffel-4", [("Ada", "human"), ("Multi", "bot:multi")], 6, None),
        ("kniffel-4", [("Bob", "human")], 7, 30),  # unfinished
        ("knaster", [("Ada", "human"), ("Kna", "bot:knaster")], 8, None),
        ("knaster", [("Ada", "human"), ("Bob", "human")], 9, 12),  # unfinished
        ("kniffel+sharp", [("Ümit", "human"), ("Zoë", "human")], 10, None),
    ]
    for rules, seats, seed, stop in games:
        kinds = [k for _, k in seats]
        game = Game(rules, [n for n, _ in seats], seed=seed, meta={"seats": kinds})
        rng = np.random.default_rng(seed + 100)
        gid: int | None = None
        while not game.state.is_terminal and (stop is None or len(game.actions) < stop):
            seat = game.state.current_player
            game.act(_choose(game.state, kinds[seat], rng))
            if len(game.actions) % 37 == 0:  # saved along the way, as the terminal app does after turns
                gid = repo.save(game.log, kinds, gid, game.state)
        repo.save(game.log, kinds, gid, game.state)
    # A score-keeper game: the table enters the dice it threw.
    for players, stop in ((["Ada", "Bob"], None), (["Cy"], 6)):
        game = Game("kniffel", players, keeper=True, meta={"seats": ["human"] * len(players)})
        rng = np.random.default_rng(len(players))
        while not game.state.is_terminal and (stop is None or len(game.actions) < stop):
            legal = game.state.legal_actions()
            enters = [a for a in legal if str(a).startswith("enter")]
            pick = enters if enters else legal
            game.act(pick[int(rng.integers(len(pick)))])
        repo.save(game.log, ["human"] * len(players))
    repo.close()


async def _web_scenario(path: Path) -> None:
    from pasch.web._db import make_engine, migrate
    from pasch.web._service import Service

    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    svc = Service(engine, bot_delay=0)
    svc.writer.start()
    rng = np.random.default_rng(7)

    async def play(code: str, stop: int | None = None) -> None:
        n = 0
        for _ in range(5000):
            room = svc.rooms[code]
            if room.finished or (stop is not None and n >= stop):
                return
            seat = room.state.current_player
            if room.seats[seat].is_bot:
                if room.bot_task is not None:
                    await room.bot_task
                svc.schedule_bots(room)
                await asyncio.sleep(0)
                continue
            action = _choose(room.state, "human", rng)
            await svc.act(code, seat, str(action))
            n += 1
        raise AssertionError("the game did not end")

    # Finished: two humans; and a human against a server-side bot (then a rematch, itself finished).
    a, _ = await svc.create_room("kniffel", [("Ada", "human"), ("Bob", "human")])
    await svc.claim_seat(a.code)
    await play(a.code)
    b, tokens = await svc.create_room("yatzy", [("Ada", "human"), ("Robo", "bot:greedy")], hints=True)
    await play(b.code)
    again = await svc.rematch(b.code, tokens[0])
    await play(again.code)
    # Unfinished: a bot room (multi-column) and a Knaster room, left mid-game.
    c, _ = await svc.create_room("kniffel-4", [("Ada", "human"), ("Multi", "bot:greedy")])
    await play(c.code, stop=20)
    d, _ = await svc.create_room("knaster", [("Ümit", "human"), ("Kna", "bot:random")])
    await play(d.code, stop=10)
    e, _ = await svc.create_room("knaster", [("Ada", "human"), ("Bob", "human")])
    await svc.claim_seat(e.code)
    await play(e.code)
    # A score-keeper room (no seed, the table enters the dice), finished; and one never played.
    k, _ = await svc.create_room("kniffel", [("Cy", "human")], keeper=True)
    await play(k.code)
    await svc.create_room("kniffel", [("Dee", "human"), ("Eve", "human")])
    # Abandoned: nobody played it for more than a week.
    z, _ = await svc.create_room("kniffel", [("Zed", "human")])
    await play(z.code, stop=3)
    for room in svc.rooms.values():
        if room.bot_task is not None:
            await room.bot_task
    for code in [c for c in svc.rooms if c != z.code]:  # only the swept (cached) room is abandoned
        del svc.rooms[code]
    out = await svc.sweep(datetime.now(UTC) + timedelta(days=8))
    assert out["abandoned"] == [z.code], out
    svc.close()
    engine.dispose()


def _web(path: Path) -> None:
    path.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    asyncio.run(_web_scenario(path))
    import sqlite3

    con = sqlite3.connect(path)  # fold the WAL into the file and leave a plain rollback-journal database
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("VACUUM")
    con.close()


def main(out: str) -> None:
    """Write both files into the directory ``out``."""
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    _terminal(d / TERMINAL)
    _web(d / WEB)
    for name in (TERMINAL, WEB):
        print(name, (d / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent))
