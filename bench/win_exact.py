"""How far ``bot:win`` is from the best possible play against ``bot:optimal``, exactly, on small rule sets.

Issue 28, item 5 asks how far the win bot is from optimal two-player play. On the full games that play is out of
reach (Pawlewicz 2010 estimates the two-player Yahtzee strategy's size), but against a fixed opponent, the
expected-score player ``bot:optimal``, the best reply is a plain Markov decision problem over both sheets, and on
small rule sets it can be solved exactly. This script does that for a few such rule sets (three four-faced dice,
two throws, the boxes ``ones twos`` + some lower boxes + ``yahtzee chance``, the shape of the test suite's small
rule sets) and prints, per rule set, the exact probability of finishing ahead (a tie counts half, as ``pasch
duel`` counts it) of three players against ``bot:optimal``, each moving first and second:

* ``optimal``: the expected-score play itself (exactly 50 %: a sanity check of the computation);
* ``bot:win``: the rule of ``bot:win`` (``docs/win.md``, "bot:win", steps 1 to 4: the opponent's final-score
  law at the start of the turn, each ending of the turn valued by ``alpha * A(threshold) + (1 - alpha) *
  A(survival)`` with ``alpha = 1 - 0.3 * open / (n - 1)``, the turn played for the expected value of that), with
  exact float64 tables;
* ``best``: the best response, the largest share any strategy can have against ``bot:optimal``: the turn is
  played for the exact probability of winning, which sees the opponent's sheet turn by turn.

and the share of the best response's edge over 50 % that ``bot:win``'s rule takes. With ``--check GAMES`` it also
plays ``GAMES`` seeded games of the real ``bot:win`` against ``bot:optimal`` on the same rule set in the duel
kernel (``pasch.solver.duel_win_optimal``, seats alternating who starts; its tables in 16-bit precision) and prints
that share with its standard error beside the exact one: the rule computed here is the bot's.

Everything is exact arithmetic in float64 over every pair of reachable sheets; the cost grows with the square of
the number of sheets (seconds for four boxes, minutes for five). The opponent's ties between equally good
moves are broken by the first best option in a fixed order (the duel kernel's opponent breaks them its own
way; the shares agree, below).

    python bench/win_exact.py [--rules plain bonus straight dump] [--check 200000]

Measured 2026-11-27 (``--rules plain bonus straight --check 200000``, then the same for ``--rules dump``; 2
shared cores with CI running beside it, ``nice``; the seconds are the exact computation's):

    rules   boxes sheets  optimal  bot:win (1st / 2nd / mean)   best (1st / 2nd / mean)      edge taken  seconds
    plain       4    320  50.000%  51.262 / 51.922 / 51.592 %   51.265 / 51.926 / 51.595 %      99.8 %      44
    bonus       4    320  50.000%  51.232 / 51.954 / 51.593 %   51.242 / 51.957 / 51.599 %      99.6 %      65
    straight    5    640  50.000%  51.118 / 51.689 / 51.403 %   51.126 / 51.692 / 51.409 %      99.6 %     205
    dump        5    320  50.000%  51.419 / 51.938 / 51.679 %   51.537 / 52.018 / 51.777 %      94.5 %      39

The duel kernel's ``bot:win`` (400,000 games each, seed 5, standard error 0.079 points): 51.593 % (plain), 51.558 %
(bonus), 51.404 % (straight), 51.659 % (dump), each within half a standard
error of the exact share of the rule. ``dump`` has a box that always scores 0 (a full house cannot be thrown with
three dice): where to dump a bad throw depends on the race, and there the best reply gains 0.1 points on the rule.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from pasch.dice import counts_of, space
from pasch.rules import Category, Order, RuleSet, Scorer, ScorerKind, column_totals, score_options
from pasch.solver import Solver, build_values, duel_win_optimal

Column = tuple[int | None, ...]
Vec = Any  # a numpy array of probabilities, one per opponent sheet (or per threshold)

BLEND = 0.3
"""``bot:win``'s blend weight at the first turn (``docs/win.md``)."""


def small_rules(
    name: str, bonus: int = 0, lower: tuple[str, ...] = (), columns: tuple[Order, ...] = (Order.FREE,)
) -> RuleSet:
    """Three four-faced dice, two throws, the boxes ``ones twos`` + ``lower`` + ``yahtzee chance`` in ``columns``
    (``bench/multi_exact.py`` plays them in several)."""
    k = ScorerKind
    kinds = {
        "full_house": Scorer(k.FULL_HOUSE, points=25),
        "three_of_a_kind": Scorer(k.N_KIND, n=3),
        "small_straight": Scorer(k.STRAIGHT, n=3, points=30),
    }
    cats = (
        Category("ones", Scorer(k.FACE, face=1)),
        Category("twos", Scorer(k.FACE, face=2)),
        *(Category(c, kinds[c]) for c in lower),
        Category("yahtzee", Scorer(k.ALL_ALIKE, points=50)),
        Category("chance", Scorer(k.CHANCE)),
    )
    return RuleSet(
        id=name,
        name=name,
        description="a small rule set for the exact comparisons",
        categories=cats,
        bonus_threshold=5 if bonus else None,
        bonus=bonus,
        columns=columns,
        dice=3,
        faces=4,
        throws=2,
    )


RULES = {
    "plain": small_rules("plain"),
    "bonus": small_rules("bonus", bonus=10),
    "straight": small_rules("straight", bonus=10, lower=("small_straight",)),
    # a full house cannot be thrown with three dice: a box that always scores 0, a free place to dump a throw
    "dump": small_rules("dump", bonus=10, lower=("full_house",)),
}


class Exact:
    """Every reachable sheet of a small one-column rule set, the expected-score play's turns between them, and
    the exact win probability of a policy rule against that play."""

    def __init__(self, rules: RuleSet) -> None:
        if rules.throws != 2 or rules.sharp or len(rules.columns) != 1:
            raise ValueError("this comparison handles one-column rule sets with two throws and no sharp scoring")
        self.rules = rules
        self.n = len(rules.categories)
        sp = space(rules.dice, rules.faces)
        self.rolls = [(r, float(p)) for r, p in sp.outcomes_of_keep(())]
        self.keeps = {r: [k for k in sp.sub_keeps(r) if len(k) < len(r)] for r, _ in self.rolls}
        self.outcomes = cache(lambda keep: [(r, float(p)) for r, p in sp.outcomes_of_keep(keep)])
        self.total = cache(lambda col: column_totals(rules, col).total)
        layers: list[list[Column]] = [[(None,) * self.n]]
        for _ in range(self.n):
            nxt = {t for s in layers[-1] for r, _ in self.rolls for t in self.entries(s, r)}
            layers.append(sorted(nxt, key=lambda s: tuple(-1 if v is None else v for v in s)))
        self.layers = layers
        self.index = [{s: i for i, s in enumerate(layer)} for layer in layers]
        self.top = max(self.total(s) for s in layers[self.n]) + 2
        self._expected_play()

    @cache  # noqa: B019 (one instance per rule set, alive for the whole run)
    def entries(self, col: Column, roll: tuple[int, ...]) -> list[Column]:
        """The next column of each legal entry of a throw (its points are in the column)."""
        out = []
        for opt in score_options(self.rules, self.rules.columns[0], col, counts_of(roll, self.rules.faces), False):
            nxt = list(col)
            nxt[opt.index] = opt.points
            out.append(tuple(nxt))
        return out

    def turn(self, col: Column, est: Callable[[Column], Vec], true: Callable[[Column], Vec] | None = None) -> Vec:
        """One turn from ``col``: every choice maximises ``est`` of the column the turn ends on (elementwise, so
        a vector of estimates gives one policy per component); the expected ``true`` value under those choices
        (``true`` None: ``est``'s, the best value)."""
        value = true or est

        def stop(roll: tuple[int, ...]) -> tuple[Vec, Vec]:
            nxt = self.entries(col, roll)
            e = np.stack([np.asarray(est(t), float) for t in nxt])
            v = np.stack([np.asarray(value(t), float) for t in nxt])
            pick = np.argmax(e, axis=0)[None]
            return np.take_along_axis(e, pick, 0)[0], np.take_along_axis(v, pick, 0)[0]

        stops = {r: stop(r) for r, _ in self.rolls}
        kept: dict[tuple[int, ...], tuple[Vec, Vec]] = {}
        result: Vec = 0.0
        for r1, p1 in self.rolls:
            e_opts, v_opts = [stops[r1][0]], [stops[r1][1]]
            for keep in self.keeps[r1]:
                if keep not in kept:
                    outs = self.outcomes(keep)
                    kept[keep] = (sum(p * stops[r][0] for r, p in outs), sum(p * stops[r][1] for r, p in outs))
                e_opts.append(kept[keep][0])
                v_opts.append(kept[keep][1])
            e, v = np.stack(e_opts), np.stack(v_opts)
            result = result + p1 * np.take_along_axis(v, np.argmax(e, axis=0)[None], 0)[0]
        return result

    def _expected_play(self) -> None:
        n, layers = self.n, self.layers
        final: dict[Column, float] = {}
        for k in range(n, -1, -1):
            for s in layers[k]:
                final[s] = float(self.total(s)) if k == n else float(self.turn(s, lambda t: final[t]))
        self.final = final
        # trans[k][i, j]: P(sheet i of layer k -> sheet j of layer k + 1) under expected-score play
        self.trans = []
        for k in range(n):
            size, idx = len(layers[k + 1]), self.index[k + 1]
            eye = np.eye(size)

            def expected(t: Column, size: int = size) -> Vec:
                return np.full(size, final[t])

            def where(t: Column, eye: Vec = eye, idx: dict[Column, int] = idx) -> Vec:
                return eye[idx[t]]

            self.trans.append(np.array([self.turn(s, expected, where) for s in layers[k]]))
        law: dict[Column, Vec] = {}
        reach: dict[Column, Vec] = {}
        steps = np.arange(self.top + 1)
        for k in range(n, -1, -1):
            for s in layers[k]:
                if k == n:
                    law[s] = np.eye(self.top)[self.total(s)]
                    reach[s] = (steps <= self.total(s)).astype(float)
                else:
                    law[s] = self.trans[k][self.index[k][s]] @ np.stack([law[t] for t in layers[k + 1]])
                    reach[s] = self.turn(s, lambda t: reach[t])  # each threshold under its own best play
        self.law = law  # the final score's law under expected-score play
        self.reach = reach  # the threshold table: max P(final >= t)
        self.survive = {s: np.concatenate(([1.0], 1.0 - np.cumsum(p)))[: self.top + 1] for s, p in law.items()}
        assert abs(law[layers[0][0]] @ np.arange(self.top) - final[layers[0][0]]) < 1e-9

    def share(self, first: bool, policy: str) -> float:
        """P(finishing ahead of ``bot:optimal``, a tie half) of ``policy`` (``optimal``, ``win`` or ``best``),
        moving first or second."""
        n, layers = self.n, self.layers
        full = np.array([self.total(s) for s in layers[n]], float)
        ahead = (full[:, None] > full[None, :]) + 0.5 * (full[:, None] == full[None, :])
        # w_next[(a, b)]: P(win) with this player's a boxes and the opponent's b boxes filled, this player to move
        w_next: dict[tuple[int, int], Vec] = {}
        order = [(k, k) for k in range(n)] if first else [(k, k + 1) for k in range(n)]
        for a, b in reversed(order):
            # after this turn (a + 1, b) the opponent moves to (a + 1, b + 1), unless its sheet is full already
            then = ahead if a + 1 == n else w_next[(a + 1, b + 1)]
            after = then @ self.trans[b].T if b < n else then
            rows = {t: after[i] for i, t in enumerate(layers[a + 1])}
            value: Callable[[Column], Vec] = rows.__getitem__
            if policy == "best":
                est = value
            elif policy == "optimal":

                def est(t: Column, size: int = len(layers[b])) -> Vec:
                    return np.full(size, self.final[t])

            else:
                est = self._estimate(layers[b], n - a - 1)
            w_next[(a, b)] = np.array([self.turn(m, est, value) for m in layers[a]])
        start = w_next[(0, 0)] if first else w_next[(0, 1)] @ self.trans[0].T
        return float(start[0, 0])

    def _estimate(self, opponents: list[Column], open_after: int) -> Callable[[Column], Vec]:
        """``bot:win``'s value of ending the turn on a column, one per opponent sheet."""
        w = np.stack([self.law[o] for o in opponents])
        alpha = 1.0 - BLEND * open_after / (self.n - 1)

        def est(t: Column) -> Vec:
            thr, surv = self.reach[t], self.survive[t]
            return alpha * (w @ ((thr[1:] + thr[:-1]) / 2)) + (1 - alpha) * (w @ ((surv[1:] + surv[:-1]) / 2))

        return est


def kernel_share(rules: RuleSet, games: int, seed: int) -> tuple[float, float]:
    """``bot:win``'s share against ``bot:optimal`` over ``2 * games`` games of the duel kernel, and its standard
    error."""
    solver = Solver(rules, build_values(rules, np.float64))
    shares = []
    for win_first in (True, False):
        tot = duel_win_optimal(solver, games, seed, win_first=win_first)
        shares.append(float(np.mean((tot[:, 0] > tot[:, 1]) + 0.5 * (tot[:, 0] == tot[:, 1]))))
    return sum(shares) / 2, (0.25 / (2 * games)) ** 0.5


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", choices=sorted(RULES), default=["plain", "bonus"])
    ap.add_argument("--check", type=int, default=0, help="games per seating of the duel kernel's bot:win (0: none)")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    head = f"{'rules':11s} {'boxes':>5s} {'sheets':>6s}  {'optimal':>8s}   {'bot:win (1st / 2nd / mean)':30s}"
    print(head + f"  {'best (1st / 2nd / mean)':30s}  edge taken  seconds")
    for name in args.rules:
        t0 = time.perf_counter()
        ex = Exact(RULES[name])
        got = {p: (ex.share(True, p), ex.share(False, p)) for p in ("optimal", "win", "best")}
        mean = {p: (a + b) / 2 for p, (a, b) in got.items()}
        taken = (mean["win"] - 0.5) / (mean["best"] - 0.5)

        def trio(p: str, got: dict[str, tuple[float, float]] = got, mean: dict[str, float] = mean) -> str:
            a, b = got[p]
            return f"{100 * a:.3f} / {100 * b:.3f} / {100 * mean[p]:.3f} %"

        print(
            f"{name:11s} {ex.n:5d} {len(ex.layers[ex.n]):6d}  {100 * mean['optimal']:7.3f}%   {trio('win'):30s}"
            f"  {trio('best'):30s}  {100 * taken:9.1f} %  {time.perf_counter() - t0:7.1f}"
        )
        if args.check:
            share, se = kernel_share(RULES[name], args.check, args.seed)
            print(
                f"{'':11s} duel kernel's bot:win: {100 * share:.3f} % ± {100 * se:.3f} "
                f"({2 * args.check} games, seed {args.seed}) against the exact {100 * mean['win']:.3f} %"
            )


if __name__ == "__main__":
    main()
