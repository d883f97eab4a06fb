"""``pasch verify``: the player's own commitment, what was checked, and a tampered throw reported as UNFAIR
with its first mismatch even when the rest of the log no longer replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pasch.app import Match, parse_seats
from pasch.cli import main
from pasch.engine import GameLog
from pasch.errors import PaschError
from pasch.web import DiceStream, commitment_of, new_seed, verify


def served_log(seed: str, rules: str = "kniffel") -> GameLog:
    """A finished game thrown by a room's dice stream, as the server's log endpoint gives it."""
    match = Match.new(rules, parse_seats("bot:greedy, bot:optimal"), dice=DiceStream(seed), undo=False)
    match.play_bots()
    assert match.finished
    return GameLog(
        rules, tuple(match.state.players), tuple(match.actions), meta={"seed": seed, "commitment": commitment_of(seed)}
    )


@pytest.fixture(scope="module")
def log() -> GameLog:
    return served_log(new_seed(), "yacht")


def test_a_served_game_is_fair_and_says_what_was_checked(log: GameLog) -> None:
    report = verify(log)
    assert report.fair and report.problems == []
    assert report.throws == sum(1 for a in log.actions if a.startswith("throw"))
    assert report.commitment_source == "log" and report.commitment == log.meta["commitment"]
    mine = verify(log, commitment=log.meta["commitment"].upper())
    assert mine.fair and mine.commitment_source == "given"


def test_the_commitment_the_player_saw_catches_a_rewritten_log(log: GameLog) -> None:
    other = new_seed()
    forged = served_log(other, "yacht")  # a server that rewrote seed, commitment and throws together
    assert verify(forged).fair  # self-consistent...
    report = verify(forged, commitment=log.meta["commitment"])  # ...but not with what the player saw
    assert not report.fair and "commitment (given)" in report.problems[0]
    with pytest.raises(PaschError, match="64 hexadecimal"):
        verify(log, commitment="abc")


def test_a_tampered_throw_is_unfair_even_when_later_moves_no_longer_replay(log: GameLog) -> None:
    actions = list(log.actions)
    i = next(n for n, a in enumerate(actions) if a.startswith("throw") and len(a.split()) == 6)
    actions[i] = "throw 6 6 6 6 6" if actions[i] != "throw 6 6 6 6 6" else "throw 1 1 1 1 1"
    report = verify(GameLog(log.rules, log.players, tuple(actions), meta=dict(log.meta)))
    assert not report.fair
    assert report.problems[0].startswith(f"action {i + 1}: logged '{actions[i]}'")


def test_local_logs_and_unrevealed_seeds_are_explained() -> None:
    local = GameLog("kniffel", ("Ada",), ("roll", "throw 1 2 3 4 5"), meta={"seed": 7})
    with pytest.raises(PaschError, match="local game"):
        verify(local)
    with pytest.raises(PaschError, match="no dice seed"):
        verify(GameLog("kniffel", ("Ada",), ()))


def test_the_command_takes_the_commitment_and_prints_what_it_checked(
    log: GameLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(log.to_json(), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["verify", str(path), "--commitment", log.meta["commitment"]])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("fair:") and "the one you gave" in out and log.meta["commitment"] in out
    with pytest.raises(SystemExit) as exc:
        main(["verify", str(path), "--commitment", "0" * 64, "--json"])
    assert exc.value.code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["fair"] is False and report["commitment_source"] == "given"
