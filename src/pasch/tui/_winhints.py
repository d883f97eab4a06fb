"""The ``w`` key of sheet games: prepare the win tables that put "P(win)" beside the hints' expected totals.

Decision (issue #14): in single-column games of two to eight players, hints show each option's P(win) when
the rule set's win tables are at hand, that is open in this process or stored in the user cache directory
(memory-mapped on the first hint, about a second). They are never built unasked: a full-size rule set's
tables take minutes and hundreds of MB (2 x 368 MB for ``yahtzee``). The hint list then says so, and ``w``
(in the footer while it applies) asks for them once: they are built in a worker thread, the hint panel
tells the step and the time spent so far ("building the win tables, once (~736 MB): step 2 of 3, 1:05"),
the game goes on meanwhile, and the hints show P(win) when the tables are ready. The build has no finer
progress to report than its steps (the exact table's layers in step 1), so none is invented.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import get_current_worker

from pasch.app import prepare_win_tables, win_applies, win_tables_ready
from pasch.errors import PaschError
from pasch.i18n import _
from pasch.rules import RuleSet

if TYPE_CHECKING:
    from pasch.tui._session import Session

__all__ = ["WinTablesKey"]


class WinTablesKey(Screen[None]):
    """Mixin of :class:`~pasch.tui._game.SheetGameScreen`: the ``w`` key, its worker and its status line.

    The game screen provides ``session``, ``hints_shown``, ``_hints_for`` and the methods stubbed here.
    """

    session: Session
    hints_shown: bool
    _hints_for: object
    win_building: bool = False
    win_status_text: str = ""
    _win_step: tuple[int, int, int, int] = (0, 0, 0, 0)
    _win_started: float = 0.0
    _win_timer: Timer | None = None

    def refresh_view(self) -> None:
        """Redraw the screen (the game screen's)."""
        raise NotImplementedError

    def draw_hint_table(self) -> None:
        """Redraw the hint list (the game screen's)."""
        raise NotImplementedError

    def say(self, text: str, error: bool = False) -> None:
        """Show a message (the game screen's)."""
        raise NotImplementedError

    def win_key_applies(self) -> bool:
        """Whether ``w`` shows: P(win) applies to this game and its tables are not open yet."""
        match = self.session.match
        return not match.finished and win_applies(match.state) and not win_tables_ready(match.rules)

    def action_win_tables(self) -> None:
        """Open the win tables (building them once if they are not stored) and show P(win) in the hints."""
        if not self.win_key_applies():
            return
        self.hints_shown = True  # P(win) shows in the hint panel
        if self.win_building:
            self.refresh_view()
            self.draw_hint_table()
            return
        self.win_building = True
        self._win_started = time.monotonic()
        self._win_step = (1, 3, 0, 0)
        self.win_status_text = self._win_status()
        self._win_timer = self.set_interval(1.0, self._win_tick)
        self._build_win_tables(self.session.match.rules)
        self.refresh_view()
        self.draw_hint_table()

    @work(thread=True, exclusive=True, group="win-tables")
    def _build_win_tables(self, rules: RuleSet) -> None:
        worker = get_current_worker()

        def progress(step: int, steps: int, done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._win_progress, step, steps, done, total)

        error = ""
        try:
            prepare_win_tables(rules, progress)
        except (PaschError, MemoryError, OSError) as exc:
            error = str(exc) or type(exc).__name__
        if not worker.is_cancelled:
            self.app.call_from_thread(self._win_done, error)

    def _win_status(self) -> str:
        step, steps, done, total = self._win_step
        seconds = int(time.monotonic() - self._win_started)
        what = {1: _("the exact table"), 2: _("the threshold table")}.get(step, _("the survival table"))
        share = f", {100 * done // total} %" if total > 0 and step == 1 else ""
        return _("Building the win tables, once (~{mb} MB): step {step} of {steps}, {what}{share}, {m}:{s:02d}").format(
            mb=self._win_mb(), step=step, steps=steps, what=what, share=share, m=seconds // 60, s=seconds % 60
        )

    def _win_mb(self) -> str:
        hints = getattr(self, "hints", None)
        mb = getattr(hints, "win_mb", 0)
        return str(mb) if mb else "?"

    def _win_progress(self, step: int, steps: int, done: int, total: int) -> None:
        self._win_step = (step, steps, done, total)
        self._win_tick()

    def _win_tick(self) -> None:
        if self.win_building:
            self.win_status_text = self._win_status()
            self.draw_hint_table()

    def _win_done(self, error: str) -> None:
        self.win_building = False
        if self._win_timer is not None:
            self._win_timer.stop()
            self._win_timer = None
        self.win_status_text = ""
        if error:
            self.say(_("The win tables could not be prepared: {error}").format(error=error), error=True)
        self._hints_for = None  # the hints again, now with P(win)
        self.refresh_bindings()
        self.refresh_view()
