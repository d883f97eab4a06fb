"""The score-keeper screen: the table throws real dice; pasch validates, scores and adds up.

Each turn: type the final dice (``13356``), optionally ``sharp`` and a box (``13356 full_house``), press
Enter; or enter the dice first and choose the box on the sheet. Every check is the engine's: a refused
entry shows its reason and changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Checkbox, Input, Static

from pasch.app import find_box
from pasch.engine import Action, Enter, Score, State
from pasch.errors import IllegalActionError, InvalidActionError, PaschError
from pasch.i18n import N_, _, box_name, rules_name
from pasch.tui._base import GameScreen
from pasch.tui._game import SheetGameScreen
from pasch.tui._session import Session

__all__ = ["KeeperScreen", "parse_keeper_line"]

_VERBS = ("enter", "score", "announce")


def _resolve_box(session: Session, words: list[str]) -> str:
    """A box id from the words after the dice: an id, a name in any language (``große straße``: several
    words), a short form or a unique start; ``2:full_house`` keeps its column.

    Raises:
        InvalidActionError: no such box (the message lists the boxes by their names).
    """
    text = " ".join(words)
    col, _sep, name = text.rpartition(":") if ":" in words[0] else ("", "", text)
    rules = session.match.rules
    hit = find_box(rules, name)
    if hit is None:
        names = ", ".join(box_name(rules, cid) for cid in rules.category_ids)
        raise InvalidActionError(_("{word!r} is not a box; boxes: {boxes}").format(word=text, boxes=names))
    return f"{col}:{hit}" if col else hit


def parse_keeper_line(session: Session, line: str, sharp: bool = False) -> list[Action]:
    """Turn one typed line into actions: dice (``13356`` or ``1 3 3 5 6``), ``sharp``, and a box (one word or
    several: ``13356 große straße``).

    Raises:
        InvalidActionError: words that name no box.
    """
    words = line.strip().split()
    if not words:
        return []
    if words[0].lower() in _VERBS:
        return [Action.parse(line)]
    digits: list[int] = []
    rest: list[str] = []
    for w in words:
        if w.isdigit() and not rest:
            digits.extend(int(ch) for ch in w)
        elif w.lower() in ("sharp", _("sharp").lower()):
            sharp = True
        else:
            rest.append(w)
    box = _resolve_box(session, rest) if rest else None
    out: list[Action] = []
    if digits:
        if any(not 1 <= d <= session.match.rules.faces for d in digits):
            bad = next(d for d in digits if not 1 <= d <= session.match.rules.faces)
            raise InvalidActionError(
                _("{bad} is not a die: dice show 1 to {faces}").format(bad=bad, faces=session.match.rules.faces)
            )
        out.append(Enter(tuple(digits), sharp and session.match.rules.sharp))
        if sharp and not session.match.rules.sharp:
            raise IllegalActionError(_("{rules} has no sharp rule").format(rules=rules_name(session.match.rules)))
    if box is not None:
        col, _sep, cat = box.rpartition(":")
        multi = session.match.rules.n_columns > 1
        if multi and not col:
            raise InvalidActionError(_("say which column, e.g. 2:{box}").format(box=cat))
        out.append(Score(cat, int(col) if col else None))
    return out


class KeeperScreen(SheetGameScreen, inherit_bindings=False):
    """Sheet and totals of a table playing with real dice: typed keys go to the dice field, so every key of
    the screen is a function key or a control key (F10 saves and quits)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("f1", "help", N_("help")),
        Binding("f10", "quit_game", N_("save & quit")),
        Binding("up", "move(-1)", N_("box"), show=False),
        Binding("down", "move(1)", "", show=False),
        Binding("left", "column(-1)", "", show=False),
        Binding("right", "column(1)", "", show=False),
        Binding("ctrl+z", "undo", N_("undo")),
        Binding("f2", "hints", N_("best box")),
        Binding("f4", "rules", N_("rules")),
        Binding("f5", "win_tables", N_("P(win)")),
        Binding("f3", "review", N_("review")),
        Binding("f9", "new_game", N_("new game")),
        Binding("f6", "next_player", N_("other players"), show=False),
        Binding("f7", "more_hints", "", show=False),
    ]

    WIN_KEY = "F5"
    HINT_KEYS = ""
    END_KEYS = (N_("(F3: review, F9: new game, F10: quit)"), N_("(F9: new game, F10: quit)"))
    MORE_KEY = "F7"

    def compose_dice(self) -> ComposeResult:
        """The dice input (and the sharp question when the rules have it)."""
        rules = self.session.match.rules
        example = box_name(rules, "full_house" if "full_house" in rules.category_ids else rules.category_ids[-1])
        yield Input(placeholder=_("e.g. 13356 or 13356 {box}").format(box=example.lower()), id="dice-input")
        if rules.sharp:
            yield Checkbox(_("all five dice from one throw (sharp)"), id="sharp")
        yield Static(id="dice-shown")

    def on_mount(self) -> None:
        """Focus the input."""
        super().on_mount()
        self.query_one("#dice-input", Input).focus()

    def watch_position(self) -> None:
        """The board, and the dice entered this turn."""
        super().watch_position()
        st = self.state
        shown = self.query_one("#dice-shown", Static)
        if st.is_terminal:
            shown.update("")
        elif st.dice is None:
            shown.update(_("Enter the dice of {name}'s turn.").format(name=self.session.match.seat.name))
        else:
            sharp = "  " + _("(sharp)") if st.sharp else ""
            text = _("Dice: {dice}{sharp} — choose a box (↑ ↓, Enter)").format(
                dice=" ".join(str(d) for d in st.dice), sharp=sharp
            )
            shown.update(Text(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key applies while the game lasts (F5 while P(win) applies and its tables are not open); the end
        shows its own keys."""
        if action == "win_tables":
            return self.win_key_applies()
        return GameScreen.check_action(self, action, parameters)

    def game_over(self) -> None:
        """Sum up the game; the dice field has nothing more to take."""
        super().game_over()
        self.query_one("#dice-input", Input).disabled = True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter the typed dice (and box); an empty line enters the dice in the chosen box."""
        if self.session.match.finished:
            return
        text = event.value.strip()
        if not text:
            if self.state.dice is not None and self.selected is not None:
                self.action_score()
            else:
                self.say(_("Type the five dice first, e.g. 13356."), error=True)
            return
        sharp = False
        if self.session.match.rules.sharp:
            sharp = self.query_one("#sharp", Checkbox).value
        try:
            actions = parse_keeper_line(self.session, text, sharp)
            trial: State = self.state
            for a in actions:  # try the whole line first: a refused box leaves the dice unentered too
                trial = trial.apply(a)
        except PaschError as exc:
            event.input.value = ""  # a fresh line for the next try; the message quotes this one
            self.say(_("Not allowed: {reason} (you typed {text!r})").format(reason=exc, text=text), error=True)
            return
        for a in actions:
            self.session.act(a)
        event.input.value = ""
        if self.session.match.rules.sharp:
            self.query_one("#sharp", Checkbox).value = False
        scored = any(isinstance(a, Score) for a in actions)
        self.selected = None
        self.say(_("Entered: {line}").format(line=text) if scored else "")
        self.after_change(scored=scored)
