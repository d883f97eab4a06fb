"""The score sheet on screen: a ``DataTable`` drawn from a :class:`~pasch.tui._sheet.SheetModel`.

The sheet never scrolls sideways (a scrolled sheet hid the names and cut numbers at 80 columns). It shows as
many players' columns as fit in :attr:`SheetView.room`, the columns the screen can give it; when they do not
all fit, it shows a window of players starting at :attr:`SheetView.first`, and the player to act comes into
view at the start of their turn. ``Tab`` on the game screen moves the window to the next players, and a
:class:`SheetView.Paged` message tells the screen who is out of view (it lists their totals).

Clicks become :class:`SheetView.Picked` messages: the screen decides what a click on a box does.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.coordinate import Coordinate
from textual.events import MouseDown
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from pasch.tui._sheet import Cell, Row, SheetModel

__all__ = ["CELL_STYLE", "SheetView"]

CELL_STYLE = {
    "filled": "",
    "potential": "italic green",
    "open": "",
    "sum": "dim",
    "progress": "yellow",
    "announced": "bold reverse yellow",
    "forced": "italic red",
    "total": "bold",
}
"""The style of each kind of cell (``forced``: a 0 the announced column forces: its own colour)."""

PAD = 2
"""Columns a ``DataTable`` cell adds to its text (one on each side)."""
SCROLLBAR = 2
"""Columns of the vertical scroll bar, when the rows do not fit."""


def _same_text(a: Text, b: Text) -> bool:
    """Whether two cells draw the same (``Text.__eq__`` ignores the base style: a box just filled would keep
    the green of the value it had as a choice)."""
    return a.plain == b.plain and a.style == b.style and a.spans == b.spans and a.justify == b.justify


def _label_text(row: Row) -> Text:
    style = "bold" if row.kind == "total" else ("dim" if row.kind == "sum" else "")
    return Text(row.label, style=style)


def _fit(texts: list[Text]) -> int:
    """The width a column needs for these texts (their widest line; at least 1, as the DataTable measures)."""
    return max(1, *(cell_len(line) for text in texts for line in text.plain.split("\n")))


def _cell_text(cell: Cell) -> Text:
    return Text(cell.text, style=CELL_STYLE.get(cell.kind, ""), justify="right")


class SheetView(DataTable[Text]):
    """The score sheet of a sheet game.

    Attributes:
        model: the sheet in words (rows, cells, headers).
        cursor_box: the (column, box) of the player to act under the cursor; None hides the cursor.
        star: the (column, box) the hint enters the dice in (marked ★); None for none.
        room: the columns the sheet may take (0: as many as it needs).
        first: the first player shown when not every player's columns fit.
    """

    model: reactive[SheetModel | None] = reactive(None, init=False, always_update=True)
    cursor_box: reactive[tuple[int, int] | None] = reactive(None, init=False)
    star: reactive[tuple[int, int] | None] = reactive(None, init=False)
    room: reactive[int] = reactive(0, init=False)
    first: reactive[int] = reactive(0, init=False)

    class Picked(Message):
        """A box of the player to act was clicked: ``enter`` when the click asks to enter the dice there (a
        click on the box's name, or a second click on the chosen cell)."""

        def __init__(self, column: int | None, box: int, enter: bool) -> None:
            super().__init__()
            self.column = column
            self.box = box
            self.enter = enter

    class Paged(Message):
        """The players shown changed: ``hidden`` are the players out of view (empty when all show)."""

        def __init__(self, shown: tuple[int, ...], hidden: tuple[int, ...]) -> None:
            super().__init__()
            self.shown = shown
            self.hidden = hidden

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="cell", zebra_stripes=False)
        self.can_focus = False
        self.fixed_columns = 1
        self.shown: tuple[int, ...] = ()
        self._cols: list[int] = []
        self._layout: tuple[object, ...] | None = None
        self._cells: list[list[Text]] = []
        self._headers: list[Text] = []
        self._pressed = False

    # -- watchers -------------------------------------------------------------------------------
    def watch_model(self, old: SheetModel | None, new: SheetModel | None) -> None:
        """A new position: the player to act comes into view at the start of their turn."""
        if new is not None and new.current is not None and (old is None or old.current != new.current):
            self.set_reactive(SheetView.first, new.current)
        self._draw()

    def watch_room(self) -> None:
        """Fit the players' columns into the new room."""
        self._draw()

    def watch_first(self) -> None:
        """Show the window of players from ``first``."""
        self._draw()

    def watch_star(self) -> None:
        """Mark the hint's box."""
        self._draw()

    def watch_cursor_box(self) -> None:
        """Move the cursor."""
        self._sync_cursor()

    # -- which players fit --------------------------------------------------------------------------
    def _widths(self, model: SheetModel) -> tuple[int, list[int]]:
        """The label column's width and each value column's (text plus padding; one more for the ★)."""
        label = max(cell_len(r.label) for r in model.rows) + PAD
        widths = []
        for k in range(len(model.columns)):
            texts = [model.names[k] if model.names else model.headers[k], model.marks[k] if model.marks else ""]
            texts += [r.cells[k].text for r in model.rows if r.cells]
            widths.append(max(cell_len(t) for t in texts) + PAD + 1)
        return label, widths

    def one_player_width(self) -> int:
        """The columns the sheet takes with one player's columns in view (the widest player's)."""
        model = self.model
        if model is None:
            return 0
        label, widths = self._widths(model)
        per_player: dict[int, int] = {}
        for (player, _c), w in zip(model.columns, widths, strict=True):
            per_player[player] = per_player.get(player, 0) + w
        return label + max(per_player.values(), default=0) + SCROLLBAR

    def players_to_show(self, model: SheetModel) -> tuple[int, ...]:
        """The players whose columns fit in :attr:`room`: all of them, or a window from :attr:`first`."""
        players = sorted({p for p, _c in model.columns})
        if self.room <= 0:
            return tuple(players)
        label, widths = self._widths(model)
        per_player = {p: sum(w for (q, _c), w in zip(model.columns, widths, strict=True) if q == p) for p in players}
        rows = len(model.rows) + (2 if any(model.marks) else 1)
        room = self.room - label - (SCROLLBAR if rows > max(self.size.height, self.screen.size.height - 2) else 0)
        if sum(per_player.values()) <= room:
            return tuple(players)
        start = players.index(self.first) if self.first in players else 0
        out: list[int] = []
        for k in range(len(players)):
            p = players[(start + k) % len(players)]
            if out and sum(per_player[q] for q in out) + per_player[p] > room:
                break
            out.append(p)
        return tuple(out)

    # -- drawing ------------------------------------------------------------------------------------
    def _draw(self) -> None:
        model = self.model
        if model is None:
            return
        shown = self.players_to_show(model)
        cols = [k for p in shown for k, (q, _c) in enumerate(model.columns) if q == p]
        if shown != self.shown:
            self.shown = shown
            hidden = tuple(p for p in sorted({p for p, _c in model.columns}) if p not in shown)
            self.post_message(self.Paged(shown, hidden))
        self._cols = cols
        bare = tuple((model.names or model.headers)[k].removeprefix("▶") for k in cols)
        marks = tuple(model.marks[k] for k in cols) if model.marks else ()
        two_rows = any(marks)
        cells = [[_label_text(row), *(_cell_text(row.cells[k]) for k in cols)] for row in model.rows]
        star = self._coordinate(self.star)
        if star is not None:
            cells[star.row][star.column] = Text.assemble(("★", "bold green"), cells[star.row][star.column])

        def header(j: int) -> Text:
            current = model.columns[cols[j]][0] == model.current
            text = (("▶" if current else " ") + bare[j]) if bare[j] else ""  # same width either way
            label = f"{text}\n{marks[j]}" if two_rows else text
            return Text(label, style="bold reverse" if current else "bold", justify="right")

        headers = [header(j) for j in range(len(cols))]
        # The player to act changes every turn: that restyles the headers; it does not rebuild the table. The
        # column widths are measured here, not by the DataTable when it next idles (a picture taken before
        # then showed a widened cell cut, "14" as "1"): a column that must widen rebuilds the table.
        widths = (
            _fit([Text(), *(r[0] for r in cells)]),
            *(_fit([headers[j], *(r[j + 1] for r in cells)]) for j in range(len(cols))),
        )
        layout = (bare, marks, tuple(r.label for r in model.rows), widths)
        if layout != self._layout:
            self.clear(columns=True)
            self.header_height = 2 if two_rows else 1
            self.add_column("", key="label", width=widths[0])
            for j, label in enumerate(headers):
                self.add_column(label, key=f"v{j}", width=widths[1 + j])
            for k, row_cells in enumerate(cells):
                self.add_row(*row_cells, key=f"r{k}")
            self._layout = layout
        else:
            for k, row_cells in enumerate(cells):
                for j, cell in enumerate(row_cells):
                    if not _same_text(cell, self._cells[k][j]):
                        self.update_cell_at(Coordinate(k, j), cell)
            if headers != self._headers:
                for j, label in enumerate(headers):
                    self.columns[ColumnKey(f"v{j}")].label = label
                self._clear_caches()  # the header lines are cached; a label changed in place needs a redraw
                self.refresh()
        self._headers = headers
        self._cells = cells
        self._sync_cursor()

    def _coordinate(self, choice: tuple[int, int] | None) -> Coordinate | None:
        """The cell of the player to act's (column, box), if it is in view."""
        model = self.model
        if choice is None or model is None or model.current is None:
            return None
        k = model.value_column(model.current, choice[0])
        if k not in self._cols:
            return None
        return Coordinate(model.row_of_box(choice[1]), 1 + self._cols.index(k))

    def _sync_cursor(self) -> None:
        coord = self._coordinate(self.cursor_box)
        self.show_cursor = coord is not None
        if coord is not None and self.cursor_coordinate != coord:
            self.cursor_coordinate = coord

    def text(self) -> str:
        """The sheet as shown (the players in view), in plain text: for tests and screen readers."""
        lines = ["\t".join(["", *(h.plain.replace("\n", " ") for h in self._headers)])]
        lines += ["\t".join(c.plain for c in row) for row in self._cells]
        return "\n".join(lines)

    # -- the mouse ----------------------------------------------------------------------------------
    def on_mouse_down(self, event: MouseDown) -> None:
        """Note a press of the mouse: a highlight that follows it is a click, not our own cursor move."""
        self._pressed = True

    def _box_at(self, coord: Coordinate) -> tuple[int | None, int] | None:
        """The (column, box) of the player to act at a cell; (None, box) for a box's name."""
        model = self.model
        if model is None or model.current is None or coord.row >= len(model.rows):
            return None
        box = model.rows[coord.row].box
        if box is None:
            return None
        if coord.column == 0:
            return (None, box)
        player, column = model.columns[self._cols[coord.column - 1]]
        return (column, box) if player == model.current else None

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        """A click on a cell chooses its box; a click on a box's name asks to enter the dice there."""
        event.stop()
        clicked, self._pressed = self._pressed, False
        hit = self._box_at(event.coordinate) if clicked else None
        if hit is None:
            self._sync_cursor()
            return
        column, box = hit
        self.post_message(self.Picked(column, box, enter=column is None))
        self._sync_cursor()  # back on the chosen box until the screen chooses the clicked one

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        """A second click on the chosen box asks to enter the dice there."""
        event.stop()
        column, box = self._box_at(event.coordinate) or (None, -1)
        if column is not None and (column, box) == self.cursor_box:
            self.post_message(self.Picked(column, box, enter=True))
