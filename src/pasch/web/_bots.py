"""Bots for server-side seats: ``pasch.bots`` when it provides the class, else a small local fallback.

A seat kind is ``human`` or ``bot:NAME`` with NAME in :data:`BOT_NAMES`. A bot is anything with
``choose(state, rng) -> Action``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any, Protocol

import numpy as np

from pasch.engine import Action, Keep, KnasterState, Roll, Score

__all__ = ["BOT_NAMES", "Bot", "FallbackBot", "hint_for", "make_bot", "seat_kind"]

BOT_NAMES: tuple[str, ...] = ("greedy", "optimal", "random")


class Bot(Protocol):
    """A player that chooses actions."""

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """The action to play in ``state``."""
        ...


class FallbackBot:
    """Used until ``pasch.bots`` lands: keeps the most common face, scores the best box now.

    In Knaster it plays a random legal action.
    """

    def choose(self, state: Any, rng: np.random.Generator) -> Action:
        """Roll, keep the most common face twice, then take the box that pays most now."""
        legal = state.legal_actions()
        if isinstance(state, KnasterState):
            chosen: Action = legal[int(rng.integers(len(legal)))]
            return chosen
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
            action: Action = state._score_action(best[0], best[1].index)
            if action in legal:
                return action
        scores = [a for a in legal if isinstance(a, Score)]
        fallback: Action = scores[0] if scores else legal[0]
        return fallback


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
    """The bot of a seat kind such as ``bot:optimal`` (the fallback when ``pasch.bots`` lacks it)."""
    name = kind.split(":", 1)[1] if ":" in kind else kind
    try:
        bots = importlib.import_module("pasch.bots")
    except ImportError:
        return FallbackBot()
    cls = getattr(bots, f"{name.capitalize()}Bot", None)
    if cls is None:
        return FallbackBot()
    try:
        made: Bot = cls()
    except Exception:  # a bot that cannot serve this server (missing tables) must not stop the game
        return FallbackBot()
    return made


def hint_for(state: Any, rng: np.random.Generator) -> str:
    """The action the best available bot would play now (text)."""
    for name in ("optimal", "greedy"):
        bot = make_bot(f"bot:{name}")
        try:
            return str(bot.choose(state, rng))
        except Exception:
            continue
    return str(FallbackBot().choose(state, rng))
