# ruff: noqa: N803, N806  (V, X, A, T, W: the names of the tables and lanes in the other kernels)
# mypy: allow-untyped-defs
"""Exact score distributions under the expected-score-optimal policy: a forward propagation.

Private. The mass of (turn-start state, points scored since the start) is carried layer by layer
(one box filled per turn). Each state's mass is a window ``[lo, lo + len)`` of points in one pool per
layer, so memory follows the points actually reachable, not the largest score of the rule set.

One turn of one state is turned into its *outcomes*: the probability of ending the turn in each
next-state row with each number of points gained, following the decisions of the optimal policy
(:func:`pasch.solver._kparts._decide`, the same choice as the simulation and ``best``: the first
box in sheet order on ties, then the smallest keep). The turn is solved for every upper total of a
(mask, flag) at once, as in the table build.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import _decide, _legal, _rebase, _rows, _stops, _turn


@njit(cache=True, nogil=True)
def _solve_turn(V, mask, flag, T, X, stop, A, M, Sv, base, save, legal, nlegal, ctxg):
    """Solve one turn of ``(mask, flag)`` for every upper total: fills ``X`` (rebased) and ``save``.

    Args:
        V: the value table.
        mask: filled-box mask.
        flag: the all-alike flag.
        T: the rule set's tables.
        X: output next-state rows ``[row, upper]``.
        stop: scratch ``[sharp, roll, upper]``.
        A: scratch ``[keep, upper]``.
        M: scratch ``[keep, upper]`` (see :func:`~pasch.solver._kparts._turn`).
        Sv: scratch ``[roll, upper]``.
        base: scratch ``[upper]``.
        save: output keep values ``[t, keep, upper]``.
        legal: scratch ``[group, box]``.
        nlegal: scratch ``[group]``.
        ctxg: scratch ``[group]``.
    """
    W = V.shape[2]
    y_box = T.y_box
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _legal(mask, yclass, T, legal, nlegal, ctxg)
    _rows(V, mask, flag, np.int64(0), W, T, X)
    _rebase(X, W, mask, T, base)
    _stops(X, W, legal, nlegal, ctxg, T, stop)
    _turn(stop, A, M, Sv, W, T.stages, T, save)


@njit(cache=True, nogil=True)
def _outcomes(X, save, mask, flag, u, T, cur, km, acc, keys, legal_row, o_row, o_gain, o_p):
    """The outcomes of one turn from ``(mask, flag, u)`` under the optimal policy; returns how many.

    Args:
        X: next-state rows from :func:`_solve_turn` (lane ``u``).
        save: keep values from :func:`_solve_turn`.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total (the lane).
        T: the rule set's tables.
        cur: scratch ``[sharp, roll]`` (float64): mass of each throw on the table.
        km: scratch ``[keep]`` (float64): mass of each keep.
        acc: scratch ``[row * gains + gain]`` (float64, all zero; left all zero).
        keys: scratch of ``acc``'s size (int64).
        legal_row: scratch of one entry per box.
        o_row: output: next-state row of each outcome.
        o_gain: output: points gained (box, extra points and the bonus) of each outcome.
        o_p: output: probability of each outcome.
    """
    tier, rowsel, cval, grp, y_box = T.tier, T.rowsel, T.cval, T.grp, T.y_box
    group_match, rsub, n_rsub, n_sharp = T.group_match, T.rsub, T.n_rsub, T.n_sharp
    row_up, total, prob, keep_add = T.row_up, T.total, T.prob64, T.keep_add
    thr = T.thr
    n_small = T.n_small
    n_rolls = prob.shape[0]
    n_keeps = keep_add.shape[0]
    faces = keep_add.shape[1]
    gains = acc.shape[0] // row_up.shape[0]
    n_keys = 0
    for s in range(cur.shape[0]):
        for r in range(n_rolls):
            cur[s, r] = 0.0
    s0 = 1 if n_sharp == 2 else 0
    for r in range(n_rolls):
        cur[s0, r] = prob[r]
    for t in range(T.stages, -1, -1):
        for k in range(n_keeps):
            km[k] = 0.0
        for s in range(n_sharp):
            for r in range(n_rolls):
                m = cur[s, r]
                if m == 0.0:
                    continue
                box, keep, _v, c = _decide(
                    X, save, u, mask, flag, r, t, s,
                    tier, rowsel, cval, grp, y_box, group_match, rsub, n_rsub, legal_row,
                )  # fmt: skip
                if box >= 0:
                    row = rowsel[c, s, r, box]
                    p = row_up[row]
                    g = total[c, s, r, box]
                    if u < thr <= u + p:
                        g += T.ibonus
                    key = row * gains + g
                    if acc[key] == 0.0:
                        keys[n_keys] = key
                        n_keys += 1
                    acc[key] += m
                else:
                    km[keep] += m
        if t == 0:
            break
        for s in range(cur.shape[0]):
            for r in range(n_rolls):
                cur[s, r] = 0.0
        for k in range(n_small):  # a keep's one-more-die keeps have larger indices
            m = km[k]
            if m == 0.0:
                continue
            if k == 0 and n_sharp == 2:  # throwing every die again: a sharp throw
                for r in range(n_rolls):
                    cur[1, r] += m * prob[r]
            else:
                m = m / faces
                for f in range(faces):
                    km[keep_add[k, f]] += m
        for r in range(n_rolls):
            cur[0, r] += km[n_small + r]
    for q in range(n_keys):
        key = keys[q]
        o_row[q] = key // gains
        o_gain[q] = key % gains
        o_p[q] = acc[key]
        acc[key] = 0.0
    return n_keys


@njit(cache=True, nogil=True)
def _forward(V, T, mask0, flag0, u0, max_gain, out):
    """Distribution of the points still to come from one turn-start state: ``out[s] = P(points = s)``.

    Args:
        V: the value table.
        T: the rule set's tables (in ``V``'s dtype).
        mask0: filled-box mask of the start.
        flag0: the all-alike flag of the start.
        u0: capped upper total of the start.
        max_gain: the most points one turn can gain (bonus included).
        out: output (float64, zeros), long enough for every reachable total.
    """
    n = T.tier.shape[2]
    n_flags = V.shape[1]
    W = V.shape[2]
    thr = T.thr
    row_box, row_up, row_mode = T.row_box, T.row_up, T.row_mode
    n_rows = row_box.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    n_groups = T.group_match.shape[0]
    stages = T.stages
    full = (1 << n) - 1
    if mask0 == full:
        out[0] = 1.0
        return
    X = np.empty((n_rows, W), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls, W), V.dtype)
    A = np.empty((n_keeps, W), V.dtype)
    M = np.empty((T.n_small, W), V.dtype)
    Sv = np.empty((n_rolls, W), V.dtype)
    base = np.empty(W, V.dtype)
    save = np.empty((max(stages, 1), n_keeps, W), V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    legal_row = np.empty(n, np.int32)
    cur = np.empty((2, n_rolls), np.float64)
    km = np.empty(n_keeps, np.float64)
    gains = max_gain + 1
    acc = np.zeros(n_rows * gains, np.float64)
    keys = np.empty(n_rows * gains, np.int64)
    o_row = np.empty(n_rows * gains, np.int64)
    o_gain = np.empty(n_rows * gains, np.int64)
    o_p = np.empty(n_rows * gains, np.float64)
    slot_of = np.full((1 << n) * n_flags * W, -1, np.int64)  # state key -> slot of the next layer

    # the current layer: one slot per state, its window of points in ``pool``
    c_key = np.array([(mask0 * n_flags + flag0) * W + u0], np.int64)
    c_lo = np.zeros(1, np.int64)
    c_len = np.ones(1, np.int64)
    c_off = np.zeros(1, np.int64)
    pool = np.ones(1, np.float64)
    while True:
        n_cur = c_key.shape[0]
        order = np.argsort(c_key)
        # pass 1: the next layer's states and windows
        cap = 1024
        n_key = np.empty(cap, np.int64)
        n_lo = np.empty(cap, np.int64)
        n_hi = np.empty(cap, np.int64)
        n_next = 0
        n_off = np.empty(0, np.int64)
        npool = np.empty(0, np.float64)
        for pass_no in range(2):
            q = 0
            while q < n_cur:
                key = c_key[order[q]]
                mf = key // W
                mask = mf // n_flags
                flag = mf % n_flags
                _solve_turn(V, mask, flag, T, X, stop, A, M, Sv, base, save, legal, nlegal, ctxg)
                while q < n_cur and c_key[order[q]] // W == mf:
                    sl = order[q]
                    u = c_key[sl] % W
                    cnt = _outcomes(X, save, mask, flag, u, T, cur, km, acc, keys, legal_row, o_row, o_gain, o_p)
                    lo = c_lo[sl]
                    ln = c_len[sl]
                    src = c_off[sl]
                    for e in range(cnt):
                        row = o_row[e]
                        g = o_gain[e]
                        nm = mask | (1 << row_box[row])
                        mode = row_mode[row]
                        nf = flag if mode == 0 else mode - 1
                        if n_flags == 1:
                            nf = 0
                        nu = min(u + row_up[row], thr)
                        nkey = (nm * n_flags + nf) * W + nu
                        if pass_no == 0:
                            ns = slot_of[nkey]
                            if ns < 0:
                                if n_next == cap:
                                    cap *= 2
                                    n_key = np.concatenate((n_key, np.empty(cap - n_next, np.int64)))
                                    n_lo = np.concatenate((n_lo, np.empty(cap - n_next, np.int64)))
                                    n_hi = np.concatenate((n_hi, np.empty(cap - n_next, np.int64)))
                                ns = n_next
                                n_next += 1
                                slot_of[nkey] = ns
                                n_key[ns] = nkey
                                n_lo[ns] = lo + g
                                n_hi[ns] = lo + ln + g
                            else:
                                n_lo[ns] = min(n_lo[ns], lo + g)
                                n_hi[ns] = max(n_hi[ns], lo + ln + g)
                        else:
                            ns = slot_of[nkey]
                            pe = o_p[e]
                            dst = n_off[ns] + lo + g - n_lo[ns]
                            for i in range(ln):
                                npool[dst + i] += pe * pool[src + i]
                    q += 1
            if pass_no == 0:
                n_off = np.empty(n_next, np.int64)
                size = 0
                for s in range(n_next):
                    n_off[s] = size
                    size += n_hi[s] - n_lo[s]
                npool = np.zeros(size, np.float64)
        for s in range(n_next):
            slot_of[n_key[s]] = -1
        c_key = n_key[:n_next].copy()
        c_lo = n_lo[:n_next].copy()
        c_len = n_hi[:n_next] - n_lo[:n_next]
        c_off = n_off
        pool = npool
        if c_key[0] // W // n_flags == full:  # every state of this layer is the full sheet
            break
    for s in range(c_key.shape[0]):
        for i in range(c_len[s]):
            out[c_lo[s] + i] += pool[c_off[s] + i]
