"""Knaster in detail (issue 6): several lines at once, forced circles, the last number, turn order, bots.

Scenario tests build grids with :meth:`KnasterGrid.parse` and play the called numbers through the engine
(``roll``, ``throw A B``, ``write N at CELL``, ``circle CELL``, ``pass``). A model-checked random playout
recomputes, at every step and independently of the engine, the duties a write creates (combinations written
from RULES.md), the turn order, the end of the game and the score. Every bot then plays many seeded games.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasch.bots import make_bot
from pasch.engine import (
    Action,
    Circle,
    Game,
    KnasterGrid,
    KnasterState,
    Pass,
    Roll,
    Throw,
    Write,
    line_combination,
    new_game,
)
from pasch.errors import IllegalActionError, InvalidActionError
from pasch.rules import KnasterRules, get

RULES = get("knaster")
EMPTY = ". . . . .\n" * 5
ROW_VALUES = (9, 8, 7, 6, 5)  # RULES.md: rows top to bottom, columns left to right, diagonals 10
COL_VALUES = (9, 8, 7, 6, 5)
DIAG_VALUES = (10, 10)


# -- an independent reference, written from RULES.md ------------------------------------------------------------
def ref_lines() -> list[tuple[str, list[tuple[int, int]], int]]:
    """Every line as (name, cells as (row, column), value)."""
    lines = [(f"row {r + 1}", [(r, c) for c in range(5)], ROW_VALUES[r]) for r in range(5)]
    lines += [(f"column {'abcde'[c]}", [(r, c) for r in range(5)], COL_VALUES[c]) for c in range(5)]
    lines.append(("diagonal a1-e5", [(i, i) for i in range(5)], DIAG_VALUES[0]))
    lines.append(("diagonal e1-a5", [(i, 4 - i) for i in range(5)], DIAG_VALUES[1]))
    return lines


LINES = ref_lines()


def ref_circles_owed(numbers: Sequence[int]) -> int:
    """Circles a complete line earns: the best of its combinations (RULES.md)."""
    counts = sorted(Counter(numbers).values(), reverse=True)
    earned = [0]
    if counts[0] >= 3:
        earned.append(1)  # three alike
    if counts[0] >= 4:
        earned.append(2)  # four alike
    if counts[0] == 5:
        earned.append(3)  # five alike
    if counts in ([2, 2, 1], [3, 2]):
        earned.append(1)  # two pairs of different numbers
    if counts == [3, 2]:
        earned.append(2)  # full house
    low = min(numbers)
    if sorted(numbers) == list(range(low, low + 5)):
        earned.append(3)  # straight, in any order
    return max(earned)


def cell(grid: KnasterGrid, r: int, c: int) -> tuple[int, bool]:
    name = f"{'abcde'[c]}{r + 1}"
    return grid.number(name) or 0, grid.is_circled(name)


def ref_score(grid: KnasterGrid) -> int:
    circled = {(r, c) for r in range(5) for c in range(5) if cell(grid, r, c)[1]}
    return len(circled) + sum(value for _, cells, value in LINES if all(rc in circled for rc in cells))


def ref_duties(before: KnasterGrid, r: int, c: int, number: int) -> dict[str, int]:
    """Lines that writing ``number`` at (r, c) completes, with the circles each owes (capped)."""
    out = {}
    for name, cells, _ in LINES:
        if (r, c) not in cells:
            continue
        nums = [number if rc == (r, c) else cell(before, *rc)[0] for rc in cells]
        if 0 in nums:
            continue
        owed = ref_circles_owed(nums)
        uncircled = sum(1 for rc in cells if not cell(before, *rc)[1])
        if min(owed, uncircled):
            out[name] = min(owed, uncircled)
    return out


# -- helpers ------------------------------------------------------------------------------------------------
def table(grids: Sequence[str], number: int, thrower: int = 0) -> KnasterState:
    """Players with these grids; ``thrower`` has just thrown ``number`` (as 1+n-1 or n-6+6)."""
    base = KnasterState.new(RULES, [f"P{i}" for i in range(len(grids))])
    state = dataclasses.replace(
        base, grids=tuple(KnasterGrid.parse(g) for g in grids), thrower=thrower, current=thrower
    )
    return state.apply("roll").apply(throw_for(number))


def throw_for(number: int) -> str:
    return f"throw {1} {number - 1}" if number <= 7 else f"throw {number - 6} 6"


def refused(state: KnasterState, action: str, *words: str) -> None:
    with pytest.raises((IllegalActionError, InvalidActionError)) as info:
        state.apply(action)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert Action.parse(action) not in state.legal_actions()


def duties(state: KnasterState) -> dict[str, int]:
    return {d.name: d.owed for d in state.duties}


# -- several lines completed by one number ----------------------------------------------------------------------
def test_one_cell_completes_row_column_and_diagonal_and_one_circle_scores_all_three() -> None:
    grid = """
    .   (5) (5) (7) (7)
    (5) (5)  .   .   .
    (6)  .  (5)  .   .
    (6)  .   .  (8)  .
    (9)  .   .   .  (8)
    """
    s = table([grid], 5).apply("write 5 at a1")
    # row 1: 5 5 5 7 7 full house; column a: 5 5 6 6 9 two pairs; diagonal: 5 5 5 8 8 full house.
    # Each has one uncircled cell left (a1), so each owes one circle.
    assert [(d.name, d.combination, d.owed) for d in s.duties] == [
        ("row 1", "full_house", 1),
        ("column a", "two_pairs", 1),
        ("diagonal a1-e5", "full_house", 1),
    ]
    assert duties(s) == ref_duties(KnasterGrid.parse(grid), 0, 0, 5)
    assert s.legal_actions() == (Circle("a1"),)
    s = s.apply("circle a1")
    assert not s.duties and s.legal_actions() == (Roll(),)
    g = s.grids[0]
    assert g.scored_lines() == (0, 5, 10)
    assert g.circles == 13
    assert s.total(0) == 9 + 9 + 10 + 13 == ref_score(g)


def test_centre_cell_completing_four_fully_circled_lines_scores_34_line_points() -> None:
    grid = """
    (2)  .  (4)  .  (6)
     .  (3) (5) (7)  .
    (4) (5)  .  (5) (6)
     .  (7) (3) (3)  .
    (6)  .  (9)  .  (10)
    """
    s = table([grid], 5).apply("write 5 at c3")
    # row 3: 4 5 5 5 6 three alike; column c: 4 5 5 3 9 one pair only: nothing owed;
    # main diagonal 2 3 5 3 10: one pair: nothing; anti-diagonal 6 7 5 7 6: two pairs.
    assert duties(s) == {"row 3": 1, "diagonal e1-a5": 1} == ref_duties(KnasterGrid.parse(grid), 2, 2, 5)
    s = s.apply("circle c3")
    assert not s.duties
    # Circling c3 completes all four lines' circles, column c and the main diagonal included.
    assert s.grids[0].scored_lines() == (2, 7, 10, 11)
    assert s.total(0) == 7 + 7 + 10 + 10 + 17 == ref_score(s.grids[0])


def test_a_line_without_combination_scores_once_circled_by_called_numbers() -> None:
    s = table(["(2) (4) (6) (8) .\n" + ". . . . .\n" * 4], 10).apply("write 10 at e1")
    assert not s.duties and s.total(0) == 4  # 2 4 6 8 10: no combination, no circle owed
    s = s.apply("roll").apply(throw_for(10))
    assert Circle("e1") in s.legal_actions()
    s = s.apply("circle e1")
    assert s.grids[0].scored_lines() == (0,) and s.total(0) == 9 + 5


def test_forced_circles_only_when_the_line_is_completed() -> None:
    # Row 1 holds four numbers forming three alike already: nothing is owed before the fifth.
    s = table(["7 7 7 . .\n" + ". . . . .\n" * 4], 7).apply("write 7 at d1")
    assert not s.duties
    s = s.apply("roll").apply(throw_for(4)).apply("write 4 at e1")
    assert [(d.name, d.combination, d.owed) for d in s.duties] == [("row 1", "four_alike", 2)]
    s = s.apply("circle a1").apply("circle e1")
    assert not s.duties
    # Later numbers in a complete line are ordinary circles: one per number, no new duty.
    s = s.apply("roll").apply(throw_for(7)).apply("circle b1")
    assert not s.duties and s.legal_actions() == (Roll(),) and s.grids[0].circles == 3


def test_owed_circles_come_before_everything_and_only_in_owed_lines() -> None:
    grid = """
    4 9 4 4 .
    9 . . . .
    . . . . .
    . . . . .
    . . . . .
    """
    s = table([grid], 9).apply("write 9 at e1")
    assert duties(s) == {"row 1": 2}
    # a2 holds the called 9, so circling it would be an ordinary move, but not while circles are owed.
    refused(s, "circle a2", "a2 is in no line owed now", "2 more cells in row 1 (full house)")
    refused(s, "write 9 at b2", "must first circle")
    refused(s, "roll", "9 is already called")
    s = s.apply("circle b1")
    refused(s, "circle b1", "b1 is already circled")
    s = s.apply("circle e1")
    assert not s.duties and s.grids[0].circles == 2


def test_best_combination_counts_and_the_table_is_data() -> None:
    # RULES.md values: a full house is also two pairs and three alike; it earns 2.
    assert line_combination([4, 9, 4, 4, 9]) == ("full_house", 2)
    assert line_combination([8, 8, 8, 8, 8]) == ("five_alike", 3)
    assert line_combination([6, 3, 6, 6, 6]) == ("four_alike", 2)
    # With two pairs worth more, a full house line pays as two pairs; four alike is no two pairs.
    rich_pairs = KnasterRules(combinations=(("two_pairs", 4), ("full_house", 2), ("four_alike", 2)))
    assert line_combination([4, 9, 4, 4, 9], rich_pairs) == ("two_pairs", 4)
    assert line_combination([6, 3, 6, 6, 6], rich_pairs) == ("four_alike", 2)
    assert line_combination([7, 8, 7, 7, 4], rich_pairs) == (None, 0)  # three alike not in this table
    for _ in range(300):
        nums = [random.randint(2, 12) for _ in range(5)]
        assert line_combination(nums)[1] == ref_circles_owed(nums), nums


# -- turns, passes, several players ------------------------------------------------------------------------
def test_duties_are_per_player_and_hold_up_the_table() -> None:
    straight = "7 10 8 6 .\n" + ". . . . .\n" * 4
    pairs = ". . . . .\n" * 4 + "9 6 6 10 ."
    s = table([EMPTY, straight, pairs], 9, thrower=1)  # Bob throws 9
    assert s.current_name == "P1"
    s = s.apply("write 9 at e1")
    assert s.current_name == "P1" and duties(s) == {"row 1": 3}
    with pytest.raises(IllegalActionError, match="P1's turn, not P2's"):
        s.apply("write 9 at a1", player=2)
    for c in ("a1", "c1", "e1"):
        s = s.apply(f"circle {c}", player=1)
    assert s.current_name == "P2"
    assert s.grids[1].circles == 3
    s = s.apply("write 9 at e5")  # 9 6 6 10 9: two pairs, one circle owed by P2 alone
    assert s.current_name == "P2" and duties(s) == {"row 5": 1}
    with pytest.raises(IllegalActionError, match="P2's turn, not P0's"):
        s.apply("write 9 at a1", player=0)
    s = s.apply("circle b5")
    assert s.current_name == "P0" and not s.duties
    s = s.apply("write 9 at a1")
    assert s.current_name == "P2" and s.number is None and s.legal_actions() == (Roll(),)  # P2 throws next
    assert [g.circles for g in s.grids] == [0, 3, 1]


def test_everyone_acts_on_each_number_from_the_thrower_round_the_table() -> None:
    s = new_game("knaster", ["Ada", "Bob", "Cy", "Dee"])
    seen: list[tuple[str, list[str]]] = []
    for n, number in enumerate((2, 3, 5, 9, 12, 7)):  # row 1 completes with no combination
        thrower = s.current_name
        assert s.legal_actions() == (Roll(),)
        s = s.apply("roll").apply(throw_for(number))
        order = []
        for _ in range(4):
            order.append(s.current_name)
            s = s.apply(f"write {number} at {'abcde'[n % 5]}{1 + n // 5}")
        seen.append((thrower, order))
        assert s.turn == n + 1
    names = ["Ada", "Bob", "Cy", "Dee"]
    for n, (thrower, order) in enumerate(seen):
        assert thrower == names[n % 4]
        assert order == [names[(n + k) % 4] for k in range(4)]
    assert s.round == 2 and s.current_name == "Cy"


def test_pass_only_with_a_full_grid_and_no_uncircled_called_number() -> None:
    full = "\n".join(" ".join(["(5)"] * 5) for _ in range(4)) + "\n(7) 6 6 5 5"
    s = table([full, EMPTY], 7)
    s = dataclasses.replace(s, end_announced=True)
    assert s.legal_actions() == (Pass(),)  # the only 7 is circled, the grid is full
    s = s.apply("pass")
    refused(s, "pass", "P1 can write 7 into an empty cell")
    s = s.apply("write 7 at c3")
    assert s.is_terminal


# -- the end: the number during which a 25th cell is written, then one more number -------------------------
def _full_except(cells: set[str], seed: int) -> str:
    rng = random.Random(seed)
    rows = []
    for r in range(5):
        row = ["." if f"{'abcde'[c]}{r + 1}" in cells else str(rng.choice([2, 3, 11, 12])) for c in range(5)]
        rows.append(" ".join(row))
    return "\n".join(rows)


def test_two_grids_full_on_the_same_number_still_one_more_number() -> None:
    s = table([_full_except({"e5"}, 1), EMPTY, _full_except({"a1"}, 2)], 8)
    s = finish_duties(s.apply("write 8 at e5"))
    s = s.apply("write 8 at c3")
    s = finish_duties(s.apply("write 8 at a1"))
    assert s.end_announced and not s.is_terminal and s.is_last_number
    assert s.current_name == "P1" and s.legal_actions() == (Roll(),)  # the next seat throws the last number
    s = s.apply("roll").apply("throw 3 4")
    for _ in range(3):
        assert not s.is_terminal
        s = s.apply(s.legal_actions()[0])
    assert s.is_terminal and s.legal_actions() == ()
    refused(s, "roll", "the game is over")


def finish_duties(s: KnasterState) -> KnasterState:
    while s.duties:
        s = s.apply(s.legal_actions()[0])
    return s


def test_a_25th_cell_on_the_last_number_does_not_extend_the_game() -> None:
    s = table([_full_except({"a1"}, 3), _full_except({"b2", "c4"}, 4)], 7)
    s = finish_duties(s.apply("write 7 at a1"))  # P0's 25th cell
    s = finish_duties(s.apply("write 7 at c4"))  # P1's 24th
    assert s.end_announced and s.grids[0].is_full and not s.grids[1].is_full
    s = s.apply("roll").apply("throw 2 2")  # P1 throws the last number, 4
    assert s.current_name == "P1" and s.is_last_number
    s = finish_duties(s.apply("write 4 at b2"))  # P1's 25th cell, on the last number
    assert s.current_name == "P0" and not s.is_terminal
    assert s.legal_actions() == (Pass(),)  # a full grid without a 4
    s = s.apply("pass")
    assert s.is_terminal and all(g.is_full for g in s.grids)
    assert s.totals() == tuple(ref_score(g) for g in s.grids)


def test_the_25th_cell_owes_its_circles_before_the_last_number() -> None:
    grid = """
    (2) (2) (2) (2) (2)
    (3) (3) (3) (3) (3)
    (4) (4) (4) (4) (4)
    (5) (5) (5) (5) (5)
     6   7   8   9   .
    """
    s = table([grid], 10).apply("write 10 at e5")
    # row 5 is a straight (3 of 5 uncircled cells), column e 2 3 4 5 10 nothing, diagonal 2 3 4 5 10 nothing.
    assert duties(s) == {"row 5": 3}
    assert not s.end_announced
    for c in ("a5", "b5", "e5"):
        s = s.apply(f"circle {c}")
    assert s.end_announced and s.legal_actions() == (Roll(),)
    s = s.apply("roll").apply("throw 4 4")  # 8: the uncircled 8 at c5 may be circled
    assert s.legal_actions() == (Circle("c5"),)
    s = s.apply("circle c5")
    assert s.is_terminal
    g = s.grids[0]
    assert g.circles == 24
    # rows 1-4 (9+8+7+6), columns a, b, c, e (9+8+7+5), main diagonal; not row 5 (d5 open) nor column d.
    assert s.total(0) == 9 + 8 + 7 + 6 + 9 + 8 + 7 + 5 + 10 + 10 + 24 == ref_score(g)


def test_illegal_actions_are_refused() -> None:
    s = table(["5 . . . .\n" + ". . . . .\n" * 4, EMPTY], 5)
    for text, words in [
        ("announce chance", ("not an action of Knaster",)),
        ("enter 1 2 3 4 5", ("not an action of Knaster",)),
        ("score 1:chance", ("not an action of Knaster",)),
        ("write 5 at a1", ("a1 already holds 5",)),
        ("write 6 at b1", ("the called number is 5, not 6",)),
        ("circle b1", ("b1 is empty",)),
        ("throw 1 4", ("no dice are in the air",)),
    ]:
        refused(s, text, *words)
    with pytest.raises(IllegalActionError, match="P0's turn, not P1's"):
        s.apply("write 5 at b1", player=1)
    with pytest.raises(InvalidActionError, match="2 dice were thrown, not 3"):
        new_game("knaster", ["Ada"]).apply("roll").apply("throw 1 2 3")


# -- property: random legal play against an independent model ----------------------------------------------
def _model_game(players: int, seed: int, keeper: bool) -> KnasterState:
    rng = random.Random(seed)
    state: KnasterState = new_game("knaster", [f"P{i}" for i in range(players)], keeper=keeper)
    number_index = -1  # index of the number being acted on
    acted_order: list[int] = []
    last_number: int | None = None  # index of the final number, once some grid is full after a number
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal
        if state.is_chance_node:
            action: Action = Throw((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            action = rng.choice(legal)
        if isinstance(action, Roll):
            if number_index >= 0:
                assert acted_order == [(number_index + k) % players for k in range(players)]
                if last_number is None and any(g.is_full for g in state.grids):
                    last_number = number_index + 1
            number_index += 1
            assert state.current == number_index % players  # seats throw in turn
            assert state.is_last_number == (last_number == number_index)
            acted_order = []
        before = state.grids[state.current]
        me = state.current
        after = state.apply(action)
        if isinstance(action, Write):
            r, c = int(action.cell[1]) - 1, "abcde".index(action.cell[0])
            assert action.number == state.number and after.grids[me].number(action.cell) == action.number
            assert cell(before, r, c)[0] == 0
            owed = ref_duties(before, r, c, action.number)
            assert duties(after) == owed if after.current == me and after.duties else not owed
        if isinstance(action, Circle):
            if state.duties:
                owed_cells = {
                    f"{'abcde'[cc]}{rr + 1}" for name, cells, _ in LINES if name in duties(state) for rr, cc in cells
                }
                assert action.cell in owed_cells
            else:
                assert before.number(action.cell) == state.number
        if isinstance(action, Pass):
            assert before.is_full and not state.duties
        if not isinstance(action, Roll | Throw) and (after.current != me or after.number is None or after.over):
            acted_order.append(me)  # done with this number
        for g in after.grids:
            assert g.score(RULES.knaster) == ref_score(g)  # type: ignore[arg-type]
        state = after
    assert acted_order == [(number_index + k) % players for k in range(players)]
    assert last_number == number_index, "the game ends exactly one number after a grid is full"
    assert state.throws == number_index + 1
    assert state.totals() == tuple(ref_score(g) for g in state.grids)
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1), keeper=st.booleans())
def test_random_play_matches_an_independent_model(players: int, seed: int, keeper: bool) -> None:
    _model_game(players, seed, keeper)


# -- every bot plays legal Knaster games ---------------------------------------------------------------------
def _bot_game(seats: Sequence[str], seed: int, keeper: bool = False) -> KnasterState:
    rng = np.random.default_rng(seed)
    bots = [make_bot(name) for name in seats]
    game = Game("knaster", [f"{name}{i}" for i, name in enumerate(seats)], rng=None if keeper else rng, keeper=keeper)
    steps = 0
    while not game.state.is_terminal:
        state = game.state
        if state.is_chance_node:  # keeper mode: the table reports the dice
            game.act(Throw(tuple(sorted(int(d) for d in rng.integers(1, 7, 2)))))
            continue
        action = bots[state.current_player].choose(state, rng)
        assert action in state.legal_actions(), f"{seats[state.current_player]}: {action}"
        game.act(action)
        steps += 1
        assert steps < 2000
    final: KnasterState = game.state
    assert any(g.is_full for g in final.grids)
    assert final.totals() == tuple(ref_score(g) for g in final.grids)
    return final


@pytest.mark.parametrize("bot", ["random", "greedy", "knaster", "optimal"])
def test_every_bot_is_legal_over_many_games(bot: str) -> None:
    for seed in range(40):
        _bot_game([bot] * (1 + seed % 3), seed, keeper=seed % 7 == 6)


def test_mixed_table_of_every_knaster_bot() -> None:
    for seed in range(5):
        final = _bot_game(["knaster", "random", "greedy", "optimal"], 50 + seed)
        assert len(final.totals()) == 4
