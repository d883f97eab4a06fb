"""One database for both: a terminal game and a room played through the real web server, listed together."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from pasch.engine import Game, GameLog, replay
from pasch.storage import EventRow, Repository
from web._support import SERVER_CODE, Client, Server, play


def _history(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ, PASCH_DATA_DIR=str(env_dir), COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-c", SERVER_CODE, "history", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _terminal_game(seed: int) -> Game:
    game = Game("kniffel", ["Tess", "Tom"], seed=seed)
    while not game.state.is_terminal:
        legal = game.state.legal_actions()
        scores = [a for a in legal if str(a).startswith("score")]
        game.act(scores[0] if scores else legal[0])
    return game


def test_history_lists_a_terminal_game_and_a_web_room_from_one_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    server = Server(url, tmp_path).start()
    try:
        created = server.create([{"name": "Ada"}, {"name": "Robo", "kind": "bot:greedy"}])
        code = created["code"]
        ada = Client(server, code, created["token"])
        # The terminal app saves into the same file while the server has it open.
        game = _terminal_game(seed=11)
        with Repository(url) as repo:
            tid = repo.save(game.log, ["human", "bot:greedy"], state=game.state)
        play({0: ada})
        final = ada.state
        assert final["terminal"]
        ada.close()
    finally:
        server.stop()
    assert "Traceback" not in server.output()

    other = tmp_path / "elsewhere"  # --db, not the data directory, names the database
    done = _history("--db", url, "--json", env_dir=other)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    by_source = {g["source"]: g for g in out["games"]}
    assert set(by_source) == {"terminal", "web"} and len(out["games"]) == 2
    web, term = by_source["web"], by_source["terminal"]
    assert web["code"] == code and web["status"] == "finished" and web["mode"] == "play"
    assert [p["total"] for p in web["players"]] == final["totals"]
    assert [p["kind"] for p in web["players"]] == ["human", "bot:greedy"]
    assert web["winners"] == [p["name"] for p in web["players"] if p["rank"] == 1]
    assert term["id"] == tid and term["code"] is None and term["status"] == "finished"
    assert [p["total"] for p in term["players"]] == [int(t) for t in game.state.totals()]
    assert set(term) >= {"id", "rules", "mode", "status", "updated", "players", "winners"}
    assert {(h["name"], h["total"]) for h in out["high_scores"]} >= {
        (p["name"], p["total"]) for g in (web, term) for p in g["players"]
    }
    # The web game's log in the database replays to the totals the browser showed.
    with Repository(url) as repo:
        rec = repo.get(web["id"])
        assert [int(t) for t in replay(rec.log).totals()] == final["totals"]
        with Session(repo.engine) as s:
            seqs = s.scalars(select(EventRow.seq).where(EventRow.game_id == web["id"]).order_by(EventRow.seq)).all()
        assert seqs == list(range(1, len(rec.log.actions) + 1)) and len(seqs) == final["seq"]

    table = _history("--db", url, env_dir=other)
    assert table.returncode == 0, table.stderr
    assert f"web {code}" in table.stdout and "terminal" in table.stdout
    assert not (other / "pasch.sqlite3").exists()


def test_history_bad_db_url_is_bad_input(tmp_path: Path) -> None:
    done = _history("--db", "nosuchdialect://x", env_dir=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("pasch: error: cannot open the database 'nosuchdialect://x'")
    both = _history("--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--data-dir", str(tmp_path), env_dir=tmp_path)
    assert both.returncode == 2 and "not both" in both.stderr


def test_an_undo_rewrites_the_tail_of_the_events(tmp_path: Path) -> None:
    game = Game("kniffel", ["Ada"], seed=5)
    game.act("roll")  # the roll and its throw
    base = game.log.actions
    legal = [str(a) for a in game.state.legal_actions()]
    first = GameLog("kniffel", ("Ada",), (*base, legal[0]))
    second = GameLog("kniffel", ("Ada",), (*base, legal[1]))  # the player took it back and chose again
    with Repository(directory=tmp_path) as repo:
        gid = repo.save(first)
        for log in (second, GameLog("kniffel", ("Ada",), base[:1]), second):
            assert repo.save(log, game_id=gid) == gid
            assert repo.get(gid).log.actions == log.actions
            with Session(repo.engine) as s:
                rows = s.scalars(select(EventRow).where(EventRow.game_id == gid).order_by(EventRow.seq)).all()
            assert [(r.seq, r.action) for r in rows] == list(enumerate(log.actions, start=1))
            assert [r.seat for r in rows] == [0, None, 0][: len(rows)]  # the throw is the dice's, not a seat's
