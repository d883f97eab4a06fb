"""Threshold and survival tables: how long a rule set's first build takes, and what it stores.

Run ``python bench/target.py [--rules yahtzee yatzy] [--threads N]``. Each rule set's tables are built
in a fresh process with an empty table cache (``PASCH_CACHE_DIR`` is a new temporary directory; the
Numba cache is the user's, so the kernels' compile time is counted only when it is empty), exactly as
the first ``pasch advise --objective target`` or the first game of ``bot:win`` builds them: the value
table, then the threshold table (timed: the issue's target is at most 2 minutes for ``yahtzee`` on 2
cores), then the survival table. The table prints wall-clock and CPU seconds of each build, the rows,
the width, the bytes stored and the verdict. Not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

TARGET_SECONDS = 120.0

_CHILD = """
import json, sys, time
from pasch.solver import Solver, survival_table, target_table
rid = sys.argv[1]
solver = Solver.load(rid)
out = {}
for kind, fn in (("target", target_table), ("survive", survival_table)):
    w, c = time.perf_counter(), time.process_time()
    table = fn(solver)
    out[kind] = {"wall": time.perf_counter() - w, "cpu": time.process_time() - c,
                 "rows": int(table.theta.shape[0]), "width": int(table.theta.shape[1]),
                 "bytes": int(table.theta.nbytes)}
print(json.dumps(out))
"""


def measure(rules_id: str, threads: int) -> dict[str, dict[str, float]]:
    """Build one rule set's tables in a fresh process with an empty table cache; their figures."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PASCH_CACHE_DIR": cache}
        if threads:
            env["NUMBA_NUM_THREADS"] = str(threads)
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, rules_id],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["yahtzee", "yatzy"])
    ap.add_argument("--threads", type=int, default=0, help="solver threads (0: NUMBA_NUM_THREADS or one per core)")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"cores: {os.cpu_count()}, load average: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'rules':10} {'table':8} {'wall s':>8} {'cpu s':>8} {'rows':>9} {'width':>6} {'MB':>7}  target")
    print("-" * 72)
    for rid in args.rules:
        got = measure(rid, args.threads)
        for kind in ("target", "survive"):
            g = got[kind]
            verdict = ""
            if kind == "target" and rid == "yahtzee":
                ok = g["wall"] <= TARGET_SECONDS
                verdict = f"<= {TARGET_SECONDS:.0f} s  {'met' if ok else 'MISSED'}"
            print(
                f"{rid:10} {kind:8} {g['wall']:8.1f} {g['cpu']:8.1f} {int(g['rows']):9d} {int(g['width']):6d} "
                f"{g['bytes'] / 1e6:7.0f}  {verdict}"
            )


if __name__ == "__main__":
    main()
