"""Snapshot tests of the score sheet (rendered text), languages, resume and the setup screen."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Select
from textual.widgets.select import InvalidSelectValueError

from pasch.app import BOT_KINDS, BonusProgress, sheet_layout
from pasch.engine import Game
from pasch.i18n import set_language
from pasch.storage import Repository
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen
from pasch.tui._setup import SetupScreen
from pasch.tui._sheet import bonus_progress, build_sheet, par_text, sheet_text

from .conftest import drive


def _two_player_state() -> Any:
    game = Game("kniffel", ["Ada", "Bob"])
    for dice, box in [("3 3 5 5 5", "full_house"), ("1 2 3 4 6", "small_straight"), ("6 6 6 2 1", "sixes")]:
        game.act("roll")
        game.throw([int(d) for d in dice.split()])
        game.act(f"score {box}")
    game.act("roll")
    game.throw([2, 3, 4, 5, 6])
    return game.state


def test_sheet_text_exact_snapshot() -> None:
    st = _two_player_state()
    # Bob to play after: Ada full house 25, Bob small straight 30, Ada sixes 18; Bob threw 2 3 4 5 6.
    assert st.current == 1
    text = sheet_text(build_sheet(st), selected=(0, st.rules.category_index("large_straight")))
    expected = """\
                   Ada    ▶Bob
Ones                       (0)
Twos                       (2)
Threes                     (3)
Fours                      (4)
Fives                      (5)
Sixes               18     (6)
Upper sum           18       0
Bonus (+35 at 63)   ±0
Three of a kind            (0)
Four of a kind             (0)
Full house          25     (0)
Small straight              30
Large straight          [(40)]
Kniffel                    (0)
Chance                    (20)
Extra points         0       0
Total               43      30"""
    assert [ln.rstrip() for ln in text.splitlines()] == [ln.rstrip() for ln in expected.splitlines()]


def test_rendered_screen_shows_sheet_and_dice(tmp_path: Any) -> None:
    session = Session.new("kniffel", parse_seats("Ada, Bob"), seed=1)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "1")
        svg = app.export_screenshot()
        for word in ("Ada", "Bob", "Upper&#160;sum", "Full&#160;house", "HELD", "Upper&#160;bonus"):
            assert word in svg, word
        (tmp_path / "game.svg").write_text(svg, encoding="utf-8")

    drive(app, body)


def test_german_box_names_in_the_app() -> None:
    session = Session.new("kniffel", parse_seats("Ada"), seed=1)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="de")

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await pilot.press("space")
        text = screen.sheet_text()
        for name in (
            "Einser",
            "Zweier",
            "Dreier",
            "Vierer",
            "Fünfer",
            "Sechser",
            "Dreierpasch",
            "Viererpasch",
            "Full House",
            "Kleine Straße",
            "Große Straße",
            "Kniffel",
            "Chance",
            "Summe oben",
            "Extrapunkte",
        ):
            assert name in text, name
        assert "Ada ist dran" in screen.turn_text()
        assert "noch 2 Würfe" in screen.turn_text()
        await pilot.press("enter")
        assert "trägt" in screen.message

    drive(app, body)


def test_spanish_and_italian_sheets() -> None:
    st = _two_player_state()
    set_language("es")
    es = sheet_text(build_sheet(st))
    for name in ("Trío", "Cuarteto", "Full", "Escalera pequeña", "Escalera grande", "Oportunidad", "Unos"):
        assert name in es
    set_language("it")
    it = sheet_text(build_sheet(st))
    for name in ("Tre dadi uguali", "Quattro dadi uguali", "Scala con 4", "Scala con 5", "Dadi con 1", "Chance"):
        assert name in it
    st_y = Game("yahtzee", ["Ada"]).state
    assert "Yahtzee" in sheet_text(build_sheet(st_y))


def test_resume_an_unfinished_game(tmp_path: Any) -> None:
    session = Session.new("kniffel", parse_seats("Ada, bot:greedy"), seed=3)
    app = PaschApp(session=session, bot_delay=0, data_dir=tmp_path)

    async def first(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("space", "q")

    drive(app, first)
    played = list(session.match.game.actions)
    with Repository(directory=tmp_path) as repo:
        rec = repo.latest_unfinished()
    assert rec is not None and list(rec.log.actions) == played and rec.player_kinds() == ("human", "bot:greedy")

    app2 = PaschApp(resume=True, bot_delay=0, data_dir=tmp_path)

    async def second(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        assert screen.session.match.game.actions == played
        assert screen.session.match.state.dice is not None  # Ada's thrown dice are back on the table
        assert screen.session.match.seats[1].is_bot
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.session.match.state.turn == 4
        assert screen.session.match.game_id == rec.id

    drive(app2, second)
    with Repository(directory=tmp_path) as repo:
        assert len(repo.games()) == 1


def test_setup_screen_starts_a_game_and_switches_language(tmp_path: Any) -> None:
    app = PaschApp(bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert "three Yahtzee columns" not in str(screen.query_one("#rules-desc").render())
        screen.query_one("#rules", Select).value = "jetsi"
        await pilot.pause()
        assert "three Yahtzee columns" in str(screen.query_one("#rules-desc").render())
        screen.query_one("#name-0", Input).value = "Ada"
        await pilot.click("#add-player")
        screen.query_one("#kind-1", Select).value = "bot:greedy"
        screen.query_one("#lang", Select).value = "de"
        await pilot.pause()
        await pilot.pause()
        assert "drei Yahtzee-Spalten" in str(app.screen.query_one("#rules-desc").render())
        await pilot.click("#start")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, SheetGameScreen)
        assert game.session.match.rules.id == "jetsi"
        assert [s.kind for s in game.session.match.seats] == ["human", "bot:greedy"]
        assert "Einser" in game.sheet_text()

    drive(app, body)


def test_setup_screen_offers_the_registry_bots() -> None:
    app = PaschApp(bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        select: Select[str] = screen.query_one("#kind-0", Select)
        offered = [b.kind for b in BOT_KINDS if b.offered]
        assert "bot:optimal" in offered
        for kind in ["human", *offered]:
            select.value = kind  # refused (InvalidSelectValueError) were it not an option
        with pytest.raises(InvalidSelectValueError):
            select.value = "bot:multi"  # named on the command line only

    drive(app, body)


def test_bonus_progress_words_the_layout() -> None:
    def progress(upper: int, earned: bool, reachable: bool) -> BonusProgress:
        need = 0 if earned else max(63 - upper, 0)
        return BonusProgress(63, 35, upper, earned, reachable, earned or not reachable, need, 0)

    assert bonus_progress(None) is None
    assert bonus_progress(progress(70, True, True)) == "bonus +35 earned"
    assert bonus_progress(progress(10, False, False)) == "bonus out of reach"
    assert bonus_progress(progress(51, False, True)) == "12 to go for +35 · ±0 against par"
    behind = BonusProgress(63, 35, 12, False, True, False, 51, -6)  # threes 6 and sixes 6: par is 9 + 18
    assert bonus_progress(behind) == "51 to go for +35 · −6 against par"
    assert bonus_progress(BonusProgress(63, 35, 0, False, True, False, 63, 0)) == "63 to go for +35"
    # and the sheet's bonus row agrees with the layout of a real game
    st = _two_player_state()
    layout = sheet_layout(st)
    bonus_row = next(r for r in build_sheet(st).rows if r.label.startswith("Bonus"))
    # Ada's sixes (18) are exactly par; Bob has entered nothing above yet, so his cell stays empty
    assert [c.text for c in bonus_row.cells] == ["±0", ""]
    assert [c.progress.vs_par for c in layout.columns if c.progress] == [0, 0]
    assert [par_text(v) for v in (3, 0, -6)] == ["+3", "±0", "−6"]
