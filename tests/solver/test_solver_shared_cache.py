"""One Numba cache shared by many processes and rule sets gives every answer bit for bit (issue 24).

Fresh processes run ``solve --force``, ``advise`` (expected score, and for the small shapes target and win),
``simulate``, ``duel`` and ``review`` for rule sets of different shapes, one after another, sharing one
Numba cache directory: in the listed order, and again in the reverse order with a new cache. Every JSON
answer (timings aside) must equal that of the same command run with a fresh Numba cache of its own. Each
process also gets a fresh table cache, so it builds its tables with the kernels (the catalogue's value
tables still come from the package), and runs under glibc settings that turn a use of freed memory into
a crash or a changed answer: every allocation from 64 KiB is its own mapping (unmapped when freed) and
freed memory is overwritten.

The segmentation fault of issue 24 (``advise --objective target`` after another rule set's target advice
on one cache) was not a cache entry reused across rule sets but a kernel writing through a view of a buffer
Numba had already freed; ``tests/solver/test_solver_kernel_rules.py`` checks the two rules that rule out
both. The threshold and win tables of the full-size rule sets take 0.5 to 4 GB and half a minute to several
minutes each, so target and win run on the small shapes: ``+forced`` variants of each family (they keep the
flags, the sharp throws, the upper bonus and the box count of their base) and Yacht.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pasch.bots import GreedyBot
from pasch.engine import Game

pytestmark = pytest.mark.slow

FULL = ["yacht", "yahtzee", "yahtzee+forced", "kniffel+forced", "yatzy", "kniffel-classic+sharp"]
"""Rule sets of different shapes: boxes 12/13/15, one or two flags, sharp throws, no upper bonus (yacht)."""

SMALL = ["yacht", "yahtzee+forced", "kniffel+forced", "yatzy+forced", "kniffel-classic+sharp+forced"]
"""The shapes whose threshold and win tables are small enough for every process to build them."""

TIMINGS = {"seconds", "build_seconds", "table", "games_per_second", "elapsed", "from_cache"}
"""Keys of the JSON answers that measure time or name a file: not part of the answer."""

_MAIN = "from pasch.cli import main; main()"


def _log(tmp_path: Path, rules: str) -> Path:
    """A finished two-player game of ``rules`` played by the greedy bot (seeded), saved as a log."""
    rng = np.random.default_rng(11)
    game = Game(rules, ["ann", "bob"], rng=rng)
    bot = GreedyBot()
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    path = tmp_path / f"{rules.replace('+', '_')}.json"
    path.write_text(game.log.to_json(), encoding="utf-8")
    return path


def _commands(tmp_path: Path) -> list[list[str]]:
    out: list[list[str]] = []
    for rules in FULL:
        log = str(_log(tmp_path, rules))
        out += [
            ["solve", "--rules", rules, "--force", "--json"],
            ["advise", "--rules", rules, "--dice", "13356", "--rolls-left", "2", "--json"],
            ["simulate", "--rules", rules, "--games", "300", "--bot", "optimal", "--seed", "5", "--json"],
            ["duel", "--rules", rules, "--bots", "optimal,greedy", "--games", "40", "--seed", "2", "--json"],
            ["review", log, "--json"],
        ]
    for rules in SMALL:
        log = str(_log(tmp_path, rules))
        out += [
            ["advise", "--rules", rules, "--dice", "13356", "--rolls-left", "2", "--objective", "target",
             "--target", "150", "--json"],
            ["advise", "--rules", rules, "--dice", "24456", "--rolls-left", "1", "--objective", "win",
             "--opponent", "", "--json"],
            ["duel", "--rules", rules, "--bots", "win,optimal", "--games", "40", "--seed", "3", "--json"],
            ["review", log, "--win", "--json"],
        ]  # fmt: skip
    return out


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _run(argv: list[str], numba_cache: Path, tables: Path) -> Any:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PASCH_"))}
    env |= {
        "NUMBA_CACHE_DIR": str(numba_cache),
        "PASCH_CACHE_DIR": str(tables),
        "MALLOC_MMAP_THRESHOLD_": "65536",  # a freed array of 64 KiB or more is unmapped: a later write crashes
        "MALLOC_PERTURB_": "165",  # freed memory is overwritten: a later read changes the answer
    }
    done = subprocess.run([sys.executable, "-c", _MAIN, *argv], env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"pasch {' '.join(argv)}: exit {done.returncode}\n{done.stderr[-2000:]}"
    return _strip(json.loads(done.stdout))


def test_a_shared_numba_cache_answers_as_a_fresh_one_in_either_order(tmp_path: Path) -> None:
    commands = _commands(tmp_path)
    assert len(commands) == 5 * len(FULL) + 4 * len(SMALL)

    def fresh(item: tuple[int, list[str]]) -> Any:
        i, argv = item
        return _run(argv, tmp_path / "fresh" / f"numba-{i}", tmp_path / "fresh" / f"tables-{i}")

    with ThreadPoolExecutor(max_workers=2) as pool:  # a fresh cache each: every process compiles
        reference = list(pool.map(fresh, enumerate(commands)))
    for name, order in (("forward", list(enumerate(commands))), ("backward", list(enumerate(commands))[::-1])):
        shared = tmp_path / name / "numba"
        for i, argv in order:
            got = _run(argv, shared, tmp_path / name / f"tables-{i}")
            assert got == reference[i], f"{name}: pasch {' '.join(argv)} answered otherwise on a shared cache"
