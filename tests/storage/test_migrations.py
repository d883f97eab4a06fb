"""The upgrade of databases written by the release with two storages (checked in under tests/data).

Every expectation comes from the legacy files' own rows: games, players, actions (each game's log replays
to the totals the legacy file stored), results and seats must all be there after the upgrade.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import Engine, inspect, select
from sqlalchemy.orm import Session

from pasch.engine import GameLog, replay
from pasch.storage import (
    HEAD,
    Base,
    EventRow,
    GameRow,
    Repository,
    ResultRow,
    SeatRow,
    StorageError,
    current_revision,
    downgrade,
    import_legacy_web,
    migrate,
)

from . import _legacy
from ._legacy import TERMINAL, WEB, combined, copy_to, rows, terminal_games, utc

OLD_TABLES = {"game_players", "web_rooms", "web_seats", "web_events", "web_results", "pasch_web_alembic_version"}


def _schema_diff(engine: Engine) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))


def _event_seats(log: GameLog) -> list[int | None]:
    """Who played each action, by replaying (None: a throw of the dice)."""
    from pasch.engine import new_game

    state: Any = new_game(log.rules, log.players, keeper=log.keeper)
    out: list[int | None] = []
    for text in log.actions:
        out.append(None if state.is_chance_node else state.current_player)
        state = state.apply(text)
    return out


def check_terminal(engine: Engine, legacy: dict[str, list[dict[str, Any]]]) -> None:
    """Every legacy terminal game is in ``engine``'s upgraded database, unchanged, under its id."""
    games = terminal_games(legacy)
    assert len(games) >= 10
    with Repository(engine=engine) as repo, Session(engine) as s:
        for g in games:
            rec = repo.get(g.row["id"])
            assert (rec.uid, rec.source, rec.code) == (g.row["uid"], "terminal", None)
            assert (rec.rules, rec.mode, rec.status) == (g.row["rules"], g.row["mode"], g.row["status"])
            assert rec.log == GameLog.from_dict(g.log)  # rules, players, actions, keeper, engine, meta
            assert (rec.created_at, rec.updated_at, rec.finished_at) == (
                utc(g.row["created_at"]),
                utc(g.row["updated_at"]),
                utc(g.row["finished_at"]),
            )
            got = [(p.seat, p.name, p.kind, p.total, p.rank, p.winner) for p in rec.players]
            want = [(p["seat"], p["name"], p["kind"], p["total"], p["rank"], bool(p["winner"])) for p in g.players]
            assert got == want
            state = replay(rec.log)
            assert [int(t) for t in state.totals()] == [p["total"] for p in g.players]
            assert bool(state.is_terminal) == (g.row["status"] == "finished")
            events = s.scalars(select(EventRow).where(EventRow.game_id == g.row["id"]).order_by(EventRow.seq)).all()
            assert [e.seq for e in events] == list(range(1, len(g.log["actions"]) + 1))
            assert [e.seat for e in events] == _event_seats(rec.log)
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == g.row["id"]).order_by(SeatRow.seat)).all()
            assert [(x.seat, x.name, x.kind, x.token_hash) for x in seats] == [
                (p["seat"], p["name"], p["kind"], None) for p in g.players
            ]


def check_web(engine: Engine, legacy: dict[str, list[dict[str, Any]]], offset: int) -> None:
    """Every legacy web room is a web game of ``engine``'s upgraded database (id + ``offset``)."""
    from pasch.web import verify

    rooms = legacy["web_rooms"]
    assert len(rooms) >= 8
    with Session(engine) as s, Repository(engine=engine) as repo:
        for room in rooms:
            row = s.scalar(select(GameRow).where(GameRow.code == room["code"]))
            assert row is not None and row.source == "web" and row.id == room["id"] + offset
            for key in ("rules", "keeper", "hints", "status", "seed", "commitment", "rematch_of", "rematch_code"):
                assert getattr(row, key) == room[key], key
            assert (utc(row.created_at), utc(row.finished_at)) == (utc(room["created_at"]), utc(room["finished_at"]))
            rid = room["id"]
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)).all()
            assert [(x.seat, x.name, x.kind, x.token_hash, x.claimed) for x in seats] == [
                (x["seat"], x["name"], x["kind"], x["token_hash"], bool(x["claimed"]))
                for x in sorted((x for x in legacy["web_seats"] if x["room_id"] == rid), key=lambda x: x["seat"])
            ]
            events = s.scalars(select(EventRow).where(EventRow.game_id == row.id).order_by(EventRow.seq)).all()
            want_events = sorted((e for e in legacy["web_events"] if e["room_id"] == rid), key=lambda e: e["seq"])
            assert [(e.seq, e.seat, e.action, utc(e.created_at)) for e in events] == [
                (e["seq"], e["seat"], e["action"], utc(e["created_at"])) for e in want_events
            ]
            results = s.scalars(select(ResultRow).where(ResultRow.game_id == row.id).order_by(ResultRow.seat)).all()
            want_results = sorted((r for r in legacy["web_results"] if r["room_id"] == rid), key=lambda r: r["seat"])
            assert [(r.seat, r.name, r.total, r.rank, r.winner) for r in results] == [
                (r["seat"], r["name"], r["total"], r["rank"], r["rank"] == 1) for r in want_results
            ]
            rec = repo.get(row.id)
            state = replay(rec.log)
            assert bool(state.is_terminal) == (room["status"] == "finished")
            if want_results:
                assert [int(t) for t in state.totals()] == [r["total"] for r in want_results]
                assert [p.total for p in rec.players] == [r["total"] for r in want_results]
            if room["status"] == "finished" and room["seed"]:
                report = verify(rec.log)  # the revealed seed still explains every throw
                assert report.fair, report.problems


def _check_clean(engine: Engine) -> None:
    assert current_revision(engine) == HEAD
    assert not OLD_TABLES & set(inspect(engine).get_table_names())
    diff = _schema_diff(engine)
    assert diff == [], f"the upgraded schema differs from the models: {diff}"


def test_the_legacy_files_cover_the_cases() -> None:
    t, w = rows(TERMINAL), rows(WEB)
    assert [r["version_num"] for r in t["alembic_version"]] == ["0001"]
    assert [r["version_num"] for r in w["pasch_web_alembic_version"]] == ["w0001"]
    assert {g["rules"] for g in t["games"]} >= {"kniffel", "yatzy", "kniffel-4", "knaster"}
    assert {g["status"] for g in t["games"]} == {"finished", "unfinished"}
    assert {g["mode"] for g in t["games"]} == {"play", "keeper"}
    assert {p["kind"].split(":")[0] for p in t["game_players"]} == {"human", "bot"}
    assert {r["status"] for r in w["web_rooms"]} == {"playing", "finished", "abandoned"}
    assert any(r["keeper"] for r in w["web_rooms"]) and any(r["rematch_of"] for r in w["web_rooms"])
    assert any(s["kind"].startswith("bot:") for s in w["web_seats"])
    assert TERMINAL.stat().st_size < 1 << 20 and WEB.stat().st_size < 1 << 20


def test_terminal_file_upgrades_without_loss(tmp_path: Path) -> None:
    legacy = rows(TERMINAL)
    db = copy_to(TERMINAL, tmp_path / "t.sqlite3")
    repo = Repository(f"sqlite:///{db}")
    _check_clean(repo.engine)
    check_terminal(repo.engine, legacy)
    assert len(repo.games(limit=None)) == len(legacy["games"])
    # The terminal app goes on with it: resume the latest unfinished game, save it finished.
    rec = repo.latest_unfinished()
    assert rec is not None and rec.source == "terminal"
    from pasch.engine import Game

    game = Game.from_log(rec.log, rng=np.random.default_rng(1))
    while not game.state.is_terminal:
        legal = game.state.legal_actions()
        game.act(next((a for a in legal if str(a).startswith(("score", "write"))), legal[0]))
    assert repo.save(game.log, rec.player_kinds(), rec.id, game.state) == rec.id
    assert repo.get(rec.id).finished and repo.get(rec.id).log.actions[: len(rec.log.actions)] == rec.log.actions
    new_id = repo.save(game.log)
    assert new_id == max(g["id"] for g in legacy["games"]) + 1
    repo.close()


def test_web_file_upgrades_without_loss_and_serves(tmp_path: Path) -> None:
    from pasch.web._service import Service

    legacy = rows(WEB)
    db = copy_to(WEB, tmp_path / "w.sqlite3")
    repo = Repository(f"sqlite:///{db}")
    _check_clean(repo.engine)
    check_web(repo.engine, legacy, offset=0)
    with pytest.raises(StorageError):  # a web room is not a terminal game to overwrite
        repo.save(GameLog("kniffel", ("Ada",)), game_id=legacy["web_rooms"][0]["id"])
    assert repo.latest_unfinished() is None  # web rooms are resumed by the server, not the terminal app

    async def serve() -> None:
        svc = Service(repo.engine, bot_delay=0)
        resumed = svc.resume_all()
        assert sorted(resumed) == sorted(r["code"] for r in legacy["web_rooms"] if r["status"] == "playing")
        fresh = next(r for r in legacy["web_rooms"] if r["status"] == "playing" and r["rules"] == "kniffel")
        room = svc.rooms[fresh["code"]]
        seq = room.seq
        await svc.act(room.code, room.state.current_player, "roll")  # the room plays on after the upgrade
        assert room.seq == seq + 2
        created, _ = await svc.create_room("kniffel", [("Ada", "human")])
        assert created.id == max(r["id"] for r in legacy["web_rooms"]) + 1
        svc.close()

    asyncio.run(serve())
    repo.close()


def test_one_file_with_both_storages(tmp_path: Path) -> None:
    db = combined(tmp_path / "both.sqlite3")
    legacy = rows(db)
    assert {"games", "game_players", "web_rooms", "pasch_web_alembic_version"} <= set(legacy)
    repo = Repository(f"sqlite:///{db}")
    _check_clean(repo.engine)
    offset = max(g["id"] for g in legacy["games"])
    check_terminal(repo.engine, legacy)
    check_web(repo.engine, legacy, offset=offset)
    everything = repo.games(limit=None)
    assert len(everything) == len(legacy["games"]) + len(legacy["web_rooms"])
    assert {g.source for g in everything} == {"terminal", "web"}
    with Session(repo.engine) as s:
        assert len(s.scalars(select(EventRow.id)).all()) == len(legacy["web_events"]) + sum(
            len(json.loads(g["log"])["actions"]) for g in legacy["games"]
        )
    repo.close()


def _without_meta(log: GameLog) -> GameLog:
    kept = {k: v for k, v in log.meta.items() if k not in ("dice", "contributions")}
    return dataclasses.replace(log, engine="", meta=kept)


def _snapshot(engine: Engine) -> list[tuple[Any, ...]]:
    """What a downgrade and upgrade keep: everything but a web game's uid, engine version and meta (the old web
    tables have no place for them; in the log, the meta's dice version and contributions)."""
    with Repository(engine=engine) as repo:
        return [
            (
                g.id,
                g.source,
                g.code,
                g.rules,
                g.mode,
                g.status,
                _without_meta(g.log) if g.source == "web" else g.log,
                g.players,
                g.created_at,
                g.finished_at,
                g.uid if g.source == "terminal" else None,
            )
            for g in repo.games(limit=None)
        ]


def test_downgrade_restores_both_old_storages_and_upgrade_again(tmp_path: Path) -> None:
    db = combined(tmp_path / "both.sqlite3")
    legacy = rows(db)
    engine = Repository(f"sqlite:///{db}").engine
    before = _snapshot(engine)
    downgrade(engine, "0001")
    assert current_revision(engine) == "0001"
    back = rows(db)
    assert not {"seats", "events", "results"} & set(back)
    assert [r["version_num"] for r in back["pasch_web_alembic_version"]] == ["w0001"]
    # The terminal's rows come back as they were (the log text may be formatted differently).
    strip = lambda r: {k: v for k, v in r.items() if k != "log"}  # noqa: E731
    assert [strip(r) for r in back["games"]] == [strip(r) for r in legacy["games"]]
    assert [json.loads(r["log"]) for r in back["games"]] == [json.loads(r["log"]) for r in legacy["games"]]
    assert [strip(r) for r in back["game_players"]] == [strip(r) for r in legacy["game_players"]]
    # The web's rows too, apart from the room ids (they kept the unified ids) and the rows' own ids.
    for table, key in (
        ("web_rooms", None),
        ("web_seats", "room_id"),
        ("web_events", "room_id"),
        ("web_results", "room_id"),
    ):
        drop = {"id", key} if key else {"id"}
        assert [{k: v for k, v in r.items() if k not in drop} for r in back[table]] == [
            {k: v for k, v in r.items() if k not in drop} for r in legacy[table]
        ], table
    migrate(engine)
    _check_clean(engine)
    assert _snapshot(engine) == before
    downgrade(engine, "base")
    assert not inspect(engine).get_table_names() or set(inspect(engine).get_table_names()) <= {
        "alembic_version",
        *OLD_TABLES,
    }
    engine.dispose()


def test_fresh_and_upgraded_schemas_are_the_same(tmp_path: Path) -> None:
    fresh = Repository(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    _check_clean(fresh.engine)
    fresh.close()
    up = Repository(f"sqlite:///{copy_to(TERMINAL, tmp_path / 't.sqlite3')}")
    _check_clean(up.engine)
    up.close()


def test_the_server_imports_a_legacy_web_file_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    legacy = rows(WEB)
    original = WEB.read_bytes()
    copy_to(WEB, tmp_path / "pasch-web.sqlite3")
    with Repository(directory=tmp_path) as repo:
        from pasch.engine import Game

        g = Game("kniffel", ["Ada"], seed=3)
        g.act("roll")
        tid = repo.save(g.log)  # a terminal game is already in the shared file
        assert import_legacy_web(repo.engine, tmp_path) == len(legacy["web_rooms"])
        assert f"imported {len(legacy['web_rooms'])} web games" in capsys.readouterr().err
        assert import_legacy_web(repo.engine, tmp_path) == 0  # once
        web = repo.games(limit=None, source="web")
        assert sorted(g.code or "" for g in web) == sorted(r["code"] for r in legacy["web_rooms"])
        assert repo.get(tid).source == "terminal"
        check_web(repo.engine, legacy, offset=tid)
    assert (tmp_path / "pasch-web.sqlite3").read_bytes() == original  # the old file is left as it was


def test_create_app_defaults_to_the_shared_file_and_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from pasch.web import create_app

    monkeypatch.setenv("PASCH_DATA_DIR", str(tmp_path))
    copy_to(WEB, tmp_path / "pasch-web.sqlite3")
    playing = next(r["code"] for r in rows(WEB)["web_rooms"] if r["status"] == "playing")
    with TestClient(create_app(bot_delay=0, sweep_every=3600)) as client:
        got = client.get(f"/api/rooms/{playing}")
        assert got.status_code == 200 and got.json()["room"]["status"] == "playing"
    assert (tmp_path / "pasch.sqlite3").is_file()
    with Repository(directory=tmp_path) as repo:
        assert any(g.code == playing for g in repo.games(limit=None, source="web"))


def test_legacy_module_reads_without_migrating() -> None:
    # The expectations above are only worth something if reading them leaves the files alone.
    assert _legacy.rows(TERMINAL)["alembic_version"][0]["version_num"] == "0001"
