"""Game logs: JSON round trip, replay equality, ``replay(upto=)``, malformed logs refused with LogError."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import pasch
from pasch.engine import Game, GameLog, GameState, new_game, replay
from pasch.errors import IllegalActionError, LogError


def random_game(rules: str, players: int, seed: int, keeper: bool = False) -> tuple[Game, list[GameState]]:
    """A game played to the end by a seeded random legal policy (``Game`` throws the dice with its own
    generator; in keeper mode the policy picks the entered dice), and the state after every action."""
    pick = random.Random(seed)
    game = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed, keeper=keeper, meta={"seed": seed})
    while not game.state.is_terminal:
        game.act(pick.choice(game.state.legal_actions()))
    states = [new_game(rules, game.state.players, keeper=keeper)]
    for text in game.actions:
        states.append(states[-1].apply(text))
    assert states[-1] == game.state
    return game, states


@pytest.mark.parametrize(
    ("rules", "players", "keeper"),
    [
        ("kniffel", 1, False),
        ("yahtzee+sharp", 2, False),
        ("kniffel-classic+strict", 3, False),
        ("yatzy+upward", 4, False),
        ("kniffel-4+sharp", 2, False),
        ("kniffel-4", 1, True),
        ("yacht", 2, True),
    ],
)
def test_log_round_trip_and_replay(rules: str, players: int, keeper: bool) -> None:
    game, states = random_game(rules, players, seed=7, keeper=keeper)
    log = game.log
    assert log.rules == game.rules.id and log.keeper == keeper and log.engine == pasch.__version__
    assert log.meta == {"seed": 7}
    text = log.to_json()
    assert json.loads(text)["format"] == "pasch-log"
    assert GameLog.from_json(text) == log
    assert GameLog.from_dict(json.loads(text)) == log
    assert GameLog.from_json(log.to_json(indent=None)) == log
    assert replay(log) == game.state
    assert replay(text) == game.state
    assert replay(log.to_dict()) == game.state
    assert game.state.is_terminal
    for n in (0, 1, 2, len(states) // 2, len(states) - 1):
        assert replay(log, upto=n) == states[n]


def test_replay_upto_every_prefix() -> None:
    game, states = random_game("kniffel+forced", 2, seed=3)
    for n, state in enumerate(states):
        assert replay(game.log, upto=n) == state
    assert replay(game.log, upto=0) == new_game("kniffel+forced", ["P1", "P2"])
    assert replay(game.log, upto=len(states) + 10) == game.state


def test_same_seed_same_game() -> None:
    a, _ = random_game("yahtzee", 2, seed=11)
    b, _ = random_game("yahtzee", 2, seed=11)
    c, _ = random_game("yahtzee", 2, seed=12)
    assert a.log == b.log and a.state == b.state
    assert c.log.actions != a.log.actions


def test_log_file_and_resume(tmp_path: Path) -> None:
    game, states = random_game("kniffel-3", 1, seed=5)
    path = tmp_path / "game.json"
    half = GameLog(game.log.rules, game.log.players, game.log.actions[: len(states) // 2], meta=game.log.meta)
    path.write_text(half.to_json(), encoding="utf-8")
    loaded = GameLog.load(path)
    assert loaded == half
    resumed = Game.from_log(loaded)
    assert resumed.state == states[len(states) // 2]
    for text in game.log.actions[len(states) // 2 :]:
        if text.startswith("throw"):
            resumed.throw([int(d) for d in text.split()[1:]])
        else:
            resumed.act(text)
    assert resumed.state == game.state and resumed.log.actions == game.log.actions


def test_game_act_refusal_changes_nothing() -> None:
    game = Game("kniffel", ["Ada", "Bob"], seed=1)
    game.act("roll")
    state, actions = game.state, list(game.actions)
    for bad, player in (("roll", None), ("score full_hose", None), ("keep 1 2 3", 1)):
        with pytest.raises((IllegalActionError, LogError, ValueError)):
            game.act(bad, player)
        assert game.state is state and game.actions == actions


def _log(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "pasch-log",
        "version": 1,
        "engine": "0.1.0",
        "rules": "kniffel",
        "players": ["Ada", "Bob"],
        "keeper": False,
        "actions": ["roll", "throw 1 2 3 4 6", "score chance", "roll", "throw 6 6 6 6 6", "score yahtzee"],
        "meta": {},
    }
    base.update(changes)
    return base


def test_good_log_replays() -> None:
    state = replay(_log())
    assert state.totals() == (16, 50) and state.current == 0


@pytest.mark.parametrize(
    ("log", "named"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "pasch-log"),
        (json.dumps(_log(format="other")), "pasch-log"),
        (_log(version=2), "version 2"),
        (_log(rules=3), '"rules"'),
        (_log(rules="kniffelx"), "kniffelx"),
        (_log(rules="knaster+sharp"), "knaster"),
        (_log(players="Ada"), '"players"'),
        (_log(players=[]), "not 0"),
        (_log(players=["Ada", "Ada"]), "Ada"),
        (_log(actions="roll"), '"actions"'),
        (_log(actions=["roll", 5]), '"actions"'),
        (_log(actions=["roll", "throw 1 2 3"]), "action 2 ('throw 1 2 3')"),
        (_log(actions=["roll", "throw 1 2 3 4 9"]), "action 2 ('throw 1 2 3 4 9')"),
        (_log(actions=["roll", "throw 1 2 3 4 6", "jump"]), "action 3 ('jump')"),
        (_log(actions=["roll", "throw 1 2 3 4 6", "score chance", "score chance"]), "action 4 ('score chance')"),
        (_log(actions=["score chance"]), "action 1 ('score chance')"),
        (_log(actions=["roll", "roll"]), "action 2 ('roll')"),
        (_log(keeper=True), "action 1 ('roll')"),
    ],
)
def test_malformed_log_names_the_entry_at_fault(log: str | dict[str, Any], named: str) -> None:
    with pytest.raises(LogError) as info:
        replay(log)
    assert named in str(info.value)


def test_missing_log_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(LogError, match=r"nope\.json"):
        GameLog.load(path)
