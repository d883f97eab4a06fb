"""Command line: ``pasch rules``, ``score``, ``play``, ``replay``, ``solve``, ``advise``, ...

Each command module registers its commands on :data:`pasch.cli._app.app`; importing them here wires them.
"""

from __future__ import annotations

import importlib

from pasch.cli._app import app

_COMMAND_MODULES = ("pasch.cli._basic", "pasch.cli._solver_cmds", "pasch.cli._tui_cmds", "pasch.cli._web_cmds")


def _load() -> None:
    for name in _COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command module not written yet
            if exc.name != name:
                raise


def main() -> None:
    """Entry point of the ``pasch`` console script."""
    _load()
    app()


__all__ = ["app", "main"]
