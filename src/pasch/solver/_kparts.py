# ruff: noqa: N803, N806  (V, X, A, L, W, Sv, Xp: the names of the tables and lanes in the docstrings)
# mypy: allow-untyped-defs
"""Pieces shared by the solver's kernels: one turn solved over lanes of upper totals or situations.

Private. Each piece is compiled once per argument types and then called from every kernel that needs
it (the table build, one-situation queries, batches, simulation): it is *not* inlined into each
caller, because inlining multiplied the compile time of a first command by the number of callers.
The pieces are called once per state or per block of situations, so the call costs nothing; the
small helpers in the hot loops (``_legal_one``, ``_ctx_of``, ``_decide``, ``_next_random``) are
inlined. ``_submax`` (the running maximum over a keep's sub-keeps) is called, and compiled once for
all its call sites in ``_turn``: inlining it at the level of Numba's IR made compiling markedly slower
for no speed we could measure; a version per call site (a constant among its arguments) made it slower
still for a build about 5 % faster, a trade we declined for the first command's sake.

The pieces are compiled without a CPython wrapper (``no_cpython_wrapper``): only kernels call them, and
each wrapper unboxed the whole :class:`~pasch.solver._prep.Tables` record, a large share of compiling a
piece. Tried and dropped (``bench/coldstart.py`` and ``bench/solver.py`` measure both sides): one
``_submax`` call site in ``_turn`` (less compiling, the warm build 28 % slower), no six-face unrolled mean
(no less compiling, 9 % slower), ``_decide``, ``_legal_one`` and ``_ctx_of`` called, not inlined (less
compiling of the simulation kernel, simulation 17 % slower).

Layout: the value table is ``V[mask, flag, upper]`` with the capped upper total innermost, so every
inner loop runs over contiguous lanes and LLVM vectorises it. ``T`` is the record of
:class:`pasch.solver._prep.Tables`. A one-situation query runs the same code with one lane.

Inside a turn, with ``A[keep, lane]``: the value of a full throw is the best box (``stop``) or the best
keep; the value of a keep of fewer dice is the mean over the faces of the keep with one more die; the
best keep of a throw is a running maximum over sub-multisets, removing one die at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from pasch.solver import _cachestamp

NEG = -1.0e30
"""Value of an impossible entry: below every real value, far from float32's limit."""

NOT_KERNELS: tuple[str, ...] = ("_max_into", "_max_into_impl", "_flip", "_flip_py", "_key")
NOT_KERNELS += ("_borrowed", "_borrow_jit", "_borrow_py", "_borrow")
"""Functions here that are not kernels: overloaded helpers (their references), their typing-time impls
and intrinsics."""

_PIECE: dict[str, Any] = {"cache": True, "nogil": True, "no_cpython_wrapper": True}
"""Numba options of a piece: cached, releasing the GIL, no CPython wrapper (see the module docstring)."""


def _max_into(src: np.ndarray, dst: np.ndarray) -> None:
    """``dst[j] = max(src[j], dst[j])`` for every lane, where neither holds a negative number (or NaN).

    In kernels it compiles to vector maxima: a loop of ``v if v > o else o`` (or ``max``, or a ufunc
    call per row) stays scalar or pays a call in Numba, several times slower. For float32/float64 it
    compares the bit patterns as integers, which order non-negative floats as the floats do.
    """
    for j in range(dst.shape[0]):
        v = src[j]
        o = dst[j]
        dst[j] = v if v > o else o


@overload(_max_into, inline="always")
def _max_into_impl(src, dst):
    ints = {types.float32: np.int32, types.float64: np.int64}
    it = ints.get(getattr(src, "dtype", None))
    if it is not None and getattr(dst, "dtype", None) == src.dtype:

        def impl(src, dst):
            a = src.view(it)
            b = dst.view(it)
            for j in range(b.shape[0]):
                v = a[j]
                o = b[j]
                b[j] = v if v > o else o

        return impl

    def generic(src, dst):
        for j in range(dst.shape[0]):
            v = src[j]
            o = dst[j]
            dst[j] = v if v > o else o

    return generic


_WIDTH = {types.float32: 32, types.float64: 64, types.int32: 32, types.int64: 64}


@intrinsic
def _flip(typingctx, v):
    """Float to key (see :data:`_key`) or key to float: flip the magnitude bits where the sign is set."""
    width = _WIDTH.get(v)
    if width is None:
        return None
    to_key = isinstance(v, types.Float)
    sig = (getattr(types, f"int{width}") if to_key else getattr(types, f"float{width}"))(v)

    def codegen(context, builder, signature, args):
        ity = ir.IntType(width)
        b = builder.bitcast(args[0], ity) if to_key else args[0]
        spread = builder.ashr(b, ity(width - 1))
        out = builder.xor(b, builder.and_(spread, ity((1 << (width - 1)) - 1)))
        return out if to_key else builder.bitcast(out, context.get_value_type(signature.return_type))

    return sig, codegen


def _flip_py(v: Any) -> Any:
    """:func:`_flip` for numpy scalars (``NUMBA_DISABLE_JIT=1``)."""
    to_key = v.dtype.kind == "f"
    b = v.view(np.int32 if v.dtype.itemsize == 4 else np.int64) if to_key else v
    out = b ^ ((b >> (8 * b.dtype.itemsize - 1)) & np.iinfo(b.dtype).max)
    return out if to_key else out.view(np.float32 if v.dtype.itemsize == 4 else np.float64)


_key: Any = _flip_py if config.DISABLE_JIT else _flip  # type: ignore[attr-defined]
"""An integer ordered as the float it is given (any float but NaN), of the same width: the bit pattern
with the magnitude bits flipped where the sign bit is set. Its own inverse: given a key, it returns the
float (``_key(_key(v)) == v``).

A running maximum over lanes compiles to vector integer maxima on these keys. On floats, ``if v > o:
o = v`` compiles to masked stores (slow on AMD cores) and ``o = v if v > o else o`` with a store to
compare-and-blend loops that do not vectorise well without fast-math flags. An intrinsic, not an
overload: an overload is a function of its own to compile.
"""


def _borrowed(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    """LLVM value of ``ty`` with every array in it (itself, or a tuple's members) owning nothing."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)  # type: ignore[no-untyped-call]
        ary.parent = cgutils.get_null_value(ary.parent.type)  # type: ignore[no-untyped-call]
        return ary._getvalue()
    for i, member in enumerate(ty):
        if isinstance(member, types.Array):
            value = builder.insert_value(value, _borrowed(context, builder, member, builder.extract_value(value, i)), i)
    return value


@intrinsic
def _borrow_jit(typingctx, arr):
    """The same array (or tuple of arrays, such as the tables' record) without an owner: its views and
    the calls it is passed to touch no reference count."""
    if not isinstance(arr, (types.Array, types.BaseTuple)):
        return None

    def codegen(context, builder, signature, args):
        return _borrowed(context, builder, arr, args[0])

    return arr(arr), codegen


def _borrow_py(arr: Any) -> Any:
    """:func:`_borrow_jit` without Numba (``NUMBA_DISABLE_JIT=1``): the array itself."""
    return arr


_borrow: Any = _borrow_py if config.DISABLE_JIT else _borrow_jit  # type: ignore[attr-defined]
"""The array a piece was given (or the tables' record: each of its arrays), as a view that owns nothing
(its meminfo is null).

Numba counts references to an array's memory with atomic instructions: every row view (``A[k]``),
every array passed to a call and every return from one adds or drops a reference. In the turn's inner
loops that was hundreds of atomic increments and decrements per state, and on two threads sharing the
tables the cache lines of their counts went back and forth between the cores: 60 % of a yahtzee build's
time (``perf``). A piece's arguments are kept alive by its caller for the whole call, so the piece works on
borrowed views of them (the record once, at entry: its fields are then borrowed too); such a view
must not outlive the call (never returned or stored).
"""


@njit(**_PIECE)
def _rows(V, mask, flag, u0, L, T, X):
    """Next-state value rows: ``X[row, j]`` for upper total ``u0 + j``, row = (box, upper points).

    Args:
        V: the value table ``V[mask, flag, upper]`` (later layers filled in).
        mask: filled-box mask of the state.
        flag: the all-alike flag of the state.
        u0: upper total of lane 0.
        L: lanes to fill.
        T: the rule set's :class:`~pasch.solver._prep.Tables`.
        X: output ``[row, lane]``; rows of filled boxes are left untouched.
    """
    V = _borrow(V)
    X = _borrow(X)
    T = _borrow(T)
    thr = T.thr
    bonus = T.bonus
    row_box = T.row_box
    for row in range(row_box.shape[0]):
        b = row_box[row]
        if (mask >> b) & 1:
            continue
        nm = mask | (1 << b)
        mode = T.row_mode[row]
        nf = flag if mode == 0 else mode - 1
        if T.n_flags == 1:
            nf = 0
        p = T.row_up[row]
        src = V[nm, nf]
        x = X[row]
        if p == 0:
            for j in range(L):
                x[j] = src[u0 + j]
        else:
            top = src[thr] + p
            cut = thr - p - u0
            if cut < 0:
                cut = 0
            if cut > L:
                cut = L
            for j in range(cut):
                x[j] = src[u0 + j + p] + p
            for j in range(cut, L):
                x[j] = top + (bonus if u0 + j < thr else 0.0)


@njit(**_PIECE)
def _legal(mask, yclass, T, legal, nlegal, ctxg):
    """Legal boxes of each throw group, and each group's scoring context, for a filled-box mask.

    Args:
        mask: filled-box mask.
        yclass: state of the all-alike box: 0 open, 1 holds 0, 2 holds more than 0.
        T: the rule set's tables.
        legal: output ``[group, q]``: the legal boxes of each group.
        nlegal: output: how many entries of ``legal`` each group has.
        ctxg: output: each group's scoring context.
    """
    T = _borrow(T)
    tier = T.tier
    group_match = T.group_match
    legal = _borrow(legal)
    nlegal = _borrow(nlegal)
    ctxg = _borrow(ctxg)
    n = tier.shape[2]
    for g in range(group_match.shape[0]):
        mt = group_match[g]
        m = 1 if mt >= 0 and (mask >> mt) & 1 else 0
        c = yclass * 2 + m
        ctxg[g] = c
        best = 1 << 30
        for i in range(n):
            if not (mask >> i) & 1 and tier[c, g, i] < best:
                best = tier[c, g, i]
        cnt = 0
        for i in range(n):
            if not (mask >> i) & 1 and tier[c, g, i] == best:
                legal[g, cnt] = i
                cnt += 1
        nlegal[g] = cnt


@njit(**_PIECE)
def _stops(X, L, legal, nlegal, ctxg, T, stop):
    """``stop[s, r, lane]``: best box entry for throw ``r`` (sharp flag ``s``) plus the future value.

    Throws that are not all alike start from the best zero entry and look only at the boxes
    that pay them something; all-alike throws look at every legal box of their context.

    Args:
        X: next-state rows ``[row, lane]`` (from :func:`_rows`).
        L: lanes in use.
        legal: legal boxes per group (from :func:`_legal`).
        nlegal: how many legal boxes each group has.
        ctxg: each group's scoring context.
        T: the rule set's tables.
        stop: output ``[sharp, roll, lane]``.
    """
    X = _borrow(X)
    legal = _borrow(legal)
    nlegal = _borrow(nlegal)
    ctxg = _borrow(ctxg)
    stop = _borrow(stop)
    T = _borrow(T)
    grp = T.grp
    rowsel = T.rowsel
    cval = T.cval
    zrow = T.zrow
    nz = T.nz
    n_nz = T.n_nz
    bits = 0
    for q in range(nlegal[0]):
        bits |= 1 << legal[0, q]
    # Maxima over integer keys (see _key), one throw at a time in ``kr``.
    neg = _key(X.dtype.type(NEG))
    k0 = np.full(L, neg)
    kr = np.full(L, neg)
    for q in range(nlegal[0]):
        x = X[zrow[legal[0, q]]]
        for j in range(L):
            v = _key(x[j])
            o = k0[j]
            k0[j] = v if v > o else o
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            g = grp[r]
            c = ctxg[g]
            if g == 0:
                for j in range(L):
                    kr[j] = k0[j]
                for q in range(n_nz[s, r]):
                    i = nz[s, r, q]
                    if (bits >> i) & 1:
                        x = X[rowsel[c, s, r, i]]
                        cv = cval[c, s, r, i]
                        for j in range(L):
                            v = _key(x[j] + cv)
                            o = kr[j]
                            kr[j] = v if v > o else o
            else:
                for j in range(L):
                    kr[j] = neg
                for q in range(nlegal[g]):
                    i = legal[g, q]
                    x = X[rowsel[c, s, r, i]]
                    cv = cval[c, s, r, i]
                    for j in range(L):
                        v = _key(x[j] + cv)
                        o = kr[j]
                        kr[j] = v if v > o else o
            out = stop[s, r]
            for j in range(L):
                out[j] = _key(kr[j])


@njit(**_PIECE)
def _turn(stop, A, M, Sv, L, stages, T, save):
    """Run ``stages`` keep stages; on return ``A``/``Sv`` hold the throw values with ``stages`` rolls left.

    Args:
        stop: best entry of each throw ``[sharp, roll, lane]`` (from :func:`_stops`).
        A: scratch and result ``[keep, lane]``: keep values, full throws last.
        M: scratch ``[keep, lane]`` with a row for each keep of fewer dice than a full throw: the best
            of a keep and its sub-keeps.
        Sv: scratch and result ``[roll, lane]``: the value of a sharp throw (``+sharp`` only).
        L: lanes in use.
        stages: keep stages to run (rolls left after the throw on the table).
        T: the rule set's tables.
        save: output ``save[t, keep, lane]`` (when it has rows): the value of each keep with ``t``
            rolls left after it. When it has a row for every stage, the caller reads only ``save``
            (queries, simulation): ``A`` and ``Sv`` are then left after the last keep means.
    """
    stop = _borrow(stop)
    A = _borrow(A)
    M = _borrow(M)
    Sv = _borrow(Sv)
    save = _borrow(save)
    T = _borrow(T)
    keep_add = T.keep_add
    subs = T.subs
    n_sub = T.n_sub
    n_small = T.n_small
    prob = T.prob
    inv_faces = T.inv_faces
    sharp = stop.shape[0] == 2
    n_rolls = stop.shape[1]
    n_keeps = A.shape[0]
    faces = keep_add.shape[1]
    for r in range(n_rolls):
        a = A[n_small + r]
        s0 = stop[0, r]
        for j in range(L):
            a[j] = s0[j]
        if sharp:
            sv = Sv[r]
            s1 = stop[1, r]
            for j in range(L):
                sv[j] = s1[j]
    for t in range(stages):
        for k in range(n_small - 1, -1, -1):
            a = A[k]
            if faces == 6:
                c0 = A[keep_add[k, 0]]
                c1 = A[keep_add[k, 1]]
                c2 = A[keep_add[k, 2]]
                c3 = A[keep_add[k, 3]]
                c4 = A[keep_add[k, 4]]
                c5 = A[keep_add[k, 5]]
                for j in range(L):
                    a[j] = (c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j]) * inv_faces
            else:
                for j in range(L):
                    a[j] = 0.0
                for f in range(faces):
                    src = A[keep_add[k, f]]
                    for j in range(L):
                        a[j] += src[j]
                for j in range(L):
                    a[j] *= inv_faces
        if sharp:
            a = A[0]
            for j in range(L):
                a[j] = 0.0
            for r in range(n_rolls):
                pr = prob[r]
                sv = Sv[r]
                for j in range(L):
                    a[j] += pr * sv[j]
        if save.shape[0] > t:
            for k in range(n_keeps):
                for j in range(L):
                    save[t, k, j] = A[k, j]
            if t == stages - 1 and save.shape[0] >= stages:
                break  # the caller reads the saved keep values only: the last maxima would go unused
        # M[k]: the best keep of k or of one of its sub-keeps. In a buffer of its own: with the maximum
        # written over its own source row (A[k]), LLVM's check that the rows do not overlap failed at
        # run time and every small keep took the scalar loop (the build 20 % slower).
        b = M[0]
        a = A[0]
        for j in range(L):
            b[j] = a[j]
        for k in range(1, n_small):
            _submax(M, k, subs, n_sub[k], L, M, k, A[k])
        for r in range(n_rolls):
            # A full throw: the best of its entry and its keeps (and, sharp, of the sharp entry too).
            k = n_small + r
            if sharp:
                _submax(M, k, subs, n_sub[k], L, Sv, r, stop[1, r])
            _submax(M, k, subs, n_sub[k], L, A, k, stop[0, r])


@njit(**_PIECE)
def _submax(A, k, subs, c, L, out, o, first):
    """``out[o] = max(first, A[sub] for each sub-keep sub of k)``.

    Every call site in :func:`_turn` passes arrays and integers of the same types, so one compiled
    version serves them all (constants among the arguments made one version per call site, each
    compiled anew).

    One pass over the lanes reads every source: a loop per source would pay its set-up each time.

    Args:
        A: keep values ``[keep, lane]``.
        k: the keep.
        subs: ``[keep, q]`` sub-keeps with one die fewer.
        c: how many sub-keeps ``k`` has.
        L: lanes in use.
        out: output rows (``A`` itself, or ``Sv`` for a sharp throw).
        o: output row.
        first: a row of lanes taken into the maximum: the keep's own value in the keep stage, the
            throw's best entry in the throw stage (it may be ``out[o]`` itself).
    """
    q0 = subs[k, 0]
    if c == 1:
        for j in range(L):
            m = A[q0, j]
            a = first[j]
            out[o, j] = a if a > m else m
    elif c == 2:
        q1 = subs[k, 1]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            a = first[j]
            out[o, j] = a if a > m else m
    elif c == 3:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            a = first[j]
            out[o, j] = a if a > m else m
    elif c == 4:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        q3 = subs[k, 3]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            v = A[q3, j]
            m = v if v > m else m
            a = first[j]
            out[o, j] = a if a > m else m
    else:
        q1 = subs[k, 1]
        q2 = subs[k, 2]
        q3 = subs[k, 3]
        q4 = subs[k, 4]
        for j in range(L):
            m = A[q0, j]
            v = A[q1, j]
            m = v if v > m else m
            v = A[q2, j]
            m = v if v > m else m
            v = A[q3, j]
            m = v if v > m else m
            v = A[q4, j]
            m = v if v > m else m
            a = first[j]
            out[o, j] = a if a > m else m
        for q in range(5, c):
            qq = subs[k, q]
            for j in range(L):
                v = A[qq, j]
                if v > out[o, j]:
                    out[o, j] = v


@njit(**_PIECE)
def _expect(A, Sv, stop, L, stages, T, acc):
    """Expected value at the start of a turn: the mean over the first throw.

    Accumulated in float64: a float32 sum of 252 terms would cost about 1e-5 per layer.

    Args:
        A: throw values after :func:`_turn` (full throws from ``T.n_small`` on).
        Sv: sharp throw values after :func:`_turn`.
        stop: best entries (the throw values when ``stages`` is 0).
        L: lanes in use.
        stages: keep stages that were run.
        T: the rule set's tables.
        acc: output ``[lane]`` (float64).
    """
    A = _borrow(A)
    Sv = _borrow(Sv)
    stop = _borrow(stop)
    acc = _borrow(acc)
    T = _borrow(T)
    prob64 = T.prob64
    n_small = T.n_small
    n_rolls = prob64.shape[0]
    for j in range(L):
        acc[j] = 0.0
    for r in range(n_rolls):
        pr = prob64[r]
        if stages == 0:
            src = stop[stop.shape[0] - 1, r]
        elif stop.shape[0] == 2:
            src = Sv[r]
        else:
            src = A[n_small + r]
        for j in range(L):
            acc[j] += pr * src[j]


@njit(**_PIECE)
def _rebase(X, L, mask, T, base):
    """Subtract one next-state row from every open row: turn values stay small, so float32 stays exact.

    Args:
        X: next-state rows ``[row, lane]``, changed in place.
        L: lanes in use.
        mask: filled-box mask (rows of filled boxes are skipped).
        T: the rule set's tables.
        base: output ``[lane]``: the row subtracted (the first open one).
    """
    X = _borrow(X)
    base = _borrow(base)
    T = _borrow(T)
    row_box = T.row_box
    first = -1
    for row in range(row_box.shape[0]):
        if not (mask >> row_box[row]) & 1:
            first = row
            break
    for j in range(L):
        base[j] = X[first, j]
    for row in range(row_box.shape[0]):
        if not (mask >> row_box[row]) & 1:
            x = X[row]
            for j in range(L):
                x[j] -= base[j]


@njit(cache=True, inline="always")
def _next_random(state):
    """splitmix64: returns (new state, 64-bit output).

    Args:
        state: the generator's state (uint64).
    """
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state, z ^ (z >> np.uint64(31))


# -- many situations at once: one situation per lane ------------------------------------------------
@njit(**_PIECE)
def _rows_many(V, masks, flags, us, L, T, X, base):
    """``X[row, j]`` for situation ``j`` (relative to ``base[j]``, its first open row); NEG if filled.

    Args:
        V: the value table.
        masks: filled-box mask of each situation.
        flags: all-alike flag of each situation.
        us: capped upper total of each situation.
        L: situations in use.
        T: the rule set's tables.
        X: output ``[row, situation]``.
        base: output ``[situation]``: the row subtracted.
    """
    V = _borrow(V)
    masks = _borrow(masks)
    flags = _borrow(flags)
    us = _borrow(us)
    X = _borrow(X)
    base = _borrow(base)
    T = _borrow(T)
    thr = T.thr
    bonus = T.bonus
    row_box = T.row_box
    for j in range(L):
        mask = masks[j]
        flag = flags[j]
        u = us[j]
        first = -1
        for row in range(row_box.shape[0]):
            b = row_box[row]
            if (mask >> b) & 1:
                X[row, j] = NEG
                continue
            if first < 0:
                first = row
            nm = mask | (1 << b)
            mode = T.row_mode[row]
            nf = flag if mode == 0 else mode - 1
            if T.n_flags == 1:
                nf = 0
            p = T.row_up[row]
            src = V[nm, nf]
            if p == 0:
                X[row, j] = src[u]
            elif u + p < thr:
                X[row, j] = src[u + p] + p
            else:
                top = src[thr] + p
                X[row, j] = top + (bonus if u < thr else 0.0)
        base[j] = X[first, j]
        for row in range(row_box.shape[0]):
            if not (mask >> row_box[row]) & 1:
                X[row, j] -= base[j]


@njit(cache=True, inline="always")
def _legal_one(mask, c, g, tier, n, legal_row):
    """Legal boxes of throw group ``g`` in context ``c`` for one mask; returns how many.

    Args:
        mask: filled-box mask.
        c: scoring context.
        g: throw group.
        tier: ``[ctx, group, box]`` tiers.
        n: boxes in the column.
        legal_row: output: the legal boxes.
    """
    best = 1 << 30
    for i in range(n):
        if not (mask >> i) & 1 and tier[c, g, i] < best:
            best = tier[c, g, i]
    cnt = 0
    for i in range(n):
        if not (mask >> i) & 1 and tier[c, g, i] == best:
            legal_row[cnt] = i
            cnt += 1
    return cnt


@njit(cache=True, inline="always")
def _ctx_of(mask, flag, g, y_box, group_match):
    """Scoring context of throw group ``g`` in a state.

    Args:
        mask: filled-box mask.
        flag: all-alike flag.
        g: throw group.
        y_box: the all-alike box (-1: none).
        group_match: per group, the matching upper box (-1: none).
    """
    y_filled = y_box >= 0 and (mask >> y_box) & 1
    yclass = 0 if not y_filled else 1 + flag
    mt = group_match[g]
    m = 1 if mt >= 0 and (mask >> mt) & 1 else 0
    return yclass * 2 + m


@njit(**_PIECE)
def _stops_many(X, Xp, L, masks, flags, T, stop, legal_row):
    """``stop[s, r, j]`` for every situation ``j``.

    Throws that are not all alike score alike in every context, so they are vectorised over lanes:
    ``Xp`` holds the rows of boxes legal for them (NEG elsewhere). All-alike throws go lane by lane.

    Args:
        X: next-state rows ``[row, situation]`` (from :func:`_rows_many`).
        Xp: scratch like ``X``.
        L: situations in use.
        masks: filled-box mask of each situation.
        flags: all-alike flag of each situation.
        T: the rule set's tables.
        stop: output ``[sharp, roll, situation]``.
        legal_row: scratch of one entry per box.
    """
    X = _borrow(X)
    Xp = _borrow(Xp)
    masks = _borrow(masks)
    flags = _borrow(flags)
    stop = _borrow(stop)
    legal_row = _borrow(legal_row)
    T = _borrow(T)
    tier = T.tier
    row_box = T.row_box
    grp = T.grp
    rowsel = T.rowsel
    cval = T.cval
    zrow = T.zrow
    nz = T.nz
    n_nz = T.n_nz
    n = tier.shape[2]
    n_rows = X.shape[0]
    for j in range(L):
        cnt = _legal_one(masks[j], 0, 0, tier, n, legal_row)
        bits = 0
        for q in range(cnt):
            bits |= 1 << legal_row[q]
        for row in range(n_rows):
            Xp[row, j] = X[row, j] if (bits >> row_box[row]) & 1 else NEG
    # Maxima over integer keys (see _key), as in _stops.
    neg = _key(X.dtype.type(NEG))
    k0 = np.full(L, neg)
    kr = np.full(L, neg)
    for i in range(n):
        x = Xp[zrow[i]]
        for j in range(L):
            v = _key(x[j])
            o = k0[j]
            k0[j] = v if v > o else o
    for s in range(stop.shape[0]):
        for r in range(stop.shape[1]):
            out = stop[s, r]
            g = grp[r]
            if g == 0:
                for j in range(L):
                    kr[j] = k0[j]
                for q in range(n_nz[s, r]):
                    i = nz[s, r, q]
                    x = Xp[rowsel[0, s, r, i]]
                    cv = cval[0, s, r, i]
                    for j in range(L):
                        v = _key(x[j] + cv)
                        o = kr[j]
                        kr[j] = v if v > o else o
                for j in range(L):
                    out[j] = _key(kr[j])
            else:
                for j in range(L):
                    c = _ctx_of(masks[j], flags[j], g, T.y_box, T.group_match)
                    cnt = _legal_one(masks[j], c, g, tier, n, legal_row)
                    best = NEG
                    for q in range(cnt):
                        i = legal_row[q]
                        v = X[rowsel[c, s, r, i], j] + cval[c, s, r, i]
                        if v > best:
                            best = v
                    out[j] = best


@njit(cache=True, inline="always")
def _decide(X, save, j, mask, flag, roll, t, s, tier, rowsel, cval, grp, y_box, group_match, rsub, n_rsub, legal_row):
    """Best decision of lane ``j``: (box or -1, keep or -1, value relative to the lane's base, context).

    It takes the arrays it reads, not the :class:`~pasch.solver._prep.Tables` record: it runs for
    every decision of a simulation, and the callers take the arrays out of the record once.

    Args:
        X: next-state rows ``[row, lane]`` relative to each lane's base.
        save: keep values ``[t, keep, lane]`` (from :func:`_turn`).
        j: the lane.
        mask: filled-box mask of the lane's state.
        flag: all-alike flag of the lane's state.
        roll: the throw on the table.
        t: rolls left.
        s: 1 for a sharp throw (``+sharp``), else 0.
        tier: ``T.tier``.
        rowsel: ``T.rowsel``.
        cval: ``T.cval``.
        grp: ``T.grp``.
        y_box: ``T.y_box``.
        group_match: ``T.group_match``.
        rsub: ``T.rsub``.
        n_rsub: ``T.n_rsub``.
        legal_row: scratch of one entry per box.
    """
    n = tier.shape[2]
    g = grp[roll]
    c = _ctx_of(mask, flag, g, y_box, group_match)
    cnt = _legal_one(mask, c, g, tier, n, legal_row)
    best = NEG
    box = -1
    for q in range(cnt):
        i = legal_row[q]
        v = X[rowsel[c, s, roll, i], j] + cval[c, s, roll, i]
        if v > best:
            best = v
            box = i
    keep = -1
    if t > 0:
        for q in range(n_rsub[roll]):
            k = rsub[roll, q]
            v = save[t - 1, k, j]
            if v > best:
                best = v
                keep = k
                box = -1
    return box, keep, best, c


# Before any kernel is loaded from Numba's disk cache: drop the cached kernels if any kernel module's source
# changed since they were written (Numba itself only notices a change of the defining file; see _cachestamp).
_cachestamp.refresh_for(_rows)
