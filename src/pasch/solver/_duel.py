"""Batched games of the win rule against one to seven seats of the expected-score optimal policy (``_kduel``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.solver._table import default_threads, run_threads

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = ["duel_decision", "duel_trace", "duel_win_optimal"]


def _tables(solver: Solver) -> tuple[Any, ...]:
    """The kernel's arguments before the game counts: value table, tables, threshold and survival tables."""
    from pasch.solver._prep import tables
    from pasch.solver._wincache import win_pair

    target, surv = win_pair(solver)  # the process's open tables: a duel in chunks opens them once
    return (
        np.ascontiguousarray(solver.values), solver.tables,
        target.theta, target.scale, target.sidx, surv.theta, surv.scale, surv.sidx,
        tables(solver.prep, np.float64),
    )  # fmt: skip


def _play(
    solver: Solver,
    games: int,
    seed: int,
    threads: int | None,
    win_first: bool,
    n_trace: int,
    start: int = 0,
    players: int = 2,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    from pasch.solver._kduel import _duel_games

    if games < 0 or seed < 0 or start < 0:
        raise ValueError("games, seed and the first game's index must not be negative")
    if not 2 <= players <= 8:
        raise ValueError(f"a table of bot:win and bot:optimal seats has 2 to 8 players, not {players}")
    stages = solver.rules.throws - 1
    out = np.zeros((games, players), np.int64)
    trace = np.full((min(n_trace, games), players * solver.prep.n_boxes, 2 * stages + 3), -1, np.int32)
    if games == 0:
        return out, trace
    args = _tables(solver)
    n_threads = max(1, min(threads or default_threads(), default_threads(), games))
    run_threads(_duel_games, n_threads, *args, start, games, seed, 1 if win_first else 0, out, trace)
    return out, trace


def duel_win_optimal(
    solver: Solver,
    games: int,
    seed: int,
    threads: int | None = None,
    *,
    win_first: bool = True,
    start: int = 0,
    players: int = 2,
) -> npt.NDArray[np.int64]:
    """Final totals of seeded games of ``bot:win`` against ``bot:optimal`` seats, in one Numba kernel.

    Seat 0 plays the win rule of :meth:`TargetTable.win_options_weights` (the rule of ``bot:win``, the
    same code): at the start of each of its turns the law of the best opponent's final score comes from
    the survival table (the opponents play for the expected score, independently; a full sheet is a
    point mass), entries are valued by the threshold table weighted by it, and the turn is played by the
    exact best policy for that value. Seats 1 .. ``players - 1`` play the expected-score optimal policy
    (the decisions of :meth:`Solver.best`). Play goes round the seats in order; with two players the win
    seat starts the even games (``win_first``) or the odd ones, with more game ``g`` is started by seat
    ``g % players`` (``(g + 1) % players`` without ``win_first``), so the win seat sits in every position
    in turn. Game ``g`` throws from its own seeded stream, so the totals do not depend on ``threads``.

    The first call builds (minutes, then cached) the rule set's threshold and survival tables.

    Args:
        solver: the rule set's solver (single column).
        games: games to play.
        seed: the dice seed.
        threads: worker threads (default: every core).
        win_first: whether the win seat starts game 0 (and every even game).
        start: the index of the first game: games ``start .. start + games - 1`` of the duel are played,
            so a duel played in chunks throws the same dice as in one call.
        players: players at the table, 2 to 8 (one win seat, the others optimal).

    Returns:
        ``totals[g, p]``: seat ``p``'s final total (seat 0 the win seat), int64, shape ``(games, players)``.

    Raises:
        ValueError: a negative number of games, seed or start, or players outside 2 .. 8.
        RuleSetError: a rule set the solver does not handle.
    """
    return _play(solver, games, seed, threads, win_first, 0, start, players)[0]


def duel_trace(
    solver: Solver, games: int, seed: int, *, win_first: bool = True, players: int = 2
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """:func:`duel_win_optimal` with every throw, keep and box of every game, to replay them elsewhere.

    Returns:
        The totals, and ``trace[g, turn, k]``: per turn of game ``g`` in play order, the throw indices of the
        dice space (``k <= stages``), the keep indices (``stages < k <= 2 * stages + 1``; -1: the throw was
        entered) and the box entered (last); -1 where the turn had no such throw.

    Raises:
        ValueError: a negative number of games or seed, or players outside 2 .. 8.
    """
    return _play(solver, games, seed, 1, win_first, games, 0, players)


def duel_decision(
    solver: Solver,
    seat: int,
    states: tuple[tuple[int, int, int, int], ...],
    roll: int,
    rolls_left: int,
    sharp: bool,
) -> tuple[int, int]:
    """One decision exactly as the duel kernel takes it: (box index or -1, keep index or -1).

    Args:
        solver: the rule set's solver.
        seat: 0 the win seat, any other an optimal seat.
        states: (mask, flag, upper, total) of the win seat, then of each optimal seat (1 to 7 of them).
        roll: the throw on the table (index of the dice space).
        rolls_left: rolls left in the turn.
        sharp: whether the throw is sharp.

    Raises:
        ValueError: a seat that is not at the table, or not 2 to 8 seats.
    """
    from pasch.solver._kduel import _duel_decide

    kernel: Any = _duel_decide
    if not 2 <= len(states) <= 8:
        raise ValueError(f"a table has 2 to 8 seats, not {len(states)}")
    if not 0 <= seat < len(states):
        raise ValueError(f"a table of {len(states)} has seats 0 to {len(states) - 1}, not {seat}")
    cols = [np.array([st[i] for st in states], np.int64) for i in range(4)]
    box, keep = kernel(*_tables(solver), seat, *cols, int(roll), int(rolls_left), bool(sharp))
    return int(box), int(keep)
