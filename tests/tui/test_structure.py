"""The terminal app's structure (issue 29, item 6): screens redraw from reactive attributes, never by hand.

Every redraw of a game screen starts in a Textual watcher (``watch_*``) of a reactive attribute: a change of
position, dice, message, cursor or hint visibility. A method that draws and is called from anywhere else is
how the old game screen ended up calling ``refresh_view()`` by hand in 21 places and drawing stale boards.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pasch.tui

TUI = Path(pasch.tui.__file__).parent
DRAWERS = {"_draw", "refresh_view"}


def _calls(tree: ast.AST) -> list[tuple[str, str]]:
    """(enclosing function, called method) for every ``self.<name>()`` call."""
    out: list[tuple[str, str]] = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self"
                ):
                    out.append((fn.name, node.func.attr))
    return out


def test_drawing_starts_only_in_watchers() -> None:
    offenders = []
    for path in sorted(TUI.glob("*.py")):
        for caller, called in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            if called in DRAWERS and not caller.startswith("watch_"):
                offenders.append(f"{path.name}: {caller}() calls self.{called}()")
    assert not offenders, offenders


def test_the_checker_sees_a_hand_called_redraw() -> None:
    bad = ast.parse("class S:\n    def action_x(self):\n        self.refresh_view()\n")
    assert ("action_x", "refresh_view") in _calls(bad)


def test_the_game_screen_stays_small() -> None:
    lines = (TUI / "_game.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 260, f"_game.py has {lines} lines; split a widget out"
