"""An independent brute-force scorer for an EMPTY sheet, written from RULES.md's category table alone.

It deliberately shares nothing with :mod:`pasch.rules`: it works on the five dice as a list, looks for
patterns by trying every sub-selection (``itertools.combinations``) or every ordering
(``itertools.permutations``), and knows each rule set only by the table below. It is slow and that is
fine: it runs once, in ``make_golden.py``, to write the golden files.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

Dice = Sequence[int]

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

SHEETS: dict[str, tuple[str, ...]] = {
    "kniffel": (
        *UPPER,
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ),
    "yatzy": (
        *UPPER,
        "one_pair",
        "two_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yahtzee",
    ),
    "yacht": (
        *UPPER,
        "full_house",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "chance",
        "yahtzee",
    ),
}
SHEETS["yahtzee"] = SHEETS["kniffel"]
SHEETS["kniffel-classic"] = SHEETS["kniffel"]

GOLDEN_RULES = ("kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht")


def _alike(dice: Dice) -> bool:
    return all(d == dice[0] for d in dice)


def _groups_alike(dice: Dice, size: int) -> list[tuple[int, ...]]:
    """Every choice of ``size`` dice (by position) that all show the same face."""
    return [c for c in itertools.combinations(dice, size) if _alike(c)]


def _is_full_house(dice: Dice) -> bool:
    # Some ordering reads AAABB with A != B.
    return any(p[0] == p[1] == p[2] and p[3] == p[4] and p[2] != p[3] for p in itertools.permutations(dice))


def _has_run(dice: Dice, length: int) -> bool:
    # Some selection of ``length`` dice, in some order, climbs by exactly one each step.
    return any(all(sel[i + 1] - sel[i] == 1 for i in range(length - 1)) for sel in itertools.permutations(dice, length))


def _exactly(dice: Dice, faces: Sequence[int]) -> bool:
    return any(list(p) == list(faces) for p in itertools.permutations(dice))


def _two_pairs_sum(dice: Dice) -> int:
    best = 0
    for four in itertools.combinations(dice, 4):
        for p in itertools.permutations(four):
            if p[0] == p[1] and p[2] == p[3] and p[1] != p[2]:
                best = max(best, sum(p))
    return best


def _yahtzee_family(cat: str, dice: Dice) -> int:
    total = sum(dice)
    if cat == "three_of_a_kind":
        return total if _groups_alike(dice, 3) else 0
    if cat == "four_of_a_kind":
        return total if _groups_alike(dice, 4) else 0
    if cat == "full_house":
        return 25 if _is_full_house(dice) else 0
    if cat == "small_straight":
        return 30 if _has_run(dice, 4) else 0
    if cat == "large_straight":
        return 40 if _has_run(dice, 5) else 0
    if cat == "yahtzee":
        return 50 if _alike(dice) else 0
    if cat == "chance":
        return total
    raise KeyError(cat)


def _yatzy(cat: str, dice: Dice) -> int:
    if cat == "one_pair":
        return max((sum(g) for g in _groups_alike(dice, 2)), default=0)
    if cat == "two_pairs":
        return _two_pairs_sum(dice)
    if cat == "three_of_a_kind":
        return max((sum(g) for g in _groups_alike(dice, 3)), default=0)
    if cat == "four_of_a_kind":
        return max((sum(g) for g in _groups_alike(dice, 4)), default=0)
    if cat == "full_house":
        return sum(dice) if _is_full_house(dice) else 0
    if cat == "small_straight":
        return 15 if _exactly(dice, (1, 2, 3, 4, 5)) else 0
    if cat == "large_straight":
        return 20 if _exactly(dice, (2, 3, 4, 5, 6)) else 0
    if cat == "yahtzee":
        return 50 if _alike(dice) else 0
    if cat == "chance":
        return sum(dice)
    raise KeyError(cat)


def _yacht(cat: str, dice: Dice) -> int:
    if cat == "full_house":
        return sum(dice) if _is_full_house(dice) else 0
    if cat == "four_of_a_kind":
        return max((sum(g) for g in _groups_alike(dice, 4)), default=0)
    if cat == "small_straight":
        return 30 if _exactly(dice, (1, 2, 3, 4, 5)) else 0
    if cat == "large_straight":
        return 30 if _exactly(dice, (2, 3, 4, 5, 6)) else 0
    if cat == "yahtzee":
        return 50 if _alike(dice) else 0
    if cat == "chance":
        return sum(dice)
    raise KeyError(cat)


_LOWER: dict[str, Callable[[str, Dice], int]] = {
    "kniffel": _yahtzee_family,
    "yahtzee": _yahtzee_family,
    "kniffel-classic": _yahtzee_family,
    "yatzy": _yatzy,
    "yacht": _yacht,
}


def brute_score(rules: str, dice: Dice, category: str) -> int:
    """Score of ``dice`` in box ``category`` of an empty ``rules`` sheet (0: the box is crossed out)."""
    if category not in SHEETS[rules]:
        raise KeyError(f"{rules} has no box {category}")
    if category in UPPER:
        face = UPPER.index(category) + 1
        return sum(d for d in dice if d == face)
    return _LOWER[rules](category, dice)


def all_throws() -> list[tuple[int, ...]]:
    """The 252 distinct throws of five dice, found the slow way: all 6**5 ordered throws, deduplicated."""
    return sorted({tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5)})
