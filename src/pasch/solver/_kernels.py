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
def _rows(V, mask, flag, u0, L, thr, bonus, n_flags, row_box, row_up, row_mode, X):  # type: ignore[no-untyped-def]
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
def _legal(mask, yclass, tier, group_match, n, legal, nlegal, ctxg):  # type: ignore[no-untyped-def]
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
def _stops(X, L, legal, nlegal, ctxg, grp, rowsel, cval, stop):  # type: ignore[no-untyped-def]
    """``stop[s, r, lane]``: best box entry for throw ``r`` (sharp flag ``s``) plus the future value."""
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            out = stop[s, r]
            for j in range(L):
                out[j] = NEG
            for q in range(nlegal[g]):
                i = legal[g, q]
                x = X[rowsel[c, s, r, i]]
                cv = cval[c, s, r, i]
                for j in range(L):
                    v = x[j] + cv
                    if v > out[j]:
                        out[j] = v


@njit(cache=True, inline="always")
def _turn(stop, A, Sv, tmp, L, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save):  # type: ignore[no-untyped-def]
    """Run ``stages`` keep stages; on return ``A``/``Sv`` hold the throw values with ``stages`` rolls left.

    ``save[t, keep]`` (when it has rows) receives the value of each keep with ``t`` rolls left after it.
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
            a = A[k]
            for q in range(n_sub[k]):
                src = A[subs[k, q]]
                for j in range(L):
                    v = src[j]
                    if v > a[j]:
                        a[j] = v
        for r in range(n_rolls):
            k = n_small + r
            src = A[subs[k, 0]]
            for j in range(L):
                tmp[j] = src[j]
            for q in range(1, n_sub[k]):
                src = A[subs[k, q]]
                for j in range(L):
                    v = src[j]
                    if v > tmp[j]:
                        tmp[j] = v
            a = A[k]
            s0 = stop[0, r]
            for j in range(L):
                v = s0[j]
                a[j] = v if v > tmp[j] else tmp[j]
            if sharp:
                sv = Sv[r]
                s1 = stop[1, r]
                for j in range(L):
                    v = s1[j]
                    sv[j] = v if v > tmp[j] else tmp[j]


@njit(cache=True, inline="always")
def _expect(A, Sv, stop, L, n_small, prob64, stages, acc):  # type: ignore[no-untyped-def]
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
def _rebase(X, L, mask, row_box, base):  # type: ignore[no-untyped-def]
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
def _solve_layer(  # type: ignore[no-untyped-def]
    V, masks, lo, hi_end, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier,
    group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob, prob64, inv_faces, stages,
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
        tmp = np.empty(W, V.dtype)
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
            _stops(X, W, legal, nlegal, ctxg, grp, rowsel, cval, stop)
            _turn(stop, A, Sv, tmp, W, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)
            _expect(A, Sv, stop, W, n_small, prob64, stages, acc)
            dst = V[mask, flag]
            for j in range(W):
                dst[j] = acc[j] + base[j]


@njit(cache=True)
def _situation(  # type: ignore[no-untyped-def]
    V, mask, flag, u, stages, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier, group_match,
    grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob, inv_faces,
    X, stop, A, Sv, tmp, save, base, legal, nlegal, ctxg,
):  # fmt: skip
    """One turn at one upper total (lane 0): next-state rows, legal boxes, stop values and ``save``.

    Values are relative to ``base[0]`` (as in the table build, so both round alike).
    """
    n = tier.shape[2]
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _rows(V, mask, flag, u, 1, thr, bonus, n_flags, row_box, row_up, row_mode, X)
    _rebase(X, 1, mask, row_box, base)
    _legal(mask, yclass, tier, group_match, n, legal, nlegal, ctxg)
    _stops(X, 1, legal, nlegal, ctxg, grp, rowsel, cval, stop)
    _turn(stop, A, Sv, tmp, 1, stages, keep_add, subs, n_sub, n_small, prob, inv_faces, save)


@njit(cache=True)
def _option_values(  # type: ignore[no-untyped-def]
    V, mask, flag, u, roll, rolls_left, sharp, n_flags, y_box, thr, bonus, row_box, row_up, row_mode,
    tier, group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob, inv_faces, n_sharp,
    box_out, keep_out,
):  # fmt: skip
    """Every option's value in one situation: ``box_out[box]`` (NaN: not legal), ``keep_out[keep]``
    (the value of keeping those dice and throwing the rest; meaningful for sub-keeps of ``roll``)."""
    n = tier.shape[2]
    n_groups = group_match.shape[0]
    X = np.empty((row_box.shape[0], 1), V.dtype)
    stop = np.empty((n_sharp, grp.shape[0], 1), V.dtype)
    A = np.empty((keep_add.shape[0], 1), V.dtype)
    Sv = np.empty((grp.shape[0], 1), V.dtype)
    tmp = np.empty(1, V.dtype)
    base = np.empty(1, V.dtype)
    save = np.empty((max(rolls_left, 1), keep_add.shape[0], 1), V.dtype)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    _situation(
        V, mask, flag, u, rolls_left, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier,
        group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob, inv_faces,
        X, stop, A, Sv, tmp, save, base, legal, nlegal, ctxg,
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
        keep_out[k] = np.nan if rolls_left == 0 else np.float64(save[rolls_left - 1, k, 0]) + b


@njit(cache=True, inline="always")
def _choose(stop, save, X, base, roll, rolls_left, s, grp, ctxg, legal, nlegal, rowsel, cval, rsub, n_rsub):  # type: ignore[no-untyped-def]
    """Best decision for a throw: (box or -1, keep index or -1, value relative to base)."""
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
            v = save[rolls_left - 1, k, 0]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, best


@njit(cache=True, parallel=True)
def _best_batch(  # type: ignore[no-untyped-def]
    V, masks, flags, uppers, rolls, rolls_left, sharps, n_flags, y_box, thr, bonus, row_box, row_up,
    row_mode, tier, group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob, inv_faces,
    n_sharp, rsub, n_rsub, n_threads, out_box, out_keep, out_value,
):  # fmt: skip
    """Best decision of many situations (one per index), in parallel."""
    n = tier.shape[2]
    n_groups = group_match.shape[0]
    m = masks.shape[0]
    stages_max = 0
    for q in range(m):
        stages_max = max(stages_max, rolls_left[q])
    for th in prange(n_threads):
        X = np.empty((row_box.shape[0], 1), V.dtype)
        stop = np.empty((n_sharp, grp.shape[0], 1), V.dtype)
        A = np.empty((keep_add.shape[0], 1), V.dtype)
        Sv = np.empty((grp.shape[0], 1), V.dtype)
        tmp = np.empty(1, V.dtype)
        base = np.empty(1, V.dtype)
        save = np.empty((max(stages_max, 1), keep_add.shape[0], 1), V.dtype)
        legal = np.empty((n_groups, n), np.int32)
        nlegal = np.empty(n_groups, np.int32)
        ctxg = np.empty(n_groups, np.int32)
        for q in range(th, m, n_threads):
            t = rolls_left[q]
            _situation(
                V, masks[q], flags[q], uppers[q], t, n_flags, y_box, thr, bonus, row_box, row_up,
                row_mode, tier, group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob,
                inv_faces, X, stop, A, Sv, tmp, save, base, legal, nlegal, ctxg,
            )  # fmt: skip
            s = 1 if sharps[q] and n_sharp == 2 else 0
            box, keep, v = _choose(
                stop, save, X, base, rolls[q], t, s, grp, ctxg, legal, nlegal, rowsel, cval, rsub, n_rsub
            )
            out_box[q] = box
            out_keep[q] = keep
            out_value[q] = np.float64(v) + base[0]


@njit(cache=True, inline="always")
def _next_random(state):  # type: ignore[no-untyped-def]
    """splitmix64: returns (new state, 64-bit output)."""
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, parallel=True)
def _simulate(  # type: ignore[no-untyped-def]
    V, n_games, seed, n_flags, y_box, thr, bonus, row_box, row_up, row_mode, tier, group_match, grp,
    rowsel, cval, total, keep_add, subs, n_sub, n_small, prob, inv_faces, n_sharp, rsub, n_rsub,
    keep_counts, roll_of_code, n_dice, faces, throws, ibonus, n_threads, out,
):  # fmt: skip
    """Play ``n_games`` solo games with the optimal policy; game ``i`` uses its own seeded stream."""
    n = tier.shape[2]
    n_groups = group_match.shape[0]
    stages = throws - 1
    for th in prange(n_threads):
        X = np.empty((row_box.shape[0], 1), V.dtype)
        stop = np.empty((n_sharp, grp.shape[0], 1), V.dtype)
        A = np.empty((keep_add.shape[0], 1), V.dtype)
        Sv = np.empty((grp.shape[0], 1), V.dtype)
        tmp = np.empty(1, V.dtype)
        base = np.empty(1, V.dtype)
        save = np.empty((max(stages, 1), keep_add.shape[0], 1), V.dtype)
        legal = np.empty((n_groups, n), np.int32)
        nlegal = np.empty(n_groups, np.int32)
        ctxg = np.empty(n_groups, np.int32)
        counts = np.empty(faces, np.int64)
        for game in range(th, n_games, n_threads):
            rng = (np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(game)) & np.uint64(0xFFFFFFFFFFFFFFFF)
            rng, _ = _next_random(rng)
            mask = 0
            flag = 0
            u = 0
            score = 0
            for _turn_no in range(n):
                _situation(
                    V, mask, flag, u, stages, n_flags, y_box, thr, bonus, row_box, row_up, row_mode,
                    tier, group_match, grp, rowsel, cval, keep_add, subs, n_sub, n_small, prob,
                    inv_faces, X, stop, A, Sv, tmp, save, base, legal, nlegal, ctxg,
                )  # fmt: skip
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
                    box, keep, _v = _choose(
                        stop, save, X, base, roll, t, s, grp, ctxg, legal, nlegal, rowsel, cval, rsub, n_rsub
                    )
                    if box >= 0:
                        break
                    kept = 0
                    for f in range(faces):
                        counts[f] = keep_counts[keep, f]
                        kept += counts[f]
                    t -= 1
                c = ctxg[grp[roll]]
                row = rowsel[c, s, roll, box]
                p = row_up[row]
                score += total[c, s, roll, box]
                if u < thr <= u + p:
                    score += ibonus
                u = min(u + p, thr)
                mode = row_mode[row]
                if mode > 0:
                    flag = mode - 1
                mask |= 1 << box
            out[game] = score
