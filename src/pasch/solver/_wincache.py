"""The win tables open in this process: each opened (and its checksum verified) once, then shared.

``bot:win``, the hints' P(win), the review's win probabilities and the in-process duel all read the same two
tables of a rule set, the threshold table (:func:`~pasch.solver.target_table`) and the survival table
(:func:`~pasch.solver.survival_table`). Opening one reads its sidecar and computes the CRC-32 of its data
(368 MB for ``yahtzee``: a few tenths of a second); doing that at every decision made a table seat of
``bot:win`` take 0.1-0.3 s per move where the decision itself takes milliseconds. :data:`win_cache` keeps
the tables of the few most recently used rule sets open, memory-mapped read-only from the cache directory
(their pages are the operating system's page cache, shared by every process that maps them, not the
process's own memory), so every later ask costs a dictionary look-up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import numpy as np

if TYPE_CHECKING:
    from pasch.solver._query import Solver
    from pasch.solver._target import SurvivalTable, TargetTable

__all__ = ["MAX_OPEN", "WinCache", "win_cache", "win_pair"]

MAX_OPEN = 2
"""Rule sets whose win tables stay open at once (memory-mapped: an evicted pair costs a reload, not memory)."""

T = TypeVar("T")


def _mapped(load: Callable[[], T]) -> T:
    """A table from ``load()``; one just built (held in memory) is opened again from the cache, read-only and
    memory-mapped, so the process keeps no private copy. A cache that could not be written keeps the one in
    memory."""
    table = load()
    if not isinstance(table.theta, np.memmap):  # type: ignore[attr-defined]
        again = load()
        if isinstance(again.theta, np.memmap):  # type: ignore[attr-defined]
            return again
    return table


class WinCache:
    """The open win tables of this process, per rule set, the least recently used leaving first.

    Attributes:
        tables: rule-set id -> (threshold table, survival table), most recently used last.
        max_open: how many rule sets' tables stay open.
        opened: tables opened (loaded and verified, or built) so far in the process: two per rule set
            unless one was evicted or :meth:`clear` was called.
    """

    def __init__(self, max_open: int = MAX_OPEN) -> None:
        self.tables: OrderedDict[str, tuple[TargetTable, SurvivalTable]] = OrderedDict()
        self.max_open = max_open
        self.opened = 0
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def is_open(self, rules_id: str) -> bool:
        """Whether the tables of a rule set (its :attr:`~pasch.rules.RuleSet.cache_key`) are open now (asking opens
        nothing)."""
        with self._guard:
            return rules_id in self.tables

    def clear(self) -> None:
        """Close every table (tests; a changed cache directory). The counter :attr:`opened` is kept."""
        with self._guard:
            self.tables.clear()

    def pair(self, solver: Solver, before: Callable[[str], None] | None = None) -> tuple[TargetTable, SurvivalTable]:
        """The threshold and survival tables of a solver's rule set: the open ones, else memory-mapped from the
        cache (checksum verified), else built, stored and memory-mapped (minutes for a full-size rule set).

        One load or build per rule set, however many threads ask at once.

        Args:
            solver: the rule set's solver.
            before: called with ``"target"``, then ``"survival"``, before each table is opened or built (not
                when they are open already).

        Raises:
            RuleSetError: the solver does not handle these rules.
        """
        from pasch.solver._target import survival_table, target_table

        rid = solver.rules.cache_key
        with self._guard:
            got = self.tables.get(rid)
            if got is not None:
                self.tables.move_to_end(rid)
                return got
            lock = self._locks.setdefault(rid, threading.Lock())
        with lock:
            with self._guard:
                got = self.tables.get(rid)
            if got is not None:
                return got
            if before is not None:
                before("target")
            target = _mapped(lambda: target_table(solver))
            if before is not None:
                before("survival")
            survival = _mapped(lambda: survival_table(solver))
            target.survival = survival  # the win rule blends the two (``TargetTable.win_options_weights``)
            pair = (target, survival)
            with self._guard:
                self.opened += 2
                self.tables[rid] = pair
                self.tables.move_to_end(rid)
                while len(self.tables) > max(1, self.max_open):
                    self.tables.popitem(last=False)
            return pair


win_cache = WinCache()
"""The process's one :class:`WinCache`: what ``bot:win``, the hints, the review and the duel read."""


def win_pair(solver: Solver, before: Callable[[str], None] | None = None) -> tuple[TargetTable, SurvivalTable]:
    """The win tables of a solver's rule set from :data:`win_cache` (see :meth:`WinCache.pair`).

    Raises:
        RuleSetError: the solver does not handle these rules.
    """
    return win_cache.pair(solver, before)
