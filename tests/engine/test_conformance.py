"""One conformance check of the state interface, run on every catalogue rule set (Knaster included).

Modelled on OpenSpiel's random-simulation test: a seeded random playout, checking at every step what every
:class:`~pasch.engine.State` promises -- the protocol itself, sorted legal actions that are all legal and
non-empty before the end and empty at the end, chance outcomes whose probabilities sum to exactly 1 and
which all apply, illegal actions refused with :class:`IllegalActionError` without changing anything,
action texts and position texts that round-trip, totals that agree with the outcome, and an end within
the game's bound of turns.

Applying every legal action and every chance outcome at every step would cost minutes, so the playout
applies all of them at the first steps of a game and a seeded sample afterwards; the position text is read
back at the first steps, every fifth step and at the end.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pasch.engine import (
    Action,
    Circle,
    KnasterState,
    Pass,
    Roll,
    Score,
    State,
    Throw,
    Write,
    from_text,
    new_game,
)
from pasch.errors import IllegalActionError
from pasch.rules import BASES, GameKind, RuleSet, get

FULL_CHECKS = 12  # steps (and chance nodes) at which every legal action and outcome is applied
SAMPLE = 3  # legal actions (and outcomes) applied at each later step

CASES = [
    *((base, seed) for base in BASES for seed in (0, 1, 2)),
    *((f"{base}+{mod}", 0) for base, entry in BASES.items() for mod in sorted(entry.accepts)),
]


def _illegal_candidates(state: State) -> list[Action]:
    """Well-formed actions, some of which are not legal now (the caller keeps those that are not)."""
    rules = state.rules
    out: list[Action] = [Roll(), Pass()]
    if not state.is_chance_node:
        out.append(Throw(tuple(1 for _ in range(max(state.pending, rules.dice)))))
    if rules.kind is GameKind.KNASTER:
        out += [Write(n, "a1") for n in range(2, 13)] + [Circle("c3"), Circle("e5")]
    else:
        multi = rules.n_columns > 1
        out += [Score(c.id, col + 1 if multi else None) for col in range(rules.n_columns) for c in rules.categories]
    return out


def _bound(rules: RuleSet, players: int) -> tuple[int, int]:
    """(turns, steps) a game never exceeds."""
    if rules.kind is GameKind.KNASTER:
        # Each number, the thrower writes or circles until the grid is full: 25 writes and 25 circles at most,
        # then the round ends and one last number follows.
        numbers = 2 * 25 + 2
        return numbers, numbers * (2 + players * 26)
    turns = players * rules.turns_per_player
    return turns, turns * (3 + 2 * rules.throws)


@pytest.mark.parametrize(("rules_text", "seed"), CASES)
def test_random_simulation(rules_text: str, seed: int) -> None:
    rules = get(rules_text)
    rng = random.Random(f"{rules_text}/{seed}")
    # Two players at seed 1 (one for the long multi-column games, to keep the run short).
    players = max(rules.min_players, min(2 if seed == 1 and rules.n_columns == 1 else 1, rules.max_players))
    keeper = seed == 2
    state: State = new_game(rules, [f"P{i}" for i in range(players)], keeper=keeper)
    max_turns, max_steps = _bound(rules, players)
    steps = chance_nodes = 0
    while True:
        assert isinstance(state, State)
        text = state.to_text()
        if steps < FULL_CHECKS or steps % 5 == 0 or state.is_terminal:
            back = from_text(text)
            assert back == state and back.to_text() == text
        totals = state.totals()
        assert state.outcome().totals == totals == tuple(state.total(p) for p in range(players))
        assert state.outcome().final == state.is_terminal
        assert 0 <= state.current_player < players and state.current_name == state.players[state.current_player]
        assert state.turn <= max_turns and steps <= max_steps
        legal = state.legal_actions()
        if state.is_terminal:
            assert legal == () and state.chance_outcomes() == ()
            break
        assert legal, text
        assert list(legal) == sorted(legal)
        assert len(set(legal)) == len(legal)
        full = steps < FULL_CHECKS
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            assert tuple(a for a, _ in outcomes) == legal
            full = chance_nodes < 3
            chance_nodes += 1
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            assert state.chance_outcomes() == ()
            action = rng.choice(legal)
        checked = legal if full else rng.sample(legal, min(SAMPLE, len(legal)))
        for a in (*checked, action):
            assert Action.parse(str(a)) == a
            assert state.is_legal(a), (text, str(a))
            after = state.apply(a)
            assert isinstance(after, type(state))
        legal_set = set(legal)
        illegal = [a for a in _illegal_candidates(state) if a not in legal_set]
        assert illegal
        for a in illegal if full else rng.sample(illegal, min(2, len(illegal))):
            assert not state.is_legal(a)
            with pytest.raises(IllegalActionError):
                state.apply(a)
        assert state.to_text() == text
        state = state.apply(action)
        steps += 1
    assert state.outcome().final
    if isinstance(state, KnasterState):
        assert any(g.is_full for g in state.grids)
    else:
        assert state.turn == max_turns and all(sheet.is_full for sheet in state.sheets)
