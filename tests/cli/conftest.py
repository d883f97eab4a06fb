"""Fixtures for the command-line tests: a Typer runner with every command module loaded."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import pasch.cli

from ._helpers import Invoke


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Every test has its own games database: plain games are saved there after every move."""
    path = tmp_path / "pasch-data"
    monkeypatch.setenv("PASCH_DATA_DIR", str(path))
    yield path


@pytest.fixture(scope="session")
def runner() -> CliRunner:
    """A runner; every command module is imported once, as the console script does."""
    pasch.cli._load()
    return CliRunner()


@pytest.fixture
def invoke(runner: CliRunner) -> Invoke:
    """Run ``pasch ARGS`` in-process, optionally feeding ``input`` on stdin."""

    def run(args: Sequence[str], input: str | None = None) -> Result:
        return runner.invoke(pasch.cli.app, list(args), input=input)

    return run
