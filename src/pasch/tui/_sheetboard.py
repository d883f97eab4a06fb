"""The sheet game's board: dice, the score sheet, status lines and hints, from 80x24 up.

:class:`SheetBoard` holds the game's state in reactive attributes (the position and the dice from
:class:`~pasch.tui._base.GameScreen`; here the chosen box, announcing, whether hints show) and its ``watch_*``
methods hand them to the widgets: :class:`~pasch.tui._widgets.DiceBar`, :class:`~pasch.tui._sheetview.SheetView`,
:class:`~pasch.tui._hintpanel.HintPanel` and the :class:`~pasch.tui._board.Line` s. The widgets report what
happened with messages. Styles are in ``game.tcss``. The keys and clicks that play are
:class:`~pasch.tui._game.SheetGameScreen`'s.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import Header

from pasch.app import LayoutCache, SheetLayout, sheet_layout, win_applies, win_tables_ready
from pasch.engine import Action, GameState, State
from pasch.i18n import N_, _, rules_name
from pasch.tui._base import GameScreen
from pasch.tui._board import Line
from pasch.tui._footer import PaschFooter
from pasch.tui._hintpanel import HintPanel
from pasch.tui._hints import Hints
from pasch.tui._session import Session
from pasch.tui._sheet import SheetModel, column_legend, default_choice, sheet_choices, sheet_model, sheet_text
from pasch.tui._sheetview import SheetView
from pasch.tui._summary import review_lines, summary_lines
from pasch.tui._widgets import DiceBar
from pasch.tui._words import bonus_text, bot_log_text, describe_step, others_text, turn_text

__all__ = ["Choice", "SheetBoard"]

Choice = tuple[int, int]
"""A (0-based column, box index) of the sheet."""


class SheetBoard(GameScreen):
    """Dice, score sheet, turn and bonus info, hints and the end of the game, drawn from reactive state."""

    CSS_PATH = "game.tcss"
    LEFT_MIN = 38
    """Columns the dice and the status keep beside the sheet (the sheet shows fewer players instead)."""
    SHORT = 30
    """Below this many lines the screen is short: no margins, legend or hint note."""
    WIN_KEY = "w"
    HINT_KEYS = N_("b: play · m: all")
    MORE_KEY = "m"

    selected: reactive[Choice | None] = reactive(None, init=False)
    announcing: reactive[bool] = reactive(False, init=False)
    hints_shown: reactive[bool] = reactive(False, init=False)
    hints_all: reactive[bool] = reactive(False, init=False)
    show_sheet: reactive[bool] = reactive(False, init=False)

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.model: SheetModel | None = None
        self._cache = LayoutCache()
        self._layout: tuple[State, SheetLayout] | None = None
        self._end_width = 0

    def compose(self) -> ComposeResult:
        """Header; dice and status lines on the left, the sheet on the right; the key footer."""
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Line(id="turn")
                yield from self.compose_dice()
                yield from (Line(id=name) for name in ("message", "bonus", "others", "legend", "botlog", "summary"))
                yield HintPanel(id="hints")
            yield SheetView(id="sheet")
        yield PaschFooter()

    def compose_dice(self) -> ComposeResult:
        """The dice (the score keeper puts an input here instead)."""
        yield DiceBar(self.session.match.rules.dice, id="dice")

    def on_mount(self) -> None:
        """Title, fit, the hint panel's keys, then the shared start."""
        self.title = "pasch"
        self.sub_title = rules_name(self.session.match.rules)
        panel = self.query_one(HintPanel)
        panel.keys = _(self.HINT_KEYS) if self.HINT_KEYS else ""  # _("") is the catalogue's header
        panel.win_key, panel.more_key = self.WIN_KEY, self.MORE_KEY
        self._fit(self.size.width, self.size.height)
        super().on_mount()

    def on_resize(self, event: Resize) -> None:
        """Give the sheet the room the left side does not need."""
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """The sheet gets the room the left side does not need; at the end, the end table (one line per player)
        needs more: where not even one player's columns fit beside it, the sheet gives way ("tight-end") and
        Tab swaps the table and the sheet."""
        if width > 0:
            sheet = self.query_one(SheetView)
            need = max(self.LEFT_MIN, 6 + self._end_width)
            tight = self.summary is not None and width - need < sheet.one_player_width()
            if tight != self.has_class("tight-end"):
                self.set_class(tight, "tight-end")
                self.on_sheet_view_paged()
            sheet.room = max(24, width - (self.LEFT_MIN if tight else need))
        self.set_class(0 < height < self.SHORT, "short")
        self.query_one(HintPanel).short = 0 < height < self.SHORT

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
        if self._layout is None or self._layout[0] is not self.state:
            self._layout = (self.state, sheet_layout(self.state, self._cache))
        return self._layout[1]

    def choices(self) -> list[Choice]:
        """The (column, box) the cursor may visit: legal entries, or announceable boxes when announcing."""
        return sheet_choices(self.state, self.announcing)

    @property
    def hints(self) -> Hints | None:
        """The hints of the position on the board, once computed (None while hidden or computing)."""
        return self.current_hints()

    def current_hints(self) -> Hints | None:
        """The hints shown for the position on the board (None while hidden, computing or stale)."""
        panel = self.query_one(HintPanel)
        return panel.current() if self.hints_shown and panel.position is self.session.match.state else None

    @property
    def win_building(self) -> bool:
        """Whether the win tables are being built."""
        return self.query_one(HintPanel).win_building

    def win_key_applies(self) -> bool:
        """Whether ``w`` shows: P(win) applies to this game and its tables are not open yet."""
        match = self.session.match
        return not match.finished and win_applies(match.state) and not win_tables_ready(match.rules)

    def sheet_text(self) -> str:
        """The sheet as plain text, every player (for tests and screenshots in words)."""
        return sheet_text(self.model or sheet_model(self.sheet()), self.selected if self.human_turn else None)

    def turn_text(self) -> str:
        """Whose turn, the round, throws left, sharp and announcement."""
        return turn_text(self.session.match, self.state, self.announcing)

    def bonus_text(self) -> str:
        """Upper-bonus progress of the player to act."""
        return bonus_text(self.sheet())

    def describe_step(self, before: State, after: State, name: str, action: Action) -> str:
        """A bot's step in words."""
        return (
            describe_step(before, name, action)
            if isinstance(before, GameState)
            else super().describe_step(before, after, name, action)
        )

    # -- watchers: the reactive state drawn on the widgets -------------------------------------------
    def _line(self, name: str, text: str) -> None:
        self.query_one(f"#{name}", Line).text = text

    def watch_position(self) -> None:
        """A new position: every line, the sheet, the cursor's box and the hints."""
        st = self.state
        self.set_class(st.is_terminal, "over")
        if self.selected not in self.choices():
            self.selected = default_choice(st, self.choices(), self.announcing)
        self._line("turn", self.turn_text())
        self._line("bonus", "" if st.is_terminal else self.bonus_text())
        self._line("legend", column_legend(st.rules))
        seat = self._bot_log_seat
        name = self.session.match.seats[seat].name if seat is not None else ""
        compact = self.has_class("short")
        self._line("botlog", "" if st.is_terminal else bot_log_text(name, self.bot_log, compact))
        self.model = sheet_model(self.sheet())
        self.query_one(SheetView).model = self.model
        self.watch_selected()
        self._ask_hints()

    def watch_table(self) -> None:
        """The dice as they lie."""
        for bar in self.query(DiceBar):  # the score keeper has no dice on screen
            bar.table = self.table

    def watch_message(self) -> None:
        """The message line."""
        line = self.query_one("#message", Line)
        line.error, line.text = self.message_error, self.message

    watch_message_error = watch_message

    def watch_selected(self) -> None:
        """The cursor on the chosen box (none while a bot plays)."""
        self.query_one(SheetView).cursor_box = self.selected if self.human_turn else None

    def watch_announcing(self) -> None:
        """Announcing changes the boxes the cursor may visit and the turn line."""
        self.selected = default_choice(self.state, self.choices(), self.announcing)
        self._line("turn", self.turn_text())

    def watch_hints_shown(self) -> None:
        """Show or hide the hint panel (and compute the hints)."""
        self._ask_hints()

    def watch_hints_all(self, show_all: bool) -> None:
        """Every option, or the best five."""
        self.query_one(HintPanel).show_all = show_all

    def _ask_hints(self) -> None:
        """Give the hint panel the position to advise (none while hidden, or while a bot plays)."""
        panel = self.query_one(HintPanel)
        panel.set_class(self.hints_shown and not self.session.match.finished, "shown")
        panel.win_key = self.WIN_KEY if self.win_key_applies() else ""
        st = self.session.match.state
        panel.position = st if self.hints_shown and self.human_turn else None
        self.on_hint_panel_ready(None)

    def on_hint_panel_ready(self, event: HintPanel.Ready | None) -> None:
        """The hints are in: the dice to keep outlined, the best box starred and chosen (Enter takes it)."""
        hints = self.current_hints()
        for bar in self.query(DiceBar):  # the score keeper has no dice on screen
            bar.keep = hints.keep if hints else None
        self.query_one(SheetView).star = hints.score if hints else None
        if event is not None and hints is not None and hints.score in self.choices() and not self.announcing:
            self.selected = hints.score

    def on_hint_panel_win_ready(self, event: HintPanel.WinReady) -> None:
        """The win tables are open (or failed): the hints again, now with P(win)."""
        if event.error:
            self.say(_("The win tables could not be prepared: {error}").format(error=event.error), error=True)
        self.refresh_bindings()
        self._ask_hints()

    def watch_summary(self) -> None:
        """The end of the game: the table and the verdict; the sheet gives room to the table."""
        lines = summary_lines(self.summary)[2:] if self.summary is not None else []
        if self.review is not None:
            lines += ["", *review_lines(self.review)]
        elif self.review_note and lines:
            lines += ["", self.review_note]
        self._line("summary", "\n".join(lines))
        tables = (summary_lines(self.summary)[2:] if self.summary is not None else []) + (
            review_lines(self.review)[1:-1] if self.review is not None else []
        )
        self._end_width = max((len(line) for line in tables), default=0)
        self._fit(self.size.width, self.size.height)

    watch_review = watch_review_note = watch_summary

    def on_sheet_view_paged(self, event: SheetView.Paged | None = None) -> None:
        """The totals of the players out of view (at a tight end, the key that shows the sheet)."""
        sheet = self.query_one(SheetView)
        hidden = [p for p in range(len(self.state.players)) if p not in sheet.shown]
        tight = self.has_class("tight-end") and not self.show_sheet
        self._line("others", _("Tab: the score sheet") if tight else others_text(self.sheet(), hidden))

    def watch_show_sheet(self, shown: bool) -> None:
        """At a tight end: the sheet instead of the end table (Tab)."""
        self.set_class(shown, "show-sheet")
        self.on_sheet_view_paged()
