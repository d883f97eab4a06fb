"""Helpers shared by every command module: error handling, JSON output, consoles and sheet rendering.

The command-line contract (``/shared/DESIGN.md``): bad input prints one clear line to stderr and exits
with status 2, never a traceback; ``--json`` prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from pasch.errors import PaschError
from pasch.rules import GameKind, RuleSet

__all__ = [
    "EXIT_BAD_INPUT",
    "SheetView",
    "console",
    "err_console",
    "fail",
    "guard",
    "print_json",
    "sheet_json",
    "sheet_table",
    "sheet_text",
    "sheet_view",
    "standings_json",
    "standings_text",
]

EXIT_BAD_INPUT = 2
"""Exit status for bad input of any kind (rule set, box, dice, file, action)."""

TEXT = {
    "error": "pasch: error: {message}",
    "interrupted": "pasch: interrupted",
    "upper_sum": "upper sum",
    "bonus": "bonus",
    "bonus_at": "bonus ({threshold}+ → {amount})",
    "extra": "extra",
    "total": "total",
    "grand_total": "grand total",
    "doubled_note": "* doubled (sharp: all dice from one throw)",
    "standings_head": "Standings",
    "standing_row": "{rank:>2}. {name:<{width}} {total:>5}{tie}",
    "tie_mark": "  (tie)",
    "winner": "Winner: {names}",
    "winners_tie": "Tie for first place: {names}",
    "leader": "Leading: {names}",
    "no_sheet": "(this game has no box sheet)",
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


@contextmanager
def guard() -> Iterator[None]:
    """Run a command body so that bad input becomes one line on stderr and exit status 2.

    Catches every :class:`PaschError` (bad rule set, box, dice, action, log), unreadable files
    (:class:`OSError`), invalid JSON and bad option values (:class:`ValueError`), and Ctrl-C.

    Raises:
        typer.Exit: with code 2 on bad input (130 on Ctrl-C).
    """
    try:
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


def _has_sheet(state: Any) -> bool:
    return getattr(state.rules, "kind", None) is GameKind.SHEET and hasattr(state, "sheets")


def sheet_view(state: Any, mark_current: bool = True) -> SheetView:
    """Lay out every player's columns: every box, upper sum, bonus, extra points and totals.

    Args:
        state: a sheet game's state (``pasch.engine.GameState``).
        mark_current: record which player is to act (for highlighting), unless the game is over.
    """
    rules: RuleSet = state.rules
    n_cols = rules.n_columns
    players: Sequence[str] = state.players
    headers = ["", *(_col_header(name, c, n_cols) for name in players for c in range(n_cols))]
    sharp_seen = False
    rows: list[tuple[str, ...] | None] = []

    def cell(p: int, c: int, i: int) -> str:
        nonlocal sharp_seen
        col = state.sheets[p].columns[c]
        s = col.scores[i]
        if s is None:
            return ""
        if i in col.doubled:
            sharp_seen = True
            return f"{s}*"
        return str(s)

    cats = rules.categories
    upper = [i for i, cat in enumerate(cats) if cat.is_upper]
    lower = [i for i, cat in enumerate(cats) if not cat.is_upper]
    pcs = [(p, c) for p in range(len(players)) for c in range(n_cols)]
    for i in upper:
        rows.append((cats[i].id, *(cell(p, c, i) for p, c in pcs)))
    totals = {(p, c): state.column_totals(p, c) for p, c in pcs}
    if upper:
        rows.append(None)
        rows.append((TEXT["upper_sum"], *(str(totals[pc].upper) for pc in pcs)))
        if rules.bonus_threshold is not None:
            label = TEXT["bonus_at"].format(threshold=rules.bonus_threshold, amount=rules.bonus)
            rows.append((label, *(str(totals[pc].bonus) for pc in pcs)))
        rows.append(None)
    for i in lower:
        rows.append((cats[i].id, *(cell(p, c, i) for p, c in pcs)))
    rows.append(None)
    if any(t.extra for t in totals.values()) or _has_extra_rule(rules):
        rows.append((TEXT["extra"], *(str(totals[pc].extra) for pc in pcs)))
    rows.append((TEXT["total"], *(str(totals[pc].total) for pc in pcs)))
    if n_cols > 1:
        grand: list[str] = []
        for p, c in pcs:
            grand.append(str(state.total(p)) if c == 0 else "")
        rows.append((TEXT["grand_total"], *grand))
    current = None
    if mark_current and not state.is_terminal:
        current = state.current * n_cols
    notes = (TEXT["doubled_note"],) if sharp_seen else ()
    return SheetView(tuple(headers), tuple(rows), current, notes)


def _has_extra_rule(rules: RuleSet) -> bool:
    return rules.extra.value != "none"


def _col_header(name: str, column: int, n_cols: int) -> str:
    return name if n_cols == 1 else f"{name} {column + 1}"


def sheet_text(state: Any) -> str:
    """The score sheet as plain aligned text (no colour, no box drawing).

    Sheet games show every box of every column; other games (Knaster) show each player's total and,
    where the state offers one, its own text rendering.
    """
    if not _has_sheet(state):
        return _other_text(state)
    view = sheet_view(state)
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


def sheet_table(state: Any, title: str | None = None) -> Table:
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


def sheet_width(state: Any) -> int:
    """Characters needed to show the sheet without wrapping (for consoles on a pipe)."""
    return max(80, max(len(line) for line in sheet_text(state).splitlines()) + 4 * len(state.players) + 16)


def _other_text(state: Any) -> str:
    render = getattr(state, "render", None)
    lines: list[str] = []
    if callable(render):
        for p in range(len(state.players)):
            try:
                lines.append(str(render(p)))
            except TypeError:  # a drawing of the whole state only
                lines.append(str(render()))
                break
    else:
        lines.append(TEXT["no_sheet"])
    width = max(len(p) for p in state.players)
    for name, total in zip(state.players, state.totals(), strict=True):
        lines.append(f"{name:<{width}}  {total:>5}")
    return "\n".join(lines)


def sheet_json(state: Any) -> list[dict[str, Any]]:
    """Every player's sheet as JSON-ready data: boxes by id, upper, bonus, lower, extra, totals."""
    players: list[dict[str, Any]] = []
    for p, name in enumerate(state.players):
        entry: dict[str, Any] = {"name": name, "total": state.totals()[p]}
        if _has_sheet(state):
            columns = []
            for c, col in enumerate(state.sheets[p].columns):
                t = state.column_totals(p, c)
                columns.append(
                    {
                        "boxes": dict(zip(state.rules.category_ids, col.scores, strict=True)),
                        "doubled": sorted(state.rules.categories[i].id for i in col.doubled),
                        "upper": t.upper,
                        "bonus": t.bonus,
                        "lower": t.lower,
                        "extra": t.extra,
                        "total": t.total,
                    }
                )
            entry["columns"] = columns
        players.append(entry)
    return players


def standings_json(state: Any) -> list[dict[str, Any]]:
    """Rank, name and total for every player, best first (ties share a rank)."""
    out = state.outcome()
    return [{"rank": r, "name": n, "total": t} for r, n, t in out.standings()]


def standings_text(state: Any) -> str:
    """Standings as plain text, best first, ties marked, then the winner line."""
    out = state.outcome()
    rows = out.standings()
    width = max(len(n) for _, n, _ in rows)
    ranks = [r for r, _, _ in rows]
    lines = [TEXT["standings_head"]]
    for rank, name, total in rows:
        tie = TEXT["tie_mark"] if ranks.count(rank) > 1 else ""
        lines.append(TEXT["standing_row"].format(rank=rank, name=name, width=width, total=total, tie=tie))
    names = ", ".join(out.winners)
    if not out.final:
        lines.append(TEXT["leader"].format(names=names))
    elif out.is_tie:
        lines.append(TEXT["winners_tie"].format(names=names))
    else:
        lines.append(TEXT["winner"].format(names=names))
    return "\n".join(lines)
