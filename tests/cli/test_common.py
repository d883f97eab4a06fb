"""The shared helpers: sheet rendering (plain and Rich), standings with ties, the error guard."""

from __future__ import annotations

import io

import pytest
import typer
from rich.console import Console

from pasch.cli._common import fail, guard, sheet_json, sheet_table, sheet_text, standings_text
from pasch.engine import new_game
from pasch.errors import IllegalActionError


def _played(rules: str, moves: list[str], players: tuple[str, ...] = ("Ada", "Bob")) -> object:
    state = new_game(rules, players)
    for m in moves:
        state = state.apply(m)
    return state


def test_sheet_text_has_every_box_and_the_sums() -> None:
    state = _played("kniffel", ["roll", "throw 3 3 5 5 5", "score full_house"])
    text = sheet_text(state)
    for label in ("ones", "chance", "upper sum", "bonus (63+ → 35)", "extra", "total", "Ada", "Bob"):
        assert label in text
    assert "full_house" in text and "25" in text


def test_sheet_marks_sharp_doubling() -> None:
    state = _played("kniffel+sharp", ["roll", "throw 3 3 5 5 5", "score full_house"])
    assert "50*" in sheet_text(state)
    assert "doubled" in sheet_text(state)
    assert sheet_json(state)[0]["columns"][0]["doubled"] == ["full_house"]


def test_sheet_table_renders() -> None:
    state = _played("jetsi", ["roll", "throw 6 6 6 6 6", "score 1:yahtzee"])
    buf = io.StringIO()
    Console(file=buf, width=200).print(sheet_table(state))
    out = buf.getvalue()
    assert "Ada 1" in out and "Bob 3" in out and "grand total" in out and "50" in out


def test_standings_with_a_tie() -> None:
    state = _played("yacht", [], players=("Ada", "Bob", "Cy"))
    text = standings_text(state)
    assert text.count("(tie)") == 3
    assert "Leading: Ada, Bob, Cy" in text


def test_guard_turns_errors_into_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as info, guard():
        raise IllegalActionError("'score chance': no dice\nthrown yet")
    assert info.value.exit_code == 2
    assert capsys.readouterr().err.strip() == "pasch: error: 'score chance': no dice thrown yet"
    with pytest.raises(typer.Exit) as info, guard():
        open("/nonexistent/pasch/file")  # noqa: SIM115 - the error is the point
    assert info.value.exit_code == 2
    with pytest.raises(typer.Exit):
        fail("x")
