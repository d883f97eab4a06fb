"""Exact optimal strategy of single-column dice-sheet games: solve, values, options, regret, simulation.

``Solver.load("yahtzee")`` builds the table of expected further scores over every reachable turn-start
state (filled boxes, capped upper total, the all-alike box's flag where the rules need it), or loads it
from the user cache directory. Inside a turn the 252 throws and 462 keeps of five dice are solved on
demand for each question.

The Numba kernels take one record of arrays derived from the rule set by ``_prep``
(:class:`Tables`), which reads every score off :func:`pasch.rules.score_options`; the tests compare
them with a plain recursive solver. They live in ``_kparts`` (pieces shared by every kernel),
``_kbuild`` (the table build), ``_kone`` (one situation) and ``_kmany`` (batches and simulation),
and each command compiles (once, then Numba's disk cache) only the modules it uses.

When a core is free (or with ``PASCH_COMPILE_PROCESS=1``; ``0`` turns it off) a first use compiles
on both cores: a second process compiles some of the table build's pieces (and, for
``compile_ahead("simulate")``, the simulation kernels) into Numba's cache while this one compiles the
biggest piece and the rest (``_compile``; not on a busy machine, where it did not pay). Until the
options kernel is compiled, the options of a situation are computed in numpy, bit for bit the
kernel's numbers (``_npquery``), so a first ``advise``, ``review`` or hint waits for no compilation
beyond the build.
"""

from __future__ import annotations

import importlib
import inspect
import os
from typing import Any

from pasch.solver._dist import ScoreDistribution, distribution_path, score_distribution
from pasch.solver._duel import duel_win_optimal
from pasch.solver._prep import Prep, Tables, prepare, tables
from pasch.solver._query import Option, Solver, StateKey
from pasch.solver._shared import clear_shared, is_shared, set_shared_budget, shared_nbytes, shared_solver
from pasch.solver._sheet import check_sheet
from pasch.solver._slack import SLACK_VERSION, SlackTable, box_sequence, slack_table
from pasch.solver._table import SOLVER_VERSION, CacheWarning, build_values, cache_dir, load_or_build, table_path
from pasch.solver._target import SurvivalTable, TargetOption, TargetTable, survival_table, target_table
from pasch.solver._targetfile import WinFiles, win_files

_NUMBA_OPT = "1"
"""LLVM optimisation level of the kernels unless ``NUMBA_OPT`` is set; set on import (which compiles nothing).

Measured with fresh Numba caches on the 2-core machine (CPU seconds, ``time.process_time``): level 1
compiles the table build's kernels in about 1 s less than Numba's default 3 (7.6 against 8.7 s),
and the warm kernels run as fast (yahtzee build 1.00 against 1.03 s on one thread, 5000 simulated
games 0.15 against 0.16 s, 20000 batched decisions 0.044 against 0.048 s); they vectorise alike and
every result is bit for bit the same (no fast-math: LLVM reorders no float operation at any
level). Level 0 does not vectorise: the same warm run did not finish in 10 minutes. Numba's cache
does not record the level, so a kernel cached under another level is simply loaded.
"""
os.environ.setdefault("NUMBA_OPT", _NUMBA_OPT)  # Numba re-reads NUMBA_* variables before each compilation

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
    "KERNEL_MODULES",
    "SLACK_VERSION",
    "SOLVER_VERSION",
    "TASKS",
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
    "WinFiles",
    "box_sequence",
    "build_values",
    "cache_dir",
    "check_sheet",
    "clear_shared",
    "compile_ahead",
    "compiled",
    "distribution_path",
    "duel_win_optimal",
    "is_shared",
    "kernels",
    "load_or_build",
    "prepare",
    "score_distribution",
    "set_shared_budget",
    "shared_nbytes",
    "shared_solver",
    "slack_table",
    "solve",
    "survival_table",
    "table_path",
    "tables",
    "target_table",
    "warm_up",
    "win_files",
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


def compiled(task: str) -> bool:
    """Whether the kernel of a task is ready without compiling: compiled at install (see ``_aot``),
    compiled in this process, or in Numba's cache.

    Interfaces ask this to tell the user, before a first command, that a one-time compilation follows.

    Args:
        task: a key of :data:`TASKS` (``build``, ``options``, ``best``, ``batch``, ``simulate``).

    Raises:
        ValueError: an unknown task.
    """
    if task not in TASKS:
        raise ValueError(f"unknown solver task {task!r}; choose one of {', '.join(TASKS)}")
    module, name = TASKS[task]
    from pasch.solver import _aot

    if _aot.answers(name):  # compiled at install: answers without Numba (not even imported)
        return True
    kernel = getattr(importlib.import_module(f"pasch.solver.{module}"), name)
    if getattr(kernel, "py_func", None) is None or kernel.signatures:  # NUMBA_DISABLE_JIT, or compiled
        return True
    try:  # Numba's on-disk index of this kernel (empty when missing or stale)
        if kernel._cache._cache_file._load_index():
            return True
    except Exception:  # a private API of Numba: unknown means "not ready"
        pass
    return False


def compile_ahead(task: str) -> None:
    """Start compiling a task's kernels in a second process (both cores), if they are not ready.

    For a command that will build a table first and then, say, simulate: the simulation kernel
    compiles while this process compiles and runs the build. A build hands some of its own pieces to a
    second process by itself (one second process at a time: a build after this shares it). Only when
    a core is free or with ``PASCH_COMPILE_PROCESS=1`` (measured on a busy 2-core machine it did not
    pay; ``0`` turns it off); nothing happens with one core, with ``NUMBA_DISABLE_JIT=1``, or when the
    kernels are compiled or cached already.

    Args:
        task: ``build`` or ``simulate``.

    Raises:
        ValueError: an unknown task.
    """
    from pasch.solver import _aot, _compile

    if task not in _compile.SECOND:
        raise ValueError(f"cannot compile {task!r} ahead; choose one of {', '.join(_compile.SECOND)}")
    if _aot.available():
        return  # builds and simulations answer with the kernels compiled at install
    _compile.compile_in_background(task)


def warm_up(tasks: tuple[str, ...] = ("build",)) -> None:
    """Compile (or load from Numba's cache) the kernels of some tasks now, e.g. on a background thread.

    Every rule set's tables have the same types, so the kernels are compiled on a tiny table
    (``yahtzee+forced``, built in milliseconds) and then serve every rule set. ``options`` need no
    compiling to answer (numpy answers, about 0.5 ms a question, until the kernel is compiled or
    cached; then about 0.1 ms), so the default is the build only; a long-running process (the web
    server) asks for ``options`` too. A task that the kernels compiled at install answer (the build
    and the simulation, see ``_aot``) needs nothing; inside ``_aot.jit_only()`` its JIT kernel is
    compiled all the same (benchmarks, tests).

    Args:
        tasks: keys of :data:`TASKS`.

    Raises:
        ValueError: an unknown task.
    """
    for task in tasks:
        if task not in TASKS:
            raise ValueError(f"unknown solver task {task!r}; choose one of {', '.join(TASKS)}")
    from pasch.solver import _aot

    todo = tuple(task for task in tasks if not _aot.answers(TASKS[task][1]))
    if todo:
        _warm_up(todo)


def _warm_up(tasks: tuple[str, ...]) -> None:
    import numpy as np

    solver = Solver.load("yahtzee+forced", use_cache=False)
    one = np.zeros(1, np.int64)
    if "options" in tasks:  # the kernel itself: options() answers in numpy until it is compiled
        key, r, _, sharp = solver._situation([None] * solver.prep.n_boxes, "12345", 1, None)
        solver._kernel_options(key, r, 1, sharp)
    if "best" in tasks:
        solver.best_index(StateKey(0, 0, 0), 0, 1, False)
    if "batch" in tasks:
        solver.best_batch(one, one, one, one, one, one)
    if "simulate" in tasks:
        solver.simulate(1)
