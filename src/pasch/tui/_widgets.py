"""Widgets of the game screen: large dice with hold marks."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from pasch.i18n import _

__all__ = ["DiceBar", "Die", "die_lines"]

# Which cells of a 3x3 grid carry a pip, per face.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}


def die_lines(face: int | None) -> list[str]:
    """The three pip lines of a die face (blank lines before the first throw)."""
    if face is None or face not in _PIPS:
        return ["           "] * 3
    pips = set(_PIPS[face])
    return [" " + "   ".join("●" if (r, c) in pips else " " for c in range(3)) + " " for r in range(3)]


class Die(Static):
    """One die drawn large; the border title says which key holds it, the subtitle marks it held."""

    DEFAULT_CSS = """
    Die {
        width: 15;
        height: 5;
        border: round $foreground 60%;
        content-align: center middle;
        margin: 0 1 0 0;
    }
    Die.held {
        border: heavy $accent;
        background: $accent 25%;
        text-style: bold;
    }
    Die.empty { color: $foreground 30%; }
    """

    class Clicked(Message):
        """A die was clicked."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int, id: str | None = None) -> None:
        super().__init__(id=id)
        self.position = position
        self.face: int | None = None
        self.held = False
        self._drawn = False
        self.border_title = str(position + 1)

    def show(self, face: int | None, held: bool) -> None:
        """Draw ``face`` (None: not thrown), marked as held or not."""
        if (face, held) == (self.face, self.held) and self._drawn:
            return
        self._drawn = True
        self.face, self.held = face, held
        self.set_class(held, "held")
        self.set_class(face is None, "empty")
        self.border_subtitle = _("HELD") if held else ""
        self.update(Text("\n".join(die_lines(face))))

    def on_click(self) -> None:
        """Clicking a die toggles its hold."""
        self.post_message(self.Clicked(self.position))


class DiceBar(Widget):
    """A row of dice."""

    DEFAULT_CSS = """
    DiceBar { layout: horizontal; height: 5; width: auto; }
    """

    def __init__(self, count: int, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count

    def compose(self) -> ComposeResult:
        """One :class:`Die` per die."""
        for k in range(self.count):
            yield Die(k, id=f"die-{k + 1}")

    def show(self, faces: tuple[int, ...], holds: tuple[bool, ...]) -> None:
        """Draw the dice (blank dice when ``faces`` is empty)."""
        for k, die in enumerate(self.query(Die)):
            if k < len(faces):
                die.show(faces[k], holds[k] if k < len(holds) else False)
            else:
                die.show(None, False)

    def text(self) -> str:
        """The dice as text, held ones in brackets: ``1 [3] [3] 5 6``."""
        out = []
        for die in self.query(Die):
            if die.face is None:
                out.append("-")
            else:
                out.append(f"[{die.face}]" if die.held else str(die.face))
        return " ".join(out)
