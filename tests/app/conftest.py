"""Small rule sets for the application layer's tests (tables build in milliseconds)."""

from __future__ import annotations

from pasch.rules import Category, RuleSet, Scorer, ScorerKind

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
