"""Every worked example of RULES.md ("Worked examples from the seeds"), except Knaster's (engine tests)."""

from __future__ import annotations

import pytest

from pasch.dice import parse_dice
from pasch.rules import column_totals, get

from ._helpers import options, sheet


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee"])
@pytest.mark.parametrize(
    ("category", "points"),
    [("fives", 15), ("threes", 6), ("three_of_a_kind", 21), ("full_house", 25)],
)
def test_3_3_5_5_5(rules_id: str, category: str, points: int) -> None:
    rules = get(rules_id)
    assert options(rules, sheet(rules), (3, 3, 5, 5, 5))[category].points == points


@pytest.mark.parametrize(
    ("dice", "category", "points"),
    [
        ("1-3-4-6-1", "ones", 2),
        ("2-1-2-2-1", "twos", 6),
        ("3-1-3-4-3", "threes", 9),
        ("4-1-2-2-1", "fours", 4),
        ("5-1-5-5-1", "fives", 15),
        ("6-3-2-6-1", "sixes", 12),
        ("2-3-4-5-2", "small_straight", 30),
        ("1-2-3-4-6", "small_straight", 30),
    ],
)
def test_yahtzee_seed_examples(dice: str, category: str, points: int) -> None:
    rules = get("yahtzee")
    values = parse_dice(dice.replace("-", " "))
    assert options(rules, sheet(rules), values)[category].points == points


def test_kniffel_extra_kniffel_of_five_fives_in_open_fives() -> None:
    rules = get("kniffel")
    scores = sheet(rules, yahtzee=50)
    opt = options(rules, scores, (5, 5, 5, 5, 5))["fives"]
    assert (opt.points, opt.extra) == (25, 50)
    scores[rules.category_index("fives")] = opt.points
    totals = column_totals(rules, scores, opt.extra)
    assert (totals.upper, totals.lower, totals.extra, totals.total) == (25, 50, 50, 125)
