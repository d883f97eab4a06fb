"""``bench/abuse.py`` in the slow step: every attack of issue 26 is refused, the server stays within its memory
and disk bounds, and a player in another room keeps playing. The bench's own p99 bound is 100 ms; here it is
a second, since the test shares a busy CI machine with the rest of the step (the bench is the measurement)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "abuse.py"


def test_the_abuse_bench_holds_every_bound() -> None:
    argv = ["--variants", "100", "--creations", "100", "--connections", "100", "--spam-seconds", "3"]
    argv += ["--slow-sockets", "30", "--silent-sockets", "100", "--p99-bound-ms", "1000"]
    done = subprocess.run([sys.executable, str(BENCH), *argv], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "attacks that got through" in done.stdout and "result: within bounds" in done.stdout
    got_through = next(line for line in done.stdout.splitlines() if line.startswith("attacks that got through"))
    assert got_through.split()[-1] == "none", got_through
