"""The checked-in databases of the release with two storages, read as that release wrote them.

The expectations of the migration tests come from here: the raw rows of the legacy files (read with
SQLAlchemy reflection before any migration), never from the code under test.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, Engine, MetaData, create_engine, insert, select

DATA = Path(__file__).resolve().parents[1] / "data"
TERMINAL = DATA / "legacy-terminal.sqlite3"
WEB = DATA / "legacy-web.sqlite3"


def copy_to(src: Path, dst: Path) -> Path:
    """A private copy of a legacy file (the checked-in file is never opened for writing)."""
    shutil.copyfile(src, dst)
    return dst


def combined(dst: Path) -> Path:
    """One file holding both storages, as a user who pointed ``pasch serve --db`` at the terminal app's
    file had: the terminal file plus the web tables and their version table, rows and DDL unchanged."""
    copy_to(TERMINAL, dst)
    con = sqlite3.connect(dst)
    con.execute("ATTACH DATABASE ? AS w", (f"file:{WEB}?mode=ro",))
    ddl = con.execute("SELECT name, sql FROM w.sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").fetchall()
    for _name, sql in ddl:
        con.execute(sql)
    for (name,) in con.execute("SELECT name FROM w.sqlite_master WHERE type = 'table'").fetchall():
        con.execute(f"INSERT INTO main.{name} SELECT * FROM w.{name}")
    con.commit()
    con.execute("DETACH DATABASE w")
    con.close()
    return dst


def rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of a (legacy) SQLite file, by table, ordered by primary key."""
    engine = create_engine(f"sqlite:///{path}")
    md = MetaData()
    md.reflect(engine)
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for name, table in md.tables.items():
            pk = list(table.primary_key.columns) or list(table.columns)
            out[name] = [dict(r) for r in conn.execute(select(table).order_by(*pk)).mappings()]
    engine.dispose()
    return out


def copy_into(path: Path, engine: Engine) -> None:
    """Recreate the tables of a legacy SQLite file, with its rows, in another database (PostgreSQL)."""
    src = create_engine(f"sqlite:///{path}")
    md = MetaData()
    md.reflect(src)
    for table in md.tables.values():
        for col in table.columns:
            col.type = col.type.as_generic()  # SQLite's DATETIME is no PostgreSQL type
            if isinstance(col.type, DateTime) and table.name.startswith("web_"):
                col.type = DateTime(timezone=True)  # as the web's migration w0001 made them there
    md.create_all(engine)
    with src.connect() as s, engine.begin() as d:
        for table in md.sorted_tables:
            data = [dict(r) for r in s.execute(select(table)).mappings()]
            if data:
                d.execute(insert(table), data)
    src.dispose()


def utc(when: datetime | None) -> datetime | None:
    """Naive UTC for comparing time stamps read from different backends."""
    if when is None or when.tzinfo is None:
        return when
    return when.astimezone(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class TerminalGame:
    """A legacy terminal game: its row, its players and its parsed log."""

    row: dict[str, Any]
    players: list[dict[str, Any]]
    log: dict[str, Any]


def terminal_games(data: dict[str, list[dict[str, Any]]]) -> list[TerminalGame]:
    """The legacy terminal games of :func:`rows`'s output."""
    out = []
    for g in data.get("games", []):
        players = sorted((p for p in data["game_players"] if p["game_id"] == g["id"]), key=lambda p: p["seat"])
        out.append(TerminalGame(g, players, json.loads(g["log"])))
    return out
