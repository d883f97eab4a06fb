"""Arrays that describe a rule set to the solver kernels, built with :func:`pasch.rules.score_options`.

The kernels never see a rule set: they see what the dice pay in each box of a column, in each
*context* that can change it, and which open boxes the dice may enter. A context is the pair (state of
the all-alike box: open / holds 0 / holds more than 0, and whether the upper box matching a five-alike
is filled). Every number is read off ``score_options`` called on a synthetic column, so the solver
and the game engine share one definition of the rules.

Two facts about ``score_options`` keep this small, and the reference-solver tests check both:

* a throw that is not all alike scores the same in every context (only five-alike throws meet the
  joker and extra rules), so it is asked once with every box open;
* which open boxes are legal follows a *tier* order: the legal boxes are the open boxes of the smallest
  tier (fill order and the official joker priority are both of this form). Tiers are found by peeling:
  ask with every box open, give the legal ones tier 0, fill them, ask again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from pasch.dice import counts_of, space
from pasch.errors import RuleSetError
from pasch.rules import GameKind, Order, RuleSet, score_options

__all__ = ["LANES", "NEVER", "Prep", "Tables", "prepare", "tables"]

LANES = 64
"""Situations solved together by the batch and simulation kernels (a full vector loop of lanes): here,
where code that does not import Numba reads it too."""

NEVER = 1 << 20
"""Tier of a box the dice can never enter in a context."""

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

_Y_POSITIVE = 50  # any positive score stands for "the all-alike box holds a score"


@dataclass(frozen=True, slots=True, eq=False)
class Prep:
    """Everything the kernels need about one single-column rule set.

    Attributes:
        rules: the rule set.
        n_boxes: boxes in the column.
        threshold: upper total that earns the bonus (0 when there is no bonus).
        bonus: the upper bonus.
        lanes: upper totals tracked, ``threshold + 1`` (0..threshold, the last meaning "reached").
        n_flags: 2 when the all-alike box's value (0 or positive) matters, else 1.
        n_sharp: 2 for ``+sharp`` (plain and sharp dice score differently), else 1.
        y_box: index of the all-alike box, or -1.
        maxup: per box, the most it can add to the upper total (0 for lower boxes).
        is_upper: per box, 1 for upper-section boxes.
        grp: per roll, 0 for a throw that is not all alike, else 1 + the index of its face group.
        group_match: per group, the upper box matching the five-alike face (-1: none; group 0: -1).
        tier: ``[ctx, group, box]`` tier of each box; legal boxes are the open ones of least tier
            (:data:`NEVER`: never legal in that context).
        rowsel: ``[ctx, sharp, roll, box]`` which next-state row the entry uses.
        cval: ``[ctx, sharp, roll, box]`` points added on top of that row.
        total: ``[ctx, sharp, roll, box]`` points the entry pays (box value plus extra points).
        points: ``[ctx, sharp, roll, box]`` the value written in the box (without extra points).
        zrow: per box, the row of entering it with 0 points (dominated when the throw pays more).
        nz: ``[sharp, roll, q]`` for throws that are not all alike, the boxes paying more than 0
            (``n_nz`` of them); the others are covered by the zero rows.
        n_nz: how many entries of ``nz`` each throw has.
        row_box: per row, the box it fills.
        row_up: per row, the points it adds to the upper total.
        row_mode: per row, the next flag: 0 keep, 1 set to 0, 2 set to 1.
        keep_add: ``[keep, face]`` the keep with one more die of that face (-1 at full size).
        keep_sub: ``[keep, face]`` the keep with one die of that face removed (-1 if none).
        subs: ``[keep, q]`` the distinct keeps with one die removed, ``n_sub[keep]`` of them.
        n_sub: how many entries of ``subs`` each keep has.
        rsub: ``[roll, q]`` the distinct keeps of a throw that re-throw at least one die, ``n_rsub``.
        n_rsub: how many entries of ``rsub`` each throw has.
        keep_counts: ``[keep, face]`` the face counts of each keep.
        roll_of_code: throw index of the face counts ``c`` at code ``sum(c[f] * (dice + 1) ** f)``.
        n_small: number of keeps with fewer dice than a full throw (they come first).
        prob: probability of each full throw.
        faces: faces per die.
        throws: throws per turn.
        masks: reachable filled-box masks, by layer (number of filled boxes), concatenated.
        layer_start: start of each layer in ``masks`` (length ``n_boxes + 2``).
        hi: per mask in ``masks``, the largest reachable capped upper total.
    """

    rules: RuleSet
    n_boxes: int
    threshold: int
    bonus: int
    lanes: int
    n_flags: int
    n_sharp: int
    y_box: int
    maxup: I32
    is_upper: I32
    grp: I32
    group_match: I32
    tier: I32
    NEVER: ClassVar[int] = NEVER
    """The tier of a box that is never legal (the module's :data:`NEVER`, for readers of :attr:`tier`)."""
    rowsel: I32
    cval: I32
    total: I32
    points: I32
    zrow: I32
    nz: I32
    n_nz: I32
    row_box: I32
    row_up: I32
    row_mode: I32
    keep_add: I32
    keep_sub: I32
    subs: I32
    n_sub: I32
    rsub: I32
    n_rsub: I32
    keep_counts: I32
    roll_of_code: I32
    n_small: int
    prob: F64
    faces: int
    throws: int
    masks: I64
    layer_start: I64
    hi: I32

    @property
    def n_ctx(self) -> int:
        """Number of scoring contexts (3 states of the all-alike box x matching box open/filled)."""
        return 6


class Tables(NamedTuple):
    """The one read-only record every kernel takes: a rule set's arrays and numbers in the table's dtype.

    Built by :func:`tables` from a :class:`Prep` (see its attributes for the meaning of the arrays that
    share a name). Numba types it as a named tuple, so a kernel reads ``t.rowsel`` and a new field costs
    one line here and one in :func:`tables`, not a change of every kernel's parameter list.

    Attributes:
        row_box: per next-state row, the box it fills.
        row_up: per row, the points it adds to the upper total.
        row_mode: per row, the next flag: 0 keep, 1 set to 0, 2 set to 1.
        tier: ``[ctx, group, box]`` tier of each box; legal boxes are the open ones of least tier.
        group_match: per throw group, the upper box matching the five-alike face (-1: none).
        grp: per throw, its group (0: not all alike).
        rowsel: ``[ctx, sharp, roll, box]`` which next-state row an entry uses.
        cval: ``[ctx, sharp, roll, box]`` points added on top of that row (table dtype).
        total: ``[ctx, sharp, roll, box]`` points the entry pays (box value plus extra points).
        zrow: per box, the row of entering it with 0 points.
        nz: ``[sharp, roll, q]`` boxes paying more than 0 to a throw that is not all alike.
        n_nz: how many entries of ``nz`` each throw has.
        keep_add: ``[keep, face]`` the keep with one more die of that face (-1 at full size).
        subs: ``[keep, q]`` the distinct keeps with one die removed, ``n_sub[keep]`` of them.
        n_sub: how many entries of ``subs`` each keep has.
        rsub: ``[roll, q]`` the keeps of a throw that re-throw at least one die, ``n_rsub[roll]``.
        n_rsub: how many entries of ``rsub`` each throw has.
        keep_counts: ``[keep, face]`` the face counts of each keep.
        roll_of_code: throw index of the face counts ``c`` at code ``sum(c[f] * (dice + 1) ** f)``.
        prob: probability of each full throw (table dtype).
        prob64: the same in float64 (turn-start expectations are summed in float64).
        n_flags: 2 when the all-alike box's value matters, else 1.
        y_box: index of the all-alike box, or -1.
        thr: upper total that earns the bonus (0: no bonus).
        bonus: the upper bonus (table dtype).
        ibonus: the upper bonus as an integer (simulation scores).
        n_small: number of keeps with fewer dice than a full throw (they come first).
        inv_faces: ``1 / faces`` (table dtype).
        n_sharp: 2 for ``+sharp``, else 1.
        stages: throws per turn minus one (keep stages of a turn).
        n_dice: dice per throw.
        faces: faces per die.
    """

    row_box: I32
    row_up: I32
    row_mode: I32
    tier: I32
    group_match: I32
    grp: I32
    rowsel: I32
    cval: Any
    total: I32
    zrow: I32
    nz: I32
    n_nz: I32
    keep_add: I32
    subs: I32
    n_sub: I32
    rsub: I32
    n_rsub: I32
    keep_counts: I32
    roll_of_code: I32
    prob: Any
    prob64: F64
    n_flags: int
    y_box: int
    thr: int
    bonus: Any
    ibonus: int
    n_small: int
    inv_faces: Any
    n_sharp: int
    stages: int
    n_dice: int
    faces: int


_TABLES: dict[tuple[int, str], tuple[Prep, Tables]] = {}
_MAX_TABLES = 64


def tables(p: Prep, dtype: type[np.floating[Any]] | np.dtype[Any] = np.float32) -> Tables:
    """The kernels' record of a prepared rule set in the table's dtype (cached per ``Prep`` and dtype).

    Raises:
        TypeError: a dtype other than float32 or float64.
    """
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"solver tables are float32 or float64, not {dt}")
    key = (id(p), dt.str)
    got = _TABLES.get(key)
    if got is not None and got[0] is p:
        return got[1]
    f = dt.type
    t = Tables(
        row_box=p.row_box,
        row_up=p.row_up,
        row_mode=p.row_mode,
        tier=p.tier,
        group_match=p.group_match,
        grp=p.grp,
        rowsel=p.rowsel,
        cval=p.cval.astype(dt),
        total=p.total,
        zrow=p.zrow,
        nz=p.nz,
        n_nz=p.n_nz,
        keep_add=p.keep_add,
        subs=p.subs,
        n_sub=p.n_sub,
        rsub=p.rsub,
        n_rsub=p.n_rsub,
        keep_counts=p.keep_counts,
        roll_of_code=p.roll_of_code,
        prob=p.prob.astype(dt),
        prob64=p.prob,
        n_flags=p.n_flags,
        y_box=p.y_box,
        thr=p.threshold,
        bonus=f(p.bonus),
        ibonus=p.bonus,
        n_small=p.n_small,
        inv_faces=f(1.0 / p.faces),
        n_sharp=p.n_sharp,
        stages=p.throws - 1,
        n_dice=p.rules.dice,
        faces=p.faces,
    )
    _TABLES[key] = (p, t)
    while len(_TABLES) > _MAX_TABLES:  # bounded like prepare's cache; the oldest record goes first
        del _TABLES[next(iter(_TABLES))]
    return t


def _check(rules: RuleSet) -> Order:
    if rules.kind is not GameKind.SHEET:
        raise RuleSetError(f"{rules.id}: the solver handles dice-sheet games, not {rules.kind.value}")
    if len(rules.columns) != 1:
        raise RuleSetError(f"{rules.id}: the exact solver handles single-column rule sets only")
    order = rules.columns[0]
    if order is Order.ANNOUNCED:
        raise RuleSetError(f"{rules.id}: the exact solver does not handle announced columns")
    if len(rules.categories) > 20:
        raise RuleSetError(f"{rules.id}: too many boxes ({len(rules.categories)}) for the exact solver")
    return order


def _column(n: int, open_boxes: set[int], y: int, yclass: int) -> list[int | None]:
    """A synthetic column: the given boxes open, the rest filled with 0, the all-alike box per yclass."""
    scores: list[int | None] = [None if i in open_boxes else 0 for i in range(n)]
    if y >= 0 and y not in open_boxes:
        scores[y] = _Y_POSITIVE if yclass == 2 else 0
    return scores


@lru_cache(maxsize=32)  # bounded: every rule-set parameter is a new key (a server sees many)
def prepare(rules: RuleSet) -> Prep:
    """Derive the solver arrays of a single-column rule set (cached per rule set).

    Args:
        rules: a single-column sheet rule set.

    Returns:
        The arrays.

    Raises:
        RuleSetError: a multi-column, announced-column or non-sheet rule set, or rules whose legal
            boxes do not follow a tier order (the solver's model of ``score_options``).
    """
    order = _check(rules)
    n = len(rules.categories)
    sp = space(rules.dice, rules.faces)
    rolls = sp.rolls
    n_rolls = len(rolls)
    n_sharp = 2 if rules.sharp else 1
    y = rules.five_alike_index
    y_box = -1 if y is None else y
    threshold = rules.bonus_threshold if rules.bonus_threshold is not None and rules.bonus > 0 else 0
    bonus = rules.bonus if threshold > 0 else 0
    is_upper = np.array([1 if c.is_upper else 0 for c in rules.categories], dtype=np.int32)

    # Groups: 0 = throws that are not all alike, then one group per all-alike throw.
    grp = np.zeros(n_rolls, dtype=np.int32)
    alike: list[tuple[int, ...]] = []
    for r, roll in enumerate(rolls):
        if len(set(roll)) == 1 and rules.dice > 1:
            alike.append(counts_of(roll, rules.faces))
            grp[r] = len(alike)
    n_groups = 1 + len(alike)
    group_match = np.full(n_groups, -1, dtype=np.int32)
    for g, counts in enumerate(alike, start=1):
        face = counts.index(rules.dice) + 1
        m = rules.upper_index(face)
        group_match[g] = -1 if m is None else m

    n_ctx = 6
    tier = np.full((n_ctx, n_groups, n), NEVER, dtype=np.int32)
    total = np.zeros((n_ctx, n_sharp, n_rolls, n), dtype=np.int32)
    upts = np.zeros((n_ctx, n_sharp, n_rolls, n), dtype=np.int32)
    pts = np.zeros((n_ctx, n_sharp, n_rolls, n), dtype=np.int32)

    # Throws that are not all alike: context-free. Points with every box open (free order), legality
    # by peeling in the column's own order.
    for r, roll in enumerate(rolls):
        if grp[r]:
            continue
        counts = counts_of(roll, rules.faces)
        for s in range(n_sharp):
            for opt in score_options(rules, Order.FREE, [None] * n, counts, bool(s)):
                total[:, s, r, opt.index] = opt.total
                pts[:, s, r, opt.index] = opt.points
                upts[:, s, r, opt.index] = opt.points if is_upper[opt.index] else 0
    plain_counts = next(counts_of(rr, rules.faces) for rr, gg in zip(rolls, grp, strict=True) if not gg)
    _peel(rules, order, n, y_box, 0, set(), plain_counts, tier[:, 0, :], None, None, None)

    # All-alike throws: every context.
    for g, counts in enumerate(alike, start=1):
        r = int(np.flatnonzero(grp == g)[0])
        match = int(group_match[g])
        for yclass in range(3):
            if y_box < 0 and yclass > 0:
                tier[yclass * 2 : yclass * 2 + 2, g] = tier[0:2, g]
                pts[yclass * 2 : yclass * 2 + 2, :, r] = pts[0:2, :, r]
                total[yclass * 2 : yclass * 2 + 2, :, r] = total[0:2, :, r]
                upts[yclass * 2 : yclass * 2 + 2, :, r] = upts[0:2, :, r]
                continue
            for m in range(2):
                c = yclass * 2 + m
                if match < 0 and m == 1:
                    tier[c, g], total[c, :, r], upts[c, :, r] = tier[c - 1, g], total[c - 1, :, r], upts[c - 1, :, r]
                    pts[c, :, r] = pts[c - 1, :, r]
                    continue
                required_open: set[int] = set()
                filled: set[int] = set()
                if y_box >= 0:
                    (required_open if yclass == 0 else filled).add(y_box)
                if match >= 0:
                    (required_open if m == 0 else filled).add(match)
                _peel(
                    rules, order, n, y_box, yclass, filled, counts, tier[c, g], required_open,
                    total[c, :, r], upts[c, :, r], is_upper, pts[c, :, r],
                )  # fmt: skip

    # Next-state rows: one per lower box (two for the all-alike box: it sets the flag), one per
    # (upper box, upper points) pair.
    flag_matters = y_box >= 0 and not (
        np.array_equal(tier[2:4], tier[4:6])
        and np.array_equal(total[2:4], total[4:6])
        and np.array_equal(upts[2:4], upts[4:6])
    )
    n_flags = 2 if flag_matters else 1
    row_box: list[int] = []
    row_up: list[int] = []
    row_mode: list[int] = []
    row_of: dict[tuple[int, int, int], int] = {}

    def row(box: int, up: int, mode: int) -> int:
        key = (box, up, mode)
        if key not in row_of:
            row_of[key] = len(row_box)
            row_box.append(box)
            row_up.append(up)
            row_mode.append(mode)
        return row_of[key]

    rowsel = np.zeros((n_ctx, n_sharp, n_rolls, n), dtype=np.int32)
    cval = np.zeros((n_ctx, n_sharp, n_rolls, n), dtype=np.int32)
    for i in range(n):
        t = total[..., i]
        if is_upper[i]:
            up = upts[..., i]
            values = np.array(sorted(set(up.ravel().tolist())), dtype=up.dtype)  # np.unique imports numpy.ma
            ids = np.array([row(i, int(v), 0) for v in values], dtype=np.int32)
            rowsel[..., i] = ids[np.searchsorted(values, up)]
            cval[..., i] = t - up
        elif i == y_box and flag_matters:
            rowsel[..., i] = np.where(t > 0, row(i, 0, 2), row(i, 0, 1))
            cval[..., i] = t
        else:
            rowsel[..., i] = row(i, 0, 0)
            cval[..., i] = t
    # Zero rows: entering a box for 0 points. For a throw that pays p > 0 in a box, the zero entry
    # is dominated (same row with more points, or for an upper box a higher upper total, which is
    # never worth less), so every throw may take the maximum over all zero rows first.
    zrow = np.array([row(i, 0, 1 if i == y_box and flag_matters else 0) for i in range(n)], dtype=np.int32)
    plain_nz = (total[0] != 0) & (grp[None, :, None] == 0)
    n_nz = plain_nz.sum(axis=2).astype(np.int32)
    nz = np.zeros((n_sharp, n_rolls, max(1, int(n_nz.max()))), dtype=np.int32)
    for s in range(n_sharp):
        for r in range(n_rolls):
            boxes = np.flatnonzero(plain_nz[s, r])
            nz[s, r, : len(boxes)] = boxes
    maxup = np.array([int(upts[..., i].max()) if is_upper[i] else 0 for i in range(n)], dtype=np.int32)

    keeps = sp.keeps
    n_keeps = len(keeps)
    keep_add = np.full((n_keeps, rules.faces), -1, dtype=np.int32)
    keep_sub = np.full((n_keeps, rules.faces), -1, dtype=np.int32)
    for k, keep in enumerate(keeps):
        for f in range(1, rules.faces + 1):
            if len(keep) < rules.dice:
                keep_add[k, f - 1] = sp.keep_index[tuple(sorted((*keep, f)))]
            if f in keep:
                lst = list(keep)
                lst.remove(f)
                keep_sub[k, f - 1] = sp.keep_index[tuple(lst)]
    n_small = n_keeps - n_rolls
    subs = np.zeros_like(keep_sub)
    n_sub = (keep_sub >= 0).sum(axis=1).astype(np.int32)
    for k in range(n_keeps):
        present = keep_sub[k][keep_sub[k] >= 0]
        subs[k, : len(present)] = present
    assert keeps[n_small:] == rolls
    keep_counts = np.array([counts_of(k, rules.faces) for k in keeps], dtype=np.int32)
    max_sub = max(len(sp.sub_keeps(r)) for r in rolls)
    rsub = np.zeros((n_rolls, max_sub), dtype=np.int32)
    n_rsub = np.zeros(n_rolls, dtype=np.int32)
    for r, roll in enumerate(rolls):
        ks = [sp.keep_index[k] for k in sp.sub_keeps(roll) if len(k) < rules.dice]
        rsub[r, : len(ks)] = ks
        n_rsub[r] = len(ks)
    base_code = rules.dice + 1
    roll_of_code = np.full(base_code**rules.faces, -1, dtype=np.int32)
    for r, roll in enumerate(rolls):
        code = sum(c * base_code**f for f, c in enumerate(counts_of(roll, rules.faces)))
        roll_of_code[code] = r

    masks, layer_start = _reachable_masks(n, tier, y_box, group_match)
    upper_max = np.array([int(maxup[i]) for i in range(n)], dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n)[None, :]) & 1
    hi = np.minimum(bits @ upper_max, threshold).astype(np.int32)

    return Prep(
        rules=rules,
        n_boxes=n,
        threshold=threshold,
        bonus=bonus,
        lanes=threshold + 1,
        n_flags=n_flags,
        n_sharp=n_sharp,
        y_box=y_box,
        maxup=maxup,
        is_upper=is_upper,
        grp=grp,
        group_match=group_match,
        tier=tier,
        rowsel=rowsel,
        cval=cval,
        total=total,
        points=pts,
        zrow=zrow,
        nz=nz,
        n_nz=n_nz,
        row_box=np.array(row_box, dtype=np.int32),
        row_up=np.array(row_up, dtype=np.int32),
        row_mode=np.array(row_mode, dtype=np.int32),
        keep_add=keep_add,
        keep_sub=keep_sub,
        subs=subs,
        n_sub=n_sub,
        rsub=rsub,
        n_rsub=n_rsub,
        keep_counts=keep_counts,
        roll_of_code=roll_of_code,
        n_small=n_small,
        prob=sp.roll_probabilities_array(),
        faces=rules.faces,
        throws=rules.throws,
        masks=masks,
        layer_start=layer_start,
        hi=hi,
    )


def _peel(
    rules: RuleSet,
    order: Order,
    n: int,
    y_box: int,
    yclass: int,
    filled: set[int],
    counts: tuple[int, ...],
    tier_out: npt.NDArray[np.int32],
    required_open: set[int] | None,
    total_out: npt.NDArray[np.int32] | None,
    upts_out: npt.NDArray[np.int32] | None,
    is_upper: npt.NDArray[np.int32] | None = None,
    pts_out: npt.NDArray[np.int32] | None = None,
) -> None:
    """Find tiers (and, for all-alike throws, points) by asking with fewer and fewer open boxes.

    ``tier_out`` is a view ``[ctx, box]`` (every context, for throws that are not all alike) or
    ``[box]`` (one context). A required-open box that turns legal ends the peeling: it is open in
    every column of this context, so boxes of later tiers can never be entered.
    """
    open_boxes = set(range(n)) - filled
    level = 0
    while open_boxes:
        scores = _column(n, open_boxes, y_box, yclass)
        opts = score_options(rules, order, scores, counts, False)
        if not opts:
            raise RuleSetError(f"{rules.id}: no legal box with open boxes {sorted(open_boxes)}")
        legal = {o.index for o in opts}
        for i in legal:
            tier_out[..., i] = level
        if total_out is not None and upts_out is not None and is_upper is not None:
            for s in range(total_out.shape[0]):
                for o in score_options(rules, order, scores, counts, bool(s)):
                    total_out[s, o.index] = o.total
                    upts_out[s, o.index] = o.points if is_upper[o.index] else 0
                    if pts_out is not None:
                        pts_out[s, o.index] = o.points
        if required_open and legal & required_open:
            return
        open_boxes -= legal
        level += 1


def _reachable_masks(n: int, tier: I32, y_box: int, group_match: I32) -> tuple[I64, I64]:
    """Filled-box masks reachable from the empty column, grouped by number of filled boxes."""
    full = (1 << n) - 1
    if bool((tier[:, 0, :] == 0).all()):
        allm = np.arange(full + 1, dtype=np.int64)
        pop = np.zeros(full + 1, dtype=np.int64)
        for b in range(n):
            pop += (allm >> b) & 1
        ordered = allm[np.argsort(pop, kind="stable")]
        counts = np.bincount(pop, minlength=n + 1)
    else:
        # A fill order: breadth-first search over the boxes some throw may enter.
        layers: list[list[int]] = [[0]]
        for _ in range(n):
            nxt: set[int] = set()
            for mask in layers[-1]:
                open_ = [i for i in range(n) if not mask >> i & 1]
                y_open = y_box >= 0 and not mask >> y_box & 1
                for g in range(tier.shape[1]):
                    match = int(group_match[g])
                    m = 1 if match >= 0 and mask >> match & 1 else 0
                    for yclass in (0,) if y_open or y_box < 0 else (1, 2):
                        t = tier[yclass * 2 + m, g]
                        best = min(int(t[i]) for i in open_)
                        if best < NEVER:
                            nxt.update(mask | 1 << i for i in open_ if t[i] == best)
            layers.append(sorted(nxt))
        ordered = np.array([m for layer in layers for m in layer], dtype=np.int64)
        counts = np.array([len(layer) for layer in layers], dtype=np.int64)
    start = np.zeros(n + 2, dtype=np.int64)
    start[1:] = np.cumsum(counts)
    return ordered, start
