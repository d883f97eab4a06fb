"""Exact optimal strategy of single-column dice-sheet games: solve, values, options, regret, simulation.

``Solver.load("yahtzee")`` builds the table of expected further scores over every reachable turn-start
state (filled boxes, capped upper total, the all-alike box's flag where the rules need it), or loads it
from the user cache directory. Inside a turn the 252 throws and 462 keeps of five dice are solved on
demand for each question.

The Numba kernels (``_kernels``) take only arrays derived from the rule set by ``_prep``, which reads
every score off :func:`pasch.rules.score_options`; the tests compare them with a plain recursive solver.
"""

from __future__ import annotations

from pasch.solver._prep import Prep, prepare
from pasch.solver._query import Option, Solver, StateKey
from pasch.solver._shared import clear_shared, shared_solver
from pasch.solver._table import SOLVER_VERSION, build_values, cache_dir, load_or_build, table_path

__all__ = [
    "SOLVER_VERSION",
    "Option",
    "Prep",
    "Solver",
    "StateKey",
    "build_values",
    "cache_dir",
    "clear_shared",
    "load_or_build",
    "prepare",
    "shared_solver",
    "solve",
    "table_path",
]


def solve(rules: str, *, force: bool = False) -> Solver:
    """Shorthand for :meth:`Solver.load` with a rule-set text.

    Raises:
        RuleSetError: unknown or unsupported rule set.
    """
    return Solver.load(rules, force=force)
