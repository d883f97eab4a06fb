"""pasch is a library: importing and using the solver leaves Numba's classes, its configuration and the
environment exactly as they were, and the user's own ``@njit`` code compiles and caches as Numba does it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = r"""
import os, sys
import numba
import numba.core.caching, numba.core.codegen, numba.core.compiler, numba.core.dispatcher, numba.core.registry

MODULES = (numba.core.caching, numba.core.codegen, numba.core.compiler, numba.core.dispatcher, numba.core.registry)


def classes():
    # every member of every class of the modules that compile and cache (what a patch would replace)
    return {
        (m.__name__, name, attr): value
        for m in MODULES
        for name, cls in vars(m).items()
        if isinstance(cls, type)
        for attr, value in vars(cls).items()
    }


def config():
    return {k: getattr(numba.config, k) for k in dir(numba.config) if k.isupper()}


env, members, conf = dict(os.environ), classes(), config()

import numpy as np
import pasch, pasch.solver
from pasch.solver import Solver, build_values, target_table, warm_up
from pasch.rules import get

solver = Solver.load("yacht")
solver.options([None] * 12, "13356", 2)
warm_up(("build", "options", "best", "batch", "simulate"))  # every kernel of the single-column solver compiled
solver.options([None] * 12, "13356", 2)
solver.simulate(20, seed=3)
build_values(get("kniffel+forced"))
target_table(Solver.load("yacht+forced", use_cache=False), use_cache=False)


@numba.njit(cache=True)
def users_own(x):
    return x * 2 + 1


assert users_own(20) == 41
after = classes()
changed = sorted(str(k) for k in set(members) | set(after) if members.get(k) is not after.get(k))
assert not changed, changed
assert dict(os.environ) == env, set(os.environ.items()) ^ set(env.items())
assert config() == conf, {k: v for k, v in config().items() if conf.get(k) != v}
print("untouched", len(members))
"""


def test_using_the_solver_changes_nothing_in_the_process(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PASCH_"))}
    env |= {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PASCH_CACHE_DIR": str(tmp_path / "tables")}
    script = tmp_path / "users_script.py"  # a file: Numba caches only functions of files
    script.write_text(_SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    verdict, count = done.stdout.split()
    assert verdict == "untouched" and int(count) > 1000  # the snapshot holds the classes' members
