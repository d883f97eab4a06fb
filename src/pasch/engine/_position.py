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

Each state class writes and reads its own body (``GameState.to_text`` and ``GameState._read``, the same in
``KnasterState``); the head and the fields both bodies use are in :mod:`pasch.engine._text`.
"""

from __future__ import annotations

from pasch.engine._knaster import KnasterState
from pasch.engine._protocol import State
from pasch.engine._state import GameState
from pasch.engine._text import VERSION, read_head
from pasch.rules import GameKind

__all__ = ["VERSION", "from_text"]


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
    rules, keeper, names, parts = read_head(text)
    reader: type[GameState] | type[KnasterState] = KnasterState if rules.kind is GameKind.KNASTER else GameState
    return reader._from_head(text, rules, keeper, names, parts)
