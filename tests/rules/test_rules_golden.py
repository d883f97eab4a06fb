"""The code reproduces every golden row (``golden/*.txt``, written once by the brute-force scorer)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasch.dice import space
from pasch.rules import get

from ._helpers import load_golden, options

GOLDEN_RULES = ("kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht")
SHARP = frozenset({"three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee"})
_CACHE = {rid: load_golden(rid) for rid in GOLDEN_RULES}


@pytest.mark.parametrize("rules_id", GOLDEN_RULES)
def test_golden_file_is_complete(rules_id: str) -> None:
    rules = get(rules_id)
    golden = _CACHE[rules_id]
    assert len(golden) == 252 * len(rules.categories)
    assert {d for d, _ in golden} == set(space().rolls)
    assert {c for _, c in golden} == set(rules.category_ids)


@pytest.mark.parametrize("rules_id", GOLDEN_RULES)
def test_empty_sheet_reproduces_every_golden_row(rules_id: str) -> None:
    rules = get(rules_id)
    golden = _CACHE[rules_id]
    empty = [None] * len(rules.categories)
    wrong = []
    for dice in space().rolls:
        opts = options(rules, empty, dice)
        assert list(opts) == list(rules.category_ids)  # every box of an empty free sheet is legal
        for cid, opt in opts.items():
            want = golden[(dice, cid)]
            if (opt.points, opt.extra, opt.doubled) != (want, 0, False):
                wrong.append(f"{rules_id} {' '.join(map(str, dice))} {cid} -> {want}, got {opt}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("rules_id", GOLDEN_RULES)
def test_sharp_doubles_exactly_the_listed_boxes(rules_id: str) -> None:
    """``+sharp`` on an empty sheet: the combination boxes pay double, upper boxes and chance do not."""
    rules = get(f"{rules_id}+sharp")
    golden = _CACHE[rules_id]
    empty = [None] * len(rules.categories)
    for dice in space().rolls:
        for cid, opt in options(rules, empty, dice, sharp=True).items():
            factor = 2 if cid in SHARP else 1
            assert opt.points == factor * golden[(dice, cid)], (dice, cid)
            assert opt.doubled == (factor == 2 and opt.points > 0)
        for cid, opt in options(rules, empty, dice, sharp=False).items():
            assert (opt.points, opt.doubled) == (golden[(dice, cid)], False), (dice, cid)


@pytest.mark.parametrize("rules_id", GOLDEN_RULES)
@settings(max_examples=50)
@given(data=st.data())
def test_context_does_not_matter_without_five_alike(rules_id: str, data: st.DataObject) -> None:
    """Only a five-alike looks at the rest of the sheet: any other throw scores its golden value."""
    rules = get(rules_id)
    golden = _CACHE[rules_id]
    dice = data.draw(st.sampled_from([r for r in space().rolls if len(set(r)) > 1]))
    n = len(rules.categories)
    filled = data.draw(st.lists(st.one_of(st.none(), st.integers(0, 50)), min_size=n, max_size=n))
    opts = options(rules, filled, dice)
    assert list(opts) == [c for c, s in zip(rules.category_ids, filled, strict=True) if s is None]
    for cid, opt in opts.items():
        assert (opt.points, opt.extra, opt.joker) == (golden[(dice, cid)], 0, False)


@pytest.mark.parametrize("rules_id", ["yatzy", "yacht"])
@settings(max_examples=30)
@given(data=st.data())
def test_yatzy_and_yacht_never_look_at_the_sheet(rules_id: str, data: st.DataObject) -> None:
    """No joker, no extra points: even a five-alike after the five-alike box is filled scores plainly."""
    rules = get(rules_id)
    golden = _CACHE[rules_id]
    dice = (data.draw(st.integers(1, 6)),) * 5
    n = len(rules.categories)
    filled = data.draw(st.lists(st.one_of(st.none(), st.sampled_from([0, 50])), min_size=n, max_size=n))
    for cid, opt in options(rules, filled, dice).items():
        assert (opt.points, opt.extra, opt.joker) == (golden[(dice, cid)], 0, False)
