"""The console script's entry point: the exit it takes."""

from __future__ import annotations

import gc

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
    from pasch.cli import _solver_cmds
    from pasch.rules import get

    seen: list[bool] = []
    monkeypatch.setattr("pasch.solver.Solver.load", lambda *a, **k: seen.append(gc.isenabled()) or "solver")
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            assert _solver_cmds._solver(get("yahtzee+forced")) == "solver"
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert seen == [False, False]
