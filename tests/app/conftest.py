"""Small rule sets for the application layer's tests (tables build in milliseconds)."""

from __future__ import annotations

import dataclasses

from pasch.rules import Order, RuleSet
from solver.test_solver_reference import small


def tiny(name: str = "app-tiny", *, bonus: int = 0, columns: int = 1) -> RuleSet:
    """The solver tests' small rule set (three four-faced dice, two throws, boxes ``ones twos yahtzee chance``)
    with ``columns`` free columns."""
    return dataclasses.replace(small(name, bonus=bonus), columns=(Order.FREE,) * columns)
