"""The learned whole-sheet correction (issue 28): exact where one column is open, checked files, used in play."""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path

import numpy as np
import pytest

import pasch.bots._sheetvalue as sv
from pasch.bots import MultiColumnBot
from pasch.bots._sheetvalue import SheetModel, feature_names, read_model, save_model
from pasch.engine import ColumnSheet, Game, GameState, PlayerSheet, Roll, Score, Throw
from pasch.errors import ModelFileError
from pasch.rules import Order, get
from pasch.solver import Solver

TOLERANCE = 1e-3  # points: the correction is exactly 0 there; the solver stores its tables in float32, the
# slack tables of a fixed-order column (its value at slack 0) differ from them by float32 rounding (about 2e-5)


def _model(rules_id: str, seed: int = 0) -> SheetModel:
    """A model with large random weights: any weights must vanish where one column is open."""
    rules = get(rules_id)
    w = np.random.default_rng(seed).normal(scale=20.0, size=len(feature_names(rules)))
    return SheetModel(rules, w, {"command": "test", "seed": seed})


@functools.cache
def _full_sheet(rules_id: str, seed: int) -> tuple[tuple[int | None, ...], ...]:
    """The final sheet of a seeded game of the plain bot (consistent scores in every column)."""
    rng = np.random.default_rng(seed)
    bot = MultiColumnBot(learned=False)
    game = Game(rules_id, ["p"], rng=rng)
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    state = game.state
    assert isinstance(state, GameState)
    return tuple(c.scores for c in state.sheets[0].columns)


def _reopen(order: Order, scores: tuple[int | None, ...], n: int) -> tuple[int | None, ...]:
    """``scores`` with ``n`` boxes open again as the column's fill order leaves them."""
    k = len(scores)
    if order is Order.DOWN:
        keep = set(range(k - n))
    elif order is Order.UP:
        keep = set(range(n, k))
    else:
        keep = set(range(0, k, 2)) if n > k // 2 else set(range(k)) - set(range(1, 2 * n, 2))
    return tuple(v if i in keep else None for i, v in enumerate(scores))


def _state(rules_id: str, cols: tuple[tuple[int | None, ...], ...]) -> GameState:
    game = Game(rules_id, ["p"], rng=np.random.default_rng(0))
    state = game.state
    assert isinstance(state, GameState)
    sheet = PlayerSheet(tuple(ColumnSheet(scores=s) for s in cols))
    return dataclasses.replace(state, sheets=(sheet,))


CASES = [  # (rules, the open column, boxes open in it): every fill order (down, up, free) of each game
    ("jetsi", 0, 5),
    ("jetsi", 1, 9),
    ("kniffel-3", 1, 7),
    ("kniffel-3", 2, 10),
    ("kniffel-4", 0, 6),
    ("kniffel-4", 3, 8),
]


@pytest.mark.parametrize(("rules_id", "column", "n_open"), CASES)
def test_one_open_column_is_valued_exactly(rules_id: str, column: int, n_open: int) -> None:
    """With one column open the learned value is the exact single-column value, for any weights.

    The sheet value is the points plus the exact table value of that column's state (its own fill order
    under the game's base rules; a fixed-order column has no slack left then), and every action after a
    throw is ranked exactly as by the plain per-column bot, whose turn search over exact column values is
    exact play of that column. Tolerance: ``TOLERANCE`` points.
    """
    rules = get(rules_id)
    full = _full_sheet(rules_id, 7)
    order = rules.columns[column]
    cols = tuple(_reopen(order, s, n_open) if c == column else s for c, s in enumerate(full))
    state = _state(rules_id, cols)
    model = _model(rules_id)
    learned = MultiColumnBot(model=model)
    plain = MultiColumnBot(learned=False)
    assert model.value(cols) == 0.0

    single = dataclasses.replace(rules, columns=(order,), id=f"{rules.id}.{order.value}")
    solver = Solver.load(single)
    key = solver.state_key(cols[column])
    exact = float(np.asarray(solver.values)[key.mask, key.flag, key.upper])
    assert abs(learned.sheet_value(state) - (state.total(0) + exact)) < TOLERANCE

    thrown = state.apply(Roll())
    for dice in [(1, 2, 3, 4, 6), (5, 5, 5, 2, 1), (6, 6, 6, 6, 6)]:
        after = thrown.apply(Throw(dice))
        assert isinstance(after, GameState)
        got = dict(learned.rank(after))
        want = dict(plain.rank(after))
        assert got.keys() == want.keys()
        for action, v in want.items():
            assert v is not None and got[action] is not None
            assert abs(got[action] - v) < TOLERANCE, action


def test_the_correction_is_not_zero_where_two_columns_are_open() -> None:
    """The other side of the construction: with two columns open the same weights do change the value."""
    rules = get("kniffel-3")
    full = _full_sheet("kniffel-3", 3)
    cols = (full[0], _reopen(Order.UP, full[1], 4), _reopen(Order.FREE, full[2], 5))
    assert abs(_model("kniffel-3").value(cols)) > 1.0
    state = _state("kniffel-3", cols)
    assert MultiColumnBot(model=_model("kniffel-3")).sheet_value(state) != pytest.approx(
        MultiColumnBot(learned=False).sheet_value(state)
    )
    assert rules.n_columns == 3


def test_a_model_file_round_trips_and_a_wrong_checksum_is_refused(tmp_path: Path) -> None:
    rules = get("jetsi")
    model = _model("jetsi", 4)
    path = tmp_path / "jetsi.json"
    digest = save_model(model, path)
    back = read_model(rules, path)
    assert np.array_equal(back.weights, model.weights)
    assert back.meta["command"] == "test"
    assert back.sha256 == digest and model.sha256 is None  # the file's checksum, kept with what was read
    payload = json.loads(path.read_text())
    assert payload["sha256"] == digest
    payload["weights"][3] += 0.5  # an edited weight: the recorded checksum no longer matches
    path.write_text(json.dumps(payload))
    with pytest.raises(ModelFileError, match="checksum mismatch"):
        read_model(rules, path)
    payload["sha256"] = "0" * 64
    path.write_text(json.dumps(payload))
    with pytest.raises(ModelFileError, match="checksum mismatch"):
        read_model(rules, path)
    path.write_text("{not json")
    with pytest.raises(ModelFileError, match="not a readable model file"):
        read_model(rules, path)
    save_model(model, path)
    with pytest.raises(ModelFileError, match="for 'jetsi'"):
        read_model(get("kniffel-3"), path)


def test_the_bot_refuses_a_shipped_file_with_a_wrong_checksum(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get("jetsi")
    path = tmp_path / "jetsi.json"
    save_model(_model("jetsi"), path)
    payload = json.loads(path.read_text())
    payload["meta"]["seed"] = 99
    path.write_text(json.dumps(payload))
    monkeypatch.setattr(sv, "model_path", lambda rules_id: tmp_path / f"{rules_id}.json")
    with pytest.raises(ModelFileError, match="checksum mismatch"):
        MultiColumnBot().model(rules)
    assert MultiColumnBot(learned=False).model(rules) is None  # the plain bot never reads it
    monkeypatch.setattr(sv, "model_path", lambda rules_id: tmp_path / "none.json")
    assert MultiColumnBot().model(rules) is None
    with pytest.raises(ModelFileError, match="no learned model ships"):
        MultiColumnBot(learned=True).model(rules)


def test_zero_weights_play_exactly_like_the_plain_bot() -> None:
    rules = get("kniffel-4")
    zero = SheetModel(rules, np.zeros(len(feature_names(rules))))
    for bot_seed in (1,):
        games = []
        for bot in (MultiColumnBot(model=zero), MultiColumnBot(learned=False)):
            rng = np.random.default_rng(bot_seed)
            game = Game("kniffel-4", ["p"], rng=rng)
            while not game.state.is_terminal:
                game.act(bot.choose(game.state, rng))
            games.append(game.state.total(0))
        assert games[0] == games[1]


def test_learned_play_is_legal() -> None:
    bot = MultiColumnBot(model=_model("kniffel-4", 2))
    rng = np.random.default_rng(5)
    game = Game("kniffel-4", ["p"], rng=rng)
    while not game.state.is_terminal:
        action = bot.choose(game.state, rng)
        assert action in game.state.legal_actions()
        game.act(action)
    assert bot.fallbacks == 0


def test_turn_end_values_are_the_models_value_of_the_sheet_after_the_entry() -> None:
    """What the learned bot decides by is the model: an entry's value differs from the plain bot's by exactly
    the correction of the sheet after that entry (the engine's sheet, so no upper total or box is mixed up)."""
    rules = get("kniffel-3")
    model = _model("kniffel-3", 1)
    learned, plain = MultiColumnBot(model=model), MultiColumnBot(learned=False)
    rng = np.random.default_rng(3)
    game = Game("kniffel-3", ["p"], rng=rng)
    checked = 0
    while not game.state.is_terminal and checked < 150:
        state = game.state
        assert isinstance(state, GameState)
        if state.dice is not None and not state.is_chance_node and state.throws_left == 0:
            want = dict(plain.rank(state))
            for action, v in learned.rank(state):
                if isinstance(action, Score) and v is not None:
                    after = state.apply(action)
                    cols = tuple(c.scores for c in after.sheets[0].columns)
                    assert v - (want[action] or 0.0) == pytest.approx(model.value(cols), abs=1e-6)
                    checked += 1
        game.act(plain.choose(state, rng))
    assert checked >= 100
    assert rules.n_columns == 3


def test_every_shipped_model_passes_its_checks_and_names_its_command() -> None:
    """The shipped files (``pasch/bots/data/*.json``) load, with the command and seed that made them."""
    shipped = sorted(p for p in sv.model_path("jetsi").parent.glob("*.json") if not p.name.endswith(".offsets.json"))
    for path in shipped:
        rules = get(path.stem)
        model = sv.load_model(rules)
        assert model is not None
        assert model.meta["command"].startswith("pasch train --rules " + rules.id)
        assert isinstance(model.meta["seed"], int)
        assert MultiColumnBot().model(rules) is not None
        assert MultiColumnBot(learned=False).model(rules) is None
