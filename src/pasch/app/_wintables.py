"""The win tables behind "P(win)" in hints: whether they apply, whether they are at hand, and preparing them.

A hint's probability of winning (:attr:`AdviceOption.p_win`) reads the rule set's threshold table
(:func:`pasch.solver.target_table`): 549 MB for ``yahtzee``, 1.07 GB for ``yatzy``, built once in minutes and
then kept in the user cache directory. The interfaces never start that build unasked:

- a table already in the cache is **memory-mapped read-only** when first needed (a second or so to verify
  its checksum; its pages are the operating system's page cache, not the process's own memory);
- a missing one is built only on request (:func:`prepare_win_tables`: the terminal app's ``w`` key, the web
  server's ``--win-hints`` queue), stored, and then memory-mapped from the cache like a stored one.

Tables in use are kept per rule set (the few most recently used; see :data:`MAX_KEPT`), so a hint after the
first costs only its own lookups.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pasch.engine import GameState, State
from pasch.rules import GameKind, RuleSet

if TYPE_CHECKING:
    from pasch.solver import Solver, TargetTable

__all__ = [
    "MAX_KEPT",
    "WinTables",
    "prepare_win_tables",
    "win_applies",
    "win_table",
    "win_tables",
    "win_tables_ready",
]

MAX_KEPT = 2
"""Threshold tables kept open at once (memory-mapped: an evicted one costs a reload, not memory)."""

WinProgress = Callable[[int, int, int, int], None]
"""``progress(step, steps, done, total)``: step 1 is the exact table (``done`` of ``total`` layers while it
is built), step 2 the threshold table (no finer progress: ``done == total == 0`` until it is ready)."""

_TABLES: OrderedDict[str, TargetTable] = OrderedDict()
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


@dataclass(frozen=True, slots=True)
class WinTables:
    """Where a rule set's win tables stand.

    Attributes:
        rules: the rule set's text.
        ready: open in this process (a hint reads them at once).
        on_disk: stored in the cache directory (opening them is a load, not a build).
        nbytes: their size on disk (the build needs about three times that in memory for a while).
    """

    rules: str
    ready: bool
    on_disk: bool
    nbytes: int

    @property
    def megabytes(self) -> int:
        """The size in MB (10^6 bytes), at least 1."""
        return max(1, round(self.nbytes / 1e6))


def _applies(rules: RuleSet, players: int) -> bool:
    return rules.kind is GameKind.SHEET and rules.n_columns == 1 and 2 <= players <= 8


def win_applies(state: State) -> bool:
    """Whether hints in ``state``'s game may show P(win): a single-column sheet game of two to eight players."""
    return isinstance(state, GameState) and _applies(state.rules, len(state.players))


def win_tables_ready(rules: RuleSet) -> bool:
    """Whether the win tables of ``rules`` are open in this process (asking loads nothing)."""
    with _GUARD:
        return rules.id in _TABLES


def win_tables(rules: RuleSet) -> WinTables:
    """Where the win tables of ``rules`` stand. The first ask per rule set loads its exact table and counts the
    threshold table's states (about a second for ``yahtzee``): ask off a user interface's event loop.

    Raises:
        PaschError: the exact solver does not handle these rules (several columns, Knaster).
    """
    from pasch.solver import shared_solver, target_file

    info = target_file(shared_solver(rules))
    ready = win_tables_ready(rules)
    return WinTables(rules.id, ready, ready or info.on_disk(), info.nbytes)


def _keep(rid: str, table: TargetTable) -> None:
    with _GUARD:
        _TABLES[rid] = table
        _TABLES.move_to_end(rid)
        while len(_TABLES) > MAX_KEPT:
            _TABLES.popitem(last=False)


def win_table(solver: Solver) -> TargetTable:
    """The threshold table (:class:`pasch.solver.TargetTable`) of a solver's rule set: the open one, else
    memory-mapped from the cache, else built, stored and memory-mapped (minutes for a full-size rule set).

    Raises:
        RuleSetError: the solver does not handle these rules.
    """
    from pasch.solver import target_table

    rid = solver.rules.id
    with _GUARD:
        got = _TABLES.get(rid)
        if got is not None:
            _TABLES.move_to_end(rid)
            return got
        lock = _LOCKS.setdefault(rid, threading.Lock())
    with lock:  # one load or build per rule set, however many threads ask
        with _GUARD:
            got = _TABLES.get(rid)
        if got is not None:
            return got
        table = target_table(solver)
        if not isinstance(table.theta, np.memmap):
            # Just built (held in memory): open the stored copy instead, read-only and memory-mapped, so the
            # process keeps no private copy. A cache that could not be written keeps the one in memory.
            again = target_table(solver)
            if isinstance(again.theta, np.memmap):
                table = again
        _keep(rid, table)
        return table


def prepare_win_tables(rules: RuleSet, progress: WinProgress | None = None) -> WinTables:
    """Open the win tables of ``rules``, loading or building (and storing) them first where needed.

    Args:
        rules: a single-column rule set.
        progress: told of each step (see :data:`WinProgress`).

    Returns:
        Where the tables stand afterwards (ready).

    Raises:
        PaschError: the exact solver does not handle these rules.
    """
    from pasch.solver import shared_solver

    def exact(done: int, total: int) -> None:
        if progress is not None:
            progress(1, 2, done, total)

    if progress is not None:
        progress(1, 2, 0, 0)
    solver = shared_solver(rules, exact)
    if progress is not None:
        progress(2, 2, 0, 0)
    win_table(solver)
    if progress is not None:
        progress(2, 2, 1, 1)
    return win_tables(rules)
