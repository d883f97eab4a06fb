"""Helpers shared by the screens: the app as the screens see it, and translated key bindings."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from textual.app import App
from textual.dom import DOMNode

from pasch.app import Settings
from pasch.i18n import _
from pasch.tui._session import Session

if TYPE_CHECKING:
    from pasch.storage import PlayerStats

__all__ = ["GameHost", "translate_bindings"]


class GameHost(App[None]):
    """The app that hosts the screens, as they see it (:class:`pasch.tui.PaschApp` fills it in).

    Screens reach it through a typed ``app`` attribute (``textual.getters.app(GameHost)``), so that the
    screens need not import the app module that imports them.

    Attributes:
        bot_delay: seconds a bot waits before each step (so that people can follow).
        settings: the player's settings (whether a likely slip asks first).
    """

    bot_delay: float = 0.0
    settings: Settings = Settings()

    def remember(self, settings: Settings) -> None:
        """Use ``settings`` from now on (this base does not store them)."""
        self.settings = settings

    def save_session(self, session: Session) -> None:
        """Save the session's game (this base saves nothing)."""

    def history(self, rules: str, exclude: int | None) -> list[PlayerStats]:
        """Earlier finished games' statistics under ``rules`` (without game ``exclude``); none in this base."""
        return []

    def show_setup(self) -> None:
        """Show the setup screen for a new game (this base has none)."""

    def switch_language(self, lang: str) -> None:
        """Speak ``lang`` from now on (this base ignores it)."""


def translate_bindings(node: DOMNode) -> None:
    """Translate the descriptions of ``node``'s key bindings into the current language (once, at init)."""
    kb = node._bindings.key_to_bindings
    for key, bindings in kb.items():
        kb[key] = [dataclasses.replace(b, description=_(b.description)) if b.description else b for b in bindings]
