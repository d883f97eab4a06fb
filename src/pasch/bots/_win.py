"""The win-probability bot: plays each decision for the best chance of finishing ahead of every opponent."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from pasch.bots._base import Bot
from pasch.engine import Action, GameState, Keep, Roll, Score, State

__all__ = ["WinBot"]

_CACHE_SIZE = 4096


class WinBot(Bot):
    """Maximises the probability of winning (single-column games with 2 to 8 players).

    At the start of its turn the law of the best opponent's final score is fixed, from the opponents'
    exact remaining-score distributions under expected-score play (rows of the survival table,
    :meth:`SurvivalTable.best_of`; with several opponents the law of their maximum). Ending the turn in a
    box is valued by the threshold tables (P(reaching t more points) under the best play for each t after
    this turn) weighted by that law, a tie counting half, blended with the same sum over the survival
    table by the number of boxes left (``_kwin._alpha``), and inside the turn the bot plays the exact
    best policy for that value
    (:meth:`TargetTable.win_options_weights`): the same rule, bit for bit, as the duel kernel
    (:func:`~pasch.solver.duel_win_optimal`). Both tables are the process's open ones
    (:data:`pasch.solver.win_cache`, shared with the hints): opened and checksum-verified once per process,
    so a decision costs milliseconds. Alone at the table, in multi-column games and in
    Knaster it plays as :class:`OptimalBot`.

    Args:
        optimal: the bot it falls back to (default: a new :class:`OptimalBot`).
    """

    name = "win"

    def __init__(self, optimal: Any | None = None) -> None:
        from pasch.bots import OptimalBot

        self._optimal = optimal or OptimalBot()
        self._dists: OrderedDict[tuple[str, tuple[tuple[tuple[int | None, ...], int], ...]], Any] = OrderedDict()
        self._lock = threading.Lock()

    def weights(self, solver: Any, opponents: tuple[tuple[tuple[int | None, ...], int], ...]) -> tuple[int, Any]:
        """The law of the best opponent's final score, ``(base, w)`` (cached per rule set and opponents).

        Read off the rule set's survival table (one row per state, uint16 precision) by the kernel the
        duel kernel uses (:meth:`SurvivalTable.best_of`), not propagated forward: a bot decides
        thousands of times per second in a duel. The table is the process's open one
        (:func:`pasch.solver.win_pair`), opened and checked once.
        """
        from pasch.solver import win_pair

        key = (solver.rules.cache_key, opponents)
        with self._lock:
            got = self._dists.get(key)
            if got is not None:
                self._dists.move_to_end(key)
                return got  # type: ignore[no-any-return]
        got = win_pair(solver)[1].best_of(opponents)
        with self._lock:
            self._dists[key] = got
            while len(self._dists) > _CACHE_SIZE:
                self._dists.popitem(last=False)
        return got

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The action with the greatest probability of finishing ahead of every opponent.

        Raises:
            IllegalActionError: the state is a chance node or the game is over.
        """
        rules = state.rules
        if not isinstance(state, GameState) or len(rules.columns) != 1 or len(state.players) < 2:
            return self._optimal.choose(state, rng)
        actions = self._decisions(state)
        if state.dice is None:
            return next((a for a in actions if isinstance(a, Roll)), actions[0])
        from pasch.solver import win_pair

        solver = self._optimal.solver_for(rules)
        me = state.current_player
        col = state.sheets[me].columns[0]
        opponents = tuple(
            (tuple(c.scores), c.extra)
            for p in range(len(state.players))
            if p != me
            for c in (state.sheets[p].columns[0],)
        )
        base, w = self.weights(solver, opponents)
        table = win_pair(solver)[0]  # open once per process, shared with the hints
        best = table.win_options_weights(col.scores, state.dice, state.throws_left, w, base, state.sharp, col.extra)[0]
        text = best.action_text
        for a in actions:
            if isinstance(a, Score | Keep) and str(a) == text:
                return a
        return Action.parse(text)
