# ruff: noqa: N803, N806  (V, X, A, T: the names of the tables in the other kernels)
# mypy: allow-untyped-defs
"""Duels in one kernel: ``bot:win`` against one to seven ``bot:optimal`` seats, many seeded games per call.

Private. Seat 0 plays the win rule of ``_kwin`` (at each of its turns the law of the best opponent's
final score from the survival table, then :func:`~pasch.solver._kwin._win_turn`), the other seats the expected-score
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


@njit(cache=True, inline="always")
def _opponents(masks, flags, us, scores, ssidx, rows, offs):
    """The other seats' rows of the survival table and totals (into ``rows``, ``offs``); returns their best total.

    Args:
        masks: every seat's filled-box mask (seat 0: the win seat).
        flags: every seat's all-alike flag.
        us: every seat's capped upper total.
        scores: every seat's total.
        ssidx: the row of each state in the survival table.
        rows: output, seats 1 .. n - 1.
        offs: output, seats 1 .. n - 1.
    """
    best = scores[1]
    for q in range(1, masks.shape[0]):
        rows[q - 1] = ssidx[masks[q], flags[q], us[q]]
        offs[q - 1] = scores[q]
        if scores[q] > best:
            best = scores[q]
    return best


@njit(cache=True, nogil=True)
def _duel_games(
    V, T, theta, tscale, tsidx, surv, sscale, ssidx, T64, g0, n_games, seed, win_even, out, trace, th, n_threads
):
    """Play games ``th, th + n_threads, ...`` of a table; ``out[g, p]``: seat ``p``'s final total.

    Seat 0 plays the win rule against the law of the best of the other seats' final scores; seats 1 ..
    ``out.shape[1] - 1`` play the expected-score optimal policy. Play goes round the seats in order from
    the first player of the game, ``(g0 + game + 1 - win_even) % players``: with two players the win seat
    starts the even games (``win_even``) or the odd ones, and with more every seat starts in turn.

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
        out: output ``[game, seat]`` final totals (its columns: the players).
        trace: output ``[game, turn, k]`` for the first ``trace.shape[0]`` games: per turn of the game
            (every player's turns in play order) the throw indices (``k < stages + 1``), the keeps
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
    n_players = out.shape[1]
    rows = np.empty(n_players - 1, np.int64)
    offs = np.empty(n_players - 1, np.int64)
    masks = np.zeros(n_players, np.int64)
    flags = np.zeros(n_players, np.int64)
    us = np.zeros(n_players, np.int64)
    scores = np.zeros(n_players, np.int64)
    counts = np.empty(faces, np.int64)
    n_trace = trace.shape[0]
    for game in range(th, n_games, n_threads):
        rng = _game_stream(seed, g0 + game)
        for p in range(n_players):
            masks[p] = 0
            flags[p] = 0
            us[p] = 0
            scores[p] = 0
        first = (g0 + game + 1 - win_even) % n_players
        for turn_no in range(n_players * n):
            p = (first + turn_no) % n_players
            mask = masks[p]
            flag = flags[p]
            u = us[p]
            if p == 0:
                best = _opponents(masks, flags, us, scores, ssidx, rows, offs)
                _opp_weights(surv, sscale, rows, offs, best, w, cum)
                left = n - 1 - turn_no // n_players
                _win_turn(
                    theta,
                    tscale,
                    tsidx,
                    surv,
                    sscale,
                    ssidx,
                    mask,
                    flag,
                    u,
                    scores[0],
                    w,
                    cum,
                    best,
                    stages,
                    T64,
                    W,
                    left,
                )
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
        for p in range(n_players):
            out[game, p] = scores[p]


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
        seat: 0 the win rule, any other the optimal policy.
        masks: every seat's filled-box mask (seat 0 = the win seat).
        flags: every seat's all-alike flag.
        us: every seat's capped upper total.
        totals: every seat's total.
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
        rows = np.empty(masks.shape[0] - 1, np.int64)
        offs = np.empty(masks.shape[0] - 1, np.int64)
        best = _opponents(masks, flags, us, totals, ssidx, rows, offs)
        _opp_weights(surv, sscale, rows, offs, best, w, cum)
        left = 0
        for i in range(n):
            if not (mask >> i) & 1:
                left += 1
        _win_turn(
            theta, tscale, tsidx, surv, sscale, ssidx, mask, flag, u, totals[0], w, cum, best, stages, T64, W, left - 1
        )
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
