"""The hint panel's content, in the protocol's JSON: the advice of :func:`pasch.app.advise`, worded for the page.

Single-column rule sets list every legal option with its exact value (the expected final score of the
player's column if they take it and play optimally afterwards), best first; multi-column games and Knaster
get the strongest bot's suggestion (``exact: false``) with what each box pays now in sheet games. The policy
itself lives in :mod:`pasch.app` (the terminal app gives the same advice); this module only shapes it.

:func:`compute_hint` may load (or build) a solver table, so the server calls it in a worker thread.
"""

from __future__ import annotations

from typing import Any

from pasch.app import advise
from pasch.engine import State

__all__ = ["compute_hint"]


def compute_hint(state: State, win: bool = False) -> dict[str, Any]:
    """The hint for the player to act in ``state`` (a chance-free, unfinished state).

    Args:
        state: the position.
        win: also each option's probability of winning (``p_win``; the win tables must be open, see
            :func:`pasch.app.prepare_win_tables`, or this loads or builds them).

    Returns:
        ``{"suggest", "exact", "estimated", "options": [{"action", "value", "estimate", "points", "best",
        "delta", "p_win"}]}``: with ``exact`` the values are expected final scores of the column (best first,
        ties all marked best) and ``delta`` is the value minus the best one (0 for the best, negative
        otherwise); with ``estimated`` (multi-column games, after a throw) ``value`` is null, ``estimate`` is
        the strongest bot's estimate of the player's final total after the option (best first) and ``delta``
        the estimate minus the best one; with neither, ``value`` and ``estimate`` are null and ``points`` is
        what a box pays now (sheet games). ``points`` is what a ``score`` option pays now, else null.
        ``p_win`` is the probability of finishing ahead of every opponent after the option where asked for
        and defined, else null. In a score-keeper room waiting for the table's dice the suggestion is
        ``enter`` (throw the real dice and enter them).
    """
    advice = advise(state, win=win)
    if advice.waiting_for_dice:
        # Nothing to choose until the table's dice are entered (no bot invents dice here); the position's
        # exact value is shown where the solver has one.
        value = advice.position_value
        options = (
            []
            if value is None
            else [
                {
                    "action": "enter",
                    "value": value,
                    "estimate": None,
                    "points": None,
                    "best": True,
                    "delta": 0.0,
                    "p_win": None,
                }
            ]
        )
        return {"suggest": "enter", "exact": advice.exact, "estimated": False, "options": options}
    ranked = advice.exact or advice.estimated
    listed = [o for o in advice.options if ranked or o.points is not None]
    return {
        "suggest": str(advice.suggestion),
        "exact": advice.exact,
        "estimated": advice.estimated,
        "options": [
            {
                "action": str(o.action),
                "value": o.value,
                "estimate": o.estimate if advice.estimated else None,
                "points": o.points,
                "best": o.best,
                "delta": o.delta,
                "p_win": o.p_win,
            }
            for o in listed
        ],
    }
