"""``pasch advise --sheet "... extra=N"``: the extra five-alike points already earned (a Yahtzee bonus) count toward
the total a target or a win is measured by, for this player and for each ``--opponent``; impossible ones are
refused in one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pasch.rules import get
from pasch.solver import Solver, score_distribution, win_pair

from ._helpers import Invoke, assert_bad_input

RULES = "yahtzee+forced"  # full size, its tables built in milliseconds; Hasbro's 100 for each further Yahtzee
# Forced order: a scored Yahtzee box means the eleven boxes before it are filled; only chance is left.
MINE = (
    "ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 four_of_a_kind=0 full_house=25 "
    "small_straight=30 large_straight=0 yahtzee=50"
)  # 223 with the upper bonus
THEIRS = (
    "ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=25 four_of_a_kind=0 full_house=25 "
    "small_straight=30 large_straight=0 yahtzee=50"
)  # 228: a close race for the last box
ADVISE = ["advise", "--rules", RULES, "--dice", "13356", "--rolls-left", "1", "--json"]


def _options(invoke: Invoke, *args: str) -> tuple[dict[str, Any], dict[str, float]]:
    result = invoke([*ADVISE, *args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    return data, {o["action"]: o["probability"] for o in data["options"]}


def test_extra_points_count_toward_a_target(invoke: Invoke) -> None:
    _, plain = _options(invoke, "--sheet", MINE, "--objective", "target", "--target", "245")
    _, extra = _options(invoke, "--sheet", MINE + " extra=200", "--objective", "target", "--target", "445")
    assert 0.0 < max(plain.values()) < 1.0  # a target that is in doubt
    assert extra == pytest.approx(plain, abs=1e-9)  # 200 more on the sheet: the same chances of 200 more


def test_extra_points_count_toward_a_win_on_both_sides(invoke: Invoke) -> None:
    _, plain = _options(invoke, "--sheet", MINE, "--objective", "win", "--opponent", THEIRS)
    assert 0.02 < max(plain.values()) < 0.98  # a race in doubt
    # The same 100 on both sheets changes nobody's chances; on one sheet only, it decides the race.
    both = ["--sheet", MINE + " extra=100", "--objective", "win", "--opponent", THEIRS + " extra=100"]
    assert _options(invoke, *both)[1] == pytest.approx(plain, abs=1e-9)
    _, ahead = _options(invoke, "--sheet", MINE + " extra=100", "--objective", "win", "--opponent", THEIRS)
    assert min(ahead.values()) > max(plain.values())
    data_theirs, behind = _options(invoke, "--sheet", MINE, "--objective", "win", "--opponent", THEIRS + " extra=100")
    assert max(behind.values()) < min(plain.values())
    # What the command computes is the solver's, with the opponent's law shifted by their extra points.
    rules = get(RULES)
    solver = Solver.load(rules)
    from pasch.cli._sheets import parse_sheet

    table, _ = win_pair(solver)
    dist = score_distribution(solver, parse_sheet(rules, THEIRS)[0], extra=100)
    want = table.win_options(parse_sheet(rules, MINE)[0], (1, 3, 3, 5, 6), 1, [dist])
    assert behind == pytest.approx({o.action_text: o.probability for o in want}, abs=1e-6)
    plain_mean = score_distribution(solver, parse_sheet(rules, THEIRS)[0]).mean
    assert data_theirs["opponents"][0]["expected_final"] == pytest.approx(plain_mean + 100, abs=1e-5)


def test_extra_points_leave_the_expected_score_advice_alone(invoke: Invoke) -> None:
    def values(sheet: str) -> dict[str, float]:
        result = invoke([*ADVISE, "--sheet", sheet])
        assert result.exit_code == 0, result.output
        return {o["action"]: o["value"] for o in json.loads(result.stdout)["options"]}

    assert values(MINE + " extra=300") == values(MINE)  # the value is the expected rest: earned points are not in it


def test_a_columns_extra_points_add_to_the_estimated_total(invoke: Invoke) -> None:
    def advice(sheet: str) -> dict[str, Any]:
        args = ["advise", "--rules", "jetsi", "--dice", "13356", "--rolls-left", "1", "--sheet", sheet, "--json"]
        result = invoke(args)
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    plain, extra = advice("1:yahtzee=50 1:chance=20"), advice("1:yahtzee=50 1:chance=20 1:extra=100")
    assert extra["total_now"] == plain["total_now"] + 100
    assert [o["action"] for o in extra["options"]] == [o["action"] for o in plain["options"]]
    for a, b in zip(plain["options"], extra["options"], strict=True):
        assert b["estimate"] == pytest.approx(a["estimate"] + 100, abs=1e-3)
        assert (b["value"], b["delta"]) == (a["value"], a["delta"])


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--rules", "yatzy", "--sheet", "yahtzee=50 extra=100"], ["extra=100", "yatzy pays no extra points"]),
        (["--rules", "yahtzee", "--sheet", "yahtzee=50 chance=20 extra=30"], ["extra=30", "a multiple of 100"]),
        (["--rules", "yahtzee", "--sheet", "yahtzee=50 chance=20 extra=-100"], ["extra=-100", "a multiple of 100"]),
        (["--rules", "yahtzee", "--sheet", "chance=20 extra=100"], ["extra=100", "yahtzee box holds a score above 0"]),
        (["--rules", "yahtzee", "--sheet", "yahtzee=0 chance=20 extra=100"], ["yahtzee box holds a score above 0"]),
        (
            ["--rules", "yahtzee", "--sheet", "yahtzee=50 chance=20 extra=200"],
            ["2 further five-alikes", "only 1 box besides yahtzee is filled"],
        ),
        (
            ["--rules", "kniffel", "--sheet", "yahtzee=50 chance=20 extra=50"],
            ["1 further five-alikes", "only 0 upper boxes are filled"],
        ),
        (["--rules", "yahtzee", "--sheet", "yahtzee=50 extra=100 extra=100"], ["extra is given twice"]),
        (["--rules", "yahtzee", "--sheet", "yahtzee=50 extra=lots"], ["'lots' is not a number"]),
        (["--rules", "jetsi", "--sheet", "1:chance=20 1:extra=100"], ["column 1", "yahtzee box holds a score above"]),
        (["--rules", "jetsi", "--sheet", "1:yahtzee=50 1:extra=100"], ["column 1", "only 0 boxes besides yahtzee"]),
        (
            ["--rules", "yahtzee", "--objective", "win", "--opponent", "chance=20 extra=100"],
            ["extra=100", "yahtzee box holds a score above 0"],
        ),
    ],
)
def test_impossible_extra_points_are_one_clear_line(invoke: Invoke, args: list[str], needles: list[str]) -> None:
    assert_bad_input(invoke(["advise", "--dice", "13356", "--rolls-left", "1", *args]), *needles)
