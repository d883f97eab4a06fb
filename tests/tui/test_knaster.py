"""Pilot tests of the Knaster screen: a whole game by keys against a bot, the grids' circles, owed and
fully circled lines, mouse, undo, refusals, resume, the setup screen, help and languages."""

from __future__ import annotations

from typing import Any

from textual.widgets import Select

from pasch.engine import Circle, Game, GameLog, Pass, Roll, Write, line_value, parse_cell
from pasch.i18n import set_language
from pasch.storage import Repository
from pasch.tui import GAME_SCREENS, PaschApp, Session, parse_seats
from pasch.tui._grid import GridCell, GridMarks, GridView, LineValue, grid_text
from pasch.tui._help import HelpScreen
from pasch.tui._knaster import KnasterGameScreen, knaster_hint
from pasch.tui._setup import SetupScreen

from .conftest import drive, screen_text, settle


def _screen(app: PaschApp) -> KnasterGameScreen:
    screen = app.screen
    assert isinstance(screen, KnasterGameScreen)
    return screen


def _cell(app: PaschApp, player: int, name: str) -> GridCell:
    return app.screen.query_one(f"#g{player}-{name}", GridCell)


def _value(app: PaschApp, player: int, line: int) -> LineValue:
    return app.screen.query_one(f"#g{player}-line{line}", LineValue)


def _full_house_log() -> GameLog:
    """Ada alone writes 7 7 7 5 5 into row 1: a full house, she owes two circles in it."""
    game = Game("knaster", ["Ada"])
    for dice, cell in [((3, 4), "a1"), ((3, 4), "b1"), ((2, 5), "c1"), ((1, 4), "d1"), ((2, 3), "e1")]:
        game.act("roll")
        game.throw(dice)
        game.act(f"write {sum(dice)} at {cell}")
    return game.log


def test_the_knaster_screen_is_registered() -> None:
    from pasch.rules import GameKind

    assert GAME_SCREENS[GameKind.KNASTER] is KnasterGameScreen


def test_whole_game_by_keys_against_a_bot(tmp_path: Any) -> None:
    """Ada follows the hint by keys (column letter, row digit, Enter; p to pass) to the end of the game."""
    session = Session.new("knaster", parse_seats("Ada, bot:optimal"), seed=2)
    app = PaschApp(session=session, bot_delay=0, data_dir=tmp_path)
    seen = {"circled": False, "scored": False, "passed": False}

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert screen.query_one("#grid-0", GridView).has_class("current")
        steps = 0
        while not session.match.finished:
            steps += 1
            assert steps < 400
            st = session.match.state
            assert not session.match.seat.is_bot, "a bot seat was left waiting"
            if st.number is None:
                await pilot.press("space")
                assert session.match.state.number == sum(session.match.state.dice)
                assert str(session.match.state.number) in screen.turn_text()
            else:
                action = knaster_hint(st)
                if isinstance(action, Pass):
                    await pilot.press("p")
                    seen["passed"] = True
                else:
                    assert isinstance(action, Write | Circle)
                    n_before = len(session.match.game.actions)
                    await pilot.press(action.cell[0], action.cell[1], "enter")
                    assert session.match.game.actions[n_before] == str(action)
                    if isinstance(action, Circle):
                        cell = _cell(app, 0, action.cell)
                        assert cell.has_class("circled")
                        assert cell.text == f"({st.grids[0].number(action.cell)})"
                        seen["circled"] = True
            await settle(app, pilot)
            for k in session.match.state.grids[0].scored_lines():
                value = _value(app, 0, k)
                assert value.has_class("scored") and value.text == f"[{line_value(session.match.state.knaster, k)}]"
                seen["scored"] = True
        assert "Game over" in screen.message
        st = session.match.state
        out = st.outcome()
        assert out.winners == ("Ada",)
        assert "Winner: Ada" in screen.message
        standings = screen.standings_text().splitlines()
        assert standings[0] == f"1. Ada  {st.total(0)}"
        assert standings[1] == f"2. OptimalBot  {st.total(1)}"
        # Every cell of both grids shows what the state holds.
        for p in range(2):
            grid = st.grids[p]
            for name in ("a1", "c3", "e5", "b4"):
                n = grid.number(name)
                want = f"({n})" if grid.is_circled(name) else str(n)
                assert _cell(app, p, name).text == want
            assert screen.query_one(f"#grid-{p}", GridView).border_subtitle == f"{st.total(p)} points"
        svg = app.export_screenshot()
        assert "OptimalBot" in svg and "Ada" in svg
        (tmp_path / "knaster.svg").write_text(svg, encoding="utf-8")
        (tmp_path / "knaster.txt").write_text(screen.grid_text(0) + "\n\n" + screen.grid_text(1), encoding="utf-8")

    drive(app, body)
    assert seen == {"circled": True, "scored": True, "passed": True}
    with Repository(directory=tmp_path) as repo:
        (rec,) = repo.games()
    assert rec.finished and rec.winners == ("Ada",)
    assert [p.total for p in rec.players] == list(session.match.state.totals())
    assert list(rec.log.actions) == session.match.game.actions


def test_owed_line_is_highlighted_and_circled_by_keys() -> None:
    session = Session.from_log(_full_house_log(), ["human"], seed=1)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        st = session.match.state
        assert st.duties and st.duties[0].owed == 2
        assert "circle 2 more cells in row 1 (full house)" in screen.duty_text()
        for name in ("a1", "b1", "c1", "d1", "e1"):
            assert _cell(app, 0, name).has_class("owed")
        assert not _cell(app, 0, "a2").has_class("owed")
        assert _value(app, 0, 0).has_class("complete")
        assert screen.cursor in {parse_cell(c)[1] for c in ("a1", "b1", "c1", "d1", "e1")}
        await pilot.press("a", "1", "enter")  # circle a1
        assert _cell(app, 0, "a1").has_class("circled") and _cell(app, 0, "a1").text == "(7)"
        assert "1 more cell" in screen.duty_text()
        await pilot.press("a", "2", "enter")  # a2 is in no owed line: refused with the engine's reason
        assert screen.message_error and "Not allowed" in screen.message
        await pilot.press("e", "1", "enter")
        assert session.match.state.grids[0].circles == 2
        assert screen.duty_text() == ""
        assert not _cell(app, 0, "b1").has_class("owed")
        assert session.match.state.number is None  # solo: the number is done, Ada throws next

    drive(app, body)


def test_grid_text_snapshot() -> None:
    st = Session.from_log(_full_house_log(), ["human"]).match.state
    st = st.apply("circle c1")
    text = grid_text(st, 0, GridMarks(cursor=4, legal=frozenset({0, 1, 3, 4})))
    expected = """\
Ada
     a     b     c     d     e     10
 1   7!    7!   (7)    5!   >5!<   9
 2   ·     ·     ·     ·     ·     8
 3   ·     ·     ·     ·     ·     7
 4   ·     ·     ·     ·     ·     6
 5   ·     ·     ·     ·     ·     5
     9     8     7     6     5     10
written 5/25 · circled 1 · lines 0 · total 1"""
    assert text == expected


def test_mouse_writes_and_undo_takes_it_back() -> None:
    session = Session.new("knaster", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.click("#throw-button")
        number = session.match.state.number
        assert number is not None
        await pilot.click("#g0-b4")
        assert screen.cursor == 3 * 5 + 1 and session.match.state.number == number  # the first click chooses
        assert _cell(app, 0, "b4").has_class("cursor")
        await pilot.click("#g0-b4")
        assert session.match.state.grids[0].number("b4") == number
        assert _cell(app, 0, "b4").text == str(number)
        assert session.match.game.actions[-1] == f"write {number} at b4"
        await pilot.press("u")
        assert session.match.state.grids[0].number("b4") is None and session.match.state.number == number
        assert _cell(app, 0, "b4").has_class("empty")
        assert "Undone" in screen.message
        await pilot.press("enter")  # the cursor is on b4 again
        assert session.match.state.grids[0].number("b4") == number
        await pilot.press("space", "u")  # a seen throw cannot be taken back
        assert session.match.state.number is not None and screen.message_error

    drive(app, body)


def test_refused_keys_say_why() -> None:
    session = Session.new("knaster", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert "throw the dice" in screen.turn_text()
        await pilot.press("p")
        assert screen.message_error and "Not allowed" in screen.message
        await pilot.press("space")
        number = session.match.state.number
        await pilot.press("space")
        assert screen.message_error and f"{number} is called" in screen.message
        await pilot.press("p")
        assert screen.message_error and "can write" in screen.message
        await pilot.press("c", "3", "enter", "space")
        second = session.match.state.number
        assert second is not None
        if second != number:
            await pilot.press("c", "3", "enter")  # c3 holds the first number: neither write nor circle
            assert screen.message_error and "Not allowed" in screen.message
            assert session.match.state.number == second

    drive(app, body)


def test_bot_seats_play_with_a_visible_message() -> None:
    session = Session.new("knaster", parse_seats("bot:greedy, Ada"), seed=6)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await settle(app, pilot)
        st = session.match.state
        assert st.current == 1 and st.number is not None  # the bot threw and wrote; Ada acts on its number
        assert st.grids[0].written == 1
        assert screen.query_one("#grid-1", GridView).has_class("current")
        assert "GreedyBot writes" in screen.message
        written = next(i for i in range(25) if st.grids[0].numbers[i])
        assert screen.last[0] == written
        await pilot.press("enter")
        await settle(app, pilot)
        assert session.match.state.current == 1  # Ada throws the second number herself
        assert session.match.state.number is None and "throw the dice" in screen.turn_text()

    drive(app, body)


def test_hint_marks_the_bots_choice() -> None:
    session = Session.new("knaster", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h")
        assert "throw the dice" in str(screen.query_one("#hint").render())
        await pilot.press("space")
        hint = knaster_hint(session.match.state)
        assert isinstance(hint, Write)
        assert f"write {hint.number} at {hint.cell}" in str(screen.query_one("#hint").render())
        assert _cell(app, 0, hint.cell).has_class("hint")
        await pilot.press("h")
        assert not _cell(app, 0, hint.cell).has_class("hint")

    drive(app, body)


def test_resume_a_knaster_game(tmp_path: Any) -> None:
    session = Session.new("knaster", parse_seats("Ada, bot:greedy"), seed=3)
    app = PaschApp(session=session, bot_delay=0, data_dir=tmp_path)

    async def first(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "enter")
        await settle(app, pilot)
        await pilot.press("q")

    drive(app, first)
    played = list(session.match.game.actions)
    assert played[0] == "roll" and played[2].startswith("write")

    app2 = PaschApp(resume=True, bot_delay=0, data_dir=tmp_path)

    async def second(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert screen.session.match.game.actions == played
        assert screen.session.match.state.grids == session.match.state.grids
        assert screen.session.match.seats[1].is_bot
        assert screen.session.match.game_id is not None
        for p in range(2):
            grid = session.match.state.grids[p]
            for i in range(25):
                name = "abcde"[i % 5] + str(i // 5 + 1)
                cell = _cell(app, p, name)
                if cell.has_class("cursor") and not grid.numbers[i]:  # the called number, previewed
                    assert cell.text == str(session.match.state.number)
                else:
                    assert cell.text == (str(grid.numbers[i]) if grid.numbers[i] else "·")
        assert len(screen.query(".cursor")) == 1

    drive(app2, second)


def test_setup_screen_starts_knaster() -> None:
    app = PaschApp(bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#rules", Select).value = "knaster"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        screen = _screen(app)
        assert screen.session.match.rules.id == "knaster"
        assert len(screen.query(GridView)) == 1

    drive(app, body)


def test_help_lists_the_knaster_keys() -> None:
    session = Session.new("knaster", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        assert "circled 7" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, KnasterGameScreen)

    drive(app, body)


def test_many_players_fit_and_german_words() -> None:
    seats = parse_seats("Ada, Bob, Cy, Dee, Eve, bot:random")
    session = Session.new("knaster", seats, seed=8)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="de")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert len(screen.query(GridView)) == 6
        assert "Ada ist dran" in screen.turn_text()
        await pilot.press("space")
        assert "Zahl" in screen.turn_text()
        await pilot.press("enter")
        assert "schreibt" in screen.message
        assert session.match.state.current == 1 and "Bob ist dran" in screen.turn_text()

    drive(app, body, size=(120, 40))
    set_language("en")


def test_roll_is_the_only_step_before_the_number() -> None:
    st = Session.new("knaster", parse_seats("Ada")).match.state
    assert st.legal_actions() == (Roll(),)


def test_rules_and_players_open_the_knaster_screen_at_once() -> None:
    """What ``pasch play --rules knaster --players ...`` does; ``bot:knaster`` names the Knaster bot."""
    app = PaschApp(rules="knaster", players="Ada, bot:knaster", bot_delay=0, save=False, seed=1)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert [s.kind for s in screen.session.match.seats] == ["human", "bot:knaster"]
        assert screen.session.match.seats[1].name == "KnasterBot"
        await pilot.press("space", "enter")
        await settle(app, pilot)
        st = screen.session.match.state
        # The bot wrote Ada's number, then threw the next one and wrote it; now Ada acts on it.
        assert st.grids[1].written == 2 and st.current == 0 and st.number is not None

    drive(app, body)


def test_a_bot_that_does_not_play_the_game_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="does not play Kniffel"):
        Session.new("kniffel", parse_seats("Ada, bot:knaster"))
    with pytest.raises(ValueError, match="does not play Knaster"):
        Session.new("knaster", parse_seats("Ada, bot:multi"))
    app = PaschApp(rules="kniffel", players="Ada, bot:knaster", bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)  # the error is shown, the setup screen opens
        assert screen.query_one("#kind-1", Select).value == "bot:knaster"
        await pilot.click("#start")
        await pilot.pause()
        assert app.screen is screen
        assert "does not play Kniffel" in str(screen.query_one("#setup-error").render())
        screen.query_one("#rules", Select).value = "knaster"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert _screen(app).session.match.seats[1].kind == "bot:knaster"

    drive(app, body)
