"""The rules card over the game (``i``): :func:`pasch.app.rules_card` drawn to the width of the terminal.

The card's words and its table come from the application layer (the same card as ``pasch rules show`` and the
web page); this screen lays them out: paragraphs wrap, the box table's columns share the width (its texts wrap
inside their columns), and the card scrolls when it is taller than the screen.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pasch.app import RulesCard
from pasch.app import rules_card as app_rules_card
from pasch.i18n import N_, _
from pasch.rules import RuleSet
from pasch.tui._common import translate_bindings

__all__ = ["RulesScreen", "card_renderable", "rules_card"]


def rules_card(rules: RuleSet) -> str:
    """The rules of ``rules`` as plain text (for tests and screen readers)."""
    return "\n".join(app_rules_card(rules).lines())


def card_renderable(card: RulesCard) -> RenderableType:
    """The card as Rich renderables that wrap to the width they are given."""
    table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold", expand=False)
    for k, head in enumerate(card.head):
        table.add_column(head, no_wrap=k == 0, overflow="fold")
    for row in card.rows:
        table.add_row(*row)
    parts: list[RenderableType] = [Text(card.title, style="bold"), Text(card.description)]
    if card.modifiers:
        parts.append(Text(card.modifiers_line))
    parts += [Text(""), *(Text(line) for line in card.turn), Text(""), table, Text("")]
    parts += [Text(line) for line in card.scoring]
    return Group(*parts)


class RulesScreen(ModalScreen[None]):
    """The rules card over the game (Escape closes it)."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > VerticalScroll {
        width: 100%; max-width: 104; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RulesScreen #rules-card { width: 100%; height: auto; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,i,q,f4", "close", N_("close"))
    ]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The card in a scrolling box titled with the key that closes it."""
        box = VerticalScroll()
        box.border_title = _("Rules (Escape closes)")
        with box:
            yield Static(card_renderable(app_rules_card(self.rules)), id="rules-card")

    def action_close(self) -> None:
        """Close the card."""
        self.dismiss(None)
