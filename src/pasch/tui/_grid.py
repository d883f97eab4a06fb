"""Knaster's 5x5 grids in the terminal: one widget per player (one small widget per cell and per line
value, so a click names its cell) and the same picture as plain text for tests and screen readers.

A grid shows the written numbers, circled cells as ``(7)``, the value of every line beside it (rows on
the right, columns below, the anti-diagonal top right, the main diagonal bottom right), fully circled
lines as ``[9]`` (they score that value), and, for the player to act, the cells the called number may
go to, the cells a completed line still owes circles in, the cursor and the hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.message import Message
from textual.widgets import Static

from pasch.app import combination_name
from pasch.engine import LINE_MASKS, LINES, KnasterGrid, KnasterState, cell_name, line_combination, line_value
from pasch.i18n import _, ngettext

__all__ = [
    "GridCell",
    "GridMarks",
    "GridView",
    "LineValue",
    "cell_text",
    "combination_name",
    "grid_text",
    "line_label",
    "line_value",
    "owed_cells",
]

SIZE = 5
MAIN, ANTI = 2 * SIZE, 2 * SIZE + 1  # line indices of the diagonals a1-e5 and e1-a5


def line_label(line: int) -> str:
    """A line's name in the current language: ``row 3``, ``column b``, ``diagonal a1-e5``."""
    if line < SIZE:
        return _("row {n}").format(n=line + 1)
    if line < 2 * SIZE:
        return _("column {c}").format(c=chr(ord("a") + line - SIZE))
    ends = ("a1", "e5") if line == MAIN else ("e1", "a5")
    return _("diagonal {a}-{b}").format(a=ends[0], b=ends[1])


def cell_text(grid: KnasterGrid, index: int) -> str:
    """``·`` for an empty cell, ``7`` for a written one, ``(7)`` for a circled one."""
    n = grid.numbers[index]
    if not n:
        return "·"
    return f"({n})" if grid.circled >> index & 1 else str(n)


def owed_cells(state: KnasterState, player: int) -> frozenset[int]:
    """The uncircled cells of the lines ``player`` must still circle in now (empty unless they act)."""
    if state.is_terminal or player != state.current or not state.duties:
        return frozenset()
    mask = 0
    for duty in state.duties:
        mask |= LINE_MASKS[duty.line]
    mask &= ~state.grids[player].circled
    return frozenset(i for i in range(SIZE * SIZE) if mask >> i & 1)


@dataclass(frozen=True, slots=True)
class GridMarks:
    """What a grid shows beyond the game state.

    Attributes:
        cursor: the cell under the keyboard cursor (the player to act, a human).
        legal: cells to point out to the player to act (the screen passes the cells they may circle).
        hint: the cell the hint suggests.
        last: the cell of the player's latest write or circle.
        preview: the called number, shown in the cursor cell while it is empty.
    """

    cursor: int | None = None
    legal: frozenset[int] = frozenset()
    hint: int | None = None
    last: int | None = None
    preview: int | None = None


def _value_text(state: KnasterState, grid: KnasterGrid, line: int) -> str:
    value = line_value(state.knaster, line)
    return f"[{value}]" if grid.is_scored(line) else str(value)


def grid_summary(state: KnasterState, player: int) -> str:
    """``written 12/25 · circled 5 · lines 9 · total 14``."""
    grid = state.grids[player]
    lines = grid.line_points(state.knaster)
    return _("written {w}/25 · circled {c} · lines {lines} · total {t}").format(
        w=grid.written, c=grid.circles, lines=lines, t=state.total(player)
    )


def grid_text(state: KnasterState, player: int, marks: GridMarks | None = None) -> str:
    """One player's grid as aligned text: ``(7)`` circled, ``[9]`` a fully circled line's value, the
    cursor cell in ``>...<`` and cells the called number may take marked ``+``."""
    m = marks or GridMarks()
    grid = state.grids[player]
    owed = owed_cells(state, player)

    def cell(i: int) -> str:
        text = cell_text(grid, i)
        if i in owed:
            text += "!"
        elif i in m.legal:
            text += "+"
        if i == m.cursor:
            text = f">{text}<"
        return text.center(6)

    def value(k: int) -> str:
        return _value_text(state, grid, k).center(6)

    head = "".join(chr(ord("a") + c).center(6) for c in range(SIZE))
    lines = [f"{state.players[player]}", f"   {head}{value(ANTI)}"]
    for r in range(SIZE):
        cells = "".join(cell(r * SIZE + c) for c in range(SIZE))
        lines.append(f"{r + 1:>2} {cells}{value(r)}")
    lines.append("   " + "".join(value(SIZE + c) for c in range(SIZE)) + value(MAIN))
    lines.append(grid_summary(state, player))
    return "\n".join(ln.rstrip() for ln in lines)


class GridCell(Static):
    """One cell of a player's grid; a click posts :class:`GridCell.Clicked`."""

    class Clicked(Message):
        """A cell was clicked."""

        def __init__(self, player: int, index: int) -> None:
            super().__init__()
            self.player = player
            self.index = index

    def __init__(self, player: int, index: int) -> None:
        super().__init__(id=f"g{player}-{cell_name(index // SIZE, index % SIZE)}", classes="cell")
        self.player = player
        self.index = index
        self.text = ""

    def show(self, text: str, classes: frozenset[str]) -> None:
        """Draw ``text`` with exactly the state ``classes`` given."""
        if text != self.text:
            self.text = text
            self.update(Text(text, justify="center"))
        for cls in ("empty", "circled", "legal", "owed", "cursor", "hint", "last", "in-scored"):
            self.set_class(cls in classes, cls)

    def on_click(self) -> None:
        """Report the click to the screen."""
        self.post_message(self.Clicked(self.player, self.index))


class LineValue(Static):
    """The value of one line beside the grid; ``scored`` when fully circled, ``complete`` when written."""

    def __init__(self, player: int, line: int) -> None:
        super().__init__(id=f"g{player}-line{line}", classes="value")
        self.line = line
        self.text = ""

    def show(self, text: str, complete: bool, scored: bool, tooltip: str | None) -> None:
        """Draw the value and its state."""
        if text != self.text:
            self.text = text
            self.update(Text(text, justify="center"))
        self.set_class(complete and not scored, "complete")
        self.set_class(scored, "scored")
        self.tooltip = tooltip


class GridView(Vertical):
    """A player's grid with the line values, the name and the running score in the border."""

    DEFAULT_CSS = """
    GridView {
        width: 38; height: 10;
        border: round $foreground 40%;
        padding: 0 1;
    }
    GridView.current { border: heavy $accent; }
    GridView .board {
        layout: grid; grid-size: 7 7; grid-columns: 2 4 4 4 4 4 4; grid-rows: 1; grid-gutter: 0 1;
        height: 7; width: auto;
    }
    GridView .label { color: $text-muted; text-align: center; }
    GridView .cell { text-align: center; }
    GridView .cell.empty { color: $foreground 40%; }
    GridView .cell.circled { background: $success 35%; text-style: bold; }
    GridView .cell.legal { color: $success; text-style: underline; }
    GridView .cell.owed { background: $warning 35%; }
    GridView .cell.last { text-style: italic underline; }
    GridView .cell.hint { background: $accent 45%; }
    GridView .cell.cursor { background: $primary; color: $text; text-style: bold; }
    GridView .value { color: $text-muted; text-align: center; }
    GridView .value.complete { color: $foreground; text-style: bold; }
    GridView .value.scored { background: $success; color: $text; text-style: bold; }
    GridView .summary { color: $text-muted; height: 1; }
    """

    def __init__(self, player: int) -> None:
        super().__init__(id=f"grid-{player}")
        self.player = player

    def compose(self) -> ComposeResult:
        """Column letters and the anti-diagonal's value, five rows with their values, then the column
        values and the main diagonal's value."""
        p = self.player
        with Container(classes="board"):
            yield Static("", classes="label")
            for c in range(SIZE):
                yield Static(chr(ord("a") + c), classes="label")
            yield LineValue(p, ANTI)
            for r in range(SIZE):
                yield Static(str(r + 1), classes="label")
                for c in range(SIZE):
                    yield GridCell(p, r * SIZE + c)
                yield LineValue(p, r)
            yield Static("", classes="label")
            for c in range(SIZE):
                yield LineValue(p, SIZE + c)
            yield LineValue(p, MAIN)
        yield Static(classes="summary", id=f"g{p}-summary")

    def show(self, state: KnasterState, marks: GridMarks, current: bool) -> None:
        """Draw the player's grid from ``state`` with ``marks``."""
        p = self.player
        grid: KnasterGrid = state.grids[p]
        self.set_class(current, "current")
        self.border_title = ("▶ " if current else "") + state.players[p]
        total = state.total(p)
        self.border_subtitle = ngettext("{n} point", "{n} points", total).format(n=total)
        owed = owed_cells(state, p)
        scored_mask = 0
        for k in grid.scored_lines():
            scored_mask |= LINE_MASKS[k]
        for cell in self.query(GridCell):
            i = cell.index
            classes = set()
            if not grid.numbers[i]:
                classes.add("empty")
            if grid.circled >> i & 1:
                classes.add("circled")
            if scored_mask >> i & 1:
                classes.add("in-scored")
            if i in owed:
                classes.add("owed")
            elif i in marks.legal:
                classes.add("legal")
            if i == marks.cursor:
                classes.add("cursor")
            if i == marks.hint:
                classes.add("hint")
            if i == marks.last and grid.numbers[i]:  # an undone write leaves no mark
                classes.add("last")
            text = cell_text(grid, i)
            if i == marks.cursor and marks.preview is not None and not grid.numbers[i]:
                text = str(marks.preview)
            cell.show(text, frozenset(classes))
        for value in self.query(LineValue):
            k = value.line
            complete = grid.is_complete(k)
            tip = None
            if complete:
                combo, _owed = line_combination(grid.line_numbers(k), state.knaster)
                what = combination_name(combo) if combo else _("no combination")
                tip = f"{line_label(k)}: {what}"
            value.show(_value_text(state, grid, k), complete, grid.is_scored(k), tip)
        summary = _("{w}/25 written, {c} circled").format(w=grid.written, c=grid.circles)
        self.query_one(f"#g{p}-summary", Static).update(summary)


def cell_names(cells: frozenset[int] | set[int]) -> list[str]:
    """Cell names in grid order (for messages and tests)."""
    return [cell_name(i // SIZE, i % SIZE) for i in sorted(cells)]


def line_cells(line: int) -> tuple[int, ...]:
    """The cells of a line (line index as in the engine: rows, columns, main and anti-diagonal)."""
    return LINES[line]
