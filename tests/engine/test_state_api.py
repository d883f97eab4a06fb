"""The public state interface: the State protocol, score_action, must_announce, grid geometry, RuleSet.cached."""

from __future__ import annotations

import pytest

import pasch.engine as engine
from pasch.engine import GameState, KnasterState, Score, State, new_game
from pasch.errors import IllegalActionError, InvalidActionError
from pasch.rules import get


def test_both_state_classes_satisfy_the_protocol_and_the_shared_members_agree() -> None:
    sheet = new_game("kniffel", ["Ada", "Bob"])
    grid = new_game("knaster", ["Ada", "Bob"])
    for state in (sheet, grid):
        assert isinstance(state, State)
        assert state.current_player == state.current == 0 and state.current_name == "Ada"
        assert state.round == 1 and state.turn == 0 and not state.is_chance_node
        assert state.totals() == (0, 0) and state.outcome().ranks == (1, 1) and not state.outcome().final
        rolled = state.apply("roll")
        assert rolled.is_chance_node and sum(p for _, p in rolled.chance_outcomes()) == 1
        assert rolled.is_legal(rolled.legal_actions()[0]) and not rolled.is_legal(engine.Roll())
    assert not isinstance(sheet.rules, State)
    with pytest.raises(IllegalActionError, match="Ada's turn, not Bob's"):
        sheet.apply("roll", player=1)


def test_members_of_one_kind_stay_off_the_protocol() -> None:
    members = set(dir(State))
    assert {"legal_actions", "apply", "to_text", "outcome", "dice", "pending"} <= members
    assert not {"sheets", "grids", "score_options", "column_totals", "duties"} & members


def test_score_action_takes_a_box_index_or_id() -> None:
    single = new_game("kniffel", ["Ada"])
    assert isinstance(single, GameState)
    assert single.score_action(0, "yahtzee") == Score("yahtzee") == single.score_action(0, 11)
    multi = new_game("kniffel-3", ["Ada"])
    assert isinstance(multi, GameState)
    assert str(multi.score_action(2, "chance")) == "score 3:chance"
    with pytest.raises(InvalidActionError, match="no box 'jackpot'"):
        multi.score_action(0, "jackpot")
    with pytest.raises(InvalidActionError, match="column 3"):
        multi.score_action(3, 0)
    with pytest.raises(InvalidActionError, match="box 13"):
        multi.score_action(0, 13)


def test_must_announce_is_public() -> None:
    state = new_game("kniffel-4", ["Ada"])
    assert isinstance(state, GameState)
    assert not state.must_announce()
    columns = list(state.sheets[0].columns)
    for c in (0, 1, 3):
        columns[c] = engine.ColumnSheet(tuple(0 for _ in columns[c].scores))
    full = GameState(state.rules, state.players, (engine.PlayerSheet(tuple(columns)),), turn=39)
    thrown = full.apply("roll").apply("throw 1 2 3 4 5")
    assert thrown.must_announce()
    assert all(isinstance(a, engine.Announce) for a in thrown.legal_actions())


def test_knaster_grid_geometry_is_public() -> None:
    assert len(engine.LINES) == 12 == len(engine.LINE_MASKS) == len(engine.LINE_NAMES)
    assert engine.CELL_NAMES[engine.cell_index("b3")] == "b3"
    assert engine.LINE_MASKS[0] == 0b11111 and engine.FULL_MASK == (1 << 25) - 1
    assert all(k in engine.CELL_LINES[12] for k in (2, 7, 10, 11))
    kn = get("knaster").knaster
    assert kn is not None
    assert [engine.line_value(kn, k) for k in (0, 5, 10)] == [9, 9, 10]
    assert engine.best_combination((6, 7, 8, 9, 10), kn.combinations) == ("straight", 3)
    assert "straight" in engine.COMBINATIONS
    assert isinstance(new_game("knaster", ["Ada"]), KnasterState)


def test_rule_set_cached_computes_once_and_never_takes_part_in_equality() -> None:
    rules = get("yatzy")
    calls: list[int] = []

    def factory() -> tuple[int, ...]:
        calls.append(1)
        return (1, 2, 3)

    first = rules.cached(("test", "cached"), factory)
    again = rules.cached(("test", "cached"), factory)
    assert first is again and calls == [1]
    assert rules == get("yatzy")


def test_can_roll_can_keep_and_announcements_say_what_legal_actions_holds() -> None:
    """The cheap questions a view asks after every action agree with the full list at every state of whole
    random games: plain and score-keeper mode, one and several columns, kniffel-4's announcements (the forced
    one when only the announced column is left open included), sharp dice, and the finished game."""
    import random

    from pasch.engine import Announce, Keep, Roll

    seen: set[str] = set()
    for rules_id in ("yahtzee", "kniffel+sharp", "yatzy+forced", "jetsi", "kniffel-4"):
        for keeper in (False, True):
            for seed in range(3):
                rng = random.Random(seed)
                state: State = new_game(get(rules_id), ["Ada", "Bob"][: 1 + seed % 2], keeper=keeper)
                while True:
                    assert isinstance(state, GameState)
                    legal = state.legal_actions()
                    assert state.can_roll == any(isinstance(a, Roll) for a in legal)
                    assert state.can_keep == any(isinstance(a, Keep) for a in legal)
                    assert state.announcements() == tuple(a for a in legal if isinstance(a, Announce))
                    seen.update(k for k, v in (("roll", state.can_roll), ("keep", state.can_keep)) if v)
                    seen.update({"announce"} if state.announcements() else set())
                    seen.update({"must_announce"} if state.must_announce() else set())
                    seen.update({"keeper"} if keeper and legal and not state.is_chance_node else set())
                    if state.is_terminal:
                        seen.add("terminal")
                        assert legal == () and not state.can_roll and not state.can_keep
                        break
                    if state.is_chance_node:
                        state = state.apply(rng.choice(state.chance_outcomes())[0])
                    else:
                        state = state.apply(rng.choice(legal))
    assert seen == {"roll", "keep", "announce", "must_announce", "keeper", "terminal"}
