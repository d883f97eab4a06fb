"""What the two state classes share: player checks, throw outcomes and the members derived from seats and totals."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, ClassVar, Self

from pasch.dice import multiset_probability
from pasch.engine._actions import Action, Throw
from pasch.engine._outcome import Outcome
from pasch.engine._text import read_head
from pasch.errors import IllegalActionError, InvalidActionError, PositionError
from pasch.rules import GameKind, RuleSet

__all__ = ["StateBase", "check_players", "throw_outcomes"]


@cache
def throw_outcomes(n: int, faces: int) -> tuple[tuple[Throw, Fraction], ...]:
    """Every throw of ``n`` dice (sorted values, in sorted order) with its exact probability."""
    return tuple(
        (Throw(d), multiset_probability(d, faces))
        for d in itertools.combinations_with_replacement(range(1, faces + 1), n)
    )


def check_players(rules: RuleSet, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, stripped, after checking their number and that they are non-empty and distinct.

    Raises:
        IllegalActionError: wrong number of players, or duplicate or empty names.
    """
    names = tuple(p.strip() for p in players)
    if not rules.min_players <= len(names) <= rules.max_players:
        raise IllegalActionError(
            f"{rules.id} is played by {rules.min_players} to {rules.max_players} players, not {len(names)}"
        )
    if any(not n for n in names):
        raise IllegalActionError("player names must not be empty")
    if len(set(names)) != len(names):
        raise IllegalActionError(f"player names must differ: {', '.join(names)}")
    return names


class StateBase:
    """Members both state classes derive the same way from their fields (a slot-free mixin)."""

    __slots__ = ()

    _game_word: ClassVar[str] = "game"
    """The kind of game, as :meth:`from_text` names it when the text holds another kind."""

    _kind: ClassVar[GameKind]
    """The kind of rule set whose position texts this class reads."""

    if TYPE_CHECKING:

        @property
        def rules(self) -> RuleSet: ...

        @property
        def players(self) -> tuple[str, ...]: ...

        @property
        def current(self) -> int: ...

        @property
        def pending(self) -> int: ...

        @property
        def is_terminal(self) -> bool: ...

        def total(self, player: int) -> int: ...

        def apply(self, action: Action | str, player: int | None = None) -> StateBase: ...

        def to_text(self) -> str: ...

        @classmethod
        def _read(cls, rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> Self: ...

    @property
    def is_chance_node(self) -> bool:
        """Whether dice are in the air: the next action is a :class:`~pasch.engine.Throw`."""
        return self.pending > 0

    @property
    def current_player(self) -> int:
        """Index of the player to act."""
        return self.current

    @property
    def current_name(self) -> str:
        """Name of the player to act."""
        return self.players[self.current]

    def chance_outcomes(self) -> tuple[tuple[Throw, Fraction], ...]:
        """At a chance node: every throw of the dice in the air with its exact probability; else ``()``."""
        if not self.pending:
            return ()
        return throw_outcomes(self.pending, self.rules.faces)

    def totals(self) -> tuple[int, ...]:
        """Every player's score so far, in seat order."""
        return tuple(self.total(p) for p in range(len(self.players)))

    def outcome(self) -> Outcome:
        """Ranks and winners by score (ties share a rank); final once the game is over."""
        return Outcome.from_totals(self.players, self.totals(), final=self.is_terminal)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            self.apply(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Read the position text of this kind of game (:func:`pasch.engine.from_text` reads either kind).

        Raises:
            PositionError: malformed text, or the position of the other kind of game.
        """
        rules, keeper, names, parts = read_head(text)
        if rules.kind is not cls._kind:
            raise PositionError(f"{rules.id} is not a {cls._game_word} game; read it with pasch.engine.from_text")
        return cls._from_head(text, rules, keeper, names, parts)

    @classmethod
    def _from_head(cls, text: str, rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> Self:
        """Read the body of ``text`` whose head :func:`~pasch.engine._text.read_head` gave the other arguments.

        :func:`pasch.engine.from_text` calls this on the class the head's rule set calls for, so that the
        head is read once.

        Raises:
            PositionError: a malformed body, or a text that is not written as :meth:`to_text` writes it.
        """
        state = cls._read(rules, keeper, names, parts)
        again = state.to_text()
        # One position has one text: a text that reads but is written differently would make two.
        if again != text:
            raise PositionError(f"position text is not in canonical form; it reads as {again!r}")
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"

    def _name(self, player: int) -> str:
        return self.players[player] if 0 <= player < len(self.players) else f"seat {player}"
