"""Playthrough goldens (OpenSpiel's integration_tests/playthroughs): replay every recorded game and compare.

Each file in ``playthroughs/`` records one seeded game step by step (position text, legal actions, action
taken; see ``make_playthroughs.py``). The test replays the recorded actions on a fresh game and rebuilds
the whole text; any difference in a position, a legal-action list, a total or the end of the game fails
with a unified diff. After a deliberate engine change, rewrite the files with
``python tests/engine/make_playthroughs.py`` and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from make_playthroughs import DIRECTORY, games, header, playthrough, record

from pasch.engine import new_game

FILES = sorted(DIRECTORY.glob("*.txt"))


def _diff(expected: str, got: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), got.splitlines(), f"{name} (recorded)", f"{name} (replayed)", n=2, lineterm=""
    )
    out = list(lines)
    return "\n".join(out[:60] + ([f"... {len(out) - 60} more diff lines"] if len(out) > 60 else []))


def test_every_game_has_its_file() -> None:
    assert {f.stem for f in FILES} == {stem for stem, *_ in games()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_replay_matches_the_recording(path: Path) -> None:
    _check(path)


def _check(path: Path) -> None:
    recorded = path.read_text(encoding="utf-8")
    assert len(recorded) < 300_000
    lines = recorded.splitlines()
    fields = dict(line.split(": ", 1) for line in lines if not line.startswith("#") and ": " in line)
    rules, players, keeper = fields["rules"], tuple(fields["players"].split(",")), fields["keeper"] == "yes"
    actions = [line.removeprefix("action: ") for line in lines if line.startswith("action: ")]
    head = header(path.stem, rules, players, keeper)
    replayed = "\n".join(head + record(new_game(rules, players, keeper=keeper), actions)) + "\n"
    assert replayed == recorded, _diff(recorded, replayed, path.name)


def test_the_generator_reproduces_a_file() -> None:
    """The seeded policy is deterministic: regenerating gives the recorded game (checked on the smallest)."""
    stem, rules, players, keeper = min(games(), key=lambda g: (DIRECTORY / f"{g[0]}.txt").stat().st_size)
    recorded = (DIRECTORY / f"{stem}.txt").read_text(encoding="utf-8")
    got = playthrough(stem, rules, players, keeper)
    assert got == recorded, _diff(recorded, got, stem)


def test_a_changed_recording_fails_with_a_readable_diff(tmp_path: Path) -> None:
    recorded = (DIRECTORY / "knaster.txt").read_text(encoding="utf-8")
    changed = recorded.replace("legal: write 8 at a1|", "legal: write 8 at a2|", 1)
    assert changed != recorded
    path = tmp_path / "knaster.txt"
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(AssertionError) as info:
        _check(path)
    assert "-legal: write 8 at a2|" in str(info.value) and "+legal: write 8 at a1|" in str(info.value)
