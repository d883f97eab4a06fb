"""The hint panel's content: every option with its exact value, or the best bot's suggestion.

For single-column rule sets the values come from :class:`pasch.solver.Solver`: each legal option with the
expected final score of the player's column if they take it and play optimally afterwards (what the
column holds now plus the solver's expected rest), best first, like the terminal app's hint panel.
Multi-column games and Knaster have no exact table: there the hint is the choice of the strongest bot
(``exact: false``), with what each box pays now in sheet games.

:func:`compute_hint` may load (or build) a solver table, so the server calls it in a worker thread.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from pasch.errors import PaschError
from pasch.web._bots import make_bot

__all__ = ["compute_hint", "solver_for"]

_SOLVERS: dict[str, Any] = {}
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


def solver_for(rules: Any) -> Any:
    """The solver of a single-column rule set, loaded (or built and cached on disk) once per process.

    Raises:
        PaschError: the solver does not handle the rule set (several columns, Knaster).
    """
    got = _SOLVERS.get(rules.id)
    if got is not None:
        return got
    with _GUARD:
        lock = _LOCKS.setdefault(rules.id, threading.Lock())
    with lock:  # one load per rule set, even when several rooms ask at once
        got = _SOLVERS.get(rules.id)
        if got is None:
            from pasch.solver import Solver

            got = Solver.load(rules)
            _SOLVERS[rules.id] = got
        return got


def _exact(state: Any) -> list[dict[str, Any]] | None:
    """Every option with its exact value, best first; None where the solver does not apply."""
    rules = state.rules
    if rules.knaster is not None or rules.n_columns != 1 or getattr(state, "announced", None) is not None:
        return None
    try:
        solver = solver_for(rules)
    except PaschError:
        return None
    p = state.current_player
    scores = list(state.sheets[p].columns[0].scores)
    base = state.column_totals(p, 0).total
    legal = {str(a) for a in state.legal_actions()}
    if state.dice is None:
        # Before the turn's first throw (in a score-keeper room: before the table's dice are entered) the
        # only decision is to throw; its value is the column's expected final score.
        first = "roll" if "roll" in legal else "enter" if _waits_for_dice(state) else None
        if first is None:
            return None
        return [{"action": first, "value": base + solver.value(scores), "points": None}]
    options = solver.options(scores, list(state.dice), int(state.throws_left), sharp=bool(state.sharp))
    out = [
        {"action": o.action_text, "value": base + float(o.value), "points": o.points}
        for o in options
        if o.action_text in legal
    ]
    return out or None


def _waits_for_dice(state: Any) -> bool:
    """A score-keeper sheet game waiting for the dice thrown at the table (``enter …``)."""
    return bool(state.keeper) and state.rules.knaster is None and state.dice is None and not state.is_terminal


def compute_hint(state: Any) -> dict[str, Any]:
    """The hint for the player to act in ``state`` (a chance-free, unfinished state).

    Returns:
        ``{"suggest", "exact", "options": [{"action", "value", "points", "best"}]}``: with ``exact`` the
        values are expected final scores of the column (best first, ties all marked best); without it
        ``value`` is null and ``points`` is what a box pays now (sheet games). In a score-keeper room
        waiting for the table's dice the suggestion is ``enter`` (throw the real dice and enter them).
    """
    exact = _exact(state)
    if exact is None and _waits_for_dice(state):
        # Nothing to choose until the table's dice are entered (no bot should invent dice here).
        return {"suggest": "enter", "exact": False, "options": []}
    if exact is not None:
        top = max(o["value"] for o in exact)
        for o in exact:
            o["best"] = abs(o["value"] - top) < 1e-9
        return {"suggest": exact[0]["action"], "exact": True, "options": exact}
    suggest = str(make_bot("bot:optimal").choose(state, np.random.default_rng()))
    options: list[dict[str, Any]] = []
    if state.rules.knaster is None and state.dice is not None:
        options = [
            {"action": str(state.score_action(c, o.index)), "value": None, "points": o.total}
            for c, o in state.score_options()
        ]
        options.sort(key=lambda o: -o["points"])
    for o in options:
        o["best"] = o["action"] == suggest
    return {"suggest": suggest, "exact": False, "options": options}
