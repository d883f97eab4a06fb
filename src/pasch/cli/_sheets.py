"""What ``pasch advise`` reads and prints, for one column and several (:mod:`pasch.cli._multi_advice`): a sheet given
as text (``"ones=3 yahtzee=50 extra=100"``), checked against the rules, and the table of an advice's options."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pasch.cli._common import console
from pasch.errors import InvalidActionError
from pasch.rules import RuleSet

__all__ = ["EXTRA", "check_extra", "parse_sheet", "print_options"]


EXTRA = "extra"
"""The sheet entry of the extra five-alike points already earned (``extra=100``)."""


def parse_sheet(rules: RuleSet, text: str) -> tuple[list[int | None], int]:
    """Parse ``"ones=3 twos=6 yahtzee=50 extra=100"`` (commas allowed) into a column (None = open) and its extra
    five-alike points already earned beside the boxes (a Yahtzee bonus; 0 when not given). Only their form is
    checked here (:func:`check_extra` checks them against the rules and the boxes).

    Raises:
        InvalidActionError: a malformed entry, a box the rule set does not have, or a box (or ``extra``) given
            twice.
    """
    scores: list[int | None] = [None] * len(rules.categories)
    extra: int | None = None
    for item in text.replace(",", " ").split():
        box, sep, value = item.partition("=")
        if not sep:
            raise InvalidActionError(f"sheet entry {item!r}: write BOX=POINTS, e.g. ones=3")
        if box != EXTRA and not rules.has_category(box):
            raise InvalidActionError(
                f"{box!r} is not a box of {rules.id}; boxes: {', '.join(rules.category_ids)} (and {EXTRA}=POINTS)"
            )
        try:
            points = int(value)
        except ValueError:
            raise InvalidActionError(f"sheet entry {item!r}: {value!r} is not a number") from None
        if box == EXTRA:
            if extra is not None:
                raise InvalidActionError(f"sheet entry {item!r}: {EXTRA} is given twice")
            extra = points
            continue
        i = rules.category_index(box)
        if scores[i] is not None:
            raise InvalidActionError(f"sheet entry {item!r}: {box} is given twice")
        scores[i] = points
    return scores, extra or 0


def check_extra(rules: RuleSet, scores: Sequence[int | None], extra: int) -> None:
    """Refuse extra five-alike points a column cannot hold: a rule set that pays none, a sum that is not a number
    of further five-alikes, a five-alike box not scored, or more further five-alikes than boxes filled that could
    have taken them (Kniffel's 50 and the flat 100 come only with an upper box).

    Raises:
        InvalidActionError: what is wrong, in one line.
    """
    from pasch.rules import ExtraPolicy

    if extra == 0:
        return
    policy = rules.extra
    if policy is ExtraPolicy.NONE:
        raise InvalidActionError(f"{EXTRA}={extra}: {rules.id} pays no extra points for a further five-alike")
    unit = 50 if policy is ExtraPolicy.UPPER_50 else 100
    if extra < 0 or extra % unit:
        raise InvalidActionError(
            f"{EXTRA}={extra}: {rules.id} pays {unit} extra points for each further five-alike; "
            f"give a multiple of {unit}"
        )
    y = rules.five_alike_index
    assert y is not None  # a rule set with extra points has a five-alike box (RuleSet checks it)
    name = rules.categories[y].id
    if not scores[y]:
        raise InvalidActionError(
            f"{EXTRA}={extra}: extra points come only once the {name} box holds a score above 0 (give {name}=...)"
        )
    upper_only = policy is not ExtraPolicy.BONUS_100
    takers = [
        i for i, s in enumerate(scores) if s is not None and i != y and (rules.categories[i].is_upper or not upper_only)
    ]
    if extra // unit > len(takers):
        n = len(takers)
        where = f"upper box{'' if n == 1 else 'es'}" if upper_only else f"box{'' if n == 1 else 'es'} besides {name}"
        raise InvalidActionError(
            f"{EXTRA}={extra} means {extra // unit} further five-alikes, but only {n} {where} "
            f"{'is' if n == 1 else 'are'} filled"
        )


def print_options(
    rules: RuleSet,
    roll: tuple[int, ...],
    rolls_left: int,
    suffix: str,
    heads: Sequence[str],
    rows: Iterable[tuple[str, int | None, *tuple[str, ...]]],
    best: str,
) -> None:
    """An advice's table: the situation as its title (``suffix`` after it), each option with its points now and
    the cells of ``heads``, then the line ``best``."""
    from rich.table import Table

    rolls = f"{rolls_left} roll{'' if rolls_left == 1 else 's'} left"
    table = Table(title=f"{rules.id}: dice {' '.join(map(str, roll))}, {rolls}{suffix}")
    table.add_column("option")
    table.add_column("points now", justify="right")
    for head in heads:
        table.add_column(head, justify="right")
    for action, points, *cells in rows:
        table.add_row(action, "" if points is None else str(points), *cells)
    out = console()
    out.print(table)
    out.print(best, highlight=False)
