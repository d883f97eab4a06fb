# ruff: noqa: N803, N806  (A, T, L: the names of the tables and lanes in the other kernels)
# mypy: allow-untyped-defs
"""The win-probability decision rule: one turn played for the expected chance of finishing ahead.

Private. The one rule of ``bot:win``, of :meth:`TargetTable.win_options` and of the duel kernel
(``_kduel``), so that a benchmark measures the bot the package offers:

* At the start of the turn the law of the best opponent's final score is fixed (the opponents do not
  move during it): ``w[j] = P(best opponent ends on base + j)`` (:func:`_opp_weights` from the
  survival table, or the caller's from :class:`~pasch.solver.ScoreDistribution` objects).
* Ending the turn by entering box ``i`` for ``gain`` points (upper bonus included) into the next
  state ``s'`` is worth ``V = sum_j w[j] * P(reach base + j + 1 - (mine + gain) more points from s')``,
  the reach probabilities read from the threshold table (a need of 0 or less counts 1, a need of the
  table's width or more counts 0): each threshold under its own best play *after* this turn.
  :func:`_win_entry` computes it once per distinct (next-state row, gain) of the state and keeps it.
* Inside the turn the player follows the exact best policy for ``E[V]``: a one-lane turn of the shared
  pieces (:func:`~pasch.solver._kparts._turn`) over the entry values :func:`_wstops` writes. This is
  one consistent policy within the turn (a proper one-turn lookahead), not a best play per threshold.

Ties go to the first legal box in sheet order, then to the first keep in the throw's keep order, in
the kernels and in the Python options alike (options are sorted stably, boxes first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pasch.solver._kparts import NEG, _legal, _turn


@njit(cache=True, nogil=True)
def _opp_weights(surv, scale, rows, offs, base, w, cum):
    """``w[j] = P(best opponent's final score = base + j)`` and ``cum[j] = w[0] + ... + w[j - 1]``.

    Each opponent's final score is its total ``offs[k]`` plus a remaining score whose survival function
    is its row of the survival table (made non-increasing, as :meth:`SurvivalTable.distribution` does);
    the best of independent opponents has ``P(max <= t) = prod_k P(final_k <= t)``.

    Args:
        surv: the survival table ``[state, t]`` (uint16 or float).
        scale: what one unit of ``surv`` is worth.
        rows: each opponent's row of ``surv``.
        offs: each opponent's total now.
        base: the first score of ``w`` (at least every ``offs[k]``).
        w: output weights.
        cum: output running sums, one longer than ``w``.
    """
    width = surv.shape[1]
    n = w.shape[0]
    for j in range(n):
        w[j] = 1.0  # the cdf of the best, until the differences below
    for k in range(rows.shape[0]):
        row = surv[rows[k]]
        m = 1.0
        first = base - offs[k] + 1  # P(final <= base + j) = 1 - S(base + j - off + 1)
        for q in range(1, min(first, width)):
            v = row[q] * scale
            if v < m:
                m = v
        for j in range(n):
            q = first + j
            if q >= width:
                s = 0.0
            else:
                v = row[q] * scale
                if v < m:
                    m = v
                s = m
            w[j] *= 1.0 - s
    prev = 0.0
    cum[0] = 0.0
    for j in range(n):
        c = w[j]
        d = c - prev
        prev = c
        w[j] = d if d > 0.0 else 0.0
        cum[j + 1] = cum[j] + w[j]


@njit(cache=True, inline="always")
def _next_state(mask, flag, u, row, T):
    """The state after an entry of next-state row ``row``: (mask, flag, upper).

    Args:
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        row: the entry's next-state row.
        T: the rule set's tables.
    """
    nm = mask | (1 << T.row_box[row])
    mode = T.row_mode[row]
    nf = flag if mode == 0 else mode - 1
    if T.n_flags == 1:
        nf = 0
    return nm, nf, min(u + T.row_up[row], T.thr)


TIE = 0.5
"""What a shared first place is worth to the win rule: half a win (a duel's and ``pasch duel``'s count)."""

BLEND = 0.3
"""How much of an entry's value comes from the survival table instead of the threshold table at the first
turn (linearly less each turn after, none at the last): ``bench/win.py`` measured its effect."""


@njit(cache=True, inline="always")
def _bounds(n, width, d, shift):
    """The range ``[sure, hi)`` of :func:`_reach_sum`'s loop: below ``sure`` a need of 0 or less (certain).

    Args:
        n: the length of ``w``.
        width: the table's width.
        d: this player's total after the entry minus the score of ``w[0]``.
        shift: 1 to finish ahead, 0 to reach.
    """
    return min(max(d - shift + 1, 0), n), min(n, d - shift + width)


@njit(cache=True, inline="always")
def _reach_sum(src, scale, w, cum, d, shift):
    """``sum_j w[j] * P(reaching j + shift - d more points)`` over a row ``src`` of the threshold table.

    A need of 0 or less counts 1 (those ``w[j]`` are summed in ``cum``), one of the table's width or more 0.

    Args:
        src: the row of the state after the entry.
        scale: what one unit of ``src`` is worth.
        w: the best opponent's law.
        cum: its running sums.
        d: this player's total after the entry minus the score of ``w[0]``.
        shift: 1 to finish ahead of ``base + j``, 0 to reach it.
    """
    sure, hi = _bounds(w.shape[0], src.shape[0], d, shift)
    acc = 0.0
    for j in range(sure, hi):
        acc += w[j] * src[j + shift - d]
    return cum[sure] + acc * scale


@njit(cache=True, inline="always")
def _alpha(left, n):
    """The weight of the threshold table in an entry's value when ``left`` of ``n`` boxes stay open after it.

    ``1 - BLEND * left / (n - 1)``: 1 for the last entry, ``1 - BLEND`` for the first.

    Args:
        left: boxes open after this turn.
        n: boxes on the sheet.
    """
    if n <= 1 or left <= 0:
        return 1.0
    return 1.0 - BLEND * left / (n - 1)


@njit(cache=True, nogil=True)
def _win_entry(theta, scale, sidx, surv, sscale, ssidx, alpha, nm, nf, nu, mine, w, cum, base):
    """The value of an entry that leaves ``mine`` points on the sheet in state (nm, nf, nu).

    ``alpha * A(theta) + (1 - alpha) * A(surv)``, where ``A(table) = (1 - TIE) * sum_j w[j] * P(reach
    base + j + 1) + TIE * sum_j w[j] * P(reach base + j)`` reads the reach probabilities from one table:
    finishing ahead of ``base + j`` is a win, reaching it exactly a tie worth :data:`TIE`. The threshold
    table gives each threshold its own best play after this turn (optimistic: it plays as if it knew the
    opponents' final score), the survival table the expected-score play (pessimistic: it never adapts).

    The four sums of :func:`_reach_sum` (two tables, win and tie) run in one loop with four running sums,
    each added up in the same order as alone, so the value is the same to the last bit; the loop is bound
    by the latency of its additions, and four independent chains take the time of one.

    Args:
        theta: the threshold table (uint16 or float).
        scale: what one unit of ``theta`` is worth.
        sidx: the row of each state in ``theta``.
        surv: the survival table (or ``theta`` again, with ``alpha`` 1).
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        alpha: the weight of ``theta`` (:func:`_alpha`).
        nm: filled-box mask after the entry.
        nf: all-alike flag after the entry.
        nu: capped upper total after the entry.
        mine: this player's total after the entry.
        w: the best opponent's law (:func:`_opp_weights`).
        cum: its running sums.
        base: the score of ``w[0]``.
    """
    d = mine - base  # w[j] needs base + j + 1 - mine = j + 1 - d more points to win, j - d to tie
    src = theta[sidx[nm, nf, nu]]
    n = w.shape[0]
    width = src.shape[0]
    lo1, hi1 = _bounds(n, width, d, 1)  # the win sum: j in [lo1, hi1)
    lo0, hi0 = _bounds(n, width, d, 0)  # the tie sum: j in [lo0, hi0); lo0 >= lo1, hi0 >= hi1
    mid = min(lo0, hi1)
    both = alpha < 1.0 and surv.shape[1] == width
    if not both:
        a1 = 0.0
        a0 = 0.0
        for j in range(lo1, mid):
            a1 += w[j] * src[j + 1 - d]
        for j in range(lo0, hi1):
            a1 += w[j] * src[j + 1 - d]
            a0 += w[j] * src[j - d]
        for j in range(max(lo0, hi1), hi0):
            a0 += w[j] * src[j - d]
        v = (1.0 - TIE) * (cum[lo1] + a1 * scale) + TIE * (cum[lo0] + a0 * scale)
        if alpha >= 1.0:
            return v
        row = surv[ssidx[nm, nf, nu]]
        s = (1.0 - TIE) * _reach_sum(row, sscale, w, cum, d, 1) + TIE * _reach_sum(row, sscale, w, cum, d, 0)
        return alpha * v + (1.0 - alpha) * s
    row = surv[ssidx[nm, nf, nu]]
    a1 = 0.0
    a0 = 0.0
    b1 = 0.0
    b0 = 0.0
    for j in range(lo1, mid):
        a1 += w[j] * src[j + 1 - d]
        b1 += w[j] * row[j + 1 - d]
    for j in range(lo0, hi1):
        x = w[j]
        a1 += x * src[j + 1 - d]
        a0 += x * src[j - d]
        b1 += x * row[j + 1 - d]
        b0 += x * row[j - d]
    for j in range(max(lo0, hi1), hi0):
        a0 += w[j] * src[j - d]
        b0 += w[j] * row[j - d]
    v = (1.0 - TIE) * (cum[lo1] + a1 * scale) + TIE * (cum[lo0] + a0 * scale)
    s = (1.0 - TIE) * (cum[lo1] + b1 * sscale) + TIE * (cum[lo0] + b0 * sscale)
    return alpha * v + (1.0 - alpha) * s


@njit(cache=True, nogil=True)
def _wstops(theta, scale, sidx, surv, sscale, ssidx, alpha, mask, flag, u, mine, w, cum, base, legal, nlegal, ctxg, T,
            memo, stop):  # fmt: skip
    """``stop[s, r, 0]``: the best entry of each throw valued by :func:`_win_entry` (values kept in ``memo``).

    Args:
        theta: the threshold table.
        scale: what one unit of ``theta`` is worth.
        sidx: the row of each state.
        surv: the survival table.
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        alpha: the weight of ``theta`` in the entries' values.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        mine: this player's total now.
        w: the best opponent's law.
        cum: its running sums.
        base: the score of ``w[0]``.
        legal: legal boxes per group (from :func:`~pasch.solver._kparts._legal`).
        nlegal: how many legal boxes each group has.
        ctxg: each group's scoring context.
        T: the rule set's tables.
        memo: ``[row, gain]`` entry values, NaN where not computed yet (filled in).
        stop: output ``[sharp, roll, 1]``.
    """
    grp, rowsel, total = T.grp, T.rowsel, T.total
    thr = T.thr
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            best = NEG
            for q in range(nlegal[g]):
                i = legal[g, q]
                row = rowsel[c, s, r, i]
                gain = total[c, s, r, i]
                if u < thr <= u + T.row_up[row]:
                    gain += T.ibonus
                v = memo[row, gain]
                if np.isnan(v):
                    nm, nf, nu = _next_state(mask, flag, u, row, T)
                    v = _win_entry(
                        theta, scale, sidx, surv, sscale, ssidx, alpha, nm, nf, nu, mine + gain, w, cum, base
                    )
                    memo[row, gain] = v
                if v > best:
                    best = v
            stop[s, r, 0] = best


@njit(cache=True, nogil=True)
def _win_turn(theta, scale, sidx, surv, sscale, ssidx, mask, flag, u, mine, w, cum, base, stages, T, W, left):
    """Solve one turn of the win rule: entry values in ``W.memo``, keep values in ``W.save``.

    Args:
        theta: the threshold table.
        scale: what one unit of ``theta`` is worth.
        sidx: the row of each state.
        surv: the survival table (``theta`` again for the threshold table alone).
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        mine: this player's total now.
        w: the best opponent's law.
        cum: its running sums.
        base: the score of ``w[0]``.
        stages: keep stages to solve (rolls left after the throw on the table).
        T: the rule set's tables (float64).
        W: scratch from :func:`_win_scratch`.
        left: boxes open after this turn (for :func:`_alpha`); -1: the threshold table alone.
    """
    memo, stop, A, M, Sv, save, legal, nlegal, ctxg = W
    memo[:] = np.nan
    y_filled = T.y_box >= 0 and (mask >> T.y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    _legal(mask, yclass, T, legal, nlegal, ctxg)
    alpha = _alpha(left, T.tier.shape[2]) if left >= 0 else 1.0
    _wstops(theta, scale, sidx, surv, sscale, ssidx, alpha, mask, flag, u, mine, w, cum, base, legal, nlegal, ctxg, T,
            memo, stop)  # fmt: skip
    if stages > 0:
        _turn(stop, A, M, Sv, np.int64(1), np.int64(stages), T, save)


@njit(cache=True, nogil=True)
def _win_scratch(T):
    """The work arrays of :func:`_win_turn` for a rule set's tables (float64).

    Args:
        T: the rule set's tables.
    """
    n = T.tier.shape[2]
    n_groups = T.group_match.shape[0]
    n_rolls = T.grp.shape[0]
    n_keeps = T.keep_add.shape[0]
    gains = 0
    for v in T.total.ravel():
        if v > gains:
            gains = v
    memo = np.empty((T.row_box.shape[0], gains + max(T.ibonus, 0) + 1), np.float64)
    stop = np.empty((T.n_sharp, n_rolls, 1), np.float64)
    A = np.empty((n_keeps, 1), np.float64)
    M = np.empty((T.n_small, 1), np.float64)
    Sv = np.empty((n_rolls, 1), np.float64)
    save = np.empty((max(T.stages, 1), n_keeps, 1), np.float64)
    legal = np.empty((n_groups, n), np.int32)
    nlegal = np.empty(n_groups, np.int32)
    ctxg = np.empty(n_groups, np.int32)
    return memo, stop, A, M, Sv, save, legal, nlegal, ctxg


@njit(cache=True, inline="always")
def _win_decide(mask, u, roll, t, s, T, W):
    """The win rule's decision after :func:`_win_turn`: (box or -1, keep or -1, value, context).

    Args:
        mask: filled-box mask.
        u: capped upper total.
        roll: the throw on the table.
        t: rolls left.
        s: 1 for a sharp throw, else 0.
        T: the rule set's tables.
        W: the scratch :func:`_win_turn` filled.
    """
    memo, _stop, _A, _M, _Sv, save, legal, nlegal, ctxg = W
    g = T.grp[roll]
    c = ctxg[g]
    best = NEG
    box = -1
    for q in range(nlegal[g]):
        i = legal[g, q]
        row = T.rowsel[c, s, roll, i]
        gain = T.total[c, s, roll, i]
        if u < T.thr <= u + T.row_up[row]:
            gain += T.ibonus
        v = memo[row, gain]
        if v > best:
            best = v
            box = i
    keep = -1
    if t > 0:
        for q in range(T.n_rsub[roll]):
            k = T.rsub[roll, q]
            v = save[t - 1, k, 0]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, best, c


@njit(cache=True)
def _win_options(theta, scale, sidx, surv, sscale, ssidx, blend, mask, flag, u, mine, w, cum, base, roll, rolls_left,
                 sharp, T, box_out, keep_out):  # fmt: skip
    """Every option's value under the win rule in one situation.

    Args:
        theta: the threshold table.
        scale: what one unit of ``theta`` is worth.
        sidx: the row of each state.
        surv: the survival table (``theta`` again for the threshold table alone).
        sscale: what one unit of ``surv`` is worth.
        ssidx: the row of each state in ``surv``.
        blend: whether to blend in ``surv`` (:func:`_alpha`); without, the threshold table alone.
        mask: filled-box mask.
        flag: the all-alike flag.
        u: capped upper total.
        mine: this player's total now.
        w: the best opponent's law.
        cum: its running sums.
        base: the score of ``w[0]``.
        roll: the throw on the table.
        rolls_left: rolls left in the turn.
        sharp: whether the throw is sharp (``+sharp``).
        T: the rule set's tables (float64).
        box_out: output per box: P(win) after entering the throw there (NaN: not legal).
        keep_out: output per keep: P(win) after keeping it (NaN with no roll left).
    """
    W = _win_scratch(T)
    left = -1  # boxes open after this turn
    for i in range(T.tier.shape[2]):
        if not (mask >> i) & 1:
            left += 1
    if not blend:
        left = -1
    _win_turn(theta, scale, sidx, surv, sscale, ssidx, mask, flag, u, mine, w, cum, base, rolls_left, T, W, left)
    memo, _stop, _A, _M, _Sv, save, legal, nlegal, ctxg = W
    s = 1 if sharp and T.n_sharp == 2 else 0
    g = T.grp[roll]
    c = ctxg[g]
    box_out[:] = np.nan
    for q in range(nlegal[g]):
        i = legal[g, q]
        row = T.rowsel[c, s, roll, i]
        gain = T.total[c, s, roll, i]
        if u < T.thr <= u + T.row_up[row]:
            gain += T.ibonus
        box_out[i] = memo[row, gain]
    for k in range(keep_out.shape[0]):
        keep_out[k] = np.nan if rolls_left == 0 else save[rolls_left - 1, k, 0]
