"""Widgets of the game screen: dice with hold marks, large where there is room and compact where not.

A :class:`DiceBar` picks its dice's size from its own width (it fills its container): large dice (pips on a
3x3 grid, 15 columns each) when all of them fit, compact ones (the face as a digit, 7 columns) otherwise, so
every die stays visible and clickable from 80 columns up. A die can also be marked ``advised`` (the hint
says keep it): its border turns to the hint colour.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from pasch.app import TableDice
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
    Die.advised { border: double $success; }
    Die.held.advised { border: heavy $success; }
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
        self.compact = False
        self._drawn = False
        self.border_title = str(position + 1)

    def show(self, face: int | None, held: bool, compact: bool | None = None) -> None:
        """Draw ``face`` (None: not thrown), marked as held or not, large or ``compact`` (None: as before)."""
        compact = self.compact if compact is None else compact
        if (face, held, compact) == (self.face, self.held, self.compact) and self._drawn:
            return
        self._drawn = True
        self.face, self.held, self.compact = face, held, compact
        self.set_class(held, "held")
        self.set_class(face is None, "empty")
        if compact:
            self.border_subtitle = "✓" if held else ""
            self.update(Text("·" if face is None else str(face), style="bold", justify="center"))
        else:
            self.border_subtitle = _("HELD") if held else ""
            self.update(Text("\n".join(die_lines(face))))

    def advise(self, advised: bool) -> None:
        """Outline the die as one the hint says to keep (or not)."""
        self.set_class(advised, "advised")

    def on_click(self) -> None:
        """Clicking a die toggles its hold."""
        self.post_message(self.Clicked(self.position))


class DiceBar(Widget):
    """A row of dice, drawn from its reactive ``table`` (faces and holds) and ``keep`` (the dice the hint says
    to keep: their values; None: no advice)."""

    DEFAULT_CSS = """
    DiceBar { layout: horizontal; height: 5; width: 100%; }
    DiceBar.compact { height: 3; }
    DiceBar.compact Die { width: 7; height: 3; margin: 0; }
    """

    LARGE = 16
    """Columns a large die takes, margin included."""

    table: reactive[TableDice] = reactive(TableDice(), init=False)
    keep: reactive[tuple[int, ...] | None] = reactive(None, init=False)

    def __init__(self, count: int, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count
        self.compact = False

    def watch_table(self, table: TableDice) -> None:
        """Draw the dice and their holds (blank dice before a throw), and the advice for them."""
        for k, die in enumerate(self.query(Die)):
            if k < len(table.faces):
                die.show(table.faces[k], table.holds[k] if k < len(table.holds) else False)
            else:
                die.show(None, False)
        self.advise(self.keep, table.faces)

    def watch_keep(self, keep: tuple[int, ...] | None) -> None:
        """Outline the dice the hint says to keep."""
        self.advise(keep, self.table.faces)

    def on_resize(self, event: Resize) -> None:
        """Large dice when all of them fit in the bar's width, compact ones otherwise."""
        self.set_compact(event.size.width < self.count * self.LARGE)

    def set_compact(self, compact: bool) -> None:
        """Draw compact (or large) dice from now on."""
        if compact == self.compact:
            return
        self.compact = compact
        self.set_class(compact, "compact")
        for die in self.query(Die):
            die.show(die.face, die.held, compact)

    def advise(self, keep: tuple[int, ...] | None, faces: tuple[int, ...]) -> None:
        """Outline the dice that the hint says to keep (``keep``: their values; None: no advice)."""
        want = list(keep or ())
        for k, die in enumerate(self.query(Die)):
            face = faces[k] if k < len(faces) else None
            hit = face is not None and face in want
            if face is not None and hit:
                want.remove(face)
            die.advise(hit)

    def compose(self) -> ComposeResult:
        """One :class:`Die` per die."""
        for k in range(self.count):
            yield Die(k, id=f"die-{k + 1}")

    def show(self, faces: tuple[int, ...], holds: tuple[bool, ...]) -> None:
        """Draw the dice (blank dice when ``faces`` is empty): sets :attr:`table`."""
        self.table = TableDice(faces, holds)

    def text(self) -> str:
        """The dice as text, held ones in brackets: ``1 [3] [3] 5 6``."""
        out = []
        for die in self.query(Die):
            if die.face is None:
                out.append("-")
            else:
                out.append(f"[{die.face}]" if die.held else str(die.face))
        return " ".join(out)
