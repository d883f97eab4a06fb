"""Hints on the board: the dice to keep outlined, ★ and the cursor on the best box, ``b`` plays the hint,
values against the best, a list of five that ``m`` expands; keep advice in multi-column games."""

from __future__ import annotations

from typing import Any

from pasch.app import advise
from pasch.engine import Keep, Score
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen
from pasch.tui._hintpanel import HintPanel
from pasch.tui._hints import signed
from pasch.tui._sheetview import SheetView
from pasch.tui._widgets import Die

from .conftest import drive, settle


def _screen(app: PaschApp) -> SheetGameScreen:
    screen = app.screen
    assert isinstance(screen, SheetGameScreen)
    return screen


def _advised(app: PaschApp) -> list[int]:
    return sorted(d.face for d in app.screen.query(Die) if d.has_class("advised") and d.face is not None)


def test_signed_uses_a_true_minus() -> None:
    assert [signed(x) for x in (1.94, -1.94, 0.0, -0.01)] == ["+1.9", "−1.9", "±0.0", "±0.0"]


def test_hint_marks_the_board_and_b_plays_it() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h", "space")
        await settle(app, pilot)
        hints = screen.hints
        assert hints is not None and hints.exact
        advice = advise(session.match.state)
        assert isinstance(advice.suggestion, Keep)  # seed 4's first throw is best re-thrown in part
        assert hints.keep == advice.keep
        assert _advised(app) == sorted(advice.keep or ())
        panel = str(screen.query_one("#hint-table").render())
        assert "vs best" in panel and "−" in panel and "more (m: all)" in panel
        assert len([ln for ln in panel.splitlines() if "vs best" in ln]) == 4  # best five: one value, four deltas
        await pilot.press("m")
        expanded = str(screen.query_one("#hint-table").render())
        assert len(expanded.splitlines()) == len(hints.rows) + 1  # header, rows (the note and keys elsewhere)
        throws = session.match.state.throws
        await pilot.press("b")  # plays keep + throw
        await settle(app, pilot)
        assert session.match.state.throws == throws + 1
        assert sorted(session.held_dice()) == sorted(advice.keep or ())
        # play hints until a box is advised: the cursor sits on it with a star; b enters it
        for _ in range(3):
            hints = screen.hints
            assert hints is not None and screen.query_one(HintPanel).hints_for is session.match.state
            if hints.score is not None:
                break
            await pilot.press("b")
            await settle(app, pilot)
        assert hints is not None and hints.score is not None
        assert screen.selected == hints.score
        sheet = screen.query_one(SheetView)
        starred = [(k, j) for k, row in enumerate(sheet._cells) for j, c in enumerate(row) if "★" in c.plain]
        model = screen.model
        assert model is not None and starred == [(model.row_of_box(hints.score[1]), 1 + hints.score[0])]
        assert session.match.state.sheets[0].columns[0].scores[hints.score[1]] is None
        await pilot.press("b")
        await settle(app, pilot)
        assert session.match.state.sheets[0].columns[0].scores[hints.score[1]] is not None

    drive(app, body)


def test_multi_column_hint_advises_what_to_keep() -> None:
    session = Session.new("kniffel-3", parse_seats("Ada"), seed=4)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h", "space")
        await settle(app, pilot)
        hints = screen.hints
        assert hints is not None and not hints.exact
        suggestion = advise(session.match.state).suggestion
        assert hints.suggested == suggestion
        panel = str(screen.query_one("#hint-table").render())
        # the strongest bot's choice is the starred row (a "Suggested" line would say it twice), with its
        # estimated total; the other options as points behind it ("−2.8"; the note says so)
        assert f"★ {hints.suggestion}" in panel and "estimate" in panel and "−" in panel
        if isinstance(suggestion, Keep):
            assert _advised(app) == sorted(suggestion.dice)
        else:
            assert isinstance(suggestion, Score) and screen.selected == hints.score

    drive(app, body)


def test_knaster_g_plays_the_hint() -> None:
    from pasch.tui._knaster import KnasterGameScreen, knaster_hint

    session = Session.new("knaster", parse_seats("Ada, Bob"), seed=3)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, KnasterGameScreen)
        await pilot.press("h", "g")  # nothing called yet: g throws
        assert session.match.state.number is not None
        expected = str(knaster_hint(session.match.state))
        assert "(g: play it)" in str(screen.query_one("#hint").render())
        n = len(session.match.actions)
        await pilot.press("g")
        assert session.match.actions[n] == expected

    drive(app, body)
