"""The Knaster screen: the two dice and their sum, every player's 5x5 grid, whose turn, duties, hints.

Every player acts on every called number, in seat order from the thrower; the screen lets the human
to act move a cursor over their grid (arrows, or a column letter and a row digit) and press Enter (or
click a cell twice) to write the number there or circle it. The engine says what is legal and why a
step is refused; bots play their seats one visible step at a time, as in the sheet game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import Button, Digits, Header, Static

from pasch.app import advise, combination_name
from pasch.engine import Action, Circle, KnasterState, Pass, Roll, State, Write, cell_name, parse_cell
from pasch.errors import IllegalActionError, PaschError
from pasch.i18n import N_, _, ngettext, rules_name
from pasch.tui._base import GameScreen
from pasch.tui._footer import PaschFooter
from pasch.tui._grid import GridCell, GridMarks, GridView, grid_text, line_label, line_value
from pasch.tui._session import Session
from pasch.tui._summary import summary_lines
from pasch.tui._widgets import DiceBar

__all__ = ["KnasterGameScreen", "knaster_hint"]

SIZE = 5
CENTRE = 2 * SIZE + 2  # c3


def _cell_of(action: Action) -> int | None:
    """The cell an action writes into or circles (None for roll and pass)."""
    if isinstance(action, Write | Circle):
        row, col = parse_cell(action.cell)
        return row * SIZE + col
    return None


def knaster_hint(state: KnasterState) -> Action:
    """The hint for the player to act: the advice of :func:`pasch.app.advise` (the strongest bot's choice,
    which in Knaster is the Knaster bot's).

    Raises:
        IllegalActionError: the game is over or dice are in the air.
    """
    suggestion = advise(state).suggestion
    if suggestion is None:  # pragma: no cover - advice always suggests in Knaster
        raise IllegalActionError("no hint here")
    return suggestion


class KnasterGameScreen(GameScreen):
    """Dice and sum, whose turn and what they owe, every player's grid, standings, hint."""

    help_topic = "knaster"

    DEFAULT_CSS = """
    KnasterGameScreen #top { height: auto; padding: 0 1; }
    KnasterGameScreen #throw { width: auto; height: auto; }
    KnasterGameScreen #dice { width: auto; }
    KnasterGameScreen #throw.stale { opacity: 50%; }
    KnasterGameScreen #sum-box { width: 12; height: 5; border: round $accent; align: center middle; }
    KnasterGameScreen #sum { width: auto; }
    KnasterGameScreen #info { width: 1fr; height: auto; padding: 0 1; }
    KnasterGameScreen #turn { text-style: bold; }
    KnasterGameScreen #message { min-height: 1; }
    KnasterGameScreen #message.error { color: $error; }
    KnasterGameScreen #duty { color: $warning; }
    KnasterGameScreen #buttons { height: auto; }
    KnasterGameScreen #buttons Button { margin: 0 1 0 0; min-width: 10; }
    KnasterGameScreen #hint { color: $accent; text-style: bold; display: none; height: auto; }
    KnasterGameScreen #hint.shown { display: block; }
    KnasterGameScreen #standings { color: $text-muted; }
    KnasterGameScreen #grids { height: 1fr; padding: 0 1; }
    KnasterGameScreen #board {
        layout: grid; grid-size: 4; grid-columns: 38; grid-rows: 10; grid-gutter: 0 1; height: auto;
    }
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("space,r", "throw", N_("throw")),
        Binding("enter", "play", N_("write / circle")),
        Binding("p", "pass_number", N_("pass")),
        Binding("up", "move(0, -1)", N_("cell"), show=False),
        Binding("down", "move(0, 1)", "", show=False),
        Binding("left", "move(-1, 0)", "", show=False),
        Binding("right", "move(1, 0)", "", show=False),
        *(Binding(chr(ord("a") + c), f"column({c})", "", show=False) for c in range(SIZE)),
        *(Binding(str(r + 1), f"row({r})", "", show=False) for r in range(SIZE)),
        Binding("h", "hints", N_("hints")),
        Binding("g", "apply_hint", N_("play hint")),
        Binding("u", "undo", N_("undo")),
    ]

    cursors: reactive[dict[int, int]] = reactive(dict, init=False)
    """Each human player's cursor cell (set whole: a new dict redraws the grids)."""
    hints_shown: reactive[bool] = reactive(False, init=False)

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.last: dict[int, int] = {}
        self.hint: Action | None = None
        self._hint_for: State | None = None
        self._placed_for: State | None = None
        self._shown_player: int | None = None
        self._texts: dict[str, str] = {}

    # -- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Dice, sum and turn information on top, the grids below, key footer."""
        yield Header()
        with Horizontal(id="top"):
            with Horizontal(id="throw"):
                yield DiceBar(self.state.knaster.dice, id="dice")
                with Container(id="sum-box"):
                    yield Digits("", id="sum")
            with Vertical(id="info"):
                yield Static(id="turn")
                yield Static(id="message")
                yield Static(id="duty")
                with Horizontal(id="buttons"):
                    yield Button(_("Throw"), id="throw-button", compact=True)
                    yield Button(_("Pass"), id="pass-button", compact=True)
                yield Static(id="hint")
                yield Static(id="standings")
        with VerticalScroll(id="grids"), Container(id="board"):
            for p in range(len(self.state.players)):
                yield GridView(p)
        yield PaschFooter()

    def on_mount(self) -> None:
        """Title, unfocusable buttons, undecorated dice, then the shared start."""
        self.title = "pasch"
        self.sub_title = rules_name(self.session.match.rules)
        self.query_one("#sum-box", Container).border_title = _("sum")
        for button in self.query(Button):
            button.can_focus = False  # Enter belongs to the grid
        for die in self.query("#dice Die"):
            die.border_title = ""  # no dice are held in Knaster
        self._fit_board(self.size.width)
        super().on_mount()

    def on_resize(self, event: Resize) -> None:
        """As many grids side by side as fit."""
        self._fit_board(event.size.width)

    def _fit_board(self, width: int) -> None:
        n = len(self.state.players)
        per_row = max(1, min(n, (max(width, 40) - 4) // 39))  # padding and the scroll bar
        self.query_one("#board", Container).styles.grid_size_columns = per_row

    # -- queries --------------------------------------------------------------------------------
    @property
    def state(self) -> KnasterState:
        """The engine's Knaster state.

        Raises:
            TypeError: the session's game is not Knaster.
        """
        st = self.session.match.state
        if not isinstance(st, KnasterState):
            raise TypeError(f"{type(st).__name__} is not a Knaster state")
        return st

    def legal_cells(self) -> dict[int, Action]:
        """The cells the player to act may write into or circle now, with the action for each."""
        st = self.state
        if st.is_terminal or st.number is None:
            return {}
        out: dict[int, Action] = {}
        for action in st.legal_actions():
            i = _cell_of(action)
            if i is not None:
                out[i] = action
        return out

    @property
    def cursor(self) -> int:
        """The cursor cell of the player to act."""
        return self.cursors.get(self.state.current, CENTRE)

    def turn_done(self, action: Action) -> bool:
        """A number is done when everybody has acted on it: save then."""
        return self.state.number is None

    # -- drawing --------------------------------------------------------------------------------
    def watch_position(self) -> None:
        """A new position, the dice as they lie, a message, a cursor move or the hint switched: draw it."""
        self._draw()

    watch_table = watch_message = watch_message_error = watch_cursors = watch_hints_shown = watch_position

    def _move_cursor(self, cell: int) -> None:
        """Put the acting player's cursor on ``cell`` (the watcher draws it)."""
        self.cursors = {**self.cursors, self.state.current: cell}

    def _draw(self) -> None:
        """Draw dice, sum, turn, duties, hint, standings and every grid (only the watchers call this)."""
        if not self.ready:
            return
        st = self.state
        self._place_cursor()
        faces = tuple(st.dice) if st.dice is not None else self.session.faces
        self.query_one("#dice", DiceBar).show(faces, tuple(False for _f in faces))
        self.query_one("#throw", Horizontal).set_class(st.number is None, "stale")
        self.query_one("#sum", Digits).update(str(sum(faces)) if faces else "")
        self.set_text("#turn", self.turn_text())
        self.set_text("#message", self.message)
        self.query_one("#message", Static).set_class(self.message_error, "error")
        self.set_text("#duty", self.duty_text())
        self.set_text("#standings", self.standings_text())
        human = self.human_turn
        self.query_one("#throw-button", Button).disabled = not (human and st.number is None)
        self.query_one("#pass-button", Button).disabled = not (
            human and any(isinstance(a, Pass) for a in self._legal())
        )
        self.update_hint()
        # Every empty cell takes the number: point out only the cells where it may be circled.
        legal = frozenset(i for i, a in self.legal_cells().items() if isinstance(a, Circle)) if human else frozenset()
        hint_cell = _cell_of(self.hint) if self.hint is not None and self.hints_shown and human else None
        for view in self.query(GridView):
            p = view.player
            acting = not st.is_terminal and p == st.current
            marks = GridMarks(
                cursor=self.cursor if acting and human and st.number is not None else None,
                legal=legal if acting else frozenset(),
                hint=hint_cell if acting else None,
                last=self.last.get(p),
                preview=st.number if acting and human else None,
            )
            view.show(st, marks, acting)
            if acting and self._shown_player != p:
                self._shown_player = p  # keep the acting player's grid on screen in small terminals
                self.query_one("#grids", VerticalScroll).scroll_to_widget(view, animate=False)

    def _legal(self) -> tuple[Action, ...]:
        st = self.state
        return () if st.is_terminal else tuple(st.legal_actions())

    def set_text(self, selector: str, text: str) -> None:
        """Update a Static's text, skipping the redraw when it is unchanged."""
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            self.query_one(selector, Static).update(Text(text))

    def _place_cursor(self) -> None:
        """On a new position, put the cursor of the player to act on a cell they may use (nearest first)."""
        st = self.state
        if self._placed_for is st or st.is_terminal:
            return
        self._placed_for = st
        legal = self.legal_cells()
        if not legal:
            return
        p = st.current
        cur = self.cursors.get(p, CENTRE)
        if cur in legal:
            return
        hint = self.hint_for(st) if self.hints_shown else None
        if hint is not None:
            hinted = _cell_of(hint)
            if hinted is not None:
                self.set_reactive(KnasterGameScreen.cursors, {**self.cursors, p: hinted})  # drawing now
                return
        r0, c0 = divmod(cur, SIZE)
        nearest = min(legal, key=lambda i: (abs(i // SIZE - r0) + abs(i % SIZE - c0), i))
        self.set_reactive(KnasterGameScreen.cursors, {**self.cursors, p: nearest})

    def turn_text(self) -> str:
        """Whose turn, the called number, the round, and whether this is the last number."""
        st = self.state
        if st.is_terminal:
            return _("Game over")
        seat = self.session.match.seat
        name = seat.name
        who = _("{name} (bot) to play").format(name=name) if seat.is_bot else _("{name} to play").format(name=name)
        if st.number is None:
            doing = _("throw the dice (space)") if not seat.is_bot else _("throws")
        else:
            doing = _("number {n}").format(n=st.number)
        parts = [f"{who}: {doing}", _("round {n}").format(n=st.round)]
        throws = int(st.throws)
        parts.append(ngettext("{n} number called", "{n} numbers called", throws).format(n=throws))
        if st.is_last_number:
            parts.append(_("last number!"))
        return " · ".join(parts)

    def duty_text(self) -> str:
        """What the player to act must still circle after completing lines."""
        st = self.state
        if st.is_terminal or not st.duties:
            return ""
        parts = [
            ngettext(
                "circle {n} more cell in {line} ({combination})",
                "circle {n} more cells in {line} ({combination})",
                d.owed,
            ).format(n=d.owed, line=line_label(d.line), combination=combination_name(d.combination))
            for d in st.duties
        ]
        return _("{name} must {what}").format(name=st.players[st.current], what="; ".join(parts))

    def standings_text(self) -> str:
        """Everyone's score now; the ranks at the end."""
        st = self.state
        out = st.outcome()
        if st.is_terminal:
            lines = [_("{rank}. {name}  {total}").format(rank=r, name=n, total=t) for r, n, t in out.standings()]
            if self.summary is not None:  # each player's earlier games
                words = summary_lines(self.summary)
                lines += words[len(words) - len(self.summary.players) :]
            return "\n".join(lines)
        return _("Scores: {scores}").format(
            scores=" · ".join(f"{n} {t}" for n, t in zip(st.players, out.totals, strict=True))
        )

    def grid_text(self, player: int | None = None) -> str:
        """A player's grid as plain text (for tests and screenshots in words)."""
        st = self.state
        p = st.current if player is None else player
        acting = not st.is_terminal and p == st.current and self.human_turn
        marks = GridMarks(
            cursor=self.cursor if acting and st.number is not None else None,
            legal=frozenset(self.legal_cells()) if acting else frozenset(),
            last=self.last.get(p),
        )
        return grid_text(st, p, marks)

    # -- words for steps ------------------------------------------------------------------------
    def describe_step(self, before: State, after: State, name: str, action: Action) -> str:
        """``Bob throws 3 + 4 = 7.``, ``Bob writes 7 at b3.``, ``Bob circles the 7 at b3.``, ``Bob passes.``
        plus the lines the step completed or fully circled."""
        if not isinstance(before, KnasterState) or not isinstance(after, KnasterState):
            return super().describe_step(before, after, name, action)
        if isinstance(action, Roll):
            dice = tuple(after.dice or ())
            return _("{name} throws {dice} = {number}.").format(
                name=name, dice=" + ".join(map(str, dice)), number=sum(dice)
            )
        if isinstance(action, Pass):
            return _("{name} passes: no cell can take {number}.").format(name=name, number=before.number)
        p = before.current
        i = _cell_of(action)
        if i is None:
            return super().describe_step(before, after, name, action)
        where = cell_name(i // SIZE, i % SIZE)
        if isinstance(action, Write):
            text = _("{name} writes {number} at {cell}.").format(name=name, number=action.number, cell=where)
        else:
            number = before.grids[p].numbers[i]
            text = _("{name} circles the {number} at {cell}.").format(name=name, number=number, cell=where)
        old, new = before.grids[p], after.grids[p]
        for k in sorted(set(new.scored_lines()) - set(old.scored_lines())):
            text += " " + _("{line} fully circled: +{points}.").format(
                line=line_label(k), points=line_value(after.knaster, k)
            )
        if isinstance(action, Write) and after.current == p and after.duties:
            text += " " + _("Line complete!")
        return text

    def bot_moved(self, before: State, action: Action) -> None:
        """Mark the bot's cell."""
        i = _cell_of(action)
        if i is not None:
            self.last[before.current_player] = i

    # -- hints ----------------------------------------------------------------------------------
    def hint_for(self, state: KnasterState) -> Action | None:
        """The hint for ``state`` (computed once per position; None when there is nothing to choose)."""
        if state.is_terminal or state.number is None or state.is_chance_node:
            return None
        if self._hint_for is not state:
            self._hint_for = state
            try:
                self.hint = knaster_hint(state)
            except PaschError:
                self.hint = None
        return self.hint

    def update_hint(self) -> None:
        """Show or hide the hint panel."""
        panel = self.query_one("#hint", Static)
        panel.set_class(self.hints_shown, "shown")
        if not self.hints_shown:
            return
        st = self.state
        if st.is_terminal or not self.human_turn:
            text = _("The hint appears on your turn.")
        elif st.number is None:
            text = _("Hint: throw the dice.")
        else:
            action = self.hint_for(st)
            text = (
                _("Hint (Knaster bot): {action}").format(action=self.action_words(action)) + "  " + _("(g: play it)")
                if action
                else ""
            )
        panel.update(text)

    @staticmethod
    def action_words(action: Action) -> str:
        """An action in words: ``write 7 at b3``, ``circle b3``, ``pass``."""
        if isinstance(action, Write):
            return _("write {number} at {cell}").format(number=action.number, cell=action.cell)
        if isinstance(action, Circle):
            return _("circle {cell}").format(cell=action.cell)
        if isinstance(action, Pass):
            return _("pass")
        return str(action)

    # -- actions --------------------------------------------------------------------------------
    def _step(self, action: Action) -> None:
        """Play a human's step; a refused one shows the engine's reason and changes nothing."""
        before = self.state
        name = self.session.match.seat.name
        if not self.attempt(self.session.act, action):
            return
        self.message = self.describe_step(before, self.state, name, action)
        self.message_error = False
        i = _cell_of(action)
        if i is not None:
            self.last[before.current] = i
        self.after_change(scored=self.turn_done(action))

    def action_throw(self) -> None:
        """Throw the two dice (the thrower, before the number is called)."""
        if not self._human_only():
            return
        if self.state.number is not None:
            self.say(_("{number} is called: write or circle it (Enter).").format(number=self.state.number), error=True)
            return
        self._step(Roll())

    def action_play(self) -> None:
        """Enter: throw if nothing is called, pass if nothing else is possible, else act on the cursor cell."""
        if not self._human_only():
            return
        st = self.state
        if st.number is None:
            self._step(Roll())
            return
        legal = self._legal()
        if legal == (Pass(),):
            self._step(Pass())
            return
        cell = self.cursor
        action = self.legal_cells().get(cell)
        if action is None:
            # Let the engine say why this cell cannot be used.
            name = cell_name(cell // SIZE, cell % SIZE)
            action = Write(st.number, name) if not st.grids[st.current].numbers[cell] else Circle(name)
        self._step(action)

    def action_pass_number(self) -> None:
        """Pass (allowed only when the number can neither be written nor circled)."""
        if self._human_only():
            self._step(Pass())

    def action_move(self, dx: int, dy: int) -> None:
        """Move the cursor over the grid (wrapping at the edges)."""
        if not self.human_turn or self.state.number is None:
            return
        r, c = divmod(self.cursor, SIZE)
        self._move_cursor(((r + dy) % SIZE) * SIZE + (c + dx) % SIZE)

    def action_column(self, column: int) -> None:
        """Jump to a column (keys a-e)."""
        if not self.human_turn or self.state.number is None:
            return
        self._move_cursor(self.cursor // SIZE * SIZE + column)

    def action_row(self, row: int) -> None:
        """Jump to a row (keys 1-5)."""
        if not self.human_turn or self.state.number is None:
            return
        self._move_cursor(row * SIZE + self.cursor % SIZE)

    def action_hints(self) -> None:
        """Show or hide the hint."""
        self.hints_shown = not self.hints_shown

    def action_apply_hint(self) -> None:
        """Play the hint (the Knaster bot's choice): throw, write, circle or pass."""
        if not self._human_only():
            return
        st = self.state
        if st.number is None:
            self._step(Roll())
            return
        action = self.hint_for(st)
        if action is None:
            self.say(_("No hint here."), error=True)
            return
        self._step(action)

    def action_undo(self) -> None:
        """Undo, then show the restored position."""
        self._placed_for = None
        super().action_undo()

    # -- mouse ----------------------------------------------------------------------------------
    def on_grid_cell_clicked(self, event: GridCell.Clicked) -> None:
        """A click on the acting player's cell moves the cursor there; a second click plays it."""
        st = self.state
        if not self.human_turn or event.player != st.current or st.number is None:
            return
        if self.cursor == event.index:
            self.action_play()
        else:
            self._move_cursor(event.index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The Throw and Pass buttons."""
        if event.button.id == "throw-button":
            self.action_throw()
        elif event.button.id == "pass-button":
            self.action_pass_number()
