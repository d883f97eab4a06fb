"""A game in progress: the engine's recorded game, its seats and bots, and the undo policy.

:class:`Match` is what the terminal app, ``pasch play`` and the web server's rooms hold. The engine decides
everything about the game; a match adds what a table adds around it: who sits where (people or bots), where
the dice come from (:class:`pasch.dice.DiceSource`: a seeded generator locally, the committed stream on
the server; none in a score-keeper game) and which steps may still be taken back.

Undo policy: a person's scoring choice, announcement, dice entry (score keeper) or Knaster write, circle
or pass may be taken back until the next throw; a throw may not, once seen. Interfaces may record their own
steps (the terminal app's held dice) with :meth:`Match.checkpoint`, and may attach what they need to
restore to every step (``memo``): :meth:`Match.undo` hands it back. Online games turn undo off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

from pasch.app._seats import Bot, Seat, check_bot, make_bot
from pasch.dice import DiceSource, RewindableDice, SeededDice
from pasch.engine import (
    Action,
    Announce,
    Circle,
    Enter,
    Game,
    GameLog,
    Keep,
    Pass,
    Roll,
    Score,
    State,
    Throw,
    Write,
)
from pasch.errors import IllegalActionError
from pasch.rules import RuleSet, get

__all__ = ["BotTurn", "Match", "Pending", "UndoStep"]

_UNDOABLE = (Score, Announce, Enter, Write, Circle, Pass)


def _rewindable(source: DiceSource | None) -> TypeGuard[RewindableDice]:
    """``isinstance(source, RewindableDice)`` without the protocol check's cost (about 2 % of a server's CPU per
    action): a runtime-checkable protocol's check is that its methods are there and not None, which this is."""
    return getattr(source, "mark", None) is not None and getattr(source, "rewind", None) is not None


@dataclass(frozen=True, slots=True)
class UndoStep:
    """A step that may be taken back: the state before it, the log length then, and the caller's memo."""

    state: State
    n_actions: int
    memo: Any = None


@dataclass(frozen=True, slots=True)
class Pending:
    """An action validated and its throw drawn, not yet applied (:meth:`Match.prepare`).

    Attributes:
        events: ``(seat, text)`` of each action to append: the action (its seat), then any throw (None).
        state: the state after them.
        at: the log length they apply at (a pending action of an older position is refused).
        mark: the dice source's position before the throw was drawn (None when nothing was drawn).
    """

    events: tuple[tuple[int | None, str], ...]
    state: State
    at: int
    mark: object = None


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot to move: the state it sees, its seat and the bot."""

    state: State
    seat: int
    bot: Bot

    def choose(self, rng: np.random.Generator | None = None) -> Action:
        """The bot's action; should the bot fail, the first legal action (a bot's bug never stalls a game)."""
        gen = rng if rng is not None else np.random.default_rng()
        try:
            return self.bot.choose(self.state, gen)
        except Exception:  # any failure of a bot is replaced by a legal move
            first: Action = self.state.legal_actions()[0]
            return first


class Match:
    """A game in progress with its seats.

    Args:
        game: the engine's recorded game (state, log, dice source).
        seats: who plays each seat, in seat order.
        undo: whether steps may be taken back (off for online games).
        game_id: the id under which the game is stored, once stored.
    """

    def __init__(self, game: Game, seats: Sequence[Seat], *, undo: bool = True, game_id: int | None = None) -> None:
        if len(seats) != len(game.state.players):
            raise ValueError(f"{len(seats)} seats for {len(game.state.players)} players")
        self.game = game
        self.seats = list(seats)
        self.undo_enabled = undo
        self.game_id = game_id
        self._undo: list[UndoStep] = []
        self.game.meta["seats"] = [s.kind for s in self.seats]

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: RuleSet | str,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        dice: DiceSource | None = None,
        keeper: bool = False,
        meta: dict[str, Any] | None = None,
        undo: bool = True,
    ) -> Match:
        """A new game of ``rules`` for ``seats``.

        Args:
            rules: the rule set or its text.
            seats: the players.
            seed: seed of the dice (a seeded generator) when no ``dice``/``rng`` is given.
            rng: the generator to throw with.
            dice: the dice source (takes precedence over ``seed`` and ``rng``).
            keeper: score-keeper mode: the table enters its dice, no source is used.
            meta: extra data for the log.
            undo: whether steps may be taken back.

        Raises:
            RuleSetError: bad rule text.
            IllegalActionError: wrong number of players or bad names.
            ValueError: a bot seat whose bot does not play this game.
        """
        rs = get(rules) if isinstance(rules, str) else rules
        for seat in seats:
            check_bot(seat.kind, rs)
        source = None if keeper else (dice if dice is not None else SeededDice(seed, rng))
        game = Game(rs, [s.name for s in seats], dice=source, keeper=keeper, meta=meta)
        return cls(game, seats, undo=undo)

    @classmethod
    def from_log(
        cls,
        log: GameLog,
        kinds: Sequence[str] | None = None,
        *,
        seed: int | None = None,
        dice: DiceSource | None = None,
        sync_dice: bool = False,
        undo: bool = True,
        game_id: int | None = None,
    ) -> Match:
        """Resume a logged game (bots per ``kinds``, else per the log's ``meta["seats"]``, else people).

        Args:
            log: the game's log.
            kinds: each seat's kind (default: the log's ``meta["seats"]``, else people).
            seed: seed of a new seeded dice source, when no ``dice`` is given.
            dice: the dice source to throw with from here on.
            sync_dice: draw one throw from ``dice`` per throw in the log, so that a stream that made the
                logged throws (the server's) continues where the game stands.
            undo: whether steps may be taken back.
            game_id: the stored game's id.

        Raises:
            LogError: the log does not replay.
        """
        raw = kinds or log.meta.get("seats") or []
        names = list(log.players)
        kinds_l = [str(k) for k in raw][: len(names)]
        kinds_l += ["human"] * (len(names) - len(kinds_l))
        source = None if log.keeper else (dice if dice is not None else SeededDice(seed))
        game = Game.from_log(log, dice=source, sync_dice=sync_dice)
        seats = [Seat(n, k) for n, k in zip(names, kinds_l, strict=True)]
        return cls(game, seats, undo=undo, game_id=game_id)

    # -- queries ------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current engine state."""
        return self.game.state

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.game.rules

    @property
    def log(self) -> GameLog:
        """The game's log so far."""
        return self.game.log

    @property
    def actions(self) -> list[str]:
        """Every action so far, throws included (read-only by convention)."""
        return self.game.actions

    @property
    def keeper(self) -> bool:
        """Whether this is a score-keeper game (real dice at the table)."""
        return bool(self.state.keeper)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return bool(self.state.is_terminal)

    @property
    def seat(self) -> Seat:
        """The seat to act."""
        seat: int = self.state.current_player
        return self.seats[seat]

    @property
    def kinds(self) -> list[str]:
        """Every seat's kind, in seat order."""
        return [s.kind for s in self.seats]

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is to act now (never at a chance node: the dice source throws)."""
        return not self.finished and not self.state.is_chance_node and self.seat.is_bot

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to take back."""
        return bool(self._undo)

    # -- actions ------------------------------------------------------------------------------
    def act(self, action: Action | str, player: int | None = None, *, memo: Any = None) -> list[str]:
        """Apply an action (and the throw that follows it, when the match has a dice source).

        Args:
            action: the action or its text.
            player: the seat claiming to act (checked by the engine), or None.
            memo: what the caller needs back should this step be undone.

        Returns:
            The texts of the actions appended to the log (the action, then any throw).

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: not allowed now; nothing changes.
        """
        return self.commit(self.prepare(action, player), memo=memo)

    def prepare(self, action: Action | str, player: int | None = None) -> Pending:
        """Validate an action and draw the throw it sets off, without changing the game.

        For callers that must record the events before they count (the web server writes them to its
        database first): :meth:`commit` applies a prepared action, :meth:`discard` forgets it (and puts the
        dice source back where it was, so that the throws stay in step with the log).

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: not allowed now.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        seat = self.state.current_player
        new = self.state.apply(act, player)
        events: list[tuple[int | None, str]] = [(seat if player is None else player, str(act))]
        mark: object = None
        source = self.game.dice
        if new.is_chance_node and source is not None:
            mark = source.mark() if _rewindable(source) else None
            throw = Throw(source.throw(new.pending, new.rules.faces))
            new = new.apply(throw)
            events.append((None, str(throw)))
        return Pending(tuple(events), new, len(self.game.actions), mark)

    def commit(self, pending: Pending, *, memo: Any = None) -> list[str]:
        """Apply a prepared action: its events join the log and its state becomes the game's.

        Returns:
            The texts of the actions appended to the log.

        Raises:
            IllegalActionError: the game has moved on since the action was prepared.
        """
        if pending.at != len(self.game.actions):
            raise IllegalActionError("the game has moved on since this action was prepared")
        before = self.state
        texts = [t for _, t in pending.events]
        act = Action.parse(texts[0])
        self.game.state = pending.state
        self.game.actions.extend(texts)
        if isinstance(act, Roll | Keep) or len(texts) > 1:
            self._undo.clear()  # a throw is seen: nothing before it can be taken back
        elif self.undo_enabled and isinstance(act, _UNDOABLE) and not self.seats[before.current_player].is_bot:
            self._undo.append(UndoStep(before, pending.at, memo))
        return texts

    def discard(self, pending: Pending) -> None:
        """Forget a prepared action: the dice source goes back to where it was before its throw."""
        source = self.game.dice
        if pending.mark is not None and _rewindable(source):
            source.rewind(pending.mark)

    def throw(self, dice: Sequence[int] | None = None) -> list[str]:
        """Land the dice in the air: the given values (the table's) or the dice source's.

        Returns:
            The text of the throw appended to the log.

        Raises:
            IllegalActionError: no dice are in the air.
            InvalidActionError: wrong number of dice or a value that is not a die.
            PaschError: no values given and no dice source.
        """
        n = len(self.game.actions)
        self.game.throw(dice)
        self._undo.clear()
        return self.game.actions[n:]

    def checkpoint(self, memo: Any = None) -> None:
        """Record a step of the interface's own (a held die) that :meth:`undo` may take back."""
        if self.undo_enabled:
            self._undo.append(UndoStep(self.state, len(self.game.actions), memo))

    def undo(self) -> UndoStep | None:
        """Take back the last undoable step; returns it (with its memo), or None if there is none."""
        if not self._undo:
            return None
        step = self._undo.pop()
        self.game.state = step.state
        del self.game.actions[step.n_actions :]
        return step

    # -- bots ---------------------------------------------------------------------------------
    def bot_turn(self) -> BotTurn | None:
        """The bot to move now, or None when a person (or the dice) is to act or the game is over."""
        if not self.bot_to_move:
            return None
        seat = self.state.current_player
        return BotTurn(self.state, seat, make_bot(self.seats[seat].kind))

    def play_bots(self) -> list[Action]:
        """Let the bots play, at once, until a person (or the table's dice) is to act or the game is over.

        Returns:
            The bots' actions, in order.
        """
        played: list[Action] = []
        while self.bot_to_move:
            action = self.bot_action()
            self.act(action)
            played.append(action)
        return played

    def bot_action(self) -> Action:
        """The action the bot to act chooses now (with the match's generator where it has one).

        Raises:
            IllegalActionError: no bot is to act.
        """
        turn = self.bot_turn()
        if turn is None:
            raise IllegalActionError(f"{self.seat.name} is not a bot to move now")
        return turn.choose(self.game.rng)
