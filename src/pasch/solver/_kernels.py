# ruff: noqa: N803, N806  (V, X, A, L, W: the names of the tables and lanes in the docstrings)
# mypy: allow-untyped-defs
"""Numba kernels of the solver. Private: they take arrays and scalars only (see ``_prep.Prep``).

Layout: the value table is ``V[mask, flag, upper]`` with the capped upper total innermost, so every
inner loop runs over contiguous upper totals ("lanes") and LLVM vectorises it. A kernel that serves one
situation uses the same code with one lane.

Inside a turn, with ``A[keep, lane]``: the value of a full throw is the best box (``stop``) or the best
keep; the value of a keep of fewer dice is the mean over the faces of the keep with one more die; the
best keep of a throw is a running maximum over sub-multisets, removing one die at a time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

NEG = -1.0e30


@njit(cache=True, inline="always")
def _rows(V, mask, flag, u0, L, thr, bonus, n_flags, row_box, row_up, row_mode, X):
    """Next-state value rows: ``X[row, j]`` for upper total ``u0 + j``, row = (box, upper points)."""
    for row in range(row_box.shape[0]):
        b = row_box[row]
        if (mask >> b) & 1:
            continue
        nm = mask | (1 << b)
        mode = row_mode[row]
        nf = flag if mode == 0 else mode - 1
        if n_flags == 1:
            nf = 0
        p = row_up[row]
        src = V[nm, nf]
        x = X[row]
        if p == 0:
            for j in range(L):
                x[j] = src[u0 + j]
        else:
            top = src[thr] + p
            cut = thr - p - u0
            if cut < 0:
                cut = 0
            if cut > L:
                cut = L
            for j in range(cut):
                x[j] = src[u0 + j + p] + p
            for j in range(cut, L):
                x[j] = top + (bonus if u0 + j < thr else 0.0)


@njit(cache=True, inline="always")
def _legal(mask, yclass, tier, group_match, n, legal, nlegal, ctxg):
    """Legal boxes of each roll group, and each group's scoring context, for a filled-box mask."""
    for g in range(group_match.shape[0]):
        mt = group_match[g]
        m = 1 if mt >= 0 and (mask >> mt) & 1 else 0
        c = yclass * 2 + m
        ctxg[g] = c
        best = 1 << 30
        for i in range(n):
            if not (mask >> i) & 1 and tier[c, g, i] < best:
                best = tier[c, g, i]
        cnt = 0
        for i in range(n):
            if not (mask >> i) & 1 and tier[c, g, i] == best:
                legal[g, cnt] = i
                cnt += 1
        nlegal[g] = cnt


@njit(cache=True, inline="always")
def _stops(X, L, legal, nlegal, ctxg, grp, rowsel, cval, zrow, nz, n_nz, m0, stop):
    """``stop[s, r, lane]``: best box entry for throw ``r`` (sharp flag ``s``) plus the future value.

    Throws that are not all alike start from the best zero entry (``m0``) and look only at the boxes
    that pay them something; all-alike throws look at every legal box of their context.
    """
    bits = 0
    for q in range(nlegal[0]):
        bits |= 1 << legal[0, q]
    for j in range(L):
        m0[0, j] = NEG
    for q in range(nlegal[0]):
        zr = zrow[legal[0, q]]
        for j in range(L):
            v = X[zr, j]
            if v > m0[0, j]:
                m0[0, j] = v
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            if g == 0:
                for j in range(L):
                    stop[s, r, j] = m0[0, j]
                for q in range(n_nz[s, r]):
                    i = nz[s, r, q]
                    if (bits >> i) & 1:
                        row = rowsel[c, s, r, i]
                        cv = cval[c, s, r, i]
                        for j in range(L):
                            v = X[row, j] + cv
                            if v > stop[s, r, j]:
                                stop[s, r, j] = v
            else:
                for j in range(L):
                    stop[s, r, j] = NEG
                for q in range(nlegal[g]):
                    i = legal[g, q]
                    row = rowsel[c, s, r, i]
                    cv = cval[c, s, r, i]
                    for j in range(L):
                        v = X[row, j] + cv
                        if v > stop[s, r, j]:
                            stop[s, r, j] = v


@njit(cache=True, inline="always")
def _turn(stop, A, Sv, tmp2, L, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save):
    """Run ``stages`` keep stages; on return ``A``/``Sv`` hold the throw values with ``stages`` rolls left.

    ``save[t, keep]`` (when it has rows) receives the value of each keep with ``t`` rolls left after it.
    ``tmp2`` is scratch of shape ``(1, lanes)``.
    """
    sharp = stop.shape[0] == 2
    n_rolls = stop.shape[1]
    n_keeps = A.shape[0]
    faces = keep_add.shape[1]
    for r in range(n_rolls):
        a = A[n_small + r]
        s0 = stop[0, r]
        for j in range(L):
            a[j] = s0[j]
        if sharp:
            sv = Sv[r]
            s1 = stop[1, r]
            for j in range(L):
                sv[j] = s1[j]
    for t in range(stages):
        for k in range(n_small - 1, -1, -1):
            a = A[k]
            if faces == 6:
                c0 = A[keep_add[k, 0]]
                c1 = A[keep_add[k, 1]]
                c2 = A[keep_add[k, 2]]
                c3 = A[keep_add[k, 3]]
                c4 = A[keep_add[k, 4]]
                c5 = A[keep_add[k, 5]]
                for j in range(L):
                    a[j] = (c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j]) * inv_faces
            else:
                for j in range(L):
                    a[j] = 0.0
                for f in range(faces):
                    src = A[keep_add[k, f]]
                    for j in range(L):
                        a[j] += src[j]
                for j in range(L):
                    a[j] *= inv_faces
        if sharp:
            a = A[0]
            for j in range(L):
                a[j] = 0.0
            for r in range(n_rolls):
                pr = prob[r]
                sv = Sv[r]
                for j in range(L):
                    a[j] += pr * sv[j]
        if save.shape[0] > t:
            for k in range(n_keeps):
                for j in range(L):
                    save[t, k, j] = A[k, j]
        for k in range(1, n_small):
            _submax(A, k, subs, n_sub[k], L, A, k, True)
        for r in range(n_rolls):
            k = n_small + r
            _submax(A, k, subs, n_sub[k], L, tmp2, 0, False)
            if sharp:
                for j in range(L):
                    m = tmp2[0, j]
                    v = stop[0, r, j]
                    A[k, j] = v if v > m else m
                    v = stop[1, r, j]
                    Sv[r, j] = v if v > m else m
            else:
                for j in range(L):
                    m = tmp2[0, j]
                    v = stop[0, r, j]
                    A[k, j] = v if v > m else m


@njit(cache=True, inline="always")
def _submax(A, k, subs, c, L, out, o, same):
    """``out[o] = max(A[sub] for each sub-keep of k)``, and of ``out[o]`` itself when ``same`` (the keep
    stage, where ``out`` is ``A`` and ``out[o]`` holds the keep's own value).

    One pass over the lanes reads every source: a loop per source would pay its set-up each time.
    """
    q0 = subs[k, 0]
    if c == 1:
        for j in range(L):
            m = A[q0, j]
            if same:
                a = out[o, j]
                m = a if a > m else m
            out[o, j] = m
    elif c == 2:
        q1 = subs[k, 1]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            if same:
                a = out[o, j]
                m = a if a > m else m
            out[o, j] = m
    elif c == 3:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            if same:
                a = out[o, j]
                m = a if a > m else m
            out[o, j] = m
    elif c == 4:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        q3 = subs[k, 3]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            v = A[q3, j]
            m = v if v > m else m
            if same:
                a = out[o, j]
                m = a if a > m else m
            out[o, j] = m
    else:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        q3 = subs[k, 3]
        q4 = subs[k, 4]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            v = A[q3, j]
            m = v if v > m else m
            v = A[q4, j]
            m = v if v > m else m
            if same:
                a = out[o, j]
                m = a if a > m else m
            out[o, j] = m
        for q in range(5, c):
            qq = subs[k, q]
            for j in range(L):
                v = A[qq, j]
                if v > out[o, j]:
                    out[o, j] = v


@njit(cache=True, inline="always")
def _expect(A, Sv, stop, L, n_small, prob64, stages, acc):
    """Expected value at the start of a turn: the mean over the first throw (sharp dice).

    Accumulated in float64: a float32 sum of 252 terms would cost about 1e-5 per layer.
    """
    n_rolls = prob64.shape[0]
    for j in range(L):
        acc[j] = 0.0
    for r in range(n_rolls):
        pr = prob64[r]
        if stages == 0:
            src = stop[stop.shape[0] - 1, r]
        elif stop.shape[0] == 2:
            src = Sv[r]
        else:
            src = A[n_small + r]
        for j in range(L):
            acc[j] += pr * src[j]


@njit(cache=True, inline="always")
def _rebase(X, L, mask, row_box, base):
    """Subtract one next-state row from every row: turn values stay small, so float32 stays exact enough."""
    first = -1
    for row in range(row_box.shape[0]):
        if not (mask >> row_box[row]) & 1:
            first = row
            break
    for j in range(L):
        base[j] = X[first, j]
    for row in range(row_box.shape[0]):
        if not (mask >> row_box[row]) & 1:
            x = X[row]
            for j in range(L):
                x[j] -= base[j]


@njit(cache=True, parallel=True)
def _solve_layer(
    V, masks, lo, hi_end, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier,
    group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, prob64, inv_faces, stages,
    n_sharp, n_threads,
):  # fmt: skip
    """Solve every (mask, flag) state of one layer (masks[lo:hi_end]) from the next layers of ``V``."""
    n = tier.shape[2]
    W = V.shape[2]
    n_states = (hi_end - lo) * n_flags
    n_groups = group_match.shape[0]
    for th in prange(n_threads):
        X = np.empty((row_box.shape[0], W), V.dtype)
        stop = np.empty((n_sharp, grp.shape[0], W), V.dtype)
        A = np.empty((keep_add.shape[0], W), V.dtype)
        Sv = np.empty((grp.shape[0], W), V.dtype)
        tmp = np.empty((1, W), V.dtype)
        acc = np.empty(W, np.float64)
        base = np.empty(W, V.dtype)
        save = np.empty((0, 1, 1), V.dtype)
        legal = np.empty((n_groups, n), np.int32)
        nlegal = np.empty(n_groups, np.int32)
        ctxg = np.empty(n_groups, np.int32)
        for q in range(th, n_states, n_threads):
            mi = lo + q // n_flags
            flag = q % n_flags
            mask = masks[mi]
            y_filled = y_box >= 0 and (mask >> y_box) & 1
            if flag == 1 and not y_filled:
                continue
            yclass = 0 if not y_filled else 1 + flag
            _legal(mask, yclass, tier, group_match, n, legal, nlegal, ctxg)
            # Every upper total is solved, reachable or not: a full vector costs less than a short
            # scalar loop, and every lane stays meaningful.
            _rows(V, mask, flag, 0, W, thr, bonus, n_flags, row_box, row_up, row_mode, X)
            _rebase(X, W, mask, row_box, base)
            _stops(X, W, legal, nlegal, ctxg, grp, rowsel, cval, zrow, nz, n_nz, tmp, stop)
            _turn(stop, A, Sv, tmp, W, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)
            _expect(A, Sv, stop, W, n_small, prob64, stages, acc)
            dst = V[mask, flag]
            for j in range(W):
                dst[j] = acc[j] + base[j]


@njit(cache=True, inline="always")
def _stops1(x, legal, nlegal, ctxg, grp, rowsel, cval, zrow, nz, n_nz, stop):
    """One-lane :func:`_stops` in plain scalar code (``x[row]``, ``stop[s, r]``); same arithmetic."""
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
def _turn1(stop, A, Sv, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save):
    """One-lane :func:`_turn` in plain scalar code; the same operations in the same order."""
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


@njit(cache=True)
def _situation(
    V, mask, flag, u, stages, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier, group_match,
    grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, inv_faces,
    X, stop, A, Sv, save, base, legal, nlegal, ctxg,
):  # fmt: skip
    """One turn at one upper total: next-state rows ``X[:, 0]``, legal boxes, ``stop[s, r]`` and
    ``save[t, keep]`` (1-D ``A``/``Sv``). Values are relative to ``base[0]``, as in the table build."""
    n = tier.shape[2]
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _rows(V, mask, flag, u, 1, thr, bonus, n_flags, row_box, row_up, row_mode, X)
    _rebase(X, 1, mask, row_box, base)
    _legal(mask, yclass, tier, group_match, n, legal, nlegal, ctxg)
    if stages > 0:  # with no roll left only the throw on the table matters
        x = X[:, 0]
        _stops1(x, legal, nlegal, ctxg, grp, rowsel, cval, zrow, nz, n_nz, stop)
        _turn1(stop, A, Sv, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)


@njit(cache=True)
def _option_values(
    V, mask, flag, u, roll, rolls_left, sharp, n_flags, y_box, thr, bonus, row_box, row_up, row_mode,
    tier, group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, inv_faces,
    n_sharp, box_out, keep_out,
):  # fmt: skip
    """Every option's value in one situation: ``box_out[box]`` (NaN: not legal), ``keep_out[keep]``
    (the value of keeping those dice and throwing the rest; meaningful for sub-keeps of ``roll``)."""
    n = tier.shape[2]
    n_groups = group_match.shape[0]
    X = np.empty((row_box.shape[0], 1), V.dtype)
    stop = np.empty((n_sharp, grp.shape[0]), V.dtype)
    A = np.empty(keep_add.shape[0], V.dtype)
    Sv = np.empty(grp.shape[0], V.dtype)
    base = np.empty(1, V.dtype)
    save = np.empty((max(rolls_left, 1), keep_add.shape[0]), V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    _situation(
        V, mask, flag, u, rolls_left, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier,
        group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, inv_faces,
        X, stop, A, Sv, save, base, legal, nlegal, ctxg,
    )  # fmt: skip
    b = np.float64(base[0])
    s = 1 if sharp and n_sharp == 2 else 0
    g = grp[roll]
    c = ctxg[g]
    for i in range(n):
        box_out[i] = np.nan
    for q in range(nlegal[g]):
        i = legal[g, q]
        box_out[i] = np.float64(X[rowsel[c, s, roll, i], 0] + cval[c, s, roll, i]) + b
    for k in range(keep_out.shape[0]):
        keep_out[k] = np.nan if rolls_left == 0 else np.float64(save[rolls_left - 1, k]) + b


@njit(cache=True)
def _best_one(
    V, mask, flag, u, roll, rolls_left, sharp, n_flags, y_box, thr, bonus, row_box, row_up, row_mode,
    tier, group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, inv_faces,
    n_sharp, rsub, n_rsub,
):  # fmt: skip
    """Best decision of one situation: (box or -1, keep index or -1, value)."""
    n = tier.shape[2]
    n_groups = group_match.shape[0]
    n_rows = row_box.shape[0]
    n_rolls = grp.shape[0]
    n_keeps = keep_add.shape[0]
    t_save = max(rolls_left, 1)
    # Two allocations, cut into views: each allocation costs about as much as a keep stage's loop.
    fbuf = np.empty(n_rows + n_sharp * n_rolls + n_keeps + n_rolls + 1 + t_save * n_keeps, V.dtype)
    X = fbuf[:n_rows].reshape((n_rows, 1))
    o = n_rows
    stop = fbuf[o : o + n_sharp * n_rolls].reshape((n_sharp, n_rolls))
    o += n_sharp * n_rolls
    A = fbuf[o : o + n_keeps]
    o += n_keeps
    Sv = fbuf[o : o + n_rolls]
    o += n_rolls
    base = fbuf[o : o + 1]
    o += 1
    save = fbuf[o : o + t_save * n_keeps].reshape((t_save, n_keeps))
    ibuf = np.empty(n_groups * (n + 2), np.int32)
    legal = ibuf[: n_groups * n].reshape((n_groups, n))
    nlegal = ibuf[n_groups * n : n_groups * (n + 1)]
    ctxg = ibuf[n_groups * (n + 1) :]
    _situation(
        V, mask, flag, u, rolls_left, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier,
        group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob, inv_faces,
        X, stop, A, Sv, save, base, legal, nlegal, ctxg,
    )  # fmt: skip
    s = 1 if sharp and n_sharp == 2 else 0
    g = grp[roll]
    c = ctxg[g]
    best = NEG
    box = -1
    for q in range(nlegal[g]):
        i = legal[g, q]
        v = X[rowsel[c, s, roll, i], 0] + cval[c, s, roll, i]
        if v > best:
            best = v
            box = i
    keep = -1
    if rolls_left > 0:
        for q in range(n_rsub[roll]):
            k = rsub[roll, q]
            v = save[rolls_left - 1, k]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, np.float64(best) + base[0]


@njit(cache=True, inline="always")
def _next_random(state):
    """splitmix64: returns (new state, 64-bit output)."""
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state, z ^ (z >> np.uint64(31))


# -- many situations at once: one situation per lane ------------------------------------------------
LANES = 64
"""Situations solved together by the batch and simulation kernels (a full vector loop of lanes)."""


@njit(cache=True, inline="always")
def _rows_many(V, masks, flags, us, L, thr, bonus, n_flags, row_box, row_up, row_mode, X, base):
    """``X[row, j]`` for situation ``j`` (relative to ``base[j]``, its first open row); NEG if filled."""
    for j in range(L):
        mask = masks[j]
        flag = flags[j]
        u = us[j]
        first = -1
        for row in range(row_box.shape[0]):
            b = row_box[row]
            if (mask >> b) & 1:
                X[row, j] = NEG
                continue
            if first < 0:
                first = row
            nm = mask | (1 << b)
            mode = row_mode[row]
            nf = flag if mode == 0 else mode - 1
            if n_flags == 1:
                nf = 0
            p = row_up[row]
            src = V[nm, nf]
            if p == 0:
                X[row, j] = src[u]
            elif u + p < thr:
                X[row, j] = src[u + p] + p
            else:
                top = src[thr] + p
                X[row, j] = top + (bonus if u < thr else 0.0)
        base[j] = X[first, j]
        for row in range(row_box.shape[0]):
            if not (mask >> row_box[row]) & 1:
                X[row, j] -= base[j]


@njit(cache=True, inline="always")
def _legal_one(mask, c, g, tier, n, legal_row):
    """Legal boxes of roll group ``g`` in context ``c`` for one mask; returns how many."""
    best = 1 << 30
    for i in range(n):
        if not (mask >> i) & 1 and tier[c, g, i] < best:
            best = tier[c, g, i]
    cnt = 0
    for i in range(n):
        if not (mask >> i) & 1 and tier[c, g, i] == best:
            legal_row[cnt] = i
            cnt += 1
    return cnt


@njit(cache=True, inline="always")
def _ctx_of(mask, flag, g, y_box, group_match):
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    mt = group_match[g]
    m = 1 if mt >= 0 and (mask >> mt) & 1 else 0
    return yclass * 2 + m


@njit(cache=True, inline="always")
def _stops_many(
    X, Xp, L, masks, flags, y_box, row_box, tier, group_match, grp, rowsel, cval, zrow, nz, n_nz, m0, stop, legal_row
):
    """``stop[s, r, j]`` for every situation ``j``.

    Throws that are not all alike score alike in every context, so they are vectorised over lanes:
    ``Xp`` holds the rows of boxes legal for them (NEG elsewhere). All-alike throws go lane by lane.
    """
    n = tier.shape[2]
    n_rows = X.shape[0]
    for j in range(L):
        cnt = _legal_one(masks[j], 0, 0, tier, n, legal_row)
        bits = 0
        for q in range(cnt):
            bits |= 1 << legal_row[q]
        for row in range(n_rows):
            Xp[row, j] = X[row, j] if (bits >> row_box[row]) & 1 else NEG
    for j in range(L):
        m0[0, j] = NEG
    for i in range(n):
        zr = zrow[i]
        for j in range(L):
            v = Xp[zr, j]
            if v > m0[0, j]:
                m0[0, j] = v
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            out = stop[s, r]
            g = grp[r]
            if g == 0:
                for j in range(L):
                    out[j] = m0[0, j]
                for q in range(n_nz[s, r]):
                    i = nz[s, r, q]
                    row = rowsel[0, s, r, i]
                    cv = cval[0, s, r, i]
                    for j in range(L):
                        v = Xp[row, j] + cv
                        if v > out[j]:
                            out[j] = v
            else:
                for j in range(L):
                    c = _ctx_of(masks[j], flags[j], g, y_box, group_match)
                    cnt = _legal_one(masks[j], c, g, tier, n, legal_row)
                    best = NEG
                    for q in range(cnt):
                        i = legal_row[q]
                        v = X[rowsel[c, s, r, i], j] + cval[c, s, r, i]
                        if v > best:
                            best = v
                    out[j] = best


@njit(cache=True, inline="always")
def _decide(
    X,
    save,
    stop_unused,
    j,
    mask,
    flag,
    roll,
    t,
    s,
    y_box,
    tier,
    group_match,
    grp,
    rowsel,
    cval,
    rsub,
    n_rsub,
    legal_row,
):
    """Best decision of lane ``j``: (box or -1, keep or -1, value relative to the lane's base)."""
    n = tier.shape[2]
    g = grp[roll]
    c = _ctx_of(mask, flag, g, y_box, group_match)
    cnt = _legal_one(mask, c, g, tier, n, legal_row)
    best = NEG
    box = -1
    for q in range(cnt):
        i = legal_row[q]
        v = X[rowsel[c, s, roll, i], j] + cval[c, s, roll, i]
        if v > best:
            best = v
            box = i
    keep = -1
    if t > 0:
        for q in range(n_rsub[roll]):
            k = rsub[roll, q]
            v = save[t - 1, k, j]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, best, c


@njit(cache=True, parallel=True)
def _best_many(
    V, masks, flags, uppers, rolls, rolls_left, sharps, n_flags, y_box, thr, bonus, row_box, row_up,
    row_mode, tier, group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, n_small, prob,
    inv_faces, n_sharp, rsub, n_rsub, n_threads, out_box, out_keep, out_value,
):  # fmt: skip
    """Best decision of many situations, ``LANES`` at a time per thread, in parallel."""
    n = tier.shape[2]
    m = masks.shape[0]
    n_blocks = (m + LANES - 1) // LANES
    stages = 0
    for q in range(m):
        stages = max(stages, rolls_left[q])
    for th in prange(n_threads):
        X = np.empty((row_box.shape[0], LANES), V.dtype)
        Xp = np.empty((row_box.shape[0], LANES), V.dtype)
        stop = np.empty((n_sharp, grp.shape[0], LANES), V.dtype)
        A = np.empty((keep_add.shape[0], LANES), V.dtype)
        Sv = np.empty((grp.shape[0], LANES), V.dtype)
        tmp = np.empty((1, LANES), V.dtype)
        base = np.empty(LANES, V.dtype)
        save = np.empty((max(stages, 1), keep_add.shape[0], LANES), V.dtype)
        legal_row = np.empty(n, np.int32)
        for blk in range(th, n_blocks, n_threads):
            lo = blk * LANES
            L = min(LANES, m - lo)
            bm = masks[lo : lo + L]
            bf = flags[lo : lo + L]
            _rows_many(V, bm, bf, uppers[lo : lo + L], L, thr, bonus, n_flags, row_box, row_up, row_mode, X, base)
            _stops_many(
                X,
                Xp,
                L,
                bm,
                bf,
                y_box,
                row_box,
                tier,
                group_match,
                grp,
                rowsel,
                cval,
                zrow,
                nz,
                n_nz,
                tmp,
                stop,
                legal_row,
            )
            block_stages = 0
            for j in range(L):
                block_stages = max(block_stages, rolls_left[lo + j])
            _turn(stop, A, Sv, tmp, L, block_stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)
            for j in range(L):
                q = lo + j
                s = 1 if sharps[q] and n_sharp == 2 else 0
                box, keep, v, _c = _decide(
                    X, save, stop, j, masks[q], flags[q], rolls[q], rolls_left[q], s, y_box, tier,
                    group_match, grp, rowsel, cval, rsub, n_rsub, legal_row,
                )  # fmt: skip
                out_box[q] = box
                out_keep[q] = keep
                out_value[q] = np.float64(v) + base[j]


@njit(cache=True, parallel=True)
def _simulate_many(
    V, n_games, seed, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier, group_match, grp,
    rowsel, cval, zrow, nz, n_nz, total, keep_add, subs, n_sub, n_small, prob, inv_faces, n_sharp, rsub, n_rsub,
    keep_counts, roll_of_code, n_dice, faces, throws, ibonus, n_threads, out,
):  # fmt: skip
    """Play ``n_games`` solo games with the optimal policy, ``LANES`` games in lockstep per thread.

    Game ``i`` draws from its own splitmix64 stream, so results do not depend on threads or blocks.
    """
    n = tier.shape[2]
    stages = throws - 1
    n_blocks = (n_games + LANES - 1) // LANES
    for th in prange(n_threads):
        X = np.empty((row_box.shape[0], LANES), V.dtype)
        Xp = np.empty((row_box.shape[0], LANES), V.dtype)
        stop = np.empty((n_sharp, grp.shape[0], LANES), V.dtype)
        A = np.empty((keep_add.shape[0], LANES), V.dtype)
        Sv = np.empty((grp.shape[0], LANES), V.dtype)
        tmp = np.empty((1, LANES), V.dtype)
        base = np.empty(LANES, V.dtype)
        save = np.empty((max(stages, 1), keep_add.shape[0], LANES), V.dtype)
        legal_row = np.empty(n, np.int32)
        masks = np.zeros(LANES, np.int64)
        flags = np.zeros(LANES, np.int64)
        us = np.zeros(LANES, np.int64)
        scores = np.zeros(LANES, np.int64)
        rngs = np.zeros(LANES, np.uint64)
        counts = np.empty(faces, np.int64)
        for blk in range(th, n_blocks, n_threads):
            lo = blk * LANES
            L = min(LANES, n_games - lo)
            for j in range(L):
                game = lo + j
                r0 = (np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(game)) & np.uint64(0xFFFFFFFFFFFFFFFF)
                r0, _ = _next_random(r0)
                rngs[j] = r0
                masks[j] = 0
                flags[j] = 0
                us[j] = 0
                scores[j] = 0
            for _turn_no in range(n):
                _rows_many(V, masks, flags, us, L, thr, bonus, n_flags, row_box, row_up, row_mode, X, base)
                _stops_many(
                    X,
                    Xp,
                    L,
                    masks,
                    flags,
                    y_box,
                    row_box,
                    tier,
                    group_match,
                    grp,
                    rowsel,
                    cval,
                    zrow,
                    nz,
                    n_nz,
                    tmp,
                    stop,
                    legal_row,
                )
                _turn(stop, A, Sv, tmp, L, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)
                for j in range(L):
                    rng = rngs[j]
                    mask = masks[j]
                    flag = flags[j]
                    for f in range(faces):
                        counts[f] = 0
                    kept = 0
                    t = stages
                    while True:
                        for _d in range(n_dice - kept):
                            rng, z = _next_random(rng)
                            counts[(z >> np.uint64(11)) % np.uint64(faces)] += 1
                        code = 0
                        for f in range(faces - 1, -1, -1):
                            code = code * (n_dice + 1) + counts[f]
                        roll = roll_of_code[code]
                        s = 1 if kept == 0 and n_sharp == 2 else 0
                        box, keep, _v, c = _decide(
                            X, save, stop, j, mask, flag, roll, t, s, y_box, tier, group_match, grp,
                            rowsel, cval, rsub, n_rsub, legal_row,
                        )  # fmt: skip
                        if box >= 0:
                            break
                        kept = 0
                        for f in range(faces):
                            counts[f] = keep_counts[keep, f]
                            kept += counts[f]
                        t -= 1
                    row = rowsel[c, s, roll, box]
                    p = row_up[row]
                    u = us[j]
                    scores[j] += total[c, s, roll, box]
                    if u < thr <= u + p:
                        scores[j] += ibonus
                    us[j] = min(u + p, thr)
                    mode = row_mode[row]
                    if mode > 0:
                        flags[j] = mode - 1
                    masks[j] = mask | (1 << box)
                    rngs[j] = rng
            for j in range(L):
                out[lo + j] = scores[j]


# -- one situation with few arguments: Numba's dispatch costs about 0.15 us per array argument -------
@njit(cache=True, inline="always")
def _part(ints, meta, q):
    """Array ``q`` of a packed int32 buffer, flat: ``meta[q] = (offset, d0, d1, d2, d3)``."""
    o = meta[q, 0]
    size = meta[q, 1] * meta[q, 2] * meta[q, 3] * meta[q, 4]
    return ints[o : o + size]


@njit(cache=True)
def _best_packed(V, mask, flag, u, roll, rolls_left, sharp, ints, meta, cval, prob, sc, inv_faces, bonus):
    """:func:`_best_one` with its tables packed into one int32 buffer (see ``Solver._packed``)."""
    row_box = _part(ints, meta, 0)
    row_up = _part(ints, meta, 1)
    row_mode = _part(ints, meta, 2)
    tier = _part(ints, meta, 3).reshape((meta[3, 1], meta[3, 2], meta[3, 3]))
    group_match = _part(ints, meta, 4)
    grp = _part(ints, meta, 5)
    rowsel = _part(ints, meta, 6).reshape((meta[6, 1], meta[6, 2], meta[6, 3], meta[6, 4]))
    zrow = _part(ints, meta, 7)
    nz = _part(ints, meta, 8).reshape((meta[8, 1], meta[8, 2], meta[8, 3]))
    n_nz = _part(ints, meta, 9).reshape((meta[9, 1], meta[9, 2]))
    keep_add = _part(ints, meta, 10).reshape((meta[10, 1], meta[10, 2]))
    subs = _part(ints, meta, 11).reshape((meta[11, 1], meta[11, 2]))
    n_sub = _part(ints, meta, 12)
    rsub = _part(ints, meta, 13).reshape((meta[13, 1], meta[13, 2]))
    n_rsub = _part(ints, meta, 14)
    return _best_one(
        V, mask, flag, u, roll, rolls_left, sharp, sc[0], sc[1], sc[2], bonus, row_box, row_up, row_mode,
        tier, group_match, grp, rowsel, cval, zrow, nz, n_nz, keep_add, subs, n_sub, sc[3], prob, inv_faces,
        sc[4], rsub, n_rsub,
    )  # fmt: skip
