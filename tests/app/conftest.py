"""Small rule sets for the application layer's tests (tables build in milliseconds)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pasch.rules import Category, RuleSet, Scorer, ScorerKind
from pasch.solver import clear_shared

K = ScorerKind


def tiny(name: str = "app-tiny", *, bonus: int = 0, columns: int = 1) -> RuleSet:
    """Three four-faced dice, two throws, boxes ``ones twos yahtzee chance``."""
    from pasch.rules import Order

    cats = (
        Category("ones", Scorer(K.FACE, face=1)),
        Category("twos", Scorer(K.FACE, face=2)),
        Category("yahtzee", Scorer(K.ALL_ALIKE, points=50)),
        Category("chance", Scorer(K.CHANCE)),
    )
    return RuleSet(
        id=name,
        name=name,
        description="test",
        categories=cats,
        bonus_threshold=5 if bonus else None,
        bonus=bonus,
        columns=(Order.FREE,) * columns,
        dice=3,
        faces=4,
        throws=2,
    )


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path_factory.getbasetemp() / "pasch-cache"
    monkeypatch.setenv("PASCH_CACHE_DIR", str(path))
    yield path
    clear_shared()
