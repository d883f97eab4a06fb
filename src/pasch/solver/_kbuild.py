# ruff: noqa: N803, N806  (V, X, A, W: the names of the tables and lanes in the docstrings)
# mypy: allow-untyped-defs
"""The table build kernel: every turn-start state of one layer, every upper total as a lane.

Private. Not ``parallel=True``: Numba's parallel compilation of this kernel cost several seconds on
every first build; instead the kernel releases the GIL and ``_table`` runs one call per thread, each
taking every ``n_threads``-th state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import _borrow, _expect, _legal, _rebase, _rows, _stops, _turn


@njit(cache=True, nogil=True)
def _solve_layer(V, R, masks, tops, lo, hi_end, T, th, n_threads):
    """Solve one layer's (mask, flag) states from the next layers of ``V``: of the states that exist, in
    layer order, the ``th``-th, the ``th + n_threads``-th, and so on.

    Args:
        V: the value table ``V[mask, flag, upper]``; the layer's rows are written.
        R: ``V`` again, read-only (a view): the next layers are read through it, so that ``_rows`` is
            compiled once, for the read-only tables that the queries read too (less compiling
            for a process that builds and then asks).
        masks: reachable masks, layer by layer.
        tops: per mask, the largest upper total it can have (:attr:`~pasch.solver._prep.Prep.hi`).
        lo: first index of the layer in ``masks``.
        hi_end: end of the layer in ``masks``.
        T: the rule set's :class:`~pasch.solver._prep.Tables` in ``V``'s dtype.
        th: this call's share (0 to ``n_threads - 1``).
        n_threads: calls sharing the layer.
    """
    _solve_share(V, R, R, False, masks, tops, lo, hi_end, T, th, n_threads)


@njit(cache=True, nogil=True)
def _solve_layer_floor(V, R, F, masks, tops, lo, hi_end, T, th, n_threads):
    """:func:`_solve_layer` where every turn may also end in a pass: the sheet left as it is, worth
    ``F[mask, flag, upper]``. One slack level of a free column (:func:`pasch.solver.free_slack_levels`).

    Args:
        V: as for :func:`_solve_layer`.
        R: as for :func:`_solve_layer`.
        F: the pass's value table, read-only, of ``V``'s shape and dtype (the level below).
        masks: as for :func:`_solve_layer`.
        tops: as for :func:`_solve_layer`.
        lo: as for :func:`_solve_layer`.
        hi_end: as for :func:`_solve_layer`.
        T: as for :func:`_solve_layer`.
        th: as for :func:`_solve_layer`.
        n_threads: as for :func:`_solve_layer`.
    """
    _solve_share(V, R, F, True, masks, tops, lo, hi_end, T, th, n_threads)


@njit(cache=True, nogil=True)
def _solve_share(V, R, F, floor, masks, tops, lo, hi_end, T, th, n_threads):
    """The body of :func:`_solve_layer` and :func:`_solve_layer_floor`.

    Args:
        V: the value table; the layer's rows are written.
        R: ``V`` again, read-only.
        F: the pass's value table (read only where ``floor``).
        floor: whether a turn may end in a pass worth ``F``.
        masks: reachable masks, layer by layer.
        tops: per mask, the largest upper total it can have.
        lo: first index of the layer in ``masks``.
        hi_end: end of the layer in ``masks``.
        T: the rule set's tables in ``V``'s dtype.
        th: this call's share.
        n_threads: calls sharing the layer.
    """
    V = _borrow(V)  # the arguments live for the whole call (see _borrow)
    R = _borrow(R)
    masks = _borrow(masks)
    tops = _borrow(tops)
    T = _borrow(T)
    n = T.tier.shape[2]
    n_flags = T.n_flags
    y_box = T.y_box
    W = V.shape[2]
    n_states = (hi_end - lo) * n_flags
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    X = np.empty((T.row_box.shape[0], W), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls, W), V.dtype)
    A = np.empty((T.keep_add.shape[0], W), V.dtype)
    M = np.empty((T.n_small, W), V.dtype)
    Sv = np.empty((n_rolls, W), V.dtype)
    acc = np.empty(W, np.float64)
    base = np.empty(W, V.dtype)
    save = np.empty((0, 1, 1), V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    # Shares by state, counting only the states that are solved: a flag-1 state exists only once the
    # all-alike box is filled, so sharing every n_threads-th (mask, flag) pair gave one of two threads
    # all the flag-0 states and the other the flag-1 states, half of them skipped.
    k = 0
    for q in range(n_states):
        mi = lo + q // n_flags
        flag = q % n_flags
        mask = masks[mi]
        y_filled = y_box >= 0 and (mask >> y_box) & 1
        if flag == 1 and not y_filled:
            continue
        k += 1
        if (k - 1) % n_threads != th:
            continue
        yclass = 0 if not y_filled else 1 + flag
        _legal(mask, yclass, T, legal, nlegal, ctxg)
        # The upper totals the state can have, 0 to ``tops``, rounded up to whole vectors of 8 lanes:
        # the lanes above stay 0 (no state that play reaches reads them), and a yahtzee table has 22 %
        # fewer lanes to solve.
        L = min(W, (tops[mi] + 8) // 8 * 8)
        _rows(R, mask, flag, np.int64(0), L, T, X)
        _rebase(X, L, mask, T, base)
        _stops(X, L, legal, nlegal, ctxg, T, stop)
        if floor:
            _pass_floor(F[mask, flag], base, L, stop)
        _turn(stop, A, M, Sv, L, T.stages, T, save)
        _expect(A, Sv, stop, L, T.stages, T, acc)
        dst = V[mask, flag]
        for j in range(L):
            dst[j] = acc[j] + base[j]


@njit(cache=True, nogil=True)
def _pass_floor(f, base, L, stop):
    """Raise every turn end ``stop[s, r, lane]`` to the pass's value (rebased like ``stop``).

    Args:
        f: the pass's value per lane (a row of ``F``).
        base: the row :func:`~pasch.solver._kparts._rebase` subtracted.
        L: lanes in use.
        stop: the turn ends ``[sharp, roll, lane]``, raised in place.
    """
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            out = stop[s, r]
            for j in range(L):
                v = f[j] - base[j]
                if v > out[j]:
                    out[j] = v
