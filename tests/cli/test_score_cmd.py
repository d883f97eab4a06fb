"""``pasch score --rules ID CATEGORY D1 D2 D3 D4 D5``."""

from __future__ import annotations

import itertools
import json

import pytest

from pasch.dice import counts_of
from pasch.rules import Order, get, score_options

from ._helpers import Invoke, assert_bad_input

# The worked examples of RULES.md, through the command line.
EXAMPLES = [
    ("kniffel", "fives", "3 3 5 5 5", 15),
    ("kniffel", "threes", "3 3 5 5 5", 6),
    ("kniffel", "three_of_a_kind", "3 3 5 5 5", 21),
    ("kniffel", "full_house", "3 3 5 5 5", 25),
    ("yahtzee", "full_house", "3 3 5 5 5", 25),
    ("yahtzee", "ones", "1 3 4 6 1", 2),
    ("yahtzee", "twos", "2 1 2 2 1", 6),
    ("yahtzee", "threes", "3 1 3 4 3", 9),
    ("yahtzee", "fours", "4 1 2 2 1", 4),
    ("yahtzee", "fives", "5 1 5 5 1", 15),
    ("yahtzee", "sixes", "6 3 2 6 1", 12),
    ("yahtzee", "small_straight", "2 3 4 5 2", 30),
    ("yahtzee", "small_straight", "1 2 3 4 6", 30),
    ("yatzy", "full_house", "3 3 5 5 5", 21),
    ("yatzy", "small_straight", "1 2 3 4 5", 15),
    ("yatzy", "one_pair", "3 3 5 5 1", 10),
    ("yacht", "four_of_a_kind", "2 2 2 2 6", 8),
    ("kniffel", "yahtzee", "6 6 6 6 6", 50),
    ("kniffel", "large_straight", "1 2 3 4 6", 0),
]


@pytest.mark.parametrize(("rules", "box", "dice", "expected"), EXAMPLES)
def test_score_examples(invoke: Invoke, rules: str, box: str, dice: str, expected: int) -> None:
    result = invoke(["score", "--rules", rules, box, *dice.split()])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(expected)


def test_score_accepts_dice_as_one_word_and_defaults_to_kniffel(invoke: Invoke) -> None:
    assert invoke(["score", "full_house", "33555"]).stdout.strip() == "25"


def test_score_json(invoke: Invoke) -> None:
    result = invoke(["score", "--rules", "kniffel", "--json", "full_house", "5", "3", "5", "3", "5"])
    data = json.loads(result.stdout)
    assert data == {
        "rules": "kniffel",
        "category": "full_house",
        "dice": [3, 3, 5, 5, 5],
        "score": 25,
        "doubled": False,
    }


def test_score_sharp_doubles_only_with_the_rule(invoke: Invoke) -> None:
    assert invoke(["score", "--rules", "kniffel+sharp", "--sharp", "full_house", "33555"]).stdout.strip() == "50"
    assert invoke(["score", "--rules", "kniffel+sharp", "full_house", "33555"]).stdout.strip() == "25"
    assert invoke(["score", "--rules", "kniffel+sharp", "--sharp", "chance", "33555"]).stdout.strip() == "21"
    # without +sharp nothing is doubled, so --sharp is refused (as 'enter ... sharp' is in keeper mode)
    assert_bad_input(invoke(["score", "--rules", "kniffel", "--sharp", "full_house", "33555"]), "+sharp")


@pytest.mark.parametrize("rules", ["kniffel", "yatzy", "yacht"])
def test_score_agrees_with_the_rules_on_a_sample(invoke: Invoke, rules: str) -> None:
    rs = get(rules)
    throws = list(itertools.combinations_with_replacement(range(1, 7), 5))[::37]
    empty = tuple(None for _ in rs.categories)
    for dice in throws:
        options = {o.index: o.total for o in score_options(rs, Order.FREE, empty, counts_of(dice))}
        for i, box in enumerate(rs.category_ids):
            out = invoke(["score", "--rules", rules, box, *map(str, dice)]).stdout.strip()
            assert out == str(options[i]), (rules, box, dice)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--rules", "nope", "chance", "1", "2", "3", "4", "5"], ["unknown rule set", "'nope'"]),
        (["--rules", "kniffel+nope", "chance", "1", "2", "3", "4", "5"], ["'nope'"]),
        (["--rules", "kniffel", "fullhouse", "1", "2", "3", "4", "5"], ["'fullhouse'", "full_house"]),
        (["--rules", "yacht", "three_of_a_kind", "1", "2", "3", "4", "5"], ["'three_of_a_kind'"]),
        (["--rules", "kniffel", "chance", "1", "2", "3", "4"], ["'1 2 3 4'", "exactly 5"]),
        (["--rules", "kniffel", "chance", "1", "2", "3", "4", "5", "6"], ["6 dice", "exactly 5"]),
        (["--rules", "kniffel", "chance", "1", "2", "3", "4", "7"], ["'1 2 3 4 7'", "7 is not a die"]),
        (["--rules", "kniffel", "chance", "1", "2", "3", "4", "0"], ["0 is not a die"]),
        (["--rules", "kniffel", "chance", "1", "2", "x", "4", "5"], ["'x' is not a die"]),
        (["--rules", "knaster", "chance", "1", "2", "3", "4", "5"], ["knaster has no boxes"]),
    ],
)
def test_score_bad_input(invoke: Invoke, args: list[str], needles: list[str]) -> None:
    assert_bad_input(invoke(["score", *args]), *needles)
