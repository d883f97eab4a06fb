"""The state interface: what every game state (sheet games and Knaster) offers its callers.

:class:`State` is a :class:`typing.Protocol`; :class:`~pasch.engine.GameState` and
:class:`~pasch.engine.KnasterState` satisfy it. Code that works for every kind of game types its states
``State``; members only one kind has (``sheets``, ``column_totals``, ``score_options``, ``grids``,
``duties``, ...) are reached after narrowing with ``isinstance(state, GameState)`` or
``isinstance(state, KnasterState)``. The protocol is runtime-checkable, so ``isinstance(x, State)`` tells
whether ``x`` has every member (not whether their types are right).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol, runtime_checkable

from pasch.engine._actions import Action, Throw
from pasch.engine._outcome import Outcome
from pasch.rules import RuleSet

__all__ = ["State"]


@runtime_checkable
class State(Protocol):
    """An immutable game state: who plays, whose turn it is, what may be done, and what it leads to.

    ``apply`` returns the next state and never mutates; chance nodes (dice in the air) list every throw
    with its exact probability in :meth:`chance_outcomes`.
    """

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        ...

    @property
    def keeper(self) -> bool:
        """Score-keeper mode: the table supplies the dice."""
        ...

    @property
    def current(self) -> int:
        """Seat of the player to act (the same as :attr:`current_player`)."""
        ...

    @property
    def current_player(self) -> int:
        """Seat of the player to act."""
        ...

    @property
    def current_name(self) -> str:
        """Name of the player to act."""
        ...

    @property
    def turn(self) -> int:
        """Turns (sheet games) or numbers (Knaster) completed, all players together."""
        ...

    @property
    def round(self) -> int:
        """1-based round number."""
        ...

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    @property
    def is_chance_node(self) -> bool:
        """Whether dice are in the air: the next action is a :class:`~pasch.engine.Throw`."""
        ...

    @property
    def pending(self) -> int:
        """Dice in the air (0 unless at a chance node)."""
        ...

    @property
    def dice(self) -> tuple[int, ...] | None:
        """The dice on the table, None before they are thrown this turn (or for this number)."""
        ...

    def chance_outcomes(self) -> tuple[tuple[Throw, Fraction], ...]:
        """At a chance node: every throw of the dice in the air with its exact probability; else ``()``."""
        ...

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action allowed now, sorted; ``()`` once the game is over."""
        ...

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        ...

    def apply(self, action: Action | str, player: int | None = None) -> State:
        """The state after ``action`` (an action or its text), sent by ``player`` if given.

        Raises:
            InvalidActionError: malformed action text, or a box, cell or die that does not exist.
            IllegalActionError: a well-formed action the rules do not allow now.
        """
        ...

    def total(self, player: int) -> int:
        """A player's score so far."""
        ...

    def totals(self) -> tuple[int, ...]:
        """Every player's score so far, in seat order."""
        ...

    def outcome(self) -> Outcome:
        """Ranks and winners by score (ties share a rank); final once the game is over."""
        ...

    def to_text(self) -> str:
        """The one-line position text (see :mod:`pasch.engine._position`)."""
        ...

    def __str__(self) -> str:
        """A plain-text drawing of the position (sheets or grids, dice, whose turn)."""
        ...
