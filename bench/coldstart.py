"""Cold start: each first command on a fresh install, against yatzy-solver's build in the same run.

Run ``python bench/coldstart.py``. Every measured command runs in a fresh process with an empty Numba
cache (``NUMBA_CACHE_DIR``) and an empty table cache (``PASCH_CACHE_DIR``), as a newcomer's first command
does. A catalogue rule set's value table comes with the package (``pasch.solver._shipped``), and the
options of a situation are answered in numpy until their kernel is compiled, so the first ``advise``,
hint and ``review`` compile nothing; ``solve --force`` compiles the table build (on two cores when one is
free: ``PASCH_COMPILE_PROCESS``), and ``simulate`` the simulation kernel. The commands (targets as ratios
to yatzy-solver's build, issue 24):

* ``pasch advise`` of a yahtzee situation (<= 0.5);
* the first hint of ``pasch play``: :func:`pasch.tui._hints.compute_hints` in a fresh process, the code
  path the terminal game's hint panel runs (<= 0.5);
* ``pasch review`` of a small saved game (a solo yahtzee game played by the greedy bot) (<= 0.5);
* ``pasch solve --rules yahtzee --force`` (<= 1.5);
* ``pasch simulate --rules yahtzee --games 1000 --bot optimal`` (<= 2.0);
* without targets: ``solve`` (the shipped table), the first ``advise`` of a rule set the package does not
  ship (``yatzy+upward``: its table is built first), and ``solve --force`` compiling on one core
  (``PASCH_COMPILE_PROCESS=0``).

In the same run yatzy-solver 1.0.0 (the Rust solver on PyPI, as in ``bench/solver.py``) builds
``american+forced-joker`` in a fresh process; its build time (measured inside that process) is the
yardstick of the ratios. Last, one more fresh process, compiling on one core, times the compilation of
every Numba kernel (Numba's own compile timers, per dispatcher and signature) and each first call.

pasch's bytecode is written first, as ``pip install`` does (only Numba's and the table cache are empty).
Times are wall-clock seconds of the whole process, one run each (``--repeat`` takes the best of several).
On a shared machine they are noisy; the ratios within one run are what matters. Beside them, the CPU
seconds of each process (user + system, ``resource.getrusage(RUSAGE_CHILDREN)``): far less noisy when
other work shares the cores, and the compile cost proper.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from _pyc import byte_compile_package  # bench/, the script's directory

TARGETS = {"advise": 0.5, "first hint (play)": 0.5, "review": 0.5, "solve --force": 1.5, "simulate": 2.0}

_YS_BUILD = """
import time, yatzy_solver as ys
t = time.perf_counter()
ys.Solver.build(ys.Variant("american+forced-joker"))
print(time.perf_counter() - t)
"""

_HINT = """
import numpy as np
from pasch.engine import Game
from pasch.tui._hints import compute_hints
game = Game("yahtzee", ["me"], rng=np.random.default_rng(7))
game.act("roll")
hints = compute_hints(game.state)
assert hints.exact and hints.rows, hints
"""

_KERNELS = """
import json, time
import numpy as np
t0, c0 = time.perf_counter(), time.process_time()
from pasch.solver import Solver, StateKey
import pasch.solver
steps = {"import pasch.solver": (time.perf_counter() - t0, time.process_time() - c0)}

def step(name, fn):
    t, c = time.perf_counter(), time.process_time()
    fn()
    steps[name] = (time.perf_counter() - t, time.process_time() - c)

holder = {}
step("table build (yahtzee)", lambda: holder.setdefault("s", Solver.load("yahtzee", force=True)))
s = holder["s"]
step("options (advise)", lambda: s.options([None] * 13, "13356", 2))
step("best_index", lambda: s.best_index(StateKey(0, 0, 0), 3, 2, True))
one = np.zeros(1, np.int64)
step("best_batch", lambda: s.best_batch(one, one, one, one, one, one))
step("simulate", lambda: s.simulate(10, seed=1))
compiled = []
for kernel in pasch.solver.kernels():
    for sig, cres in kernel.overloads.items():
        timers = (cres.metadata or {}).get("timers", {})
        seconds = timers.get("compiler_lock")
        if seconds is None:  # compiled on a worker thread of the build: no lock timer; its passes instead
            passes = (cres.metadata or {}).get("pipeline_times", {}).values()
            seconds = -sum(v.init + v.run + v.finalize for pipe in passes for v in pipe.values())
        compiled.append((kernel.__name__, len(sig), seconds))
print(json.dumps({"steps": steps, "compiled": compiled}))
"""


def _fresh_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("NUMBA_CACHE_DIR", "PASCH_CACHE_DIR"):
        path = root / name.lower()
        path.mkdir()
        env[name] = str(path)
    env.pop("NUMBA_DISABLE_JIT", None)
    env["COLUMNS"] = "100"
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_CPU: dict[str, float] = {}  # the CPU seconds of the last run of each command (see _timed)


def _timed(cmd: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    _CPU["last"] = _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return seconds, done.stdout


def _pasch() -> list[str]:
    exe = Path(sys.executable).with_name("pasch")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pasch"]


def _small_game(path: Path) -> None:
    import numpy as np

    from pasch.bots import GreedyBot
    from pasch.engine import Game

    rng = np.random.default_rng(3)
    game = Game("yahtzee", ["Ada"], rng=rng)
    bot = GreedyBot()
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    path.write_text(game.log.to_json(), encoding="utf-8")


def _numba_version() -> str:
    import numba

    return str(numba.__version__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1, help="runs per command (best of)")
    parser.add_argument("--no-kernels", action="store_true", help="skip the per-kernel compile table")
    args = parser.parse_args()

    byte_compile_package()
    work = Path(tempfile.mkdtemp(prefix="pasch-coldstart-"))
    try:
        log = work / "game.json"
        _small_game(log)
        pasch = _pasch()
        solve = [*pasch, "solve", "--rules", "yahtzee"]
        advise = [*pasch, "advise", "--rules", "yahtzee", "--dice", "13356", "--rolls-left", "2"]
        advise_sheet = [*advise, "--sheet", "ones=3 twos=6 yahtzee=50"]
        simulate = [*pasch, "simulate", "--rules", "yahtzee", "--games", "1000", "--bot", "optimal"]
        not_shipped = [*pasch, "advise", "--rules", "yatzy+upward", "--dice", "13356", "--rolls-left", "2"]
        commands: list[tuple[str, list[str], dict[str, str]]] = [
            ("advise", advise_sheet, {}),
            ("first hint (play)", [sys.executable, "-c", _HINT], {}),
            ("review", [*pasch, "review", str(log)], {}),
            ("solve --force", [*solve, "--force"], {}),
            ("simulate", simulate, {}),
            ("solve (shipped table)", solve, {}),
            ("advise, table not shipped", not_shipped, {}),
            ("solve --force, one core", [*solve, "--force"], {"PASCH_COMPILE_PROCESS": "0"}),
        ]
        results: dict[str, float] = {}
        cpus: dict[str, float] = {}
        ys_build = ys_process = ys_cpu = float("nan")
        for rep in range(args.repeat):
            try:
                root = work / f"ys{rep}"
                root.mkdir()
                wall, out = _timed([sys.executable, "-c", _YS_BUILD], _fresh_env(root), work)
                ys_build = min(ys_build, float(out.strip())) if ys_build == ys_build else float(out.strip())
                ys_process = min(ys_process, wall) if ys_process == ys_process else wall
                ys_cpu = min(ys_cpu, _CPU["last"]) if ys_cpu == ys_cpu else _CPU["last"]
            except SystemExit as exc:
                print(f"yatzy-solver not run: {str(exc).splitlines()[0]}; pip install yatzy-solver==1.0.0")
            for name, cmd, extra in commands:
                root = work / f"{''.join(ch if ch.isalnum() else '_' for ch in name)}-{rep}"
                root.mkdir()
                env = {**_fresh_env(root), **extra}
                seconds, _ = _timed(cmd, env, work)
                results[name] = min(results.get(name, seconds), seconds)
                cpus[name] = min(cpus.get(name, _CPU["last"]), _CPU["last"])

        second = os.environ.get("PASCH_COMPILE_PROCESS", "") or "unset: when a core is free"
        print(f"cores: {os.cpu_count()}, load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        runs = "one run" if args.repeat == 1 else f"best of {args.repeat} runs"
        print(f"Each command in a fresh process with empty Numba and table caches ({runs}; shared machine: noisy).")
        print(f"Second compiling process of a first build (PASCH_COMPILE_PROCESS): {second}.")
        print(f"Numba {_numba_version()}; the catalogue's tables are shipped with the package.")
        print()
        w = max(len("pasch " + n) for n in results) + 1
        print(f"{'first command':<{w}} {'seconds':>8} {'/ ys build':>11} {'CPU s':>7}  target")
        print("-" * (w + 40))
        print(
            f"{'yatzy-solver build':<{w}} {ys_build:8.2f} {1.0:11.2f} {ys_cpu:7.2f}  "
            f"(its whole process {ys_process:.2f} s; CPU: its whole process, all threads)"
        )
        for name, seconds in results.items():
            ratio = seconds / ys_build
            target = TARGETS.get(name)
            mark = "" if target is None else f"<= {target:.1f}  {'ok' if ratio <= target else 'MISSED'}"
            print(f"{'pasch ' + name:<{w}} {seconds:8.2f} {ratio:11.2f} {cpus[name]:7.2f}  {mark}")

        if not args.no_kernels:
            root = work / "kernels"
            root.mkdir()
            # Every kernel compiled in this one process (no second process filling the cache), so that
            # each has its own compile timer.
            env = {**_fresh_env(root), "PASCH_COMPILE_PROCESS": "0"}
            _, out = _timed([sys.executable, "-c", _KERNELS], env, work)
            data = json.loads(out.strip().splitlines()[-1])
            print()
            print("First calls in one fresh process, one core compiling (compile + run):")
            for name, (seconds, cpu) in data["steps"].items():
                print(f"  {name:<28} {seconds:7.2f} s  {cpu:7.2f} CPU s")
            print()
            print("Numba compile time per kernel (its compile timer, nested kernels included;")
            print("* compiled on a build thread, which has no such timer: the sum of its compiler passes):")
            for name, n_args, seconds in sorted(data["compiled"], key=lambda c: -abs(c[2])):
                mark = "*" if seconds < 0 else " "
                print(f"  {name:<28} {abs(seconds):7.2f} s{mark} ({n_args} arguments)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
