"""Plain mode (``pasch play --plain``): ``--lang``, box names of the language, ``hint`` with exact values, and
errors that list only the actions of the game being played."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from pasch.i18n import box_name, set_language
from pasch.rules import get

from ._helpers import Invoke, assert_bad_input


@pytest.fixture(autouse=True)
def _english_afterwards(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The language is process-wide: tests that switch it leave English behind (and start from English)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    yield
    set_language("en")


def _play(invoke: Invoke, *args: str, lines: list[str]) -> str:
    result = invoke(["play", "--plain", "--seed", "3", *args], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return str(result.stdout)


def test_german_plain_mode_speaks_german_and_names_the_boxes(invoke: Invoke) -> None:
    out = _play(invoke, "--lang", "de", lines=["roll", "Dreierpasch", "sheet", "quit"])
    assert "── Runde 1 von 13 · Spieler 1 ist dran · Summe 0 ──" in out
    assert "Eintragen:" in out and "Würfel:" in out
    rules = get("kniffel")
    set_language("de")
    for box in rules.category_ids:  # every option shows the id to type and the German name
        assert re.search(rf"score {box}\s+{re.escape(box_name(rules, box))}\s+\d", out), box
    assert "trägt" in out and "in Dreierpasch ein." in out  # the German name was understood as input
    sheet = out.split("Spieler 1> sheet")[1]
    assert "Dreierpasch" in sheet and "Summe oben" in sheet and "three_of_a_kind" not in sheet
    assert "Spiel beendet." in out


def test_english_plain_mode_keeps_the_box_ids(invoke: Invoke) -> None:
    out = _play(invoke, "--lang", "en", lines=["roll", "sheet", "quit"])
    assert "── Round 1 of 13 · Player 1's turn · total 0 ──" in out
    assert re.search(r"score three_of_a_kind\s+\d", out)
    assert "Three of a Kind" not in out


@pytest.mark.parametrize("lang", ["es", "it"])
def test_other_languages(invoke: Invoke, lang: str) -> None:
    out = _play(invoke, "--lang", lang, lines=["help", "quit"])
    assert ("Órdenes" if lang == "es" else "Comandi") in out


def test_unknown_language_is_one_error_line(invoke: Invoke) -> None:
    assert_bad_input(invoke(["play", "--plain", "--lang", "xx"], input="quit\n"), "'xx'", "en, de, es, it")


def test_hint_gives_exact_values_in_the_language(invoke: Invoke) -> None:
    out = _play(invoke, "--lang", "de", "--rules", "yacht", lines=["roll", "hint", "quit"])
    assert "Erwartete Endpunktzahl bei optimalem Spiel ab hier" in out
    rows = [line for line in out.splitlines() if re.match(r"^\s+[* ] (keep|score)\b.*\d+\.\d\d", line)]
    assert len(rows) == 5 and rows[0].lstrip().startswith("*")
    values = [float(re.findall(r"\d+\.\d\d", r)[0]) for r in rows]
    assert values == sorted(values, reverse=True)
    assert "gegenüber dem besten" in rows[1]


@pytest.mark.parametrize(
    ("args", "word", "listed", "absent"),
    [
        ([], "blah", "roll, keep DICE, score BOX", ["write", "circle", "announce", "enter"]),
        ([], "write 7 at b3", "roll, keep DICE, score BOX", ["circle", "announce"]),
        (["--rules", "kniffel-4"], "blah", "roll, keep DICE, score BOX, announce BOX", ["write", "enter"]),
        (["--keeper", "--rules", "yacht"], "blah", "enter DICE, score BOX", ["roll", "keep", "write"]),
        (["--rules", "knaster"], "keep 1", "roll, write N at CELL, circle CELL, pass", ["keep", "score"]),
        (["--rules", "knaster"], "blah", "roll, write N at CELL, circle CELL, pass", ["keep", "score", "enter"]),
    ],
)
def test_errors_list_only_this_games_actions(
    invoke: Invoke, args: list[str], word: str, listed: str, absent: list[str]
) -> None:
    out = _play(invoke, *args, lines=[word, "quit"])
    line = next(line for line in out.splitlines() if "✗" in line)
    assert "is not an action of" in line and listed in line.replace("enter DICE [sharp]", "enter DICE")
    here = line.split("here: ")[1].split("; also")[0]
    for verb in absent:
        assert verb not in here, (verb, line)


def test_the_engine_still_explains_a_known_verb_refused_now(invoke: Invoke) -> None:
    out = _play(invoke, "--keeper", "--rules", "yacht", lines=["roll", "quit"])
    line = next(line for line in out.splitlines() if "✗" in line)
    assert "is not an action of" not in line and "'roll'" in line


def test_german_errors_list_german_placeholders(invoke: Invoke) -> None:
    out = _play(invoke, "--lang", "de", lines=["blah", "quit"])
    assert "'blah' ist kein Zug in Kniffel; hier: roll, keep WÜRFEL, score FELD" in out


def test_hint_in_jetsi_ranks_options_by_the_bots_estimate(invoke: Invoke) -> None:
    """Several columns (issue 28 item 4): the best five options with the bot's estimate and "vs best", headed
    as an estimate, not exact."""
    out = _play(invoke, "--lang", "en", "--rules", "jetsi", lines=["roll", "hint", "quit"])
    assert "The strongest bot's estimate of the final total, not exact (best first):" in out
    rows = [line for line in out.splitlines() if re.match(r"^\s+[* ] (keep|score)\b.*\d+\.\d\d", line)]
    assert len(rows) == 5 and rows[0].lstrip().startswith("*") and "vs best" in rows[1]
    values = [float(re.findall(r"\d+\.\d\d", r)[0]) for r in rows]
    assert values == sorted(values, reverse=True) and 500 < values[0] < 1200
