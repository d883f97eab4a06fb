"""The score sheet in words, ready for a table widget or plain text (no Textual here).

The layout (which rows, every sum, the bonus progress and whether it is still reachable, extra points,
column and grand totals, what the dice would pay in each box they may enter) is the application layer's
(:func:`pasch.app.sheet_layout`); this module only labels and marks its cells. The app draws the model in
a ``DataTable``; tests and screen readers read :func:`sheet_text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pasch.app import BonusProgress, ColumnLayout, LayoutCache, LayoutRow, RowKind, SheetLayout, sheet_layout
from pasch.engine import Announce, GameState
from pasch.i18n import N_, _, box_name, ngettext
from pasch.rules import BoxOption, Order, RuleSet

__all__ = [
    "Cell",
    "Row",
    "SheetModel",
    "bonus_progress",
    "build_sheet",
    "column_choice",
    "column_legend",
    "default_choice",
    "initial_choice",
    "move_choice",
    "par_text",
    "picked_choice",
    "sheet_choices",
    "sheet_model",
    "sheet_text",
    "short_name",
]

ORDER_MARK = {Order.FREE: "", Order.DOWN: "↓", Order.UP: "↑", Order.ANNOUNCED: "!"}

NAME_WIDTH = 9
"""Longest player name in a sheet's header (longer names end in ``…``), so that 20 players fit a screen."""


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters (the last one ``…`` when cut)."""
    return name if len(name) <= width else name[: width - 1] + "…"


@dataclass(frozen=True, slots=True)
class Cell:
    """One value cell: its text and its kind (``filled``, ``potential``, ``open``, ``sum``, ``total``,
    ``announced``: the box announced this turn in kniffel-4's announced column, marked ``!``, or ``forced``:
    the 0 any other entry of an announced turn must take)."""

    text: str
    kind: str = "open"
    current: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    """A row of the sheet: a box (``box`` is its index), a sum line or a separator (no cells)."""

    label: str
    cells: tuple[Cell, ...]
    box: int | None = None
    kind: str = "box"


@dataclass(frozen=True, slots=True)
class SheetModel:
    """The whole sheet.

    Attributes:
        headers: one header per value column (player name, plus the column number in multi-column games).
        columns: (player, column) of each value column.
        rows: the rows in drawing order.
        options: the current player's legal entries ``(column, box) -> option`` for the dice shown.
        current: the player to act, or None when the game is over.
        names: the first header row of each value column: the player's name over the player's first
            column (shortened to :data:`NAME_WIDTH`), empty over the others.
        marks: the second header row of multi-column games: the column's number and order mark (``2↑``);
            empty strings in single-column games.
    """

    headers: tuple[str, ...]
    columns: tuple[tuple[int, int], ...]
    rows: tuple[Row, ...]
    options: Mapping[tuple[int, int], BoxOption]
    current: int | None
    names: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()

    def value_column(self, player: int, column: int) -> int:
        """Index of (player, column) among the value columns."""
        return self.columns.index((player, column))

    def row_of_box(self, box: int) -> int:
        """Index of a box's row."""
        return next(k for k, r in enumerate(self.rows) if r.box == box)


_ORDER_WORDS = {
    Order.FREE: N_("free order"),
    Order.DOWN: N_("top to bottom"),
    Order.UP: N_("bottom to top"),
    Order.ANNOUNCED: N_("announced"),
}


def column_legend(rules: RuleSet) -> str:
    """What each column's mark means, for multi-column games (empty for one column):
    ``Columns: 1↓ top to bottom · 2↑ bottom to top · 3! announced · 4 free order``."""
    if rules.n_columns < 2:
        return ""
    parts = [f"{c + 1}{ORDER_MARK[order]} {_(_ORDER_WORDS[order])}" for c, order in enumerate(rules.columns)]
    return _("Columns: {columns}").format(columns=" · ".join(parts))


def _option_text(opt: BoxOption) -> str:
    return f"{opt.points}+{opt.extra}" if opt.extra else str(opt.points)


def bonus_progress(progress: BonusProgress | None) -> str | None:
    """``12 to go for +35``, ``bonus +35 earned`` or ``bonus out of reach``; None without a bonus."""
    if progress is None:
        return None
    if progress.earned:
        return _("bonus +{bonus} earned").format(bonus=progress.amount)
    if not progress.reachable:
        return _("bonus out of reach")
    need = progress.need
    text = ngettext("{n} to go for +{bonus}", "{n} to go for +{bonus}", need).format(n=need, bonus=progress.amount)
    if progress.upper or progress.vs_par:
        text += " · " + _("{par} against par").format(par=par_text(progress.vs_par))
    return text


def par_text(vs_par: int) -> str:
    """Upper points against par as ``+3``, ``−6`` or ``±0`` (a true minus sign)."""
    if vs_par == 0:
        return "±0"
    return f"+{vs_par}" if vs_par > 0 else f"−{-vs_par}"


def _bonus_cell(col: ColumnLayout) -> Cell:
    """The bonus row: the bonus once decided, else the upper section against par (``+3``, ``−6``)."""
    progress = col.progress
    if progress is None or progress.earned:
        return Cell(str(col.bonus), "sum")
    if col.upper_open == 0:
        return Cell("0", "sum")
    if not progress.reachable:
        return Cell("–", "sum")
    if progress.upper == 0 and progress.vs_par == 0:
        return Cell("", "sum")  # nothing entered above yet: no par to stand against
    return Cell(par_text(progress.vs_par), "progress")


def _box_cell(layout: SheetLayout, col: ColumnLayout, box: int, show_potential: bool) -> Cell:
    is_cur = col.player == layout.current
    v = col.scores[box]
    if v is not None:
        return Cell(f"{v}*" if box in col.doubled else str(v), "filled", is_cur)
    opt = layout.options.get((col.column, box)) if is_cur and show_potential else None
    announced = is_cur and layout.is_announced_box(col.column, box)
    mark = "!" if announced else ""
    if opt is not None:
        # An announced turn ends in the announced box: every other entry is a forced 0, drawn as such.
        forced = layout.announced is not None and not announced and opt.total == 0
        kind = "announced" if announced else "forced" if forced else "potential"
        return Cell(mark + _option_text(opt), kind, is_cur)
    return Cell(mark, "announced" if announced else "open", is_cur)


def _row(layout: SheetLayout, row: LayoutRow, show_potential: bool) -> Row:
    rules = layout.rules
    cols = layout.columns
    if row.kind is RowKind.BOX:
        assert row.box is not None
        box = row.box
        return Row(box_name(rules, box), tuple(_box_cell(layout, c, box, show_potential) for c in cols), box)
    if row.kind is RowKind.UPPER_SUM:
        return Row(_("Upper sum"), tuple(Cell(str(c.upper), "sum") for c in cols), kind="sum")
    if row.kind is RowKind.BONUS:
        label = _("Bonus (+{bonus} at {threshold})").format(bonus=rules.bonus, threshold=rules.bonus_threshold)
        return Row(label, tuple(_bonus_cell(c) for c in cols), kind="sum")
    if row.kind is RowKind.EXTRA:
        return Row(_("Extra points"), tuple(Cell(str(c.extra), "sum") for c in cols), kind="sum")
    if row.kind is RowKind.TOTAL:
        return Row(_("Total"), tuple(Cell(str(c.total), "total") for c in cols), kind="total")
    grand = tuple(Cell(str(layout.grand_totals[c.player]) if c.column == 0 else "", "total") for c in cols)
    return Row(_("Grand total"), grand, kind="total")


def build_sheet(state: GameState, show_potential: bool = True, cache: LayoutCache | None = None) -> SheetModel:
    """The sheet of a sheet game's state in words (see :func:`sheet_model`).

    Args:
        state: the state.
        show_potential: show what the current dice would score in the boxes they may enter.
        cache: column layouts of the same game seen before (one per screen).
    """
    return sheet_model(sheet_layout(state, cache), show_potential)


def sheet_model(layout: SheetLayout, show_potential: bool = True) -> SheetModel:
    """The sheet of a layout (:func:`pasch.app.sheet_layout`) in words: labels, marks and cell kinds.

    Args:
        layout: the sheet's layout.
        show_potential: show what the current dice would score in the boxes they may enter.
    """
    rules = layout.rules
    multi = rules.n_columns > 1
    headers = []
    names: list[str] = []
    marks: list[str] = []
    for col in layout.columns:
        name = layout.players[col.player]
        mark = f"{col.column + 1}{ORDER_MARK[col.order]}" if multi else ""
        headers.append(("▶" if col.player == layout.current else "") + (f"{name} {mark}" if multi else name))
        first = col.column == 0
        names.append(("▶" if col.player == layout.current else "") + short_name(name) if first else "")
        marks.append(mark)
    rows = tuple(_row(layout, r, show_potential) for r in layout.rows)
    pcs = tuple((c.player, c.column) for c in layout.columns)
    return SheetModel(tuple(headers), pcs, rows, layout.options, layout.current, tuple(names), tuple(marks))


def sheet_text(model: SheetModel, selected: tuple[int, int] | None = None) -> str:
    """The sheet as aligned plain text; the selected (column, box) is bracketed."""
    sel_cell: tuple[int, int] | None = None
    if selected is not None and model.current is not None:
        sel_cell = (model.row_of_box(selected[1]), model.value_column(model.current, selected[0]))
    label_w = max(len(r.label) for r in model.rows)
    table: list[list[str]] = [["", *model.headers]]
    for k, row in enumerate(model.rows):
        cells = []
        for j, cell in enumerate(row.cells):
            text = cell.text
            if cell.kind in ("potential", "forced") or (cell.kind == "announced" and text != "!"):
                text = f"({text})"
            if sel_cell == (k, j):
                text = f"[{text}]"
            cells.append(text)
        table.append([row.label, *cells])
    widths = [max(len(r[j]) for r in table) for j in range(len(table[0]))]
    widths[0] = max(widths[0], label_w)
    lines = []
    for r in table:
        first = r[0].ljust(widths[0])
        rest = [c.rjust(max(w, 3)) for c, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join([first, *rest]).rstrip())
    return "\n".join(lines)


def sheet_choices(state: GameState, announcing: bool) -> list[tuple[int, int]]:
    """The (column, box) a cursor may visit: the legal entries of the dice, or the boxes that may be announced
    (kniffel-4, when announcing or when the announced column must be announced first)."""
    if announcing or (state.dice is not None and state.must_announce()):
        col = next(c for c, o in enumerate(state.rules.columns) if o is Order.ANNOUNCED)
        return sorted(
            (col, state.rules.category_index(a.category)) for a in state.legal_actions() if isinstance(a, Announce)
        )
    return sorted((c, o.index) for c, o in state.score_options())


def default_choice(state: GameState, choices: list[tuple[int, int]], announcing: bool) -> tuple[int, int] | None:
    """Where the cursor starts: the announced box of an announced turn, else the box that pays most now."""
    if not choices or announcing:
        return choices[0] if choices else None
    if state.announced is not None:  # an announced turn ends in the announced box unless crossed out elsewhere
        for c, order in enumerate(state.rules.columns):
            if order is Order.ANNOUNCED and (c, state.announced) in choices:
                return (c, int(state.announced))
    pays = {(c, o.index): o.total for c, o in state.score_options()}
    return max(choices, key=lambda ch: (pays.get(ch, 0), -ch[0], -ch[1]))


Choice = tuple[int, int]


def move_choice(choices: list[Choice], selected: Choice, step: int) -> Choice:
    """The previous (``step`` -1) or next (+1) choice in the selected one's column, wrapping around."""
    same = [ch for ch in choices if ch[0] == selected[0]]
    return same[(same.index(selected) + step) % len(same)] if selected in same else selected


def column_choice(choices: list[Choice], selected: Choice, step: int) -> Choice:
    """The nearest choice (by row) in the previous or next column that has one."""
    cols = sorted({c for c, _i in choices})
    if selected[0] not in cols:
        return selected
    col = cols[(cols.index(selected[0]) + step) % len(cols)]
    return min((ch for ch in choices if ch[0] == col), key=lambda ch: abs(ch[1] - selected[1]))


def initial_choice(rules: RuleSet, choices: list[Choice], selected: Choice, letter: str) -> Choice | None:
    """The next choice of the selected one's column whose box name (in the current language) starts with
    ``letter``; None when no box does."""
    same = [ch for ch in choices if ch[0] == selected[0]]
    hits = [ch for ch in same if box_name(rules, ch[1]).lower().startswith(letter.lower())]
    return next((ch for ch in hits if ch[1] > selected[1]), hits[0]) if hits else None


def picked_choice(choices: list[Choice], selected: Choice | None, column: int | None, box: int) -> Choice | None:
    """The choice a click on ``box`` means: in ``column``, or for a click on the box's name (``column``
    None) in the selected one's column, else the first column that takes it; None when it takes nothing."""
    legal = [ch for ch in choices if ch[1] == box]
    if column is not None:
        return (column, box) if (column, box) in legal else None
    want = selected[0] if selected is not None else None
    return next((ch for ch in legal if ch[0] == want), legal[0] if legal else None)
