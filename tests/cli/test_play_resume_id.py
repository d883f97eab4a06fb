"""``pasch play --resume [ID]``: a game id is an argument of --resume only; plain games are saved after every
move, listed by ``pasch history`` and continued by ``--resume`` (in plain mode too)."""

from __future__ import annotations

import json
from pathlib import Path

from pasch.storage import Repository

from ._helpers import Invoke


def test_game_id_needs_resume(invoke: Invoke) -> None:
    result = invoke(["play", "7"])
    assert result.exit_code == 2 and "--resume 7" in result.output


def test_resume_of_a_missing_game_is_one_clear_line(invoke: Invoke) -> None:
    result = invoke(["play", "--plain", "--resume", "7"])
    assert result.exit_code == 2 and "7" in result.output and "Traceback" not in result.output


def test_resume_with_nothing_to_resume(invoke: Invoke) -> None:
    result = invoke(["play", "--plain", "--resume"])
    assert result.exit_code == 2 and "no unfinished game" in result.output


def test_every_plain_move_is_saved_and_resumed(invoke: Invoke, _data_dir: Path) -> None:
    result = invoke(["play", "--plain", "--seed", "4", "--players", "Ada,Bob"], input="roll\nk 6\n")
    assert result.exit_code == 0, result.output
    assert "pasch play --resume 1" in result.output
    with Repository(directory=_data_dir) as repo:
        (rec,) = repo.games()
    assert not rec.finished and rec.log.meta["interface"] == "cli-plain"
    assert [a.split()[0] for a in rec.log.actions] == ["roll", "throw", "keep", "throw"]
    roll = rec.log.actions[1].split()[1:]
    kept = [d for d in roll if d == "6"][:1]
    dice = sorted([*kept, *rec.log.actions[3].split()[1:]], key=int)

    listed = invoke(["history", "--json"])
    assert json.loads(listed.stdout)["games"][0]["id"] == rec.id

    again = invoke(["play", "--plain", "--resume"], input="score chance\n")
    assert again.exit_code == 0, again.output
    assert f"Dice: {' '.join(dice)}   throw 2 of 3, 1 left" in again.output
    assert "Ada scores" in again.output
    with Repository(directory=_data_dir) as repo:
        (rec,) = repo.games()
    assert rec.log.actions[-1] == "score chance" and rec.players[0].total > 0


def test_plain_bare_digit_and_zero_ask_on_a_terminal() -> None:
    """A bare digit with throws left asks first (plain mode asks on a terminal; here it is told to)."""
    import io

    from pasch.app import Match, parse_seats
    from pasch.cli._plain import PlainSession

    match = Match.new("kniffel", parse_seats("Ada"), seed=4)
    out = io.StringIO()
    PlainSession(match, inp=io.StringIO("roll\n6\nn\n6\ny\n"), out=out, confirm=True).run()
    text = out.getvalue()
    assert "throws left. (y/N)" in text and "Not entered." in text
    assert match.state.sheets[0].columns[0].scores[5] is not None  # the second 6, confirmed
