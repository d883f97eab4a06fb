"""``pasch history`` on databases it cannot use: one ``pasch: error:`` line and exit 2, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from pasch.cli import main
from pasch.engine import GameLog
from pasch.storage import BUSY_TIMEOUT_ENV, Repository, busy_timeout

from ._helpers import Invoke, assert_bad_input


def _one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pasch: error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("limit", [str(10**30), str(2**63), "10001", "0", "-5"])
def test_history_limit_out_of_range(limit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_error_line(["history", "--data-dir", str(tmp_path), "--limit", limit], capsys)
    assert "--limit" in line


def test_history_limit_at_the_maximum_works(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["history", "--data-dir", str(tmp_path), "--limit", "10000", "--json"])
    assert result.exit_code == 0, result.output


def _saved_db(tmp_path: Path, games: int = 3) -> Path:
    with Repository(directory=tmp_path) as repo:
        for _ in range(games):
            repo.save(GameLog(rules="kniffel", players=("Ada", "Bob"), actions=("roll",)))
    return tmp_path / "pasch.sqlite3"


def _damage(db: Path, sql: str) -> None:
    con = sqlite3.connect(db)
    con.execute(sql)
    con.commit()
    con.close()


def test_garbage_file_is_one_error_line(invoke: Invoke, tmp_path: Path) -> None:
    (tmp_path / "pasch.sqlite3").write_bytes(os.urandom(4096))
    assert_bad_input(invoke(["history", "--data-dir", str(tmp_path)]), "cannot open the database")


def test_a_directory_in_place_of_the_file(invoke: Invoke, tmp_path: Path) -> None:
    (tmp_path / "pasch.sqlite3").mkdir()
    assert_bad_input(invoke(["history", "--data-dir", str(tmp_path)]), "cannot open the database")


def test_data_dir_that_is_a_file(invoke: Invoke, tmp_path: Path) -> None:
    file = tmp_path / "plain"
    file.write_text("x")
    assert_bad_input(invoke(["history", "--data-dir", str(file)]), "cannot open the database")


def test_unknown_schema_revision(invoke: Invoke, tmp_path: Path) -> None:
    db = tmp_path / "future.sqlite3"
    _damage(db, "create table alembic_version (version_num varchar(32))")
    _damage(db, "insert into alembic_version values ('9999')")
    assert_bad_input(invoke(["history", "--db", f"sqlite:///{db}"]), "cannot open the database", "9999")


@pytest.mark.parametrize(
    "sql",
    [
        "update games set meta = '{not json' where id = 1",
        "update games set created_at = 'garbage' where id = 2",
    ],
)
def test_damaged_rows_are_one_error_line(invoke: Invoke, tmp_path: Path, sql: str) -> None:
    db = _saved_db(tmp_path)
    _damage(db, sql)
    assert_bad_input(invoke(["history", "--db", f"sqlite:///{db}"]), "cannot read the database")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads files without permission")
def test_unreadable_file(invoke: Invoke, tmp_path: Path) -> None:
    db = _saved_db(tmp_path)
    db.chmod(0)
    try:
        assert_bad_input(invoke(["history", "--data-dir", str(tmp_path)]), "cannot open the database")
    finally:
        db.chmod(0o600)


def test_busy_timeout_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BUSY_TIMEOUT_ENV, raising=False)
    assert busy_timeout() == 30.0
    monkeypatch.setenv(BUSY_TIMEOUT_ENV, "0.5")
    assert busy_timeout() == 0.5
    for bad in ("x", "-1", "nan", "1e9"):
        monkeypatch.setenv(BUSY_TIMEOUT_ENV, bad)
        assert busy_timeout() == 30.0


def test_database_locked_longer_than_the_busy_timeout(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _saved_db(tmp_path)
    con = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    con.execute("pragma journal_mode=delete")  # an exclusive lock then keeps readers out as well
    con.execute("begin exclusive")
    con.execute("insert into seats (game_id, seat, name, kind, claimed) values (1, 9, 'x', 'human', 0)")
    monkeypatch.setenv(BUSY_TIMEOUT_ENV, "0.3")
    done = threading.Event()
    try:
        result = invoke(["history", "--db", f"sqlite:///{db}"])
        done.set()
    finally:
        con.execute("rollback")
        con.close()
    assert done.is_set()
    assert_bad_input(result, "locked", "0.3 s busy timeout")


def test_a_permission_error_is_one_error_line(invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root the permission test above cannot run; the same failure, raised where the file is opened."""
    import pasch.storage

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "pasch.sqlite3"))

    monkeypatch.setattr(pasch.storage, "Repository", refuse)
    assert_bad_input(invoke(["history", "--data-dir", str(tmp_path)]), "cannot open the database", "Permission denied")
