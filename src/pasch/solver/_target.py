"""Target play: threshold tables and the probability of reaching a score, for every option.

:func:`target_table` builds (or loads from the user cache directory) ``P(scoring at least t more
points)`` for every reachable turn-start state and every ``t`` below the table's *width* (the rule
set's highest score plus one, at most :data:`MAX_WIDTH`), each under the policy that maximises that
probability (one policy per ``t``, as in Verhoeff's and Holderied's "threshold" tables).

Disk and precision: the table is stored as uint16, a probability ``p`` as ``round(p * 65535)``, so
every stored value is within 7.7e-6 of the float32 one it came from; while building, probabilities
below :data:`EPS` (1e-7) are set to 0, which moves no value by more than 1.3e-6 in all. States whose
upper total can no longer reach the bonus share a row, so ``yahtzee`` takes 359,616 rows x 512
points x 2 bytes = 368 MB, ``yatzy`` 958,976 x 375 x 2 = 719 MB (the stated disk budget: at most
400 MB and 750 MB).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.dice import parse_dice, space
from pasch.errors import InvalidActionError
from pasch.rules import column_totals
from pasch.solver._prep import Prep, tables
from pasch.solver._query import action_text
from pasch.solver._table import SOLVER_VERSION, cache_name, default_threads, load_array, run_threads, store_array

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = [
    "MAX_WIDTH",
    "TARGET_VERSION",
    "SurvivalTable",
    "TargetOption",
    "TargetTable",
    "build_survival",
    "build_target",
    "build_utility",
    "survival_table",
    "target_table",
]

TARGET_VERSION = 2
"""Bump when the threshold tables change: cached files are then stale."""

MAX_WIDTH = 512
"""The most points a threshold table covers; needing more counts as unreachable."""

QUANT = 65535.0
"""A stored probability is ``round(p * QUANT)`` in a uint16."""

EPS = 1e-7
"""While a threshold table is built, probabilities below this are set to 0 (a row then ends early).

Each turn's values are means and maxima of the next turn's, which never enlarge an error, so the
zeroing moves no value by more than ``13 * EPS`` (1.3e-6) in all: far below the uint16 step (1.5e-5).
"""

BLOCK = 512
"""Lanes (points needed) solved at once (longer runs of lanes pay the turn's per-keep set-up less often)."""


@dataclass(frozen=True, slots=True)
class TargetOption:
    """One option of a situation valued by the probability of reaching a target.

    Attributes:
        kind: ``"score"`` or ``"keep"``.
        probability: P(final score >= target) after this option, under the best play for the target.
        category: the box, for ``score``.
        points: what the entry pays now, for ``score``.
        keep: the dice kept, for ``keep``.
    """

    kind: str
    probability: float
    category: str | None = None
    points: int | None = None
    keep: tuple[int, ...] | None = None

    @property
    def action_text(self) -> str:
        """The action's text form (``score full_house``, ``keep 3 3 5``, ``keep``)."""
        return action_text(self.kind, self.category, self.keep)


_States = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]]
_STATES: dict[int, tuple[Prep, _States]] = {}
_MAX_STATES = 8


def _states(p: Prep) -> _States:
    """:func:`_reachable_states` of ``p``, computed once per ``Prep`` (half a second for ``yatzy``).

    Loading a table, building it and sizing its file all ask; the arrays are shared, so callers only read them.
    """
    got = _STATES.get(id(p))
    if got is not None and got[0] is p:
        return got[1]
    out = _reachable_states(p)
    _STATES[id(p)] = (p, out)
    while len(_STATES) > _MAX_STATES:  # bounded like the kernels' records: the oldest goes first
        del _STATES[next(iter(_STATES))]
    return out


def _reachable_states(p: Prep) -> _States:
    """Reachable state keys layer by layer, where each layer starts in them, and ``sidx[mask, flag, upper]``.

    States that cannot differ share a row: once the open upper boxes cannot lift the upper total to the
    bonus threshold, every such total of a mask plays and scores alike (no bonus is left to win), so
    they are solved once. In ``yahtzee`` and ``yatzy`` that is a third of the states.
    """
    n = p.n_boxes
    upper = [i for i in range(n) if p.is_upper[i]]
    values = {i: sorted({int(v) for v in np.unique(p.points[..., i])}) for i in upper}
    top = {i: max(values[i]) for i in upper}
    reach: dict[tuple[int, ...], list[int]] = {}
    lanes = p.lanes
    nf = p.n_flags
    thr = p.threshold
    layers: list[list[int]] = [[] for _ in range(n + 1)]
    alias: list[tuple[int, int, int, int]] = []  # (mask, flag, upper, key of the row it shares)
    for m in p.masks:
        mask = int(m)
        key = tuple(i for i in upper if mask >> i & 1)
        if key not in reach:
            s = {0}
            for i in key:
                s = {min(a + b, thr) for a in s for b in values[i]}
            reach[key] = sorted(s)
        room = sum(top[i] for i in upper if not mask >> i & 1)
        flags = (0, 1) if nf == 2 and p.y_box >= 0 and mask >> p.y_box & 1 else (0,)
        layer = layers[bin(mask).count("1")]
        for f in flags:
            dead = -1
            for u in reach[key]:
                k = (mask * nf + f) * lanes + u
                if u < thr and u + room < thr:  # the bonus is out of reach: one row for all such totals
                    if dead >= 0:
                        alias.append((mask, f, u, dead))
                        continue
                    dead = k
                layer.append(k)
    keys = np.array([k for layer in layers for k in layer], dtype=np.int64)
    start = np.zeros(n + 2, dtype=np.int64)
    start[1:] = np.cumsum([len(layer) for layer in layers])
    sidx = np.full((1 << n, nf, lanes), -1, dtype=np.int32)
    u_of = keys % lanes
    mf = keys // lanes
    sidx[mf // nf, mf % nf, u_of] = np.arange(len(keys), dtype=np.int32)
    for mask, f, u, k in alias:
        sidx[mask, f, u] = sidx[mask, f, k % lanes]
    return keys, start, sidx


def table_width(p: Prep) -> int:
    """Points a rule set's threshold table covers: its highest possible score plus one, at most MAX_WIDTH."""
    top = int(p.total.max(axis=(0, 1, 2)).sum()) + p.bonus
    return min(top + 1, MAX_WIDTH)


def _build_layers(
    p: Prep,
    dtype: Any,
    threads: int | None,
    width: int | None,
    layer_call: Callable[[int, int, int, npt.NDArray[Any], npt.NDArray[np.int64], Any, Any, Any], None],
    terminal: npt.NDArray[Any] | None = None,
    eps: float = EPS,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int32]]:
    """A table ``theta[state, t]`` (and ``sidx``) filled layer by layer, the fullest sheets first.

    A full sheet reaches nothing more (``theta = 1`` at 0 points, 0 beyond; its row is 1 lane wide), or its
    row is ``terminal`` (as wide as its last value of at least ``eps``);
    ``layer_call(lo, hi, n_threads, theta, wid, sidx, keys, T)`` fills the rows of ``keys[lo:hi]``.
    """
    keys, start, sidx = _states(p)
    w = width or table_width(p)
    theta = np.empty((len(keys), w), dtype=dtype)
    wid = np.zeros(len(keys), dtype=np.int64)
    n = p.n_boxes
    if terminal is None:
        theta[start[n] : start[n + 1]] = 0.0
        theta[start[n] : start[n + 1], 0] = 1.0
        wid[start[n] : start[n + 1]] = 1
    else:
        theta[start[n] : start[n + 1]] = terminal[:w]
        wid[start[n] : start[n + 1]] = int(np.nonzero(terminal[:w] >= eps)[0].max()) + 1
    t = tables(p, dtype)
    n_threads = max(1, min(threads or default_threads(), default_threads()))
    for layer in range(n - 1, -1, -1):
        lo, hi = int(start[layer]), int(start[layer + 1])
        if hi > lo:
            layer_call(lo, hi, min(n_threads, hi - lo), theta, wid, sidx, keys, t)
    return theta, sidx


def build_target(
    p: Prep,
    dtype: type[np.floating[Any]] = np.float32,
    threads: int | None = None,
    width: int | None = None,
    eps: float = EPS,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int32]]:
    """Build the threshold table of a prepared rule set: ``(theta[state, t], sidx[mask, flag, upper])``.

    Probabilities below ``eps`` are stored as 0 while building (see :data:`EPS`); ``eps=0`` keeps
    them all (exact up to the dtype, and slower: every row then runs to the table's width).

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    from pasch.solver._ktarget import _target_layer

    def layer(lo: int, hi: int, k: int, theta: Any, wid: Any, sidx: Any, keys: Any, t: Any) -> None:
        run_threads(_target_layer, k, theta, wid, sidx, keys, lo, hi, BLOCK, eps, t)

    return _build_layers(p, dtype, threads, width, layer)


def build_utility(
    p: Prep,
    utility: npt.NDArray[np.float64],
    dtype: type[np.floating[Any]] = np.float32,
    threads: int | None = None,
    eps: float = EPS,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int32]]:
    """The best expected *utility* of the final score, for every state and every score so far.

    ``utility[s]`` is what ending with ``s`` points is worth, for ``s`` from 0 up to the table's width ``w``
    (:func:`table_width`); it must not decrease and must be 1 from ``top = w - 1`` on (a utility that grows
    beyond ``top`` is cut to 1 there: the caller bounds that error). The table has the threshold table's
    layout, with lane ``t`` standing for ``top - t`` points on the sheet: ``theta[state, t]`` is the greatest
    expected ``utility(top - t + points to come)`` over all policies from that state (a threshold table is the
    step ``utility[s] = 1 for s >= top``). Entries, keeps and the zeroing of values below ``eps`` are those of
    :func:`build_target`, with one kernel; only the full sheets' row differs: ``utility[top - t]``.

    Raises:
        ValueError: a utility that decreases, or is not 1 at ``top``, or is too short.
        RuleSetError: a rule set the solver does not handle.
    """
    from pasch.solver._ktarget import _target_layer

    w = table_width(p)
    u = np.asarray(utility, dtype=np.float64)
    if u.ndim != 1 or len(u) < w or np.any(np.diff(u[:w]) < -1e-12) or u[w - 1] != 1.0 or u[0] < 0:
        raise ValueError(f"a utility is a non-decreasing vector of at least {w} values from 0 up, 1 at {w - 1}")
    terminal = u[w - 1 :: -1].astype(dtype)  # lane t: top - t points

    def layer(lo: int, hi: int, k: int, theta: Any, wid: Any, sidx: Any, keys: Any, t: Any) -> None:
        run_threads(_target_layer, k, theta, wid, sidx, keys, lo, hi, BLOCK, eps, t)

    return _build_layers(p, dtype, threads, w, layer, terminal, eps)


def build_survival(
    solver: Solver, threads: int | None = None, width: int | None = None, eps: float = EPS
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int32]]:
    """P(at least t more points) under the expected-score-optimal policy, for every state and t < width.

    Probabilities below ``eps`` are stored as 0 while building, as in :func:`build_target`.

    The same layout as :func:`build_target`, in the dtype of the solver's value table: each row is the
    survival function of the exact distribution of :func:`~pasch.solver.score_distribution` (truncated at
    the width), read in O(1) instead of a forward propagation.

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    from pasch.solver._ktarget import _survive_layer

    values = np.ascontiguousarray(solver.values)

    def layer(lo: int, hi: int, k: int, theta: Any, wid: Any, sidx: Any, keys: Any, t: Any) -> None:
        run_threads(_survive_layer, k, values, theta, wid, sidx, keys, lo, hi, eps, t)

    return _build_layers(solver.prep, solver.values.dtype, threads, width, layer)


class SurvivalTable:
    """Remaining-score distributions of expected-score play, one table row per state (uint16 on disk)."""

    def __init__(self, solver: Solver, theta: npt.NDArray[Any], sidx: npt.NDArray[np.int32], seconds: float = 0.0):
        self.solver = solver
        self.theta = theta
        self.sidx = sidx
        self.scale = 1.0 / QUANT if theta.dtype == np.uint16 else 1.0
        self.build_seconds = seconds

    def distribution(self, scores: Sequence[int | None], extra: int = 0) -> Any:
        """The final-score distribution of a column played for the expected score from here.

        Exact up to the table's precision (uint16: 7.7e-6 per value) and width (more points count as the last).

        Raises:
            InvalidActionError: a bad column.
        """
        from pasch.solver._dist import ScoreDistribution

        key = self.solver.state_key(scores)
        sur = np.asarray(self.theta[self.sidx[key.mask, key.flag, key.upper]], dtype=np.float64) * self.scale
        sur = np.minimum.accumulate(np.clip(sur, 0.0, 1.0))
        probs = np.append(sur[:-1] - sur[1:], sur[-1])
        last = int(np.flatnonzero(probs)[-1]) if probs.any() else 0
        probs = probs[: last + 1]
        return ScoreDistribution(probs / probs.sum(), column_totals(self.solver.rules, scores, extra).total)

    def best_of(self, columns: Sequence[tuple[Sequence[int | None], int]]) -> tuple[int, npt.NDArray[np.float64]]:
        """The law of the best final score of several columns played for the expected score.

        The opponents' side of the win rule, computed by the same kernel as in the duel kernel
        (``_kwin._opp_weights``), so that ``bot:win`` and the duel decide alike.

        Args:
            columns: each opponent's column and extra points.

        Returns:
            ``(base, w)`` with ``w[j] = P(best final score = base + j)``; ``base`` is the best total now.

        Raises:
            InvalidActionError: no column, or a bad one.
        """
        from pasch.solver._kwin import _opp_weights

        if not columns:
            raise InvalidActionError("the win probability needs at least one opponent")
        keys = [self.solver.state_key(scores) for scores, _extra in columns]
        offs = np.array([column_totals(self.solver.rules, s, e).total for s, e in columns], dtype=np.int64)
        rows = np.array([self.sidx[k.mask, k.flag, k.upper] for k in keys], dtype=np.int64)
        base = int(offs.max())
        w = np.empty(self.theta.shape[1], np.float64)
        cum = np.empty(len(w) + 1, np.float64)
        _opp_weights(self.theta, self.scale, rows, offs, base, w, cum)
        return base, w


def _quantised_table(
    kind: str,
    solver: Solver,
    build: Callable[[], tuple[npt.NDArray[Any], npt.NDArray[np.int32]]],
    *,
    use_cache: bool,
    force: bool = False,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int32], float]:
    """A table of ``kind`` (``target`` or ``survive``) from the cache, or built, quantised to uint16 and stored.

    Returns:
        The table, the state index and the build's seconds (0 when loaded).
    """
    p = solver.prep
    keys, _start, sidx = _states(p)
    w = table_width(p)
    path = cache_name(kind, solver.rules.cache_key, SOLVER_VERSION, TARGET_VERSION, w)
    meta = {"rules": solver.rules.cache_key, "version": TARGET_VERSION, "width": w}
    if use_cache and not force:
        got = load_array(path, meta, (len(keys), w), np.uint16)  # type: ignore[arg-type]
        if got is not None:
            return got, sidx, 0.0
    start = time.perf_counter()
    built = list(build())
    seconds = time.perf_counter() - start
    sidx = built.pop()
    q = quantise_consuming(built)
    if use_cache:
        with contextlib.suppress(OSError):
            store_array(path, q, {**meta, "build_seconds": seconds})
    return q, sidx, seconds


def survival_table(solver: Solver, *, use_cache: bool = True) -> SurvivalTable:
    """The survival table of a solver's rule set: from the cache, or built, quantised and stored.

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    table, sidx, seconds = _quantised_table("survive", solver, lambda: build_survival(solver), use_cache=use_cache)
    return SurvivalTable(solver, table, sidx, seconds)


class TargetTable:
    """A rule set's threshold table (uint16 on disk) and the questions it answers."""

    def __init__(self, solver: Solver, theta: npt.NDArray[Any], sidx: npt.NDArray[np.int32], seconds: float = 0.0):
        self.solver = solver
        self.theta = theta
        self.sidx = sidx
        self.scale = 1.0 / QUANT if theta.dtype == np.uint16 else 1.0
        self.build_seconds = seconds
        self.survival: SurvivalTable | None = None
        """The rule set's survival table, when the win rule may blend it in (:func:`pasch.solver.win_pair`
        sets it); without it the win options read this table alone."""

    @property
    def width(self) -> int:
        """Points covered: needing this many or more counts as unreachable."""
        return int(self.theta.shape[1])

    def p_reach(self, scores: Sequence[int | None], target: int, extra: int = 0) -> float:
        """P(final score >= target) from the start of a turn with this column, playing for the target.

        Raises:
            InvalidActionError: a bad column.
        """
        key = self.solver.state_key(scores)
        need = target - column_totals(self.solver.rules, scores, extra).total
        if need <= 0:
            return 1.0
        if need >= self.width:
            return 0.0
        return float(self.theta[self.sidx[key.mask, key.flag, key.upper], need]) * self.scale

    def _situation(
        self, scores: Sequence[int | None], dice: Sequence[int] | str, rolls_left: int, sharp: bool | None
    ) -> tuple[Any, int, bool]:
        solver = self.solver
        rules = solver.rules
        roll = parse_dice(dice if isinstance(dice, str) else list(dice), rules.dice, rules.faces)
        if not 0 <= rolls_left < rules.throws:
            raise InvalidActionError(f"rolls left must be 0 to {rules.throws - 1}, not {rolls_left}")
        key = solver.state_key(scores)
        if key.mask == (1 << solver.prep.n_boxes) - 1:
            raise InvalidActionError("the sheet is full: there is nothing left to decide")
        if sharp is None:
            sharp = rolls_left == rules.throws - 1
        return key, space(rules.dice, rules.faces).roll_index[roll], bool(sharp)

    def _lanes(
        self, key: Any, r: int, rolls_left: int, sharp: bool, need: int, lanes: int
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """P(reaching need + j more points) per box and per keep (NaN: not an option), for j < lanes."""
        from pasch.solver._ktarget import _target_options

        p = self.solver.prep
        boxes = np.empty((p.n_boxes, lanes), np.float64)
        keeps = np.empty((p.keep_add.shape[0], lanes), np.float64)
        _target_options(
            self.theta, self.scale, self.sidx, key.mask, key.flag, key.upper, need, lanes,
            r, rolls_left, sharp, tables(p, np.float64), boxes, keeps,
        )  # fmt: skip
        return boxes, keeps

    def _collect(self, key: Any, r: int, rolls_left: int, sharp: bool, boxes: Any, keeps: Any) -> list[TargetOption]:
        p = self.solver.prep
        rules = self.solver.rules
        sp = space(rules.dice, rules.faces)
        s = 1 if sharp and p.n_sharp == 2 else 0
        c = self.solver._ctx(key, r)
        out: list[TargetOption] = []
        for i in np.flatnonzero(~np.isnan(boxes)):
            cid = rules.categories[int(i)].id
            out.append(TargetOption("score", float(boxes[i]), category=cid, points=int(p.total[c, s, r, i])))
        if rolls_left > 0:
            for q in range(int(p.n_rsub[r])):
                k = int(p.rsub[r, q])
                out.append(TargetOption("keep", float(keeps[k]), keep=sp.keeps[k]))
        out.sort(key=lambda o: -o.probability)
        return out

    def options(
        self,
        scores: Sequence[int | None],
        dice: Sequence[int] | str,
        rolls_left: int,
        target: int,
        sharp: bool | None = None,
        extra: int = 0,
    ) -> list[TargetOption]:
        """Every legal option with its probability of reaching ``target``, best first.

        Raises:
            InvalidActionError: bad dice, rolls left or sheet, a full sheet, or a target below 1.
        """
        if target < 1:
            raise InvalidActionError(f"a target is a score of at least 1, not {target}")
        key, r, sh = self._situation(scores, dice, rolls_left, sharp)
        need = target - column_totals(self.solver.rules, scores, extra).total
        boxes, keeps = self._lanes(key, r, rolls_left, sh, max(need, 0), 1)
        if need <= 0:  # reached already: every option keeps it
            boxes = np.where(np.isnan(boxes), np.nan, 1.0)
            keeps = np.where(np.isnan(keeps), np.nan, 1.0)
        return self._collect(key, r, rolls_left, sh, boxes[:, 0], keeps[:, 0])

    def win_options(
        self,
        scores: Sequence[int | None],
        dice: Sequence[int] | str,
        rolls_left: int,
        opponents: Sequence[Any],
        sharp: bool | None = None,
        extra: int = 0,
    ) -> list[TargetOption]:
        """Every legal option with its probability of finishing ahead of every opponent, best first.

        The opponents' final scores are independent of this player's play (they play for the expected
        score): their distributions (:class:`~pasch.solver.ScoreDistribution`) give the law of the best
        of them, ``w[t] = P(max = t)``, and :meth:`win_options_weights` values the options with it.

        Raises:
            InvalidActionError: bad dice, rolls left or sheet, a full sheet, or no opponent.
        """
        if not opponents:
            raise InvalidActionError("the win probability needs at least one opponent")
        top = max(d.offset + len(d.probs) for d in opponents)
        grid = np.arange(top + 1)
        cdf = np.ones(top + 1)
        for d in opponents:
            cdf *= np.array([1.0 - d.p_at_least(int(x) + 1) for x in grid])
        w = np.maximum(np.diff(np.concatenate(([0.0], cdf))), 0.0)  # w[t] = P(best opponent = t)
        return self.win_options_weights(scores, dice, rolls_left, w, 0, sharp, extra)

    def win_options_weights(
        self,
        scores: Sequence[int | None],
        dice: Sequence[int] | str,
        rolls_left: int,
        weights: npt.NDArray[np.float64],
        base: int,
        sharp: bool | None = None,
        extra: int = 0,
    ) -> list[TargetOption]:
        """Every legal option valued by P(finishing ahead), given the law of the best opponent's final score.

        The rule of ``bot:win`` and of :func:`~pasch.solver.duel_win_optimal` (``_kwin``): entering the
        dice in a box for ``gain`` points (bonus included) into the next state ``s'`` is worth
        ``sum_j weights[j] * P(reach base + j + 1 - (mine + gain) more points from s')``, each threshold
        under its own best play after this turn (the threshold table; a need of 0 or less counts 1, one
        of the table's width or more 0), a tie (reaching ``base + j`` exactly) counting half. With
        :attr:`survival` set (the tables of :func:`pasch.solver.win_pair`) that value is blended with the
        same sum over the survival table (expected-score play after this turn), weighted ``1 - alpha``
        where ``alpha = 1 - 0.3 * (boxes open after the turn) / (boxes - 1)``. Inside the turn the keeps
        are valued by the exact best policy for that value (one policy for the whole turn, a one-turn
        lookahead). A keep's probability is that expected value.

        Args:
            scores: this player's column.
            dice: the dice on the table.
            rolls_left: rolls left in the turn.
            weights: ``weights[j] = P(best opponent's final score = base + j)``.
            base: the score of ``weights[0]``.
            sharp: whether the dice came from one throw of all dice (default: only after the first throw).
            extra: extra points on this player's sheet (extra all-alike bonuses).

        Raises:
            InvalidActionError: bad dice, rolls left or sheet, a full sheet, or weights that are not a
                one-dimensional array.
        """
        from pasch.solver._kwin import _win_options

        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.ndim != 1 or len(w) == 0:
            raise InvalidActionError("the opponents' weights must be a non-empty one-dimensional array")
        key, r, sh = self._situation(scores, dice, rolls_left, sharp)
        mine = column_totals(self.solver.rules, scores, extra).total
        cum = np.concatenate(([0.0], np.cumsum(w)))
        p = self.solver.prep
        boxes = np.empty(p.n_boxes, np.float64)
        keeps = np.empty(p.keep_add.shape[0], np.float64)
        sv = self.survival
        surv = (sv.theta, sv.scale, sv.sidx) if sv is not None else (self.theta, self.scale, self.sidx)
        _win_options(
            self.theta, self.scale, self.sidx, *surv, sv is not None, key.mask, key.flag, key.upper, mine, w, cum,
            int(base), r, rolls_left, sh, tables(p, np.float64), boxes, keeps,
        )  # fmt: skip
        return self._collect(key, r, rolls_left, sh, boxes, keeps)


def quantise(theta: npt.NDArray[Any], rows: int = 1 << 14) -> npt.NDArray[np.uint16]:
    """Probabilities as uint16 (``round(p * 65535)``), a block of ``rows`` rows at a time: the float
    temporaries of one block, not of the whole table, come on top of the table and the result (three times the
    stored table; a build uses :func:`quantise_consuming`, which needs twice)."""
    out: npt.NDArray[np.uint16] = np.empty(theta.shape, np.uint16)
    _quantise_into(theta, out, rows)
    return out


def _quantise_into(theta: npt.NDArray[Any], out: npt.NDArray[np.uint16], rows: int) -> None:
    """``out[i] = round(clip(theta[i], 0, 1) * QUANT)``, a block of ``rows`` rows at a time; each block is computed
    whole before it is written, so ``out`` may lie over the bytes of ``theta``'s rows already read."""
    for lo in range(0, theta.shape[0], rows):
        out[lo : lo + rows] = np.rint(np.clip(theta[lo : lo + rows], 0.0, 1.0) * QUANT)


def quantise_consuming(holder: list[npt.NDArray[Any]], rows: int = 1 << 14) -> npt.NDArray[np.uint16]:
    """:func:`quantise` of ``holder``'s one table, written over the table's own buffer, which is then shrunk.

    ``holder`` hands the table over (it is emptied): no other reference may be left, so that the buffer can
    be reused. Each block of ``rows`` rows is quantised into a temporary and then written to the bytes of
    rows that are already read (the uint16 row ``i`` lies in the first ``2 / itemsize`` of the float row
    ``i``'s place), and the buffer is shrunk in place (``ndarray.resize``: ``realloc``, which returns the
    tail of a large block to the system without copying). A build's peak is then the float table and one
    block (twice the stored table for float32) instead of the float table and the result (three times).
    Falls back to :func:`quantise` when the buffer cannot be reused (a view, another reference).
    """
    theta = holder.pop()
    if (
        theta.dtype.kind != "f"
        or theta.ndim != 2
        or not theta.flags.c_contiguous
        or not theta.flags.owndata
        or sys.getrefcount(theta) > 2  # the local name and getrefcount's argument
    ):
        return quantise(theta, rows)
    n, w = theta.shape
    over = theta.reshape(-1).view(np.uint8)[: n * w * 2].view(np.uint16).reshape(n, w)
    _quantise_into(theta, over, rows)  # a block's uint16 rows overwrite only its own or earlier float rows
    del over
    keep = -(-n * w * 2 // theta.dtype.itemsize)  # elements of the old type that hold the result
    theta.resize((keep,), refcheck=False)
    out: npt.NDArray[np.uint16] = theta.view(np.uint8)[: n * w * 2].view(np.uint16).reshape(n, w)
    return out


def target_table(solver: Solver, *, use_cache: bool = True, force: bool = False) -> TargetTable:
    """The threshold table of a solver's rule set: from the cache, or built (float32), quantised and stored.

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    table, sidx, seconds = _quantised_table(
        "target", solver, lambda: build_target(solver.prep), use_cache=use_cache, force=force
    )
    return TargetTable(solver, table, sidx, seconds)
