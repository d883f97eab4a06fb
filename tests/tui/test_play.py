"""Pilot tests: whole games played by pressing keys — solo, against a bot, multi-column, kniffel-4."""

from __future__ import annotations

import dataclasses
from typing import Any

from pasch.app import Settings, advise
from pasch.rules import Order, RuleSet, get
from pasch.storage import Repository
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen

from .conftest import drive, settle


def _screen(app: PaschApp) -> SheetGameScreen:
    screen = app.screen
    assert isinstance(screen, SheetGameScreen)
    return screen


def test_full_solo_game_by_keys(tmp_path: Any) -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=7)
    app = PaschApp(session=session, bot_delay=0, data_dir=tmp_path)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        turns = 0
        while not session.match.finished:
            await pilot.press("space")
            if turns % 3 == 0:  # hold the first two dice and throw the rest again
                await pilot.press("1", "2", "r")
                assert session.holds[:2] == (True, True)
            await pilot.press(*(("down", "up") if turns == 5 else ()), "enter")
            turns += 1
        assert turns == 13
        assert "Game over" in screen.message
        assert screen.model is not None and screen.model.current is None

    drive(app, body)
    total = session.match.state.totals()[0]
    with Repository(directory=tmp_path) as repo:
        (rec,) = repo.games()
    assert rec.finished and rec.players[0].total == total and rec.winners == ("Ada",)


def test_two_players_against_a_bot() -> None:
    session = Session.new("yahtzee", parse_seats("Ada, bot:greedy"), seed=3)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        while not session.match.finished:
            assert session.match.state.current == 0, "the bot has moved before Ada's turn"
            await pilot.press("space", "enter")
            await settle(app, pilot)
        assert "Game over" in screen.message

    drive(app, body)
    st = session.match.state
    assert st.is_terminal
    assert all(s.is_full for s in st.sheets)
    assert sum(1 for a in session.match.game.actions if a.startswith("score")) == 26


def test_bot_starts_and_waits_for_human() -> None:
    session = Session.new("kniffel", parse_seats("bot:greedy, Ada"), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await settle(app, pilot)
        assert session.match.state.current == 1 and session.match.state.turn == 1
        await pilot.press("space")
        assert session.match.state.dice is not None

    drive(app, body)


def _mini_three_columns() -> RuleSet:
    """kniffel-3's three column orders on a four-box sheet (a full game is 12 turns, fast to press)."""
    k3 = get("kniffel-3")
    cats = tuple(c for c in k3.categories if c.id in ("ones", "sixes", "full_house", "yahtzee"))
    return dataclasses.replace(k3, id="mini-3", categories=cats, bonus_threshold=None, bonus=0)


def test_multi_column_game_by_keys() -> None:
    session = Session.new(_mini_three_columns(), parse_seats("Ada"), seed=11)
    app = PaschApp(session=session, bot_delay=0, save=False)
    app.settings = Settings(confirm=False)  # the boxes chosen here may take 0: no second chance asked (test_confirm)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        turns = 0
        while not session.match.finished:
            await pilot.press("space", *["right"] * (turns % 3), "enter")
            turns += 1
        assert turns == 12
        text = screen.sheet_text()
        assert "Ada 1↓" in text and "Ada 2↑" in text and "Ada 3" in text
        assert "Grand total" in text

    drive(app, body)
    st = session.match.state
    assert all(c.is_full for c in st.sheets[0].columns)
    assert st.totals()[0] == sum(st.column_totals(0, c).total for c in range(3))


def test_kniffel3_two_players_finish_by_keys() -> None:
    """Every column of every player is drawn; the last turns of a real kniffel-3 game by keys."""
    session = Session.new("kniffel-3", parse_seats("Ada, Bob"), seed=5)
    while session.match.state.turn < 2 * 39 - 4:  # play fast up to the last two rounds
        session.act(session.match.state.legal_actions()[-1] if session.match.state.dice is not None else "roll")
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        header = screen.sheet_text().splitlines()[0]
        for name in ("Ada 1↓", "Ada 2↑", "Ada 3", "Bob 1↓", "Bob 2↑", "Bob 3"):
            assert name in header
        while not session.match.finished:
            await pilot.press("space", "enter")
        assert "Game over" in screen.message

    drive(app, body)
    assert session.match.state.is_terminal


def test_kniffel4_announcement_by_keys() -> None:
    session = Session.new("kniffel-4", parse_seats("Ada"), seed=2)
    app = PaschApp(session=session, bot_delay=0, save=False)
    announced_col = session.match.rules.columns.index(Order.ANNOUNCED)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("space", "a")
        assert screen.announcing
        assert screen.selected is not None and screen.selected[0] == announced_col
        await pilot.press("down", "enter")
        st = session.match.state
        assert st.announced is not None
        box = st.announced
        assert "announced:" in screen.turn_text()
        # Only the announced box of the announced column (or crossing out elsewhere) remains.
        await pilot.press("enter")
        col = session.match.state.sheets[0].columns[announced_col]
        other = [session.match.state.sheets[0].columns[c] for c in range(4) if c != announced_col]
        assert col.scores[box] is not None or any(s is not None for c in other for s in c.scores)
        assert session.match.state.turn == 1

    drive(app, body)


def test_mouse_holds_a_die_and_selects_a_box() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("space")
        await pilot.click("#die-3")
        assert session.holds[2]
        await pilot.click("#die-3")
        assert not session.holds[2]
        assert screen.selected is not None

    drive(app, body)


def test_keys_refused_with_a_message() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("enter")
        assert screen.message_error and "Throw first" in screen.message
        await pilot.press("1")
        assert screen.message_error
        await pilot.press("space", "space", "space", "space")
        assert "No throws left" in screen.message
        assert session.match.state.throws == 3

    drive(app, body)


def test_multi_column_hints_rank_every_option_by_the_bots_estimate() -> None:
    # No exact table for three columns: every option with the strongest bot's estimate of the final total
    # (as in the web's hint panel), ranked and shown as in a single-column game, and noted as an estimate.
    session = Session.new("kniffel-3", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("space", "h")
        await settle(app, pilot)
        hints = screen.hints
        assert hints is not None and not hints.exact and hints.estimated
        assert "bot" in hints.note and "estimate" in hints.note
        st = session.match.state
        advice = advise(st)
        suggestion = advice.suggestion
        assert suggestion is not None and [r.action for r in hints.rows if r.best] == [str(suggestion)]
        assert sorted(r.action for r in hints.rows) == sorted(str(a) for a in st.legal_actions())
        assert [r.value for r in hints.rows] == [o.estimate for o in advice.options]
        values = [r.value for r in hints.rows]
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        panel = str(screen.query_one("#hint-table").render())
        assert "estimate" in panel and "★" in panel and "−" in panel  # the others: points behind the best

    drive(app, body)


def test_help_screen_opens_and_closes() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        assert isinstance(app.screen, SheetGameScreen)

    drive(app, body)


def test_hints_in_a_worker() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h")
        await pilot.press("space")
        await settle(app, pilot)
        assert screen.hints is not None and screen.hints.rows
        assert screen.hints.exact  # the solver's values for a single-column game
        assert sum(r.best for r in screen.hints.rows) >= 1
        assert any(r.action.startswith("keep") for r in screen.hints.rows)
        values = [r.value for r in screen.hints.rows if r.value is not None]
        assert len(values) == len(screen.hints.rows)  # every exact option has its value
        assert values == sorted(values, reverse=True)
        await pilot.press("h")
        assert not screen.hints_shown

    drive(app, body)


def test_hints_come_back_after_undoing_a_box() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h", "space")
        await settle(app, pilot)
        shown = str(screen.query_one("#hint-table").render())
        assert "expected total" in shown
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Hints appear" in str(screen.query_one("#hint-table").render())
        await pilot.press("u")
        await settle(app, pilot)
        assert str(screen.query_one("#hint-table").render()) == shown

    drive(app, body)
