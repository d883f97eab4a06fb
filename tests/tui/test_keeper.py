"""The score keeper: final dice and box typed per turn; bad input shows a message and changes nothing."""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox, Input

from pasch.i18n import set_language
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._keeper import KeeperScreen

from .conftest import drive, screen_text


def _keeper(rules: str, players: str = "Ada, Bob") -> tuple[PaschApp, Session]:
    session = Session.new(rules, parse_seats(players), keeper=True)
    return PaschApp(session=session, bot_delay=0, save=False), session


async def _type(pilot: Any, text: str) -> None:
    """Type a line into the (cleared) dice input and press Enter (a refused line is cleared, and quoted)."""
    field = pilot.app.screen.query_one("#dice-input", Input)
    field.value = ""
    await pilot.press(*text[:2])  # typed keys reach the input, not the game's key bindings
    field.value = text
    await pilot.press("enter")


def test_bad_input_changes_nothing() -> None:
    app, session = _keeper("kniffel+forced")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, KeeperScreen)
        start = session.match.state
        for bad, why in [
            ("1234", "exactly 5 dice"),  # four dice
            ("133566", "exactly 5 dice"),  # six dice
            ("13359", "9 is not a die"),
            ("13356 chance", "the next is ones"),  # the forced order forbids chance now
            ("13356 nosuchbox", "is not a box"),
        ]:
            await _type(pilot, bad)
            assert screen.message_error, bad
            assert why in screen.message, (bad, screen.message)
            assert repr(bad) in screen.message  # the message quotes what was typed
            assert screen.query_one("#dice-input", Input).value == ""  # and the field is ready for the next try
            assert session.match.state is start, bad
            assert session.match.game.actions == []
        await _type(pilot, "13356 ones")
        assert not screen.message_error
        assert session.match.state.sheets[0].columns[0].scores[0] == 1
        assert session.match.state.current == 1
        # Bob: the dice first, then the box chosen on the sheet with Enter on an empty line.
        await _type(pilot, "1 1 1 5 6")
        assert session.match.state.dice == (1, 1, 1, 5, 6)
        await pilot.press("enter")
        assert session.match.state.sheets[1].columns[0].scores[0] == 3
        # Ada again: ones is already filled.
        before = session.match.state
        await _type(pilot, "11111 ones")
        assert screen.message_error and "already filled" in screen.message
        assert session.match.state is before

    drive(app, body)


def test_box_already_filled_free_order() -> None:
    app, session = _keeper("kniffel", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        await _type(pilot, "33555 full_house")
        assert session.match.state.sheets[0].columns[0].scores[8] == 25
        before = session.match.state
        await _type(pilot, "22333 full")
        assert screen.message_error and "already filled" in screen.message  # type: ignore[attr-defined]
        assert session.match.state is before
        assert "Full house" in screen.sheet_text()  # type: ignore[attr-defined]

    drive(app, body)


def test_sharp_is_asked_and_doubles() -> None:
    app, session = _keeper("kniffel+sharp", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert screen.query_one("#sharp", Checkbox) is not None
        screen.query_one("#sharp", Checkbox).value = True
        await _type(pilot, "66666 yahtzee")
        col = session.match.state.sheets[0].columns[0]
        y = session.match.rules.category_index("yahtzee")
        assert col.scores[y] == 100 and y in col.doubled
        assert "100*" in screen.sheet_text()  # type: ignore[attr-defined]

    drive(app, body)


def test_no_sharp_question_without_the_rule() -> None:
    app, _session = _keeper("kniffel", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        assert not app.screen.query("#sharp")
        await _type(pilot, "66666 sharp yahtzee")
        assert app.screen.message_error  # type: ignore[attr-defined]
        assert "no sharp rule" in app.screen.message  # type: ignore[attr-defined]

    drive(app, body)


def test_keeper_undo_takes_back_an_entry() -> None:
    app, session = _keeper("kniffel", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        await _type(pilot, "13356 chance")
        assert session.match.state.turn == 1
        await pilot.press("ctrl+z")
        assert session.match.state.turn == 0 and session.match.state.dice == (1, 3, 3, 5, 6)
        await pilot.press("ctrl+z")
        assert session.match.state.dice is None and session.match.game.actions == []

    drive(app, body)


def test_keeper_game_to_the_end_stays_finished() -> None:
    app, session = _keeper("kniffel", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, KeeperScreen)
        for box in session.match.rules.category_ids:
            await _type(pilot, f"13356 {box}")
        await pilot.pause()
        assert session.match.finished
        total = session.match.state.total(0)
        assert f"Game over. Your total: {total}" in screen.message
        assert screen.query_one("#dice-input", Input).disabled
        n = len(session.match.actions)
        await pilot.press("ctrl+z")
        assert session.match.finished and len(session.match.actions) == n

    drive(app, body)


def test_box_names_of_every_language_with_several_words() -> None:
    """German multi-word boxes are taken (they were refused), and so are other languages' names; a box that is
    none lists the boxes by their names in the player's language."""
    session = Session.new("kniffel", parse_seats("Ada"), keeper=True)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="de")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, KeeperScreen)
        await _type(pilot, "12345 große straße")
        col = session.match.state.sheets[0].columns[0]
        assert col.scores[session.match.rules.category_index("large_straight")] == 40, screen.message
        await _type(pilot, "23456 Escalera pequeña")  # Spanish, at a German table
        assert col.scores[session.match.rules.category_index("small_straight")] is None
        col = session.match.state.sheets[0].columns[0]
        assert col.scores[session.match.rules.category_index("small_straight")] == 30, screen.message
        await _type(pilot, "11111 nichts")
        assert screen.message_error and "Große Straße" in screen.message and "large_straight" not in screen.message

    try:
        drive(app, body)
    finally:
        set_language("en")


def test_keeper_keys_stay_out_of_the_dice_field_and_it_has_a_quit_key() -> None:
    """The keeper's hints offer no letter keys (typed letters go to the dice field); F10 saves and quits."""
    app, _session = _keeper("kniffel", "Ada")

    async def body(app: PaschApp, pilot: Any) -> None:
        await _type(pilot, "13356")
        await pilot.press("f2")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert "b:" not in screen_text(app) and "m: all" not in screen_text(app)
        assert "f10 save & quit" in screen_text(app)
        await pilot.press("f10")
        await pilot.pause()
        assert not app.is_running

    drive(app, body)
