"""The end-of-game summary: sections that add up, a ranking without a winner in a solo game, and the
comparison with the player's earlier games from a real SQLite history."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pasch.app import game_summary, make_bot
from pasch.engine import Game
from pasch.storage import Repository


def _play(rules: str, players: list[str], seed: int, kind: str = "greedy") -> Game:
    rng = np.random.default_rng(seed)
    game = Game(rules, players, rng=rng)
    bot = make_bot(kind)
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    return game


def test_solo_game_has_a_ranking_of_one_and_no_winner() -> None:
    game = _play("kniffel", ["Ada"], 1)
    got = game_summary(game.state)
    assert got.finished and got.solo and got.winners == () and not got.is_tie
    (ada,) = got.players
    assert ada.rank == 1 and ada.total == game.state.total(0)
    assert ada.upper is not None and ada.bonus is not None and ada.lower is not None and ada.extra is not None
    assert ada.upper + ada.bonus + ada.lower + ada.extra == ada.total
    assert ada.bonus in (0, 35) and (ada.bonus == 35) == (ada.upper >= 63)
    assert not ada.personal_best and ada.vs_average is None


def test_several_players_multi_column_sections_sum_over_columns() -> None:
    game = _play("jetsi", ["a", "b", "c"], 2)
    got = game_summary(game.state)
    assert not got.solo
    for p in got.players:
        assert p.upper is not None and p.bonus is not None and p.lower is not None and p.extra is not None
        assert p.upper + p.bonus + p.lower + p.extra == p.total == game.state.total(p.seat)
    best = max(p.total for p in got.players)
    assert set(got.winners) == {p.name for p in got.players if p.total == best}
    assert [p.total for p in got.standings()] == sorted((p.total for p in got.players), reverse=True)


def test_knaster_has_totals_only() -> None:
    game = _play("knaster", ["a", "b"], 3)
    got = game_summary(game.state)
    assert all(p.upper is None and p.bonus is None for p in got.players)
    assert [p.total for p in got.players] == [game.state.total(0), game.state.total(1)]


def test_tie_shares_first_place() -> None:
    game = Game("kniffel", ["a", "b"])
    got = game_summary(game.state)  # nobody has scored: a tie, and not finished
    assert not got.finished and got.winners == ()
    assert [p.rank for p in got.players] == [1, 1]


def test_personal_best_and_average_from_the_history(tmp_path: Path) -> None:
    with Repository(directory=tmp_path) as repo:
        earlier = [_play("kniffel", ["Ada"], s) for s in (10, 11, 12)]
        for g in earlier:
            repo.save(g.log)
        now = _play("kniffel", ["Ada"], 13, kind="optimal")
        game_id = repo.save(now.log)
        other = _play("yatzy", ["Ada"], 14)
        repo.save(other.log)
        got = game_summary(now.state, repo.player_stats(rules="kniffel", exclude=game_id))
    totals = [g.state.total(0) for g in earlier]
    (ada,) = got.players
    assert ada.games_before == 3 and ada.best_before == max(totals)
    assert ada.average_before is not None and abs(ada.average_before - sum(totals) / 3) < 1e-9
    assert ada.personal_best == (now.state.total(0) > max(totals))
    assert ada.vs_average is not None and abs(ada.vs_average - (now.state.total(0) - sum(totals) / 3)) < 1e-9
    # Without ``exclude`` the game itself counts (four games).
    with Repository(directory=tmp_path) as repo:
        assert game_summary(now.state, repo.player_stats()).players[0].games_before == 4
