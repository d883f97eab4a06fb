"""Whether a single column could have come about under its rules (``pasch advise --sheet`` checks it).

:meth:`Solver.state_key` checks each box alone: the value must be one that some throw scores there. A
sheet can pass that and still be impossible as a whole:

* the fill order: ``+forced`` and ``+strict`` fill boxes top to bottom, ``+upward`` bottom to top, so
  the filled boxes must be a prefix (a suffix) of the sheet;
* scores that only the five-alike box's state makes possible: ``chance=100`` in ``kniffel-classic``
  (an extra Kniffel) needs the all-alike box to hold a score, and under a fill order to hold it *before*
  that box was filled; a score only a joker or extra five-alike can give likewise;
* scores that need the five-alike's matching upper box filled first (or still open).

The checks read the solver's prepared tables (every score of every throw in every scoring context, as
the engine's :func:`pasch.rules.score_options` gives it), so they follow the rule set's data and name
the box, the value and what would have been needed. They are necessary conditions: a sheet they pass
is one whose every box could have been scored in the order and context the other boxes allow.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pasch.errors import InvalidActionError
from pasch.rules import Order
from pasch.solver._query import Solver

__all__ = ["check_sheet"]

Scores = Sequence[int | None]


def _sequence(order: Order, n: int) -> list[int] | None:
    if order is Order.DOWN:
        return list(range(n))
    if order is Order.UP:
        return list(range(n - 1, -1, -1))
    return None


def _order_problem(solver: Solver, scores: Scores, seq: list[int]) -> str | None:
    ids = solver.rules.category_ids
    open_box: int | None = None
    for box in seq:
        if scores[box] is None:
            if open_box is None:
                open_box = box
        elif open_box is not None:
            way = "top to bottom" if solver.rules.columns[0] is Order.DOWN else "bottom to top"
            return (
                f"the boxes are filled {way}, but {ids[box]} is filled while {ids[open_box]}, "
                f"which comes before it, is open"
            )
    return None


def _y_classes(solver: Solver, scores: Scores, box: int, pos: dict[int, int] | None) -> tuple[int, ...]:
    """The states of the all-alike box (0 open, 1 crossed out, 2 holding a score) when ``box`` was filled."""
    y = solver.prep.y_box
    if y < 0 or box == y or scores[y] is None:
        return (0,)
    now = 1 if scores[y] == 0 else 2
    if pos is None:
        return (0, now)
    return (now,) if pos[y] < pos[box] else (0,)


def _matched(solver: Solver, scores: Scores, box: int, pos: dict[int, int] | None) -> tuple[npt.NDArray[np.bool_], ...]:
    """Per throw: may its matching upper box have been open (first) or filled (second) when ``box`` was filled."""
    p = solver.prep
    match = p.group_match[p.grp]
    can_open = np.ones(match.shape[0], dtype=bool)
    can_filled = np.zeros(match.shape[0], dtype=bool)
    for r, m in enumerate(match):
        m = int(m)
        if m < 0 or m == box or scores[m] is None:
            continue
        if pos is None:
            can_filled[r] = True
        elif pos[m] < pos[box]:
            can_filled[r], can_open[r] = True, False
    return can_open, can_filled


def _reachable(solver: Solver, box: int, value: int, ycs: Sequence[int], can: Sequence[npt.NDArray[np.bool_]]) -> bool:
    points = solver.prep.points
    for yc in ycs:
        for matched in (0, 1):
            hit = (points[yc * 2 + matched, :, :, box] == value).any(axis=0)
            if bool((hit & can[matched]).any()):
                return True
    return False


def _context_problem(solver: Solver, scores: Scores, pos: dict[int, int] | None) -> str | None:
    rules = solver.rules
    ids = rules.category_ids
    y = solver.prep.y_box
    every = np.ones(solver.prep.grp.shape[0], dtype=bool)
    for box, value in enumerate(scores):
        if value is None:
            continue
        ycs = _y_classes(solver, scores, box, pos)
        if _reachable(solver, box, value, ycs, _matched(solver, scores, box, pos)):
            continue
        what = f"{ids[box]}={value}"
        if y >= 0:
            before = "first" if pos is None else f"before {ids[box]} in the fill order"
            scored = _reachable(solver, box, value, (2,), (every, every))
            crossed = _reachable(solver, box, value, (1,), (every, every))
            state = _state(scores[y])
            if scored and crossed:
                return f"{what} needs the {ids[y]} box to be filled {before} (it is {state})"
            if scored:
                return f"{what} needs the {ids[y]} box to hold a score {before} (it is {state})"
            if crossed:
                return f"{what} needs the {ids[y]} box to be crossed out (0) {before} (it is {state})"
        return f"{what} cannot be scored with the other boxes as they are (its five-alike's upper box)"
    return None


def _state(value: int | None) -> str:
    return "open" if value is None else f"{value}"


def check_sheet(solver: Solver, scores: Scores) -> None:
    """Refuse a column the rules make impossible: a box value no throw scores, a fill order broken, or a
    score that needs the all-alike box (or a matching upper box) in a state the sheet contradicts.

    Args:
        solver: the solver of the column's rule set.
        scores: the column (None = open box).

    Raises:
        InvalidActionError: the sheet is impossible; the message names the boxes and why.
    """
    solver.state_key(scores)  # length and each value alone
    seq = _sequence(solver.rules.columns[0], len(scores))
    pos = None if seq is None else {box: k for k, box in enumerate(seq)}
    problem = None if seq is None else _order_problem(solver, scores, seq)
    if problem is None:
        problem = _context_problem(solver, scores, pos)
    if problem is not None:
        raise InvalidActionError(f"impossible {solver.rules.id} sheet: {problem}")
