"""The score sheet as data, ready for a table widget or plain text (no Textual here).

Every player's every column; filled boxes, the current dice's potential scores in the boxes they may
enter, upper sums, bonus progress, extra points and totals. The app draws it in a ``DataTable``; tests
and screen readers read :func:`sheet_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pasch.i18n import N_, _, box_name, ngettext
from pasch.rules import BoxOption, ExtraPolicy, Order
from pasch.rules._scorers import ScorerKind

__all__ = ["Cell", "Row", "SheetModel", "bonus_progress", "build_sheet", "column_legend", "sheet_text"]

ORDER_MARK = {Order.FREE: "", Order.DOWN: "↓", Order.UP: "↑", Order.ANNOUNCED: "!"}


@dataclass(frozen=True, slots=True)
class Cell:
    """One value cell: its text and its kind (``filled``, ``potential``, ``open``, ``sum``, ``total``, or
    ``announced``: the box announced this turn in kniffel-4's announced column, marked ``!``)."""

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
    """

    headers: tuple[str, ...]
    columns: tuple[tuple[int, int], ...]
    rows: tuple[Row, ...]
    options: dict[tuple[int, int], BoxOption]
    current: int | None

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


def column_legend(rules: Any) -> str:
    """What each column's mark means, for multi-column games (empty for one column):
    ``Columns: 1↓ top to bottom · 2↑ bottom to top · 3! announced · 4 free order``."""
    if rules.n_columns < 2:
        return ""
    parts = [f"{c + 1}{ORDER_MARK[order]} {_(_ORDER_WORDS[order])}" for c, order in enumerate(rules.columns)]
    return _("Columns: {columns}").format(columns=" · ".join(parts))


def _option_text(opt: BoxOption) -> str:
    return f"{opt.points}+{opt.extra}" if opt.extra else str(opt.points)


def bonus_progress(state: Any, player: int, column: int = 0) -> str | None:
    """``12 to go for +35``, ``bonus +35 earned`` or ``bonus out of reach``; None without a bonus."""
    rules = state.rules
    if rules.bonus_threshold is None:
        return None
    t = state.column_totals(player, column)
    if t.bonus:
        return _("bonus +{bonus} earned").format(bonus=rules.bonus)
    if _max_upper(state, player, column) < rules.bonus_threshold:
        return _("bonus out of reach")
    need = rules.bonus_threshold - t.upper
    return ngettext("{n} to go for +{bonus}", "{n} to go for +{bonus}", need).format(n=need, bonus=rules.bonus)


def _max_upper(state: Any, player: int, column: int) -> int:
    rules = state.rules
    col = state.sheets[player].columns[column]
    best = state.column_totals(player, column).upper
    for i in rules.upper_indices:
        sc = rules.categories[i].scorer
        if col.scores[i] is None and sc.kind is ScorerKind.FACE:
            best += sc.face * rules.dice
    return int(best)


def _bonus_cell(state: Any, player: int, column: int) -> Cell:
    rules = state.rules
    t = state.column_totals(player, column)
    if t.bonus:
        return Cell(str(t.bonus), "sum")
    col = state.sheets[player].columns[column]
    if all(col.scores[i] is not None for i in rules.upper_indices):
        return Cell("0", "sum")
    if _max_upper(state, player, column) < rules.bonus_threshold:
        return Cell("–", "sum")
    return Cell(_("-{n}").format(n=rules.bonus_threshold - t.upper), "progress")


def build_sheet(state: Any, show_potential: bool = True) -> SheetModel:
    """Lay out the sheet of a sheet game's state.

    Args:
        state: a ``pasch.engine.GameState``.
        show_potential: show what the current dice would score in the boxes they may enter.
    """
    rules = state.rules
    n_cols = rules.n_columns
    players = state.players
    pcs = tuple((p, c) for p in range(len(players)) for c in range(n_cols))
    current = None if state.is_terminal else state.current
    headers = []
    for p, c in pcs:
        name = players[p]
        if n_cols > 1:
            name = f"{name} {c + 1}{ORDER_MARK[rules.columns[c]]}"
        headers.append(("▶" if p == current else "") + name)
    options = {(c, o.index): o for c, o in state.score_options()} if current is not None else {}
    rows: list[Row] = []

    def box_row(i: int) -> Row:
        cells = []
        for p, c in pcs:
            col = state.sheets[p].columns[c]
            v = col.scores[i]
            is_cur = p == current
            if v is not None:
                cells.append(Cell(f"{v}*" if i in col.doubled else str(v), "filled", is_cur))
                continue
            opt = options.get((c, i)) if is_cur and show_potential else None
            announced = is_cur and state.announced == i and rules.columns[c] is Order.ANNOUNCED
            mark = "!" if announced else ""
            if opt is not None:
                cells.append(Cell(mark + _option_text(opt), "announced" if announced else "potential", is_cur))
            else:
                cells.append(Cell(mark, "announced" if announced else "open", is_cur))
        return Row(box_name(rules, i), tuple(cells), i)

    totals = {pc: state.column_totals(*pc) for pc in pcs}
    upper = [i for i, cat in enumerate(rules.categories) if cat.is_upper]
    lower = [i for i, cat in enumerate(rules.categories) if not cat.is_upper]
    rows.extend(box_row(i) for i in upper)
    if upper:
        rows.append(Row(_("Upper sum"), tuple(Cell(str(totals[pc].upper), "sum") for pc in pcs), kind="sum"))
        if rules.bonus_threshold is not None:
            label = _("Bonus (+{bonus} at {threshold})").format(bonus=rules.bonus, threshold=rules.bonus_threshold)
            rows.append(Row(label, tuple(_bonus_cell(state, *pc) for pc in pcs), kind="sum"))
    rows.extend(box_row(i) for i in lower)
    if rules.extra is not ExtraPolicy.NONE:
        rows.append(Row(_("Extra points"), tuple(Cell(str(totals[pc].extra), "sum") for pc in pcs), kind="sum"))
    rows.append(Row(_("Total"), tuple(Cell(str(totals[pc].total), "total") for pc in pcs), kind="total"))
    if n_cols > 1:
        grand = tuple(Cell(str(state.total(p)) if c == 0 else "", "total") for p, c in pcs)
        rows.append(Row(_("Grand total"), grand, kind="total"))
    return SheetModel(tuple(headers), pcs, tuple(rows), options, current)


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
            if cell.kind == "potential" or (cell.kind == "announced" and text != "!"):
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
