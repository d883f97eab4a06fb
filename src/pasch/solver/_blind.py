"""The best *blind* play against expected-score players: exactly, by one table of utilities.

A blind player never looks at the opponent's sheet. Against an opponent who plays for the expected score
(``bot:optimal``), whose final score has the fixed law ``q`` of :func:`~pasch.solver.score_distribution`
whatever the blind player does, winning is worth ``U(s) = P(opponent < s) + P(opponent = s) / 2`` for a
final score ``s`` (a shared first place counts half, as :func:`~pasch.app.duel` counts it). So the best blind
strategy is the one that maximises the expected ``U`` of its own final score, and its win share is that
maximum from the empty sheet: :func:`~pasch.solver._target.build_utility` gives it exactly, with the
threshold table's kernel. It is the ceiling of every strategy that ignores the opponent (Perkins' blind
tournaments), where ``bot:win`` watches the opponent. With several opponents ``U`` is the expected share
against all of them (:func:`win_utility`).

One approximation: the table covers final scores up to ``top`` (its width less one, at most 511), and counts
every score from ``top`` on as a certain win. The share is then too high by at most ``P(reach top) x P(the
best opponent ends at top or more)`` (the first under the best play for reaching ``top``, from the threshold
table), which :class:`BlindWin` states as ``error``: 0 where no score exceeds the width (``yatzy``), 4e-5
for ``yahtzee`` against one opponent, whose extra Yahtzee bonuses give scores up to 1,575.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pasch.solver._dist import score_distribution
from pasch.solver._target import build_utility, table_width, target_table

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = ["BlindWin", "blind_win", "win_utility"]


@dataclass(frozen=True, slots=True)
class BlindWin:
    """The best blind strategy's win share against expected-score players.

    Attributes:
        share: its probability of winning, a tie counting half (exact but for ``error``).
        error: the most ``share`` may exceed the true value by (scores at or beyond ``top`` count as wins).
        top: the highest final score the table tells apart.
        opponent_tail: P(the best opponent ends with ``top`` points or more).
        seconds: the time the tables took to build.
    """

    share: float
    error: float
    top: int
    opponent_tail: float
    seconds: float


def win_utility(probs: npt.NDArray[np.float64], offset: int, opponents: int, size: int) -> npt.NDArray[np.float64]:
    """``U[s]`` for ``s < size``: the share of the win that ending with ``s`` points brings against ``opponents``
    independent players whose final scores follow ``probs`` (``probs[i]``: P(ending with ``offset + i``)).

    Beating all of them wins; tying with ``k`` of them, the rest below, wins ``1 / (k + 1)``:
    ``U(s) = sum_k C(n, k) q(s)^k F(s - 1)^(n - k) / (k + 1)``, with ``q(s)`` P(one opponent ends on ``s``) and
    ``F(s - 1)`` P(one ends below ``s``).
    """
    if opponents < 1:
        raise ValueError("at least one opponent")
    q = np.zeros(max(size, offset + len(probs)) + 1)
    q[offset : offset + len(probs)] = probs
    below = np.concatenate(([0.0], np.cumsum(q)[:-1]))
    u = np.zeros(len(q))
    for k in range(opponents + 1):
        u += math.comb(opponents, k) * q**k * below ** (opponents - k) / (k + 1)
    return np.minimum(u, 1.0)[:size]


def blind_win(solver: Solver, threads: int | None = None, *, opponents: int = 1, use_cache: bool = True) -> BlindWin:
    """Build the blind player's table for ``solver``'s rule set and read its win share off the empty sheet:
    against ``opponents`` expected-score players (a table of ``opponents + 1``; its fair share is
    ``1 / (opponents + 1)``).

    Costs about as much as a threshold table in float32 (``yahtzee``: 75 s and 0.74 GB, ``yatzy``: 218 s and
    1.4 GB, on two shared cores); the table itself is not kept. ``use_cache`` says whether the threshold table
    that bounds the error may come from (and go to) the cache.
    """
    start = time.perf_counter()
    p = solver.prep
    w = table_width(p)
    top = w - 1
    law = score_distribution(solver)
    utility = win_utility(law.probs, law.offset, opponents, w + 1)
    # P(the best opponent ends on top or more): a score of top or more counts as a certain win
    below_top = float(np.sum(law.probs[: max(0, top - law.offset)]))
    tail = float(max(0.0, 1.0 - below_top**opponents))
    utility[top:] = 1.0
    theta, sidx = build_utility(p, utility, np.float32, threads)
    share = float(theta[sidx[0, 0, 0], top])
    del theta
    error = 0.0
    if tail > 0.0:  # the threshold table of the hints (loaded from the cache, or built and kept there)
        error = target_table(solver, use_cache=use_cache).p_reach([None] * p.n_boxes, top) * tail
    return BlindWin(share, error, top, tail, time.perf_counter() - start)
