"""The rules of RULES.md played through the engine with chosen dice (``roll`` + ``throw ...``, or keeper mode).

Long set-ups are played turn by turn (``play_turns``); every expectation is written from RULES.md.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from pasch.engine import Action, Announce, Enter, GameState, Outcome, Roll, Score, new_game
from pasch.errors import IllegalActionError, InvalidActionError, PaschError

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance")
SHEET = UPPER + LOWER


def thrown(state: GameState, dice: str) -> GameState:
    """The first throw of a turn showing ``dice``."""
    return state.apply("roll").apply(f"throw {dice}")


def rethrown(state: GameState, keep: str, new: str) -> GameState:
    """Keep ``keep`` and throw the rest, which show ``new``."""
    return state.apply(f"keep {keep}".strip()).apply(f"throw {new}")


def play_turns(state: GameState, turns: Sequence[tuple[str, str]]) -> GameState:
    """Play whole turns of (first throw, box) for whoever is to act."""
    for dice, box in turns:
        state = thrown(state, dice).apply(f"score {box}")
    return state


def scores(state: GameState) -> dict[str, int]:
    """Every legal ``score`` action now and the points its box would hold (extra points apart)."""
    out: dict[str, int] = {}
    for column, option in state.score_options():
        cid = state.rules.categories[option.index].id
        key = cid if state.rules.n_columns == 1 else f"{column + 1}:{cid}"
        out[key] = option.points
    return out


def extras(state: GameState) -> dict[str, int]:
    return {state.rules.categories[o.index].id: o.extra for _, o in state.score_options()}


def box(state: GameState, cid: str, player: int = 0, column: int = 0) -> int | None:
    return state.sheets[player].columns[column].scores[state.rules.category_index(cid)]


def extra(state: GameState, player: int = 0, column: int = 0) -> int:
    return state.sheets[player].columns[column].extra


def solo(rules: str, keeper: bool = False) -> GameState:
    state: GameState = new_game(rules, ["Ada"], keeper=keeper)
    return state


def with_yahtzee(rules: str, value_dice: str = "2 2 2 2 2", crossed: bool = False) -> GameState:
    """A solo game whose ``yahtzee`` box holds 50 (or 0 when ``crossed``), ready for the next turn."""
    state = solo(rules)
    return play_turns(state, [("1 2 3 4 6" if crossed else value_dice, "yahtzee")])


# -- kniffel (Schmidt) --------------------------------------------------------------------------------


def test_kniffel_extra_kniffel_in_its_open_upper_box_scores_dice_plus_50() -> None:
    state = thrown(with_yahtzee("kniffel"), "5 5 5 5 5")
    assert scores(state)["fives"] == 25 and extras(state)["fives"] == 50
    after = state.apply("score fives")
    assert box(after, "fives") == 25 and extra(after) == 50
    assert after.total(0) == 50 + 25 + 50


def test_kniffel_extra_kniffel_may_be_an_ordinary_throw_elsewhere() -> None:
    """Decision of RULES.md: with the matching upper box open, other boxes take it as an ordinary throw."""
    state = thrown(with_yahtzee("kniffel"), "5 5 5 5 5")
    s, e = scores(state), extras(state)
    assert s["full_house"] == 0 and s["small_straight"] == 0 and s["large_straight"] == 0
    assert s["three_of_a_kind"] == 25 and s["chance"] == 25 and s["threes"] == 0
    assert all(v == 0 for k, v in e.items() if k != "fives")


def test_kniffel_joker_when_the_upper_box_is_filled() -> None:
    state = play_turns(with_yahtzee("kniffel"), [("5 5 5 1 2", "fives")])
    state = thrown(state, "5 5 5 5 5")
    s, e = scores(state), extras(state)
    assert (s["full_house"], s["small_straight"], s["large_straight"]) == (25, 30, 40)
    assert (s["three_of_a_kind"], s["four_of_a_kind"], s["chance"]) == (25, 25, 25)
    assert all(v == 0 for v in e.values())
    after = state.apply("score large_straight")
    assert box(after, "large_straight") == 40 and extra(after) == 0


def test_kniffel_joker_without_open_lower_box_crosses_out_an_upper_box() -> None:
    lower = [("2 2 2 2 2", "yahtzee")] + [("1 2 3 4 6", b) for b in LOWER if b != "yahtzee"]
    state = play_turns(solo("kniffel"), [*lower, ("5 5 1 2 3", "fives")])
    state = thrown(state, "5 5 5 5 5")
    assert scores(state) == {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0}
    assert all(v == 0 for v in extras(state).values())


def test_kniffel_crossed_out_kniffel_gives_no_extra_and_no_joker() -> None:
    state = play_turns(with_yahtzee("kniffel", crossed=True), [("5 5 1 2 3", "fives")])
    state = thrown(state, "5 5 5 5 5")
    s = scores(state)
    assert s["full_house"] == 0 and s["small_straight"] == 0 and s["large_straight"] == 0
    assert all(v == 0 for v in extras(state).values())
    state = thrown(with_yahtzee("kniffel", crossed=True), "5 5 5 5 5")
    assert scores(state)["fives"] == 25 and extras(state)["fives"] == 0


# -- yahtzee (Hasbro forced joker, 100 bonus) -----------------------------------------------------------


def test_yahtzee_bonus_and_matching_upper_box_first() -> None:
    state = thrown(with_yahtzee("yahtzee"), "5 5 5 5 5")
    assert [str(a) for a in state.legal_actions() if isinstance(a, Score)] == ["score fives"]
    with pytest.raises(IllegalActionError, match="joker"):
        state.apply("score full_house")
    after = state.apply("score fives")
    assert box(after, "fives") == 25 and extra(after) == 100


def test_yahtzee_then_any_lower_box_at_full_value() -> None:
    state = play_turns(with_yahtzee("yahtzee"), [("5 5 1 2 3", "fives")])
    state = thrown(state, "5 5 5 5 5")
    s = scores(state)
    assert s == {
        "three_of_a_kind": 25,
        "four_of_a_kind": 25,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 25,
    }
    assert set(extras(state).values()) == {100}


def test_yahtzee_then_an_upper_box_for_zero() -> None:
    lower = [("2 2 2 2 2", "yahtzee")] + [("1 2 3 4 6", b) for b in LOWER if b != "yahtzee"]
    state = thrown(play_turns(solo("yahtzee"), [*lower, ("5 5 1 2 3", "fives")]), "5 5 5 5 5")
    assert scores(state) == {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0}
    assert set(extras(state).values()) == {100}


def test_yahtzee_joker_also_after_a_crossed_out_yahtzee_but_no_bonus() -> None:
    state = thrown(with_yahtzee("yahtzee", crossed=True), "5 5 5 5 5")
    assert list(scores(state)) == ["fives"] and extras(state) == {"fives": 0}
    state = play_turns(with_yahtzee("yahtzee", crossed=True), [("5 5 1 2 3", "fives")])
    state = thrown(state, "5 5 5 5 5")
    assert scores(state)["large_straight"] == 40
    assert set(extras(state).values()) == {0}


# -- kniffel-classic --------------------------------------------------------------------------------------


def test_classic_extra_kniffel_is_a_flat_100_in_the_lower_section() -> None:
    state = thrown(with_yahtzee("kniffel-classic"), "5 5 5 5 5")
    s, e = scores(state), extras(state)
    for b in LOWER:
        if b != "yahtzee":
            assert s[b] == 100 and e[b] == 0, b
    assert s["fives"] == 25 and e["fives"] == 100
    assert s["ones"] == 0 and e["ones"] == 100


def test_classic_100_in_the_upper_section_does_not_count_toward_the_bonus() -> None:
    # fives 25 + 100: the upper sum is 25 + the other boxes; 63 is reached only by the dice.
    upper = [("1 1 1 2 3", "ones"), ("2 2 2 1 3", "twos"), ("3 3 3 1 2", "threes"), ("4 4 4 1 2", "fours")]
    state = play_turns(with_yahtzee("kniffel-classic"), upper)
    state = thrown(state, "5 5 5 5 5").apply("score fives")
    totals = state.column_totals(0)
    assert box(state, "fives") == 25 and extra(state) == 100
    assert totals.upper == 3 + 6 + 9 + 12 + 25 and totals.bonus == 0  # 55 + the 100 would pass 63
    state = play_turns(state, [("6 6 1 2 3", "sixes")])
    assert state.column_totals(0).upper == 67 and state.column_totals(0).bonus == 35
    assert state.total(0) == 50 + 67 + 35 + 100


def test_classic_crossed_out_kniffel_lets_five_alike_be_a_full_house() -> None:
    state = thrown(with_yahtzee("kniffel-classic", crossed=True), "4 4 4 4 4")
    s = scores(state)
    assert s["full_house"] == 25 and s["small_straight"] == 0 and s["large_straight"] == 0
    assert set(extras(state).values()) == {0}
    # Not while the Kniffel box is open or holds 50.
    assert scores(thrown(solo("kniffel-classic"), "4 4 4 4 4"))["full_house"] == 0


def test_classic_sharp_extra_kniffel_is_not_doubled() -> None:
    state = thrown(with_yahtzee("kniffel-classic+sharp"), "5 5 5 5 5")
    assert state.sharp
    s, e = scores(state), extras(state)
    assert s["full_house"] == 100 and s["chance"] == 100 and s["fives"] == 25 and e["fives"] == 100


# -- +strict ----------------------------------------------------------------------------------------------


def test_strict_is_forced_and_five_alike_counts_as_what_the_box_asks() -> None:
    state = solo("kniffel-classic+strict")
    first = thrown(state, "6 6 6 6 6")
    assert scores(first) == {"ones": 0}
    upto_full_house = [("1 1 1 2 3", b) for b in UPPER] + [
        ("1 1 1 2 3", "three_of_a_kind"),
        ("1 1 1 1 3", "four_of_a_kind"),
    ]
    state = play_turns(state, upto_full_house)
    assert scores(thrown(state, "3 3 3 3 3")) == {"full_house": 25}
    state = play_turns(state, [("3 3 3 3 3", "full_house")])
    assert scores(thrown(state, "3 3 3 3 3")) == {"small_straight": 0}


def test_strict_five_alike_in_chance_after_the_kniffel_scores_100() -> None:
    filler = [("1 1 1 2 3", b) for b in SHEET[:-2]]
    state = play_turns(solo("kniffel-classic+strict"), [*filler, ("2 2 2 2 2", "yahtzee")])
    assert box(state, "yahtzee") == 50
    assert scores(thrown(state, "1 1 1 1 1")) == {"chance": 100}


# -- +sharp -----------------------------------------------------------------------------------------------


def test_sharp_first_throw_doubles_the_combination_boxes() -> None:
    state = thrown(solo("kniffel+sharp"), "2 3 4 5 6")
    assert state.sharp
    s = scores(state)
    assert (s["large_straight"], s["small_straight"], s["chance"], s["sixes"]) == (80, 60, 20, 6)
    after = state.apply("score large_straight")
    assert box(after, "large_straight") == 80
    assert after.sheets[0].columns[0].doubled == frozenset({SHEET.index("large_straight")})


def test_sharp_keeping_nothing_rethrows_all_and_stays_sharp() -> None:
    state = rethrown(thrown(solo("kniffel+sharp"), "1 1 2 4 6"), "", "3 3 3 5 5")
    assert state.sharp and state.throws == 2
    assert scores(state)["full_house"] == 50


def test_sharp_keeping_any_die_is_not_sharp() -> None:
    state = rethrown(thrown(solo("kniffel+sharp"), "1 1 2 4 6"), "1", "2 3 4 5")
    assert not state.sharp
    assert scores(state)["large_straight"] == 40
    # Keeping a die and throwing the other four into a five-alike is not sharp either.
    state = rethrown(thrown(solo("kniffel+sharp"), "6 1 2 3 4"), "6", "6 6 6 6")
    assert scores(state)["yahtzee"] == 50


def test_sharp_never_doubles_upper_chance_bonus_or_extra() -> None:
    state = thrown(solo("yahtzee+sharp"), "6 6 6 6 6")
    s = scores(state)
    assert (s["sixes"], s["chance"], s["yahtzee"], s["three_of_a_kind"], s["four_of_a_kind"]) == (30, 30, 100, 60, 60)
    state = state.apply("score yahtzee")
    state = thrown(state, "4 4 4 4 4")
    assert scores(state) == {"fours": 20} and extras(state) == {"fours": 100}
    state = thrown(with_yahtzee("kniffel+sharp"), "5 5 5 5 5")
    assert scores(state)["fives"] == 25 and extras(state)["fives"] == 50
    upper = [(" ".join([str(f)] * 5), cid) for f, cid in zip(range(1, 7), UPPER, strict=True)]
    state = play_turns(solo("kniffel+sharp"), upper)
    totals = state.column_totals(0)
    assert (totals.upper, totals.bonus) == (105, 35)


def test_sharp_crossed_out_box_stays_zero_and_not_doubled() -> None:
    state = thrown(solo("kniffel+sharp"), "1 1 2 4 6").apply("score full_house")
    assert box(state, "full_house") == 0 and state.sheets[0].columns[0].doubled == frozenset()


def test_sharp_yatzy_doubles_its_combination_boxes() -> None:
    state = thrown(solo("yatzy+sharp"), "1 2 3 4 5")
    s = scores(state)
    assert s["small_straight"] == 30 and s["chance"] == 15 and s["one_pair"] == 0
    # one_pair and two_pairs are not in RULES.md's list of doubled boxes; full_house is.
    s = scores(thrown(solo("yatzy+sharp"), "3 3 5 5 5"))
    assert (s["one_pair"], s["two_pairs"], s["three_of_a_kind"], s["full_house"]) == (10, 16, 30, 42)
    s = scores(thrown(solo("yacht+sharp"), "3 3 5 5 5"))
    assert (s["full_house"], s["fives"], s["chance"]) == (42, 15, 21)


# -- fill order -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "first", "second"),
    [
        ("kniffel+forced", "ones", "twos"),
        ("kniffel+upward", "chance", "yahtzee"),
        ("yatzy+forced", "ones", "twos"),
        ("yatzy+upward", "yahtzee", "chance"),
        ("yacht+upward", "yahtzee", "chance"),
    ],
)
def test_fill_order(rules: str, first: str, second: str) -> None:
    state = thrown(solo(rules), "1 2 3 4 5")
    assert list(scores(state)) == [first]
    other = next(c for c in state.rules.category_ids if c not in (first,))
    with pytest.raises(IllegalActionError, match=f"next is {first}"):
        state.apply(f"score {other}")
    state = state.apply(f"score {first}")
    assert list(scores(thrown(state, "1 2 3 4 5"))) == [second]


def test_jetsi_columns_free_down_up() -> None:
    state = thrown(solo("jetsi"), "3 3 3 5 5")
    s = scores(state)
    assert {k for k in s if k.startswith("1:")} == {f"1:{c}" for c in SHEET}
    assert {k for k in s if not k.startswith("1:")} == {"2:ones", "3:chance"}
    with pytest.raises(InvalidActionError, match="which column"):
        state.apply("score full_house")
    with pytest.raises(InvalidActionError, match="column"):
        state.apply("score 4:full_house")


def test_multi_column_bonus_is_per_column() -> None:
    upper = [("1 1 1 2 3", "1:ones"), ("2 2 2 1 3", "1:twos"), ("3 3 3 1 2", "1:threes")]
    upper += [("4 4 4 1 2", "1:fours"), ("5 5 5 1 2", "1:fives"), ("6 6 6 1 2", "1:sixes")]
    state = play_turns(solo("kniffel-3"), [*upper, ("6 6 6 6 1", "3:sixes"), ("5 5 5 5 1", "3:fives")])
    assert state.column_totals(0, 0).bonus == 35 and state.column_totals(0, 0).upper == 63
    assert state.column_totals(0, 2).upper == 44 and state.column_totals(0, 2).bonus == 0
    assert state.total(0) == 63 + 35 + 44
    state = play_turns(state, [("4 4 4 4 4", "3:fours")])
    assert state.column_totals(0, 2).bonus == 35 and state.total(0) == 63 + 35 + 64 + 35


# -- kniffel-4 announced column ------------------------------------------------------------------------------


def test_announce_only_right_after_the_first_throw() -> None:
    state = solo("kniffel-4")
    with pytest.raises(IllegalActionError, match="before the first throw"):
        state.apply("announce full_house")
    first = thrown(state, "2 2 3 3 5")
    assert Announce("full_house") in first.legal_actions()
    second = rethrown(first, "2 2 3 3", "3")
    assert not any(isinstance(a, Announce) for a in second.legal_actions())
    before = copy.deepcopy(second)
    with pytest.raises(IllegalActionError, match="after throw 2") as info:
        second.apply("announce full_house")
    assert "announce full_house" in str(info.value)
    assert second == before


def test_announced_turn_ends_in_that_box_or_a_cross_out() -> None:
    state = thrown(solo("kniffel-4"), "2 2 3 3 5").apply("announce full_house")
    s = scores(state)
    assert s["3:full_house"] == 0  # not (yet) a full house
    assert all(v == 0 for k, v in s.items() if not k.startswith("3:"))
    assert [k for k in s if k.startswith("3:")] == ["3:full_house"]
    state = rethrown(state, "2 2 3 3", "3")
    assert scores(state)["3:full_house"] == 25
    with pytest.raises(IllegalActionError, match="full_house was announced"):
        state.apply("score 3:chance")
    with pytest.raises(IllegalActionError, match="already announced"):
        state.apply("announce chance")
    crossed = state.apply("score 4:chance")
    assert box(crossed, "chance", column=3) == 0
    entered = state.apply("score 3:full_house")
    assert box(entered, "full_house", column=2) == 25 and entered.announced is None


def test_without_announcement_column_3_is_unusable() -> None:
    state = thrown(solo("kniffel-4"), "2 2 3 3 3")
    assert not any(k.startswith("3:") for k in scores(state))
    with pytest.raises(IllegalActionError, match="announced after the first throw"):
        state.apply("score 3:full_house")
    assert scores(state)["4:full_house"] == 25


def test_when_only_column_3_is_open_the_player_must_announce() -> None:
    turns = [("1 2 3 4 6", f"1:{c}") for c in SHEET]
    turns += [("1 2 3 4 6", f"2:{c}") for c in reversed(SHEET)]
    turns += [("1 2 3 4 6", f"4:{c}") for c in SHEET]
    state = play_turns(solo("kniffel-4"), turns)
    assert state.legal_actions() == (Roll(),)
    state = thrown(state, "6 6 6 1 2")
    legal = state.legal_actions()
    assert legal == tuple(Announce(c) for c in sorted(SHEET))
    for bad in ("keep 6 6 6", "score 3:chance", "score 4:chance"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    state = state.apply("announce sixes")
    assert scores(state) == {"3:sixes": 18}
    state = thrown(state.apply("score 3:sixes"), "1 1 1 1 1")
    assert Announce("sixes") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="already filled"):
        state.apply("announce sixes")


def test_announce_is_refused_where_there_is_no_announced_column() -> None:
    state = thrown(solo("kniffel-classic"), "1 2 3 4 5")
    with pytest.raises(IllegalActionError, match="no announced column"):
        state.apply("announce chance")


def test_announce_in_keeper_mode_comes_before_the_dice() -> None:
    state = solo("kniffel-4", keeper=True)
    assert Announce("chance") in state.legal_actions()
    state = state.apply("announce chance").apply("enter 1 2 3 4 6")
    assert scores(state)["3:chance"] == 16
    with pytest.raises(IllegalActionError, match="before entering"):
        solo("kniffel-4", keeper=True).apply("enter 1 2 3 4 6").apply("announce chance")


# -- score keeper ---------------------------------------------------------------------------------------------


def test_keeper_mode_enters_final_dice() -> None:
    state = new_game("kniffel+sharp", ["Ada", "Bob"], keeper=True)
    legal = state.legal_actions()
    assert len(legal) == 2 * 252 and all(isinstance(a, Enter) for a in legal)
    with pytest.raises(IllegalActionError, match="score-keeper"):
        state.apply("roll")
    state = state.apply("enter 2 3 4 5 6 sharp")
    assert scores(state)["large_straight"] == 80
    with pytest.raises(IllegalActionError, match="already entered"):
        state.apply("enter 2 3 4 5 6")
    with pytest.raises(IllegalActionError, match="score-keeper"):
        state.apply("keep 2 3")
    state = state.apply("score large_straight").apply("enter 1 3 3 5 6").apply("score chance")
    assert state.totals() == (80, 18)


def test_keeper_mode_refuses_sharp_without_the_sharp_rule_and_bad_dice() -> None:
    state = solo("kniffel", keeper=True)
    assert len(state.legal_actions()) == 252
    for text, error, named in [
        ("enter 6 6 6 6 6 sharp", IllegalActionError, "no sharp rule"),
        ("enter 1 2 3 4", InvalidActionError, "'enter 1 2 3 4'"),
        ("enter 1 2 3 4 5 6", InvalidActionError, "'enter 1 2 3 4 5 6'"),
        ("enter 1 2 3 4 7", InvalidActionError, "7"),
    ]:
        with pytest.raises(error, match=named):
            state.apply(text)
    with pytest.raises(IllegalActionError, match="only in score-keeper mode"):
        solo("kniffel").apply("enter 1 2 3 4 5")


# -- turns and seats ------------------------------------------------------------------------------------------


def test_out_of_turn_is_refused_and_the_right_seat_may_act() -> None:
    state = new_game("kniffel", ["Ada", "Bob"])
    with pytest.raises(IllegalActionError, match="Ada's turn, not Bob's") as info:
        state.apply("roll", player=1)
    assert "'roll'" in str(info.value)
    state = state.apply("roll", player=0).apply("throw 1 2 3 4 5", player=1)  # the dice land for anyone
    state = state.apply("score large_straight", player=0)
    assert state.current == 1
    with pytest.raises(IllegalActionError, match="Bob's turn, not Ada's"):
        state.apply("roll", player=0)
    assert state.apply("roll", player=1).is_chance_node


def test_player_names_and_counts() -> None:
    for players in (["Ada", "Ada"], ["Ada", " "], [], [f"P{i}" for i in range(9)]):
        with pytest.raises(IllegalActionError):
            new_game("kniffel", players)
    assert new_game("kniffel", [f"P{i}" for i in range(8)]).players[-1] == "P7"


# -- bad input leaves the game unchanged ------------------------------------------------------------------------


def _situations() -> dict[str, GameState]:
    fresh = new_game("kniffel", ["Ada", "Bob"])
    first = thrown(fresh, "1 2 3 4 6")
    third = rethrown(rethrown(first, "1 2 3 4", "2"), "1 2 3 4", "5")
    chance_filled = play_turns(fresh, [("1 2 3 4 6", "chance"), ("1 1 1 1 1", "yahtzee")])
    return {
        "fresh": fresh,
        "first": first,
        "third": third,
        "chance_filled": thrown(chance_filled, "1 2 3 4 6"),
        "in_air": fresh.apply("roll"),
        "k4_second": rethrown(thrown(new_game("kniffel-4", ["Ada"]), "2 2 3 3 5"), "2 2 3 3", "4"),
    }


BAD_INPUT = [
    # (situation, action, player, error, text the message must contain)
    ("first", "score full_hose", None, InvalidActionError, "full_hose"),
    ("first", "score 2:full_hose", None, InvalidActionError, "full_hose"),
    ("k4_second", "announce full_hose", None, InvalidActionError, "full_hose"),
    ("in_air", "throw 1 2 3", None, InvalidActionError, "'throw 1 2 3'"),
    ("in_air", "throw 1 2 3 4 5 6", None, InvalidActionError, "'throw 1 2 3 4 5 6'"),
    ("in_air", "throw 1 2 3 4 7", None, InvalidActionError, "7"),
    ("first", "keep 7", None, InvalidActionError, "7"),
    ("chance_filled", "score chance", None, IllegalActionError, "chance is already filled"),
    ("third", "keep 1 2", None, IllegalActionError, "no throws left"),
    ("third", "keep", None, IllegalActionError, "no throws left"),
    ("first", "keep 5 5", None, IllegalActionError, "'keep 5 5'"),
    ("first", "keep 1 2 3 4 6", None, IllegalActionError, "keeps every die"),
    ("first", "roll", None, IllegalActionError, "already thrown"),
    ("fresh", "score chance", None, IllegalActionError, "'roll' first"),
    ("fresh", "keep 1", None, IllegalActionError, "'roll' first"),
    ("fresh", "throw 1 2 3 4 5", None, IllegalActionError, "no dice are in the air"),
    ("in_air", "score chance", None, IllegalActionError, "in the air"),
    ("fresh", "roll", 1, IllegalActionError, "not Bob's"),
    ("first", "score chance", 1, IllegalActionError, "not Bob's"),
    ("k4_second", "announce full_house", None, IllegalActionError, "after throw 2"),
    ("first", "pass", None, IllegalActionError, "'pass'"),
    ("first", "write 7 at b3", None, IllegalActionError, "'write 7 at b3'"),
]


@pytest.mark.parametrize(("situation", "text", "player", "error", "named"), BAD_INPUT)
def test_bad_input_is_refused_clearly_and_changes_nothing(
    situation: str, text: str, player: int | None, error: type[PaschError], named: str
) -> None:
    state = _situations()[situation]
    before = copy.deepcopy(state)
    with pytest.raises(error) as info:
        state.apply(text, player=player)
    message = str(info.value)
    assert named in message
    try:
        action = Action.parse(text)
    except InvalidActionError:
        pass  # refused as text (a die of 7): the message names the bad value, checked above
    else:
        assert repr(str(action)) in message, "the message must quote the action"
    assert state == before
    assert state.legal_actions() == before.legal_actions()


def test_is_legal_agrees_with_apply() -> None:
    state = thrown(new_game("yahtzee", ["Ada"]), "1 2 3 4 6")
    legal = {str(a) for a in state.legal_actions()}
    for text in ("score chance", "score yahtzee", "keep 1 2", "keep 5", "roll", "announce chance", "throw 1"):
        assert state.is_legal(Action.parse(text)) == (text in legal), text


def test_game_over_refuses_everything() -> None:
    state = play_turns(solo("yacht+forced"), [("1 2 3 4 6", c) for c in solo("yacht").rules.category_ids])
    assert state.is_terminal and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply("roll")


# -- outcome ---------------------------------------------------------------------------------------------------


def test_outcome_ranks_with_ties() -> None:
    out = Outcome.from_totals(["A", "B", "C", "D"], [10, 20, 20, 5])
    assert out.ranks == (3, 1, 1, 4)
    assert out.winners == ("B", "C") and out.is_tie
    assert out.standings() == ((1, "B", 20), (1, "C", 20), (3, "A", 10), (4, "D", 5))
    single = Outcome.from_totals(["A", "B"], [7, 3])
    assert single.ranks == (1, 2) and single.winners == ("A",) and not single.is_tie


def test_a_played_tie_shares_the_win() -> None:
    ids = solo("kniffel").rules.category_ids
    state = new_game("kniffel+forced", ["Ada", "Bob", "Cy"])
    for cid in ids:
        state = play_turns(state, [("3 3 3 5 5", cid), ("3 3 3 5 5", cid), ("1 2 3 4 6", cid)])
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome.final and outcome.totals[0] == outcome.totals[1] > outcome.totals[2]
    assert outcome.ranks == (1, 1, 3) and outcome.winners == ("Ada", "Bob")
    mid = new_game("kniffel", ["Ada", "Bob"]).outcome()
    assert not mid.final and mid.ranks == (1, 1)
