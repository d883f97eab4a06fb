"""The result of a game: totals, ranks with ties, winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final (or current) standings.

    Attributes:
        players: names in seat order.
        totals: grand totals in seat order.
        ranks: 1-based competition ranks in seat order; tied players share a rank ("1224").
        final: whether the game is over.
    """

    players: tuple[str, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    final: bool = True

    @classmethod
    def from_totals(cls, players: Sequence[str], totals: Sequence[int], final: bool = True) -> Outcome:
        """Rank players by total, highest first; equal totals share the better rank."""
        ranks = tuple(1 + sum(1 for o in totals if o > t) for t in totals)
        return cls(tuple(players), tuple(totals), ranks, final)

    @property
    def winners(self) -> tuple[str, ...]:
        """Everyone ranked first (several on a tie: ties share the win)."""
        return tuple(p for p, r in zip(self.players, self.ranks, strict=True) if r == 1)

    @property
    def is_tie(self) -> bool:
        """Whether several players share first place."""
        return len(self.winners) > 1

    def standings(self) -> tuple[tuple[int, str, int], ...]:
        """(rank, name, total) rows, best first (seat order within a tie)."""
        rows = zip(self.ranks, self.players, self.totals, strict=True)
        return tuple(sorted(rows, key=lambda r: r[0]))
