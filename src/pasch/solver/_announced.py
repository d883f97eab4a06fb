"""The slack table of an announced column (kniffel-4): the column alone, announcing after the first throw or
passing, at most ``s`` passes.

Private; :func:`announced_table` is exported by :mod:`pasch.solver`. Built by the Numba kernel
``_kbuild._announced_build``; :func:`_announced_reference` is its plain numpy twin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pasch.dice import KeepGroups, keep_groups, space, transition_tables
from pasch.solver._table import cache_name, default_threads, load_array, run_threads, store_or_warn

if TYPE_CHECKING:
    from pasch.solver._query import Solver

__all__ = ["ANNOUNCED_VERSION", "announced_table"]

F64 = npt.NDArray[np.float64]
_NEG = -1e18


ANNOUNCED_VERSION = 2


def announced_table(solver: Solver, max_slack: int) -> npt.NDArray[np.float32]:
    """The slack table ``W[mask, upper, s]`` of an announced column (kniffel-4), from the cache or built.

    The column played alone with up to ``s`` passes: every turn the first throw is seen, then either a box
    ``b`` of the open ones is announced and the next throws are played for it (a lower box for its best
    expected points, an upper box keeping every die of its face, which is optimal because more of the face
    is never worse) and the dice go into ``b``, or, while passes are left, the turn is passed (it goes to
    another column). ``solver`` is the free column's solver of the same base rules (its points, jokers and upper
    bonus). The extra points of a second five-alike are left out (a slight underestimate). Built by a Numba
    kernel over the ``2^n`` masks, the masks of a layer shared between threads (about 5 s for kniffel-classic's 12
    levels, what kniffel-4 uses, with two threads on a shared 2-core machine, 7.8 s with one; 35 s in numpy,
    :func:`_announced_reference`); rows of upper totals a mask cannot hold stay 0. Stored in
    :func:`pasch.solver.cache_dir` like the solver's tables (a JSON sidecar with the rules, version, shape and a
    CRC-32; a damaged file is rebuilt with a ``CacheWarning``, and the cache's disk bound covers it).
    """
    rules = solver.rules
    p = solver.prep
    nb = len(rules.categories)
    shape = (1 << nb, p.threshold + 1, max_slack + 1)
    path = cache_name("announced", rules.cache_key, ANNOUNCED_VERSION, max_slack)
    meta = {"kind": "announced", "rules": rules.cache_key, "version": ANNOUNCED_VERSION, "max_slack": max_slack}
    got = load_array(path, meta, shape, np.float32, mmap=False)
    if got is not None:
        return got
    values = _build_announced(solver, max_slack).astype(np.float32)
    store_or_warn(path, values, meta)  # a read-only cache only costs a rebuild next time
    return values


def _build_announced(solver: Solver, max_slack: int, filled: int = 0, threads: int | None = None) -> F64:
    """:func:`announced_table`'s values, computed for the masks holding every box of ``filled`` (others 0).

    The Numba kernel ``pasch.solver._kbuild._announced_build``, one layer of masks at a time (``threads``
    share a layer; default: the solver's thread count); :func:`_announced_reference` is its plain numpy twin (12
    slack levels of kniffel-4's column: about 35 s in numpy)."""
    from pasch.solver._kbuild import _announced_build  # numba is imported when a kernel is first needed

    p = solver.prep
    x = _Inputs.of(solver, filled)
    nb = len(x.faces)
    w = np.zeros((1 << nb, p.threshold + 1, max_slack + 1))
    # Every mask holding ``filled`` but the full sheet, layer by layer (most boxes filled first): a mask reads
    # only the masks with one box more, so the masks of a layer are shared between threads.
    layers: list[list[int]] = [[] for _ in range(nb)]  # by boxes filled, the full sheet left out
    for m in range((1 << nb) - 1):
        if m & filled == filled:
            layers[m.bit_count()].append(m)
    masks = np.array([m for layer in reversed(layers) for m in layer], np.int64)
    n_threads = max(1, min(threads or default_threads(), default_threads()))
    rest = (x.faces, x.ctx_of, x.aims, x.counts, x.grow, int(p.bonus), int(p.threshold), x.prob)
    lo = 0
    for layer in reversed(layers):
        hi = lo + len(layer)
        if hi > lo:
            run_threads(_announced_build, min(n_threads, hi - lo), w, masks, lo, hi, *rest)
        lo = hi
    return w


@dataclass(frozen=True)
class _Inputs:
    """What the kernel and its reference read: per box its face, per throw its counts, the chances of an upper
    box's dice, and per mask its scoring context's ``aim`` rows."""

    faces: npt.NDArray[np.int64]  # per box its face, 0 for a lower box
    counts: npt.NDArray[np.int64]  # [r, f - 1]: the dice of throw r showing face f
    grow: F64  # [c, n]: c kept dice of a face become n in the throws left
    prob: F64  # each first throw's probability
    ctx_of: npt.NDArray[np.int64]  # per mask, its row of aims (0 for the masks not solved)
    aims: F64  # [ctx, b, r]: lower box b's best expected points after first throw r

    @classmethod
    def of(cls, solver: Solver, filled: int) -> _Inputs:
        p = solver.prep
        rules = solver.rules
        nb, nd = len(rules.categories), rules.dice
        sp = space(nd, rules.faces)
        trans = transition_tables(nd, rules.faces).trans
        groups = keep_groups(nd, rules.faces)
        n_rolls = len(sp.rolls)
        faces = p.row_up[p.rowsel[0, 0]].astype(np.int64).max(axis=0) // nd  # [roll, box] upper points -> face
        counts = np.array([[roll.count(f) for f in range(1, rules.faces + 1)] for roll in sp.rolls], np.int64)
        ids: dict[bytes, int] = {}
        aims: list[F64] = []
        ctx_of = np.zeros(1 << nb, np.int64)
        for mask in range(1 << nb):
            if mask & filled != filled:
                continue
            ctx = solver.contexts(mask, 0)[0]  # the scoring context of each throw (jokers)
            key = ctx.tobytes()
            if key not in ids:
                ids[key] = len(aims)
                pts = p.cval[ctx, 0, np.arange(n_rolls)].astype(np.float64)
                aims.append(_aims(pts, faces, trans, groups, rules.throws))
            ctx_of[mask] = ids[key]
        grow = _grow(nd, rules.faces, rules.throws)
        return cls(faces, counts, grow, sp.roll_probabilities_array(), ctx_of, np.ascontiguousarray(np.stack(aims)))


def _aims(pts: F64, faces: npt.NDArray[np.int64], trans: Any, groups: KeepGroups, throws: int) -> F64:
    """``aim[b, r]``: each lower box's best expected points after first throw ``r`` (``pts[r, b]``: its points)."""
    flat, starts = groups
    out = np.zeros((pts.shape[1], pts.shape[0]))
    for b in np.flatnonzero(faces == 0):
        v = pts[:, b].copy()
        for _ in range(throws - 1):
            e = trans @ v
            v = np.maximum(pts[:, b], np.maximum.reduceat(e[flat], starts))
        out[b] = v
    return out


def _grow(nd: int, faces: int, throws: int) -> F64:
    """``grow[c, n]``: the chance that ``c`` kept dice of a face become ``n`` when every other die is thrown again
    until it shows the face, over the throws left after the first."""
    q = 1 - (1 - 1 / faces) ** (throws - 1)
    grow = np.zeros((nd + 1, nd + 1))
    for c in range(nd + 1):
        for k in range(nd - c + 1):
            grow[c, c + k] = math.comb(nd - c, k) * q**k * (1 - q) ** (nd - c - k)
    return grow


def _announced_reference(solver: Solver, max_slack: int, filled: int = 0) -> F64:
    """:func:`_build_announced` in plain numpy, the reference of its kernel (the same :class:`_Inputs`)."""
    p = solver.prep
    x = _Inputs.of(solver, filled)
    nb, nd = len(x.faces), x.grow.shape[0] - 1
    thr = p.threshold
    n_rolls = len(x.prob)
    n_s = max_slack + 1
    w = np.zeros((1 << nb, thr + 1, n_s))
    uu = np.arange(thr + 1)
    for mask in range((1 << nb) - 2, -1, -1):
        if mask & filled != filled:
            continue
        a = np.full((thr + 1, n_rolls, n_s), _NEG)
        for b in range(nb):
            if mask >> b & 1:
                continue
            nxt = w[mask | 1 << b]
            f = int(x.faces[b])
            if f:
                gain = f * np.arange(nd + 1)
                total = uu[:, None] + gain[None, :]
                g = gain[None, :] + np.where((uu[:, None] < thr) & (total >= thr), p.bonus, 0)
                q_b = np.einsum("cn,uns->ucs", x.grow, g[:, :, None] + nxt[np.minimum(total, thr)])
                np.maximum(a, q_b[:, x.counts[:, f - 1], :], out=a)
            else:
                np.maximum(a, x.aims[x.ctx_of[mask], b][None, :, None] + nxt[:, None, :], out=a)
        ws = w[mask]
        ws[:, 0] = a[:, :, 0] @ x.prob
        for s in range(1, n_s):
            ws[:, s] = np.maximum(a[:, :, s], ws[:, s - 1, None]) @ x.prob
    return w
