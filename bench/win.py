"""Play-to-win benchmark: bot:win against bot:optimal (two players) and the latency of one win advice.

Run ``python bench/win.py [--rules yahtzee yatzy] [--games 200000] [--seconds 600]``. For each rule set the
threshold table and the empty sheet's distribution are loaded (or built once, and timed), then seeded
two-player games are played in chunks of ``--chunk`` (seats alternate) until ``--games`` games or
``--seconds`` seconds; the table prints the games actually played, bot:win's win rate (ties count half),
its 95 % interval and whether the targets (rate >= 52 %, interval above 50.5 %) are met. The latency is
the median and 95th percentile of ``TargetTable.win_options`` over situations of simulated games, with
the opponents' distributions computed beforehand (the tables loaded). Not a timed test.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from pasch.app import duel, make_bot
from pasch.engine import Game
from pasch.rules import get
from pasch.solver import Solver, score_distribution, target_table


def latency(rules_id: str, samples: int, seed: int) -> tuple[float, float]:
    """Median and 95th percentile (ms) of one win advice, tables and opponent distributions ready."""
    solver = Solver.load(rules_id)
    table = target_table(solver)
    rng = np.random.default_rng(seed)
    bot = make_bot("optimal")
    times: list[float] = []
    while len(times) < samples:
        game = Game(rules_id, ["a", "b"], rng=rng)
        while not game.state.is_terminal and len(times) < samples:
            st = game.state
            if st.dice is not None and st.current_player == 0 and rng.random() < 0.3:
                opp = st.sheets[1].columns[0]
                d = score_distribution(solver, list(opp.scores), extra=opp.extra)
                col = st.sheets[0].columns[0]
                t = time.perf_counter()
                table.win_options(list(col.scores), list(st.dice), int(st.throws_left), [d], bool(st.sharp), col.extra)
                times.append(1000 * (time.perf_counter() - t))
            game.act(bot.choose(st, rng))
    return float(np.median(times)), float(np.percentile(times, 95))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["yahtzee", "yatzy"])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--seconds", type=float, default=600.0, help="time budget per rule set for the games")
    ap.add_argument("--chunk", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--latency-samples", type=int, default=40)
    args = ap.parse_args()
    rows = []
    for rid in args.rules:
        rules = get(rid)
        t = time.perf_counter()
        solver = Solver.load(rules)
        table = target_table(solver)
        score_distribution(solver)
        prep_s = time.perf_counter() - t
        med, p95 = latency(rid, args.latency_samples, args.seed)
        wins = ties = games = 0
        second = 0.0
        start = time.perf_counter()
        chunk_no = 0
        while games < args.games and time.perf_counter() - start < args.seconds:
            n = min(args.chunk, args.games - games)
            got = duel(rules, ("win", "optimal"), n, seed=args.seed + chunk_no)
            wins += got.sides[0].wins
            ties += got.ties
            games += n
            chunk_no += 1
        rate = (wins + ties / 2) / games
        second = (wins + ties / 4) / games
        half = 1.959964 * math.sqrt(max(0.0, second - rate * rate) / games)
        ok = rate >= 0.52 and rate - half > 0.505
        rows.append((rid, prep_s, table.build_seconds, games, rate, rate - half, rate + half, ok, med, p95))
    print(
        f"{'rules':10} {'load s':>7} {'build s':>8} {'games':>7} {'win rate':>9} {'95% CI':>17} "
        f"target {'ms med':>7} {'ms p95':>7}"
    )
    for rid, prep_s, build_s, games, rate, lo, hi, ok, med, p95 in rows:
        print(
            f"{rid:10} {prep_s:7.1f} {build_s:8.1f} {games:7d} {100 * rate:8.2f}% "
            f"[{100 * lo:6.2f}, {100 * hi:6.2f}]% {'ok' if ok else 'MISSED':6} {med:7.2f} {p95:7.2f}"
        )


if __name__ == "__main__":
    main()
