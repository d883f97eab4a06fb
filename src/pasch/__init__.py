"""pasch: Kniffel / Yahtzee / Yatzy family dice games and Knaster — play, keep score, analyse.

The front door. A game is a rule set, a state and actions with one text form::

    >>> import pasch
    >>> state = pasch.new_game("kniffel", ["Ada", "Bob"])
    >>> state = state.apply("roll").apply("throw 2 3 3 5 6")
    >>> state.apply("score chance").total(0)
    19

The names here come from the layers below (:mod:`pasch.rules`, :mod:`pasch.engine`, :mod:`pasch.app`,
:mod:`pasch.solver`, :mod:`pasch.bots`); each is imported on first use, so that ``import pasch`` stays
light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pasch._lazy import lazy_exports
from pasch._version import __version__

if TYPE_CHECKING:  # the names below, for type checkers and readers; imported on first use
    from pasch.app import (
        Advice,
        AdviceOption,
        Match,
        Seat,
        SheetLayout,
        advise,
        make_bot,
        parse_seats,
        sheet_layout,
    )
    from pasch.dice import DiceSource, SeededDice
    from pasch.engine import (
        Action,
        GameLog,
        GameState,
        KnasterState,
        Outcome,
        State,
        new_game,
        replay,
    )
    from pasch.errors import IllegalActionError, InvalidActionError, LogError, PaschError, RuleSetError
    from pasch.rules import RuleSet
    from pasch.rules import get as get_rules
    from pasch.rules import names as rule_set_names
    from pasch.solver import Option, Solver, shared_solver

__all__ = [
    "Action",
    "Advice",
    "AdviceOption",
    "DiceSource",
    "GameLog",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "KnasterState",
    "LogError",
    "Match",
    "Option",
    "Outcome",
    "PaschError",
    "RuleSet",
    "RuleSetError",
    "Seat",
    "SeededDice",
    "SheetLayout",
    "Solver",
    "State",
    "__version__",
    "advise",
    "get_rules",
    "make_bot",
    "new_game",
    "parse_seats",
    "replay",
    "rule_set_names",
    "shared_solver",
    "sheet_layout",
]

# Imported on first use (pasch._lazy): ``import pasch`` imports none of them, nor numpy, asyncio or Numba.
_EXPORTS = {
    **dict.fromkeys(
        ("Advice", "AdviceOption", "Match", "Seat", "SheetLayout", "advise", "make_bot", "parse_seats", "sheet_layout"),
        "pasch.app",
    ),
    **dict.fromkeys(("DiceSource", "SeededDice"), "pasch.dice"),
    **dict.fromkeys(
        ("Action", "GameLog", "GameState", "KnasterState", "Outcome", "State", "new_game", "replay"), "pasch.engine"
    ),
    **dict.fromkeys(
        ("IllegalActionError", "InvalidActionError", "LogError", "PaschError", "RuleSetError"), "pasch.errors"
    ),
    "RuleSet": "pasch.rules",
    "get_rules": "pasch.rules:get",
    "rule_set_names": "pasch.rules:names",
    **dict.fromkeys(("Option", "Solver", "shared_solver"), "pasch.solver"),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
