"""bench/rollout.py, the rollout yardstick of the multi-column games: its luck terms have mean 0 exactly (so
luck-adjusted totals are unbiased), and a game of it runs end to end."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from pasch.bots import MultiColumnBot
from pasch.dice import space
from pasch.engine import GameState, Keep, Throw, new_game

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rollout.py"


@pytest.fixture(scope="module")
def rollout() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rollout", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _outcomes(state: GameState) -> list[tuple[GameState, float]]:
    """Every throw of the dice in the air with its probability (the engine's exact chance outcomes)."""
    out = []
    for throw, p in state.chance_outcomes():
        after = state.apply(throw)
        assert isinstance(after, GameState)
        out.append((after, float(p)))
    return out


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-4"])
def test_each_throws_luck_has_mean_zero(rollout: ModuleType, rules: str) -> None:
    bot = MultiColumnBot()
    state = new_game(rules, ["solo"])
    assert isinstance(state, GameState)
    before = rollout._first_throw_mean(bot, state)
    thrown = state.apply("roll")
    assert isinstance(thrown, GameState)
    after = sum(p * rollout._throw_value(bot, s) for s, p in _outcomes(thrown))
    assert after == pytest.approx(before, abs=1e-9)  # kniffel-4: announcing each box counted, as the bot does
    landed = thrown.apply(Throw((1, 2, 2, 5, 6)))
    assert isinstance(landed, GameState)
    keep = Keep((2, 2))
    expected = rollout._keep_value(bot, landed, keep)
    again = landed.apply(keep)
    assert isinstance(again, GameState)
    after = sum(p * rollout._throw_value(bot, s) for s, p in _outcomes(again))
    assert after == pytest.approx(expected, abs=1e-9)


@pytest.mark.slow
def test_a_rollout_game_runs_and_reports_both_bots(rollout: ModuleType) -> None:
    cfg = rollout.Config("kniffel-3", seed=1, n=2, k=2, margin=10.0, z=0.0, horizon=2)
    g, base, base_luck, total, luck, rolled, seconds = rollout.play(cfg, 0)
    assert g == 0 and rolled > 0 and seconds >= 0
    assert 100 < base < 1500 and 100 < total < 1500
    assert abs(base_luck) < 400 and abs(luck) < 400
    dice = rollout._dice(new_game("kniffel-3", ["x"]).rules, [1, 0])
    assert dice.shape == (40, 3, 5) and dice.min() >= 1 and dice.max() <= 6
    assert len(space(5, 6).rolls) == 252
    assert np.array_equal(dice, rollout._dice(new_game("kniffel-3", ["x"]).rules, [1, 0]))  # seeded


def test_runs_written_with_dir_join_by_game_in_the_report(
    rollout: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = rollout.Config("kniffel-3", seed=1, n=2, k=2, margin=10.0, z=0.0, horizon=2)
    path = tmp_path / rollout.csv_name(cfg)
    rows = [(0, 700.0, 10.0, 710.0, 12.0, 30, 1.0), (1, 650.0, -20.0, 655.0, -21.0, 31, 3.0)]
    earlier = (1, 1.0, 0.0, 1.0, 0.0, 0, 9.0)
    with path.open("w") as fh:  # two runs appended to one file; game 1 played twice: the later row counts
        fh.write(",".join(rollout.FIELDS) + "\n")
        for row in (rows[0], earlier, rows[1]):
            fh.write(",".join(str(x) for x in row) + "\n")
    got = rollout.read_rows(path)
    assert sorted(got) == [0, 1] and got[1] == rows[1][1:]
    rollout.report(tmp_path)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("kniffel-3"))
    assert "seed1.n2.k2.m10.z0.h2" in line
    # adjusted: base 690 and 670 (mean 680), rollout 698 and 676 (mean 687), gain +7.0 ± 1.0
    assert "680.0" in line and "687.0" in line and "+7.0 ±  1.0" in line
    assert " 1800.0 " in line  # two games in 2 s on average: 1,800 an hour
    with pytest.raises(SystemExit):
        rollout.report(tmp_path / "empty")


def test_decision_records_are_summed_per_kind_with_a_game_played_twice_counted_once(
    rollout: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def rec(game: int, decision: int, kind: str, cands: list[str], gain: list[float], se: list[float], played: int):
        return {"game": game, "decision": decision, "kind": kind, "sheet": [], "dice": [1, 2, 3, 4, 5],
                "candidates": cands, "gain": gain, "se": se, "played": cands[played]}  # fmt: skip

    records = [
        rec(0, 0, "entry", ["score 1:ones", "score 2:ones"], [0.0, 5.0], [0.0, 1.0], 1),  # an earlier run of game 0
        rec(1, 0, "announce", ["announce fours", "keep 4 4", "announce fives"], [0.0, 3.0, -4.0], [0, 1.0, 1.0], 1),
        rec(1, 1, "entry", ["score 1:ones", "score 3:ones", "score 2:twos"], [0.0, -1.0, -3.0], [0, 1.0, 1.0], 0),
        rec(0, 0, "entry", ["score 1:ones", "score 2:ones"], [0.0, -6.0], [0.0, 2.0], 0),  # game 0 again: counts
        rec(0, 1, "entry", ["score 1:twos", "score 2:twos"], [0.0, 1.0], [0.0, 1.0], 0),
    ]
    path = tmp_path / "kniffel-4.seed1.n2.k3.m10.z0.h2.ann.decisions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    got = rollout.read_decisions(path)
    assert [(r["game"], r["decision"]) for r in got] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert got[0]["gain"] == [0.0, -6.0]  # the later run of game 0
    rows = {row[0]: row for row in rollout.decision_rows(got)}
    assert set(rows) == {"entry", "announce: announce -> plain", "announce: announce -> announce"}
    _, n, alts, (mean, se), better, worse, moved = rows["entry"]
    # alternatives -6 (se 2), +1 (se 1), -1 and -3 (se 1): mean -2.25; -6 and -3 below two se, none above
    assert (n, alts, better, worse, moved) == (3, 4, 0, 2, 0) and mean == pytest.approx(-2.25)
    assert se == pytest.approx(np.std([-6.0, 1.0, -1.0, -3.0], ddof=1) / 2)
    assert rows["announce: announce -> plain"][1:3] == (1, 1) and rows["announce: announce -> plain"][4:] == (1, 0, 1)
    assert rows["announce: announce -> announce"][3][0] == -4.0 and rows["announce: announce -> announce"][5] == 1
    rollout.print_decisions(tmp_path)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("kniffel-4") and " entry " in x)
    assert "-2.25 ±" in line and line.split()[2:5] == ["2", "3", "4"]  # games, decisions, alternatives


@pytest.mark.slow
def test_kniffel_4_announcements_are_rolled_out_with_announce(rollout: ModuleType) -> None:
    cfg = rollout.Config("kniffel-4", seed=1, n=2, k=3, margin=10.0, z=0.0, horizon=2, announce=True)
    assert rollout.csv_name(cfg).endswith(".h2.ann.csv")
    row, records = rollout.play_logged(cfg, 0)
    kinds = {r["kind"] for r in records}
    assert kinds == {"announce", "entry"} and row[5] == len(records)
    for r in records:
        assert len(r["candidates"]) == len(r["gain"]) == len(r["se"]) >= 2 and r["gain"][0] == 0.0
        assert r["played"] in r["candidates"]
        if r["kind"] == "announce":  # announcing a box, or not announcing (the keep or entry played instead)
            assert any(c.startswith("announce ") for c in r["candidates"])
            assert all(c.split()[0] in ("announce", "keep", "score") for c in r["candidates"])
    plain = rollout.Config("kniffel-4", seed=1, n=2, k=3, margin=10.0, z=0.0, horizon=2)
    _, entries_only = rollout.play_logged(plain, 0)
    assert {r["kind"] for r in entries_only} == {"entry"}
