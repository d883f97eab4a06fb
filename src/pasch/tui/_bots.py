"""Bots for the terminal game: the project's bots (``pasch.bots``) when installed, else a local greedy one.

A bot is anything with ``choose(state, rng) -> Action``. Seat kinds are ``human`` or ``bot:NAME``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any, Protocol

import numpy as np

from pasch.engine import Action, Keep, Roll, Score

__all__ = ["BOT_KINDS", "Bot", "FallbackGreedyBot", "make_bot"]

BOT_KINDS: tuple[str, ...] = ("greedy", "optimal", "random")
"""Bot names offered in the setup screen, best first for new players."""


class Bot(Protocol):
    """A player that chooses actions."""

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """The action to play in ``state``."""
        ...


class FallbackGreedyBot:
    """A simple greedy player used until ``pasch.bots`` is available.

    It keeps the most frequent face (highest on ties) for two re-throws, then takes the box that pays
    most now (the first in sheet order on ties).
    """

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """Roll, keep the most common face, score the best immediate box."""
        legal = state.legal_actions()
        if state.dice is None:
            return next((a for a in legal if isinstance(a, Roll)), legal[0])
        options = state.score_options()
        if options:
            best = max(options, key=lambda co: (co[1].total, -co[0], -co[1].index))
            if state.throws_left > 0 and best[1].total < 25:
                counts = Counter(state.dice)
                face, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
                keep = Keep(tuple([face] * n))
                if keep in legal:
                    return keep
            col, opt = best
            multi = state.rules.n_columns > 1
            action = Score(state.rules.categories[opt.index].id, col + 1 if multi else None)
            if action in legal:
                return action
        scores = [a for a in legal if isinstance(a, Score)]
        return scores[0] if scores else legal[0]


def make_bot(kind: str) -> Bot:
    """The bot for a seat kind such as ``bot:optimal`` (or just ``optimal``).

    Uses ``pasch.bots`` (``RandomBot``, ``GreedyBot``, ``OptimalBot``) when that package provides the
    class, otherwise :class:`FallbackGreedyBot`.

    Raises:
        ValueError: an unknown bot name.
    """
    name = kind.split(":", 1)[1] if kind.startswith("bot:") else kind
    name = name.strip().lower() or "greedy"
    if name not in BOT_KINDS:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_KINDS)}")
    try:
        bots = importlib.import_module("pasch.bots")
    except ImportError:
        return FallbackGreedyBot()
    cls = getattr(bots, f"{name.capitalize()}Bot", None)
    if cls is None:
        return FallbackGreedyBot()
    made: Bot = cls()
    return made
