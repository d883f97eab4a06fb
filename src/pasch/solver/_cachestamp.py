"""Numba's disk cache of the solver's kernels, kept in step with *all* their sources.

Private. Numba invalidates a cached kernel when the file that defines it changes (its time stamp and size),
but not when a file it calls into changes: ``_kduel``'s duel kernel calls ``_kwin``'s decision and
``_kparts``' pieces, and is linked with them, so after an edit of ``_kwin.py`` (a development tree, or an
install whose unchanged files keep their time stamps) it kept the old decision rule — wrong answers, no
error. This module makes the cache's validity depend on the sources of every kernel module at once: a stamp
file beside the cache holds a digest of them, and when the digest differs the cached kernels of these
modules are removed before any is loaded (Numba then compiles them afresh and writes them back).

Only pasch's own cache files (``_k*.*.nbi``/``.nbc`` in the directory Numba's locator chose for this
package) are touched; nothing in the process changes. Called once, when ``_kparts`` (which every kernel
module imports) is imported.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

__all__ = ["KERNEL_FILE", "STAMP", "digest", "kernel_sources", "refresh", "refresh_for"]

STAMP = "pasch-kernels.stamp"
"""The stamp file's name in the cache directory."""

KERNEL_FILE = re.compile(r"^_k[a-z0-9_]*\.[^.]+\.py\d+\.(?:\d+\.)?nb[ic]$")
"""Numba's cache files of the kernel modules (``<module>.<function>-<line>.py311.nbi`` and ``….1.nbc``)."""


def kernel_sources(directory: Path | None = None) -> list[Path]:
    """The solver's kernel modules: every ``_k*.py`` beside this one (sorted)."""
    here = directory if directory is not None else Path(__file__).parent
    return sorted(here.glob("_k*.py"))


def digest(sources: list[Path]) -> str:
    """A digest of the kernels' sources (names and bytes) and the Python version the cache is for."""
    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}\n".encode())
    for p in sources:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def refresh(cache_dir: str | os.PathLike[str], want: str) -> int:
    """Remove the kernels' cache files in ``cache_dir`` unless its stamp says ``want``; then write the stamp.

    Returns how many files were removed. A directory that cannot be read or written is left alone (Numba
    cannot have cached anything there either)."""
    folder = Path(cache_dir)
    stamp = folder / STAMP
    try:
        if stamp.read_text(encoding="ascii").strip() == want:
            return 0
    except (OSError, UnicodeDecodeError):
        pass
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    for name in names:
        if KERNEL_FILE.match(name):
            try:
                (folder / name).unlink()
                removed += 1
            except FileNotFoundError:  # another process removed it first
                pass
            except OSError:
                return removed  # not ours to change (a read-only install): leave the stamp too
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".stamp-", dir=folder)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(want + "\n")
        os.replace(tmp, stamp)
    except OSError:
        pass
    return removed


def refresh_for(kernel: object, directory: Path | None = None) -> int:
    """:func:`refresh` for the cache directory Numba chose for ``kernel`` (a cached ``@njit`` function of the
    kernel modules in ``directory``, by default the solver's); nothing when the JIT is off or the kernel is not
    cached."""
    stats = getattr(kernel, "stats", None)
    path = getattr(stats, "cache_path", None)
    if not path:
        return 0
    return refresh(path, digest(kernel_sources(directory)))
