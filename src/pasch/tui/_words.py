"""The sheet game's status lines in words: whose turn, the bonus, the players out of view, the last bot turn,
a step of a bot. Pure functions of the match and the layout (no Textual here), so that the screen only
puts them on its lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from pasch.app import Match, SheetLayout
from pasch.engine import Action, GameState, Roll, Score
from pasch.i18n import _, box_name, ngettext
from pasch.tui._hints import hint_label
from pasch.tui._sheet import ORDER_MARK, bonus_progress, short_name

__all__ = ["bonus_text", "bot_log_text", "describe_step", "others_text", "turn_text"]


def turn_text(match: Match, state: GameState, announcing: bool) -> str:
    """Whose turn, the round, throws left, sharp and announcement: ``Ada to play · round 3 of 13 · 2 throws
    left``."""
    if state.is_terminal:
        return _("Game over")
    seat = match.seat
    who = _("{name} (bot) to play") if seat.is_bot else _("{name} to play")
    parts = [
        who.format(name=seat.name),
        _("round {n} of {total}").format(n=state.round, total=state.rules.turns_per_player),
    ]
    if not match.keeper:
        left = state.throws_left
        parts.append(ngettext("{n} throw left", "{n} throws left", left).format(n=left))
    if state.rules.sharp and state.sharp and state.dice:
        parts.append(_("sharp: all five from one throw"))
    if state.announced is not None:
        parts.append(_("announced: {box}").format(box=box_name(state.rules, state.announced)))
    if announcing:
        parts.append(_("choose the box to announce (Enter; Esc cancels)"))
    return " · ".join(parts)


def bonus_text(layout: SheetLayout) -> str:
    """Upper-bonus progress of the player to act (per column, shortly, in multi-column games)."""
    if layout.current is None:
        return ""
    cols = layout.player_columns(layout.current)
    if len(cols) == 1:
        text = bonus_progress(cols[0].progress)
        return "" if text is None else _("Upper bonus: {progress}").format(progress=text)
    parts = []
    for col in cols:
        p = col.progress
        if p is None:
            return ""
        state = "✓" if p.earned else "–" if not p.reachable else str(p.need)
        parts.append(f"{col.column + 1}{ORDER_MARK[col.order]} {state}")
    amount = cols[0].progress.amount if cols[0].progress else 0
    return _("Upper bonus +{bonus}, points to go: {progress}").format(bonus=amount, progress=" · ".join(parts))


def others_text(layout: SheetLayout, hidden: Sequence[int]) -> str:
    """The totals of the players whose columns are out of view, and the key that shows them."""
    if not hidden:
        return ""
    totals = " · ".join(f"{short_name(layout.players[p])} {layout.grand_totals[p]}" for p in hidden)
    return _("Out of view: {totals} (Tab)").format(totals=totals)


def bot_log_text(name: str, steps: Sequence[str], compact: bool = False) -> str:
    """The last bot turn, step by step: ``Last turn of Bob:`` then each step on its own line (``compact``: one
    paragraph, the steps joined by ``·``, for short screens)."""
    if not steps:
        return ""
    head = _("Last turn of {name}:").format(name=name)
    if not compact:
        return head + "\n" + "\n".join("  " + s for s in steps)
    short = [s.removeprefix(name + ": ").removeprefix(name + " ") for s in steps]  # the name is said once
    return head + " " + " · ".join(short)


def describe_step(before: GameState, name: str, action: Action) -> str:
    """A bot's step in words: ``Bob entered 25 in Full house.``, ``Bob throws.``, ``Bob: keep 3 3``."""
    rules = before.rules
    if isinstance(action, Score):
        index = rules.category_index(action.category)
        column = (action.column or 1) - 1
        pts = next((o.total for c, o in before.score_options() if (c, o.index) == (column, index)), 0)
        return _("{name} entered {points} in {box}.").format(name=name, points=pts, box=box_name(rules, index))
    if isinstance(action, Roll):
        return _("{name} throws.").format(name=name)
    return _("{name}: {action}").format(name=name, action=hint_label(rules, action))
