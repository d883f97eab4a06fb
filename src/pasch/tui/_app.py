"""The Textual application: setup, the game screen for the game's kind, saving and resuming."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.screen import Screen

from pasch.app import Recorder, Settings, load_settings, save_settings
from pasch.errors import PaschError
from pasch.i18n import N_, _, rules_name, set_language
from pasch.rules import GameKind, get
from pasch.tui._common import GameHost
from pasch.tui._game import SheetGameScreen
from pasch.tui._keeper import KeeperScreen
from pasch.tui._knaster import KnasterGameScreen
from pasch.tui._session import Seat, Session, parse_seats
from pasch.tui._setup import SetupChoice, SetupScreen

if TYPE_CHECKING:
    from pasch.storage import PlayerStats, Repository

__all__ = ["GAME_SCREENS", "KEY_WORDS", "PaschApp", "run", "screen_for"]

KEY_WORDS = {"space": N_("space"), "esc": N_("esc"), "tab": N_("tab"), "backspace": N_("backspace")}
"""Keys that the footer names with a word (translated); the others show as symbols (``⏎``, ``^s``, ``?``)."""

GAME_SCREENS: dict[GameKind, Callable[[Session], Screen[None]]] = {
    GameKind.SHEET: SheetGameScreen,
    GameKind.KNASTER: KnasterGameScreen,
}
"""The game screen of each kind of game."""
KEEPER_SCREENS: dict[GameKind, Callable[[Session], Screen[None]]] = {GameKind.SHEET: KeeperScreen}
"""The score-keeper screen of each kind of game."""


def screen_for(session: Session) -> Screen[None]:
    """The screen that plays ``session``'s game.

    Raises:
        PaschError: no screen for this kind of game yet.
    """
    table = KEEPER_SCREENS if session.match.keeper else GAME_SCREENS
    cls = table.get(session.match.rules.kind)
    if cls is None:
        raise PaschError(
            _("{rules} cannot be played in this screen yet; try --plain").format(rules=rules_name(session.match.rules))
        )
    return cls(session)


class PaschApp(GameHost):
    """pasch in the terminal.

    Args:
        session: a game to play at once (tests pass one with a seeded generator).
        rules: rule-set text; with ``players`` the setup screen is skipped.
        players: seats, e.g. ``"Ada, bot:optimal"``.
        lang: language code (None: the locale's).
        bot_delay: seconds a bot waits before each step (0 in tests).
        resume: continue the latest unfinished game (True) or the saved game with this id.
        keeper: score-keeper mode (real dice).
        seed: seed of the dice.
        data_dir: directory of the games database (default: ``$PASCH_DATA_DIR`` or the user data dir).
        save: save games at all.
    """

    TITLE = "pasch"
    CSS = """
    Screen { background: $surface; }
    """
    ENABLE_COMMAND_PALETTE = False
    """Decision (issue 29): no command palette. Its commands (theme, Textual's key panel, maximize, screenshot)
    are for developers, its texts are Textual's own (some, like "No matches found", cannot be translated from
    outside), and every key of the game is listed by ``?``; the footer gets its twelve columns back at 80x24."""

    def __init__(
        self,
        *,
        session: Session | None = None,
        rules: str | None = None,
        players: str | Sequence[str] | None = None,
        lang: str | None = None,
        bot_delay: float = 0.6,
        resume: bool | int = False,
        keeper: bool = False,
        seed: int | None = None,
        data_dir: str | Path | None = None,
        save: bool = True,
    ) -> None:
        super().__init__()
        self.lang = set_language(lang)
        self.lang_given = lang is not None
        self.session = session
        self.rules_text = rules
        self.players = players
        self.bot_delay = bot_delay
        self.resume = resume
        self.keeper = keeper
        self.seed = seed
        self.data_dir = data_dir
        self.recorder = Recorder(data_dir, enabled=save, on_error=self._save_failed)
        self.settings = load_settings(data_dir) if save else Settings()

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it, named in the player's language (``space`` is ``Leertaste``)."""
        text = super().get_key_display(binding)
        word = KEY_WORDS.get(text)
        return _(word) if word else text

    # -- storage ------------------------------------------------------------------------------
    def _save_failed(self, reason: str) -> None:
        self.notify(_("Games are not saved: {reason}").format(reason=reason), severity="warning")

    @property
    def repository(self) -> Repository | None:
        """The games repository, opened on first use (None when saving is off or impossible)."""
        return self.recorder.repository

    def save_session(self, session: Session) -> None:
        """Write the session's game so far, the dice on the table included (every step: see
        :class:`pasch.app.Recorder`)."""
        self.recorder.save(session.match, session.layout)

    def remember(self, settings: Settings) -> None:
        """Use ``settings`` from now on and keep them for the next games (when saving is on)."""
        self.settings = settings
        if self.recorder.enabled and not save_settings(settings, self.data_dir):
            self.notify(_("The settings could not be saved."), severity="warning")

    def history(self, rules: str, exclude: int | None) -> list[PlayerStats]:
        """Earlier finished games' statistics under ``rules`` (without game ``exclude``) from the database."""
        return self.recorder.history(rules, exclude)

    # -- screens ------------------------------------------------------------------------------
    def on_mount(self) -> None:
        """Open the game asked for, the resumed game, or the setup screen."""
        try:
            session = self.session or self._initial_session()
        except (PaschError, ValueError) as exc:
            self.notify(str(exc), severity="error")
            session = None
        if session is None:
            self.show_setup()
        else:
            self.start(session)

    def _initial_session(self) -> Session | None:
        if self.resume:
            game_id = None if self.resume is True else int(self.resume)
            match = self.recorder.unfinished(game_id, keeper=self.keeper, seed=self.seed)
            if match is None:
                if self.recorder.enabled:
                    self.notify(_("No unfinished game to resume."), severity="warning")
                return None
            lang = match.log.meta.get("lang")
            if isinstance(lang, str) and not self.lang_given:
                with contextlib.suppress(ValueError):  # the game's language, unless --lang says otherwise
                    self.switch_language(lang)
            return Session(match)
        if self.rules_text and self.players:
            return self.new_session(self.rules_text, parse_seats(self.players), self.keeper)
        return None

    def new_session(self, rules: str, seats: Sequence[Seat], keeper: bool) -> Session:
        """A new game; its log remembers the interface and the language (``--resume`` restores it).

        Raises:
            RuleSetError: bad rule text.
            IllegalActionError: wrong number of players or bad names.
            ValueError: a bot seat whose bot does not play this game.
        """
        meta: dict[str, Any] = {"interface": "tui", "lang": self.lang}
        if self.seed is not None:
            meta["seed"] = self.seed
        return Session.new(rules, seats, seed=self.seed, keeper=keeper, meta=meta)

    def start(self, session: Session) -> None:
        """Show the game screen of ``session``."""
        self.session = session
        try:
            screen = screen_for(session)
        except PaschError as exc:
            self.notify(str(exc), severity="error")
            self.show_setup()
            return
        self.switch_or_push(screen)

    def switch_or_push(self, screen: Screen[None]) -> None:
        """Replace the current screen (push on the default screen)."""
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_setup(self) -> None:
        """Show the setup screen; its result starts a game."""
        seats = parse_seats(self.players) if self.players else None
        screen = SetupScreen(self.rules_text or "kniffel", seats, self.keeper)

        def chosen(choice: SetupChoice | None) -> None:
            if choice is None:
                return
            self.start(self.new_session(choice.rules, choice.seats, choice.keeper))

        if len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen, chosen)

    def switch_language(self, lang: str) -> None:
        """Speak ``lang`` from now on."""
        self.lang = set_language(lang)

    async def action_quit(self) -> None:
        """Save the game in progress, then quit."""
        if self.session is not None:
            self.save_session(self.session)
        self.exit()


def run(
    rules: str | None = None,
    players: str | Sequence[str] | None = None,
    lang: str | None = None,
    bot_delay: float = 0.6,
    resume: bool | int = False,
    *,
    keeper: bool = False,
    seed: int | None = None,
    data_dir: str | Path | None = None,
    save: bool = True,
) -> None:
    """Run the terminal game (the default of ``pasch play``; ``pasch keep`` sets ``keeper``).

    Args:
        rules: rule-set text; None shows the setup screen.
        players: seats such as ``"Ada, Bob, bot:optimal"``; None shows the setup screen.
        lang: ``de``, ``en``, ``es`` or ``it``; None: the locale's language.
        bot_delay: seconds each bot step stays visible.
        resume: continue the latest unfinished game (True) or the saved game with this id.
        keeper: score-keeper mode: the table throws real dice and enters them.
        seed: seed of the dice.
        data_dir: directory of the games database (default ``$PASCH_DATA_DIR`` or the user data dir).
        save: save finished and unfinished games.

    Raises:
        RuleSetError: bad rule text.
        ValueError: unknown language or bot, or no players.
    """
    set_language(lang)  # bad languages fail before the screen opens
    if rules is not None:
        get(rules)
    if players is not None:
        parse_seats(players)
    app = PaschApp(
        rules=rules,
        players=players,
        lang=lang,
        bot_delay=bot_delay,
        resume=resume,
        keeper=keeper,
        seed=seed,
        data_dir=data_dir,
        save=save,
    )
    _warm_up_solver()
    app.run()


def _warm_up_solver() -> None:
    """Compile the solver's kernels in the background while the player reads the first screen.

    A first hint otherwise waits for the compilation (once per install; Numba caches the result).
    """
    import threading

    def warm() -> None:
        try:
            from pasch.solver import warm_up

            warm_up()
        except Exception:  # only a head start: the hint compiles on its own
            pass

    threading.Thread(target=warm, name="pasch-solver-warm-up", daemon=True).start()
