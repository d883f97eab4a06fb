"""The multi-column bot: legal in every situation, deterministic, and stronger than the baselines."""

from __future__ import annotations

import numpy as np
import pytest

from pasch.bots import GreedyBot, MultiColumnBot, RandomBot, make_bot
from pasch.engine import Announce, Game, GameState, Keep, Roll, Score, new_game


def play(rules: str, bot: object, seed: int, players: int = 1) -> tuple[int, ...]:
    rng = np.random.default_rng(seed)
    game = Game(rules, [f"p{i}" for i in range(players)], rng=rng)
    while not game.state.is_terminal:
        state = game.state
        action = bot.choose(state, rng)  # type: ignore[attr-defined]
        assert action in state.legal_actions()
        game.act(action)
    return tuple(int(t) for t in game.state.totals())


@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4"])
def test_plays_only_legal_actions_and_never_falls_back(rules: str) -> None:
    bot = MultiColumnBot()
    for seed in range(2):
        assert play(rules, bot, seed)[0] > 0
    assert bot.fallbacks == 0


def test_multiplayer_and_modifiers() -> None:
    bot = MultiColumnBot()
    assert len(play("kniffel-4", bot, 5, players=2)) == 2
    assert play("kniffel-3+sharp", bot, 6)[0] > 0
    assert bot.fallbacks == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["jetsi", "kniffel-3", "kniffel-4", "kniffel-4+sharp"])
def test_legal_over_many_games(rules: str) -> None:
    bot = MultiColumnBot()
    for seed in range(30):
        play(rules, bot, 100 + seed)
    assert bot.fallbacks == 0


def test_same_seed_same_game() -> None:
    assert play("kniffel-4", MultiColumnBot(), 11) == play("kniffel-4", MultiColumnBot(), 11)


def test_beats_greedy_and_random_on_a_seeded_sample() -> None:
    seeds = range(6)
    multi = np.mean([play("kniffel-4", MultiColumnBot(), s)[0] for s in seeds])
    greedy = np.mean([play("kniffel-4", GreedyBot(), s)[0] for s in seeds])
    rand = np.mean([play("kniffel-4", RandomBot(), s)[0] for s in seeds])
    assert multi > greedy + 100 > rand


def test_announces_a_kniffel_on_four_alike_and_only_when_allowed() -> None:
    bot = MultiColumnBot()
    rng = np.random.default_rng(0)
    state = new_game("kniffel-4", ["a"])
    assert isinstance(bot.choose(state, rng), Roll)
    state = state.apply(Roll()).apply("throw 6 6 6 6 6")
    # Five sixes on the first throw: worth 50 in any yahtzee box; never a re-throw.
    assert not isinstance(bot.choose(state, rng), Keep)
    state = new_game("kniffel-4", ["a"]).apply(Roll()).apply("throw 2 3 4 5 6")
    action = bot.choose(state, rng)
    assert isinstance(action, Announce | Score | Keep)


def test_must_announce_when_only_the_announced_column_is_open() -> None:
    bot = MultiColumnBot()
    rng = np.random.default_rng(1)
    state = new_game("kniffel-4", ["a"])
    # Fill every column but the announced one by playing the bot with announcements made impossible.
    rules = state.rules
    ann = rules.announced_column
    assert ann is not None
    sheet = state.sheets[0]
    full = tuple(col if c == ann else type(col)(tuple(0 for _ in col.scores)) for c, col in enumerate(sheet.columns))
    state = (
        GameState(rules, state.players, (type(sheet)(full),), turn=3 * len(rules.categories))
        .apply(Roll())
        .apply("throw 1 1 1 2 3")
    )
    action = bot.choose(state, rng)
    assert isinstance(action, Announce)
    state = state.apply(action)
    while not isinstance(action, Score):
        action = bot.choose(state, rng)
        state = state.apply(action)
        if state.is_chance_node:
            state = state.apply("throw " + " ".join(["1"] * state.pending))
    assert bot.fallbacks == 0


def test_make_bot_knows_multi() -> None:
    assert isinstance(make_bot("multi"), MultiColumnBot)


def _final_dice(rules: str, final: str) -> GameState:
    """A first turn whose last throw shows ``final`` (the 6 kept from the first throws)."""
    state = new_game(rules, ["a"]).apply("roll").apply("throw 1 2 3 4 6")
    state = state.apply("keep 6").apply("throw 2 3 4 6").apply("keep 6")
    return state.apply("throw " + final.rsplit(" ", 1)[0])


def test_slack_tables_keep_a_fixed_order_column_from_wasting_its_next_box() -> None:
    # Plain forced tables take "0 in ones" in the top-down column at the start (its par is low);
    # with slack the column can wait for ones, so the dice go to the bottom-up column's chance.
    state = _final_dice("kniffel-3", "2 2 3 5 6")
    assert state.throws_left == 0
    rng = np.random.default_rng(0)
    assert str(MultiColumnBot(slack_factor=0.0).choose(state, rng)) == "score 1:ones"
    assert str(MultiColumnBot(slack_factor=0.7).choose(state, rng)) == "score 2:chance"


def test_settings_come_from_the_tuned_table_and_the_constructor_overrides_them() -> None:
    from pasch.bots._multi import TUNED, Settings
    from pasch.rules import get

    assert MultiColumnBot().settings(get("kniffel-4")) == TUNED["kniffel-4"]
    assert MultiColumnBot().settings(get("kniffel-4+sharp")) == Settings()
    assert MultiColumnBot(slack_factor=0.0, announced_slot=0.0).settings(get("kniffel-3")) == Settings(0.0, 0.0)


def _last_throw(rules: str, dice: tuple[int, ...]) -> GameState:
    """The first turn's last throw showing ``dice`` (the first four kept from the start)."""
    kept, last = " ".join(map(str, dice[:-1])), str(dice[-1])
    state = new_game(rules, ["a"]).apply("roll").apply("throw " + " ".join(map(str, dice)))
    return state.apply("keep " + kept).apply("throw " + last).apply("keep " + kept).apply("throw " + last)


def test_free_slack_keeps_the_free_column_open_for_a_better_throw() -> None:
    # Four sixes and a five at the end of Jetsi's first turn. Valued with its plain table, the free column
    # takes them in its sixes (24 now); credited with the turns it will let pass, it can wait for a better
    # throw of sixes, and the dice go to the next box of the bottom-up column, its chance (29).
    state = _last_throw("jetsi", (5, 6, 6, 6, 6))
    assert state.throws_left == 0
    rng = np.random.default_rng(0)
    old = MultiColumnBot(learned=False, slack_factor=0.7, free_slack=0.0, interpolate=False)
    assert str(old.choose(state, rng)) == "score 1:sixes"
    assert str(MultiColumnBot(learned=False, free_slack=0.0).choose(state, rng)) == "score 1:sixes"
    assert str(MultiColumnBot(learned=False).choose(state, rng)) == "score 3:chance"


def test_credited_slack_is_read_between_levels() -> None:
    from pasch.bots._columns import _Blend

    levels = np.arange(24, dtype=np.float32).reshape(3, 2, 4) ** 2
    np.testing.assert_array_equal(_Blend(levels, 1.0)[1], levels[1, 1])
    half = _Blend(levels, 0.25)[1, 2]
    assert half == pytest.approx(0.75 * levels[0, 1, 2] + 0.25 * levels[1, 1, 2])
    assert _Blend(levels, 2.0)[0, 3] == levels[2, 0, 3]  # the top level: nothing above to blend with
    # A multi-column bot credits a column factor x turns: each pass costs it the same share of a level.
    bot = MultiColumnBot(learned=False, free_slack=0.25)
    assert bot._blend(levels, 0.25, 3, True).w == pytest.approx(0.75)
    assert bot._blend(levels, 0.25, 3, False).w == 0.0  # rounded down: level 0, as before issue 28
    assert bot._blend(levels, 0.25, 40, True).lo == 2  # clipped to the levels kept


def test_bots_share_one_copy_of_each_table_built_once_for_threads_asking_together() -> None:
    # A server has several multi-column bots (bot:multi and bot:optimal seats, the hints' advisor) on several
    # threads: each table is made once for all of them, and none of them can change it for the others.
    import threading

    from pasch.bots._columns import _TABLES
    from pasch.rules import get

    rules = get("jetsi")
    _TABLES.clear()
    made = _TABLES.made
    bots = [MultiColumnBot(), MultiColumnBot()]
    assert not bots[0].ready(rules)
    go = threading.Barrier(3)

    def prepare(bot: MultiColumnBot) -> None:
        go.wait()
        bot.prepare(rules)

    threads = [threading.Thread(target=prepare, args=(b,)) for b in (*bots, bots[0])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = bots[0]._table_keys(rules)
    # Jetsi: a free, a top-down and a bottom-up column, each with its exact table, plus two slack tables and
    # the free column's slack levels.
    assert len(keys) == 6
    assert _TABLES.made - made == len(keys)  # no table was made twice
    assert bots[0].ready(rules) and bots[1].ready(rules)
    for order in dict.fromkeys(rules.columns):
        col = bots[0]._column(rules, order)
        assert col is bots[1]._column(rules, order)
        assert not col.values.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            col.values[0, 0, 0] = 1.0
    levels = bots[1]._free_levels(rules, rules.columns[0])
    assert levels is not None and not levels.flags.writeable
    # Prepared: a whole game's decisions make no table.
    before = _TABLES.made
    play("jetsi", bots[1], 3)
    assert _TABLES.made == before


def test_the_table_store_keeps_the_rule_sets_used_last() -> None:
    from pasch.bots._columns import _TableStore

    store = _TableStore(max_rules=2)
    calls: list[str] = []

    def make(name: str) -> object:
        calls.append(name)
        return object()

    a = store.get(("t", "a"), lambda: make("a"))
    store.get(("t", "b"), lambda: make("b"))
    assert store.get(("t", "a"), lambda: make("a")) is a  # held: not made again, and now the last used
    store.get(("t", "c"), lambda: make("c"))  # "b" was used least recently: dropped
    assert store.holds(("t", "a")) and store.holds(("t", "c")) and not store.holds(("t", "b"))
    assert calls == ["a", "b", "c"]
    store.get(("t", "b"), lambda: make("b"))
    assert calls == ["a", "b", "c", "b"]


def test_prepare_refuses_knaster() -> None:
    from pasch.errors import RuleSetError
    from pasch.rules import get

    with pytest.raises(RuleSetError, match="sheet games"):
        MultiColumnBot().prepare(get("knaster"))
