"""A game being played in the terminal app, without any drawing: seats, dice positions, holds, undo.

The engine decides everything about the game; the session only remembers what a table remembers
around it: which die sits where, which dice the player is holding, who is a bot, and which of the
human's last steps may still be taken back.

Undo (issue 4): a hold change, an announcement or a scoring choice may be taken back; a throw may
not, once seen, and a scoring choice only until the next player throws. In Knaster a write, a circle or
a pass may be taken back likewise, until the next number is thrown. Score-keeper games take back any
entry (the table's dice are not secret). Undo restores the earlier immutable state object itself,
so every total, bonus, extra point and flag is exactly what it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pasch.engine import Action, Announce, Circle, Enter, Game, GameLog, Keep, Pass, Roll, Score, Write
from pasch.rules import RuleSet, get
from pasch.tui._bots import Bot, check_bot, make_bot

__all__ = ["Seat", "Session", "parse_seats"]


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's name and kind (``human`` or ``bot:NAME``)."""

    name: str
    kind: str = "human"

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.kind.startswith("bot")


def parse_seats(text: str | Sequence[str]) -> list[Seat]:
    """Read players such as ``"Ada, Bob, bot:optimal, Eve=bot:greedy"`` into seats.

    A bare ``bot:NAME`` gets a name like ``OptimalBot`` (numbered if several).

    Raises:
        ValueError: no players, or an unknown bot name.
    """
    items = [p.strip() for p in (text.split(",") if isinstance(text, str) else text)]
    items = [p for p in items if p]
    if not items:
        raise ValueError("no players given")
    seats: list[Seat] = []
    used: set[str] = set()
    for item in items:
        name, _, kind = item.partition("=")
        if not kind and name.lower().startswith("bot"):
            name, kind = "", name
        kind = kind.strip().lower() or "human"
        if kind != "human":
            bot = kind.split(":", 1)[1] if ":" in kind else "greedy"
            make_bot(bot)  # validates the name
            kind = f"bot:{bot}"
            if not name.strip():
                base = f"{bot.capitalize()}Bot"
                name, n = base, 2
                while name in used:
                    name, n = f"{base}{n}", n + 1
        seats.append(Seat(name.strip(), kind))
        used.add(name.strip())
    return seats


@dataclass
class _Snapshot:
    state: Any
    n_actions: int
    faces: tuple[int, ...]
    holds: tuple[bool, ...]


@dataclass
class Session:
    """The game, its seats, the dice as laid out on the table and the undo history.

    Attributes:
        game: the engine's game (state, log, dice generator).
        seats: who plays each seat.
        faces: the dice in table order (positions stay put across re-throws), empty before a throw.
        holds: for each position, whether the player holds that die for the next throw.
        game_id: the id under which the game is saved, once saved.
    """

    game: Game
    seats: list[Seat]
    faces: tuple[int, ...] = ()
    holds: tuple[bool, ...] = ()
    game_id: int | None = None
    _undo: list[_Snapshot] = field(default_factory=list)
    _bots: dict[int, Bot] = field(default_factory=dict)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: RuleSet | str,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        keeper: bool = False,
    ) -> Session:
        """A new game.

        Raises:
            RuleSetError: bad rule text.
            IllegalActionError: wrong number of players or bad names.
            ValueError: a bot seat whose bot does not play this game.
        """
        rs = get(rules) if isinstance(rules, str) else rules
        for seat in seats:
            if seat.is_bot:
                check_bot(seat.kind, rs)
        gen = rng if rng is not None else np.random.default_rng(seed)
        meta = {"seats": [s.kind for s in seats]}
        game = Game(rs, [s.name for s in seats], rng=None if keeper else gen, keeper=keeper, meta=meta)
        return cls(game=game, seats=list(seats))

    @classmethod
    def from_log(
        cls,
        log: GameLog,
        kinds: Sequence[str] | None = None,
        *,
        seed: int | None = None,
        game_id: int | None = None,
    ) -> Session:
        """Resume a logged game (bots per ``kinds``, else per the log's ``meta["seats"]``, else humans).

        Raises:
            LogError: the log does not replay.
        """
        kinds = list(kinds or log.meta.get("seats") or ["human"] * len(log.players))
        rng = None if log.keeper else np.random.default_rng(seed)
        game = Game.from_log(log, rng=rng)
        game.meta["seats"] = kinds
        seats = [Seat(n, k) for n, k in zip(log.players, kinds, strict=False)]
        session = cls(game=game, seats=seats, game_id=game_id)
        session._reset_faces()
        return session

    # -- queries ------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The current engine state."""
        return self.game.state

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.game.rules

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
        seat: Seat = self.seats[int(self.state.current)]
        return seat

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is to act now."""
        return not self.finished and self.seat.is_bot

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to take back."""
        return bool(self._undo)

    @property
    def kinds(self) -> list[str]:
        """Every seat's kind, in seat order."""
        return [s.kind for s in self.seats]

    @property
    def can_throw(self) -> bool:
        """Whether the player to act may throw now (first throw or a re-throw)."""
        st = self.state
        if self.finished or self.keeper:
            return False
        if st.dice is None:
            return True
        return bool(st.throws_left > 0 and not st.must_announce())

    def held_dice(self) -> tuple[int, ...]:
        """The values of the held dice."""
        return tuple(f for f, h in zip(self.faces, self.holds, strict=True) if h)

    # -- actions ------------------------------------------------------------------------------
    def toggle_hold(self, position: int) -> bool:
        """Hold or release the die at ``position`` (0-based); False if there is nothing to hold now."""
        if not self.faces or not 0 <= position < len(self.faces) or not self.can_throw or self.state.dice is None:
            return False
        self._push()
        holds = list(self.holds)
        holds[position] = not holds[position]
        self.holds = tuple(holds)
        return True

    def throw(self) -> Any:
        """Throw: the first throw of the turn, or re-throw every die not held.

        Raises:
            IllegalActionError: no throw is allowed now.
        """
        if self.state.dice is None:
            return self.act(Roll())
        return self.act(Keep(self.held_dice()))

    def score(self, column: int, index: int) -> Any:
        """Enter the dice in box ``index`` of 0-based ``column``.

        Raises:
            IllegalActionError: the box cannot take the dice now (the message says why).
        """
        multi = self.rules.n_columns > 1
        return self.act(Score(self.rules.categories[index].id, column + 1 if multi else None))

    def act(self, action: Action | str) -> Any:
        """Apply an action for the player to act and keep the dice layout and undo history in step.

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: not allowed now; nothing changes.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        before = self._snapshot()
        if isinstance(act, Roll | Keep):
            kept = act.dice if isinstance(act, Keep) else ()
            if tuple(sorted(self.held_dice())) != tuple(kept):
                self._hold_values(kept)  # a bot or a typed action chose the dice to keep
            self.game.act(act)
            self._undo.clear()  # a throw is seen: nothing before it can be taken back
            self._lay_out(kept)
            return self.state
        self.game.act(act)
        if isinstance(act, Score | Announce | Enter | Write | Circle | Pass):
            if not self.seats[before.state.current].is_bot:
                self._undo.append(before)
            if isinstance(act, Score):
                self.faces, self.holds = (), ()
            elif isinstance(act, Enter):
                self._reset_faces()
        return self.state

    def undo(self) -> bool:
        """Take back the last undoable step; False if there is none."""
        if not self._undo:
            return False
        snap = self._undo.pop()
        self.game.state = snap.state
        del self.game.actions[snap.n_actions :]
        self.faces, self.holds = snap.faces, snap.holds
        return True

    def bot_action(self) -> Action:
        """The action the bot to act chooses now.

        Raises:
            RuntimeError: the player to act is not a bot.
        """
        seat_index = self.state.current
        if not self.seats[seat_index].is_bot:
            raise RuntimeError(f"{self.seats[seat_index].name} is not a bot")
        bot = self._bots.get(seat_index)
        if bot is None:
            bot = self._bots[seat_index] = make_bot(self.seats[seat_index].kind)
        rng = self.game.rng if self.game.rng is not None else np.random.default_rng()
        return bot.choose(self.state, rng)

    # -- internals ----------------------------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self.state, len(self.game.actions), self.faces, self.holds)

    def _push(self) -> None:
        self._undo.append(self._snapshot())

    def _reset_faces(self) -> None:
        dice = self.state.dice
        self.faces = tuple(dice) if dice else ()
        self.holds = tuple(False for _ in self.faces)

    def _hold_values(self, kept: Sequence[int]) -> None:
        want = list(kept)
        holds: list[bool] = []
        for f in self.faces:
            holds.append(f in want)
            if f in want:
                want.remove(f)
        self.holds = tuple(holds)

    def _lay_out(self, kept: Sequence[int]) -> None:
        """Put the new dice where the re-thrown ones were; held dice keep their places."""
        dice = list(self.state.dice or ())
        if not self.faces or not kept:
            self.faces = tuple(dice)
            self.holds = tuple(False for _ in dice)
            return
        pool = list(dice)
        for v in kept:
            pool.remove(v)
        faces: list[int] = []
        holds: list[bool] = []
        to_keep = list(kept)
        for f, h in zip(self.faces, self.holds, strict=True):
            if h and f in to_keep:
                to_keep.remove(f)
                faces.append(f)
                holds.append(True)
            else:
                faces.append(pool.pop(0))
                holds.append(False)
        self.faces, self.holds = tuple(faces), tuple(holds)
