"""Hints: every option's value from the solver, best marked; computed off the UI thread.

The exact values come from ``pasch.solver`` when it offers ``option_values(state)`` (each legal option
with its expected final score). Without it the hint lists what each box pays now and says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pasch.i18n import _, box_name

__all__ = ["HintRow", "Hints", "SolverUnavailableError", "compute_hints"]

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


def _label(state: Any, action: Any) -> str:
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


def _solver_values(state: Any, progress: Progress | None) -> list[tuple[Any, float]]:
    try:
        solver = importlib.import_module("pasch.solver")
    except ImportError as exc:
        raise SolverUnavailableError(str(exc)) from None
    fn = getattr(solver, "option_values", None)
    if fn is None:
        raise SolverUnavailableError("pasch.solver has no option_values")
    got = fn(state, progress=progress) if progress is not None else fn(state)
    return [(a, float(v)) for a, v in got]


def compute_hints(state: Any, progress: Progress | None = None) -> Hints:
    """The hint table for ``state`` (call it in a worker: the solver may build its table first)."""
    try:
        values = _solver_values(state, progress)
    except (SolverUnavailableError, NotImplementedError):
        values = []
    if values:
        values.sort(key=lambda av: -av[1])
        best = values[0][1]
        rows = tuple(HintRow(str(a), _label(state, a), v, abs(v - best) < 1e-9) for a, v in values)
        return Hints(rows, exact=True)
    options = list(state.score_options())
    multi = state.rules.n_columns > 1
    rows_l: list[HintRow] = []
    for n, (c, opt) in enumerate(options, start=1):
        cid = state.rules.categories[opt.index].id
        action = f"score {c + 1}:{cid}" if multi else f"score {cid}"
        rows_l.append(HintRow(action, _label(state, action), float(opt.total)))
        if progress is not None:
            progress(n, len(options))
    rows_l.sort(key=lambda r: -r.value)
    if rows_l:
        top = rows_l[0].value
        rows_l = [HintRow(r.action, r.label, r.value, r.value == top) for r in rows_l]
    note = _("Exact values need the solver; showing the points each box pays now.")
    return Hints(tuple(rows_l), exact=False, note=note)
