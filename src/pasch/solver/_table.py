"""Building the value table and keeping it in the user cache directory.

A rule set's table comes from the cache directory when a valid file is there, else from the tables the
package ships (the catalogue's base rule sets, see ``_shipped``), else it is built and stored.

A table file is a ``.npy`` array (memory-mapped on load) with a JSON sidecar that names the rule set
(canonical text), the solver version, shape, dtype and a CRC-32 of the data. A file whose sidecar is
missing, unreadable or disagrees, or whose data does not match its checksum, is rebuilt; one that is
there but damaged (a sidecar that is not a JSON object, fields of the wrong type, a wrong checksum) is
rebuilt with a :class:`CacheWarning`.

Writes go to temporary files renamed into place; a failed write (disk full, read-only directory)
removes its temporary files, and temporary files left by a killed process are removed by the next
write of that table. When the cache directory cannot be written, the table is computed in memory and a
:class:`CacheWarning` says so (once per directory and reason).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sys
import threading
import time
import warnings
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pasch.rules import RuleSet
from pasch.solver import _shipped
from pasch.solver._jit import ensure, ready_to_build
from pasch.solver._prep import Prep, prepare, tables

__all__ = [
    "SOLVER_VERSION",
    "CacheWarning",
    "build_values",
    "cache_dir",
    "default_threads",
    "disk_budget",
    "load_or_build",
    "run_threads",
    "set_disk_budget",
    "store_or_warn",
    "table_path",
    "trim_cache",
]

SOLVER_VERSION = 1
"""Bump when the table layout or the solver's semantics change: older files are then stale."""

Progress = Callable[[int, int], None]
"""Called as ``progress(layers_done, layers_total)`` while a table is built."""


class CacheWarning(UserWarning):
    """A solver cache file was damaged (it is rebuilt) or the cache directory cannot be written (the
    table is computed in memory). Interfaces show it as a one-line notice."""


def default_threads() -> int:
    """Worker threads of the kernels: ``NUMBA_NUM_THREADS`` (default: the cores this process may use).

    Read as Numba's configuration reads it, not with ``numba.get_num_threads()``, which would start
    Numba's threading layer that these kernels do not use; and without importing Numba when it is not
    imported yet (a process answering from a shipped table in numpy never imports it).
    """
    numba = sys.modules.get("numba")
    if numba is not None:
        return max(1, int(numba.config.NUMBA_NUM_THREADS))
    with contextlib.suppress(KeyError, ValueError):
        return max(1, int(os.environ["NUMBA_NUM_THREADS"]))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def run_threads(kernel: Callable[..., Any], n_threads: int, *args: Any) -> None:
    """Call ``kernel(*args, th, n_threads)`` for ``th`` in ``0 .. n_threads - 1``, each on its own thread.

    The kernels release the GIL, so the calls run in parallel (one of them on this thread). A kernel
    not compiled yet is compiled once: Numba's compiler lock makes the other calls wait for it.

    Raises:
        Exception: whatever a call raised.
    """
    global _POOL
    if n_threads <= 1:
        kernel(*args, 0, 1)
        return
    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < n_threads - 1:
            _POOL = ThreadPoolExecutor(max_workers=n_threads - 1, thread_name_prefix="pasch-solver")
        pool = _POOL
    futures = [pool.submit(kernel, *args, th, n_threads) for th in range(1, n_threads)]
    kernel(*args, 0, n_threads)
    for f in futures:
        f.result()


def new_values(
    p: Prep, dtype: type[np.floating[Any]] = np.float32
) -> tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]]:
    """A rule set's table of zeros, for a build to fill, and a read-only view of the same memory.

    The build's kernel writes the one and reads the other (see ``_kbuild._solve_layer``); the view has the
    type of a loaded table as well, so the kernels that read tables are compiled once for both.
    """
    values = np.zeros((1 << p.n_boxes, p.n_flags, p.lanes), dtype=dtype)
    reads = values.view()
    reads.flags.writeable = False
    return values, reads


def build_values(
    rules: RuleSet | Prep,
    dtype: type[np.floating[Any]] = np.float32,
    progress: Progress | None = None,
    threads: int | None = None,
    floor: npt.NDArray[np.floating[Any]] | None = None,
) -> npt.NDArray[np.floating[Any]]:
    """Solve a rule set: the expected further score of every turn-start state.

    Args:
        rules: a single-column rule set (or its prepared arrays).
        dtype: ``np.float32`` (tables) or ``np.float64`` (tests).
        progress: optional callback after each layer.
        threads: worker threads (default: Numba's thread count).
        floor: a table of the same shape whose value every turn may end in instead of an entry (the turn
            passed, the sheet left as it is): one slack level of a free column (:mod:`pasch.solver._slack`).

    Returns:
        ``V[mask, flag, upper]``: filled-box mask, all-alike-box flag (1: it holds a positive score),
        capped upper total. Unreachable masks hold 0, and so do the upper totals a mask cannot have
        (above the most its filled boxes add, rounded up to a multiple of 8 lanes).

    Raises:
        RuleSetError: a rule set the solver does not handle (multi-column, announced, Knaster).
    """
    from pasch.solver._kbuild import _solve_layer, _solve_layer_floor

    p = rules if isinstance(rules, Prep) else prepare(rules)
    n = p.n_boxes
    values, reads = new_values(p, dtype)
    t = tables(p, dtype)
    args: tuple[Any, ...] = (values, reads, p.masks, p.hi)
    kernel: Any = _solve_layer
    if floor is not None:
        if floor.shape != values.shape:
            raise ValueError(f"a floor of shape {floor.shape} for a table of shape {values.shape}")
        floor = np.asarray(floor, dtype=dtype).view()
        floor.flags.writeable = False
        kernel, args = _solve_layer_floor, (values, reads, floor, p.masks, p.hi)
    if np.dtype(dtype) == np.float32 and floor is None:
        ready_to_build((*args, 0, 0, t, 0, 1))
    else:
        ensure(kernel, (*args, 0, 0, t, 0, 1))
    n_threads = max(1, min(threads or default_threads(), default_threads()))
    for done, layer in enumerate(range(n - 1, -1, -1)):
        lo, hi = int(p.layer_start[layer]), int(p.layer_start[layer + 1])
        if hi > lo:
            run_threads(kernel, min(n_threads, hi - lo), *args, lo, hi, t)
        if progress is not None:
            progress(done + 1, n)
    return values


def cache_dir() -> Path:
    """Where tables live: ``$PASCH_CACHE_DIR`` if set, else the platform's user cache directory."""
    env = os.environ.get("PASCH_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("pasch")) / "solver"


def table_path(rules: RuleSet) -> Path:
    """The table file of a rule set (the name is derived from the canonical text and solver version)."""
    key = rules.cache_key  # the id for catalogue rules (names unchanged), else a catalogue twin's id or id~digest
    digest = hashlib.sha256(f"{key}\n{SOLVER_VERSION}".encode()).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in key)[:60]
    return cache_dir() / f"{safe}-v{SOLVER_VERSION}-{digest}.npy"  # the name of version 1: tables stay valid


def _meta_path(path: Path) -> Path:
    return path.with_suffix(".json")


def _checksum(values: npt.NDArray[Any]) -> int:
    return zlib.crc32(np.ascontiguousarray(values).reshape(-1).view(np.uint8).data)


def cache_name(kind: str, rules_id: str, *parts: object) -> Path:
    """A file in :func:`cache_dir` for a table of ``kind`` (``slack``, say) of a rule set.

    The name shows the kind and rule text; a digest of the rule text and ``parts`` (versions, sizes)
    tells tables of different parts apart.
    """
    key = "\n".join(str(x) for x in (kind, rules_id, *parts))
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in rules_id)[:60]
    return cache_dir() / f"{kind}-{safe}-{digest}.npy"


def _sidecar_problem(
    stored: object, meta: dict[str, Any], shape: tuple[int, ...], dtype: type[np.floating[Any]]
) -> str | None:
    """Why a parsed sidecar is damaged ("" when it is sound but stale, None when it fits)."""
    if not isinstance(stored, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(stored), "a number")
        return f"its sidecar holds {kind}, not a JSON object"
    got_shape, got_dtype, crc = stored.get("shape"), stored.get("dtype"), stored.get("crc32")
    if not isinstance(got_shape, list) or not all(type(v) is int for v in got_shape):
        return "its sidecar's shape is not a list of integers"
    if not isinstance(got_dtype, str):
        return "its sidecar's dtype is not a string"
    if type(crc) is not int:
        return "its sidecar's checksum is not an integer"
    if any(stored.get(k) != v for k, v in meta.items()) or tuple(got_shape) != shape:
        return ""  # another rule set's, version's or size's table: replaced without a notice
    if got_dtype != np.dtype(dtype).name:
        return ""
    return None


def _damaged(path: Path, why: str) -> None:
    warnings.warn(f"solver cache: {path.name} is damaged ({why}); rebuilding it", CacheWarning, stacklevel=3)


def load_array(
    path: Path, meta: dict[str, Any], shape: tuple[int, ...], dtype: type[np.floating[Any]], mmap: bool = True
) -> npt.NDArray[Any] | None:
    """A cached array, or None when it is missing, stale (its sidecar disagrees with ``meta``) or corrupt.

    The JSON sidecar must be an object holding every item of ``meta``, the shape (a list of integers),
    the dtype (a string) and the CRC-32 of the data (an integer). A damaged file (anything that is not
    missing or merely stale) gives a :class:`CacheWarning` before None.
    """
    side = _meta_path(path)
    try:
        text = side.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as exc:
        _damaged(path, f"its sidecar cannot be read: {exc}")
        return None
    try:
        stored = json.loads(text)
    except (ValueError, RecursionError):
        _damaged(path, "its sidecar is not JSON")
        return None
    why = _sidecar_problem(stored, meta, shape, dtype)
    if why is not None:
        if why:
            _damaged(path, why)
        return None
    try:
        values = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, EOFError) as exc:
        _damaged(path, f"its data cannot be read: {' '.join(str(exc).split())[:120]}")
        return None
    if values.shape != shape or values.dtype != dtype:
        _damaged(path, "its data has another shape or type than its sidecar says")
        return None
    if _checksum(values) != stored["crc32"]:
        _damaged(path, "its data does not match its checksum")
        return None
    with contextlib.suppress(OSError):  # used now: the last to go when the cache is trimmed
        os.utime(path)
    return values  # type: ignore[no-any-return]


def _remove_stale_temporaries(path: Path) -> None:
    """Remove temporary files of ``path`` left by writers that no longer run (killed mid-write)."""
    with contextlib.suppress(OSError):
        for tmp in path.parent.glob(f".{path.name}.*.tmp"):
            pid_text = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
            if not pid_text.isdigit() or int(pid_text) == os.getpid() or _alive(int(pid_text)):
                continue
            with contextlib.suppress(OSError):
                tmp.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OverflowError:
        return False
    except OSError as exc:
        return exc.errno == errno.EPERM  # it exists, but belongs to someone else
    return True


DISK_BUDGET_ENV = "PASCH_CACHE_MB"
DISK_BUDGET_MB = 4096
"""The table cache's default bound on disk (MB): ``$PASCH_CACHE_MB``, or :func:`set_disk_budget`, sets another."""
_DISK: list[int | None] = [None]


def set_disk_budget(megabytes: int | None) -> None:
    """Bound the solver's cache directory on disk (MB; 0: no bound; None: ``$PASCH_CACHE_MB`` or the default).

    Raises:
        ValueError: a negative budget.
    """
    if megabytes is not None and megabytes < 0:
        raise ValueError(f"a disk budget is at least 0 MB, not {megabytes}")
    _DISK[0] = megabytes
    if megabytes:
        trim_cache()


def disk_budget() -> int:
    """The cache directory's bound in bytes (0: none)."""
    mb = _DISK[0]
    if mb is None:
        try:
            mb = max(0, int(os.environ.get(DISK_BUDGET_ENV, DISK_BUDGET_MB)))
        except ValueError:
            mb = DISK_BUDGET_MB
    return mb * 1024 * 1024


def trim_cache(keep: Path | None = None) -> int:
    """Remove the least recently used tables of the cache directory (each with its sidecar) until it is within
    :func:`disk_budget`; never ``keep`` (the table just written). Returns the bytes freed.

    A table is used when it is loaded (its time is set then) or written. A process that has a removed table
    memory-mapped keeps reading it (the system frees it when the last map goes); the next load builds it again.
    """
    budget = disk_budget()
    if not budget:
        return 0
    entries: list[tuple[float, int, Path]] = []
    with contextlib.suppress(OSError):
        for table in cache_dir().glob("*.npy"):
            with contextlib.suppress(OSError):
                st = table.stat()
                side = _meta_path(table)
                size = st.st_size + (side.stat().st_size if side.exists() else 0)
                entries.append((st.st_mtime, size, table))
    total = sum(size for _, size, _ in entries)
    freed = 0
    for _, size, table in sorted(entries):
        if total - freed <= budget:
            break
        if keep is not None and table == keep:
            continue
        with contextlib.suppress(OSError):
            table.unlink()
            _meta_path(table).unlink(missing_ok=True)
            freed += size
    return freed


def store_array(path: Path, values: npt.NDArray[Any], meta: dict[str, Any]) -> None:
    """Write an array and its JSON sidecar (``meta``, shape, dtype, CRC-32) atomically.

    Both files are written under temporary names and renamed into place, data first, so a reader
    sees either the old pair, a data file without a matching sidecar (rebuilt), or the new pair. A
    failed write removes its temporary files; those of killed writers are removed first.

    Raises:
        OSError: the cache directory cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(path)
    tag = f"{os.getpid()}.{threading.get_ident()}"
    tmp = path.with_name(f".{path.name}.{tag}.tmp")
    mtmp = path.with_name(f".{path.name}.{tag}.json.tmp")
    try:
        with open(tmp, "wb") as fh:
            np.save(fh, values, allow_pickle=False)
        full = {**meta, "shape": list(values.shape), "dtype": values.dtype.name, "crc32": _checksum(values)}
        mtmp.write_text(json.dumps(full, indent=1), encoding="utf-8")
        os.replace(tmp, path)
        os.replace(mtmp, _meta_path(path))
        trim_cache(keep=path)
    finally:
        for leftover in (tmp, mtmp):
            with contextlib.suppress(OSError):
                leftover.unlink()


def store_or_warn(path: Path, values: npt.NDArray[Any], meta: dict[str, Any]) -> bool:
    """:func:`store_array`, turning a failure into a :class:`CacheWarning`: the caller goes on with the
    table in memory (a read-only or full cache only costs a rebuild next time). Returns whether it was stored.
    """
    try:
        store_array(path, values, meta)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        warnings.warn(
            f"solver cache: cannot write {path.parent} ({reason}); computing in memory, nothing kept for next time",
            CacheWarning,
            stacklevel=3,
        )
        return False
    return True


def load_or_build(
    rules: RuleSet,
    *,
    force: bool = False,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> tuple[npt.NDArray[np.float32], bool, float]:
    """The float32 table of a rule set: from the cache if a valid file is there, else built (and stored).

    Args:
        rules: a single-column rule set.
        force: rebuild even if a valid file exists.
        use_cache: read and write the cache directory.
        progress: callback while building.

    Returns:
        ``(values, from_cache, build_seconds)``; build_seconds is 0 when loaded.

    Raises:
        RuleSetError: a rule set the solver does not handle.
    """
    p = prepare(rules)
    path = table_path(rules)
    meta = {"rules": rules.cache_key, "version": SOLVER_VERSION}
    shape = (1 << p.n_boxes, p.n_flags, p.lanes)
    if use_cache and not force:
        values = load_array(path, meta, shape, np.float32)
        if values is None:
            values, problem = _shipped.load(rules, shape, SOLVER_VERSION)
            if problem:
                warnings.warn(f"shipped table of {rules.id}: {problem}; building it", CacheWarning, stacklevel=2)
        if values is not None:
            return values, True, 0.0
    start = time.perf_counter()
    built = build_values(p, np.float32, progress)
    seconds = time.perf_counter() - start
    built.flags.writeable = False  # like a loaded (memory-mapped) table: the kernels see one type
    if use_cache:
        store_or_warn(path, built, {**meta, "build_seconds": seconds, "expected": float(built[0, 0, 0])})
    return built, False, seconds
