"""The rules card: the current rule set in words, generated from its :class:`pasch.rules.RuleSet` data
(boxes and what they ask and pay, bonus, joker and extra points, fill orders, modifiers; for Knaster the
line values and the combinations), never written by hand per game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pasch.i18n import N_, _, box_name, rules_description
from pasch.rules import ExtraPolicy, GameKind, JokerPolicy, Order, RuleSet, Scorer, ScorerKind
from pasch.tui._common import translate_bindings
from pasch.tui._grid import combination_name

__all__ = ["RulesScreen", "box_rule", "rules_card"]

_ORDER = {
    Order.FREE: N_("any order"),
    Order.DOWN: N_("top to bottom"),
    Order.UP: N_("bottom to top"),
    Order.ANNOUNCED: N_("announced: after the first throw, name the box; the turn ends there"),
}
_JOKER = {
    JokerPolicy.NONE: N_("No joker: a further five alike is entered like any other dice."),
    JokerPolicy.SCHMIDT: N_(
        "Joker: with the five-alike box scored and the matching upper box filled, a five alike goes in any "
        "lower box at full value."
    ),
    JokerPolicy.FORCED: N_(
        "Joker (forced): with the five-alike box filled, the matching upper box if open, else any lower box "
        "at full value, else an upper box for 0."
    ),
    JokerPolicy.FREE: N_(
        "Joker (free): with the five-alike box filled, any open box; lower boxes at full value once the "
        "matching upper box is filled."
    ),
    JokerPolicy.FULL_HOUSE: N_(
        "Joker: once the five-alike box is crossed out, a five alike may be entered as a full house at full value."
    ),
}
_EXTRA = {
    ExtraPolicy.NONE: N_("No extra points for a further five alike."),
    ExtraPolicy.UPPER_50: N_("A further five alike entered in its upper box: +50 extra points."),
    ExtraPolicy.BONUS_100: N_("A further five alike (five-alike box scored): +100 extra points."),
    ExtraPolicy.FLAT_100: N_("A further five alike: 100 in a lower box, or 100 + the dice in an upper box."),
}


def box_rule(scorer: Scorer, dice: int) -> tuple[str, str]:
    """What a box asks of the dice and what it pays, in the current language."""
    k = scorer.kind
    pays = str(scorer.points) if scorer.points else _("sum of all dice")
    if k is ScorerKind.FACE:
        return _("any dice"), _("sum of the {face}s").format(face=scorer.face)
    if k is ScorerKind.N_KIND:
        alike = _("sum of all dice") if scorer.total else _("sum of the {n} alike").format(n=scorer.n)
        return _("at least {n} alike").format(n=scorer.n), alike
    if k is ScorerKind.ONE_PAIR:
        return _("two alike"), _("sum of the highest pair")
    if k is ScorerKind.TWO_PAIRS:
        return _("two pairs of different faces"), _("sum of those four dice")
    if k is ScorerKind.FULL_HOUSE:
        return _("three of one face and two of another"), pays
    if k is ScorerKind.STRAIGHT:
        return _("{n} in sequence").format(n=scorer.n), pays
    if k is ScorerKind.EXACT:
        return _("exactly {faces}").format(faces="-".join(map(str, scorer.faces))), pays
    if k is ScorerKind.ALL_ALIKE:
        return _("all {n} alike").format(n=dice), pays
    return _("anything"), _("sum of all dice")


def _knaster_card(rules: RuleSet) -> list[str]:
    kn = rules.knaster
    assert kn is not None
    lines = [
        _("Each turn one player throws {dice} dice; everybody uses their sum, the called number:").format(dice=kn.dice),
        _("  write it into an empty cell of your {n}x{n} grid, or circle a cell that already holds it;").format(
            n=kn.size
        ),
        _("  pass only when neither is possible."),
        "",
        _("A line whose five cells are written may form a combination; then you must circle that many of its"),
        _("cells at once:"),
    ]
    lines += [f"  {combination_name(c):<16} {n}" for c, n in kn.combinations]
    lines += [
        "",
        _("A fully circled line scores its value (shown beside the grid, [9] once scored):"),
        _("  rows, top to bottom:      {v}").format(v=" ".join(map(str, kn.row_values))),
        _("  columns, left to right:   {v}").format(v=" ".join(map(str, kn.column_values))),
        _("  diagonals a1-e5, e1-a5:   {v}").format(v=" ".join(map(str, kn.diagonal_values))),
        "",
        _("When someone writes their last empty cell, one more number is thrown; then the game ends."),
    ]
    return lines


def _sheet_card(rules: RuleSet) -> list[str]:
    lines = [
        _("{dice} dice, up to {throws} throws a turn; keep any dice between throws.").format(
            dice=rules.dice, throws=rules.throws
        ),
    ]
    if rules.n_columns > 1:
        lines.append(_("Columns (each box once per column):"))
        lines += [f"  {c + 1}: {_(_ORDER[o])}" for c, o in enumerate(rules.columns)]
    elif rules.columns[0] is not Order.FREE:
        lines.append(_("Fill order: {order}").format(order=_(_ORDER[rules.columns[0]])))
    lines.append("")
    names = [box_name(rules, i) for i in range(len(rules.categories))]
    width = max(len(n) for n in names) + 2
    asks_w = max(len(box_rule(c.scorer, rules.dice)[0]) for c in rules.categories) + 2
    lines.append(f"{_('box'):<{width}}{_('asks'):<{asks_w}}{_('pays')}")
    for i, cat in enumerate(rules.categories):
        asks, pays = box_rule(cat.scorer, rules.dice)
        if rules.doubles(i):
            pays += " " + _("(×2 sharp)")
        lines.append(f"{names[i]:<{width}}{asks:<{asks_w}}{pays}")
    lines.append("")
    if rules.bonus_threshold is None:
        lines.append(_("No upper bonus."))
    else:
        lines.append(
            _("Upper bonus: +{amount} for {threshold} or more in the upper boxes.").format(
                amount=rules.bonus, threshold=rules.bonus_threshold
            )
        )
        lines.append(
            _("The bonus row shows the upper boxes against par ({threshold} shared by face: +3 is ahead).").format(
                threshold=rules.bonus_threshold
            )
        )
    joker, extra = _JOKER.get(rules.joker), _EXTRA.get(rules.extra)
    lines.append(_(joker) if joker else _("Joker: {policy}.").format(policy=rules.joker.value))
    lines.append(_(extra) if extra else _("Extra points: {policy}.").format(policy=rules.extra.value))
    if rules.five_alike_full_house:
        lines.append(_("Five alike also counts as a full house."))
    if rules.sharp:
        lines.append(_("Sharp: boxes marked ×2 score double when all dice came from a single throw."))
    lines.append(_("A box that the dice do not satisfy may be crossed out for 0."))
    return lines


def rules_card(rules: RuleSet) -> str:
    """The rules of ``rules`` as text: title, description, modifiers, then the game's own rules."""
    lines = [f"{rules.name}  ({rules.id})", rules_description(rules)]
    if rules.modifiers:
        lines.append(_("Modifiers: {mods}").format(mods=", ".join("+" + m for m in rules.modifiers)))
    lines.append("")
    lines += _knaster_card(rules) if rules.kind is GameKind.KNASTER else _sheet_card(rules)
    return "\n".join(lines)


class RulesScreen(ModalScreen[None]):
    """The rules card over the game (Escape closes it)."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > VerticalScroll {
        width: auto; max-width: 96%; height: auto; max-height: 92%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RulesScreen #rules-card { width: auto; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,i,q,f4", "close", N_("close"))
    ]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The card."""
        with VerticalScroll():
            yield Static(Text(rules_card(self.rules)), id="rules-card")

    def on_mount(self) -> None:
        """Title the box."""
        self.query_one(VerticalScroll).border_title = _("Rules (Escape closes)")

    def action_close(self) -> None:
        """Close the card."""
        self.dismiss(None)
