# ruff: noqa: N803  (V: the value table, as in the kernels)
"""Every option's value in one situation, in plain numpy: the first answer that needs no compiling.

Private. :func:`option_values` computes what the Numba kernel ``_kone._option_values`` computes, with the
same float operations in the same order: the same bits (the tests compare them). The solver uses it until
that kernel is compiled in the process, so a first ``pasch advise`` needs no compiling; a one-lane question
is small, so numpy's per-call overhead does not matter to a player. Vectorised by keep size: in a keep
stage a keep of ``d`` dice reads only keeps of ``d + 1`` dice (the mean over the faces) or ``d - 1`` dice
(the running maximum), so all keeps of one size are computed together, in the order the kernel's loops
reach them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pasch.solver._prep import Tables

__all__ = ["option_values"]

NEG = -1.0e30
"""The kernels' value of an impossible entry."""

Array = npt.NDArray[Any]


class _Levels(NamedTuple):
    """Keeps of fewer dice than a throw, by size, with their neighbours in index arrays."""

    down: list[tuple[Array, Array]]  # sizes n-1 .. 0: (keeps, keep_add[keeps]) for the mean stage
    up: list[tuple[Array, Array]]  # sizes 1 .. n-1: (keeps, padded sub-keeps) for the maximum
    full_subs: Array  # per throw: its sub-keeps of n - 1 dice, padded with the first


_LEVELS: dict[int, tuple[Tables, _Levels]] = {}


def _padded(subs: Array, n_sub: Array, rows: Array) -> Array:
    """``subs[rows]`` with the unused entries repeating the first (a maximum is unchanged by repeats)."""
    out = subs[rows].astype(np.int64)
    width = out.shape[1]
    used = np.arange(width)[None, :] < n_sub[rows][:, None]
    return np.where(used, out, out[:, :1])


def _levels(t: Tables) -> _Levels:
    got = _LEVELS.get(id(t))
    if got is not None and got[0] is t:
        return got[1]
    n_small = int(t.n_small)
    size = t.keep_counts[:n_small].sum(axis=1)
    n_dice = int(t.n_dice)
    ka = t.keep_add.astype(np.int64)
    down = []
    for d in range(n_dice - 1, -1, -1):
        ks = np.flatnonzero(size == d)
        down.append((ks, ka[ks]))
    up = []
    for d in range(1, n_dice):
        ks = np.flatnonzero(size == d)
        up.append((ks, _padded(t.subs, t.n_sub, ks)))
    full = np.arange(n_small, t.keep_add.shape[0])
    levels = _Levels(down, up, _padded(t.subs, t.n_sub, full))
    _LEVELS[id(t)] = (t, levels)
    return levels


def _rows(V: Array, mask: int, flag: int, u: int, t: Tables) -> Array:
    """Next-state value of each row (NaN for rows of filled boxes), as ``_kparts._rows`` with one lane."""
    dt = V.dtype
    x = np.full(t.row_box.shape[0], np.nan, dt)
    thr = int(t.thr)
    bonus = float(t.bonus)
    for row in range(t.row_box.shape[0]):
        b = int(t.row_box[row])
        if (mask >> b) & 1:
            continue
        mode = int(t.row_mode[row])
        nf = flag if mode == 0 else mode - 1
        if t.n_flags == 1:
            nf = 0
        p = int(t.row_up[row])
        src = V[mask | (1 << b), nf]
        # The kernel adds the int32 points in float64 and stores the sum in the table's dtype.
        if p == 0:
            x[row] = src[u]
        elif u + p < thr:
            x[row] = dt.type(float(src[u + p]) + p)
        else:
            x[row] = dt.type(float(src[thr]) + p + (bonus if u < thr else 0.0))
    return x


def _legal(mask: int, yclass: int, t: Tables) -> tuple[list[Array], Array]:
    """Legal boxes of each throw group and each group's context, as ``_kparts._legal``."""
    n = t.tier.shape[2]
    open_ = np.array([not (mask >> i) & 1 for i in range(n)])
    legal: list[Array] = []
    ctxg = np.empty(t.group_match.shape[0], np.int64)
    for g in range(t.group_match.shape[0]):
        mt = int(t.group_match[g])
        c = yclass * 2 + (1 if mt >= 0 and (mask >> mt) & 1 else 0)
        ctxg[g] = c
        tiers = t.tier[c, g]
        best = tiers[open_].min()
        legal.append(np.flatnonzero(open_ & (tiers == best)))
    return legal, ctxg


def _stops(x: Array, legal: list[Array], ctxg: Array, t: Tables) -> Array:
    """``stop[s, r]``: the best entry of each throw, as ``_kparts._stops`` with one lane."""
    dt = x.dtype
    n_sharp, n_rolls = int(t.n_sharp), t.grp.shape[0]
    n = t.tier.shape[2]
    grp = t.grp.astype(np.int64)
    ctx = ctxg[grp]  # per throw
    is_legal = np.zeros((ctxg.shape[0], n), bool)
    for g, boxes in enumerate(legal):
        is_legal[g, boxes] = True
    r_idx = np.arange(n_rolls)
    stop = np.empty((n_sharp, n_rolls), dt)
    neg = dt.type(NEG)
    m0 = neg
    for i in legal[0]:
        v = x[t.zrow[i]]
        if v > m0:
            m0 = v
    for s in range(n_sharp):
        rows = t.rowsel[ctx, s, r_idx]  # [roll, box]
        cand = x[np.where(rows >= 0, rows, 0)] + t.cval[ctx, s, r_idx]
        ok = is_legal[grp]
        # Throws that are not all alike: the zero rows of the legal boxes, then the boxes they pay.
        nz_ok = np.zeros((n_rolls, n), bool)
        width = t.nz.shape[2]
        q = np.arange(width)[None, :] < t.n_nz[s][:, None]
        rr = np.broadcast_to(r_idx[:, None], (n_rolls, width))
        nz_ok[rr[q], t.nz[s][q]] = True
        plain = grp == 0
        ok = np.where(plain[:, None], ok & nz_ok, ok)
        best = np.where(ok, cand, neg).max(axis=1)
        stop[s] = np.where(plain, np.maximum(best, m0), best)
    return stop


def _turn(stop: Array, stages: int, t: Tables) -> Array:
    """``save[t, keep]``: each keep's value with ``t`` rolls left after it, as ``_kparts._turn``."""
    lv = _levels(t)
    dt = stop.dtype
    n_small = int(t.n_small)
    n_keeps = t.keep_add.shape[0]
    sharp = stop.shape[0] == 2
    inv = dt.type(t.inv_faces)
    prob = np.asarray(t.prob, dt)
    a = np.empty(n_keeps, dt)
    a[n_small:] = stop[0]
    sv = stop[1].copy() if sharp else None
    save = np.empty((stages, n_keeps), dt)
    for st in range(stages):
        for ks, adds in lv.down:
            acc = a[adds[:, 0]]
            for f in range(1, adds.shape[1]):
                acc = acc + a[adds[:, f]]
            a[ks] = acc * inv
        if sv is not None:
            a[0] = np.add.accumulate(prob * sv)[-1]  # the kernel's running sum, in its order
        save[st] = a
        if st == stages - 1:
            break  # only the saved keep values are read
        for ks, subs in lv.up:
            a[ks] = np.maximum(a[subs].max(axis=1), a[ks])
        m = a[lv.full_subs].max(axis=1)
        a[n_small:] = np.where(stop[0] > m, stop[0], m)
        if sv is not None:
            sv = np.where(stop[1] > m, stop[1], m)
    return save


def option_values(
    V: Array, mask: int, flag: int, u: int, roll: int, rolls_left: int, sharp: bool, t: Tables
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Every option's value in one situation: per box (NaN: not legal) and per keep (NaN: no roll left).

    The arguments mean what they mean to ``_kone._option_values``; the result is the same, bit for bit.

    Args:
        V: the value table.
        mask: filled-box mask.
        flag: all-alike flag.
        u: capped upper total.
        roll: index of the throw on the table.
        rolls_left: rolls left in the turn.
        sharp: the throw came from all dice at once (``+sharp``).
        t: the rule set's tables in ``V``'s dtype.
    """
    y_filled = t.y_box >= 0 and (mask >> t.y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    x = _rows(V, mask, flag, u, t)
    open_rows = ~np.isnan(x)
    base = x[np.flatnonzero(open_rows)[0]]
    x = np.where(open_rows, x - base, x)
    legal, ctxg = _legal(mask, yclass, t)
    b = np.float64(base)
    s = 1 if sharp and t.n_sharp == 2 else 0
    g = int(t.grp[roll])
    c = int(ctxg[g])
    boxes = np.full(t.tier.shape[2], np.nan)
    for i in legal[g]:
        boxes[i] = np.float64(x[t.rowsel[c, s, roll, i]] + t.cval[c, s, roll, i]) + b
    keeps = np.full(t.keep_add.shape[0], np.nan)
    if rolls_left > 0:
        save = _turn(_stops(x, legal, ctxg, t), rolls_left, t)
        keeps = save[rolls_left - 1].astype(np.float64) + b
    return boxes, keeps
