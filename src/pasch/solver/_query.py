"""Questions to a solved table: state values, every option of a situation, the best one, regret, batches."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from pasch.dice import parse_dice, space
from pasch.errors import InvalidActionError
from pasch.rules import RuleSet, column_totals, get
from pasch.solver._jit import compiled_for, ensure, jit_disabled
from pasch.solver._prep import LANES, Prep, Tables, prepare, tables
from pasch.solver._table import Progress, default_threads, load_or_build, run_threads

__all__ = ["Option", "Solver", "StateKey"]

Scores = Sequence[int | None]
IntArray = npt.NDArray[np.integer[Any]]


@dataclass(frozen=True, slots=True)
class StateKey:
    """What the solver knows of a column at the start of a turn.

    Attributes:
        mask: bit ``i`` set when box ``i`` is filled.
        flag: 1 when the all-alike box holds a positive score (and that matters to the rules).
        upper: the upper-section total, capped at the bonus threshold.
    """

    mask: int
    flag: int
    upper: int


@dataclass(frozen=True, slots=True)
class Option:
    """One thing the player may do now, and what it is worth.

    Attributes:
        kind: ``"score"`` (enter the dice in a box) or ``"keep"`` (keep these dice, throw the rest).
        value: expected score still to come from this decision on, this turn's points included.
        category: the box, for ``score``.
        points: what the entry pays now (box value plus extra points), for ``score``.
        keep: the dice kept, for ``keep`` (empty: throw all).
    """

    kind: str
    value: float
    category: str | None = None
    points: int | None = None
    keep: tuple[int, ...] | None = None

    @property
    def action_text(self) -> str:
        """The action's text form (``score full_house``, ``keep 3 3 5``, ``keep``)."""
        return action_text(self.kind, self.category, self.keep)


def action_text(kind: str, category: str | None, keep: tuple[int, ...] | None) -> str:
    """The text form of an option: ``score CATEGORY`` for ``kind == "score"``, else ``keep`` and the dice."""
    if kind == "score":
        return f"score {category}"
    return " ".join(["keep", *(str(d) for d in keep or ())])


def _options_kernel_ready(solver: Solver) -> bool:
    """Whether the options kernel is compiled in this process for this solver's types.

    When it is not, :meth:`Solver.option_arrays` answers in numpy (the same bits, a few times
    slower than the kernel) rather than making the user wait seconds for a compilation; ``pasch.solver.warm_up``
    compiles the kernel where a long-running process wants it (the web server, the terminal app).
    """
    kone = sys.modules.get("pasch.solver._kone")  # not imported: not compiled (and Numba stays unimported)
    if kone is None:
        return jit_disabled()
    kernel = kone._option_values
    if getattr(kernel, "py_func", None) is None:
        return True  # NUMBA_DISABLE_JIT: the kernel is plain Python
    return bool(kernel.signatures) and compiled_for(kernel, solver._option_args)


class Solver:
    """The exact optimal strategy of a single-column rule set.

    Build one with :meth:`Solver.load` (cached table) or from a table of values.
    """

    def __init__(self, rules: RuleSet, values: npt.NDArray[np.floating[Any]], build_seconds: float = 0.0):
        self.rules = rules
        self.prep: Prep = prepare(rules)
        self.values = values
        self.build_seconds = build_seconds
        self.from_cache = False
        self._best_kernel: Any = None

    @classmethod
    def load(
        cls,
        rules: RuleSet | str,
        *,
        force: bool = False,
        use_cache: bool = True,
        progress: Progress | None = None,
    ) -> Solver:
        """Load the table of a rule set from the cache, building (and storing) it if needed.

        Raises:
            RuleSetError: unknown rule-set text, or rules the solver does not handle.
        """
        rs = get(rules) if isinstance(rules, str) else rules
        values, cached, seconds = load_or_build(rs, force=force, use_cache=use_cache, progress=progress)
        solver = cls(rs, values, seconds)
        solver.from_cache = cached
        return solver

    @property
    def tables(self) -> Tables:
        """The kernels' record of this rule set in the table's dtype."""
        return self._tables

    @cached_property
    def _tables(self) -> Tables:
        return tables(self.prep, self.values.dtype)

    # -- states ---------------------------------------------------------------------------------
    @property
    def expected_start(self) -> float:
        """Expected final score of a game played optimally from the empty sheet."""
        return float(self.values[0, 0, 0])

    def state_key(self, scores: Scores) -> StateKey:
        """The solver's key of a column.

        Raises:
            InvalidActionError: wrong length, or a box holding a score the box can never hold.
        """
        p = self.prep
        rules = self.rules
        if len(scores) != p.n_boxes:
            raise InvalidActionError(f"a {rules.id} sheet has {p.n_boxes} boxes, not {len(scores)}")
        mask = flag = upper = 0
        for i, value in enumerate(scores):
            if value is None:
                continue
            if value not in self._possible[i]:
                cid = rules.categories[i].id
                raise InvalidActionError(f"{cid}={value}: no throw scores {value} in {cid} under {rules.id}")
            mask |= 1 << i
            if p.is_upper[i]:
                upper += value
            if i == p.y_box and p.n_flags == 2 and value > 0:
                flag = 1
        return StateKey(mask, flag, min(upper, p.threshold))

    def possible(self, box: int) -> frozenset[int]:
        """Every value box ``box`` can hold under the rules (0 included where a throw scores 0)."""
        return self._possible[box]

    def contexts(self, mask: int, flag: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Each throw's scoring context (all-alike box state, matching upper box filled) and group.

        Args:
            mask: filled-box mask.
            flag: the all-alike flag.
        """
        p = self.prep
        y_filled = p.y_box >= 0 and mask >> p.y_box & 1
        yclass = 0 if not y_filled else 1 + flag
        grp = p.grp.astype(np.int64)
        gm = p.group_match[grp].astype(np.int64)
        matched = (gm >= 0) & ((mask >> np.maximum(gm, 0)) & 1).astype(bool)
        return yclass * 2 + matched.astype(np.int64), grp

    @cached_property
    def _possible(self) -> list[frozenset[int]]:
        pts = self.prep.points
        return [frozenset(int(v) for v in np.unique(pts[..., i])) for i in range(self.prep.n_boxes)]

    def value(self, scores: Scores) -> float:
        """Expected score still to come from the start of a turn with this column."""
        k = self.state_key(scores)
        return float(self.values[k.mask, k.flag, k.upper])

    def expected_final(self, scores: Scores, extra: int = 0) -> float:
        """Expected final score of the column: what it holds now plus the expected rest."""
        return column_totals(self.rules, scores, extra).total + self.value(scores)

    # -- situations -----------------------------------------------------------------------------
    def _situation(
        self, scores: Scores, dice: Sequence[int] | str, rolls_left: int, sharp: bool | None
    ) -> tuple[StateKey, int, tuple[int, ...], bool]:
        rules = self.rules
        roll = parse_dice(dice if isinstance(dice, str) else list(dice), rules.dice, rules.faces)
        if not 0 <= rolls_left < rules.throws:
            raise InvalidActionError(f"rolls left must be 0 to {rules.throws - 1}, not {rolls_left}")
        key = self.state_key(scores)
        if key.mask == (1 << self.prep.n_boxes) - 1:
            raise InvalidActionError("the sheet is full: there is nothing left to decide")
        if sharp is None:
            sharp = rolls_left == rules.throws - 1
        return key, space(rules.dice, rules.faces).roll_index[roll], roll, sharp

    def option_arrays(
        self, scores: Scores, dice: Sequence[int] | str, rolls_left: int, sharp: bool | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Raw option values: per box (NaN where not legal) and per keep index (of the dice space).

        Raises:
            InvalidActionError: bad dice, rolls left, sheet, or a full sheet.
        """
        key, r, _, sh = self._situation(scores, dice, rolls_left, sharp)
        if not _options_kernel_ready(self):  # the same numbers without compiling (see _npquery)
            from pasch.solver._npquery import option_values

            return option_values(self.values, key.mask, key.flag, key.upper, r, rolls_left, sh, self.tables)
        return self._kernel_options(key, r, rolls_left, sh)

    @property
    def _option_args(self) -> tuple[Any, ...]:
        """Arguments of the options kernel of the types every question passes (for compiling it)."""
        boxes = np.empty(self.prep.n_boxes, np.float64)
        keeps = np.empty(self.prep.keep_add.shape[0], np.float64)
        return (self.values, 0, 0, 0, 0, 1, False, self.tables, boxes, keeps)

    def _kernel_options(
        self, key: StateKey, r: int, rolls_left: int, sh: bool
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """:meth:`option_arrays` by the Numba kernel (compiled first if it is not)."""
        from pasch.solver._kone import _option_values

        ensure(_option_values, self._option_args)
        boxes = np.empty(self.prep.n_boxes, np.float64)
        keeps = np.empty(self.prep.keep_add.shape[0], np.float64)
        _option_values(self.values, key.mask, key.flag, key.upper, r, rolls_left, sh, self.tables, boxes, keeps)
        return boxes, keeps

    def options(
        self, scores: Scores, dice: Sequence[int] | str, rolls_left: int, sharp: bool | None = None
    ) -> list[Option]:
        """Every legal option with its value, best first.

        Args:
            scores: the column (None = open box).
            dice: the five dice now on the table.
            rolls_left: throws still allowed this turn (0 to throws - 1).
            sharp: whether the dice came from one throw of all dice (default: only after the first throw).

        Returns:
            Score options for each legal box, keep options (every distinct keep that re-throws at least
            one die) when rolls are left, sorted by value, best first.

        Raises:
            InvalidActionError: bad dice, rolls left, sheet, or a full sheet.
        """
        key, r, roll, sh = self._situation(scores, dice, rolls_left, sharp)
        boxes, keeps = self.option_arrays(scores, roll, rolls_left, sh)
        p = self.prep
        s = 1 if sh and p.n_sharp == 2 else 0
        c = self._ctx(key, r)
        out: list[Option] = []
        for i in np.flatnonzero(~np.isnan(boxes)):
            cid = self.rules.categories[int(i)].id
            out.append(Option("score", float(boxes[i]), category=cid, points=int(p.total[c, s, r, i])))
        if rolls_left > 0:
            sp = space(self.rules.dice, self.rules.faces)
            for q in range(int(p.n_rsub[r])):
                k = int(p.rsub[r, q])
                out.append(Option("keep", float(keeps[k]), keep=sp.keeps[k]))
        out.sort(key=lambda o: -o.value)
        return out

    def _ctx(self, key: StateKey, roll_index: int) -> int:
        p = self.prep
        g = int(p.grp[roll_index])
        m = int(p.group_match[g])
        matched = 1 if m >= 0 and key.mask >> m & 1 else 0
        y_filled = p.y_box >= 0 and key.mask >> p.y_box & 1
        yclass = 0 if not y_filled else 1 + key.flag
        return yclass * 2 + matched

    def best(self, scores: Scores, dice: Sequence[int] | str, rolls_left: int, sharp: bool | None = None) -> Option:
        """The best option (ties: the first box in sheet order, then the smallest keep)."""
        return self.options(scores, dice, rolls_left, sharp)[0]

    def regret(
        self,
        scores: Scores,
        dice: Sequence[int] | str,
        rolls_left: int,
        action: str | Option,
        sharp: bool | None = None,
    ) -> float:
        """Expected points lost by an action against the best one (0 for an optimal action).

        Args:
            action: an :class:`Option` or its text (``score full_house``, ``keep 3 3``, ``keep``).

        Raises:
            InvalidActionError: the action is not one of the legal options here.
        """
        opts = self.options(scores, dice, rolls_left, sharp)
        text = action.action_text if isinstance(action, Option) else " ".join(str(action).split())
        for o in opts:
            if o.action_text == text:
                return max(0.0, opts[0].value - o.value)
        raise InvalidActionError(
            f"{text!r} is not a legal option here; options: {', '.join(o.action_text for o in opts)}"
        )

    def best_index(self, key: StateKey, roll: int, rolls_left: int, sharp: bool) -> tuple[int, int, float]:
        """Fast path of :meth:`best` on indices: (box index or -1, keep index or -1, value).

        ``roll`` indexes the dice space's throws. Nothing is checked: use :meth:`state_key` first.
        """
        kernel = self._best_kernel
        if kernel is None:  # once per solver: compiled (or loaded) for these types, then called directly
            from pasch.solver._kone import _best_one

            ensure(_best_one, (self.values, 0, 0, 0, 0, 1, False, self._tables))
            kernel = self._best_kernel = _best_one
        box, keep, value = kernel(
            self.values,
            int(key.mask),
            int(key.flag),
            int(key.upper),
            int(roll),
            int(rolls_left),
            bool(sharp),
            self._tables,
        )
        return int(box), int(keep), float(value)

    # -- batches --------------------------------------------------------------------------------
    def values_batch(self, masks: IntArray, flags: IntArray, uppers: IntArray) -> npt.NDArray[np.float64]:
        """Turn-start values of many states at once (numpy fancy indexing)."""
        return np.asarray(self.values[masks, flags, uppers], dtype=np.float64)

    def best_batch(
        self,
        masks: IntArray,
        flags: IntArray,
        uppers: IntArray,
        rolls: IntArray,
        rolls_left: IntArray,
        sharps: IntArray,
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """Best decision of many situations: (box index or -1, keep index or -1, value) each.

        Arrays are indexed alike; ``rolls`` are indices into the dice space's throws. Inputs are not
        checked beyond their shapes: use :meth:`state_key` for untrusted sheets.

        Raises:
            ValueError: arrays of different lengths.
        """
        arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in (masks, flags, uppers, rolls, rolls_left, sharps)]
        m = arrays[0].shape[0]
        if any(a.shape != (m,) for a in arrays):
            raise ValueError("best_batch: every array must be one-dimensional and of the same length")
        out_box = np.empty(m, np.int32)
        out_keep = np.empty(m, np.int32)
        out_value = np.empty(m, np.float64)
        n_threads = max(1, min(threads or default_threads(), default_threads(), max(m, 1)))
        from pasch.solver._kmany import _best_many

        n_threads = min(n_threads, max(1, -(-m // LANES)))
        ensure(_best_many, (self.values, *arrays, self.tables, out_box, out_keep, out_value, 0, 1))
        run_threads(_best_many, n_threads, self.values, *arrays, self.tables, out_box, out_keep, out_value)
        return out_box, out_keep, out_value

    def simulate(self, games: int, seed: int = 0, threads: int | None = None) -> npt.NDArray[np.int64]:
        """Final scores of ``games`` solo games under the optimal policy (seeded, thread-count independent).

        Raises:
            ValueError: a negative number of games or seed.
        """
        if games < 0 or seed < 0:
            raise ValueError("games and seed must not be negative")
        out = np.zeros(games, np.int64)
        if games == 0:
            return out
        from pasch.solver._kmany import _simulate_many

        ensure(_simulate_many, (self.values, games, seed, self.tables, out, 0, 1))
        n_threads = max(1, min(threads or default_threads(), default_threads(), -(-games // LANES)))
        run_threads(_simulate_many, n_threads, self.values, games, seed, self.tables, out)
        return out
