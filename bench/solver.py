"""Solver benchmark: build time per rule set, simulation, single advice latency, batched advice.

Run ``python bench/solver.py [--quick]``. Every kernel is called once before timing, so Numba's
compilation (or loading of its on-disk cache) is excluded; table builds skip the table cache but
include the preparation of the rule set's arrays. Times are wall-clock, best of ``--repeat`` runs.

If ``yatzy-solver`` (a Rust solver on PyPI) is installed, its builds of ``american+forced-joker`` and
``yatzy-scandinavian`` are timed on the same machine and the ratios printed; the whole ``pasch solve
--force`` process too (Numba's cache warm; ``bench/coldstart.py`` times the first commands).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

from _pyc import byte_compile_package  # bench/, the script's directory
from pasch.rules import get
from pasch.solver import Solver, build_values, prepare, warm_up
from pasch.solver._table import default_threads

BUILDS = [
    "yahtzee",
    "yatzy",
    "kniffel",
    "kniffel-classic",
    "yacht",
    "yahtzee+joker=free",
    "kniffel+sharp",
    "yahtzee+forced",
    "kniffel-classic+strict+sharp",
]
TARGETS = {"yahtzee": 0.5, "yatzy": 0.75}
RATIO_TARGETS = {"build": 0.10, "process": 0.25, "simulate": 10.0}

_YS_PROCESS = """
import time, yatzy_solver as ys
t = time.perf_counter()
ys.Solver.build(ys.Variant("american+forced-joker"))
print(time.perf_counter() - t)
"""


def whole_process(cmd: list[str], env: dict[str, str]) -> float:
    """Wall-clock seconds of a fresh process (its imports and Numba's cache loading included)."""
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def build_seconds(rule_id: str, repeat: int) -> tuple[float, float]:
    rules = get(rule_id)

    def once() -> None:
        prepare.cache_clear()
        build_values(rules)

    seconds = best_of(once, repeat)
    return seconds, float(build_values(rules)[0, 0, 0])


def random_situations(solver: Solver, m: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Situations of random played-out positions: masks, flags, upper totals, throws, rolls left, sharp."""
    rng = np.random.default_rng(seed)
    p = solver.prep
    n = p.n_boxes
    filled = rng.integers(0, n, m)
    masks = np.zeros(m, np.int64)
    for q in range(m):
        masks[q] = sum(1 << int(i) for i in rng.permutation(n)[: filled[q]])
    flags = np.where((masks >> p.y_box) & 1, rng.integers(0, p.n_flags, m), 0) if p.y_box >= 0 else masks * 0
    uppers = rng.integers(0, p.lanes, m)
    rolls = rng.integers(0, 252, m)
    left = rng.integers(0, solver.rules.throws, m)
    sharps = left == solver.rules.throws - 1
    return masks, flags, uppers, rolls, left, sharps.astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="only yahtzee and yatzy builds")
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()

    byte_compile_package()  # the whole-process runs below start as an installed package's would
    print(f"cores: {os.cpu_count()}, solver threads: {default_threads()}, load: {os.getloadavg()[0]:.1f}")
    warm_up(("build", "options", "best", "batch", "simulate"))  # compiled (or loaded): not timed
    rows: list[tuple[str, str, str]] = []
    mine: dict[str, float] = {}
    for rid in BUILDS[:2] if args.quick else BUILDS:
        seconds, value = build_seconds(rid, args.repeat)
        mine[rid] = seconds
        target = f" (target <= {TARGETS[rid]} s)" if rid in TARGETS else ""
        rows.append((f"build {rid}", f"{seconds:.3f} s{target}", f"expected {value:.4f}"))

    solver = Solver.load("yahtzee")
    solver.simulate(100, seed=1)
    ours_sim = best_of(lambda: solver.simulate(args.games, seed=2), 1)
    rows.append(("simulate yahtzee, optimal", f"{args.games / ours_sim:,.0f} games/s", "target >= 100,000"))

    masks, flags, uppers, rolls, left, sharps = random_situations(solver, 20_000)
    from pasch.solver import StateKey

    keys = [StateKey(int(masks[q]), int(flags[q]), int(uppers[q])) for q in range(2000)]
    solver.best_index(keys[0], int(rolls[0]), int(left[0]), bool(sharps[0]))
    start = time.perf_counter()
    for q in range(2000):
        solver.best_index(keys[q], int(rolls[q]), int(left[q]), bool(sharps[q]))
    single = (time.perf_counter() - start) / 2000
    rows.append(("one advice (best action, kernel)", f"{single * 1e6:.1f} us", "target <= 10 us"))
    scores = [None] * solver.prep.n_boxes
    solver.options(scores, "13356", 2)
    start = time.perf_counter()
    for _ in range(200):
        solver.options(scores, "13356", 2)
    rows.append(("one advice (every option, Python API)", f"{(time.perf_counter() - start) / 200 * 1e6:.1f} us", ""))
    seconds = best_of(lambda: solver.best_batch(masks, flags, uppers, rolls, left, sharps), 2)
    rows.append(("batched advice", f"{len(masks) / seconds:,.0f} situations/s", "target >= 1,000,000"))

    try:
        import yatzy_solver as ys
    except ImportError:
        ys = None
    if ys is not None:
        ys_build: dict[str, float] = {}
        for theirs, ours in (("american+forced-joker", "yahtzee"), ("yatzy-scandinavian", "yatzy")):
            seconds = best_of(lambda v=theirs: ys.Solver.build(ys.Variant(v)), 1)
            ys_build[theirs] = seconds
            ratio = seconds / mine[ours] if ours in mine else float("nan")
            rows.append((f"yatzy-solver build {theirs}", f"{seconds:.3f} s", f"pasch {ours} is {ratio:.1f}x faster"))
        theirs_build = ys_build["american+forced-joker"]
        target = RATIO_TARGETS["build"]
        if "yahtzee" in mine:
            ratio = mine["yahtzee"] / theirs_build
            rows.append(("ratio: in-process build", f"{ratio:.3f}", f"target <= {target} {_ok(ratio <= target)}"))
        # Whole processes: `pasch solve --force` (Numba's cache warm, table rebuilt) against a fresh
        # Python process that imports yatzy-solver and builds the same game.
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "PASCH_CACHE_DIR": tmp}
            exe = os.path.join(os.path.dirname(sys.executable), "pasch")
            pasch_cmd = [exe, "solve", "--rules", "yahtzee", "--force", "--json"]
            whole_process(pasch_cmd, env)  # fills Numba's cache if it was empty
            ours_s = min(whole_process(pasch_cmd, env) for _ in range(args.repeat))
            theirs_s = min(whole_process([sys.executable, "-c", _YS_PROCESS], env) for _ in range(1))
        target = RATIO_TARGETS["process"]
        rows.append(("pasch solve --force (whole process)", f"{ours_s:.3f} s", f"yatzy-solver's {theirs_s:.3f} s"))
        ratio = ours_s / theirs_s
        rows.append(("ratio: whole process", f"{ratio:.3f}", f"target <= {target} {_ok(ratio <= target)}"))
        game = ys.Solver.build(ys.Variant("american+forced-joker"))
        game.simulate(1000, 1)
        theirs_sim = best_of(lambda: game.simulate(args.games, 2), 1)
        ours_rate = args.games / ours_sim
        target = RATIO_TARGETS["simulate"]
        rows.append(
            ("yatzy-solver simulate", f"{args.games / theirs_sim:,.0f} games/s", f"pasch {ours_rate:,.0f} games/s")
        )
        speed = theirs_sim / ours_sim
        rows.append(("ratio: simulation speed", f"{speed:.1f}x", f"target >= {target:.0f}x {_ok(speed >= target)}"))
    else:
        rows.append(("yatzy-solver", "not installed", "pip install yatzy-solver==1.0.0 to compare"))

    width = max(len(r[0]) for r in rows)
    width2 = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'result':<{width2}}  note")
    print("-" * (width + width2 + 30))
    for a, b, c in rows:
        print(f"{a:<{width}}  {b:<{width2}}  {c}")


if __name__ == "__main__":
    main()
