"""The Textual terminal game: ``pasch play`` (setup, hot-seat, bots, hints, undo) and ``pasch keep``.

The app is a thin adapter: the engine decides what is legal and what it scores; :mod:`pasch.tui._session`
keeps the table-side facts (dice positions, holds, undo); screens draw them. A game screen is chosen by
the game's kind (:data:`GAME_SCREENS`), so the Knaster grid screen slots in beside the sheet screen.
"""

from __future__ import annotations

from pasch.tui._app import GAME_SCREENS, KEEPER_SCREENS, PaschApp, run, screen_for
from pasch.tui._session import Seat, Session, parse_seats

__all__ = ["GAME_SCREENS", "KEEPER_SCREENS", "PaschApp", "Seat", "Session", "parse_seats", "run", "screen_for"]
