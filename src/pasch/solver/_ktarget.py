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

from pasch.solver._kparts import _decide, _expect, _legal, _max_into, _rebase, _rows, _stops, _turn


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
    width = theta.shape[1]
    # each next-state row once: the table row it reads and the bonus it pays
    n_rows = row_box.shape[0]
    src_of = np.empty(n_rows, np.int64)
    bonus_of = np.empty(n_rows, np.int64)
    for row in range(n_rows):
        box = row_box[row]
        if (mask >> box) & 1:
            src_of[row] = -1
            continue
        p = row_up[row]
        mode = row_mode[row]
        nf = flag if mode == 0 else mode - 1
        if T.n_flags == 1:
            nf = 0
        src_of[row] = sidx[mask | (1 << box), nf, min(u + p, thr)]
        bonus_of[row] = T.ibonus if u < thr <= u + p else 0
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
                gain = total[c, s, r, i] + bonus_of[row]
                src = theta[src_of[row]]
                # lane j needs t0 + j - gain more points from the next state
                done = gain - t0 + 1  # lanes below this are reached already
                if done > L:
                    done = L
                for j in range(max(done, 0)):
                    out[j] = 1.0
                hi = width + gain - t0
                if hi > L:
                    hi = L
                j1 = max(done, 0)
                if hi <= j1:
                    continue
                # slices, so that the loops start at 0 (Numba's negative-index handling would keep
                # them scalar), and vector maxima of probabilities (never negative)
                off = t0 - gain
                a = src[j1 + off : hi + off]
                b = out[j1:hi]
                if scale == 1.0:
                    _max_into(a, b)
                else:
                    for j in range(hi - j1):
                        v = a[j] * scale
                        o = b[j]
                        b[j] = v if v > o else o


@njit(cache=True, inline="always")
def _entry(T, sidx, mask, flag, u, c, s, r, i):
    """``(points, row)``: what entering throw ``r`` in box ``i`` pays (bonus included) and the next state's row.

    Args:
        T: the rule set's tables.
        sidx: the row of each state.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        c: the throw's scoring context.
        s: 1 for a sharp throw (``+sharp``), else 0.
        r: the throw.
        i: the box.
    """
    row = T.rowsel[c, s, r, i]
    p = T.row_up[row]
    gain = T.total[c, s, r, i]
    if u < T.thr <= u + p:
        gain += T.ibonus
    mode = T.row_mode[row]
    nf = flag if mode == 0 else mode - 1
    if T.n_flags == 1:
        nf = 0
    return gain, sidx[mask | (1 << T.row_box[row]), nf, min(u + p, T.thr)]


@njit(cache=True, inline="always")
def _open_state(key, W, n_flags, T, legal, nlegal, ctxg):
    """``(mask, flag, upper)`` of a state key, its legal boxes written to ``legal``/``nlegal``/``ctxg``.

    Args:
        key: the state key ``(mask * n_flags + flag) * W + upper``.
        W: upper totals per (mask, flag).
        n_flags: flags per mask.
        T: the rule set's tables.
        legal: output: legal boxes per group (from :func:`_legal`).
        nlegal: output: how many legal boxes each group has.
        ctxg: output: each group's scoring context.
    """
    u = key % W
    mf = key // W
    mask = mf // n_flags
    flag = mf % n_flags
    y_filled = T.y_box >= 0 and (mask >> T.y_box) & 1
    _legal(mask, 0 if not y_filled else 1 + flag, T, legal, nlegal, ctxg)
    return mask, flag, u


@njit(cache=True, inline="always")
def _store_lanes(acc, dst, j0, n, eps, last):
    """``dst[j0 + j] = acc[j]`` for ``j < n``, at most 1 and 0 below ``eps``; the new end of the row's live lanes.

    Args:
        acc: the lanes solved.
        dst: the state's row.
        j0: the row's lane of ``acc[0]``.
        n: lanes to store.
        eps: probabilities below it are stored as 0.
        last: one past the last live lane so far.
    """
    for j in range(n):
        v = acc[j]
        if v > 1.0:
            v = 1.0
        if v < eps:
            v = 0.0
        else:
            last = j0 + j + 1
        dst[j0 + j] = v
    return last


@njit(cache=True, nogil=True)
def _reach(wid, sidx, mask, flag, u, L, legal, nlegal, ctxg, T):
    """One past the last lane a state can need: the greatest ``gain + wid[next]`` over its entries, at most ``L``.

    Args:
        wid: per state row, one past its last lane above :data:`EPS` (later layers filled in).
        sidx: the row of each state.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        L: the table's width.
        legal: legal boxes per group (from :func:`_legal`).
        nlegal: how many legal boxes each group has.
        ctxg: each group's scoring context.
        T: the rule set's tables.
    """
    top = 1
    for s in range(T.n_sharp):
        for r in range(T.grp.shape[0]):
            g = T.grp[r]
            c = ctxg[g]
            for q in range(nlegal[g]):
                gain, nxt = _entry(T, sidx, mask, flag, u, c, s, r, legal[g, q])
                hi = gain + wid[nxt]
                if hi > top:
                    top = hi
                    if top >= L:
                        return L
    return top


@njit(cache=True, nogil=True)
def _target_layer(theta, wid, sidx, keys, lo, hi_end, B, eps, T, th, n_threads):
    """Fill the rows of the states ``keys[lo:hi_end]`` (one layer), every ``n_threads``-th from ``th``.

    A row is solved ``B`` lanes at a time (the turn's working set of a block stays in the core's cache:
    all 512 lanes at once spill it), and only up to the lane its entries can reach: values below ``eps``
    are stored as 0, so a row ends where its successors' rows end (``wid``), shifted by the entry's points.

    Args:
        theta: the float threshold table; the layer's rows are written.
        wid: per state row, one past its last lane above ``eps``; the layer's entries are written.
        sidx: the row of each state.
        keys: state keys ``(mask * n_flags + flag) * lanes + upper``, layer by layer.
        lo: first state of the layer in ``keys``.
        hi_end: end of the layer in ``keys``.
        B: lanes per block.
        eps: probabilities below it are stored as 0 (their error stays below ``layers * eps``).
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
    stop = np.empty((T.n_sharp, n_rolls, B), theta.dtype)
    A = np.empty((T.keep_add.shape[0], B), theta.dtype)
    M = np.empty((T.n_small, B), theta.dtype)
    Sv = np.empty((n_rolls, B), theta.dtype)
    acc = np.empty(B, np.float64)
    save = np.empty((0, 1, 1), theta.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    for q in range(lo + th, hi_end, n_threads):
        mask, flag, u = _open_state(keys[q], W, n_flags, T, legal, nlegal, ctxg)
        top = _reach(wid, sidx, mask, flag, u, L, legal, nlegal, ctxg, T)
        row = sidx[mask, flag, u]
        dst = theta[row]
        last = 1
        for j0 in range(0, top, B):
            Lb = min(B, top - j0)
            _tstops(theta, 1.0, sidx, mask, flag, u, j0, Lb, legal, nlegal, ctxg, T, stop)
            _turn(stop, A, M, Sv, Lb, T.stages, T, save)
            _expect(A, Sv, stop, Lb, T.stages, T, acc)
            last = _store_lanes(acc, dst, j0, Lb, eps, last)
        for j in range(top, L):
            dst[j] = 0.0
        dst[0] = 1.0
        wid[row] = last


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
    M = np.empty((T.n_small, L), np.float64)
    Sv = np.empty((n_rolls, L), np.float64)
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
        _turn(stop, A, M, Sv, L, rolls_left, T, save)
        for q in range(T.n_rsub[roll]):
            k = T.rsub[roll, q]
            for j in range(L):
                keep_out[k, j] = save[rolls_left - 1, k, j]


@njit(cache=True, nogil=True)
def _box_row(theta, sidx, mask, flag, u, s, r, c, i, L, T, out):
    """``out[j]``: P(at least ``j`` more points) after entering throw ``r`` in box ``i`` (lanes from 0).

    Args:
        theta: the table being built (later layers filled in).
        sidx: the row of each state.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        s: 1 for a sharp throw (``+sharp``), else 0.
        r: the throw.
        c: the throw's scoring context.
        i: the box.
        L: lanes.
        T: the rule set's tables.
        out: output lanes.
    """
    gain, nxt = _entry(T, sidx, mask, flag, u, c, s, r, i)
    src = theta[nxt]
    # lanes up to ``gain`` are reached; lane j > gain reads src[j - gain] (loops from 0: vector code)
    k = min(gain + 1, L)
    for j in range(k):
        out[j] = 1.0
    if k < L:
        a = src[1 : L - gain]
        b = out[k:L]
        for j in range(b.shape[0]):
            b[j] = a[j]


@njit(cache=True, nogil=True)
def _survive_layer(V, theta, wid, sidx, keys, lo, hi_end, eps, T, th, n_threads):
    """Fill P(at least ``t`` more points) under the expected-score-optimal policy for one layer's states.

    The decisions are those of :func:`~pasch.solver._kparts._decide` on the value table ``V`` (the
    policy of ``best``, the simulation and the distributions); only the lanes differ from the threshold
    table: each throw's lanes are those of the option that policy takes, not the best per lane.

    Args:
        V: the value table (expected further scores) in the tables' dtype.
        theta: the survival table ``[state, t]``; the layer's rows are written.
        wid: per state row, one past its last lane above ``eps``; the layer's entries are written.
        sidx: the row of each state.
        keys: state keys, layer by layer.
        lo: first state of the layer in ``keys``.
        hi_end: end of the layer in ``keys``.
        eps: probabilities below it are stored as 0 (a row ends early, as in :func:`_target_layer`).
        T: the rule set's tables (in ``V``'s dtype).
        th: this call's share.
        n_threads: calls sharing the layer.
    """
    n = T.tier.shape[2]
    W = sidx.shape[2]
    n_flags = sidx.shape[1]
    L = theta.shape[1]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    n_small = T.n_small
    stages = T.stages
    n_sharp = T.n_sharp
    faces = T.keep_add.shape[1]
    X = np.empty((T.row_box.shape[0], 1), V.dtype)
    stop = np.empty((n_sharp, n_rolls, 1), V.dtype)
    A = np.empty((n_keeps, 1), V.dtype)
    M = np.empty((T.n_small, 1), V.dtype)
    Sv = np.empty((n_rolls, 1), V.dtype)
    base = np.empty(1, V.dtype)
    save = np.empty((max(stages, 1), n_keeps, 1), V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    legal_row = np.empty(n, np.int32)
    B = np.empty((n_sharp, n_rolls, L), np.float64)  # lanes of the policy's box for each throw
    box_of = np.empty((n_sharp, n_rolls), np.int64)
    H = np.empty((n_sharp, n_rolls, L), np.float64)  # lanes of each throw at this stage
    K = np.empty((n_keeps, L), np.float64)  # lanes of each keep (throwing with the stage's rolls left)
    acc = np.empty(L, np.float64)
    inv = 1.0 / faces
    for q in range(lo + th, hi_end, n_threads):
        mask, flag, u = _open_state(keys[q], W, n_flags, T, legal, nlegal, ctxg)
        Lt = _reach(wid, sidx, mask, flag, u, L, legal, nlegal, ctxg, T)
        _rows(V, mask, flag, np.int64(u), 1, T, X)
        _rebase(X, 1, mask, T, base)
        _stops(X, 1, legal, nlegal, ctxg, T, stop)
        _turn(stop, A, M, Sv, 1, stages, T, save)
        for s in range(n_sharp):
            for r in range(n_rolls):
                box, _k, _v, c = _decide(
                    X, save, 0, mask, flag, r, 0, s, T.tier, T.rowsel, T.cval, T.grp, T.y_box,
                    T.group_match, T.rsub, T.n_rsub, legal_row,
                )  # fmt: skip
                box_of[s, r] = box
                _box_row(theta, sidx, mask, flag, u, s, r, c, box, Lt, T, B[s, r])
        for t in range(stages + 1):
            for s in range(n_sharp):
                for r in range(n_rolls):
                    keep = -1
                    if t > 0:
                        _b, keep, _v, _c = _decide(
                            X, save, 0, mask, flag, r, t, s, T.tier, T.rowsel, T.cval, T.grp, T.y_box,
                            T.group_match, T.rsub, T.n_rsub, legal_row,
                        )  # fmt: skip
                    src = B[s, r] if keep < 0 else K[keep]
                    dst = H[s, r]
                    for j in range(Lt):
                        dst[j] = src[j]
            if t == stages:
                break
            for r in range(n_rolls):
                for j in range(Lt):
                    K[n_small + r, j] = H[0, r, j]
            for k in range(n_small - 1, -1, -1):
                a = K[k]
                if k == 0 and n_sharp == 2:
                    for j in range(Lt):
                        a[j] = 0.0
                    for r in range(n_rolls):
                        pr = T.prob64[r]
                        h = H[1, r]
                        for j in range(Lt):
                            a[j] += pr * h[j]
                else:
                    for j in range(Lt):
                        a[j] = 0.0
                    for f in range(faces):
                        b = K[T.keep_add[k, f]]
                        for j in range(Lt):
                            a[j] += b[j]
                    for j in range(Lt):
                        a[j] *= inv
        s0 = 1 if n_sharp == 2 else 0
        for j in range(Lt):
            acc[j] = 0.0
        for r in range(n_rolls):
            pr = T.prob64[r]
            h = H[s0, r]
            for j in range(Lt):
                acc[j] += pr * h[j]
        row = sidx[mask, flag, u]
        dst = theta[row]
        last = _store_lanes(acc[1:], dst, 1, Lt - 1, eps, 1)
        for j in range(Lt, L):
            dst[j] = 0.0
        dst[0] = 1.0
        wid[row] = last
