"""The game engine: immutable states, actions with one text form, turn flow, logs and replay.

``new_game(rules, players)`` gives the initial state; ``state.apply(action)`` returns the next one;
``state.legal_actions()`` lists what is allowed; ``replay(log)`` rebuilds a game from its log. Every state
satisfies the :class:`State` protocol; ``state.to_text()`` writes its one-line position text and
:func:`from_text` reads it back; ``str(state)`` draws it. The Knaster grid geometry (cells, lines, masks,
line values, combinations) is public here too.
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
from pasch.engine._knaster_grid import (
    CELL_LINES,
    CELL_NAMES,
    COMBINATIONS,
    FULL_MASK,
    LINE_MASKS,
    LINE_NAMES,
    LINES,
    KnasterGrid,
    best_combination,
    cell_index,
    line_combination,
    line_value,
)
from pasch.engine._log import Game, GameLog, new_game, replay
from pasch.engine._outcome import Outcome
from pasch.engine._position import from_text
from pasch.engine._protocol import State
from pasch.engine._state import ColumnSheet, GameState, PlayerSheet

__all__ = [
    "CELL_LINES",
    "CELL_NAMES",
    "COMBINATIONS",
    "FULL_MASK",
    "LINES",
    "LINE_MASKS",
    "LINE_NAMES",
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
    "best_combination",
    "cell_index",
    "cell_name",
    "from_text",
    "line_combination",
    "line_value",
    "new_game",
    "parse_cell",
    "replay",
]
