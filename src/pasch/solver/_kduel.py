# ruff: noqa: N803, N806  (V, X, A, T: the names of the tables in the other kernels)
# mypy: allow-untyped-defs
"""Two-player duels in one kernel: ``bot:win`` against ``bot:optimal``, many seeded games per call.

Private. Seat 0 plays the win rule of ``_kwin`` (at each of its turns the opponent's final-score law
from the survival table, then :func:`~pasch.solver._kwin._win_turn`), seat 1 the expected-score
optimal policy (the one-lane turn of ``_kone._situation`` and ``_kparts._decide``, the decisions of
:meth:`Solver.best`). Like the simulation kernel it releases the GIL and each call of a thread takes
every ``n_threads``-th game; game ``g`` throws from its own splitmix64 stream, so the results do not
depend on the threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kone import _scratch, _situation
from pasch.solver._kparts import _decide, _next_random
from pasch.solver._kwin import _opp_weights, _win_decide, _win_scratch, _win_turn


@njit(cache=True, inline="always")
def _game_stream(seed, game):
    """The splitmix64 state of one game's dice (as in the simulation kernel).

    Args:
        seed: the duel's seed.
        game: the game's index.
    """
    r0 = (np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(game)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    r0, _ = _next_random(r0)
    return r0


@njit(cache=True, nogil=True)
def _duel_games(
    V, T, theta, tscale, tsidx, surv, sscale, ssidx, T64, g0, n_games, seed, win_even, out, trace, th, n_threads
):
    """Play games ``th, th + n_threads, ...`` of a duel; ``out[g] = (win seat's total, optimal seat's total)``.

    Args:
        V: the value table (expected further scores).
        T: the rule set's tables in ``V``'s dtype.
        theta: the threshold table.
        tscale: what one unit of ``theta`` is worth.
        tsidx: the row of each state in ``theta``.
        surv: the survival table.
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        T64: the rule set's tables in float64 (the win rule's turn).
        g0: the index of the first game (its dice stream and who starts it): a duel played in chunks
            throws the same dice as in one call.
        n_games: games in this call; game ``game`` of the call is game ``g0 + game`` of the duel.
        seed: the duel's seed.
        win_even: 1 when the win seat starts the even games, 0 when it starts the odd ones.
        out: output ``[game, seat]`` final totals.
        trace: output ``[game, turn, k]`` for the first ``trace.shape[0]`` games: per turn of the game
            (both players' turns in play order) the throw indices (``k < stages + 1``), the keeps
            (``stages + 1 <= k < 2 * stages + 2``) and the box (last); -1 where none.
        th: this call's share.
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
    stages = np.int64(T.stages)
    X, stop, A, M, Sv, save, base, legal, nlegal, ctxg = _scratch(V, stages, T)
    W = _win_scratch(T64)
    legal_row = np.empty(n, np.int32)
    width = surv.shape[1]
    w = np.empty(width, np.float64)
    cum = np.empty(width + 1, np.float64)
    rows1 = np.empty(1, np.int64)
    offs1 = np.empty(1, np.int64)
    masks = np.zeros(2, np.int64)
    flags = np.zeros(2, np.int64)
    us = np.zeros(2, np.int64)
    scores = np.zeros(2, np.int64)
    counts = np.empty(faces, np.int64)
    n_trace = trace.shape[0]
    for game in range(th, n_games, n_threads):
        rng = _game_stream(seed, g0 + game)
        for p in range(2):
            masks[p] = 0
            flags[p] = 0
            us[p] = 0
            scores[p] = 0
        first = 0 if ((g0 + game) % 2 == 0) == (win_even == 1) else 1
        for turn_no in range(2 * n):
            p = first if turn_no % 2 == 0 else 1 - first
            mask = masks[p]
            flag = flags[p]
            u = us[p]
            if p == 0:
                rows1[0] = ssidx[masks[1], flags[1], us[1]]
                offs1[0] = scores[1]
                _opp_weights(surv, sscale, rows1, offs1, scores[1], w, cum)
                _win_turn(theta, tscale, tsidx, mask, flag, u, scores[0], w, cum, scores[1], stages, T64, W)
            else:
                _situation(V, mask, flag, u, stages, T, X, stop, A, M, Sv, save, base, legal, nlegal, ctxg)
            for f in range(faces):
                counts[f] = 0
            kept = 0
            t = stages
            k_throw = 0
            while True:
                for _d in range(n_dice - kept):
                    rng, z = _next_random(rng)
                    counts[(z >> np.uint64(11)) % np.uint64(faces)] += 1
                code = 0
                for f in range(faces - 1, -1, -1):
                    code = code * (n_dice + 1) + counts[f]
                roll = roll_of_code[code]
                s = 1 if kept == 0 and n_sharp == 2 else 0
                if p == 0:
                    box, keep, _v, c = _win_decide(mask, u, roll, t, s, T64, W)
                else:
                    box, keep, _v, c = _decide(
                        X, save, 0, mask, flag, roll, t, s,
                        tier, rowsel, cval, grp, y_box, group_match, rsub, n_rsub, legal_row,
                    )  # fmt: skip
                if game < n_trace:
                    trace[game, turn_no, k_throw] = roll
                    trace[game, turn_no, stages + 1 + k_throw] = keep
                if box >= 0:
                    break
                kept = 0
                for f in range(faces):
                    counts[f] = keep_counts[keep, f]
                    kept += counts[f]
                t -= 1
                k_throw += 1
            if game < n_trace:
                trace[game, turn_no, 2 * stages + 2] = box
            row = rowsel[c, s, roll, box]
            up = row_up[row]
            scores[p] += total[c, s, roll, box]
            if u < thr <= u + up:
                scores[p] += ibonus
            us[p] = min(u + up, thr)
            mode = row_mode[row]
            if mode > 0:
                flags[p] = mode - 1
            masks[p] = mask | (1 << box)
        out[game, 0] = scores[0]
        out[game, 1] = scores[1]


@njit(cache=True)
def _duel_decide(V, T, theta, tscale, tsidx, surv, sscale, ssidx, T64, seat, masks, flags, us, totals, roll, t, sharp):
    """One decision of a duel's seat, exactly as :func:`_duel_games` takes it: (box or -1, keep or -1).

    Args:
        V: the value table.
        T: the rule set's tables in ``V``'s dtype.
        theta: the threshold table.
        tscale: what one unit of ``theta`` is worth.
        tsidx: the row of each state in ``theta``.
        surv: the survival table.
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        T64: the rule set's tables in float64.
        seat: 0 the win rule, 1 the optimal policy.
        masks: both seats' filled-box masks (seat 0 = the win seat).
        flags: both seats' all-alike flags.
        us: both seats' capped upper totals.
        totals: both seats' totals.
        roll: the throw on the table.
        t: rolls left.
        sharp: whether the throw is sharp.
    """
    n = T.tier.shape[2]
    stages = np.int64(T.stages)
    mask = masks[seat]
    flag = flags[seat]
    u = us[seat]
    s = 1 if sharp and T.n_sharp == 2 else 0
    if seat == 0:
        W = _win_scratch(T64)
        width = surv.shape[1]
        w = np.empty(width, np.float64)
        cum = np.empty(width + 1, np.float64)
        rows1 = np.empty(1, np.int64)
        offs1 = np.empty(1, np.int64)
        rows1[0] = ssidx[masks[1], flags[1], us[1]]
        offs1[0] = totals[1]
        _opp_weights(surv, sscale, rows1, offs1, totals[1], w, cum)
        _win_turn(theta, tscale, tsidx, mask, flag, u, totals[0], w, cum, totals[1], stages, T64, W)
        box, keep, _v, _c = _win_decide(mask, u, roll, t, s, T64, W)
        return box, keep
    X, stop, A, M, Sv, save, base, legal, nlegal, ctxg = _scratch(V, stages, T)
    legal_row = np.empty(n, np.int32)
    _situation(V, mask, flag, u, stages, T, X, stop, A, M, Sv, save, base, legal, nlegal, ctxg)
    box, keep, _v, _c = _decide(
        X, save, 0, mask, flag, roll, t, s, T.tier, T.rowsel, T.cval, T.grp, T.y_box,
        T.group_match, T.rsub, T.n_rsub, legal_row,
    )  # fmt: skip
    return box, keep
