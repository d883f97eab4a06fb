"""What the solver commands share (:mod:`pasch.cli._solver_cmds`: ``solve``, ``advise``, ``review``;
:mod:`pasch.cli._sim_cmds`: ``simulate``, ``duel``; the seed bound also :mod:`pasch.cli._train_cmds`): the common
option texts and bounds, the single-column check, the solver loaded with its progress and compile notice, and the
announcement of a large table build."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pasch.cli._common import console
from pasch.errors import RuleSetError
from pasch.rules import RuleSet, get

__all__ = [
    "ANNOUNCE_BYTES",
    "JSON_HELP",
    "MAX_SEED",
    "RULES_HELP",
    "announce_tables",
    "announce_win_tables",
    "compile_notice",
    "load_solver",
    "single_column",
    "single_column_rules",
]

MAX_SEED = 2**63 - 1
"""The largest seed (NumPy seeds the optimal bot's simulation with a signed 64-bit value)."""
RULES_HELP = "Rule set, e.g. yahtzee, kniffel+forced, yatzy (single column)."
JSON_HELP = "Print one JSON object on stdout."


def single_column_rules(text: str) -> RuleSet:
    """The rule set ``text`` names, which the solver must handle (one column).

    Raises:
        RuleSetError: an unknown rule set, or one of several columns.
    """
    return single_column(get(text))


def single_column(rules: RuleSet) -> RuleSet:
    """``rules`` itself, which must have one column.

    Raises:
        RuleSetError: it has several.
    """
    if len(rules.columns) != 1:
        raise RuleSetError(f"{rules.id}: the solver handles single-column rule sets only")
    return rules


@contextmanager
def compile_notice(on: bool = True) -> Iterator[None]:
    """Within this block, a solver kernel that takes long to compile says so once on stderr (if ``on``).

    Numba compiles a kernel on its first use on an install (then it loads it from its disk cache); the
    notice comes only when that takes a while (see :func:`pasch.solver.on_compile`).
    """
    from pasch.cli._common import err_console
    from pasch.solver import on_compile

    if not on:
        yield
        return
    told: list[str] = []

    def tell(message: str) -> None:
        if not told:
            told.append(message)
            err_console().print(f"pasch: {message} (once; Numba keeps it in its cache)…")

    remove = on_compile(tell)
    try:
        yield
    finally:
        remove()


def load_solver(rules: RuleSet, force: bool = False, show_progress: bool = False) -> Any:
    """The solver of ``rules``, loaded from the cache or built (``force``: built again), with a progress bar on the
    terminal when ``show_progress``; the garbage collector paused meanwhile."""
    with _gc_paused():
        return _load_solver(rules, force, show_progress)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a while (as it was after): loading kernels from Numba's
    cache and building a table make many objects, few of them garbage, and collecting them is pure
    overhead for a short command."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _load_solver(rules: RuleSet, force: bool, show_progress: bool) -> Any:
    from pasch.solver import Solver, on_compile

    if not show_progress:
        return Solver.load(rules, force=force)
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    solving = f"solving {rules.id}"
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True, console=console()) as bar:
        task = bar.add_task(solving, total=len(rules.categories))

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, description=solving)

        def compiling(message: str) -> None:  # the bar says it instead of a line under it
            bar.update(task, description=f"{message} (once)")

        remove = on_compile(compiling)
        try:
            return Solver.load(rules, force=force, progress=progress)
        finally:
            remove()


ANNOUNCE_BYTES = 50 * 1024 * 1024
"""A table build whose files take more than this is announced, with its size, before it starts."""


def announce_tables(files: Any, paths: tuple[Any, ...]) -> None:
    """Say on stderr, before a build starts, what the threshold (and survival) tables about to be built take:
    disk, and memory while they are built (twice one table for the float table being built, and one more for a
    table built before it in the same process). Nothing when they are stored already or small."""
    missing = [path for path in paths if not files.stored(path)]
    size = files.table_nbytes * len(missing)
    if not missing or size <= ANNOUNCE_BYTES:
        return
    from pasch.cli._common import err_console

    kinds = " and ".join("threshold" if path == files.target else "survival" for path in missing)
    err_console().print(
        f"pasch: building the {kinds} table{'s' if len(missing) > 1 else ''} of {files.rules} once: "
        f"{size / 1e6:,.0f} MB on disk, about {(1 + len(missing)) * files.table_nbytes / 1e9:.1f} GB of memory "
        "while built "
        "(half a minute or more for a full-size rule set; then cached)…",
        highlight=False,
    )


def announce_win_tables(rules: RuleSet) -> None:
    """:func:`announce_tables` for ``bot:win``'s two tables of ``rules``."""
    from pasch.solver import shared_solver, win_files

    files = win_files(shared_solver(rules))
    announce_tables(files, (files.target, files.survival))
