"""``pasch verify`` against a server that forges its log (issue 26): each forgery below passed as fair before.

The games are thrown by the real dice streams (``HmacDice``, ``DiceStream``) with the contributions the
forging server chose, so every throw follows from the log's seed: only the fairness argument around the
throws can catch them (docs/protocol.md, *What verify proves*).
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from pasch.app import Match, parse_seats
from pasch.cli import main
from pasch.engine import GameLog
from pasch.errors import PaschError
from pasch.web import DICE_V1, DICE_V2, DiceStream, HmacDice, commitment_of, new_seed, verify

ADA, BOB = secrets.token_hex(32), secrets.token_hex(32)
GROUND = secrets.token_hex(32)  # a value the server chose after seeing the players' contributions


def game(contributions: list[str | None], seats: list[str], version: str = DICE_V2, listed: list | None = None):
    """A finished yacht game thrown from a fresh seed and ``contributions``, logged with ``listed`` (default: the
    same) and the seat kinds ``seats`` (Ada, then Bob or Robo)."""
    seed = new_seed()
    dice = HmacDice(seed, list(contributions)) if version == DICE_V2 else DiceStream(seed)
    match = Match.new("yacht", parse_seats("bot:greedy, bot:greedy"), dice=dice, undo=False)
    match.play_bots()
    players = ("Ada", "Robo" if seats[1].startswith("bot") else "Bob")
    meta = {
        "seed": seed,
        "commitment": commitment_of(seed),
        "dice": version,
        "contributions": list(contributions if listed is None else listed),
        "seats": seats,
    }
    return GameLog("yacht", players, tuple(match.actions), meta=meta)


HUMANS = ["human", "human"]


def test_an_honest_game_is_fair_for_each_player_at_their_seat() -> None:
    log = game([ADA, BOB], HUMANS)
    for name, mine in (("Ada", ADA), ("Bob", BOB)):
        report = verify(log, contribution=mine, player=name)
        assert report.fair and report.mine and report.problems == [] and report.notes == []
        assert report.seat == log.players.index(name)


def test_a_v1_log_relabelled_with_the_players_contributions_is_refused() -> None:
    """The server threw from its seed alone (version 1) and listed the players' contributions beside."""
    log = game([ADA, BOB], HUMANS, version=DICE_V1)
    report = verify(log, contribution=ADA, player="Ada")
    assert not report.fair
    assert any("relabelled" in p for p in report.problems)


def test_a_contribution_appended_after_the_players_is_refused() -> None:
    """A third value, ground after seeing both (it decides the first throw), mixed into every throw."""
    log = game([ADA, BOB, GROUND], HUMANS)
    report = verify(log, contribution=ADA, player="Ada")
    assert not report.fair and report.mine
    assert any("3 contributions for 2 seats" in p for p in report.problems)


def test_a_bots_seat_that_contributed_is_refused() -> None:
    log = game([ADA, GROUND], ["human", "bot:greedy"])
    report = verify(log, contribution=ADA, player="Ada")
    assert not report.fair
    assert any("seat 1 (Robo) is a bot's" in p for p in report.problems)


def test_a_contribution_moved_to_another_seat_is_not_yours() -> None:
    """Ada's value sits at Bob's seat and the server's at hers: 'included' somewhere is not enough."""
    log = game([GROUND, ADA], HUMANS)
    assert verify(log, contribution=ADA).mine  # no seat named: found at some seat...
    report = verify(log, contribution=ADA, player="Ada")  # ...but not at hers
    assert not report.fair and report.mine is False and report.seat == 1
    assert any("at Bob's seat" in p for p in report.problems)


def test_a_replaced_contribution_fails_its_owners_check() -> None:
    """The server replaced Bob's value with one it ground: Ada cannot see it, Bob's check does."""
    log = game([ADA, GROUND], HUMANS)
    assert verify(log, contribution=ADA, player="Ada").fair
    bob = verify(log, contribution=BOB, player="Bob")
    assert not bob.fair and any("not in the log" in p for p in bob.problems)


def test_a_seat_without_a_contribution_is_noted_not_hidden() -> None:
    log = game([ADA, None], HUMANS)
    report = verify(log, contribution=ADA, player="Ada")
    assert report.fair
    assert report.notes == ["Bob contributed nothing: their dice rest on the commitment alone"]
    unlabelled = GameLog(log.rules, log.players, log.actions, meta={k: v for k, v in log.meta.items() if k != "seats"})
    assert any("which seats were bots" in n for n in verify(unlabelled).notes)


def test_an_unknown_player_is_bad_input() -> None:
    with pytest.raises(PaschError, match="'Cy' is not a player"):
        verify(game([ADA, BOB], HUMANS), contribution=ADA, player="Cy")


def test_the_command_names_the_seat_and_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(game([GROUND, ADA], HUMANS).to_json(), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["verify", str(path), "--contribution", ADA, "--player", "Ada"])
    out = capsys.readouterr().out
    assert done.value.code == 1 and out.startswith("UNFAIR") and "at Bob's seat" in out
    with pytest.raises(SystemExit) as done:
        main(["verify", str(path), "--contribution", ADA, "--player", "Bob", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert done.value.code == 0 and data["contribution_seat"] == 1 and data["contribution_included"] is True
    with pytest.raises(SystemExit) as done:
        main(["verify", str(path), "--player", "Cy"])
    assert done.value.code == 2 and "'Cy' is not a player" in capsys.readouterr().err
    v1 = tmp_path / "v1.json"
    v1.write_text(game([], HUMANS, version=DICE_V1).to_json(), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["verify", str(v1)])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "the server's seed alone (no player contribution mixed in)" in out
