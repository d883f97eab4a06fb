"""Seat kinds and the one bot registry."""

from __future__ import annotations

import pytest

from pasch.app import BOT_KINDS, HUMAN, Seat, bot_kinds_for, check_bot, make_bot, parse_seats, seat_kind
from pasch.rules import get


@pytest.mark.parametrize(
    ("text", "kind"),
    [("human", HUMAN), ("", HUMAN), (" Human ", HUMAN), ("bot", "bot:greedy"), ("bot:optimal", "bot:optimal"),
     ("OPTIMAL", "bot:optimal"), ("bot: random", "bot:random"), ("knaster", "bot:knaster")],
)  # fmt: skip
def test_seat_kind_normalises(text: str, kind: str) -> None:
    assert seat_kind(text) == kind


@pytest.mark.parametrize("text", ["bot:nobody", "robot", "bot:", "alien"])
def test_unknown_seat_kinds_are_refused_with_the_known_ones(text: str) -> None:
    with pytest.raises(ValueError, match="bot:optimal"):
        seat_kind(text)


def test_every_bot_of_the_registry_is_made_once_per_name() -> None:
    for info in BOT_KINDS:
        bot = make_bot(info.kind)
        assert bot is make_bot(info.name)
        assert callable(bot.choose)


def test_bots_for_a_game_and_checks() -> None:
    kniffel, knaster = get("kniffel"), get("knaster")
    assert [b.name for b in bot_kinds_for(kniffel)] == ["optimal", "greedy", "random"]
    assert "knaster" in [b.name for b in bot_kinds_for(knaster, offered_only=False)]
    assert "multi" not in [b.name for b in bot_kinds_for(knaster, offered_only=False)]
    assert "win" in [b.name for b in bot_kinds_for(kniffel, offered_only=False)]  # named on request only
    assert "win" not in [b.name for b in bot_kinds_for(knaster, offered_only=False)]
    check_bot("bot:win", kniffel)
    check_bot("bot:knaster", knaster)
    check_bot("human", kniffel)
    with pytest.raises(ValueError, match="does not play"):
        check_bot("bot:knaster", kniffel)
    with pytest.raises(ValueError, match="does not play"):
        check_bot("bot:multi", knaster)


def test_parse_seats_names_bots_and_keeps_people() -> None:
    seats = parse_seats("Ada, bot:optimal, bot:optimal, Eve=bot:greedy, Botswana")
    assert seats == [
        Seat("Ada"),
        Seat("OptimalBot", "bot:optimal"),
        Seat("OptimalBot2", "bot:optimal"),
        Seat("Eve", "bot:greedy"),
        Seat("Botswana"),
    ]
    assert [s.is_bot for s in seats] == [False, True, True, True, False]


@pytest.mark.parametrize(("text", "message"), [("", "no players"), ("Ada,,Bob", "empty"), ("Ada=bot:x", "unknown")])
def test_parse_seats_refuses_bad_lists(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_seats(text)
