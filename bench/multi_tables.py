"""The multi-column bot's tables on a fresh machine: how long a first bot move or hint of jetsi, kniffel-3 and
kniffel-4 waits for them, and what they hold in memory.

Run ``python bench/multi_tables.py [--rules jetsi kniffel-3 kniffel-4] [--threads N]``. Per rule set, three fresh
processes: the first with an empty table cache (``PASCH_CACHE_DIR``), as a new machine's first game, the second
and third with the cache the first wrote (a server's restart). Each calls :func:`pasch.app.prepare_bot_tables`
(what ``pasch serve`` runs when a room with a bot seat or hints is created, and the terminal app before a bot's
first move), then times the first decision of a solo game's first throw. Numba's compiled kernels are not
cleared (``bench/coldstart.py`` times compiling). Wall-clock seconds of the whole call, one run each; the load
average before and after is printed beside them, since a shared machine's speed varies.

Columns: ``prepare, empty cache`` and ``prepare, cached`` (the better of two processes), ``first decision``
after preparing (ms), ``MB`` the tables' bytes in the process-wide store (one copy, shared by every bot of
the process), ``tables`` how many.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, sys, time
import numpy as np
from pasch.app import prepare_bot_tables
from pasch.bots import MultiColumnBot
from pasch.bots._columns import _TABLES
from pasch.engine import Roll, Throw, new_game
from pasch.rules import get

rules = get(sys.argv[1])
state = new_game(rules, ["a"]).apply(Roll()).apply(Throw((1, 2, 3, 4, 6)))
t0 = time.perf_counter()
prepare_bot_tables(rules)
t1 = time.perf_counter()
MultiColumnBot().choose(state, np.random.default_rng(1))
t2 = time.perf_counter()
size = 0
for v in _TABLES._items.values():
    a = getattr(v, "values", v)
    size += a.nbytes if isinstance(a, np.ndarray) else 0
print(json.dumps({"prepare": t1 - t0, "decide": t2 - t1, "mb": size / 1e6, "tables": len(_TABLES._items)}))
"""


def _run(rules: str, cache: Path, threads: int | None) -> dict[str, float]:
    env = {**os.environ, "PASCH_CACHE_DIR": str(cache)}
    if threads:
        env["NUMBA_NUM_THREADS"] = str(threads)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, rules], env=env, capture_output=True, text=True, check=True, timeout=900
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["jetsi", "kniffel-3", "kniffel-4"])
    ap.add_argument("--threads", type=int, default=None, help="solver threads (default: the cores)")
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'rules':10s} {'prepare, empty cache s':>23s} {'prepare, cached s':>18s} {'first decision ms':>18s} "
        f"{'MB':>7s} {'tables':>7s}"
    )
    with tempfile.TemporaryDirectory(prefix="pasch-multi-tables-") as tmp:
        for rules in args.rules:
            cache = Path(tmp) / rules
            cold = _run(rules, cache, args.threads)
            warm = min((_run(rules, cache, args.threads) for _ in range(2)), key=lambda r: r["prepare"])
            print(
                f"{rules:10s} {cold['prepare']:23.1f} {warm['prepare']:18.2f} {1000 * warm['decide']:18.0f} "
                f"{warm['mb']:7.1f} {int(warm['tables']):7d}",
                flush=True,
            )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
