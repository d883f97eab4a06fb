"""Where a rule set's win tables live on disk and how big they are, asked without loading or building them.

The win tables are the threshold table (:func:`~pasch.solver.target_table`) and the survival table
(:func:`~pasch.solver.survival_table`) of a rule set: the same rows (reachable turn-start states) and
columns (points), uint16 each. Interfaces ask this before they offer to build them (minutes and hundreds of
MB for a full-size rule set): tables already in the cache are only memory-mapped, missing ones are built on
request. The file names and sidecars are those the two loaders write.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pasch.solver._table import SOLVER_VERSION, cache_name
from pasch.solver._target import TARGET_VERSION, _states, table_width

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = ["WinFiles", "win_files"]


@dataclass(frozen=True, slots=True)
class WinFiles:
    """A rule set's threshold and survival table files (they may not exist yet).

    Attributes:
        rules: the rule set's text.
        target: the threshold table's ``.npy`` file in the cache directory.
        survival: the survival table's ``.npy`` file.
        states: reachable turn-start states (rows of each table).
        width: points covered (columns of each table).
    """

    rules: str
    target: Path
    survival: Path
    states: int
    width: int

    @property
    def table_nbytes(self) -> int:
        """Size of one table (uint16 values) on disk; its build holds about twice that in memory
        (the float table; quantised over its own buffer)."""
        return self.states * self.width * 2

    @property
    def nbytes(self) -> int:
        """Size of both tables on disk."""
        return 2 * self.table_nbytes

    def stored(self, path: Path) -> bool:
        """Whether ``path`` (one of the two) holds a table of this rule set, version and size (its sidecar
        agrees; the data's checksum is verified only when the table is loaded)."""
        try:
            meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        if not isinstance(meta, dict) or not path.is_file():
            return False
        return (
            meta.get("rules") == self.rules
            and meta.get("version") == TARGET_VERSION
            and meta.get("width") == self.width
            and meta.get("shape") == [self.states, self.width]
            and meta.get("dtype") == "uint16"
        )

    def on_disk(self) -> bool:
        """Whether both tables are stored."""
        return self.stored(self.target) and self.stored(self.survival)


_SIZES: dict[str, tuple[int, int]] = {}
_GUARD = threading.Lock()


def win_files(solver: Solver) -> WinFiles:
    """The win table files of a solver's rule set (counting the states takes a moment the first time per
    rule set, then nothing).

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    key = solver.rules.cache_key  # the files' name; the rule text stays what is shown
    with _GUARD:
        size = _SIZES.get(key)
    if size is None:
        p = solver.prep
        size = (len(_states(p)[0]), table_width(p))
        with _GUARD:
            _SIZES[key] = size
    states, width = size
    parts = (SOLVER_VERSION, TARGET_VERSION, width)
    target, survival = cache_name("target", key, *parts), cache_name("survive", key, *parts)
    return WinFiles(solver.rules.id, target, survival, states, width)
