"""The console script's entry point: the exit it takes."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pasch.cli import main


@pytest.mark.parametrize(("argv", "frozen"), [(None, 2), (["rules"], 0)])
def test_only_the_console_script_freezes_the_heap_before_exiting(
    monkeypatch: pytest.MonkeyPatch, argv: list[str] | None, frozen: int
) -> None:
    """``gc.freeze`` at the start spares later collections the imported objects, at the end the exiting
    interpreter's last collection; a caller that goes on keeps its gc."""
    calls: list[None] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(None))
    monkeypatch.setattr("sys.argv", ["pasch", "rules"])
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    assert len(calls) == frozen


def test_the_console_script_freezes_also_when_the_command_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[None] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(None))
    monkeypatch.setattr("sys.argv", ["pasch", "rules", "show", "no-such-rules"])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    assert calls == [None, None]


def test_the_solver_loads_with_the_garbage_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading kernels and building a table with the cyclic collector off; as it was afterwards."""
    from pasch.cli import _solving
    from pasch.rules import get

    seen: list[bool] = []
    monkeypatch.setattr("pasch.solver.Solver.load", lambda *a, **k: seen.append(gc.isenabled()) or "solver")
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            assert _solving.load_solver(get("yahtzee+forced")) == "solver"
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert seen == [False, False]


_REGISTERS = """
import importlib, json, sys
import typer.main
from pasch.cli import _COMMAND_MODULES
from pasch.cli._app import app
seen, out = set(), {}
for name in _COMMAND_MODULES:
    importlib.import_module(name)
    now = set(typer.main.get_command(app).commands)
    out.update(dict.fromkeys(sorted(now - seen), name))
    seen = now
print(json.dumps(out))
"""


def test_the_command_table_names_the_module_that_registers_each_command() -> None:
    from pasch.cli import _COMMAND_MODULE

    done = subprocess.run([sys.executable, "-c", _REGISTERS], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout) == _COMMAND_MODULE


_SOLVE = """
import sys
from pasch.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(code, sorted(m for m in ("numba", "pasch.bots", "pasch.storage", "sqlalchemy", "textual") if m in sys.modules))
"""


@pytest.mark.parametrize(
    ("argv", "numba"),
    [
        (["solve", "--rules", "yacht", "--json"], False),  # the shipped table
        (["advise", "--rules", "yatzy", "--dice", "13356", "--rolls-left", "2"], False),  # answered in numpy
        (["simulate", "--rules", "yacht", "--games", "50"], True),  # the simulation kernel
    ],
)
def test_a_solver_command_imports_only_what_it_needs(argv: list[str], numba: bool, tmp_path: Path) -> None:
    """No storage, bots or terminal app; and no Numba where the shipped table and numpy answer."""
    env = {**os.environ, "PASCH_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _SOLVE, *argv], env=env, capture_output=True, text=True, timeout=600)
    code, imported = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert code == "0", done.stderr
    assert imported == ("['numba']" if numba else "[]")
