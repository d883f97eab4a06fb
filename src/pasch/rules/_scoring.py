"""Scoring in context: which boxes of a column the dice may fill now, and what each entry pays.

This is where the joker, extra-five-alike, strict and sharp rules live, once, as functions of the rule
set's data. The engine calls them for play; the solver's reference implementation calls them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pasch.rules._ruleset import ExtraPolicy, JokerPolicy, Order, RuleSet
from pasch.rules._scorers import ScorerKind

__all__ = ["BoxOption", "ColumnTotals", "column_totals", "entry_option", "fill_candidates", "score_options"]

Scores = Sequence[int | None]


@dataclass(frozen=True, slots=True)
class BoxOption:
    """One box the dice may be entered in, and what the entry pays.

    Attributes:
        index: the box's index in sheet order.
        points: the box's value (counts toward the upper bonus for upper boxes).
        extra: extra five-alike points earned by this entry (never counted toward the bonus).
        joker: whether the five-alike was used as a joker (full value in a box it does not satisfy).
        doubled: whether ``+sharp`` doubled the box's value.
    """

    index: int
    points: int
    extra: int = 0
    joker: bool = False
    doubled: bool = False

    @property
    def total(self) -> int:
        """Points plus extra points."""
        return self.points + self.extra


@dataclass(frozen=True, slots=True)
class ColumnTotals:
    """The running totals of one column."""

    upper: int
    bonus: int
    lower: int
    extra: int

    @property
    def total(self) -> int:
        """Column grand total: upper + bonus + lower + extra."""
        return self.upper + self.bonus + self.lower + self.extra


_PLAIN: dict[tuple[int, int], BoxOption] = {}
"""Plain entries (no extra, joker or doubling) by (box, points): immutable, so one object serves every caller; a
frozen dataclass costs a setattr per field to build, and a view asks for every open box's entry after each throw.
Bounded by the boxes and their values (a few thousand at most)."""


def _plain(index: int, points: int) -> BoxOption:
    key = (index, points)
    option = _PLAIN.get(key)
    if option is None:
        option = _PLAIN[key] = BoxOption(index, points)
    return option


def fill_candidates(rules: RuleSet, order: Order, scores: Scores) -> tuple[int, ...]:
    """The open boxes a column's fill order allows now (before any joker restriction).

    ``ANNOUNCED`` columns list every open box; the engine restricts them to the announced one.
    """
    open_boxes = tuple(i for i, s in enumerate(scores) if s is None)
    if not open_boxes:
        return ()
    if order is Order.DOWN:
        return open_boxes[:1]
    if order is Order.UP:
        return open_boxes[-1:]
    return open_boxes


def score_options(
    rules: RuleSet,
    order: Order,
    scores: Scores,
    counts: tuple[int, ...],
    sharp: bool = False,
) -> tuple[BoxOption, ...]:
    """Every box of one column the dice may be entered in now, with what each entry pays.

    Args:
        rules: the rule set.
        order: the column's fill order.
        scores: the column's boxes in sheet order, None where open.
        counts: face counts of the dice (index 0 counts the ones).
        sharp: whether the dice all came from one throw of all the dice.

    Returns:
        The legal entries in sheet order. Empty when the column is full.
    """
    candidates = fill_candidates(rules, order, scores)
    if not candidates:
        return ()
    cats = rules.categories
    y = rules.five_alike_index
    n_dice = sum(counts)
    five_alike = y is not None and n_dice > 0 and max(counts) == n_dice
    if not five_alike:
        # The common case: no joker, strict or extra rule can apply; only sharp doubling.
        base = rules.base_scores(counts)
        if not (sharp and rules.sharp):
            return tuple([_plain(i, base[i]) for i in candidates])
        return tuple(
            BoxOption(i, base[i] * 2, doubled=True) if base[i] and rules.doubles(i) else _plain(i, base[i])
            for i in candidates
        )
    y_value = scores[y] if y is not None else None
    face = counts.index(n_dice) + 1 if five_alike else 0
    match = rules.upper_index(face) if five_alike else None
    match_filled = match is not None and scores[match] is not None
    further = five_alike and y_value is not None  # a five-alike with the five-alike box already filled
    scored = further and (y_value or 0) > 0

    joker_active = False
    if further:
        j = rules.joker
        if j is JokerPolicy.SCHMIDT:
            joker_active = scored and (match is None or match_filled)
        elif j is JokerPolicy.FORCED:
            joker_active = match is None or match_filled
            if order is Order.FREE:
                # (An announced column's box is fixed by the announcement: no priority there.)
                # The official priority: the matching upper box, else a lower box, else an upper box.
                if match is not None and not match_filled:
                    candidates = tuple(i for i in candidates if i == match)
                else:
                    lower = tuple(i for i in candidates if not cats[i].is_upper)
                    if lower:
                        candidates = lower
        elif j is JokerPolicy.FREE:
            # Free choice of box, but full value in a lower box only once the matching upper box is
            # filled (the standard free-choice joker; Verhoeff's 254.5896 is computed under it).
            joker_active = match is None or match_filled

    out: list[BoxOption] = []
    for i in candidates:
        scorer = cats[i].scorer
        points = scorer.score(counts)
        joker = False
        as_full_house = rules.five_alike_full_house or (rules.joker is JokerPolicy.FULL_HOUSE and y_value == 0)
        if five_alike and scorer.kind is ScorerKind.FULL_HOUSE and as_full_house:
            points, joker = scorer.joker_score(counts), True
        if joker_active and not scorer.is_upper and i != y:
            joker = points != scorer.joker_score(counts) or joker
            points = scorer.joker_score(counts)
        doubled = sharp and rules.doubles(i) and points > 0
        if doubled:
            points *= 2
        extra = 0
        if scored:
            if rules.extra is ExtraPolicy.UPPER_50 and i == match:
                extra = 50
            elif rules.extra is ExtraPolicy.BONUS_100:
                extra = 100
            elif rules.extra is ExtraPolicy.FLAT_100:
                if scorer.is_upper:
                    extra = 100
                elif points < 100:
                    # A flat 100 replaces the ordinary score (which never reaches 100); not doubled.
                    points, doubled = 100, False
        out.append(BoxOption(index=i, points=points, extra=extra, joker=joker, doubled=doubled))
    return tuple(out)


def entry_option(
    rules: RuleSet,
    order: Order,
    scores: Scores,
    counts: tuple[int, ...],
    sharp: bool,
    index: int,
) -> BoxOption | None:
    """The entry of the dice in box ``index`` of a column, or None if that box may not be filled now.

    Equivalent to picking ``index`` out of :func:`score_options`, without building every option.
    """
    n_dice = sum(counts)
    if rules.five_alike_index is not None and n_dice > 0 and max(counts) == n_dice:
        for option in score_options(rules, order, scores, counts, sharp):
            if option.index == index:
                return option
        return None
    if index not in fill_candidates(rules, order, scores):
        return None
    points = rules.base_scores(counts)[index]
    if sharp and rules.sharp and points and rules.doubles(index):
        return BoxOption(index, points * 2, doubled=True)
    return BoxOption(index, points)


def column_totals(rules: RuleSet, scores: Scores, extra: int = 0) -> ColumnTotals:
    """Upper sum, upper bonus, lower sum and extra points of one column."""
    upper = lower = 0
    for c, s in zip(rules.categories, scores, strict=True):
        if s is None:
            continue
        if c.is_upper:
            upper += s
        else:
            lower += s
    bonus = rules.bonus if rules.bonus_threshold is not None and upper >= rules.bonus_threshold else 0
    return ColumnTotals(upper=upper, bonus=bonus, lower=lower, extra=extra)
