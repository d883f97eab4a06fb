"""Knaster's 5x5 grid: cells, lines, combinations of a complete line, score, and a text rendering.

Cells are numbered ``row * 5 + column`` (both 0-based); their text names are ``a1`` .. ``e5`` (letter =
column, digit = row). The twelve lines, in the fixed order used everywhere (line index 0-11): rows 1-5 top
to bottom, columns a-e left to right, the main diagonal a1-e5, the anti-diagonal e1-a5.

Everything that does not depend on a particular grid (line membership, masks, the combination of each of
the 3,003 multisets of five numbers) is computed once and cached: random playouts spend their time in
these lookups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pasch.engine._actions import cell_name, parse_cell
from pasch.errors import InvalidActionError, RuleSetError
from pasch.rules import KnasterRules

__all__ = [
    "CELL_LINES",
    "CELL_NAMES",
    "COMBINATIONS",
    "FULL_MASK",
    "LINES",
    "LINE_MASKS",
    "LINE_NAMES",
    "KnasterGrid",
    "best_combination",
    "cell_index",
    "line_combination",
    "line_value",
]

SIZE = 5
N_CELLS = SIZE * SIZE
#: Bit mask of all 25 cells (a full grid).
FULL_MASK = (1 << N_CELLS) - 1

#: Cells of each line, in line order (rows, columns, main diagonal, anti-diagonal).
LINES: tuple[tuple[int, ...], ...] = (
    *(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)),
    *(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)),
    tuple(i * SIZE + i for i in range(SIZE)),
    tuple(i * SIZE + (SIZE - 1 - i) for i in range(SIZE)),
)
#: Bit mask of each line's cells.
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << i for i in cells) for cells in LINES)
#: Display name of each line.
LINE_NAMES: tuple[str, ...] = (
    *(f"row {r + 1}" for r in range(SIZE)),
    *(f"column {chr(ord('a') + c)}" for c in range(SIZE)),
    "diagonal a1-e5",
    "diagonal e1-a5",
)
#: The lines through each cell, in line order (two, or three on a diagonal, four at the centre).
CELL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k, cells in enumerate(LINES) if i in cells) for i in range(N_CELLS)
)
#: The combinations a complete line can form, as named in :class:`~pasch.rules.KnasterRules`.
COMBINATIONS: tuple[str, ...] = ("three_alike", "four_alike", "five_alike", "two_pairs", "full_house", "straight")

#: The name of each cell (``a1`` .. ``e5``), by index ``row * 5 + column``.
CELL_NAMES: tuple[str, ...] = tuple(cell_name(i // SIZE, i % SIZE) for i in range(N_CELLS))
_CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}
#: Cell indices in the order of their names (a1, a2, .., e5): the order of sorted actions.
NAME_ORDER: tuple[int, ...] = tuple(sorted(range(N_CELLS), key=lambda i: CELL_NAMES[i]))


def cell_index(name: str) -> int:
    """The index (``row * 5 + column``) of a cell given its name, e.g. ``cell_index("b3") == 11``.

    Raises:
        InvalidActionError: not a cell of the 5x5 grid.
    """
    i = _CELL_INDEX.get(name)
    if i is None:
        row, column = parse_cell(name)
        i = row * SIZE + column
    return i


def line_value(rules: KnasterRules, line: int) -> int:
    """Points a fully circled line scores under ``rules`` (line index 0-11, see the module docstring)."""
    if line < SIZE:
        return rules.row_values[line]
    if line < 2 * SIZE:
        return rules.column_values[line - SIZE]
    return rules.diagonal_values[line - 2 * SIZE]


@cache
def _line_values(rules: KnasterRules) -> tuple[int, ...]:
    return tuple(line_value(rules, k) for k in range(len(LINES)))


def _combinations_present(key: tuple[int, ...]) -> tuple[str, ...]:
    counts = sorted(Counter(key).values(), reverse=True)
    found: list[str] = []
    if counts[0] >= 3:
        found.append("three_alike")
    if counts[0] >= 4:
        found.append("four_alike")
    if counts[0] == 5:
        found.append("five_alike")
    if sum(1 for c in counts if c >= 2) >= 2:
        found.append("two_pairs")
    if counts[:2] == [3, 2]:
        found.append("full_house")
    if len(counts) == 5 and key[-1] - key[0] == 4:
        found.append("straight")
    return tuple(found)


@cache
def best_combination(key: tuple[int, ...], table: tuple[tuple[str, int], ...]) -> tuple[str | None, int]:
    """The best combination of a complete line and the circles it earns (cached; the fast form of
    :func:`line_combination`).

    Args:
        key: the line's five numbers, sorted.
        table: ``(combination, circles)`` pairs, as in :attr:`KnasterRules.combinations`.

    Returns:
        ``(name, circles)`` of the combination earning most circles, or ``(None, 0)``.
    """
    circles = dict(table)
    best: tuple[str | None, int] = (None, 0)
    for name in _combinations_present(key):
        owed = circles.get(name, 0)
        if owed > best[1]:
            best = (name, owed)
    return best


def check_combinations(rules: KnasterRules) -> None:
    """Check that every combination named in ``rules`` is one the engine knows.

    Raises:
        RuleSetError: an unknown combination name or a negative number of circles.
    """
    for name, owed in rules.combinations:
        if name not in COMBINATIONS:
            raise RuleSetError(f"knaster: unknown combination {name!r}; known: {', '.join(COMBINATIONS)}")
        if owed < 0:
            raise RuleSetError(f"knaster: combination {name!r} cannot owe {owed} circles")


def line_combination(numbers: Sequence[int], rules: KnasterRules | None = None) -> tuple[str | None, int]:
    """The best combination five numbers form and how many circles it earns.

    The order of the numbers does not matter (a straight may be written in any order); four consecutive
    numbers are no straight. ``line_combination([7, 10, 8, 6, 9]) == ("straight", 3)``;
    ``line_combination([2, 4, 6, 8, 10]) == (None, 0)``.

    Args:
        numbers: the five numbers of a complete line.
        rules: the Knaster parameters (the default table when None).

    Raises:
        InvalidActionError: not five numbers.
    """
    if len(numbers) != SIZE:
        raise InvalidActionError(f"a complete line holds {SIZE} numbers, not {len(numbers)}")
    table = (rules or _DEFAULT).combinations
    return best_combination(tuple(sorted(numbers)), table)


_DEFAULT = KnasterRules()


@dataclass(frozen=True, slots=True)
class KnasterGrid:
    """One player's 5x5 grid.

    Attributes:
        numbers: the number written in each cell (index ``row * 5 + column``), 0 while empty.
        filled: bit mask of the cells holding a number.
        circled: bit mask of the circled cells.
    """

    numbers: tuple[int, ...] = (0,) * N_CELLS
    filled: int = 0
    circled: int = 0

    @classmethod
    def parse(cls, text: str) -> KnasterGrid:
        """Read a grid from five lines of five cells: ``.`` empty, ``7`` written, ``(7)`` circled.

        Raises:
            InvalidActionError: not five rows of five cells, or a number outside 2-12.
        """
        rows = [r.split() for r in text.strip().splitlines() if r.strip()]
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise InvalidActionError("a Knaster grid is five rows of five cells ('.', '7' or '(7)')")
        numbers = [0] * N_CELLS
        filled = circled = 0
        for r, row in enumerate(rows):
            for c, tok in enumerate(row):
                if tok == ".":
                    continue
                ring = tok.startswith("(") and tok.endswith(")")
                body = tok[1:-1] if ring else tok
                if not body.isdigit() or not 2 <= int(body) <= 12:
                    raise InvalidActionError(f"{tok!r} at {cell_name(r, c)}: a cell holds a number 2-12")
                i = r * SIZE + c
                numbers[i] = int(body)
                filled |= 1 << i
                if ring:
                    circled |= 1 << i
        return cls(tuple(numbers), filled, circled)

    # -- queries ------------------------------------------------------------------------------
    def number(self, cell: str | int) -> int | None:
        """The number in a cell (by name or index), None if empty.

        Raises:
            InvalidActionError: not a cell.
        """
        i = cell if isinstance(cell, int) else cell_index(cell)
        return self.numbers[i] or None

    def is_circled(self, cell: str | int) -> bool:
        """Whether a cell (by name or index) is circled.

        Raises:
            InvalidActionError: not a cell.
        """
        i = cell if isinstance(cell, int) else cell_index(cell)
        return bool(self.circled >> i & 1)

    @property
    def written(self) -> int:
        """How many cells hold a number."""
        return self.filled.bit_count()

    @property
    def circles(self) -> int:
        """How many cells are circled."""
        return self.circled.bit_count()

    @property
    def is_full(self) -> bool:
        """Whether all 25 cells hold a number."""
        return self.filled == FULL_MASK

    def line_numbers(self, line: int) -> tuple[int, ...]:
        """The numbers of a line in cell order (0 for empty cells)."""
        return tuple(self.numbers[i] for i in LINES[line])

    def is_complete(self, line: int) -> bool:
        """Whether all five cells of a line hold numbers."""
        m = LINE_MASKS[line]
        return self.filled & m == m

    def is_scored(self, line: int) -> bool:
        """Whether all five cells of a line are circled (it then scores its value)."""
        m = LINE_MASKS[line]
        return self.circled & m == m

    def scored_lines(self) -> tuple[int, ...]:
        """Indices of the fully circled lines."""
        c = self.circled
        return tuple(k for k, m in enumerate(LINE_MASKS) if c & m == m)

    def line_points(self, rules: KnasterRules) -> int:
        """Points from fully circled lines."""
        values = _line_values(rules)
        c = self.circled
        return sum(values[k] for k, m in enumerate(LINE_MASKS) if c & m == m)

    def score(self, rules: KnasterRules) -> int:
        """The grid's total: line values of fully circled lines plus one point per circled cell."""
        return self.line_points(rules) + self.circled.bit_count()

    # -- rendering ----------------------------------------------------------------------------
    def render(self, rules: KnasterRules | None = None) -> str:
        """A text picture of the grid with line values; ``(7)`` is a circled 7, ``.`` an empty cell.

        A fully circled line's value is shown in brackets, e.g. ``[9]``, and counts in the total.
        """
        kn = rules or _DEFAULT
        values = _line_values(kn)

        def val(k: int) -> str:
            return f"[{values[k]}]" if self.is_scored(k) else f" {values[k]} "

        def cell(i: int) -> str:
            n = self.numbers[i]
            if not n:
                return "  .  "
            return f"({n})".center(5) if self.circled >> i & 1 else f"{n}".center(5)

        anti, main = 2 * SIZE + 1, 2 * SIZE
        lines = ["    " + "".join(f"  {chr(ord('a') + c)}  " for c in range(SIZE)) + f"{val(anti):>6}"]
        for r in range(SIZE):
            cells = "".join(cell(r * SIZE + c) for c in range(SIZE))
            lines.append(f" {r + 1}  {cells}{val(r):>6}")
        lines.append("    " + "".join(val(SIZE + c).center(5) for c in range(SIZE)) + f"{val(main):>6}")
        lines.append(f"    written {self.written}/25, circled {self.circles}, total {self.score(kn)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()
