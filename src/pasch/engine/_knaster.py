"""The immutable state of a game of Knaster (RULES.md, ``knaster``; seed 004).

Flow of one number:

1. The thrower (seats in order, one after another, each number) does ``roll``; a chance node follows and
   ``throw A B`` lands the two dice. The called number is their sum.
2. Every player, in seat order starting with the thrower, acts on that number: ``write N at CELL`` (N is the
   called number, the cell is empty) or ``circle CELL`` (an uncircled cell holding the called number).
   ``pass`` is legal only when neither is possible, and then it is the only legal action.
3. A write that completes lines (five numbers in a row, column or diagonal) whose numbers form a
   combination puts the writer under *duties*: for each such line, circle as many of its cells as the best
   combination earns (three alike 1, four alike 2, five alike 3, two pairs 1, full house 2, straight 3),
   fewer if fewer uncircled cells remain. The writer discharges them with ``circle CELL`` at once, before
   anyone else acts; only circles on uncircled cells of lines still owed are legal meanwhile.
4. When a round ends (everybody acted on the number) and some grid is full, the end is announced: exactly
   one more number is thrown for everyone, and after it the game is over. A player with a full grid can
   only circle or pass.

Score: line values of fully circled lines (rows 9 8 7 6 5, columns 9 8 7 6 5, diagonals 10 10 by default)
plus one point per circled cell.

**Decision (several lines completed by one write).** The rules let the player handle such lines "one
after another, in the order they like". Two lines meet in at most one cell, so the lines completed by one
write share exactly one cell: the cell just written. Every other cell belongs to one owed line, and a circle
there counts for that line. A circle on the shared cell counts for the line the player is working on -- the
line their previous circle of this write counted for, while it is still owed -- and otherwise for the first
owed line in the fixed line order (rows 1-5, columns a-e, diagonal a1-e5, diagonal e1-a5). After every
circle each owed line's count is capped again by its uncircled cells, so a line whose last uncircled cell
was taken by another line is done. The player may move between owed lines freely.

Every final set of circles that some handling order of the table game allows is reachable this way, with
one exception: a set that is a strict subset of another reachable set (it arises only when a line that comes
first in the fixed order is short of uncircled cells and the player would hand the shared cell to a later
line that owes just one circle). Circles are always good, so no sensible player chooses those.

Score-keeper mode (``keeper=True``) plays the same way: after ``roll`` the table supplies the dice that fell
with ``throw A B``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pasch.engine._actions import Action, Circle, Pass, Roll, Throw, Write
from pasch.engine._common import StateBase, check_players, throw_outcomes
from pasch.engine._knaster_grid import (
    CELL_LINES,
    CELL_NAMES,
    COMBINATIONS,
    FULL_MASK,
    LINE_MASKS,
    LINE_NAMES,
    LINES,
    N_CELLS,
    NAME_ORDER,
    KnasterGrid,
    best_combination,
    cell_index,
    check_combinations,
)
from pasch.engine._text import (
    SYMBOL_VALUE,
    check_fields,
    dice_text,
    head_text,
    in_range,
    per_player,
    read_dice,
    read_number,
    symbol,
)
from pasch.errors import IllegalActionError, InvalidActionError, PaschError, PositionError
from pasch.rules import GameKind, KnasterRules, RuleSet

__all__ = ["KnasterState", "LineDuty"]

_EMPTY_GRID = KnasterGrid()
_PASS = Pass()
_ROLL = Roll()
_CIRCLES: tuple[Circle, ...] = tuple(Circle(name) for name in CELL_NAMES)
# (cell, bit, action) in the order of sorted actions, so legal_actions never sorts.
_CIRCLE_BITS: tuple[tuple[int, int, Circle], ...] = tuple((i, 1 << i, _CIRCLES[i]) for i in NAME_ORDER)
_WRITE_BITS: dict[int, tuple[tuple[int, Write], ...]] = {}
# Each line's word in the duties field of the position text, in line order.
_LINE_TOKENS: tuple[str, ...] = (
    *(f"row{r + 1}" for r in range(5)),
    *(f"col{chr(ord('a') + c)}" for c in range(5)),
    "diag",
    "anti",
)
_LINE_OF_TOKEN = {t: k for k, t in enumerate(_LINE_TOKENS)}
_CELL = re.compile(r"\.|[0-9a-z]\*?")


def _write_bits(number: int) -> tuple[tuple[int, Write], ...]:
    w = _WRITE_BITS.get(number)
    if w is None:
        w = _WRITE_BITS[number] = tuple((1 << i, Write(number, CELL_NAMES[i])) for i in NAME_ORDER)
    return w


@dataclass(frozen=True, slots=True)
class LineDuty:
    """A completed line that still owes circles.

    Attributes:
        line: line index (0-4 rows, 5-9 columns, 10 diagonal a1-e5, 11 diagonal e1-a5).
        combination: the combination its numbers form, e.g. ``"full_house"``.
        owed: circles still owed (already capped by the line's uncircled cells; always >= 1).
    """

    line: int
    combination: str
    owed: int

    @property
    def name(self) -> str:
        """The line's display name, e.g. ``row 3``."""
        return LINE_NAMES[self.line]

    def __str__(self) -> str:
        cells = "cell" if self.owed == 1 else "cells"
        return f"{self.owed} more {cells} in {self.name} ({self.combination.replace('_', ' ')})"


@dataclass(frozen=True, slots=True, repr=False)
class KnasterState(StateBase):
    """The immutable state of a Knaster game. ``apply`` returns a new state; nothing mutates.

    Attributes:
        rules: the rule set (its ``knaster`` parameters give line values and combinations).
        players: player names in seat order.
        grids: each player's grid.
        thrower: seat of the player who throws (threw) the current number.
        current: seat of the player to act (the thrower while rolling and at the chance node).
        number: the called number, None before the dice land.
        dice: the dice of the current number, None before they land.
        pending: dice in the air (a chance node when > 0).
        acted: players who have finished acting on the current number.
        duties: lines the current player must still circle in, in line order.
        working: the line the current player's previous duty circle counted for, while still owed.
        throws: numbers called so far (including the current one).
        end_announced: some grid is full; the current (or next) number is the last one.
        over: the game has ended.
        keeper: score-keeper mode (the table supplies the dice with ``throw``).
    """

    _game_word: ClassVar[str] = "Knaster"
    _kind: ClassVar[GameKind] = GameKind.KNASTER

    rules: RuleSet
    players: tuple[str, ...]
    grids: tuple[KnasterGrid, ...]
    thrower: int = 0
    current: int = 0
    number: int | None = None
    dice: tuple[int, ...] | None = None
    pending: int = 0
    acted: int = 0
    duties: tuple[LineDuty, ...] = ()
    working: int | None = None
    throws: int = 0
    end_announced: bool = False
    over: bool = False
    keeper: bool = False

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: RuleSet, players: Sequence[str], keeper: bool = False) -> KnasterState:
        """A new game: every grid empty, the first seat to throw.

        Raises:
            IllegalActionError: not a Knaster rule set, wrong number of players, or duplicate or empty names.
            RuleSetError: the rule set names a combination the engine does not know.
        """
        if rules.kind is not GameKind.KNASTER or rules.knaster is None:
            raise IllegalActionError(f"{rules.id} is not a Knaster rule set")
        check_combinations(rules.knaster)
        names = check_players(rules, players)
        return cls(rules=rules, players=names, grids=tuple(_EMPTY_GRID for _ in names), keeper=keeper)

    # -- queries ------------------------------------------------------------------------------
    @property
    def knaster(self) -> KnasterRules:
        """The Knaster parameters of the rule set."""
        kn = self.rules.knaster
        assert kn is not None  # checked in new()
        return kn

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.over

    @property
    def turn(self) -> int:
        """Numbers completed (every player acted on them)."""
        return self.throws - (1 if self.number is not None or self.pending else 0)

    @property
    def round(self) -> int:
        """1-based round number (each seat throws once per round)."""
        return self.turn // len(self.players) + 1

    @property
    def is_last_number(self) -> bool:
        """Whether the number being called (or about to be) is the last one of the game."""
        return self.end_announced and not self.over

    def total(self, player: int) -> int:
        """A player's score: line values of fully circled lines plus one per circled cell."""
        return self.grids[player].score(self.knaster)

    def totals(self) -> tuple[int, ...]:
        """Every player's score."""
        kn = self.knaster
        return tuple(g.score(kn) for g in self.grids)

    def render(self, player: int | None = None) -> str:
        """A text picture of one player's grid (the player to act when None)."""
        p = self.current if player is None else player
        return f"{self.players[p]}\n{self.grids[p].render(self.knaster)}"

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action allowed now, sorted (chance nodes list every throw outcome)."""
        if self.over:
            return ()
        if self.pending:
            return tuple(t for t, _ in throw_outcomes(self.pending, self.rules.faces))
        number = self.number
        if number is None:
            return (_ROLL,)
        grid = self.grids[self.current]
        if self.duties:
            owed = 0
            for d in self.duties:
                owed |= LINE_MASKS[d.line]
            owed &= ~grid.circled
            return tuple(c for _, bit, c in _CIRCLE_BITS if owed & bit)
        filled, circled, numbers = grid.filled, grid.circled, grid.numbers
        out: list[Action] = [w for bit, w in _write_bits(number) if not filled & bit]
        if number in numbers and circled != filled:
            out += [c for i, bit, c in _CIRCLE_BITS if numbers[i] == number and not circled & bit]
        if not out:
            return (_PASS,)
        return tuple(out)

    # -- text ---------------------------------------------------------------------------------
    def to_text(self) -> str:
        """The one-line position text (``pasch1 ...``) that :meth:`from_text` reads back.

        See :mod:`pasch.engine._position` (and docs/position.md) for the grammar.
        """
        grids = "/".join(_grid_text(g) for g in self.grids)
        duties = ",".join(
            f"{'@' if d.line == self.working else ''}{_LINE_TOKENS[d.line]}:{d.combination}:{d.owed}"
            for d in self.duties
        )
        flags = ",".join(f for f, on in (("end", self.end_announced), ("over", self.over)) if on)
        dice = dice_text(self.dice, self.pending)
        fields = (self.thrower, self.current, self.throws, dice, self.acted, duties or "-", flags or "-")
        return f"{head_text(self)} {grids} " + " ".join(str(f) for f in fields)

    @classmethod
    def _read(cls, rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> KnasterState:
        """The state a Knaster body's fields describe (the head gave the rest).

        Raises:
            PositionError: a rule set naming a combination the engine does not know, a malformed field, or
                fields that contradict each other.
        """
        assert rules.knaster is not None  # a Knaster rule set always has them (RuleSet checks)
        try:
            check_combinations(rules.knaster)
        except PaschError as exc:
            raise PositionError(str(exc)) from None
        what = ("grids", "thrower", "seat", "throws", "dice", "acted", "duties", "flags")
        check_fields(parts, what, what="a Knaster position")
        grids_text, thrower_text, seat_text, throws_text, dice_field, acted_text, duties_text, flags_text = parts
        n = len(names)
        grids = tuple(_read_grid(g, rules, names[p]) for p, g in enumerate(per_player(grids_text, n, "grids")))
        thrower = in_range(read_number(thrower_text, "thrower"), 0, n - 1, "thrower")
        seat = in_range(read_number(seat_text, "seat"), 0, n - 1, "seat")
        throws = read_number(throws_text, "throws")
        dice, pending = read_dice(dice_field, rules.faces, "dice")
        if pending:
            if dice:
                raise PositionError(f"dice {dice_field!r}: in Knaster no dice are kept")
            dice = None
        if pending not in (0, rules.dice) or (dice is not None and len(dice) != rules.dice):
            raise PositionError(f"dice {dice_field!r}: Knaster throws {rules.dice} dice")
        acted = in_range(read_number(acted_text, "acted"), 0, n, "acted")
        duties, working = _read_duties(duties_text, grids[seat])
        flags = {"-": (False, False), "end": (True, False), "end,over": (True, True)}.get(flags_text)
        if flags is None:
            raise PositionError(f"flags {flags_text!r}: expected '-', 'end' or 'end,over'")
        number = sum(dice) if dice is not None else None
        end, over = flags
        return cls(
            rules,
            names,
            grids,
            thrower,
            seat,
            number,
            dice,
            pending,
            acted,
            duties,
            working,
            throws,
            end,
            over,
            keeper,
        )

    def __str__(self) -> str:
        return _draw(self)

    # -- transitions --------------------------------------------------------------------------
    def apply(self, action: Action | str, player: int | None = None) -> KnasterState:
        """Apply an action and return the new state.

        Args:
            action: an :class:`Action` or its text.
            player: if given, the seat that sends the action; it must be the player to act.

        Raises:
            InvalidActionError: malformed action text, a cell that does not exist, or dice that are not dice.
            IllegalActionError: a well-formed action the rules do not allow now.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if self.over:
            raise IllegalActionError(f"{str(action)!r}: the game is over")
        if player is not None and player != self.current and not isinstance(action, Throw):
            raise IllegalActionError(
                f"{str(action)!r}: it is {self.players[self.current]}'s turn, not {self._name(player)}'s"
            )
        if isinstance(action, Throw):
            return self._apply_throw(action)
        if self.pending:
            raise IllegalActionError(f"{str(action)!r}: {self.pending} dice are still in the air")
        if isinstance(action, Roll):
            return self._apply_roll()
        if self.number is None:
            raise IllegalActionError(
                f"{str(action)!r}: no number is called yet; {self.players[self.current]} must 'roll' first"
            )
        if isinstance(action, Write):
            return self._apply_write(action)
        if isinstance(action, Circle):
            return self._apply_circle(action)
        if isinstance(action, Pass):
            return self._apply_pass()
        raise IllegalActionError(f"{str(action)!r} is not an action of {self.rules.name}")

    def _duty_text(self) -> str:
        who = self.players[self.current]
        return f"{who} must first circle " + "; ".join(str(d) for d in self.duties)

    def _apply_roll(self) -> KnasterState:
        if self.number is not None:
            raise IllegalActionError(
                f"'roll': {self.number} is already called; {self.players[self.current]} must write or circle it"
            )
        return self._evolve(self.grids, self.current, None, None, self.knaster.dice, 0, (), None, self.throws + 1)

    def _apply_throw(self, action: Throw) -> KnasterState:
        dice = action.dice
        if not self.pending:
            raise IllegalActionError(f"{str(action)!r}: no dice are in the air")
        if len(dice) != self.pending:
            raise InvalidActionError(f"{str(action)!r}: {self.pending} dice were thrown, not {len(dice)}")
        faces = self.rules.faces
        for d in dice:
            if not 1 <= d <= faces:
                raise InvalidActionError(f"{str(action)!r}: dice show 1 to {faces}")
        return self._evolve(self.grids, self.current, sum(dice), dice, 0, self.acted, (), None, self.throws)

    def _apply_write(self, action: Write) -> KnasterState:
        i = cell_index(action.cell)
        text = "write"  # the full text is built only for an error message
        if self.duties or action.number != self.number or self.grids[self.current].filled >> i & 1:
            text = str(action)
        if self.duties:
            raise IllegalActionError(f"{text!r}: {self._duty_text()}")
        if action.number != self.number:
            raise IllegalActionError(f"{text!r}: the called number is {self.number}, not {action.number}")
        grid = self.grids[self.current]
        bit = 1 << i
        if grid.filled & bit:
            ring = " (circled)" if grid.circled & bit else ""
            raise IllegalActionError(f"{text!r}: {CELL_NAMES[i]} already holds {grid.numbers[i]}{ring}")
        numbers = (*grid.numbers[:i], action.number, *grid.numbers[i + 1 :])
        filled = grid.filled | bit
        new_grid = KnasterGrid(numbers, filled, grid.circled)
        duties: list[LineDuty] = []
        table = self.knaster.combinations
        for k in CELL_LINES[i]:
            m = LINE_MASKS[k]
            if filled & m != m:
                continue
            combo, owed = best_combination(tuple(sorted(numbers[j] for j in LINES[k])), table)
            if combo is None or owed <= 0:
                continue
            owed = min(owed, (m & ~grid.circled).bit_count())
            duties.append(LineDuty(k, combo, owed))
        grids = self._with_grid(new_grid)
        if duties:
            return self._evolve(grids, self.current, self.number, self.dice, 0, self.acted, tuple(duties), None)
        return self._done(grids)

    def _apply_circle(self, action: Circle) -> KnasterState:
        i = cell_index(action.cell)
        text = f"circle {CELL_NAMES[i]}"
        grid = self.grids[self.current]
        bit = 1 << i
        name = CELL_NAMES[i]
        if grid.circled & bit:
            raise IllegalActionError(f"{text!r}: {name} is already circled")
        if self.duties:
            return self._apply_duty_circle(text, i, grid)
        if not grid.filled & bit:
            raise IllegalActionError(f"{text!r}: {name} is empty; only a written {self.number} can be circled")
        if grid.numbers[i] != self.number:
            raise IllegalActionError(f"{text!r}: {name} holds {grid.numbers[i]}, not the called {self.number}")
        new_grid = KnasterGrid(grid.numbers, grid.filled, grid.circled | bit)
        return self._done(self._with_grid(new_grid))

    def _apply_duty_circle(self, text: str, i: int, grid: KnasterGrid) -> KnasterState:
        target = None
        if self.working is not None and i in LINES[self.working]:
            target = self.working
        else:
            for d in self.duties:
                if LINE_MASKS[d.line] >> i & 1:
                    target = d.line
                    break
        if target is None:
            raise IllegalActionError(f"{text!r}: {CELL_NAMES[i]} is in no line owed now; {self._duty_text()}")
        circled = grid.circled | (1 << i)
        duties: list[LineDuty] = []
        for d in self.duties:
            owed = d.owed - 1 if d.line == target else d.owed
            owed = min(owed, (LINE_MASKS[d.line] & ~circled).bit_count())
            if owed > 0:
                duties.append(d if owed == d.owed else LineDuty(d.line, d.combination, owed))
        grids = self._with_grid(KnasterGrid(grid.numbers, grid.filled, circled))
        if duties:
            working = target if any(d.line == target for d in duties) else None
            return self._evolve(grids, self.current, self.number, self.dice, 0, self.acted, tuple(duties), working)
        return self._done(grids)

    def _apply_pass(self) -> KnasterState:
        if self.duties:
            raise IllegalActionError(f"'pass': {self._duty_text()}")
        grid = self.grids[self.current]
        if not grid.is_full:
            raise IllegalActionError(f"'pass': {self.players[self.current]} can write {self.number} into an empty cell")
        for i in NAME_ORDER:
            if grid.numbers[i] == self.number and not grid.circled >> i & 1:
                raise IllegalActionError(
                    f"'pass': {self.players[self.current]} can circle the {self.number} at {CELL_NAMES[i]}"
                )
        return self._done(self.grids)

    def _with_grid(self, grid: KnasterGrid) -> tuple[KnasterGrid, ...]:
        p = self.current
        return (*self.grids[:p], grid, *self.grids[p + 1 :])

    def _evolve(
        self,
        grids: tuple[KnasterGrid, ...],
        current: int,
        number: int | None,
        dice: tuple[int, ...] | None,
        pending: int,
        acted: int,
        duties: tuple[LineDuty, ...],
        working: int | None,
        throws: int | None = None,
    ) -> KnasterState:
        # Positional construction: dataclasses.replace costs several times more, and playouts live here.
        return KnasterState(
            self.rules,
            self.players,
            grids,
            self.thrower,
            current,
            number,
            dice,
            pending,
            acted,
            duties,
            working,
            self.throws if throws is None else throws,
            self.end_announced,
            False,
            self.keeper,
        )

    def _done(self, grids: tuple[KnasterGrid, ...]) -> KnasterState:
        """The current player has finished with the number: the next player acts, or the round ends."""
        n = len(self.players)
        acted = self.acted + 1
        if acted < n:
            return self._evolve(grids, (self.thrower + acted) % n, self.number, self.dice, 0, acted, (), None)
        if self.end_announced:
            return KnasterState(
                self.rules,
                self.players,
                grids,
                self.thrower,
                self.current,
                self.number,
                self.dice,
                0,
                acted,
                (),
                None,
                self.throws,
                True,
                True,
                self.keeper,
            )
        thrower = (self.thrower + 1) % n
        return KnasterState(
            self.rules,
            self.players,
            grids,
            thrower,
            thrower,
            None,
            None,
            0,
            0,
            (),
            None,
            self.throws,
            any(g.filled == FULL_MASK for g in grids),
            False,
            self.keeper,
        )


# -- position text of a grid and of the duties --------------------------------------------------


def _grid_text(grid: KnasterGrid) -> str:
    rows = []
    for r in range(5):
        cells = []
        for i in range(r * 5, r * 5 + 5):
            if not grid.filled >> i & 1:
                cells.append(".")
            else:
                cells.append(symbol(grid.numbers[i]) + ("*" if grid.circled >> i & 1 else ""))
        rows.append("".join(cells))
    return "|".join(rows)


def _read_grid(token: str, rules: RuleSet, who: str) -> KnasterGrid:
    rows = token.split("|")
    if len(rows) != 5:
        raise PositionError(f"{who}'s grid has {len(rows)} rows, not 5")
    numbers = [0] * N_CELLS
    filled = circled = 0
    top = rules.dice * rules.faces
    for r, row in enumerate(rows):
        cells = _CELL.findall(row)
        if "".join(cells) != row or len(cells) != 5:
            raise PositionError(f"{who}'s row {r + 1} {row!r} is not five cells ('.', a number, a number and '*')")
        for c, cell in enumerate(cells):
            if cell == ".":
                continue
            value = SYMBOL_VALUE[cell[0]]
            if not rules.dice <= value <= top:
                raise PositionError(f"{who}'s row {r + 1}: {cell[0]!r} is no number of {rules.dice} dice")
            i = r * 5 + c
            numbers[i] = value
            filled |= 1 << i
            if cell.endswith("*"):
                circled |= 1 << i
    return KnasterGrid(tuple(numbers), filled, circled)


def _read_duties(token: str, grid: KnasterGrid) -> tuple[tuple[LineDuty, ...], int | None]:
    """The duties field: the lines still owed by the player to act (whose grid is ``grid``), and the marked one."""
    duties: list[LineDuty] = []
    working = None
    if token != "-":
        for duty in token.split(","):
            line, _, rest = duty.removeprefix("@").partition(":")
            combination, _, owed = rest.partition(":")
            if line not in _LINE_OF_TOKEN or combination not in COMBINATIONS:
                raise PositionError(f"duty {duty!r}: expected LINE:COMBINATION:CIRCLES, e.g. row1:full_house:2")
            k = _LINE_OF_TOKEN[line]
            duties.append(
                LineDuty(k, combination, in_range(read_number(owed, f"duty {duty!r}:"), 1, 5, "circles owed"))
            )
            if duty.startswith("@"):
                if working is not None:
                    raise PositionError(f"duties {token!r}: more than one line marked '@'")
                working = k
    lines = [d.line for d in duties]
    if lines != sorted(set(lines)):
        raise PositionError(f"duties {token!r}: lines must be distinct, in line order")
    if any(grid.filled & LINE_MASKS[k] != LINE_MASKS[k] for k in lines):
        raise PositionError(f"duties {token!r}: a line owing circles must be complete")
    return tuple(duties), working


# -- plain-text drawing (str(state)) ------------------------------------------------------------


def _draw(state: KnasterState) -> str:
    """Every player's grid with line values and totals, then the called number, whose turn and duties."""
    kn = state.knaster
    parts = [f"{state.rules.name} ({state.rules.id})" + (", score keeper" if state.keeper else "")]
    for p, name in enumerate(state.players):
        mark = ">" if p == state.current and not state.over else ""
        parts.append(f"{mark}{name}\n{state.grids[p].render(kn)}")
    if state.over:
        out = state.outcome()
        status = "game over; won by " + ", ".join(out.winners) + f" with {max(out.totals)}"
    else:
        last = " (the last number)" if state.end_announced else ""
        thrower = state.players[state.thrower]
        if state.pending:
            status = f"{thrower} throws{last}: {state.pending} dice in the air"
        elif state.number is None or state.dice is None:
            status = f"{thrower} to roll{last}"
        else:
            dice = " ".join(str(d) for d in state.dice)
            status = f"number {state.number} ({dice}){last}, thrown by {thrower}; {state.current_name} to act"
            if state.duties:
                status += "; must first circle " + "; ".join(str(d) for d in state.duties)
    parts.append(status)
    return "\n".join(parts)
