"""Multi-column games in detail (issue 6): jetsi, kniffel-3 and kniffel-4 played through the engine.

Fill orders per column, the announced column's obligations, five-alike rules judged per column, totals per
column and the grand total, the last turn, a model-checked random playout of kniffel-4 and every bot's
legality over many seeded games (mixed tables, 1-3 players, score keeper). Every expectation is written
from RULES.md and docs/rules.md; states are built by applying action texts (``roll``, ``throw ...``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasch.bots import make_bot
from pasch.engine import Action, Announce, Enter, Game, GameState, Keep, Roll, Score, Throw, new_game, replay
from pasch.errors import IllegalActionError, InvalidActionError

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance")
SHEET = UPPER + LOWER
MISS = "1 2 3 4 6"  # no five-alike, no full house, no large straight: a safe throw for crossing out


# -- helpers --------------------------------------------------------------------------------------------
def solo(rules: str, keeper: bool = False) -> GameState:
    state: GameState = new_game(rules, ["Ada"], keeper=keeper)
    return state


def thrown(state: GameState, dice: str) -> GameState:
    """The first throw of a turn showing ``dice``."""
    return state.apply("roll").apply(f"throw {dice}")


def turns(state: GameState, plays: Sequence[tuple[str, str]]) -> GameState:
    """Whole turns of (first throw, action after it[, ...]) for whoever is to act; ``;`` separates actions."""
    for dice, actions in plays:
        state = thrown(state, dice)
        for text in actions.split(";"):
            state = state.apply(text.strip())
    return state


def options(state: GameState, column: int | None = None) -> dict[str, tuple[int, int]]:
    """Every legal entry now as ``"C:box" -> (points, extra)`` (1-based columns)."""
    out = {}
    for c, o in state.score_options():
        if column is None or c + 1 == column:
            out[f"{c + 1}:{state.rules.categories[o.index].id}"] = (o.points, o.extra)
    return out


def legal_scores(state: GameState, column: int) -> list[str]:
    return [a.category for a in state.legal_actions() if isinstance(a, Score) and a.column == column]


def box(state: GameState, column: int, cid: str, player: int = 0) -> int | None:
    return state.sheets[player].columns[column - 1].scores[state.rules.category_index(cid)]


def refused(state: GameState, action: str, *words: str) -> None:
    """``action`` raises IllegalActionError quoting it and saying ``words``; the state is unchanged."""
    before = (state.sheets, state.dice, state.throws, state.announced, state.turn)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    msg = str(info.value)
    assert repr(action) in msg or action in msg, msg
    for w in words:
        assert w in msg, msg
    assert (state.sheets, state.dice, state.throws, state.announced, state.turn) == before
    assert not state.is_legal(Action.parse(action))


def ref_points(cid: str, dice: Sequence[int]) -> int:
    """Yahtzee-family box value of dice that are not five alike (written from RULES.md's table)."""
    counts = Counter(dice)
    faces = set(dice)
    if cid in UPPER:
        face = UPPER.index(cid) + 1
        return face * counts[face]
    if cid == "three_of_a_kind":
        return sum(dice) if max(counts.values()) >= 3 else 0
    if cid == "four_of_a_kind":
        return sum(dice) if max(counts.values()) >= 4 else 0
    if cid == "full_house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if cid == "small_straight":
        return 30 if any(set(range(lo, lo + 4)) <= faces for lo in (1, 2, 3)) else 0
    if cid == "large_straight":
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if cid == "yahtzee":
        return 50 if len(counts) == 1 else 0
    assert cid == "chance"
    return sum(dice)


def ref_column_total(scores: dict[str, int], extra: int = 0) -> int:
    upper = sum(scores[c] for c in UPPER)
    return upper + (35 if upper >= 63 else 0) + sum(scores[c] for c in LOWER) + extra


# -- fill orders --------------------------------------------------------------------------------------------
ORDERED = [
    ("jetsi", 2, SHEET, 1),
    ("jetsi", 3, tuple(reversed(SHEET)), 1),
    ("kniffel-3", 1, SHEET, 3),
    ("kniffel-3", 2, tuple(reversed(SHEET)), 3),
    ("kniffel-4", 1, SHEET, 4),
    ("kniffel-4", 2, tuple(reversed(SHEET)), 4),
]


@pytest.mark.parametrize(("rules", "column", "order", "free"), ORDERED, ids=lambda v: str(v)[:12])
def test_ordered_column_offers_only_its_next_box(rules: str, column: int, order: tuple[str, ...], free: int) -> None:
    direction = "down" if order[0] == "ones" else "up"
    state = solo(rules)
    for k, cid in enumerate(order):
        state = thrown(state, "2 3 4 5 6")
        assert legal_scores(state, column) == [cid]
        assert sorted(legal_scores(state, free)) == sorted(SHEET)  # the free column stays untouched
        for later in order[k + 1 :][:3]:
            refused(state, f"score {column}:{later}", f"column {column} are filled {direction}", f"next is {cid}")
        for earlier in order[:k][-2:]:
            refused(state, f"score {column}:{earlier}", f"{earlier} in column {column} is already filled")
        state = state.apply(f"score {column}:{cid}")
        assert box(state, column, cid) == ref_points(cid, (2, 3, 4, 5, 6))
    assert state.sheets[0].columns[column - 1].is_full
    state = thrown(state, "2 3 4 5 6")
    assert legal_scores(state, column) == []
    refused(state, f"score {column}:chance", "already filled")


@pytest.mark.parametrize(("rules", "free"), [("jetsi", 1), ("kniffel-3", 3), ("kniffel-4", 4)])
def test_free_column_takes_any_open_box_in_any_order(rules: str, free: int) -> None:
    order = list(SHEET)
    random.Random(rules).shuffle(order)
    state = solo(rules)
    for k, cid in enumerate(order):
        state = thrown(state, "1 1 2 2 2")
        assert sorted(legal_scores(state, free)) == sorted(order[k:])
        state = state.apply(f"score {free}:{cid}")
        assert box(state, free, cid) == ref_points(cid, (1, 1, 2, 2, 2))
    assert state.column_totals(0, free - 1).total == ref_column_total(
        {c: ref_points(c, (1, 1, 2, 2, 2)) for c in SHEET}
    )


def test_multi_column_scores_need_a_column() -> None:
    state = thrown(solo("kniffel-4"), MISS)
    with pytest.raises(InvalidActionError, match="say which column"):
        state.apply("score chance")
    with pytest.raises(InvalidActionError, match="4 column"):
        state.apply("score 5:chance")
    assert not any(isinstance(a, Score) and a.column is None for a in state.legal_actions())


# -- five-alike rules per column --------------------------------------------------------------------------------------
def test_jetsi_joker_and_100_bonus_are_judged_in_the_column_entered() -> None:
    # Column 3 (up): chance, then a Yahtzee of 2s for 50.
    state = turns(solo("jetsi"), [(MISS, "score 3:chance"), ("2 2 2 2 2", "score 3:yahtzee")])
    assert box(state, 3, "yahtzee") == 50
    state = thrown(state, "6 6 6 6 6")
    got = options(state)
    # Column 3's Yahtzee holds 50: +100 wherever column 3 takes the dice; its next box is large_straight,
    # and the sixes of column 3 are open, so the joker pays no full value there (docs: order beats joker).
    assert got["3:large_straight"] == (0, 100)
    # Column 1 (free) has an open Yahtzee box: no joker, no bonus, the plain scores.
    assert got["1:yahtzee"] == (50, 0) and got["1:sixes"] == (30, 0) and got["1:full_house"] == (0, 0)
    # Column 2 (down): its next box is ones.
    assert got["2:ones"] == (0, 0) and legal_scores(state, 2) == ["ones"]
    state = state.apply("score 1:yahtzee")
    assert state.sheets[0].columns[0].extra == 0

    # Column 1's Yahtzee is filled: the official priority: the matching upper box first.
    state = thrown(state, "6 6 6 6 6")
    assert options(state, 1) == {"1:sixes": (30, 100)}
    refused(state, "score 1:chance", "joker")
    state = state.apply("score 1:sixes")
    assert state.sheets[0].columns[0].extra == 100

    # Sixes filled: any open lower box of column 1 at full value, +100; no upper box while a lower is open.
    state = thrown(state, "6 6 6 6 6")
    assert options(state, 1) == {
        "1:three_of_a_kind": (30, 100),
        "1:four_of_a_kind": (30, 100),
        "1:full_house": (25, 100),
        "1:small_straight": (30, 100),
        "1:large_straight": (40, 100),
        "1:chance": (30, 100),
    }
    state = state.apply("score 1:large_straight")
    assert box(state, 1, "large_straight") == 40
    cols = [state.column_totals(0, c) for c in range(3)]
    assert [c.extra for c in cols] == [200, 0, 0]
    assert [c.total for c in cols] == [50 + 30 + 40 + 200, 0, 16 + 50]
    assert state.total(0) == sum(c.total for c in cols)


def test_jetsi_yahtzee_crossed_out_in_one_column_still_gives_that_column_the_joker_but_no_bonus() -> None:
    state = turns(solo("jetsi"), [(MISS, "score 1:yahtzee"), ("4 4 4 4 4", "score 1:fours")])
    assert box(state, 1, "yahtzee") == 0 and state.sheets[0].columns[0].extra == 0
    state = thrown(state, "4 4 4 4 4")
    # fours filled, so the joker: lower boxes at full value, no 100 bonus (the Yahtzee box holds 0).
    assert options(state, 1)["1:full_house"] == (25, 0)
    assert "1:ones" not in options(state, 1)


def test_kniffel3_flat_100_and_full_house_rule_per_column() -> None:
    state = turns(
        solo("kniffel-3"),
        [(MISS, "score 3:yahtzee"), (MISS, "score 2:chance"), ("2 2 2 2 2", "score 2:yahtzee")],
    )
    assert (box(state, 3, "yahtzee"), box(state, 2, "yahtzee")) == (0, 50)
    state = thrown(state, "4 4 4 4 4")
    got = options(state)
    assert got["2:large_straight"] == (100, 0)  # column 2's Kniffel holds 50: a flat 100 in a lower box
    assert got["3:full_house"] == (25, 0)  # column 3's Kniffel crossed out: five alike as a full house
    assert got["3:fours"] == (20, 0) and got["3:chance"] == (20, 0)
    assert got["1:ones"] == (0, 0)  # column 1 (down) starts with ones; its Kniffel is open
    assert state.apply("score 2:large_straight").column_totals(0, 1).total == 16 + 50 + 100
    assert state.apply("score 3:full_house").column_totals(0, 2).total == 25


# -- the announced column (kniffel-4 column 3) ---------------------------------------------------------------
def test_announcement_lasts_the_turn_and_only_once() -> None:
    state = thrown(solo("kniffel-4"), "2 2 3 5 6")
    assert {a.category for a in state.legal_actions() if isinstance(a, Announce)} == set(SHEET)
    state = state.apply("announce full_house")
    assert state.announced == state.rules.category_index("full_house")
    assert not any(isinstance(a, Announce) for a in state.legal_actions())
    state = state.apply("keep 2 2").apply("throw 3 3 6")
    assert state.announced is not None and state.throws == 2
    refused(state, "announce chance", "full_house is already announced")
    state = state.apply("keep 2 2 3 3").apply("throw 3")
    assert state.throws == 3 and state.announced is not None
    assert options(state, 3) == {"3:full_house": (25, 0)}
    done = state.apply("score 3:full_house")
    assert box(done, 3, "full_house") == 25 and done.announced is None and done.turn == 1
    # Next turn: the filled box can no longer be announced; the others can.
    nxt = thrown(done, MISS)
    assert Announce("full_house") not in nxt.legal_actions() and Announce("chance") in nxt.legal_actions()
    refused(nxt, "announce full_house", "full_house of column 3 is already filled (25)")


def test_no_announcement_in_a_game_without_the_announced_column() -> None:
    for rules in ("jetsi", "kniffel-3"):
        state = thrown(solo(rules), MISS)
        assert not any(isinstance(a, Announce) for a in state.legal_actions())
        refused(state, "announce chance", "no announced column")


def test_announced_turn_crosses_out_only_a_box_that_may_be_filled_now() -> None:
    # Column 1 (down) next: threes; column 2 (up) next: yahtzee; column 4 (free) all but chance.
    state = turns(
        solo("kniffel-4"),
        [(MISS, "score 1:ones"), (MISS, "score 1:twos"), (MISS, "score 2:chance"), (MISS, "score 4:chance")],
    )
    state = thrown(state, "3 3 3 4 4").apply("announce yahtzee")
    got = options(state)
    expected = {"1:threes": (0, 0), "2:yahtzee": (0, 0), "3:yahtzee": (0, 0)}
    expected |= {f"4:{c}": (0, 0) for c in SHEET if c != "chance"}
    assert got == expected  # the dice count only in the announced box; elsewhere a box is crossed out
    assert set(legal_scores(state, 1)) == {"threes"} and set(legal_scores(state, 2)) == {"yahtzee"}
    refused(state, "score 1:fours", "the next is threes")
    refused(state, "score 2:large_straight", "the next is yahtzee")
    refused(state, "score 3:full_house", "yahtzee was announced for column 3")
    refused(state, "score 4:chance", "already filled")
    crossed = state.apply("score 1:threes")
    assert box(crossed, 1, "threes") == 0  # not the 9 the dice show: an announced turn crosses out
    assert box(crossed, 3, "yahtzee") is None and crossed.announced is None
    crossed = state.apply("score 4:full_house")
    assert box(crossed, 4, "full_house") == 0
    assert box(state.apply("score 3:yahtzee"), 3, "yahtzee") == 0
    # Unannounced, the same dice score normally everywhere but column 3.
    plain = thrown(turns(solo("kniffel-4"), [(MISS, "score 1:ones")]), "3 3 3 4 4")
    assert options(plain)["1:twos"] == (0, 0) and options(plain)["4:full_house"] == (25, 0)
    assert not legal_scores(plain, 3)


def test_announced_box_scores_with_the_column_rules() -> None:
    # Sharp: a full house thrown at once and announced is doubled; re-thrown with dice kept it is not.
    sharp = thrown(solo("kniffel-4+sharp"), "2 2 3 3 3").apply("announce full_house")
    assert options(sharp, 3) == {"3:full_house": (50, 0)}
    assert options(sharp.apply("keep 2 2 3 3").apply("throw 3"), 3) == {"3:full_house": (25, 0)}
    # Column 3's own Kniffel: 50, then a flat 100 for the next five alike announced in a lower box.
    state = turns(solo("kniffel-4"), [("5 5 5 5 1", "announce yahtzee; keep 5 5 5 5; throw 5")])
    state = state.apply("score 3:yahtzee")
    assert box(state, 3, "yahtzee") == 50
    state = thrown(state, "3 3 3 3 3").apply("announce small_straight")
    assert options(state, 3) == {"3:small_straight": (100, 0)}
    state = thrown(state.apply("score 3:small_straight"), "2 2 2 2 2").apply("announce twos")
    assert options(state, 3) == {"3:twos": (10, 100)}  # upper box: the dice plus 100 extra
    # A crossed-out Kniffel in column 3 lets a five-alike fill column 3's full house for 25.
    state = turns(solo("kniffel-4"), [(MISS, "announce yahtzee; score 3:yahtzee")])
    state = thrown(state, "6 6 6 6 6").apply("announce full_house")
    assert options(state, 3) == {"3:full_house": (25, 0)}


def _only_column_3_open(rules: str, keeper: bool = False, players: int = 1) -> GameState:
    state: GameState = new_game(rules, [f"P{i}" for i in range(players)], keeper=keeper)
    plays = [f"1:{c}" for c in SHEET] + [f"2:{c}" for c in reversed(SHEET)] + [f"4:{c}" for c in SHEET]
    for target in plays:
        for _ in range(players):
            if keeper:
                state = state.apply(f"enter {MISS}").apply(f"score {target}")
            else:
                state = thrown(state, MISS).apply(f"score {target}")
    return state


def test_must_announce_in_keeper_mode_too() -> None:
    state = _only_column_3_open("kniffel-4", keeper=True)
    assert state.legal_actions() == tuple(Announce(c) for c in sorted(SHEET))
    refused(state, f"enter {MISS}", "announce one of its boxes first")
    state = state.apply("announce chance")
    assert all(isinstance(a, Enter) for a in state.legal_actions())
    state = state.apply("enter 6 6 6 5 5")
    assert options(state) == {"3:chance": (28, 0)}
    state = state.apply("score 3:chance")
    assert state.legal_actions() == tuple(Announce(c) for c in sorted(SHEET) if c != "chance")


def test_keeper_mode_records_the_announcement_and_replays_it() -> None:
    game = Game("kniffel-4", ["Ada", "Bob"], keeper=True)
    game.act("announce large_straight")
    assert game.state.announced == game.state.rules.category_index("large_straight")
    assert not any(isinstance(a, Announce) for a in game.state.legal_actions())
    game.act("enter 1 2 3 4 5")
    assert options(game.state)["3:large_straight"] == (40, 0)
    assert options(game.state)["4:large_straight"] == (0, 0)  # crossing out elsewhere is still allowed
    game.act("score 3:large_straight")
    game.act("enter 1 2 3 4 5")  # Bob: no announcement, column 3 closed to him this turn
    assert "3:large_straight" not in options(game.state)
    game.act("score 4:large_straight")
    assert game.log.actions == (
        "announce large_straight",
        "enter 1 2 3 4 5",
        "score 3:large_straight",
        "enter 1 2 3 4 5",
        "score 4:large_straight",
    )
    rebuilt = replay(game.log.to_json())
    assert rebuilt == game.state
    assert box(rebuilt, 3, "large_straight", player=0) == 40 and box(rebuilt, 4, "large_straight", player=1) == 40


def test_forced_joker_never_blocks_the_announced_box() -> None:
    # kniffel-4+joker=forced is accepted by the catalogue. RULES.md: an announced turn ends in the
    # announced box; docs/rules.md: fill-order restrictions beat the joker's box choice.
    state = thrown(solo("kniffel-4+joker=forced"), "2 2 2 2 2").apply("announce yahtzee")
    state = state.apply("score 3:yahtzee")
    state = thrown(state, "6 6 6 6 6").apply("announce chance")
    assert "3:chance" in options(state)


def test_forced_joker_never_leaves_a_turn_without_legal_actions() -> None:
    state = _only_column_3_open("kniffel-4+joker=forced")
    state = turns(state, [("2 2 2 2 2", "announce yahtzee; score 3:yahtzee")])
    state = thrown(state, "6 6 6 6 6").apply("announce chance")
    state = state.apply("keep 6 6 6 6").apply("throw 6").apply("keep 6 6 6 6").apply("throw 6")
    assert not state.is_terminal
    assert state.legal_actions() != ()


# -- the last turn and the grand total ---------------------------------------------------------------------------
def _scripted_dice(cid: str, k: int) -> str:
    """Dice for box ``cid`` on its k-th fill (2-4 of the face in upper boxes); five alike only for one Yahtzee."""
    if cid in UPPER:
        f = UPPER.index(cid) + 1
        return " ".join(map(str, sorted([f] * (2 + k % 3) + [1 if f != 1 else 2] * (3 - k % 3))))
    return {
        "three_of_a_kind": "4 4 4 5 6",
        "four_of_a_kind": "3 3 3 3 6",
        "full_house": "2 2 5 5 5",
        "small_straight": "1 2 3 4 6",
        "large_straight": "2 3 4 5 6",
        "yahtzee": "5 5 5 5 5" if k == 0 else MISS,
        "chance": "6 6 5 5 4",
    }[cid]


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4"])
def test_two_player_game_ends_exactly_when_every_box_is_filled(rules: str) -> None:
    state: GameState = new_game(rules, ["Ada", "Bob"])
    n_cols = state.rules.n_columns
    announced = state.rules.announced_column
    rng = random.Random(rules)
    # Interleave the columns (each column keeps its own order) differently for each player.
    plans: list[list[tuple[int, str]]] = []
    for _ in range(2):
        queues = {
            c: list(reversed(SHEET) if order.value == "up" else SHEET) for c, order in enumerate(state.rules.columns)
        }
        plan = []
        while any(queues.values()):
            c = rng.choice([c for c, q in queues.items() if q])
            plan.append((c, queues[c].pop(0)))
        plans.append(plan)
    expected: list[list[dict[str, int]]] = [[{} for _ in range(n_cols)] for _ in range(2)]
    fills = Counter[str]()
    for t in range(len(plans[0])):
        for p in range(2):
            assert not state.is_terminal and state.current == p
            assert state.legal_actions() == (Roll(),)
            col, cid = plans[p][t]
            dice = _scripted_dice(cid, fills[cid])
            fills[cid] += 1
            state = thrown(state, dice)
            if col == announced:
                state = state.apply(f"announce {cid}")
            state = state.apply(f"score {col + 1}:{cid}")
            expected[p][col][cid] = ref_points(cid, [int(d) for d in dice.split()])
            assert state.sheets[p].columns[col].scores[state.rules.category_index(cid)] == expected[p][col][cid]
    assert state.is_terminal and state.legal_actions() == ()
    assert all(s.is_full for s in state.sheets)
    assert state.turn == 2 * 13 * n_cols
    refused(state, "roll", "the game is over")
    totals = tuple(sum(ref_column_total(expected[p][c]) for c in range(n_cols)) for p in range(2))
    assert state.totals() == totals
    for p in range(2):
        assert [state.column_totals(p, c).total for c in range(n_cols)] == [
            ref_column_total(expected[p][c]) for c in range(n_cols)
        ]
    # Some columns reach the upper bonus and some do not: the bonus is judged per column.
    assert {state.column_totals(p, c).bonus for p in range(2) for c in range(n_cols)} == {0, 35}
    outcome = state.outcome()
    assert outcome.final and outcome.totals == totals
    best = max(totals)
    assert set(outcome.winners) == {name for name, t in zip(state.players, totals, strict=True) if t == best}


def test_last_turn_of_kniffel4_is_announced_and_ends_the_game() -> None:
    state = _only_column_3_open("kniffel-4", players=2)
    for k, cid in enumerate(SHEET):
        for p in range(2):
            assert not state.is_terminal and state.current == p
            state = thrown(state, "6 6 5 5 5")
            assert all(isinstance(a, Announce) for a in state.legal_actions())
            state = state.apply(f"announce {cid}").apply(f"score 3:{cid}")
            if k == len(SHEET) - 1 and p == 0:
                assert not state.is_terminal and state.sheets[0].is_full and not state.sheets[1].is_full
    assert state.is_terminal and all(s.is_full for s in state.sheets)
    col3 = {c: ref_points(c, (5, 5, 5, 6, 6)) for c in SHEET}
    miss = {c: ref_points(c, (1, 2, 3, 4, 6)) for c in SHEET}
    assert state.totals() == (ref_column_total(col3) + 3 * ref_column_total(miss),) * 2
    assert state.outcome().ranks == (1, 1)


# -- property: random legal play never breaks the announced column's rules -------------------------------------
def _check_step(before: GameState, action: Action, after: GameState) -> None:
    rules = before.rules
    ann = rules.announced_column
    assert ann is not None
    if isinstance(action, Announce):
        assert before.announced is None
        assert before.dice is None if before.keeper else before.throws == 1
        assert before.sheets[before.current].columns[ann].scores[rules.category_index(action.category)] is None
        assert after.announced == rules.category_index(action.category)
        return
    if isinstance(action, Keep | Throw | Roll | Enter):
        assert after.announced == before.announced
        return
    assert isinstance(action, Score)
    p = before.current
    old, new = before.sheets[p].columns, after.sheets[p].columns
    changed = [
        (c, i) for c in range(rules.n_columns) for i in range(len(SHEET)) if old[c].scores[i] != new[c].scores[i]
    ]
    assert len(changed) == 1
    (c, i) = changed[0]
    assert old[c].scores[i] is None
    if before.announced is None:
        assert c != ann, "column 3 filled without an announcement"
    elif c == ann:
        assert i == before.announced, "a box of column 3 other than the announced one"
    else:
        assert new[c].scores[i] == 0 and new[c].extra == old[c].extra, "an announced turn must cross out"
    assert after.announced is None
    assert after.turn == before.turn + 1
    assert after.is_terminal == all(s.is_full for s in after.sheets)


def _announce_heavy(rng: random.Random) -> Callable[[GameState, tuple[Action, ...]], Action]:
    def choose(state: GameState, legal: tuple[Action, ...]) -> Action:
        announces = [a for a in legal if isinstance(a, Announce)]
        if announces and rng.random() < 0.5:
            return rng.choice(announces)
        scores = [a for a in legal if isinstance(a, Score)]
        if scores and rng.random() < 0.5:
            return rng.choice(scores)
        return rng.choice(legal)

    return choose


def _playout(rules: str, players: int, keeper: bool, seed: int) -> None:
    rng = random.Random(seed)
    choose = _announce_heavy(rng)
    state: GameState = new_game(rules, [f"P{i}" for i in range(players)], keeper=keeper)
    faces = state.rules.faces
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        only_col3 = all(
            col.is_full
            for c, col in enumerate(state.sheets[state.current].columns)
            if c != state.rules.announced_column
        )
        window = state.announced is None and (state.dice is None if keeper else state.throws == 1 and not state.pending)
        if only_col3 and window:
            assert all(isinstance(a, Announce) for a in legal)
        if state.announced is not None or (not keeper and state.throws != 1):
            assert not any(isinstance(a, Announce) for a in legal)
        if keeper and state.dice is not None:
            assert not any(isinstance(a, Announce) for a in legal)
        if state.is_chance_node:
            action: Action = Throw(tuple(sorted(rng.randint(1, faces) for _ in range(state.pending))))
        else:
            action = choose(state, legal)
            if isinstance(action, Enter):  # the table's dice: any throw
                action = Enter(tuple(sorted(rng.randint(1, faces) for _ in range(5))), action.sharp)
        after = state.apply(action)
        _check_step(state, action, after)
        state = after
    assert state.turn == players * 52
    for p in range(players):
        assert state.total(p) == sum(state.column_totals(p, c).total for c in range(4))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["kniffel-4", "kniffel-4+sharp"]),
    players=st.integers(1, 3),
    keeper=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_play_keeps_the_announced_column_rules(rules: str, players: int, keeper: bool, seed: int) -> None:
    _playout(rules, players, keeper, seed)


# -- every bot plays legal games --------------------------------------------------------------------------------
def _bot_game(rules: str, seats: Sequence[str], seed: int, keeper: bool = False) -> GameState:
    """A game with one bot per seat; the table throws (or, in keeper mode, enters random dice)."""
    rng = np.random.default_rng(seed)
    bots = [make_bot(name) for name in seats]
    state: GameState = new_game(rules, [f"{name}{i}" for i, name in enumerate(seats)], keeper=keeper)
    steps = 0
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(Throw(tuple(sorted(int(d) for d in rng.integers(1, 7, state.pending)))))
            continue
        legal = state.legal_actions()
        action = bots[state.current].choose(state, rng)
        assert action in legal, f"{seats[state.current]} chose {action} in {state}"
        if isinstance(action, Enter):
            # The dice are the table's, not the bot's: enter a random throw instead.
            action = Enter(tuple(sorted(int(d) for d in rng.integers(1, 7, 5))), bool(rng.integers(2)) and action.sharp)
            assert action in legal
        state = state.apply(action)
        steps += 1
        assert steps < 5000
    assert all(s.is_full for s in state.sheets)
    assert state.turn == len(seats) * state.rules.turns_per_player
    for p in range(len(seats)):
        assert state.total(p) == sum(state.column_totals(p, c).total for c in range(state.rules.n_columns))
    assert state.outcome().totals == state.totals()
    return state


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4", "kniffel-4+sharp"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simple_bots_are_legal_over_many_games(rules: str, bot: str) -> None:
    for seed in range(30):
        _bot_game(rules, [bot] * (1 + seed % 3), seed, keeper=seed % 5 == 4)


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4"])
def test_mixed_tables_of_every_sheet_bot_are_legal(rules: str) -> None:
    _bot_game(rules, ["multi", "random", "optimal"], 1)
    _bot_game(rules, ["greedy", "multi"], 2, keeper=True)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4", "kniffel-4+sharp"])
@pytest.mark.parametrize("bot", ["multi", "optimal"])
def test_strong_bots_are_legal_over_many_games(rules: str, bot: str) -> None:
    for seed in range(30):
        seats = [bot, "random", "greedy"][: 1 + seed % 3]
        _bot_game(rules, seats, 100 + seed, keeper=seed % 5 == 4)
