"""Head-to-head matches of two bots: seeded games of 2 to 8 players, seats rotating, win rates, Wilson intervals."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pasch.app._seats import check_bot, make_bot, seat_kind
from pasch.rules import RuleSet

__all__ = ["DuelResult", "DuelSide", "duel", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal law."""


@dataclass(frozen=True, slots=True)
class DuelSide:
    """One bot's record in a duel.

    Attributes:
        bot: the bot's name (``win``).
        wins: games it finished strictly ahead of every other player (the second bot, in several seats:
            games where the first bot's seat was not first).
        win_rate: its share of the games: a game won counts 1, a first place shared by ``k`` players
            ``1 / k`` for each of them (two players: ``(wins + ties / 2) / games``).
        ci95: the 95 % Wilson score interval of ``win_rate`` (see :func:`wilson`): never empty at 0 or
            all wins (200 wins of 200 give [98.1, 100] %).
    """

    bot: str
    wins: int
    win_rate: float
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class DuelResult:
    """The outcome of a duel.

    Attributes:
        rules: the rule set's id.
        games: games played.
        seed: the dice seed (game ``g`` throws from ``default_rng([seed, g])``, or from the duel kernel's
            stream of ``(seed, g)``).
        ties: games whose first place was shared.
        sides: the two bots' records, in the order given.
        players: players at the table: the first bot in one seat, the second in all the others.
    """

    rules: str
    games: int
    seed: int
    ties: int
    sides: tuple[DuelSide, DuelSide]
    players: int = 2


def wilson(rate: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``rate`` observed over ``games`` games.

    The interval of the shares ``p`` with ``|rate - p| <= z * sqrt(p (1 - p) / games)``: unlike the normal
    approximation around ``rate`` it does not shrink to a point at 0 or 1. A tie counts half a win; the
    variance of a 1 / 0.5 / 0 result of mean ``p`` is at most ``p (1 - p)``, so with ties the interval is
    conservative.

    Raises:
        ValueError: fewer than one game, or a share outside [0, 1].
    """
    if games < 1 or not 0.0 <= rate <= 1.0:
        raise ValueError(f"a share of games needs games >= 1 and 0 <= rate <= 1, not {games} and {rate}")
    z2 = z * z / games
    centre = (rate + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def _side(bot: str, wins: int, ties: int, games: int, share: float | None = None) -> DuelSide:
    rate = (wins + ties / 2) / games if share is None else share / games
    return DuelSide(bot, wins, rate, wilson(min(1.0, max(0.0, rate)), games))


def _tally(totals: np.ndarray) -> tuple[int, int, int, float]:
    """Seat 0 against the rest over ``totals[game, seat]``.

    Returns:
        Seat 0's wins, the games it was not first in, the games whose first place was shared, seat 0's share.
    """
    best = totals.max(axis=1)
    top = totals == best[:, None]
    n_top = top.sum(axis=1)
    ties = int((n_top > 1).sum())
    first = int((top[:, 0] & (n_top == 1)).sum())
    rest = int((~top[:, 0]).sum())
    share = float((top[:, 0] / n_top).sum())
    return first, rest, ties, share


def duel(
    rules: RuleSet,
    bots: tuple[str, str],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    players: int = 2,
) -> DuelResult:
    """Play ``games`` seeded games between two bots: the first bot in one seat, the second in the others.

    With two players the first bot starts the even games; with more, game ``g`` is started by seat
    ``g % players`` and the first bot sits in seat 0, so it plays from every position in turn. ``win``
    against ``optimal`` on a single-column rule set is played by the solver's duel kernel
    (:func:`pasch.solver.duel_win_optimal`: the same decision rules, thousands of games a second; the
    first duel of a rule set builds its threshold and survival tables, minutes); other pairs play
    through the engine, game ``g`` throwing from ``default_rng([seed, g])``.

    Args:
        rules: the rule set.
        bots: two seat kinds or bot names (``win``, ``bot:optimal``).
        games: games to play (at least 1).
        seed: the dice seed.
        progress: called with the number of games done after each game.
        players: players at the table, 2 to 8.

    Returns:
        Each bot's wins, win rate (a shared first place counts a share) and 95 % interval, and the ties.

    Raises:
        ValueError: not two bots, an unknown bot or one that does not play these rules, games < 1, or
            players outside 2 .. 8.
    """
    from pasch.engine import Game

    if len(bots) != 2:
        raise ValueError(f"a duel needs two bots, not {len(bots)}")
    if games < 1:
        raise ValueError(f"a duel needs at least one game, not {games}")
    if not 2 <= players <= 8:
        raise ValueError(f"a duel has 2 to 8 players, not {players}")
    kinds = [seat_kind(b) for b in bots]
    for k in kinds:
        if not k.startswith("bot:"):
            raise ValueError(f"{k!r} is not a bot; name two bots, e.g. win,optimal")
        check_bot(k, rules)
    names = [k.split(":", 1)[1] for k in kinds]
    kernel = sorted(names) == ["optimal", "win"] and len(rules.columns) == 1 and rules.knaster is None
    if kernel and (players == 2 or names[0] == "win"):
        return _kernel_duel(rules, (names[0], names[1]), games, seed, progress, players)
    one, rest = make_bot(kinds[0]), make_bot(kinds[1])
    totals = np.zeros((games, players), np.int64)
    for g in range(games):
        seat0 = g % players  # the first bot's seat: the engine's seat 0 starts, so it starts game 0
        rng = np.random.default_rng([seed, g])
        choices = np.random.default_rng([seed, g, 1])  # the bots' own: the dice do not depend on them
        seats = [seat0, *(p for p in range(players) if p != seat0)]  # table seat k sits in engine seat seats[k]
        game = Game(rules, [f"{names[0] if p == seat0 else names[1]}-{p}" for p in range(players)], rng=rng)
        while not game.state.is_terminal:
            seat = game.state.current_player
            game.act((one if seat == seat0 else rest).choose(game.state, choices))
        totals[g] = [game.state.total(p) for p in seats]
        if progress is not None:
            progress(g + 1)
    return _result(rules, names, games, seed, totals)


def _result(
    rules: RuleSet, names: list[str] | tuple[str, str], games: int, seed: int, totals: np.ndarray
) -> DuelResult:
    first, rest, ties, share = _tally(totals)
    sides = (_side(names[0], first, ties, games, share), _side(names[1], rest, ties, games, games - share))
    return DuelResult(rules.id, games, seed, ties, sides, totals.shape[1])


KERNEL_CHUNK = 2000
"""Games per kernel call when a duel reports progress."""


def _kernel_duel(
    rules: RuleSet,
    names: tuple[str, str],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None,
    players: int = 2,
) -> DuelResult:
    """``win`` against ``optimal`` in the solver's duel kernel (game ``g`` throws from the kernel's stream)."""
    from pasch.solver import duel_win_optimal, shared_solver

    solver = shared_solver(rules)
    win_first = names[0] == "win"
    step = games if progress is None else KERNEL_CHUNK
    parts = []
    for start in range(0, games, step):
        n = min(step, games - start)
        parts.append(duel_win_optimal(solver, n, seed, win_first=win_first, start=start, players=players))
        if progress is not None:
            progress(start + n)
    totals = np.concatenate(parts)
    if not win_first:  # two players: the first bot (optimal) is the kernel's seat 1
        totals = totals[:, ::-1]
    return _result(rules, names, games, seed, totals)
