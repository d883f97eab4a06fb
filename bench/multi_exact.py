"""Issue 28, items 1 and 3: the multi-column bot against exact optimal play, on small multi-column games.

Usage: ``python bench/multi_exact.py [--rules plain bonus straight dump] [--games 4000] [--seed 7]``, or
``python bench/multi_exact.py --rollout``, or ``python bench/multi_exact.py --bound``

The multi-column games are too large to solve (the state is the product of three or four sheets), so how far
above :class:`pasch.bots.MultiColumnBot` good play lies was so far only bounded from below, by rollouts
(``bench/rollout.py``). On small games of the same shape it can be computed: three columns like Jetsi's (one
free, one top to bottom, one bottom to top), each a sheet of the four or five boxes of ``bench/win_exact.py``'s
small rule sets (three four-faced dice, two throws; ``dump`` has a box that always scores 0), and four columns
like kniffel-4's (``k4-*``: top to bottom, bottom to top, announced, free; announcing after the first throw, an
announced turn ending in its box or by crossing out a box elsewhere, as the engine plays it). The script

1. solves the whole game exactly (a dynamic programme over every combination of each column's filled boxes and
   upper points, all columns at once: the optimal expected grand total);
2. computes the per-column sum: each column played alone with its own turns, what a player who never lets the
   columns compete for a throw expects (the sum of the columns' exact single-column values);
3. plays ``--games`` seeded solo games with ``MultiColumnBot`` (the per-column tables with slack, exactly as it
   plays Jetsi, ``learned=False``: no model ships for these games) through the engine, and reports its mean
   both raw and *luck-adjusted*: minus the luck of every throw measured with the exact optimal values (the
   optimal value after the throw less its expectation before it, for whatever the bot kept), which has mean 0
   under any play, so the adjusted mean is an unbiased estimate of the bot's expected score with a far smaller
   standard error.

It prints, per rule set, the three values, the share of the optimum's gain over the per-column sum that the bot
takes, and what the bot's decisions lose against the best ones per game, exactly (the optimal value of the best
option less that of the one chosen, summed): after a throw with throws left (enter now, or which dice to keep), and
at the entry (which box), of which entries in another column than the best one. A game's luck-adjusted total is
exactly the optimum less these losses.

``--rollout`` prints instead, for rule sets without an upper bonus (``ROLLOUT_RULES``), the exact expected totals
of the bot and of its **ideal rollout**: the bot's keeps, but every entry chosen by its points plus the bot's own
exact expected total after it: what the rollout yardstick of ``bench/rollout.py`` estimates with 16 continuations
and four candidates, with infinitely many and every candidate. The bot's value is computed from its decisions in
every reachable state (a policy evaluation), not sampled.

Not a test; ``tests/bots/test_multi_exact_bench.py`` checks the programme against the solver's single-column
tables, that optimal play by it scores exactly the optimum once the luck is out, and the rollout's policy
evaluation against sampled games.

Measured 2026-11-27, with the bot's slack settings of that day (every fixed-order and free column credited 0.3
of its slack, read between levels; :data:`pasch.bots._multi.TUNED`; seed 7, 4,000 games per rule set, one process
on a shared 2-core machine beside a test run):

    rules     boxes per-column  optimum       bot (raw)  bot (adjusted)  taken lost/game: announce keeps   box column
    plain         4     94.457  149.296  149.165 ± 0.73  147.774 ± 0.02  97.2%                0.00  0.32  1.20   1.18
    bonus         4    108.156  165.797  164.910 ± 0.78  163.608 ± 0.04  96.2%                0.00  0.30  1.89   1.89
    straight      5    160.362  246.440  243.173 ± 0.84  243.000 ± 0.05  96.0%                0.00  1.24  2.20   2.20
    dump          5    114.742  187.001  184.028 ± 0.72  183.834 ± 0.06  95.6%                0.00  0.41  2.76   2.56
    k4-plain      4    127.675  201.914  192.319 ± 0.89  191.270 ± 0.07  85.7%                8.73  0.67  1.25   1.23
    k4-kind       5    142.051  229.841  217.280 ± 0.83  216.645 ± 0.07  85.0%               10.74  0.50  1.96   1.69

(the games 19-71 a second.) In Jetsi's shape the bot now ends 1.0-1.7 % below the optimum (it was 4.3-5.6 %,
below); the choice of the column, which lost 6.6-11.4 points a game, loses 1.2-2.6. In kniffel-4's shape it
ends 5.3-5.7 % below, and nearly all of that is now the announcements (8.7 and 10.7 points a game).

Later that day kniffel-4 took the announced column's slack table (0.3 of its slack, slot -5; ``TUNED``), and the
``k4-*`` rows play with kniffel-4's settings (they played with the defaults, the free table and slot -10, which
were kniffel-4's until then); the same seed and games, one process beside nothing else:

    rules     boxes per-column  optimum       bot (raw)  bot (adjusted)  taken lost/game: announce keeps   box column
    k4-plain      4    127.675  201.914  195.628 ± 0.91  194.428 ± 0.06  89.9%                5.91  0.36  1.22   1.20
    k4-kind       5    142.051  229.841  221.025 ± 0.84  221.279 ± 0.06  90.2%                6.31  0.43  1.82   1.54

(29-35 games a second): 3.7 % and 3.7 % below the optimum. An announcement the bot should have made and did not
counts under "keeps" (a first throw's keep is measured against the best announcement too), so the two columns
are best read together: 6.3 and 6.7 points a game, from 9.4 and 11.2.

Measured earlier that day, with the settings before (fixed-order slack 0.7 rounded down, the free column its
plain table; the same seed and games, a CI run beside it):

    rules     boxes per-column  optimum       bot (raw)  bot (adjusted)  taken lost/game: announce keeps   box column
    plain         4     94.457  149.296  142.903 ± 0.76  142.142 ± 0.08  87.0%                0.00  0.50  6.65   6.65
    bonus         4    108.156  165.797  156.661 ± 0.81  156.592 ± 0.09  84.0%                0.00  0.95  8.25   8.25
    straight      5    160.362  246.440  232.562 ± 0.89  233.262 ± 0.13  84.7%                0.00  1.83 11.35  11.35
    dump          5    114.742  187.001  179.793 ± 0.74  178.936 ± 0.10  88.8%                0.00  1.04  7.02   6.99
    k4-plain      4    127.675  201.914  186.040 ± 0.91  184.982 ± 0.10  77.2%                8.48  0.49  7.96   7.96
    k4-kind       5    142.051  229.841  212.610 ± 0.86  212.002 ± 0.11  79.7%               10.00  0.38  7.45   7.40

(solving took 0-26 s, the games 33-98 a second.) In Jetsi's shape the bot ends 4.3-5.6 % below the optimum and
nearly all of the loss is the choice of the column (the most frequent single loss in ``plain``: a five-alike
entered in the free column where the optimum enters it in the fixed-order column whose turn it is, keeping the
free column's box for later: about 3.9 of the 7.2 points a game). In kniffel-4's shape (``k4-*``: top to bottom,
bottom to top, announced, free; no bonus) it ends 7.8-8.4 % below, and the announcements lose as much as the
column choice: it announces where the optimum does not (an announced yahtzee, ones or chance after a middling
first throw), and its ``announced_slot`` only moves the loss between announcing too often and too rarely
(``plain``, 600 games: slot -10 184.5, -5 185.3, 0 182.7, +5 182.3, +10 182.5). Keeps lose 0.4-1.8 points a game.
And ``--rollout``:

    rules      boxes per-column      bot ideal rollout  optimum gap recovered seconds
    plain          4     94.457  142.111       146.532  149.296           62%     3.2
    straight-0     5    146.664  217.339       225.484  231.490           58%     8.5
    dump-0         5     99.499  160.836       164.316  166.511           61%     8.6
    kind-0         5    104.534  162.993       167.304  169.524           66%     6.6

One step of rollout improvement recovers 58-66 % of the gap to optimal play on these games: here the rollout
yardstick sees most of the headroom, not all of it.

``--bound`` bounds the optimum from above, also for the full games (:func:`column_bound`): each column played
alone with every turn of the game its own, free to let ``(C - 1) * n`` of them pass (the slack tables at full
slack). Measured 2026-11-28 (tables built in 1-30 s each, without the cache):

    rules     per-column  optimum    bound optimum / bound  columns at full slack
    plain         94.457  149.296  185.232           0.806  65.20 + 59.73 + 60.30
    bonus        108.156  165.797  211.462           0.784  74.90 + 67.76 + 68.80
    straight     160.362  246.440  302.845           0.814  106.60 + 97.67 + 98.58
    dump         114.742  187.001  219.965           0.850  76.82 + 71.33 + 71.82
    k4-plain     127.675  201.914  263.516           0.766  63.92 + 64.60 + 67.50 + 67.50
    k4-kind      142.051  229.841  300.321           0.765  70.55 + 73.97 + 77.90 + 77.90
    jetsi              -        - 1012.435               -  416.68 + 286.58 + 309.18
    kniffel-3          -        - 1004.553               -  284.74 + 306.78 + 413.03
    kniffel-4          -        - 1642.138               -  319.65 + 376.29 + 473.10 + 473.10

The bound is true but loose: on the small games the optimum lies 15-24 % below it, and on the full games, whose
columns may each let 26 or 39 turns pass where the small ones let 8-15, it is looser still (kniffel-4's 1642
against a bot at 980). So it cannot say whether issue 28's targets (jetsi 780, kniffel-3 800, kniffel-4 1000) are
within reach of any play; it only rules out anything above about 1,000 points for jetsi and kniffel-3.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

import win_exact
from pasch.bots import MultiColumnBot
from pasch.bots._multi import TUNED, Settings
from pasch.dice import keep_groups, space, transition_tables
from pasch.engine import Announce, GameState, Keep, Roll, Score, Throw, new_game
from pasch.rules import Order, RuleSet

F64 = npt.NDArray[np.float64]

COLUMNS = (Order.FREE, Order.DOWN, Order.UP)
"""Jetsi's columns: free, top to bottom, bottom to top."""

K4 = (Order.DOWN, Order.UP, Order.ANNOUNCED, Order.FREE)
"""kniffel-4's columns: top to bottom, bottom to top, announced, free."""


def small_rules(
    name: str, bonus: int = 0, lower: tuple[str, ...] = (), columns: tuple[Order, ...] = COLUMNS
) -> RuleSet:
    """Three four-faced dice, two throws, the boxes ``ones twos`` + ``lower`` + ``yahtzee chance``, in ``columns``
    (``bench/win_exact.py``'s small rule sets), with the id ``small-<name>``."""
    return win_exact.small_rules(f"small-{name}", bonus, lower, columns)


RULES = {
    "plain": small_rules("plain"),
    "bonus": small_rules("bonus", bonus=10),
    "straight": small_rules("straight", bonus=10, lower=("small_straight",)),
    # a full house cannot be thrown with three dice: a box that always scores 0, a free place to dump a throw
    "dump": small_rules("dump", bonus=10, lower=("full_house",)),
    # kniffel-4's shape: top to bottom, bottom to top, announced, free (no bonus: 6^4 upper totals are too many)
    "k4-plain": small_rules("k4-plain", columns=K4),
    "k4-kind": small_rules("k4-kind", lower=("three_of_a_kind",), columns=K4),
}


ROLLOUT_RULES = {
    "plain": RULES["plain"],
    "straight-0": small_rules("straight-0", lower=("small_straight",)),
    "dump-0": small_rules("dump-0", lower=("full_house",)),
    "kind-0": small_rules("kind-0", lower=("three_of_a_kind",)),
}
"""The rule sets of ``--rollout`` (no upper bonus: a state is which boxes are filled)."""


@dataclass(frozen=True)
class _ColumnModel:
    """One column's fill states (a free column: the mask of filled boxes; a fixed order: how many are filled)
    and, for each, the boxes it may fill now and the fill state after."""

    order: Order
    states: tuple[int, ...]
    moves: tuple[tuple[tuple[int, int], ...], ...]  # per fill state: (box, index of the next fill state)
    filled: tuple[int, ...]  # boxes filled in each fill state


_MASKED = (Order.FREE, Order.ANNOUNCED)
"""Fill orders whose fill state is the mask of filled boxes (the others: how many are filled)."""


def _column_model(order: Order, boxes: int) -> _ColumnModel:
    if order in _MASKED:  # the announced column: any open box, once announced
        states = tuple(range(1 << boxes))
        moves = tuple(tuple((b, m | 1 << b) for b in range(boxes) if not m >> b & 1) for m in states)
        filled = tuple(bin(m).count("1") for m in states)
    elif order in (Order.DOWN, Order.UP):
        states = tuple(range(boxes + 1))
        moves = tuple(((k if order is Order.DOWN else boxes - 1 - k, k + 1),) if k < boxes else () for k in states)
        filled = states
    else:
        raise ValueError(f"{order.value}: no such fill order here")
    return _ColumnModel(order, states, moves, filled)


class ExactMulti:
    """The exact optimal expected grand total of a small multi-column game with two throws a turn.

    ``value[f0, u0, f1, u1, ...]`` is the optimal expected total still to come from the state where column ``c``
    is in fill state ``fc`` with ``uc`` upper points (capped at the bonus threshold). Alongside it the turn's
    values for the luck adjustment: :meth:`after_first`, :meth:`after_keep`, :meth:`after_last`.
    """

    def __init__(self, rules: RuleSet) -> None:
        if rules.throws != 2 or rules.sharp or rules.joker.value != "none" or rules.extra.value != "none":
            raise ValueError("this comparison handles two throws and no sharp, joker or extra rules")
        self.rules = rules
        sp = space(rules.dice, rules.faces)
        self.space = sp
        self.tt = transition_tables(rules.dice, rules.faces)
        self.groups = keep_groups(rules.dice, rules.faces)
        self.probs = sp.roll_probabilities_array()
        n_boxes = len(rules.categories)
        self.points = np.array(
            [rules.base_scores(tuple(r.count(f) for f in range(1, rules.faces + 1))) for r in sp.rolls], np.int64
        )  # [roll, box]
        self.upper = np.array([c.is_upper for c in rules.categories])
        self.thr = rules.bonus_threshold or 0
        self.bonus = rules.bonus if rules.bonus_threshold is not None else 0
        self.cols = tuple(_column_model(o, n_boxes) for o in rules.columns)
        self.u_n = self.thr + 1
        shape: list[int] = []
        for col in self.cols:
            shape += [len(col.states), self.u_n]
        self.shape = tuple(shape)
        self.value = np.full(self.shape, np.nan)
        self._solve()

    # -- the turn -------------------------------------------------------------------------------
    def entries(self, state: tuple[int, ...], announced: int | None = None) -> F64:
        """``E[r]``: the best entry of final throw ``r`` (points, bonus and the value of the state after).

        Without an announcement the announced column (kniffel-4) cannot be used; with ``announced`` (a box of
        it) the turn ends in that box or by crossing out, for 0, a box another column may fill now.
        """
        best = np.full(len(self.space.rolls), -np.inf)
        rolls = np.arange(len(self.space.rolls))
        ann = self.rules.announced_column
        for c, col in enumerate(self.cols):
            f, u = state[2 * c], state[2 * c + 1]
            for box, nf in col.moves[f]:
                if c == ann and box != announced:
                    continue
                if announced is not None and c != ann:  # a cross-out: 0 points, the upper total unchanged
                    nxt = list(state)
                    nxt[2 * c] = nf
                    np.maximum(best, self.value[tuple(nxt)], out=best)
                    continue
                pts = self.points[:, box]
                nxt = list(state)
                nxt[2 * c] = nf
                if self.upper[box] and self.thr:
                    u2 = np.minimum(u + pts, self.thr)
                    gain = pts + np.where((u < self.thr) & (u + pts >= self.thr), self.bonus, 0)
                    idx = tuple(np.full_like(rolls, v) if i != 2 * c + 1 else u2 for i, v in enumerate(nxt))
                    after = self.value[idx]
                else:
                    gain = pts
                    after = np.full(len(rolls), self.value[tuple(nxt)])
                np.maximum(best, gain + after, out=best)
        return best

    def entry(self, state: tuple[int, ...], column: int, box: int, roll: int, cross: bool = False) -> float:
        """The exact value of entering final throw ``roll`` in ``box`` of ``column``: points, bonus, value after
        (``cross``: crossed out for 0 in an announced turn)."""
        col = self.cols[column]
        f, u = state[2 * column], state[2 * column + 1]
        nf = dict(col.moves[f])[box]
        pts = 0 if cross else int(self.points[roll, box])
        nxt = list(state)
        nxt[2 * column] = nf
        gain = pts
        if self.upper[box] and self.thr:
            nxt[2 * column + 1] = min(u + pts, self.thr)
            gain += self.bonus if u < self.thr <= u + pts else 0
        return gain + float(self.value[tuple(nxt)])

    def after_keep(self, e: F64) -> F64:
        """``K[k]``: the expectation of ``E`` over the throw after keeping ``k``."""
        return np.asarray(self.tt.trans @ e)

    def after_first(self, e: F64) -> F64:
        """``A[r]``: the value after a first throw ``r``: enter it, or keep the best part and throw again."""
        if not np.isfinite(e).any():
            return e.copy()  # no entry allowed (only the announced column open): the player must announce
        kv = self.after_keep(e)
        rethrow = np.maximum.reduceat(kv[self.groups.flat], self.groups.starts)
        return np.asarray(np.maximum(e, rethrow))  # -inf everywhere where no entry is allowed (must announce)

    def _solve(self) -> None:
        total = sum(len(c.filled) and max(c.filled) for c in self.cols)
        full_u = [range(self.u_n)] * len(self.cols)
        by_filled: dict[int, list[tuple[int, ...]]] = {}
        for fs in itertools.product(*(range(len(c.states)) for c in self.cols)):
            n = sum(c.filled[f] for c, f in zip(self.cols, fs, strict=True))
            by_filled.setdefault(n, []).append(fs)
        for n in range(total, -1, -1):
            for fs in by_filled.get(n, []):
                for us in itertools.product(*full_u):
                    state = tuple(x for pair in zip(fs, us, strict=True) for x in pair)
                    if n == total:
                        self.value[state] = 0.0
                    else:
                        self.value[state] = float(self.probs @ self.first(state))

    def first(self, state: tuple[int, ...]) -> F64:
        """``F[r]``: the value after first throw ``r``, announcing (kniffel-4) as well as possible."""
        best = self.after_first(self.entries(state))
        ann = self.rules.announced_column
        if ann is not None:
            for box, _ in self.cols[ann].moves[state[2 * ann]]:
                np.maximum(best, self.after_first(self.entries(state, box)), out=best)
        return best

    def key(self, sheet: tuple[tuple[int | None, ...], ...]) -> tuple[int, ...]:
        """The state of a player's columns (box scores in sheet order, None where open)."""
        out: list[int] = []
        for col, scores in zip(self.cols, sheet, strict=True):
            filled = [s is not None for s in scores]
            f = sum(1 << i for i, x in enumerate(filled) if x) if col.order in _MASKED else sum(filled)
            up = sum(s or 0 for s, is_up in zip(scores, self.upper, strict=True) if is_up)
            out += [f, min(up, self.thr)]
        return tuple(out)


def per_column_sum(rules: RuleSet) -> float:
    """The sum of each column's exact value played alone (its own turns): no throw ever goes elsewhere."""
    total = 0.0
    for order in rules.columns:
        single = ExactMulti(dataclasses.replace(rules, columns=(order,), id=f"{rules.id}.{order.value}"))
        total += float(single.value[(0,) * len(single.shape)])
    return total


FULL_GAMES = ("jetsi", "kniffel-3", "kniffel-4")
"""The catalogue's multi-column games, whose optimum is out of reach: ``--bound`` bounds it from above."""


def column_bound(rules: RuleSet) -> tuple[float, ...]:
    """Each column's exact value played alone with every turn of the game its own and ``(C - 1) * n`` passes
    (``C`` columns of ``n`` boxes): the slack tables of :mod:`pasch.solver` at full slack (a fixed-order column
    :func:`pasch.solver.slack_table`, a free one :func:`pasch.solver.free_slack_levels`; kniffel-4's announced
    column as a free one). Their sum bounds the optimal expected grand total from above.

    Why: a column's points depend only on the dice entered in it and its own boxes (``docs/rules``: each column
    a full sheet of the base rules). Any strategy for the whole game, watched from one column, is a strategy for
    that column alone that throws every turn (its keeps chosen as the whole game's strategy chooses them, which it
    can simulate from the dice) and enters the turn's dice in the column or lets the turn pass, ``(C - 1) * n``
    times in all; the slack table is the best such strategy. So each column's expected score is at most its
    table's value, and so is their sum. An announced column chooses its box after the first throw, a free one
    after the last: the free table bounds it. kniffel-4's announced turns may also cross a box out that the dice
    would fill: a column's value never drops with more points in a box (upper points only bring the bonus
    nearer; a five-alike box holding its points only opens extra points), so that is covered too. The bound is
    loose: every column sees dice of its own, so all of them can wait for good throws at once; the small rule
    sets show by how much (``--bound``)."""
    from pasch.solver import Solver, free_slack_levels, slack_table

    n = len(rules.categories)
    passes = (rules.n_columns - 1) * n
    out = []
    for order in rules.columns:
        alone = Order.FREE if order is Order.ANNOUNCED else order
        solver = Solver.load(dataclasses.replace(rules, columns=(alone,), id=f"{rules.id}.bound.{alone.value}"))
        key = solver.state_key((None,) * n)
        if alone is Order.FREE:
            levels = free_slack_levels(solver, passes, use_cache=False)
            out.append(float(levels[passes][key.mask, key.flag, key.upper]))
        else:
            out.append(float(slack_table(solver, passes, use_cache=False).values[0, key.flag, key.upper, passes]))
    return tuple(out)


def _bound_table(names: list[str]) -> None:
    from pasch.rules import get

    print(f"{'rules':9} {'per-column':>10} {'optimum':>8} {'bound':>8} {'optimum / bound':>15}  columns at full slack")
    for name in names:
        rules = RULES[name] if name in RULES else get(name)
        parts = column_bound(rules)
        bound = sum(parts)
        if name in RULES:  # a small game: its exact optimum too
            exact = ExactMulti(rules)
            opt = float(exact.value[(0,) * len(exact.shape)])
            cells = f"{per_column_sum(rules):10.3f} {opt:8.3f} {bound:8.3f} {opt / bound:15.3f}"
        else:
            cells = f"{'-':>10} {'-':>8} {bound:8.3f} {'-':>15}"
        print(f"{name:9} {cells}  " + " + ".join(f"{p:.2f}" for p in parts), flush=True)


@dataclass
class Regret:
    """Expected points lost against optimal play, summed over a bot's decisions, by kind of decision."""

    announce: float = 0.0  # kniffel-4: announcing (which box, or none) after the first throw
    stop_or_keep: float = 0.0  # after a throw with throws left: enter now or keep which dice
    box: float = 0.0  # when entering: which box of which column
    column: float = 0.0  # of ``box``: entries in a column other than the best entry's
    decisions: int = 0


class OptimalBot:
    """Plays a small multi-column game by its exact values (the check of :class:`ExactMulti` and of the luck
    adjustment: its adjusted total is the optimum in every game)."""

    def __init__(self, exact: ExactMulti) -> None:
        self.exact = exact

    def choose(self, state: GameState, rng: np.random.Generator) -> Keep | Score | Announce:
        ex = self.exact
        sheet = tuple(c.scores for c in state.sheets[0].columns)
        k = ex.key(sheet)
        dice = tuple(sorted(state.dice or ()))
        r = ex.space.roll_index[dice]
        ann = ex.rules.announced_column
        e = ex.entries(k, state.announced)
        if ann is not None and state.announced is None and state.throws == 1:
            best_box, best = None, float(ex.after_first(e)[r])
            for box, _ in ex.cols[ann].moves[k[2 * ann]]:
                v = float(ex.after_first(ex.entries(k, box))[r])
                if v > best + 1e-9:
                    best_box, best = box, v
            if best_box is not None:
                return Announce(ex.rules.categories[best_box].id)
        if state.throws_left > 0:
            kv = ex.after_keep(e)
            keeps = [q for q in ex.space.sub_keeps(dice) if len(q) < len(dice)]
            best_keep = max(keeps, key=lambda q: kv[ex.space.keep_index[q]])
            if kv[ex.space.keep_index[best_keep]] > e[r] + 1e-9:
                return Keep(best_keep)
        options = _entry_options(ex, state, k, r)
        c, b = max(options, key=lambda x: options[x])
        return Score(ex.rules.categories[b].id, c + 1 if len(ex.cols) > 1 else None)


def _entry_options(ex: ExactMulti, state: GameState, k: tuple[int, ...], r: int) -> dict[tuple[int, int], float]:
    """Every entry the engine allows now, (column, box), with its exact value (points, bonus, value after)."""
    out: dict[tuple[int, int], float] = {}
    for a in state.legal_actions():
        if isinstance(a, Score):
            c = (a.column or 1) - 1
            b = ex.rules.category_index(a.category)
            cross = state.announced is not None and c != ex.rules.announced_column
            out[c, b] = ex.entry(k, c, b, r, cross)
    return out


def play(
    exact: ExactMulti, bot: MultiColumnBot | OptimalBot, seed: int, regret: Regret | None = None
) -> tuple[int, float]:
    """One seeded solo game of ``bot``: its total and its luck-adjusted total (``regret`` summed if given)."""
    rng = np.random.default_rng(seed)
    rules = exact.rules
    ri = exact.space.roll_index
    state: object = new_game(rules, ["bot"])
    luck = 0.0
    e: F64 | None = None
    first: F64 | None = None
    k: tuple[int, ...] = ()
    expect = 0.0
    while True:
        assert isinstance(state, GameState)
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(Throw(tuple(int(x) for x in rng.integers(1, rules.faces + 1, state.pending))))
            assert isinstance(state, GameState) and e is not None and first is not None and state.dice is not None
            r = ri[tuple(sorted(state.dice))]
            seen = first[r] if state.throws == 1 else e[r]
            luck += float(seen) - expect
            continue
        if state.dice is None:
            sheet = tuple(c.scores for c in state.sheets[0].columns)
            k = exact.key(sheet)
            e = exact.entries(k)
            first = exact.first(k)
            expect = float(exact.value[k])
            state = state.apply(Roll())
            continue
        action = bot.choose(state, rng)
        if regret is not None:
            assert e is not None and state.dice is not None
            _regret(exact, state, action, e, regret)
        if isinstance(action, Keep):
            assert e is not None
            expect = float(exact.after_keep(e)[exact.space.keep_index[action.dice]])
        elif isinstance(action, Announce):
            e = exact.entries(k, rules.category_index(action.category))
        elif not isinstance(action, Score):
            raise AssertionError(f"unexpected action {action}")
        state = state.apply(action)
    total = state.total(0)
    return total, total - luck


def _reach(rules: RuleSet, state: tuple[int, ...], cols: tuple[_ColumnModel, ...]) -> GameState:
    """A solo game at the start of a turn with the boxes of fill ``state`` filled (rules without a bonus: the
    points entered do not matter)."""
    game: object = new_game(rules, ["bot"])
    n_boxes = len(rules.categories)
    for c, col in enumerate(cols):
        f = state[2 * c]
        if col.order is Order.FREE:
            boxes = [b for b in range(n_boxes) if f >> b & 1]
        else:
            boxes = [col.moves[k][0][0] for k in range(f)]
        for b in boxes:
            assert isinstance(game, GameState)
            game = game.apply(Roll()).apply(Throw((1,) * rules.dice))
            assert isinstance(game, GameState)
            game = game.apply(Score(rules.categories[b].id, c + 1))
    assert isinstance(game, GameState)
    return game


def ideal_rollout(exact: ExactMulti, bot: MultiColumnBot) -> tuple[float, float]:
    """The exact expected totals of ``bot`` and of its *ideal rollout*: the bot's keeps, but every entry chosen
    by its points plus the bot's own exact expected total from the state after it (a rollout with infinitely
    many continuations and every candidate, what ``bench/rollout.py`` estimates by sampling). Rule sets
    without a bonus only (a state is which boxes are filled)."""
    if exact.thr or exact.rules.announced_column is not None:
        raise ValueError("the ideal rollout is computed for rule sets without an upper bonus or announced column")
    v_bot = np.full(exact.shape, np.nan)
    v_new = np.full(exact.shape, np.nan)
    states = sorted(
        itertools.product(*(range(len(c.states)) for c in exact.cols)),
        key=lambda fs: -sum(c.filled[f] for c, f in zip(exact.cols, fs, strict=True)),
    )
    for fs in states:
        key = tuple(x for f in fs for x in (f, 0))
        v_bot[key], v_new[key] = _Policies(exact, bot, key, v_bot, v_new).values()
    zero = (0,) * len(exact.shape)
    return float(v_bot[zero]), float(v_new[zero])


class _Policies:
    """One state's exact values under the bot and under its ideal rollout (the states after it done)."""

    def __init__(self, exact: ExactMulti, bot: MultiColumnBot, key: tuple[int, ...], v_bot: F64, v_new: F64) -> None:
        self.exact, self.bot, self.key, self.v_bot, self.v_new = exact, bot, key, v_bot, v_new
        self.start = _reach(exact.rules, key, exact.cols)
        self.rng = np.random.default_rng(0)

    def entry(self, entry: Score, r: int) -> tuple[float, float]:
        """Entering final dice ``r`` as ``entry``: the bot's value after it, and the rollout's."""
        ex = self.exact
        c = (entry.column or 1) - 1
        box = ex.rules.category_index(entry.category)
        nxt = list(self.key)
        nxt[2 * c] = dict(ex.cols[c].moves[self.key[2 * c]])[box]
        pts = float(ex.points[r, box])
        return pts + float(self.v_bot[tuple(nxt)]), pts + float(self.v_new[tuple(nxt)])

    def rollout_entry(self, state: GameState, r: int) -> float:
        """The ideal rollout's entry of dice ``r``: the best by the bot's value after it; its own value."""
        vals = [self.entry(a, r) for a in state.legal_actions() if isinstance(a, Score)]
        return max(vals)[1] if vals else 0.0

    def values(self) -> tuple[float, float]:
        ex, sp = self.exact, self.exact.space
        if self.start.is_terminal:
            return 0.0, 0.0
        n_rolls = len(sp.rolls)
        rolled = self.start.apply(Roll())
        last_bot, last_new = np.empty(n_rolls), np.empty(n_rolls)
        for r in range(n_rolls):
            last = rolled.apply(Throw((1,) * ex.rules.dice)).apply(Keep(())).apply(Throw(sp.rolls[r]))
            assert isinstance(last, GameState)
            chosen = self.bot.choose(last, self.rng)
            assert isinstance(chosen, Score)
            last_bot[r], last_new[r] = self.entry(chosen, r)[0], self.rollout_entry(last, r)
        kb, kn = ex.tt.trans @ last_bot, ex.tt.trans @ last_new
        first_bot, first_new = np.empty(n_rolls), np.empty(n_rolls)
        for r in range(n_rolls):
            st = rolled.apply(Throw(sp.rolls[r]))
            assert isinstance(st, GameState)
            a = self.bot.choose(st, self.rng)
            if isinstance(a, Keep):
                first_bot[r], first_new[r] = kb[sp.keep_index[a.dice]], kn[sp.keep_index[a.dice]]
            else:
                assert isinstance(a, Score)
                first_bot[r], first_new[r] = self.entry(a, r)[0], self.rollout_entry(st, r)
        return float(ex.probs @ first_bot), float(ex.probs @ first_new)


def _regret(exact: ExactMulti, state: GameState, action: object, e: F64, out: Regret) -> None:
    sheet = tuple(c.scores for c in state.sheets[0].columns)
    k = exact.key(sheet)
    r = exact.space.roll_index[tuple(sorted(state.dice or ()))]
    out.decisions += 1
    if isinstance(action, Announce):
        best = float(exact.first(k)[r])
        chosen = float(exact.after_first(exact.entries(k, exact.rules.category_index(action.category)))[r])
        assert chosen <= best + 1e-9, "an announcement worth more than the exact best"
        out.announce += best - chosen
        return
    if state.throws_left > 0:
        best = (
            float(exact.first(k)[r])
            if state.throws == 1 and state.announced is None
            else float(exact.after_first(e)[r])
        )
        if isinstance(action, Keep):
            chosen = float(exact.after_keep(e)[exact.space.keep_index[action.dice]])
        else:
            chosen = float(e[r])
        assert chosen <= best + 1e-9, "a keep worth more than the exact best"
        out.stop_or_keep += best - chosen
    if isinstance(action, Score):
        c = (action.column or 1) - 1
        box = exact.rules.category_index(action.category)
        options = _entry_options(exact, state, k, r)
        best_key = max(options, key=lambda x: options[x])
        lost = options[best_key] - options[(c, box)]
        assert lost >= -1e-9, "an entry worth more than the exact best"
        out.box += lost
        if best_key[0] != c:
            out.column += lost


def _rollout_table() -> None:
    print(
        f"{'rules':10} {'boxes':>5} {'per-column':>10} {'bot':>8} {'ideal rollout':>13} {'optimum':>8} "
        f"{'gap recovered':>13} {'seconds':>7}"
    )
    for name, rules in ROLLOUT_RULES.items():
        t0 = time.perf_counter()
        exact = ExactMulti(rules)
        opt = float(exact.value[(0,) * len(exact.shape)])
        bot, rollout = ideal_rollout(exact, MultiColumnBot(learned=False))
        print(
            f"{name:10} {len(rules.categories):5d} {per_column_sum(rules):10.3f} {bot:8.3f} {rollout:13.3f} "
            f"{opt:8.3f} {100 * (rollout - bot) / (opt - bot):12.0f}% {time.perf_counter() - t0:7.1f}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=list(RULES), choices=list(RULES))
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rollout", action="store_true", help="instead: the bot and its ideal rollout, exactly")
    ap.add_argument("--bound", action="store_true", help="instead: the upper bound of the columns at full slack")
    args = ap.parse_args()
    if args.rollout:
        _rollout_table()
        return
    if args.bound:
        _bound_table([*args.rules, *FULL_GAMES])
        return
    print(
        f"{'rules':9} {'boxes':>5} {'per-column':>10} {'optimum':>8} {'bot (raw)':>15} {'bot (adjusted)':>15} "
        f"{'taken':>6} {'lost/game: announce':>19} {'keeps':>5} {'box':>5} {'column':>6} {'solve s':>7} "
        f"{'games/s':>7}"
    )
    for name in args.rules:
        rules = RULES[name]
        t0 = time.perf_counter()
        exact = ExactMulti(rules)
        t_solve = time.perf_counter() - t0
        opt = float(exact.value[(0,) * len(exact.shape)])
        base = per_column_sum(rules)
        # kniffel-4's shape is played with kniffel-4's settings (a small rule set has no tuned settings of its own)
        tuned = TUNED["kniffel-4"] if rules.announced_column is not None else Settings()
        bot = MultiColumnBot(learned=False, **dataclasses.asdict(tuned))
        play(exact, bot, args.seed * 1_000_003 - 1)  # tables built outside the timing
        regret = Regret()
        t0 = time.perf_counter()
        games = [play(exact, bot, args.seed * 1_000_003 + g, regret) for g in range(args.games)]
        t_games = time.perf_counter() - t0
        n = len(games)
        raw = np.array([g[0] for g in games], np.float64)
        adj = np.array([g[1] for g in games], np.float64)
        se = math.sqrt(n)
        taken = (adj.mean() - base) / (opt - base)
        print(
            f"{name:9} {len(rules.categories):5d} {base:10.3f} {opt:8.3f} "
            f"{raw.mean():8.3f} ± {raw.std(ddof=1) / se:4.2f} "
            f"{adj.mean():8.3f} ± {adj.std(ddof=1) / se:4.2f} {100 * taken:5.1f}% {regret.announce / n:19.2f} "
            f"{regret.stop_or_keep / n:5.2f} "
            f"{regret.box / n:5.2f} {regret.column / n:6.2f} {t_solve:7.1f} {n / t_games:7.1f}",
            flush=True,
        )
        if bot.fallbacks:
            raise SystemExit(f"the bot fell back {bot.fallbacks} times")


if __name__ == "__main__":
    main()
