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
so the bot credits only part of the slack (``slack_factor``). See :mod:`pasch.bots._multi` for how
the entries are valued with it.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.rules import Order

if TYPE_CHECKING:
    from pasch.bots._multi import _Column

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
VERSION = 2
_NEG = -1e18


def box_sequence(order: Order, n_boxes: int) -> list[int]:
    """The boxes of a fixed-order column in the order they are filled."""
    if order is Order.DOWN:
        return list(range(n_boxes))
    if order is Order.UP:
        return list(range(n_boxes - 1, -1, -1))
    raise ValueError(f"{order.value} columns have no fixed order")


def filled_count(order: Order, scores: tuple[int | None, ...]) -> int:
    """How many boxes of a fixed-order column are filled (they are always a prefix of its order)."""
    return sum(v is not None for v in scores)


class SlackColumn:
    """``W[k, f, u, s]`` of one fixed-order column (see the module docstring)."""

    def __init__(self, col: _Column, order: Order, max_slack: int, values: F64 | None = None) -> None:
        self.col = col
        self.order = order
        p = col.p
        self.p = p
        self.seq = box_sequence(order, p.n_boxes)
        self.max_slack = max_slack
        self.values = values if values is not None else self._build()

    # -- the pieces of one entry ------------------------------------------------------------------
    def fill_arrays(self, k: int, flag: int) -> tuple[I64, I64, I64]:
        """Entering each throw in the ``k``-th box of the order: (points without bonus, upper increase, new flag)."""
        p = self.p
        box = self.seq[k]
        ctx, grp = self.col.contexts(sum(1 << b for b in self.seq[:k]), flag)
        r_idx = np.arange(p.grp.shape[0])
        tiers = p.tier[ctx, grp, box]
        rows = p.rowsel[ctx, 0, r_idx, box]
        up = p.row_up[rows].astype(np.int64)
        mode = p.row_mode[rows].astype(np.int64)
        points = up + p.cval[ctx, 0, r_idx, box].astype(np.int64)
        # A throw the box cannot take (never happens in the catalogue) is crossed out instead.
        never = tiers >= (1 << 20)
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
        from pasch.bots._multi import _dice_tables

        p = self.p
        rules = p.rules
        trans, rsub, valid, empty = _dice_tables(rules.dice, rules.faces)
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
                    best_keep = np.where(valid[None], e[:, rsub], _NEG).max(axis=2)
                    reach = np.maximum(end, best_keep)
                w[k, :n_f, :n_u, s] = (reach @ first).reshape(n_f, n_u)
                w[k, n_f:, :, s] = w[k, :1, :, s]
                w[k, :, n_u:, s] = w[k, :, :1, s]
        return w

    def value(self, k: int, flag: int, upper: int, s: int) -> float:
        return float(self.values[k, flag, min(upper, self.p.threshold), min(max(s, 0), self.max_slack)])


def _cache_path(rules_id: str, order: Order, max_slack: int) -> Any:
    from pasch.solver._table import cache_dir

    digest = hashlib.sha256(f"{rules_id}\n{order.value}\n{max_slack}\n{VERSION}".encode()).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in rules_id)[:60]
    return cache_dir() / f"slack-{safe}-{order.value}-v{VERSION}-{digest}.npy"


def load_slack(col: _Column, order: Order, max_slack: int, rules_id: str) -> SlackColumn:
    """The slack table of a fixed-order column, from the cache or built (seconds) and stored."""
    path = _cache_path(rules_id, order, max_slack)
    meta_path = path.with_suffix(".json")
    p = col.p
    shape = [p.n_boxes + 1, p.n_flags, p.lanes, max_slack + 1]
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("shape") == shape and meta.get("rules") == rules_id:
            values = np.load(path, allow_pickle=False)
            if list(values.shape) == shape:
                return SlackColumn(col, order, max_slack, values)
    except (OSError, ValueError, json.JSONDecodeError):
        pass
    slack = SlackColumn(col, order, max_slack)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.save(fh, slack.values, allow_pickle=False)
        os.replace(tmp, path)
        meta_path.write_text(json.dumps({"rules": rules_id, "shape": shape}), encoding="utf-8")
    except OSError:
        pass
    return slack
