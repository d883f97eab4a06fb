"""Peak memory of building a rule set's two win tables, against what the interfaces state before a build.

Run ``python bench/win_memory.py [--rules yahtzee yatzy]``. For each rule set a fresh process, on an empty
table cache directory (the exact value table comes from the package or is built there too), builds the
threshold table and then the survival table, as ``w`` in the terminal or ``bot:win``'s first move does
(``pasch.app.prepare_win_tables``). Prints the rule set, the tables' size on disk, the peak stated
beforehand (``pasch.app.WinTables.peak_megabytes``), the process's measured peak resident set (Linux's
``VmHWM``), the peak over the size on disk, and the wall seconds. Memory is the point; the seconds depend on
the machine's load.

Measured 2026-11-26 with ``/usr/bin/time -v`` around the same build (two shared cores, nice 19, load
average 6-13; 46b06fd quantises each table over its own float buffer):

    rules    on disk MB  stated MB  peak MB  peak/disk
    yahtzee         736       1653     1349       1.83   (before 46b06fd: 1747)
    yatzy          1438       2846     2369       1.65   (before 46b06fd: 3049)

This script on the same day, after 46b06fd (nice 19, load average 4.8 and 2.1 at the starts), verbatim:

    rules    on disk MB  stated MB  peak MB  peak/disk  seconds
    yahtzee         736       1653     1318       1.79      126
    yatzy          1438       2846     2319       1.61      187

Not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, sys, time
from pasch.app import prepare_win_tables, win_tables
from pasch.rules import get
rules = get(sys.argv[1])
info = win_tables(rules)
start = time.monotonic()
prepare_win_tables(rules)
with open("/proc/self/status") as fh:  # this process's own high-water mark (ru_maxrss keeps a parent's)
    hwm = int(next(line for line in fh if line.startswith("VmHWM:")).split()[1])
print(json.dumps({"disk": info.nbytes / 1e6, "stated": info.peak_megabytes, "on_disk": info.on_disk,
    "peak": hwm / 1024, "seconds": time.monotonic() - start}))
"""


def measure(rules: str) -> dict[str, float]:
    """Build ``rules``' win tables in a fresh process on an empty cache; what it stated and what it took."""
    with tempfile.TemporaryDirectory(prefix="pasch-win-memory-") as tmp:
        env = {**os.environ, "PASCH_CACHE_DIR": str(Path(tmp) / "cache")}
        done = subprocess.run(
            [sys.executable, "-c", CHILD, rules], env=env, capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"{rules}: the build failed:\n{done.stderr[-2000:]}")
    got: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if got["on_disk"]:
        raise SystemExit(f"{rules}: the tables were found on disk, nothing was built")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["yahtzee", "yatzy"])
    args = ap.parse_args()
    if not Path("/proc/self/status").exists():
        raise SystemExit("reads the peak from Linux's /proc/self/status")
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'rules':8} {'on disk MB':>10} {'stated MB':>10} {'peak MB':>8} {'peak/disk':>10} {'seconds':>8}")
    for rules in args.rules:
        got = measure(rules)
        ratio = got["peak"] / got["disk"]
        line = f"{rules:8} {got['disk']:10.0f} {got['stated']:10.0f} {got['peak']:8.0f} {ratio:10.2f}"
        print(f"{line} {got['seconds']:8.0f}", flush=True)
        if got["peak"] > got["stated"]:
            print(f"  {rules}: the build took more than it stated", flush=True)


if __name__ == "__main__":
    main()
