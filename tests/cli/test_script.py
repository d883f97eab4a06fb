"""The installed ``pasch`` console script, run as a real subprocess (stdin, stdout, stderr, exit status)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pasch.rules import get


def _script() -> str:
    beside = Path(sys.executable).with_name("pasch")
    found = str(beside) if beside.exists() else shutil.which("pasch")
    if found is None:
        pytest.fail("the pasch console script is not installed; run: pip install -e '.[test]'")
    return found


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([_script(), *args], input=stdin, capture_output=True, text=True, timeout=120, check=False)


def test_script_score_and_bad_die() -> None:
    ok = _run("score", "--rules", "kniffel", "full_house", "3", "3", "5", "5", "5")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == "25"
    bad = _run("score", "--rules", "kniffel", "full_house", "3", "3", "5", "5", "7")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip() == "pasch: error: dice '3 3 5 5 7': 7 is not a die: dice show 1 to 6"


def test_script_rules_json() -> None:
    result = _run("rules", "--json")
    assert result.returncode == 0
    assert "kniffel" in [e["id"] for e in json.loads(result.stdout)["rule_sets"]]


def test_script_plays_a_whole_game_and_replays_it(tmp_path: Path) -> None:
    log_path = tmp_path / "solo.json"
    lines: list[str] = []
    for box in get("yatzy").category_ids:
        lines += ["roll", box]
    result = _run("play", "--plain", "--rules", "yatzy", "--seed", "2", "--save", str(log_path), stdin="\n".join(lines))
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout
    assert "Winner: Player 1" in result.stdout
    replayed = _run("replay", "--json", str(log_path))
    assert replayed.returncode == 0, replayed.stderr
    data = json.loads(replayed.stdout)
    assert data["finished"] is True
    final = result.stdout.split("Standings")[-1]
    assert f"{data['totals']['Player 1']}" in final


def test_script_no_traceback_on_bad_log(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "pasch-log", "version": 1, "rules": "kniffel", "players": ["A"], "actions": ["keep"]}')
    result = _run("replay", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "action 1 ('keep')" in result.stderr
