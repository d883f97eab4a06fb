"""Playing to win: bot:win, the duel, the review's percentile and win probabilities, advise objectives."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from pasch.app import BOT_KINDS, duel, make_bot, review
from pasch.cli import _load, app
from pasch.engine import Game
from pasch.rules import get
from pasch.solver import Solver, score_distribution

RULES = "yahtzee+forced"  # full size, tables in milliseconds

_load()
runner = CliRunner()


def _game(kinds: list[str], seed: int) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(RULES, [f"p{i}" for i in range(len(kinds))], rng=rng)
    bots = [make_bot(k) for k in kinds]
    while not game.state.is_terminal:
        game.act(bots[game.state.current_player].choose(game.state, rng))
    return game


def test_win_is_a_seat_kind_and_plays_legal_games_of_two_to_eight() -> None:
    assert "bot:win" in [b.kind for b in BOT_KINDS]
    for n in (1, 2, 3):
        game = _game(["win"] * n, seed=n)  # Game.act refuses an illegal action
        assert game.state.is_terminal


def test_win_bot_plays_legal_games_in_other_rule_sets() -> None:
    for rules in ("yacht", "kniffel+forced+sharp"):
        rng = np.random.default_rng(1)
        game = Game(rules, ["a", "b"], rng=rng)
        bots = [make_bot("win"), make_bot("optimal")]
        while not game.state.is_terminal:
            game.act(bots[game.state.current_player].choose(game.state, rng))
        assert game.state.is_terminal


def test_duel_counts_every_game_and_alternates_seats() -> None:
    got = duel(get(RULES), ("win", "optimal"), 6, seed=5)
    assert got.games == 6 and got.rules == RULES
    a, b = got.sides
    assert a.wins + b.wins + got.ties == 6
    assert a.win_rate + b.win_rate == pytest.approx(1.0)
    assert a.ci95[0] <= a.win_rate <= a.ci95[1]
    again = duel(get(RULES), ("win", "optimal"), 6, seed=5)
    assert again == got  # seeded
    with pytest.raises(ValueError, match="not a bot"):
        duel(get(RULES), ("human", "optimal"), 2, seed=0)


def test_win_against_optimal_plays_in_the_duel_kernel() -> None:
    """``win`` against ``optimal`` (either order) counts the kernel's games; progress chunks change nothing."""
    from pasch.solver import duel_win_optimal, shared_solver

    totals = duel_win_optimal(shared_solver(RULES), 30, seed=9)
    ahead = int((totals[:, 0] > totals[:, 1]).sum())
    ties = int((totals[:, 0] == totals[:, 1]).sum())
    got = duel(get(RULES), ("win", "optimal"), 30, seed=9)
    assert (got.sides[0].wins, got.ties, got.sides[1].wins) == (ahead, ties, 30 - ahead - ties)
    seen: list[int] = []
    assert duel(get(RULES), ("win", "optimal"), 30, seed=9, progress=seen.append) == got
    assert seen[-1] == 30
    flipped = duel(get(RULES), ("optimal", "win"), 30, seed=9)  # optimal starts the even games now
    other = duel_win_optimal(shared_solver(RULES), 30, seed=9, win_first=False)
    assert flipped.sides[1].wins == int((other[:, 0] > other[:, 1]).sum())
    assert [s.bot for s in flipped.sides] == ["optimal", "win"]


def test_duel_intervals_are_wilson_intervals_and_never_a_point() -> None:
    from pasch.app._duel import _side, wilson

    low, high = wilson(1.0, 200)  # 200 wins of 200
    assert high == 1.0 and low == pytest.approx(0.98115, abs=1e-5) and low < 1.0
    low, high = wilson(0.0, 200)
    assert low == 0.0 and 0.0 < high == pytest.approx(0.01885, abs=1e-5)
    low, high = wilson(0.5, 10)
    assert low == pytest.approx(0.23659, abs=1e-5) and high == pytest.approx(1 - low)
    side = _side("win", 102409, 982, 200000)  # bench/win.py's yahtzee run: 51.45 % [51.23, 51.67]
    assert side.ci95[0] < side.win_rate < side.ci95[1]
    assert round(100 * side.ci95[0], 2) == 51.23 and round(100 * side.ci95[1], 2) == 51.67
    with pytest.raises(ValueError, match="games >= 1"):
        wilson(0.5, 0)


def test_duel_cli_json_contract() -> None:
    result = runner.invoke(app, ["duel", "--rules", RULES, "--bots", "win,optimal", "--games", "4", "--seed", "3",
                                 "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"rules", "games", "seed", "players", "ties", "bots"} and data["players"] == 2
    assert [b["bot"] for b in data["bots"]] == ["win", "optimal"]
    for b in data["bots"]:
        assert set(b) == {"bot", "wins", "win_rate", "ci95"} and len(b["ci95"]) == 2
    bad = runner.invoke(app, ["duel", "--rules", RULES, "--bots", "win"])
    assert bad.exit_code == 2
    bad = runner.invoke(app, ["duel", "--rules", RULES, "--bots", "win,nobody"])
    assert bad.exit_code == 2
    bad = runner.invoke(app, ["duel", "--rules", RULES, "--players", "9"])
    assert bad.exit_code == 2
    three = runner.invoke(app, ["duel", "--rules", RULES, "--games", "6", "--players", "3", "--seed", "3"])
    assert three.exit_code == 0, three.output
    assert "3 players (optimal in 2 seats)" in three.stdout


def test_duel_at_a_table_of_three_and_four() -> None:
    """One win seat against the best of 2 or 3 optimal seats: the kernel's games, shares of first place."""
    from pasch.solver import duel_win_optimal, shared_solver

    for players in (3, 4):
        totals = duel_win_optimal(shared_solver(RULES), 40, seed=2, players=players)
        got = duel(get(RULES), ("win", "optimal"), 40, seed=2, players=players)
        assert got.players == players
        best = totals.max(axis=1)
        on_top = totals == best[:, None]
        share = float((on_top[:, 0] / on_top.sum(axis=1)).sum())
        assert got.sides[0].win_rate == pytest.approx(share / 40)
        assert got.sides[0].wins == int((on_top[:, 0] & (on_top.sum(axis=1) == 1)).sum())
        assert got.sides[0].win_rate + got.sides[1].win_rate == pytest.approx(1.0)
        assert got.ties == int((on_top.sum(axis=1) > 1).sum())
    # other pairs play through the engine, the first bot moving round the table
    slow = duel(get(RULES), ("greedy", "optimal"), 3, seed=1, players=3)
    assert slow.players == 3 and slow.sides[0].win_rate + slow.sides[1].win_rate == pytest.approx(1.0)
    assert slow.sides[0].wins + slow.sides[1].wins <= 3 <= slow.sides[0].wins + slow.sides[1].wins + slow.ties
    with pytest.raises(ValueError, match="2 to 8"):
        duel(get(RULES), ("win", "optimal"), 3, seed=1, players=1)


def test_review_states_the_percentile_and_win_probabilities() -> None:
    game = _game(["optimal", "win"], seed=7)
    got = review(game.log, win=True)
    dist = score_distribution(Solver.load(RULES))
    assert got.beats is not None
    for p in range(2):
        assert got.beats[p] == pytest.approx(dist.p_below(got.totals[p]))
    assert all(d.p_win_before is not None and d.p_win_after is not None for d in got.decisions)
    for d in got.decisions:
        assert 0.0 <= d.p_win_after <= d.p_win_before + 1e-12 <= 1.0 + 1e-12  # type: ignore[operator]
    # the last decision of the game decides it: P(win) after it is 0 or 1 (or 0 on a tie)
    last = got.decisions[-1]
    assert last.p_win_after in (0.0, 1.0) or last.throws_left > 0
    solo = review(_game(["optimal"], seed=2).log, win=True)
    assert all(d.p_win_before is None for d in solo.decisions)


def test_advise_objectives_on_the_command_line() -> None:
    args = ["advise", "--rules", RULES, "--dice", "13356", "--rolls-left", "1", "--sheet", "ones=3"]
    result = runner.invoke(app, [*args, "--objective", "target", "--target", "150", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    probs = [o["probability"] for o in data["options"]]
    assert data["objective"] == "target" and probs == sorted(probs, reverse=True) and 0 < probs[0] < 1
    result = runner.invoke(
        app, [*args, "--objective", "win", "--opponent", "ones=4 twos=8", "--opponent", "", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["opponents"]) == 2 and 0 < data["options"][0]["probability"] < 1
    for bad in (["--objective", "win"], ["--objective", "target"], ["--objective", "fun"], ["--target", "200"]):
        assert runner.invoke(app, [*args, *bad]).exit_code == 2, bad


def test_advise_objective_win_uses_the_rule_of_bot_win_and_the_hints() -> None:
    """The command blends the threshold table with the survival table (``win_pair``), as ``bot:win`` does."""
    from pasch.cli._sheets import parse_sheet
    from pasch.solver import target_table, win_pair

    sheet, opponent = "ones=3", "ones=4 twos=8"
    args = ["advise", "--rules", RULES, "--dice", "13356", "--rolls-left", "1", "--sheet", sheet]
    result = runner.invoke(app, [*args, "--objective", "win", "--opponent", opponent, "--json"])
    assert result.exit_code == 0, result.output
    got = {o["action"]: o["probability"] for o in json.loads(result.stdout)["options"]}
    solver = Solver.load(get(RULES))
    scores = parse_sheet(get(RULES), sheet)[0]
    dists = [score_distribution(solver, parse_sheet(get(RULES), opponent)[0])]
    blended, _ = win_pair(solver)
    assert blended.survival is not None
    want = {o.action_text: o.probability for o in blended.win_options(scores, (1, 3, 3, 5, 6), 1, dists)}
    alone = {o.action_text: o.probability for o in target_table(solver).win_options(scores, (1, 3, 3, 5, 6), 1, dists)}
    assert got.keys() == want.keys()
    assert all(got[a] == pytest.approx(want[a], abs=1e-6) for a in want)
    assert max(abs(got[a] - alone[a]) for a in want) > 1e-4  # the threshold table alone answers otherwise


def test_advice_can_show_the_win_probability() -> None:
    from pasch.app import advise

    rng = np.random.default_rng(4)
    game = Game(RULES, ["a", "b"], rng=rng)
    bot = make_bot("optimal")
    while game.state.dice is None:
        game.act(bot.choose(game.state, rng))
    plain = advise(game.state)
    assert all(o.p_win is None for o in plain.options)
    got = advise(game.state, win=True)
    assert [str(o.action) for o in got.options] == [str(o.action) for o in plain.options]
    assert all(o.p_win is not None and 0.0 <= o.p_win <= 1.0 for o in got.options)
    assert max(o.p_win or 0.0 for o in got.options) > 0.0
