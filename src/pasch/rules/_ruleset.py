"""The frozen :class:`RuleSet` record and the policies it is made of.

A rule set is data: a table of :class:`Category` rows (id, scorer) in sheet order plus parameters. The
engine, solver and interfaces read these parameters; none of them asks which rule set it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import TypeVar

from pasch.errors import RuleSetError
from pasch.rules._scorers import Scorer, ScorerKind

_T = TypeVar("_T")

__all__ = [
    "Category",
    "ExtraPolicy",
    "GameKind",
    "JokerPolicy",
    "KnasterRules",
    "Order",
    "RuleSet",
]


class Order(Enum):
    """How the boxes of one column may be filled."""

    FREE = "free"
    """Any open box."""
    DOWN = "down"
    """Top to bottom in sheet order (``+forced``)."""
    UP = "up"
    """Bottom to top (``+upward``): the last box of the sheet first."""
    ANNOUNCED = "announced"
    """Only the box announced after the first throw of the turn (kniffel-4 column 3)."""


class JokerPolicy(Enum):
    """When a five-alike thrown while the five-alike box is filled may stand in for another box."""

    NONE = "none"
    """Never (Yatzy, Yacht)."""
    SCHMIDT = "schmidt"
    """Kniffel (Schmidt): the five-alike box holds a score and the matching upper box is filled: any
    lower box at full value (free choice; an upper box may still be crossed out)."""
    FORCED = "forced"
    """Official Hasbro: the five-alike box is filled (any value): the matching upper box if open (it
    must be taken), otherwise any open lower box at full value, otherwise an upper box for 0."""
    FREE = "free"
    """Free-choice joker: the five-alike box is filled: any open box; lower boxes at full value only
    when the matching upper box is filled (if it is open and not used, the five-alike is no joker)."""
    FULL_HOUSE = "full_house"
    """Kniffel as commonly played: the five-alike box was crossed out (0): a five-alike may be entered as
    a full house at full value."""


class ExtraPolicy(Enum):
    """Points for a further five-alike when the five-alike box already holds a score."""

    NONE = "none"
    UPPER_50 = "upper50"
    """Kniffel (Schmidt): entered in its open matching upper box, the dice plus 50 extra points."""
    BONUS_100 = "bonus100"
    """Hasbro: 100 extra points wherever it is entered."""
    FLAT_100 = "flat100"
    """Kniffel as commonly played: a flat 100 in any lower box, or 100 + the dice in an upper box (the
    100 does not count toward the upper bonus)."""


class GameKind(Enum):
    """Dice-sheet games and the grid game Knaster."""

    SHEET = "sheet"
    KNASTER = "knaster"


@dataclass(frozen=True, slots=True)
class Category:
    """One box of the sheet.

    Attributes:
        id: stable identifier such as ``full_house``.
        scorer: what the box asks and pays.
    """

    id: str
    scorer: Scorer

    @property
    def is_upper(self) -> bool:
        """Whether the box belongs to the upper section (the face boxes)."""
        return self.scorer.is_upper


@dataclass(frozen=True, slots=True)
class KnasterRules:
    """Parameters of Knaster.

    Attributes:
        size: the grid is ``size`` x ``size``.
        row_values: points for a fully circled row, top to bottom.
        column_values: points for a fully circled column, left to right.
        diagonal_values: points for the main diagonal (a1-e5) and the anti-diagonal (e1-a5).
        dice: number of dice thrown (their sum is called).
        combinations: circles owed for each combination of a completed line.
    """

    size: int = 5
    row_values: tuple[int, ...] = (9, 8, 7, 6, 5)
    column_values: tuple[int, ...] = (9, 8, 7, 6, 5)
    diagonal_values: tuple[int, int] = (10, 10)
    dice: int = 2
    combinations: tuple[tuple[str, int], ...] = (
        ("three_alike", 1),
        ("four_alike", 2),
        ("five_alike", 3),
        ("two_pairs", 1),
        ("full_house", 2),
        ("straight", 3),
    )

    def __post_init__(self) -> None:
        if self.size != 5:
            raise RuleSetError(f"knaster: a grid of size {self.size} is not supported; it is 5x5")
        if len(self.row_values) != 5 or len(self.column_values) != 5 or len(self.diagonal_values) != 2:
            raise RuleSetError("knaster: need 5 row values, 5 column values and 2 diagonal values")
        if any(v < 0 for v in (*self.row_values, *self.column_values, *self.diagonal_values)):
            raise RuleSetError("knaster: line values must not be negative")


SHARP_CATEGORIES = frozenset(
    {"three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee"}
)


@cache
def _catalogue_twins() -> dict[str, str]:
    """Content digest -> id of every catalogue sheet rule set without parameters (each base with each combination
    of modifiers; the fewest modifiers win a tie), built once per process."""
    from pasch.rules._catalogue import BASES, MODIFIERS, get  # the catalogue builds rule sets: imported late

    twins: dict[str, str] = {}
    for base in BASES:
        for n in range(len(MODIFIERS) + 1):
            for mods in itertools.combinations(MODIFIERS, n):
                try:
                    rules = get("+".join((base, *mods)))
                except RuleSetError:  # a combination that makes no sense (forced and upward)
                    continue
                twins.setdefault(rules._content_digest(), rules.id)
    return twins


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete, frozen description of one game's rules.

    Build one with :func:`pasch.rules.get` (``get("kniffel-classic+forced+sharp")``) or directly for
    custom games (tests use three-dice, four-box rule sets).

    Attributes:
        id: canonical rule-set text, e.g. ``kniffel-classic+forced+sharp``.
        name: display name.
        description: one line describing the game.
        kind: sheet game or Knaster.
        categories: the boxes of one column, in sheet order.
        bonus_threshold: upper-section total that earns the bonus (None: no bonus).
        bonus: upper bonus points.
        joker: joker policy for a further five-alike.
        extra: extra-points policy for a further five-alike.
        five_alike_full_house: ``+strict``: a five-alike entered as a full house counts as one.
        sharp: ``+sharp``: some boxes score double when the dice all came from one throw of all dice.
        sharp_categories: the ids of the boxes ``sharp`` doubles.
        columns: the fill order of each column (one entry for single-column games).
        dice: number of dice.
        faces: faces per die.
        throws: throws per turn.
        min_players: fewest players.
        max_players: most players.
        knaster: Knaster parameters when ``kind`` is KNASTER.
        base: the catalogue entry this rule set was built from.
        modifiers: the modifiers and parameters applied, canonical order.
    """

    id: str
    name: str
    description: str
    kind: GameKind = GameKind.SHEET
    categories: tuple[Category, ...] = ()
    bonus_threshold: int | None = None
    bonus: int = 0
    joker: JokerPolicy = JokerPolicy.NONE
    extra: ExtraPolicy = ExtraPolicy.NONE
    five_alike_full_house: bool = False
    sharp: bool = False
    sharp_categories: frozenset[str] = SHARP_CATEGORIES
    columns: tuple[Order, ...] = (Order.FREE,)
    dice: int = 5
    faces: int = 6
    throws: int = 3
    min_players: int = 1
    max_players: int = 8
    knaster: KnasterRules | None = None
    base: str = ""
    modifiers: tuple[str, ...] = ()
    _index: dict[str, int] = field(init=False, compare=False, repr=False, hash=False)
    _memo: dict[object, object] = field(init=False, compare=False, repr=False, hash=False)
    _turns: int = field(init=False, compare=False, repr=False, hash=False)
    _five: int | None = field(init=False, compare=False, repr=False, hash=False)
    _announced: int | None = field(init=False, compare=False, repr=False, hash=False)
    _upper: tuple[int, ...] = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {c.id: i for i, c in enumerate(self.categories)})
        # Derived data that is costly to recompute (score rows per throw); never part of equality.
        object.__setattr__(self, "_memo", {})
        object.__setattr__(self, "_turns", len(self.categories) * len(self.columns))
        five = [i for i, c in enumerate(self.categories) if c.scorer.kind is ScorerKind.ALL_ALIKE]
        object.__setattr__(self, "_five", five[0] if five else None)
        announced = [c for c, o in enumerate(self.columns) if o is Order.ANNOUNCED]
        object.__setattr__(self, "_announced", announced[0] if announced else None)
        object.__setattr__(self, "_upper", tuple(i for i, c in enumerate(self.categories) if c.is_upper))
        if not self.id:
            raise RuleSetError("a rule set needs an id")
        if self.kind is GameKind.KNASTER:
            if self.knaster is None:
                raise RuleSetError(f"{self.id}: Knaster rules need their KnasterRules")
        else:
            if not self.categories:
                raise RuleSetError(f"{self.id}: a sheet game needs at least one category")
            ids = [c.id for c in self.categories]
            if len(set(ids)) != len(ids):
                raise RuleSetError(f"{self.id}: duplicate category ids {ids}")
            if not self.columns:
                raise RuleSetError(f"{self.id}: a sheet game needs at least one column")
            if self.dice < 1 or self.faces < 2 or self.throws < 1:
                raise RuleSetError(f"{self.id}: needs at least one die, two faces and one throw")
            if (self.joker is not JokerPolicy.NONE or self.extra is not ExtraPolicy.NONE) and (
                self.five_alike_index is None
            ):
                raise RuleSetError(f"{self.id}: joker and extra points need an all-alike box")
            for c in self.categories:
                if c.scorer.kind is ScorerKind.FACE and not 1 <= c.scorer.face <= self.faces:
                    raise RuleSetError(f"{self.id}: box {c.id} counts face {c.scorer.face}")
        if not 1 <= self.min_players <= self.max_players:
            raise RuleSetError(f"{self.id}: bad player range {self.min_players}..{self.max_players}")

    # -- derived facts -------------------------------------------------------------------------
    @property
    def category_ids(self) -> tuple[str, ...]:
        """The box ids in sheet order."""
        return tuple(c.id for c in self.categories)

    def category_index(self, category_id: str) -> int:
        """Index of a box id in sheet order.

        Raises:
            KeyError: the rule set has no such box.
        """
        return self._index[category_id]

    def has_category(self, category_id: str) -> bool:
        """Whether the sheet has a box with this id."""
        return category_id in self._index

    @property
    def five_alike_index(self) -> int | None:
        """Index of the all-alike box (Yahtzee/Kniffel/Yatzy/Yacht), if the sheet has one."""
        return self._five

    @property
    def announced_column(self) -> int | None:
        """0-based index of the announced column (kniffel-4), if the game has one."""
        return self._announced

    def upper_index(self, face: int) -> int | None:
        """Index of the upper box counting ``face``, if any."""
        for i, c in enumerate(self.categories):
            if c.scorer.kind is ScorerKind.FACE and c.scorer.face == face:
                return i
        return None

    @property
    def upper_indices(self) -> tuple[int, ...]:
        """Indices of the upper-section boxes (computed once: every sheet view asks for them)."""
        return self._upper

    @property
    def n_columns(self) -> int:
        """Number of columns each player fills."""
        return len(self.columns)

    @property
    def turns_per_player(self) -> int:
        """Turns each player takes in a sheet game (boxes x columns)."""
        return self._turns

    @property
    def cache_key(self) -> str:
        """The name under which tables derived from these rules are kept (on disk and in memory).

        The id where it names these very rules (a catalogue rule set: :func:`pasch.rules.get` of the id gives an
        equal one), so that the names of cached and shipped tables never change. Otherwise the id of the
        catalogue rule set with the same rules, where one exists (a column of a multi-column game, such as
        Jetsi's free column, is ``yahtzee``; its top-down column ``yahtzee+forced``), so that it shares that rule
        set's tables, shipped ones included; else the id and a digest of everything that can change play or
        scores (``id~3f2a9c0b1d4e``), so that a custom rule set never meets the tables of another with the same
        id (``dataclasses.replace(get("yahtzee"), bonus=50)`` keeps the id ``yahtzee`` and must not be handed
        yahtzee's tables).
        """
        got = self._memo.get("cache_key")
        if got is None:
            if self._is_catalogue():
                got = self.id
            else:
                digest = self._content_digest()
                got = _catalogue_twins().get(digest) or f"{self.id}~{digest}"
            self._memo["cache_key"] = got
        return got  # type: ignore[return-value]

    def _is_catalogue(self) -> bool:
        from pasch.rules._catalogue import get  # the catalogue builds rule sets: imported late

        try:
            return get(self.id) == self
        except RuleSetError:
            return False

    def _content_digest(self) -> str:
        """A digest of the fields that decide play and scores (not the id, name, description or player range)."""
        import hashlib
        import json

        def plain(x: object) -> object:
            if isinstance(x, Enum):
                return x.value
            if isinstance(x, frozenset | set):
                return sorted(plain(v) for v in x)  # type: ignore[type-var]
            if isinstance(x, tuple | list):
                return [plain(v) for v in x]
            if hasattr(x, "__dataclass_fields__"):
                return {f: plain(getattr(x, f)) for f in x.__dataclass_fields__ if not f.startswith("_")}
            return x

        skip = {"id", "name", "description", "min_players", "max_players", "base", "modifiers"}
        content = {f: plain(getattr(self, f)) for f in self.__dataclass_fields__ if f not in skip and f[0] != "_"}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def base_scores(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """Each box's plain score for these face counts (no joker, no sharp), cached per throw."""
        key = ("base", counts)
        row = self._memo.get(key)
        if row is None:
            row = tuple(c.scorer.score(counts) for c in self.categories)
            self._memo[key] = row
        return row  # type: ignore[return-value]

    def cached(self, key: Hashable, factory: Callable[[], _T]) -> _T:
        """Derived data of this rule set, computed once by ``factory`` and kept with the rule set.

        Layers above the rules (the engine's action tables, for instance) keep what they derive from a
        rule set here, so that it lives as long as the rule set and never takes part in equality. Keys
        should name their owner (``"engine.score_table"``) so that layers do not collide; the value kept
        for a key must always be the same for the same rule set.

        Args:
            key: a hashable key naming the derived data.
            factory: computes the data the first time it is asked for.

        Returns:
            The data kept for ``key`` (computed now if it was not kept yet).
        """
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        value = factory()
        memo[key] = value
        return value

    def doubles(self, category_index: int) -> bool:
        """Whether ``+sharp`` doubles this box."""
        return self.sharp and self.categories[category_index].id in self.sharp_categories

    def __str__(self) -> str:
        return self.id
