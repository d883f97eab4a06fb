"""Command line: ``pasch rules``, ``score``, ``play``, ``replay``, ``solve``, ``advise``, ...

Each command module registers its commands on :data:`pasch.cli._app.app`; importing them here wires them.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence

import typer

try:  # recent Typer releases carry their own copy of Click
    from typer._click import exceptions as cx
except ImportError:  # pragma: no cover - older Typer on Click
    from click import exceptions as cx  # type: ignore[no-redef]

from pasch.cli._app import app

# Which module registers each command, so that a process importing one command module runs that command:
# `pasch solve` then imports neither the bots nor the terminal app's storage and SQLAlchemy (a test
# checks this table against what the modules register). Help, no command or an unknown one load them all.
_COMMAND_MODULE = {
    **dict.fromkeys(("rules", "score", "replay", "play"), "pasch.cli._basic"),
    **dict.fromkeys(("solve", "advise", "review"), "pasch.cli._solver_cmds"),
    **dict.fromkeys(("simulate", "duel"), "pasch.cli._sim_cmds"),
    **dict.fromkeys(("keep", "history"), "pasch.cli._tui_cmds"),
    **dict.fromkeys(("serve", "verify"), "pasch.cli._web_cmds"),
    **dict.fromkeys(("train", "calibrate", "model"), "pasch.cli._train_cmds"),
}
_COMMAND_MODULES = tuple(dict.fromkeys(_COMMAND_MODULE.values()))


def _load(argv: Sequence[str] | None = None) -> None:
    """Import the command modules: the one that registers ``argv``'s command, or every one.

    Args:
        argv: the arguments after the program name; None loads every command module.
    """
    module = _COMMAND_MODULE.get(argv[0]) if argv else None
    for name in (module,) if module is not None else _COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command module not written yet
            if exc.name != name:
                raise


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pasch`` console script.

    Usage errors (an unknown option, a value of the wrong type) follow the command-line contract like every
    other bad input: one line ``pasch: error: ...`` on stderr and exit status 2, with the command to ask
    for help, instead of a framed panel.

    Raises:
        SystemExit: always, with the command's exit status.
    """
    if argv is None:
        # The console script: what the imports made lives as long as the process, so the cyclic
        # garbage collector need not walk it again on every full collection (a measurable share of a
        # short solver command).
        gc.freeze()
        # This process only (a script's own process is its own business): LLVM's level 1 compiles the
        # solver's kernels faster than Numba's default 3, and they run as fast and give the same bits
        # (no fast-math: no level reorders a float operation). bench/coldstart.py measures it.
        os.environ.setdefault("NUMBA_OPT", "1")
    _load(sys.argv[1:] if argv is None else argv)
    try:
        _run(argv)
    finally:
        if argv is None:
            # The console script, about to exit: the interpreter's last garbage collection would walk
            # every object Numba and the command made (longer than a short command itself); it skips frozen
            # ones. Not for callers in a process that goes on (tests, scripts passing ``argv``).
            gc.freeze()


def _run(argv: list[str] | None) -> None:
    try:
        code = app(args=argv, prog_name="pasch", standalone_mode=False)
    except cx.NoArgsIsHelpError as exc:
        exc.show()  # the help text: asked for by giving nothing
        raise SystemExit(0) from None
    except cx.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "pasch"
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"pasch: error: {message} (see '{where} --help')\n")
        raise SystemExit(2) from None
    except cx.ClickException as exc:
        sys.stderr.write(f"pasch: error: {' '.join(exc.format_message().split())}\n")
        raise SystemExit(exc.exit_code) from None
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("pasch: interrupted\n")
        raise SystemExit(130) from None
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
