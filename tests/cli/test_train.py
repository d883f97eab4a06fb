"""``pasch train`` end to end on a tiny budget, and ``pasch model``."""

from __future__ import annotations

import csv
import importlib.util
import json
import socket
import sys
from pathlib import Path

import pytest

from pasch.bots._calibration import read_calibration
from pasch.bots._sheetvalue import feature_names, read_model
from pasch.rules import get

from ._helpers import Invoke, assert_bad_input


def test_train_writes_a_checked_model_and_its_learning_curve(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "m" / "jetsi.json"
    done = invoke(["train", "--rules", "jetsi", "--games", "5", "--generations", "2", "--seed", "3", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "wrote" in done.output
    model = read_model(get("jetsi"), out)
    assert len(model.weights) == len(feature_names(get("jetsi")))
    assert model.meta["seed"] == 3
    assert model.meta["games"] == 5
    assert "--seed 3" in model.meta["command"] or "train" in model.meta["command"]
    with (tmp_path / "m" / "jetsi.json.curve.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [int(r["generation"]) for r in rows] == [0, 1]
    assert all(int(r["games"]) == 5 and float(r["rmse_sum"]) > 0 for r in rows)
    checked = invoke(["model", "--rules", "jetsi", str(out)])
    assert checked.exit_code == 0 and "checksum ok" in checked.output
    payload = json.loads(out.read_text())
    payload["weights"][0] += 1.0
    out.write_text(json.dumps(payload))
    refused = invoke(["model", "--rules", "jetsi", str(out)])
    assert refused.exit_code == 2
    assert "checksum mismatch" in refused.output


def test_train_refuses_single_column_rules(invoke: Invoke, tmp_path: Path) -> None:
    done = invoke(["train", "--rules", "yahtzee", "--out", str(tmp_path / "x.json")])
    assert done.exit_code == 2
    assert "multi-column" in done.output


def test_train_on_ray_without_ray_is_a_clear_error(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed: its import fails
    done = invoke(["train", "--rules", "jetsi", "--games", "5", "--ray", "auto", "--out", str(tmp_path / "x.json")])
    assert_bad_input(done, "pasch[train]")
    assert not (tmp_path / "x.json").exists()


NO_RAY = importlib.util.find_spec("ray") is None


@pytest.mark.skipif(NO_RAY, reason="Ray is not installed (the train extra); without it --ray gives the hint above")
def test_train_on_ray_refuses_a_malformed_or_unreachable_address_at_once(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    base = ["train", "--rules", "jetsi", "--games", "5", "--generations", "1", "--out", str(out)]
    for address in ("nonsense", "local", "127.0.0.1:99999", "ray://:80"):
        assert_bad_input(invoke([*base, "--ray", address]), f"--ray {address}: want the address of a running Ray head")
    with socket.socket() as closed:  # bound, not listening: a connection to it is refused
        closed.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{closed.getsockname()[1]}"
        assert_bad_input(invoke([*base, "--ray", address]), f"--ray {address}: cannot reach", "is a Ray head running?")
    assert_bad_input(invoke([*base, "--ray", "auto", "--jobs", "2"]), "--jobs", "--ray")
    assert not out.exists()


def test_model_checks_the_shipped_file_or_says_none_ships(invoke: Invoke) -> None:
    shipped = invoke(["model", "--rules", "jetsi"])
    assert shipped.exit_code == 0 and "checksum ok" in shipped.output and "pasch train" in shipped.output
    none = invoke(["model", "--rules", "kniffel-4"])
    assert none.exit_code == 0 and "no learned model ships" in none.output
    missing = invoke(["model", "--rules", "kniffel-4", "/no/such/model.json"])
    assert missing.exit_code == 2 and "no model file" in missing.output
    assert "offsets" in none.output and "pasch calibrate" in none.output  # the shipped calibration, checked


def test_calibrate_writes_a_checked_calibration(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "c" / "jetsi.offsets.json"
    done = invoke(["calibrate", "--rules", "jetsi", "--games", "5", "--seed", "2", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "filled" in done.output and "mean final total" in done.output and "wrote" in done.output
    got = read_calibration(get("jetsi"), out)
    assert len(got.offsets) == 39
    assert got.meta["seed"] == 2 and got.meta["games"] == 5 and "calibrate" in got.meta["command"]
    assert got.meta["settings"]["slack_factor"] == 0.3 and got.meta["model"]  # jetsi ships a model
    assert "NaN" not in out.read_text()  # strict JSON: unmeasured counts have no standard error (null)


def test_calibrate_refuses_single_column_rules(invoke: Invoke, tmp_path: Path) -> None:
    done = invoke(["calibrate", "--rules", "yatzy", "--games", "5", "--out", str(tmp_path / "x.json")])
    assert_bad_input(done, "multi-column")
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("command", ["train", "calibrate"])
def test_an_output_that_cannot_be_written_is_refused_before_any_game(
    invoke: Invoke, tmp_path: Path, command: str
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("kept\n")
    base = [command, "--rules", "jetsi", "--games", "5"]
    # One line and nothing else: the banner and the progress of the games would come first otherwise.
    assert_bad_input(invoke([*base, "--out", str(tmp_path)]), "--out", "is a folder")
    assert_bad_input(invoke([*base, "--out", str(a_file / "sub" / "m.json")]), "--out", "is not a folder")
    assert a_file.read_text() == "kept\n"
