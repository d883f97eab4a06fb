"""Dice multisets: the distinct throws and keeps of n six-sided dice, exact probabilities, RNG helpers.

A throw of five dice is an unordered multiset, written as a sorted tuple such as ``(1, 3, 3, 5, 6)``.
There are 252 distinct throws of five dice and 462 distinct keeps (sub-multisets of size 0 to 5).
Everything here is parameterised by the number of dice and faces so that tests can use small games
(three dice, say) with the same code.

All randomness comes from a :class:`numpy.random.Generator` passed in by the caller.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from pasch.errors import InvalidActionError

__all__ = [
    "FACES",
    "Dice",
    "DiceSource",
    "DiceSpace",
    "KeepGroups",
    "RewindableDice",
    "SeededDice",
    "TransitionTables",
    "counts_of",
    "from_counts",
    "keep_groups",
    "multiset_probability",
    "parse_dice",
    "space",
    "throw",
    "transition_tables",
]

FACES = 6
"""Default number of faces of a die."""

DiceTuple = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dice:
    """An unordered multiset of dice values, kept sorted.

    Attributes:
        values: the dice, sorted ascending.
    """

    values: DiceTuple

    def __post_init__(self) -> None:
        if tuple(sorted(self.values)) != self.values:
            object.__setattr__(self, "values", tuple(sorted(self.values)))

    @classmethod
    def of(cls, *values: int) -> Dice:
        """Build dice from values in any order."""
        return cls(tuple(sorted(values)))

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.values)

    def __str__(self) -> str:
        return " ".join(str(v) for v in self.values)

    def counts(self, faces: int = FACES) -> tuple[int, ...]:
        """How many dice show each face, index 0 for face 1."""
        return counts_of(self.values, faces)

    @property
    def total(self) -> int:
        """Sum of the dice."""
        return sum(self.values)


def counts_of(values: Iterable[int], faces: int = FACES) -> tuple[int, ...]:
    """Return the face counts of some dice values (index 0 counts the ones)."""
    c = [0] * faces
    for v in values:
        c[v - 1] += 1
    return tuple(c)


def from_counts(counts: Sequence[int]) -> DiceTuple:
    """Return the sorted dice tuple with the given face counts."""
    out: list[int] = []
    for face, n in enumerate(counts, start=1):
        out.extend([face] * n)
    return tuple(out)


def multiset_probability(values: Sequence[int], faces: int = FACES) -> Fraction:
    """Exact probability that throwing ``len(values)`` fair dice shows this multiset."""
    n = len(values)
    ways = math.factorial(n)
    for c in counts_of(values, faces):
        ways //= math.factorial(c)
    return Fraction(ways, faces**n)


def parse_dice(text: str | Sequence[int | str], n: int | None = 5, faces: int = FACES) -> DiceTuple:
    """Parse dice given as ``"13356"``, ``"1 3 3 5 6"``, ``"1,3,3,5,6"`` or a sequence.

    Args:
        text: the dice.
        n: the required number of dice, or None for any number (0 to 5 for keeps).
        faces: the number of faces.

    Returns:
        The sorted dice tuple.

    Raises:
        InvalidActionError: a value that is not a die face, or the wrong number of dice.
    """
    if isinstance(text, str):
        raw = text.replace(",", " ").split()
        if len(raw) == 1 and len(raw[0]) > 1:
            raw = list(raw[0])
        items: list[int | str] = list(raw)
    else:
        items = list(text)
    values: list[int] = []
    for item in items:
        try:
            v = int(item)
        except (TypeError, ValueError):
            raise InvalidActionError(f"{item!r} is not a die: dice show 1 to {faces}") from None
        if not 1 <= v <= faces:
            raise InvalidActionError(f"{v} is not a die: dice show 1 to {faces}")
        values.append(v)
    if n is not None and len(values) != n:
        shown = text if isinstance(text, str) else " ".join(str(i) for i in items)
        raise InvalidActionError(f"{shown!r} has {len(values)} dice; exactly {n} are needed")
    return tuple(sorted(values))


def throw(rng: np.random.Generator, n: int, faces: int = FACES) -> DiceTuple:
    """Throw ``n`` fair dice with the caller's generator; returns the sorted values."""
    if n == 0:
        return ()
    return tuple(sorted(int(v) for v in rng.integers(1, faces + 1, size=n)))


@runtime_checkable
class DiceSource(Protocol):
    """Where a game's throws come from: a seeded generator for local games, the server's committed stream
    for online games (``pasch.web.DiceStream``). Score-keeper games have none: the table enters its dice."""

    def throw(self, n: int, faces: int) -> DiceTuple:
        """The next throw of ``n`` dice with ``faces`` faces, sorted."""
        ...


@runtime_checkable
class RewindableDice(DiceSource, Protocol):
    """A dice source that can go back to an earlier position (a server whose write failed draws again)."""

    def mark(self) -> object:
        """The source's position now, for :meth:`rewind`."""
        ...

    def rewind(self, mark: object) -> None:
        """Go back to a position from :meth:`mark`."""
        ...


class SeededDice:
    """A :class:`DiceSource` drawing from a NumPy generator (``seed`` for a reproducible game).

    Args:
        seed: seed of a new generator (None: fresh entropy).
        rng: use this generator instead.
    """

    __slots__ = ("rng",)

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(seed)

    def throw(self, n: int, faces: int) -> DiceTuple:
        """The next throw of ``n`` dice with ``faces`` faces, sorted."""
        return throw(self.rng, n, faces)

    def mark(self) -> object:
        """The generator's position now, for :meth:`rewind`."""
        return self.rng.bit_generator.state

    def rewind(self, mark: object) -> None:
        """Go back to a position from :meth:`mark`.

        Raises:
            TypeError: not a position from :meth:`mark`.
        """
        if not isinstance(mark, dict):
            raise TypeError("not a position of this dice source")
        self.rng.bit_generator.state = mark


@dataclass(frozen=True, slots=True, eq=False)
class DiceSpace:
    """All throws and keeps of ``n`` dice with ``faces`` faces, with indices and probabilities.

    Attributes:
        n: number of dice.
        faces: number of faces.
        rolls: every distinct throw of all ``n`` dice, sorted lexicographically (252 for 5d6).
        keeps: every sub-multiset of 0..n dice, sorted by size then lexicographically (462 for 5d6).
    """

    n: int
    faces: int
    rolls: tuple[DiceTuple, ...]
    keeps: tuple[DiceTuple, ...]
    roll_index: dict[DiceTuple, int]
    keep_index: dict[DiceTuple, int]

    @property
    def roll_probabilities(self) -> tuple[Fraction, ...]:
        """Exact probability of each full throw."""
        return tuple(multiset_probability(r, self.faces) for r in self.rolls)

    def roll_probabilities_array(self) -> npt.NDArray[np.float64]:
        """Probability of each full throw as float64."""
        return np.array([float(p) for p in self.roll_probabilities], dtype=np.float64)

    def outcomes_of_keep(self, keep: DiceTuple) -> list[tuple[DiceTuple, Fraction]]:
        """Each full throw reachable by re-throwing the dice not kept, with its exact probability."""
        free = self.n - len(keep)
        out: list[tuple[DiceTuple, Fraction]] = []
        for extra in itertools.combinations_with_replacement(range(1, self.faces + 1), free):
            out.append((tuple(sorted(keep + extra)), multiset_probability(extra, self.faces)))
        return out

    def keep_transition(self) -> npt.NDArray[np.float64]:
        """Dense matrix ``T[k, r]``: probability that keep ``k`` followed by a throw gives roll ``r``."""
        t = np.zeros((len(self.keeps), len(self.rolls)), dtype=np.float64)
        for k, keep in enumerate(self.keeps):
            for roll, p in self.outcomes_of_keep(keep):
                t[k, self.roll_index[roll]] += float(p)
        return t

    def sub_keeps(self, roll: DiceTuple) -> tuple[DiceTuple, ...]:
        """The distinct keeps (sub-multisets) of a throw, sorted by size then value."""
        subs = {tuple(c) for size in range(len(roll) + 1) for c in itertools.combinations(roll, size)}
        return tuple(sorted(subs, key=lambda k: (len(k), k)))


@cache
def space(n: int = 5, faces: int = FACES) -> DiceSpace:
    """The (cached) dice space of ``n`` dice with ``faces`` faces."""
    if n < 1 or faces < 2:
        raise ValueError(f"a dice space needs at least one die and two faces, not {n}d{faces}")
    rolls = tuple(itertools.combinations_with_replacement(range(1, faces + 1), n))
    keeps = tuple(
        k for size in range(n + 1) for k in itertools.combinations_with_replacement(range(1, faces + 1), size)
    )
    return DiceSpace(
        n=n,
        faces=faces,
        rolls=rolls,
        keeps=keeps,
        roll_index={r: i for i, r in enumerate(rolls)},
        keep_index={k: i for i, k in enumerate(keeps)},
    )


class TransitionTables(NamedTuple):
    """The dice space as dense arrays, for vectorised turn solving (``T[roll]`` over every keep).

    Attributes:
        trans: ``[keep, roll]`` probability that keeping ``keep`` and throwing the rest gives ``roll``.
        rsub: ``[roll, q]`` the keeps of each throw that re-throw at least one die (padded).
        valid: ``[roll, q]`` which entries of ``rsub`` are real.
        empty: the index of the empty keep (throw all), as a one-element array.
    """

    trans: npt.NDArray[np.float64]
    rsub: npt.NDArray[np.int64]
    valid: npt.NDArray[np.bool_]
    empty: npt.NDArray[np.int64]


@cache
def transition_tables(n: int = 5, faces: int = FACES) -> TransitionTables:
    """The (cached) transition tables of ``n`` dice with ``faces`` faces.

    Raises:
        ValueError: fewer than one die or two faces.
    """
    sp = space(n, faces)
    trans = sp.keep_transition()
    subs = [[sp.keep_index[k] for k in sp.sub_keeps(r) if len(k) < n] for r in sp.rolls]
    width = max(len(s) for s in subs)
    rsub = np.zeros((len(subs), width), np.int64)
    valid = np.zeros((len(subs), width), np.bool_)
    for r, s in enumerate(subs):
        rsub[r, : len(s)] = s
        valid[r, : len(s)] = True
    empty = np.array([sp.keep_index[()]], np.int64)
    return TransitionTables(trans, rsub, valid, empty)


class KeepGroups(NamedTuple):
    """The keeps of every throw that re-throw a die (the entries of :class:`TransitionTables`' ``rsub`` where
    ``valid``), flat and grouped by throw, for the best keep of every throw at once:
    ``np.maximum.reduceat(e[flat], starts)`` is ``max`` over each throw's keeps of ``e[keep]``, the same numbers
    as ``np.where(valid, e[rsub], -inf).max(axis=1)`` (a maximum is exact) without gathering and masking the
    padding (three times as fast for five dice). Every group is non-empty: each throw can re-throw all its dice.

    Attributes:
        flat: the keep indexes, throw by throw.
        starts: where each throw's group starts in ``flat``.
    """

    flat: npt.NDArray[np.int64]
    starts: npt.NDArray[np.int64]


@cache
def keep_groups(n: int = 5, faces: int = FACES) -> KeepGroups:
    """The (cached, read-only) keep groups of ``n`` dice with ``faces`` faces (see :class:`KeepGroups`).

    Raises:
        ValueError: fewer than one die or two faces.
    """
    _, rsub, valid, _ = transition_tables(n, faces)
    counts = valid.sum(axis=1)
    flat = rsub[valid].astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    flat.flags.writeable = False
    starts.flags.writeable = False
    return KeepGroups(flat, starts)
