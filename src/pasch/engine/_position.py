"""Position text: one line that holds everything of a game state (the FEN of pasch).

``state.to_text()`` writes it, :func:`from_text` reads it back: ``from_text(t).to_text() == t`` and
``from_text(s.to_text()) == s`` for every state ``s`` of a catalogue rule set. Fields are separated by one
space; the text starts with the version word ``pasch1``.

Grammar (ABNF-like; ``SP`` is one space, ``N`` a decimal number without leading zeros)::

    position  = "pasch1" SP rules SP mode SP names SP (sheet-body / knaster-body)
    rules     = canonical rule-set text, e.g. "kniffel-classic+forced+sharp"
    mode      = "play" / "keeper"                   ; keeper: score-keeper mode
    names     = name *("," name)                    ; seat order
    name      = the name, with "%", "," and every blank or unprintable character written as
                %XX (each UTF-8 byte, upper-case hex); every other character (any script) as it is

    sheet-body   = sheets SP seat SP turn SP dice SP throws SP flags
    sheets       = sheet *("/" sheet)               ; one per player, seat order
    sheet        = column *("|" column)             ; the rule set's columns, in order
    column       = box *("," box) ["+" N]           ; boxes in sheet order; "+N": extra points earned
    box          = "-" / N ["*"]                    ; "-": open; "*": doubled by +sharp
    seat         = N                                ; 0-based seat of the player to act
    turn         = N                                ; turns completed, all players together
    dice         = "-" / *die ["+" N]               ; "-": none this turn; dice on the table (kept dice
                                                    ; while a throw is in the air), then "+N": N dice
                                                    ; in the air; "+5" right after "roll"
    throws       = N                                ; throws made this turn
    flags        = "-" / flag *("," flag)
    flag         = "sharp" / "announced=" box-id    ; sharp: the dice came from one throw of all dice

    knaster-body = grids SP thrower SP seat SP throws SP dice SP acted SP duties SP kflags
    grids        = grid *("/" grid)                 ; one per player, seat order
    grid         = row 4("|" row)                   ; rows 1 to 5
    row          = 5cell                            ; columns a to e
    cell         = "." / number ["*"]               ; ".": empty; "*": circled
    number       = die                              ; 2-9, "a" = 10, "b" = 11, "c" = 12
    thrower      = N                                ; seat of the player who throws this number
    seat         = N                                ; seat of the player to act
    throws       = N                                ; numbers called so far, the current one included
    dice         = "-" / 2die / "+" N               ; no number yet / the dice that fell (the called
                                                    ; number is their sum) / dice in the air
    acted        = N                                ; players done with the current number
    duties       = "-" / duty *("," duty)
    duty         = ["@"] line ":" combination ":" N ; circles still owed in a completed line;
                                                    ; "@": the line the last duty circle counted for
    line         = "row1" .. "row5" / "cola" .. "cole" / "diag" (a1-e5) / "anti" (e1-a5)
    kflags       = "-" / "end" / "end,over"         ; end announced (last number) / game over

    die          = one character: "1"-"9", then "a" = 10, "b" = 11, ... "z" = 35

Examples: a two-player Kniffel game in its second turn: Ada has 19 in chance; Bob (seat 1) threw once,
kept his two threes, and three dice are in the air (the kept dice came from one throw of all dice)::

    pasch1 kniffel play Ada,Bob -,-,-,-,-,-,-,-,-,-,-,-,19/-,-,-,-,-,-,-,-,-,-,-,-,- 1 1 33+3 1 sharp

and Knaster: Ada threw 4 5 (number 9, the ninth number called) and wrote it at d4, completing column d
(6 10 7 9 8), a straight worth three circles; she has circled the 8 and owes two more there::

    pasch1 knaster play Ada,Bob ...63|...a.|...7.|..696|...8*2/...62|.78.6|a...3|.....|...6. 0 0 9 45 0
        @cold:straight:2 -

(one line; broken here for width).

The text must be exactly what :meth:`to_text` writes (canonical): a text that reads but would be written
differently is refused, so that one position has one text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from pasch.engine._knaster import KnasterState, LineDuty
from pasch.engine._knaster_grid import COMBINATIONS, LINE_MASKS, N_CELLS, KnasterGrid, check_combinations
from pasch.engine._protocol import State
from pasch.engine._state import ColumnSheet, GameState, PlayerSheet
from pasch.errors import PaschError, PositionError
from pasch.rules import GameKind, RuleSet, get

__all__ = ["VERSION", "from_text", "game_text", "knaster_text"]

#: The version word every position text starts with.
VERSION = "pasch1"

_SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
_SYMBOL_VALUE = {ch: i for i, ch in enumerate(_SYMBOLS)}
_LINE_TOKENS: tuple[str, ...] = (
    *(f"row{r + 1}" for r in range(5)),
    *(f"col{chr(ord('a') + c)}" for c in range(5)),
    "diag",
    "anti",
)
_LINE_OF_TOKEN = {t: k for k, t in enumerate(_LINE_TOKENS)}
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
_NAME = re.compile(r"(?:[^%]|%[0-9A-F]{2})+")


# -- writing ------------------------------------------------------------------------------------


def _escape(name: str) -> str:
    out: list[str] = []
    for ch in name:
        if ch in "%," or ch.isspace() or not ch.isprintable():
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        else:
            out.append(ch)
    return "".join(out)


def _symbol(value: int) -> str:
    return _SYMBOLS[value] if 0 <= value < len(_SYMBOLS) else "?"


def _head(state: State) -> str:
    mode = "keeper" if state.keeper else "play"
    return f"{VERSION} {state.rules.id} {mode} {','.join(_escape(p) for p in state.players)}"


def _column_text(col: ColumnSheet) -> str:
    boxes = ",".join("-" if s is None else f"{s}*" if i in col.doubled else str(s) for i, s in enumerate(col.scores))
    return f"{boxes}+{col.extra}" if col.extra else boxes


def _dice_text(dice: tuple[int, ...] | None, pending: int) -> str:
    if dice is None and not pending:
        return "-"
    text = "".join(_symbol(d) for d in dice or ())
    return f"{text}+{pending}" if pending else text


def game_text(state: GameState) -> str:
    """The position text of a sheet game (see the module docstring)."""
    sheets = "/".join("|".join(_column_text(c) for c in sheet.columns) for sheet in state.sheets)
    flags = []
    if state.sharp:
        flags.append("sharp")
    if state.announced is not None:
        flags.append(f"announced={state.rules.categories[state.announced].id}")
    dice = _dice_text(state.dice, state.pending)
    tail = f"{state.current} {state.turn} {dice} {state.throws} {','.join(flags) or '-'}"
    return f"{_head(state)} {sheets} {tail}"


def _grid_text(grid: KnasterGrid) -> str:
    rows = []
    for r in range(5):
        cells = []
        for i in range(r * 5, r * 5 + 5):
            if not grid.filled >> i & 1:
                cells.append(".")
            else:
                cells.append(_symbol(grid.numbers[i]) + ("*" if grid.circled >> i & 1 else ""))
        rows.append("".join(cells))
    return "|".join(rows)


def knaster_text(state: KnasterState) -> str:
    """The position text of a Knaster game (see the module docstring)."""
    grids = "/".join(_grid_text(g) for g in state.grids)
    duties = ",".join(
        f"{'@' if d.line == state.working else ''}{_LINE_TOKENS[d.line]}:{d.combination}:{d.owed}" for d in state.duties
    )
    flags = ",".join(f for f, on in (("end", state.end_announced), ("over", state.over)) if on)
    dice = _dice_text(state.dice, state.pending)
    fields = (state.thrower, state.current, state.throws, dice, state.acted, duties or "-", flags or "-")
    return f"{_head(state)} {grids} " + " ".join(str(f) for f in fields)


# -- reading ------------------------------------------------------------------------------------


def _number(token: str, what: str) -> int:
    if not _NUMBER.fullmatch(token):
        raise PositionError(f"{what} {token!r} is not a number")
    return int(token)


def _in_range(value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise PositionError(f"{what} {value} is out of range ({low} to {high})")
    return value


def _names(token: str, rules: RuleSet) -> tuple[str, ...]:
    names: list[str] = []
    for part in token.split(","):
        if not _NAME.fullmatch(part):
            raise PositionError(f"player name {part!r}: empty, or '%' not followed by two upper-case hex digits")
        try:
            names.append(unquote_to_bytes(part).decode("utf-8", "surrogatepass"))
        except UnicodeError:
            raise PositionError(f"player name {part!r}: its %XX escapes are not UTF-8") from None
    if not rules.min_players <= len(names) <= rules.max_players:
        raise PositionError(
            f"{rules.id} is played by {rules.min_players} to {rules.max_players} players, not {len(names)}"
        )
    if any(n != n.strip() or not n for n in names):
        raise PositionError("player names must be non-empty without blanks at either end")
    if len(set(names)) != len(names):
        raise PositionError(f"player names must differ: {token!r}")
    return tuple(names)


def _dice(token: str, faces: int, what: str) -> tuple[tuple[int, ...] | None, int]:
    if token == "-":
        return None, 0
    table, plus, pending = token.partition("+")
    dice = []
    for ch in table:
        value = _SYMBOL_VALUE.get(ch)
        if value is None or not 1 <= value <= faces:
            raise PositionError(f"{what} {token!r}: {ch!r} is not a die (1 to {_symbol(faces)})")
        dice.append(value)
    n = _number(pending, f"{what} {token!r}: dice in the air") if plus else 0
    if plus and n == 0:
        raise PositionError(f"{what} {token!r}: '+0' is written as nothing")
    if not dice and not n:
        raise PositionError(f"{what} {token!r}: no dice")
    return tuple(dice), n


def _fields(parts: list[str], expected: tuple[str, ...], what: str) -> None:
    if len(parts) != len(expected):
        raise PositionError(
            f"{what} has {len(parts)} fields after the players, expected {len(expected)}: {' '.join(expected)}"
        )


def _per_player(token: str, n: int, what: str) -> list[str]:
    parts = token.split("/")
    if len(parts) != n:
        raise PositionError(f"{len(parts)} {what} for {n} players")
    return parts


def _column(token: str, rules: RuleSet, where: str) -> ColumnSheet:
    boxes, plus, extra_text = token.partition("+")
    extra = _number(extra_text, f"{where}: extra points") if plus else 0
    if plus and not extra:
        raise PositionError(f"{where}: no extra points are written as nothing, not '+0'")
    parts = boxes.split(",")
    if len(parts) != len(rules.categories):
        raise PositionError(f"{where} has {len(parts)} boxes, {rules.name} has {len(rules.categories)}")
    scores: list[int | None] = []
    doubled: set[int] = set()
    for i, part in enumerate(parts):
        if part == "-":
            scores.append(None)
            continue
        if part.endswith("*"):
            part = part[:-1]
            doubled.add(i)
        scores.append(_number(part, f"{where}, box {rules.categories[i].id}:"))
    return ColumnSheet(tuple(scores), extra, frozenset(doubled))


def _game(rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> GameState:
    _fields(parts, ("sheets", "seat", "turn", "dice", "throws", "flags"), what="a sheet position")
    sheets_text, seat_text, turn_text, dice_text, throws_text, flags_text = parts
    n = len(names)
    sheets = []
    for p, sheet_text in enumerate(_per_player(sheets_text, n, "sheets")):
        cols = sheet_text.split("|")
        if len(cols) != rules.n_columns:
            raise PositionError(f"{names[p]}'s sheet has {len(cols)} columns, {rules.name} has {rules.n_columns}")
        sheets.append(PlayerSheet(tuple(_column(c, rules, f"{names[p]}'s column {k + 1}") for k, c in enumerate(cols))))
    end = n * rules.turns_per_player
    seat = _in_range(_number(seat_text, "seat"), 0, n - 1, "seat")
    turn = _in_range(_number(turn_text, "turn"), 0, end, "turn")
    for p, sheet in enumerate(sheets):
        taken = turn // n + (1 if p < turn % n else 0)
        filled = sum(len(c.scores) - c.open_count for c in sheet.columns)
        if filled != taken:
            raise PositionError(f"{names[p]} has {filled} boxes filled after {taken} turns of their own")
    if seat != turn % n:
        raise PositionError(f"after {turn} turns it is seat {turn % n}'s turn, not seat {seat}'s")
    dice, pending = _dice(dice_text, rules.faces, "dice")
    if dice is not None and len(dice) + pending > rules.dice:
        raise PositionError(f"dice {dice_text!r}: {rules.name} is played with {rules.dice} dice")
    if dice is not None and not pending and len(dice) != rules.dice:
        raise PositionError(f"dice {dice_text!r}: {rules.dice} dice lie on the table after a throw")
    throws = _in_range(_number(throws_text, "throws"), 0, rules.throws, "throws")
    sharp = False
    announced = None
    if flags_text != "-":
        for flag in flags_text.split(","):
            if flag == "sharp":
                sharp = True
            elif flag.startswith("announced="):
                box = flag.partition("=")[2]
                if rules.announced_column is None or not rules.has_category(box):
                    raise PositionError(f"flag {flag!r}: {rules.name} has no announced column or no box {box!r}")
                announced = rules.category_index(box)
            else:
                raise PositionError(f"unknown flag {flag!r} (flags: sharp, announced=BOX)")
    return GameState(rules, names, tuple(sheets), seat, turn, dice, throws, pending, sharp, announced, keeper)


def _grid(token: str, rules: RuleSet, who: str) -> KnasterGrid:
    rows = token.split("|")
    if len(rows) != 5:
        raise PositionError(f"{who}'s grid has {len(rows)} rows, not 5")
    numbers = [0] * N_CELLS
    filled = circled = 0
    top = rules.dice * rules.faces
    for r, row in enumerate(rows):
        cells = re.findall(r"\.|[0-9a-z]\*?", row)
        if "".join(cells) != row or len(cells) != 5:
            raise PositionError(f"{who}'s row {r + 1} {row!r} is not five cells ('.', a number, a number and '*')")
        for c, cell in enumerate(cells):
            if cell == ".":
                continue
            value = _SYMBOL_VALUE[cell[0]]
            if not rules.dice <= value <= top:
                raise PositionError(f"{who}'s row {r + 1}: {cell[0]!r} is no number of {rules.dice} dice")
            i = r * 5 + c
            numbers[i] = value
            filled |= 1 << i
            if cell.endswith("*"):
                circled |= 1 << i
    return KnasterGrid(tuple(numbers), filled, circled)


def _knaster(rules: RuleSet, keeper: bool, names: tuple[str, ...], parts: list[str]) -> KnasterState:
    what = ("grids", "thrower", "seat", "throws", "dice", "acted", "duties", "flags")
    _fields(parts, what, what="a Knaster position")
    grids_text, thrower_text, seat_text, throws_text, dice_text, acted_text, duties_text, flags_text = parts
    n = len(names)
    grids = tuple(_grid(g, rules, names[p]) for p, g in enumerate(_per_player(grids_text, n, "grids")))
    thrower = _in_range(_number(thrower_text, "thrower"), 0, n - 1, "thrower")
    seat = _in_range(_number(seat_text, "seat"), 0, n - 1, "seat")
    throws = _number(throws_text, "throws")
    dice, pending = _dice(dice_text, rules.faces, "dice")
    if pending:
        if dice:
            raise PositionError(f"dice {dice_text!r}: in Knaster no dice are kept")
        dice = None
    if pending not in (0, rules.dice) or (dice is not None and len(dice) != rules.dice):
        raise PositionError(f"dice {dice_text!r}: Knaster throws {rules.dice} dice")
    acted = _in_range(_number(acted_text, "acted"), 0, n, "acted")
    duties: list[LineDuty] = []
    working = None
    if duties_text != "-":
        for duty in duties_text.split(","):
            line, _, rest = duty.removeprefix("@").partition(":")
            combination, _, owed = rest.partition(":")
            if line not in _LINE_OF_TOKEN or combination not in COMBINATIONS:
                raise PositionError(f"duty {duty!r}: expected LINE:COMBINATION:CIRCLES, e.g. row1:full_house:2")
            k = _LINE_OF_TOKEN[line]
            duties.append(LineDuty(k, combination, _in_range(_number(owed, f"duty {duty!r}:"), 1, 5, "circles owed")))
            if duty.startswith("@"):
                if working is not None:
                    raise PositionError(f"duties {duties_text!r}: more than one line marked '@'")
                working = k
    lines = [d.line for d in duties]
    if lines != sorted(set(lines)):
        raise PositionError(f"duties {duties_text!r}: lines must be distinct, in line order")
    if any(grids[seat].filled & LINE_MASKS[k] != LINE_MASKS[k] for k in lines):
        raise PositionError(f"duties {duties_text!r}: a line owing circles must be complete")
    flags = {"-": (False, False), "end": (True, False), "end,over": (True, True)}.get(flags_text)
    if flags is None:
        raise PositionError(f"flags {flags_text!r}: expected '-', 'end' or 'end,over'")
    number = sum(dice) if dice is not None else None
    end, over = flags
    return KnasterState(
        rules,
        names,
        grids,
        thrower,
        seat,
        number,
        dice,
        pending,
        acted,
        tuple(duties),
        working,
        throws,
        end,
        over,
        keeper,
    )


def from_text(text: str) -> State:
    """Read a position text (see the module docstring for its grammar).

    Args:
        text: a line as written by ``state.to_text()``.

    Returns:
        The state: a :class:`GameState` or a :class:`KnasterState`, as the rule set says.

    Raises:
        PositionError: not a position text, a field that is malformed or out of range, or a text that is not
            in the canonical form ``to_text`` writes; the message names the field at fault.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position text is a string, not {type(text).__name__}")
    parts = text.split(" ")
    if parts[0] != VERSION:
        raise PositionError(f"a position text starts with {VERSION!r}, not {parts[0][:20]!r}")
    if len(parts) < 5:
        raise PositionError(f"a position text has rule set, mode, players and the position after {VERSION!r}")
    _, rules_text, mode, names_text, *rest = parts
    try:
        rules = get(rules_text)
    except PaschError as exc:
        raise PositionError(f"rule set {rules_text!r}: {exc}") from None
    if rules.id != rules_text:
        raise PositionError(f"rule set {rules_text!r} is written {rules.id!r}")
    if mode not in ("play", "keeper"):
        raise PositionError(f"mode {mode!r}: expected 'play' or 'keeper'")
    names = _names(names_text, rules)
    reader: Callable[[RuleSet, bool, tuple[str, ...], list[str]], State]
    if rules.kind is GameKind.KNASTER and rules.knaster is not None:
        try:
            check_combinations(rules.knaster)
        except PaschError as exc:
            raise PositionError(str(exc)) from None
        reader = _knaster
    else:
        reader = _game
    state = reader(rules, mode == "keeper", names, rest)
    again = state.to_text()
    if again != text:
        raise PositionError(f"position text is not in canonical form; it reads as {again!r}")
    return state
