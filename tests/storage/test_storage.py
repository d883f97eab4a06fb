"""Storage: round trip of saved games, statistics, the data directory, and the Alembic migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect

from pasch.engine import Game, GameLog, replay
from pasch.storage import (
    HEAD,
    Base,
    Repository,
    StorageError,
    current_revision,
    data_dir,
    database_url,
    downgrade,
    migrate,
)


def _play(rules: str, players: list[str], seed: int, turns: int | None = None) -> Game:
    game = Game(rules, players, seed=seed)
    while not game.state.is_terminal and (turns is None or game.state.turn < turns):
        legal = game.state.legal_actions()
        scores = [a for a in legal if str(a).startswith("score")]
        game.act(scores[-1] if scores else legal[0])
    return game


def test_round_trip_unfinished_then_finished(tmp_path: Path) -> None:
    repo = Repository(directory=tmp_path)
    game = _play("kniffel", ["Ada", "Bob"], seed=1, turns=5)
    gid = repo.save(game.log, ["human", "bot:greedy"])
    rec = repo.get(gid)
    assert rec.status == "unfinished" and not rec.finished and rec.winners == ()
    assert rec.log == game.log
    assert replay(rec.log) == game.state
    assert rec.player_kinds() == ("human", "bot:greedy")
    assert repo.latest_unfinished() == rec
    # finish the same game and save it under the same id
    while not game.state.is_terminal:
        legal = game.state.legal_actions()
        scores = [a for a in legal if str(a).startswith("score")]
        game.act(scores[0] if scores else legal[0])
    assert repo.save(game.log, ["human", "bot:greedy"], game_id=gid) == gid
    rec = repo.get(gid)
    assert rec.finished and rec.finished_at is not None
    totals = game.state.totals()
    assert [p.total for p in rec.players] == list(totals)
    assert set(rec.winners) == set(game.state.outcome().winners)
    assert repo.latest_unfinished() is None
    repo.close()


def test_stats_and_high_scores(tmp_path: Path) -> None:
    with Repository(directory=tmp_path) as repo:
        games = [_play("kniffel", ["Ada", "Bob"], seed=s) for s in range(3)]
        games.append(_play("yatzy", ["Ada"], seed=9))
        for g in games:
            repo.save(g.log)
        repo.save(_play("kniffel", ["Ada", "Bob"], seed=5, turns=3).log)  # unfinished: not counted
        stats = {(s.rules, s.name): s for s in repo.player_stats()}
        ada = [g.state.totals()[0] for g in games[:3]]
        assert stats[("kniffel", "Ada")].games == 3
        assert stats[("kniffel", "Ada")].best == max(ada)
        assert stats[("kniffel", "Ada")].average == pytest.approx(sum(ada) / 3)
        wins = sum(1 for g in games[:3] if "Ada" in g.state.outcome().winners)
        assert stats[("kniffel", "Ada")].wins == wins
        assert stats[("yatzy", "Ada")].games == 1
        highs = repo.high_scores(limit=3)
        assert [h.total for h in highs] == sorted((h.total for h in highs), reverse=True)
        every = [t for g in games for t in g.state.totals()]
        assert highs[0].total == max(every)
        assert len(repo.games(limit=None)) == 5
        assert len(repo.games(status="finished")) == 4


def test_missing_game_and_delete(tmp_path: Path) -> None:
    with Repository(directory=tmp_path) as repo:
        with pytest.raises(StorageError, match="no saved game with id 42"):
            repo.get(42)
        with pytest.raises(StorageError):
            repo.save(GameLog("kniffel", ("Ada",)), game_id=42)
        gid = repo.save(_play("kniffel", ["Ada"], seed=1, turns=1).log)
        repo.delete(gid)
        assert repo.games() == []
        # ids no row can have (beyond 64 bits, zero, negative) are missing games, not driver errors
        for huge in (2**63, 10**30, 0, -1):
            with pytest.raises(StorageError, match="no saved game"):
                repo.get(huge)
            with pytest.raises(StorageError):
                repo.abandon(huge)
            with pytest.raises(StorageError):
                repo.save(GameLog("kniffel", ("Ada",)), game_id=huge)
            repo.delete(huge)


def test_data_dir_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_DATA_DIR", str(tmp_path / "env"))
    assert data_dir() == tmp_path / "env"
    assert data_dir(tmp_path / "arg") == tmp_path / "arg"
    assert database_url().endswith("env/pasch.sqlite3")
    monkeypatch.delenv("PASCH_DATA_DIR")
    # The default location, under tmp_path on Linux (XDG): the test never opens the user's own database.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert "pasch" in str(data_dir())
    with Repository() as repo:  # default location honours the env var at open time
        pass
    monkeypatch.setenv("PASCH_DATA_DIR", str(tmp_path / "env2"))
    with Repository() as repo:
        repo.save(_play("kniffel", ["Ada"], seed=1, turns=1).log)
    assert (tmp_path / "env2" / "pasch.sqlite3").is_file()


def _schema_diff(engine: Any) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))


def test_migrations_upgrade_downgrade_and_match_the_models(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    assert current_revision(engine) is None
    migrate(engine)  # a fresh database gets the newest schema directly
    assert current_revision(engine) == HEAD
    assert {"games", "seats", "events", "results"} <= set(inspect(engine).get_table_names())
    diff = _schema_diff(engine)
    assert diff == [], f"the models and the fresh schema differ: {diff}"
    downgrade(engine, "base")
    assert not inspect(engine).has_table("games")
    # Step by step through the history: 0001 (the terminal's old tables), then 0002 (the unified schema).
    migrate(engine, "0001")
    assert {"games", "game_players"} <= set(inspect(engine).get_table_names())
    migrate(engine)
    assert current_revision(engine) == HEAD
    assert not inspect(engine).has_table("game_players")
    diff = _schema_diff(engine)
    assert diff == [], f"the models and the migrations differ: {diff}"
    engine.dispose()


def test_existing_database_is_kept_on_reopen(tmp_path: Path) -> None:
    with Repository(directory=tmp_path) as repo:
        gid = repo.save(_play("kniffel", ["Ada"], seed=1, turns=2).log)
    with Repository(directory=tmp_path) as repo:  # opening again runs the migrations: a no-op
        assert repo.get(gid).log.rules == "kniffel"


def test_the_models_are_dialect_neutral() -> None:
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateTable

    for table in Base.metadata.sorted_tables:
        ddl = str(CreateTable(table).compile(dialect=postgresql.dialect()))
        assert "CREATE TABLE" in ddl


def test_cascade_delete_removes_players(tmp_path: Path) -> None:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from pasch.storage import PlayerRow

    with Repository(directory=tmp_path) as repo:
        gid = repo.save(_play("kniffel", ["Ada", "Bob"], seed=1, turns=2).log)
        repo.delete(gid)
        with Session(repo.engine) as s:
            assert s.scalar(select(func.count(PlayerRow.id))) == 0
