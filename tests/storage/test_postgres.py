"""The same migrations and repository on a real PostgreSQL server started by the test (initdb + pg_ctl)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from pasch.engine import Game
from pasch.storage import HEAD, Repository, current_revision, downgrade, make_engine, migrate
from web._support import Postgres

from ._legacy import TERMINAL, WEB, copy_into, rows
from .test_migrations import OLD_TABLES, _schema_diff, _snapshot, check_terminal, check_web

pytestmark = pytest.mark.slow


def _fresh_database(pg: Postgres, name: str) -> str:
    admin = make_engine(pg.url)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return pg.url.rsplit("/", 1)[0] + f"/{name}"


def test_legacy_databases_upgrade_on_postgresql(postgres: Postgres, tmp_path: Path) -> None:
    url = _fresh_database(postgres, "legacy_both")
    engine = make_engine(url)
    # Today's release on PostgreSQL: the terminal's tables and the web server's, in one database.
    copy_into(TERMINAL, engine)
    copy_into(WEB, engine)
    legacy = {**rows(TERMINAL), **rows(WEB)}
    assert current_revision(engine) == "0001"
    repo = Repository(engine=engine)
    assert current_revision(engine) == HEAD
    assert not OLD_TABLES & set(inspect(engine).get_table_names())
    assert _schema_diff(engine) == []
    top = max(g["id"] for g in legacy["games"])
    check_terminal(engine, legacy)
    check_web(engine, legacy, offset=top)
    # The id sequence moved past the copied ids: new games of both sources get fresh ids.
    game = Game("kniffel", ["Ada"], seed=1)
    game.act("roll")
    new_id = repo.save(game.log)
    assert new_id > top + max(r["id"] for r in legacy["web_rooms"])

    async def room() -> int:
        from pasch.web._service import Service

        svc = Service(engine, bot_delay=0)
        created, _ = await svc.create_room("kniffel", [("Ada", "human")])
        await svc.act(created.code, 0, "roll")
        svc.close()
        return created.id

    assert asyncio.run(room()) == new_id + 1
    before = _snapshot(engine)
    downgrade(engine, "0001")
    assert {"games", "game_players", "web_rooms", "pasch_web_alembic_version"} <= set(inspect(engine).get_table_names())
    migrate(engine)
    assert _snapshot(engine) == before
    assert _schema_diff(engine) == []
    repo.close()
    engine.dispose()


def test_fresh_postgresql_database_gets_the_schema(postgres: Postgres) -> None:
    url = _fresh_database(postgres, "fresh")
    with Repository(url) as repo:
        assert current_revision(repo.engine) == HEAD
        assert _schema_diff(repo.engine) == []
        game = Game("yatzy", ["Ada", "Bob"], seed=2)
        game.act("roll")
        gid = repo.save(game.log, ["human", "bot:greedy"])
        assert repo.get(gid).log == game.log
