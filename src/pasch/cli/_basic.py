"""The basic commands: ``pasch rules``, ``rules show``, ``score``, ``replay`` and the plain ``play``.

The engine decides what is legal and what it scores; these commands parse text and draw results.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.table import Table

from pasch.app import Match, advise, parse_seats
from pasch.cli._app import app
from pasch.cli._common import (
    console,
    fail,
    guard,
    print_json,
    sheet_json,
    sheet_table,
    sheet_text,
    sheet_width,
    standings_json,
    standings_text,
    write_atomic,
)
from pasch.dice import counts_of, parse_dice
from pasch.engine import Action, GameLog, GameState, KnasterState, Roll, Score, State, replay
from pasch.errors import InvalidActionError, PaschError
from pasch.rules import BASES, MODIFIERS, GameKind, Order, RuleSet, Scorer, ScorerKind, get, score_options

__all__ = ["rules_app"]

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
    "players_opt": "Comma-separated player names in seat order (1 to 8); one name is a solo game.",
    "seed_opt": "Seed for the dice (the same seed and moves give the same game).",
    "plain_opt": "Line-based play on stdin/stdout (screen readers, pipes, scripts); the default when stdin is "
    "not a terminal or --save is given.",
    "lang_opt": "Language of the terminal app: de, en, es or it (default: the locale).",
    "resume_opt": "Continue the latest unfinished game saved by the terminal app (or game ID: --resume ID).",
    "resume_id": "With --resume: the id of the saved game to continue (see 'pasch history').",
    "resume_id_alone": "a game id is given only with --resume: pasch play --resume {id}",
    "bot_delay_opt": "Seconds each bot move stays visible in the terminal app.",
    "resume_plain": "--resume continues games of the terminal app; it is not available with --plain or piped input",
    "keeper_opt": "Score-keeper mode: the table throws real dice and enters them ('enter 1 3 3 5 6').",
    "save_opt": "Write the game log to this JSON file (after every move; replay with 'pasch replay').",
    "default_player": "Player 1",
    "list_title": "Rule sets",
    "col_id": "id",
    "col_desc": "description",
    "col_mods": "modifiers",
    "modifiers_title": "Modifiers (combine with +, e.g. kniffel-classic+forced+sharp)",
    "no_mods": "—",
    "no_box": "{rules} has no box {box!r}; boxes: {boxes}",
    "no_boxes": "{rules} has no boxes to score (it is played on a grid; try 'pasch play --rules {rules}')",
    "not_playable": "{rules} cannot be played yet: {why}",
    "unfinished": "the game is not finished: {n} actions replayed, {who} to move",
    "replay_head": "{name} ({rules}) · {players} · {n} actions · {status}",
    "finished": "finished",
    "in_progress": "in progress",
    "source": "Source: {source}",
    "dice_line": "{dice} dice, {throws} throws per turn, {lo} to {hi} players",
    "columns_line": "Columns: {columns}",
    "column_item": "{n}: {order}",
    "bonus_line": "Upper bonus: {amount} when the upper sum is at least {threshold}",
    "no_bonus": "Upper bonus: none",
    "joker_line": "Joker: {text}",
    "extra_line": "Extra five-alike: {text}",
    "strict_line": "Strict: a five-alike entered as full_house counts as a full house",
    "sharp_line": "Sharp: {boxes} score double when all dice came from one throw of all five",
    "boxes_title": "Boxes",
    "col_box": "box",
    "col_asks": "asks",
    "col_pays": "pays",
    "knaster_grid": "Grid: {n}x{n}; each turn {dice} dice are thrown and their sum is called",
    "knaster_lines": "Line values: rows {rows}; columns {cols}; diagonals {diags}",
    "knaster_combos": "Completed line with a combination -> circles: {combos}",
    "knaster_score": "Score: line values of fully circled lines + 1 per circled cell",
}

ORDER_TEXT = {
    Order.FREE: "free (any open box)",
    Order.DOWN: "top to bottom",
    Order.UP: "bottom to top",
    Order.ANNOUNCED: "announced after the first throw",
}

JOKER_TEXT = {
    "none": "none",
    "schmidt": "a further five-alike (five-alike box holding 50, matching upper box filled) fills any lower "
    "box at full value",
    "forced": "a further five-alike must take its open upper box, else any lower box at full value, else an "
    "upper box for 0",
    "free": "a further five-alike fills any open box, lower boxes at full value",
    "full_house": "with the five-alike box crossed out (0), a five-alike may be entered as full_house for 25",
}

EXTRA_TEXT = {
    "none": "no extra points",
    "upper50": "+50 extra when entered in its open matching upper box (five-alike box holding 50)",
    "bonus100": "+100 for every further five-alike when the five-alike box holds 50",
    "flat100": "a flat 100 in any lower box, or 100 + the dice in an upper box (not toward the bonus)",
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
    for e in entries:
        mods = " ".join(f"+{m}" for m in e["modifiers"]) or TEXT["no_mods"]
        table.add_row(e["id"], e["description"], mods)
    mods_table = Table(title=TEXT["modifiers_title"], title_justify="left", show_header=False)
    mods_table.add_column(no_wrap=True)
    mods_table.add_column()
    for name, desc in MODIFIERS.items():
        mods_table.add_row(f"+{name}", desc)
    out = console(width=120)
    out.print(table)
    out.print(mods_table)


def _asks_pays(scorer: Scorer, rules: RuleSet) -> tuple[str, str]:
    """What a box asks of the dice and what it pays, in words (display only)."""
    k = scorer.kind
    n = rules.dice
    fixed_or_sum = f"{scorer.points}" if scorer.points else "sum of all dice"
    if k is ScorerKind.FACE:
        return "any dice", f"sum of the {scorer.face}s"
    if k is ScorerKind.N_KIND:
        pays = "sum of all dice" if scorer.total else f"sum of the {scorer.n} alike"
        return f"at least {scorer.n} alike", pays
    if k is ScorerKind.ONE_PAIR:
        return "two alike", "sum of the highest pair"
    if k is ScorerKind.TWO_PAIRS:
        return "two pairs of different faces", "sum of those four dice"
    if k is ScorerKind.FULL_HOUSE:
        return "three of one face and two of another", fixed_or_sum
    if k is ScorerKind.STRAIGHT:
        return f"{scorer.n} in sequence", fixed_or_sum
    if k is ScorerKind.EXACT:
        return "exactly " + "-".join(str(f) for f in scorer.faces), fixed_or_sum
    if k is ScorerKind.ALL_ALIKE:
        return f"all {n} alike", fixed_or_sum
    return "anything", "sum of all dice"


@rules_app.command("show", help=TEXT["show_help"])
def rules_show(
    rule_id: Annotated[str, typer.Argument(metavar="ID", help=TEXT["rule_id"], show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=TEXT["json"])] = False,
) -> None:
    """Show one rule set: boxes, bonus, joker and extra policy, columns (ID may carry modifiers)."""
    with guard():
        rules = get(rule_id)
    base = BASES[rules.base]
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
    }
    lines: list[str] = [f"{rules.name} ({rules.id})", rules.description, TEXT["source"].format(source=base.source)]
    boxes: list[tuple[str, str, str, bool]] = []
    if rules.kind is GameKind.KNASTER and rules.knaster is not None:
        kn = rules.knaster
        info["knaster"] = {
            "size": kn.size,
            "row_values": list(kn.row_values),
            "column_values": list(kn.column_values),
            "diagonal_values": list(kn.diagonal_values),
            "combinations": dict(kn.combinations),
        }
        lines.append(TEXT["knaster_grid"].format(n=kn.size, dice=kn.dice))
        lines.append(
            TEXT["knaster_lines"].format(
                rows=" ".join(map(str, kn.row_values)),
                cols=" ".join(map(str, kn.column_values)),
                diags=" ".join(map(str, kn.diagonal_values)),
            )
        )
        lines.append(TEXT["knaster_combos"].format(combos=", ".join(f"{c} {v}" for c, v in kn.combinations)))
        lines.append(TEXT["knaster_score"])
    else:
        lines.append(
            TEXT["dice_line"].format(dice=rules.dice, throws=rules.throws, lo=rules.min_players, hi=rules.max_players)
        )
        cols = ", ".join(TEXT["column_item"].format(n=i + 1, order=ORDER_TEXT[o]) for i, o in enumerate(rules.columns))
        lines.append(TEXT["columns_line"].format(columns=cols))
        if rules.bonus_threshold is None:
            lines.append(TEXT["no_bonus"])
        else:
            lines.append(TEXT["bonus_line"].format(amount=rules.bonus, threshold=rules.bonus_threshold))
        lines.append(TEXT["joker_line"].format(text=JOKER_TEXT.get(rules.joker.value, rules.joker.value)))
        lines.append(TEXT["extra_line"].format(text=EXTRA_TEXT.get(rules.extra.value, rules.extra.value)))
        if rules.five_alike_full_house:
            lines.append(TEXT["strict_line"])
        doubled = [c.id for i, c in enumerate(rules.categories) if rules.doubles(i)]
        if doubled:
            lines.append(TEXT["sharp_line"].format(boxes=", ".join(doubled)))
        for i, cat in enumerate(rules.categories):
            asks, pays = _asks_pays(cat.scorer, rules)
            boxes.append((cat.id, asks, pays, rules.doubles(i)))
        info.update(
            {
                "columns": [o.value for o in rules.columns],
                "boxes": [
                    {"id": b, "upper": rules.categories[i].is_upper, "asks": a, "pays": p, "sharp_doubles": d}
                    for i, (b, a, p, d) in enumerate(boxes)
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
    for line in lines:
        out.print(line, markup=False, soft_wrap=True)
    if boxes:
        table = Table(title=TEXT["boxes_title"], title_justify="left", header_style="bold")
        table.add_column(TEXT["col_box"], no_wrap=True)
        table.add_column(TEXT["col_asks"])
        table.add_column(TEXT["col_pays"])
        for box, asks, pays, dbl in boxes:
            table.add_row(box, asks, pays + (" (x2 sharp)" if dbl else ""))
        out.print(table)


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
        options = score_options(rules, Order.FREE, empty, counts_of(values, rules.faces), sharp and rules.sharp)
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
    out.print(sheet_table(state))
    out.print(standings_text(state), markup=False)


# -- pasch play ---------------------------------------------------------------------------------------
PLAY_TEXT = {
    "intro": "pasch · {name} ({rules}) · {players}",
    "intro_hint": "Type 'help' for the commands, 'sheet' for the score sheet, 'quit' to stop.",
    "solo_hint": 'Solo game. For hot-seat play give the names: pasch play --players "Ada,Bob"',
    "turn_head": "── Round {round} of {rounds} · {name}'s turn · total {total} ──",
    "turn_head_other": "── {name} to act ──",
    "press_roll": "{name}, press Enter (or type 'roll') to throw.",
    "enter_dice": "{name}, enter the final dice thrown at the table: enter 1 3 3 5 6{sharp}",
    "enter_sharp": " [sharp]",
    "dice": "Dice: {dice}   throw {throws} of {max}, {left} left{served}",
    "served": "   (served: one throw of all dice)",
    "keep_hint": "  keep DICE          keep these dice, throw the others again (k 335; 'k' alone throws all)",
    "announce_hint": "  announce BOX       announced column: {boxes}",
    "must_announce": "  Only the announced column is open: announce one of its boxes first.",
    "options_head": "  Score options:",
    "option": "    {action:<{width}}  {points}",
    "joker": " (joker)",
    "doubled": " (x2 sharp)",
    "extra": " + {extra} extra",
    "legal": "  Legal: {actions}",
    "number": "Number called: {number}",
    "prompt": "{name}> ",
    "bad": "  ✗ {message}",
    "scored": "{name} scores {points}{extra} in {box}.",
    "game_over": "Game over.",
    "hint_exact": "  Expected final score with optimal play from here (best first):",
    "hint_row": "   {mark} {action:<{width}}  {value:8.2f}{delta}",
    "hint_delta": "  ({delta:+.2f} vs best)",
    "hint_bot": "  The strongest bot would play: {action}",
    "hint_enter": "  Throw the real dice and enter them (enter 1 3 3 5 6).",
    "bot_move": "{name} (bot): {action}",
    "eof": "(end of input: game stopped)",
    "quit": "Game stopped.",
    "saved": "Game log saved to {path} (replay it: pasch replay {path})",
    "help": """Commands (the engine checks every move; a refused move changes nothing):
  roll, r, or Enter        throw all dice at the start of a turn
  keep 3 3 5, k 335        keep these dice and throw the others again; 'k' alone throws all again
  score full_house         fill a box; the box alone works too: full_house, 'full house', fh, ch, 6 (sixes)
  score 2:full_house       multi-column games: the box in column 2
  announce yahtzee, a ...  kniffel-4: announce a box of the announced column after the first throw
  enter 1 3 3 5 6 [sharp]  score keeper: the final dice thrown at the table (e 13356)
  write 7 at b3, circle b3, pass    Knaster
  sheet                    show the score sheet
  options                  show the options again
  hint                     the best options with their exact values (or the strongest bot's move)
  help                     this text
  quit                     stop the game (the log is kept with --save)""",
}

_VERBS = {"roll", "keep", "throw", "enter", "score", "announce", "write", "circle", "pass"}
_SHORT_VERBS = {"r": "roll", "k": "keep", "e": "enter", "a": "announce", "w": "write", "c": "circle", "p": "pass"}
_BOX_ALIASES = {
    "fh": "full_house",
    "ss": "small_straight",
    "ls": "large_straight",
    "3k": "three_of_a_kind",
    "4k": "four_of_a_kind",
    "kniffel": "yahtzee",
    "yatzy": "yahtzee",
    "yacht": "yahtzee",
    "1": "ones",
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
}
_HELP_WORDS = {"help", "h", "?"}
_SHEET_WORDS = {"sheet", "show"}
_OPTION_WORDS = {"options", "o"}
_QUIT_WORDS = {"quit", "q", "exit", "stop"}
_HINT_WORDS = {"hint", "?hint"}
HINT_ROWS = 5
"""Options listed by ``hint`` (best first)."""


def resolve_box(word: str, box_ids: Sequence[str]) -> str | None:
    """The box id meant by ``word``: an id, an alias (fh, ss, 6, kniffel, ...) or a unique id prefix."""
    w = word.strip().lower().replace(" ", "_").replace("-", "_")
    if w in box_ids:
        return w
    alias = _BOX_ALIASES.get(w)
    if alias in box_ids:
        return alias
    matches = [b for b in box_ids if b.startswith(w)] if len(w) >= 2 else []
    return matches[0] if len(matches) == 1 else None


def expand_command(line: str, state: State) -> str:
    """Turn what a player typed (short forms included) into an action text for the engine.

    Only spelling is handled here; whether the action is legal is the engine's decision. Text that matches
    no short form goes to the engine unchanged, so its message explains what is wrong.
    """
    words = line.strip().lower().replace(",", " ").split()
    if not words:
        return ""
    box_ids: tuple[str, ...] = state.rules.category_ids
    verb, rest = words[0], words[1:]
    verb = _SHORT_VERBS.get(verb, verb) if (rest or verb in ("r", "k", "p")) else verb
    if verb in _VERBS:
        if verb in ("score", "announce") and len(rest) >= 1:
            target = "_".join(rest)
            col, sep, box = target.rpartition(":")
            found = resolve_box(box, box_ids)
            if found is not None:
                return f"{verb} {col}{sep}{found}"
        if verb == "write" and len(rest) == 2:
            return f"write {rest[0]} at {rest[1]}"
        return " ".join([verb, *rest])
    target = "_".join(words)
    col, sep, box = target.rpartition(":")
    found = resolve_box(box, box_ids)
    if found is not None and (not sep or col.isdigit()):
        return f"score {col}{sep}{found}"
    if len(words) == 1:
        # A Knaster cell alone ("b3"): the one legal move on that cell, if there is exactly one.
        fits = [str(a) for a in state.legal_actions() if str(a).endswith(f" {words[0]}")]
        if len(fits) == 1:
            return fits[0]
    return line.strip()


class PlainSession:
    """A line-based hot-seat game on stdin/stdout: prompts, short forms, help, sheet, quit, EOF."""

    def __init__(
        self,
        match: Match,
        save: Path | None = None,
        inp: TextIO | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.match = match
        self.game = match.game
        self.save_path = save
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.echo = not _isatty(self.inp)

    # -- output ------------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        """Write a line (or several)."""
        self.out.write(text + "\n")
        self.out.flush()

    def save(self, announce: bool = False) -> None:
        """Write the log so far to the ``--save`` file, if one was given.

        Raises:
            OSError: the file cannot be written.
        """
        if self.save_path is None:
            return
        write_atomic(self.save_path, self.game.log.to_json() + "\n")
        if announce:
            self.say(PLAY_TEXT["saved"].format(path=self.save_path))

    def show_turn(self) -> None:
        """Whose turn, the dice, throws left and every option with its score."""
        state = self.game.state
        if not isinstance(state, GameState):
            self._show_other(state)
            return
        rules = state.rules
        name = state.current_name
        if state.dice is None:
            self.say()
            self.say(
                PLAY_TEXT["turn_head"].format(
                    round=state.round,
                    rounds=rules.turns_per_player,
                    name=name,
                    total=state.total(state.current_player),
                )
            )
            if state.keeper:
                self.say(
                    PLAY_TEXT["enter_dice"].format(name=name, sharp=PLAY_TEXT["enter_sharp"] if rules.sharp else "")
                )
                self._show_announce(state)
            else:
                self.say(PLAY_TEXT["press_roll"].format(name=name))
            return
        served = PLAY_TEXT["served"] if state.sharp and rules.sharp else ""
        self.say(
            PLAY_TEXT["dice"].format(
                dice=" ".join(map(str, state.dice)),
                throws=state.throws,
                max=rules.throws,
                left=state.throws_left,
                served=served,
            )
        )
        legal = state.legal_actions()
        if any(str(a).startswith("keep") for a in legal):
            self.say(PLAY_TEXT["keep_hint"])
        self._show_announce(state)
        rows: list[tuple[str, str]] = []
        for c, opt in state.score_options():
            action = Score(rules.categories[opt.index].id, c + 1 if rules.n_columns > 1 else None)
            points = str(opt.points)
            if opt.doubled:
                points += PLAY_TEXT["doubled"]
            if opt.extra:
                points += PLAY_TEXT["extra"].format(extra=opt.extra)
            if opt.joker:
                points += PLAY_TEXT["joker"]
            rows.append((str(action), points))
        if rows:
            self.say(PLAY_TEXT["options_head"])
            width = max(len(a) for a, _ in rows)
            for action_text, points in rows:
                self.say(PLAY_TEXT["option"].format(action=action_text, width=width, points=points))

    def _show_announce(self, state: GameState) -> None:
        legal = [str(a) for a in state.legal_actions()]
        boxes = [a.split()[1] for a in legal if a.startswith("announce ")]
        if boxes:
            if len(boxes) == len(legal):
                self.say(PLAY_TEXT["must_announce"])
            self.say(PLAY_TEXT["announce_hint"].format(boxes=" ".join(boxes)))

    def _show_other(self, state: State) -> None:
        """Games without a box sheet (Knaster): the state's own drawing and the legal moves."""
        self.say()
        self.say(PLAY_TEXT["turn_head_other"].format(name=state.current_name))
        if isinstance(state, KnasterState):
            self.say(state.render(state.current_player))
        else:
            self.say(sheet_text(state))
        number = state.number if isinstance(state, KnasterState) else None
        if number is not None:
            self.say(PLAY_TEXT["number"].format(number=number))
        groups: dict[str, list[str]] = {}
        for a in state.legal_actions():
            head, _, last = str(a).rpartition(" ")
            groups.setdefault(head if head else str(a), []).append(last if head else "")
        parts = []
        for head, lasts in groups.items():
            parts.append(head if lasts == [""] else f"{head} " + "|".join(lasts))
        self.say(PLAY_TEXT["legal"].format(actions=", ".join(parts)))

    def prompt_name(self) -> str:
        """The name shown in the prompt: the player to act."""
        return self.game.state.current_name or "pasch"

    # -- input -------------------------------------------------------------------------------------
    def read(self) -> str | None:
        """One line from the input (None at end of input)."""
        prompt = PLAY_TEXT["prompt"].format(name=self.prompt_name())
        if self.inp is sys.stdin and not self.echo and self.out is sys.stdout:
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        self.say(line.rstrip("\n"))
        return line.rstrip("\n")

    # -- the loop ----------------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends, the player quits or the input ends.

        Raises:
            OSError: the ``--save`` file cannot be written.
        """
        game = self.game
        rules = game.rules
        self.say(PLAY_TEXT["intro"].format(name=rules.name, rules=rules.id, players=", ".join(game.state.players)))
        if len(game.state.players) == 1:
            self.say(PLAY_TEXT["solo_hint"])
        self.say(PLAY_TEXT["intro_hint"])
        self.save()
        shown: State | None = None
        while not game.state.is_terminal:
            if self.match.bot_to_move:
                self.bot_step()
                continue
            if game.state is not shown:
                self.show_turn()
                shown = game.state
            line = self.read()
            if line is None:
                self.say(PLAY_TEXT["eof"])
                self.save(announce=True)
                return
            word = line.strip().lower()
            if word in _HELP_WORDS:
                self.say(PLAY_TEXT["help"])
                continue
            if word in _SHEET_WORDS:
                self.say(sheet_text(game.state))
                continue
            if word in _OPTION_WORDS:
                self.show_turn()
                continue
            if word in _HINT_WORDS:
                self.show_hint()
                continue
            if word in _QUIT_WORDS:
                self.say(PLAY_TEXT["quit"])
                self.say(sheet_text(game.state))
                self.save(announce=True)
                return
            if not word:
                if game.state.legal_actions() != (Roll(),):
                    continue
                word = "roll"
            self.act(expand_command(word, game.state))
        self.say()
        self.say(PLAY_TEXT["game_over"])
        self.say(sheet_text(game.state))
        self.say(standings_text(game.state))
        self.save(announce=True)

    def show_hint(self) -> None:
        """The advice for the player to act (:func:`pasch.app.advise`): the best options with their values."""
        state = self.game.state
        if state.is_terminal or state.is_chance_node:
            return
        advice = advise(state)
        if advice.waiting_for_dice:
            self.say(PLAY_TEXT["hint_enter"])
        if advice.exact:
            self.say(PLAY_TEXT["hint_exact"])
            width = max((len(str(o.action)) for o in advice.options), default=0)
            for o in advice.top(HINT_ROWS):
                mark = "*" if o.best else " "
                delta = "" if o.best or o.delta is None else PLAY_TEXT["hint_delta"].format(delta=o.delta)
                self.say(
                    PLAY_TEXT["hint_row"].format(
                        mark=mark, action=str(o.action), width=width, value=o.value, delta=delta
                    )
                )
        elif advice.suggestion is not None:
            self.say(PLAY_TEXT["hint_bot"].format(action=advice.suggestion))

    def bot_step(self) -> None:
        """Let the bot to move play one action, and say what it did."""
        name = self.match.seat.name
        action = self.match.bot_action()
        self.say(PLAY_TEXT["bot_move"].format(name=name, action=action))
        self.act(str(action))

    def act(self, text: str) -> None:
        """Apply one action; a refused one prints why and leaves the game unchanged."""
        game = self.game
        before = game.state
        try:
            action = Action.parse(text)
            self.match.act(action)
        except PaschError as exc:
            self.say(PLAY_TEXT["bad"].format(message=exc))
            return
        after = game.state
        if isinstance(action, Score) and isinstance(before, GameState) and isinstance(after, GameState):
            p = before.current
            c = (action.column or 1) - 1
            i = before.rules.category_index(action.category)
            new_col = after.sheets[p].columns[c]
            gained = new_col.extra - before.sheets[p].columns[c].extra
            extra = PLAY_TEXT["extra"].format(extra=gained) if gained else ""
            box = str(action).removeprefix("score ")
            self.say(PLAY_TEXT["scored"].format(name=before.players[p], points=new_col.scores[i], extra=extra, box=box))
        self.save()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


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
        if resume:
            fail(TEXT["resume_plain"])
        rules = get(rules_text or "kniffel")
        seats = parse_seats(players or TEXT["default_player"])
        meta: dict[str, Any] = {"interface": "cli-plain"}
        if seed is not None:
            meta["seed"] = seed
        match = Match.new(rules, seats, seed=seed, keeper=keeper, meta=meta)
        session = PlainSession(match, save=save)
        session.run()
