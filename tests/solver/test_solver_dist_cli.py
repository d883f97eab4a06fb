"""``pasch solve --distribution`` and ``simulate --plot`` with the exact distribution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pasch.cli import _load, app
from pasch.solver import Solver, score_distribution

_load()
runner = CliRunner()
RULES = "yahtzee+forced"


def test_solve_distribution_json_has_the_documented_keys() -> None:
    result = runner.invoke(app, ["solve", "--rules", RULES, "--distribution", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mean"] == pytest.approx(data["expected_score"], abs=1e-4)
    assert list(data["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]
    values = list(data["percentiles"].values())
    assert values == sorted(values) and values[0] < data["mean"] < values[-1]
    assert list(data["p_at_least"]) == ["200", "250", "300", "350"]
    p = list(data["p_at_least"].values())
    assert p == sorted(p, reverse=True) and 0 < p[0] < 1
    d = score_distribution(Solver.load(RULES))
    assert data["p_at_least"]["200"] == pytest.approx(d.p_at_least(200), abs=1e-8)
    assert data["sd"] == pytest.approx(d.sd, abs=1e-6)


def test_solve_distribution_text() -> None:
    result = runner.invoke(app, ["solve", "--rules", RULES, "--distribution"])
    assert result.exit_code == 0, result.output
    assert "percentiles" in result.stdout and "P(score >= s)" in result.stdout


def test_simulate_plot_draws_the_exact_distribution(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "scores.png"
    result = runner.invoke(app, ["simulate", "--rules", RULES, "--games", "300", "--plot", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000
