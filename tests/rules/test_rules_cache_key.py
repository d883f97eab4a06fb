"""``RuleSet.cache_key``: the id where the id names these rules, the id and a content digest where it does not."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

from pasch.rules import BASES, Order, get


@pytest.mark.parametrize("text", [*BASES, "kniffel-classic+forced+sharp", "yahtzee+upward", "kniffel-4+sharp"])
def test_a_catalogue_rule_set_is_kept_under_its_id(text: str) -> None:
    rules = get(text)
    assert rules.cache_key == rules.id


def test_a_changed_rule_set_that_keeps_the_id_gets_a_key_of_its_own() -> None:
    yahtzee = get("yahtzee")
    richer = dataclasses.replace(yahtzee, bonus=50)
    assert richer.id == "yahtzee"
    assert richer.cache_key.startswith("yahtzee~") and richer.cache_key != yahtzee.cache_key
    assert dataclasses.replace(yahtzee, bonus=50).cache_key == richer.cache_key  # content, not identity
    assert dataclasses.replace(yahtzee, bonus=45).cache_key != richer.cache_key
    assert dataclasses.replace(yahtzee, columns=(Order.DOWN,)).cache_key != richer.cache_key
    custom = dataclasses.replace(yahtzee, id="my-yahtzee", bonus=50)  # an id the catalogue does not know
    assert custom.cache_key == "my-yahtzee~" + richer.cache_key.split("~")[1]  # the digest is of the rules alone


@pytest.mark.parametrize(
    ("game", "order", "twin"),
    [
        ("jetsi", Order.FREE, "yahtzee"),
        ("jetsi", Order.DOWN, "yahtzee+forced"),
        ("jetsi", Order.UP, "yahtzee+upward"),
        ("kniffel-4", Order.FREE, "kniffel-classic"),
        ("kniffel-3+sharp", Order.DOWN, "kniffel-classic+forced+sharp"),
    ],
)
def test_a_column_of_a_multi_column_game_is_kept_under_its_catalogue_twin(game: str, order: Order, twin: str) -> None:
    """The same rules under another id share the catalogue rule set's tables (shipped ones included)."""
    column = dataclasses.replace(get(game), columns=(order,), id=f"{game}.{order.value}")
    assert column.cache_key == twin
    assert dataclasses.replace(get(twin), id="renamed", name="renamed").cache_key == twin


def test_the_key_is_the_same_in_another_process() -> None:
    """The digest names files on disk: it must not depend on the process (set order, hash seed)."""
    code = (
        "import dataclasses; from pasch.rules import get; "
        "print(dataclasses.replace(get('kniffel-classic+sharp'), bonus=40).cache_key)"
    )
    keys = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        keys.add(out.stdout)
    here = dataclasses.replace(get("kniffel-classic+sharp"), bonus=40).cache_key
    assert keys == {here + "\n"}
