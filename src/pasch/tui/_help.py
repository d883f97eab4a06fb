"""The help screen (``?``, ``F1`` in the score keeper): the keys of the screen in two columns, the key and
what it does; the second column wraps within itself, so a long line never runs into the keys (it did, in
every language, when a line was one string with spaces for the columns)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pasch.i18n import N_, _, box_name
from pasch.rules import RuleSet
from pasch.tui._common import translate_bindings

__all__ = ["HelpScreen", "help_keys", "help_text"]

_SHEET = (
    (N_("Space, r"), N_("throw the dice (the held ones stay)")),
    ("1-5", N_("hold or release a die (or click it)")),
    ("↑ ↓ j k", N_("move over the boxes the dice may enter")),
    ("← →", N_("change column (multi-column games)")),
    (N_("Tab"), N_("the next players' columns, when not every player's fit")),
    (N_("Enter"), N_("enter the dice in the chosen box (or click twice, or click its name)")),
    ("a", N_("announce a box (kniffel-4, after the first throw)")),
    ("h", N_("show or hide hints: the dice to keep are outlined, ★ marks the best box")),
    ("b", N_("play the hint")),
    ("m", N_("all options, or the best five")),
    ("w", N_("P(win) beside the hints (two to eight players; prepares the win tables once)")),
    (N_("a letter"), N_("jump to the next box of that initial ({example})")),
    ("i", N_("the rules of this game")),
    ("v", N_("review of your play (after the end)")),
    ("u", N_("undo: holds; a box until the next player throws")),
    ("?", N_("this help")),
    ("q", N_("save and quit")),
)
_KEEPER = (
    ("13356", N_("the final dice thrown at the table; Enter enters them")),
    ("13356 …", N_("the dice and a box at once (its name in any language, e.g. 13356 {example})")),
    ("sharp", N_("all five came from one throw (rules with +sharp)")),
    ("↑ ↓ ← →", N_("choose a box for the dice entered")),
    (N_("Enter"), N_("(empty line) enter the dice in the chosen box")),
    ("Ctrl+Z", N_("undo the last entry")),
    ("F2", N_("best box for these dice")),
    ("F3", N_("review of the finished game")),
    ("F9", N_("a new game (after the end)")),
    ("F4", N_("the rules of this game")),
    ("F5", N_("P(win) beside the best box (two to eight players; prepares the win tables once)")),
    ("F6", N_("the next players' columns, when not every player's fit")),
    ("F7", N_("all options, or the best five")),
    ("F1", N_("this help")),
    ("F10, Ctrl+Q", N_("save and quit")),
)
_KNASTER = (
    (N_("Space, r"), N_("throw the two dice (when it is your throw)")),
    ("← ↑ → ↓", N_("move over your grid")),
    ("a-e 1-5", N_("jump to a column or a row (b then 3: cell b3)")),
    (N_("Enter"), N_("write the number into the cell, or circle it there (or click twice)")),
    ("p", N_("pass (only when you can neither write nor circle)")),
    ("h", N_("show or hide the hint (the Knaster bot's choice)")),
    ("g", N_("play the hint")),
    ("i", N_("the rules of this game")),
    ("u", N_("undo your last step until the next number is thrown")),
    ("?", N_("this help")),
    ("q", N_("save and quit")),
)
_NOTES = {
    "sheet": (N_("A throw cannot be undone once seen."),),
    "keeper": (N_("Score keeper: the table throws real dice; type what they show."),),
    "knaster": (
        N_("(7) is a circled 7; [9] is a fully circled line scoring 9."),
        N_("A completed line with a combination must be circled in at once (highlighted)."),
    ),
}


def _example(rules: RuleSet | None, keeper: bool) -> str:
    """The example of a box by its initial (``c: Chance``), or a box name to type, in the game's words."""
    if rules is None or "chance" not in rules.category_ids:
        return "c: Chance" if not keeper else "full house"
    if keeper:
        return box_name(rules, "full_house" if "full_house" in rules.category_ids else "chance").lower()
    name = box_name(rules, "chance")
    return f"{name[0].lower()}: {name}"


def help_keys(keeper: bool = False, game: str = "sheet", rules: RuleSet | None = None) -> list[tuple[str, str]]:
    """The keys of a game screen (``game``: ``sheet`` or ``knaster``) with what each does, in the current
    language."""
    pairs = _KNASTER if game == "knaster" else _KEEPER if keeper else _SHEET
    example = _example(rules, keeper)
    return [(_(key), _(what).format(example=example)) for key, what in pairs]


def help_text(keeper: bool = False, game: str = "sheet", rules: RuleSet | None = None) -> str:
    """The help as plain text: one key a line, then the notes (for tests and screen readers)."""
    keys = help_keys(keeper, game, rules)
    width = max(len(k) for k, _w in keys) + 2
    lines = [_("Keys"), "", *(f"{k:<{width}}{w}" for k, w in keys), ""]
    return "\n".join([*lines, *(_(n) for n in _NOTES["keeper" if keeper else game])])


class HelpScreen(ModalScreen[None]):
    """A modal list of the keys; Escape (or the help key again) closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 84; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    HelpScreen #help-text { width: 100%; height: auto; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,question_mark,q,f1", "close", N_("close"))
    ]

    def __init__(self, keeper: bool = False, game: str = "sheet", rules: RuleSet | None = None) -> None:
        super().__init__()
        self.keeper = keeper
        self.game = game
        self.rules = rules
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The keys in two columns, then the notes."""
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=False)
        table.add_column(no_wrap=True, style="bold")
        table.add_column(overflow="fold")
        for key, what in help_keys(self.keeper, self.game, self.rules):
            table.add_row(key, what)
        notes = [Text(_(n)) for n in _NOTES["keeper" if self.keeper else self.game]]
        box = VerticalScroll()
        box.border_title = _("Keys (Escape closes)")
        with box:
            yield Static(Group(table, Text(""), *notes), id="help-text")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
