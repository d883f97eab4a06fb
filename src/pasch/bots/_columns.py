"""The multi-column bot's column tables (:mod:`pasch.bots._multi`): one exact single-column table per column and
fill order, its entries' values for every throw, slack levels read between two levels, and the process-wide store
that loads or builds each table once for every bot and thread."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pasch.solver import Solver

__all__ = ["F64", "_TABLES", "_Blend", "_Column", "_TableStore", "_frozen"]

F64 = npt.NDArray[np.float64]
_NEG = -1e18
_T = TypeVar("_T")


class _TableStore:
    """The column tables of every :class:`MultiColumnBot` of the process, each loaded or built once.

    A web server has several bots of the multi-column games (its ``bot:multi`` and ``bot:optimal`` seats, the
    hints' advisor) on several threads. Each used to load its own copy of every table (about 100 MB for
    kniffel-4), and two threads asking for a table nobody had built yet each built it (about 20 s on a
    fresh machine, with the cache directory empty). Here every table has one entry and one lock: the first
    asker builds (or loads) it while the others wait for that build; the arrays are read-only, so no bot can
    change another's. The tables of the ``max_rules`` rule sets used last are kept (a variant's tables come
    back from the cache directory in a fraction of a second).
    """

    def __init__(self, max_rules: int = 6) -> None:
        self.max_rules = max_rules
        self._items: dict[tuple[Any, ...], Any] = {}
        self._locks: dict[tuple[Any, ...], threading.Lock] = {}
        self._used: OrderedDict[str, None] = OrderedDict()
        self._guard = threading.Lock()
        self.made = 0
        """Tables loaded or built so far (tests count builds with it)."""

    def get(self, key: tuple[Any, ...], make: Callable[[], _T]) -> _T:
        """The table of ``key`` (its second item names the rule set), made by ``make`` if not held."""
        with self._guard:
            if key in self._items:
                self._used.move_to_end(key[1])
                return self._items[key]  # type: ignore[no-any-return]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # one build per table; the others wait for it
            with self._guard:
                if key in self._items:
                    self._used.move_to_end(key[1])
                    return self._items[key]  # type: ignore[no-any-return]
            value = make()
            with self._guard:
                self._items[key] = value
                self.made += 1
                self._used[key[1]] = None
                self._used.move_to_end(key[1])
                while len(self._used) > self.max_rules:
                    old, _ = self._used.popitem(last=False)
                    for k in [k for k in self._items if k[1] == old]:
                        del self._items[k]
                self._locks.pop(key, None)
            return value

    def holds(self, key: tuple[Any, ...]) -> bool:
        """Whether the table of ``key`` is in memory now."""
        with self._guard:
            return key in self._items

    def clear(self) -> None:
        """Forget every table (tests)."""
        with self._guard:
            self._items.clear()
            self._used.clear()


_TABLES = _TableStore()


def _frozen(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``a`` made read-only (shared between bots and threads)."""
    a.flags.writeable = False
    return a


class _Column:
    """One column's exact table and the vectorised value of every entry of every throw."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        p = solver.prep
        self.p = p
        self.values = _frozen(np.array(solver.values, dtype=np.float64))
        self.n_rolls = p.grp.shape[0]

    def key(self, scores: tuple[int | None, ...]) -> tuple[int, int, int]:
        if 0 in scores:
            # A box crossed out in an announced turn (kniffel-4) may hold 0 where no throw scores 0
            # (chance): for the table only "filled" matters there, so key it with a value it can hold.
            possible = self.solver.possible
            scores = tuple(min(possible(i)) if v == 0 and 0 not in possible(i) else v for i, v in enumerate(scores))
        k = self.solver.state_key(scores)
        return k.mask, k.flag, k.upper

    def entries(
        self, scores: tuple[int | None, ...], after: _Blend | None = None, now: _Blend | None = None
    ) -> tuple[F64, list[int], npt.NDArray[np.int64]]:
        """``delta[s, r, j]`` of entering throw ``r`` (sharp ``s``) in the ``j``-th open box (-inf: illegal),
        the open boxes and the upper points ``up[s, r, j]`` each entry adds.

        ``after`` and ``now`` value the column after the entry and before it (default: the exact table):
        a free column's slack levels (see :meth:`MultiColumnBot._free_levels`)."""
        p = self.p
        values = self.values if after is None else after
        mask, flag, upper = self.key(scores)
        before = (self.values if now is None else now)[mask, flag, upper]
        open_boxes = [i for i, v in enumerate(scores) if v is None]
        ob = np.array(open_boxes, np.int64)
        ctx, grp = self.solver.contexts(mask, flag)
        tiers = p.tier[ctx[:, None], grp[:, None], ob[None, :]]
        legal = (tiers == tiers.min(axis=1, keepdims=True)) & (tiers < p.NEVER)
        s_idx = np.arange(p.n_sharp)[:, None, None]
        r_idx = np.arange(self.n_rolls)[None, :, None]
        sel = (ctx[None, :, None], s_idx, r_idx, ob[None, None, :])
        rows = p.rowsel[sel]
        up = p.row_up[rows].astype(np.int64)
        mode = p.row_mode[rows]
        nf = np.where(mode == 0, flag, mode - 1) if p.n_flags == 2 else np.zeros_like(mode)
        u2 = np.minimum(upper + up, p.threshold)
        nm = mask | (1 << ob)[None, None, :]
        gain = up + p.cval[sel]
        if p.threshold > 0 and upper < p.threshold:
            gain = gain + np.where(upper + up >= p.threshold, p.bonus, 0)
        delta = values[nm, nf, u2] + gain - before
        return np.where(legal[None, :, :], delta, _NEG), open_boxes, up

    def zero_entries(
        self, scores: tuple[int | None, ...], after: _Blend | None = None, now: _Blend | None = None
    ) -> list[tuple[int, float]]:
        """(box, delta) of crossing out each box the fill order allows now (ordinary throws); ``after`` and
        ``now`` as for :meth:`entries`."""
        p = self.p
        values = self.values if after is None else after
        mask, flag, upper = self.key(scores)
        before = (self.values if now is None else now)[mask, flag, upper]
        open_boxes = [i for i, v in enumerate(scores) if v is None]
        tiers = [int(p.tier[0, 0, i]) for i in open_boxes]
        low = min(tiers)
        out: list[tuple[int, float]] = []
        for i, t in zip(open_boxes, tiers, strict=True):
            if t != low:
                continue
            mode = int(p.row_mode[p.zrow[i]])
            nf = (flag if mode == 0 else mode - 1) if p.n_flags == 2 else 0
            out.append((i, float(values[mask | 1 << i, nf, upper] - before)))
        return out


class _Blend:
    """Slack levels ``L[s, ...]`` read at a fractional slack ``x``: ``(1 - w) L[lo] + w L[lo + 1]``."""

    def __init__(self, levels: npt.NDArray[Any], x: float) -> None:
        self.lo = min(int(x), len(levels) - 1)
        self.hi = min(self.lo + 1, len(levels) - 1)
        self.w = x - self.lo
        self.levels = levels

    def __getitem__(self, index: Any) -> Any:
        lo = np.asarray(self.levels[self.lo][index], dtype=np.float64)
        if self.w == 0.0:
            return lo
        return lo + self.w * (np.asarray(self.levels[self.hi][index], dtype=np.float64) - lo)
