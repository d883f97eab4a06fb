"""Tables are kept by what the rules are, not only by their id: a custom rule set that shares an id with another
(a catalogue one included) is never handed the other's table, on disk, from the shipped tables or in memory."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pasch.rules import Order, RuleSet, get
from pasch.solver import Solver, clear_shared, shared_solver, table_path

from .test_solver_reference import small


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path / "pasch-cache"))


def same(bonus: int) -> RuleSet:
    """A small rule set (three four-faced dice, two throws, four boxes) with a bonus; always the id ``same``."""
    return small("same", bonus=bonus)


def test_two_rule_sets_with_one_id_get_their_own_tables_on_disk() -> None:
    plain, rich = same(0), same(30)
    assert table_path(plain) != table_path(rich)
    first = Solver.load(plain).expected_start
    second = Solver.load(rich)
    assert not second.from_cache  # built for these rules, not the other's file
    assert second.expected_start > first + 1  # a bonus of 30 is worth something
    assert Solver.load(plain).from_cache and Solver.load(plain).expected_start == first
    assert Solver.load(rich).from_cache and Solver.load(rich).expected_start == second.expected_start


def test_the_process_wide_solver_tells_them_apart_too() -> None:
    clear_shared()
    try:
        a = shared_solver(same(0))
        b = shared_solver(same(30))
        assert a is not b and b.expected_start > a.expected_start + 1
        assert shared_solver(same(0)) is a
    finally:
        clear_shared()


def test_a_changed_catalogue_rule_set_is_not_handed_the_shipped_table() -> None:
    yahtzee = get("yahtzee")
    shipped = Solver.load(yahtzee)
    assert shipped.from_cache  # the shipped table (the private cache directory is empty)
    cheaper = dataclasses.replace(yahtzee, categories=yahtzee.categories[:6] + yahtzee.categories[-2:])
    assert cheaper.id == "yahtzee"
    assert table_path(cheaper) != table_path(yahtzee)
    got = Solver.load(cheaper)
    assert not got.from_cache
    assert got.expected_start < shipped.expected_start - 80  # no kinds, full house or straights


def test_the_free_column_of_jetsi_is_served_the_shipped_yahtzee_table() -> None:
    column = dataclasses.replace(get("jetsi"), columns=(Order.FREE,), id="jetsi.free")
    got = Solver.load(column)
    assert got.from_cache  # nothing built: the private cache directory is empty, the shipped table serves
    assert got.rules.id == "jetsi.free"
    assert got.expected_start == Solver.load(get("yahtzee")).expected_start
    clear_shared()
    try:
        assert shared_solver(column) is not shared_solver(get("yahtzee"))  # each its own rules, one table file
        assert shared_solver(column).rules.id == "jetsi.free"
    finally:
        clear_shared()
