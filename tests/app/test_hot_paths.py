"""The per-view and per-action shortcuts keep their meaning: cached sheet rows, the cheap rewindable check."""

from __future__ import annotations

import dataclasses

from pasch.app._layout import _sheet_rows, sheet_rows
from pasch.app._match import _rewindable
from pasch.app._record import TableDice
from pasch.dice import RewindableDice, SeededDice
from pasch.rules import get, names
from pasch.web._fair import DiceStream, HmacDice


def test_sheet_rows_are_computed_once_per_rule_set_and_equal_a_fresh_computation() -> None:
    for name in names():
        rules = get(name)
        rows = sheet_rows(rules)
        assert rows == _sheet_rows(rules)
        assert sheet_rows(rules) is rows


def test_an_equal_id_with_other_boxes_gets_its_own_rows() -> None:
    # Identity, not the id text, keys the cache: a custom rule set named like a catalogue one has its rows.
    rules = get("kniffel")
    fewer = dataclasses.replace(rules, bonus_threshold=None)
    assert sheet_rows(rules) == _sheet_rows(rules)
    assert sheet_rows(fewer) == _sheet_rows(fewer)
    assert sheet_rows(fewer) != sheet_rows(rules)


class _HalfRewindable:
    def throw(self, n: int, faces: int) -> tuple[int, ...]:
        return (1,) * n

    def mark(self) -> object:
        return 0

    rewind = None


def test_rewindable_agrees_with_the_protocol_check() -> None:
    sources: list[object] = [
        SeededDice(1),
        DiceStream("ab" * 32),
        HmacDice("cd" * 32),
        TableDice(),
        _HalfRewindable(),
        None,
    ]
    seen = set()
    for source in sources:
        seen.add(_rewindable(source))  # type: ignore[arg-type]
        assert _rewindable(source) == isinstance(source, RewindableDice)  # type: ignore[arg-type]
    assert seen == {True, False}
