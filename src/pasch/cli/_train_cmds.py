"""``pasch train``: learn the whole-sheet correction of a multi-column game from self-play (issue 28);
``pasch calibrate``: measure the level of its estimates; ``pasch model``: check a model file.

The method is in :mod:`pasch.bots._train`; the model and its file in :mod:`pasch.bots._sheetvalue`.
"""

from __future__ import annotations

import csv
import math
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from pasch.cli._app import app
from pasch.cli._common import check_output, err_console, fail, guard
from pasch.cli._solving import MAX_SEED
from pasch.errors import RuleSetError
from pasch.rules import GameKind, RuleSet, get


def _multi_column(rules_text: str, what: str) -> RuleSet:
    """The rule set ``rules_text`` names, which must be a multi-column sheet game.

    Raises:
        RuleSetError: unknown, or not a multi-column sheet game (the message begins with ``what``).
    """
    rules = get(rules_text)
    if rules.kind is not GameKind.SHEET or rules.n_columns < 2:
        raise RuleSetError(f"{rules.id}: {what} multi-column sheet games (jetsi, kniffel-3, ...)")
    return rules


@app.command("train")
def train_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help="A multi-column rule set.")] = (
        "kniffel-4"
    ),
    games: Annotated[int, typer.Option("--games", "-n", min=5, max=10_000_000, help="Games per generation.")] = 2000,
    generations: Annotated[
        int, typer.Option("--generations", "-g", min=1, max=1000, help="Rounds of self-play and fitting.")
    ] = 4,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice (0 to 2^63-1).")] = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="The model file to write (JSON).")] = Path("model.json"),
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=256, help="Local worker processes (default 1).")] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play on the running Ray cluster at ADDRESS: HOST:PORT of its head, ray://HOST:PORT or auto "
            "(needs the train extra and pasch on every node; the same results as locally).",
        ),
    ] = None,
    ridge: Annotated[float, typer.Option("--ridge", min=0.0, help="Ridge penalty per row.")] = 1e-4,
    scale: Annotated[
        float, typer.Option("--scale", min=0.0, max=1.0, help="Damping: play and keep scale x each fit.")
    ] = 1.0,
) -> None:
    """Learn a multi-column game's whole-sheet correction by fitted value iteration on self-play.

    Writes the model file, its learning curve beside it (OUT.curve.csv always, OUT.curve.png with the plot extra)
    and prints a line per generation. --scale S plays and keeps S times each fit (the shipped jetsi model: 0.3).
    """
    with guard():
        rules = _multi_column(rules_text, "pasch train learns")
        check_output(out, "--out")  # before hours of games, not after
        from pasch.bots.training import Generation, SheetModel, local_runner, ray_runner, save_model, train

        if ray is not None:
            if jobs > 1:
                fail("--jobs sets local processes; with --ray the cluster's CPUs play the games: give one of them")
            try:
                runner = ray_runner(ray)
            except ImportError:
                fail("--ray needs Ray: install the train extra (pip install 'pasch[train]')")
        else:
            runner = local_runner(jobs)
        curve_csv = out.with_name(out.name + ".curve.csv")
        err = err_console()
        header = "gen  games   mean  adjusted ± se  rows  rmse sum  rmse fit   seconds"
        err.print(f"{rules.id}: {generations} generations of {games} games, seed {seed}", highlight=False)
        err.print(header, highlight=False, markup=False)

        def progress(row: Generation) -> None:
            err.print(
                f"{row.generation:3d} {row.games:6d} {row.mean:6.1f} {row.adjusted:8.1f} ± {row.adjusted_se:3.1f} "
                f"{row.rows:6d} {row.rmse_sum:9.2f} {row.rmse_fit:9.2f} {row.seconds:9.1f}",
                highlight=False,
                markup=False,
            )

        result = train(rules, games, generations, seed, runner, ridge=ridge, scale=scale, progress=progress)
        command = "pasch train " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["train"] else sys.argv[1:])
        meta = {
            "command": command,
            "seed": seed,
            "games": games,
            "generations": generations,
            "ridge": ridge,
            "scale": scale,
            "curve": [r.__dict__ for r in result.curve],
            "fitted": [[round(float(x), 6) for x in w] for w in result.fitted],
        }
        checksum = save_model(SheetModel(rules, result.weights, meta), out)
        curve_csv.parent.mkdir(parents=True, exist_ok=True)
        with curve_csv.open("w", newline="") as fh:
            w = csv.writer(fh)
            fields = list(result.curve[0].__dict__)
            w.writerow(fields)
            for row in result.curve:
                w.writerow([getattr(row, f) for f in fields])
        written = [str(out), str(curve_csv)]
        png = _plot(result.curve, out.with_name(out.name + ".curve.png"), rules.id)
        if png is not None:
            written.append(str(png))
        typer.echo(f"wrote {', '.join(written)} (sha256 {checksum})")


def _plot(curve: Sequence[object], path: Path, title: str) -> Path | None:
    """The learning curve as a PNG (None: matplotlib, the plot extra, is not installed)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    gens = [getattr(r, "generation") for r in curve]  # noqa: B009
    adj = [getattr(r, "adjusted") for r in curve]  # noqa: B009
    se = [getattr(r, "adjusted_se") for r in curve]  # noqa: B009
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.5))
    ax1.errorbar(gens, adj, yerr=se, marker="o", capsize=3)
    ax1.set_xlabel("generation (policy w_g)")
    ax1.set_ylabel("luck-adjusted mean score")
    ax2.plot(gens, [getattr(r, "rmse_sum") for r in curve], marker="o", label="per-column sum")  # noqa: B009
    ax2.plot(gens, [getattr(r, "rmse_fit") for r in curve], marker="o", label="sum + fitted correction")  # noqa: B009
    ax2.set_xlabel("generation (data)")
    ax2.set_ylabel("held-out RMSE of the value (points)")
    ax2.legend()
    fig.suptitle(f"pasch train {title}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    os.chmod(path, 0o644)
    return path


@app.command("calibrate")
def calibrate_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help="A multi-column rule set.")] = (
        "kniffel-4"
    ),
    games: Annotated[int, typer.Option("--games", "-n", min=5, max=10_000_000, help="Solo games to play.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice (0 to 2^63-1).")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="The file to write (default: ID.offsets.json here; the shipped ones are src/pasch/bots/data/*).",
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=256, help="Local worker processes (default 1).")] = 1,
) -> None:
    """Measure how far the multi-column bot's estimates lie from what it scores, and write the offsets.

    Plays seeded solo games of the shipped bot and records, per number of filled boxes, the mean of its
    luck-adjusted return less its estimate of the option it chose. Advice and reviews add these offsets to every
    option's estimate (the ranking does not change). Prints the offsets every few boxes and the mean.
    """
    with guard():
        rules = _multi_column(rules_text, "pasch calibrate measures")
        from pasch.bots.training import Calibration, measure, save_calibration, settings_record

        target = Path(f"{rules.id}.offsets.json") if out is None else out
        check_output(target, "--out")
        err = err_console()
        err.print(f"{rules.id}: {games} games, seed {seed}, {jobs} process(es)", highlight=False)

        def progress(done: int, total: int) -> None:
            if done == total or done * 10 // total != (done - 1) * 10 // total:
                err.print(f"  {done}/{total} games", highlight=False)

        result = measure(rules, games, seed, jobs, progress)
        command = "pasch calibrate " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["calibrate"] else sys.argv[1:])
        meta = {
            "command": command,
            "seed": seed,
            "games": games,
            "mean": round(result.mean, 2),
            "mean_se": round(result.mean_se, 2),
            "start_estimate": round(result.start, 2),
            "se": [None if math.isnan(x) else x for x in result.se],  # None: fewer decisions than measured
            "decisions": list(result.decisions),
            **settings_record(rules),
        }
        digest = save_calibration(Calibration(rules, result.offsets, meta), target)
        step = max(1, len(result.offsets) // 12)
        typer.echo(f"{'filled':>6} {'offset':>8} {'se':>5} {'decisions':>9}")
        for f in range(0, len(result.offsets), step):
            typer.echo(f"{f:>6} {result.offsets[f]:>+8.2f} {result.se[f]:>5.2f} {result.decisions[f]:>9}")
        typer.echo(
            f"mean final total {result.mean:.1f} ± {result.mean_se:.1f}; the bot's estimate of the empty sheet "
            f"{result.start:.1f}, calibrated {result.start + result.offsets[0]:.1f}"
        )
        typer.echo(f"wrote {target} (sha256 {digest})")


@app.command("model")
def model_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help="A multi-column rule set.")] = (
        "kniffel-4"
    ),
    path: Annotated[
        Path | None, typer.Argument(help="A model file (default: the one shipped for the rules).", show_default=False)
    ] = None,
) -> None:
    """Check a learned model file (its checksum) and print where it came from; without FILE the shipped one, and
    the shipped calibration of the estimates (``pasch calibrate``)."""
    with guard():
        rules = get(rules_text)
        from pasch.bots.training import calibration_path, load_calibration, model_path, read_model

        target = model_path(rules.id) if path is None else path
        if path is None and not target.is_file():
            typer.echo(f"{rules.id}: no learned model ships; the multi-column bot plays the plain per-column sum")
        else:
            if not target.is_file():
                fail(f"{rules.id}: no model file at {target}")
            model = read_model(rules, target)
            meta = model.meta
            typer.echo(f"{target}: {rules.id}, {len(model.weights)} weights, checksum ok")
            typer.echo(f"made by: {meta.get('command', '?')} (seed {meta.get('seed', '?')})")
        if path is not None:
            return
        calibration = load_calibration(rules)
        if calibration is None:
            typer.echo(f"{rules.id}: no calibration ships; advice shows the bot's estimates as they are")
            return
        cm = calibration.meta
        typer.echo(
            f"{calibration_path(rules.id)}: {len(calibration.offsets)} offsets ({calibration.offsets[0]:+.1f} at the "
            f"empty sheet), checksum ok, measured with this version's bot settings and model"
        )
        typer.echo(f"made by: {cm.get('command', '?')} (seed {cm.get('seed', '?')}, {cm.get('games', '?')} games)")
