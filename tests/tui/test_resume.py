"""``--resume``: the game's language comes back, and an id picks the game (a finished one is refused)."""

from __future__ import annotations

from typing import Any

from pasch.i18n import get_language, set_language
from pasch.storage import Repository
from pasch.tui import PaschApp
from pasch.tui._game import SheetGameScreen
from pasch.tui._setup import SetupScreen

from .conftest import drive


def _start_german_game(tmp_path: Any) -> int:
    app = PaschApp(rules="kniffel", players="Ada", lang="de", bot_delay=0, data_dir=tmp_path, seed=2)

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "enter")  # one box entered: the game is saved

    drive(app, body)
    with Repository(directory=tmp_path) as repo:
        (rec,) = repo.games()
    assert rec.log.meta["lang"] == "de" and not rec.finished
    return rec.id


def test_resume_by_id_restores_the_language(tmp_path: Any) -> None:
    game_id = _start_german_game(tmp_path)
    set_language("en")
    app = PaschApp(resume=game_id, bot_delay=0, data_dir=tmp_path)

    async def body(app: PaschApp, pilot: Any) -> None:
        assert isinstance(app.screen, SheetGameScreen)
        assert app.screen.session.match.game_id == game_id
        assert app.lang == "de" and get_language() == "de"
        assert "Einser" in app.screen.sheet_text()

    drive(app, body)


def test_lang_option_wins_over_the_games_language(tmp_path: Any) -> None:
    game_id = _start_german_game(tmp_path)
    app = PaschApp(resume=game_id, lang="en", bot_delay=0, data_dir=tmp_path)

    async def body(app: PaschApp, pilot: Any) -> None:
        assert isinstance(app.screen, SheetGameScreen) and app.lang == "en"

    drive(app, body)


def test_resume_of_a_missing_game_shows_setup(tmp_path: Any) -> None:
    app = PaschApp(resume=99, bot_delay=0, data_dir=tmp_path)

    async def body(app: PaschApp, pilot: Any) -> None:
        assert isinstance(app.screen, SetupScreen)

    drive(app, body)


def test_keys_after_quit_do_nothing(tmp_path: Any) -> None:
    """q then i (or ?) before the app has closed opened a screen on a closing app (a traceback on exit)."""
    app = PaschApp(rules="kniffel", players="Ada", bot_delay=0, data_dir=tmp_path, seed=2, lang="en")

    async def body(app: PaschApp, pilot: Any) -> None:
        await pilot.press("space", "q", "i", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, SheetGameScreen)  # no rules card, no help over the closing game
        assert app.return_code == 0 or app.return_code is None

    drive(app, body)
    with Repository(directory=tmp_path) as repo:
        (rec,) = repo.games()
    assert rec.log.actions[0] == "roll"
