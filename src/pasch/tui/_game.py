"""Game screens. :class:`GameScreen` holds what every game shares (turn flow, bots, undo, saving,
help); :class:`SheetGameScreen` draws dice and score sheets. The Knaster grid screen
(:mod:`pasch.tui._knaster`) is another subclass; both are registered in :data:`pasch.tui._app.GAME_SCREENS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, ParamSpec

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.events import Key, MouseDown, Resize
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, ProgressBar, Static
from textual.widgets.data_table import ColumnKey
from textual.worker import get_current_worker

from pasch.app import (
    BotTurn,
    GameSummary,
    LayoutCache,
    Review,
    SheetLayout,
    game_summary,
    play_bots,
    review,
    reviewable,
    sheet_layout,
)
from pasch.engine import Action, Announce, GameState, Keep, Roll, Score, State
from pasch.errors import PaschError
from pasch.i18n import N_, _, box_name, ngettext
from pasch.rules import Order
from pasch.tui._common import GameHost, translate_bindings
from pasch.tui._help import HelpScreen
from pasch.tui._hints import Hints, compute_hints, hint_label
from pasch.tui._rules import RulesScreen
from pasch.tui._session import Session
from pasch.tui._sheet import (
    ORDER_MARK,
    Cell,
    Row,
    SheetModel,
    bonus_progress,
    column_legend,
    sheet_model,
    sheet_text,
)
from pasch.tui._summary import ReviewScreen, review_lines, summary_lines
from pasch.tui._widgets import DiceBar, Die
from pasch.tui._winhints import WinTablesKey

__all__ = ["GameScreen", "SheetGameScreen"]

P = ParamSpec("P")

CELL_STYLE = {
    "filled": "",
    "potential": "italic green",
    "open": "",
    "sum": "dim",
    "progress": "yellow",
    "announced": "bold reverse yellow",
    "total": "bold",
}


def _same_text(a: Text, b: Text) -> bool:
    """Whether two cells draw the same (``Text.__eq__`` ignores the base style: a box just filled would keep
    the green of the value it had as a choice)."""
    return a.plain == b.plain and a.style == b.style and a.spans == b.spans and a.justify == b.justify


class GameScreen(Screen[None]):
    """What every game screen shares: the session, bots, undo, help, saving and the end of the game."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("question_mark", "help", N_("help")),
        Binding("i", "rules", N_("rules")),
        Binding("q", "quit_game", N_("save & quit")),
        Binding("n", "new_game", N_("new game")),
        Binding("v", "review", N_("review")),
    ]

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"throw", "hold", "move", "column", "score", "announce", "hints", "apply_hint", "more_hints", "undo", "play"}
        | {"pass_number", "row", "cancel"}
    )
    """Actions of a game in progress: hidden and refused once the game is over."""

    app = getters.app(GameHost)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.message = ""
        self.message_error = False
        self.ready = False
        self.summary: GameSummary | None = None
        self.review: Review | None = None
        self.review_note = ""
        self.bot_log: list[str] = []
        self._bot_log_seat: int | None = None
        translate_bindings(self)

    # -- to be drawn by subclasses --------------------------------------------------------------
    def refresh_view(self) -> None:
        """Redraw everything from the session."""

    # -- shared flow ----------------------------------------------------------------------------
    def on_mount(self) -> None:
        """Draw, then let bots move if a bot starts."""
        self.ready = True
        self.refresh_view()
        self.after_change(scored=False)

    @property
    def human_turn(self) -> bool:
        """Whether a human is to act (keys act only then)."""
        return not self.session.match.finished and not self.session.match.seat.is_bot

    def _human_only(self) -> bool:
        if self.session.match.finished:
            return False
        if not self.human_turn:
            self.say(_("Wait: {name} is playing.").format(name=self.session.match.seat.name), error=True)
            return False
        return True

    def say(self, text: str, error: bool = False) -> None:
        """Show a one-line message under the dice (errors in red)."""
        self.message, self.message_error = text, error
        self.refresh_view()

    def attempt(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Run a session step; a refused step shows the engine's reason and changes nothing."""
        try:
            fn(*args, **kwargs)
        except PaschError as exc:
            self.say(_("Not allowed: {reason}").format(reason=exc), error=True)
            return False
        return True

    def after_change(self, scored: bool) -> None:
        """After any step: save it at once (a throw too: a closed terminal loses nothing), announce the end,
        start the bots. ``scored`` says whether the step ended a turn."""
        self.app_save()
        if self.session.match.finished:
            self.game_over()
            return
        if self.session.match.bot_to_move:
            self.run_bots()
        self.refresh_view()

    def app_save(self) -> None:
        """Save the game through the app (no-op when saving is off)."""
        self.app.save_session(self.session)

    def game_over(self) -> None:
        """Sum up the game (ranking, sections, earlier games), start its review, show the end's keys."""
        if self.summary is None:
            match = self.session.match
            history = self.app.history(match.rules.id, match.game_id)
            self.summary = game_summary(match.state, history)
            if reviewable(match.rules):
                self.review_note = _("Reviewing your play…")
                self.review_game()
            self.refresh_bindings()
        head = summary_lines(self.summary)[0]
        keys = _("(v: review, n: new game, q: quit)") if self.review_note else _("(n: new game, q: quit)")
        self.say(head + "  " + keys)

    def summary_text(self) -> str:
        """The end of the game in lines: ranking and sections, earlier games, and the review's verdict."""
        if self.summary is None:
            return ""
        lines = summary_lines(self.summary)[2:]
        if self.review is not None:
            lines += ["", *review_lines(self.review)]
        elif self.review_note:
            lines += ["", self.review_note]
        return "\n".join(lines)

    @work(thread=True, exclusive=True, group="review")
    def review_game(self) -> None:
        """Review the finished game with the exact solver, off the event loop."""
        worker = get_current_worker()
        try:
            # No percentile: the end of the game does not show it, and its exact score distribution costs
            # far more CPU than the review, the first time per rule set (bench/target.py times it).
            result: Review | None = review(self.session.match.log, percentile=False)
            note = ""
        except PaschError as exc:
            result, note = None, _("No review: {reason}").format(reason=exc)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._reviewed, result, note)

    def _reviewed(self, result: Review | None, note: str) -> None:
        self.review = result
        self.review_note = note or self.review_note
        self.refresh_bindings()
        self.game_over()  # the end's line again, over "Reviewing your play…" if v was pressed meanwhile

    def action_review(self) -> None:
        """Open the move-by-move review of the finished game."""
        if not self.session.match.finished:
            return
        if self.review is None:
            self.say(self.review_note or _("No review for this game."), error=not self.review_note)
            return
        self.app.push_screen(ReviewScreen(self.review))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once the game is over, only the keys of the end show and work."""
        finished = self.session.match.finished
        if action in self.PLAY_ACTIONS:
            return not finished
        if action == "review":
            return finished and (self.review is not None or bool(self.review_note))
        if action == "new_game":
            return finished
        return True

    def run_bots(self) -> None:
        """Let the bots to move play, one visible step at a time."""
        self._bot_turns()

    @work(group="bots", exclusive=True)
    async def _bot_turns(self) -> None:
        """Play the bots' steps (:func:`pasch.app.play_bots`); an undo cancels this worker."""
        match = self.session.match
        await play_bots(match.bot_turn, self._bot_step, delay=self.app.bot_delay, rng=lambda: match.game.rng)
        if self.session.match.finished:
            self.game_over()

    async def _bot_step(self, turn: BotTurn, action: Action) -> bool:
        """Record a bot's step and show it; False when the game changed while the bot thought."""
        if self.session.match.state is not turn.state:
            return False
        name = self.session.match.seats[turn.seat].name
        self.session.act(action)
        said = self.describe_step(turn.state, self.session.match.state, name, action)
        self.message, self.message_error = said, False
        if self._bot_log_seat != turn.seat or self.starts_turn(action):
            self.bot_log, self._bot_log_seat = [], turn.seat
        self.bot_log.append(said)
        self.app_save()
        self.bot_moved(turn.state, action)
        self.refresh_view()
        return True

    def starts_turn(self, action: Action) -> bool:
        """Whether ``action`` (a bot's) begins a new turn: the log of the last bot turn starts over."""
        return isinstance(action, Roll)

    def turn_done(self, action: Action) -> bool:
        """Whether ``action`` (just played) finished a turn: the moment the game is saved."""
        return isinstance(action, Score)

    def bot_moved(self, before: State, action: Action) -> None:
        """Hook: a bot has just played ``action`` from ``before``."""

    def describe_step(self, before: State, after: State, name: str, action: Action) -> str:
        """A step (just played from ``before`` to ``after``) in words."""
        return _("{name}: {action}").format(name=name, action=action)

    def stop_bots(self) -> None:
        """Stop a pending bot move (before an undo takes back the human's last box)."""
        self.workers.cancel_group(self, "bots")

    def action_rules(self) -> None:
        """Show the rules card of the game's rule set."""
        self.app.push_screen(RulesScreen(self.session.match.rules))

    def action_help(self) -> None:
        """Show the keys."""
        self.app.push_screen(HelpScreen(keeper=self.session.match.keeper, game=self.help_topic))

    help_topic = "sheet"
    """Which keys the help screen lists (``sheet`` or ``knaster``)."""

    def action_undo(self) -> None:
        """Take back the human's last step (see :mod:`pasch.tui._session`); a finished game stays finished."""
        if self.session.match.finished:
            self.say(_("The game is over: it cannot be undone."), error=True)
            return
        self.stop_bots()
        if self.session.undo():
            self.app_save()
            self.say(_("Undone."))
        else:
            self.say(_("Nothing to undo (a throw cannot be taken back once seen)."), error=True)
        if self.session.match.bot_to_move:
            self.run_bots()

    def action_quit_game(self) -> None:
        """Save and leave."""
        self.stop_bots()
        self.app_save()
        self.app.exit()

    def action_new_game(self) -> None:
        """After the end: back to the setup screen."""
        if not self.session.match.finished:
            return
        self.app.show_setup()


class SheetGameScreen(GameScreen, WinTablesKey):
    """Dice, score sheet, turn and bonus info, hints (with P(win) in games of several players: ``w``)."""

    DEFAULT_CSS = """
    SheetGameScreen #main { height: 1fr; align-horizontal: center; }
    SheetGameScreen #left { width: 1fr; min-width: 36; max-width: 84; height: 1fr; padding: 0 1; }
    SheetGameScreen #sheet { width: auto; height: 1fr; }
    SheetGameScreen #sheet > .datatable--fixed { background: $surface; }
    SheetGameScreen #turn { height: auto; margin: 0 0 1 0; }
    SheetGameScreen #message { height: auto; min-height: 1; margin: 1 0 0 0; }
    SheetGameScreen #message.error { color: $error; }
    SheetGameScreen #bonus { height: auto; color: $text-muted; }
    SheetGameScreen #legend { height: auto; color: $text-muted; }
    SheetGameScreen #botlog { height: auto; color: $text-muted; display: none; }
    SheetGameScreen #botlog.shown { display: block; }
    SheetGameScreen #hints { height: auto; border: round $accent; display: none; padding: 0 1; }
    SheetGameScreen #hints.shown { display: block; }
    SheetGameScreen #summary { height: auto; border: round $success; display: none; padding: 0 1; }
    SheetGameScreen #summary.shown { display: block; }
    """

    LEFT_MIN = 38
    """Columns the dice and the status keep beside a wide sheet (the sheet scrolls sideways instead)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("space,r", "throw", N_("throw")),
        Binding("1", "hold(0)", N_("hold 1-5")),
        Binding("2", "hold(1)", "", show=False),
        Binding("3", "hold(2)", "", show=False),
        Binding("4", "hold(3)", "", show=False),
        Binding("5", "hold(4)", "", show=False),
        Binding("6", "hold(5)", "", show=False),
        Binding("up,k", "move(-1)", N_("box"), show=False),
        Binding("down,j", "move(1)", "", show=False),
        Binding("left", "column(-1)", "", show=False),
        Binding("right", "column(1)", "", show=False),
        Binding("enter", "score", N_("score")),
        Binding("a", "announce", N_("announce")),
        Binding("escape", "cancel", "", show=False),
        Binding("h", "hints", N_("hints")),
        Binding("b", "apply_hint", N_("play hint")),
        Binding("m", "more_hints", "", show=False),
        Binding("u", "undo", N_("undo")),
        Binding("w", "win_tables", N_("P(win)")),
    ]

    WIN_KEY = "w"
    """The key of :meth:`action_win_tables` as the hint list names it."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.selected: tuple[int, int] | None = None
        self.announcing = False
        self.hints_shown = False
        self.hints_all = False
        self.hints: Hints | None = None
        self._hints_for: State | None = None
        self.model: SheetModel | None = None
        self._sheet_cache = LayoutCache()
        self._sheet: tuple[State, SheetLayout] | None = None
        self._layout: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None = None
        self._cells: list[list[Text]] = []
        self._texts: dict[str, str] = {}
        self._pressed = False
        self._headers: list[Text] = []

    def compose(self) -> ComposeResult:
        """Header, dice and info on the left, the sheet on the right, key footer."""
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="turn")
                yield from self.compose_dice()
                yield Static(id="message")
                yield Static(id="bonus")
                yield Static(id="legend")
                yield Static(id="botlog")
                yield Static(id="summary")
                with Vertical(id="hints"):
                    yield ProgressBar(id="hint-progress", show_eta=False)
                    yield Static(id="hint-table")
            table: DataTable[Text] = DataTable(id="sheet", cursor_type="cell", zebra_stripes=False)
            table.can_focus = False
            table.fixed_columns = 1  # the box names stay in view when the sheet scrolls sideways
            yield table
        yield Footer()

    def compose_dice(self) -> ComposeResult:
        """The dice (the score keeper puts an input here instead)."""
        yield DiceBar(self.session.match.rules.dice, id="dice")

    def on_mount(self) -> None:
        """Title, then the shared start."""
        self.title = "pasch"
        self.sub_title = self.session.match.rules.name
        self._fit(self.size.width)
        super().on_mount()

    def on_resize(self, event: Resize) -> None:
        """Keep room for the dice beside the sheet; the sheet scrolls sideways when it is wider."""
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        if width > 0:
            self.query_one("#sheet", DataTable).styles.max_width = max(24, width - self.LEFT_MIN)
            self.query_one(Footer).compact = width < 120

    # -- queries --------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The engine's sheet-game state.

        Raises:
            TypeError: the session's game is not a sheet game.
        """
        st = self.session.match.state
        if not isinstance(st, GameState):
            raise TypeError(f"{type(st).__name__} is not a sheet game's state")
        return st

    def sheet(self) -> SheetLayout:
        """The sheet's layout now (:func:`pasch.app.sheet_layout`, computed once per position)."""
        st = self.state
        if self._sheet is None or self._sheet[0] is not st:
            self._sheet = (st, sheet_layout(st, self._sheet_cache))
        return self._sheet[1]

    def choices(self) -> list[tuple[int, int]]:
        """The (column, box) the cursor may visit: legal entries, or announceable boxes when announcing."""
        st = self.state
        if self.announcing or (st.dice is not None and st.must_announce()):
            cols = [c for c, o in enumerate(st.rules.columns) if o is Order.ANNOUNCED]
            out: list[tuple[int, int]] = []
            for a in st.legal_actions():
                if isinstance(a, Announce):
                    out.append((cols[0], st.rules.category_index(a.category)))
            return sorted(out)
        return sorted((c, o.index) for c, o in st.score_options())

    # -- drawing --------------------------------------------------------------------------------
    def refresh_view(self) -> None:
        """Redraw dice, turn line, sheet, bonus progress, message and hints."""
        if not self.ready:
            return
        st = self.state
        choices = self.choices()
        if self.selected not in choices:
            self.selected = self._default_choice(choices)
        self.draw_dice()
        self.advise_dice()
        self.set_text("#turn", self.turn_text())
        self.set_text("#message", self.message)
        self.query_one("#message", Static).set_class(self.message_error, "error")
        self.set_text("#bonus", "" if st.is_terminal else self.bonus_text())
        self.set_text("#summary", self.summary_text())
        self.query_one("#summary", Static).set_class(self.summary is not None, "shown")
        self.set_text("#legend", column_legend(st.rules))
        self.set_text("#botlog", self.bot_log_text())
        self.query_one("#botlog", Static).set_class(bool(self.bot_log) and not st.is_terminal, "shown")
        self.model = sheet_model(self.sheet())
        self.draw_sheet(self.model)
        self.update_hints()

    def set_text(self, selector: str, text: str) -> None:
        """Update a Static's text, skipping the redraw when it is unchanged."""
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            self.query_one(selector, Static).update(Text(text))

    def draw_dice(self) -> None:
        """Draw the dice and the holds."""
        self.query_one("#dice", DiceBar).show(self.session.faces, self.session.holds)

    def current_hints(self) -> Hints | None:
        """The hints shown for the position on the board (None while hidden, computing or stale)."""
        if not self.hints_shown or self.hints is None or self._hints_for is not self.session.match.state:
            return None
        return self.hints

    def advise_dice(self) -> None:
        """Outline the dice the shown hint says to keep."""
        hints = self.current_hints()
        for bar in self.query(DiceBar):  # the score keeper has no dice on screen
            bar.advise(hints.keep if hints else None, self.session.faces)

    def _default_choice(self, choices: list[tuple[int, int]]) -> tuple[int, int] | None:
        if not choices:
            return None
        if self.announcing:
            return choices[0]
        st = self.state
        if st.announced is not None:  # an announced turn ends in the announced box unless crossed out elsewhere
            for c, order in enumerate(st.rules.columns):
                if order is Order.ANNOUNCED and (c, st.announced) in choices:
                    return (c, int(st.announced))
        opts = {(c, o.index): o.total for c, o in st.score_options()}
        return max(choices, key=lambda ch: (opts.get(ch, 0), -ch[0], -ch[1]))

    def bot_log_text(self) -> str:
        """The last bot turn, step by step: ``Last turn of Bob: Bob throws. · Bob: keep 3 3 · ...``."""
        if not self.bot_log or self._bot_log_seat is None:
            return ""
        name = self.session.match.seats[self._bot_log_seat].name
        return _("Last turn of {name}:").format(name=name) + "\n" + "\n".join("  " + s for s in self.bot_log)

    def turn_text(self) -> str:
        """Whose turn, the round, throws left, sharp and announcement."""
        s = self.session.match
        st = self.state
        if st.is_terminal:
            return _("Game over")
        seat = s.seat
        who = (
            _("{name} (bot) to play").format(name=seat.name)
            if seat.is_bot
            else _("{name} to play").format(name=seat.name)
        )
        parts = [who, _("round {n} of {total}").format(n=st.round, total=st.rules.turns_per_player)]
        if not s.keeper:
            left = st.throws_left
            parts.append(ngettext("{n} throw left", "{n} throws left", left).format(n=left))
        if st.rules.sharp and st.sharp and st.dice:
            parts.append(_("sharp: all five from one throw"))
        if st.announced is not None:
            parts.append(_("announced: {box}").format(box=box_name(st.rules, st.announced)))
        if self.announcing:
            parts.append(_("choose the box to announce (Enter; Esc cancels)"))
        return " · ".join(parts)

    def bonus_text(self) -> str:
        """Upper-bonus progress of the player to act (per column, shortly, in multi-column games)."""
        layout = self.sheet()
        if layout.current is None:
            return ""
        cols = layout.player_columns(layout.current)
        if len(cols) == 1:
            text = bonus_progress(cols[0].progress)
            return "" if text is None else _("Upper bonus: {progress}").format(progress=text)
        parts = []
        for col in cols:
            p = col.progress
            if p is None:
                return ""
            state = "✓" if p.earned else "–" if not p.reachable else str(p.need)
            parts.append(f"{col.column + 1}{ORDER_MARK[col.order]} {state}")
        amount = cols[0].progress.amount if cols[0].progress else 0
        return _("Upper bonus +{bonus}, points to go: {progress}").format(bonus=amount, progress=" · ".join(parts))

    def standings_text(self) -> str:
        """Final standings, best first."""
        rows = self.session.match.state.outcome().standings()
        return "\n".join(f"{rank}. {name}  {total}" for rank, name, total in rows)

    def draw_sheet(self, model: SheetModel) -> None:
        """Fill the sheet table from the model (only changed cells once the layout stands)."""
        table: DataTable[Text] = self.query_one("#sheet", DataTable)
        bare = tuple(n.removeprefix("▶") for n in (model.names or model.headers))
        # The player to act changes every turn: that restyles the headers; it does not rebuild the table.
        layout = (bare, model.marks, tuple(r.label for r in model.rows))
        cells = [[self._label_text(row), *(self._cell_text(c) for c in row.cells)] for row in model.rows]
        star = self._hint_coordinate()
        if star is not None:
            cells[star.row][star.column] = Text.assemble(("★", "bold green"), cells[star.row][star.column])
        two_rows = any(model.marks)

        def header(k: int) -> Text:
            current = model.columns[k][0] == model.current
            text = (("▶" if current else " ") + bare[k]) if bare[k] else ""  # same width either way
            label = f"{text}\n{model.marks[k]}" if two_rows else text
            return Text(label, style="bold reverse" if current else "bold", justify="right")

        headers = [header(k) for k in range(len(bare))]
        if layout != self._layout:
            table.clear(columns=True)
            table.header_height = 2 if two_rows else 1
            table.add_column("", key="label")
            for k, label in enumerate(headers):
                table.add_column(label, key=f"v{k}")
            for k, row_cells in enumerate(cells):
                table.add_row(*row_cells, key=f"r{k}")
            self._layout = layout
            # the table's width is its content's: lay the screen out again once the new columns are measured
            self.call_after_refresh(table.refresh, layout=True)
        else:
            for k, row_cells in enumerate(cells):
                old = self._cells[k]
                for j, cell in enumerate(row_cells):
                    if not _same_text(cell, old[j]):
                        table.update_cell_at(Coordinate(k, j), cell, update_width=True)
            if headers != self._headers:
                for k, label in enumerate(headers):
                    table.columns[ColumnKey(f"v{k}")].label = label
                table._clear_caches()  # the header lines are cached; a label changed in place needs a redraw
                table.refresh()
        self._headers = headers
        self._cells = cells
        self._sync_cursor()

    @staticmethod
    def _label_text(row: Row) -> Text:
        style = "bold" if row.kind == "total" else ("dim" if row.kind == "sum" else "")
        return Text(row.label, style=style)

    @staticmethod
    def _cell_text(cell: Cell) -> Text:
        return Text(cell.text, style=CELL_STYLE.get(cell.kind, ""), justify="right")

    def _cell_of(self, choice: tuple[int, int]) -> Coordinate | None:
        model = self.model
        if model is None or model.current is None:
            return None
        return Coordinate(model.row_of_box(choice[1]), 1 + model.value_column(model.current, choice[0]))

    def _hint_coordinate(self) -> Coordinate | None:
        """The sheet cell of the box the shown hint enters the dice in."""
        hints = self.current_hints()
        if hints is None or hints.score is None:
            return None
        return self._cell_of(hints.score)

    def _sync_cursor(self) -> None:
        table: DataTable[Text] = self.query_one("#sheet", DataTable)
        coord = self._cell_of(self.selected) if self.selected is not None and self.human_turn else None
        table.show_cursor = coord is not None
        if coord is not None and table.cursor_coordinate != coord:
            table.cursor_coordinate = coord

    def describe_step(self, before: State, after: State, name: str, action: Action) -> str:
        """A bot's step in words: ``Bob entered 25 in Full house.``, ``Bob throws.``, ``Bob: keep 3 3``."""
        if not isinstance(before, GameState):
            return super().describe_step(before, after, name, action)
        rules = before.rules
        if isinstance(action, Score):
            index = rules.category_index(action.category)
            column = (action.column or 1) - 1
            pts = next((o.total for c, o in before.score_options() if (c, o.index) == (column, index)), 0)
            return _("{name} entered {points} in {box}.").format(name=name, points=pts, box=box_name(rules, index))
        if isinstance(action, Roll):
            return _("{name} throws.").format(name=name)
        return _("{name}: {action}").format(name=name, action=hint_label(rules, action))

    def sheet_text(self) -> str:
        """The sheet as plain text (for tests and screenshots in words)."""
        model = self.model or sheet_model(self.sheet())
        return sheet_text(model, self.selected if self.human_turn else None)

    # -- hints ----------------------------------------------------------------------------------
    def update_hints(self) -> None:
        """Show the hints panel and (re)compute it in a worker when the position changed."""
        panel = self.query_one("#hints", Vertical)
        panel.set_class(self.hints_shown and not self.session.match.finished, "shown")
        if not self.hints_shown:
            return
        st = self.state
        if st.dice is None or st.is_terminal or not self.human_turn:
            self.query_one("#hint-table", Static).update(_("Hints appear once the dice are thrown."))
            self._hints_for = None  # an undo back to the dice shows their hints again
            return
        if self._hints_for is st:
            return
        self._hints_for = st
        self.hints = None
        bar = self.query_one("#hint-progress", ProgressBar)
        bar.update(total=None, progress=0)
        bar.display = True
        self.query_one("#hint-table", Static).update(_("Computing hints…"))
        self.compute_hints(st)

    @work(thread=True, exclusive=True, group="hints")
    def compute_hints(self, state: State) -> None:
        """Build the hint table off the UI thread, reporting progress."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._hint_progress, done, total)

        hints = compute_hints(state, progress)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_hints, state, hints)

    def _hint_progress(self, done: int, total: int) -> None:
        self.query_one("#hint-progress", ProgressBar).update(total=total, progress=done)

    def _show_hints(self, state: State, hints: Hints) -> None:
        if state is not self.session.match.state:
            return
        self.hints = hints
        self.query_one("#hint-progress", ProgressBar).display = False  # the list needs the line more
        if hints.score is not None and hints.score in self.choices() and not self.announcing:
            self.selected = hints.score  # the cursor on the best box: Enter takes the hint
        self.draw_hint_table()
        self.refresh_view()

    def draw_hint_table(self) -> None:
        """The hint list: the best five (all after ``m``), the suggestion and what the values are."""
        hints = self.hints
        if hints is None:
            return
        lines = hints.lines(None if self.hints_all else 5)
        if hints.suggestion and not hints.exact:
            lines.insert(0, _("Suggested (strongest bot): {action}").format(action=hints.suggestion))
        if hints.note:
            lines.append(hints.note)
        if self.win_building:
            lines.append(self.win_status_text)
        elif hints.win == "missing" and self.win_key_applies():
            lines.append(
                _("{key}: P(win) beside each option (builds the win tables once, ~{mb} MB)").format(
                    key=self.WIN_KEY, mb=hints.win_mb
                )
            )
        lines.append(_("b: play the hint"))
        self.query_one("#hint-table", Static).update(Text("\n".join(lines)))

    # -- actions --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that do not apply to this game (or no longer, once it is over)."""
        if action == "announce" and not any(o is Order.ANNOUNCED for o in self.session.match.rules.columns):
            return False
        if action == "win_tables":
            return self.win_key_applies()
        return super().check_action(action, parameters)

    def action_throw(self) -> None:
        """Throw (first throw, or re-throw the dice not held)."""
        if not self._human_only():
            return
        st = self.state
        if st.dice is not None and st.throws_left <= 0:
            self.say(_("No throws left: choose a box and press Enter."), error=True)
            return
        self.announcing = False
        self.selected = None  # the new dice choose their own best box
        if self.attempt(self.session.throw):
            self.message = ""
            if self.state.must_announce():
                self.announcing = True
            self.after_change(scored=False)

    def action_hold(self, position: int) -> None:
        """Hold or release a die."""
        if not self._human_only() or position >= self.session.match.rules.dice:
            return
        if self.session.match.state.dice is None:
            self.say(_("Throw first (space)."), error=True)
            return
        if not self.session.toggle_hold(position):
            self.say(_("No throws left: holding makes no difference now."), error=True)
            return
        self.app_save()  # a hold is saved too: --resume lays the dice out held as they were
        self.message = ""
        self.refresh_view()

    def on_die_clicked(self, event: Die.Clicked) -> None:
        """A click on a die holds it."""
        self.action_hold(event.position)

    def action_move(self, step: int) -> None:
        """Move the cursor to the previous or next box of the column."""
        choices = self.choices()
        if not choices or self.selected is None or not self.human_turn:
            return
        col = self.selected[0]
        same = [ch for ch in choices if ch[0] == col]
        k = same.index(self.selected)
        self.selected = same[(k + step) % len(same)]
        self._sync_cursor()
        self.refresh_view()

    def action_column(self, step: int) -> None:
        """Move the cursor to the nearest box of the previous or next column."""
        choices = self.choices()
        if not choices or self.selected is None or not self.human_turn:
            return
        cols = sorted({c for c, _i in choices})
        k = cols.index(self.selected[0])
        col = cols[(k + step) % len(cols)]
        box = self.selected[1]
        self.selected = min((ch for ch in choices if ch[0] == col), key=lambda ch: abs(ch[1] - box))
        self.refresh_view()

    def action_score(self) -> None:
        """Enter the dice in the chosen box (or announce it, when announcing)."""
        if not self._human_only():
            return
        st = self.state
        if st.dice is None:
            self.say(_("Throw first (space)."), error=True)
            return
        if self.selected is None:
            self.say(_("No box can take these dice."), error=True)
            return
        col, box = self.selected
        if self.announcing or st.must_announce():
            if self.attempt(self.session.act, Announce(st.rules.categories[box].id)):
                self.announcing = False
                self.selected = None
                self.say(_("Announced: {box}").format(box=box_name(st.rules, box)))
            return
        name = self.session.match.seat.name
        if self.attempt(self.session.score, col, box):
            opt = self.model.options.get((col, box)) if self.model else None
            pts = opt.total if opt else 0
            self.message = _("{name} entered {points} in {box}.").format(
                name=name, points=pts, box=box_name(st.rules, box)
            )
            self.message_error = False
            self.selected = None
            self.after_change(scored=True)

    def action_announce(self) -> None:
        """kniffel-4: choose a box of the announced column (right after the first throw)."""
        if not self._human_only():
            return
        st = self.state
        if not any(isinstance(a, Announce) for a in st.legal_actions()):
            self.say(_("You can announce only right after the first throw."), error=True)
            return
        self.announcing = True
        self.selected = None
        self.refresh_view()

    def action_cancel(self) -> None:
        """Leave announcing mode."""
        if self.announcing and not self.state.must_announce():
            self.announcing = False
            self.selected = None
            self.refresh_view()

    def action_hints(self) -> None:
        """Show or hide the hints."""
        self.hints_shown = not self.hints_shown
        self._hints_for = None
        self.refresh_view()

    def action_more_hints(self) -> None:
        """Show every option in the hint list, or the best five again."""
        self.hints_all = not self.hints_all
        self.draw_hint_table()

    def action_apply_hint(self) -> None:
        """Play the hint: keep the advised dice and throw, or enter the dice in the advised box."""
        if not self._human_only():
            return
        hints = self.current_hints()
        if hints is None or hints.suggested is None:
            if not self.hints_shown:
                self.action_hints()
            self.say(_("The hint is being computed; press b again when it shows."), error=True)
            return
        action = hints.suggested
        if isinstance(action, Score) and hints.score is not None:
            self.selected = hints.score
            self.announcing = False
            self.action_score()
        elif isinstance(action, Roll):
            self.action_throw()
        elif isinstance(action, Keep):
            self.announcing = False
            self.selected = None
            if self.attempt(self.session.act, action):
                self.message = ""
                if self.state.must_announce():
                    self.announcing = True
                self.after_change(scored=False)
        elif self.attempt(self.session.act, action):
            self.announcing = False
            self.selected = None
            self.message = ""
            self.after_change(scored=False)

    def action_undo(self) -> None:
        """Undo, then leave announcing mode."""
        self.announcing = False
        self.selected = None
        super().action_undo()

    # -- mouse on the sheet -----------------------------------------------------------------------
    def _choice_at(self, coord: Coordinate) -> tuple[int, int] | None:
        model = self.model
        if model is None or model.current is None or coord.column < 1:
            return None
        row = model.rows[coord.row] if coord.row < len(model.rows) else None
        if row is None or row.box is None:
            return None
        p, c = model.columns[coord.column - 1]
        if p != model.current:
            return None
        ch = (c, row.box)
        return ch if ch in self.choices() else None

    def on_mouse_down(self, event: MouseDown) -> None:
        """Note a press of the mouse: only a click on a box's name (not a redraw of the table) enters dice."""
        self._pressed = True

    def on_key(self, event: Key) -> None:
        """A letter that is no key of the game jumps to the next box whose name starts with it."""
        char = event.character
        if not char or not char.isalpha() or len(char) != 1 or event.key in self._bindings.key_to_bindings:
            return
        if self.jump_to_initial(char):
            event.stop()

    def jump_to_initial(self, letter: str) -> bool:
        """Move the cursor to the next legal box (of the cursor's column) whose name starts with ``letter``."""
        if not self.human_turn or self.selected is None:
            return False
        rules = self.session.match.rules
        col = self.selected[0]
        same = [ch for ch in self.choices() if ch[0] == col]
        hits = [ch for ch in same if box_name(rules, ch[1]).lower().startswith(letter.lower())]
        if not hits:
            return False
        after = [ch for ch in hits if ch[1] > self.selected[1]]
        self.selected = (after or hits)[0]
        self.refresh_view()
        return True

    def _label_choice(self, row: int) -> tuple[int, int] | None:
        """The legal box of a sheet row's name, in the cursor's column (else the first column that takes it)."""
        model = self.model
        if model is None or model.current is None or row >= len(model.rows) or model.rows[row].box is None:
            return None
        box = model.rows[row].box
        choices = [ch for ch in self.choices() if ch[1] == box]
        if not choices:
            return None
        col = self.selected[0] if self.selected is not None else None
        return next((ch for ch in choices if ch[0] == col), choices[0])

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        """A click (or our own cursor move) on a cell: select it if the dice may go there; a click on a
        box's name enters the dice there."""
        clicked, self._pressed = self._pressed, False
        if event.coordinate.column == 0 and clicked and self.human_turn:
            label = self._label_choice(event.coordinate.row)
            if label is not None:
                self.selected = label
                self.action_score()
                return
        ch = self._choice_at(event.coordinate)
        if ch is None:
            self._sync_cursor()
        elif ch != self.selected and self.human_turn:
            self.selected = ch
            self.refresh_view()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        """A second click on the chosen box enters the dice there."""
        ch = self._choice_at(event.coordinate)
        if ch is not None and ch == self.selected:
            self.action_score()
