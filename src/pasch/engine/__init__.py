"""The game engine: immutable states, actions with one text form, turn flow, logs and replay.

``new_game(rules, players)`` gives the initial state; ``state.apply(action)`` returns the next one;
``state.legal_actions()`` lists what is allowed; ``replay(log)`` rebuilds a game from its log.
"""

from __future__ import annotations

from pasch.engine._actions import (
    Action,
    Announce,
    Circle,
    Enter,
    Keep,
    Pass,
    Roll,
    Score,
    Throw,
    Write,
    cell_name,
    parse_cell,
)
from pasch.engine._knaster import KnasterState, LineDuty
from pasch.engine._knaster_grid import KnasterGrid, line_combination
from pasch.engine._log import Game, GameLog, State, new_game, replay
from pasch.engine._outcome import Outcome
from pasch.engine._state import ColumnSheet, GameState, PlayerSheet

__all__ = [
    "Action",
    "Announce",
    "Circle",
    "ColumnSheet",
    "Enter",
    "Game",
    "GameLog",
    "GameState",
    "Keep",
    "KnasterGrid",
    "KnasterState",
    "LineDuty",
    "Outcome",
    "Pass",
    "PlayerSheet",
    "Roll",
    "Score",
    "State",
    "Throw",
    "Write",
    "cell_name",
    "line_combination",
    "new_game",
    "parse_cell",
    "replay",
]
