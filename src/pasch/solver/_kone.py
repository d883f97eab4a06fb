# ruff: noqa: N803, N806  (V, X, A: the names of the tables in the docstrings)
# mypy: allow-untyped-defs
"""Kernels that answer one situation: every option's value, or the best decision.

Private. :func:`_option_values` (``advise``, ``review``, the hints) runs the table build's own
pieces (``_kparts``) with one lane, so a first ``advise`` after a first ``solve`` types none of them
again: linking them takes about half the time compiling scalar copies would.

:func:`_best_one` (:meth:`Solver.best_index`, the single-advice fast path) keeps scalar copies of two
pieces, :func:`_stops1` and :func:`_turn1`: they pay there. ``bench/solver.py``'s single advice took
less than half the time with the scalar copies than with the one-lane pieces (a vector loop of one lane
per keep costs more than the keep's arithmetic).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import NEG, _legal, _rebase, _rows, _stops, _turn


@njit(cache=True, inline="always")
def _stops1(x, legal, nlegal, ctxg, T, stop):
    """One-lane :func:`~pasch.solver._kparts._stops` in scalar code (``x[row]``, ``stop[s, r]``).

    Args:
        x: next-state rows of the one lane.
        legal: legal boxes per group.
        nlegal: how many legal boxes each group has.
        ctxg: each group's scoring context.
        T: the rule set's tables.
        stop: output ``[sharp, roll]``.
    """
    grp, rowsel, cval, zrow, nz, n_nz = T.grp, T.rowsel, T.cval, T.zrow, T.nz, T.n_nz
    bits = 0
    m0 = NEG
    for q in range(nlegal[0]):
        bits |= 1 << legal[0, q]
        v = x[zrow[legal[0, q]]]
        if v > m0:
            m0 = v
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            best = m0 if g == 0 else NEG
            if g == 0:
                for q in range(n_nz[s, r]):
                    i = nz[s, r, q]
                    if (bits >> i) & 1:
                        v = x[rowsel[c, s, r, i]] + cval[c, s, r, i]
                        if v > best:
                            best = v
            else:
                for q in range(nlegal[g]):
                    i = legal[g, q]
                    v = x[rowsel[c, s, r, i]] + cval[c, s, r, i]
                    if v > best:
                        best = v
            stop[s, r] = best


@njit(cache=True, inline="always")
def _turn1(stop, A, Sv, stages, T, save):
    """One-lane :func:`~pasch.solver._kparts._turn` in scalar code; the same operations in the same order.

    Args:
        stop: best entries ``[sharp, roll]``.
        A: scratch and result ``[keep]``.
        Sv: scratch and result ``[roll]`` (``+sharp``).
        stages: keep stages to run.
        T: the rule set's tables.
        save: output ``save[t, keep]``.
    """
    keep_add, subs, n_sub, n_small, prob, inv_faces = T.keep_add, T.subs, T.n_sub, T.n_small, T.prob, T.inv_faces
    sharp = stop.shape[0] == 2
    n_rolls = stop.shape[1]
    n_keeps = A.shape[0]
    faces = keep_add.shape[1]
    for r in range(n_rolls):
        A[n_small + r] = stop[0, r]
        if sharp:
            Sv[r] = stop[1, r]
    for t in range(stages):
        for k in range(n_small - 1, -1, -1):
            if faces == 6:
                A[k] = (
                    A[keep_add[k, 0]] + A[keep_add[k, 1]] + A[keep_add[k, 2]] + A[keep_add[k, 3]]
                    + A[keep_add[k, 4]] + A[keep_add[k, 5]]
                ) * inv_faces  # fmt: skip
            else:
                acc = inv_faces - inv_faces  # a zero of the table's dtype, like the lane version
                for f in range(faces):
                    acc += A[keep_add[k, f]]
                A[k] = acc * inv_faces
        if sharp:
            acc = inv_faces - inv_faces
            for r in range(n_rolls):
                acc += prob[r] * Sv[r]
            A[0] = acc
        if save.shape[0] > t:
            for k in range(n_keeps):
                save[t, k] = A[k]
            if t == stages - 1 and save.shape[0] >= stages:
                break  # the caller reads the saved keep values only
        for k in range(1, n_small):
            m = A[k]
            for q in range(n_sub[k]):
                v = A[subs[k, q]]
                if v > m:
                    m = v
            A[k] = m
        for r in range(n_rolls):
            k = n_small + r
            m = A[subs[k, 0]]
            for q in range(1, n_sub[k]):
                v = A[subs[k, q]]
                if v > m:
                    m = v
            v = stop[0, r]
            A[k] = v if v > m else m
            if sharp:
                v = stop[1, r]
                Sv[r] = v if v > m else m


@njit(cache=True, inline="always")
def _situation(V, mask, flag, u, rolls_left, T, X, stop, A, M, Sv, save, base, legal, nlegal, ctxg):
    """One turn at one upper total: rows ``X[:, 0]``, legal boxes, ``stop[s, r, 0]``, ``save[t, keep, 0]``.

    Values are relative to ``base[0]``, as in the table build.

    Args:
        V: the value table.
        mask: filled-box mask.
        flag: all-alike flag.
        u: capped upper total.
        rolls_left: rolls left in the turn (keep stages to run).
        T: the rule set's tables.
        X: output next-state rows ``[row, 1]``.
        stop: output best entries ``[sharp, roll, 1]``.
        A: scratch ``[keep, 1]``.
        M: scratch ``[keep, 1]`` (see :func:`~pasch.solver._kparts._turn`).
        Sv: scratch ``[roll, 1]``.
        save: output keep values ``[t, keep, 1]``.
        base: output ``[1]``: the row the values are relative to.
        legal: output legal boxes per group.
        nlegal: output: how many legal boxes each group has.
        ctxg: output: each group's scoring context.
    """
    one = np.int64(1)  # not the literal 1: the pieces are compiled for int64 lanes, once for every kernel
    y_box = T.y_box
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _rows(V, mask, flag, u, one, T, X)
    _rebase(X, one, mask, T, base)
    _legal(mask, yclass, T, legal, nlegal, ctxg)
    if rolls_left > 0:  # with no roll left only the throw on the table matters
        _stops(X, one, legal, nlegal, ctxg, T, stop)
        _turn(stop, A, M, Sv, one, rolls_left, T, save)


@njit(cache=True, inline="always")
def _scratch(V, rolls_left, T):
    """The one-lane work arrays of :func:`_situation`.

    Args:
        V: the value table (its dtype).
        rolls_left: rolls left (rows of ``save``).
        T: the rule set's tables.
    """
    n = T.tier.shape[2]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    X = np.empty((T.row_box.shape[0], 1), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls, 1), V.dtype)
    A = np.empty((n_keeps, 1), V.dtype)
    M = np.empty((T.n_small, 1), V.dtype)
    Sv = np.empty((n_rolls, 1), V.dtype)
    save = np.empty((max(rolls_left, 1), n_keeps, 1), V.dtype)
    base = np.empty(1, V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    return X, stop, A, M, Sv, save, base, legal, nlegal, ctxg


@njit(cache=True)
def _option_values(V, mask, flag, u, roll, rolls_left, sharp, T, box_out, keep_out):
    """Every option's value in one situation.

    Args:
        V: the value table.
        mask: filled-box mask.
        flag: all-alike flag.
        u: capped upper total.
        roll: index of the throw on the table.
        rolls_left: rolls left in the turn.
        sharp: the throw came from all dice at once (``+sharp``).
        T: the rule set's tables.
        box_out: output per box: the value of entering the throw there (NaN: not legal).
        keep_out: output per keep: the value of keeping those dice and throwing the rest
            (meaningful for sub-keeps of ``roll``; NaN with no roll left).
    """
    X, stop, A, M, Sv, save, base, legal, nlegal, ctxg = _scratch(V, rolls_left, T)
    _situation(V, mask, flag, u, rolls_left, T, X, stop, A, M, Sv, save, base, legal, nlegal, ctxg)
    b = np.float64(base[0])
    s = 1 if sharp and T.n_sharp == 2 else 0
    g = T.grp[roll]
    c = ctxg[g]
    for i in range(box_out.shape[0]):
        box_out[i] = np.nan
    for q in range(nlegal[g]):
        i = legal[g, q]
        box_out[i] = np.float64(X[T.rowsel[c, s, roll, i], 0] + T.cval[c, s, roll, i]) + b
    for k in range(keep_out.shape[0]):
        keep_out[k] = np.nan if rolls_left == 0 else np.float64(save[rolls_left - 1, k, 0]) + b


@njit(cache=True)
def _best_one(V, mask, flag, u, roll, rolls_left, sharp, T):
    """Best decision of one situation: (box or -1, keep index or -1, value).

    Ties go to the first legal box in sheet order, then to the smallest keep.

    Args:
        V: the value table.
        mask: filled-box mask.
        flag: all-alike flag.
        u: capped upper total.
        roll: index of the throw on the table.
        rolls_left: rolls left in the turn.
        sharp: the throw came from all dice at once (``+sharp``).
        T: the rule set's tables.
    """
    n = T.tier.shape[2]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    X = np.empty((T.row_box.shape[0], 1), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls), V.dtype)
    A = np.empty(n_keeps, V.dtype)
    Sv = np.empty(n_rolls, V.dtype)
    save = np.empty((max(rolls_left, 1), n_keeps), V.dtype)
    base = np.empty(1, V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    one = np.int64(1)
    y_filled = T.y_box >= 0 and (mask >> T.y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _rows(V, mask, flag, u, one, T, X)
    _rebase(X, one, mask, T, base)
    _legal(mask, yclass, T, legal, nlegal, ctxg)
    if rolls_left > 0:  # with no roll left only the throw on the table matters
        _stops1(X[:, 0], legal, nlegal, ctxg, T, stop)
        _turn1(stop, A, Sv, rolls_left, T, save)
    s = 1 if sharp and T.n_sharp == 2 else 0
    g = T.grp[roll]
    c = ctxg[g]
    best = NEG
    box = -1
    for q in range(nlegal[g]):
        i = legal[g, q]
        v = X[T.rowsel[c, s, roll, i], 0] + T.cval[c, s, roll, i]
        if v > best:
            best = v
            box = i
    keep = -1
    if rolls_left > 0:
        for q in range(T.n_rsub[roll]):
            k = T.rsub[roll, q]
            v = save[rolls_left - 1, k]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, np.float64(best) + base[0]
