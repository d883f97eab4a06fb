"""One in-process cache of loaded solvers, shared by the bots, the advice and every interface.

A table is loaded (or built and stored on disk) once per process and rule set, even when several threads
ask at once (a web server's rooms, the terminal app's hint worker and its bots). The cache is bounded: the
least recently used tables leave memory first (they stay on disk and load again in well under a second).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from pasch.rules import RuleSet, get
from pasch.solver._query import Solver

__all__ = ["MAX_SHARED", "clear_shared", "shared_solver"]

MAX_SHARED = 8
"""How many solver tables stay in memory at once (a full-size table is about 13 MB)."""

_SOLVERS: OrderedDict[str, Solver] = OrderedDict()
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


def shared_solver(rules: RuleSet | str, progress: Callable[[int, int], None] | None = None) -> Solver:
    """The process-wide solver of a single-column rule set, loaded (or built and cached on disk) once.

    Args:
        rules: the rule set or its text.
        progress: called as ``progress(done, total)`` while a table is built (not when it is loaded).

    Raises:
        RuleSetError: unknown rule-set text, or rules the solver does not handle (several columns, Knaster).
    """
    rs = get(rules) if isinstance(rules, str) else rules
    with _GUARD:
        got = _SOLVERS.get(rs.id)
        if got is not None:
            _SOLVERS.move_to_end(rs.id)
            return got
        lock = _LOCKS.setdefault(rs.id, threading.Lock())
    with lock:  # one load per rule set, however many threads ask at once
        with _GUARD:
            got = _SOLVERS.get(rs.id)
        if got is None:
            got = Solver.load(rs, progress=progress)
            with _GUARD:
                _SOLVERS[rs.id] = got
                while len(_SOLVERS) > MAX_SHARED:
                    _SOLVERS.popitem(last=False)
        return got


def clear_shared() -> None:
    """Forget every shared solver (tests; a changed cache directory)."""
    with _GUARD:
        _SOLVERS.clear()
