"""Exact tables of a fixed-order column that may let turns go by ("slack"), for the multi-column bot.

Played alone, a top-down or bottom-up column must take every turn's dice in its next box. In a
multi-column game it need not: with ``T`` turns left and ``n`` open boxes in the column, ``s = T - n``
of those turns will go to other columns, so the column can wait for dice that suit its next box
(three or more of a face for an upper box, a straight for the straight boxes) and let the others pass.
The exact single-column table knows nothing of this and so sets the par of a fixed-order column far too
low: the bot then fills such columns with mediocre dice and rarely reaches their upper bonus.

``W[k, f, u, s]`` is the exact expected score of a fixed-order column with its first ``k`` boxes (in its
order) filled, five-alike flag ``f``, upper progress ``u`` and ``s`` turns it may let pass, under the
model that every turn is thrown for this column and may then be entered in the next box or passed:

* ``W[n_boxes, ...] = 0``; with ``s = 0`` the table equals the ordinary forced-order table;
* otherwise ``W[k, f, u, s] = E[ best over the turn's keeps of max(enter: points + W[k+1, f', u', s],
  pass: W[k, f, u, s-1]) ]``, the turn solved exactly over every keep (three throws).

The model is optimistic for the passes (in a real game a passed turn was thrown for another column),
so the multi-column bot credits only part of the slack (``slack_factor``); see
:mod:`pasch.bots._multi` for how it values the entries with it. Tables are kept in the solver's cache
directory, checksummed like the value tables (:func:`slack_table`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pasch.dice import keep_groups, transition_tables
from pasch.errors import RuleSetError
from pasch.rules import Order
from pasch.solver._prep import NEVER
from pasch.solver._table import cache_name, load_array, store_or_warn

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = ["FREE_SLACK_VERSION", "SLACK_VERSION", "SlackTable", "box_sequence", "free_slack_levels", "slack_table"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
SLACK_VERSION = 2
"""Bump when the slack tables' meaning changes: older files are then stale."""
FREE_SLACK_VERSION = 1
"""The same for the free column's slack levels (:func:`free_slack_levels`)."""


def box_sequence(order: Order, n_boxes: int) -> list[int]:
    """The boxes of a fixed-order column in the order they are filled.

    Raises:
        ValueError: a column without a fixed order (free, announced).
    """
    if order is Order.DOWN:
        return list(range(n_boxes))
    if order is Order.UP:
        return list(range(n_boxes - 1, -1, -1))
    raise ValueError(f"{order.value} columns have no fixed order")


class SlackTable:
    """``W[k, f, u, s]`` of one fixed-order column (see the module docstring).

    Args:
        solver: the exact solver of the column played alone (a top-down or bottom-up rule set).
        max_slack: the most passes tracked.
        values: the table, if already known (else it is built, in seconds).

    Raises:
        RuleSetError: the solver's column has no fixed order.
    """

    def __init__(self, solver: Solver, max_slack: int, values: F64 | None = None) -> None:
        self.solver = solver
        order = solver.rules.columns[0]
        if order not in (Order.DOWN, Order.UP):
            raise RuleSetError(f"{solver.rules.id}: slack tables need a top-down or bottom-up column")
        self.order = order
        p = solver.prep
        self.p = p
        self.seq = box_sequence(order, p.n_boxes)
        self.max_slack = max_slack
        self.values = values if values is not None else self._build()

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """``(boxes + 1, flags, upper totals, max_slack + 1)``."""
        p = self.p
        return (p.n_boxes + 1, p.n_flags, p.lanes, self.max_slack + 1)

    def filled(self, scores: tuple[int | None, ...]) -> int:
        """How many boxes of the column are filled (always a prefix of its order)."""
        return sum(v is not None for v in scores)

    # -- the pieces of one entry ------------------------------------------------------------------
    def fill_arrays(self, k: int, flag: int) -> tuple[I64, I64, I64]:
        """Entering each throw in the ``k``-th box of the order: (points without bonus, upper increase, new flag)."""
        p = self.p
        box = self.seq[k]
        ctx, grp = self.solver.contexts(sum(1 << b for b in self.seq[:k]), flag)
        r_idx = np.arange(p.grp.shape[0])
        tiers = p.tier[ctx, grp, box]
        rows = p.rowsel[ctx, 0, r_idx, box]
        up = p.row_up[rows].astype(np.int64)
        mode = p.row_mode[rows].astype(np.int64)
        points = up + p.cval[ctx, 0, r_idx, box].astype(np.int64)
        # A throw the box cannot take (never happens in the catalogue) is crossed out instead.
        never = tiers >= NEVER
        if never.any():
            zmode = int(p.row_mode[p.zrow[box]])
            points = np.where(never, 0, points)
            up = np.where(never, 0, up)
            mode = np.where(never, zmode, mode)
        nf = np.where(mode == 0, flag, mode - 1) if p.n_flags == 2 else np.zeros_like(mode)
        return points, up, nf

    def zero_flag(self, k: int, flag: int) -> int:
        """The new flag when the ``k``-th box is crossed out."""
        p = self.p
        mode = int(p.row_mode[p.zrow[self.seq[k]]])
        return (flag if mode == 0 else mode - 1) if p.n_flags == 2 else 0

    # -- the table ----------------------------------------------------------------------------------
    def _build(self) -> F64:
        p = self.p
        rules = p.rules
        trans, _, _, empty = transition_tables(rules.dice, rules.faces)
        flat, starts = keep_groups(rules.dice, rules.faces)
        first = trans[int(empty[0])]
        n, lanes, nfl, smax = p.n_boxes, p.lanes, p.n_flags, self.max_slack
        thr = p.threshold
        w = np.zeros((n + 1, nfl, lanes, smax + 1))
        upper_boxes = {b for b in range(n) if p.is_upper[b]}
        for k in range(n - 1, -1, -1):
            done, todo = set(self.seq[:k]), set(self.seq[k:])
            # Only reachable (flag, upper) pairs are computed, the rest copied: the upper progress is 0
            # before any upper box is filled and no longer matters once none is open; the flag is 0
            # until the five-alike box is filled.
            n_u = lanes if (done & upper_boxes and todo & upper_boxes) else 1
            n_f = nfl if p.y_box >= 0 and p.y_box in done else 1
            u = np.arange(n_u)[:, None]
            gains, nexts = [], []
            for f in range(n_f):
                points, up, nf = self.fill_arrays(k, f)
                u2 = np.minimum(u + up[None, :], thr)
                bonus = np.where((u < thr) & (u + up[None, :] >= thr), p.bonus, 0) if thr > 0 else 0
                gains.append(points[None, :] + bonus)
                nexts.append((nf, u2))
            for s in range(smax + 1):
                ends = []
                for f in range(n_f):
                    nf, u2 = nexts[f]
                    fill = gains[f] + w[k + 1, nf[None, :], u2, s]
                    if s > 0:
                        fill = np.maximum(fill, w[k, f, :n_u, s - 1][:, None])
                    ends.append(fill)
                end = np.concatenate(ends, axis=0)  # [flags * lanes, rolls]
                reach = end
                for _ in range(1, rules.throws):
                    e = reach @ trans.T  # [B, keeps]
                    best_keep = np.maximum.reduceat(e[:, flat], starts, axis=1)
                    reach = np.maximum(end, best_keep)
                w[k, :n_f, :n_u, s] = (reach @ first).reshape(n_f, n_u)
                w[k, n_f:, :, s] = w[k, :1, :, s]
                w[k, :, n_u:, s] = w[k, :, :1, s]
        return w

    def value(self, k: int, flag: int, upper: int, s: int) -> float:
        """``W[k, flag, upper, s]`` with the upper total capped and ``s`` clipped to ``0 .. max_slack``."""
        return float(self.values[k, flag, min(upper, self.p.threshold), min(max(s, 0), self.max_slack)])


def slack_table(solver: Solver, max_slack: int, *, use_cache: bool = True) -> SlackTable:
    """The slack table of a fixed-order column, from the cache or built (seconds) and stored.

    Args:
        solver: the exact solver of the column played alone (top-down or bottom-up).
        max_slack: the most passes tracked.
        use_cache: read and write the cache directory.

    Raises:
        RuleSetError: the solver's column has no fixed order.
    """
    key = solver.rules.cache_key
    path = cache_name("slack", key, SLACK_VERSION, max_slack)
    meta = {"kind": "slack", "rules": key, "version": SLACK_VERSION, "max_slack": max_slack}
    p = solver.prep
    shape = (p.n_boxes + 1, p.n_flags, p.lanes, max_slack + 1)
    if use_cache:
        values = load_array(path, meta, shape, np.float64, mmap=False)
        if values is not None:
            return SlackTable(solver, max_slack, values)
    table = SlackTable(solver, max_slack)
    if use_cache:
        store_or_warn(path, table.values, meta)
    return table


def free_slack_levels(solver: Solver, max_slack: int, *, use_cache: bool = True) -> npt.NDArray[np.float32]:
    """The slack levels of a free column: ``L[s, mask, flag, upper]``, from the cache or built and stored.

    The free column's counterpart of :class:`SlackTable`: every turn is thrown for the column and may end in
    any legal box or, while passes are left, be passed (the sheet left as it is), at most ``s`` passes in
    all. ``L[0]`` is the solver's own table; ``L[s]`` is a table build (the solver's kernel) in which every
    turn may also end in ``L[s - 1]`` of the same state (:func:`pasch.solver._table.build_values`'s
    ``floor``), about a second per level for a 13-box sheet. Float32, like the solver's tables.

    Args:
        solver: the exact solver of the free column played alone.
        max_slack: the most passes tracked.
        use_cache: read and write the cache directory.

    Raises:
        RuleSetError: the solver's column is not free.
    """
    from pasch.solver._table import build_values

    rules = solver.rules
    if rules.columns != (Order.FREE,):
        raise RuleSetError(f"{rules.id}: free slack levels need a free column")
    key = rules.cache_key
    path = cache_name("freeslack", key, FREE_SLACK_VERSION, max_slack)
    meta = {"kind": "freeslack", "rules": key, "version": FREE_SLACK_VERSION, "max_slack": max_slack}
    shape = (max_slack + 1, *solver.values.shape)
    if use_cache:
        got = load_array(path, meta, shape, np.float32, mmap=False)
        if got is not None:
            return got
    levels = np.empty(shape, np.float32)
    levels[0] = solver.values
    for s in range(1, max_slack + 1):
        levels[s] = build_values(solver.prep, np.float32, floor=levels[s - 1])
    if use_cache:
        store_or_warn(path, levels, meta)
    return levels
