# ruff: noqa: N803, N806  (A, T, L: the names of the tables and lanes in the other kernels)
# mypy: allow-untyped-defs
"""Threshold tables: the probability of scoring at least ``t`` more points, under the policy maximising it.

Private. ``theta[state, t]`` for every reachable turn-start state (``sidx[mask, flag, upper]`` gives
its row) and every ``t`` below the table's width; ``theta[state, 0] = 1``, and needs at or beyond the
width count as unreachable. Here the lanes are the points still needed, not the upper totals: one turn
is solved for every ``t`` at once with the shared pieces of ``_kparts`` (:func:`_turn` and
:func:`_expect` are the same mean-and-maximum over lanes), only the entries differ: an entry paying
``g`` points reads the next state's row shifted by ``g``.

``theta`` is float32 while it is built and may be read as uint16 (``scale = 1 / 65535``) once stored.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import _expect, _legal, _turn


@njit(cache=True, nogil=True)
def _tstops(theta, scale, sidx, mask, flag, u, t0, L, legal, nlegal, ctxg, T, stop):
    """``stop[s, r, j]``: the best entry of throw ``r`` for reaching ``t0 + j`` more points.

    Args:
        theta: the threshold table ``[state, t]`` (later layers filled in).
        scale: what one unit of ``theta`` is worth (1 for float tables, 1 / 65535 for uint16).
        sidx: ``[mask, flag, upper]`` the row of each state in ``theta`` (-1: none).
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        t0: points needed in lane 0.
        L: lanes to fill.
        legal: legal boxes per group (from :func:`_legal`).
        nlegal: how many legal boxes each group has.
        ctxg: each group's scoring context.
        T: the rule set's tables.
        stop: output ``[sharp, roll, lane]``.
    """
    grp, rowsel, total = T.grp, T.rowsel, T.total
    row_box, row_up, row_mode = T.row_box, T.row_up, T.row_mode
    thr = T.thr
    n_flags = T.n_flags
    width = theta.shape[1]
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            out = stop[s, r]
            for j in range(L):
                out[j] = 0.0
            for q in range(nlegal[g]):
                i = legal[g, q]
                row = rowsel[c, s, r, i]
                p = row_up[row]
                gain = total[c, s, r, i]
                if u < thr <= u + p:
                    gain += T.ibonus
                nm = mask | (1 << row_box[row])
                mode = row_mode[row]
                nf = flag if mode == 0 else mode - 1
                if n_flags == 1:
                    nf = 0
                nu = min(u + p, thr)
                src = theta[sidx[nm, nf, nu]]
                # lane j needs t0 + j - gain more points from the next state
                done = gain - t0 + 1  # lanes below this are reached already
                if done > L:
                    done = L
                for j in range(max(done, 0)):
                    out[j] = 1.0
                hi = width + gain - t0
                if hi > L:
                    hi = L
                off = t0 - gain
                for j in range(max(done, 0), hi):
                    v = src[j + off] * scale
                    if v > out[j]:
                        out[j] = v


@njit(cache=True, nogil=True)
def _target_layer(theta, sidx, keys, lo, hi_end, T, th, n_threads):
    """Fill the rows of the states ``keys[lo:hi_end]`` (one layer), every ``n_threads``-th from ``th``.

    Args:
        theta: the float threshold table; the layer's rows are written.
        sidx: the row of each state.
        keys: state keys ``(mask * n_flags + flag) * lanes + upper``, layer by layer.
        lo: first state of the layer in ``keys``.
        hi_end: end of the layer in ``keys``.
        T: the rule set's tables (in ``theta``'s dtype).
        th: this call's share.
        n_threads: calls sharing the layer.
    """
    n = T.tier.shape[2]
    W = sidx.shape[2]
    n_flags = sidx.shape[1]
    L = theta.shape[1]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    stop = np.empty((T.n_sharp, n_rolls, L), theta.dtype)
    A = np.empty((T.keep_add.shape[0], L), theta.dtype)
    Sv = np.empty((n_rolls, L), theta.dtype)
    tmp = np.empty((1, L), theta.dtype)
    acc = np.empty(L, np.float64)
    save = np.empty((0, 1, 1), theta.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    y_box = T.y_box
    for q in range(lo + th, hi_end, n_threads):
        key = keys[q]
        u = key % W
        mf = key // W
        mask = mf // n_flags
        flag = mf % n_flags
        y_filled = y_box >= 0 and (mask >> y_box) & 1
        yclass = 0 if not y_filled else 1 + flag
        _legal(mask, yclass, T, legal, nlegal, ctxg)
        _tstops(theta, 1.0, sidx, mask, flag, u, 0, L, legal, nlegal, ctxg, T, stop)
        _turn(stop, A, Sv, tmp, L, T.stages, T, save)
        _expect(A, Sv, stop, L, T.stages, T, acc)
        dst = theta[sidx[mask, flag, u]]
        dst[0] = 1.0
        for j in range(1, L):
            v = acc[j]
            dst[j] = 1.0 if v > 1.0 else v


@njit(cache=True, nogil=True)
def _target_options(theta, scale, sidx, mask, flag, u, need, L, roll, rolls_left, sharp, T, box_out, keep_out):
    """P(reaching ``need + j`` more points) of every option of one situation, under the best play after it.

    Args:
        theta: the threshold table (float or uint16).
        scale: what one unit of ``theta`` is worth.
        sidx: the row of each state.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        need: points still needed in lane 0.
        L: lanes (needs ``need .. need + L - 1``).
        roll: the throw on the table.
        rolls_left: rolls left in the turn.
        sharp: whether the throw is sharp (``+sharp``).
        T: the rule set's tables (float64).
        box_out: output ``[box, lane]`` (NaN where not legal).
        keep_out: output ``[keep, lane]`` (NaN where not an option).
    """
    n = T.tier.shape[2]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    stop = np.empty((T.n_sharp, n_rolls, L), np.float64)
    A = np.empty((n_keeps, L), np.float64)
    Sv = np.empty((n_rolls, L), np.float64)
    tmp = np.empty((1, L), np.float64)
    save = np.empty((max(rolls_left, 1), n_keeps, L), np.float64)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    y_box = T.y_box
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _legal(mask, yclass, T, legal, nlegal, ctxg)
    s = 1 if sharp and T.n_sharp == 2 else 0
    box_out[:] = np.nan
    keep_out[:] = np.nan
    # each legal box of this throw, alone
    g = T.grp[roll]
    one = np.empty((T.n_sharp, n_rolls, L), np.float64)
    lg = np.empty((n_groups, n), np.int32)
    nl = np.zeros(n_groups, np.int32)
    for q in range(nlegal[g]):
        i = legal[g, q]
        nl[g] = 1
        lg[g, 0] = i
        _tstops(theta, scale, sidx, mask, flag, u, need, L, lg, nl, ctxg, T, one)
        for j in range(L):
            box_out[i, j] = one[s, roll, j]
    if rolls_left > 0:
        _tstops(theta, scale, sidx, mask, flag, u, need, L, legal, nlegal, ctxg, T, stop)
        _turn(stop, A, Sv, tmp, L, rolls_left, T, save)
        for q in range(T.n_rsub[roll]):
            k = T.rsub[roll, q]
            for j in range(L):
                keep_out[k, j] = save[rolls_left - 1, k, j]
