"""The end of a game, summed up once for every interface: each player's sections and total, the ranking,
and how the total compares with the player's earlier games.

A solo game has a ranking of one and no winner (:attr:`GameSummary.winners` is empty); a game of several
players names its winners (several on a tie). Sheet games split each total into upper section, bonus, lower
section and extra points (summed over a multi-column sheet's columns); Knaster has only totals.

The comparison with earlier games reads :meth:`pasch.storage.Repository.player_stats` of the games finished
*before* this one (pass ``exclude=`` the game's own id once it has been saved).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pasch.app._layout import sheet_layout
from pasch.engine import GameState, State
from pasch.rules import RuleSet

if TYPE_CHECKING:  # storage pulls in SQLAlchemy: not on the import path of pasch.app
    from pasch.storage import PlayerStats

__all__ = ["GameSummary", "PlayerSummary", "game_summary"]


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's end of game.

    Attributes:
        seat: the player's seat (0-based).
        name: the player's name.
        total: the final total.
        rank: 1-based competition rank (tied players share one).
        upper: upper-section points (None in Knaster).
        bonus: bonus points (None in Knaster).
        lower: lower-section points (None in Knaster).
        extra: extra five-alike points (None in Knaster).
        games_before: finished games of this player under these rules before this one.
        best_before: the best total of those games (None if there were none).
        average_before: their average total (None if there were none).
    """

    seat: int
    name: str
    total: int
    rank: int
    upper: int | None = None
    bonus: int | None = None
    lower: int | None = None
    extra: int | None = None
    games_before: int = 0
    best_before: int | None = None
    average_before: float | None = None

    @property
    def personal_best(self) -> bool:
        """Whether this total beats every earlier game of the player (and there was one)."""
        return self.best_before is not None and self.total > self.best_before

    @property
    def vs_average(self) -> float | None:
        """This total minus the player's earlier average (None without earlier games)."""
        return None if self.average_before is None else self.total - self.average_before


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The end of a game (or its standings so far).

    Attributes:
        rules: the rule set.
        players: one summary per player, in seat order.
        finished: whether the game is over.
    """

    rules: RuleSet
    players: tuple[PlayerSummary, ...]
    finished: bool

    @property
    def solo(self) -> bool:
        """A game of one player: a ranking of one and no winner."""
        return len(self.players) == 1

    @property
    def winners(self) -> tuple[str, ...]:
        """The players ranked first in a finished game of several players (several on a tie); else empty."""
        if self.solo or not self.finished:
            return ()
        return tuple(p.name for p in self.players if p.rank == 1)

    @property
    def is_tie(self) -> bool:
        """Whether several players share the win."""
        return len(self.winners) > 1

    def standings(self) -> tuple[PlayerSummary, ...]:
        """The players best first (seat order within a tie)."""
        return tuple(sorted(self.players, key=lambda p: (p.rank, p.seat)))


def game_summary(state: State, history: Iterable[PlayerStats] = ()) -> GameSummary:
    """Sum up a game's state (usually a finished one).

    Args:
        state: the game's state.
        history: earlier finished games' statistics (:meth:`pasch.storage.Repository.player_stats`, without
            this game); rows of other rule sets are ignored.
    """
    rules = state.rules
    before = {s.name: s for s in history if s.rules == rules.id}
    outcome = state.outcome()
    sections: list[tuple[int, int, int, int] | None] = [None] * len(state.players)
    if isinstance(state, GameState):
        layout = sheet_layout(state)
        for p in range(len(state.players)):
            cols = layout.player_columns(p)
            sections[p] = (
                sum(c.upper for c in cols),
                sum(c.bonus for c in cols),
                sum(c.lower for c in cols),
                sum(c.extra for c in cols),
            )
    players = []
    for p, name in enumerate(state.players):
        stats = before.get(name)
        part = sections[p]
        players.append(
            PlayerSummary(
                seat=p,
                name=name,
                total=outcome.totals[p],
                rank=outcome.ranks[p],
                upper=None if part is None else part[0],
                bonus=None if part is None else part[1],
                lower=None if part is None else part[2],
                extra=None if part is None else part[3],
                games_before=0 if stats is None else stats.games,
                best_before=None if stats is None else stats.best,
                average_before=None if stats is None else stats.average,
            )
        )
    return GameSummary(rules=rules, players=tuple(players), finished=state.is_terminal)
