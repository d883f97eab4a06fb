"""One in-process cache of loaded solvers, shared by the bots, the advice and every interface.

A table is loaded (or built and stored on disk) once per process and rule set, even when several threads
ask at once (a web server's rooms, the terminal app's hint worker and its bots). The cache is bounded twice:
by a count (:data:`MAX_SHARED`) and by a memory budget (:func:`set_shared_budget`); the least recently used
tables leave memory first (they stay on disk and load again in well under a second).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from pasch.rules import RuleSet, get
from pasch.solver._query import Solver

__all__ = ["MAX_SHARED", "clear_shared", "is_shared", "set_shared_budget", "shared_nbytes", "shared_solver"]

MAX_SHARED = 8
"""How many solver tables stay in memory at once (a full-size table is about 5 MB with its arrays)."""

_SOLVERS: OrderedDict[str, Solver] = OrderedDict()
_SIZES: dict[str, int] = {}
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()
_BUDGET: list[int | None] = [None]


def _nbytes(solver: Solver) -> int:
    """The memory a solver holds: its value table and the arrays of its prepared rule set."""
    total = int(solver.values.nbytes)
    prep: Any = solver.prep
    for name in getattr(prep, "__dataclass_fields__", ()):
        value = getattr(prep, name, None)
        if isinstance(value, np.ndarray):
            total += int(value.nbytes)
    return total


def set_shared_budget(max_bytes: int | None) -> None:
    """Bound the memory of the shared tables (None: only the count :data:`MAX_SHARED` bounds them).

    The table asked for last always stays, even when it alone exceeds the budget.

    Raises:
        ValueError: a negative budget.
    """
    if max_bytes is not None and max_bytes < 0:
        raise ValueError(f"a memory budget is at least 0 bytes, not {max_bytes}")
    with _GUARD:
        _BUDGET[0] = max_bytes
        _evict()


def shared_nbytes() -> int:
    """The bytes the tables in memory hold now (value tables and prepared arrays)."""
    with _GUARD:
        return sum(_SIZES.values())


def _key(rules: RuleSet) -> str:
    """The entry of a rule set: its tables' name and its id (two custom rule sets with one id are two entries, and a
    rule set that shares another's tables still gets a solver whose ``rules`` are its own)."""
    return f"{rules.cache_key}\n{rules.id}"


def is_shared(rules: RuleSet | str) -> bool:
    """Whether the table of a rule set is in memory now (asking never loads or builds it).

    Raises:
        RuleSetError: unknown rule-set text.
    """
    rs = get(rules) if isinstance(rules, str) else rules
    with _GUARD:
        return _key(rs) in _SOLVERS


def _evict() -> None:
    """Drop least recently used tables beyond the count or the budget (the caller holds ``_GUARD``)."""
    budget = _BUDGET[0]
    while len(_SOLVERS) > 1 and (len(_SOLVERS) > MAX_SHARED or (budget is not None and sum(_SIZES.values()) > budget)):
        key, _ = _SOLVERS.popitem(last=False)
        _SIZES.pop(key, None)
        _LOCKS.pop(key, None)


def shared_solver(rules: RuleSet | str, progress: Callable[[int, int], None] | None = None) -> Solver:
    """The process-wide solver of a single-column rule set, loaded (or built and cached on disk) once.

    Args:
        rules: the rule set or its text.
        progress: called as ``progress(done, total)`` while a table is built (not when it is loaded).

    Raises:
        RuleSetError: unknown rule-set text, or rules the solver does not handle (several columns, Knaster).
    """
    rs = get(rules) if isinstance(rules, str) else rules
    key = _key(rs)
    with _GUARD:
        got = _SOLVERS.get(key)
        if got is not None:
            _SOLVERS.move_to_end(key)
            return got
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:  # one load per rule set, however many threads ask at once
        with _GUARD:
            got = _SOLVERS.get(key)
        if got is None:
            got = Solver.load(rs, progress=progress)
            size = _nbytes(got)
            with _GUARD:
                _SOLVERS[key] = got
                _SIZES[key] = size
                _evict()
        return got


def clear_shared() -> None:
    """Forget every shared solver (tests; a changed cache directory)."""
    with _GUARD:
        _SOLVERS.clear()
        _SIZES.clear()
