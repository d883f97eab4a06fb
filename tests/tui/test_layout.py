"""Layout at every terminal size: every die is on screen and a click on it reaches it, the status line shows,
the sheet keeps its place beside the dice and scrolls when it must (20 players included)."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest
from textual.widgets import DataTable

from pasch.rules import get
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._sheetview import SheetView
from pasch.tui._widgets import DiceBar, Die

from .conftest import drive, screen_text, settle

SIZES = [(80, 24), (100, 30), (120, 40), (200, 50)]
GAMES = [
    ("kniffel", "Ada"),
    ("yatzy", "Ada, Bob, Cy"),
    ("jetsi", "Ada"),
    ("kniffel-4", "Ada, Bob"),
    ("knaster", "Ada, Bob, Cy"),
]


def _dice_reachable(app: PaschApp, size: tuple[int, int]) -> None:
    """Every die lies inside the screen, and the widget under its centre is the die itself."""
    dice = list(app.screen.query(Die))
    assert dice
    for die in dice:
        region = die.region
        assert region.width >= 5 and region.height >= 3, (die.id, region)
        assert region.right <= size[0] and region.bottom <= size[1], (die.id, region, size)
        x, y = region.x + region.width // 2, region.y + region.height // 2
        widget, _ = app.screen.get_widget_at(x, y)
        assert widget is die, (die.id, widget)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize(("rules", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_every_die_visible_and_clickable(rules: str, players: str, size: tuple[int, int]) -> None:
    session = Session.new(rules, parse_seats(players), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space")
        await pilot.pause()
        _dice_reachable(app, size)
        if rules != "knaster":
            bar = app.screen.query_one(DiceBar)
            if size[0] == 80:
                assert bar.compact  # five large dice need 80 columns of their own
            if size[0] == 200:
                assert not bar.compact  # a large screen shows large dice
            first = app.screen.query_one("#die-1", Die)
            await pilot.click(first)  # a click holds the die
            assert session.holds[0]
            table = app.screen.query_one("#sheet", DataTable)
            assert table.region.right <= size[0]
            status = app.screen.query_one("#turn")
            assert status.region.height >= 1 and status.region.right <= size[0]

    drive(app, body, size=size)


def test_twenty_players_lay_out() -> None:
    """20 players: names shortened in the header; the sheet never scrolls sideways but shows the players that
    fit, the one to act first; Tab shows the next ones; the totals of those out of view are listed."""
    rules = dataclasses.replace(get("yatzy"), max_players=20)
    names = ", ".join(f"Player number {k + 1}" for k in range(20))
    session = Session.new(rules, parse_seats(names), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space")
        await pilot.pause()
        _dice_reachable(app, (100, 30))
        table = app.screen.query_one("#sheet", SheetView)
        assert table.region.right <= 100
        assert table.virtual_size.width <= table.region.width  # nothing scrolls sideways
        assert table.shown[0] == 0 and 1 < len(table.shown) < 20
        labels = [str(c.label) for c in table.columns.values()]
        assert "▶Player n…" in labels and all(len(label) <= 10 for label in labels)
        others = str(app.screen.query_one("#others").render())
        assert "Out of view" in others and f"Player n… {0}" in others
        shown = table.shown
        await pilot.press("tab")
        await pilot.pause()
        assert table.shown[0] == shown[-1] + 1
        svg = app.export_screenshot()
        assert "Ones" in svg and "Chance" in svg and "Player&#160;n…" in svg

    drive(app, body, size=(100, 30))


def test_a_filled_box_loses_the_style_of_a_choice() -> None:
    """A box entered with the value it showed as a choice is redrawn as filled (Text equality ignores style)."""
    from textual.coordinate import Coordinate

    session = Session.new("kniffel", parse_seats("Ada, Bob"), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space")
        screen = app.screen
        table = screen.query_one("#sheet", DataTable)
        box = session.match.rules.category_index("chance")
        row = screen.model.row_of_box(box)  # type: ignore[attr-defined]
        assert "italic" in str(table.get_cell_at(Coordinate(row, 1)).style)  # what the dice would pay
        await pilot.press("c", "enter")  # Chance: the same number, now entered
        await pilot.pause()
        assert session.match.state.sheets[0].columns[0].scores[box] is not None
        assert str(table.get_cell_at(Coordinate(row, 1)).style) == ""

    drive(app, body, size=(120, 40))


def test_hints_and_a_bot_turn_fit_80x24_without_scrolling() -> None:
    """Three players (two bots) at 80x24: the dice, the status lines, the last bot turn and the hints with the
    win tables' statement all fit the left column: it does not scroll, and the hint panel's keys show."""
    session = Session.new("yatzy", parse_seats("Ada, bot:greedy, bot:greedy"), seed=11)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("h", "space", "enter")
        await settle(app, pilot)
        await pilot.press("space", "1")
        await settle(app, pilot)
        screen = app.screen
        assert str(screen.query_one("#botlog").render()).startswith("Last turn of")
        assert screen.query_one("#left").max_scroll_y == 0
        assert "b: play · m: all" in screen_text(app)

    drive(app, body, size=(80, 24))


@pytest.mark.parametrize(
    ("rules", "players", "keeper", "lang"),
    [("kniffel-4", "Ada, Bob", False, "en"), ("yatzy", "Ada, Bob", False, "de"), ("kniffel", "Ada", True, "es")],
)
def test_the_footer_never_cuts_a_key(rules: str, players: str, keeper: bool, lang: str) -> None:
    """At 80 columns every key the footer shows is whole (it once ran under the palette key: "a announ▏^p")."""
    from textual.widgets._footer import FooterKey

    session = Session.new(rules, parse_seats(players), seed=3, keeper=keeper)
    app = PaschApp(session=session, bot_delay=0, save=False, lang=lang)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.pause()
        keys = sorted(app.screen.query(FooterKey), key=lambda k: k.region.x)
        assert keys and all(k.region.right <= 80 and k.region.width > 0 for k in keys)
        assert all(a.region.right <= b.region.x for a, b in itertools.pairwise(keys))  # none under another
        assert any(k.action in ("help", "quit_game") for k in keys)

    drive(app, body, size=(80, 24))
