"""The score sheet's layout as a view model: what every interface draws, computed once.

:func:`sheet_layout` reads a sheet game's state into rows (upper boxes, upper sum, bonus, lower boxes, extra
points, total, grand total) and one :class:`ColumnLayout` per (player, column) with every box, the sums, the
bonus progress (points still needed, whether it is still reachable, how the upper section stands against
par) and what the current dice would pay in each box the player may enter. Rich tables (``pasch replay``),
the Textual sheet and the web's JSON only render it: no interface adds up a column or decides a row.

Labels are not here: rows carry kinds and box indices; each interface words them in its language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pasch.engine import ColumnSheet, GameState
from pasch.rules import BoxOption, ExtraPolicy, Order, RuleSet, ScorerKind

__all__ = [
    "BonusProgress",
    "ColumnLayout",
    "LayoutCache",
    "LayoutRow",
    "RowKind",
    "SheetLayout",
    "sheet_layout",
    "sheet_rows",
]


class RowKind(StrEnum):
    """What a row of the sheet shows."""

    BOX = "box"
    UPPER_SUM = "upper_sum"
    BONUS = "bonus"
    EXTRA = "extra"
    TOTAL = "total"
    GRAND_TOTAL = "grand_total"


@dataclass(frozen=True, slots=True)
class LayoutRow:
    """A row: its kind, and the box index for box rows (``upper`` tells the box's section)."""

    kind: RowKind
    box: int | None = None
    upper: bool = False


@dataclass(frozen=True, slots=True)
class BonusProgress:
    """Where a column stands on the upper-section bonus.

    Attributes:
        threshold: upper points that earn the bonus.
        amount: the bonus.
        upper: upper points so far.
        earned: the bonus is earned.
        reachable: it can still be earned (even with the best remaining upper entries).
        decided: earned, or out of reach, or every upper box filled.
        need: points still needed (0 once earned).
        vs_par: upper points so far minus par for the filled upper boxes (par: the threshold shared among
            the face boxes in proportion to their faces, three of each face in a 63-point game).
    """

    threshold: int
    amount: int
    upper: int
    earned: bool
    reachable: bool
    decided: bool
    need: int
    vs_par: int


@dataclass(frozen=True, slots=True)
class ColumnLayout:
    """One column of one player's sheet.

    Attributes:
        player: the player's seat.
        column: the column (0-based).
        order: the column's fill order.
        scores: each box's value in sheet order, None while open.
        doubled: boxes that ``+sharp`` doubled.
        upper: upper sum.
        bonus: the bonus earned (points).
        lower: lower sum.
        extra: extra five-alike points.
        total: the column's total.
        upper_open: open boxes of the upper section.
        progress: the bonus progress (None in rule sets without a bonus).
    """

    player: int
    column: int
    order: Order
    scores: tuple[int | None, ...]
    doubled: frozenset[int]
    upper: int
    bonus: int
    lower: int
    extra: int
    total: int
    upper_open: int
    progress: BonusProgress | None


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Every player's sheet, laid out.

    Attributes:
        rules: the rule set.
        players: the player names.
        rows: the rows in drawing order.
        columns: one column layout per (player, column), player by player.
        current: the player to act, or None once the game is over.
        options: the current player's legal entries for the dice on the table, ``(column, box) -> option``.
        announced: the box announced this turn in the announced column, if any.
        grand_totals: each player's total over all columns.
        sharp_seen: a box anywhere was doubled by ``+sharp``.
    """

    rules: RuleSet
    players: tuple[str, ...]
    rows: tuple[LayoutRow, ...]
    columns: tuple[ColumnLayout, ...]
    current: int | None
    options: Mapping[tuple[int, int], BoxOption]
    announced: int | None
    grand_totals: tuple[int, ...]
    sharp_seen: bool

    @property
    def n_columns(self) -> int:
        """Columns per player."""
        return self.rules.n_columns

    def column(self, player: int, column: int = 0) -> ColumnLayout:
        """The layout of one player's column."""
        return self.columns[player * self.rules.n_columns + column]

    def player_columns(self, player: int) -> tuple[ColumnLayout, ...]:
        """A player's columns."""
        n = self.rules.n_columns
        return self.columns[player * n : (player + 1) * n]

    def row_of_box(self, box: int) -> int:
        """Index of a box's row."""
        return next(k for k, r in enumerate(self.rows) if r.box == box)

    def is_announced_box(self, column: int, box: int) -> bool:
        """Whether ``box`` of ``column`` is the box announced this turn (kniffel-4's announced column)."""
        return self.announced == box and self.rules.columns[column] is Order.ANNOUNCED


@dataclass(slots=True)
class LayoutCache:
    """Column layouts kept between states: a column whose object is the one seen before has the same layout
    (states are immutable and share the columns an action did not touch), so only the written column is
    computed again. One cache per game (a web room, a terminal screen)."""

    columns: dict[tuple[int, int], tuple[ColumnSheet, ColumnLayout]] = field(default_factory=dict)


_ROWS: dict[int, tuple[RuleSet, tuple[LayoutRow, ...]]] = {}
""":func:`sheet_rows` by ``id(rules)``; each entry holds its rule set, so the id stays its own while cached."""
_ROWS_MAX = 256


def sheet_rows(rules: RuleSet) -> tuple[LayoutRow, ...]:
    """The rows of a rule set's sheet, in drawing order: the upper boxes, the upper sum and the bonus (when the
    rule set has an upper section and a bonus), the lower boxes, the extra points (when a further five alike
    can earn any), the total, and the grand total of several columns. There is no "lower sum" row: the total
    row follows the lower boxes (the engine's ``str(state)`` is its own debug view and says so).

    Rule sets are frozen, so the rows are computed once per rule set object (every view asks for them). The
    cache is keyed by identity, not by equality: hashing a rule set costs about half of computing its rows."""
    hit = _ROWS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    rows = _sheet_rows(rules)
    if len(_ROWS) >= _ROWS_MAX:
        _ROWS.clear()
    _ROWS[id(rules)] = (rules, rows)
    return rows


def _sheet_rows(rules: RuleSet) -> tuple[LayoutRow, ...]:
    cats = rules.categories
    rows = [LayoutRow(RowKind.BOX, i, True) for i, c in enumerate(cats) if c.is_upper]
    if rows:
        rows.append(LayoutRow(RowKind.UPPER_SUM))
        if rules.bonus_threshold is not None:
            rows.append(LayoutRow(RowKind.BONUS))
    rows.extend(LayoutRow(RowKind.BOX, i, False) for i, c in enumerate(cats) if not c.is_upper)
    if rules.extra is not ExtraPolicy.NONE:
        rows.append(LayoutRow(RowKind.EXTRA))
    rows.append(LayoutRow(RowKind.TOTAL))
    if rules.n_columns > 1:
        rows.append(LayoutRow(RowKind.GRAND_TOTAL))
    return tuple(rows)


def _face_boxes(rules: RuleSet) -> tuple[tuple[int, int], ...]:
    """(box, face) of every upper box that counts one face."""
    return tuple(
        (i, rules.categories[i].scorer.face)
        for i in rules.upper_indices
        if rules.categories[i].scorer.kind is ScorerKind.FACE
    )


def _progress(rules: RuleSet, col: ColumnSheet, upper: int, bonus: int) -> BonusProgress | None:
    threshold = rules.bonus_threshold
    if threshold is None:
        return None
    faces = _face_boxes(rules)
    best = upper + sum(face * rules.dice for i, face in faces if col.scores[i] is None)
    reachable = bool(bonus) or best >= threshold
    face_sum = sum(face for _, face in faces) or 1
    filled = [(i, face) for i, face in faces if col.scores[i] is not None]
    par = round(sum(threshold * face / face_sum for _, face in filled))
    got = sum(col.scores[i] or 0 for i, _ in filled)
    all_filled = all(col.scores[i] is not None for i in rules.upper_indices)
    return BonusProgress(
        threshold=threshold,
        amount=rules.bonus,
        upper=upper,
        earned=bool(bonus),
        reachable=reachable,
        decided=bool(bonus) or not reachable or all_filled,
        need=0 if bonus else max(threshold - upper, 0),
        vs_par=got - par,
    )


def _column(state: GameState, player: int, column: int) -> ColumnLayout:
    rules = state.rules
    col = state.sheets[player].columns[column]
    t = state.column_totals(player, column)
    upper_open = sum(1 for i in rules.upper_indices if col.scores[i] is None)
    return ColumnLayout(
        player=player,
        column=column,
        order=rules.columns[column],
        scores=col.scores,
        doubled=col.doubled,
        upper=t.upper,
        bonus=t.bonus,
        lower=t.lower,
        extra=t.extra,
        total=t.total,
        upper_open=upper_open,
        progress=_progress(rules, col, t.upper, t.bonus),
    )


def sheet_layout(state: GameState, cache: LayoutCache | None = None) -> SheetLayout:
    """Lay out every player's sheet of a sheet game's state.

    Args:
        state: the state.
        cache: column layouts of the same game seen before (reused where a column did not change).
    """
    rules = state.rules
    columns: list[ColumnLayout] = []
    for p, sheet in enumerate(state.sheets):
        for c, col in enumerate(sheet.columns):
            hit = cache.columns.get((p, c)) if cache is not None else None
            if hit is not None and hit[0] is col:
                columns.append(hit[1])
                continue
            view = _column(state, p, c)
            if cache is not None:
                cache.columns[(p, c)] = (col, view)
            columns.append(view)
    current = None if state.is_terminal else state.current_player
    options = {(c, o.index): o for c, o in state.score_options()} if current is not None else {}
    n = rules.n_columns
    grand = tuple(sum(v.total for v in columns[p * n : (p + 1) * n]) for p in range(len(state.players)))
    return SheetLayout(
        rules=rules,
        players=state.players,
        rows=sheet_rows(rules),
        columns=tuple(columns),
        current=current,
        options=options,
        announced=state.announced,
        grand_totals=grand,
        sharp_seen=any(v.doubled for v in columns),
    )
