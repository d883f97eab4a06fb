"""Small helpers to build concrete sheets and read ``score_options`` by box id."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pasch.dice import counts_of
from pasch.rules import BoxOption, Order, RuleSet, get, score_options

GOLDEN = Path(__file__).parent / "golden"

Scores = list[int | None]


def sheet(rules: RuleSet, **filled: int) -> Scores:
    """A column with the named boxes filled with the given scores, every other box open."""
    scores: Scores = [None] * len(rules.categories)
    for cid, value in filled.items():
        scores[rules.category_index(cid)] = value
    return scores


def full_except(rules: RuleSet, *open_ids: str, value: int = 0, **filled: int) -> Scores:
    """A column with every box filled (``value``, or the given score) except ``open_ids``."""
    scores: Scores = [value] * len(rules.categories)
    for cid in open_ids:
        scores[rules.category_index(cid)] = None
    for cid, v in filled.items():
        scores[rules.category_index(cid)] = v
    return scores


def options(
    rules: RuleSet | str,
    scores: Sequence[int | None],
    dice: Sequence[int],
    *,
    sharp: bool = False,
    order: Order | None = None,
) -> dict[str, BoxOption]:
    """The legal entries of ``dice`` in a column, keyed by box id (in sheet order)."""
    rs = get(rules) if isinstance(rules, str) else rules
    col = rs.columns[0] if order is None else order
    opts = score_options(rs, col, tuple(scores), counts_of(dice), sharp)
    out = {rs.categories[o.index].id: o for o in opts}
    assert len(out) == len(opts), "an index offered twice"
    return out


def load_golden(rules_id: str) -> dict[tuple[tuple[int, ...], str], int]:
    """The golden rows of one rule set: ``(dice, category) -> score``."""
    rows: dict[tuple[tuple[int, ...], str], int] = {}
    for line in (GOLDEN / f"{rules_id}.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        left, _, right = line.partition(" -> ")
        parts = left.split()
        assert parts[0] == rules_id, line
        dice = tuple(int(p) for p in parts[1:6])
        rows[(dice, parts[6])] = int(right)
    return rows
