"""Scorers: what a box asks of the dice and what it pays, described as data.

A :class:`Scorer` is a small frozen record (a kind plus parameters), so rule sets stay plain data and the
solver can evaluate every scorer on all throws to build its arrays. Scorers see face counts
(``counts[0]`` is the number of ones) and work for any number of dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Scorer", "ScorerKind"]


class ScorerKind(Enum):
    """The kinds of box."""

    FACE = "face"
    """Sum of the dice showing ``face``."""
    N_KIND = "n_kind"
    """At least ``n`` alike; pays the sum of all dice (``total``) or of the ``n`` alike."""
    ONE_PAIR = "one_pair"
    """Two alike; pays the sum of the highest pair."""
    TWO_PAIRS = "two_pairs"
    """Two pairs of different faces; pays the sum of those four dice."""
    FULL_HOUSE = "full_house"
    """Three of one face and two of another (faces different); pays ``points`` or, if 0, the dice sum."""
    STRAIGHT = "straight"
    """``n`` consecutive faces among the dice; pays ``points``."""
    EXACT = "exact"
    """The dice are exactly the faces ``faces``; pays ``points``."""
    ALL_ALIKE = "all_alike"
    """All dice alike (Yahtzee, Kniffel, Yatzy, Yacht); pays ``points``."""
    CHANCE = "chance"
    """Always satisfied; pays the dice sum."""


@dataclass(frozen=True, slots=True)
class Scorer:
    """What one box asks of the dice and what it pays.

    Attributes:
        kind: the kind of box.
        face: for ``FACE``, the face counted.
        n: for ``N_KIND`` the number alike, for ``STRAIGHT`` the run length.
        points: fixed points paid when satisfied; 0 means "the dice sum" where the kind allows it.
        total: for ``N_KIND``, pay the sum of all dice (Yahtzee family) rather than of the ``n`` alike.
        faces: for ``EXACT``, the exact faces required.
    """

    kind: ScorerKind
    face: int = 0
    n: int = 0
    points: int = 0
    total: bool = True
    faces: tuple[int, ...] = ()

    def satisfied(self, counts: tuple[int, ...]) -> bool:
        """Whether the dice meet the box's condition."""
        k = self.kind
        if k is ScorerKind.FACE or k is ScorerKind.CHANCE:
            return True
        if k is ScorerKind.N_KIND:
            return max(counts) >= self.n
        if k is ScorerKind.ONE_PAIR:
            return max(counts) >= 2
        if k is ScorerKind.TWO_PAIRS:
            return sum(1 for c in counts if c >= 2) >= 2
        if k is ScorerKind.FULL_HOUSE:
            nz = sorted(c for c in counts if c)
            return nz == [2, 3]
        if k is ScorerKind.STRAIGHT:
            run = best = 0
            for c in counts:
                run = run + 1 if c else 0
                best = max(best, run)
            return best >= self.n
        if k is ScorerKind.EXACT:
            want = [0] * len(counts)
            for f in self.faces:
                want[f - 1] += 1
            return list(counts) == want
        if k is ScorerKind.ALL_ALIKE:
            return max(counts) == sum(counts) and sum(counts) > 0
        raise AssertionError(k)  # pragma: no cover

    def score(self, counts: tuple[int, ...]) -> int:
        """Points the dice score in this box (0 when not satisfied: the box is crossed out)."""
        k = self.kind
        if k is ScorerKind.FACE:
            return counts[self.face - 1] * self.face
        if not self.satisfied(counts):
            return 0
        total = sum(f * c for f, c in enumerate(counts, start=1))
        if k is ScorerKind.N_KIND:
            if self.total:
                return total
            best = max(f for f, c in enumerate(counts, start=1) if c >= self.n)
            return best * self.n
        if k is ScorerKind.ONE_PAIR:
            return 2 * max(f for f, c in enumerate(counts, start=1) if c >= 2)
        if k is ScorerKind.TWO_PAIRS:
            pairs = sorted((f for f, c in enumerate(counts, start=1) if c >= 2), reverse=True)[:2]
            return 2 * sum(pairs)
        if k in (ScorerKind.FULL_HOUSE, ScorerKind.STRAIGHT, ScorerKind.EXACT, ScorerKind.ALL_ALIKE):
            return self.points if self.points else total
        if k is ScorerKind.CHANCE:
            return total
        raise AssertionError(k)  # pragma: no cover

    def joker_score(self, counts: tuple[int, ...]) -> int:
        """Points a five-alike used as a joker scores here: the box's "full value".

        Fixed-point boxes pay their points, the others what the dice would pay if the condition held
        (the sum for sum-paying boxes). Face boxes are not joker boxes and score normally.
        """
        k = self.kind
        if k is ScorerKind.FACE:
            return self.score(counts)
        if self.points:
            return self.points
        if self.satisfied(counts):
            return self.score(counts)
        return sum(f * c for f, c in enumerate(counts, start=1))

    @property
    def is_upper(self) -> bool:
        """Whether this is an upper-section (face) box."""
        return self.kind is ScorerKind.FACE
