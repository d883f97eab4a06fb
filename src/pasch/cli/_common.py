"""Helpers shared by every command module: error handling, JSON output, consoles and sheet rendering.

The command-line contract (``/shared/DESIGN.md``): bad input prints one clear line to stderr and exits
with status 2, never a traceback; ``--json`` prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

import typer
from rich.console import Console
from rich.table import Table

from pasch.app import ColumnLayout, RowKind, sheet_layout
from pasch.engine import GameState, KnasterState, State
from pasch.errors import PaschError
from pasch.i18n import N_, _, box_name

__all__ = [
    "EXIT_BAD_INPUT",
    "SheetView",
    "check_output",
    "console",
    "err_console",
    "fail",
    "guard",
    "notices",
    "print_json",
    "sheet_json",
    "sheet_table",
    "sheet_text",
    "sheet_view",
    "standings_json",
    "standings_text",
    "write_atomic",
]

EXIT_BAD_INPUT = 2
"""Exit status for bad input of any kind (rule set, box, dice, file, action)."""

TEXT = {
    "error": "pasch: error: {message}",
    "notice": "pasch: notice: {message}",
    "interrupted": "pasch: interrupted",
    "upper_sum": N_("upper sum"),
    "bonus": "bonus",
    "bonus_at": N_("bonus ({threshold}+ → {amount})"),
    "extra": N_("extra"),
    "total": N_("total"),
    "grand_total": N_("grand total"),
    "doubled_note": N_("* doubled (sharp: all dice from one throw)"),
    "standings_head": N_("Standings"),
    "standing_row": "{rank:>2}. {name:<{width}} {total:>5}{tie}",
    "tie_mark": N_("  (tie)"),
    "winner": N_("Winner: {names}"),
    "winners_tie": N_("Tie for first place: {names}"),
    "leader": N_("Leading: {names}"),
    "no_sheet": N_("(this game has no box sheet)"),
}


# -- errors --------------------------------------------------------------------------------------
def fail(message: str) -> NoReturn:
    """Print ``pasch: error: MESSAGE`` (one line) to stderr and exit with status 2.

    Raises:
        typer.Exit: always, with code 2.
    """
    line = " ".join(str(message).split())  # one line, whatever the message held
    err_console().print(TEXT["error"].format(message=line), markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code=EXIT_BAD_INPUT)


def _notice(message: Warning | str, category: type[Warning], *_args: object, **_kwargs: object) -> None:
    line = " ".join(str(message).split())
    err_console().print(TEXT["notice"].format(message=line), markup=False, highlight=False, soft_wrap=True)


@contextmanager
def notices() -> Iterator[None]:
    """Show the warnings that are shown at all (a damaged solver cache rebuilt, a read-only cache directory:
    the default filters show each once per place and text) as one ``pasch: notice: ...`` line each on stderr,
    instead of Python's two-line form."""
    with warnings.catch_warnings():
        warnings.showwarning = _notice
        yield


@contextmanager
def guard() -> Iterator[None]:
    """Run a command body so that bad input becomes one line on stderr and exit status 2.

    Catches every :class:`PaschError` (bad rule set, box, dice, action, log), unreadable files
    (:class:`OSError`), invalid JSON and bad option values (:class:`ValueError`), and Ctrl-C. Warnings
    raised meanwhile are shown as notices (:func:`notices`).

    Raises:
        typer.Exit: with code 2 on bad input (130 on Ctrl-C).
    """
    try:
        with notices():
            yield
    except typer.Exit:
        raise
    except PaschError as exc:
        fail(str(exc))
    except BrokenPipeError:
        # The reader went away (``pasch ... | head``): stop quietly, as a killed-by-SIGPIPE tool would.
        with suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter exit from failing again
        raise typer.Exit(code=141) from None
    except json.JSONDecodeError as exc:
        fail(f"invalid JSON: {exc.msg} at line {exc.lineno}")
    except OSError as exc:
        where = f" {exc.filename!r}" if exc.filename else ""
        fail(f"cannot use file{where}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        err_console().print(TEXT["interrupted"], markup=False, highlight=False)
        raise typer.Exit(code=130) from None


def write_atomic(path: Path, text: str) -> None:
    """Write a text file so that a reader never sees half of it: a temporary file beside it, renamed over it
    (the temporary file is removed should the write fail). Only a regular file (or a new one) is written: the
    rename would replace a device file or a symbolic link to one.

    Raises:
        OSError: the file cannot be written.
    """
    if path.exists() and not path.is_file():  # a device, a folder, a pipe: never renamed over
        raise OSError(errno.EEXIST, "it exists and is not a regular file; give the path of a file", str(path))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        with suppress(OSError):
            tmp.unlink()


def check_output(path: Path, option: str) -> None:
    """Refuse, before any work is done, an output path that cannot be written: a folder, something that is not a
    regular file, a file without write permission, or a place under a file or a folder that cannot be written
    (folders that do not exist yet are made when the file is written, so their nearest existing one counts).

    Raises:
        OSError: the path cannot be written; the message names ``option`` and the path.
    """
    if path.is_dir():
        raise OSError(errno.EISDIR, f"{option}: it is a folder; give the path of a file", str(path))
    if path.exists():
        if not path.is_file():
            raise OSError(errno.EEXIST, f"{option}: it exists and is not a regular file", str(path))
        if not os.access(path, os.W_OK):
            raise OSError(errno.EACCES, f"{option}: the file cannot be written", str(path))
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise OSError(errno.ENOTDIR, f"{option}: {folder} is not a folder", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OSError(errno.EACCES, f"{option}: the folder {folder} cannot be written", str(path))


# -- output --------------------------------------------------------------------------------------
def print_json(obj: dict[str, Any]) -> None:
    """Write ``obj`` as exactly one JSON object (and a newline) on stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")
    sys.stdout.flush()


def console(width: int | None = None) -> Console:
    """A Rich console on the current stdout (created per call so test runners' streams are honoured).

    Args:
        width: force a width (wide tables on a pipe, where Rich would assume 80 columns).
    """
    if width is not None and sys.stdout.isatty():
        width = None
    return Console(file=sys.stdout, width=width, highlight=False, soft_wrap=False)


def err_console() -> Console:
    """A Rich console on the current stderr."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


# -- sheets --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SheetView:
    """A sheet game's score sheet as strings, ready for a Rich table or plain text.

    Attributes:
        headers: the label header, then one header per (player, column).
        rows: label, then one cell per (player, column); ``None`` marks a separator line.
        current: index into the value columns of the current player's first column, or None.
        notes: lines printed under the sheet.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...] | None, ...]
    current: int | None
    notes: tuple[str, ...]


def _has_sheet(state: State) -> TypeGuard[GameState]:
    return isinstance(state, GameState)


_ROW_LABEL = {
    RowKind.UPPER_SUM: "upper_sum",
    RowKind.EXTRA: "extra",
    RowKind.TOTAL: "total",
    RowKind.GRAND_TOTAL: "grand_total",
}


def _tr(key: str) -> str:
    """A text of :data:`TEXT` in the current language (English unless a command chose another)."""
    return _(TEXT[key])


def sheet_view(state: GameState, mark_current: bool = True, localized: bool = False) -> SheetView:
    """Lay out every player's columns as strings: every box, upper sum, bonus, extra points and totals.

    The layout (rows, sums, bonus) is :func:`pasch.app.sheet_layout`'s; this only words it.

    Args:
        state: a sheet game's state.
        mark_current: record which player is to act (for highlighting), unless the game is over.
        localized: label the boxes with their names in the current language instead of their ids.
    """
    layout = sheet_layout(state)
    rules = layout.rules
    n_cols = rules.n_columns
    headers = ["", *(_col_header(name, c, n_cols) for name in layout.players for c in range(n_cols))]
    cols = layout.columns

    def cell(col: ColumnLayout, i: int) -> str:
        s = col.scores[i]
        if s is None:
            return ""
        return f"{s}*" if i in col.doubled else str(s)

    sums: dict[RowKind, Callable[[ColumnLayout], str]] = {
        RowKind.UPPER_SUM: lambda c: str(c.upper),
        RowKind.BONUS: lambda c: str(c.bonus),
        RowKind.EXTRA: lambda c: str(c.extra),
        RowKind.TOTAL: lambda c: str(c.total),
        RowKind.GRAND_TOTAL: lambda c: str(layout.grand_totals[c.player]) if c.column == 0 else "",
    }
    rows: list[tuple[str, ...] | None] = []
    prev: RowKind | None = None
    for row in layout.rows:
        if row.kind is RowKind.BOX and row.box is not None:
            if prev is RowKind.BONUS or (prev is RowKind.UPPER_SUM and rules.bonus_threshold is None):
                rows.append(None)
            label = box_name(rules, row.box) if localized else rules.categories[row.box].id
            rows.append((label, *(cell(c, row.box) for c in cols)))
        else:
            if row.kind is RowKind.UPPER_SUM or prev is RowKind.BOX:
                rows.append(None)
            if row.kind is RowKind.BONUS:
                label = _tr("bonus_at").format(threshold=rules.bonus_threshold, amount=rules.bonus)
            else:
                label = _tr(_ROW_LABEL[row.kind])
            rows.append((label, *(sums[row.kind](c) for c in cols)))
        prev = row.kind
    current = None
    if mark_current and layout.current is not None:
        current = layout.current * n_cols
    notes = (_tr("doubled_note"),) if layout.sharp_seen else ()
    return SheetView(tuple(headers), tuple(rows), current, notes)


def _col_header(name: str, column: int, n_cols: int) -> str:
    return name if n_cols == 1 else f"{name} {column + 1}"


def sheet_text(state: State, localized: bool = False) -> str:
    """The score sheet as plain aligned text (no colour, no box drawing).

    Sheet games show every box of every column (``localized``: by the box names of the current language);
    other games (Knaster) show each player's total and, where the state offers one, its own text rendering.
    """
    if not _has_sheet(state):
        return _other_text(state)
    view = sheet_view(state, localized=localized)
    widths = [max(len(r[k]) for r in (view.headers, *(r for r in view.rows if r))) for k in range(len(view.headers))]
    widths = [max(w, 3) for w in widths]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(view.headers), rule]
    for row in view.rows:
        out.append(rule if row is None else line(row))
    out.extend(view.notes)
    return "\n".join(out)


def sheet_table(state: State, title: str | None = None) -> Table:
    """The score sheet as a Rich table (the current player's columns in bold)."""
    table = Table(title=title, show_lines=False, header_style="bold", title_justify="left")
    if not _has_sheet(state):
        table.add_column("player")
        table.add_column("total", justify="right")
        for name, total in zip(state.players, state.totals(), strict=True):
            table.add_row(name, str(total))
        return table
    view = sheet_view(state)
    n_cols = state.rules.n_columns
    table.add_column(view.headers[0])
    for k, header in enumerate(view.headers[1:]):
        bold = view.current is not None and view.current <= k < view.current + n_cols
        table.add_column(header, justify="right", style="bold" if bold else None)
    for row in view.rows:
        if row is None:
            if table.rows:
                table.add_section()
            continue
        table.add_row(*row)
    if view.notes:
        table.caption = " ".join(view.notes)
    return table


def sheet_width(state: State) -> int:
    """Characters needed to show the sheet without wrapping (for consoles on a pipe)."""
    return max(80, max(len(line) for line in sheet_text(state).splitlines()) + 4 * len(state.players) + 16)


def _other_text(state: State) -> str:
    lines: list[str] = []
    if isinstance(state, KnasterState):
        lines.extend(state.render(p) for p in range(len(state.players)))
    else:
        lines.append(_tr("no_sheet"))
    width = max(len(p) for p in state.players)
    for name, total in zip(state.players, state.totals(), strict=True):
        lines.append(f"{name:<{width}}  {total:>5}")
    return "\n".join(lines)


def sheet_json(state: State) -> list[dict[str, Any]]:
    """Every player's sheet as JSON-ready data: boxes by id, upper, bonus, lower, extra, totals; for Knaster
    each player's grid (rows of cells: the number written, or None, and whether it is circled)."""
    players: list[dict[str, Any]] = []
    totals = state.totals()
    layout = sheet_layout(state) if isinstance(state, GameState) else None
    for p, name in enumerate(state.players):
        entry: dict[str, Any] = {"name": name, "total": totals[p]}
        if layout is not None:
            ids = layout.rules.category_ids
            entry["columns"] = [
                {
                    "boxes": dict(zip(ids, col.scores, strict=True)),
                    "doubled": sorted(ids[i] for i in col.doubled),
                    "upper": col.upper,
                    "bonus": col.bonus,
                    "lower": col.lower,
                    "extra": col.extra,
                    "total": col.total,
                }
                for col in layout.player_columns(p)
            ]
        if isinstance(state, KnasterState):
            grid, n = state.grids[p], state.knaster.size
            entry["grid"] = [
                [
                    {"number": grid.numbers[r * n + c] or None, "circled": bool(grid.circled >> (r * n + c) & 1)}
                    for c in range(n)
                ]
                for r in range(n)
            ]
        players.append(entry)
    return players


def standings_json(state: State) -> list[dict[str, Any]]:
    """Rank, name and total for every player, best first (ties share a rank)."""
    out = state.outcome()
    return [{"rank": r, "name": n, "total": t} for r, n, t in out.standings()]


def standings_text(state: State) -> str:
    """Standings as plain text, best first, ties marked, then the winner line."""
    out = state.outcome()
    rows = out.standings()
    width = max(len(n) for _, n, _ in rows)
    ranks = [r for r, _, _ in rows]
    lines = [_tr("standings_head")]
    for rank, name, total in rows:
        tie = _tr("tie_mark") if ranks.count(rank) > 1 else ""
        lines.append(TEXT["standing_row"].format(rank=rank, name=name, width=width, total=total, tie=tie))
    names = ", ".join(out.winners)
    if not out.final:
        lines.append(_tr("leader").format(names=names))
    elif out.is_tie:
        lines.append(_tr("winners_tie").format(names=names))
    else:
        lines.append(_tr("winner").format(names=names))
    return "\n".join(lines)
