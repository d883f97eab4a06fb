"""Actions and their one text form, which round-trips: ``Action.parse(str(a)) == a``.

=====================  ==========================================================================
text                   meaning
=====================  ==========================================================================
``roll``               first throw of a turn (all dice); Knaster: throw the two dice
``keep 3 3 5``         keep these dice and throw the rest again (``keep`` alone re-throws all)
``throw 1 4 6``        chance: the values the re-thrown dice show (supplied by the RNG or a table)
``enter 1 3 3 5 6``    score keeper: the final dice of a turn thrown with real dice
``enter 6 6 6 6 6 sharp``  ... thrown in one throw of all five (for ``+sharp``)
``score full_house``   fill a box (``score 2:full_house`` in column 2 of a multi-column game)
``announce yahtzee``   kniffel-4: announce a box of the announced column after the first throw
``write 7 at b3``      Knaster: write the called number into an empty cell (column a-e, row 1-5)
``circle b3``          Knaster: circle a cell
``pass``               Knaster: neither writing nor circling is possible
=====================  ==========================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from pasch.errors import InvalidActionError

__all__ = [
    "Action",
    "Announce",
    "Circle",
    "Enter",
    "Keep",
    "Pass",
    "Roll",
    "Score",
    "Throw",
    "Write",
    "cell_name",
    "parse_cell",
]

_CELL = re.compile(r"^([a-e])([1-5])$")


def parse_cell(text: str) -> tuple[int, int]:
    """Parse a Knaster cell such as ``b3`` into (row, column), both 0-based.

    Raises:
        InvalidActionError: not a cell of the 5x5 grid.
    """
    m = _CELL.match(text.strip().lower())
    if not m:
        raise InvalidActionError(f"{text!r} is not a cell: use a column a-e and a row 1-5, e.g. b3")
    return int(m.group(2)) - 1, ord(m.group(1)) - ord("a")


def cell_name(row: int, column: int) -> str:
    """The text name of a cell given 0-based (row, column): ``cell_name(2, 1) == "b3"``."""
    return f"{chr(ord('a') + column)}{row + 1}"


def _is_int(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _dice_words(words: list[str], verb: str) -> tuple[int, ...]:
    values: list[int] = []
    for w in words:
        if not _is_int(w):
            raise InvalidActionError(f"{verb!r} takes dice values 1-6, not {w!r}")
        values.append(int(w))
    if any(not 1 <= v <= 6 for v in values):
        bad = next(v for v in values if not 1 <= v <= 6)
        raise InvalidActionError(f"{bad} is not a die: dice show 1 to 6")
    return tuple(sorted(values))


_PARSED: dict[str, Action] = {}
"""Texts read before and their actions (immutable, so one object serves every reader): a server reads the same
few hundred texts over and over, twice per move. Bounded: cleared when full."""
_PARSED_MAX = 4096


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of all actions. Use :meth:`parse` to read the text form."""

    ORDER: ClassVar[int] = 0

    def sort_key(self) -> tuple[object, ...]:
        """A key that orders actions of all kinds (kind first, then fields)."""
        return (self.ORDER,)

    def __lt__(self, other: Action) -> bool:
        return self.sort_key() < other.sort_key()

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the text form of an action.

        Raises:
            InvalidActionError: the text is not an action; the message quotes it.
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        hit = _PARSED.get(text)
        if hit is not None:
            return hit
        try:
            action = Action._parse(text)
        except InvalidActionError as exc:
            quoted = repr(text.strip())
            if quoted in str(exc):
                raise
            raise InvalidActionError(f"{quoted}: {exc}") from None
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[text] = action
        return action

    @staticmethod
    def _parse(text: str) -> Action:
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise InvalidActionError("empty action; try 'roll', 'keep 3 3 5' or 'score chance'")
        verb, rest = words[0], words[1:]
        if verb == "roll" and not rest:
            return Roll()
        if verb == "pass" and not rest:
            return Pass()
        if verb == "keep":
            if len(rest) == 1 and len(rest[0]) > 1 and _is_int(rest[0]):
                rest = list(rest[0])
            return Keep(_dice_words(rest, "keep"))
        if verb == "throw" and rest:
            return Throw(_dice_words(rest, "throw"))
        if verb == "enter" and rest:
            sharp = rest[-1] == "sharp"
            vals = rest[:-1] if sharp else rest
            if len(vals) == 1 and len(vals[0]) > 1 and _is_int(vals[0]):
                vals = list(vals[0])
            return Enter(_dice_words(vals, "enter"), sharp)
        if verb == "score" and len(rest) == 1:
            box = rest[0]
            if ":" in box:
                col, _, cat = box.partition(":")
                if not _is_int(col) or int(col) < 1 or not cat:
                    raise InvalidActionError(f"{text!r}: write 'score COLUMN:BOX' with a column from 1")
                return Score(cat, int(col))
            return Score(box)
        if verb == "announce" and len(rest) == 1:
            return Announce(rest[0])
        if verb == "write" and len(rest) == 3 and rest[1] == "at":
            if not _is_int(rest[0]):
                raise InvalidActionError(f"{text!r}: write a number 2-12, e.g. 'write 7 at b3'")
            return Write(int(rest[0]), cell_name(*parse_cell(rest[2])))
        if verb == "circle" and len(rest) == 1:
            return Circle(cell_name(*parse_cell(rest[0])))
        raise InvalidActionError(
            f"{text!r} is not an action; expected roll, keep DICE, score BOX, announce BOX, "
            "enter DICE, throw DICE, write N at CELL, circle CELL or pass"
        )


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The first throw of a turn: all dice."""

    ORDER: ClassVar[int] = 1

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep these dice (a sub-multiset of the current dice) and throw the others again."""

    dice: tuple[int, ...] = ()
    ORDER: ClassVar[int] = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, len(self.dice), self.dice)

    def __str__(self) -> str:
        return " ".join(["keep", *(str(d) for d in self.dice)])


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Chance: what the thrown dice show."""

    dice: tuple[int, ...] = ()
    ORDER: ClassVar[int] = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.dice)

    def __str__(self) -> str:
        return " ".join(["throw", *(str(d) for d in self.dice)])


@dataclass(frozen=True, slots=True)
class Enter(Action):
    """Score keeper: the final dice of a turn played with real dice, and whether sharp applies."""

    dice: tuple[int, ...] = ()
    sharp: bool = False
    ORDER: ClassVar[int] = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.dice, self.sharp)

    def __str__(self) -> str:
        words = ["enter", *(str(d) for d in self.dice)]
        if self.sharp:
            words.append("sharp")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Score(Action):
    """Fill a box; ``column`` is 1-based and None in single-column games."""

    category: str = ""
    column: int | None = None
    ORDER: ClassVar[int] = 5

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.column or 0, self.category)

    def __str__(self) -> str:
        if self.column is None:
            return f"score {self.category}"
        return f"score {self.column}:{self.category}"


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """kniffel-4: announce the box of the announced column this turn's dice are meant for."""

    category: str = ""
    ORDER: ClassVar[int] = 4

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.category)

    def __str__(self) -> str:
        return f"announce {self.category}"


@dataclass(frozen=True, slots=True)
class Write(Action):
    """Knaster: write the called number into an empty cell."""

    number: int = 0
    cell: str = ""
    ORDER: ClassVar[int] = 6

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.cell, self.number)

    def __str__(self) -> str:
        return f"write {self.number} at {self.cell}"


@dataclass(frozen=True, slots=True)
class Circle(Action):
    """Knaster: circle a cell."""

    cell: str = ""
    ORDER: ClassVar[int] = 7

    def sort_key(self) -> tuple[object, ...]:
        return (self.ORDER, self.cell)

    def __str__(self) -> str:
        return f"circle {self.cell}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Knaster: the player can neither write nor circle the called number."""

    ORDER: ClassVar[int] = 8

    def __str__(self) -> str:
        return "pass"
