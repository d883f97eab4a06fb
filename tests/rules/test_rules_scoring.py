"""Every rule of every single-column rule set, on concrete sheets, through ``score_options``.

The sheets are built by box id (``sheet``: the named boxes filled, the rest open; ``full_except``: every
box filled except the named ones). Five-alike throws are written ``(f,) * 5``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasch.rules import Order, column_totals, get

from ._helpers import full_except, options, sheet

FACES = range(1, 7)
SHARP = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee")
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER_YAHTZEE = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)


def five(face: int) -> tuple[int, ...]:
    return (face,) * 5


def full_value(category: str, face: int) -> int:
    """A five-alike's "full value" in a Yahtzee-family lower box (RULES.md: 25 / 30 / 40 / the dice)."""
    return {"full_house": 25, "small_straight": 30, "large_straight": 40}.get(category, 5 * face)


# ---------------------------------------------------------------------------------------------- kniffel


class TestKniffel:
    def test_five_alike_while_kniffel_box_is_open_is_an_ordinary_throw(self) -> None:
        rules = get("kniffel")
        opts = options(rules, sheet(rules), five(4))
        assert opts["yahtzee"].points == 50
        assert opts["full_house"].points == 0
        assert opts["small_straight"].points == 0
        assert all(o.extra == 0 and not o.joker for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    def test_extra_kniffel_scores_50_extra_in_the_open_matching_upper_box(self, face: int) -> None:
        rules = get("kniffel")
        opts = options(rules, sheet(rules, yahtzee=50), five(face))
        match = opts[UPPER[face - 1]]
        assert (match.points, match.extra) == (5 * face, 50)

    @pytest.mark.parametrize("face", FACES)
    def test_extra_kniffel_may_be_used_as_an_ordinary_throw_elsewhere(self, face: int) -> None:
        """RULES.md Decision: any other open box, scored normally, no extra points, no joker."""
        rules = get("kniffel")
        opts = options(rules, sheet(rules, yahtzee=50), five(face))
        assert set(opts) == set(rules.category_ids) - {"yahtzee"}
        for cid, opt in opts.items():
            if cid == UPPER[face - 1]:
                continue
            assert opt.extra == 0 and not opt.joker, cid
        assert opts["full_house"].points == 0
        assert opts["small_straight"].points == 0
        assert opts["large_straight"].points == 0
        assert opts["three_of_a_kind"].points == 5 * face
        assert opts["chance"].points == 5 * face

    @pytest.mark.parametrize("face", FACES)
    def test_joker_in_the_lower_section_when_the_matching_upper_box_is_filled(self, face: int) -> None:
        rules = get("kniffel")
        scores = sheet(rules, yahtzee=50, **{UPPER[face - 1]: 3 * face})
        opts = options(rules, scores, five(face))
        for cid in LOWER_YAHTZEE:
            if cid == "yahtzee":
                continue
            assert (opts[cid].points, opts[cid].extra) == (full_value(cid, face), 0), cid
        for cid in ("full_house", "small_straight", "large_straight"):
            assert opts[cid].joker, cid
        # Upper boxes can still be crossed out (any open box may be chosen, RULES.md), for nothing.
        for cid in UPPER:
            if cid in opts:
                assert (opts[cid].points, opts[cid].extra) == (0, 0), cid

    def test_joker_with_no_lower_box_open_must_cross_out_an_upper_box(self) -> None:
        rules = get("kniffel")
        scores = full_except(rules, "ones", "twos", yahtzee=50, fives=20)
        opts = options(rules, scores, five(5))
        assert set(opts) == {"ones", "twos"}
        assert all((o.points, o.extra) == (0, 0) for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    def test_kniffel_box_crossed_out_gives_no_extra_and_no_joker(self, face: int) -> None:
        rules = get("kniffel")
        # Matching upper box filled: no joker.
        opts = options(rules, sheet(rules, yahtzee=0, **{UPPER[face - 1]: 0}), five(face))
        assert opts["full_house"].points == 0
        assert opts["small_straight"].points == 0
        assert opts["large_straight"].points == 0
        assert opts["four_of_a_kind"].points == 5 * face
        assert all(o.extra == 0 and not o.joker for o in opts.values())
        # Matching upper box open: no extra points.
        opts = options(rules, sheet(rules, yahtzee=0), five(face))
        assert (opts[UPPER[face - 1]].points, opts[UPPER[face - 1]].extra) == (5 * face, 0)
        assert all(o.extra == 0 and not o.joker for o in opts.values())

    def test_extra_points_are_kept_apart_from_the_upper_bonus(self) -> None:
        rules = get("kniffel")
        scores = sheet(rules, yahtzee=50, ones=3, twos=6, threes=9, fours=12, sixes=6)
        opt = options(rules, scores, five(5))["fives"]
        scores[rules.category_index("fives")] = opt.points
        totals = column_totals(rules, scores, opt.extra)
        assert (totals.upper, totals.bonus, totals.extra) == (61, 0, 50)
        assert totals.total == 61 + 50 + 50


# ---------------------------------------------------------------------------------------------- yahtzee


class TestYahtzee:
    def test_five_alike_while_yahtzee_box_is_open_is_an_ordinary_throw(self) -> None:
        rules = get("yahtzee")
        opts = options(rules, sheet(rules), five(2))
        assert set(opts) == set(rules.category_ids)
        assert opts["yahtzee"].points == 50
        assert opts["full_house"].points == 0
        assert all(o.extra == 0 and not o.joker for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    @pytest.mark.parametrize(("box", "extra"), [(50, 100), (0, 0)])
    def test_matching_upper_box_must_be_taken_if_open(self, face: int, box: int, extra: int) -> None:
        rules = get("yahtzee")
        opts = options(rules, sheet(rules, yahtzee=box), five(face))
        assert list(opts) == [UPPER[face - 1]]
        assert (opts[UPPER[face - 1]].points, opts[UPPER[face - 1]].extra) == (5 * face, extra)

    @pytest.mark.parametrize("face", FACES)
    @pytest.mark.parametrize(("box", "extra"), [(50, 100), (0, 0)])
    def test_else_any_open_lower_box_at_full_value(self, face: int, box: int, extra: int) -> None:
        rules = get("yahtzee")
        scores = sheet(rules, yahtzee=box, **{UPPER[face - 1]: 2 * face})
        opts = options(rules, scores, five(face))
        lower = [c for c in LOWER_YAHTZEE if c != "yahtzee"]
        assert list(opts) == lower  # no upper box while a lower box is open
        for cid in lower:
            assert (opts[cid].points, opts[cid].extra) == (full_value(cid, face), extra), cid

    def test_joker_only_among_the_open_lower_boxes(self) -> None:
        rules = get("yahtzee")
        scores = full_except(rules, "twos", "large_straight", "chance", yahtzee=50)
        opts = options(rules, scores, five(6))
        assert {c: (o.points, o.extra) for c, o in opts.items()} == {
            "large_straight": (40, 100),
            "chance": (30, 100),
        }

    @pytest.mark.parametrize(("box", "extra"), [(50, 100), (0, 0)])
    def test_else_any_open_upper_box_for_zero(self, box: int, extra: int) -> None:
        rules = get("yahtzee")
        scores = full_except(rules, "ones", "fours", yahtzee=box)
        opts = options(rules, scores, five(3))
        assert {c: (o.points, o.extra) for c, o in opts.items()} == {"ones": (0, extra), "fours": (0, extra)}

    def test_no_bonus_for_a_throw_that_is_not_five_alike(self) -> None:
        rules = get("yahtzee")
        opts = options(rules, sheet(rules, yahtzee=50), (3, 3, 3, 3, 4))
        assert all(o.extra == 0 for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    def test_joker_free_allows_any_open_box_lower_at_full_value(self, face: int) -> None:
        rules = get("yahtzee+joker=free")
        match = UPPER[face - 1]
        opts = options(rules, sheet(rules, yahtzee=50, **{match: 0}), five(face))
        assert set(opts) == set(rules.category_ids) - {"yahtzee", match}
        for cid in UPPER:
            if cid != match:
                assert opts[cid].points == 0, cid
        for cid in LOWER_YAHTZEE:
            if cid != "yahtzee":
                assert opts[cid].points == full_value(cid, face), cid
        assert all(o.extra == 100 for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    def test_joker_free_is_no_joker_while_the_matching_upper_box_is_open(self, face: int) -> None:
        # Free-choice joker: the matching upper box need not be taken, but skipping it forgoes the joker.
        rules = get("yahtzee+joker=free")
        opts = options(rules, sheet(rules, yahtzee=50), five(face))
        assert set(opts) == set(rules.category_ids) - {"yahtzee"}
        assert opts[UPPER[face - 1]].points == 5 * face
        assert (opts["full_house"].points, opts["large_straight"].points) == (0, 0)
        assert opts["chance"].points == 5 * face

    def test_yahtzee_bonus_is_kept_apart_from_the_upper_bonus(self) -> None:
        rules = get("yahtzee")
        scores = sheet(rules, yahtzee=50, ones=3, twos=6, threes=9, fours=12, sixes=18)
        opt = options(rules, scores, five(5))
        assert list(opt) == ["fives"]
        scores[rules.category_index("fives")] = opt["fives"].points
        totals = column_totals(rules, scores, opt["fives"].extra)
        assert (totals.upper, totals.bonus, totals.lower, totals.extra) == (73, 35, 50, 100)
        scores = sheet(rules, yahtzee=50, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=12)
        lo = options(rules, scores, five(2))["large_straight"]
        scores[rules.category_index("large_straight")] = lo.points
        totals = column_totals(rules, scores, lo.extra)
        assert (totals.upper, totals.bonus, totals.lower, totals.extra) == (57, 0, 90, 100)


# -------------------------------------------------------------------------------------- kniffel-classic


class TestKniffelClassic:
    @pytest.mark.parametrize("face", FACES)
    def test_extra_kniffel_flat_100_in_any_open_lower_box(self, face: int) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules, yahtzee=50), five(face))
        for cid in LOWER_YAHTZEE:
            if cid != "yahtzee":
                assert opts[cid].total == 100, cid

    @pytest.mark.parametrize("face", FACES)
    def test_extra_kniffel_100_plus_the_dice_in_any_open_upper_box(self, face: int) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules, yahtzee=50), five(face))
        for f, cid in enumerate(UPPER, start=1):
            dice_there = 5 * face if f == face else 0
            assert (opts[cid].points, opts[cid].extra) == (dice_there, 100), cid

    def test_the_100_does_not_count_toward_the_upper_bonus(self) -> None:
        rules = get("kniffel-classic")
        # Upper boxes without ones: 6 + 9 + 12 + 15 + 18 = 60; five 1s in ones: 5 + 100.
        scores = sheet(rules, yahtzee=50, twos=6, threes=9, fours=12, fives=15, sixes=18)
        opt = options(rules, scores, five(1))["ones"]
        scores[rules.category_index("ones")] = opt.points
        totals = column_totals(rules, scores, opt.extra)
        assert (totals.upper, totals.bonus, totals.extra) == (65, 35, 100)
        scores = sheet(rules, yahtzee=50, twos=4, threes=9, fours=12, fives=15, sixes=18)
        opt = options(rules, scores, five(1))["ones"]
        scores[rules.category_index("ones")] = opt.points
        totals = column_totals(rules, scores, opt.extra)
        assert (totals.upper, totals.bonus, totals.extra) == (63, 35, 100)
        scores = sheet(rules, yahtzee=50, twos=2, threes=9, fours=12, fives=15, sixes=18)
        opt = options(rules, scores, five(1))["ones"]
        scores[rules.category_index("ones")] = opt.points
        totals = column_totals(rules, scores, opt.extra)
        assert (totals.upper, totals.bonus, totals.extra) == (61, 0, 100)
        assert totals.total == 61 + 50 + 100

    @pytest.mark.parametrize("face", FACES)
    def test_five_alike_as_full_house_after_the_kniffel_box_was_crossed_out(self, face: int) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules, yahtzee=0), five(face))
        assert (opts["full_house"].points, opts["full_house"].extra) == (25, 0)
        # ... and nothing else changes: no other joker, no extra points.
        assert opts["small_straight"].points == 0
        assert opts["large_straight"].points == 0
        assert opts[UPPER[face - 1]].points == 5 * face
        assert all(o.extra == 0 for o in opts.values())

    @pytest.mark.parametrize("face", FACES)
    def test_five_alike_is_no_full_house_while_the_kniffel_box_is_open(self, face: int) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules), five(face))
        assert opts["full_house"].points == 0
        assert opts["yahtzee"].points == 50

    def test_five_alike_in_full_house_after_a_scored_kniffel_is_the_flat_100(self) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules, yahtzee=50), five(6))
        assert opts["full_house"].total == 100

    def test_no_flat_100_for_a_crossed_out_kniffel_box(self) -> None:
        rules = get("kniffel-classic")
        opts = options(rules, sheet(rules, yahtzee=0), five(6))
        assert opts["chance"].total == 30
        assert opts["sixes"].total == 30


# ---------------------------------------------------------------------------------- +strict (classic)


class TestStrict:
    def test_strict_fills_top_to_bottom(self) -> None:
        rules = get("kniffel-classic+strict")
        assert rules.columns == (Order.DOWN,)
        for k in range(len(rules.categories)):
            scores = [0] * k + [None] * (len(rules.categories) - k)
            assert list(options(rules, scores, (1, 2, 3, 4, 6))) == [rules.category_ids[k]]

    @pytest.mark.parametrize("face", FACES)
    @pytest.mark.parametrize("sharp", [False, True])
    def test_five_alike_in_full_house_before_the_kniffel_box_is_a_full_house(self, face: int, sharp: bool) -> None:
        rules = get("kniffel-classic+strict+sharp" if sharp else "kniffel-classic+strict")
        scores = full_except(rules, "full_house", "small_straight", "large_straight", "yahtzee", "chance")
        opts = options(rules, scores, five(face), sharp=sharp)
        assert list(opts) == ["full_house"]
        assert opts["full_house"].total == (50 if sharp else 25)

    @pytest.mark.parametrize(
        ("box", "points"),
        [
            ("ones", 0),
            ("fours", 20),
            ("three_of_a_kind", 20),
            ("four_of_a_kind", 20),
            ("small_straight", 0),
            ("large_straight", 0),
            ("yahtzee", 50),
        ],
    )
    def test_five_alike_counts_only_as_what_the_current_box_asks(self, box: str, points: int) -> None:
        rules = get("kniffel-classic+strict")
        ids = rules.category_ids
        k = ids.index(box)
        scores = [0] * k + [None] * (len(ids) - k)
        opts = options(rules, scores, five(4))
        assert {c: o.total for c, o in opts.items()} == {box: points}

    def test_chance_after_a_scored_kniffel_is_100(self) -> None:
        rules = get("kniffel-classic+strict")
        opts = options(rules, full_except(rules, "chance", yahtzee=50), five(3))
        assert {c: o.total for c, o in opts.items()} == {"chance": 100}

    def test_chance_after_a_crossed_out_kniffel_is_the_dice(self) -> None:
        rules = get("kniffel-classic+strict")
        opts = options(rules, full_except(rules, "chance", yahtzee=0), five(3))
        assert {c: o.total for c, o in opts.items()} == {"chance": 15}

    def test_without_strict_the_forced_full_house_is_zero(self) -> None:
        rules = get("kniffel-classic+forced")
        scores = full_except(rules, "full_house", "small_straight", "large_straight", "yahtzee", "chance")
        assert options(rules, scores, five(2))["full_house"].total == 0


# ---------------------------------------------------------------------------------------------- +sharp


class TestSharp:
    @pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht"])
    def test_yahtzee_box_100_when_sharp(self, rules_id: str) -> None:
        rules = get(f"{rules_id}+sharp")
        assert options(rules, sheet(rules), five(2), sharp=True)["yahtzee"].points == 100
        assert options(rules, sheet(rules), five(2), sharp=False)["yahtzee"].points == 50

    def test_not_sharp_without_the_modifier(self) -> None:
        rules = get("kniffel")
        opts = options(rules, sheet(rules), (2, 3, 4, 5, 6), sharp=True)
        assert opts["large_straight"].points == 40
        assert not any(o.doubled for o in opts.values())

    def test_sharp_throw_doubles_combinations_not_upper_or_chance(self) -> None:
        rules = get("kniffel+sharp")
        opts = options(rules, sheet(rules), (3, 3, 5, 5, 5), sharp=True)
        assert {c: o.points for c, o in opts.items()} == {
            "ones": 0,
            "twos": 0,
            "threes": 6,
            "fours": 0,
            "fives": 15,
            "sixes": 0,
            "three_of_a_kind": 42,
            "four_of_a_kind": 0,
            "full_house": 50,
            "small_straight": 0,
            "large_straight": 0,
            "yahtzee": 0,
            "chance": 21,
        }

    def test_kniffel_extra_50_is_never_doubled(self) -> None:
        rules = get("kniffel+sharp")
        opt = options(rules, sheet(rules, yahtzee=100), five(5), sharp=True)["fives"]
        assert (opt.points, opt.extra) == (25, 50)

    def test_kniffel_joker_box_doubles_extra_never(self) -> None:
        rules = get("kniffel+sharp")
        opts = options(rules, sheet(rules, yahtzee=100, fives=10), five(5), sharp=True)
        assert (opts["large_straight"].points, opts["large_straight"].extra) == (80, 0)
        assert opts["chance"].points == 25

    def test_yahtzee_bonus_100_is_never_doubled(self) -> None:
        rules = get("yahtzee+sharp")
        opts = options(rules, sheet(rules, yahtzee=100, sixes=24), five(6), sharp=True)
        assert (opts["full_house"].points, opts["full_house"].extra) == (50, 100)
        assert (opts["chance"].points, opts["chance"].extra) == (30, 100)

    def test_classic_extra_points_are_never_doubled(self) -> None:
        rules = get("kniffel-classic+sharp")
        opts = options(rules, sheet(rules, yahtzee=100), five(4), sharp=True)
        assert opts["large_straight"].total == 100
        assert opts["full_house"].total == 100
        assert (opts["fours"].points, opts["fours"].extra) == (20, 100)

    def test_classic_full_house_after_crossed_out_kniffel_doubles(self) -> None:
        rules = get("kniffel-classic+sharp")
        assert options(rules, sheet(rules, yahtzee=0), five(4), sharp=True)["full_house"].points == 50

    def test_upper_bonus_is_not_doubled(self) -> None:
        rules = get("kniffel+sharp")
        assert column_totals(rules, full_except(rules, value=0, fours=63)).bonus == 35


# -------------------------------------------------------------------------------------- fill orders


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht"])
class TestOrder:
    def test_forced_only_the_first_open_box(self, rules_id: str) -> None:
        rules = get(f"{rules_id}+forced")
        assert rules.columns == (Order.DOWN,)
        n = len(rules.categories)
        for k in range(n):
            scores: list[int | None] = [5] * k + [None] * (n - k)
            for dice in [(1, 2, 3, 4, 6), five(6), (2, 2, 3, 3, 3)]:
                assert list(options(rules, scores, dice)) == [rules.category_ids[k]]
        # a gap above the first open box does not matter: only the first open box counts
        scores = [None] * n
        scores[0] = 1
        assert list(options(rules, scores, (1, 1, 2, 3, 4))) == [rules.category_ids[1]]

    def test_upward_only_the_last_open_box(self, rules_id: str) -> None:
        rules = get(f"{rules_id}+upward")
        assert rules.columns == (Order.UP,)
        n = len(rules.categories)
        for k in range(n):
            scores: list[int | None] = [None] * (n - k) + [5] * k
            for dice in [(1, 2, 3, 4, 6), five(6), (2, 2, 3, 3, 3)]:
                assert list(options(rules, scores, dice)) == [rules.category_ids[n - k - 1]]

    def test_free_order_offers_every_open_box(self, rules_id: str) -> None:
        rules = get(rules_id)
        assert rules.columns == (Order.FREE,)
        scores = sheet(rules, ones=1, chance=20)
        assert list(options(rules, scores, (1, 2, 2, 5, 6))) == [
            c for c in rules.category_ids if c not in ("ones", "chance")
        ]

    def test_full_column_has_no_options(self, rules_id: str) -> None:
        rules = get(rules_id)
        assert options(rules, [0] * len(rules.categories), (1, 2, 3, 4, 5)) == {}


def test_upward_fills_chance_first_in_the_yahtzee_family() -> None:
    rules = get("kniffel+upward")
    assert list(options(rules, sheet(rules), (1, 1, 1, 2, 2))) == ["chance"]


# ----------------------------------------------------------------------------------------- yatzy, yacht


class TestYatzy:
    def test_sheet_order(self) -> None:
        assert get("yatzy").category_ids == (
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
        )

    @pytest.mark.parametrize(
        ("dice", "category", "points"),
        [
            ((3, 3, 4, 6, 6), "one_pair", 12),
            ((3, 3, 4, 6, 6), "two_pairs", 18),
            ((2, 2, 2, 6, 6), "two_pairs", 16),
            ((4, 4, 4, 4, 1), "two_pairs", 0),
            ((1, 2, 3, 4, 6), "one_pair", 0),
            ((5, 5, 5, 5, 2), "three_of_a_kind", 15),
            ((5, 5, 5, 5, 2), "four_of_a_kind", 20),
            ((5, 5, 5, 2, 2), "four_of_a_kind", 0),
            ((2, 2, 2, 5, 5), "full_house", 16),
            ((2, 2, 2, 2, 5), "full_house", 0),
            ((1, 2, 3, 4, 5), "small_straight", 15),
            ((2, 3, 4, 5, 6), "small_straight", 0),
            ((2, 3, 4, 5, 6), "large_straight", 20),
            ((1, 2, 3, 4, 5), "large_straight", 0),
            ((1, 3, 4, 5, 6), "large_straight", 0),
            ((6, 6, 6, 6, 6), "yahtzee", 50),
        ],
    )
    def test_partial_sums_and_exact_straights(self, dice: tuple[int, ...], category: str, points: int) -> None:
        rules = get("yatzy")
        assert options(rules, sheet(rules), dice)[category].points == points

    @pytest.mark.parametrize("face", FACES)
    def test_no_joker_no_extra_after_the_yatzy_box(self, face: int) -> None:
        rules = get("yatzy")
        opts = options(rules, sheet(rules, yahtzee=50, **{UPPER[face - 1]: 0}), five(face))
        assert opts["full_house"].points == 0
        assert opts["two_pairs"].points == 0
        assert opts["small_straight"].points == 0
        assert opts["large_straight"].points == 0
        assert opts["one_pair"].points == 2 * face
        assert opts["chance"].points == 5 * face
        assert all(o.extra == 0 and not o.joker for o in opts.values())

    @pytest.mark.parametrize(("upper", "bonus"), [(62, 0), (63, 50), (64, 50)])
    def test_bonus_50_at_63(self, upper: int, bonus: int) -> None:
        rules = get("yatzy")
        totals = column_totals(rules, full_except(rules, value=0, sixes=upper, chance=20))
        assert (totals.upper, totals.bonus, totals.lower, totals.total) == (upper, bonus, 20, upper + bonus + 20)


class TestYacht:
    def test_sheet_order(self) -> None:
        assert get("yacht").category_ids == (
            *UPPER,
            "full_house",
            "four_of_a_kind",
            "small_straight",
            "large_straight",
            "chance",
            "yahtzee",
        )

    @pytest.mark.parametrize(
        ("dice", "category", "points"),
        [
            ((2, 2, 3, 3, 3), "full_house", 13),
            ((3, 3, 3, 3, 3), "full_house", 0),
            ((6, 6, 6, 6, 1), "four_of_a_kind", 24),
            ((6, 6, 6, 6, 6), "four_of_a_kind", 24),
            ((1, 2, 3, 4, 5), "small_straight", 30),
            ((2, 3, 4, 5, 6), "large_straight", 30),
            ((2, 3, 4, 5, 6), "small_straight", 0),
            ((1, 2, 3, 4, 6), "small_straight", 0),
            ((4, 4, 4, 4, 4), "yahtzee", 50),
        ],
    )
    def test_scores(self, dice: tuple[int, ...], category: str, points: int) -> None:
        rules = get("yacht")
        assert options(rules, sheet(rules), dice)[category].points == points

    def test_no_bonus(self) -> None:
        rules = get("yacht")
        totals = column_totals(rules, full_except(rules, value=30, yahtzee=50))
        assert (totals.upper, totals.bonus) == (180, 0)


# ---------------------------------------------------------------------------------- the upper bonus


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic"])
@pytest.mark.parametrize(("upper", "bonus"), [(62, 0), (63, 35), (90, 35)])
def test_upper_bonus_35_at_63(rules_id: str, upper: int, bonus: int) -> None:
    rules = get(rules_id)
    totals = column_totals(rules, full_except(rules, value=0, fours=upper, yahtzee=50), extra=50)
    assert (totals.upper, totals.bonus, totals.lower, totals.extra) == (upper, bonus, 50, 50)
    assert totals.total == upper + bonus + 100


# ------------------------------------------------- five-alike rules meeting a fixed fill order


class TestClassicUpward:
    """``kniffel-classic+upward`` reaches the Kniffel box before the lower combination boxes."""

    def test_full_house_after_a_crossed_out_kniffel(self) -> None:
        rules = get("kniffel-classic+upward")
        scores = sheet(rules, chance=20, yahtzee=0, large_straight=40, small_straight=30)
        assert {c: o.total for c, o in options(rules, scores, five(2)).items()} == {"full_house": 25}

    def test_flat_100_after_a_scored_kniffel(self) -> None:
        rules = get("kniffel-classic+upward")
        scores = sheet(rules, chance=20, yahtzee=50)
        assert {c: o.total for c, o in options(rules, scores, five(2)).items()} == {"large_straight": 100}

    def test_upper_box_100_plus_the_dice(self) -> None:
        rules = get("kniffel-classic+upward")
        scores = full_except(rules, "ones", "twos", yahtzee=50)
        opt = options(rules, scores, five(2))["twos"]
        assert (opt.points, opt.extra) == (10, 100)


# -------------------------------------------------------------- properties on random sheets


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht"])
@pytest.mark.parametrize("modifier", ["", "+forced", "+upward", "+sharp"])
@settings(max_examples=25)
@given(data=st.data())
def test_five_alike_on_random_sheets(rules_id: str, modifier: str, data: st.DataObject) -> None:
    """Some box is always legal, only open boxes are offered, and extra points follow the policy."""
    rules = get(rules_id + modifier)
    n = len(rules.categories)
    scores = data.draw(st.lists(st.one_of(st.none(), st.sampled_from([0, 5, 50])), min_size=n, max_size=n))
    face = data.draw(st.integers(1, 6))
    sharp = data.draw(st.booleans())
    opts = options(rules, scores, five(face), sharp=sharp)
    open_ids = {c for c, s in zip(rules.category_ids, scores, strict=True) if s is None}
    assert set(opts) <= open_ids
    assert bool(opts) == bool(open_ids)
    y = scores[rules.category_index("yahtzee")]
    scored = y is not None and y > 0
    match = UPPER[face - 1]
    for cid, opt in opts.items():
        assert opt.points >= 0
        flat_100 = rules_id == "kniffel-classic" and scored and cid not in UPPER
        assert opt.doubled == (sharp and "sharp" in modifier and opt.points > 0 and cid in SHARP and not flat_100)
        if rules_id == "kniffel":
            assert opt.extra == (50 if scored and cid == match else 0)
        elif rules_id == "yahtzee":
            assert opt.extra == (100 if scored else 0)
        elif rules_id == "kniffel-classic":
            assert opt.extra == (100 if scored and cid in UPPER else 0)
            if scored and cid not in UPPER:
                assert opt.points == 100
        else:
            assert opt.extra == 0 and not opt.joker


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht", "jetsi"])
def test_player_range_1_to_8(rules_id: str) -> None:
    rules = get(rules_id)
    assert rules.min_players == 1
    assert rules.max_players >= 8
