"""Hints: every option's value from the solver, best marked; computed off the UI thread.

The exact values come from ``pasch.solver`` (single-column rule sets): every legal option with the
expected final score of the column if the player takes it and plays optimally afterwards. Where the
solver has no table (multi-column games) the hint lists what each box pays now and says so.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pasch.errors import PaschError
from pasch.i18n import _, box_name

__all__ = ["HintRow", "Hints", "SolverUnavailableError", "compute_hints", "hint_label"]

Progress = Callable[[int, int], None]


class SolverUnavailableError(Exception):
    """The solver (or its query API) is not installed."""


@dataclass(frozen=True, slots=True)
class HintRow:
    """One option: its action text, a label, its value and whether it is the best."""

    action: str
    label: str
    value: float
    best: bool = False


@dataclass(frozen=True, slots=True)
class Hints:
    """The options, best first; ``exact`` when the values are the solver's."""

    rows: tuple[HintRow, ...]
    exact: bool
    note: str = ""


def hint_label(state: Any, action: Any) -> str:
    """An action in words, in the current language (``Full house (2)``, ``keep 3 3``)."""
    text = str(action)
    words = text.split()
    if words[0] == "score":
        col, _sep, cat = words[1].rpartition(":")
        name = box_name(state.rules, cat)
        return f"{name} ({col})" if col else name
    if words[0] == "keep":
        return _("keep {dice}").format(dice=" ".join(words[1:])) if len(words) > 1 else _("throw all again")
    if words[0] == "announce":
        return _("announce {box}").format(box=box_name(state.rules, words[1]))
    return text


_SOLVERS: dict[str, Any] = {}
_LOCK = threading.Lock()


def _solver_for(rules: Any, progress: Progress | None) -> Any:
    """The solver of a rule set, loaded (or built, reporting progress) once per process."""
    with _LOCK:
        got = _SOLVERS.get(rules.id)
        if got is None:
            try:
                solver_mod = importlib.import_module("pasch.solver")
            except ImportError as exc:
                raise SolverUnavailableError(str(exc)) from None
            try:
                got = solver_mod.Solver.load(rules, progress=progress)
            except PaschError as exc:  # multi-column games and Knaster have no table
                raise SolverUnavailableError(str(exc)) from None
            _SOLVERS[rules.id] = got
        return got


def _solver_values(state: Any, progress: Progress | None) -> list[tuple[str, float]]:
    """Each legal option's expected final score of the column (points so far + expected rest)."""
    rules = state.rules
    if rules.n_columns != 1 or state.dice is None or state.announced is not None:
        raise SolverUnavailableError("the solver plays single-column sheets")
    solver = _solver_for(rules, progress)
    col = state.sheets[state.current].columns[0]
    base = state.column_totals(state.current, 0).total
    options = solver.options(list(col.scores), list(state.dice), int(state.throws_left), sharp=bool(state.sharp))
    return [(o.action_text, base + float(o.value)) for o in options]


def compute_hints(state: Any, progress: Progress | None = None) -> Hints:
    """The hint table for ``state`` (call it in a worker: the solver may build its table first)."""
    try:
        values = _solver_values(state, progress)
    except SolverUnavailableError:
        values = []
    if values:
        values.sort(key=lambda av: -av[1])
        best = values[0][1]
        rows = tuple(HintRow(str(a), hint_label(state, a), v, abs(v - best) < 1e-9) for a, v in values)
        return Hints(rows, exact=True, note=_("Expected final score of this sheet with optimal play from here."))
    options = list(state.score_options())
    multi = state.rules.n_columns > 1
    rows_l: list[HintRow] = []
    for n, (c, opt) in enumerate(options, start=1):
        cid = state.rules.categories[opt.index].id
        action = f"score {c + 1}:{cid}" if multi else f"score {cid}"
        rows_l.append(HintRow(action, hint_label(state, action), float(opt.total)))
        if progress is not None:
            progress(n, len(options))
    rows_l.sort(key=lambda r: -r.value)
    if rows_l:
        top = rows_l[0].value
        rows_l = [HintRow(r.action, r.label, r.value, r.value == top) for r in rows_l]
    note = _("Exact values need the solver; showing the points each box pays now.")
    return Hints(tuple(rows_l), exact=False, note=note)
