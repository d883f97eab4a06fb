"""Hints: the advice of :func:`pasch.app.advise`, worded for the terminal; computed off the UI thread.

The policy is the application layer's, the same as the web's and ``pasch play --plain``'s: single-column
sheets get every legal option with its exact value (the expected final score of the sheet if the player
takes it and plays optimally afterwards); multi-column games every legal option with the strongest bot's
estimate of the final total, shown alike but headed and noted as an estimate. This module only puts it in
words.

In single-column games of two to eight players the list also shows each option's "P(win)" (the chance of
finishing ahead of every opponent, :attr:`pasch.app.AdviceOption.p_win`) when the rule set's win tables are
at hand: open in this process or stored in the cache (then memory-mapped on the first hint). A missing table
is never built unasked: the list says so and the ``w`` key builds it (:mod:`pasch.tui._winhints`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pasch.app import AdviceOption, WinTables, advise, win_applies, win_tables
from pasch.engine import Action, Announce, GameState, Keep, Score, State
from pasch.errors import PaschError
from pasch.i18n import _, box_name, ngettext
from pasch.rules import RuleSet

__all__ = ["HintRow", "Hints", "compute_hints", "hint_label", "percent", "signed"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class HintRow:
    """One option: its action text, a label, its value and whether it is the best.

    Attributes:
        action: the action's text (``score chance``, ``keep 3 3``).
        label: the action in words, in the current language.
        value: the expected final score (exact hints), the bot's estimate of it (estimated hints), or what a
            box pays now; None for a suggestion that enters nothing (``keep 3 3`` suggested by the bot).
        best: the best option (exact hints), or the bot's choice.
        delta: the value minus the best option's (0 for the best, negative for the others); None where the
            advice has no comparable values.
        p_win: the probability of finishing ahead of every opponent after this option; None where not shown.
    """

    action: str
    label: str
    value: float | None
    best: bool = False
    delta: float | None = None
    p_win: float | None = None


@dataclass(frozen=True, slots=True)
class Hints:
    """The options, best first where ``exact`` (the solver's values), else the bot's choice and the boxes.

    Attributes:
        rows: the options.
        exact: whether the values are the solver's expected final scores.
        note: one line saying what the values are.
        suggestion: the suggested action in words (empty when there is none).
        suggested: the suggested action (what the apply-hint key plays).
        keep: the dice to keep when the suggestion is to throw again, else None.
        score: the (column, box) the suggestion enters the dice in (0-based column), else None.
        win: ``shown`` (the rows have P(win)), ``missing`` (it applies, but the win tables are neither open
            nor stored: ``w`` builds them) or empty (P(win) does not apply to this game).
        win_tables: where the win tables stand (their size, and what a build takes) where ``win`` is not empty.
        estimated: the values are the strongest bot's estimates of the final total (multi-column games),
            ranked and shown as exact ones are.
    """

    rows: tuple[HintRow, ...]
    exact: bool
    note: str = ""
    suggestion: str = ""
    suggested: Action | None = None
    keep: tuple[int, ...] | None = None
    score: tuple[int, int] | None = None
    win: str = ""
    win_tables: WinTables | None = None
    estimated: bool = False

    def lines(self, limit: int | None = 5, more_key: str = "m") -> list[str]:
        """The list as text lines: the best option with its value, the others as ``−1.9`` against it.

        Args:
            limit: show the best ``limit`` options (None: all); a last line says how many more there are.
            more_key: the key that shows them all, named in that line.
        """
        rows = self.rows if limit is None else self.rows[:limit]
        win = self.win == "shown"
        # Columns only as wide as their texts: with P(win) a line fits the hint panel beside two players' sheets at
        # 80x24 (44 columns), and most lines the one beside three (39; "throw all again" rows take 42).
        width = max([len(_("option")), *(len(r.label) + 2 for r in rows)])
        ranked = self.exact or self.estimated
        # Estimated hints (multi-column games) sit beside three or four columns and name long options
        # ("announce Three of a kind"): the others' distance to the best without "vs best", which the note says.
        short = self.estimated and not self.exact
        head = _("expected total") if self.exact else _("estimate") if self.estimated else _("points now")
        p_head = _("P(win)")
        p_width = max(7, len(p_head))
        v_width = max([len(head), *(len(_value_text(r, ranked, short)) for r in rows)])
        lines = [f"{_('option'):<{width}}  {head:>{v_width}}" + (f"  {p_head:>{p_width}}" if win else "")]
        for row in rows:
            mark = "★" if row.best else " "
            line = f"{mark} {row.label:<{width - 2}}  {_value_text(row, ranked, short):>{v_width}}"
            if win:
                line += f"  {percent(row.p_win):>{p_width}}"
            lines.append(line)
        if limit is not None and len(self.rows) > limit:
            more = len(self.rows) - limit
            lines.append(
                ngettext("… {n} more ({key}: all)", "… {n} more ({key}: all)", more).format(n=more, key=more_key)
            )
        return lines


def _value_text(row: HintRow, ranked: bool, short: bool = False) -> str:
    """The best option's expected (or estimated) total; the others' distance to it (``−1.9 vs best``, or
    ``−1.9`` when ``short``)."""
    if row.value is None:
        return _("bot's choice") if row.best else ""
    if not ranked:
        return f"{row.value:.0f}"
    if row.best or row.delta is None:
        return f"{row.value:.1f}"
    if short:
        return signed(row.delta)
    return _("{delta} vs best").format(delta=signed(row.delta))


def percent(p: float | None) -> str:
    """A probability as ``48.3 %`` (empty for None)."""
    return "" if p is None else f"{100.0 * p:.1f} %"


def signed(x: float, digits: int = 1) -> str:
    """``+1.5``, ``−1.9`` (a true minus sign) or ``±0.0``."""
    text = f"{abs(x):.{digits}f}"
    if text.strip("0.") == "":
        return "±" + text
    return ("+" if x > 0 else "−") + text


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


def _row(rules: RuleSet, option: AdviceOption, exact: bool, estimated: bool = False) -> HintRow:
    if exact:
        value = option.value
    elif estimated:
        value = option.estimate
    else:
        value = None if option.points is None else float(option.points)
    return HintRow(str(option.action), hint_label(rules, option.action), value, option.best, option.delta, option.p_win)


def compute_hints(state: State, progress: Progress | None = None) -> Hints:
    """The hint table for ``state`` (call it in a worker: the solver may build its table first, and the win
    tables are memory-mapped from the cache on their first use).

    Raises:
        IllegalActionError: the game is over or dice are in the air.
    """
    advice = advise(state, progress=progress)
    rules: RuleSet = state.rules
    win, win_info = "", None
    if advice.exact and win_applies(state) and isinstance(state, GameState) and state.dice is not None:
        try:
            tables = win_tables(rules)
        except PaschError:  # no exact table for these rules after all: no P(win) either
            tables = None
        if tables is not None:
            win_info = tables
            if tables.on_disk:
                advice = advise(state, win=True)
                win = "shown" if any(o.p_win is not None for o in advice.options) else ""
            else:
                win = "missing"
    rows = tuple(_row(rules, o, advice.exact, advice.estimated) for o in advice.options)
    if advice.exact:
        note = _("Expected final score of this sheet with optimal play from here.")
        if win == "shown":
            note += " " + _("P(win): your chance to finish ahead of everyone, playing for it from here.")
    elif advice.estimated:
        note = _(
            "No exact values for this game: the strongest bot's estimate of the final total (its per-column "
            "values), not exact. ★ is its choice; the others show how many points less they are worth."
        )
    else:
        note = _("No exact values for this game: ★ is the strongest bot's choice; points are what each box pays now.")
    suggested = advice.suggestion
    suggestion = hint_label(rules, suggested) if suggested is not None else ""
    score: tuple[int, int] | None = None
    if isinstance(suggested, Score) and isinstance(state, GameState):
        score = ((suggested.column or 1) - 1, rules.category_index(suggested.category))
    return Hints(rows, advice.exact, note, suggestion, suggested, advice.keep, score, win, win_info, advice.estimated)
