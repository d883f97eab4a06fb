"""SVG snapshots of every game kind at four terminal sizes (pytest-textual-snapshot).

Each snapshot is a seeded game a few keys in: the dice thrown (one held), so that the dice, the status lines
and the sheet or grids all show. The goldens live in ``__snapshots__/``; after a deliberate change to the
layout, look at the new pictures and accept them with ``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

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
