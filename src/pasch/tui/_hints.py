"""Hints: the advice of :func:`pasch.app.advise`, worded for the terminal; computed off the UI thread.

The policy is the application layer's, the same as the web's and ``pasch play --plain``'s: single-column
sheets get every legal option with its exact value (the expected final score of the sheet if the player
takes it and plays optimally afterwards); multi-column games get the strongest bot's choice, what to keep
included, beside what each box pays now. This module only puts it in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pasch.app import AdviceOption, advise
from pasch.engine import Action, Announce, Keep, Score, State
from pasch.i18n import _, box_name
from pasch.rules import RuleSet

__all__ = ["HintRow", "Hints", "compute_hints", "hint_label"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class HintRow:
    """One option: its action text, a label, its value and whether it is the best.

    Attributes:
        action: the action's text (``score chance``, ``keep 3 3``).
        label: the action in words, in the current language.
        value: the expected final score (exact hints), or what a box pays now; None for a suggestion that
            enters nothing (``keep 3 3`` suggested by the bot).
        best: the best option (exact hints), or the bot's choice.
    """

    action: str
    label: str
    value: float | None
    best: bool = False


@dataclass(frozen=True, slots=True)
class Hints:
    """The options, best first where ``exact`` (the solver's values), else the bot's choice and the boxes.

    Attributes:
        rows: the options.
        exact: whether the values are the solver's expected final scores.
        note: one line saying what the values are.
        suggestion: the suggested action in words (empty when there is none).
    """

    rows: tuple[HintRow, ...]
    exact: bool
    note: str = ""
    suggestion: str = ""


def hint_label(rules: RuleSet, action: Action) -> str:
    """An action in words, in the current language (``Full house (2)``, ``keep 3 3``)."""
    if isinstance(action, Score):
        name = box_name(rules, action.category)
        return f"{name} ({action.column})" if action.column is not None else name
    if isinstance(action, Keep):
        if action.dice:
            return _("keep {dice}").format(dice=" ".join(str(d) for d in action.dice))
        return _("throw all again")
    if isinstance(action, Announce):
        return _("announce {box}").format(box=box_name(rules, action.category))
    return str(action)


def _row(rules: RuleSet, option: AdviceOption, exact: bool) -> HintRow:
    value = option.value if exact else (None if option.points is None else float(option.points))
    return HintRow(str(option.action), hint_label(rules, option.action), value, option.best)


def compute_hints(state: State, progress: Progress | None = None) -> Hints:
    """The hint table for ``state`` (call it in a worker: the solver may build its table first).

    Raises:
        IllegalActionError: the game is over or dice are in the air.
    """
    advice = advise(state, progress=progress)
    rules: RuleSet = state.rules
    rows = tuple(_row(rules, o, advice.exact) for o in advice.options)
    if advice.exact:
        note = _("Expected final score of this sheet with optimal play from here.")
    else:
        note = _("No exact values for this game: ★ is the strongest bot's choice; points are what each box pays now.")
    suggestion = hint_label(rules, advice.suggestion) if advice.suggestion is not None else ""
    return Hints(rows, advice.exact, note, suggestion)
