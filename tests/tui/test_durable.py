"""Every step is saved the moment it is made: a throw survives ``kill -9``, held dice survive a closed window.

The first test plays as a person does: ``pasch play`` runs in a pseudo-terminal of 80x24, a key throws the
dice, and the process is killed (SIGKILL: no handler runs, nothing is flushed on the way out) as soon as the
screen shows the throw. ``--resume`` must then show the same dice with the same throws left: before this was
built, a throw was saved only with the box that ended the turn, and the resumed turn started over with three
throws (a bad throw could be thrown again).
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

from pasch.storage import Repository
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen

from .conftest import drive

DEADLINE = 180.0
"""Seconds to wait for the app in the pseudo-terminal (it imports Textual and numpy on a busy machine)."""

_CSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[@-_][0-?]*")


class Terminal:
    """A program in a pseudo-terminal of a given size: keys in, the screen's text out (escapes removed)."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        master, slave = os.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.master = master
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.seen = ""

    def wait_for(self, text: str, since: int = 0) -> int:
        """Read the screen until ``text`` shows (after position ``since``); returns where it ends."""
        deadline = time.monotonic() + DEADLINE
        while True:
            at = self.seen.find(text, since)
            if at >= 0:
                return at + len(text)
            left = deadline - time.monotonic()
            assert left > 0 and self.proc.poll() is None, f"{text!r} never showed; the screen had:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                self.seen += _CSI.sub("", chunk.decode("utf-8", "replace"))

    def press(self, keys: str) -> None:
        """Type ``keys``."""
        os.write(self.master, keys.encode())

    def kill(self) -> None:
        """``kill -9`` the program."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=60)
        os.close(self.master)


def _pasch() -> list[str]:
    exe = Path(sys.executable).with_name("pasch")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-c", "import sys; from pasch.cli import main; sys.exit(main())"]


def test_a_throw_survives_kill_9(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "PASCH_DATA_DIR": str(data), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    term = Terminal([*_pasch(), "play", "--rules", "kniffel", "--players", "Ada", "--seed", "5", "--lang", "en"], env)
    try:
        start = term.wait_for("3 throws left")
        term.press(" ")
        term.wait_for("2 throws left", start)
    finally:
        term.kill()
    expected = Session.new("kniffel", parse_seats("Ada"), seed=5)
    expected.throw()
    dice = expected.match.state.dice

    app = PaschApp(resume=True, bot_delay=0, data_dir=data, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        st = screen.state
        assert st.dice == dice and st.throws_left == 2
        assert "2 throws left" in screen.turn_text()

    drive(app, body, size=(80, 24))


def test_held_dice_come_back_on_resume(tmp_path: Path) -> None:
    app = PaschApp(rules="kniffel", players="Ada, Bob", bot_delay=0, data_dir=tmp_path, seed=9, lang="en")
    shown: dict[str, Any] = {}

    async def play(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await pilot.press("space", "2", "4", "r", "1", "4")  # held: 2 and 4, re-thrown; then 1 held, 4 let go
        await pilot.pause()
        shown.update(faces=screen.session.faces, holds=screen.session.holds, dice=screen.state.dice)
        # the window is closed here: no quit key, nothing saved on the way out

    drive(app, play)
    assert shown["holds"] == (True, True, False, False, False)

    again = PaschApp(resume=True, bot_delay=0, data_dir=tmp_path, lang="en")

    async def resumed(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        assert screen.session.faces == shown["faces"] and screen.session.holds == shown["holds"]
        assert screen.state.throws_left == 1
        await pilot.press("r")  # the held dice stay where they lie
        assert screen.session.faces[:2] == shown["faces"][:2] and screen.session.holds[:2] == (True, True)

    drive(again, resumed)


def test_a_bot_step_and_an_undo_are_saved(tmp_path: Path) -> None:
    app = PaschApp(rules="kniffel", players="Ada, bot:greedy", bot_delay=0, data_dir=tmp_path, seed=4, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await pilot.press("space", "1")
        with Repository(directory=tmp_path) as repo:
            (rec,) = repo.games()
        assert rec.log.actions == tuple(screen.session.match.actions)
        assert rec.log.meta["table"]["holds"][0] is True
        await pilot.press("u")  # the hold taken back: saved too
        with Repository(directory=tmp_path) as repo:
            (rec,) = repo.games()
        assert rec.log.meta["table"]["holds"][0] is False

    drive(app, body)
