"""Knaster engine: every Knaster example of RULES.md, forced circles, the last number, bad input, playouts."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasch.engine import Action, Circle, Game, KnasterGrid, Pass, Roll, Throw, Write, line_combination, new_game, replay
from pasch.engine._knaster import KnasterState
from pasch.errors import IllegalActionError, InvalidActionError
from pasch.rules import KnasterRules, get

RULES = get("knaster")
KN = KnasterRules()


# -- helpers ------------------------------------------------------------------------------------
def at(state: KnasterState, grids: list[str], number: int | None = None, **kw: object) -> KnasterState:
    """A state with the given grids (one text per player) and, optionally, a called number."""
    parsed = tuple(KnasterGrid.parse(g) for g in grids)
    dice = None if number is None else (1, number - 1) if number <= 7 else (number - 6, 6)
    return dataclasses.replace(state, grids=parsed, number=number, dice=dice, **kw)  # type: ignore[arg-type]


def solo(grid: str, number: int | None = None) -> KnasterState:
    return at(KnasterState.new(RULES, ["Ada"]), [grid], number)


def reference_score(grid: KnasterGrid, kn: KnasterRules = KN) -> int:
    """Independent scorer: walk rows, columns and diagonals by (row, column)."""

    def circled(r: int, c: int) -> bool:
        return bool(grid.circled >> (r * 5 + c) & 1)

    points = 0
    for r in range(5):
        if all(circled(r, c) for c in range(5)):
            points += kn.row_values[r]
    for c in range(5):
        if all(circled(r, c) for r in range(5)):
            points += kn.column_values[c]
    if all(circled(i, i) for i in range(5)):
        points += kn.diagonal_values[0]
    if all(circled(i, 4 - i) for i in range(5)):
        points += kn.diagonal_values[1]
    return points + sum(circled(r, c) for r in range(5) for c in range(5))


def refused(state: KnasterState, action: str, *words: str) -> None:
    """The action raises with a message quoting it and containing ``words``; the state is unchanged."""
    before = (state.legal_actions(), state.grids, state.current, state.duties)
    with pytest.raises((IllegalActionError, InvalidActionError)) as info:
        state.apply(action)
    msg = str(info.value)
    for w in words:
        assert w in msg, msg
    assert (state.legal_actions(), state.grids, state.current, state.duties) == before


def play_random(players: int, rng: random.Random, rules: str = "knaster") -> tuple[KnasterState, list[str]]:
    state = new_game(rules, [f"P{i}" for i in range(players)])
    log: list[str] = []
    steps = 0
    while not state.is_terminal:
        if state.is_chance_node:
            action: Action = Throw((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            legal = state.legal_actions()
            assert legal, "no legal action before the end"
            action = rng.choice(legal)
        state = state.apply(action)
        log.append(str(action))
        steps += 1
        assert steps < 5000
    return state, log


# -- combinations (RULES.md examples) -----------------------------------------------------------
@pytest.mark.parametrize(
    ("numbers", "combination", "circles"),
    [
        ((7, 8, 7, 7, 4), "three_alike", 1),
        ((6, 3, 6, 6, 6), "four_alike", 2),
        ((8, 8, 8, 8, 8), "five_alike", 3),
        ((5, 6, 6, 10, 5), "two_pairs", 1),
        ((4, 9, 4, 4, 9), "full_house", 2),
        ((7, 10, 8, 6, 9), "straight", 3),
        ((5, 7, 8, 4, 6), "straight", 3),
        ((4, 5, 6, 7, 10), None, 0),
        ((4, 5, 6, 7, 7), None, 0),
        ((2, 4, 6, 8, 10), None, 0),
    ],
)
def test_line_combinations(numbers: tuple[int, ...], combination: str | None, circles: int) -> None:
    assert line_combination(numbers) == (combination, circles)


@pytest.mark.parametrize(
    ("row", "owed"),
    [("7 8 7 7", 1), ("6 3 6 6", 2), ("8 8 8 8", 3), ("5 6 6 10", 1), ("4 9 4 4", 2), ("7 10 8 6", 3)],
)
def test_completed_row_owes_circles(row: str, owed: int) -> None:
    last = {"7 8 7 7": 4, "6 3 6 6": 6, "8 8 8 8": 8, "5 6 6 10": 5, "4 9 4 4": 9, "7 10 8 6": 9}[row]
    s = solo(f"{row} .\n" + ". . . . .\n" * 4, last).apply(f"write {last} at e1")
    assert [(d.line, d.owed) for d in s.duties] == [(0, owed)]
    assert s.legal_actions() == tuple(Circle(c) for c in ("a1", "b1", "c1", "d1", "e1"))
    for cell in ("a1", "b1", "c1")[:owed]:
        assert s.duties
        s = s.apply(f"circle {cell}")
    assert not s.duties
    assert s.legal_actions() == (Roll(),)
    assert s.grids[0].circles == owed


def test_four_in_a_row_is_no_straight_and_owes_nothing() -> None:
    s = solo("4 5 6 7 .\n" + ". . . . .\n" * 4, 10).apply("write 10 at e1")
    assert s.duties == ()
    assert s.legal_actions() == (Roll(),)


def test_full_diagonal_scores_ten() -> None:
    g = KnasterGrid.parse(
        """
        (2) .   .   .   .
        .   (3) .   .   .
        .   .   (4) .   .
        .   .   .   (5) .
        .   .   .   .   (6)
        """
    )
    assert g.scored_lines() == (10,)
    assert g.line_points(KN) == 10
    assert g.score(KN) == 15 == reference_score(g)


def test_three_lines_and_fifteen_circles_total_41() -> None:
    g = KnasterGrid.parse(
        """
        (2) (3) (4) (5) (6)
        7   (8) .   .   (9)
        (2) (3) (4) (5) (6)
        (2) .   .   (7) .
        .   .   .   .   (8)
        """
    )
    assert g.circles == 15
    assert g.scored_lines() == (0, 2, 10)
    assert g.line_points(KN) == 9 + 10 + 7
    assert g.score(KN) == 41 == reference_score(g)


def test_line_values_are_configurable() -> None:
    rules = get("knaster+rows=1,2,3,4,5+diags=20,30")
    s = dataclasses.replace(
        new_game(rules, ["Ada"]), grids=(KnasterGrid.parse("(2) (2) (2) (2) (2)\n" + ". . . . .\n" * 4),)
    )
    assert s.total(0) == 1 + 5
    g = KnasterGrid.parse("\n".join(" ".join("(2)" if c == 4 - r else "." for c in range(5)) for r in range(5)))
    assert g.score(rules.knaster) == 30 + 5  # type: ignore[arg-type]


# -- forced circles -----------------------------------------------------------------------------
def test_circles_are_capped_by_uncircled_cells() -> None:
    s = solo("(7) (10) (8) (6) .\n" + ". . . . .\n" * 4, 9).apply("write 9 at e1")
    assert [(d.combination, d.owed) for d in s.duties] == [("straight", 1)]
    refused(s, "circle a2", "row 1")
    s = s.apply("circle e1")
    assert not s.duties
    assert s.grids[0].scored_lines() == (0,)
    assert s.total(0) == 9 + 5


def test_write_and_pass_refused_while_circles_are_owed() -> None:
    s = solo("4 9 4 4 .\n" + ". . . . .\n" * 4, 9).apply("write 9 at e1")
    refused(s, "write 9 at a2", "must first circle 2 more cells in row 1 (full house)")
    refused(s, "pass", "must first circle")
    refused(s, "roll", "already called")
    refused(s, "circle b2", "b2 is in no line owed now")
    s = s.apply("circle b1").apply("circle e1")
    refused(s.apply("roll"), "circle a1", "dice are still in the air")


def test_two_lines_at_once_shared_cell_counts_for_first_line() -> None:
    # e1 completes row 1 (full house 4 9 4 4 9: 2 circles) and column e (straight 9 5 7 8 6: 3 circles).
    grid = """
    4 9 4 4 .
    . . . . 5
    . . . . 7
    . . . . 8
    . . . . 6
    """
    s = solo(grid, 9).apply("write 9 at e1")
    assert [(d.name, d.combination, d.owed) for d in s.duties] == [
        ("row 1", "full_house", 2),
        ("column e", "straight", 3),
    ]
    legal = {str(a) for a in s.legal_actions()}
    assert legal == {f"circle {c}" for c in ("a1", "b1", "c1", "d1", "e1", "e2", "e3", "e4", "e5")}
    # The shared cell with no line being worked on counts for the first owed line (row 1).
    s1 = s.apply("circle e1")
    assert [(d.line, d.owed) for d in s1.duties] == [(0, 1), (9, 3)]
    assert s1.working == 0
    # Started on column e: the shared cell counts for column e.
    s2 = s.apply("circle e2").apply("circle e1")
    assert [(d.line, d.owed) for d in s2.duties] == [(0, 2), (9, 1)]
    s2 = s2.apply("circle e3").apply("circle a1").apply("circle b1")
    assert not s2.duties
    assert s2.grids[0].circles == 5
    assert s2.legal_actions() == (Roll(),)


def test_line_done_when_another_line_takes_its_last_uncircled_cell() -> None:
    grid = """
    (4) (9) (4) (4) .
    .    .   .   .  5
    .    .   .   .  7
    .    .   .   .  8
    .    .   .   .  6
    """
    s = solo(grid, 9).apply("write 9 at e1")
    assert [(d.line, d.owed) for d in s.duties] == [(0, 1), (9, 3)]
    s = s.apply("circle e2").apply("circle e1")  # e1 counts for column e and also finishes row 1
    assert [(d.line, d.owed) for d in s.duties] == [(9, 1)]
    s = s.apply("circle e5")
    assert not s.duties
    assert s.grids[0].scored_lines() == (0,)
    assert s.total(0) == 9 + 7


def test_centre_cell_completes_four_lines() -> None:
    grid = """
    2 . 3 . 5
    . 2 3 5 .
    3 3 . 3 3
    . 6 3 4 .
    6 . 3 . 4
    """
    s = solo(grid, 3).apply("write 3 at c3")
    assert [(d.name, d.combination, d.owed) for d in s.duties] == [
        ("row 3", "five_alike", 3),
        ("column c", "five_alike", 3),
        ("diagonal a1-e5", "two_pairs", 1),
        ("diagonal e1-a5", "two_pairs", 1),
    ]
    for cell in ("c3", "a3", "b3", "c1", "c2", "c4", "a1", "e1"):
        assert s.duties
        s = s.apply(f"circle {cell}")
    assert not s.duties
    assert s.grids[0].circles == 8


def test_line_without_combination_owes_nothing() -> None:
    s = solo("2 4 6 8 .\n" + ". . . . .\n" * 4, 10).apply("write 10 at e1")
    assert not s.duties


# -- turn order, pass, end ----------------------------------------------------------------------
def test_turn_order_every_player_acts_starting_with_the_thrower() -> None:
    s = new_game("knaster", ["Ada", "Bob", "Cy"])
    assert s.legal_actions() == (Roll(),) and s.current_name == "Ada"
    refused(s, "write 7 at a1", "roll")
    with pytest.raises(IllegalActionError, match="Ada's turn, not Bob's"):
        s.apply("roll", player=1)
    s = s.apply("roll")
    assert s.is_chance_node and s.pending == 2
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[Throw((3, 4))] == Fraction(2, 36)
    assert s.legal_actions() == tuple(t for t, _ in outcomes)
    s = s.apply("throw 3 6")
    assert s.number == 9
    order = []
    for cell in ("a1", "b1", "c1"):
        order.append(s.current_name)
        s = s.apply(f"write 9 at {cell}", player=s.current)
    assert order == ["Ada", "Bob", "Cy"]
    assert s.current_name == "Bob" and s.legal_actions() == (Roll(),)
    s = s.apply("roll").apply("throw 6 5")
    order = []
    for cell in ("a2", "b2", "c2"):
        order.append(s.current_name)
        s = s.apply(f"write 11 at {cell}")
    assert order == ["Bob", "Cy", "Ada"]
    assert s.current_name == "Cy"
    assert s.turn == 2 and s.round == 1


def test_circle_instead_of_writing() -> None:
    s = solo("11 . . . .\n. . . . 11\n" + ". . . . .\n" * 3, 11)
    assert Circle("a1") in s.legal_actions() and Circle("e2") in s.legal_actions()
    s = s.apply("circle a1")
    assert s.grids[0].is_circled("a1") and s.grids[0].written == 2
    assert s.total(0) == 1


def test_pass_only_when_nothing_else_is_possible() -> None:
    full = "\n".join(" ".join(["5"] * 5) for _ in range(4)) + "\n(7) 6 6 5 5"
    s = at(KnasterState.new(RULES, ["Ada", "Bob"]), [full, ". . . . .\n" * 5], 7, end_announced=True)
    assert s.legal_actions() == (Pass(),)
    refused(s, "write 7 at a1", "a1 already holds 5")
    refused(s, "circle a5", "a5 is already circled")
    s = s.apply("pass")
    assert s.current_name == "Bob"
    refused(s, "pass", "Bob can write 7 into an empty cell")
    s2 = at(KnasterState.new(RULES, ["Ada"]), [full.replace("(7)", "7")], 7)
    assert s2.legal_actions() == (Circle("a5"),)
    refused(s2, "pass", "can circle the 7 at a5")


def test_bad_input_is_refused_with_a_clear_message() -> None:
    s = solo("5 . . . .\n" + ". . . . .\n" * 4, 7)
    refused(s, "write 8 at b3", "the called number is 7, not 8")
    refused(s, "write 7 at a1", "a1 already holds 5")
    refused(s, "circle a1", "a1 holds 5, not the called 7")
    refused(s, "circle b3", "b3 is empty")
    refused(s, "score chance", "not an action of Knaster")
    refused(s, "keep 3", "not an action of Knaster")
    refused(s, "throw 3 4", "no dice are in the air")
    refused(s, "roll", "7 is already called")
    refused(s, "write 7 at f1", "'f1' is not a cell")
    refused(s, "write 7 at b9", "'b9' is not a cell")
    refused(s, "circle", "is not an action")
    refused(s, "write seven at b3", "write a number")
    r = new_game("knaster", ["Ada"]).apply("roll")
    refused(r, "throw 3", "2 dice were thrown, not 1")
    refused(r, "throw 3 7", "7 is not a die")
    refused(r, "write 7 at b3", "dice are still in the air")
    with pytest.raises(IllegalActionError, match="knaster is played by 1 to 20 players, not 21"):
        new_game("knaster", [f"P{i}" for i in range(21)])
    with pytest.raises(IllegalActionError, match="must differ"):
        new_game("knaster", ["Ada", "Ada"])


def _full_but(cell_row: int, cell_col: int) -> str:
    rows = []
    for r in range(5):
        rows.append(" ".join("." if (r, c) == (cell_row, cell_col) else str(2 + (r + 2 * c) % 11) for c in range(5)))
    return "\n".join(rows)


def test_last_number_after_a_25th_cell_solo() -> None:
    s = solo(_full_but(4, 4), 12)
    s = s.apply("write 12 at e5")
    while s.duties:
        s = s.apply(s.legal_actions()[0])
    assert s.grids[0].is_full and s.end_announced and not s.is_terminal
    assert s.legal_actions() == (Roll(),)
    s = s.apply("roll").apply("throw 1 1")
    assert s.is_last_number
    assert all(isinstance(a, Circle | Pass) for a in s.legal_actions())
    s = s.apply(s.legal_actions()[0])
    assert s.is_terminal and s.legal_actions() == ()
    refused(s, "roll", "the game is over")
    assert s.outcome().final and s.outcome().winners == ("Ada",)


def test_last_number_after_a_25th_cell_multiplayer() -> None:
    base = KnasterState.new(RULES, ["Ada", "Bob", "Cy"])
    s = at(base, [". . . . .\n" * 5, _full_but(0, 0), ". . . . .\n" * 5], 6, thrower=0, current=0)
    s = s.apply("write 6 at a1")  # Ada
    s = s.apply("write 6 at a1")  # Bob fills his 25th cell
    while s.duties:
        s = s.apply(s.legal_actions()[0])
    assert s.current_name == "Cy" and not s.end_announced
    s = s.apply("write 6 at a1")  # Cy still acts on the same number
    assert s.end_announced and s.current_name == "Bob" and not s.is_terminal
    s = s.apply("roll").apply("throw 2 2")
    assert [s.current_name] == ["Bob"]
    assert all(isinstance(a, Circle | Pass) for a in s.legal_actions())
    s = s.apply(s.legal_actions()[0])
    s = s.apply("write 4 at b1")  # Cy
    assert not s.is_terminal
    s = s.apply("write 4 at b1")  # Ada
    assert s.is_terminal
    assert s.outcome().totals == s.totals()


def test_keeper_mode_plays_the_same() -> None:
    s = new_game("knaster", ["Ada"], keeper=True)
    assert s.keeper
    s = s.apply("roll").apply("throw 4 5").apply("write 9 at c3")
    assert s.grids[0].number("c3") == 9


def test_render_shows_numbers_circles_and_scored_lines() -> None:
    g = KnasterGrid.parse("(2) (3) (4) (5) (6)\n" + "7 . . . .\n" + ". . . . .\n" * 3)
    text = str(g)
    assert "(2)" in text and "[9]" in text and " 7 " in text
    assert "written 6/25, circled 5, total 14" in text
    s = dataclasses.replace(new_game("knaster", ["Ada"]), grids=(g,))
    assert s.render().startswith("Ada\n")


def test_grid_parse_refuses_bad_text() -> None:
    with pytest.raises(InvalidActionError, match="five rows"):
        KnasterGrid.parse("1 2 3")
    with pytest.raises(InvalidActionError, match="a cell holds a number 2-12"):
        KnasterGrid.parse("13 . . . .\n" + ". . . . .\n" * 4)


# -- playouts, round trip, replay ---------------------------------------------------------------
def _check_game(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game("knaster", [f"P{i}" for i in range(players)])
    log: list[str] = []
    numbers = 0
    while not state.is_terminal:
        if state.is_chance_node:
            action: Action = Throw((rng.randint(1, 6), rng.randint(1, 6)))
            numbers += 1
        else:
            legal = state.legal_actions()
            assert legal
            assert list(legal) == sorted(legal)
            if len(legal) == 1 and isinstance(legal[0], Pass):
                assert state.grids[state.current].is_full
            action = rng.choice(legal)
        assert Action.parse(str(action)) == action
        state = state.apply(action)
        log.append(str(action))
        assert numbers <= 51
    full = [g.is_full for g in state.grids]
    assert any(full)
    for g in state.grids:
        assert g.score(KN) == reference_score(g)
    assert state.totals() == tuple(reference_score(g) for g in state.grids)
    game_log = Game("knaster", state.players).log
    rebuilt = replay(dataclasses.replace(game_log, actions=tuple(log)))
    assert rebuilt == state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_random_playouts(players: int, seed: int) -> None:
    _check_game(players, seed)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(players=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_many(players: int, seed: int) -> None:
    _check_game(players, seed)


def test_replay_of_a_seeded_game() -> None:
    rng = random.Random(7)
    game = Game("knaster", ["Ada", "Bob"], seed=3)
    while not game.state.is_terminal:
        game.act(rng.choice(game.state.legal_actions()))
    assert replay(game.log.to_json()) == game.state
    assert replay(game.log, upto=3) == new_game("knaster", ["Ada", "Bob"]).apply("roll").apply(
        game.log.actions[1]
    ).apply(game.log.actions[2])


def test_every_legal_action_applies_and_others_do_not() -> None:
    rng = random.Random(11)
    state, _ = play_random(2, rng)
    assert state.is_terminal
    s = new_game("knaster", ["Ada"]).apply("roll").apply("throw 2 3")
    legal = set(s.legal_actions())
    for n in range(2, 13):
        for r in range(5):
            for c in "abcde":
                a = Write(n, f"{c}{r + 1}")
                assert s.is_legal(a) == (a in legal)


# -- several lines at once: the engine reaches every outcome a table player can --------------------
def _table_outcomes(grid: KnasterGrid, w: int, lines: list[tuple[int, int]]) -> set[int]:
    """Final circle masks of the table rule: lines handled one after another in any order."""
    from itertools import combinations, permutations

    from pasch.engine import LINES

    out: set[int] = set()

    def go(circled: int, rest: tuple[tuple[int, int], ...]) -> None:
        if not rest:
            out.add(circled)
            return
        (line, k), tail = rest[0], rest[1:]
        free = [i for i in LINES[line] if not circled >> i & 1]
        for pick in combinations(free, min(k, len(free))):
            go(circled | sum(1 << i for i in pick), tail)

    for order in permutations(lines):
        go(grid.circled, tuple(order))
    return out


def _engine_outcomes(state: KnasterState) -> set[int]:
    seen: dict[KnasterState, None] = {}
    out: set[int] = set()

    def go(s: KnasterState) -> None:
        if s in seen:
            return
        seen[s] = None
        if not s.duties:
            out.add(s.grids[0].circled)
            return
        for a in s.legal_actions():
            go(s.apply(a))

    go(state)
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), w=st.sampled_from([0, 4, 6, 12, 2]))
def test_several_lines_reach_every_useful_table_outcome(seed: int, w: int) -> None:
    from pasch.engine import CELL_LINES, LINES

    rng = random.Random(seed)
    cells = {i for k in CELL_LINES[w] for i in LINES[k]} - {w}
    number = rng.choice([5, 6, 7, 8])
    numbers = [rng.choice([5, 6, 7, 8, 9]) if i in cells else 0 for i in range(25)]
    circled = sum(1 << i for i in cells if rng.random() < 0.3)
    filled = sum(1 << i for i in cells)
    grid = KnasterGrid(tuple(numbers), filled, circled)
    s = dataclasses.replace(KnasterState.new(RULES, ["Ada"]), grids=(grid,), number=number, dice=(1, number - 1))
    s = s.apply(Write(number, "abcde"[w % 5] + str(w // 5 + 1)))
    written = s.grids[0]
    lines = [(k, line_combination(written.line_numbers(k))[1]) for k in CELL_LINES[w]]
    lines = [(k, n) for k, n in lines if n]
    table = _table_outcomes(written, w, lines)
    engine = _engine_outcomes(s)
    assert engine <= table
    for missing in table - engine:
        assert any(missing & e == missing and missing != e for e in engine)
