"""SVG snapshots of every game kind at four terminal sizes (pytest-textual-snapshot).

Each snapshot is a seeded game a few keys in: the dice thrown (one held), so that the dice, the status lines
and the sheet or grids all show. The goldens live in ``__snapshots__/``; after a deliberate change to the
layout, look at the new pictures and accept them with ``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pasch.app import Match
from pasch.tui import PaschApp, Session, parse_seats

SIZES = [(80, 24), (100, 30), (120, 40), (200, 50)]

# (name, rules, players, keeper, keys)
GAMES = [
    ("kniffel-solo", "kniffel", "Ada", False, ("space", "1")),
    ("yatzy-3", "yatzy", "Ada, Bob, Cy", False, ("space", "1")),
    ("jetsi", "jetsi", "Ada", False, ("space", "2")),
    ("kniffel4-2", "kniffel-4", "Ada, Bob", False, ("space", "1")),
    ("knaster-3", "knaster", "Ada, Bob, Cy", False, ("space",)),
    ("keeper", "kniffel", "Ada, Bob", True, ("1", "3", "3", "5", "6", "enter")),
]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize(("name", "rules", "players", "keeper", "keys"), GAMES, ids=[g[0] for g in GAMES])
def test_snapshot(
    snap_compare: Any, name: str, rules: str, players: str, keeper: bool, keys: tuple[str, ...], size: tuple[int, int]
) -> None:
    session = Session.new(rules, parse_seats(players), seed=11, keeper=keeper)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="en")
    assert snap_compare(app, press=keys, terminal_size=size)


# -- every table at 80x24 (issue 29): nothing scrolls sideways, nothing is cut ------------------------------
TABLES = [
    ("kniffel4-2-hints", "kniffel-4", "Ada, Bob", ("space", "1", "h")),
    ("kniffel4-4", "kniffel-4", "Ada, Bob, Cy, Dee", ("space", "1")),
    ("yatzy-6", "yatzy", "Ada, Bob, Cy, Dee, Eve, Flo", ("space", "1", "h")),
    ("kniffel-rules-card", "kniffel", "Ada", ("i",)),
    ("kniffel-help", "kniffel", "Ada", ("question_mark",)),
]


async def _settled(pilot: Any, keys: tuple[str, ...] = ()) -> None:
    """Press the keys, then wait for the workers (hints, the review) and the layout to settle."""
    await pilot.press(*keys)
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


@pytest.mark.parametrize(("name", "rules", "players", "keys"), TABLES, ids=[t[0] for t in TABLES])
def test_80x24(snap_compare: Any, name: str, rules: str, players: str, keys: tuple[str, ...]) -> None:
    session = Session.new(rules, parse_seats(players), seed=11)
    app = PaschApp(session=session, bot_delay=0, save=False, lang="en")
    assert snap_compare(app, terminal_size=(80, 24), run_before=lambda pilot: _settled(pilot, keys))


def test_80x24_setup(snap_compare: Any) -> None:
    app = PaschApp(players="Ada, bot:optimal", bot_delay=0, save=False, lang="en")  # no rules: the setup screen
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_80x24_end(snap_compare: Any) -> None:
    """The end of a three-player game: one line per player, the review in a table, nothing wraps."""
    played = Match.new("kniffel", parse_seats("bot:greedy, bot:greedy, bot:greedy"), seed=3)
    played.play_bots()
    log = dataclasses.replace(played.log, players=("Ada", "Bob", "Cy"), meta={})
    app = PaschApp(session=Session(Match.from_log(log, ["human"] * 3)), bot_delay=0, save=False, lang="en")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)
