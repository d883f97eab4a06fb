"""The game in progress: dice sources, the log, the undo policy, bots."""

from __future__ import annotations

import pytest

from pasch.app import Match, Seat, parse_seats
from pasch.dice import DiceSource, SeededDice
from pasch.engine import GameLog, Roll, Score, replay
from pasch.errors import IllegalActionError


class Scripted:
    """A dice source that throws what it is told (any source is one: the server's stream is another)."""

    def __init__(self, throws: list[tuple[int, ...]]) -> None:
        self.throws = list(throws)
        self.asked: list[tuple[int, int]] = []

    def throw(self, n: int, faces: int) -> tuple[int, ...]:
        self.asked.append((n, faces))
        return self.throws.pop(0)[:n]


def test_a_dice_source_throws_for_the_match_and_the_log_records_it() -> None:
    source = Scripted([(6, 6, 6, 6, 6), (1, 2)])
    assert isinstance(source, DiceSource)
    match = Match.new("kniffel", [Seat("Ada")], dice=source)
    assert match.act("roll") == ["roll", "throw 6 6 6 6 6"]
    assert match.act("keep 6 6 6") == ["keep 6 6 6", "throw 1 2"]
    assert source.asked == [(5, 6), (2, 6)]
    assert match.state.dice == (1, 2, 6, 6, 6)
    assert replay(match.log) == match.state


def test_same_seed_same_game_and_the_log_resumes() -> None:
    a = Match.new("yatzy", parse_seats("Ada, Bob"), seed=11)
    b = Match.new("yatzy", parse_seats("Ada, Bob"), seed=11)
    for m in (a, b):
        m.act("roll")
        m.act("keep")
    assert a.actions == b.actions
    log = GameLog.from_json(a.log.to_json())
    resumed = Match.from_log(log, seed=5)
    assert resumed.state == a.state
    assert resumed.kinds == ["human", "human"]


def test_undo_takes_back_a_score_until_the_next_throw_and_returns_the_memo() -> None:
    match = Match.new("kniffel", parse_seats("Ada, Bob"), dice=SeededDice(3))
    match.act("roll")
    before = match.state
    match.act("score chance", memo="layout-1")
    assert match.can_undo
    step = match.undo()
    assert step is not None and step.memo == "layout-1"
    assert match.state is before
    assert match.actions[-1].startswith("throw")
    match.act("score chance")
    match.act(Roll())  # Bob throws: Ada's box is final now
    assert not match.can_undo
    assert match.undo() is None


def test_a_checkpoint_is_undone_without_changing_the_game() -> None:
    match = Match.new("kniffel", [Seat("Ada")], seed=1)
    match.act("roll")
    state, n = match.state, len(match.actions)
    match.checkpoint(memo=("held", 2))
    step = match.undo()
    assert step is not None and step.memo == ("held", 2)
    assert match.state is state and len(match.actions) == n


def test_online_matches_never_undo_and_bot_steps_are_never_undoable() -> None:
    online = Match.new("kniffel", [Seat("Ada")], seed=1, undo=False)
    online.act("roll")
    online.act("score chance")
    assert not online.can_undo
    bots = Match.new("kniffel", parse_seats("bot:greedy, Ada"), seed=2)
    while bots.bot_to_move:
        bots.act(bots.bot_action())
    assert bots.state.current_player == 1
    assert not bots.can_undo


def test_bot_turns_and_refusals() -> None:
    match = Match.new("kniffel", parse_seats("Ada, bot:greedy"), seed=4)
    assert match.bot_turn() is None
    with pytest.raises(IllegalActionError):
        match.bot_action()
    match.act("roll")
    match.act("score chance")
    turn = match.bot_turn()
    assert turn is not None and turn.seat == 1 and turn.state is match.state
    assert turn.choose() == Roll()


def test_a_failing_bot_plays_a_legal_move_instead_of_stalling() -> None:
    from pasch.app import BotTurn

    class Broken:
        def choose(self, state: object, rng: object) -> Score:
            raise RuntimeError("bug")

    match = Match.new("kniffel", [Seat("Ada")], seed=4)
    assert BotTurn(match.state, 0, Broken()).choose() == match.state.legal_actions()[0]


def test_score_keeper_matches_have_no_dice_source_and_take_entries() -> None:
    match = Match.new("kniffel", parse_seats("Ada, Bob"), keeper=True, seed=1)
    assert match.game.dice is None
    assert match.act("enter 2 2 3 3 3") == ["enter 2 2 3 3 3"]
    match.act("score full_house")
    assert match.can_undo
    assert match.state.total(0) == 25


def test_seats_must_match_the_players() -> None:
    match = Match.new("kniffel", [Seat("Ada")], seed=1)
    with pytest.raises(ValueError, match="seats"):
        Match(match.game, [Seat("Ada"), Seat("Bob")])
    with pytest.raises(ValueError, match="does not play"):
        Match.new("kniffel", [Seat("Kn", "bot:knaster")])


def test_prepare_changes_nothing_commit_applies_discard_rewinds_the_dice() -> None:
    source = SeededDice(21)
    match = Match.new("kniffel", [Seat("Ada")], dice=source, undo=False)
    pending = match.prepare("roll")
    assert match.actions == [] and match.state.dice is None
    assert [seat for seat, _ in pending.events] == [0, None]
    match.discard(pending)
    again = match.prepare("roll")
    assert again.events == pending.events  # the same throw is drawn again after the rewind
    assert match.commit(again) == ["roll", pending.events[1][1]]
    assert match.state is again.state
    stale = match.prepare("keep")
    match.act("keep")
    with pytest.raises(IllegalActionError, match="moved on"):
        match.commit(stale)


def test_a_resumed_stream_continues_where_the_logged_throws_left_it() -> None:
    played = Match.new("yahtzee", parse_seats("Ada, bot:greedy"), dice=SeededDice(8))
    for _ in range(9):
        played.act(played.bot_action() if played.bot_to_move else played.state.legal_actions()[0])
    resumed = Match.from_log(played.log, dice=SeededDice(8), sync_dice=True)
    assert resumed.state == played.state
    for _ in range(6):
        action = played.state.legal_actions()[0]
        assert resumed.act(action) == played.act(action)


def test_play_bots_plays_until_a_person_is_to_act() -> None:
    match = Match.new("kniffel", parse_seats("bot:greedy, bot:random, Ada"), seed=6)
    played = match.play_bots()
    assert played and played[0] == Roll()
    assert match.state.current_player == 2 and not match.bot_to_move
    assert match.play_bots() == []
