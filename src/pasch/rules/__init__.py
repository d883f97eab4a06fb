"""Rule sets as data: categories and scorers, the catalogue and its modifiers, scoring in context.

``pasch.rules.get("kniffel-classic+forced+sharp")`` is the single entry point.
"""

from __future__ import annotations

from pasch.rules._catalogue import BASES, MODIFIERS, canonical, get, names
from pasch.rules._ruleset import (
    Category,
    ExtraPolicy,
    GameKind,
    JokerPolicy,
    KnasterRules,
    Order,
    RuleSet,
)
from pasch.rules._scorers import Scorer, ScorerKind
from pasch.rules._scoring import (
    BoxOption,
    ColumnTotals,
    column_totals,
    entry_option,
    fill_candidates,
    score_options,
)

__all__ = [
    "BASES",
    "MODIFIERS",
    "BoxOption",
    "Category",
    "ColumnTotals",
    "ExtraPolicy",
    "GameKind",
    "JokerPolicy",
    "KnasterRules",
    "Order",
    "RuleSet",
    "Scorer",
    "ScorerKind",
    "canonical",
    "column_totals",
    "entry_option",
    "fill_candidates",
    "get",
    "names",
    "score_options",
]
