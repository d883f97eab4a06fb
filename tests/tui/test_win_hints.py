"""P(win) in the terminal's hints (issue #14): shown beside the expected totals in single-column games of
several players when the win tables are at hand; a missing table is built only when ``w`` asks for it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

import pasch.app._wintables as wintables
import pasch.tui._hintpanel as winkey
from pasch.app import advise, win_tables, win_tables_ready
from pasch.engine import State
from pasch.i18n import set_language
from pasch.rules import get
from pasch.solver import shared_solver, survival_table, target_table
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen
from pasch.tui._hints import compute_hints, percent

from .conftest import drive, settle

RULES = "yahtzee+forced"  # full size, but its tables build in milliseconds


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache directory and no win table open in the process."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))
    wintables._TABLES.clear()
    yield tmp_path / "cache"
    wintables._TABLES.clear()


def _screen(app: PaschApp) -> SheetGameScreen:
    screen = app.screen
    assert isinstance(screen, SheetGameScreen)
    return screen


def _panel(screen: SheetGameScreen) -> str:
    return "\n".join(str(screen.query_one(f"#hint-{part}").render()) for part in ("table", "win"))


def _footer_keys(app: PaschApp) -> set[str]:
    return {b.key for _, b, enabled, _ in app.active_bindings.values() if enabled and b.show}


def _check_p_win_rows(screen: SheetGameScreen, session: Session) -> None:
    """Every listed option shows its P(win), as the application layer computes it."""
    hints = screen.hints
    assert hints is not None and hints.win == "shown"
    advice = advise(session.match.state, win=True)
    panel = _panel(screen)
    assert "P(win)" in panel.splitlines()[0]
    for row in hints.rows[:5]:
        option = advice.option(row.action)
        assert option is not None and option.p_win is not None
        assert row.p_win == pytest.approx(option.p_win)
        line = next(ln for ln in panel.splitlines() if row.label in ln)
        assert line.rstrip().endswith(percent(option.p_win))
    assert any(0.0 < (r.p_win or 0.0) < 1.0 for r in hints.rows)


def hints_fit(state: State, width: int) -> bool:
    """Whether the list's lines (header and best five, P(win) included) fit ``width`` columns in English, German
    and Italian (Spanish's "tirar todos de nuevo" row is 48 columns wide: it wraps in the narrowest panel)."""
    try:
        for lang in ("en", "de", "it"):
            set_language(lang)
            lines = compute_hints(state).lines()[:6]
            if max(len(line) for line in lines) > width:
                print(lang, lines)
                return False
    finally:
        set_language("en")
    return True


def test_w_builds_the_missing_win_tables_then_hints_show_p_win(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go = threading.Event()
    real = winkey.prepare_win_tables

    def held(*args: Any) -> Any:  # the build waits until the test has looked at the panel meanwhile
        assert go.wait(30)
        return real(*args)

    monkeypatch.setattr(winkey, "prepare_win_tables", held)
    session = Session.new(RULES, parse_seats("Ada, Bob"), seed=3)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert "w" in _footer_keys(app)
        await pilot.press("h", "space")
        await settle(app, pilot)
        hints = screen.hints
        assert hints is not None and hints.exact and hints.win == "missing"
        assert all(r.p_win is None for r in hints.rows)
        panel = _panel(screen)
        assert "P(win)" not in panel.splitlines()[0]
        info = win_tables(get(RULES))
        peak, (fast, slow) = info.peak_megabytes, info.minutes
        stated = f"up to {peak} MB of memory, {info.megabytes} MB on disk, {fast}–{slow} min."
        assert "w: P(win) beside each option. Builds the win tables once: " + stated in " ".join(panel.split())
        assert not win_tables(get(RULES)).on_disk  # nothing was built unasked
        await pilot.press("w")
        assert screen.win_building
        building = (
            f"Building the win tables, once (up to {peak} MB, {fast}–{slow} min): step 1 of 3, the exact table, 0:0"
        )
        assert building in " ".join(_panel(screen).split())
        await pilot.press("space")  # the game goes on meanwhile
        assert session.match.state.throws == 2
        go.set()
        await settle(app, pilot)
        assert not screen.win_building and win_tables_ready(get(RULES))
        assert win_tables(get(RULES)).on_disk
        _check_p_win_rows(screen, session)
        assert "w" not in _footer_keys(app)  # nothing left to prepare

    drive(app, body)


def test_stored_win_tables_are_used_without_asking(fresh_cache: Path) -> None:
    survival_table(shared_solver(RULES))  # stored in the cache, not open in the process
    assert not win_tables(get(RULES)).on_disk  # one of the two is not enough
    target_table(shared_solver(RULES))
    assert win_tables(get(RULES)).on_disk and not win_tables_ready(get(RULES))
    session = Session.new(RULES, parse_seats("Ada, Bob, Cy"), seed=8)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        await pilot.press("h", "space")
        await settle(app, pilot)
        _check_p_win_rows(screen, session)
        assert hints_fit(session.match.state, 44)  # the hint panel's text width at 80x24 beside two sheets
        table, survival = wintables._TABLES[get(RULES).id]
        import numpy as np

        assert isinstance(table.theta, np.memmap)  # opened read-only from the cache, not copied
        assert isinstance(survival.theta, np.memmap)

    drive(app, body)


def test_solo_and_multi_column_games_show_no_p_win(fresh_cache: Path) -> None:
    for rules, seats in ((RULES, "Ada"), ("kniffel-3", "Ada, Bob")):
        session = Session.new(rules, parse_seats(seats), seed=2)
        app = PaschApp(session=session, bot_delay=0, save=False)

        async def body(app: PaschApp, pilot: Any) -> None:
            screen = _screen(app)
            assert "w" not in _footer_keys(app)
            await pilot.press("h", "space")
            await settle(app, pilot)
            hints = screen.hints
            assert hints is not None and hints.win == ""
            assert "P(win)" not in _panel(screen)
            await pilot.press("w")  # does nothing here
            assert not screen.win_building

        drive(app, body)


def test_the_score_keeper_asks_with_f5(fresh_cache: Path) -> None:
    session = Session.new(RULES, parse_seats("Ada, Bob"), keeper=True)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = _screen(app)
        assert "f5" in _footer_keys(app)
        field = screen.query_one("#dice-input", Input)
        await pilot.press("1", "3")  # typed keys reach the input
        field.value = "13356"
        await pilot.press("enter")
        await pilot.press("f2")  # the keeper's hints ("best box")
        await settle(app, pilot)
        hints = screen.hints
        assert hints is not None and hints.win == "missing"
        assert "F5: P(win) beside each option" in _panel(screen)
        await pilot.press("f5")
        await settle(app, pilot)
        _check_p_win_rows(screen, session)
        assert "f5" not in _footer_keys(app)

    drive(app, body)


def test_a_solo_score_keeper_shows_no_f5(fresh_cache: Path) -> None:
    session = Session.new(RULES, parse_seats("Ada"), keeper=True)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        assert "f5" not in _footer_keys(app) and "f2" in _footer_keys(app)

    drive(app, body)
