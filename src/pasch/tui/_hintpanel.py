"""The hint panel of sheet games: it computes the hints of the position it is given, shows them, and builds
the win tables behind "P(win)" when asked (the ``w`` key).

The screen sets :attr:`HintPanel.position` (None while the panel is hidden or a bot plays); the panel
computes the hints in a worker thread, shows them and posts :class:`HintPanel.Ready`, from which the screen
outlines the dice to keep and stars the best box. The list fits its column without wrapping an option (one
line per row, cut with an ellipsis should a label still be too long); the keys that act on it are in its
border, and the sentence that says what the values are is a line of its own that a short screen hides.

Win tables (issue #14): in single-column games of two to eight players, hints show each option's P(win) when
the rule set's win tables are at hand, that is open in this process or stored in the user cache directory
(memory-mapped on the first hint, about a second). They are never built unasked: a full-size rule set's
tables take minutes and hundreds of MB. The list then says so, and ``w`` asks for them once: they are built
in a worker thread, the panel tells the step and the time spent so far, the game goes on meanwhile, and the
hints show P(win) when the tables are ready. The build has no finer progress to report than its steps (the
exact table's layers in step 1), so none is invented.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from pasch.app import WinTables, prepare_win_tables
from pasch.engine import State
from pasch.errors import PaschError
from pasch.i18n import _
from pasch.rules import RuleSet
from pasch.tui._hints import Hints, compute_hints

__all__ = ["HintPanel"]


class HintPanel(Vertical):
    """The hints of one position, and the build of the win tables.

    Attributes:
        position: the position to advise (None: nothing to compute; the panel says when hints appear).
        hints: the hints of :attr:`hints_for` once computed (None while computing).
        show_all: every option instead of the best five.
        keys: the keys that act on the hints, for the border (``b: play · m: all``).
        more_key: the key that lists every option (named when the list is cut).
        win_key: the key that builds the win tables, for the line that offers it (empty: not offered).
        win_building: the win tables are being built.
        win_status: the build's step and time.
        short: the screen is short: the lines say the same in fewer words.
    """

    position: reactive[State | None] = reactive(None, init=False, always_update=True)
    hints: reactive[Hints | None] = reactive(None, init=False)
    show_all: reactive[bool] = reactive(False, init=False)
    keys: reactive[str] = reactive("", init=False)
    more_key: reactive[str] = reactive("m", init=False)
    win_key: reactive[str] = reactive("", init=False)
    win_building: reactive[bool] = reactive(False, init=False)
    win_status: reactive[str] = reactive("", init=False)
    short: reactive[bool] = reactive(False, init=False)

    class Ready(Message):
        """The hints of ``state`` are computed."""

        def __init__(self, state: State, hints: Hints) -> None:
            super().__init__()
            self.state = state
            self.hints = hints

    class WinReady(Message):
        """The win tables' build ended: ``error`` says why it failed (empty when the tables are open)."""

        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints_for: State | None = None
        self._win_step: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._win_started = 0.0
        self._win_info: WinTables | None = None
        self._win_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        """A progress bar while computing, the list, and the note saying what the values are."""
        yield ProgressBar(id="hint-progress", show_eta=False)
        yield Static(id="hint-table")
        yield Static(id="hint-win")
        yield Static(id="hint-note")

    def on_mount(self) -> None:
        """Title the border."""
        self.border_title = _("Hints")
        self.query_one(ProgressBar).display = False

    # -- the hints ------------------------------------------------------------------------------
    def watch_position(self, state: State | None) -> None:
        """Compute the hints of a new position (once per position)."""
        if state is None or state is self.hints_for:
            if state is None:
                self.hints_for = None
                self._draw()
            return
        self.hints_for, self.hints = state, None
        if getattr(state, "dice", None) is None or state.is_terminal:
            self._draw()
            return
        self.query_one(ProgressBar).update(total=None, progress=0)
        self._draw()
        self._compute(state)

    @work(thread=True, exclusive=True, group="hints")
    def _compute(self, state: State) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.query_one(ProgressBar).update, total=total, progress=done)

        hints = compute_hints(state, progress)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._computed, state, hints)

    def _computed(self, state: State, hints: Hints) -> None:
        if state is self.hints_for:
            self.hints = hints
            self.post_message(self.Ready(state, hints))

    def current(self) -> Hints | None:
        """The hints of the position given, once computed."""
        return self.hints if self.hints_for is not None and self.hints_for is self.position else None

    # -- drawing --------------------------------------------------------------------------------
    def watch_keys(self, keys: str) -> None:
        """The keys in the border's foot."""
        self.border_subtitle = keys

    def watch_hints(self) -> None:
        """The new list."""
        self._draw()

    watch_show_all = watch_more_key = watch_win_key = watch_win_building = watch_win_status = watch_hints
    watch_short = watch_hints

    def _extra(self) -> list[str]:
        hints = self.hints
        if self.win_building:
            return [self.win_status]
        info = hints.win_tables if hints is not None else None
        if hints is not None and hints.win == "missing" and self.win_key and info is not None:
            fast, slow = info.minutes
            if self.short:  # the same statement in fewer words
                return [
                    _("{key}: P(win); builds once: up to {peak} MB, {fast}–{slow} min").format(
                        key=self.win_key, peak=info.peak_megabytes, fast=fast, slow=slow
                    )
                ]
            return [
                _(
                    "{key}: P(win) beside each option. Builds the win tables once: up to {peak} MB of memory, "
                    "{disk} MB on disk, {fast}–{slow} min."
                ).format(key=self.win_key, peak=info.peak_megabytes, disk=info.megabytes, fast=fast, slow=slow)
            ]
        return []

    def _draw(self) -> None:
        table, note = self.query_one("#hint-table", Static), self.query_one("#hint-note", Static)
        extra = self._extra()
        win = self.query_one("#hint-win", Static)
        win.update(Text("\n".join(extra)))
        win.display = bool(extra)
        bar = self.query_one(ProgressBar)
        state, hints = self.hints_for, self.hints
        if hints is None:
            dice = getattr(state, "dice", None) if state is not None else None
            bar.display = dice is not None
            table.update(_("Computing hints…") if dice is not None else _("Hints appear once the dice are thrown."))
            note.set_class(False, "shown")
            return
        bar.display = False  # the list needs the line more
        lines = hints.lines(None if self.show_all else 5, self.more_key)
        if hints.suggestion and not hints.exact and not any(r.best for r in hints.rows):  # else the ★ row says it
            lines.insert(0, _("Suggested (strongest bot): {action}").format(action=hints.suggestion))
        table.update(Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))
        note.update(Text(hints.note))
        note.set_class(bool(hints.note), "shown")

    # -- the win tables -------------------------------------------------------------------------
    def build_win_tables(self, rules: RuleSet, info: WinTables | None) -> None:
        """Build (or open) the win tables of ``rules`` in a worker; ``info``: where they stand (what a build
        takes, as stated before it starts)."""
        if self.win_building:
            return
        self._win_started = time.monotonic()
        self._win_step = (1, 3, 0, 0)
        self._win_info = info
        self.win_status = self._win_text()
        self.win_building = True
        self._win_timer = self.set_interval(1.0, self._win_tick)
        self._build(rules)

    @work(thread=True, exclusive=True, group="win-tables")
    def _build(self, rules: RuleSet) -> None:
        worker = get_current_worker()

        def progress(step: int, steps: int, done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._win_progress, step, steps, done, total)

        error = ""
        try:
            prepare_win_tables(rules, progress)
        except (PaschError, MemoryError, OSError) as exc:  # WinTablesTooBigError: nothing was started
            error = str(exc) or type(exc).__name__
        if not worker.is_cancelled:
            self.app.call_from_thread(self._win_done, error)

    def _win_text(self) -> str:
        step, steps, done, total = self._win_step
        seconds = int(time.monotonic() - self._win_started)
        what = {1: _("the exact table"), 2: _("the threshold table")}.get(step, _("the survival table"))
        share = f", {100 * done // total} %" if total > 0 and step == 1 else ""
        info = self._win_info
        stated = (
            _("up to {peak} MB, {fast}–{slow} min").format(
                peak=info.peak_megabytes, fast=info.minutes[0], slow=info.minutes[1]
            )
            if info is not None
            else "?"
        )
        return _("Building the win tables, once ({stated}): step {step} of {steps}, {what}{share}, {m}:{s:02d}").format(
            stated=stated, step=step, steps=steps, what=what, share=share, m=seconds // 60, s=seconds % 60
        )

    def _win_progress(self, step: int, steps: int, done: int, total: int) -> None:
        self._win_step = (step, steps, done, total)
        self._win_tick()

    def _win_tick(self) -> None:
        if self.win_building:
            self.win_status = self._win_text()

    def _win_done(self, error: str) -> None:
        if self._win_timer is not None:
            self._win_timer.stop()
            self._win_timer = None
        self.win_building = False
        self.win_status = ""
        self.hints_for = None  # the hints again, now with P(win)
        self.post_message(self.WinReady(error))
