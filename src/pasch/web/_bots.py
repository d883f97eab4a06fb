"""Bots for server-side seats (:mod:`pasch.bots`) and the hint the best of them gives.

A seat kind is ``human`` or ``bot:NAME`` with NAME in :data:`BOT_NAMES`. A bot is anything with
``choose(state, rng) -> Action``.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from pasch import bots
from pasch.engine import Action

__all__ = ["BOT_NAMES", "Bot", "make_bot", "seat_kind"]

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


_MADE: dict[str, Bot] = {}


def make_bot(kind: str) -> Bot:
    """The bot of a seat kind such as ``bot:optimal``, from :mod:`pasch.bots`.

    One instance per name serves every room: bots keep no game state, only caches (the optimal bot's
    solver tables), which are then loaded once per process instead of once per move.

    Raises:
        ValueError: an unknown bot name.
    """
    name = kind.split(":", 1)[1] if ":" in kind else kind
    made = _MADE.get(name)
    if made is None:
        made = _MADE.setdefault(name, bots.make_bot(name))
    return made
