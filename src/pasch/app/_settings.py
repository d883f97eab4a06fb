"""The player's settings, remembered between games: a small JSON file beside the games database.

One setting so far (issue 29): :attr:`Settings.confirm`, whether an irreversible move that is probably a
slip asks first (see :func:`needs_confirmation`). The terminal app's setup screen and its confirmation
dialog change it; ``pasch play --plain`` reads it. A missing or damaged file gives the defaults (a broken
settings file never stops a game), and a file that cannot be written leaves the setting for this run only.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from pasch.engine import GameState, Score
from pasch.i18n import _, box_name, ngettext

__all__ = ["SETTINGS_FILE", "Settings", "confirm_question", "load_settings", "needs_confirmation", "save_settings"]

SETTINGS_FILE = "settings.json"
"""The file's name in the data directory (``$PASCH_DATA_DIR`` or the user data directory)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the player chose.

    Attributes:
        confirm: ask before an entry of 0 in a box while the dice pay points elsewhere, and before a box entered
            by one click (or a bare digit in plain mode) while throws are left.
    """

    confirm: bool = True


def _path(directory: str | Path | None) -> Path:
    from pasch.storage import data_dir  # storage pulls in SQLAlchemy: only when settings are read

    return data_dir(directory) / SETTINGS_FILE


def load_settings(directory: str | Path | None = None) -> Settings:
    """The remembered settings (the defaults when there are none or the file is damaged)."""
    try:
        raw = json.loads(_path(directory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    known = {f.name: type(getattr(Settings(), f.name)) for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known and isinstance(v, known[k])}
    return replace(Settings(), **values)


def save_settings(settings: Settings, directory: str | Path | None = None) -> bool:
    """Remember ``settings`` (written atomically); False when the file cannot be written."""
    path = _path(directory)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(settings), indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        return False
    return True


def needs_confirmation(state: GameState, action: Score, *, one_step: bool = False) -> str | None:
    """Why entering ``action`` now deserves a second chance, or None.

    Args:
        state: the position (dice on the table).
        action: the entry.
        one_step: the entry was asked for in one step (a click on a box's name, a bare digit typed in plain
            mode), with no box chosen first.

    Returns:
        ``zero`` when the entry pays nothing while another legal entry pays points; ``throws`` when it was
        asked for in one step with throws left; None otherwise (illegal entries are the engine's to refuse).
    """
    rules = state.rules
    column = (action.column or 1) - 1
    try:
        index = rules.category_index(action.category)
    except (KeyError, ValueError):
        return None
    options = {(c, o.index): o.total for c, o in state.score_options()}
    if (column, index) not in options:
        return None
    if options[(column, index)] == 0 and any(v > 0 for v in options.values()):
        return "zero"
    if one_step and state.throws_left > 0:
        return "throws"
    return None


def confirm_question(state: GameState, reason: str, column: int, box: int) -> str:
    """The question for an entry in (``column``, ``box``) that :func:`pasch.app.needs_confirmation` flagged."""
    rules = state.rules
    options = {(c, o.index): o.total for c, o in state.score_options()}
    name = box_name(rules, box) + (f" ({column + 1})" if rules.n_columns > 1 else "")
    if reason == "zero":
        (bc, bb), points = max(options.items(), key=lambda kv: kv[1])
        best = box_name(rules, bb) + (f" ({bc + 1})" if rules.n_columns > 1 else "")
        return _("Enter 0 in {box}? These dice pay {points} in {best}.").format(box=name, points=points, best=best)
    left = state.throws_left
    return ngettext(
        "Enter {points} in {box} now? You have {n} throw left.",
        "Enter {points} in {box} now? You have {n} throws left.",
        left,
    ).format(points=options.get((column, box), 0), box=name, n=left)
