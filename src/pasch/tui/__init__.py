"""The Textual terminal game: ``pasch play`` (setup, hot-seat, bots, hints, undo) and ``pasch keep``.

The app is a thin interface over :mod:`pasch.app`: a :class:`pasch.app.Match` holds the game in progress
(state, log, dice, seats, bots, undo), :func:`pasch.app.advise` gives the hints, :func:`pasch.app.sheet_layout`
lays out the sheet and :func:`pasch.app.play_bots` plays the bots' turns. :mod:`pasch.tui._session` adds
only what the terminal's table remembers (where each die lies, which are held); screens draw and route.
A game screen is chosen by the game's kind (:data:`GAME_SCREENS`), so the Knaster grid screen slots in
beside the sheet screen.
"""

from __future__ import annotations

from pasch.tui._app import GAME_SCREENS, KEEPER_SCREENS, PaschApp, run, screen_for
from pasch.tui._session import Seat, Session, parse_seats

__all__ = ["GAME_SCREENS", "KEEPER_SCREENS", "PaschApp", "Seat", "Session", "parse_seats", "run", "screen_for"]
