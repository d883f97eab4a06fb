"""Where a rule set's threshold table lives on disk and how big it is, asked without loading or building it.

Interfaces ask this before they offer to build the win tables (minutes and hundreds of MB for a full-size
rule set): a table already in the cache is only memory-mapped, one that is missing is built on request.
The file name and sidecar are those :func:`~pasch.solver.target_table` writes.
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

__all__ = ["TargetFile", "target_file"]


@dataclass(frozen=True, slots=True)
class TargetFile:
    """A rule set's threshold table file (it may not exist yet).

    Attributes:
        rules: the rule set's text.
        path: the ``.npy`` file in the cache directory.
        states: reachable turn-start states (table rows).
        width: points covered (table columns).
    """

    rules: str
    path: Path
    states: int
    width: int

    @property
    def nbytes(self) -> int:
        """Size of the table (uint16 values): on disk, and in memory while it is built (float32: twice)."""
        return self.states * self.width * 2

    def on_disk(self) -> bool:
        """Whether a table of this rule set, version and size is stored (its sidecar agrees; the data's
        checksum is verified only when the table is loaded)."""
        try:
            meta = json.loads(self.path.with_suffix(".json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        if not isinstance(meta, dict) or not self.path.is_file():
            return False
        return (
            meta.get("rules") == self.rules
            and meta.get("version") == TARGET_VERSION
            and meta.get("width") == self.width
            and meta.get("shape") == [self.states, self.width]
            and meta.get("dtype") == "uint16"
        )


_SIZES: dict[str, tuple[int, int]] = {}
_GUARD = threading.Lock()


def target_file(solver: Solver) -> TargetFile:
    """The threshold table file of a solver's rule set (counting its states takes about 0.5 s for ``yahtzee``
    the first time per rule set, then nothing).

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    rid = solver.rules.id
    with _GUARD:
        size = _SIZES.get(rid)
    if size is None:
        p = solver.prep
        size = (len(_states(p)[0]), table_width(p))
        with _GUARD:
            _SIZES[rid] = size
    states, width = size
    return TargetFile(rid, cache_name("target", rid, SOLVER_VERSION, TARGET_VERSION, width), states, width)
