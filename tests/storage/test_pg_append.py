"""PostgreSQL: the one-statement checked append (:mod:`pasch.storage._pg_append`) locks the checked rooms' rows,
refuses exactly the moves the room's ``meta`` refuses (its SQL twin of :func:`pasch.storage.handed` agrees with
the Python one), writes and notifies the others in order, and sees a hand-over committed while it waited for the
row lock."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from pasch.storage import EventRow, GameRow, handed, make_engine, migrate
from pasch.storage._pg_append import CheckedStatements, Direct, handed_sql, refused_of
from pasch.storage._writer import CHANNEL
from web._support import Postgres

pytestmark = pytest.mark.slow

TYPES = ["INTEGER", "INTEGER", "INTEGER", "VARCHAR", "TIMESTAMP WITH TIME ZONE"]
COLUMNS = ["game_id", "seq", "seat", "action", "created_at"]
OPEN = {"seat": 1, "bot": "bot:greedy", "from": 3, "to": None, "why": "clock"}
CLOSED = {"seat": 2, "bot": "bot:greedy", "from": 1, "to": 2, "why": "clock"}


@pytest.fixture
def engine(postgres: Postgres) -> Iterator[Engine]:
    eng = make_engine(postgres.url)
    migrate(eng)
    yield eng
    eng.dispose()


def _url(postgres: Postgres) -> str:
    return postgres.url.replace("postgresql+psycopg", "postgresql")


def _rooms(engine: Engine, *metas: dict[str, Any]) -> list[int]:
    with Session(engine) as s, s.begin():
        rows = [
            GameRow(code=f"C{time.monotonic_ns() % 10**9}{k}", rules="kniffel", source="web", status="playing", meta=m)
            for k, m in enumerate(metas)
        ]
        s.add_all(rows)
        s.flush()
        return [r.id for r in rows]


def _log(engine: Engine, rid: int) -> list[tuple[int, int | None, str]]:
    with Session(engine) as s:
        found = s.execute(select(EventRow.seq, EventRow.seat, EventRow.action).where(EventRow.game_id == rid))
        return sorted((int(q), p, str(a)) for q, p, a in found)


METAS: list[Any] = [
    {},
    {"stand_ins": []},
    {"stand_ins": [OPEN]},
    {"stand_ins": [CLOSED]},
    {"stand_ins": [CLOSED, OPEN, {"seat": 4, "to": None}]},
    {"stand_ins": [{"seat": 1}]},  # no "to": open
    {"stand_ins": [{"seat": 1, "to": 5}]},
    {"stand_ins": [{"seat": "1", "to": None}]},  # not an integer seat
    {"stand_ins": [{"seat": 1.5, "to": None}]},
    {"stand_ins": ["x", 3, None, [1]]},
    {"stand_ins": {"seat": 1}},  # not a list
    {"stand_ins": None},
    {"other": 1},
    [],
    "text",
    None,
]


def test_the_sql_handed_agrees_with_the_python_one(postgres: Postgres) -> None:
    with psycopg.connect(_url(postgres), autocommit=True) as conn:
        for meta in METAS:
            for seat in range(6):
                row = conn.execute(
                    f"SELECT {handed_sql('x.m', 'x.s')} FROM (SELECT CAST(%s AS json) m, CAST(%s AS int) s) x",
                    (json.dumps(meta), seat),
                ).fetchone()
                expect = handed(meta if isinstance(meta, dict) else None, seat)
                assert row is not None and row[0] is expect, (meta, seat)


@pytest.mark.parametrize("small", [8, 0])
def test_a_checked_batch_writes_and_notifies_exactly_what_the_meta_allows(
    engine: Engine, postgres: Postgres, small: int
) -> None:
    statements = CheckedStatements("games", "events", COLUMNS, TYPES, CHANNEL, small)
    metas = [{"stand_ins": [OPEN]}, {"stand_ins": [OPEN]}, {"stand_ins": [CLOSED]}, {"stand_ins": [CLOSED]}, {}]
    rooms = _rooms(engine, *metas)
    now = datetime.now(UTC)
    # One append per room (the service writes one action of a room at a time): (seat, checked as, written?)
    plan = [
        (1, "player", False),  # the player's own move on a seat handed over: refused
        (1, "stand_in", True),  # the stand-in's move on it: written
        (2, "stand_in", False),  # a stand-in's move on a seat given back: refused
        (2, "player", True),  # the player's own: written
        (0, None, True),  # not checked: written
    ]
    checks: list[tuple[int, int, int, bool]] = []
    rows: list[tuple[int, list[Any]]] = []
    notices: list[tuple[int, str]] = []
    for i, (seat, kind, _) in enumerate(plan):
        if kind is not None:
            checks.append((i, rooms[i], seat, kind == "stand_in"))
        rows.append((i, [rooms[i], 1, seat, f"move {i}", now]))
        rows.append((i, [rooms[i], 2, None, f"throw {i}", now]))
        notices.append((i, f"notice {i}"))
    written = [i for i, (*_, ok) in enumerate(plan) if ok]
    with psycopg.connect(_url(postgres), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        with psycopg.connect(_url(postgres), autocommit=True) as conn:
            sql, params = statements.statement(checks, rows, notices)
            result = conn.execute(sql, params).fetchone()
        got = [n.payload for n in listener.notifies(timeout=30, stop_after=len(written))]
    assert result is not None and result[0] == len(written)
    refused = refused_of(result)
    assert refused == {0: metas[0], 2: metas[2]}
    assert got == [f"notice {i}" for i in written]
    for i, rid in enumerate(rooms):
        expect = [(1, plan[i][0], f"move {i}"), (2, None, f"throw {i}")] if i in written else []
        assert _log(engine, rid) == expect, i


def test_a_taken_seq_fails_the_whole_statement(engine: Engine, postgres: Postgres) -> None:
    statements = CheckedStatements("games", "events", COLUMNS, TYPES, CHANNEL, 8)
    (rid,) = _rooms(engine, {})
    now = datetime.now(UTC)
    with psycopg.connect(_url(postgres), autocommit=True) as conn:
        sql, params = statements.statement([(0, rid, 0, False)], [(0, [rid, 1, 0, "roll", now])], [(0, "n")])
        conn.execute(sql, params)
        sql, params = statements.statement(
            [(0, rid, 0, False)], [(0, [rid, 2, 0, "keep 1", now]), (1, [rid, 1, 1, "roll", now])], [(0, "n")]
        )
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(sql, params)
    assert _log(engine, rid) == [(1, 0, "roll")]


def test_a_hand_over_committed_while_the_statement_waits_for_the_lock_is_seen(
    engine: Engine, postgres: Postgres
) -> None:
    """Another transaction holds the room's row (as RoomStore.record_hand_over does) and hands seat 1 over; the
    player's move, sent meanwhile, waits for the row and is then refused with the new meta."""
    statements = CheckedStatements("games", "events", COLUMNS, TYPES, CHANNEL, 8)
    (rid,) = _rooms(engine, {})
    now = datetime.now(UTC)
    outcome: list[Any] = []
    with (
        psycopg.connect(_url(postgres)) as holder,
        psycopg.connect(_url(postgres), autocommit=True) as watcher,
    ):
        holder.execute("SELECT meta FROM games WHERE id = %s FOR UPDATE", (rid,))

        def move() -> None:
            with psycopg.connect(_url(postgres), autocommit=True) as conn:
                sql, params = statements.statement([(0, rid, 1, False)], [(0, [rid, 1, 1, "roll", now])], [])
                outcome.append(conn.execute(sql, params).fetchone())

        thread = threading.Thread(target=move)
        thread.start()
        waiting = 0
        while waiting == 0 and thread.is_alive():  # until the move waits for the row
            found = watcher.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()
            waiting = int(found[0]) if found else 0
        assert waiting > 0
        holder.execute("UPDATE games SET meta = %s WHERE id = %s", (json.dumps({"stand_ins": [OPEN]}), rid))
        holder.commit()
        thread.join(60)
    assert len(outcome) == 1
    assert refused_of(outcome[0]) == {0: {"stand_ins": [OPEN]}}
    assert _log(engine, rid) == []


def test_direct_runs_prepared_statements_and_raises_psycopgs_errors(engine: Engine, postgres: Postgres) -> None:
    """The writer's libpq path: the checked statement's row as text, a taken slot as UniqueViolation (an
    IntegrityError, which the writer retries one by one), a lost connection as OperationalError."""
    statements = CheckedStatements("games", "events", COLUMNS, TYPES, CHANNEL, 8)
    (rid,) = _rooms(engine, {"stand_ins": [OPEN]})
    now = datetime.now(UTC)
    direct = Direct()
    with psycopg.connect(_url(postgres), autocommit=True) as conn, psycopg.connect(_url(postgres)) as admin:
        for seq in (1, 2, 3):  # the later uses run the statement prepared by the first; a second Direct on the
            sql, params = statements.statement([(0, rid, 0, False)], [(0, [rid, seq, 0, "r\u00e9 'x' %s", now])], [])
            runner = direct if seq < 3 else Direct()  # same (pooled) connection finds it prepared already
            assert runner.run(conn.pgconn, sql, params) == [(b"0", None)]
        conn.execute("DEALLOCATE ALL")  # prepared again when it is gone
        sql, params = statements.statement([(0, rid, 1, False)], [(0, [rid, 4, 1, "roll", now])], [])
        rows = direct.run(conn.pgconn, sql, params)
        assert refused_of(rows[0]) == {0: {"stand_ins": [OPEN]}}  # seat 1 is handed over: refused
        sql, params = statements.statement([(0, rid, 0, False)], [(0, [rid, 1, None, "again", now])], [])
        with pytest.raises(psycopg.errors.UniqueViolation):
            direct.run(conn.pgconn, sql, params)
        admin.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
        admin.commit()
        with pytest.raises(psycopg.OperationalError):
            direct.run(conn.pgconn, sql, params)
    assert _log(engine, rid) == [(q, 0, "r\u00e9 'x' %s") for q in (1, 2, 3)]


def test_a_hand_over_asked_while_the_statement_holds_the_row_waits_and_sees_the_move(
    engine: Engine, postgres: Postgres
) -> None:
    """The other order: the player's move locks the room's row first (then waits, here, for another transaction
    that holds its seq slot); a hand-over asked meanwhile waits for the row and, once the move committed, reads
    the log with the move in it (as RoomStore.record_hand_over does: the row locked, then the last seq)."""
    statements = CheckedStatements("games", "events", COLUMNS, TYPES, CHANNEL, 8)
    (rid,) = _rooms(engine, {})
    now = datetime.now(UTC)
    moved: list[Any] = []
    handing: list[int] = []

    def waiting(watcher: psycopg.Connection[Any]) -> int:
        found = watcher.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()
        return int(found[0]) if found else 0

    def move() -> None:
        with psycopg.connect(_url(postgres), autocommit=True) as conn:
            sql, params = statements.statement([(0, rid, 1, False)], [(0, [rid, 1, 1, "roll", now])], [])
            moved.append(conn.execute(sql, params).fetchone())

    def hand_over() -> None:
        with psycopg.connect(_url(postgres)) as conn:
            conn.execute("SELECT meta FROM games WHERE id = %s FOR UPDATE", (rid,))
            found = conn.execute("SELECT max(seq) FROM events WHERE game_id = %s", (rid,)).fetchone()
            handing.append(int(found[0]) if found and found[0] is not None else 0)
            conn.commit()

    with (
        psycopg.connect(_url(postgres)) as blocker,
        psycopg.connect(_url(postgres), autocommit=True) as watcher,
    ):
        # Seq 1 of the room, inserted and not committed: the move's insert waits for this transaction. (Without
        # the foreign key's check, which would lock the room's row itself; the test's user is a superuser.)
        blocker.execute("SET session_replication_role = replica")
        blocker.execute(
            "INSERT INTO events (game_id, seq, seat, action, created_at) VALUES (%s, 1, 0, 'x', now())", (rid,)
        )
        mover = threading.Thread(target=move)
        mover.start()
        while waiting(watcher) < 1 and mover.is_alive():
            pass
        handler = threading.Thread(target=hand_over)
        handler.start()
        while waiting(watcher) < 2 and handler.is_alive():  # the hand-over waits for the row the move holds
            pass
        assert handler.is_alive() and not handing
        blocker.rollback()  # the slot is free: the move commits, then the hand-over reads the log
        mover.join(60)
        handler.join(60)
    assert moved and refused_of(moved[0]) == {}
    assert handing == [1]  # the hand-over saw the player's move
    assert _log(engine, rid) == [(1, 1, "roll")]
