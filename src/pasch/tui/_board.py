"""A line of text drawn from reactive attributes (the screen sets them; ``watch_*`` draws)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

__all__ = ["Line"]


class Line(Static):
    """A line (or a few) of text drawn from its reactive ``text``; ``error`` shows it as an error."""

    text: reactive[str] = reactive("", init=False)
    error: reactive[bool] = reactive(False, init=False)

    def watch_text(self, text: str) -> None:
        """Draw the text; an empty line takes no room."""
        self.update(Text(text))
        self.set_class(bool(text), "shown")

    def watch_error(self, error: bool) -> None:
        """Colour the line as an error."""
        self.set_class(error, "error")
