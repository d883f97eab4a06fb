"""Undo: holds, a box until the next player throws, never a seen throw; exact restoration around the
extra-five-alike bonus (the classic bug of these games)."""

from __future__ import annotations

from typing import Any

import pytest

from pasch.engine import Game, GameLog
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen

from .conftest import drive, settle

# Upper 40 (ones 3, twos 6, threes 9, fours 16, sixes 6), the five-alike box 50, then five 5s on the table:
# entering them in fives crosses the bonus threshold and earns extra points at once.
SETUP = [
    ("1 1 1 2 3", "ones"),
    ("1 2 2 2 3", "twos"),
    ("1 2 3 3 3", "threes"),
    ("1 4 4 4 4", "fours"),
    ("1 2 3 4 6", "sixes"),
    ("6 6 6 6 6", "yahtzee"),
]


def _extra_log(rules: str) -> GameLog:
    game = Game(rules, ["Ada"])
    for dice, box in SETUP:
        game.act("roll")
        game.throw([int(d) for d in dice.split()])
        game.act(f"score {box}")
    game.act("roll")
    game.throw([5, 5, 5, 5, 5])
    return game.log


@pytest.mark.parametrize(("rules", "extra"), [("kniffel", 50), ("yahtzee", 100), ("kniffel-classic", 100)])
def test_undo_restores_totals_bonus_and_extra_exactly(rules: str, extra: int) -> None:
    session = Session.from_log(_extra_log(rules), ["human"], seed=1)
    app = PaschApp(session=session, bot_delay=0, save=False)
    fives = session.match.rules.category_index("fives")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        before = session.match.state
        actions_before = list(session.match.game.actions)
        text_before = screen.sheet_text()
        bonus_before = screen.bonus_text()
        assert screen.selected == (0, fives)
        t0 = before.column_totals(0)
        assert (t0.upper, t0.bonus, t0.extra) == (40, 0, 0)

        await pilot.press("enter")
        t1 = session.match.state.column_totals(0)
        assert session.match.state.sheets[0].columns[0].scores[fives] is not None
        assert t1.bonus == 35 and t1.extra == extra
        assert "bonus +35 earned" in screen.bonus_text()
        text_after = screen.sheet_text()

        await pilot.press("u")
        assert session.match.state is before
        assert session.match.game.actions == actions_before
        assert session.match.state.column_totals(0) == t0
        assert screen.sheet_text() == text_before
        assert screen.bonus_text() == bonus_before

        await pilot.press("enter")  # the same choice again gives the same sheet
        assert screen.sheet_text() == text_after
        await pilot.press("space")  # the next turn's throw is seen: the box stays
        await pilot.press("u")
        assert screen.message_error and "Nothing to undo" in screen.message
        assert session.match.state.column_totals(0) == t1

    drive(app, body)


def test_undo_hold_changes_but_not_a_throw() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=9)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "1", "2")
        assert session.holds[:2] == (True, True)
        await pilot.press("u")
        assert session.holds[:2] == (True, False)
        await pilot.press("u")
        assert not any(session.holds)
        thrown = session.match.state
        await pilot.press("u")
        assert session.match.state is thrown and session.match.state.throws == 1
        assert "Nothing to undo" in app.screen.message  # type: ignore[attr-defined]

    drive(app, body)


def test_score_undo_until_the_next_player_throws() -> None:
    session = Session.new("kniffel", parse_seats("Ada, Bob"), seed=9)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "enter")
        assert session.match.state.current == 1
        await pilot.press("u")
        assert session.match.state.current == 0 and session.match.state.dice is not None
        await pilot.press("enter")
        await pilot.press("space")  # Bob throws
        await pilot.press("u")
        assert session.match.state.current == 1 and session.match.state.turn == 1
        assert any(s is not None for s in session.match.state.sheets[0].columns[0].scores)

    drive(app, body)


def test_undo_stops_a_waiting_bot() -> None:
    session = Session.new("kniffel", parse_seats("Ada, bot:greedy"), seed=9)
    app = PaschApp(session=session, bot_delay=30, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "enter")
        assert session.match.state.current == 1  # the bot waits its visible delay
        await pilot.press("u")
        assert session.match.state.current == 0 and session.match.state.turn == 0
        app.bot_delay = 0
        await pilot.press("enter")
        await settle(app, pilot)
        assert session.match.state.current == 0 and session.match.state.turn == 2

    drive(app, body)


def test_undo_of_a_box_puts_the_dice_back_as_they_lay() -> None:
    # The match's undo step carries the session's dice layout as its memo: taking back a box restores the
    # faces in their places and the held dice, then each hold change is a step of its own.
    session = Session.new("kniffel", parse_seats("Ada, Bob"), seed=9)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "2", "space")
        rethrown = session.holds  # the held die keeps its place and its hold across the re-throw
        await pilot.press("1")
        one = session.holds
        await pilot.press("4")
        faces, holds = session.faces, session.holds
        assert len(faces) == 5 and len({rethrown, one, holds}) == 3
        thrown = session.match.state
        await pilot.press("enter")
        assert not session.faces and session.match.state.current == 1
        assert session.match.can_undo
        await pilot.press("u")
        assert session.match.state is thrown
        assert (session.faces, session.holds) == (faces, holds)
        await pilot.press("u")
        assert session.faces == faces and session.holds == one
        await pilot.press("u")
        assert session.faces == faces and session.holds == rethrown
        assert not session.match.can_undo  # the re-throw before the holds is seen: it stays

    drive(app, body)


def test_bot_steps_are_not_undone() -> None:
    # A bot's box is not a person's step: undo after the bot's turn has nothing to take back.
    session = Session.new("kniffel", parse_seats("bot:greedy, Ada"), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await settle(app, pilot)
        assert session.match.state.current == 1 and session.match.state.turn == 1
        assert not session.match.can_undo
        await pilot.press("u")
        assert session.match.state.current == 1 and "Nothing to undo" in app.screen.message  # type: ignore[attr-defined]

    drive(app, body)
