"""Numba's disk cache follows every kernel module's source, not only the defining file's (issue 24's class).

Numba invalidates a cached function when its own file changes, not when a file it calls into changes; a
kernel linked with an old callee answered with the old code, silently (``_kduel``'s duel kernel kept an old
``_kwin`` decision rule after ``_kwin.py`` was edited). :mod:`pasch.solver._cachestamp` removes the kernels'
cache files when the digest of all kernel sources differs from the stamp beside the cache.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

from pasch.solver import _cachestamp, _kparts

SOLVER = Path(_kparts.__file__).parent


def _write(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_changed_callee_in_another_file_is_not_answered_from_the_old_cache(tmp_path: Path) -> None:
    """The failure itself, on a two-module toy package laid out like the solver's kernels: ``_kb.g`` calls
    ``_ka.f``; after ``_ka.py`` changes, a fresh process must compute with the new ``f``."""
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    ka = """
        from pathlib import Path
        from numba import njit
        from pasch.solver import _cachestamp

        @njit(cache=True)
        def f(x):
            return x + {step}

        _cachestamp.refresh_for(f, Path(__file__).parent)
        """
    _write(pkg / "_ka.py", ka.format(step=1))
    _write(
        pkg / "_kb.py",
        """
        from numba import njit
        from toy._ka import f

        @njit(cache=True)
        def g(x):
            return f(x) * 10
        """,
    )

    def run() -> str:
        code = "from toy._kb import g; print(g(1))"
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
        return out.stdout.strip()

    assert run() == "20"
    assert any(p.suffix == ".nbi" and p.name.startswith("_kb.") for p in (pkg / "__pycache__").iterdir())
    # Same size, so that only the content differs (Numba's own check reads the time stamp and the size).
    _write(pkg / "_ka.py", ka.format(step=2))
    assert run() == "30"
    assert run() == "30"  # and the fresh cache is used again


def test_refresh_removes_only_the_kernels_cache_files_and_only_when_the_digest_changes(tmp_path: Path) -> None:
    kept = ["_jit.ensure-9.py311.nbi", "other.f-1.py311.nbi", "_kparts.cpython-311.pyc"]
    cached = ["_kduel._duel-40.py311.nbi", "_kduel._duel-40.py311.1.nbc", "_kwin._win_turn-7.py312.3.nbc"]
    for name in kept + cached:
        (tmp_path / name).write_bytes(b"x")
    assert _cachestamp.refresh(tmp_path, "a" * 64) == len(cached)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*kept, _cachestamp.STAMP])
    for name in cached:
        (tmp_path / name).write_bytes(b"x")
    assert _cachestamp.refresh(tmp_path, "a" * 64) == 0  # the stamp matches: the cache is current
    assert _cachestamp.refresh(tmp_path, "b" * 64) == len(cached)
    assert (tmp_path / _cachestamp.STAMP).read_text().strip() == "b" * 64


def test_the_digest_covers_every_solver_module_that_defines_a_kernel() -> None:
    """A kernel module outside ``_k*.py`` would escape the digest: every file of the solver with an ``@njit``
    decorator is one of :func:`kernel_sources`, and a change of any of them changes the digest."""
    sources = _cachestamp.kernel_sources()
    with_kernels = sorted(p for p in SOLVER.glob("*.py") if re.search(r"^@njit", p.read_text(), re.MULTILINE))
    assert with_kernels and set(with_kernels) <= set(sources)
    assert SOLVER / "_kwin.py" in sources and SOLVER / "_kduel.py" in sources
    whole = _cachestamp.digest(sources)
    assert _cachestamp.digest(sources[1:]) != whole


def test_importing_the_kernels_left_a_current_stamp_beside_their_cache() -> None:
    path = _kparts._rows.stats.cache_path
    stamp = Path(path) / _cachestamp.STAMP
    assert stamp.read_text().strip() == _cachestamp.digest(_cachestamp.kernel_sources())
