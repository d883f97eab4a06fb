"""Rules in the game: the rules card from the rule-set data, jump to a box by its initial, a click on a
box's name scores it, and the log of the last bot turn."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from textual.widgets import DataTable

from pasch.app import box_rule
from pasch.i18n import box_name
from pasch.rules import BASES, get
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._confirm import ConfirmScreen
from pasch.tui._game import SheetGameScreen
from pasch.tui._rules import RulesScreen, rules_card

from .conftest import drive, screen_text, settle


@pytest.mark.parametrize("rules_id", sorted(BASES))
def test_rules_card_names_every_box_and_what_it_pays(rules_id: str) -> None:
    rules = get(rules_id)
    card = rules_card(rules)
    assert rules.name in card
    if rules.knaster is not None:
        kn = rules.knaster
        assert " ".join(map(str, kn.row_values)) in card and " ".join(map(str, kn.diagonal_values)) in card
        assert all(f"{n}" in card for _c, n in kn.combinations)
        return
    for i, cat in enumerate(rules.categories):
        asks, pays = box_rule(cat.scorer, rules.dice)
        boxes = card.split("\n\n")[2]  # title, then dice and columns, then the table of boxes
        line = next(ln for ln in boxes.splitlines() if ln.startswith(box_name(rules, i) + " "))
        assert asks in line and pays in line, line
    if rules.bonus_threshold is not None:
        assert f"+{rules.bonus} for {rules.bonus_threshold}" in card


def test_rules_card_follows_the_data_not_the_name() -> None:
    base = get("kniffel")
    changed = dataclasses.replace(base, bonus_threshold=70, bonus=40)
    assert "+40 for 70" in rules_card(changed) and "+35 for 63" not in rules_card(changed)
    sharp = rules_card(get("kniffel+sharp"))
    assert "+sharp" in sharp and "(×2 sharp)" in sharp
    assert "(×2 sharp)" not in rules_card(base)


def _screen(app: PaschApp) -> SheetGameScreen:
    screen = app.screen
    assert isinstance(screen, SheetGameScreen)
    return screen


def test_rules_key_initials_and_clicking_a_box_name() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("i")
        assert isinstance(app.screen, RulesScreen)
        await pilot.pause()
        assert "Full house" in screen_text(app)
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("space")
        rules = session.match.rules
        await pilot.press("c")  # Chance
        assert screen.selected == (0, rules.category_index("chance"))
        await pilot.press("f")  # Fours, Fives, Full house in turn
        first = screen.selected
        await pilot.press("f")
        assert first is not None and screen.selected is not None and screen.selected[1] > first[1]
        assert box_name(rules, screen.selected[1]).lower().startswith("f")
        # a click on a box's name enters the dice there, after a second chance (two throws are left)
        table = screen.query_one("#sheet", DataTable)
        model = screen.model
        assert model is not None
        row = model.row_of_box(rules.category_index("chance"))
        chance = rules.category_index("chance")
        await pilot.click(table, offset=(2, row + table.header_height))
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and "2 throws left" in screen_text(app)
        await pilot.press("n")  # not now: nothing is entered
        assert app.screen is screen and session.match.state.sheets[0].columns[0].scores[chance] is None
        assert "Not entered" in screen.message
        await pilot.click(table, offset=(2, row + table.header_height))
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert session.match.state.sheets[0].columns[0].scores[chance] is not None

    drive(app, body)


def test_last_bot_turn_is_logged() -> None:
    session = Session.new("kniffel", parse_seats("Ada, bot:greedy"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("space", "enter")
        await settle(app, pilot)
        text = str(screen.query_one("#botlog").render())
        assert text.startswith("Last turn of GreedyBot:")
        assert "GreedyBot throws." in text and "GreedyBot entered" in text
        assert screen.query_one("#botlog").has_class("shown")

    drive(app, body)
