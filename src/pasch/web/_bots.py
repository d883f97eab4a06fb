"""Bots for server-side seats (:mod:`pasch.bots`) and the hint the best of them gives.

A seat kind is ``human`` or ``bot:NAME`` with NAME in :data:`BOT_NAMES`. A bot is anything with
``choose(state, rng) -> Action``.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from pasch import bots
from pasch.engine import Action

__all__ = ["BOT_NAMES", "Bot", "hint_for", "make_bot", "seat_kind"]

BOT_NAMES: tuple[str, ...] = ("greedy", "optimal", "random")


class Bot(Protocol):
    """A player that chooses actions."""

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """The action to play in ``state``."""
        ...


def seat_kind(text: str) -> str:
    """Normalise a seat kind: ``human``, ``bot`` (greedy) or ``bot:NAME``.

    Raises:
        ValueError: an unknown kind or bot name.
    """
    t = text.strip().lower()
    if t in ("human", ""):
        return "human"
    name = t.split(":", 1)[1] if t.startswith("bot:") else ("greedy" if t == "bot" else t)
    if name not in BOT_NAMES:
        raise ValueError(f"unknown seat kind {text!r}; use human or bot:{'|bot:'.join(BOT_NAMES)}")
    return f"bot:{name}"


def make_bot(kind: str) -> Bot:
    """The bot of a seat kind such as ``bot:optimal``, from :mod:`pasch.bots`.

    Raises:
        ValueError: an unknown bot name.
    """
    name = kind.split(":", 1)[1] if ":" in kind else kind
    made: Bot = bots.make_bot(name)
    return made


def hint_for(state: Any, rng: np.random.Generator) -> str:
    """The action the best available bot would play now (text)."""
    for name in ("optimal", "greedy"):
        bot = make_bot(f"bot:{name}")
        try:
            return str(bot.choose(state, rng))
        except Exception:
            continue
    return str(state.legal_actions()[0])
