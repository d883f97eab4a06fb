"""Random-playout properties of every sheet rule set (issue 2, "Must show").

For every rule set and modifier combination, 1 to 4 players, a random legal policy:

* nothing raises; legal actions are never empty before the end and every legal action applies;
* the game ends after exactly boxes x columns x players turns, and not one turn earlier;
* each player's grand total equals the sum of its boxes plus upper bonuses plus extra points, recomputed
  here from the sheet (bonus thresholds and amounts written down from RULES.md, not read from the rules);
* replaying the log gives an equal state; every applied action's text round-trips.

The bulk is a seeded loop (fast, deterministic); hypothesis drives fewer games for shrinking. The engine
plays roughly 700-1,000 single-column solo games per CPU second with no checks (``bench/engine.py``),
and these checks (replay, text round trip, every legal action applied in every 10th game) cost about as
much again, so 10^4 games per rule set (38 rule sets, 1-4 players) would take hours, not minutes. The
default run plays ``BULK_GAMES`` (100) games per rule set, about 3,800 games; set ``PASCH_PLAYOUT_GAMES``
to play more. The ``slow`` step (CI) plays the issue's 10^4 solo games per catalogue rule set with lean
checks; the ``huge`` test (not in CI: hours) plays 10^6 games in all.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasch.engine import Action, GameLog, GameState, Keep, Score, Throw, new_game, replay
from pasch.rules import get

SINGLE_BASES = ("kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht")
SINGLE_MODIFIERS = ("", "+forced", "+upward", "+sharp", "+forced+sharp", "+upward+sharp")
RULE_SETS: tuple[str, ...] = (
    *(base + mod for base in SINGLE_BASES for mod in SINGLE_MODIFIERS),
    "kniffel-classic+strict",
    "kniffel-classic+strict+sharp",
    "jetsi",
    "jetsi+sharp",
    "kniffel-3",
    "kniffel-3+sharp",
    "kniffel-4",
    "kniffel-4+sharp",
)
MULTI_COLUMN = frozenset({"jetsi", "kniffel-3", "kniffel-4"})

# Upper bonus per base, as RULES.md states it: (threshold, amount); None: no bonus.
BONUS: dict[str, tuple[int, int] | None] = {
    "kniffel": (63, 35),
    "yahtzee": (63, 35),
    "kniffel-classic": (63, 35),
    "yatzy": (63, 50),
    "yacht": None,
    "jetsi": (63, 35),
    "kniffel-3": (63, 35),
    "kniffel-4": (63, 35),
}
UPPER_ORDER = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER_IDS = frozenset(UPPER_ORDER)
# What one extra five-alike may earn in extra points, per base (RULES.md).
EXTRA_STEP: dict[str, int] = {
    "kniffel": 50,
    "yahtzee": 100,
    "kniffel-classic": 100,
    "yatzy": 0,
    "yacht": 0,
    "jetsi": 100,
    "kniffel-3": 100,
    "kniffel-4": 100,
}
# Boxes per column and columns, written down from RULES.md.
SHEET_SIZE = {"kniffel": 13, "yahtzee": 13, "kniffel-classic": 13, "yatzy": 15, "yacht": 12}
COLUMNS = {"jetsi": 3, "kniffel-3": 3, "kniffel-4": 4}

BULK_GAMES = int(os.environ.get("PASCH_PLAYOUT_GAMES", "100"))  # per rule set in the default run
SLOW_GAMES = 1_000_000  # in all, under @pytest.mark.slow

Chooser = Callable[[GameState, tuple[Action, ...]], Action]


def base_of(rules_id: str) -> str:
    return rules_id.split("+")[0]


def expected_turns(rules_id: str, players: int) -> int:
    base = base_of(rules_id)
    boxes = SHEET_SIZE.get(base, 13)  # the multi-column games use the 13-box Yahtzee/Kniffel sheet
    return boxes * COLUMNS.get(base, 1) * players


def independent_total(state: GameState, player: int) -> int:
    """A player's grand total from the raw sheet: boxes + upper bonus per column + extra points."""
    base = base_of(state.rules.id)
    ids = state.rules.category_ids
    total = 0
    for col in state.sheets[player].columns:
        upper = sum(s or 0 for cid, s in zip(ids, col.scores, strict=True) if cid in UPPER_IDS)
        lower = sum(s or 0 for cid, s in zip(ids, col.scores, strict=True) if cid not in UPPER_IDS)
        bonus_rule = BONUS[base]
        bonus = bonus_rule[1] if bonus_rule is not None and upper >= bonus_rule[0] else 0
        total += upper + bonus + lower + col.extra
    return total


def check_final(state: GameState, rules_id: str, players: int, actions: list[str], turns: int) -> None:
    """The end-of-game properties."""
    assert state.is_terminal
    assert turns == expected_turns(rules_id, players)
    assert state.legal_actions() == ()
    assert all(sheet.is_full for sheet in state.sheets)
    base = base_of(rules_id)
    step = EXTRA_STEP[base]
    totals = state.totals()
    for p in range(players):
        assert totals[p] == independent_total(state, p), f"player {p}: {state.sheets[p]}"
        for col in state.sheets[p].columns:
            assert col.extra >= 0
            assert col.extra == 0 if step == 0 else col.extra % step == 0
            assert all(s is not None and s >= 0 for s in col.scores)
    outcome = state.outcome()
    assert outcome.final
    assert outcome.totals == totals
    assert outcome.ranks == tuple(1 + sum(o > t for o in totals) for t in totals)
    log = GameLog(rules=state.rules.id, players=state.players, actions=tuple(actions), keeper=state.keeper)
    assert replay(log) == state


def play(
    rules_id: str,
    players: int,
    choose: Chooser,
    throw: Callable[[GameState], tuple[int, ...]],
    *,
    check_every_action: bool = False,
    check_every_throw: bool = False,
    keeper: bool = False,
) -> tuple[GameState, list[str]]:
    """Play one game with the step properties checked; returns the final state and the action texts."""
    rules = get(rules_id)
    state: GameState = new_game(rules, [f"P{i + 1}" for i in range(players)], keeper=keeper)
    actions: list[str] = []
    turns = 0
    limit = expected_turns(rules_id, players)
    steps = 0
    while not state.is_terminal:
        steps += 1
        assert steps < 20 * limit, "the game does not end"
        legal = state.legal_actions()
        assert legal, f"no legal action before the end: {state}"
        if (check_every_action and not state.is_chance_node) or (check_every_throw and state.is_chance_node):
            assert list(legal) == sorted(set(legal))
            for a in legal:
                state.apply(a)  # must not raise
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                assert tuple(t for t, _ in outcomes) == legal
                assert sum(p for _, p in outcomes) == 1
        if state.is_chance_node:
            assert all(isinstance(a, Throw) and len(a.dice) == state.pending for a in legal)
            action: Action = Throw(throw(state))
        else:
            assert not any(isinstance(a, Throw) for a in legal)
            action = choose(state, legal)
            assert action in legal
        text = str(action)
        assert Action.parse(text) == action, text
        mover = state.current
        before_open = [sum(c.open_count for c in sheet.columns) for sheet in state.sheets]
        new = state.apply(action)
        if isinstance(action, Score):
            turns += 1
            assert new.turn == turns
            assert new.current == (mover + 1) % players
            after_open = [sum(c.open_count for c in sheet.columns) for sheet in new.sheets]
            assert after_open == [n - (p == mover) for p, n in enumerate(before_open)]
            assert new.is_terminal == (turns == limit)
        else:
            assert new.current == mover and new.turn == turns
        actions.append(text)
        state = new
    check_final(state, rules_id, players, actions, turns)
    return state, actions


def biased_chooser(rng: random.Random) -> Chooser:
    """A random legal policy that often plays like a person: keep the most common face, then enter the
    dice where they pay most (an upper box first when it holds three or more). Five-alikes (and with them
    the joker, extra-point and strict rules) and upper bonuses come up often this way."""

    def choose(state: GameState, legal: tuple[Action, ...]) -> Action:
        dice = state.dice
        if dice and rng.random() < 0.8:
            best = max(set(dice), key=lambda f: (dice.count(f), f))
            keep = Keep((best,) * dice.count(best))
            if keep in legal:
                return keep
            options = {(c, o.index): o for c, o in state.score_options()}
            scores = [a for a in legal if isinstance(a, Score)]
            if scores:
                rules = state.rules

                def value(a: Score) -> tuple[bool, int]:
                    option = options[((a.column or 1) - 1, rules.category_index(a.category))]
                    upper = a.category in UPPER_IDS and option.points >= 3 * (UPPER_ORDER.index(a.category) + 1)
                    return upper, option.points + option.extra

                return max(scores, key=value)
        return rng.choice(legal)

    return choose


def rng_throw(rng: random.Random) -> Callable[[GameState], tuple[int, ...]]:
    def throw(state: GameState) -> tuple[int, ...]:
        return tuple(sorted(rng.randint(1, state.rules.faces) for _ in range(state.pending)))

    return throw


def test_rule_set_list_matches_the_catalogue() -> None:
    for rules_id in RULE_SETS:
        rules = get(rules_id)
        assert len(rules.categories) * rules.n_columns == expected_turns(rules_id, 1)


@pytest.mark.parametrize("rules_id", RULE_SETS)
def test_seeded_playouts(rules_id: str) -> None:
    """BULK_GAMES seeded games per rule set, 1-4 players; every 10th applies every legal action."""
    for game in range(BULK_GAMES):
        rng = random.Random(f"{rules_id}/{game}")
        players = 1 + game % 4
        play(rules_id, players, biased_chooser(rng), rng_throw(rng), check_every_action=game % 10 == 0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rules_id=st.sampled_from(RULE_SETS), players=st.integers(1, 4), keeper=st.booleans(), data=st.data())
def test_hypothesis_playouts(rules_id: str, players: int, keeper: bool, data: st.DataObject) -> None:
    """Hypothesis picks every action and every throw (or, in score-keeper mode, the entered dice), so a
    failure shrinks to a short game."""
    if base_of(rules_id) in MULTI_COLUMN:
        players = 1  # longer games overrun hypothesis's data buffer; the seeded loop plays more players

    def choose(state: GameState, legal: tuple[Action, ...]) -> Action:
        return data.draw(st.sampled_from(legal))

    def throw(state: GameState) -> tuple[int, ...]:
        # One draw per throw (uniform over the distinct outcomes) keeps long games inside the buffer.
        outcome = data.draw(st.sampled_from(state.legal_actions()))
        assert isinstance(outcome, Throw)
        return outcome.dice

    play(rules_id, players, choose, throw, check_every_action=True, check_every_throw=True, keeper=keeper)


CATALOGUE_GAMES = 10_000  # per catalogue rule set, in the CI slow step


def lean_playout(rules_id: str, rng: random.Random, check_replay: bool) -> None:
    """One solo game with the cheap properties checked at every step and the totals at the end."""
    rules = get(rules_id)
    state: GameState = new_game(rules, ["Solo"])
    choose = biased_chooser(rng)
    actions: list[str] = []
    turns = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"no legal action before the end: {state}"
        action: Action = Throw(rng_throw(rng)(state)) if state.is_chance_node else choose(state, legal)
        turns += isinstance(action, Score)
        actions.append(str(action))
        state = state.apply(action)
    assert turns == expected_turns(rules_id, 1)
    assert state.totals() == (independent_total(state, 0),)
    if check_replay:
        check_final(state, rules_id, 1, actions, turns)


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht", "jetsi",
                                      "kniffel-3", "kniffel-4"])  # fmt: skip
def test_ten_thousand_playouts_per_catalogue_rule_set(rules_id: str) -> None:
    """The issue's 10^4 games per rule set: solo, seeded; totals every game, full end checks every 100th."""
    for game in range(CATALOGUE_GAMES):
        lean_playout(rules_id, random.Random(f"ten-thousand/{rules_id}/{game}"), check_replay=game % 100 == 0)


@pytest.mark.huge
@pytest.mark.parametrize("rules_id", RULE_SETS)
def test_seeded_playouts_slow(rules_id: str) -> None:
    """The 10^6 version: SLOW_GAMES games spread over the rule sets (hours: run with -m huge -n auto)."""
    games = SLOW_GAMES // len(RULE_SETS) + 1
    for game in range(games):
        rng = random.Random(f"slow/{rules_id}/{game}")
        players = 1 + game % 4
        play(rules_id, players, biased_chooser(rng), rng_throw(rng), check_every_action=game % 100 == 0)


def test_keeper_legal_actions_are_sorted() -> None:
    """Score keeper in kniffel-4: 'enter ...' sorts before 'announce ...' (was the other way round)."""
    legal = new_game("kniffel-4", ["Ada"], keeper=True).legal_actions()
    assert list(legal) == sorted(legal)
