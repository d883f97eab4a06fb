"""Position text (``pasch1 ...``): exact round trips on random positions of every rule set, and errors.

Every catalogue base with each modifier it accepts (and +sharp with each fill order where accepted),
Knaster included, in play and score-keeper mode: random playouts stop at a random step, and the position
text must read back to an equal state and be written again identically. Garbage and mutated texts never
raise anything but :class:`PositionError`.
"""

from __future__ import annotations

import doctest
import random
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasch.engine import (
    GameState,
    KnasterState,
    State,
    from_text,
    new_game,
)
from pasch.errors import PaschError, PositionError
from pasch.rules import BASES, get


def _rule_sets() -> tuple[str, ...]:
    out: list[str] = []
    for base, entry in BASES.items():
        out.append(base)
        out.extend(f"{base}+{m}" for m in sorted(entry.accepts))
        if "sharp" in entry.accepts:
            out.extend(f"{base}+{m}+sharp" for m in ("forced", "upward", "strict") if m in entry.accepts)
    return tuple(get(t).id for t in out)


RULE_SETS = _rule_sets()
NAMES = ("Ada", "Bob Smith", "Çelik,Jr", "100%", "名前", "a/b|c", "x\ty", "-")


def random_position(rules: str, players: int, keeper: bool, steps: int, seed: int) -> State:
    """The state after up to ``steps`` uniformly random legal actions (chance nodes by their probabilities)."""
    rng = random.Random(seed)
    rs = get(rules)
    n = max(rs.min_players, min(players, rs.max_players))
    state: State = new_game(rs, NAMES[:n], keeper=keeper)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    return state


def assert_round_trip(state: State) -> None:
    text = state.to_text()
    assert "\n" not in text and text.startswith("pasch1 ")
    back = from_text(text)
    assert back == state
    assert type(back) is type(state)
    assert back.to_text() == text


def test_the_catalogue_list_covers_every_base_and_modifier() -> None:
    bases = {get(r).base for r in RULE_SETS}
    assert bases == set(BASES)
    assert {"kniffel+sharp", "kniffel-classic+strict+sharp", "yahtzee+upward+sharp", "knaster"} <= set(RULE_SETS)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_round_trip_along_a_seeded_playout(rules: str) -> None:
    """Every state of one whole game (every 7th of a long one) reads back exactly."""
    rs = get(rules)
    state: State = new_game(rs, NAMES[: max(rs.min_players, 2)])
    rng = random.Random(rules)
    step = 0
    while not state.is_terminal:
        if step % 7 == 0:
            assert_round_trip(state)
        state = state.apply(rng.choice(state.legal_actions()))
        step += 1
    assert_round_trip(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULE_SETS),
    players=st.integers(1, 4),
    keeper=st.booleans(),
    steps=st.integers(0, 400),
    seed=st.integers(0, 2**32),
)
def test_round_trip_on_random_positions(rules: str, players: int, keeper: bool, steps: int, seed: int) -> None:
    assert_round_trip(random_position(rules, players, keeper, steps, seed))


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=8), min_size=2, max_size=4, unique=True))
def test_any_names_round_trip(names: list[str]) -> None:
    names = [n for n in names if n.strip() and n == n.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        return
    for rules in ("yatzy", "knaster"):
        state = new_game(rules, names)
        assert_round_trip(state)
        assert from_text(state.to_text()).players == tuple(names)


def test_class_methods_read_their_own_kind_only() -> None:
    sheet = new_game("kniffel", ["Ada"])
    grid = new_game("knaster", ["Ada", "Bob"])
    assert GameState.from_text(sheet.to_text()) == sheet
    assert KnasterState.from_text(grid.to_text()) == grid
    with pytest.raises(PositionError, match="not a Knaster game"):
        KnasterState.from_text(sheet.to_text())
    with pytest.raises(PositionError, match="not a sheet game"):
        GameState.from_text(grid.to_text())


def test_the_documented_examples_read_and_say_what_the_docs_say() -> None:
    sheet = from_text(
        "pasch1 kniffel play Ada,Bob -,-,-,-,-,-,-,-,-,-,-,-,19/-,-,-,-,-,-,-,-,-,-,-,-,- 1 1 33+3 1 sharp"
    )
    assert isinstance(sheet, GameState)
    assert sheet.current_name == "Bob" and sheet.dice == (3, 3) and sheet.pending == 3 and sheet.throws == 1
    assert sheet.total(0) == 19
    grid = from_text(
        "pasch1 knaster play Ada,Bob ...63|...a.|...7.|..696|...8*2/...62|.78.6|a...3|.....|...6. 0 0 9 45 0 "
        "@cold:straight:2 -"
    )
    assert isinstance(grid, KnasterState)
    assert grid.number == 9 and grid.grids[0].number("d2") == 10 and grid.grids[0].is_circled("d5")
    assert [(d.name, d.owed) for d in grid.duties] == [("column d", 2)] and grid.working == 8


def _mutations(text: str, rng: random.Random) -> list[str]:
    out = []
    alphabet = string.printable + "%,/|*+-.@:=é名\x00"
    for _ in range(30):
        chars = list(text)
        i = rng.randrange(len(chars))
        kind = rng.randrange(3)
        if kind == 0:
            chars[i] = rng.choice(alphabet)
        elif kind == 1:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
        out.append("".join(chars))
    return out


@pytest.mark.parametrize("rules", ["kniffel-4", "yatzy+sharp", "knaster"])
def test_mutated_texts_read_back_exactly_or_raise_position_error(rules: str) -> None:
    rng = random.Random(rules)
    for steps in (0, 3, 40, 200):
        text = random_position(rules, 2, False, steps, steps).to_text()
        for bad in _mutations(text, rng):
            try:
                state = from_text(bad)
            except PositionError as exc:
                assert str(exc)
                continue
            assert state.to_text() == bad


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(), st.text().map(lambda t: "pasch1 " + t), st.text().map(lambda t: "pasch1 kniffel play " + t))
)
def test_garbage_raises_position_error_only(text: str) -> None:
    try:
        state = from_text(text)
    except PositionError:
        return
    assert state.to_text() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with 'pasch1'"),
        ("pasch2 kniffel play Ada", "starts with 'pasch1'"),
        ("pasch1 kniffel play", "rule set, mode, players"),
        ("pasch1 nope play Ada x 0 0 - 0 -", "rule set 'nope'"),
        ("pasch1 kniffel+sharp+forced play Ada x 0 0 - 0 -", "is written 'kniffel\\+forced\\+sharp'"),
        ("pasch1 kniffel solo Ada x 0 0 - 0 -", "mode 'solo'"),
        ("pasch1 kniffel play Ada,Ada x 0 0 - 0 -", "must differ"),
        ("pasch1 kniffel play A%2 x 0 0 - 0 -", "player name"),
        ("pasch1 kniffel play A%FF x 0 0 - 0 -", "not UTF-8"),
        ("pasch1 kniffel play Ada -,- 0 0 - 0 -", "has 2 boxes"),
        ("pasch1 kniffel play Ada " + ",".join("-" * 13) + " 0 0 - 0", "expected 6"),
        ("pasch1 kniffel play Ada " + ",".join(["7"] + ["-"] * 12) + " 0 0 - 0 -", "1 boxes filled after 0 turns"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 11 0 -", "5 dice lie on the table"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 12378 1 -", "'7' is not a die"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 - 4 -", "throws 4 is out of range"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 - 0 hot", "unknown flag 'hot'"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 - 0 announced=chance", "no announced column"),
        ("pasch1 kniffel play Ada " + ",".join(["-"] * 13) + " 0 0 - 00 -", "'00' is not a number"),
        ("pasch1 knaster play Ada,Bob ..... 0 0 0 - 0 - -", "1 grids for 2 players"),
        (
            "pasch1 knaster play Ada,Bob " + "|".join(["....."] * 5) + "/" + "|".join(["...."] * 5) + " 0 0 0 - 0 - -",
            "not five cells",
        ),
    ],
)
def test_bad_texts_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        from_text(text)


def test_non_canonical_text_is_refused() -> None:
    text = new_game("kniffel", ["Ada"]).to_text()
    with pytest.raises(PositionError, match="canonical"):
        from_text(text.replace("Ada", "%41da"))
    assert issubclass(PositionError, PaschError) and issubclass(PositionError, ValueError)


# -- str and repr ----------------------------------------------------------------------------------


def test_str_draws_every_sheet_with_sums_bonus_extra_totals_dice_and_turn() -> None:
    state = new_game("kniffel-3", ["Ada", "Bob"])
    for action in ("roll", "throw 6 6 6 6 6", "score 3:yahtzee", "roll", "throw 1 2 3 4 4"):
        state = state.apply(action)
    text = str(state)
    lines = text.splitlines()
    assert lines[0].startswith("Kniffel, three columns")
    assert ">Bob" in lines[1] and "Ada" in lines[1]
    assert lines[2].split() == ["down", "up", "free"] * 2
    yahtzee = next(line for line in lines if line.startswith("yahtzee"))
    assert yahtzee.split()[1:] == ["-", "-", "50", "-", "-", "-"]
    for label in ("upper sum", "bonus (35 at 63)", "lower sum", "extra", "total", "grand total"):
        assert any(line.startswith(label) for line in lines), label
    grand = next(line for line in lines if line.startswith("grand total"))
    assert grand.split()[2:] == ["50", "0"]
    assert lines[-1] == "round 1, Bob to act: dice 1 2 3 4 4 (throw 1 of 3)"
    assert "\x1b" not in text


def test_str_marks_doubled_boxes_and_shows_the_end() -> None:
    state = new_game("kniffel+sharp", ["Ada"])
    for action in ("roll", "throw 2 2 2 3 3", "score full_house"):
        state = state.apply(action)
    assert "50*" in str(state)
    rng = random.Random(1)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    assert str(state).splitlines()[-1] == f"game over; won by Ada with {state.total(0)}"


def test_str_draws_every_knaster_grid() -> None:
    state = new_game("knaster", ["Ada", "Bob"])
    for action in ("roll", "throw 3 4", "write 7 at c3", "write 7 at a1"):
        state = state.apply(action)
    text = str(state)
    assert text.count("written 1/25") == 2
    assert "Ada" in text and ">Bob" in text and "Bob to roll" in text.splitlines()[-1]


def test_repr_is_short_and_names_the_position() -> None:
    state = new_game("kniffel-4", ["Ada", "Bob"])
    assert repr(state) == f"GameState.from_text({state.to_text()!r})"
    assert "Category" not in repr(state) and len(repr(state)) < 400
    grid = new_game("knaster", ["Ada", "Bob"])
    assert repr(grid).startswith("KnasterState.from_text('pasch1 knaster ")


def test_the_docs_page_session_runs() -> None:
    page = Path(__file__).parents[2] / "docs" / "position.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0
