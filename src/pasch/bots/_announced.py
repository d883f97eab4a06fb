"""The table of an announced column (kniffel-4's third column), played alone.

In an announced column the box is chosen right after the first throw and the turn's two further throws
are played for that box. Played alone (every turn for this column), its value is ::

    V(column) = E_first throw [ max over open boxes b of A_b(throw) ]

where ``A_b(r)`` is the value of aiming at ``b`` from throw ``r``: the best play of the remaining throws
for ``b``, then the points of ``b`` plus ``V`` of the column with ``b`` filled. Three facts make this
cheap to compute exactly for every column state at once (numpy, seconds):

* for a lower box other than the five-alike box the column after the entry does not depend on the dice,
  so the best play maximises the box's points alone: ``A_b(r) = G_b(r) + V(column + b)``, with ``G_b`` the
  exact expected points of ``b`` from ``r`` (one expectimax per box and scoring context);
* for the five-alike box only "five alike or not" matters: ``A(r) = P(r) (points + V(scored)) + (1 - P(r))
  V(crossed)`` with ``P(r)`` the best chance of five alike from ``r``;
* for the upper box of face ``f`` the value grows with the number of ``f`` thrown, so keeping every ``f``
  is best; the final count is binomial and ``A_f(r) = sum_j P(j | count of f in r) h_f(j)``.

The last point ignores one rare option (with the extra-Kniffel rules, stopping on five alike of another
face scores its extra points in an upper box); the table is exact for rule sets without extra points and
a close approximation otherwise. Sharp throws are not modelled (the bot uses the free table there).
"""

from __future__ import annotations

import hashlib
import json
import os
from math import comb
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pasch.bots._multi import _Column

F64 = npt.NDArray[np.float64]
VERSION = 1
_NEG = -1e18


def _hold_value(end: F64, throws_left: int, dice: int, faces: int) -> F64:
    """``value[B, r]`` of holding throw ``r`` with ``throws_left`` throws left, for end values ``end[B, r]``."""
    from pasch.bots._multi import _dice_tables

    trans, rsub, valid, _ = _dice_tables(dice, faces)
    reach = end
    for _ in range(throws_left):
        e = reach @ trans.T
        reach = np.maximum(end, np.where(valid[None], e[:, rsub], _NEG).max(axis=2))
    return reach


def announced_values(col: _Column) -> F64:
    """``V[mask, flag, upper]`` of an announced column under ``col``'s rules (see the module docstring)."""
    from pasch.bots._multi import _dice_tables
    from pasch.dice import space

    p = col.p
    rules = p.rules
    n, lanes, nfl, thr = p.n_boxes, p.lanes, p.n_flags, p.threshold
    sp = space(rules.dice, rules.faces)
    trans, _, _, empty = _dice_tables(rules.dice, rules.faces)
    first = trans[int(empty[0])]
    left = rules.throws - 1
    n_rolls = len(sp.rolls)
    r_idx = np.arange(n_rolls)
    upper = [b for b in range(n) if p.is_upper[b]]
    face_of = {b: rules.categories[b].scorer.face for b in upper}
    y = int(p.y_box)
    lower = [b for b in range(n) if b not in upper and b != y]
    grp = p.grp.astype(np.int64)
    gm = p.group_match[grp].astype(np.int64)  # the upper box matching a five-alike throw, else -1

    def ctx_of(mask: int, flag: int) -> npt.NDArray[np.int64]:
        yclass = 0 if y < 0 or not mask >> y & 1 else 1 + flag
        matched = (gm >= 0) & ((mask >> np.maximum(gm, 0)) & 1).astype(bool)
        return yclass * 2 + matched.astype(np.int64)

    def points(ctx: npt.NDArray[np.int64], box: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        rows = p.rowsel[ctx, 0, r_idx, box]
        up = p.row_up[rows].astype(np.int64)
        return up + p.cval[ctx, 0, r_idx, box].astype(np.int64), up

    # G_b(r) per lower box and scoring context; the context depends on the five-alike box's state and on
    # which upper boxes are filled (for five-alike throws), so it is keyed by (yclass, flag, upper mask).
    upper_mask = sum(1 << b for b in upper)
    g_cache: dict[tuple[int, int], F64] = {}

    def lower_gains(mask: int, flag: int) -> F64:
        key = (mask & (upper_mask | (1 << y if y >= 0 else 0)), flag)
        if key not in g_cache:
            ctx = ctx_of(mask, flag)
            end = np.stack([points(ctx, b)[0] for b in lower]).astype(np.float64) if lower else np.zeros((0, n_rolls))
            g_cache[key] = _hold_value(end, left, rules.dice, rules.faces)
        return g_cache[key]

    # Five alike: the best chance from each throw.
    five = np.array([1.0 if len(set(r)) == 1 else 0.0 for r in sp.rolls])
    p_five = _hold_value(five[None, :], left, rules.dice, rules.faces)[0]
    # Upper boxes: P(final count j | count i) when every f is kept: each other die becomes f w.p. q.
    q = 1.0 - ((rules.faces - 1) / rules.faces) ** left
    d = rules.dice
    pc = np.zeros((d + 1, d + 1))
    for i in range(d + 1):
        for j in range(i, d + 1):
            pc[i, j] = comb(d - i, j - i) * q ** (j - i) * (1 - q) ** (d - j)
    counts = {b: np.array([r.count(face_of[b]) for r in sp.rolls]) for b in upper}
    # A representative throw for each (face, count): the count of f and otherwise no five alike.
    rep: dict[tuple[int, int], int] = {}
    for ri, r in enumerate(sp.rolls):
        for b in upper:
            c = r.count(face_of[b])
            if c == d or len(set(r)) > 1:
                rep.setdefault((b, c), ri)

    v = np.zeros((1 << n, nfl, lanes))
    u = np.arange(lanes)
    full = (1 << n) - 1
    for mask in range(full - 1, -1, -1):
        flags = range(nfl) if y >= 0 and mask >> y & 1 else range(1)
        for flag in flags:
            ctx = ctx_of(mask, flag)
            best = np.full((lanes, n_rolls), _NEG)
            g = lower_gains(mask, flag)
            for k, b in enumerate(lower):
                if not mask >> b & 1:
                    best = np.maximum(best, g[k][None, :] + v[mask | 1 << b, flag, :, None])
            if y >= 0 and not mask >> y & 1:
                pts, _ = points(ctx, y)
                rows = p.rowsel[ctx, 0, r_idx, y]
                nf_five = int(p.row_mode[rows[five.argmax()]]) - 1 if nfl == 2 else 0
                hit = float(pts[five.argmax()])
                after = mask | 1 << y
                a = p_five[None, :] * (hit + v[after, nf_five, :, None]) + (1 - p_five[None, :]) * v[after, 0, :, None]
                best = np.maximum(best, a)
            for b in upper:
                if mask >> b & 1:
                    continue
                pts, up = points(ctx, b)
                h = np.zeros((lanes, d + 1))
                for j in range(d + 1):
                    if (b, j) not in rep:
                        continue
                    gain, inc = float(pts[rep[b, j]]), int(up[rep[b, j]])
                    u2 = np.minimum(u + inc, thr)
                    bonus = np.where((u < thr) & (u + inc >= thr), p.bonus, 0) if thr > 0 else 0
                    h[:, j] = gain + bonus + v[mask | 1 << b, flag, u2]
                a = h @ pc[counts[b]].T  # [lanes, rolls]
                best = np.maximum(best, a)
            v[mask, flag] = best @ first
        if len(flags) == 1 and nfl == 2:
            v[mask, 1] = v[mask, 0]
    return v


def load_announced(col: _Column, rules_id: str, cache_dir: object) -> F64:
    """The announced table, from the cache (``cache_dir``) or built (seconds) and stored."""
    from pathlib import Path

    base = Path(str(cache_dir))
    digest = hashlib.sha256(f"{rules_id}\nannounced\n{VERSION}".encode()).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in rules_id)[:60]
    path = base / f"announced-{safe}-v{VERSION}-{digest}.npy"
    shape = [1 << col.p.n_boxes, col.p.n_flags, col.p.lanes]
    try:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if meta.get("shape") == shape and meta.get("rules") == rules_id:
            values = np.load(path, allow_pickle=False)
            if list(values.shape) == shape:
                return np.asarray(values, dtype=np.float64)
    except (OSError, ValueError, json.JSONDecodeError):
        pass
    values = announced_values(col)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.save(fh, values.astype(np.float32), allow_pickle=False)
        os.replace(tmp, path)
        path.with_suffix(".json").write_text(json.dumps({"rules": rules_id, "shape": shape}), encoding="utf-8")
    except OSError:
        pass
    return values
