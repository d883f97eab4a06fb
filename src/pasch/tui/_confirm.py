"""A second chance for an irreversible move (issue 29): a box entered for 0 while the dice pay points
elsewhere, or entered by one click on its name with throws left, asks first.

The question names the move (``Enter 0 in Chance? The dice pay 25 in Full house.``); ``y`` or Enter does
it, ``n`` or Escape does not, ``a`` does it and stops asking (remembered in the settings; the setup screen
turns the questions on again).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from pasch.i18n import N_, _
from pasch.tui._common import translate_bindings

__all__ = ["ConfirmScreen"]

YES, NO, ALWAYS = "yes", "no", "always"


class ConfirmScreen(ModalScreen[str]):
    """A question over the game; dismissed with ``yes``, ``no`` or ``always`` (yes, and stop asking)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 100%; max-width: 70; height: auto; border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen #question { height: auto; margin: 0 0 1 0; }
    ConfirmScreen Horizontal { height: auto; }
    ConfirmScreen Button { margin: 0 1 0 0; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("y,enter", "answer('yes')", N_("yes")),
        Binding("n,escape", "answer('no')", N_("no")),
        Binding("a", "answer('always')", N_("yes, and stop asking")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The question and three buttons."""
        box = Vertical()
        box.border_title = _("Sure?")
        with box:
            yield Static(Text(self.question), id="question")
            with Horizontal():
                yield Button(_("y: yes"), variant="warning", id="yes", compact=True)
                yield Button(_("n: no"), id="no", compact=True)
                yield Button(_("a: yes, and stop asking"), id="always", compact=True)

    def on_mount(self) -> None:
        """Keys answer; the buttons take no focus (Enter is yes)."""
        for button in self.query(Button):
            button.can_focus = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click answers."""
        self.dismiss(str(event.button.id))

    def action_answer(self, answer: str) -> None:
        """Answer and close."""
        self.dismiss(answer)
