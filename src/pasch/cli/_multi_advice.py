"""``pasch advise`` for the multi-column sheet games (jetsi, kniffel-3, kniffel-4): every option ranked by the
strongest bot's estimate of the final total (:func:`pasch.app.advise`), labelled as an estimate, not exact.

The sheet is given column by column, ``"1:ones=3 3:yahtzee=50"`` (columns numbered from 1, as in the action
``score 2:ones``); each column is checked as the solver checks a single-column sheet (a box value no throw
scores, a fill order broken), the announced column as a free one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pasch.cli._common import console, print_json
from pasch.cli._sheets import check_extra, parse_sheet, print_options
from pasch.errors import InvalidActionError
from pasch.rules import Order, RuleSet

__all__ = ["advise_multi", "parse_columns"]


def parse_columns(rules: RuleSet, text: str) -> list[tuple[list[int | None], int]]:
    """Parse ``"1:ones=3 2:twos=6 3:yahtzee=50 3:extra=100"`` (commas allowed) into the columns of one sheet, each
    its boxes (None = open) and its extra five-alike points: each column's entries as ``pasch advise`` reads a
    single-column sheet (:func:`pasch.cli._sheets.parse_sheet`, :func:`~pasch.cli._sheets.check_extra`).

    Raises:
        InvalidActionError: an entry without its column, a column the rule set does not have, or (naming the
            column) a box it does not have, a value that is not a number, a box given twice, or extra points the
            column cannot hold.
    """
    n = rules.n_columns
    entries: list[list[str]] = [[] for _ in range(n)]
    for item in text.replace(",", " ").split():
        col_text, colon, entry = item.partition(":")
        if not colon or "=" not in entry or "=" in col_text:
            raise InvalidActionError(
                f"sheet entry {item!r}: {rules.id} has {n} columns; write COLUMN:BOX=POINTS, e.g. 2:ones=3"
            )
        if not col_text.isdigit() or not 1 <= int(col_text) <= n:
            raise InvalidActionError(f"sheet entry {item!r}: the column is a number from 1 to {n}")
        entries[int(col_text) - 1].append(entry)
    cols: list[tuple[list[int | None], int]] = []
    for c, column in enumerate(entries):
        try:
            scores, extra = parse_sheet(rules, " ".join(column))
            check_extra(rules, scores, extra)
        except InvalidActionError as exc:
            raise InvalidActionError(f"column {c + 1}: {exc}") from None
        cols.append((scores, extra))
    return cols


def _check_columns(rules: RuleSet, cols: list[list[int | None]]) -> None:
    """Refuse a column no game can reach: each checked by the solver of its own order (the announced column as
    a free one; announcing decides which box, not which values a box can hold).

    Raises:
        InvalidActionError: the column, named by its number, and why.
    """
    from pasch.solver import check_sheet, shared_solver

    for c, (order, scores) in enumerate(zip(rules.columns, cols, strict=True)):
        if all(s is None for s in scores):
            continue
        single = Order.FREE if order is Order.ANNOUNCED else order
        column_rules = dataclasses.replace(rules, columns=(single,), id=f"{rules.id}.{single.value}")
        try:
            check_sheet(shared_solver(column_rules), scores)
        except InvalidActionError as exc:
            message = str(exc).replace(column_rules.id, rules.id)
            raise InvalidActionError(f"column {c + 1} ({order.value}): {message}") from None


def advise_multi(
    rules: RuleSet,
    roll: tuple[int, ...],
    rolls_left: int,
    sheet: str,
    sharp: bool | None,
    announced: str | None,
    as_json: bool,
) -> None:
    """Print every option of one player's turn in a multi-column game with the bot's estimate of the final total.

    Raises:
        InvalidActionError: a malformed or impossible sheet, a full sheet, or a wrong ``--announced``.
    """
    from pasch.app import advise
    from pasch.engine import ColumnSheet, GameState, PlayerSheet

    parsed = parse_columns(rules, sheet)
    cols = [scores for scores, _ in parsed]
    if all(s is not None for col in cols for s in col):
        raise InvalidActionError("the sheet is full: nothing is left to advise")
    box = _announced(rules, cols, announced, rolls_left)  # before the check, which may build the column tables
    _check_columns(rules, cols)
    filled = sum(s is not None for col in cols for s in col)
    state = GameState(
        rules,
        ("you",),
        (PlayerSheet(tuple(ColumnSheet(tuple(col), extra) for col, extra in parsed)),),
        turn=filled,
        dice=roll,
        throws=rules.throws - rolls_left,
        sharp=bool(sharp) and rules.sharp,
        announced=box,
    )
    advice = advise(state)
    total = state.total(0)
    valued = [(o, o.estimate) for o in advice.options if o.estimate is not None]
    if not valued:  # pragma: no cover - the bot values every option of a position with dice on the table
        raise InvalidActionError("the bot has no estimate for this position")
    best, top = valued[0]
    if as_json:
        print_json(
            {
                "rules": rules.id,
                "dice": list(roll),
                "rolls_left": rolls_left,
                "announced": announced,
                "exact": False,
                "source": advice.source,
                "total_now": total,
                "best": str(best.action),
                "options": [_json_option(o, estimate, total) for o, estimate in valued],
            }
        )
        return
    print_options(
        rules,
        roll,
        rolls_left,
        f", {announced} announced" if announced else "",
        ("estimated total", "vs best"),
        (
            (str(o.action), o.points, f"{estimate:.1f}", "best" if o is best else f"{estimate - top:+.1f}")
            for o, estimate in valued
        ),
        f"best: {best.action} (estimated final total {top:.1f}; now {total})",
    )
    console().print(
        "Not exact: the strongest bot's estimate (per-column exact values, slack and a learned correction, "
        "calibrated on self-play). Exact values exist for single-column rule sets only.",
        highlight=False,
    )


def _json_option(o: Any, estimate: float, total: int) -> dict[str, Any]:
    """One option as JSON: ``value`` the estimated rest (as for one column, where it is exact), ``estimate`` the
    estimated final total, ``delta`` against the best."""
    return {
        "action": str(o.action),
        "value": round(estimate - total, 4),
        "estimate": round(estimate, 4),
        "delta": round(o.delta, 4) if o.delta is not None else None,
        "points": o.points,
    }


def _announced(rules: RuleSet, cols: list[list[int | None]], announced: str | None, rolls_left: int) -> int | None:
    """The announced box's index (None: nothing announced).

    Raises:
        InvalidActionError: ``--announced`` for rules without an announced column, a box not open there, or no
            announcement where the position needs one (only the announced column open after the first throw).
    """
    column = rules.announced_column
    if announced is None:
        if column is not None and rolls_left < rules.throws - 1:
            others = all(s is not None for c, col in enumerate(cols) if c != column for s in col)
            if others:
                raise InvalidActionError(
                    f"only the announced column is open: a box was announced after the first throw; "
                    f"give it with --announced BOX (open there: {_open(rules, cols[column])})"
                )
        return None
    if column is None:
        raise InvalidActionError(f"--announced: {rules.id} has no announced column")
    if not rules.has_category(announced):
        raise InvalidActionError(f"--announced {announced!r}: not a box of {rules.id}")
    i = rules.category_index(announced)
    if cols[column][i] is not None:
        raise InvalidActionError(
            f"--announced {announced}: column {column + 1} has it filled already; open there: "
            f"{_open(rules, cols[column])}"
        )
    return i


def _open(rules: RuleSet, col: list[int | None]) -> str:
    return ", ".join(rules.categories[i].id for i, s in enumerate(col) if s is None) or "none"
