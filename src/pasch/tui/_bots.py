"""Bots for the terminal game: the seat kinds offered and the project's bots (:mod:`pasch.bots`).

A bot is anything with ``choose(state, rng) -> Action``. Seat kinds are ``human`` or ``bot:NAME``.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from pasch import bots
from pasch.engine import Action
from pasch.rules import GameKind, RuleSet

__all__ = ["BOT_KINDS", "Bot", "check_bot", "make_bot"]

BOT_KINDS: tuple[str, ...] = ("greedy", "optimal", "random")
"""Bot names offered in the setup screen, best first for new players (``optimal`` plays the strongest bot
where no exact table exists: multi-column games and Knaster)."""


class Bot(Protocol):
    """A player that chooses actions."""

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """The action to play in ``state``."""
        ...


def make_bot(kind: str) -> Bot:
    """The bot for a seat kind such as ``bot:optimal`` (or just ``optimal``), from :mod:`pasch.bots`.

    Raises:
        ValueError: an unknown bot name.
    """
    name = kind.split(":", 1)[1] if kind.startswith("bot:") else kind
    name = name.strip().lower() or "greedy"
    if name not in BOT_KINDS and name not in bots.BOTS:  # the named bots (multi, knaster) also play a seat
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_KINDS)}")
    made: Bot = bots.make_bot(name)
    return made


def check_bot(kind: str, rules: RuleSet) -> None:
    """Check that the bot of a seat kind plays ``rules`` (the Knaster bot plays only Knaster, the
    multi-column bot only sheet games; the others play everything).

    Raises:
        ValueError: an unknown bot, or one that does not play this game.
    """
    make_bot(kind)
    name = kind.split(":", 1)[1] if kind.startswith("bot:") else kind
    knaster = rules.kind is GameKind.KNASTER
    if (name == "knaster" and not knaster) or (name == "multi" and knaster):
        raise ValueError(f"bot {name!r} does not play {rules.name}; choose one of {', '.join(BOT_KINDS)}")
