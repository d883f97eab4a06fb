"""The hint panel's content, in the protocol's JSON: the advice of :func:`pasch.app.advise`, worded for the page.

Single-column rule sets list every legal option with its exact value (the expected final score of the
player's column if they take it and play optimally afterwards), best first; multi-column games and Knaster
get the strongest bot's suggestion (``exact: false``) with what each box pays now in sheet games. The policy
itself lives in :mod:`pasch.app` (the terminal app gives the same advice); this module only shapes it.

:func:`compute_hint` may load (or build) a solver table, so :func:`room_hint`, the server's answer to a ``hint``
message, calls it in a worker thread once the table is ready, and says ``preparing`` while it is being built.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from pasch.app import advise, uses_bot_tables, win_applies
from pasch.engine import GameState, State
from pasch.errors import PaschError
from pasch.web._manners import ActError

if TYPE_CHECKING:
    from pasch.web._room import Room
    from pasch.web._tables import TableQueue

__all__ = ["compute_hint", "room_hint", "win_status"]

HINT_WAIT = 2.0
"""Seconds a hint waits for a solver table being built before it answers ``status: "preparing"``."""
HINT_WAIT_LOAD = 30.0
"""Seconds a hint waits for a table that is only loaded from disk (in the queue: quick, unless builds are
ahead of it)."""


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


async def room_hint(room: Room, seat: int | None, tables: TableQueue, win_hints: bool) -> dict[str, Any]:
    """The hint for the player to act in ``room``: every option with its exact value where the solver has a
    table, else the best bot's suggestion (see :func:`compute_hint`). ``tables`` is the server's queue of solver
    tables; ``win_hints`` whether it gives P(win) (``pasch serve --win-hints``).

    Computed in a worker thread: the first hint of a rule set may load or build its solver table.

    Raises:
        ActError: hints are off, the asker is a spectator, or it is not their turn.
    """
    if not room.hints:
        raise ActError("hints_off", "hints are off in this room")
    if seat is None:
        raise ActError("spectator", "spectators get no hints")
    state, seq = room.state, room.seq
    if state.is_terminal or state.is_chance_node or seat != state.current_player:
        raise ActError("not_your_turn", "hints are for the player to act")
    if not tables.ready(state.rules):
        # The table comes through the queue (one build at a time). A load from disk is quick: wait for it
        # a moment; a build takes longer: answer 'preparing' and the page asks again shortly.
        with contextlib.suppress(PaschError, TimeoutError):  # a full queue: the next ask queues it
            wait = HINT_WAIT_LOAD if tables.on_disk(state.rules) else HINT_WAIT
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(tables.request(state.rules))), wait)
        if not tables.ready(state.rules):
            return {
                "type": "hint",
                "seq": seq,
                "status": "preparing",
                "suggest": None,
                "exact": False,
                "estimated": uses_bot_tables(state.rules),  # the bot's tables, not an exact one
                "options": [],
            }
    win = win_status(state, tables, win_hints)
    out = await asyncio.to_thread(compute_hint, state, win == "ready")
    return {"type": "hint", "seq": seq, "status": "ready", **out, "win": win if out["exact"] else None}


def win_status(state: State, tables: TableQueue, win_hints: bool) -> str | None:
    """``ready`` where the hint gives P(win) now, ``preparing`` where its win tables are queued (the
    page asks again), None where P(win) is not offered (a server without ``--win-hints``, one player,
    several columns, Knaster, a score keeper waiting for the table's dice)."""
    if not win_hints or not win_applies(state) or not isinstance(state, GameState) or state.dice is None:
        return None
    if tables.win_ready(state.rules):
        return "ready"
    with contextlib.suppress(PaschError):  # a full queue: the next ask queues them
        tables.request_win(state.rules)
    return "preparing"
