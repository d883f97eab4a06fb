"""Every step of a local game written to the games database the moment it is made.

The terminal app and ``pasch play --plain`` both hold a :class:`Recorder`: after each action (a throw, a
hold, a box, an undo, a bot's step) they hand it the match, and it writes the log so far to the database
(:meth:`pasch.storage.Repository.save` appends only the new events). A closed terminal window or a
``kill -9`` loses nothing that was on the screen: ``pasch play --resume`` finds the same dice, the same
throws left and the same held dice.

Held dice are not actions of the engine (a hold becomes part of the next ``keep``), so the interface hands
its table (the dice in table order and which are held, :class:`TableDice`) with each save; it goes into the
log's ``meta["table"]`` with the log length it belongs to, and :func:`table_of` reads it back only when the
log still ends there with the same dice.

A database that cannot be opened or written never ends a game: the recorder reports the reason once
(``on_error``) and the game goes on unsaved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pasch.app._match import Match
from pasch.errors import PaschError
from pasch.i18n import _

if TYPE_CHECKING:  # storage pulls in SQLAlchemy: opened on the first save, not on import
    from pasch.storage import PlayerStats, Repository

__all__ = ["TABLE_KEY", "Recorder", "TableDice", "table_of"]

TABLE_KEY = "table"
"""The key of the log's ``meta`` that holds the dice as they lie on the table (:class:`TableDice`)."""


@dataclass(frozen=True, slots=True)
class TableDice:
    """The dice as they lie on a table: faces in table order and which of them are held."""

    faces: tuple[int, ...] = ()
    holds: tuple[bool, ...] = ()


def _meta_of(table: TableDice, at: int) -> dict[str, Any]:
    return {"at": at, "faces": list(table.faces), "holds": list(table.holds)}


def table_of(match: Match) -> TableDice | None:
    """The table stored in ``match``'s log, if it belongs to the position the log ends in.

    Returns None when there is none, when it was written at another log length (an older save), or when its
    faces are not the dice of the state (a log edited by hand).
    """
    raw = match.log.meta.get(TABLE_KEY)
    dice = getattr(match.state, "dice", None)
    if not isinstance(raw, Mapping) or not dice or raw.get("at") != len(match.actions):
        return None
    faces, holds = raw.get("faces"), raw.get("holds")
    if not isinstance(faces, list) or not isinstance(holds, list) or len(faces) != len(holds):
        return None
    if not all(isinstance(f, int) for f in faces) or sorted(faces) != sorted(dice):
        return None
    return TableDice(tuple(int(f) for f in faces), tuple(bool(h) for h in holds))


class Recorder:
    """Writes a match to the games database after every step.

    Args:
        directory: the data directory of the default SQLite file (None: ``$PASCH_DATA_DIR`` or the user
            data directory).
        enabled: False records nothing (tests, ``--no-save``).
        on_error: called with a one-line reason when the database cannot be opened or a save fails (once per
            kind of failure: a game of 200 steps on a full disk does not say it 200 times).
    """

    def __init__(
        self,
        directory: str | Path | None = None,
        *,
        enabled: bool = True,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.directory = directory
        self.enabled = enabled
        self.on_error = on_error
        self.error: str | None = None
        self._repo: Repository | None = None
        self._said: set[str] = set()

    def _report(self, kind: str, reason: str) -> None:
        self.error = reason
        if kind not in self._said and self.on_error is not None:
            self._said.add(kind)
            self.on_error(reason)

    @property
    def repository(self) -> Repository | None:
        """The games repository, opened (and migrated) on first use; None when off or not openable."""
        if not self.enabled:
            return None
        if self._repo is None:
            try:
                from pasch.storage import Repository

                self._repo = Repository(directory=self.directory)
            except Exception as exc:  # a broken disk or database must not end the game
                self.enabled = False
                self._report("open", str(exc) or type(exc).__name__)
                return None
        return self._repo

    def save(self, match: Match, table: TableDice | None = None) -> bool:
        """Write the match's log so far (and the table's dice, when given); False if nothing was written.

        A match with no action yet is not written (an opened and closed setup is no game).
        """
        repo = self.repository
        if repo is None or not match.actions:
            return False
        if table is not None and table.faces:
            match.game.meta[TABLE_KEY] = _meta_of(table, len(match.actions))
        else:
            match.game.meta.pop(TABLE_KEY, None)
        try:
            match.game_id = repo.save(match.log, match.kinds, match.game_id, match.state)
        except Exception as exc:  # any failure of the database is reported, never raised
            self._report("save", str(exc) or type(exc).__name__)
            return False
        return True

    def unfinished(self, game_id: int | None = None, *, keeper: bool = False, seed: int | None = None) -> Match | None:
        """The game to resume: the saved game ``game_id``, or the latest unfinished one of the mode (score
        keeper or play) when None; None when there is none (or saving is off). Its seats play as they were
        saved; it throws with a new generator seeded with ``seed``.

        Raises:
            PaschError: no saved game ``game_id`` (a :class:`pasch.storage.StorageError`), or it is finished.
            LogError: the saved log does not replay.
        """
        repo = self.repository
        if repo is None:
            return None
        if game_id is None:
            rec = repo.latest_unfinished("keeper" if keeper else "play")
            if rec is None:
                return None
        else:
            rec = repo.get(game_id)
            if rec.finished:
                raise PaschError(_("Game {id} is finished; it cannot be resumed.").format(id=rec.id))
        return Match.from_log(rec.log, rec.player_kinds(), seed=seed, game_id=rec.id)

    def history(self, rules: str, exclude: int | None) -> list[PlayerStats]:
        """Earlier finished games' statistics under ``rules`` (without game ``exclude``); [] on any failure."""
        repo = self.repository
        if repo is None:
            return []
        try:
            return repo.player_stats(rules=rules, exclude=exclude)
        except Exception:  # a broken database must not spoil the end of the game
            return []

    def close(self) -> None:
        """Release the database connections."""
        if self._repo is not None:
            self._repo.close()
            self._repo = None
