"""Solver commands: ``pasch solve``, ``advise``, ``simulate``, ``review``."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from pasch.cli._app import app
from pasch.cli._common import console, guard, print_json
from pasch.errors import InvalidActionError, RuleSetError
from pasch.rules import GameKind, RuleSet, get

__all__ = ["advise_cmd", "parse_sheet", "review_cmd", "simulate_cmd", "solve_cmd"]

RULES_HELP = "Rule set, e.g. yahtzee, kniffel+forced, yatzy (single column)."
JSON_HELP = "Print one JSON object on stdout."


def _rules(text: str) -> RuleSet:
    rules = get(text)
    if len(rules.columns) != 1:
        raise RuleSetError(f"{rules.id}: the solver handles single-column rule sets only")
    return rules


def _first_use_notice(rules: RuleSet, tasks: tuple[str, ...], force: bool = False) -> None:
    """Tell the user (stderr) when the solver's kernels must be compiled first: it happens once."""
    from pasch.solver import compiled, table_path

    needed = list(tasks)
    if force or not table_path(rules).exists():
        needed.insert(0, "build")
    if all(compiled(t) for t in needed):
        return
    from pasch.cli._common import err_console

    err_console().print(
        "pasch: first use of the solver: compiling its kernels (once; later runs load them from Numba's cache)…"
    )


def _solver(rules: RuleSet, force: bool = False, show_progress: bool = False, tasks: tuple[str, ...] = ()) -> Any:
    from pasch.solver import Solver, compile_ahead, table_path

    _first_use_notice(rules, tasks, force)
    if "simulate" in tasks and (force or not table_path(rules).exists()):
        compile_ahead("simulate")  # in a second process, while this one builds the table
    if not show_progress:
        return Solver.load(rules, force=force)
    from rich.progress import Progress

    with Progress(transient=True, console=console()) as bar:
        task = bar.add_task(f"solving {rules.id}", total=len(rules.categories))
        return Solver.load(rules, force=force, progress=lambda done, total: bar.update(task, completed=done))


def parse_sheet(rules: RuleSet, text: str) -> list[int | None]:
    """Parse ``"ones=3 twos=6 yahtzee=50"`` (commas allowed) into a column, None = open.

    Raises:
        InvalidActionError: a malformed entry, a box the rule set does not have, or a box given twice.
    """
    scores: list[int | None] = [None] * len(rules.categories)
    for item in text.replace(",", " ").split():
        box, sep, value = item.partition("=")
        if not sep:
            raise InvalidActionError(f"sheet entry {item!r}: write BOX=POINTS, e.g. ones=3")
        if not rules.has_category(box):
            raise InvalidActionError(f"{box!r} is not a box of {rules.id}; boxes: {', '.join(rules.category_ids)}")
        try:
            points = int(value)
        except ValueError:
            raise InvalidActionError(f"sheet entry {item!r}: {value!r} is not a number") from None
        i = rules.category_index(box)
        if scores[i] is not None:
            raise InvalidActionError(f"sheet entry {item!r}: {box} is given twice")
        scores[i] = points
    return scores


@app.command("solve")
def solve_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if a cached table exists.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Build (or load from the cache) the optimal table; print the expected score and the build time."""
    with guard():
        rules = _rules(rules_text)
        start = time.perf_counter()
        solver = _solver(rules, force=force, show_progress=not as_json, tasks=())
        seconds = time.perf_counter() - start
        from pasch.solver import table_path

        info = {
            "rules": rules.id,
            "expected_score": round(solver.expected_start, 6),
            "seconds": round(seconds, 4),
            "build_seconds": round(solver.build_seconds, 4),
            "from_cache": solver.from_cache,
            "table": str(table_path(rules)),
        }
        if as_json:
            print_json(info)
            return
        how = "loaded from cache" if solver.from_cache else f"built in {solver.build_seconds:.3f} s"
        console().print(f"{rules.id}: expected final score {solver.expected_start:.4f} ({how})", highlight=False)


@app.command("advise")
def advise_cmd(
    dice: Annotated[str, typer.Option("--dice", "-d", help="The five dice, e.g. 13356.")],
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    rolls_left: Annotated[int, typer.Option("--rolls-left", help="Throws still allowed this turn.")] = 0,
    sheet: Annotated[str, typer.Option("--sheet", help='Filled boxes, e.g. "ones=3 twos=6 yahtzee=50".')] = "",
    sharp: Annotated[
        bool | None, typer.Option("--sharp/--not-sharp", help="+sharp: dice from one throw of all five.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Every option in a situation with its value (expected remaining score), and the best one."""
    with guard():
        rules = _rules(rules_text)
        from pasch.dice import parse_dice

        roll = parse_dice(dice, rules.dice, rules.faces)
        if not 0 <= rolls_left < rules.throws:
            raise InvalidActionError(f"--rolls-left {rolls_left}: must be 0 to {rules.throws - 1}")
        scores = parse_sheet(rules, sheet)
        solver = _solver(rules)
        solver.state_key(scores)  # validates the sheet before any work
        options = solver.options(scores, roll, rolls_left, sharp)
        best = options[0]
        if as_json:
            print_json(
                {
                    "rules": rules.id,
                    "dice": list(roll),
                    "rolls_left": rolls_left,
                    "best": best.action_text,
                    "options": [
                        {"action": o.action_text, "value": round(o.value, 6), "points": o.points} for o in options
                    ],
                }
            )
            return
        from rich.table import Table

        table = Table(title=f"{rules.id}: dice {' '.join(map(str, roll))}, {rolls_left} rolls left")
        table.add_column("option")
        table.add_column("points now", justify="right")
        table.add_column("expected rest", justify="right")
        table.add_column("loss", justify="right")
        for o in options:
            table.add_row(
                o.action_text,
                "" if o.points is None else str(o.points),
                f"{o.value:.4f}",
                f"{best.value - o.value:.4f}",
            )
        out = console()
        out.print(table)
        out.print(f"best: {best.action_text} ({best.value:.4f})", highlight=False)


MAX_GAMES = 20_000_000
"""The most games one ``simulate`` plays (their scores are kept in memory: 160 MB)."""
MAX_SEED = 2**63 - 1
"""The largest seed (NumPy seeds the optimal bot's simulation with a signed 64-bit value)."""


def _play(rules: RuleSet, bot_name: str, games: int, seed: int) -> np.ndarray:
    from pasch.app import make_bot
    from pasch.engine import Game

    bot = make_bot(bot_name)
    out = np.zeros(games, np.int64)
    for g in range(games):
        rng = np.random.default_rng([seed, g])
        game = Game(rules, ["bot"], rng=rng)
        while not game.state.is_terminal:
            game.act(bot.choose(game.state, rng))
        out[g] = game.state.total(0)
    return out


@app.command("simulate")
def simulate_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Number of solo games (at most 20,000,000).")
    ] = 10000,
    bot: Annotated[
        str, typer.Option("--bot", help="optimal, greedy, random, multi (multi-column) or knaster.")
    ] = "optimal",
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice (0 to 2^63-1).")] = 0,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the score distribution (PNG).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Play seeded solo games with a bot: mean, sd, se, min, median, max and a histogram."""
    with guard():
        rules = get(rules_text)
        if bot not in ("optimal", "greedy", "random", "multi", "knaster"):
            raise InvalidActionError(f"--bot {bot!r}: choose optimal, greedy, random, multi or knaster")
        # Rule sets the exact solver does not cover: "optimal" means the strongest bot there is.
        exact = rules.kind is GameKind.SHEET and len(rules.columns) == 1
        if bot == "optimal" and not exact:
            bot = "multi" if rules.kind is GameKind.SHEET else "knaster"
        if plot is not None:
            plot = _plot_path(plot)
        start = time.perf_counter()
        scores = (
            _solver(rules, tasks=("simulate",)).simulate(games, seed)
            if bot == "optimal"
            else _play(rules, bot, games, seed)
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
            _plot(scores, plot, f"{rules.id}, {bot} bot, {games} games")
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


def _plot(scores: np.ndarray, path: Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidActionError("--plot needs matplotlib: pip install 'pasch[plot]'") from None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.hist(scores, bins=min(80, max(1, int(scores.max() - scores.min()) + 1)), color="#3060a0")
    ax.axvline(float(scores.mean()), color="#c03030", label=f"mean {scores.mean():.2f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


@app.command("review")
def review_cmd(
    log_path: Annotated[Path, typer.Argument(metavar="LOG", help="A finished game's log (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Each decision of a game: what was played, the best option and the expected points lost."""
    with guard():
        from pasch.app import review
        from pasch.engine import GameLog

        log = GameLog.load(log_path)
        rules = _rules(log.rules)
        _first_use_notice(rules, ())
        got = review(log)
        rows: list[dict[str, Any]] = [
            {
                "player": log.players[d.player],
                "dice": list(d.dice),
                "rolls_left": d.throws_left,
                "played": d.played,
                "best": d.best,
                "loss": round(d.loss, 6),
            }
            for d in got.decisions
        ]
        lost = got.lost
        totals = {name: got.totals[p] for p, name in enumerate(log.players)}
        summary: dict[str, Any] = {
            "rules": rules.id,
            "finished": got.finished,
            "decisions": rows,
            "lost": {name: round(lost[p], 6) for p, name in enumerate(log.players)},
            "totals": totals,
            "expected_start": round(got.expected_start, 6),
        }
        if got.finished:
            summary["luck"] = {name: round(got.luck(p) or 0.0, 6) for p, name in enumerate(log.players)}
        solver_start = got.expected_start
        if as_json:
            print_json(summary)
            return
        from rich.table import Table

        table = Table(title=f"review: {log_path.name} ({rules.id})")
        for head in ("player", "dice", "left", "played", "best", "lost"):
            table.add_column(head, justify="right" if head in ("left", "lost") else "left")
        for r in rows:
            mark = "" if r["loss"] < 1e-9 else f"{r['loss']:.3f}"
            table.add_row(
                r["player"], " ".join(map(str, r["dice"])), str(r["rolls_left"]), r["played"], r["best"], mark
            )
        out = console()
        out.print(table)
        for p, name in enumerate(log.players):
            out.print(
                f"{name}: final {totals[name]}, expected points lost {lost[p]:.3f} "
                f"(optimal play from the start expects {solver_start:.2f})"
                + ("" if got.luck(p) is None else f", luck {got.luck(p):+.2f}"),
                highlight=False,
            )
