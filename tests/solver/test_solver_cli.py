"""``pasch solve``, ``advise``, ``simulate``, ``review``: output contract and bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pasch.bots import OptimalBot
from pasch.cli import _load, app
from pasch.engine import Game

_load()
runner = CliRunner()
RULES = "yahtzee+forced"  # builds in milliseconds


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_solve_json() -> None:
    code, out, _ = run("solve", "--rules", RULES, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == RULES and 100 < data["expected_score"] < 250
    code, out, _ = run("solve", "--rules", RULES, "--json")
    assert json.loads(out)["from_cache"] is True


def test_advise_lists_every_option_best_first() -> None:
    code, out, _ = run("advise", "--rules", "yahtzee", "--dice", "13356", "--rolls-left", "2",
                       "--sheet", "ones=3 twos=6 yahtzee=50", "--json")  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True)
    assert data["best"] == data["options"][0]["action"]
    assert {"score chance", "keep 3 3", "keep"} <= {o["action"] for o in data["options"]}
    assert "score ones" not in {o["action"] for o in data["options"]}


@pytest.mark.parametrize(
    "args",
    [
        ["--dice", "1337"],
        ["--dice", "13359"],
        ["--dice", "13356", "--rolls-left", "3"],
        ["--dice", "13356", "--sheet", "ones=7"],
        ["--dice", "13356", "--sheet", "one_pair=4"],
        ["--dice", "13356", "--sheet", "ones=x"],
        ["--dice", "13356", "--rules", "jetsi", "--sheet", "ones=3"],  # several columns: COLUMN:BOX=POINTS
        ["--dice", "13356", "--rules", "nonsense"],
    ],
)
def test_advise_bad_input_exits_2_with_a_message(args: list[str]) -> None:
    code, out, err = run("advise", "--rules", "yahtzee", *args) if "--rules" not in args else run("advise", *args)
    assert code == 2
    assert "pasch: error:" in err and out == ""


def test_simulate_json_statistics() -> None:
    code, out, _ = run("simulate", "--rules", RULES, "--games", "300", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 300 and data["min"] <= data["median"] <= data["max"]
    assert sum(b["count"] for b in data["histogram"]) == 300
    assert data["se"] == pytest.approx(data["sd"] / 300**0.5)
    _, out2, _ = run("simulate", "--rules", RULES, "--games", "300", "--seed", "4", "--json")
    assert json.loads(out2)["mean"] == data["mean"]


def test_simulate_greedy_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "scores.png"
    code, out, _ = run("simulate", "--rules", RULES, "--games", "20", "--bot", "greedy", "--plot", str(png))
    assert code == 0, out
    assert png.stat().st_size > 1000


def test_simulate_unknown_bot_exits_2() -> None:
    code, _, err = run("simulate", "--rules", RULES, "--bot", "clever")
    assert code == 2 and "clever" in err


def test_review_an_optimal_game_loses_nothing(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    game = Game(RULES, ["ann"], rng=rng)
    bot = OptimalBot()
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    path = tmp_path / "game.json"
    path.write_text(game.log.to_json())
    code, out, _ = run("review", str(path), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["finished"] and data["lost"]["ann"] == pytest.approx(0.0, abs=1e-6)
    assert data["totals"]["ann"] == game.state.total(0)
    assert all(d["played"] == d["best"] or d["loss"] < 1e-6 for d in data["decisions"])


def test_a_first_review_leaves_the_percentile_to_later_unless_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no cached score distribution the percentile waits for --percentile (then it is cached)."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(5)
    game = Game(RULES, ["cy"], rng=rng)
    bot = OptimalBot()
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    path = tmp_path / "game.json"
    path.write_text(game.log.to_json())
    code, out, err = run("review", str(path), "--json")
    assert code == 0, out
    assert "beats" not in json.loads(out) and "--percentile" in err
    code, out, err = run("review", str(path), "--json", "--percentile")
    assert code == 0, out
    beats = json.loads(out)["beats"]["cy"]
    assert 0.0 < beats < 1.0 and "computing the exact score distribution" in err
    code, out, err = run("review", str(path), "--json")
    assert json.loads(out)["beats"]["cy"] == beats and "--percentile" not in err


def test_review_counts_a_bad_decision(tmp_path: Path) -> None:
    game = Game(RULES, ["bob"])
    for text in ["roll", "throw 6 6 6 6 6", "score ones"]:
        game.act(text)
    path = tmp_path / "game.json"
    path.write_text(game.log.to_json())
    code, out, _ = run("review", str(path), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["lost"]["bob"] > 0 or data["decisions"][0]["best"] == "score ones"


def test_review_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("review", str(tmp_path / "nope.json"))
    assert code == 2 and "pasch: error:" in err


def test_review_of_several_columns_is_the_bots_estimate_not_exact(tmp_path: Path) -> None:
    """Jetsi (issue 28 item 4): points lost against the strongest bot's estimate, said to be not exact; no
    luck split; a Knaster log is refused with exit 2."""
    game = Game("jetsi", ["dee"])
    for text in ["roll", "throw 6 6 6 6 6", "score 1:ones", "roll", "throw 1 2 3 4 5"]:
        game.act(text)
    path = tmp_path / "jetsi.json"
    path.write_text(game.log.to_json())
    code, out, _ = run("review", str(path), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["estimated"] is True and "luck" not in data and data["lost"]["dee"] > 10
    assert data["decisions"][0]["played"] == "score 1:ones" and data["decisions"][0]["best"] != "score 1:ones"
    code, out, _ = run("review", str(path))
    assert code == 0 and "not exact" in out and "estimate" in out
    knaster = tmp_path / "knaster.json"
    knaster.write_text(Game("knaster", ["kai"]).log.to_json())
    code, _, err = run("review", str(knaster))
    assert code == 2 and "sheet game" in err
