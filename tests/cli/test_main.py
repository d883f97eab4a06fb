"""The console script's entry point: the exit it takes."""

from __future__ import annotations

import gc

import pytest

from pasch.cli import main


@pytest.mark.parametrize(("argv", "frozen"), [(None, 1), (["rules"], 0)])
def test_only_the_console_script_freezes_the_heap_before_exiting(
    monkeypatch: pytest.MonkeyPatch, argv: list[str] | None, frozen: int
) -> None:
    """``gc.freeze`` spares the exiting interpreter's last collection; a caller that goes on keeps its gc."""
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
    assert calls == [None]
