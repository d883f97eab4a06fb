"""The catalogue and the rule-set text: bases, sheets, multi-column games, modifiers, parameters, errors."""

from __future__ import annotations

import pytest

from pasch.errors import RuleSetError
from pasch.rules import ExtraPolicy, GameKind, JokerPolicy, Order, canonical, column_totals, get, names

from ._helpers import full_except, options, sheet

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_SHEET = (
    *UPPER,
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)


def test_catalogue_names() -> None:
    assert set(names()) == {
        "kniffel",
        "yahtzee",
        "kniffel-classic",
        "yatzy",
        "yacht",
        "jetsi",
        "kniffel-3",
        "kniffel-4",
        "knaster",
    }


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "jetsi", "kniffel-3", "kniffel-4"])
def test_yahtzee_family_sheet_and_bonus(rules_id: str) -> None:
    rules = get(rules_id)
    assert rules.kind is GameKind.SHEET
    assert rules.category_ids == YAHTZEE_SHEET
    assert (rules.bonus_threshold, rules.bonus) == (63, 35)
    assert (rules.dice, rules.faces, rules.throws) == (5, 6, 3)


@pytest.mark.parametrize(
    ("rules_id", "joker", "extra"),
    [
        ("kniffel", JokerPolicy.SCHMIDT, ExtraPolicy.UPPER_50),
        ("yahtzee", JokerPolicy.FORCED, ExtraPolicy.BONUS_100),
        ("kniffel-classic", JokerPolicy.FULL_HOUSE, ExtraPolicy.FLAT_100),
        ("yatzy", JokerPolicy.NONE, ExtraPolicy.NONE),
        ("yacht", JokerPolicy.NONE, ExtraPolicy.NONE),
        ("jetsi", JokerPolicy.FORCED, ExtraPolicy.BONUS_100),
        ("kniffel-3", JokerPolicy.FULL_HOUSE, ExtraPolicy.FLAT_100),
        ("kniffel-4", JokerPolicy.FULL_HOUSE, ExtraPolicy.FLAT_100),
    ],
)
def test_five_alike_policies(rules_id: str, joker: JokerPolicy, extra: ExtraPolicy) -> None:
    rules = get(rules_id)
    assert (rules.joker, rules.extra) == (joker, extra)


@pytest.mark.parametrize(
    ("rules_id", "columns", "turns"),
    [
        ("kniffel", (Order.FREE,), 13),
        ("yatzy", (Order.FREE,), 15),
        ("yacht", (Order.FREE,), 12),
        ("jetsi", (Order.FREE, Order.DOWN, Order.UP), 39),
        ("kniffel-3", (Order.DOWN, Order.UP, Order.FREE), 39),
        ("kniffel-4", (Order.DOWN, Order.UP, Order.ANNOUNCED, Order.FREE), 52),
    ],
)
def test_columns_and_turns(rules_id: str, columns: tuple[Order, ...], turns: int) -> None:
    rules = get(rules_id)
    assert rules.columns == columns
    assert rules.n_columns == len(columns)
    assert rules.turns_per_player == turns


def test_jetsi_columns_are_yahtzee_columns() -> None:
    """Each column is a full Yahtzee sheet: free, top-down, bottom-up, with the Yahtzee joker."""
    jetsi, yahtzee = get("jetsi"), get("yahtzee")
    scores = sheet(jetsi, yahtzee=50, threes=9, ones=3)
    dice = (3, 3, 3, 3, 3)
    free, down, up = jetsi.columns
    assert options(jetsi, scores, dice, order=free) == options(yahtzee, scores, dice)
    assert list(options(jetsi, scores, dice, order=down)) == ["twos"]
    assert list(options(jetsi, scores, dice, order=up)) == ["chance"]
    assert options(jetsi, scores, dice, order=up)["chance"].extra == 100


def test_kniffel_3_columns_are_kniffel_classic_columns() -> None:
    k3, classic = get("kniffel-3"), get("kniffel-classic")
    scores = sheet(k3, yahtzee=0)
    dice = (6, 6, 6, 6, 6)
    down, up, free = k3.columns
    assert options(k3, scores, dice, order=free) == options(classic, scores, dice)
    assert options(k3, scores, dice, order=free)["full_house"].points == 25
    assert list(options(k3, scores, dice, order=down)) == ["ones"]
    assert options(k3, scores, dice, order=up)["chance"].points == 30


def test_each_column_has_its_own_upper_bonus() -> None:
    rules = get("kniffel-4")
    one = full_except(rules, value=0, sixes=63)
    other = full_except(rules, value=0, sixes=62)
    assert column_totals(rules, one).bonus == 35
    assert column_totals(rules, other).bonus == 0


def test_knaster_defaults() -> None:
    rules = get("knaster")
    assert rules.kind is GameKind.KNASTER
    assert rules.knaster is not None
    assert rules.knaster.row_values == (9, 8, 7, 6, 5)
    assert rules.knaster.column_values == (9, 8, 7, 6, 5)
    assert rules.knaster.diagonal_values == (10, 10)
    assert rules.dice == 2


def test_knaster_line_values_are_configurable() -> None:
    rules = get("knaster+rows=1,2,3,4,5+diags=7,8")
    assert rules.knaster is not None
    assert rules.knaster.row_values == (1, 2, 3, 4, 5)
    assert rules.knaster.column_values == (9, 8, 7, 6, 5)
    assert rules.knaster.diagonal_values == (7, 8)


# ------------------------------------------------------------------------------------ modifiers


def test_forced_upward_strict_sharp_flags() -> None:
    assert get("kniffel+forced").columns == (Order.DOWN,)
    assert get("kniffel+upward").columns == (Order.UP,)
    assert get("kniffel-classic+strict").columns == (Order.DOWN,)
    assert get("kniffel+sharp").sharp
    assert not get("kniffel").sharp
    assert get("jetsi+sharp").sharp
    assert get("jetsi+sharp").columns == get("jetsi").columns


@pytest.mark.parametrize(
    ("text", "canon"),
    [
        ("kniffel", "kniffel"),
        ("kniffel-classic+sharp+forced", "kniffel-classic+forced+sharp"),
        ("kniffel-classic+sharp+strict", "kniffel-classic+strict+sharp"),
        ("yahtzee+sharp+upward", "yahtzee+upward+sharp"),
        ("yahtzee+joker=free+sharp", "yahtzee+sharp+joker=free"),
        ("yahtzee+joker=free+bonus=50+forced", "yahtzee+forced+bonus=50+joker=free"),
        ("knaster+rows=1,2,3,4,5", "knaster+rows=1,2,3,4,5"),
        # one rule set, one text (it names the solver's table files): values in canonical form ...
        ("yahtzee+bonus=0010", "yahtzee+bonus=10"),
        ("knaster+rows=09, 8,7,6,05", "knaster"),  # the default line values
        ("knaster+diags=010,5", "knaster+diags=10,5"),
        # ... and a parameter that changes nothing left out
        ("yahtzee+bonus=35", "yahtzee"),
        ("kniffel+joker=schmidt+sharp", "kniffel+sharp"),
        ("yacht+bonus=0", "yacht"),
        ("yacht+bonus=35", "yacht+bonus=35"),
    ],
)
def test_canonical_text(text: str, canon: str) -> None:
    assert get(text).id == canon
    assert canonical(text) == canon
    assert get(canon).id == canon  # the canonical text parses to itself
    assert get(canon) == get(text)


def test_strict_already_implies_forced() -> None:
    assert get("kniffel-classic+forced+strict") == get("kniffel-classic+strict")


def test_params_change_the_rules() -> None:
    rules = get("yahtzee+bonus=50")
    assert column_totals(rules, full_except(rules, value=0, sixes=63)).bonus == 50
    rules = get("yahtzee+bonus=0")
    assert column_totals(rules, full_except(rules, value=0, sixes=90)).bonus == 0
    rules = get("kniffel+extra=bonus100")
    assert options(rules, sheet(rules, yahtzee=50), (2, 2, 2, 2, 2))["twos"].extra == 100
    assert get("yahtzee+joker=free").joker is JokerPolicy.FREE


@pytest.mark.parametrize("face", range(1, 7))
def test_joker_free_also_after_a_crossed_out_box(face: int) -> None:
    rules = get("yahtzee+joker=free")
    match = ("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1]
    opts = options(rules, sheet(rules, yahtzee=0, **{match: 0}), (face,) * 5)
    assert set(opts) == set(rules.category_ids) - {"yahtzee", match}
    assert (opts["full_house"].points, opts["large_straight"].points) == (25, 40)
    assert all(o.extra == 0 for o in opts.values())


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("knaster+sharp", ["sharp"]),
        ("knaster+forced", ["forced"]),
        ("yatzy+strict", ["strict"]),
        ("yacht+strict", ["strict"]),
        ("kniffel+forced+upward", ["forced", "upward"]),
        ("kniffel-classic+strict+upward", ["strict", "upward"]),
        ("jetsi+forced", ["forced"]),
        ("kniffel-4+upward", ["upward"]),
        ("kniffle", ["kniffle"]),
        ("kniffel+blitz", ["blitz"]),
        ("kniffel+foo=1", ["foo"]),
        ("kniffel+joker=bogus", ["bogus"]),
        ("kniffel+extra=bogus", ["bogus"]),
        ("kniffel+bonus=abc", ["abc"]),
        ("kniffel+bonus=-5", ["-5"]),
        ("kniffel+sharp+sharp", ["sharp"]),
        ("kniffel+bonus=1+bonus=2", ["bonus"]),
        ("knaster+joker=free", ["joker"]),
        ("knaster+rows=1,2", ["rows"]),
        ("kniffel++sharp", ["kniffel++sharp"]),
    ],
)
def test_invalid_rule_text_names_the_offending_item(text: str, named: list[str]) -> None:
    with pytest.raises(RuleSetError) as info:
        get(text)
    for word in named:
        assert word in str(info.value)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_rule_text(text: str) -> None:
    with pytest.raises(RuleSetError):
        get(text)


def test_rule_set_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="kniffle"):
        get("kniffle")


@pytest.mark.parametrize("text", ["kniffel-classic+forced+sharp", "yahtzee+upward", "knaster", "jetsi+sharp"])
def test_rule_sets_are_frozen(text: str) -> None:
    rules = get(text)
    with pytest.raises(AttributeError):
        rules.bonus = 99  # type: ignore[misc]
    assert hash(rules) == hash(get(text))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("kniffel+bonus=99999999999999999999", "bonus"),
        ("kniffel+bonus=1001", "0..1000"),
        ("knaster+rows=9,8,7,6,1001", "rows"),
        ("knaster+cols=9,8,7,6,-1", "cols"),
        ("knaster+diags=10,99999999", "diags"),
        ("kniffel+bonus=1_0", "digits 0-9"),
        ("kniffel+bonus=١٠", "digits 0-9"),
        ("knaster+rows=9,8,7,6,5.0", "digits 0-9"),
        ("kniffel+" + "sharp+" * 40 + "sharp", "too long"),
    ],
)
def test_parameters_are_bounded(text: str, needle: str) -> None:
    with pytest.raises(RuleSetError, match=needle):
        get(text)


def test_the_largest_parameters_are_accepted() -> None:
    assert get("kniffel+bonus=1000").bonus == 1000
    assert get("knaster+rows=1000,0,0,0,0").knaster is not None
