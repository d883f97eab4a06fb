"""One schema for the terminal app and the web server: games, seats, events, results.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Upgrade, from a database of the release with two storages (either or both of them in one file):

* terminal ``games`` + ``game_players`` (revision 0001): every game keeps its id and uid; its JSON log
  becomes ``events`` rows (seq 1..n in log order; the seat that acted, found by replaying the log, None for
  throws; time stamp: the game's last save) and ``games.meta`` (the log's meta) / ``games.engine``;
  ``mode`` becomes ``keeper``; each player becomes a ``seats`` row and a ``results`` row (total so far,
  rank and winner once finished); ``source`` is ``terminal``.
* web ``web_rooms`` / ``web_seats`` / ``web_events`` / ``web_results`` (version table
  ``pasch_web_alembic_version`` at ``w0001``): every room becomes a game with ``source`` ``web``, its id
  kept, or ``room id + the largest terminal id`` when the ids of both would collide; a new uid, its code,
  options, seed, commitment and rematch links; seats, events and results are copied row by row
  (``winner`` is rank 1). ``updated_at`` is the time of the room's last event.

The old tables and the web's version table are dropped after copying. Downgrade writes both old storages
back (the web tables only when there are web games, stamped ``w0001`` again); it loses only what the old
schema has no place for (a terminal game's event time stamps; a web game's uid, meta and
engine version).

The statements are written against table definitions frozen in this file, not the current models.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WEB_VERSION_TABLE = "pasch_web_alembic_version"
WEB_REVISION = "w0001"


def _aware(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _naive(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo is not None else when


# -- frozen table definitions ------------------------------------------------------------------------------
def _new_tables(md: sa.MetaData) -> dict[str, sa.Table]:
    games = sa.Table(
        "games",
        md,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(32), nullable=False),
        sa.Column("code", sa.String(16), nullable=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("keeper", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch_code", sa.String(16), nullable=True),
        sa.Column("engine", sa.String(32), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("uid", name="uq_games_uid"),
        sa.UniqueConstraint("code", name="uq_games_code"),
    )
    sa.Index("ix_games_rules", games.c.rules)
    sa.Index("ix_games_source", games.c.source)
    sa.Index("ix_games_status", games.c.status)
    seats = sa.Table(
        "seats",
        md,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_seats"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seats_game_id_seat"),
    )
    sa.Index("ix_seats_name", seats.c.name)
    events = sa.Table(
        "events",
        md,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_events_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("game_id", "seq", name="uq_events_game_id_seq"),
    )
    results = sa.Table(
        "results",
        md,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_results_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_results"),
        sa.UniqueConstraint("game_id", "seat", name="uq_results_game_id_seat"),
    )
    sa.Index("ix_results_name", results.c.name)
    return {"games": games, "seats": seats, "events": events, "results": results}


def _old_terminal_tables(md: sa.MetaData) -> dict[str, sa.Table]:
    """The layout of revision 0001 (created by its migration; here only to read and write rows)."""
    games = sa.Table(
        "games",
        md,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("uid", sa.String(32)),
        sa.Column("rules", sa.String(200)),
        sa.Column("mode", sa.String(16)),
        sa.Column("status", sa.String(16)),
        sa.Column("log", sa.Text()),
        sa.Column("actions", sa.Integer()),
        sa.Column("created_at", sa.DateTime()),
        sa.Column("updated_at", sa.DateTime()),
        sa.Column("finished_at", sa.DateTime()),
    )
    players = sa.Table(
        "game_players",
        md,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer()),
        sa.Column("seat", sa.Integer()),
        sa.Column("name", sa.String(100)),
        sa.Column("kind", sa.String(40)),
        sa.Column("total", sa.Integer()),
        sa.Column("rank", sa.Integer()),
        sa.Column("winner", sa.Boolean()),
    )
    return {"games": games, "game_players": players}


def _web_tables(md: sa.MetaData) -> dict[str, sa.Table]:
    """The web server's layout at its revision w0001 (DDL as that revision wrote it)."""
    rooms = sa.Table(
        "web_rooms",
        md,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("keeper", sa.Boolean(), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch_code", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    sa.Index("ix_web_rooms_code", rooms.c.code, unique=True)
    sa.Index("ix_web_rooms_status", rooms.c.status)
    seats = sa.Table(
        "web_seats",
        md,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("room_id", "seat", name="uq_web_seats_room_seat"),
    )
    sa.Index("ix_web_seats_room_id", seats.c.room_id)
    events = sa.Table(
        "web_events",
        md,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room_id", "seq", name="uq_web_events_room_seq"),
    )
    sa.Index("ix_web_events_room_id", events.c.room_id)
    results = sa.Table(
        "web_results",
        md,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("web_rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.UniqueConstraint("room_id", "seat", name="uq_web_results_room_seat"),
    )
    sa.Index("ix_web_results_room_id", results.c.room_id)
    return {"web_rooms": rooms, "web_seats": seats, "web_events": events, "web_results": results}


def _version_table(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        WEB_VERSION_TABLE,
        md,
        sa.Column("version_num", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("version_num", name=f"{WEB_VERSION_TABLE}_pkc"),
    )


def _seats_of(rules: str, players: Sequence[str], keeper: bool, actions: Sequence[str]) -> list[int | None]:
    """The seat that played each action (None for throws), by replaying; None from where a replay fails."""
    from pasch.engine import new_game

    seats: list[int | None] = [None] * len(actions)
    try:
        state: Any = new_game(rules, players, keeper=keeper)
        for n, text in enumerate(actions):
            seats[n] = None if state.is_chance_node else int(state.current_player)
            state = state.apply(text)
    except Exception:  # a log the current engine cannot replay keeps its actions; only the seats stay unknown
        pass
    return seats


def _fix_sequence(bind: sa.Connection, table: str) -> None:
    """PostgreSQL: move the id sequence past the ids inserted explicitly."""
    if bind.dialect.name == "postgresql":
        bind.execute(
            sa.text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
            )
        )


# -- upgrade -------------------------------------------------------------------------------------------------
def upgrade() -> None:
    """Copy both old storages into the new tables, then drop the old ones."""
    bind = op.get_bind()
    have = set(sa.inspect(bind).get_table_names())
    if WEB_VERSION_TABLE in have:
        found = bind.execute(sa.text(f"SELECT version_num FROM {WEB_VERSION_TABLE}")).scalars().all()
        if any(v != WEB_REVISION for v in found):
            raise RuntimeError(f"the web tables are at revision {found}; this pasch upgrades only {WEB_REVISION}")
    old = _old_terminal_tables(sa.MetaData())
    games = bind.execute(sa.select(old["games"]).order_by(old["games"].c.id)).mappings().all()
    players = bind.execute(sa.select(old["game_players"]).order_by(old["game_players"].c.seat)).mappings().all()
    op.drop_table("game_players")
    op.drop_table("games")
    new = _new_tables(sa.MetaData())
    for table in new.values():
        table.create(bind)

    by_game: dict[int, list[Any]] = {}
    for p in players:
        by_game.setdefault(p["game_id"], []).append(p)
    for g in games:
        log = json.loads(g["log"])
        actions = [str(a) for a in log.get("actions", [])]
        names = [str(n) for n in log.get("players", [])]
        keeper = bool(log.get("keeper", g["mode"] == "keeper"))
        meta = log.get("meta") if isinstance(log.get("meta"), dict) else {}
        updated = _aware(g["updated_at"])
        bind.execute(
            new["games"]
            .insert()
            .values(
                id=g["id"],
                uid=g["uid"],
                code=None,
                source="terminal",
                rules=log.get("rules", g["rules"]),
                keeper=keeper,
                status=g["status"],
                hints=False,
                seed="",
                commitment="",
                engine=str(log.get("engine", ""))[:32],
                meta=meta,
                created_at=_aware(g["created_at"]),
                updated_at=updated,
                finished_at=_aware(g["finished_at"]),
            )
        )
        seat_rows = by_game.get(g["id"], [])
        if seat_rows:
            bind.execute(
                new["seats"].insert(),
                [
                    {
                        "game_id": g["id"],
                        "seat": p["seat"],
                        "name": p["name"],
                        "kind": p["kind"],
                        "token_hash": None,
                        "claimed": False,
                    }
                    for p in seat_rows
                ],
            )
            bind.execute(
                new["results"].insert(),
                [
                    {
                        "game_id": g["id"],
                        "seat": p["seat"],
                        "name": p["name"],
                        "total": p["total"],
                        "rank": p["rank"],
                        "winner": bool(p["winner"]),
                    }
                    for p in seat_rows
                ],
            )
        if actions:
            seats = _seats_of(str(log.get("rules", g["rules"])), names, keeper, actions)
            bind.execute(
                new["events"].insert(),
                [
                    {"game_id": g["id"], "seq": n, "seat": s, "action": a, "created_at": updated}
                    for n, (a, s) in enumerate(zip(actions, seats, strict=True), start=1)
                ],
            )

    if "web_rooms" in have:
        terminal_ids = {g["id"] for g in games}
        room_ids = set(bind.execute(sa.text("SELECT id FROM web_rooms")).scalars())
        # Rooms keep their ids unless one collides with a terminal game's; then all move past the last one.
        _upgrade_web(bind, new, max(terminal_ids) if terminal_ids & room_ids else 0)
    _fix_sequence(bind, "games")


def _upgrade_web(bind: sa.Connection, new: dict[str, sa.Table], offset: int) -> None:
    web = _web_tables(sa.MetaData())
    rooms, wseats, wevents, wresults = (web[n] for n in ("web_rooms", "web_seats", "web_events", "web_results"))
    last = (
        sa.select(wevents.c.room_id, sa.func.max(wevents.c.created_at).label("last"))
        .group_by(wevents.c.room_id)
        .subquery()
    )
    rows = bind.execute(
        sa.select(rooms, last.c.last).outerjoin(last, last.c.room_id == rooms.c.id).order_by(rooms.c.id)
    ).mappings()
    values = [
        {
            "id": r["id"] + offset,
            "uid": uuid.uuid4().hex,
            "code": r["code"],
            "source": "web",
            "rules": r["rules"],
            "keeper": r["keeper"],
            "status": r["status"],
            "hints": r["hints"],
            "seed": r["seed"],
            "commitment": r["commitment"],
            "rematch_of": r["rematch_of"],
            "rematch_code": r["rematch_code"],
            "engine": "",
            "meta": {},
            "created_at": _aware(r["created_at"]),
            "updated_at": _aware(max(x for x in (r["last"], r["finished_at"], r["created_at"]) if x is not None)),
            "finished_at": _aware(r["finished_at"]),
        }
        for r in rows
    ]
    if values:
        bind.execute(new["games"].insert(), values)
    off = sa.literal(offset, sa.Integer())
    bind.execute(
        new["seats"]
        .insert()
        .from_select(
            ["game_id", "seat", "name", "kind", "token_hash", "claimed"],
            sa.select(
                wseats.c.room_id + off,
                wseats.c.seat,
                wseats.c.name,
                wseats.c.kind,
                wseats.c.token_hash,
                wseats.c.claimed,
            ).order_by(wseats.c.id),
        )
    )
    bind.execute(
        new["events"]
        .insert()
        .from_select(
            ["game_id", "seq", "seat", "action", "created_at"],
            sa.select(
                wevents.c.room_id + off, wevents.c.seq, wevents.c.seat, wevents.c.action, wevents.c.created_at
            ).order_by(wevents.c.id),
        )
    )
    bind.execute(
        new["results"]
        .insert()
        .from_select(
            ["game_id", "seat", "name", "total", "rank", "winner"],
            sa.select(
                wresults.c.room_id + off,
                wresults.c.seat,
                wresults.c.name,
                wresults.c.total,
                wresults.c.rank,
                sa.case((wresults.c.rank == 1, sa.true()), else_=sa.false()),
            ).order_by(wresults.c.id),
        )
    )
    for name in ("web_results", "web_events", "web_seats", "web_rooms"):
        op.drop_table(name)
    op.drop_table(WEB_VERSION_TABLE)


# -- downgrade -----------------------------------------------------------------------------------------------
def downgrade() -> None:
    """Write the games back into the two old storages, then drop the new tables."""
    bind = op.get_bind()
    new = _new_tables(sa.MetaData())
    g, s, e, r = (new[n] for n in ("games", "seats", "events", "results"))
    terminal = bind.execute(sa.select(g).where(g.c.source != "web").order_by(g.c.id)).mappings().all()
    seats = bind.execute(sa.select(s).order_by(s.c.game_id, s.c.seat)).mappings().all()
    results = bind.execute(sa.select(r)).mappings().all()
    ids = [row["id"] for row in terminal]
    actions: dict[int, list[str]] = {}
    if ids:
        for ev in bind.execute(sa.select(e.c.game_id, e.c.action).where(e.c.game_id.in_(ids)).order_by(e.c.seq)):
            actions.setdefault(ev.game_id, []).append(ev.action)
    seats_of: dict[int, list[Any]] = {}
    for row in seats:
        seats_of.setdefault(row["game_id"], []).append(row)
    result_of = {(row["game_id"], row["seat"]): row for row in results}

    has_web = bind.execute(sa.select(sa.func.count()).select_from(g).where(g.c.source == "web")).scalar_one() > 0
    if has_web:
        md = sa.MetaData()
        web = _web_tables(md)
        md.create_all(bind)
        web_games = sa.select(g.c.id).where(g.c.source == "web")
        bind.execute(
            web["web_rooms"]
            .insert()
            .from_select(
                [
                    "id",
                    "code",
                    "rules",
                    "keeper",
                    "hints",
                    "status",
                    "seed",
                    "commitment",
                    "rematch_of",
                    "rematch_code",
                    "created_at",
                    "finished_at",
                ],
                sa.select(
                    g.c.id,
                    g.c.code,
                    g.c.rules,
                    g.c.keeper,
                    g.c.hints,
                    g.c.status,
                    g.c.seed,
                    g.c.commitment,
                    g.c.rematch_of,
                    g.c.rematch_code,
                    g.c.created_at,
                    g.c.finished_at,
                )
                .where(g.c.source == "web")
                .order_by(g.c.id),
            )
        )
        bind.execute(
            web["web_seats"]
            .insert()
            .from_select(
                ["room_id", "seat", "name", "kind", "token_hash", "claimed"],
                sa.select(s.c.game_id, s.c.seat, s.c.name, s.c.kind, s.c.token_hash, s.c.claimed)
                .where(s.c.game_id.in_(web_games))
                .order_by(s.c.id),
            )
        )
        bind.execute(
            web["web_events"]
            .insert()
            .from_select(
                ["room_id", "seq", "seat", "action", "created_at"],
                sa.select(e.c.game_id, e.c.seq, e.c.seat, e.c.action, e.c.created_at)
                .where(e.c.game_id.in_(web_games))
                .order_by(e.c.id),
            )
        )
        bind.execute(
            web["web_results"]
            .insert()
            .from_select(
                ["room_id", "seat", "name", "total", "rank"],
                sa.select(r.c.game_id, r.c.seat, r.c.name, r.c.total, sa.func.coalesce(r.c.rank, 0))
                .where(r.c.game_id.in_(web_games))
                .order_by(r.c.id),
            )
        )
        version = _version_table(md)
        version.create(bind)
        bind.execute(version.insert().values(version_num=WEB_REVISION))
        _fix_sequence(bind, "web_rooms")

    for name in ("results", "events", "seats", "games"):
        op.drop_table(name)
    _create_0001_tables()
    old = _old_terminal_tables(sa.MetaData())
    for row in terminal:
        names = [p["name"] for p in seats_of.get(row["id"], [])]
        log = {
            "format": "pasch-log",
            "version": 1,
            "engine": row["engine"],
            "rules": row["rules"],
            "players": names,
            "keeper": bool(row["keeper"]),
            "actions": actions.get(row["id"], []),
            "meta": dict(row["meta"] or {}),
        }
        bind.execute(
            old["games"]
            .insert()
            .values(
                id=row["id"],
                uid=row["uid"],
                rules=row["rules"],
                mode="keeper" if row["keeper"] else "play",
                status=row["status"],
                log=json.dumps(log, ensure_ascii=False),
                actions=len(log["actions"]),
                created_at=_naive(row["created_at"]),
                updated_at=_naive(row["updated_at"]),
                finished_at=_naive(row["finished_at"]),
            )
        )
        for p in seats_of.get(row["id"], []):
            res = result_of.get((row["id"], p["seat"]))
            bind.execute(
                old["game_players"]
                .insert()
                .values(
                    game_id=row["id"],
                    seat=p["seat"],
                    name=p["name"],
                    kind=p["kind"],
                    total=res["total"] if res is not None else 0,
                    rank=res["rank"] if res is not None else None,
                    winner=bool(res["winner"]) if res is not None else False,
                )
            )
    _fix_sequence(bind, "games")


def _create_0001_tables() -> None:
    """The tables of revision 0001, exactly as its migration creates them."""
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.String(length=200), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("log", sa.Text(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("uid", name="uq_games_uid"),
    )
    op.create_index("ix_games_rules", "games", ["rules"], unique=False)
    op.create_index("ix_games_status", "games", ["status"], unique=False)
    op.create_table(
        "game_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_players_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_game_players"),
        sa.UniqueConstraint("game_id", "seat", name="uq_game_players_game_id_seat"),
    )
    op.create_index("ix_game_players_game_id", "game_players", ["game_id"], unique=False)
    op.create_index("ix_game_players_name", "game_players", ["name"], unique=False)
