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


@njit(cache=True, nogil=True)
def _announced_build(w, masks, lo, hi, faces, ctx_of, aim, counts, grow, bonus, thr, prob, th, n_threads):
    """One layer of the announced column's slack table ``w[mask, upper, s]`` (:func:`pasch.solver.announced_table`):
    of the masks ``masks[lo:hi]`` (one number of filled boxes; the layers above solved) the ``th``-th, the
    ``th + n_threads``-th, and so on, so that threads share a layer (the full sheet's row stays 0).

    Rows of upper totals above what a mask can hold (``nd`` dice of each of its filled upper boxes' faces) stay
    0. A turn announces an open box after its first throw ``r``: a lower box ``b`` is worth ``aim[ctx, b, r]``
    plus the row of the mask with ``b``; an upper box of face ``f`` keeps every die of its face, so with
    ``c`` of them it ends with ``n`` with chance ``grow[c, n]`` and is worth its points, the bonus when they
    reach ``thr``, and the row above at the new upper total. With a pass left (``s > 0``) the turn may
    instead be passed, worth ``w[mask, upper, s - 1]``.

    Args:
        w: the table (float64, zeros); the rows of the layer's masks are written.
        masks: the masks to solve, layer by layer (most boxes filled first).
        lo: the layer's first index in ``masks``.
        hi: the end of the layer in ``masks``.
        faces: per box its face, 0 for a lower box.
        ctx_of: per mask, the row of ``aim`` of its scoring context.
        aim: ``aim[ctx, b, r]``: lower box ``b``'s best expected points after first throw ``r`` (the rows
            of upper boxes unused).
        counts: ``counts[r, f - 1]``: the dice of throw ``r`` showing face ``f``.
        grow: ``grow[c, n]``: the chance that ``c`` dice of a face become ``n`` in the throws left.
        bonus: the upper bonus.
        thr: the bonus threshold, also the top upper total (0: no bonus).
        prob: each first throw's probability.
        th: this call's share (0 to ``n_threads - 1``).
        n_threads: calls sharing the layer.
    """
    _, n_u, n_s = w.shape
    nb = faces.shape[0]
    nd = grow.shape[0] - 1
    n_r = prob.shape[0]
    q = np.empty((nb, n_u, nd + 1, n_s))
    best = np.empty(n_r)
    for i in range(lo + th, hi, n_threads):
        mask = masks[i]
        ctx = ctx_of[mask]
        top = 0  # the largest upper total the mask can hold: the rows above stay 0, never read
        for b in range(nb):
            if (mask >> b) & 1:
                top += faces[b] * nd
        for b in range(nb):
            f = faces[b]
            if (mask >> b) & 1 or f == 0:
                continue
            child = mask | (1 << b)
            for u in range(min(n_u, top + 1)):
                for c in range(nd + 1):
                    for s in range(n_s):
                        acc = 0.0
                        for n in range(c, nd + 1):
                            tot = u + f * n
                            g = f * n
                            if u < thr and tot >= thr:
                                g += bonus
                            acc += grow[c, n] * (g + w[child, min(tot, thr), s])
                        q[b, u, c, s] = acc
        for u in range(min(n_u, top + 1)):
            prev = -1e18  # no pass at s = 0
            for s in range(n_s):
                best[:] = prev
                for b in range(nb):
                    if (mask >> b) & 1:
                        continue
                    f = faces[b]
                    if f == 0:
                        nxt = w[mask | (1 << b), u, s]
                        a = aim[ctx, b]
                        for r in range(n_r):
                            best[r] = max(best[r], a[r] + nxt)
                    else:
                        qs = q[b, u, :, s]
                        cf = counts[:, f - 1]
                        for r in range(n_r):
                            best[r] = max(best[r], qs[cf[r]])
                acc = 0.0
                for r in range(n_r):
                    acc += prob[r] * best[r]
                w[mask, u, s] = acc
                prev = acc
