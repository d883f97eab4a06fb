"""The Knaster bot against a rollout yardstick (issue 28, item 7): solo mean and 3-player win rate against greedy.

Usage: ``python bench/knaster_rollout.py [--mode solo table] [--games 200] [--seed 2029] [--n 16] [--k 4]
[--margin 1.5] [--jobs 1] [--first 0]``

Two rows per run, each for the **base** bot (:class:`pasch.bots.KnasterBot`) and the **rollout** bot:

* ``solo``: one player; the mean final score (the issue's 80.7, ``bench/bots.py``);
* ``table``: three players, the measured bot in one seat and ``greedy`` (``bench/bots.py``'s
  ``KnasterGreedyBot``: the action that adds most points now) in the other two; the measured seat moves
  round the table (game ``g``: seat ``g % 3``). Its win share counts a game it finishes strictly ahead of
  both as 1 and a shared first place as 1 / (players sharing it).

**The rollout bot** plays like the base bot except where the base bot's own ranking
(:meth:`KnasterBot.rank`) puts more than one action within ``--margin`` of its best: there the best ``--k``
of those (the base bot's choice among them) are each valued by ``--n`` continuations of the game to its end,
every seat played by its own bot (the rollout seat by the base bot), and the candidate with the greatest
mean is taken: the final score alone, the win share at the table.

**Common random numbers.** Knaster's dice do not depend on the players' actions: the ``k``-th throw of a
game shows the ``k``-th row of a table of dice. Game ``g`` throws from ``default_rng([seed, g])``'s table, the
same for both bots, so the two games of a seed hear the same numbers (a paired comparison); continuation
``i`` of decision ``d`` throws from ``default_rng([seed, g, d, i])``'s table, the same for every candidate.

The table prints, per mode and bot, the games, the mean (solo) or win share (table) with its standard error
(sample standard deviation over the square root of the games) or 95 % Wilson interval, the paired gain of
the rollout bot with its standard error, games per wall second, and the decisions rolled out per game.

Measured 2026-11-26 (seed 2029, games 0..99, N 8, K 3, margin 1.5, one job per mode at ``nice 19`` on a
shared 2-core machine at load average 6-15), verbatim:

    mode   games    measure                   base                rollout           gain  games/s rolled
    solo     100       mean          81.87 ±  1.51          85.49 ±  1.48   +3.62 ± 1.84    0.044   26.4
    table    100  win share     92.0% [85.0, 95.9]     97.0% [91.5, 99.0]    +5.0 ± 3.0%    0.041   27.5

(mean ± standard error; win shares with 95 % Wilson intervals; games/s of the rollout runs.) Fewer games,
continuations and candidates than the defaults: what fitted in the time on the shared cores.

Measured again 2026-11-26 with 200 games (seed 2029, games 0..199, N 8, K 3, margin 1.5, ``--verbose``, one
job per mode at ``nice 19``, load average 7.1 at the start, 4-18 during), verbatim; games 0..99 gave exactly
the per-game scores of the run above (the bench is deterministic), games 100..199 alone 81.30 ± 1.38 against
84.05 ± 1.51 (solo) and 95.3 % against 98.3 % (table):

    mode   games    measure                   base                rollout           gain  games/s rolled
    solo     200       mean          81.58 ±  1.02          84.77 ±  1.05   +3.19 ± 1.38    0.075   26.5
    table    200  win share     93.7% [89.4, 96.3]     97.7% [94.5, 99.0]    +4.0 ± 1.9%    0.069   27.4
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pasch.app._duel import wilson
from pasch.bots import KnasterBot
from pasch.engine import Action, KnasterState, Pass, Roll, Throw
from pasch.rules import get


def _greedy_class() -> Any:
    """``bench/bots.py``'s ``KnasterGreedyBot``, loaded by path (a ``bots`` package may shadow the name)."""
    spec = importlib.util.spec_from_file_location("bench_bots", Path(__file__).with_name("bots.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module.KnasterGreedyBot


KnasterGreedyBot = _greedy_class()

MAX_THROWS = 400
"""Rows of a dice table: more throws than any Knaster game takes (a solo game about 60)."""


@dataclass(frozen=True, slots=True)
class Config:
    """One run's settings."""

    mode: str
    seed: int
    n: int
    k: int
    margin: float


def _dice(seed: Sequence[int], dice: int, faces: int) -> np.ndarray:
    return np.random.default_rng(list(seed)).integers(1, faces + 1, size=(MAX_THROWS, dice))


Decide = Callable[[KnasterState], Action]


def _players(mode: str, g: int) -> tuple[int, int]:
    """(players at the table, the measured seat) of game ``g``."""
    return (1, 0) if mode == "solo" else (3, g % 3)


def _result(state: KnasterState, seat: int) -> float:
    """Solo: the final score; at a table: the seat's share of first place (1, 1/2, 1/3 or 0)."""
    totals = state.totals()
    if len(totals) == 1:
        return float(totals[0])
    best = max(totals)
    return 1.0 / totals.count(best) if totals[seat] == best else 0.0


def _finish(state: KnasterState, decide: Sequence[Decide], dice: np.ndarray, throw: int) -> tuple[KnasterState, int]:
    """Play ``state`` to its end, seat ``p`` by ``decide[p]``, the ``throw``-th throw on from ``dice``."""
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(Throw(tuple(int(d) for d in dice[throw])))
            throw += 1
        else:
            state = state.apply(decide[state.current](state))
    return state, throw


def _base_decide(bot: KnasterBot) -> Decide:
    rng = np.random.default_rng(0)  # the bots ignore it: they are deterministic

    def decide(state: KnasterState) -> Action:
        return bot.choose(state, rng)

    return decide


def play(cfg: Config, g: int) -> tuple[float, float, int]:
    """Game ``g`` played by the base bot and by the rollout bot: (base result, rollout result, decisions rolled out)."""
    rules = get("knaster")
    n_players, seat = _players(cfg.mode, g)
    names = [f"p{i}" for i in range(n_players)]
    bot = KnasterBot()
    base = _base_decide(bot)
    greedy = KnasterGreedyBot()
    rng0 = np.random.default_rng(0)

    def other(state: KnasterState) -> Action:
        return greedy.choose(state, rng0)

    seats: list[Decide] = [base if p == seat else other for p in range(n_players)]
    kn = rules.knaster
    assert kn is not None
    dice = _dice((cfg.seed, g), kn.dice, rules.faces)
    start = KnasterState.new(rules, names)
    base_end, _ = _finish(start, seats, dice, 0)
    rolled = 0
    decision = 0

    def rollout(state: KnasterState) -> Action:
        nonlocal rolled, decision
        decision += 1
        legal = state.legal_actions()
        if len(legal) == 1 or isinstance(legal[0], Roll | Pass):
            return base(state)  # no choice, or the base bot's fixed one (it throws, it passes)
        ranked = bot.rank(state)
        best = ranked[0][1]
        cands = [a for a, v in ranked if v >= best - cfg.margin][: cfg.k]
        if len(cands) == 1 or cfg.n == 0:
            return cands[0]
        rolled += 1
        tables = [_dice((cfg.seed, g, decision, i), kn.dice, rules.faces) for i in range(cfg.n)]
        means = []
        for a in cands:
            after = state.apply(a)
            means.append(float(np.mean([_result(_finish(after, seats, t, 0)[0], seat) for t in tables])))
        return cands[int(np.argmax(means))]  # ties: the earlier candidate, the base bot's choice first

    play_seats: list[Decide] = [rollout if p == seat else other for p in range(n_players)]
    roll_end, _ = _finish(start, play_seats, dice, 0)
    return _result(base_end, seat), _result(roll_end, seat), rolled


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def _job(args: tuple[Config, int]) -> tuple[int, float, float, int]:
    cfg, g = args
    return (g, *play(cfg, g))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--mode", nargs="+", default=["solo", "table"], choices=["solo", "table"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to join runs)")
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--n", type=int, default=16, help="continuations per candidate (0: the base bot alone)")
    ap.add_argument("--k", type=int, default=4, help="candidates at most")
    ap.add_argument("--margin", type=float, default=1.5, help="candidates within this of the best (bot's value)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="a line per game (one job)")
    args = ap.parse_args(argv)
    if args.games < 2 or args.n < 0 or args.k < 1 or args.margin < 0 or args.jobs < 1:
        print("need --games >= 2, --n >= 0, --k >= 1, --margin >= 0, --jobs >= 1", file=sys.stderr)
        return 2
    print(
        f"knaster, seed {args.seed}, games {args.first}..{args.first + args.games - 1}, N {args.n}, K {args.k}, "
        f"margin {args.margin}, {args.jobs} job(s); load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    rows: list[tuple[Any, ...]] = []
    for mode in args.mode:
        cfg = Config(mode, args.seed, args.n, args.k, args.margin)
        jobs = [(cfg, g) for g in range(args.first, args.first + args.games)]
        t = time.perf_counter()
        if args.jobs == 1:
            got = []
            for j in jobs:
                got.append(_job(j))
                if args.verbose:
                    print(f"  {mode} game {got[-1][0]}: base {got[-1][1]:g}, rollout {got[-1][2]:g}", flush=True)
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                got = list(pool.map(_job, jobs))
        seconds = time.perf_counter() - t
        b = np.array([r[1] for r in got])
        r = np.array([r[2] for r in got])
        rolled = float(np.mean([x[3] for x in got]))
        rows.append((mode, len(got), b, r, seconds, rolled))
        print(f"{mode}: {len(got)} games in {seconds:.0f} s", flush=True)
    head = f"{'mode':6} {'games':>5} {'measure':>10} {'base':>22} {'rollout':>22} {'gain':>14}"
    print(f"{head} {'games/s':>8} {'rolled':>6}")
    for mode, n, b, r, seconds, rolled in rows:
        gain = _mean_se(r - b)
        if mode == "solo":
            mb, mr = _mean_se(b), _mean_se(r)
            cells = (
                f"{mb[0]:8.2f} ± {mb[1]:5.2f}",
                f"{mr[0]:8.2f} ± {mr[1]:5.2f}",
                f"{gain[0]:+6.2f} ± {gain[1]:4.2f}",
            )
            measure = "mean"
        else:
            lo_b, hi_b = wilson(float(b.mean()), n)
            lo_r, hi_r = wilson(float(r.mean()), n)
            cells = (
                f"{100 * b.mean():5.1f}% [{100 * lo_b:4.1f}, {100 * hi_b:4.1f}]",
                f"{100 * r.mean():5.1f}% [{100 * lo_r:4.1f}, {100 * hi_r:4.1f}]",
                f"{100 * gain[0]:+5.1f} ± {100 * gain[1]:3.1f}%",
            )
            measure = "win share"
        line = f"{mode:6} {n:5d} {measure:>10} {cells[0]:>22} {cells[1]:>22} {cells[2]:>14}"
        print(f"{line} {n / seconds:8.3f} {rolled:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
