"""The wheel: pure Python with the shipped tables, installed in a fresh environment it answers as this checkout does.

pasch ships no machine code (issue 24: a module compiled at install for the build host's CPU died with
SIGILL elsewhere). The wheel is ``py3-none-any``; its kernels are compiled by Numba's JIT on the machine
that runs them. Here it is built, installed into a new virtual environment (its dependencies taken from
this one's site-packages, pasch itself only from the wheel), and run with fresh caches: the first answers
come from the shipped tables, a forced build and a simulation compile the kernels, and every answer equals
this checkout's bit for bit. Once more with ``NUMBA_CPU_NAME=generic``: the kernels compiled for a baseline
x86-64 CPU instead of this one (what a machine without this one's instruction-set extensions would run)
give the same bits too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [
    ["advise", "--rules", "yahtzee", "--dice", "13356", "--rolls-left", "2", "--sheet", "ones=3 yahtzee=50", "--json"],
    ["solve", "--rules", "yatzy", "--json"],
    ["solve", "--rules", "kniffel+forced", "--force", "--json"],
    ["simulate", "--rules", "yacht", "--games", "300", "--seed", "4", "--json"],
]
TIMINGS = {"seconds", "build_seconds", "table", "from_cache"}


def _answer(python: str, argv: list[str], tmp: Path, extra: dict[str, str] | None = None) -> Any:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PASCH_"))}
    env |= {"NUMBA_CACHE_DIR": str(tmp / "numba"), "PASCH_CACHE_DIR": str(tmp / "tables"), **(extra or {})}
    code = "import sys; from pasch.cli import main; main()"
    done = subprocess.run([python, "-c", code, *argv], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return {k: v for k, v in data.items() if k not in TIMINGS}


def test_the_wheel_is_pure_python_and_answers_as_the_checkout(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        timeout=900,
    )
    (wheel,) = out.glob("pasch-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd", ".dll", ".dylib"))]
    shipped = {n.rsplit("/", 1)[-1] for n in names if "/solver/tables/" in n}
    assert {"MANIFEST.json", "yahtzee.f32.xz", "yatzy.f32.xz", "kniffel.f32.xz"} <= shipped
    learned = {n.rsplit("/", 1)[-1] for n in names if "/bots/data/" in n}  # models and calibrations
    assert {
        "jetsi.json",
        "kniffel-3.json",
        "jetsi.offsets.json",
        "kniffel-3.offsets.json",
        "kniffel-4.offsets.json",
    } <= learned

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    new_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies come from this environment; pasch only from the wheel (this environment's editable
    # install is a .pth file of its own site directory, which a path added here does not read).
    Path(new_site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True, timeout=900)
    where = subprocess.run(
        [python, "-c", "import pasch; print(pasch.__file__)"], capture_output=True, text=True, check=True
    ).stdout
    assert where.startswith(new_site), where

    for i, argv in enumerate(COMMANDS):
        mine = _answer(sys.executable, argv, tmp_path / f"mine-{i}")
        assert _answer(python, argv, tmp_path / f"wheel-{i}") == mine, argv
        generic = _answer(python, argv, tmp_path / f"generic-{i}", {"NUMBA_CPU_NAME": "generic"})
        assert generic == mine, f"{argv}: kernels compiled for a generic x86-64 CPU answered otherwise"
