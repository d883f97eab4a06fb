"""The web server's rooms in pasch's one schema: the only place where the server's SQL lives.

A room is a row of ``games`` with ``source = 'web'`` and its join ``code``, its ``seats`` (name, kind, the
SHA-256 of the seat's token, whether it is claimed) and its ``events``; the room's options, the players'
dice contributions, the stand-ins of away players and the chat live in the row's JSON ``meta``. The server
keeps rooms in memory and calls :class:`RoomStore` (in a worker thread) for everything it reads or writes,
except the events of actions, which :class:`~pasch.storage.EventWriter` appends in batches.

:func:`web_log` is the one builder of a room's ``pasch-log``: the server's ``/log`` and the terminal app's
history both give the same log, with the seed contributions ``pasch verify --contribution`` needs.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, text, update
from sqlalchemy.orm import Session

from pasch.engine import GameLog
from pasch.storage._models import ABANDONED, BROKEN, PLAYING, WEB, EventRow, GameRow, SeatRow, new_uid

NOTIFY_MANY = text(
    "SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) WITH ORDINALITY AS n(p, i) ORDER BY i"
)
"""PostgreSQL: ``NOTIFY`` every payload of a list on a channel, in the list's order."""

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "EVENTS_AFTER",
    "RoomRecord",
    "RoomStore",
    "SeatRecord",
    "handed",
    "open_stand_ins",
    "web_log",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

_EV = EventRow.__tablename__
EVENTS_AFTER = (
    f"SELECT e.game_id, e.seq, e.seat, e.action FROM {_EV} AS e "
    "JOIN unnest(%s::bigint[], %s::bigint[]) AS t(id, after) ON e.game_id = t.id AND e.seq > t.after "
    "ORDER BY e.game_id, e.seq"
)
"""PostgreSQL: the new events of several rooms, given their ids and the last ``seq`` known of each (a constant
statement, nothing to compile per batch, one index range each); the relay runs it on its own connection."""

TRY_LOCK = "SELECT pg_try_advisory_lock(%s)"
"""PostgreSQL: take a session-level advisory lock if free (the bots' and the sweep's owner)."""
PING = "SELECT 1"


def _aware(when: datetime) -> datetime:
    """SQLite gives naive datetimes back; they are UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def web_log(
    *,
    code: str | None,
    rules: str,
    players: Sequence[str],
    kinds: Sequence[str],
    actions: Sequence[str],
    keeper: bool,
    commitment: str,
    seed: str,
    finished: bool,
    meta: Mapping[str, Any] | None,
    engine: str | None = None,
) -> GameLog:
    """A web room's ``pasch-log``: the commitment always; with served dice the dice version, every seat's
    contribution (None where a seat sent none) and the seat kinds (a bot's seat contributes nothing); the
    seed once the game is over; who stood in for away players (``stand_ins``), where anyone did; and the
    score keeper's entries taken back (``undos``), where any were.

    Args:
        meta: the room's stored ``meta`` (``dice``, ``contributions``, ``stand_ins``).
        engine: the engine version that recorded the game (default: this one).
    """
    stored = meta or {}
    out: dict[str, Any] = {"room": code, "commitment": commitment or None}
    if seed:
        out["dice"] = str(stored.get("dice") or "pasch-dice-v1")
        raw = stored.get("contributions")
        listed = raw if isinstance(raw, list) else []
        out["contributions"] = [
            listed[n] if n < len(listed) and isinstance(listed[n], str) else None for n in range(len(players))
        ]
        out["seats"] = list(kinds)
    if finished and seed:
        out["seed"] = seed
    stand_ins = stored.get("stand_ins")
    if isinstance(stand_ins, list) and stand_ins:
        out["stand_ins"] = [dict(s) for s in stand_ins if isinstance(s, dict)]
    undos = stored.get("undos")
    if isinstance(undos, list) and undos:
        out["undos"] = [dict(u) for u in undos if isinstance(u, dict)]
    extra = {} if engine is None else {"engine": engine}
    return GameLog(rules=rules, players=tuple(players), actions=tuple(actions), keeper=keeper, meta=out, **extra)


def _open(entry: object) -> bool:
    """Whether an entry of a room's ``stand_ins`` is still open: a seat handed to a stand-in (``to`` is null)."""
    return isinstance(entry, dict) and isinstance(entry.get("seat"), int) and entry.get("to") is None


def open_stand_ins(meta: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The entries of a room's stored ``meta["stand_ins"]`` still open: the seats handed to a stand-in bot now."""
    entries = (meta or {}).get("stand_ins")
    return [e for e in entries if _open(e)] if isinstance(entries, list) else []


def handed(meta: Mapping[str, Any] | None, seat: int) -> bool:
    """Whether a room's stored ``meta`` hands ``seat`` to a stand-in bot now (:func:`open_stand_ins`). The writer
    logs a stand-in's move only while this holds (:attr:`~pasch.storage.Append.stand_in`);
    :meth:`RoomStore.record_back` closes the entry."""
    return any(e["seat"] == seat for e in open_stand_ins(meta))


@dataclass(slots=True)
class SeatRecord:
    """A seat of a stored room."""

    seat: int
    name: str
    kind: str
    token_hash: str | None
    claimed: bool


@dataclass(slots=True)
class RoomRecord:
    """A stored room: its row, seats and logged actions (the server rebuilds its game from them)."""

    id: int
    code: str
    rules: str
    keeper: bool
    hints: bool
    seed: str
    commitment: str
    status: str
    rematch_of: str | None
    rematch_code: str | None
    seats: list[SeatRecord]
    actions: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    last_active: datetime = field(default_factory=lambda: datetime.now(UTC))
    """The last logged event's time (the creation's when none)."""


class RoomStore:
    """The web rooms of one (migrated) database. Every method is blocking: call it from a worker thread.

    Args:
        engine: the SQLAlchemy engine.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ----------------------------------------------------------------------------------
    def _record(self, session: Session, row: GameRow) -> RoomRecord:
        seats = [
            SeatRecord(s.seat, s.name, s.kind, s.token_hash, s.claimed)
            for s in session.scalars(select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat))
        ]
        actions: list[str] = []
        last = row.created_at
        for ev in session.scalars(select(EventRow).where(EventRow.game_id == row.id).order_by(EventRow.seq)):
            actions.append(ev.action)
            last = ev.created_at
        return RoomRecord(
            id=row.id,
            code=row.code or "",
            rules=row.rules,
            keeper=row.keeper,
            hints=row.hints,
            seed=row.seed,
            commitment=row.commitment,
            status=row.status,
            rematch_of=row.rematch_of,
            rematch_code=row.rematch_code,
            seats=seats,
            actions=actions,
            meta=dict(row.meta) if isinstance(row.meta, dict) else {},
            created_at=_aware(row.created_at),
            last_active=_aware(last),
        )

    def load(self, code: str) -> RoomRecord | None:
        """The room with this join code, or None."""
        with Session(self.engine) as session:
            row = session.scalar(select(GameRow).where(GameRow.code == code, GameRow.source == WEB))
            return None if row is None else self._record(session, row)

    def playing(self) -> list[RoomRecord]:
        """Every unfinished room (server start)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(GameRow).where(GameRow.source == WEB, GameRow.status == PLAYING)).all()
            return [self._record(session, row) for row in rows]

    def meta(self, room_id: int) -> dict[str, Any] | None:
        """A room's stored ``meta`` (None: no such room)."""
        with Session(self.engine) as session:
            value = session.scalar(select(GameRow.meta).where(GameRow.id == room_id))
        return dict(value) if isinstance(value, dict) else None

    def claims(self, room_id: int) -> list[tuple[int, str | None, bool]]:
        """(seat, token hash, claimed) of every seat: another process may have given a seat away."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.token_hash, SeatRow.claimed).where(SeatRow.game_id == room_id)
            ).all()
        return [(r.seat, r.token_hash, r.claimed) for r in rows]

    def lobby(
        self, limit: int = 50, include: frozenset[str] = frozenset()
    ) -> list[tuple[str, str, bool, datetime, list[SeatRecord]]]:
        """Open public rooms (unfinished, with a free human seat), newest first: (code, rules, keeper, created,
        seats). ``include``: codes listed (if open) however old they are."""
        with Session(self.engine) as session:
            query = (
                select(GameRow.id, GameRow.code, GameRow.rules, GameRow.keeper, GameRow.created_at)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(
                    GameRow.source == WEB,
                    GameRow.status == PLAYING,
                    SeatRow.claimed.is_(False),
                    SeatRow.kind == "human",
                )
                .group_by(GameRow.id, GameRow.code, GameRow.rules, GameRow.keeper, GameRow.created_at)
                .order_by(GameRow.created_at.desc())
            )
            # Private rooms are left out here, in Python: a JSON test in SQL differs between databases (and
            # PostgreSQL's json type cannot be grouped by). The server asks for several times the lobby's
            # size (one row per creating address is kept), so private rooms only use up that margin.
            rows = list(session.execute(query.limit(limit)).all())
            if include:
                listed = {r.code for r in rows}
                wanted = [c for c in include if c not in listed][:limit]
                if wanted:
                    rows.extend(session.execute(query.where(GameRow.code.in_(wanted))).all())
            ids = [r.id for r in rows]
            meta: dict[int, dict[str, Any] | None] = {}
            if ids:
                for game_id, game_meta in session.execute(select(GameRow.id, GameRow.meta).where(GameRow.id.in_(ids))):
                    meta[game_id] = game_meta if isinstance(game_meta, dict) else None
            rows = [r for r in rows if not (meta.get(r.id) or {}).get("private")]
            seats: dict[int, list[SeatRecord]] = {r.id: [] for r in rows}
            if seats:
                for st in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(seats)).order_by(SeatRow.seat)):
                    seats[st.game_id].append(SeatRecord(st.seat, st.name, st.kind, st.token_hash, st.claimed))
        return [(r.code, r.rules, r.keeper, _aware(r.created_at), seats[r.id]) for r in rows]

    def idle_codes(self, cutoff: datetime, limit: int, exclude: frozenset[str] = frozenset()) -> list[str]:
        """Unfinished rooms created before ``cutoff`` with no event after it (candidates for abandonment)."""
        recent = select(EventRow.id).where(EventRow.game_id == GameRow.id, EventRow.created_at > cutoff).exists()
        with Session(self.engine) as session:
            rows = session.scalars(
                select(GameRow.code)
                .where(GameRow.source == WEB, GameRow.status == PLAYING, GameRow.created_at < cutoff, ~recent)
                .limit(limit + len(exclude))
            ).all()
        return [c for c in rows if c and c not in exclude][:limit]

    def bot_room_codes(self) -> list[str]:
        """Codes of the unfinished rooms with a bot seat."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(GameRow.code)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(GameRow.source == WEB, GameRow.status == PLAYING, SeatRow.kind.like("bot%"))
                .distinct()
            ).all()
        return [c for c in rows if c]

    # -- writing ----------------------------------------------------------------------------------
    def create(
        self,
        *,
        rules: str,
        keeper: bool,
        hints: bool,
        seed: str,
        commitment: str,
        meta: dict[str, Any],
        seats: Sequence[tuple[str, str, str | None]],
        engine: str,
        rematch_of: tuple[int, str] | None = None,
    ) -> tuple[int, str]:
        """Write a new room with a fresh join code, in one transaction; returns its id and code.

        Args:
            seats: (name, kind, token hash or None) per seat; a seat with a hash is claimed.
            rematch_of: (id, code) of the finished room this one replays: it points to the new one.
        """
        # Core statements in one transaction (no ORM unit of work): rematches come in bursts.
        with self.engine.begin() as conn:
            for _ in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if conn.execute(select(GameRow.id).where(GameRow.code == code)).first() is None:
                    break
            now = datetime.now(UTC)
            row_id: int = conn.execute(
                insert(GameRow)
                .values(
                    uid=new_uid(),
                    code=code,
                    source=WEB,
                    rules=rules,
                    keeper=keeper,
                    hints=hints,
                    status=PLAYING,
                    seed=seed,
                    commitment=commitment,
                    rematch_of=rematch_of[1] if rematch_of else None,
                    engine=engine,
                    meta=meta,
                    created_at=now,
                    updated_at=now,
                )
                .returning(GameRow.id)
            ).scalar_one()
            conn.execute(
                insert(SeatRow),
                [
                    {"game_id": row_id, "seat": n, "name": nm, "kind": kind, "token_hash": h, "claimed": h is not None}
                    for n, (nm, kind, h) in enumerate(seats)
                ],
            )
            if rematch_of is not None:  # the finished room points to its rematch (same transaction)
                conn.execute(update(GameRow).where(GameRow.id == rematch_of[0]).values(rematch_code=code))
            return row_id, code

    def claim(
        self, room_id: int, seat: int, digest: str, name: str | None, check: Callable[[list[SeatRecord]], None]
    ) -> bool:
        """Claim a free seat with a token hash (and a new name), in one transaction with its seats locked.

        ``check`` sees every seat as stored, inside the transaction, and raises to refuse (another process may
        have renamed a seat meanwhile); nothing is written then.

        Returns:
            False when the seat is taken (nothing written).
        """
        with Session(self.engine) as session, session.begin():
            rows = session.scalars(select(SeatRow).where(SeatRow.game_id == room_id).with_for_update()).all()
            row = next((r for r in rows if r.seat == seat), None)
            if row is None or row.claimed:
                return False
            check([SeatRecord(r.seat, r.name, r.kind, r.token_hash, r.claimed) for r in rows])
            row.claimed = True
            row.token_hash = digest
            if name:
                row.name = name
        return True

    def update_meta(self, room_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
        """Read, change and write a room's ``meta`` with its row locked; returns the new meta (None: no room).

        ``change`` gets a copy and returns the new value; it may raise to refuse (nothing is written).
        """
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, room_id, with_for_update=True)
            if row is None:
                return None
            new = change(dict(row.meta or {}))
            row.meta = new
            return new

    def _lock_room(self, session: Session, room_id: int) -> GameRow | None:
        """The room's row, locked until the session's transaction ends: ``FOR UPDATE`` on PostgreSQL; on SQLite
        the database's write lock, taken first (``BEGIN IMMEDIATE``), so that what the transaction reads cannot
        change before it writes, as in the event writer."""
        if self.engine.dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        return session.get(GameRow, room_id, with_for_update=True)

    @staticmethod
    def _last_seq(session: Session, room_id: int) -> int:
        return int(session.scalar(select(func.max(EventRow.seq)).where(EventRow.game_id == room_id)) or 0)

    def record_back(self, room_id: int, seat: int) -> dict[str, Any] | None:
        """A player is back: close their seat's open ``stand_ins`` entries at the room's last logged event, read
        with the room's row locked (an entry whose stand-in played nothing goes). The writer checks a stand-in's
        move with the same row locked (:func:`handed`), so on every database and across processes the move is
        either logged before this (and counted as the stand-in's, ``to`` includes it) or refused after it. One
        transaction on SQLite too (``BEGIN IMMEDIATE``).

        Returns:
            The new meta (None: no such room).
        """
        with Session(self.engine) as session, session.begin():
            row = self._lock_room(session, room_id)
            if row is None:
                return None
            last = self._last_seq(session, room_id)
            meta = dict(row.meta or {})
            entries = []
            for entry in meta.get("stand_ins") or []:
                if _open(entry) and entry["seat"] == seat:
                    start = entry.get("from")
                    if not isinstance(start, int) or start > last:
                        continue  # it played nothing: no entry
                    entry = {**entry, "to": last}
                entries.append(entry)
            row.meta = {**meta, "stand_ins": entries}
            return row.meta

    def record_hand_over(
        self, room_id: int, seat: int, bot: str, why: str, seen: int | None = None
    ) -> tuple[dict[str, Any], bool] | None:
        """Hand a seat to a stand-in bot: open a ``stand_ins`` entry from the event after the room's last logged
        one, read with the room's row locked. The writer checks a player's own move with the same row locked
        (:attr:`~pasch.storage.Append.player`), so the move is either logged before this (and is the player's:
        the entry starts after it) or refused after it, wherever it was made.

        Args:
            seen: the last ``seq`` the caller's decision was based on (a turn clock that ran out): if the log
                has moved on since (the player acted in another process), nothing is written.

        Returns:
            (the meta, whether the seat was handed over now), or None: no such room. Not handed: the log moved
            on past ``seen``, or the seat is handed over already.
        """
        with Session(self.engine) as session, session.begin():
            row = self._lock_room(session, room_id)
            if row is None:
                return None
            last = self._last_seq(session, room_id)
            meta = dict(row.meta or {})
            if (seen is not None and last != seen) or handed(meta, seat):
                return meta, False
            entry = {"seat": seat, "bot": bot, "from": last + 1, "to": None, "why": why}
            row.meta = {**meta, "stand_ins": [*(meta.get("stand_ins") or []), entry]}
            return row.meta, True

    def take_back(
        self, room_id: int, first_seq: int, last_seq: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> bool:
        """Delete a room's last events ``first_seq`` .. ``last_seq`` and change its ``meta``, in one transaction
        with the room's row locked (a score keeper's undo).

        ``change`` gets a copy of the meta and returns the new value; it may raise to refuse (nothing is written).

        Returns:
            False when ``last_seq`` is not the room's last event any more (another writer; nothing written).
        """
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, room_id, with_for_update=True)
            if row is None:
                return False
            last = session.scalar(select(func.max(EventRow.seq)).where(EventRow.game_id == room_id))
            if int(last or 0) != last_seq:
                return False
            row.meta = change(dict(row.meta or {}))
            session.execute(delete(EventRow).where(EventRow.game_id == room_id, EventRow.seq >= first_seq))
        return True

    def set_token(self, room_id: int, seat: int, digest: str | None) -> None:
        """Give a seat a new token hash, or none (its token stops working)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(SeatRow).where(SeatRow.game_id == room_id, SeatRow.seat == seat).values(token_hash=digest)
            )

    def expire_tokens(self, room_ids: Sequence[int]) -> None:
        """Forget the token hashes of rooms that are over and left (their tokens act nowhere any more)."""
        if room_ids:
            with self.engine.begin() as conn:
                conn.execute(update(SeatRow).where(SeatRow.game_id.in_(list(room_ids))).values(token_hash=None))

    def notify(self, channel: str, *payloads: str) -> None:
        """PostgreSQL: ``NOTIFY`` the other processes on ``channel``, every payload in one transaction (failures
        are the caller's to ignore). One statement for all of them (a process repeats its presence in every
        room it serves at once: was one statement, one round trip, per room)."""
        if not payloads:
            return
        with self.engine.begin() as conn:
            conn.execute(NOTIFY_MANY, {"channel": channel, "payloads": list(payloads)})

    def mark_broken(self, room_ids: Sequence[int]) -> None:
        """Mark rooms whose log no longer replays ``broken`` (left out at start; their logs are kept)."""
        if room_ids:
            with self.engine.begin() as conn:
                conn.execute(update(GameRow).where(GameRow.id.in_(list(room_ids))).values(status=BROKEN))

    def abandon(self, room_id: int, cutoff: datetime, now: datetime) -> bool:
        """Mark a room abandoned unless it is over or some process recorded an action after ``cutoff``."""
        recent = select(EventRow.id).where(EventRow.game_id == room_id, EventRow.created_at > cutoff).exists()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(GameRow)
                .where(GameRow.id == room_id, GameRow.status == PLAYING, ~recent)
                .values(status=ABANDONED, finished_at=now, updated_at=now)
            )
        return bool(done.rowcount)
