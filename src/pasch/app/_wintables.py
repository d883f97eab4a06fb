"""The win tables behind "P(win)" in hints: whether they apply, whether they are at hand, and preparing them.

A hint's probability of winning (:attr:`AdviceOption.p_win`) reads two tables of the rule set, the same two
``bot:win`` plays with: the threshold table (:func:`pasch.solver.target_table`: each option's chance of
reaching every score) and the survival table (:func:`pasch.solver.survival_table`: each opponent's exact
remaining-score distribution as one row, read in microseconds; propagating it forward instead takes up to
half a minute for a sheet early in a ``yahtzee`` game). Each is 368 MB for ``yahtzee`` and 719 MB for
``yatzy``, built once in minutes and then kept in the user cache directory. The interfaces never start that
build unasked:

- tables already in the cache are **memory-mapped read-only** when first needed (a second or so each to
  verify the checksum; their pages are the operating system's page cache, not the process's own memory);
- missing ones are built only on request (:func:`prepare_win_tables`: the terminal app's ``w`` key, the web
  server's ``--win-hints`` queue), stored, and then memory-mapped from the cache like stored ones.

Tables in use are kept open per rule set by the solver's per-process cache (:data:`pasch.solver.win_cache`,
the few most recently used; see :data:`MAX_KEPT`), the same tables ``bot:win`` plays with, so a hint or a bot
decision after the first costs only its own lookups.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pasch.engine import GameState, State
from pasch.errors import PaschError
from pasch.rules import GameKind, RuleSet
from pasch.solver import MAX_OPEN, win_cache

if TYPE_CHECKING:
    from pasch.solver import Solver, SurvivalTable, TargetTable

__all__ = [
    "MAX_KEPT",
    "PEAK_BASE",
    "PEAK_FACTOR",
    "SECONDS_PER_MB",
    "WinTables",
    "WinTablesTooBigError",
    "available_megabytes",
    "prepare_win_tables",
    "win_applies",
    "win_pair",
    "win_tables",
    "win_tables_ready",
]

MAX_KEPT = MAX_OPEN
"""Rule sets whose win tables are kept open at once (memory-mapped: an evicted pair costs a reload, not memory)."""

PEAK_FACTOR = 1.7
"""A build's peak memory over the tables' size on disk, with :data:`PEAK_BASE` for the process itself.
Measured (issue 28, 2026-11-26) with ``/usr/bin/time -v`` around a fresh process building both tables on an
empty cache directory, two busy cores: ``yahtzee`` (736 MB on disk) peaked at 1,349 MB resident, ``yatzy``
(1,438 MB) at 2,369 MB: the threshold table kept while the survival table is built as float32 (twice its
stored size), each quantised over its own buffer. Stated: 1,653 and 2,846 MB, 23 and 20 % above. (Before
the in-place quantisation: 1,747 and 3,049 MB, stated 2,020 and 3,565 MB.)"""
PEAK_BASE = 400_000_000
"""Memory of the process itself while it builds (Python, numpy, Numba and the exact table), in bytes: a build
of ``yacht``'s 5 MB of tables peaked at 171 MB, and at 269 to 314 MB when Numba compiled the kernels first."""
SECONDS_PER_MB = (0.08, 0.4)
"""Wall seconds per MB of tables, fast and slow: measured 0.105 for ``yahtzee`` (77 s) and 0.127 for ``yatzy``
(183 s) on two busy cores; the slow end covers a slower or busier machine, or a first build that also compiles
its kernels. Stated: 1-5 min for ``yahtzee``, 2-10 min for ``yatzy``."""

WinProgress = Callable[[int, int, int, int], None]
"""``progress(step, steps, done, total)``: step 1 of 3 is the exact table (``done`` of ``total`` layers while
it is built), step 2 the threshold table, step 3 the survival table (no finer progress there: ``done ==
total == 0`` until the step is over, then ``progress(3, 3, 1, 1)``)."""

_TABLES: OrderedDict[str, tuple[TargetTable, SurvivalTable]] = win_cache.tables
"""The open tables (the solver cache's own mapping, shared with ``bot:win``)."""


class WinTablesTooBigError(PaschError):
    """A build of the win tables would need more memory than the system has free."""


@dataclass(frozen=True, slots=True)
class WinTables:
    """Where a rule set's win tables stand.

    Attributes:
        rules: the rule set's text.
        ready: open in this process (a hint reads them at once).
        on_disk: stored in the cache directory (opening them is a load, not a build).
        nbytes: their size on disk, both tables (a build holds about one and a half times that in memory for
            a while).
    """

    rules: str
    ready: bool
    on_disk: bool
    nbytes: int

    @property
    def megabytes(self) -> int:
        """The size on disk in MB (10^6 bytes), at least 1."""
        return max(1, round(self.nbytes / 1e6))

    @property
    def peak_megabytes(self) -> int:
        """The most memory a build takes, in MB: what the interfaces state before it starts (an upper bound:
        see :data:`PEAK_FACTOR`)."""
        return math.ceil((PEAK_BASE + PEAK_FACTOR * self.nbytes) / 1e6)

    @property
    def minutes(self) -> tuple[int, int]:
        """How long a build takes, in whole minutes, fast and slow (see :data:`SECONDS_PER_MB`)."""
        fast, slow = (max(1, math.ceil(self.nbytes / 1e6 * rate / 60)) for rate in SECONDS_PER_MB)
        return fast, slow


def available_megabytes() -> int | None:
    """The memory the system can give now (Linux's ``MemAvailable``), in MB; None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1000
    except (OSError, ValueError, IndexError):
        return None
    return None


def _applies(rules: RuleSet, players: int) -> bool:
    return rules.kind is GameKind.SHEET and rules.n_columns == 1 and 2 <= players <= 8


def win_applies(state: State) -> bool:
    """Whether hints in ``state``'s game may show P(win): a single-column sheet game of two to eight players."""
    return isinstance(state, GameState) and _applies(state.rules, len(state.players))


def win_tables_ready(rules: RuleSet) -> bool:
    """Whether the win tables of ``rules`` are open in this process (asking loads nothing)."""
    return win_cache.is_open(rules.cache_key)


def win_tables(rules: RuleSet) -> WinTables:
    """Where the win tables of ``rules`` stand. The first ask per rule set loads its exact table and counts the
    threshold table's states (about a second for ``yahtzee``): ask off a user interface's event loop.

    Raises:
        PaschError: the exact solver does not handle these rules (several columns, Knaster).
    """
    from pasch.solver import shared_solver, win_files

    info = win_files(shared_solver(rules))
    ready = win_tables_ready(rules)
    return WinTables(rules.id, ready, ready or info.on_disk(), info.nbytes)


def win_pair(solver: Solver, progress: WinProgress | None = None) -> tuple[TargetTable, SurvivalTable]:
    """The threshold and survival tables of a solver's rule set: the open ones, else memory-mapped from the
    cache, else built, stored and memory-mapped (minutes for a full-size rule set). They are the solver's
    per-process ones (:func:`pasch.solver.win_pair`), which ``bot:win`` reads too.

    Args:
        solver: the rule set's solver.
        progress: told of steps 2 and 3 (see :data:`WinProgress`).

    Raises:
        RuleSetError: the solver does not handle these rules.
    """
    from pasch.solver import win_pair as open_pair

    def before(kind: str) -> None:
        if progress is not None:
            progress(2 if kind == "target" else 3, 3, 0, 0)

    return open_pair(solver, before)


def prepare_win_tables(rules: RuleSet, progress: WinProgress | None = None) -> WinTables:
    """Open the win tables of ``rules``, loading or building (and storing) them first where needed.

    Args:
        rules: a single-column rule set.
        progress: told of each step (see :data:`WinProgress`).

    Returns:
        Where the tables stand afterwards (ready).

    Raises:
        PaschError: the exact solver does not handle these rules.
        WinTablesTooBigError: a build would need more memory than the system has free (nothing is started).
    """
    from pasch.solver import shared_solver

    info = win_tables(rules)
    if not info.on_disk:  # a build: it must fit in what the system has now, as stated
        free = available_megabytes()
        if free is not None and free < info.peak_megabytes:
            raise WinTablesTooBigError(
                f"building the win tables needs up to {info.peak_megabytes} MB of memory; {free} MB are free"
            )

    def exact(done: int, total: int) -> None:
        if progress is not None:
            progress(1, 3, done, total)

    if progress is not None:
        progress(1, 3, 0, 0)
    solver = shared_solver(rules, exact)
    win_pair(solver, progress)
    if progress is not None:
        progress(3, 3, 1, 1)
    return win_tables(rules)
