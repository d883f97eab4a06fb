"""``bot:win`` at a table: seconds per game and per decision when it plays through the engine.

Run ``python bench/winbot.py [--rules yahtzee] [--games 4] [--seed 2026]``. Plays ``--games`` seeded
two-player games of ``bot:win`` against ``bot:optimal`` move by move through the engine (the path of a
``pasch play`` or web seat, not the batched duel kernel), the win tables already in the cache. Prints the
rule set, games, ``bot:win``'s decisions, the seconds of the first game (tables opened and checked there),
the seconds of the others, the mean milliseconds per ``bot:win`` decision after the first game, and how
often each win table was opened and checksum-verified in the process (``pasch.solver.win_cache``).

Measured 2026-11-26 (seed 2026, 4 games, tables in the cache, shared 2-core machine at load average ~4.5),
before (each decision opened its tables again) and after the per-process cache (``pasch.solver.win_cache``):

    rules     games decisions  first s   rest s ms/decision  opens
    yacht         4       176     1.42     0.14        0.76      -    (before)
    yahtzee       4       195     3.23     9.13       62.13      -    (before)
    yacht         4       176     0.39     0.04        0.09      2    (after)
    yahtzee       4       195     0.32     0.04        0.11      2    (after)

With the survival blend (ties half) and its four reach sums in one loop, measured 2026-11-26 (nice 19):

    yacht         4       176     0.41     0.05        0.11      2    (load average ~4.2)
    yahtzee       4       195     0.59     0.05        0.12      2

and the decision kernel before and after the one loop, alternated on the same 6 ``yahtzee`` games (seed
2026, 296 decisions each, the same decisions): 0.17 and 0.11 ms per decision at load average 4.2 (0.31 and
0.24 ms of CPU, 1.39 and 0.72 ms wall at load average 12).

Not a timed test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pasch.app import make_bot
from pasch.engine import Game
from pasch.rules import get
from pasch.solver import shared_solver


def opened() -> int | None:
    """How often win tables were opened in this process so far (None where the solver does not count it)."""
    try:
        from pasch.solver import win_cache
    except ImportError:
        return None
    return win_cache.opened


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["yahtzee"])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    print(f"{'rules':9} {'games':>5} {'decisions':>9} {'first s':>8} {'rest s':>8} {'ms/decision':>11} {'opens':>6}")
    for rid in args.rules:
        rules = get(rid)
        shared_solver(rules)
        opened_before = opened()
        win, opt = make_bot("bot:win"), make_bot("bot:optimal")
        first = rest = 0.0
        decisions = 0
        rest_decisions = 0
        rest_win_s = 0.0
        for g in range(args.games):
            t = time.perf_counter()
            game = Game(rules, ["win", "optimal"], rng=np.random.default_rng([args.seed, g]))
            choices = np.random.default_rng([args.seed, g, 1])
            while not game.state.is_terminal:
                bot = win if game.state.current_player == 0 else opt
                t0 = time.perf_counter()
                action = bot.choose(game.state, choices)
                if bot is win:
                    decisions += 1
                    if g > 0:
                        rest_decisions += 1
                        rest_win_s += time.perf_counter() - t0
                game.act(action)
            seconds = time.perf_counter() - t
            if g == 0:
                first = seconds
            else:
                rest += seconds
        ms = 1000 * rest_win_s / max(1, rest_decisions)
        now = opened()
        opens = "-" if now is None or opened_before is None else str(now - opened_before)
        print(f"{rid:9} {args.games:5d} {decisions:9d} {first:8.2f} {rest:8.2f} {ms:11.2f} {opens:>6}", flush=True)


if __name__ == "__main__":
    main()
