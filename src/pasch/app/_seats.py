"""Seats and the one bot registry: who plays each seat (``human`` or ``bot:NAME``), parsed, listed, described.

Every interface offers the same seat kinds: the terminal setup screen, ``pasch play --players``, the web
server's room form and its API all read :data:`BOT_KINDS` and call :func:`seat_kind` / :func:`parse_seats`.
A bot keeps no game state, only caches (the optimal bot's solver tables), so one instance per name serves
every game of the process (:func:`make_bot`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from pasch import bots
from pasch.engine import Action, State
from pasch.i18n import N_, _
from pasch.rules import GameKind, RuleSet

__all__ = [
    "BOT_KINDS",
    "HUMAN",
    "Bot",
    "BotKind",
    "Seat",
    "bot_kinds_for",
    "check_bot",
    "make_bot",
    "parse_seats",
    "seat_kind",
    "seat_kinds",
    "seat_label",
]

HUMAN = "human"
"""The seat kind of a person."""


class Bot(Protocol):
    """A player that chooses actions (every bot of :mod:`pasch.bots`)."""

    def choose(self, state: State, rng: np.random.Generator, /) -> Action:
        """The action to play in ``state`` (a decision node of an unfinished game)."""
        ...


@dataclass(frozen=True, slots=True)
class BotKind:
    """A bot that may play a seat.

    Attributes:
        name: the name after ``bot:`` (``optimal``).
        description: one line for menus and ``--help``.
        offered: listed in setup screens (the specialist bots play a seat when named, but ``optimal``
            already delegates to them where it has no exact table).
        sheet: plays sheet games (Kniffel, Yahtzee, Yatzy, the multi-column games).
        knaster: plays Knaster.
    """

    name: str
    description: str
    offered: bool = True
    sheet: bool = True
    knaster: bool = True

    @property
    def kind(self) -> str:
        """The seat kind text, ``bot:NAME``."""
        return f"bot:{self.name}"

    def plays(self, rules: RuleSet) -> bool:
        """Whether this bot plays ``rules``."""
        return self.knaster if rules.kind is GameKind.KNASTER else self.sheet


BOT_KINDS: tuple[BotKind, ...] = (
    BotKind(
        "optimal",
        "the strongest: exact optimal play on one-column sheets, the best heuristic bot elsewhere",
    ),
    BotKind(
        "win",
        "plays for the win: the best chance of finishing ahead of every opponent (one-column sheets)",
        # Named on request only (seats ``bot:win``): its first game of a full-size rule set builds a threshold
        # table of about 0.5-1 GB in several minutes, which no setup screen should start unasked.
        offered=False,
        knaster=False,
    ),
    BotKind("greedy", "throws once and takes the box that pays most now"),
    BotKind("random", "any legal move, uniformly at random"),
    BotKind("multi", "the multi-column bot (per-column exact tables)", offered=False, knaster=False),
    BotKind("knaster", "the Knaster bot (line potential)", offered=False, sheet=False),
)
"""Every bot, best first for new players; the ``offered`` ones are listed in setup screens."""

_BY_NAME = {b.name: b for b in BOT_KINDS}


def _known() -> str:
    return ", ".join(b.kind for b in BOT_KINDS if b.offered)


def bot_kinds_for(rules: RuleSet, offered_only: bool = True) -> tuple[BotKind, ...]:
    """The bots that play ``rules`` (only those offered in setup screens, unless ``offered_only`` is off)."""
    return tuple(b for b in BOT_KINDS if b.plays(rules) and (b.offered or not offered_only))


_BOT_LABELS = {"greedy": N_("Bot: greedy"), "optimal": N_("Bot: optimal"), "random": N_("Bot: random")}
"""The words for the bots the registry offers (any other is ``Bot: NAME``)."""


def seat_kinds(rules: RuleSet | None = None) -> tuple[str, ...]:
    """The seat kinds a setup form offers, in their display order: ``human``, then the offered bots best first
    (those that play ``rules``, when given). The terminal's setup screen, the web page's room form (through
    ``/api/rules``) and nothing else list them."""
    bots = bot_kinds_for(rules) if rules is not None else tuple(b for b in BOT_KINDS if b.offered)
    return (HUMAN, *(b.kind for b in bots))


def seat_label(kind: str) -> str:
    """A seat kind in words of the current language: ``Human``, ``Bot: optimal``.

    Raises:
        ValueError: an unknown kind.
    """
    norm = seat_kind(kind)
    if norm == HUMAN:
        return _("Human")
    name = norm.split(":", 1)[1]
    label = _BOT_LABELS.get(name)
    return _(label) if label else _("Bot: {name}").format(name=name)


def seat_kind(text: str) -> str:
    """Normalise a seat kind: ``human`` (or empty), ``bot`` (the greedy bot), ``bot:NAME`` or a bare ``NAME``.

    Raises:
        ValueError: an unknown kind or bot name.
    """
    t = text.strip().lower()
    if t in (HUMAN, ""):
        return HUMAN
    name = t.split(":", 1)[1].strip() if t.startswith("bot:") else ("greedy" if t == "bot" else t)
    if name not in _BY_NAME:
        raise ValueError(f"unknown seat kind {text!r}; use human or one of {_known()}")
    return f"bot:{name}"


def check_bot(kind: str, rules: RuleSet) -> None:
    """Check that the bot of a seat kind plays ``rules`` (a human seat always may).

    Raises:
        ValueError: an unknown bot, or one that does not play this game.
    """
    norm = seat_kind(kind)
    if norm == HUMAN:
        return
    info = _BY_NAME[norm.split(":", 1)[1]]
    if not info.plays(rules):
        raise ValueError(f"bot {info.name!r} does not play {rules.name}; choose one of {_known()}")


_MADE: dict[str, Bot] = {}
_MADE_LOCK = threading.Lock()


def make_bot(kind: str) -> Bot:
    """The bot of a seat kind such as ``bot:optimal`` (or a bare name), one shared instance per name.

    Raises:
        ValueError: an unknown bot name, or ``human``.
    """
    norm = seat_kind(kind)
    if norm == HUMAN:
        raise ValueError("a human seat has no bot")
    name = norm.split(":", 1)[1]
    with _MADE_LOCK:
        made = _MADE.get(name)
        if made is None:
            made = _MADE[name] = bots.make_bot(name)
    return made


def prepare_bot_tables(rules: RuleSet) -> None:
    """Load (or build, once per machine) the tables that the bots and hints of a multi-column game read (the
    multi-column bot's, shared by every bot of the process: ``bot:multi``, ``bot:optimal``'s delegate, the
    advisor): a fraction of a second from the cache, about 20 s to build kniffel-4's on a shared two-core
    machine. A caller that wants no bot decision to wait (a server, before a bot's first move) calls it first.

    Raises:
        RuleSetError: not a sheet game.
        ModelFileError: a shipped learned model fails its checksum.
    """
    _multi_bot().prepare(rules)


def uses_bot_tables(rules: RuleSet) -> bool:
    """Whether the bots and hints of ``rules`` read the multi-column bot's tables (the sheet games of several
    columns: jetsi, kniffel-3, kniffel-4); single-column games read the exact solver's table, Knaster none."""
    return rules.kind is GameKind.SHEET and rules.n_columns > 1


def bot_tables_ready(rules: RuleSet) -> bool:
    """Whether a bot decision or hint of ``rules`` waits for none of the multi-column bot's tables: they are in
    memory (:func:`prepare_bot_tables`), or the rules read none (:func:`uses_bot_tables`)."""
    return not uses_bot_tables(rules) or _multi_bot().ready(rules)


def _multi_bot() -> bots.MultiColumnBot:
    """The process's ``bot:multi`` (every multi-column bot shares its tables)."""
    bot = make_bot("bot:multi")
    assert isinstance(bot, bots.MultiColumnBot)
    return bot


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's name and kind (``human`` or ``bot:NAME``)."""

    name: str
    kind: str = HUMAN

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.kind.startswith("bot")


def _bot_name(bot: str, used: set[str]) -> str:
    base = f"{bot.capitalize()}Bot"
    name, n = base, 2
    while name in used:
        name, n = f"{base}{n}", n + 1
    return name


def parse_seats(text: str | Sequence[str]) -> list[Seat]:
    """Read players such as ``"Ada, Bob, bot:optimal, Eve=bot:greedy"`` into seats.

    A bare ``bot:NAME`` gets a name like ``OptimalBot`` (numbered if several).

    Raises:
        ValueError: no players, an empty name between commas, or an unknown seat kind.
    """
    items = [p.strip() for p in (text.split(",") if isinstance(text, str) else text)]
    if not any(items):
        raise ValueError("no players given")
    if not all(items):
        shown = text if isinstance(text, str) else ",".join(text)
        raise ValueError(f"player names must not be empty: {shown!r}")
    seats: list[Seat] = []
    used: set[str] = set()
    for item in items:
        name, _, kind = item.partition("=")
        low = name.strip().lower()
        if not kind and (low == "bot" or low.startswith("bot:")):
            name, kind = "", name
        norm = seat_kind(kind) if kind.strip() else HUMAN
        name = name.strip()
        if norm != HUMAN and not name:
            name = _bot_name(norm.split(":", 1)[1], used)
        seats.append(Seat(name, norm))
        used.add(name)
    return seats
