"""Exact optimal strategy of single-column dice-sheet games: solve, values, options, regret, simulation.

``Solver.load("yahtzee")`` builds the table of expected further scores over every reachable turn-start
state (filled boxes, capped upper total, the all-alike box's flag where the rules need it), or loads it
from the user cache directory. Inside a turn the 252 throws and 462 keeps of five dice are solved on
demand for each question.

The Numba kernels take one record of arrays derived from the rule set by ``_prep``
(:class:`Tables`), which reads every score off :func:`pasch.rules.score_options`; the tests compare
them with a plain recursive solver. They live in ``_kparts`` (pieces shared by every kernel),
``_kbuild`` (the table build), ``_kone`` (one situation) and ``_kmany`` (batches and simulation),
and a rule set's sizes reach them only as arguments, so one compiled kernel serves every rule set.
Numba compiles each on its first use and keeps it in its disk cache (``_jit``: public API only;
:func:`on_compile` hears of a slow compilation).

The package ships the tables of the catalogue's base rule sets (``_shipped``), and until the options
kernel is compiled in a process the options of a situation are computed in numpy, bit for bit the
kernel's numbers (``_npquery``): a first ``advise``, ``review`` or hint of a catalogue rule set
compiles nothing.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from pasch.solver._announced import ANNOUNCED_VERSION, announced_table
from pasch.solver._blind import BlindWin, blind_win
from pasch.solver._dist import ScoreDistribution, distribution_path, score_distribution
from pasch.solver._duel import duel_win_optimal
from pasch.solver._jit import on_compile
from pasch.solver._prep import Prep, Tables, prepare, tables
from pasch.solver._query import Option, Solver, StateKey
from pasch.solver._shared import clear_shared, is_shared, set_shared_budget, shared_nbytes, shared_solver
from pasch.solver._sheet import check_sheet
from pasch.solver._slack import SLACK_VERSION, SlackTable, box_sequence, free_slack_levels, slack_table
from pasch.solver._table import (
    SOLVER_VERSION,
    CacheWarning,
    build_values,
    cache_dir,
    cache_name,
    disk_budget,
    load_array,
    load_or_build,
    set_disk_budget,
    store_or_warn,
    table_path,
    trim_cache,
)
from pasch.solver._target import SurvivalTable, TargetOption, TargetTable, survival_table, target_table
from pasch.solver._targetfile import WinFiles, win_files
from pasch.solver._wincache import MAX_OPEN, WinCache, win_cache, win_pair

KERNEL_MODULES = ("_kparts", "_kbuild", "_kone", "_kmany", "_kdist", "_ktarget", "_kwin", "_kduel")
"""The modules of the solver's Numba kernels, shared pieces first."""

TASKS = {
    "build": ("_kbuild", "_solve_layer"),
    "options": ("_kone", "_option_values"),
    "best": ("_kone", "_best_one"),
    "batch": ("_kmany", "_best_many"),
    "simulate": ("_kmany", "_simulate_many"),
}
"""The kernel behind each task: building a table, every option of a situation, the best decision of
one situation, of a batch, and simulation."""

__all__ = [
    "ANNOUNCED_VERSION",
    "KERNEL_MODULES",
    "MAX_OPEN",
    "SLACK_VERSION",
    "SOLVER_VERSION",
    "TASKS",
    "BlindWin",
    "CacheWarning",
    "Option",
    "Prep",
    "ScoreDistribution",
    "SlackTable",
    "Solver",
    "StateKey",
    "SurvivalTable",
    "Tables",
    "TargetOption",
    "TargetTable",
    "WinCache",
    "WinFiles",
    "announced_table",
    "blind_win",
    "box_sequence",
    "build_values",
    "cache_dir",
    "cache_name",
    "check_sheet",
    "clear_shared",
    "disk_budget",
    "distribution_path",
    "duel_win_optimal",
    "free_slack_levels",
    "is_shared",
    "kernels",
    "load_array",
    "load_or_build",
    "on_compile",
    "prepare",
    "score_distribution",
    "set_disk_budget",
    "set_shared_budget",
    "shared_nbytes",
    "shared_solver",
    "slack_table",
    "solve",
    "store_or_warn",
    "survival_table",
    "table_path",
    "tables",
    "target_table",
    "trim_cache",
    "warm_up",
    "win_cache",
    "win_files",
    "win_pair",
]


def solve(rules: str, *, force: bool = False) -> Solver:
    """Shorthand for :meth:`Solver.load` with a rule-set text.

    Raises:
        RuleSetError: unknown or unsupported rule set.
    """
    return Solver.load(rules, force=force)


def kernels() -> list[Any]:
    """Every Numba kernel of the solver, for compile statistics and documentation tests.

    Dispatchers, or the plain functions under ``NUMBA_DISABLE_JIT=1``. Importing them compiles
    nothing: Numba compiles a kernel on its first call.
    """
    out: list[Any] = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(f"pasch.solver.{name}")
        helpers = getattr(module, "NOT_KERNELS", ())  # Numba overloads: typing-time code, not kernels
        for key, value in vars(module).items():
            fn = getattr(value, "py_func", value)
            if inspect.isfunction(fn) and fn.__module__ == module.__name__ and key not in helpers:
                out.append(value)
    return out


def warm_up(tasks: tuple[str, ...] = ("build",)) -> None:
    """Compile (or load from Numba's cache) the kernels of some tasks now, e.g. on a background thread.

    Every rule set's tables have the same types, so the kernels are compiled on tiny tables (``yacht``
    and ``yacht+forced``) and then serve every rule set. ``options`` need no
    compiling to answer (numpy answers until the kernel is compiled in the process, then the kernel,
    several times faster), so the default is the build only; a long-running process (the web
    server, the terminal app) asks for ``options`` too.

    Args:
        tasks: keys of :data:`TASKS`.

    Raises:
        ValueError: an unknown task.
    """
    for task in tasks:
        if task not in TASKS:
            raise ValueError(f"unknown solver task {task!r}; choose one of {', '.join(TASKS)}")
    import numpy as np

    from pasch.rules import get

    if "build" in tasks:
        build_values(get("yacht+forced"))  # a table of 13 states: the kernel compiles, the build takes no time
    solver = Solver.load("yacht")  # shipped with the package (or cached): nothing to build
    one = np.zeros(1, np.int64)
    if "options" in tasks:
        key, r, _, sharp = solver._situation([None] * solver.prep.n_boxes, "12345", 1, None)
        solver._kernel_options(key, r, 1, sharp)
    if "best" in tasks:
        solver.best_index(StateKey(0, 0, 0), 0, 1, False)
    if "batch" in tasks:
        solver.best_batch(one, one, one, one, one, one)
    if "simulate" in tasks:
        solver.simulate(1)
