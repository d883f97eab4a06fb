"""Build hook: compile the solver's first-answer kernels ahead of time into the wheel (``pasch.solver._aot``).

``pip install`` runs it while building the wheel (an editable install too). It runs
``python -m pasch.solver._aot`` on the sources in a subprocess of the build environment, which has Numba
(``[build-system] requires``), and takes about ten seconds. It never fails the install: without a C
compiler, or with ``PASCH_AOT=0``, the package installs without the module and the solver compiles its
kernels on first use, as before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class AheadOfTimeKernels(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles ``pasch/solver/_aotkernels`` (and its source stamp) for the wheel being built."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("PASCH_AOT") == "0":
            return
        src = Path(self.root) / "src"
        # An editable install imports the package from src/: the module goes there (git ignores it).
        out = src / "pasch" / "solver" if version == "editable" else Path(tempfile.mkdtemp(prefix="pasch-aot-"))
        # src/ first, before what pip's build isolation puts on the path (Numba and numpy live there).
        path = os.pathsep.join(p for p in (str(src), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path, "PASCH_AOT": "0", "NUMBA_CACHE_DIR": tempfile.mkdtemp()}
        try:
            done = subprocess.run(
                [sys.executable, "-m", "pasch.solver._aot", str(out)],
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            self.app.display_warning(f"pasch: kernels not compiled ahead of time ({exc}); they compile on first use")
            return
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
            self.app.display_warning(
                f"pasch: kernels not compiled ahead of time ({tail[0]}); they compile on first use"
            )
            return
        module = Path(done.stdout.strip().splitlines()[-1])
        build_data["pure_python"] = False  # a wheel for this platform and Python
        build_data["infer_tag"] = True
        if version != "editable":
            for path in (module, Path(str(module) + ".stamp")):
                build_data["force_include"][str(path)] = f"pasch/solver/{path.name}"
