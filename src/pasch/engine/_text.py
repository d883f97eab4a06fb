"""The lexicon of position texts that both kinds of game share (the grammar is in :mod:`pasch.engine._position`).

Writing: the head (version word, rule set, mode, names), die symbols, the dice field. Reading: the head, and
the checked readers of fields every body uses (numbers, ranges, dice, per-player lists). Each state class
writes and reads its own body with these; this module knows neither state class, so that the state modules
can import it and the position reader can import them.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from pasch.engine._protocol import State
from pasch.errors import PaschError, PositionError
from pasch.rules import RuleSet, get

__all__ = [
    "SYMBOL_VALUE",
    "VERSION",
    "check_fields",
    "dice_text",
    "head_text",
    "in_range",
    "per_player",
    "read_dice",
    "read_head",
    "read_number",
    "symbol",
]

#: The version word every position text starts with.
VERSION = "pasch1"

_SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: The value of each symbol a die or a Knaster number is written with.
SYMBOL_VALUE = {ch: i for i, ch in enumerate(_SYMBOLS)}
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


def symbol(value: int) -> str:
    """The one-character symbol of a die or number (``"a"`` = 10, ...); ``"?"`` outside the alphabet."""
    return _SYMBOLS[value] if 0 <= value < len(_SYMBOLS) else "?"


def head_text(state: State) -> str:
    """The fields every position text starts with: version word, rule set, mode and player names."""
    mode = "keeper" if state.keeper else "play"
    return f"{VERSION} {state.rules.id} {mode} {','.join(_escape(p) for p in state.players)}"


def dice_text(dice: tuple[int, ...] | None, pending: int) -> str:
    """The dice field: ``-`` for none, the dice on the table, then ``+N`` for dice in the air."""
    if dice is None and not pending:
        return "-"
    text = "".join(symbol(d) for d in dice or ())
    return f"{text}+{pending}" if pending else text


# -- reading ------------------------------------------------------------------------------------


def read_number(token: str, what: str) -> int:
    """A decimal number without leading zeros.

    Raises:
        PositionError: ``token`` is not one; the message starts with ``what``.
    """
    if not _NUMBER.fullmatch(token):
        raise PositionError(f"{what} {token!r} is not a number")
    return int(token)


def in_range(value: int, low: int, high: int, what: str) -> int:
    """``value``, checked to lie in ``low`` to ``high``.

    Raises:
        PositionError: it does not; the message starts with ``what``.
    """
    if not low <= value <= high:
        raise PositionError(f"{what} {value} is out of range ({low} to {high})")
    return value


def _read_names(token: str, rules: RuleSet) -> tuple[str, ...]:
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


def read_dice(token: str, faces: int, what: str) -> tuple[tuple[int, ...] | None, int]:
    """A dice field as :func:`dice_text` writes it: (the dice on the table or None, dice in the air).

    Raises:
        PositionError: a symbol that is no die of ``faces`` faces, ``+0``, or no dice at all.
    """
    if token == "-":
        return None, 0
    table, plus, pending = token.partition("+")
    dice = []
    for ch in table:
        value = SYMBOL_VALUE.get(ch)
        if value is None or not 1 <= value <= faces:
            raise PositionError(f"{what} {token!r}: {ch!r} is not a die (1 to {symbol(faces)})")
        dice.append(value)
    n = read_number(pending, f"{what} {token!r}: dice in the air") if plus else 0
    if plus and n == 0:
        raise PositionError(f"{what} {token!r}: '+0' is written as nothing")
    if not dice and not n:
        raise PositionError(f"{what} {token!r}: no dice")
    return tuple(dice), n


def check_fields(parts: list[str], expected: tuple[str, ...], what: str) -> None:
    """Check that a body has the fields ``expected`` names.

    Raises:
        PositionError: another number of fields.
    """
    if len(parts) != len(expected):
        raise PositionError(
            f"{what} has {len(parts)} fields after the players, expected {len(expected)}: {' '.join(expected)}"
        )


def per_player(token: str, n: int, what: str) -> list[str]:
    """The ``/``-separated parts of a field that holds one part per player.

    Raises:
        PositionError: not ``n`` parts.
    """
    parts = token.split("/")
    if len(parts) != n:
        raise PositionError(f"{len(parts)} {what} for {n} players")
    return parts


def read_head(text: str) -> tuple[RuleSet, bool, tuple[str, ...], list[str]]:
    """Read the fields every position text starts with.

    Args:
        text: a position text.

    Returns:
        The rule set, whether it is score-keeper mode, the player names, and the body's fields.

    Raises:
        PositionError: not a string, another version word, too few fields, an unknown rule set or one not
            written in its canonical form, an unknown mode, or bad player names.
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
    return rules, mode == "keeper", _read_names(names_text, rules), rest
