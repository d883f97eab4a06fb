"""``pasch replay LOG``: the final sheet and standings of a saved game; bad logs exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pasch.engine import Game

from ._helpers import Invoke, assert_bad_input


def _random_game(rules: str, players: list[str], seed: int) -> Game:
    """A complete game with random legal moves (the engine throws the dice)."""
    rng = np.random.default_rng(seed)
    game = Game(rules, players, rng=np.random.default_rng(seed + 1))
    while not game.state.is_terminal:
        legal = game.state.legal_actions()
        game.act(legal[int(rng.integers(len(legal)))])
    return game


def _save(game: Game, path: Path) -> Path:
    path.write_text(game.log.to_json(), encoding="utf-8")
    return path


@pytest.mark.parametrize("rules", ["kniffel", "yahtzee+sharp", "yatzy", "kniffel-classic+strict"])
def test_replay_prints_final_sheet_and_standings(invoke: Invoke, tmp_path: Path, rules: str) -> None:
    game = _random_game(rules, ["Ada", "Bob"], seed=4)
    result = invoke(["replay", str(_save(game, tmp_path / "g.json"))])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "finished" in out
    for box in game.rules.category_ids:
        assert box in out
    assert "upper sum" in out and "total" in out
    assert "Standings" in out
    for total in game.state.totals():
        assert str(total) in out
    assert "Winner" in out or "Tie for first place" in out


def test_replay_json(invoke: Invoke, tmp_path: Path) -> None:
    game = _random_game("kniffel", ["Ada", "Bob", "Cy"], seed=9)
    data = json.loads(invoke(["replay", "--json", str(_save(game, tmp_path / "g.json"))]).stdout)
    assert data["finished"] is True
    assert data["rules"] == "kniffel"
    assert data["totals"] == dict(zip(["Ada", "Bob", "Cy"], game.state.totals(), strict=True))
    assert [s["name"] for s in data["sheets"]] == ["Ada", "Bob", "Cy"]
    col = data["sheets"][0]["columns"][0]
    assert set(col["boxes"]) == set(game.rules.category_ids)
    assert col["total"] == col["upper"] + col["bonus"] + col["lower"] + col["extra"]
    ranks = [s["rank"] for s in data["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_replay_multi_column(invoke: Invoke, tmp_path: Path) -> None:
    game = _random_game("kniffel-3", ["Ada", "Bob"], seed=2)
    out = invoke(["replay", str(_save(game, tmp_path / "g.json"))]).stdout
    assert "Ada 1" in out and "Ada 3" in out and "Bob 2" in out
    assert "grand total" in out
    for total in game.state.totals():
        assert str(total) in out


def test_replay_bad_files(invoke: Invoke, tmp_path: Path) -> None:
    assert_bad_input(invoke(["replay", str(tmp_path / "none.json")]), "none.json")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json", encoding="utf-8")
    assert_bad_input(invoke(["replay", str(bad_json)]), "not valid JSON")
    not_log = tmp_path / "other.json"
    not_log.write_text("{}", encoding="utf-8")
    assert_bad_input(invoke(["replay", str(not_log)]), "not a pasch game log")
    assert_bad_input(invoke(["replay", str(tmp_path)]), str(tmp_path))


def _log(actions: list[str], rules: str = "kniffel") -> dict[str, object]:
    return {"format": "pasch-log", "version": 1, "rules": rules, "players": ["Ada"], "actions": actions}


@pytest.mark.parametrize(
    ("data", "needles"),
    [
        (_log(["score chance"]), ["action 1", "'score chance'"]),
        (_log(["roll", "throw 1 2 3 4 5", "keep 6"]), ["action 3", "'keep 6'"]),
        (_log(["roll", "throw 1 2 3 4 9"]), ["action 2"]),
        (_log(["dance"]), ["action 1", "'dance'"]),
        (_log([], rules="nope"), ["'nope'"]),
        ({**_log([]), "version": 99}, ["version 99"]),
    ],
)
def test_replay_illegal_log(invoke: Invoke, tmp_path: Path, data: dict[str, object], needles: list[str]) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(invoke(["replay", str(path)]), *needles)


def test_replay_refuses_huge_and_deeply_nested_logs(invoke: Invoke, tmp_path: Path) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 5000, encoding="utf-8")
    assert_bad_input(invoke(["replay", str(nested)]), "nested")
    assert_bad_input(invoke(["replay", "/dev/zero"]), "larger than")
