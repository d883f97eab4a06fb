"""Multi-column sheets in the terminal: every column of every player, the column marks and their legend,
per-column totals and the grand total, and kniffel-4's announced box marked during the announced turn."""

from __future__ import annotations

from typing import Any

import pytest
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from pasch.engine import Game
from pasch.rules import Order
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen
from pasch.tui._sheet import build_sheet, column_legend, sheet_text

from .conftest import drive


@pytest.mark.parametrize(
    ("rules", "headers", "legend"),
    [
        ("jetsi", ["Ada 1", "Ada 2↓", "Ada 3↑", "Bob 1", "Bob 2↓", "Bob 3↑"], "1 free order · 2↓ top to bottom"),
        ("kniffel-3", ["Ada 1↓", "Ada 2↑", "Ada 3", "Bob 1↓", "Bob 2↑", "Bob 3"], "2↑ bottom to top · 3 free"),
        (
            "kniffel-4",
            ["Ada 1↓", "Ada 2↑", "Ada 3!", "Ada 4", "Bob 1↓", "Bob 2↑", "Bob 3!", "Bob 4"],
            "3! announced · 4 free order",
        ),
    ],
)
def test_every_column_of_every_player(rules: str, headers: list[str], legend: str) -> None:
    game = Game(rules, ["Ada", "Bob"])
    game.act("roll")
    game.throw([6, 6, 6, 6, 6])
    first = next(a for a in game.state.legal_actions() if str(a).startswith("score"))
    game.act(first)
    model = build_sheet(game.state)
    assert [h.lstrip("▶") for h in model.headers] == headers
    n_cols = len(headers) // 2
    assert model.columns == tuple((p, c) for p in range(2) for c in range(n_cols))
    text = sheet_text(model)
    total = next(r for r in model.rows if r.label == "Total")
    grand = next(r for r in model.rows if r.label == "Grand total")
    assert len(total.cells) == len(headers)
    st = game.state
    assert [c.text for c in total.cells] == [str(st.column_totals(p, c).total) for p, c in model.columns]
    assert [c.text for c in grand.cells] == [str(st.total(p)) if c == 0 else "" for p, c in model.columns]
    assert "Upper sum" in text and "Bonus (+35 at 63)" in text
    assert legend in column_legend(st.rules)


def test_single_column_games_have_no_legend() -> None:
    assert column_legend(Game("kniffel", ["Ada"]).rules) == ""


def test_kniffel4_announced_box_is_marked_on_screen() -> None:
    session = Session.new("kniffel-4", parse_seats("Ada, Bob"), seed=2)
    app = PaschApp(session=session, bot_delay=0, save=False)
    col = session.match.rules.columns.index(Order.ANNOUNCED)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        assert "3! announced" in str(screen.query_one("#legend").render())
        await pilot.press("space", "a")
        assert screen.announcing and screen.selected is not None and screen.selected[0] == col
        await pilot.press("down", "down", "enter")
        st = session.match.state
        box = st.announced
        assert box is not None
        assert "announced:" in screen.turn_text()
        # The model, the text and the drawn table mark the announced box of Ada's announced column.
        model = screen.model
        assert model is not None
        row = model.row_of_box(box)
        j = model.value_column(0, col)
        cell = model.rows[row].cells[j]
        assert cell.kind == "announced" and cell.text.startswith("!")
        marked = [(k, i) for k, r in enumerate(model.rows) for i, c in enumerate(r.cells) if c.kind == "announced"]
        assert marked == [(row, j)]
        line = screen.sheet_text().splitlines()[row + 1]
        assert "!" in line and "[(!" in line  # marked and preselected: the turn should end there
        assert screen.selected == (col, box)
        table = screen.query_one("#sheet", DataTable)
        drawn = table.get_cell_at(Coordinate(row, 1 + j))
        assert drawn.plain.startswith("!") and "reverse" in str(drawn.style)
        # Bob's announced column is not marked; after entering, the mark is gone.
        assert model.rows[row].cells[model.value_column(1, col)].kind != "announced"
        await pilot.press("enter")
        assert session.match.state.announced is None
        after = screen.model
        assert after is not None
        assert all(c.kind != "announced" for r in after.rows for c in r.cells)

    drive(app, body)
