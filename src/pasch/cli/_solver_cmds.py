"""Solver commands: ``pasch solve``, ``advise``, ``review`` (``simulate`` and ``duel``: :mod:`pasch.cli._sim_cmds`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from pasch.cli._app import app
from pasch.cli._common import console, guard, print_json
from pasch.cli._sheets import check_extra, parse_sheet, print_options
from pasch.cli._solving import (
    JSON_HELP,
    RULES_HELP,
    announce_tables,
    announce_win_tables,
    compile_notice,
    load_solver,
    single_column,
    single_column_rules,
)
from pasch.errors import InvalidActionError, RuleSetError
from pasch.rules import GameKind, get

__all__ = [
    "advise_cmd",
    "review_cmd",
    "solve_cmd",
]


@app.command("solve")
def solve_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=RULES_HELP)] = "yahtzee",
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if a cached table exists.")] = False,
    distribution: Annotated[
        bool,
        typer.Option(
            "--distribution", help="Also the exact final-score distribution of optimal play: sd, percentiles, P(>= s)."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Build (or load from the cache) the optimal table; print the expected score and the build time."""
    with guard(), compile_notice(on=as_json):  # else the progress bar says it
        rules = single_column_rules(rules_text)
        start = time.perf_counter()
        solver = load_solver(rules, force=force, show_progress=not as_json)
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
        if distribution:
            info.update(_distribution_summary(solver))
        if as_json:
            print_json(info)
            return
        how = "loaded from cache" if solver.from_cache else f"built in {solver.build_seconds:.3f} s"
        console().print(f"{rules.id}: expected final score {solver.expected_start:.4f} ({how})", highlight=False)
        if distribution:
            _print_distribution(info)


def _distribution_summary(solver: Any) -> dict[str, Any]:
    """Mean, sd, percentiles and P(score >= s) of the exact distribution from the empty sheet."""
    from pasch.solver import score_distribution

    if not score_distribution_cached(solver):
        from pasch.cli._common import err_console

        err_console().print("pasch: computing the exact score distribution (once per rule set; then cached)…")
    summary = score_distribution(solver).summary()
    summary["mean"] = round(summary["mean"], 6)
    summary["sd"] = round(summary["sd"], 6)
    summary["p_at_least"] = {k: round(v, 8) for k, v in summary["p_at_least"].items()}
    return summary


def score_distribution_cached(solver: Any) -> bool:
    """Whether the empty sheet's distribution of this solver's rule set is in the cache already."""
    from pasch.solver import distribution_path

    return bool(distribution_path(solver.rules).exists())


def _print_distribution(info: dict[str, Any]) -> None:
    out = console()
    out.print(f"distribution of optimal play: mean {info['mean']:.4f}, sd {info['sd']:.4f}", highlight=False)
    out.print(
        "percentiles: " + ", ".join(f"{q}%: {v}" for q, v in info["percentiles"].items()),
        highlight=False,
    )
    out.print(
        "P(score >= s): " + ", ".join(f"{s}: {100 * p:.3f} %" for s, p in info["p_at_least"].items()),
        highlight=False,
    )


@app.command("advise")
def advise_cmd(
    dice: Annotated[str, typer.Option("--dice", "-d", help="The five dice, e.g. 13356.")],
    rules_text: Annotated[
        str,
        typer.Option(
            "--rules",
            "-r",
            metavar="ID",
            help="Rule set, e.g. yahtzee, kniffel+forced, yatzy; jetsi, kniffel-3, kniffel-4 (the bot's estimate).",
        ),
    ] = "yahtzee",
    rolls_left: Annotated[int, typer.Option("--rolls-left", help="Throws still allowed this turn.")] = 0,
    sheet: Annotated[
        str,
        typer.Option(
            "--sheet",
            help='Filled boxes, e.g. "ones=3 twos=6 yahtzee=50 extra=100" (extra: five-alike bonuses earned); with '
            'several columns "1:ones=3 3:yahtzee=50".',
        ),
    ] = "",
    sharp: Annotated[
        bool | None, typer.Option("--sharp/--not-sharp", help="+sharp: dice from one throw of all five.")
    ] = None,
    objective: Annotated[
        str, typer.Option("--objective", help="expected (score), target (reach --target) or win (--opponent).")
    ] = "expected",
    target: Annotated[int | None, typer.Option("--target", help="The score to reach (--objective target).")] = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help='An opponent\'s sheet, e.g. "ones=3 chance=22" or "yahtzee=50 extra=100" (repeatable; '
            "--objective win).",
        ),
    ] = None,
    announced: Annotated[
        str | None,
        typer.Option("--announced", metavar="BOX", help="kniffel-4: the box announced after this turn's first throw."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Every option in a situation with its value (expected remaining score), and the best one.

    Single-column rule sets get the solver's exact values; jetsi, kniffel-3 and kniffel-4 the strongest bot's
    estimate of the final total, labelled as such.
    """
    with guard(), compile_notice():
        rules = get(rules_text)
        multi = rules.kind is GameKind.SHEET and rules.n_columns > 1
        if not multi:
            rules = single_column(rules)
        from pasch.dice import parse_dice

        roll = parse_dice(dice, rules.dice, rules.faces)
        if not 0 <= rolls_left < rules.throws:
            raise InvalidActionError(f"--rolls-left {rolls_left}: must be 0 to {rules.throws - 1}")
        if multi:
            if objective != "expected":
                raise InvalidActionError(
                    f"--objective {objective}: exact tables exist for single-column rule sets only; {rules.id} is "
                    "advised by the bot's estimate of the expected total"
                )
            from pasch.cli._multi_advice import advise_multi

            advise_multi(rules, roll, rolls_left, sheet, sharp, announced, as_json)
            return
        if announced is not None:
            raise InvalidActionError(f"--announced: {rules.id} has no announced column")
        scores, extra = parse_sheet(rules, sheet)
        check_extra(rules, scores, extra)
        _check_objective(objective, target, opponent)
        others = [parse_sheet(rules, text) for text in opponent or []]
        for other_scores, other_extra in others:
            check_extra(rules, other_scores, other_extra)
        solver = load_solver(rules)
        from pasch.solver import check_sheet

        # A sheet the rules make impossible (fill order, five-alike box) is refused: the player's and each opponent's.
        for column in (scores, *(other for other, _ in others)):
            check_sheet(solver, column)
        if objective != "expected":
            _advise_objective(
                solver, scores, extra, roll, rolls_left, sharp, objective, target, opponent or [], others, as_json
            )
            return
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
        print_options(
            rules,
            roll,
            rolls_left,
            "",
            ("expected rest", "loss"),
            ((o.action_text, o.points, f"{o.value:.4f}", f"{best.value - o.value:.4f}") for o in options),
            f"best: {best.action_text} ({best.value:.4f})",
        )


OBJECTIVES = ("expected", "target", "win")


def _check_objective(objective: str, target: int | None, opponents: list[str] | None) -> None:
    """Raises InvalidActionError for an unknown objective or one missing its --target / --opponent."""
    if objective not in OBJECTIVES:
        raise InvalidActionError(f"--objective {objective!r}: choose {', '.join(OBJECTIVES)}")
    if objective == "target" and (target is None or target < 1):
        raise InvalidActionError("--objective target needs --target N (a score of at least 1)")
    if objective == "win" and not opponents:
        raise InvalidActionError('--objective win needs at least one --opponent "SHEET"')
    if objective != "target" and target is not None:
        raise InvalidActionError("--target goes with --objective target")
    if objective != "win" and opponents:
        raise InvalidActionError("--opponent goes with --objective win")


def _advise_objective(
    solver: Any,
    scores: list[int | None],
    extra: int,
    roll: tuple[int, ...],
    rolls_left: int,
    sharp: bool | None,
    objective: str,
    target: int | None,
    opponents: list[str],
    others: list[tuple[list[int | None], int]],
    as_json: bool,
) -> None:
    """``advise --objective target|win``: every option with its probability of reaching the target or winning
    (``extra``: this player's extra five-alike points; ``others``: each opponent's column and extra points, read
    from ``opponents``)."""
    from pasch.rules import column_totals
    from pasch.solver import score_distribution, target_table, win_files, win_pair

    rules = solver.rules
    files = win_files(solver)
    if objective == "target":
        assert target is not None
        reach = column_totals(rules, scores, extra).total + files.width - 1
        if target > reach:  # before any table is built: the table covers width - 1 more points
            raise InvalidActionError(
                f"--target {target}: {rules.id}'s threshold table answers targets up to {reach} from this sheet "
                f"({files.width - 1} more points)"
            )
    if objective == "win":  # the rule of bot:win and the hints: the threshold table blended with the survival table
        announce_tables(files, (files.target, files.survival))
        table, _ = win_pair(solver)
    else:
        announce_tables(files, (files.target,))
        table = target_table(solver)
    info: dict[str, Any] = {"rules": rules.id, "dice": list(roll), "rolls_left": rolls_left, "objective": objective}
    if objective == "target":
        assert target is not None
        options = table.options(scores, roll, rolls_left, target, sharp, extra)
        info["target"] = target
    else:
        dists = [score_distribution(solver, s, extra=e) for s, e in others]
        options = table.win_options(scores, roll, rolls_left, dists, sharp, extra)
        info["opponents"] = [
            {"sheet": text, "expected_final": round(d.mean, 6)} for text, d in zip(opponents, dists, strict=True)
        ]
    best = options[0]
    info["best"] = best.action_text
    info["options"] = [
        {"action": o.action_text, "probability": round(o.probability, 6), "points": o.points} for o in options
    ]
    if as_json:
        print_json(info)
        return
    what = f"P(score >= {target})" if objective == "target" else "P(win)"
    print_options(
        rules,
        roll,
        rolls_left,
        f", {what}",
        (what,),
        ((o.action_text, o.points, f"{100 * o.probability:.2f} %") for o in options),
        f"best: {best.action_text} ({what} = {100 * best.probability:.2f} %)",
    )


@app.command("review")
def review_cmd(
    log_path: Annotated[Path, typer.Argument(metavar="LOG", help="A finished game's log (JSON).")],
    win: Annotated[
        bool,
        typer.Option(
            "--win", help="Games of several players: P(win) before and after each decision (threshold tables)."
        ),
    ] = False,
    percentile: Annotated[
        bool,
        typer.Option(
            "--percentile",
            help="A finished game's share of optimal games beaten, even when the exact score distribution "
            "must be computed first (once per rule set; then cached and shown without this option).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Each decision of a game: what was played, the best option and the expected points lost (several
    columns: against the strongest bot's estimate, not exact)."""
    with guard(), compile_notice():
        from pasch.app import percentile_cached, review, reviewable
        from pasch.cli._common import err_console
        from pasch.engine import GameLog

        log = GameLog.load(log_path)
        rules = get(log.rules)
        if not reviewable(rules, estimated=True):
            raise RuleSetError(f"{rules.id}: a review needs a sheet game (not Knaster)")
        if win and len(log.players) > 1 and reviewable(rules):
            announce_win_tables(rules)
        if percentile and reviewable(rules) and not percentile_cached(rules):
            err_console().print(
                "pasch: computing the exact score distribution of optimal play (once per rule set; then cached)…"
            )
        got = review(log, win=win, percentile=True if percentile else None)
        if got.finished and got.beats is None and not got.estimated:
            err_console().print(
                "pasch: the share of optimal games beaten needs the exact score distribution, computed once "
                "per rule set (about a minute): add --percentile, or run pasch solve --distribution."
            )
        rows: list[dict[str, Any]] = [_review_row(log.players[d.player], d) for d in got.decisions]
        lost = got.lost
        totals = {name: got.totals[p] for p, name in enumerate(log.players)}
        summary: dict[str, Any] = {
            "rules": rules.id,
            "finished": got.finished,
            "decisions": rows,
            "lost": {name: round(lost[p], 6) for p, name in enumerate(log.players)},
            "totals": totals,
            "expected_start": round(got.expected_start, 6),
            "estimated": got.estimated,
        }
        if got.finished and not got.estimated:  # the bot's estimates have no luck split
            summary["luck"] = {name: round(got.luck(p) or 0.0, 6) for p, name in enumerate(log.players)}
        if got.beats is not None:
            summary["beats"] = {name: round(got.beats[p], 6) for p, name in enumerate(log.players)}
        solver_start = got.expected_start
        if as_json:
            print_json(summary)
            return
        from rich.table import Table

        # Several columns: every value is the strongest bot's estimate, said so in the title and the totals.
        how = ", against the bot's estimate, not exact" if got.estimated else ""
        table = Table(title=f"review: {log_path.name} ({rules.id}{how})")
        heads = ["player", "dice", "left", "played", "best", "lost"]
        with_win = any("p_win_before" in r for r in rows)
        if with_win:
            heads += ["P(win) before", "after"]
        for head in heads:
            table.add_column(head, justify="left" if head in ("player", "dice", "played", "best") else "right")
        for r in rows:
            mark = "" if r["loss"] < 1e-9 else f"{r['loss']:.3f}"
            cells = [r["player"], " ".join(map(str, r["dice"])), str(r["rolls_left"]), r["played"], r["best"], mark]
            if with_win:
                cells += [f"{100 * r['p_win_before']:.1f} %", f"{100 * r['p_win_after']:.1f} %"]
            table.add_row(*cells)
        out = console()
        out.print(table)
        for p, name in enumerate(log.players):
            if got.estimated:
                out.print(
                    f"{name}: final {totals[name]}, points lost {lost[p]:.3f} by the strongest bot's estimate, "
                    f"not exact (its estimate from the start: {solver_start:.2f})",
                    highlight=False,
                )
                continue
            out.print(
                f"{name}: final {totals[name]}, expected points lost {lost[p]:.3f} "
                f"(optimal play from the start expects {solver_start:.2f})"
                + ("" if got.luck(p) is None else f", luck {got.luck(p):+.2f}")
                + ("" if got.beats is None else f"; beats {100 * got.beats[p]:.1f} % of optimal games"),
                highlight=False,
            )


def _review_row(player: str, d: Any) -> dict[str, Any]:
    """One decision of ``pasch review`` as a JSON row (P(win) only when the review computed it)."""
    row: dict[str, Any] = {
        "player": player,
        "dice": list(d.dice),
        "rolls_left": d.throws_left,
        "played": d.played,
        "best": d.best,
        "loss": round(d.loss, 6),
    }
    if d.p_win_before is not None:
        row["p_win_before"] = round(d.p_win_before, 6)
        row["p_win_after"] = round(d.p_win_after, 6)
    return row
