"""Players up to 20 where the seeds set no maximum; ``+upward``'s text; ``score --sharp``; Knaster replays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pasch.engine import Game, KnasterState, new_game
from pasch.rules import BASES, MODIFIERS, get

from ._helpers import Invoke, assert_bad_input

OPEN = {"yatzy": 20, "yahtzee": 20, "jetsi": 20, "knaster": 20}
"""Seeds 001, 002 and 004 set no maximum (RULES.md: at least 20)."""
CAPPED = {"kniffel": 8, "kniffel-classic": 8, "kniffel-3": 8, "kniffel-4": 8, "yacht": 8}


def test_player_ranges_in_the_catalogue(invoke: Invoke) -> None:
    data = json.loads(invoke(["rules", "--json"]).stdout)
    ranges = {e["id"]: e["players"] for e in data["rule_sets"]}
    assert ranges == {rid: [1, most] for rid, most in {**OPEN, **CAPPED}.items()}
    assert set(ranges) == set(BASES)


@pytest.mark.parametrize("rules", ["yatzy+forced", "yahtzee+sharp", "jetsi+sharp", "knaster+rows=1,2,3,4,5"])
def test_variants_keep_the_open_maximum(rules: str) -> None:
    assert get(rules).max_players == 20
    names = [f"P{i}" for i in range(20)]
    assert new_game(rules, names).players == tuple(names)
    with pytest.raises(ValueError, match="1 to 20 players, not 21"):
        new_game(rules, [*names, "P20"])


def test_rules_show_says_twenty(invoke: Invoke) -> None:
    assert "1 to 20 players" in invoke(["rules", "show", "yatzy"]).stdout
    assert "1 to 8 players" in invoke(["rules", "show", "kniffel"]).stdout


@pytest.mark.parametrize("rules", ["yatzy", "knaster"])
def test_plain_mode_plays_with_twenty(invoke: Invoke, rules: str) -> None:
    names = ",".join(f"Player{i:02d}" for i in range(20))
    result = invoke(
        ["play", "--plain", "--rules", rules, "--players", names, "--seed", "1"], input="roll\nsheet\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Player19" in result.stdout
    if rules == "yatzy":
        header = next(line for line in result.stdout.splitlines() if "Player00" in line and "Player19" in line)
        assert header.index("Player19") > header.index("Player18")
    result = invoke(["play", "--plain", "--rules", rules, "--players", names + ",Extra"], input="quit\n")
    assert_bad_input(result, "not 21")


def test_upward_names_the_last_box_of_each_family(invoke: Invoke) -> None:
    text = MODIFIERS["upward"]
    assert "chance first" not in text
    for base in ("kniffel", "yatzy", "yacht"):
        assert base in text
    for rid in ("kniffel+upward", "yatzy+upward", "yacht+upward"):
        rules = get(rid)
        assert rules.categories[-1].id in text  # the box filled first is named


def test_score_sharp_needs_the_sharp_rule(invoke: Invoke) -> None:
    assert_bad_input(
        invoke(["score", "--rules", "kniffel", "--sharp", "full_house", "2", "2", "3", "3", "3"]), "+sharp"
    )
    assert_bad_input(invoke(["score", "--rules", "yatzy", "--sharp", "chance", "1", "2", "3", "4", "5"]), "yatzy+sharp")
    ok = invoke(["score", "--rules", "kniffel+sharp", "--sharp", "full_house", "2", "2", "3", "3", "3"])
    assert ok.exit_code == 0 and ok.stdout.strip() == "50"
    plain = invoke(["score", "--rules", "kniffel", "full_house", "2", "2", "3", "3", "3"])
    assert plain.exit_code == 0 and plain.stdout.strip() == "25"


def _knaster_log(tmp_path: Path) -> tuple[Path, KnasterState]:
    rng = np.random.default_rng(3)
    game = Game("knaster", ["Ada", "Bob"], rng=np.random.default_rng(4))
    while not game.state.is_terminal:
        legal = game.state.legal_actions()
        game.act(legal[int(rng.integers(len(legal)))])
    path = tmp_path / "k.json"
    path.write_text(game.log.to_json(), encoding="utf-8")
    state = game.state
    assert isinstance(state, KnasterState)
    return path, state


def test_replay_of_knaster_prints_every_grid(invoke: Invoke, tmp_path: Path) -> None:
    path, state = _knaster_log(tmp_path)
    out = invoke(["replay", str(path)]).stdout
    for p in range(2):
        for line in state.render(p).splitlines():
            assert line.rstrip() in out
    assert out.count("    written ") == 2


def test_replay_json_of_knaster_has_the_grids(invoke: Invoke, tmp_path: Path) -> None:
    path, state = _knaster_log(tmp_path)
    sheets = json.loads(invoke(["replay", "--json", str(path)]).stdout)["sheets"]
    for p, sheet in enumerate(sheets):
        grid = state.grids[p]
        cells = [cell for row in sheet["grid"] for cell in row]
        assert len(sheet["grid"]) == 5 and len(cells) == 25
        assert [c["number"] for c in cells] == [n or None for n in grid.numbers]
        assert sum(c["circled"] for c in cells) == bin(grid.circled).count("1")


def test_rules_table_shows_the_player_range(invoke: Invoke) -> None:
    out = invoke(["rules"]).stdout
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.startswith("│ ") and "│" in line[2:]}
    for rid, most in {**OPEN, **CAPPED}.items():
        assert rows[rid].rstrip(" │").endswith(f"1–{most}"), rows[rid]
