"""Action text: every kind round-trips (``Action.parse(str(a)) == a``); malformed text is refused.

The Knaster actions (``write``, ``circle``, ``pass``) are covered here only as text; the Knaster engine
is tested elsewhere.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pasch.engine import (
    Action,
    Announce,
    Circle,
    Enter,
    Keep,
    Pass,
    Roll,
    Score,
    Throw,
    Write,
    cell_name,
    new_game,
    parse_cell,
)
from pasch.errors import InvalidActionError
from pasch.rules import get

CATEGORY_IDS = sorted({cid for rid in ("kniffel", "yatzy", "yacht") for cid in get(rid).category_ids})

dice = st.integers(1, 6)
category = st.one_of(st.sampled_from(CATEGORY_IDS), st.from_regex(r"[a-z][a-z_]{0,20}", fullmatch=True))
cell = st.builds(cell_name, st.integers(0, 4), st.integers(0, 4))

actions: st.SearchStrategy[Action] = st.one_of(
    st.just(Roll()),
    st.just(Pass()),
    st.builds(Keep, st.lists(dice, max_size=5).map(tuple)),
    st.builds(Throw, st.lists(dice, min_size=1, max_size=5).map(tuple)),
    st.builds(Enter, st.lists(dice, min_size=1, max_size=5).map(tuple), st.booleans()),
    st.builds(Score, category, st.one_of(st.none(), st.integers(1, 9))),
    st.builds(Announce, category),
    st.builds(Write, st.integers(0, 99), cell),
    st.builds(Circle, cell),
)


@given(actions)
def test_text_round_trips(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert str(Action.parse(text)) == text


@given(actions)
def test_parse_ignores_case_and_spacing(action: Action) -> None:
    messy = "  " + "   ".join(str(action).upper().split()) + "\t"
    assert Action.parse(messy) == action


@given(st.lists(dice, max_size=5))
def test_dice_are_sorted_whatever_the_order(values: list[int]) -> None:
    assert Keep(tuple(values)) == Keep(tuple(sorted(values)))
    assert Action.parse("keep " + ", ".join(map(str, values))) == Keep(tuple(values))


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("roll", Roll()),
        ("keep", Keep(())),
        ("keep 5 3 3", Keep((3, 3, 5))),
        ("keep 533", Keep((3, 3, 5))),
        ("keep 5,3,3", Keep((3, 3, 5))),
        ("throw 6 1 4", Throw((1, 4, 6))),
        ("enter 6 5 3 3 1", Enter((1, 3, 3, 5, 6))),
        ("enter 66666 sharp", Enter((6, 6, 6, 6, 6), True)),
        ("score full_house", Score("full_house")),
        ("score 2:full_house", Score("full_house", 2)),
        ("announce small_straight", Announce("small_straight")),
        ("write 7 at b3", Write(7, "b3")),
        ("circle B3", Circle("b3")),
        ("pass", Pass()),
    ],
)
def test_documented_forms(text: str, action: Action) -> None:
    assert Action.parse(text) == action


def test_cells() -> None:
    assert cell_name(2, 1) == "b3"
    assert parse_cell("b3") == (2, 1)
    for r in range(5):
        for c in range(5):
            assert parse_cell(cell_name(r, c)) == (r, c)


def test_sort_orders_kinds() -> None:
    acts = [Score("chance"), Keep((1,)), Roll(), Throw((2,)), Announce("yahtzee"), Keep(())]
    assert sorted(acts) == [Throw((2,)), Roll(), Keep(()), Keep((1,)), Announce("yahtzee"), Score("chance")]


# Malformed text, and the part of it the message must name.
MALFORMED = [
    ("", "empty"),
    ("   ", "empty"),
    ("jump", "'jump'"),
    ("roll 3", "'roll 3'"),
    ("roll the dice", "'roll the dice'"),
    ("pass now", "'pass now'"),
    ("keep x", "'x'"),
    ("keep 3 3 7", "7"),
    ("keep 0", "0"),
    ("throw", "'throw'"),
    ("throw 1 2 9", "9"),
    ("throw one", "'one'"),
    ("enter", "'enter'"),
    ("enter 1 2 3 4 7", "7"),
    ("enter 1 2 3 4 x", "'x'"),
    ("score", "'score'"),
    ("score full house", "'score full house'"),
    ("score 0:chance", "'score 0:chance'"),
    ("score x:chance", "'score x:chance'"),
    ("score 2:", "'score 2:'"),
    ("announce", "'announce'"),
    ("announce full house", "'announce full house'"),
    ("write x at b3", "'write x at b3'"),
    ("write 7 b3", "'write 7 b3'"),
    ("write 7 at f1", "'f1'"),
    ("circle b6", "'b6'"),
    ("circle", "'circle'"),
]


@pytest.mark.parametrize(("text", "named"), MALFORMED)
def test_malformed_text_is_refused_naming_the_fault(text: str, named: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        Action.parse(text)
    assert named in str(info.value)


# The whole input must be quoted (the brief: "raises InvalidActionError quoting the input").
@pytest.mark.parametrize("text", [t for t, _ in MALFORMED if t.strip()])
def test_malformed_text_message_quotes_the_whole_input(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        Action.parse(text)
    assert repr(text) in str(info.value) or repr(text.strip()) in str(info.value)


@pytest.mark.parametrize("value", [None, 5, ["roll"], b"roll"])
def test_non_text_is_refused(value: object) -> None:
    with pytest.raises(InvalidActionError):
        Action.parse(value)  # type: ignore[arg-type]


@given(st.text(max_size=30))
def test_parse_never_raises_anything_else(text: str) -> None:
    try:
        action = Action.parse(text)
    except InvalidActionError:
        return
    assert Action.parse(str(action)) == action


@pytest.mark.parametrize(("text", "named"), [t for t in MALFORMED if t[0].strip()])
def test_state_apply_refuses_malformed_text(text: str, named: str) -> None:
    state = new_game("kniffel", ["Ada"])
    with pytest.raises(InvalidActionError) as info:
        state.apply(text)
    assert named in str(info.value)
    assert state == new_game("kniffel", ["Ada"])


@pytest.mark.parametrize("text", ["keep ²", "throw ³", "enter ²²²²²", "score ²:chance", "write ² at b3"])
def test_unicode_digits_are_refused_cleanly(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        Action.parse(text)
    assert "²" in str(info.value) or "³" in str(info.value)


def test_parsing_a_text_again_gives_the_same_action_and_the_memo_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pasch.engine import _actions

    monkeypatch.setattr(_actions, "_PARSED", {})
    monkeypatch.setattr(_actions, "_PARSED_MAX", 3)
    first = Action.parse("keep 3 3 5")
    assert Action.parse("keep 3 3 5") is first and first == Keep((3, 3, 5))
    assert Action.parse(" KEEP 3,3,5 ") == first  # another text of the same action: read on its own
    for text in ("score chance", "roll", "throw 1 2 3 4 5", "keep 1"):
        Action.parse(text)
    assert len(_actions._PARSED) <= 3
    for _ in range(2):  # a bad text is refused every time, never remembered
        with pytest.raises(InvalidActionError, match="'keep 7'"):
            Action.parse("keep 7")
    assert "keep 7" not in _actions._PARSED
