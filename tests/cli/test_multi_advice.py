"""``pasch advise`` in the multi-column games: every option ranked by the bot's estimate, labelled as one."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pasch.app import advise
from pasch.engine import ColumnSheet, GameState, PlayerSheet
from pasch.rules import Order, get
from pasch.solver import shared_solver

from ._helpers import Invoke, assert_bad_input


@pytest.fixture(scope="module", autouse=True)
def _column_tables_built() -> None:
    """Every column table these commands read, built (and the build kernel compiled) before the first command: on
    a fresh install a first build says so in a line on stderr, which the one-line checks of bad input would count."""
    for rules_id in ("jetsi", "kniffel-4"):
        rules = get(rules_id)
        for order in {Order.FREE if o is Order.ANNOUNCED else o for o in rules.columns}:
            shared_solver(dataclasses.replace(rules, columns=(order,), id=f"{rules.id}.{order.value}"))


def _state(rules_id: str, columns: dict[int, dict[str, int]], dice: tuple[int, ...], throws: int) -> GameState:
    rules = get(rules_id)
    cols = [[None] * len(rules.categories) for _ in rules.columns]
    for c, boxes in columns.items():
        for box, points in boxes.items():
            cols[c][rules.category_index(box)] = points
    sheet = PlayerSheet(tuple(ColumnSheet(tuple(col)) for col in cols))
    return GameState(rules, ("you",), (sheet,), dice=dice, throws=throws)


def test_jetsi_lists_every_legal_option_with_the_bots_estimate(invoke: Invoke) -> None:
    args = ["advise", "--rules", "jetsi", "--dice", "13356", "--rolls-left", "1"]
    done = invoke([*args, "--sheet", "1:ones=3 2:ones=2 3:chance=22", "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["exact"] is False and data["rules"] == "jetsi" and data["total_now"] == 27
    state = _state("jetsi", {0: {"ones": 3}, 1: {"ones": 2}, 2: {"chance": 22}}, (1, 3, 3, 5, 6), 2)
    assert sorted(o["action"] for o in data["options"]) == sorted(str(a) for a in state.legal_actions())
    estimates = [o["estimate"] for o in data["options"]]
    assert estimates == sorted(estimates, reverse=True)
    assert data["best"] == data["options"][0]["action"] and data["options"][0]["delta"] == 0
    for o in data["options"]:
        assert o["value"] == pytest.approx(o["estimate"] - 27, abs=1e-3)  # the estimated rest, as for one column
    # The same numbers as the advice of the terminal app and the page (pasch.app.advise of the same position).
    api = {str(o.action): o.estimate for o in advise(state).options}
    assert {o["action"]: o["estimate"] for o in data["options"]} == pytest.approx(api, abs=1e-3)
    assert "score 2:ones" not in api and "score 2:twos" in api  # the down column goes on with twos
    text = invoke([*args, "--sheet", "1:ones=3 2:ones=2 3:chance=22"])
    assert text.exit_code == 0, text.output
    assert "estimated total" in text.stdout and "Not exact" in text.stdout
    assert f"best: {data['best']} (estimated final total" in text.stdout


def test_kniffel4_offers_announcements_after_the_first_throw_and_takes_one_given(invoke: Invoke) -> None:
    base = ["advise", "--rules", "kniffel-4", "--dice", "13555", "--sheet", "1:ones=3 2:chance=22", "--json"]
    first = json.loads(invoke([*base, "--rolls-left", "2"]).stdout)
    actions = {o["action"] for o in first["options"]}
    assert {"announce fives", "announce chance", "keep 5 5 5"} <= actions
    assert not any(a.startswith("score 3:") for a in actions)  # the announced column waits for an announcement
    later = json.loads(invoke([*base, "--rolls-left", "1", "--announced", "fives"]).stdout)
    scores = {o["action"] for o in later["options"] if o["action"].startswith("score 3:")}
    assert scores == {"score 3:fives"} and later["announced"] == "fives"
    assert not any(o["action"].startswith("announce") for o in later["options"])


def test_a_single_open_column_is_valued_by_its_exact_table(invoke: Invoke) -> None:
    """With one column open the estimate is the column's exact value (the solver's, with the points now)."""
    rules = get("jetsi")
    full = " ".join(f"{c}:{b}={5 if b == 'chance' else 0}" for c in (2, 3) for b in rules.category_ids)
    args = ["advise", "--rules", "jetsi", "--dice", "13356", "--rolls-left", "1", "--sheet", full, "--json"]
    data = json.loads(invoke(args).stdout)
    free = shared_solver(dataclasses.replace(rules, columns=(Order.FREE,), id="jetsi.free"))
    exact = {o.action_text: o.value for o in free.options([None] * len(rules.categories), (1, 3, 3, 5, 6), 1, None)}
    got = {o["action"].replace("score 1:", "score "): o["value"] for o in data["options"]}
    assert got.keys() == exact.keys()
    assert got == pytest.approx(exact, abs=2e-3)
    assert data["total_now"] == 10


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--rules", "jetsi", "--sheet", "ones=3"], ["jetsi has 3 columns", "COLUMN:BOX=POINTS"]),
        (["--rules", "jetsi", "--sheet", "4:ones=3"], ["column is a number from 1 to 3"]),
        (["--rules", "jetsi", "--sheet", "1:ones=3 1:ones=2"], ["column 1", "ones is given twice"]),
        (["--rules", "jetsi", "--sheet", "1:sevens=3"], ["'sevens' is not a box of jetsi"]),
        (["--rules", "jetsi", "--sheet", "2:twos=4"], ["column 2 (down)", "impossible jetsi sheet"]),
        (["--rules", "jetsi", "--sheet", "1:ones=7"], ["column 1 (free)", "no throw scores 7"]),
        (["--rules", "jetsi", "--announced", "fives"], ["--announced", "jetsi has no announced column"]),
        (["--rules", "yahtzee", "--announced", "fives"], ["--announced", "yahtzee has no announced column"]),
        (["--rules", "jetsi", "--objective", "win", "--opponent", "ones=3"], ["--objective win", "single-column"]),
        (["--rules", "kniffel-4", "--announced", "sevens"], ["--announced 'sevens'"]),
        (["--rules", "kniffel-4", "--sheet", "3:fives=15", "--announced", "fives"], ["filled already"]),
    ],
)
def test_bad_multi_column_input_is_one_clear_line(invoke: Invoke, args: list[str], needles: list[str]) -> None:
    assert_bad_input(invoke(["advise", "--dice", "13356", "--rolls-left", "1", *args]), *needles)


def test_only_the_announced_column_open_needs_the_announced_box(invoke: Invoke) -> None:
    rules = get("kniffel-4")
    full = " ".join(f"{c}:{b}={5 if b == 'chance' else 0}" for c in (1, 2, 4) for b in rules.category_ids)
    args = ["advise", "--rules", "kniffel-4", "--dice", "13356", "--rolls-left", "1", "--sheet", full]
    assert_bad_input(invoke(args), "only the announced column is open", "--announced BOX")
    every = full + " " + " ".join(f"3:{b}={5 if b == 'chance' else 0}" for b in rules.category_ids)
    assert_bad_input(invoke([*args[:-1], every]), "the sheet is full")
