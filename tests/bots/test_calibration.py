"""The calibrated level of the multi-column bot's estimates (issue 28, item 4): measured, checked files, used."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

import pasch.bots._calibration as cal
from pasch.app import advise
from pasch.app._review import _start_estimate
from pasch.bots import MultiColumnBot
from pasch.bots._calibration import (
    Calibration,
    calibration_path,
    load_calibration,
    measure,
    read_calibration,
    save_calibration,
    settings_record,
)
from pasch.engine import ColumnSheet, Game, GameState, PlayerSheet, Roll, Throw
from pasch.errors import ModelFileError
from pasch.rules import get

MULTI = ("jetsi", "kniffel-3", "kniffel-4")

# The shipped bot's solo means, luck-adjusted (bench/learned.py, 2,000 seeded games, seed 2029, ± 0.3-0.4; the
# docstring there and TUNED's): the calibrated estimate of the empty sheet must land near them.
BOT_MEANS = {"jetsi": 731.9, "kniffel-3": 726.2, "kniffel-4": 980.1}


def _sheet_state(rules_id: str, cols: tuple[tuple[int | None, ...], ...], dice: tuple[int, ...]) -> GameState:
    """A solo state with ``cols`` on the sheet and ``dice`` just thrown (first throw of a turn)."""
    state = Game(rules_id, ["p"], rng=np.random.default_rng(0)).state
    assert isinstance(state, GameState)
    sheet = PlayerSheet(tuple(ColumnSheet(scores=s) for s in cols))
    after = dataclasses.replace(state, sheets=(sheet,)).apply(Roll()).apply(Throw(dice))
    assert isinstance(after, GameState)
    return after


def test_offsets_are_the_per_game_weighted_mean_residuals() -> None:
    # Two filled counts, three games; game 2 never reached count 1. Residual sums and decision counts:
    sums = np.array([[10.0, 4.0], [-2.0, 0.0], [6.0, 0.0]])
    counts = np.array([[2, 1], [1, 0], [3, 0]])
    finals = np.array([700.0, 710.0, 720.0])
    old = cal.MIN_SAMPLES
    try:
        cal.MIN_SAMPLES = 1
        got = cal._summarise(sums, counts, finals, [690.0, 694.0])
    finally:
        cal.MIN_SAMPLES = old
    # Count 0: per-game means 5, -2, 2 weighted 2, 1, 3 -> (10 - 2 + 6) / 6.
    assert got.offsets[0] == pytest.approx(14 / 6, abs=0.01)
    per, w = np.array([5.0, -2.0, 2.0]), np.array([2.0, 1.0, 3.0])
    se = math.sqrt(float(((per - 14 / 6) ** 2 * w**2).sum())) / 6
    assert got.se[0] == pytest.approx(se, abs=0.01)
    assert got.offsets[1] == pytest.approx(4.0) and math.isnan(got.se[1])  # one game: no spread to measure
    assert got.decisions == (6, 1)
    assert got.mean == pytest.approx(710.0) and got.mean_se == pytest.approx(10.0 / math.sqrt(3))
    assert got.start == pytest.approx(692.0)
    assert cal._summarise(sums, counts, finals, []).offsets == (0.0, 0.0)  # below MIN_SAMPLES: not measured


def test_measure_plays_seeded_games_the_same_on_one_or_two_processes() -> None:
    rules = get("jetsi")
    one = measure(rules, 4, seed=5)
    two = measure(rules, 4, seed=5, jobs=2)
    assert one == two
    assert len(one.offsets) == 39 and one.decisions[0] >= 4  # every game decides at least once per turn
    assert one.decisions[38] == 0  # the last box: one column open, nothing counted
    assert 500 < one.mean < 1000 and 600 < one.start < 800


def test_the_offset_is_by_filled_count_and_zero_with_one_column_open() -> None:
    rules = get("jetsi")
    c = Calibration(rules, tuple(float(i) for i in range(39)))
    two_open = _sheet_state("jetsi", ((5,) + (None,) * 12, (None,) * 13, (3, 6) + (None,) * 11), (1, 2, 3, 4, 5))
    assert c.offset(two_open) == 3.0
    full = (1, 2, 3, 4, 5, 6, 10, 10, 25, 30, 40, 50, 20)
    one_open = _sheet_state("jetsi", (full, (None,) * 13, full), (1, 2, 3, 4, 5))
    assert c.offset(one_open) == 0.0


def test_a_file_round_trips_and_damage_or_a_wrong_shape_is_refused(tmp_path: Path) -> None:
    rules = get("jetsi")
    c = Calibration(rules, tuple(float(i) / 3 for i in range(39)), {"command": "test", "seed": 1})
    path = tmp_path / "jetsi.offsets.json"
    save_calibration(c, path)
    back = read_calibration(rules, path)
    assert back.offsets == tuple(float(i) / 3 for i in range(39)) and back.meta["seed"] == 1
    payload = json.loads(path.read_text())
    payload["offsets"][0] += 1.0
    path.write_text(json.dumps(payload))
    with pytest.raises(ModelFileError, match="checksum mismatch"):
        read_calibration(rules, path)
    with pytest.raises(ModelFileError, match="for 'jetsi', not of format 1 for 'kniffel-3'"):
        save_calibration(c, path)
        read_calibration(get("kniffel-3"), path)
    short = Calibration(rules, (1.0, 2.0))
    save_calibration(short, path)
    with pytest.raises(ModelFileError, match="needs 39 offsets"):
        read_calibration(rules, path)
    path.write_text("{not json")
    with pytest.raises(ModelFileError, match="not a readable calibration file"):
        read_calibration(rules, path)


def test_a_calibration_measured_for_other_settings_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get("jetsi")
    record = settings_record(rules)
    stale = {**record, "settings": {**record["settings"], "slack_factor": 0.7}}
    path = tmp_path / "jetsi.offsets.json"
    save_calibration(Calibration(rules, (0.0,) * 39, stale), path)
    monkeypatch.setattr(cal, "calibration_path", lambda rules_id: path if rules_id == "jetsi" else tmp_path / "none")
    with pytest.raises(ModelFileError, match="pasch calibrate --rules jetsi"):
        load_calibration(rules)
    save_calibration(Calibration(rules, (0.0,) * 39, record), path)
    assert load_calibration(rules) is not None
    assert load_calibration(get("jetsi+sharp")) is None  # a variant: not the catalogue game's calibration


@pytest.mark.parametrize("rules_id", MULTI)
def test_every_shipped_calibration_passes_its_checks(rules_id: str) -> None:
    rules = get(rules_id)
    c = load_calibration(rules)
    assert c is not None, f"no calibration ships for {rules_id}: run pasch calibrate --rules {rules_id}"
    assert calibration_path(rules_id).is_file()
    assert c.meta["command"].startswith("pasch calibrate") and c.meta["games"] >= 2000
    measured = [se for se in c.meta["se"] if se is not None]
    assert len(measured) >= len(c.offsets) - 3 and max(measured) < 2.0


@pytest.mark.parametrize("rules_id", MULTI)
def test_advice_shifts_every_option_alike_and_keeps_the_bots_ranking(rules_id: str) -> None:
    rng = np.random.default_rng(11)
    game = Game(rules_id, ["p"], rng=rng)
    bot = MultiColumnBot()
    c = load_calibration(get(rules_id))
    assert c is not None
    checked = 0
    while not game.state.is_terminal and checked < 12:
        state = game.state
        if isinstance(state, GameState) and state.dice is not None:
            ranked = bot.rank(state)
            advice = advise(state)
            assert [str(o.action) for o in advice.options] == [str(a) for a, _ in ranked]
            shift = c.offset(state)
            for o, (_a, est) in zip(advice.options, ranked, strict=True):
                if est is None:
                    assert o.estimate is None
                else:
                    assert o.estimate == pytest.approx(est + shift)
                    assert o.delta == pytest.approx(est - float(ranked[0][1] or 0.0))
            checked += 1
        game.act(bot.choose(state, rng))
    assert checked == 12


@pytest.mark.parametrize("rules_id", MULTI)
def test_the_calibrated_estimate_of_the_empty_sheet_is_what_the_bot_scores(rules_id: str) -> None:
    # Uncalibrated it was 696.9, 694.0 and 1015.9: 35 points off in each game.
    assert _start_estimate(get(rules_id)) == pytest.approx(BOT_MEANS[rules_id], abs=4.0)
