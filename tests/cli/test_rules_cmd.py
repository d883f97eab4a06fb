"""``pasch rules`` and ``pasch rules show ID``."""

from __future__ import annotations

import json

import pytest

from pasch.rules import BASES, MODIFIERS, get

from ._helpers import Invoke, assert_bad_input


def test_rules_lists_every_rule_set_with_description_and_modifiers(invoke: Invoke) -> None:
    result = invoke(["rules"])
    assert result.exit_code == 0, result.output
    for base_id in BASES:
        assert base_id in result.stdout
    for mod in MODIFIERS:
        assert f"+{mod}" in result.stdout
    assert "Kniffel (Schmidt rules)" in result.stdout


def test_rules_json_is_one_object(invoke: Invoke) -> None:
    result = invoke(["rules", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [e["id"] for e in data["rule_sets"]] == list(BASES)
    by_id = {e["id"]: e for e in data["rule_sets"]}
    assert by_id["kniffel-classic"]["modifiers"] == ["forced", "upward", "strict", "sharp"]
    assert by_id["kniffel"]["modifiers"] == ["forced", "upward", "sharp"]
    assert by_id["knaster"]["modifiers"] == []
    assert by_id["kniffel-4"]["columns"] == 4
    assert set(data["modifiers"]) == set(MODIFIERS)
    assert all(e["description"] for e in data["rule_sets"])


@pytest.mark.parametrize("rule_id", ["kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht", "jetsi"])
def test_rules_show_lists_every_box(invoke: Invoke, rule_id: str) -> None:
    result = invoke(["rules", "show", rule_id])
    assert result.exit_code == 0, result.output
    for box in get(rule_id).category_ids:
        assert box in result.stdout
    assert "joker" in result.stdout.lower()
    assert "five alike" in result.stdout  # the extra points' line
    assert "dice, up to 3 throws a turn" in result.stdout


def test_rules_show_bonus_and_pays(invoke: Invoke) -> None:
    out = invoke(["rules", "show", "yatzy"]).stdout
    assert "Upper bonus: +50 for 63 or more in the upper boxes." in out
    assert "exactly 1-2-3-4-5" in out
    assert "No upper bonus." in invoke(["rules", "show", "yacht"]).stdout
    kniffel = invoke(["rules", "show", "kniffel"]).stdout
    assert "Upper bonus: +35" in kniffel
    assert "+50 extra" in kniffel


def test_rules_show_with_modifiers(invoke: Invoke) -> None:
    result = invoke(["rules", "show", "kniffel-classic+forced+sharp"])
    assert result.exit_code == 0
    assert "kniffel-classic+forced+sharp" in result.stdout
    assert "top to bottom" in result.stdout
    assert "score double" in result.stdout
    assert "×2 sharp" in result.stdout


def test_rules_show_json(invoke: Invoke) -> None:
    data = json.loads(invoke(["rules", "show", "jetsi", "--json"]).stdout)
    assert data["columns"] == ["free", "down", "up"]
    assert [b["id"] for b in data["boxes"]] == list(get("jetsi").category_ids)
    assert data["bonus"] == {"threshold": 63, "amount": 35}
    strict = json.loads(invoke(["rules", "show", "kniffel-classic+strict", "--json"]).stdout)
    assert strict["five_alike_full_house"] is True
    assert strict["columns"] == ["down"]


def test_rules_show_knaster(invoke: Invoke) -> None:
    result = invoke(["rules", "show", "knaster"])
    assert result.exit_code == 0
    assert "5x5" in result.stdout
    assert "rows, top to bottom:      9 8 7 6 5" in result.stdout
    data = json.loads(invoke(["rules", "show", "knaster+diags=12,11", "--json"]).stdout)
    assert data["knaster"]["diagonal_values"] == [12, 11]


def test_rules_show_speaks_the_cards_language(invoke: Invoke) -> None:
    """The card is the terminal app's (pasch.app.rules_card): in German with --lang de, and in the JSON."""
    out = invoke(["rules", "show", "kniffel", "--lang", "de"]).stdout
    assert "Große Straße" in out and "Summe aller Augen" in out
    data = json.loads(invoke(["rules", "show", "kniffel", "--json"]).stdout)
    assert data["card"]["head"] == ["box", "asks", "pays"] and data["card"]["rows"][0][0] == "Ones"


@pytest.mark.parametrize(
    ("text", "needle"),
    [("nope", "'nope'"), ("knaster+sharp", "sharp"), ("yatzy+strict", "strict"), ("kniffel+forced+upward", "upward")],
)
def test_rules_show_bad_rule_set(invoke: Invoke, text: str, needle: str) -> None:
    assert_bad_input(invoke(["rules", "show", text]), needle)
