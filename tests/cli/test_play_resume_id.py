"""``pasch play --resume ID``: a game id is an argument of --resume only."""

from __future__ import annotations

from ._helpers import Invoke


def test_game_id_needs_resume(invoke: Invoke) -> None:
    result = invoke(["play", "7"])
    assert result.exit_code == 2 and "--resume 7" in result.output


def test_resume_is_refused_in_plain_mode_with_an_id_too(invoke: Invoke) -> None:
    result = invoke(["play", "--plain", "--resume", "7"])
    assert result.exit_code == 2 and "--resume" in result.output
