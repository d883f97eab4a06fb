"""Published optimal expected scores, reproduced by the float32 tables to 1e-4."""

from __future__ import annotations

import pytest

from pasch.solver import Solver

PUBLISHED = [
    # Official Hasbro rules, forced joker (Woodward; Verhoeff's solver with the forced joker).
    ("yahtzee", 254.5877),
    # Free-choice joker: any open box, full value in a lower box once the matching upper box is
    # filled (Verhoeff 1999, "How to maximize your score in solitaire Yahtzee").
    ("yahtzee+joker=free", 254.5896),
    # "No Yahtzee bonus and no joker": the 35-point upper bonus stays, the 100-point extra-Yahtzee
    # bonus and the joker go. With bonus=0 as well the value would be far lower.
    ("yahtzee+joker=none+extra=none", 245.8708),
    # Scandinavian Yatzy (50-point bonus at 63), the corrected value (248.63 has the two-pairs bug).
    ("yatzy", 248.4400),
]


@pytest.mark.parametrize(("rule_id", "value"), PUBLISHED)
def test_published_expected_score(rule_id: str, value: float) -> None:
    solver = Solver.load(rule_id, use_cache=False)
    assert solver.expected_start == pytest.approx(value, abs=1e-4)
