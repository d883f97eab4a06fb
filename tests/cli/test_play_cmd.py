"""``pasch play``: the plain, line-based hot-seat game on stdin, its short forms, errors and saved log."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pasch.cli._basic import expand_command, resolve_box
from pasch.engine import Game, GameLog, replay
from pasch.rules import get

from ._helpers import Invoke, assert_bad_input

KNIFFEL_BOXES = get("kniffel").category_ids


def _script(boxes: tuple[str, ...], players: int, noise: bool) -> list[str]:
    """Per turn: Enter (roll), 'k' (throw all again), then the next box of that player's sheet."""
    lines: list[str] = []
    for turn in range(len(boxes) * players):
        box = boxes[turn // players]
        if noise and turn == 0:
            lines += ["help", "score chance", "keep 9", "sheet"]  # refused or harmless before the roll
        lines.append("")
        if noise and turn == 3:
            lines += ["k 777", "frobnicate", "options", "score 2:chance"]
        lines.append("k")
        lines.append(box)
    return lines


def _expected_game(seed: int, players: list[str], boxes: tuple[str, ...]) -> Game:
    """The same game played directly on the engine with the generator the CLI documents."""
    game = Game("kniffel", players, rng=np.random.default_rng(seed))
    for turn in range(len(boxes) * len(players)):
        game.act("roll")
        game.act("keep")
        game.act(f"score {boxes[turn // len(players)]}")
    return game


def test_complete_scripted_game_reaches_the_final_sheet(invoke: Invoke, tmp_path: Path) -> None:
    log_path = tmp_path / "game.json"
    lines = _script(KNIFFEL_BOXES, 2, noise=True)
    args = ["play", "--rules", "kniffel", "--players", "Ada,Bob", "--seed", "7", "--save", str(log_path)]
    result = invoke(args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert "Game over." in out
    assert "Standings" in out
    assert "upper sum" in out and "bonus (63+ → 35)" in out and "total" in out
    # The refused lines said why and changed nothing.
    assert "'score chance': no dice thrown yet" in out
    assert "'keep 9'" in out or "9 is not a die" in out
    assert "'frobnicate' is not an action" in out
    assert "'keep 7 7 7'" in out or "7 is not a die" in out
    expected = _expected_game(7, ["Ada", "Bob"], KNIFFEL_BOXES)
    log = GameLog.load(log_path)
    assert list(log.actions) == expected.actions
    state = replay(log)
    assert state.is_terminal
    assert state.totals() == expected.state.totals()
    for total in state.totals():
        assert f" {total}" in out.split("Standings")[-1]
    # pasch replay of the saved log reproduces the totals.
    data = json.loads(invoke(["replay", str(log_path), "--json"]).stdout)
    assert data["finished"] is True
    assert data["totals"] == dict(zip(["Ada", "Bob"], expected.state.totals(), strict=True))


def test_the_same_seed_gives_the_same_game(invoke: Invoke, tmp_path: Path) -> None:
    script = "\n".join(_script(KNIFFEL_BOXES[:3], 1, noise=False)) + "\n"
    outs = [invoke(["play", "--seed", "11", "--plain"], input=script).stdout for _ in range(2)]
    # each game is saved under its own id (the last line says which): the rest is the same
    assert outs[0].replace("resume 1", "resume 2").replace("Game 1 ", "Game 2 ") == outs[1]
    assert "Dice:" in outs[0]


def test_default_play_is_a_solo_kniffel_game(invoke: Invoke) -> None:
    result = invoke(["play"], input="\n")
    assert result.exit_code == 0
    assert "Kniffel (kniffel)" in result.stdout
    assert "Player 1" in result.stdout
    assert "--players" in result.stdout  # the hint for hot-seat play
    assert "end of input" in result.stdout


def test_turn_shows_dice_throws_left_and_options_with_scores(invoke: Invoke) -> None:
    out = invoke(["play", "--seed", "1", "-p", "Ada"], input="\n").stdout
    assert "Round 1 of 13 · Ada's turn" in out
    assert "throw 1 of 3, 2 left" in out
    assert "keep DICE" in out
    for box in KNIFFEL_BOXES:
        assert f"score {box}" in out


def test_eof_mid_game_saves_the_log(invoke: Invoke, tmp_path: Path) -> None:
    log_path = tmp_path / "part.json"
    result = invoke(["play", "--seed", "3", "--save", str(log_path)], input="\nk\nchance\n\n")
    assert result.exit_code == 0, result.output
    assert "end of input" in result.stdout
    log = GameLog.load(log_path)
    assert log.actions[0] == "roll" and "score chance" in log.actions
    replayed = invoke(["replay", str(log_path)])
    assert replayed.exit_code == 0
    assert "in progress" in replayed.stdout


def test_quit_stops_and_saves(invoke: Invoke, tmp_path: Path) -> None:
    log_path = tmp_path / "q.json"
    result = invoke(["play", "--seed", "3", "--save", str(log_path)], input="\nquit\nroll\n")
    assert result.exit_code == 0
    assert "Game stopped." in result.stdout
    assert GameLog.load(log_path).actions[0] == "roll"


def test_keeper_mode_full_game_with_a_tie(invoke: Invoke, tmp_path: Path) -> None:
    boxes = get("yacht").category_ids
    lines: list[str] = []
    for box in boxes:
        for _ in range(2):
            lines += ["enter 6 6 6 6 6" if box == "yahtzee" else "e 12345", box]
    lines.insert(0, "roll")  # refused: the table throws real dice
    log_path = tmp_path / "k.json"
    args = ["play", "--keeper", "--rules", "yacht", "-p", "Ada,Bob", "--save", str(log_path)]
    result = invoke(args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "score-keeper game" in result.stdout
    assert "Tie for first place: Ada, Bob" in result.stdout
    assert "(tie)" in result.stdout
    state = replay(GameLog.load(log_path))
    # upper 1+2+3+4+5+0 = 15, full_house 0, four_of_a_kind 0, small 30, large 0, chance 15, yacht 50
    assert state.totals() == (110, 110)


def test_keeper_sharp_entry(invoke: Invoke) -> None:
    result = invoke(["play", "--keeper", "--rules", "kniffel+sharp"], input="enter 2 2 3 3 3 sharp\nfh\n")
    assert "enter 1 3 3 5 6 [sharp]" in result.stdout
    assert "50 (x2 sharp)" in result.stdout
    assert "Player 1 scores 50 in full_house." in result.stdout


def test_announced_column_of_kniffel_4(invoke: Invoke) -> None:
    result = invoke(["play", "--rules", "kniffel-4", "--seed", "5"], input="\nannounce yahtzee\nscore 3:yahtzee\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "announce BOX" in out
    assert "score 3:yahtzee" in out
    assert "in 3:yahtzee" in out


def test_multi_column_needs_a_column(invoke: Invoke) -> None:
    out = invoke(["play", "--rules", "kniffel-3", "--seed", "5"], input="\nchance\n3:chance\n").stdout
    assert "say which column" in out
    assert "in 3:chance" in out


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--rules", "nope"], ["'nope'"]),
        (["--rules", "yatzy+strict"], ["strict"]),
        (["--players", "Ada,Ada"], ["must differ"]),
        (["--players", "Ada,,Bob"], ["empty"]),
        (["--players", ",".join(f"P{i}" for i in range(9))], ["not 9"]),
    ],
)
def test_play_bad_options(invoke: Invoke, args: list[str], needles: list[str]) -> None:
    assert_bad_input(invoke(["play", *args], input=""), *needles)


def test_play_unwritable_save_file(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["play", "--save", str(tmp_path / "missing" / "x.json")], input="")
    assert result.exit_code == 2
    assert "x.json" in result.stderr
    assert "Traceback" not in result.output


def test_knaster_play(invoke: Invoke) -> None:
    try:
        import pasch.engine._knaster  # noqa: F401
    except ModuleNotFoundError:
        assert_bad_input(invoke(["play", "--rules", "knaster"], input=""), "knaster")
        return
    result = invoke(["play", "--rules", "knaster", "-p", "Ada,Bob", "--seed", "1"], input="\nb3\nsheet\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Number called:" in result.stdout
    assert "write " in result.stdout
    assert "Game stopped." in result.stdout


# -- short forms -------------------------------------------------------------------------------------
def _state_after(actions: list[str], rules: str = "kniffel") -> object:
    game = Game(rules, ["Ada"])
    for a in actions:
        game.state = game.state.apply(a)
    return game.state


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("r", "roll"),
        ("k 335", "keep 335"),
        ("k", "keep"),
        ("full_house", "score full_house"),
        ("full house", "score full_house"),
        ("fh", "score full_house"),
        ("Chance", "score chance"),
        ("ch", "score chance"),
        ("6", "score sixes"),
        ("kniffel", "score yahtzee"),
        ("score full", "score full_house"),
        ("score 2:fh", "score 2:full_house"),
        ("2:fh", "score 2:full_house"),
        ("a yahtzee", "announce yahtzee"),
        ("e 13356", "enter 13356"),
        ("w 7 b3", "write 7 at b3"),
        ("t", "t"),
        ("s", "s"),
    ],
)
def test_expand_command(typed: str, expected: str) -> None:
    state = _state_after(["roll", "throw 1 3 3 5 6"])
    assert expand_command(typed, state) == expected


def test_resolve_box_ambiguous_prefix_is_refused() -> None:
    assert resolve_box("t", KNIFFEL_BOXES) is None
    assert resolve_box("th", KNIFFEL_BOXES) is None  # threes, three_of_a_kind
    assert resolve_box("thr", KNIFFEL_BOXES) is None
    assert resolve_box("threes", KNIFFEL_BOXES) == "threes"
    assert resolve_box("three", KNIFFEL_BOXES) is None
    assert resolve_box("three of a kind", KNIFFEL_BOXES) == "three_of_a_kind"
