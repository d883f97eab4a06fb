"""The basic commands: ``pasch rules``, ``rules show``, ``score``, ``replay`` and ``play`` (plain mode in ``_plain``).

The engine decides what is legal and what it scores; these commands parse text and draw results.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pasch.app import Match, Recorder, parse_seats, rules_card
from pasch.cli._app import app
from pasch.cli._common import (
    console,
    fail,
    guard,
    print_json,
    sheet_json,
    sheet_table,
    sheet_width,
    standings_json,
    standings_text,
)
from pasch.cli._plain import PlainSession, expand_command, resolve_box
from pasch.dice import counts_of, parse_dice
from pasch.engine import GameLog, KnasterState, State, replay
from pasch.errors import InvalidActionError
from pasch.i18n import _, get_language, set_language
from pasch.rules import BASES, MODIFIERS, GameKind, Order, get, score_options

__all__ = ["expand_command", "resolve_box", "rules_app"]

TEXT = {
    "rules_help": "List the rule sets (with the modifiers each accepts), or show one with 'rules show ID'.",
    "show_help": "Show a rule set's boxes, bonus, joker and extra-points rules and columns.",
    "score_help": "Score five dice in one box of an empty sheet: pasch score --rules kniffel full_house 3 3 5 5 5",
    "replay_help": "Replay a saved game log and print the final sheet and standings.",
    "play_help": "Play a game in the terminal (hot-seat: players take turns at one keyboard).",
    "json": "Print one JSON object on stdout.",
    "rules_opt": "Rule set, e.g. kniffel, yahtzee, yatzy, kniffel-classic+sharp (see 'pasch rules').",
    "rule_id": "Rule-set text: a base id plus +modifiers, e.g. kniffel-classic+forced+sharp.",
    "category": "Box id, e.g. full_house (see 'pasch rules show ID').",
    "dice": "The dice, e.g. 3 3 5 5 5 (or 33555).",
    "sharp_opt": "The dice came from one throw of all five (+sharp doubles some boxes).",
    "log_arg": "A game log written by 'pasch play --save'.",
    "players_opt": "Comma-separated player names in seat order (1 to 8; 1 to 20 in yatzy, yahtzee, jetsi and "
    "knaster); one name is a solo game.",
    "seed_opt": "Seed for the dice (the same seed and moves give the same game).",
    "plain_opt": "Line-based play on stdin/stdout (screen readers, pipes, scripts); the default when stdin is "
    "not a terminal or --save is given.",
    "lang_opt": "Language of the game (the terminal app and --plain): de, en, es or it (default: the locale).",
    "resume_opt": "Continue the latest unfinished game (every step is saved; or game ID: --resume ID).",
    "resume_id": "With --resume: the id of the saved game to continue (see 'pasch history').",
    "resume_id_alone": "a game id is given only with --resume: pasch play --resume {id}",
    "bot_delay_opt": "Seconds each bot move stays visible in the terminal app.",
    "resume_none": "no unfinished game to resume (see 'pasch history')",
    "unsaved": "the game is not saved in the games database: {reason}",
    "keeper_opt": "Score-keeper mode: the table throws real dice and enters them ('enter 1 3 3 5 6').",
    "save_opt": "Write the game log to this JSON file (after every move; replay with 'pasch replay').",
    "default_player": "Player 1",
    "list_title": "Rule sets",
    "col_id": "id",
    "col_desc": "description",
    "col_mods": "modifiers",
    "col_players": "players",
    "modifiers_title": "Modifiers (combine with +, e.g. kniffel-classic+forced+sharp)",
    "no_mods": "—",
    "no_box": "{rules} has no box {box!r}; boxes: {boxes}",
    "no_sharp": "--sharp: {rules} has no sharp rule (nothing is doubled); use --rules {rules}+sharp",
    "no_boxes": "{rules} has no boxes to score (it is played on a grid; try 'pasch play --rules {rules}')",
    "not_playable": "{rules} cannot be played yet: {why}",
    "unfinished": "the game is not finished: {n} actions replayed, {who} to move",
    "replay_head": "{name} ({rules}) · {players} · {n} actions · {status}",
    "finished": "finished",
    "in_progress": "in progress",
    "source": "Source: {source}",
    "card_lang": "Language of the card: de, en, es or it (default: en).",
}

rules_app = typer.Typer(help=TEXT["rules_help"], no_args_is_help=False, add_completion=False)
app.add_typer(rules_app, name="rules")


# -- pasch rules -------------------------------------------------------------------------------------
@rules_app.callback(invoke_without_command=True)
def rules_list(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help=TEXT["json"])] = False,
) -> None:
    """List the rule sets with one-line descriptions and the modifiers each accepts."""
    if ctx.invoked_subcommand is not None:
        return
    mod_order = list(MODIFIERS)
    entries: list[dict[str, Any]] = []
    for base_id, base in BASES.items():
        rs = base.rules
        entries.append(
            {
                "id": base_id,
                "name": rs.name,
                "description": rs.description,
                "source": base.source,
                "modifiers": [m for m in mod_order if m in base.accepts],
                "columns": rs.n_columns,
                "players": [rs.min_players, rs.max_players],
            }
        )
    if as_json:
        print_json({"rule_sets": entries, "modifiers": dict(MODIFIERS)})
        return
    table = Table(title=TEXT["list_title"], title_justify="left", header_style="bold")
    table.add_column(TEXT["col_id"], no_wrap=True)
    table.add_column(TEXT["col_desc"])
    table.add_column(TEXT["col_mods"], no_wrap=True)
    table.add_column(TEXT["col_players"], no_wrap=True, justify="right")
    for e in entries:
        mods = " ".join(f"+{m}" for m in e["modifiers"]) or TEXT["no_mods"]
        low, high = e["players"]
        table.add_row(e["id"], e["description"], mods, f"{low}–{high}")
    mods_table = Table(title=TEXT["modifiers_title"], title_justify="left", show_header=False)
    mods_table.add_column(no_wrap=True)
    mods_table.add_column()
    for name, desc in MODIFIERS.items():
        mods_table.add_row(f"+{name}", desc)
    out = console(width=120)
    out.print(table)
    out.print(mods_table)


@rules_app.command("show", help=TEXT["show_help"])
def rules_show(
    rule_id: Annotated[str, typer.Argument(metavar="ID", help=TEXT["rule_id"], show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=TEXT["json"])] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=TEXT["card_lang"])] = None,
) -> None:
    """Show one rule set's rules card (:func:`pasch.app.rules_card`, the terminal app's and the web page's too):
    how a turn goes, every box with what it asks and pays, bonus, joker, extra points; ID may carry modifiers."""
    with guard():
        set_language(lang or "en")
        rules = get(rule_id)
    base = BASES[rules.base]
    card = rules_card(rules)
    info: dict[str, Any] = {
        "id": rules.id,
        "name": rules.name,
        "description": rules.description,
        "source": base.source,
        "kind": rules.kind.value,
        "modifiers": list(rules.modifiers),
        "accepts": [m for m in MODIFIERS if m in base.accepts],
        "dice": rules.dice,
        "throws": rules.throws,
        "players": [rules.min_players, rules.max_players],
        "card": card.to_dict(),
    }
    if rules.kind is GameKind.KNASTER and rules.knaster is not None:
        kn = rules.knaster
        info["knaster"] = {
            "size": kn.size,
            "row_values": list(kn.row_values),
            "column_values": list(kn.column_values),
            "diagonal_values": list(kn.diagonal_values),
            "combinations": dict(kn.combinations),
        }
    else:
        info.update(
            {
                "columns": [o.value for o in rules.columns],
                "boxes": [
                    {"id": b.id, "upper": b.upper, "asks": b.asks, "pays": b.pays, "sharp_doubles": b.sharp_doubles}
                    for b in card.boxes
                ],
                "bonus": {"threshold": rules.bonus_threshold, "amount": rules.bonus},
                "joker": rules.joker.value,
                "extra": rules.extra.value,
                "five_alike_full_house": rules.five_alike_full_house,
                "sharp": rules.sharp,
            }
        )
    if as_json:
        print_json(info)
        return
    out = console(width=120)
    head = [card.title, card.description, TEXT["source"].format(source=base.source)]
    for line in [*head, *([card.modifiers_line] if card.modifiers else []), "", *card.turn]:
        out.print(line, markup=False, soft_wrap=True)
    table = Table(header_style="bold")
    if card.boxes:
        table.add_column("id", no_wrap=True)
    for k, title in enumerate(card.head):
        table.add_column(title, no_wrap=k == 0)
    for k, row in enumerate(card.rows):
        table.add_row(*((card.boxes[k].id,) if card.boxes else ()), *row)
    out.print(table)
    for line in card.scoring:
        out.print(line, markup=False, soft_wrap=True)


# -- pasch score --------------------------------------------------------------------------------------
@app.command("score", help=TEXT["score_help"])
def score_cmd(
    category: Annotated[str, typer.Argument(metavar="CATEGORY", help=TEXT["category"], show_default=False)],
    dice: Annotated[list[str], typer.Argument(metavar="D1 D2 D3 D4 D5", help=TEXT["dice"], show_default=False)],
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=TEXT["rules_opt"])] = "kniffel",
    sharp: Annotated[bool, typer.Option("--sharp", help=TEXT["sharp_opt"])] = False,
    as_json: Annotated[bool, typer.Option("--json", help=TEXT["json"])] = False,
) -> None:
    """Print the score of the dice in one box of an empty sheet (the engine's scoring, fill order ignored)."""
    with guard():
        rules = get(rules_text)
        if rules.kind is not GameKind.SHEET:
            fail(TEXT["no_boxes"].format(rules=rules.id))
        if sharp and not rules.sharp:
            fail(TEXT["no_sharp"].format(rules=rules.id))
        box = category.strip().lower()
        if not rules.has_category(box):
            fail(TEXT["no_box"].format(rules=rules.id, box=category, boxes=", ".join(rules.category_ids)))
        shown = " ".join(dice)
        try:
            values = parse_dice(shown, n=rules.dice, faces=rules.faces)
        except InvalidActionError as exc:
            fail(str(exc) if repr(shown) in str(exc) else f"dice {shown!r}: {exc}")
        index = rules.category_index(box)
        empty = tuple(None for _ in rules.categories)
        options = score_options(rules, Order.FREE, empty, counts_of(values, rules.faces), sharp)
        option = next(o for o in options if o.index == index)
    if as_json:
        print_json(
            {
                "rules": rules.id,
                "category": box,
                "dice": list(values),
                "score": option.total,
                "doubled": option.doubled,
            }
        )
        return
    typer.echo(str(option.total))


# -- pasch replay --------------------------------------------------------------------------------------
@app.command("replay", help=TEXT["replay_help"])
def replay_cmd(
    log_path: Annotated[Path, typer.Argument(metavar="LOG", help=TEXT["log_arg"], show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=TEXT["json"])] = False,
) -> None:
    """Rebuild a logged game exactly and print its final sheet and standings."""
    with guard():
        log = GameLog.load(log_path)
        state = replay(log)
    with guard():
        _print_replay(state, log, as_json)


def _print_replay(state: State, log: GameLog, as_json: bool) -> None:
    finished = bool(state.is_terminal)
    if as_json:
        print_json(
            {
                "rules": state.rules.id,
                "players": list(state.players),
                "actions": len(log.actions),
                "finished": finished,
                "totals": dict(zip(state.players, state.totals(), strict=True)),
                "standings": standings_json(state),
                "sheets": sheet_json(state),
            }
        )
        return
    out = console(width=sheet_width(state))
    status = TEXT["finished"] if finished else TEXT["in_progress"]
    out.print(
        TEXT["replay_head"].format(
            name=state.rules.name,
            rules=state.rules.id,
            players=", ".join(state.players),
            n=len(log.actions),
            status=status,
        ),
        markup=False,
    )
    if isinstance(state, KnasterState):
        for p in range(len(state.players)):
            out.print(state.render(p), markup=False, highlight=False)
            out.print()
    out.print(sheet_table(state))
    out.print(standings_text(state), markup=False)


# -- pasch play ---------------------------------------------------------------------------------------
def _unsaved(reason: str) -> None:
    """A database that cannot be written: one notice on stderr (the game goes on)."""
    warnings.warn(TEXT["unsaved"].format(reason=reason), stacklevel=2)


@app.command("play", help=TEXT["play_help"])
def play_cmd(
    rules_text: Annotated[str | None, typer.Option("--rules", "-r", metavar="ID", help=TEXT["rules_opt"])] = None,
    players: Annotated[str | None, typer.Option("--players", "-p", metavar="NAMES", help=TEXT["players_opt"])] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="S", min=0, max=2**63 - 1, help=TEXT["seed_opt"])
    ] = None,
    plain: Annotated[bool, typer.Option("--plain", help=TEXT["plain_opt"])] = False,
    keeper: Annotated[bool, typer.Option("--keeper", help=TEXT["keeper_opt"])] = False,
    save: Annotated[Path | None, typer.Option("--save", metavar="LOG.json", help=TEXT["save_opt"])] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=TEXT["lang_opt"])] = None,
    resume: Annotated[bool, typer.Option("--resume", help=TEXT["resume_opt"])] = False,
    bot_delay: Annotated[float, typer.Option("--bot-delay", metavar="SECONDS", help=TEXT["bot_delay_opt"])] = 0.6,
    game_id: Annotated[
        int | None, typer.Argument(metavar="ID", min=1, help=TEXT["resume_id"], show_default=False)
    ] = None,
) -> None:
    """Play in the terminal: the Textual app on a terminal, line-based with --plain or piped input."""
    with guard():
        if game_id is not None and not resume:
            fail(TEXT["resume_id_alone"].format(id=game_id))
        if not plain and save is None and sys.stdin.isatty() and sys.stdout.isatty():
            from pasch.tui import run as run_tui

            run_tui(
                rules_text,
                players,
                lang,
                bot_delay,
                game_id if game_id is not None else resume,
                keeper=keeper,
                seed=seed,
            )
            return
        recorder = Recorder(on_error=_unsaved)
        if resume:
            match = recorder.unfinished(game_id, keeper=keeper, seed=seed)
            if match is None:
                fail(TEXT["resume_none"])
            game_lang = match.log.meta.get("lang")
            set_language(lang if lang is not None or not isinstance(game_lang, str) else game_lang)
        else:
            set_language(lang)
            rules = get(rules_text or "kniffel")
            seats = parse_seats(players or _(TEXT["default_player"]))
            meta: dict[str, Any] = {"interface": "cli-plain", "lang": get_language()}
            if seed is not None:
                meta["seed"] = seed
            match = Match.new(rules, seats, seed=seed, keeper=keeper, meta=meta)
        session = PlainSession(match, save=save, recorder=recorder)
        session.run()
