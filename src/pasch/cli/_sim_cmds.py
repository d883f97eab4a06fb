"""Seeded games from the command line: ``pasch simulate`` (solo games of one bot) and ``pasch duel`` (two bots)."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from pasch.cli._app import app
from pasch.cli._common import console, guard, print_json
from pasch.cli._solving import (
    JSON_HELP,
    MAX_SEED,
    RULES_HELP,
    announce_win_tables,
    compile_notice,
    load_solver,
    single_column_rules,
)
from pasch.errors import InvalidActionError
from pasch.rules import GameKind, RuleSet, get

__all__ = ["duel_cmd", "simulate_cmd"]


MAX_GAMES = 20_000_000
"""The most games one ``simulate`` plays (their scores are kept in memory: 160 MB)."""


DEFAULT_GAMES = 10_000
"""Games ``simulate`` plays by default with the exact solver (well under a second)."""
DEFAULT_GAMES_SLOW = 100
"""Games by default with a bot that decides move by move in Python (multi-column and Knaster bots take
up to seconds a game, so 10,000 would run for hours)."""


def _play(rules: RuleSet, bot_name: str, games: int, seed: int, show_progress: bool = False) -> np.ndarray:
    from pasch.app import make_bot
    from pasch.engine import Game

    bot = make_bot(bot_name)
    out = np.zeros(games, np.int64)
    bar = None
    if show_progress:
        from rich.progress import Progress

        from pasch.cli._common import err_console

        bar = Progress(transient=True, console=err_console())
        task = bar.add_task(f"{rules.id}, {bot_name} bot", total=games)
        bar.start()
    try:
        for g in range(games):
            out[g] = _play_one(rules, bot, seed, g, Game)
            if bar is not None:
                bar.update(task, completed=g + 1)
    finally:
        if bar is not None:
            bar.stop()
    return out


def _play_one(rules: RuleSet, bot: Any, seed: int, g: int, game_type: Any) -> int:
    """Game ``g`` of a seeded series: its dice and the bot's choices come from ``(seed, g)``."""
    rng = np.random.default_rng([seed, g])
    game = game_type(rules, ["bot"], rng=rng)
    while not game.state.is_terminal:
        game.act(bot.choose(game.state, rng))
    return int(game.state.total(0))


@app.command("simulate")
def simulate_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=MAX_GAMES,
            help="Number of solo games (at most 20,000,000; default 10,000 with the exact solver, 100 with the "
            "move-by-move bots of multi-column games and Knaster, or greedy/random).",
        ),
    ] = None,
    bot: Annotated[
        str, typer.Option("--bot", help="optimal, greedy, random, multi (multi-column) or knaster.")
    ] = "optimal",
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice (0 to 2^63-1).")] = 0,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the score distribution (PNG).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Play seeded solo games with a bot: mean, sd, se, min, median, max and a histogram."""
    with guard(), compile_notice():
        rules = get(rules_text)
        if bot not in ("optimal", "greedy", "random", "multi", "knaster"):
            raise InvalidActionError(f"--bot {bot!r}: choose optimal, greedy, random, multi or knaster")
        # Rule sets the exact solver does not cover: "optimal" means the strongest bot there is.
        exact = rules.kind is GameKind.SHEET and len(rules.columns) == 1
        if bot == "optimal" and not exact:
            bot = "multi" if rules.kind is GameKind.SHEET else "knaster"
        if plot is not None:
            plot = _plot_path(plot)
        if games is None:
            games = DEFAULT_GAMES if bot == "optimal" else DEFAULT_GAMES_SLOW
        start = time.perf_counter()
        scores = (
            load_solver(rules).simulate(games, seed)
            if bot == "optimal"
            else _play(rules, bot, games, seed, show_progress=not as_json)
        )
        seconds = time.perf_counter() - start
        sd = float(scores.std(ddof=1)) if games > 1 else 0.0
        edges = np.histogram_bin_edges(scores, bins=min(20, max(1, int(scores.max() - scores.min()) + 1)))
        counts, edges = np.histogram(scores, bins=edges)
        stats = {
            "rules": rules.id,
            "bot": bot,
            "games": games,
            "seed": seed,
            "mean": float(scores.mean()),
            "sd": sd,
            "se": sd / math.sqrt(games),
            "min": int(scores.min()),
            "median": float(np.median(scores)),
            "max": int(scores.max()),
            "histogram": [
                {"from": float(a), "to": float(b), "count": int(c)}
                for a, b, c in zip(edges[:-1], edges[1:], counts, strict=True)
            ],
            "seconds": round(seconds, 4),
        }
        if plot is not None:
            exact_dist = None
            if bot == "optimal":
                from pasch.solver import score_distribution

                exact_dist = score_distribution(load_solver(rules))
            _plot(scores, plot, f"{rules.id}, {bot} bot, {games} games", exact_dist)
            stats["plot"] = str(plot)
        if as_json:
            print_json(stats)
            return
        out = console()
        out.print(
            f"{rules.id}, {bot} bot, {games} games (seed {seed}): mean {stats['mean']:.3f}, sd {sd:.3f}, "
            f"se {stats['se']:.3f}, min {stats['min']}, median {stats['median']:g}, max {stats['max']}",
            highlight=False,
        )
        peak = max(int(counts.max()), 1)
        for a, b, c in zip(edges[:-1], edges[1:], counts, strict=True):
            out.print(f"{a:7.0f}-{b:<7.0f} {int(c):>8} {'#' * round(40 * int(c) / peak)}", highlight=False)


def _plot_path(path: Path) -> Path:
    """Where ``--plot`` writes: the file named, with ``.png`` added when it has no suffix.

    Raises:
        InvalidActionError: the path is a directory, or its folder does not exist.
    """
    if path.is_dir():
        raise InvalidActionError(f"--plot {str(path)!r} is a directory; give a file name such as {path / 'scores.png'}")
    if not path.suffix:
        path = path.with_suffix(".png")
    if not path.parent.is_dir():
        raise InvalidActionError(f"--plot {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    return path


def _plot(scores: np.ndarray, path: Path, title: str, exact: Any = None) -> None:
    """Histogram with one bin per point; ``exact`` (a ScoreDistribution) is drawn over it, scaled to games."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidActionError("--plot needs matplotlib: pip install 'pasch[plot]'") from None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo, hi = int(scores.min()), int(scores.max())
    ax.hist(scores, bins=[x - 0.5 for x in range(lo, hi + 2)], color="#3060a0", label="simulated")
    if exact is not None:
        ax.step(exact.scores, exact.probs * len(scores), where="mid", color="#e08020", lw=0.8, label="exact")
        ax.set_xlim(lo - 1, hi + 1)
    ax.axvline(float(scores.mean()), color="#c03030", label=f"mean {scores.mean():.2f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


@app.command("duel")
def duel_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    bots: Annotated[str, typer.Option("--bots", help="Two bots, e.g. win,optimal.")] = "win,optimal",
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice.")] = 0,
    players: Annotated[
        int,
        typer.Option(
            "--players", min=2, max=8, help="Players at the table: the first bot in one seat, the second in the rest."
        ),
    ] = 2,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Seeded games between two bots (seats rotate): win rates, ties and 95 % Wilson intervals."""
    with guard(), compile_notice():
        from pasch.app import duel

        rules = single_column_rules(rules_text)
        names = tuple(b.strip() for b in bots.split(","))
        if len(names) != 2 or not all(names):
            raise InvalidActionError(f"--bots {bots!r}: name two bots, e.g. win,optimal")
        if "win" in names:  # its two tables, before their build starts
            announce_win_tables(rules)
        try:
            result = duel(rules, (names[0], names[1]), games, seed, players=players)
        except ValueError as exc:
            raise InvalidActionError(f"--bots {bots!r}: {exc}") from None
        data = {
            "rules": result.rules,
            "games": result.games,
            "seed": result.seed,
            "players": result.players,
            "ties": result.ties,
            "bots": [
                {"bot": s.bot, "wins": s.wins, "win_rate": s.win_rate, "ci95": [s.ci95[0], s.ci95[1]]}
                for s in result.sides
            ],
        }
        if as_json:
            print_json(data)
            return
        out = console()
        table = "" if players == 2 else f", {players} players ({names[1]} in {players - 1} seats)"
        out.print(f"{rules.id}: {games} games (seed {seed}){table}, {result.ties} ties", highlight=False)
        for s in result.sides:
            out.print(
                f"{s.bot}: {s.wins} wins, win rate {100 * s.win_rate:.2f} % "
                f"(95 % Wilson interval {100 * s.ci95[0]:.2f} - {100 * s.ci95[1]:.2f} %)",
                highlight=False,
            )
