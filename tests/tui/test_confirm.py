"""A second chance for an irreversible move: a 0 while the dice pay elsewhere, and a one-click entry with throws
left, ask first; "stop asking" is remembered (the setup screen asks again), and kniffel-4's forced zeros are
drawn as such."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Checkbox

from pasch.app import load_settings
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._confirm import ConfirmScreen
from pasch.tui._game import SheetGameScreen
from pasch.tui._setup import SetupScreen
from pasch.tui._sheetview import SheetView

from .conftest import drive, screen_text


def _zero_box(screen: SheetGameScreen) -> tuple[int, int]:
    """A legal box the dice put 0 in (while another pays points)."""
    st = screen.state
    pays = {(c, o.index): o.total for c, o in st.score_options()}
    assert any(v > 0 for v in pays.values())
    return next(ch for ch, v in sorted(pays.items()) if v == 0)


def test_a_zero_asks_and_stop_asking_is_remembered(tmp_path: Path) -> None:
    app = PaschApp(rules="kniffel", players="Ada", bot_delay=0, data_dir=tmp_path, seed=4, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await pilot.press("space")
        zero = _zero_box(screen)
        screen.selected = zero
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Enter 0 in" in screen_text(app) and "These dice pay" in screen_text(app)
        await pilot.press("escape")
        st = screen.state
        assert st.sheets[0].columns[0].scores[zero[1]] is None and st.throws_left == 2
        screen.selected = zero
        await pilot.press("enter", "a")  # yes, and stop asking
        await pilot.pause()
        assert screen.state.sheets[0].columns[0].scores[zero[1]] == 0
        assert not app.settings.confirm and not load_settings(tmp_path).confirm
        await pilot.press("space")
        screen.selected = _zero_box(screen)
        await pilot.press("enter")  # not asked any more
        await pilot.pause()
        assert app.screen is screen and screen.state.turn == 2

    drive(app, body)

    again = PaschApp(players="Ada", bot_delay=0, data_dir=tmp_path, lang="en")  # the setup screen asks again

    async def setup(app: PaschApp, pilot: Any) -> None:
        assert isinstance(app.screen, SetupScreen)
        box = app.screen.query_one("#confirm", Checkbox)
        assert not box.value
        box.value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.settings.confirm and load_settings(tmp_path).confirm

    drive(again, setup)


def test_announced_turns_draw_their_forced_zeros() -> None:
    session = Session.new("kniffel-4", parse_seats("Ada"), seed=3)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await pilot.press("space", "a", "enter")  # announce the first box offered
        await pilot.pause()
        model = screen.query_one(SheetView).model
        assert model is not None and screen.state.announced is not None
        kinds = {c.kind for r in model.rows for c in r.cells}
        assert "forced" in kinds and "announced" in kinds
        forced = [c for r in model.rows for c in r.cells if c.kind == "forced"]
        assert all(c.text == "0" for c in forced)

    drive(app, body)
