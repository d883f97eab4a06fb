"""The base class of every bot (its own module, so the bot modules import it without a cycle)."""

from __future__ import annotations

import numpy as np

from pasch.engine import Action, State
from pasch.errors import IllegalActionError

__all__ = ["Bot"]


class Bot:
    """Base class: a player that picks one of the legal actions."""

    name = "bot"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The action to play in ``state``.

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
        """
        raise NotImplementedError

    @staticmethod
    def _decisions(state: State) -> tuple[Action, ...]:
        if state.is_terminal or state.is_chance_node:
            raise IllegalActionError("no decision to make: the game is over or dice are in the air")
        return state.legal_actions()
