"""A game being played in the terminal app: a :class:`pasch.app.Match` plus what only the terminal's table
remembers around it, where each die lies and which dice the player holds.

The match owns everything about the game in progress: state, log, dice source, seats, which bot plays a
seat, and the undo policy (a scoring choice, an announcement, a score keeper's entry, a Knaster write,
circle or pass may be taken back until the next throw; a throw may not, once seen). The session adds the
dice layout: positions stay put across re-throws, and a hold change is a step of its own that undo takes
back (:meth:`pasch.app.Match.checkpoint`). Every step carries the layout before it as its memo, so undo
restores the held dice exactly as they lay. The app saves the layout with every step
(:class:`pasch.app.Recorder`), and a resumed session lays the dice out as they were, held dice included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pasch.app import Match, Seat, TableDice, parse_seats, table_of
from pasch.engine import Action, Enter, GameLog, GameState, Keep, Roll, Score, State
from pasch.errors import IllegalActionError, PaschError
from pasch.rules import RuleSet

__all__ = ["DiceLayout", "Seat", "Session", "parse_seats"]

DiceLayout = TableDice
"""The dice as they lie on the terminal's table: faces in table order and which of them are held."""


class Session:
    """A match and the dice as laid out on the table.

    Args:
        match: the game in progress.

    Attributes:
        match: the game in progress (state, log, dice source, seats, bots, undo).
        faces: the dice in table order (positions stay put across re-throws), empty before a throw.
        holds: for each position, whether the player holds that die for the next throw.
    """

    def __init__(self, match: Match) -> None:
        self.match = match
        self.faces: tuple[int, ...] = ()
        self.holds: tuple[bool, ...] = ()
        self._reset_faces()
        table = table_of(match)  # a resumed game: the dice as they lay when it was saved
        if table is not None:
            self.faces = table.faces
            self.holds = table.holds if self.can_throw else tuple(False for _ in table.faces)

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
        meta: dict[str, Any] | None = None,
    ) -> Session:
        """A new game (see :meth:`pasch.app.Match.new`; ``meta`` goes into the log).

        Raises:
            RuleSetError: bad rule text.
            IllegalActionError: wrong number of players or bad names.
            ValueError: a bot seat whose bot does not play this game.
        """
        return cls(Match.new(rules, seats, seed=seed, rng=rng, keeper=keeper, meta=meta))

    @classmethod
    def from_log(
        cls,
        log: GameLog,
        kinds: Sequence[str] | None = None,
        *,
        seed: int | None = None,
        game_id: int | None = None,
    ) -> Session:
        """Resume a logged game (bots per ``kinds``, else per the log's ``meta["seats"]``, else people), with
        the dice laid out and held as they were when it was saved (:func:`pasch.app.table_of`).

        Raises:
            LogError: the log does not replay.
        """
        return cls(Match.from_log(log, kinds, seed=seed, game_id=game_id))

    # -- the table ------------------------------------------------------------------------------
    @property
    def layout(self) -> TableDice:
        """The dice as they lie now."""
        return TableDice(self.faces, self.holds)

    @property
    def can_throw(self) -> bool:
        """Whether the player to act may throw now in a sheet game (first throw or a re-throw)."""
        st = self.match.state
        if self.match.finished or self.match.keeper or not isinstance(st, GameState):
            return False
        if st.dice is None:
            return True
        return st.throws_left > 0 and not st.must_announce()

    def held_dice(self) -> tuple[int, ...]:
        """The values of the held dice."""
        return tuple(f for f, h in zip(self.faces, self.holds, strict=True) if h)

    # -- actions ------------------------------------------------------------------------------
    def toggle_hold(self, position: int) -> bool:
        """Hold or release the die at ``position`` (0-based); False if there is nothing to hold now.

        The change is a step that :meth:`undo` takes back.
        """
        if not self.faces or not 0 <= position < len(self.faces) or not self.can_throw or self.match.state.dice is None:
            return False
        self.match.checkpoint(memo=self.layout)
        holds = list(self.holds)
        holds[position] = not holds[position]
        self.holds = tuple(holds)
        return True

    def throw(self) -> State:
        """Throw: the first throw of the turn, or re-throw every die not held.

        Raises:
            IllegalActionError: no throw is allowed now.
        """
        if self.match.state.dice is None:
            return self.act(Roll())
        return self.act(Keep(self.held_dice()))

    def score(self, column: int, index: int) -> State:
        """Enter the dice in box ``index`` of 0-based ``column`` (a sheet game).

        Raises:
            IllegalActionError: the box cannot take the dice now (the message says why), or this is not a
                sheet game.
        """
        st = self.match.state
        if not isinstance(st, GameState):
            raise IllegalActionError(f"{self.match.rules.name} has no score sheet")
        return self.act(st.score_action(column, index))

    def act(self, action: Action | str) -> State:
        """Apply an action for the player to act (and the throw that follows) and keep the dice layout in step.

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: not allowed now; nothing changes.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        before = self.layout
        if isinstance(act, Roll | Keep):
            kept = act.dice if isinstance(act, Keep) else ()
            if tuple(sorted(self.held_dice())) != tuple(kept):
                self._hold_values(kept)  # a bot or a typed action chose the dice to keep
            try:
                self.match.act(act)
            except PaschError:
                self.faces, self.holds = before.faces, before.holds
                raise
            self._lay_out(kept)
            return self.match.state
        self.match.act(act, memo=before)
        if isinstance(act, Score):
            self.faces, self.holds = (), ()
        elif isinstance(act, Enter):
            self._reset_faces()
        return self.match.state

    def undo(self) -> bool:
        """Take back the last undoable step (with the dice as they lay before it); False if there is none."""
        step = self.match.undo()
        if step is None:
            return False
        if isinstance(step.memo, TableDice):
            self.faces, self.holds = step.memo.faces, step.memo.holds
        else:
            self._reset_faces()
        return True

    # -- internals ----------------------------------------------------------------------------
    def _reset_faces(self) -> None:
        dice = self.match.state.dice
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
        dice = list(self.match.state.dice or ())
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
