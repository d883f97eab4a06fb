"""``pasch serve``'s process settings (``pasch.cli._web_cmds``): its own process only, never a library user's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_collector_is_tuned_by_the_server_command_and_not_by_importing(tmp_path: Path) -> None:
    # A program that imports the CLI and builds the web application keeps Python's collector thresholds; the
    # serve command's own process gets the server's (its young generation collected 70 times less often).
    url = f"sqlite:///{tmp_path / 'x.db'}"
    code = (
        "import gc, sys; before = gc.get_threshold()\n"
        "import pasch.cli, pasch.cli._web_cmds as w, pasch.web as web\n"
        f"web.create_app({url!r})\n"
        "print(gc.get_threshold() == before)\n"
        "w._tune_collector(); print(gc.get_threshold())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split("\n")[:2] == ["True", "(50000, 20, 10)"]
