# ruff: noqa: N803, N806  (V, X, A: the names of the tables in the docstrings)
# mypy: allow-untyped-defs
"""Kernels over many situations: batched best decisions and optimal-policy simulation.

Private. ``LANES`` situations (or games in lockstep) share one pass of the turn pieces of
``_kparts``, one situation per lane. Like the table build they are not ``parallel=True``: they
release the GIL and ``_query`` runs one call per thread, each taking every ``n_threads``-th block.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import _decide, _next_random, _rows_many, _stops_many, _turn
from pasch.solver._prep import LANES


@njit(cache=True, nogil=True)
def _best_many(V, masks, flags, uppers, rolls, rolls_left, sharps, T, out_box, out_keep, out_value, th, n_threads):
    """Best decision of many situations, ``LANES`` at a time: blocks ``th, th + n_threads, ...``.

    Args:
        V: the value table.
        masks: filled-box mask of each situation.
        flags: all-alike flag of each situation.
        uppers: capped upper total of each situation.
        rolls: index of each situation's throw.
        rolls_left: rolls left in each situation's turn.
        sharps: 1 where the throw came from all dice at once.
        T: the rule set's tables.
        out_box: output: the box to enter, or -1.
        out_keep: output: the keep index, or -1.
        out_value: output: the decision's value.
        th: this call's share (0 to ``n_threads - 1``).
        n_threads: calls sharing the work.
    """
    tier, rowsel, cval, grp, y_box = T.tier, T.rowsel, T.cval, T.grp, T.y_box
    group_match, rsub, n_rsub, n_sharp = T.group_match, T.rsub, T.n_rsub, T.n_sharp
    n = tier.shape[2]
    m = masks.shape[0]
    n_blocks = (m + LANES - 1) // LANES
    stages = 0
    for q in range(m):
        stages = max(stages, rolls_left[q])
    n_rows = T.row_box.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    X = np.empty((n_rows, LANES), V.dtype)
    Xp = np.empty((n_rows, LANES), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls, LANES), V.dtype)
    A = np.empty((n_keeps, LANES), V.dtype)
    M = np.empty((T.n_small, LANES), V.dtype)
    Sv = np.empty((n_rolls, LANES), V.dtype)
    base = np.empty(LANES, V.dtype)
    save = np.empty((max(stages, 1), n_keeps, LANES), V.dtype)
    legal_row = np.empty(n, np.int32)
    for blk in range(th, n_blocks, n_threads):
        lo = blk * LANES
        L = min(LANES, m - lo)
        bm = masks[lo : lo + L]
        bf = flags[lo : lo + L]
        _rows_many(V, bm, bf, uppers[lo : lo + L], L, T, X, base)
        _stops_many(X, Xp, L, bm, bf, T, stop, legal_row)
        block_stages = np.int64(0)  # not a literal: _turn is compiled for int64 stages, once for every kernel
        for j in range(L):
            block_stages = max(block_stages, rolls_left[lo + j])
        _turn(stop, A, M, Sv, L, block_stages, T, save)
        for j in range(L):
            q = lo + j
            s = 1 if sharps[q] and n_sharp == 2 else 0
            box, keep, v, _c = _decide(
                X, save, j, masks[q], flags[q], rolls[q], rolls_left[q], s,
                tier, rowsel, cval, grp, y_box, group_match, rsub, n_rsub, legal_row,
            )  # fmt: skip
            out_box[q] = box
            out_keep[q] = keep
            out_value[q] = np.float64(v) + base[j]


@njit(cache=True, nogil=True)
def _simulate_many(V, n_games, seed, T, out, th, n_threads):
    """Play solo games with the optimal policy, ``LANES`` games in lockstep: blocks ``th, th + n_threads, ...``.

    Game ``i`` draws from its own splitmix64 stream, so results do not depend on threads or blocks.

    Args:
        V: the value table.
        n_games: games in all.
        seed: the seed of every game's stream.
        T: the rule set's tables.
        out: output: each game's final score.
        th: this call's share (0 to ``n_threads - 1``).
        n_threads: calls sharing the games.
    """
    tier, rowsel, cval, grp, y_box = T.tier, T.rowsel, T.cval, T.grp, T.y_box
    group_match, rsub, n_rsub, n_sharp = T.group_match, T.rsub, T.n_rsub, T.n_sharp
    roll_of_code, keep_counts, row_up, row_mode, total = T.roll_of_code, T.keep_counts, T.row_up, T.row_mode, T.total
    ibonus = T.ibonus
    n = tier.shape[2]
    faces = T.faces
    n_dice = T.n_dice
    thr = T.thr
    stages = T.stages
    n_blocks = (n_games + LANES - 1) // LANES
    n_rows = T.row_box.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    X = np.empty((n_rows, LANES), V.dtype)
    Xp = np.empty((n_rows, LANES), V.dtype)
    stop = np.empty((T.n_sharp, n_rolls, LANES), V.dtype)
    A = np.empty((n_keeps, LANES), V.dtype)
    M = np.empty((T.n_small, LANES), V.dtype)
    Sv = np.empty((n_rolls, LANES), V.dtype)
    base = np.empty(LANES, V.dtype)
    save = np.empty((max(stages, 1), n_keeps, LANES), V.dtype)
    legal_row = np.empty(n, np.int32)
    # Set for the lanes of each block before they are read (np.empty: np.zeros compiled two more
    # implementations into this kernel's first compile).
    masks = np.empty(LANES, np.int64)
    flags = np.empty(LANES, np.int64)
    us = np.empty(LANES, np.int64)
    scores = np.empty(LANES, np.int64)
    rngs = np.empty(LANES, np.uint64)
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
            _rows_many(V, masks, flags, us, L, T, X, base)
            _stops_many(X, Xp, L, masks, flags, T, stop, legal_row)
            _turn(stop, A, M, Sv, L, stages, T, save)
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
                        X, save, j, mask, flag, roll, t, s,
                        tier, rowsel, cval, grp, y_box, group_match, rsub, n_rsub, legal_row,
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
