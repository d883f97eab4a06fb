"""Files the command line touches (issue 26): ``--save`` writes only a regular file, ``keep`` ends on EOF."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

_MAIN = "from pasch.cli import main; main()"


def _pasch(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _MAIN, *argv], input=stdin, capture_output=True, text=True, timeout=300
    )


def test_save_refuses_a_device_and_a_folder(tmp_path: Path) -> None:
    """It renamed its log over whatever was at the path, a device file included."""
    done = _pasch("play", "--rules", "yacht", "--save", "/dev/null")
    assert done.returncode == 2 and "'/dev/null': it exists and is not a regular file" in done.stderr
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)  # still the device
    folder = tmp_path / "logs"
    folder.mkdir()
    done = _pasch("play", "--rules", "yacht", "--save", str(folder))
    assert done.returncode == 2 and "not a regular file" in done.stderr and folder.is_dir()
    log = tmp_path / "game.json"
    done = _pasch("play", "--rules", "yacht", "--save", str(log), stdin="roll\n")
    assert done.returncode == 0 and log.is_file()  # a file: written after every move


@pytest.mark.parametrize("stdin", ["", "enter 1 2 3 4 5\n"])
def test_keep_ends_at_the_end_of_its_input(stdin: str) -> None:
    """It never exited when its input was a closed pipe: off a terminal it is the line-based keeper."""
    done = _pasch("keep", "--rules", "yacht", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "end of input" in done.stdout
