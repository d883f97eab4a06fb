"""Head-to-head matches of two bots: seeded two-player games, seats alternating, win rates, 95 % Wilson intervals."""

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
        wins: games it finished strictly ahead.
        win_rate: ``(wins + ties / 2) / games``.
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
        ties: games with equal totals.
        sides: the two bots' records, in the order given.
    """

    rules: str
    games: int
    seed: int
    ties: int
    sides: tuple[DuelSide, DuelSide]


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


def _side(bot: str, wins: int, ties: int, games: int) -> DuelSide:
    rate = (wins + ties / 2) / games
    return DuelSide(bot, wins, rate, wilson(rate, games))


def duel(
    rules: RuleSet, bots: tuple[str, str], games: int, seed: int, progress: Callable[[int], None] | None = None
) -> DuelResult:
    """Play ``games`` seeded two-player games between two bots; the first bot starts the even games.

    ``win`` against ``optimal`` on a single-column rule set is played by the solver's duel kernel
    (:func:`pasch.solver.duel_win_optimal`: the same decision rules, thousands of games a second; the
    first duel of a rule set builds its threshold and survival tables, minutes); other pairs play
    through the engine, game ``g`` throwing from ``default_rng([seed, g])``.

    Args:
        rules: the rule set.
        bots: two seat kinds or bot names (``win``, ``bot:optimal``).
        games: games to play (at least 1).
        seed: the dice seed.
        progress: called with the number of games done after each game.

    Returns:
        Each bot's wins, win rate (ties count half) and 95 % interval, and the ties.

    Raises:
        ValueError: not two bots, an unknown bot or one that does not play these rules, or games < 1.
    """
    from pasch.engine import Game

    if len(bots) != 2:
        raise ValueError(f"a duel needs two bots, not {len(bots)}")
    if games < 1:
        raise ValueError(f"a duel needs at least one game, not {games}")
    kinds = [seat_kind(b) for b in bots]
    for k in kinds:
        if not k.startswith("bot:"):
            raise ValueError(f"{k!r} is not a bot; name two bots, e.g. win,optimal")
        check_bot(k, rules)
    names = [k.split(":", 1)[1] for k in kinds]
    if sorted(names) == ["optimal", "win"] and len(rules.columns) == 1 and rules.knaster is None:
        return _kernel_duel(rules, (names[0], names[1]), games, seed, progress)
    players = [make_bot(k) for k in kinds]
    wins = [0, 0]
    ties = 0
    for g in range(games):
        order = (0, 1) if g % 2 == 0 else (1, 0)  # order[seat] = which bot sits there
        rng = np.random.default_rng([seed, g])
        choices = np.random.default_rng([seed, g, 1])  # the bots' own: the dice do not depend on them
        game = Game(rules, [f"{names[order[0]]}-0", f"{names[order[1]]}-1"], rng=rng)
        while not game.state.is_terminal:
            seat = game.state.current_player
            game.act(players[order[seat]].choose(game.state, choices))
        totals = [game.state.total(0), game.state.total(1)]
        if totals[0] == totals[1]:
            ties += 1
        else:
            wins[order[0 if totals[0] > totals[1] else 1]] += 1
        if progress is not None:
            progress(g + 1)
    sides = (_side(names[0], wins[0], ties, games), _side(names[1], wins[1], ties, games))
    return DuelResult(rules.id, games, seed, ties, sides)


KERNEL_CHUNK = 2000
"""Games per kernel call when a duel reports progress."""


def _kernel_duel(
    rules: RuleSet, names: tuple[str, str], games: int, seed: int, progress: Callable[[int], None] | None
) -> DuelResult:
    """``win`` against ``optimal`` in the solver's duel kernel (game ``g`` throws from the kernel's stream)."""
    from pasch.solver import duel_win_optimal, shared_solver

    solver = shared_solver(rules)
    win_first = names[0] == "win"
    step = games if progress is None else KERNEL_CHUNK
    parts = []
    for start in range(0, games, step):
        n = min(step, games - start)
        parts.append(duel_win_optimal(solver, n, seed, win_first=win_first, start=start))
        if progress is not None:
            progress(start + n)
    totals = np.concatenate(parts)
    win_ahead = int((totals[:, 0] > totals[:, 1]).sum())
    ties = int((totals[:, 0] == totals[:, 1]).sum())
    wins = {"win": win_ahead, "optimal": games - ties - win_ahead}
    sides = (_side(names[0], wins[names[0]], ties, games), _side(names[1], wins[names[1]], ties, games))
    return DuelResult(rules.id, games, seed, ties, sides)
