"""Players that choose actions: random, greedy (best immediate score) and optimal (exact solver).

Every bot has ``choose(state, rng) -> action`` and works with any interface. Bots never see chance
nodes: the dice are thrown by the game, not by a player.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pasch.bots._base import Bot
from pasch.bots._calibration import Calibration, load_calibration
from pasch.bots._knaster import KnasterBot
from pasch.bots._multi import MultiColumnBot
from pasch.bots._win import WinBot
from pasch.engine import Action, GameState, Keep, Roll, Score, State
from pasch.errors import RuleSetError
from pasch.rules import RuleSet

__all__ = [
    "BOTS",
    "Bot",
    "Calibration",
    "GreedyBot",
    "KnasterBot",
    "MultiColumnBot",
    "OptimalBot",
    "RandomBot",
    "WinBot",
    "load_calibration",
    "make_bot",
]


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """A uniformly random legal action.

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
        """
        actions = self._decisions(state)
        return actions[int(rng.integers(len(actions)))]


class GreedyBot(Bot):
    """Throws once and enters the dice where they pay most now (ties: first in sheet order).

    In Knaster: the legal action that raises its own score most now (ties: the first legal action).
    """

    name = "greedy"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Roll at the start of a turn, then the score action with the most points.

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
        """
        actions = self._decisions(state)
        if not isinstance(state, GameState):  # Knaster: the move that raises the own score most now
            me = state.current_player
            return max(actions, key=lambda a: state.apply(a).total(me))
        if state.dice is None:
            return next((a for a in actions if isinstance(a, Roll)), actions[0])
        best: Action | None = None
        best_points = -1
        for column, option in state.score_options():
            if option.total > best_points:
                best_points = option.total
                best = state.score_action(column, option.index)
        return best if best is not None else actions[0]


class OptimalBot(Bot):
    """Maximises its own expected final score with the exact solver (single-column rule sets).

    Args:
        solver: a solver for the game's rule set; by default one is loaded (cached) per rule set.
    """

    name = "optimal"

    def __init__(self, solver: Any | None = None) -> None:
        self._solver = solver
        self._delegate: dict[str, Bot] = {}

    def solver_for(self, rules: RuleSet) -> Any:
        """The solver of a rule set: the one given to the constructor, else the process-wide shared one.

        Raises:
            RuleSetError: the solver does not handle this rule set (several columns, Knaster).
        """
        from pasch.solver import shared_solver

        if self._solver is not None and self._solver.rules.id == rules.id:
            return self._solver
        if len(rules.columns) != 1:
            raise RuleSetError(f"{rules.id}: the optimal bot plays single-column rule sets only")
        return shared_solver(rules)

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The action of greatest expected final score (ties: first box in sheet order, smallest keep).

        Multi-column games and Knaster have no exact table; there the strongest practical bot
        (:class:`MultiColumnBot`, :class:`KnasterBot`) chooses.

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
        """
        rules = state.rules
        if rules.knaster is not None or len(rules.columns) != 1:
            # No exact table exists for these games (2^39 and more states): play the strongest bot.
            if rules.cache_key not in self._delegate:
                self._delegate[rules.cache_key] = KnasterBot() if rules.knaster is not None else MultiColumnBot()
            return self._delegate[rules.cache_key].choose(state, rng)
        actions = self._decisions(state)
        if state.dice is None:
            return next((a for a in actions if isinstance(a, Roll)), actions[0])
        assert isinstance(state, GameState)  # Knaster went to its own bot above
        solver = self.solver_for(rules)
        column = state.sheets[state.current_player].columns[0]
        best = solver.best(column.scores, state.dice, state.throws_left, state.sharp)
        text = best.action_text
        for a in actions:
            if isinstance(a, Score | Keep) and str(a) == text:
                return a
        return Action.parse(text)


BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "optimal": OptimalBot,
    "multi": MultiColumnBot,
    "knaster": KnasterBot,
    "win": WinBot,
}


def make_bot(name: str) -> Bot:
    """A bot by name (``random``, ``greedy``, ``optimal``, ``multi``, ``knaster``, ``win``).

    Raises:
        ValueError: unknown name.
    """
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}")
    return BOTS[name]()
