"""The help screen (``?``)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pasch.i18n import N_, _
from pasch.tui._common import translate_bindings

__all__ = ["HelpScreen"]


def help_text(keeper: bool = False, game: str = "sheet") -> str:
    """The keys of the game screen (``game``: ``sheet`` or ``knaster``), one per line."""
    if game == "knaster":
        lines = [
            _("Keys"),
            "",
            _("Space, r  throw the two dice (when it is your throw)"),
            _("← ↑ → ↓   move over your grid"),
            _("a-e 1-5   jump to a column or a row (b then 3: cell b3)"),
            _("Enter     write the number into the cell, or circle it there (or click twice)"),
            _("p         pass (only when you can neither write nor circle)"),
            _("h         show or hide the hint (the Knaster bot's choice)"),
            _("g         play the hint"),
            _("i         the rules of this game"),
            _("u         undo your last step until the next number is thrown"),
            _("?         this help     q  save and quit"),
            "",
            _("(7) is a circled 7; [9] is a fully circled line scoring 9."),
            _("A completed line with a combination must be circled in at once (highlighted)."),
        ]
        return "\n".join(lines)
    if keeper:
        lines = [
            _("Score keeper: the table throws real dice."),
            "",
            _("Type the final dice (e.g. 13356) and press Enter."),
            _("Add a box to enter both at once: 13356 full_house"),
            _("Add 'sharp' if all five came from one throw (rules with +sharp)."),
            _("↑ ↓ ← →   choose a box for the dice entered"),
            _("Enter     (empty line) enter the dice in the chosen box"),
            _("Ctrl+Z    undo the last entry"),
            _("F2        best box for these dice"),
            _("F3        review of the finished game     F4  rules"),
            _("F5        P(win) beside the best box (two to eight players; prepares the win tables once)"),
            _("F1        this help     Ctrl+Q  save and quit"),
        ]
    else:
        lines = [
            _("Keys"),
            "",
            _("Space, r  throw the dice (the held ones stay)"),
            _("1-5       hold or release a die (or click it)"),
            _("↑ ↓ j k   move over the boxes the dice may enter"),
            _("← →       change column (multi-column games)"),
            _("Enter     enter the dice in the chosen box (or click twice)"),
            _("a         announce a box (kniffel-4, after the first throw)"),
            _("h         show or hide hints"),
            _("          the dice to keep are outlined, ★ marks the best box"),
            _("b         play the hint     m  all options / best five"),
            _("w         P(win) beside the hints (two to eight players; prepares the win tables once)"),
            _("a letter  jump to the next box of that initial (c: Chance)"),
            _("i         the rules of this game     v  review (after the end)"),
            _("u         undo: holds; a box until the next player throws"),
            _("?         this help     q  save and quit"),
            "",
            _("A throw cannot be undone once seen."),
        ]
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """A modal list of the keys; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 72; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,question_mark,q,f1", "close", N_("close"))
    ]

    def __init__(self, keeper: bool = False, game: str = "sheet") -> None:
        super().__init__()
        self.keeper = keeper
        self.game = game
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The help text."""
        with VerticalScroll():
            yield Static(help_text(self.keeper, self.game), id="help-text")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
