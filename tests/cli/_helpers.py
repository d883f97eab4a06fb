"""Helpers for the command-line tests."""

from __future__ import annotations

from collections.abc import Callable

from typer.testing import Result

Invoke = Callable[..., Result]


def assert_bad_input(result: Result, *needles: str) -> None:
    """Exit status 2, exactly one message line on stderr naming every needle, no traceback, empty stdout."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr
    assert "Traceback" not in result.output
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("pasch: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, err)
    assert result.stdout == "", result.stdout
