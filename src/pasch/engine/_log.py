"""Game logs: a game is its rule set, its players and the list of actions (throws included).

A log is a JSON document::

    {"format": "pasch-log", "version": 1, "engine": "0.1.0", "rules": "kniffel+sharp",
     "players": ["Ada", "Bob"], "keeper": false, "actions": ["roll", "throw 1 3 3 5 6", ...], "meta": {}}

:func:`replay` rebuilds the exact state by applying every action to the initial state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pasch._version import __version__
from pasch.dice import DiceSource, SeededDice
from pasch.engine._actions import Action, Throw
from pasch.engine._knaster import KnasterState
from pasch.engine._protocol import State
from pasch.engine._state import GameState
from pasch.errors import LogError, PaschError
from pasch.rules import GameKind, RuleSet, get

__all__ = ["Game", "GameLog", "State", "new_game", "replay"]

LOG_FORMAT = "pasch-log"
LOG_VERSION = 1
MAX_LOG_BYTES = 16 * 1024 * 1024
"""The largest log read (a kniffel-4 game of 8 players takes about 40 kB)."""


def _engine_version() -> str:
    return __version__


def new_game(rules: RuleSet | str, players: Sequence[str], keeper: bool = False) -> State:
    """The initial state of a game of ``rules`` for ``players`` (names in seat order).

    Args:
        rules: a rule set or its text.
        players: player names.
        keeper: score-keeper mode (the table enters real dice).

    Raises:
        RuleSetError: the rule text is invalid.
        IllegalActionError: wrong number of players or bad names.
    """
    rs = get(rules) if isinstance(rules, str) else rules
    if rs.kind is GameKind.KNASTER:
        return KnasterState.new(rs, players, keeper=keeper)
    return GameState.new(rs, players, keeper=keeper)


@dataclass(frozen=True, slots=True)
class GameLog:
    """The record of one game, enough to rebuild it exactly."""

    rules: str
    players: tuple[str, ...]
    actions: tuple[str, ...] = ()
    keeper: bool = False
    engine: str = field(default_factory=_engine_version)
    meta: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form."""
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "engine": self.engine,
            "rules": self.rules,
            "players": list(self.players),
            "keeper": self.keeper,
            "actions": list(self.actions),
            "meta": dict(self.meta),
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The log as a JSON document."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameLog:
        """Read a log from its JSON-ready form.

        Raises:
            LogError: not a pasch log, or a field of the wrong type.
        """
        if not isinstance(data, Mapping) or data.get("format") != LOG_FORMAT:
            raise LogError('not a pasch game log (missing "format": "pasch-log")')
        if data.get("version") != LOG_VERSION:
            raise LogError(f"log version {data.get('version')!r} is not supported (expected {LOG_VERSION})")
        rules, players, actions = data.get("rules"), data.get("players"), data.get("actions", [])
        if not isinstance(rules, str):
            raise LogError('the log\'s "rules" must be a rule-set text')
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise LogError('the log\'s "players" must be a list of names')
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise LogError('the log\'s "actions" must be a list of action texts')
        meta = data.get("meta", {})
        return cls(
            rules=rules,
            players=tuple(players),
            actions=tuple(actions),
            keeper=bool(data.get("keeper", False)),
            engine=str(data.get("engine", "")),
            meta=dict(meta) if isinstance(meta, Mapping) else {},
        )

    @classmethod
    def from_json(cls, text: str) -> GameLog:
        """Read a log from JSON text.

        Raises:
            LogError: invalid JSON or not a pasch log.
        """
        if len(text) > MAX_LOG_BYTES:
            raise LogError(f"the log is too large ({len(text)} characters; at most {MAX_LOG_BYTES})")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogError(f"the log is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise LogError("the log is not a pasch log: its JSON is nested too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> GameLog:
        """Read a log file.

        Raises:
            LogError: unreadable file, invalid JSON or not a pasch log.
        """
        try:
            with Path(path).open("rb") as f:
                raw = f.read(MAX_LOG_BYTES + 1)  # a cap, so that /dev/zero or a huge file cannot fill memory
        except OSError as exc:
            raise LogError(f"cannot read log {str(path)!r}: {exc.strerror}") from None
        if len(raw) > MAX_LOG_BYTES:
            raise LogError(f"cannot read log {str(path)!r}: larger than {MAX_LOG_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(f"cannot read log {str(path)!r}: not UTF-8 text") from None
        return cls.from_json(text)


def replay(
    log: GameLog | Mapping[str, Any] | str,
    upto: int | None = None,
    *,
    before_throw: Callable[[State], object] | None = None,
) -> State:
    """Rebuild a game's state from its log.

    Args:
        log: a :class:`GameLog`, its dict form or its JSON text.
        upto: apply only the first ``upto`` actions.
        before_throw: called with each chance node before its logged throw is applied (a dice source that
            made the throws draws along, so that it continues where the game stands).

    Returns:
        The state after the actions.

    Raises:
        LogError: the log is malformed or an action in it is not legal where it stands.
    """
    if isinstance(log, str):
        log = GameLog.from_json(log)
    elif not isinstance(log, GameLog):
        log = GameLog.from_dict(log)
    try:
        state = new_game(log.rules, log.players, keeper=log.keeper)
    except PaschError as exc:
        raise LogError(f"cannot start the logged game: {exc}") from None
    for n, text in enumerate(log.actions[:upto], start=1):
        if before_throw is not None and state.is_chance_node:
            before_throw(state)
        try:
            state = state.apply(text)
        except PaschError as exc:
            raise LogError(f"action {n} ({text!r}): {exc}") from None
    return state


class Game:
    """A game being recorded: the current state, its log, and the source that throws the dice.

    :meth:`act` applies an action and, when dice are thrown and a dice source is present, throws them at
    once. Without a source (score keeper, tests) the caller applies :class:`Throw` actions itself. The
    application layer (:class:`pasch.app.Match`) adds seats, bots and undo on top; the web server's rooms
    use the same class with their committed dice stream as the source.

    Args:
        rules: the rule set or its text.
        players: player names in seat order.
        dice: where throws come from (:class:`pasch.dice.SeededDice`, the server's stream, ...).
        rng: shorthand for ``dice=SeededDice(rng=rng)``.
        seed: shorthand for ``dice=SeededDice(seed)``.
        keeper: score-keeper mode (the table enters its dice; no source is used).
        meta: free-form data kept in the log (seat kinds, seeds).
    """

    def __init__(
        self,
        rules: RuleSet | str,
        players: Sequence[str],
        *,
        dice: DiceSource | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        keeper: bool = False,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.state: State = new_game(rules, players, keeper=keeper)
        if dice is None and (rng is not None or seed is not None):
            dice = SeededDice(seed, rng)
        self.dice: DiceSource | None = dice
        self.actions: list[str] = []
        self.meta: dict[str, Any] = dict(meta or {})

    @property
    def rng(self) -> np.random.Generator | None:
        """The generator behind a seeded dice source (None for other sources)."""
        return self.dice.rng if isinstance(self.dice, SeededDice) else None

    @classmethod
    def from_log(
        cls,
        log: GameLog,
        rng: np.random.Generator | None = None,
        *,
        dice: DiceSource | None = None,
        sync_dice: bool = False,
    ) -> Game:
        """Resume a logged game (the dice source, if any, throws from here on).

        Args:
            log: the game's log.
            rng: shorthand for ``dice=SeededDice(rng=rng)``.
            dice: the dice source to throw with from here on.
            sync_dice: draw one throw from the source per throw in the log, so that a stream that made the
                logged throws (the server's) continues where the game stands.

        Raises:
            LogError: the log cannot be replayed.
        """
        game = cls(log.rules, log.players, dice=dice, rng=rng, keeper=log.keeper, meta=log.meta)
        source = game.dice
        if sync_dice and source is not None:
            game.state = replay(log, before_throw=lambda st: source.throw(st.pending, st.rules.faces))
        else:
            game.state = replay(log)
        game.actions = list(log.actions)
        return game

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        rules: RuleSet = self.state.rules
        return rules

    @property
    def log(self) -> GameLog:
        """The game's log so far."""
        return GameLog(
            rules=self.rules.id,
            players=tuple(self.state.players),
            actions=tuple(self.actions),
            keeper=bool(self.state.keeper),
            meta=dict(self.meta),
        )

    def act(self, action: Action | str, player: int | None = None) -> State:
        """Apply an action (and throw the dice with the source if it sets dice rolling).

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: not allowed now; the game is unchanged.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        state = self.state.apply(act, player)
        self.state = state
        self.actions.append(str(act))
        if state.is_chance_node and self.dice is not None:
            self.throw()
        return self.state

    def throw(self, dice: Sequence[int] | None = None) -> State:
        """Land the dice in the air: the given values, or values from the dice source.

        Raises:
            IllegalActionError: no dice are in the air.
            InvalidActionError: wrong number of dice or a value that is not a die.
            PaschError: no values given and no dice source.
        """
        if dice is None:
            if self.dice is None:
                raise PaschError("no dice source to throw with; give the dice")
            dice = self.dice.throw(self.state.pending, self.rules.faces)
        act = Throw(tuple(dice))
        self.state = self.state.apply(act)
        self.actions.append(str(act))
        return self.state
