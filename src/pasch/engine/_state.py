"""The immutable state of a sheet game (Kniffel, Yahtzee, Yatzy, Yacht and the multi-column games).

A turn: ``roll`` (a chance node follows: ``throw ...``), then up to two ``keep ...`` re-throws, then
``score BOX``. In kniffel-4 the player may ``announce BOX`` after the first throw. In score-keeper mode
the turn is ``enter DICE [sharp]`` (the final dice of real dice) then ``score BOX``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import ClassVar

from pasch.dice import counts_of
from pasch.engine._actions import Action, Announce, Enter, Keep, Roll, Score, Throw
from pasch.engine._common import StateBase, check_players, throw_outcomes
from pasch.engine._text import (
    check_fields,
    dice_text,
    head_text,
    in_range,
    per_player,
    read_dice,
    read_number,
)
from pasch.errors import IllegalActionError, InvalidActionError, PositionError
from pasch.rules import (
    BoxOption,
    ColumnTotals,
    GameKind,
    Order,
    RuleSet,
    column_totals,
    entry_option,
    fill_candidates,
    score_options,
)

__all__ = ["ColumnSheet", "GameState", "PlayerSheet"]


@dataclass(frozen=True, slots=True)
class ColumnSheet:
    """One column of a player's sheet.

    Attributes:
        scores: each box's value in sheet order, None while open.
        extra: extra five-alike points earned in this column.
        doubled: indices of boxes that ``+sharp`` doubled (for display).
    """

    scores: tuple[int | None, ...]
    extra: int = 0
    doubled: frozenset[int] = frozenset()

    @property
    def is_full(self) -> bool:
        """Whether every box is filled."""
        return all(s is not None for s in self.scores)

    @property
    def open_count(self) -> int:
        """Number of open boxes."""
        return sum(1 for s in self.scores if s is None)


@dataclass(frozen=True, slots=True)
class PlayerSheet:
    """A player's columns."""

    columns: tuple[ColumnSheet, ...]

    @property
    def is_full(self) -> bool:
        """Whether every box of every column is filled."""
        return all(c.is_full for c in self.columns)


@cache
def _keeps(dice: tuple[int, ...]) -> tuple[Keep, ...]:
    subs = {c for size in range(len(dice)) for c in itertools.combinations(dice, size)}
    return tuple(sorted(Keep(k) for k in subs))


@cache
def _enters(n: int, faces: int, sharp: bool) -> tuple[Enter, ...]:
    rolls = itertools.combinations_with_replacement(range(1, faces + 1), n)
    return tuple(sorted(Enter(r, s) for r in rolls for s in ((False, True) if sharp else (False,))))


def _score_table(rules: RuleSet) -> tuple[tuple[tuple[Score, ...], ...], tuple[int, ...]]:
    """The Score action of every (column, box) and each box's rank in the actions' sort order."""

    def build() -> tuple[tuple[tuple[Score, ...], ...], tuple[int, ...]]:
        multi = rules.n_columns > 1
        table = tuple(
            tuple(Score(c.id, col + 1 if multi else None) for c in rules.categories) for col in range(rules.n_columns)
        )
        alpha = sorted(rules.category_ids)
        return table, tuple(alpha.index(i) for i in rules.category_ids)

    return rules.cached("engine.score_table", build)


def _alpha_order(rules: RuleSet) -> tuple[int, ...]:
    """Box indices in the order of their ids (the order Score actions sort in)."""

    def build() -> tuple[int, ...]:
        _, rank = _score_table(rules)
        return tuple(sorted(range(len(rank)), key=rank.__getitem__))

    return rules.cached("engine.alpha_order", build)


def _in_alpha(candidates: tuple[int, ...], alpha: tuple[int, ...]) -> tuple[int, ...]:
    if len(candidates) <= 1:
        return candidates
    chosen = set(candidates)
    return tuple(i for i in alpha if i in chosen)


def _is_sub_multiset(part: Sequence[int], whole: Sequence[int]) -> bool:
    pool = list(whole)
    for v in part:
        if v not in pool:
            return False
        pool.remove(v)
    return True


@dataclass(frozen=True, slots=True, repr=False)
class GameState(StateBase):
    """The immutable state of a sheet game. ``apply`` returns a new state; nothing mutates.

    Attributes:
        rules: the rule set.
        players: player names in seat order.
        sheets: each player's sheet.
        current: index of the player whose turn it is.
        turn: number of turns completed (all players together).
        dice: the dice on the table (the kept dice while a throw is pending), None before the first throw.
        throws: throws made this turn.
        pending: number of dice thrown and not yet landed (a chance node when > 0).
        sharp: whether the dice on the table all came from one throw of all dice.
        announced: the box index announced in the announced column this turn, if any.
        keeper: score-keeper mode: the table supplies the final dice with ``enter``.
    """

    _game_word: ClassVar[str] = "sheet"
    _kind: ClassVar[GameKind] = GameKind.SHEET

    rules: RuleSet
    players: tuple[str, ...]
    sheets: tuple[PlayerSheet, ...]
    current: int = 0
    turn: int = 0
    dice: tuple[int, ...] | None = None
    throws: int = 0
    pending: int = 0
    sharp: bool = False
    announced: int | None = None
    keeper: bool = False
    end_turn: int = field(default=-1, compare=False, repr=False)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: RuleSet, players: Sequence[str], keeper: bool = False) -> GameState:
        """A new game: every box of every player open, first player to throw.

        Raises:
            IllegalActionError: wrong number of players, or duplicate or empty names.
        """
        names = check_players(rules, players)
        empty = ColumnSheet(tuple(None for _ in rules.categories))
        sheet = PlayerSheet(tuple(empty for _ in rules.columns))
        return cls(rules=rules, players=names, sheets=tuple(sheet for _ in names), keeper=keeper)

    def __post_init__(self) -> None:
        if self.end_turn < 0:
            object.__setattr__(self, "end_turn", len(self.players) * self.rules.turns_per_player)

    # -- queries ------------------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (every sheet full)."""
        return self.turn >= self.end_turn

    @property
    def throws_left(self) -> int:
        """Throws the current player may still make this turn."""
        return self.rules.throws - self.throws

    @property
    def round(self) -> int:
        """1-based round number (each player takes one turn per round)."""
        return self.turn // len(self.players) + 1

    def column_totals(self, player: int, column: int = 0) -> ColumnTotals:
        """Totals of one column of one player's sheet."""
        col = self.sheets[player].columns[column]
        return column_totals(self.rules, col.scores, col.extra)

    def total(self, player: int) -> int:
        """A player's grand total: every column's boxes, upper bonus and extra points."""
        return sum(self.column_totals(player, c).total for c in range(self.rules.n_columns))

    def score_options(self, column: int | None = None) -> tuple[tuple[int, BoxOption], ...]:
        """Every (column, entry) the current dice may fill now, with what it pays.

        Args:
            column: only this 0-based column (default: every column).
        """
        if self.dice is None or self.pending or self.is_terminal:
            return ()
        counts = counts_of(self.dice, self.rules.faces)
        sheet = self.sheets[self.current]
        out: list[tuple[int, BoxOption]] = []
        for c, order in enumerate(self.rules.columns):
            if column is not None and c != column:
                continue
            col = sheet.columns[c]
            if order is Order.ANNOUNCED:
                if self.announced is None:
                    continue
                opts = score_options(self.rules, order, col.scores, counts, self.sharp)
                out.extend((c, o) for o in opts if o.index == self.announced)
                continue
            opts = score_options(self.rules, order, col.scores, counts, self.sharp)
            if self.announced is not None:
                # An announced turn ends in the announced box or by crossing out a box elsewhere.
                opts = tuple(BoxOption(o.index, 0) for o in opts)
            out.extend((c, o) for o in opts)
        return tuple(out)

    def score_action(self, column: int, box: int | str) -> Score:
        """The action that enters the dice in a box, e.g. ``score_action(0, "yahtzee")``.

        Args:
            column: the 0-based column (0 for single-column games, whose actions name no column).
            box: the box's 0-based index in sheet order, or its id.

        Returns:
            The :class:`Score` action (``score yahtzee``, or ``score 2:yahtzee`` in a multi-column game);
            whether it is legal now is for :meth:`is_legal` to say.

        Raises:
            InvalidActionError: no such column or box.
        """
        rules = self.rules
        if not 0 <= column < rules.n_columns:
            raise InvalidActionError(f"column {column}: {rules.name} has columns 0 to {rules.n_columns - 1}")
        if isinstance(box, str):
            if not rules.has_category(box):
                raise InvalidActionError(f"no box {box!r} in {rules.name}; boxes: {', '.join(rules.category_ids)}")
            box = rules.category_index(box)
        elif not 0 <= box < len(rules.categories):
            raise InvalidActionError(f"box {box}: {rules.name} has boxes 0 to {len(rules.categories) - 1}")
        return _score_table(rules)[0][column][box]

    @property
    def can_roll(self) -> bool:
        """Whether ``roll`` is allowed now (the turn's first throw; never in score-keeper mode).

        What :meth:`legal_actions` holds, without listing it (a view asks this after every action)."""
        return not self.pending and self.dice is None and not self.keeper and not self.is_terminal

    @property
    def can_keep(self) -> bool:
        """Whether a ``keep`` (a throw of the other dice) is allowed now: dice on the table, a throw left and no
        announcement due (:meth:`must_announce`). Without listing the keeps as :meth:`legal_actions` does."""
        return (
            not self.pending
            and self.dice is not None
            and self.throws < self.rules.throws
            and not self.is_terminal
            and not self.must_announce()
        )

    def announcements(self) -> tuple[Announce, ...]:
        """The announcements allowed now, sorted (kniffel-4's announced column; empty elsewhere): the ``announce``
        actions of :meth:`legal_actions`, without listing the others."""
        if self.pending or self.is_terminal:
            return ()
        return self._announce_actions()

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action allowed now, sorted (chance nodes list every throw outcome)."""
        if self.is_terminal:
            return ()
        if self.pending:
            return tuple(t for t, _ in throw_outcomes(self.pending, self.rules.faces))
        if self.dice is None:
            if self.keeper:
                if self.must_announce():
                    return self._announce_actions()
                return _enters(self.rules.dice, self.rules.faces, self.rules.sharp) + self._announce_actions()
            return (Roll(),)
        if self.must_announce():
            return self._announce_actions()
        # Kinds are concatenated in their sort order (keep < announce < score), each group sorted.
        keeps: tuple[Action, ...] = _keeps(self.dice) if self.throws < self.rules.throws else ()
        table, rank = _score_table(self.rules)
        rules = self.rules
        counts = counts_of(self.dice, rules.faces)
        if rules.announced_column is None and (rules.five_alike_index is None or max(counts) < rules.dice):
            # No joker can restrict the choice: the legal boxes are those the fill order allows.
            columns = self.sheets[self.current].columns
            alpha = _alpha_order(rules)
            scores = tuple(
                table[c][i]
                for c, order in enumerate(rules.columns)
                for i in _in_alpha(fill_candidates(rules, order, columns[c].scores), alpha)
            )
            return keeps + scores
        opts = sorted((c, rank[o.index], o.index) for c, o in self.score_options())
        scores = tuple(table[c][i] for c, _, i in opts)
        return keeps + self._announce_actions() + scores

    def _announce_window(self) -> bool:
        """Announcing is possible right after the first throw (keeper mode: before entering the dice)."""
        if self.announced is not None:
            return False
        if self.keeper:
            return self.dice is None
        return self.dice is not None and self.throws == 1

    def must_announce(self) -> bool:
        """Whether the player to act must announce a box now (before keeping, entering or scoring).

        True when only the announced column (kniffel-4) has open boxes and the announcement window is open:
        right after the first throw, or in score-keeper mode before the dice are entered.
        """
        if self.rules.announced_column is None or not self._announce_window():
            return False
        sheet = self.sheets[self.current]
        orders = self.rules.columns
        has_announced = any(o is Order.ANNOUNCED for o in orders)
        others_full = all(sheet.columns[c].is_full for c, o in enumerate(orders) if o is not Order.ANNOUNCED)
        return has_announced and others_full

    def _announce_actions(self) -> tuple[Announce, ...]:
        if self.rules.announced_column is None or not self._announce_window():
            return ()
        out: list[Announce] = []
        for c, order in enumerate(self.rules.columns):
            if order is Order.ANNOUNCED:
                col = self.sheets[self.current].columns[c]
                out.extend(Announce(self.rules.categories[i].id) for i, s in enumerate(col.scores) if s is None)
        return tuple(sorted(out, key=Announce.sort_key))

    # -- text ---------------------------------------------------------------------------------
    def to_text(self) -> str:
        """The one-line position text (``pasch1 ...``) that :meth:`from_text` reads back.

        See :mod:`pasch.engine._position` (and docs/position.md) for the grammar.
        """
        sheets = "/".join("|".join(_column_text(c) for c in sheet.columns) for sheet in self.sheets)
        flags = []
        if self.sharp:
            flags.append("sharp")
        if self.announced is not None:
            flags.append(f"announced={self.rules.categories[self.announced].id}")
        dice = dice_text(self.dice, self.pending)
        tail = f"{self.current} {self.turn} {dice} {self.throws} {','.join(flags) or '-'}"
        return f"{head_text(self)} {sheets} {tail}"

    @classmethod
    def _read(cls, rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> GameState:
        """The state a sheet body's fields describe (the head gave the rest).

        Raises:
            PositionError: a malformed field, or fields that contradict each other.
        """
        check_fields(parts, ("sheets", "seat", "turn", "dice", "throws", "flags"), what="a sheet position")
        sheets_text, seat_text, turn_text, dice_field, throws_text, flags_text = parts
        n = len(names)
        sheets = []
        for p, sheet_text in enumerate(per_player(sheets_text, n, "sheets")):
            cols = sheet_text.split("|")
            if len(cols) != rules.n_columns:
                raise PositionError(f"{names[p]}'s sheet has {len(cols)} columns, {rules.name} has {rules.n_columns}")
            sheets.append(
                PlayerSheet(tuple(_read_column(c, rules, f"{names[p]}'s column {k + 1}") for k, c in enumerate(cols)))
            )
        end = n * rules.turns_per_player
        seat = in_range(read_number(seat_text, "seat"), 0, n - 1, "seat")
        turn = in_range(read_number(turn_text, "turn"), 0, end, "turn")
        for p, sheet in enumerate(sheets):
            taken = turn // n + (1 if p < turn % n else 0)
            filled = sum(len(c.scores) - c.open_count for c in sheet.columns)
            if filled != taken:
                raise PositionError(f"{names[p]} has {filled} boxes filled after {taken} turns of their own")
        if seat != turn % n:
            raise PositionError(f"after {turn} turns it is seat {turn % n}'s turn, not seat {seat}'s")
        dice, pending = read_dice(dice_field, rules.faces, "dice")
        if dice is not None and len(dice) + pending > rules.dice:
            raise PositionError(f"dice {dice_field!r}: {rules.name} is played with {rules.dice} dice")
        if dice is not None and not pending and len(dice) != rules.dice:
            raise PositionError(f"dice {dice_field!r}: {rules.dice} dice lie on the table after a throw")
        throws = in_range(read_number(throws_text, "throws"), 0, rules.throws, "throws")
        sharp = False
        announced = None
        if flags_text != "-":
            for flag in flags_text.split(","):
                if flag == "sharp":
                    sharp = True
                elif flag.startswith("announced="):
                    box = flag.partition("=")[2]
                    if rules.announced_column is None or not rules.has_category(box):
                        raise PositionError(f"flag {flag!r}: {rules.name} has no announced column or no box {box!r}")
                    announced = rules.category_index(box)
                else:
                    raise PositionError(f"unknown flag {flag!r} (flags: sharp, announced=BOX)")
        return cls(rules, names, tuple(sheets), seat, turn, dice, throws, pending, sharp, announced, keeper)

    def __str__(self) -> str:
        """The engine's debug view of the position (every column's sums, a lower sum among them). The sheet
        people see is :func:`pasch.app.sheet_rows` / :func:`pasch.app.sheet_layout`, whose rows this view does
        not follow."""
        return _draw(self)

    # -- transitions --------------------------------------------------------------------------
    def apply(self, action: Action | str, player: int | None = None) -> GameState:
        """Apply an action and return the new state.

        Args:
            action: an :class:`Action` or its text.
            player: if given, the seat that sends the action; it must be the player to act.

        Raises:
            InvalidActionError: malformed action text, or a box or die that does not exist.
            IllegalActionError: a well-formed action the rules do not allow now.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if self.is_terminal:
            raise IllegalActionError(f"{str(action)!r}: the game is over")
        if player is not None and player != self.current and not isinstance(action, Throw):
            raise IllegalActionError(
                f"{str(action)!r}: it is {self.players[self.current]}'s turn, not {self._name(player)}'s"
            )
        if isinstance(action, Throw):
            return self._apply_throw(action)
        if self.pending:
            raise IllegalActionError(f"{str(action)!r}: {self.pending} dice are still in the air")
        if self.must_announce() and isinstance(action, Keep | Enter | Score):
            raise IllegalActionError(
                f"{str(action)!r}: only the announced column has open boxes; announce one of its boxes first"
            )
        if isinstance(action, Roll):
            return self._apply_roll(action)
        if isinstance(action, Keep):
            return self._apply_keep(action)
        if isinstance(action, Enter):
            return self._apply_enter(action)
        if isinstance(action, Announce):
            return self._apply_announce(action)
        if isinstance(action, Score):
            return self._apply_score(action)
        raise IllegalActionError(f"{str(action)!r} is not an action of {self.rules.name}")

    def _apply_roll(self, action: Roll) -> GameState:
        if self.keeper:
            raise IllegalActionError("'roll': this is a score-keeper game; enter the dice thrown at the table")
        if self.dice is not None:
            raise IllegalActionError(
                f"'roll': the dice are already thrown ({_show(self.dice)}); keep some and throw again, or score"
            )
        return replace(self, dice=(), pending=self.rules.dice, sharp=False)

    def _apply_keep(self, action: Keep) -> GameState:
        if self.dice is None:
            raise IllegalActionError(f"{str(action)!r}: no dice thrown yet this turn; 'roll' first")
        if self.keeper:
            raise IllegalActionError(f"{str(action)!r}: in score-keeper mode only the final dice are entered")
        if self.throws >= self.rules.throws:
            raise IllegalActionError(
                f"{str(action)!r}: no throws left ({self.throws} of {self.rules.throws} used); score a box"
            )
        if not _is_sub_multiset(action.dice, self.dice):
            raise IllegalActionError(f"{str(action)!r}: the dice on the table are {_show(self.dice)}")
        if len(action.dice) == len(self.dice):
            raise IllegalActionError(f"{str(action)!r} keeps every die, so nothing is thrown; score a box instead")
        return GameState(
            self.rules,
            self.players,
            self.sheets,
            self.current,
            self.turn,
            action.dice,
            self.throws,
            len(self.dice) - len(action.dice),
            self.sharp,
            self.announced,
            self.keeper,
            self.end_turn,
        )

    def _apply_throw(self, action: Throw) -> GameState:
        if not self.pending:
            raise IllegalActionError(f"{str(action)!r}: no dice are in the air")
        if len(action.dice) != self.pending:
            raise InvalidActionError(f"{str(action)!r}: {self.pending} dice were thrown, not {len(action.dice)}")
        if any(not 1 <= d <= self.rules.faces for d in action.dice):
            raise InvalidActionError(f"{str(action)!r}: dice show 1 to {self.rules.faces}")
        kept = self.dice or ()
        return GameState(
            self.rules,
            self.players,
            self.sheets,
            self.current,
            self.turn,
            tuple(sorted(kept + action.dice)),
            self.throws + 1,
            0,
            not kept,
            self.announced,
            self.keeper,
            self.end_turn,
        )

    def _apply_enter(self, action: Enter) -> GameState:
        text = str(action)
        if not self.keeper:
            raise IllegalActionError(f"{text!r}: dice are entered only in score-keeper mode; 'roll' instead")
        if self.dice is not None:
            raise IllegalActionError(f"{text!r}: the dice of this turn are already entered; score a box")
        if len(action.dice) != self.rules.dice:
            raise InvalidActionError(f"{text!r}: exactly {self.rules.dice} dice are needed, not {len(action.dice)}")
        if any(not 1 <= d <= self.rules.faces for d in action.dice):
            raise InvalidActionError(f"{text!r}: dice show 1 to {self.rules.faces}")
        if action.sharp and not self.rules.sharp:
            raise IllegalActionError(f"{text!r}: {self.rules.name} has no sharp rule")
        return replace(self, dice=action.dice, throws=self.rules.throws, sharp=action.sharp)

    def _apply_announce(self, action: Announce) -> GameState:
        text = str(action)
        columns = [c for c, o in enumerate(self.rules.columns) if o is Order.ANNOUNCED]
        if not columns:
            raise IllegalActionError(f"{text!r}: {self.rules.name} has no announced column")
        if not self.rules.has_category(action.category):
            raise InvalidActionError(f"{text!r}: no box {action.category!r} in {self.rules.name}")
        if self.announced is not None:
            announced = self.rules.categories[self.announced].id
            raise IllegalActionError(f"{text!r}: {announced} is already announced this turn")
        if not self._announce_window():
            if self.keeper:
                raise IllegalActionError(f"{text!r}: in score-keeper mode announce before entering the dice")
            when = "before the first throw" if self.dice is None else f"after throw {self.throws}"
            raise IllegalActionError(f"{text!r}: announce right after the first throw, not {when}")
        index = self.rules.category_index(action.category)
        col = self.sheets[self.current].columns[columns[0]]
        if col.scores[index] is not None:
            raise IllegalActionError(
                f"{text!r}: {action.category} of column {columns[0] + 1} is already filled ({col.scores[index]})"
            )
        return replace(self, announced=index)

    def _apply_score(self, action: Score) -> GameState:
        text = str(action)
        rules = self.rules
        if not rules.has_category(action.category):
            raise InvalidActionError(
                f"{text!r}: no box {action.category!r} in {rules.name}; boxes: {', '.join(rules.category_ids)}"
            )
        if self.dice is None:
            raise IllegalActionError(f"{text!r}: no dice thrown yet this turn; 'roll' first")
        if rules.n_columns > 1 and action.column is None:
            raise InvalidActionError(f"{text!r}: say which column, e.g. 'score 1:{action.category}'")
        column = (action.column or 1) - 1
        if not 0 <= column < rules.n_columns:
            raise InvalidActionError(f"{text!r}: {rules.name} has {rules.n_columns} column(s)")
        index = rules.category_index(action.category)
        col = self.sheets[self.current].columns[column]
        option = self._entry(column, index)
        if option is not None:
            return self._fill(column, option)
        raise IllegalActionError(f"{text!r}: {self._why_not(column, index, col)}")

    def _entry(self, column: int, index: int) -> BoxOption | None:
        """What entering the dice in (column, box) pays, or None if that is not allowed now."""
        rules = self.rules
        order = rules.columns[column]
        if order is Order.ANNOUNCED or self.announced is not None:
            for _, option in self.score_options(column):
                if option.index == index:
                    return option
            return None
        counts = counts_of(self.dice or (), rules.faces)
        scores = self.sheets[self.current].columns[column].scores
        return entry_option(rules, order, scores, counts, self.sharp, index)

    def _why_not(self, column: int, index: int, col: ColumnSheet) -> str:
        rules = self.rules
        where = f" in column {column + 1}" if rules.n_columns > 1 else ""
        if col.scores[index] is not None:
            return f"{rules.categories[index].id}{where} is already filled ({col.scores[index]})"
        order = rules.columns[column]
        if order is Order.ANNOUNCED:
            if self.announced is None:
                return f"column {column + 1} takes only a box announced after the first throw"
            return f"{rules.categories[self.announced].id} was announced for column {column + 1}"
        if order in (Order.DOWN, Order.UP):
            open_boxes = [i for i, s in enumerate(col.scores) if s is None]
            nxt = open_boxes[0] if order is Order.DOWN else open_boxes[-1]
            return f"boxes{where} are filled {order.value}; the next is {rules.categories[nxt].id}"
        return f"the five-alike joker rule requires another box now ({self._joker_hint(column)})"

    def _joker_hint(self, column: int) -> str:
        names = [self.rules.categories[o.index].id for c, o in self.score_options() if c == column]
        return "allowed: " + ", ".join(names)

    def _fill(self, column: int, option: BoxOption) -> GameState:
        sheet = self.sheets[self.current]
        col = sheet.columns[column]
        scores = list(col.scores)
        scores[option.index] = option.points
        new_col = ColumnSheet(
            scores=tuple(scores),
            extra=col.extra + option.extra,
            doubled=col.doubled | {option.index} if option.doubled else col.doubled,
        )
        columns = tuple(new_col if c == column else old for c, old in enumerate(sheet.columns))
        sheets = tuple(PlayerSheet(columns) if p == self.current else s for p, s in enumerate(self.sheets))
        return GameState(
            self.rules,
            self.players,
            sheets,
            (self.current + 1) % len(self.players),
            self.turn + 1,
            None,
            0,
            0,
            False,
            None,
            self.keeper,
            self.end_turn,
        )


def _show(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice) if dice else "none"


# -- position text of a column ------------------------------------------------------------------


def _column_text(col: ColumnSheet) -> str:
    boxes = ",".join("-" if s is None else f"{s}*" if i in col.doubled else str(s) for i, s in enumerate(col.scores))
    return f"{boxes}+{col.extra}" if col.extra else boxes


def _read_column(token: str, rules: RuleSet, where: str) -> ColumnSheet:
    boxes, plus, extra_text = token.partition("+")
    extra = read_number(extra_text, f"{where}: extra points") if plus else 0
    if plus and not extra:
        raise PositionError(f"{where}: no extra points are written as nothing, not '+0'")
    parts = boxes.split(",")
    if len(parts) != len(rules.categories):
        raise PositionError(f"{where} has {len(parts)} boxes, {rules.name} has {len(rules.categories)}")
    scores: list[int | None] = []
    doubled: set[int] = set()
    for i, part in enumerate(parts):
        if part == "-":
            scores.append(None)
            continue
        if part.endswith("*"):
            part = part[:-1]
            doubled.add(i)
        scores.append(read_number(part, f"{where}, box {rules.categories[i].id}:"))
    return ColumnSheet(tuple(scores), extra, frozenset(doubled))


# -- plain-text drawing (str(state)) ------------------------------------------------------------

_ORDER_LABEL = {"free": "free", "down": "down", "up": "up", "announced": "ann."}


def _spaced(dice: tuple[int, ...]) -> str:
    return " ".join(str(d) for d in dice)


def _status(state: GameState) -> str:
    if state.is_terminal:
        out = state.outcome()
        return "game over; won by " + ", ".join(out.winners) + f" with {max(out.totals)}"
    where = f"round {state.round}, {state.current_name} to act"
    if state.dice is None:
        what = "enter the dice" if state.keeper else "roll"
    elif state.pending:
        kept = f"kept {_spaced(state.dice)}, " if state.dice else ""
        what = f"{kept}{state.pending} dice in the air (throw {state.throws + 1} of {state.rules.throws})"
    else:
        what = f"dice {_spaced(state.dice)}" + (" sharp" if state.sharp and state.rules.sharp else "")
        if not state.keeper:
            what += f" (throw {state.throws} of {state.rules.throws})"
    if state.announced is not None:
        what += f"; announced {state.rules.categories[state.announced].id}"
    return f"{where}: {what}"


def _draw(state: GameState) -> str:
    """Every player's sheet (boxes, sums, bonus, extra points, totals), then the dice and whose turn it is.

    Open boxes show ``-``; ``*`` marks a box doubled by ``+sharp``; ``>`` marks the player to act.
    """
    rules = state.rules
    n_cols = rules.n_columns
    cells: list[tuple[int, int]] = [(p, c) for p in range(len(state.players)) for c in range(n_cols)]
    totals = {(p, c): state.column_totals(p, c) for p, c in cells}
    rows: list[tuple[str, list[str]]] = []

    def box(p: int, c: int, i: int) -> str:
        col = state.sheets[p].columns[c]
        s = col.scores[i]
        if s is None:
            return "-"
        return f"{s}*" if i in col.doubled else str(s)

    upper = rules.upper_indices
    lower = [i for i in range(len(rules.categories)) if i not in upper]
    for i in upper:
        rows.append((rules.categories[i].id, [box(p, c, i) for p, c in cells]))
    if upper:
        rows.append(("upper sum", [str(totals[k].upper) for k in cells]))
        if rules.bonus_threshold is not None:
            rows.append((f"bonus ({rules.bonus} at {rules.bonus_threshold})", [str(totals[k].bonus) for k in cells]))
    for i in lower:
        rows.append((rules.categories[i].id, [box(p, c, i) for p, c in cells]))
    rows.append(("lower sum", [str(totals[k].lower) for k in cells]))
    if any(totals[k].extra for k in cells) or rules.extra.value != "none":
        rows.append(("extra", [str(totals[k].extra) for k in cells]))
    rows.append(("total", [str(totals[k].total) for k in cells]))
    if n_cols > 1:
        rows.append(("grand total", [str(state.total(p)) if c == n_cols - 1 else "" for p, c in cells]))

    mark = "" if state.is_terminal else ">"
    names = [(mark if p == state.current else "") + name for p, name in enumerate(state.players)]
    width = max(5, *(len(v) for _, vals in rows for v in vals))
    if n_cols == 1:
        width = max(width, *(len(n) for n in names))
    label = max(len(r[0]) for r in rows)
    header = [" " * label + "".join(f" {n:>{width * n_cols + n_cols - 1}}" for n in names)]
    if n_cols > 1:
        orders = [_ORDER_LABEL[o.value] for o in rules.columns]
        header.append(" " * label + "".join(f" {orders[c]:>{width}}" for _, c in cells))
    body = [f"{name:<{label}}" + "".join(f" {v:>{width}}" for v in vals) for name, vals in rows]
    title = f"{rules.name} ({rules.id})" + (", score keeper" if state.keeper else "")
    return "\n".join([title, *header, *body, _status(state)])
